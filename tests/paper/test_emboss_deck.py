"""Card labels on paper: the labels of UNO-12 at the real card size, packed as a guillotine
cuts them, each with its bleed and its braille at the same place (issue 18)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.display.braille import table_for, translator
from emboss.deck import BLEED, EDGE, area_bound, deck_document, deck_layout, sheet_layout
from emboss.page import CELL_SIZES, Document, Geometry, Paper, paper
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


def placed_labels(document, layout):
    """Each slot's label read back from the document's dots, relative to the slot's cuts with
    the layout's one offset: {slot index: cells of its first line}."""
    geometry = document.geometry
    cell = geometry.cell
    found: dict[tuple[int, int], dict[int, int]] = {}
    for page in range(len(document.pages)):
        for x, y in dots(document, page):
            owners = [index for index, slot in enumerate(layout.slots)
                      if slot.x <= x <= slot.x + slot.width and slot.y <= y <= slot.y + slot.height]
            assert len(owners) == 1, (x, y)
            slot = layout.slots[owners[0]]
            across = (x - slot.x - layout.left) / cell.cell_pitch
            down = (y - slot.y - layout.top) / cell.line_pitch
            col, line = math.floor(across + 1e-6), math.floor(down + 1e-6)
            dx = round((across - col) * cell.cell_pitch / cell.dot_pitch)
            dy = round((down - line) * cell.line_pitch / cell.dot_pitch)
            # Every dot lies exactly on a dot place of a cell laid from the common offset.
            assert abs((across - col) * cell.cell_pitch - dx * cell.dot_pitch) < 0.01
            assert abs((down - line) * cell.line_pitch - dy * cell.dot_pitch) < 0.01
            assert line == 0 and 0 <= dx <= 1 and 0 <= dy <= 2, (x, y, slot)
            bit = (dy if dx == 0 else 3 + dy)
            cells = found.setdefault((page, owners[0]), {})
            cells[col] = cells.get(col, 0) | (1 << bit)
    return {key: "".join(chr(0x2800 + cells.get(col, 0)) for col in range(max(cells) + 1))
            for key, cells in found.items()}


@pytest.mark.parametrize("game", ["uno", "rummikub", "elevens"])
@pytest.mark.parametrize(("name", "rotate"), [("a4", False), ("a4", True), ("letter", True),
                                              ("11x12in", True)])
def test_issue_18_braille_sits_the_same_place_below_every_top_cut(game, name, rotate):
    """Issue 18: the braille sat 12, 5 or 8 mm below the top cut by the label's row."""
    geometry = Geometry(paper(name))
    louis = translator("en-ueb-g1.ctb")
    faces = kit(game).deck_faces("en")
    size = kit(game).card_size()
    layout = deck_layout(faces, geometry, size, louis, rotate)
    document = deck_document(faces, geometry, size, louis, game, "en", rotate)
    assert EDGE <= layout.top < EDGE + geometry.cell.line_pitch
    assert EDGE <= layout.left < EDGE + geometry.cell.cell_pitch
    read = placed_labels(document, layout)
    per_sheet = len(layout.slots)
    assert len(read) == len(faces)
    for (page, index), cells in read.items():
        face = faces[page * per_sheet + index]
        assert cells == louis.translate(face.lines[0], label=True).cells, face.card


