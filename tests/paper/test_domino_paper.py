"""Domino 10-11-12 on paper: the 50 card labels, and the printed pad is the engine's pad."""

from collections import Counter

import pytest

from brailledev.display.braille import table_for, translator
from emboss.page import Geometry, paper
from emboss.scorepad import GUIDE, pad_document
from games.domino import GAME
from games.domino.book import DominoBook, EnterTurn
from games.domino.grid import card_text
from games.pads import play
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


def grand_total_box(page, braille, label: str) -> str:
    """The Grand Total line's box on an embossed page, read back: the cells after the label
    up to the guide that closes the box."""
    start = braille.translate(label).cells + "\u2800"
    [row] = [row for row in page.rows() if row.startswith(start)]
    return braille.back(row[len(start):row.index(GUIDE)].rstrip("\u2800"))


@pytest.mark.parametrize(("lang", "label"), [("en", "Grand Total"), ("fr", "Total général")])
def test_dom_10_the_blank_pad_has_its_grand_total_line_to_fill(lang, label):
    braille = translator(table_for(lang))
    sheets = kit("domino").pad_sheets(lang, 2)
    assert [sheet.grand_total for sheet in sheets] == [label, label]
    document = pad_document(sheets, Geometry(paper("a4")), braille, "pad", lang)
    assert [grand_total_box(page, braille, label) for page in document.pages] == ["", ""]


def test_dom_8_to_dom_10_the_filled_pad_is_the_pad_the_display_kept():
    book = DominoBook.blank(DATA, 2)
    for lines in ([10, 11, 12], [12, 12, 12], [11], [10], [12], []):
        book, _ = play(book, EnterTurn(tuple(lines)))
    sheets = kit("domino").pad_sheets("en", 2, book)
    columns = [column.heading for column in sheets[0].columns]
    first, second = sheets[0].rows, sheets[1].rows
    # Player 1: 10, 11 and 12 on the opening (no super bonus), then 11 and 12: row 1 earns
    # its bonus; player 2: three 12s (15 and a super bonus, bottom up in total), then a 10.
    assert first[0] == ("1", "3", "5", "1", "") and first[1] == ("", "3", "5", "", "")
    assert second[0][columns.index("12")] == "15" and second[0][columns.index("10")] == "1"
    assert second[-1][columns.index("total")] == "6"
    assert [sheet.grand_value for sheet in sheets] == [str(t) for t in book.totals()]
    braille = translator("en-ueb-g1.ctb")
    document = pad_document(sheets, Geometry(paper("a4")), braille, "pad", "en")
    assert [grand_total_box(page, braille, "Grand Total") for page in document.pages] == [
        str(total) for total in book.totals()] == ["18", "22"]
