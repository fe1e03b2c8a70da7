"""A board laid out in cells (brailledev/display/page.py), with real liblouis: bands keep
their rows, pages with markers, routing on every row, PACK lines kept on their rows, a
GRID band under its head."""

from __future__ import annotations

import pytest

from brailledev.display.braille import BLANK, translator
from brailledev.display.page import Page
from brailledev.display.window import LEFT_MARKER, RIGHT_MARKER
from layouts.board import FLOW, GRID, PACK, READING, Band, Board, Part, Size, stack
from layouts.screen import Ask, Line, Region

EN = translator("en-ueb-g1.ctb")


def cards(key: str, count: int, start: int = 1) -> Line:
    """A line of ``count`` routable card labels ``r1``, ``r2`` ..."""
    return Line(key, tuple(Region(f"r{number}", target=Ask((key, number)), label=True)
                           for number in range(start, start + count)))


def message(text: str) -> Line:
    return Line("messages", tuple(Region(word) for word in text.split()))


def test_each_band_keeps_its_rows_and_routing_works_on_every_row() -> None:
    board = Board((Band(READING, (message("Bo plays r5."),), 1),
                   Band("hand", (cards("hand", 20),), 2),
                   Band("commands", (cards("commands", 2, start=50),), 1)))
    page = Page(EN, 20, 5)
    page.show(board)
    rows = page.rows()
    assert len(rows) == 5 and all(len(row) == 20 for row in rows)
    assert [sorted(lines) for lines in page.row_lines()] == \
        [["messages"], ["hand"], ["hand"], ["commands"], []]
    assert rows[4] == BLANK * 20  # below the last band
    for row in (1, 2, 3):
        first = page.items()[[item[0] for item in page.items()].index(row)]
        spot = page.spot(first)
        hit = page.route(spot.column, row)
        assert hit is not None and hit.item is spot.line.regions[spot.region]


def test_a_band_pages_what_does_not_fit_with_markers_and_a_routing_key_turns_it() -> None:
    board = Board((Band(READING, (message("news"),), 1), Band("hand", (cards("hand", 30),), 2)))
    page = Page(EN, 20, 3)
    page.show(board)
    shown, count = page.pages("hand")
    assert shown == 0 and count > 2
    assert page.rows()[2].endswith(RIGHT_MARKER) and not page.rows()[1].endswith(RIGHT_MARKER)
    first = {spot for spot in page.row_lines()[1]}
    assert page.marker(19, 2) == "hand"  # the marker of more pages turns the band
    assert page.pages("hand")[0] == 1 and page.rows()[1].startswith(LEFT_MARKER)
    assert page.row_lines()[1] == first  # the same line, its next regions
    assert page.route(0, 1) is None and page.marker(0, 1) == "hand"
    assert page.pages("hand")[0] == 0
    assert page.where("hand", 29) == ("hand", count - 1)
    assert not page.turn("hand", -1)


def test_a_pack_band_keeps_each_line_on_its_row_while_it_fits() -> None:
    sets = [cards(f"set_{number}", 3, start=number * 10) for number in range(1, 7)]
    page = Page(EN, 40, 4)
    page.show(Board((Band("sets", tuple(sets), 4, PACK),)))
    before = page.rows()
    where = {key: row for row, lines in enumerate(page.row_lines()) for key in lines}
    assert len({where[line.key] for line in sets}) < len(sets)  # several to a row
    grown = [*sets]
    grown[1] = cards("set_2", 5, start=20)  # set 2 grows (and no longer fits its row)
    page.show(Board((Band("sets", tuple(grown), 4, PACK),)))
    after = page.rows()
    moved = {key: row for row, lines in enumerate(page.row_lines()) for key in lines}
    changed = [row for row in range(4) if before[row] != after[row]]
    assert changed and all(row in (where["set_2"], moved["set_2"]) for row in changed)
    assert all(moved[key] == where[key] for key in where if key != "set_2")


def test_a_grid_band_shows_its_head_on_every_page_and_keeps_its_rows_when_a_line_comes_above(
        ) -> None:
    head = Line("columns", tuple(Region(chr(0x2801 + column)) for column in range(8)), gap=0)
    rows = [Line(f"grid{number}", tuple(Region("\u2824", target=Ask(number))
                                       for _ in range(8)), gap=0) for number in range(1, 7)]
    page = Page(EN, 12, 4)
    page.show(Board((Band("grid", tuple(rows), 4, GRID, head),)))
    assert page.row_lines()[0] == {"columns"}
    assert page.turn("grid", 1)
    assert [sorted(lines) for lines in page.row_lines()] == \
        [["columns"], ["grid4"], ["grid5"], ["grid6"]]
    shown = page.rows()
    above = Line("grid0", rows[0].regions, gap=0)
    page.show(Board((Band("grid", (above, *rows), 4, GRID, head),)))
    assert page.rows() == shown  # a row added above moves nothing
    assert page.turn("grid", -1) and page.turn("grid", -1)
    assert page.row_lines()[1] == {"grid0"}


def test_the_picked_item_has_dots_7_and_8_the_other_way_round() -> None:
    board = Board((Band(READING, (message("news"),), 1), Band("hand", (cards("hand", 3),), 1)))
    page = Page(EN, 20, 2)
    page.show(board)
    item = page.items()[1]
    spot = page.spot(item)
    plain, picked = page.rows()[1], page.rows(item)[1]
    cells = range(spot.column, spot.column + spot.stop - spot.start)
    assert all(ord(picked[cell]) ^ ord(plain[cell]) == 0xC0 for cell in cells)
    assert all(picked[cell] == plain[cell] for cell in range(20) if cell not in cells)


def test_the_reading_band_shows_what_it_is_given_from_its_first_page() -> None:
    board = Board((Band(READING, (message("Bo plays r5."),), 1), Band("hand", (), 1)))
    page = Page(EN, 12, 2)
    long = message("Refused: that card does not match the top card.")
    page.show(board, long, "refusal 1")
    assert page.pages(READING)[0] == 0 and page.pages(READING)[1] > 1
    page.turn(READING, 1)
    page.show(board, long, "refusal 1")
    assert page.pages(READING)[0] == 1  # the same thing stays on its page
    page.show(board, long, "refusal 2")
    assert page.pages(READING)[0] == 0  # another starts at its first


@pytest.mark.parametrize("rows", range(2, 17))
def test_stack_gives_every_row_out_by_rank_and_never_more(rows: int) -> None:
    parts = [Part(READING, (), most=2, rank=-1), Part("status", (), most=2, rank=4, grow=0),
             Part("hand", (), most=16, rank=1, grow=9), Part("choice", (), rank=3),
             Part("commands", (), rank=2)]
    board = stack(Size(40, rows), parts)
    assert board.rows == min(rows, 2 + 2 + 16 + 1 + 1)
    names = [band.name for band in board.bands]
    assert names[:2] == [READING, "hand"][:len(names[:2])] or names[0] == READING
    assert "hand" in names  # what ranks first is always shown
    assert names == [name for name in [part.name for part in parts] if name in names]
    assert all(band.kind == FLOW for band in board.bands)