def test_cut_marks_leave_a_bleed_between_labels():
    geometry = Geometry(paper("a4"))
    size = kit("uno").card_size()
    faces = kit("uno").deck_faces("fr", "r7,y7,wi+4")
    document = deck_document(faces, geometry, size, translator("fr-bfu-comp6.utb"), "Uno",
                             "fr", rotate=True)
    assert [caption.text for caption in document.pages[0].captions] == [
        "rouge 7", "jaune 7", "joker +4"]
    # A full sheet (the whole deck's first) has every slot marked.
    faces = kit("uno").deck_faces("fr")
    layout = deck_layout(faces, geometry, size, translator("fr-bfu-comp6.utb"), rotate=True)
    page = deck_document(faces, geometry, size, translator("fr-bfu-comp6.utb"), "Uno", "fr",
                         rotate=True).pages[0]
    assert len(page.captions) == len(layout.slots) == 11
    for a, b in itertools.combinations(layout.slots, 2):
        assert (a.x + a.width + BLEED <= b.x + 1e-6 or b.x + b.width + BLEED <= a.x + 1e-6
                or a.y + a.height + BLEED <= b.y + 1e-6 or b.y + b.height + BLEED <= a.y + 1e-6)
    sheet = geometry.paper
    for slot in layout.slots:
        # Each edge is marked across the bleed at both ends (the sheet's edge stops it).
        top, bottom = max(0, slot.y - BLEED), min(sheet.height, slot.y + slot.height + BLEED)
        left, right = max(0, slot.x - BLEED), min(sheet.width, slot.x + slot.width + BLEED)
        for x in (slot.x, slot.x + slot.width):
            assert any(cut.x1 == cut.x2 == pytest.approx(x, abs=0.01) and cut.y1 <= top + 0.01
                       and cut.y2 >= bottom - 0.01 for cut in page.cuts)
        for y in (slot.y, slot.y + slot.height):
            assert any(cut.y1 == cut.y2 == pytest.approx(y, abs=0.01) and cut.x1 <= left + 0.01
                       and cut.x2 >= right - 0.01 for cut in page.cuts)
    # No mark runs into another label: a cut line crosses no label it does not bound.
    for cut in page.cuts:
        for slot in layout.slots:
            inside_x = slot.x + 0.01 < cut.x1 < slot.x + slot.width - 0.01
            inside_y = slot.y + 0.01 < cut.y1 < slot.y + slot.height - 0.01
            if cut.x1 == cut.x2 and inside_x:
                assert cut.y2 <= slot.y + 0.01 or cut.y1 >= slot.y + slot.height - 0.01
            if cut.y1 == cut.y2 and inside_y:
                assert cut.x2 <= slot.x + 0.01 or cut.x1 >= slot.x + slot.width - 0.01


def test_issue_32_16_only_labels_get_cut_marks_an_empty_slot_is_blank_paper():
    geometry = Geometry(paper("a4"))
    louis = translator("en-ueb-g1.ctb")
    tiles, size = kit("rummikub").deck_faces("en", "r1,r2,b13,k5,J"), kit("rummikub").card_size()
    layout = deck_layout(tiles, geometry, size, louis)
    [page] = deck_document(tiles, geometry, size, louis, "Rummikub", "en").pages
    assert len(layout.slots) > 5
    used, empty = layout.slots[:5], layout.slots[5:]

    def bounds(cut):
        return min(cut.x1, cut.x2), min(cut.y1, cut.y2), max(cut.x1, cut.x2), max(cut.y1, cut.y2)

    # Four edges a label, shared edges once: every mark runs along an edge of a used label,
    # within its bleed, and none along an empty slot's edge that no label shares.
    assert 10 <= len(page.cuts) <= 4 * 5
    for cut in page.cuts:
        x1, y1, x2, y2 = bounds(cut)
        assert any((x1 == x2 and x1 in (round(s.x, 2), round(s.x + s.width, 2))
                    and y1 >= s.y - BLEED - 0.01 and y2 <= s.y + s.height + BLEED + 0.01)
                   or (y1 == y2 and y1 in (round(s.y, 2), round(s.y + s.height, 2))
                       and x1 >= s.x - BLEED - 0.01 and x2 <= s.x + s.width + BLEED + 0.01)
                   for s in used), cut
    for slot in empty:
        inside = [cut for cut in page.cuts
                  if slot.x + 0.01 < (cut.x1 + cut.x2) / 2 < slot.x + slot.width - 0.01
                  and slot.y + 0.01 < (cut.y1 + cut.y2) / 2 < slot.y + slot.height - 0.01]
        assert not inside
        assert not any(slot.x + BLEED < x < slot.x + slot.width - BLEED
                       and slot.y + BLEED < y < slot.y + slot.height - BLEED
                       for x, y in dots(Document(geometry, [page], "t", "en"), 0))
    # The whole sheet of the same deck is marked all over: the empty slots were the change.
    full = kit("rummikub").deck_faces("en")[:len(layout.slots)]
    [full_page] = deck_document(full, geometry, size, louis, "Rummikub", "en").pages
    assert len(full_page.cuts) > len(page.cuts)


