"""Uno card labels on paper: the labels of UNO-12, at the real card size, packed tight."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.braille import table_for, translator
from emboss.deck import EDGE, area_bound, deck_document, grid, physical_maximum, slots
from emboss.page import Geometry, Paper, paper
from emboss.preview import dots
from layouts.catalog import rules_data
from layouts.errors import PaperError
from layouts.paper import CardSize
from layouts.registry import GAMES, kit


def test_uno_1_whole_deck_from_the_box_data():
    cards = kit("uno").whole_deck()
    rules = rules_data("uno")
    assert len(cards) == 108
    counts = Counter(cards)
    for colour in rules["colours"]:
        for value, copies in rules["deck"].items():
            assert counts[colour + value] == copies
    assert counts["wi"] == rules["wilds"]["wi"] and counts["wi+4"] == rules["wilds"]["wi+4"]


def test_uno_12_labels_are_colour_letter_and_value():
    english = {face.card: face.lines[0] for face in kit("uno").deck_faces("en")}
    assert (english["r5"], english["r+2"], english["rsk"], english["rrv"]) == (
        "r5", "r+2", "rsk", "rrv")
    assert (english["wi"], english["wi+4"]) == ("wi", "wi+4")
    french = {face.card: face.lines[0] for face in kit("uno").deck_faces("fr")}
    assert (french["y7"], french["g+2"], french["brv"], french["rsk"]) == (
        "j7", "v+2", "binv", "rpas")
    assert (french["wi"], french["wi+4"]) == ("jk", "jk+4")


def test_labels_lie_inside_their_cards_on_every_sheet():
    geometry = Geometry(paper("a4"))
    size = kit("uno").card_size()
    assert (size.width, size.height) == (56, 87)
    document = deck_document(kit("uno").deck_faces("en"), geometry, size,
                             translator("en-ueb-g1.ctb"), "Uno", "en")
    columns, rows = grid(geometry.paper, size)
    assert len(document.pages) == -(-108 // (columns * rows))
    x0 = (geometry.paper.width - columns * size.width) / 2
    y0 = (geometry.paper.height - rows * size.height) / 2
    for index in range(len(document.pages)):
        seen = set()
        for x, y in dots(document, index):
            column, row = int((x - x0) // size.width), int((y - y0) // size.height)
            assert 0 <= column < columns and 0 <= row < rows
            left, top = x0 + column * size.width, y0 + row * size.height
            assert left + EDGE <= x <= left + size.width - EDGE
            assert top + EDGE <= y <= top + size.height - EDGE
            seen.add((column, row))
        expected = min(columns * rows, 108 - index * columns * rows)
        assert len(seen) == expected


def test_captions_and_cut_marks_for_every_label():
    geometry = Geometry(paper("a4"))
    document = deck_document(kit("uno").deck_faces("fr", "r7,y7,wi+4"), geometry,
                             kit("uno").card_size(), translator("fr-bfu-comp6.utb"), "Uno",
                             "fr")
    page = document.pages[0]
    assert [caption.text for caption in page.captions] == ["rouge 7", "jaune 7", "joker +4"]
    for slot in slots(geometry.paper, kit("uno").card_size()):
        for x in (slot.x, slot.x + slot.width):
            assert any(cut.x1 == cut.x2 == pytest.approx(x, abs=0.01)
                       and cut.y1 <= slot.y and cut.y2 >= slot.y + slot.height
                       for cut in page.cuts)
        for y in (slot.y, slot.y + slot.height):
            assert any(cut.y1 == cut.y2 == pytest.approx(y, abs=0.01)
                       and cut.x1 <= slot.x and cut.x2 >= slot.x + slot.width
                       for cut in page.cuts)


@pytest.mark.parametrize("name", ["a4", "letter", "11x11.5in", "11x12in", "250x353"])
def test_at_least_ninety_percent_of_the_physical_maximum(name):
    sheet = paper(name)
    size = kit("uno").card_size()
    geometry = Geometry(sheet)
    columns, rows = grid(sheet, size)
    upright = deck_document(kit("uno").deck_faces("en"), geometry, size,
                            translator("en-ueb-g1.ctb"), "Uno", "en")
    assert len(upright.pages[0].captions) == columns * rows == physical_maximum(sheet, size)
    turned = deck_document(kit("uno").deck_faces("en"), geometry, size,
                           translator("en-ueb-g1.ctb"), "Uno", "en", rotate=True)
    placed = len(turned.pages[0].captions)
    assert placed >= columns * rows
    assert placed >= 0.9 * physical_maximum(sheet, size, rotated=True)
    assert placed <= area_bound(sheet, size)


def test_turned_labels_read_along_the_long_edge_inside_their_card():
    geometry = Geometry(paper("a4"))
    places = slots(geometry.paper, kit("uno").card_size(), rotate=True)
    assert len(places) == 11 and any(slot.turned for slot in places)
    document = deck_document(kit("uno").deck_faces("en")[:11], geometry, kit("uno").card_size(),
                             translator("en-ueb-g1.ctb"), "Uno", "en", rotate=True)
    for x, y in dots(document, 0):
        assert any(slot.x + EDGE <= x <= slot.x + slot.width - EDGE
                   and slot.y + EDGE <= y <= slot.y + slot.height - EDGE for slot in places)


def test_uno_deck_is_the_engine_deck():
    from games.uno.engine import _deck

    assert sorted(kit("uno").whole_deck()) == sorted(_deck(rules_data("uno")))


def test_replacement_set_in_the_game_notation():
    assert kit("uno").parse_cards("r7, R7,b+2,WI", "en") == ["r7", "r7", "b+2", "wi"]
    faces = kit("uno").deck_faces("en", "r7,r7,b+2,wi")
    assert [face.lines[0] for face in faces] == ["r7", "r7", "b+2", "wi"]


def test_unknown_card_is_named_and_the_notation_listed():
    with pytest.raises(PaperError) as error:
        kit("uno").parse_cards("r7,x9", "en")
    assert "'x9'" in str(error.value) and "sk, rv or +2" in str(error.value)
    with pytest.raises(PaperError, match="joker"):
        kit("uno").parse_cards("r10", "fr")
    with pytest.raises(PaperError, match="empty"):
        kit("uno").parse_cards(" , ", "en")


def test_a_game_without_card_labels_names_those_that_have_them():
    with pytest.raises(PaperError, match="no card labels for uno yet; choose one of domino, "):
        replace(kit("uno"), deck=None).deck_faces("en")


def test_card_larger_than_the_paper_is_refused():
    with pytest.raises(PaperError, match="does not fit"):
        deck_document(kit("uno").deck_faces("en", "r1"), Geometry(paper("a4")),
                      CardSize(250, 100), translator("en-ueb-g1.ctb"), "Uno", "en")


def test_label_too_long_for_a_card_is_refused_naming_the_card():
    with pytest.raises(PaperError, match="card r1"):
        deck_document(kit("uno").deck_faces("en", "r1"), Geometry(paper("a4")),
                      CardSize(20, 40), translator("en-ueb-g1.ctb"), "Uno", "en")


def test_label_that_needs_eight_dots_is_an_error_naming_it():
    from emboss.deck import card_cells
    from layouts.paper import Face

    with pytest.raises(PaperError, match="label 'R5' of card r5 cannot be written in six-dot"):
        card_cells(translator("en-us-comp8.ctb"), Face("r5", ("R5",), "R5"))


@settings(max_examples=60, deadline=None)
@given(st.floats(60, 600), st.floats(60, 900), st.floats(20, 120), st.floats(20, 160),
       st.booleans())
def test_packing_never_overlaps_nor_leaves_the_sheet(width, height, card_w, card_h, rotate):
    sheet, size = Paper("custom", width, height), CardSize(card_w, card_h)
    places = slots(sheet, size, rotate)
    columns, rows = grid(sheet, size)
    assert len(places) >= columns * rows
    assert len(places) <= area_bound(sheet, size)
    for slot in places:
        assert slot.x >= -1e-6 and slot.x + slot.width <= width + 1e-6
        assert slot.y >= -1e-6 and slot.y + slot.height <= height + 1e-6
        assert {slot.width, slot.height} == {card_w, card_h}
        assert rotate or not slot.turned
    for a, b in itertools.combinations(places, 2):
        apart = (a.x + a.width <= b.x + 1e-6 or b.x + b.width <= a.x + 1e-6
                 or a.y + a.height <= b.y + 1e-6 or b.y + b.height <= a.y + 1e-6)
        assert apart


@pytest.mark.parametrize("game", sorted(name for name in GAMES if kit(name).deck is not None))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_registered_deck_fits_its_cards_and_reads_back(game, lang):
    louis = translator(table_for(lang))
    faces = kit(game).deck_faces(lang)
    document = deck_document(faces, Geometry(paper("a4")), kit(game).card_size(), louis, game,
                             lang)
    assert sum(len(page.captions) for page in document.pages) == len(faces)
    for face in faces:
        for line in face.lines:
            assert louis.back(louis.translate(line, label=True).cells) == line, (game, face.card)
