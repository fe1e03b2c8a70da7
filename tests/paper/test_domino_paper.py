"""Domino 10-11-12 on paper: the 50 card labels, and the printed pad is the engine's pad."""

from collections import Counter

import pytest

from brailledev.braille import table_for, translator
from games.domino import GAME
from games.domino.grid import card_text
from layouts.catalog import Catalog, rules_data
from layouts.errors import PaperError
from layouts.registry import kit

DATA = rules_data("domino")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_dom_1_labels_for_the_fifty_cards_read_back_as_on_the_display(lang):
    faces = kit("domino").deck_faces(lang)
    engine_deck = Counter(card_text(c) for c in GAME.new(2, 1, DATA).box.deck)
    assert Counter(face.card for face in faces) == engine_deck and len(faces) == 50
    labels = Catalog.load("domino", lang).section("cards")
    braille = translator(table_for(lang))
    for face in faces:
        assert face.lines == (labels[face.card],)
        assert braille.back(braille.translate(face.lines[0], label=True).cells) == face.card


def test_replacement_cards_in_either_order_and_a_clear_refusal():
    assert kit("domino").parse_cards("0/6, 1/1", "en") == ["6/0", "1/1"]
    assert "6/0" in kit("domino").whole_deck()
    with pytest.raises(PaperError, match="write cards as"):
        kit("domino").parse_cards("0/0", "en")


@pytest.mark.parametrize("players", [2, 4])
def test_dom_8_printed_pad_is_the_engines_pad(players):
    sheets = kit("domino").pad_sheets("en", players)
    pad = GAME.new(players, 1, DATA).pads[0]
    assert len(sheets) == players
    for sheet in sheets:
        assert [c.heading for c in sheet.columns][:3] == [str(v) for v in pad.values]
        assert len(sheet.rows) == pad.rows
        bonus = [c.heading for c in sheet.columns].index("bonus")
        assert tuple(int(row[bonus]) for row in sheet.rows) == pad.row_bonus