def test_captions_name_the_card_and_sit_below_its_braille():
    geometry = Geometry(paper("a4"))
    faces = kit("uno").deck_faces("en", "r7,g+2,wi")
    document = deck_document(faces, geometry, kit("uno").card_size(),
                             translator("en-ueb-g1.ctb"), "Uno", "en")
    page = document.pages[0]
    assert [caption.text for caption in page.captions] == ["red 7", "green draw two", "wild"]
    lowest = max(y for _, y in dots(document, 0))
    assert all(caption.y > lowest + 2 for caption in page.captions)


@pytest.mark.parametrize("name", ["a4", "letter", "11x11.5in", "11x12in"])
def test_turning_labels_never_fits_fewer(name):
    geometry, size = Geometry(paper(name)), kit("uno").card_size()
    faces, louis = kit("uno").deck_faces("en"), translator("en-ueb-g1.ctb")
    upright = deck_layout(faces, geometry, size, louis)
    turned = deck_layout(faces, geometry, size, louis, rotate=True)
    assert not any(slot.turned for slot in upright.slots)
    assert len(turned.slots) >= len(upright.slots) >= 9
    assert len(turned.slots) <= area_bound(geometry.paper, size)


def test_a4_takes_eleven_uno_labels_turned_as_edge_to_edge():
    geometry, size = Geometry(paper("a4")), kit("uno").card_size()
    turned = deck_layout(kit("uno").deck_faces("en"), geometry, size,
                         translator("en-ueb-g1.ctb"), rotate=True)
    assert len(turned.slots) == 11 == most_edge_to_edge(paper("a4"), size)
    assert any(slot.turned for slot in turned.slots)


def most_edge_to_edge(sheet: Paper, size: CardSize) -> int:
    """The most cards a sheet holds edge to edge, any packing at all (not only guillotine
    cuts): an exhaustive search over normal patterns, every card pushed up and left against
    others, so corners lie at sums of the card's sides."""
    def sums(limit: float) -> list[float]:
        return sorted({a * size.width + b * size.height for a in range(12) for b in range(12)
                       if a * size.width + b * size.height <= limit + 1e-9})

    places = [(x, y, w, h) for w, h in ((size.width, size.height), (size.height, size.width))
              for x in sums(sheet.width - w) for y in sums(sheet.height - h)]

    def apart(p, q) -> bool:
        return (p[0] + p[2] <= q[0] + 1e-9 or q[0] + q[2] <= p[0] + 1e-9
                or p[1] + p[3] <= q[1] + 1e-9 or q[1] + q[3] <= p[1] + 1e-9)

    # The places each place leaves free, as bits of an int: the search's sets of places left
    # are then ints (a list made at every step took 26 s of a profiled run for A4).
    free = [sum(1 << j for j, q in enumerate(places) if j > i and apart(p, q))
            for i, p in enumerate(places)]
    bound, best = area_bound(sheet, size), 0

    def search(left: int, count: int) -> None:
        nonlocal best
        if count + left.bit_count() <= best or bound <= best:
            return
        if not left:
            best = count
            return
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        search(rest & free[first], count + 1)
        search(rest, count)

    search((1 << len(places)) - 1, 0)
    return best


def test_letter_cannot_take_eleven_uno_cards_by_any_packing():
    # 90% of Letter's area bound (12 cards of 56 x 87 mm) would be 11 cards: no packing of
    # any kind, even edge to edge without bleed, holds 11; the 10 placed are the most there is.
    size = kit("uno").card_size()
    assert area_bound(paper("letter"), size) == 12
    assert most_edge_to_edge(paper("letter"), size) == 10
    turned = deck_layout(kit("uno").deck_faces("en"), Geometry(paper("letter")), size,
                         translator("en-ueb-g1.ctb"), rotate=True)
    assert len(turned.slots) == 10


def test_uno_deck_is_the_engine_deck():
    from games.uno.engine import _deck

    assert sorted(kit("uno").whole_deck()) == sorted(_deck(rules_data("uno")))


def test_replacement_set_in_the_game_notation():
    assert kit("uno").parse_cards("r7, R7,b+2,WI", "en") == ["r7", "r7", "b+2", "wi"]
    faces = kit("uno").deck_faces("en", "r7,r7,b+2,wi")
    assert [face.lines[0] for face in faces] == ["r7", "r7", "b+2", "wi"]


@pytest.mark.parametrize("game", [game for game in GAMES if kit(game).deck is not None])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_replacement_set_reads_the_labels_of_its_language(game, lang):
    faces = kit(game).deck_faces(lang)
    written = ",".join(" ".join(face.lines) for face in faces)
    assert kit(game).parse_cards(written, lang) == [face.card for face in faces]


def test_french_cards_are_written_and_explained_as_their_labels():
    assert kit("uno").parse_cards("j7, vpas, jk+4, r+2", "fr") == ["y7", "gsk", "wi+4", "r+2"]
    assert kit("rummikub").parse_cards("n5,j12,jo", "fr") == ["K5", "Y12", "J"]
    assert kit("elements").parse_cards("n10, éb", "fr") == ["k10", "Eb"]
    with pytest.raises(PaperError) as error:
        kit("uno").parse_cards("j7,x9", "fr")
    assert "une couleur r, j, v ou b" in str(error.value) and "vpas" in str(error.value)


def test_unknown_card_is_named_and_the_notation_listed():
    with pytest.raises(PaperError) as error:
        kit("uno").parse_cards("r7,x9", "en")
    assert "'x9'" in str(error.value) and "sk, rv or +2" in str(error.value)
    with pytest.raises(PaperError, match="joker"):
        kit("uno").parse_cards("r10", "fr")
    with pytest.raises(PaperError, match="empty"):
        kit("uno").parse_cards(" , ", "en")


def test_a_game_without_card_labels_names_those_that_have_them():
    with pytest.raises(PaperError, match="no card labels for uno yet; brailledev emboss deck "
                                         "--help lists the games that have them"):
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
@given(st.floats(100, 600), st.floats(100, 900), st.floats(30, 120), st.floats(30, 160),
       st.booleans(), st.sampled_from(["marburg", "us"]))
def test_packing_keeps_bleed_grid_and_sheet(width, height, card_w, card_h, rotate, cell):
    geometry = Geometry(Paper("custom", width, height), CELL_SIZES[cell])
    size = CardSize(card_w, card_h)
    layout = sheet_layout(geometry, size, cells=3, lines=1, rotate=rotate)
    assert len(layout.slots) <= area_bound(geometry.paper, size)
    for slot in layout.slots:
        assert slot.x >= -1e-6 and slot.x + slot.width <= width + 1e-6
        assert slot.y >= -1e-6 and slot.y + slot.height <= height + 1e-6
        assert {slot.width, slot.height} == {card_w, card_h}
        assert rotate or not slot.turned
        # The braille of every label starts on a cell of the embosser's grid.
        x, y = slot.x + layout.left, slot.y + layout.top
        col = (x - geometry.margins.left) / geometry.cell.cell_pitch
        line = (y - geometry.margins.top) / geometry.cell.line_pitch
        assert abs(col - round(col)) < 1e-6 and abs(line - round(line)) < 1e-6
        assert round(col) >= 0 and round(col) + 3 <= geometry.cells_per_line
        assert 0 <= round(line) < geometry.lines_per_page
    for a, b in itertools.combinations(layout.slots, 2):
        assert (a.x + a.width + BLEED <= b.x + 1e-6 or b.x + b.width + BLEED <= a.x + 1e-6
                or a.y + a.height + BLEED <= b.y + 1e-6 or b.y + b.height + BLEED <= a.y + 1e-6)


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
