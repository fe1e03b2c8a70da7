"""Position arithmetic of windows, panning and routing keys, with real liblouis tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.display.braille import BLANK, translator
from brailledev.display.keys import Bottom, LineDown, LineUp, PanLeft, Route, Top
from brailledev.display.window import (
    DOTS_78,
    LEFT_MARKER,
    MARKER_CELLS,
    RIGHT_MARKER,
    LaidLine,
    Viewport,
    check_size,
    lay_out_line,
)
from layouts.screen import Line, Region, Screen, Ui

WIDTHS = (12, 14, 20, 32, 40, 80)
TABLES = ("en-ueb-g1.ctb", "fr-bfu-comp6.utb", "fr-bfu-g2.ctb")
LABELS = (
    "r5", "r+2", "b7", "g9", "wi+4", "y0", "ysk", "rrv", "g+2", "b1", "y+2", "bsk", "g0", "r9",
    "wi", "jk+4", "rinv", "vpas", "j7", "b+2", "r1", "r2", "r3", "r4", "y5", "y6", "y7", "g8",
    "g1", "b3",
)
SENTENCE = ("Alice a joué le cinq rouge, puis Bob a pioché deux cartes et a dit uno "
            "avant de passer son tour")


def hand(count: int) -> Line:
    return Line("hand", tuple(Region(label, target=("play", label))
                              for label in LABELS[:count]))


def sample_lines() -> list[Line]:
    lines = [hand(count) for count in (0, 1, 2, 5, 9, 17, len(LABELS))]
    lines.append(Line("status", (Region("top r5"), Region(SENTENCE, atomic=False),
                                 Region("draw", target=Ui("draw")))))
    lines.append(Line("long", (Region("x" * 100, target="big"), Region("b7", target="b7"),
                               Region("y" * 13, target="y13"), Region("z" * 79))))
    lines.append(Line("empties", (Region(""), Region("uno", target=Ui("uno")),
                                  Region(""), Region("", target="ghost"), Region("r5"))))
    lines.append(Line("words", (Region("a " * 60, atomic=False), Region("b", target="b"))))
    return lines


def joined_and_marked_lines() -> list[Line]:
    """Lines with no gap between regions (grid rows) and lines with marked regions."""
    lines = []
    # gap=0: a grid row of one-cell squares, and joined regions of several cells
    lines.append(Line("grid", (Region("#12"), *(Region(char, target=("sq", number))
                                                for number, char in
                                                enumerate("abcdefghij" * 9))), gap=0))
    cards = [Region(label, target=label) for label in LABELS]
    lines.append(Line("joined", (*cards, Region("z" * 30, target="z"), Region(""),
                                 Region("q", target="q")), gap=0))
    lines.append(Line("marked", tuple(Region(label, target=label, mark=index % 3 == 0)
                                      for index, label in enumerate(LABELS))))
    return lines


def shown(laid: LaidLine, region: int, offset: int) -> str:
    """The cell of ``region`` at ``offset`` as the display shows it (dots 7-8 if marked)."""
    cell = laid.braille[region].cells[offset]
    return chr(ord(cell) | DOTS_78) if laid.line.regions[region].mark else cell


def check_line(laid: LaidLine, columns: int) -> None:
    """Every invariant of one laid-out line: cells, pieces, markers, separators, coverage."""
    covered: dict[int, list[tuple[int, int]]] = {}
    for number, window in enumerate(laid.windows):
        assert len(window.cells) == columns
        assert window.more_left == (number > 0)
        assert window.more_right == (number < len(laid.windows) - 1)
        assert (window.cells[0] == LEFT_MARKER) == window.more_left or window.pieces == ()
        assert (window.cells[-1] == RIGHT_MARKER) == window.more_right
        for column in range(columns):
            found = window.piece_at(column)
            if found is None:
                edge = (column == 0 and window.more_left) or \
                    (column == columns - 1 and window.more_right)
                assert window.cells[column] == (
                    (LEFT_MARKER if column == 0 else RIGHT_MARKER) if edge else BLANK)
            else:
                piece, offset = found
                assert window.cells[column] == shown(laid, piece.region, offset)
                # a marker and the blank beside it are never text
                assert not (column < MARKER_CELLS and window.more_left)
                assert not (column >= columns - MARKER_CELLS and window.more_right)
        previous = None
        for piece in window.pieces:
            assert piece.stop > piece.start
            covered.setdefault(piece.region, []).append((piece.start, piece.stop))
            if previous is not None:
                # Exactly the line's gap (one blank cell, or none) between neighbours.
                assert piece.column == (previous.column + previous.stop - previous.start
                                        + laid.line.gap)
            previous = piece
        if window.pieces:
            assert window.pieces[0].column == (MARKER_CELLS if window.more_left else 0)
    for index, region in enumerate(laid.line.regions):
        cells = laid.braille[index].cells
        spans = covered.get(index, [])
        if not cells:
            assert spans == []
            continue
        assert spans, f"region {index} unreachable"
        # The pieces of a region follow each other, skipping only word-break blanks.
        position = 0
        for start, stop in spans:
            assert cells[position:start].strip(BLANK) == ""
            assert start >= position
            position = stop
        assert cells[position:].strip(BLANK) == ""  # a sentence's last blank may be skipped
        if region.atomic and len(cells) <= columns - 2 * MARKER_CELLS:
            assert spans == [(0, len(cells))], f"region {region.text!r} split"


def check_greedy(laid: LaidLine, columns: int) -> None:
    """A window that continues leaves no room for the whole next atomic region."""
    for window, following in zip(laid.windows, laid.windows[1:], strict=False):
        last = window.pieces[-1]
        first = following.pieces[0]
        if first.start == 0 and laid.line.regions[first.region].atomic:
            used = last.column + last.stop - last.start
            assert (used + laid.line.gap + len(laid.braille[first.region])
                    > columns - MARKER_CELLS)


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("table", TABLES)
def test_every_cell_of_every_window_maps_to_its_region_or_nothing(columns: int,
                                                                   table: str) -> None:
    for line in sample_lines() + joined_and_marked_lines():
        laid = lay_out_line(line, translator(table), columns)
        check_line(laid, columns)
        check_greedy(laid, columns)


@pytest.mark.parametrize("columns", WIDTHS)
def test_routing_every_cell_through_the_viewport(columns: int) -> None:
    lines = sample_lines() + joined_and_marked_lines()
    viewport = Viewport(translator("en-ueb-g1.ctb"), columns)
    viewport.show(Screen(tuple(lines)))
    seen: set[tuple[int, int]] = set()
    for number, line in enumerate(lines):
        viewport.goto(line.key) if line.key != "hand" else viewport.handle(Top())
        while viewport.top < number:
            viewport.handle(LineDown())
        laid = viewport.lines[number]
        for window_number, window in enumerate(laid.windows):
            viewport.window = window_number
            assert viewport.rows() == [window.cells]
            for cell in range(columns):
                hit = viewport.route(cell)
                found = window.piece_at(cell)
                if found is None:
                    assert hit is None
                    continue
                piece, offset = found
                assert hit is not None
                assert (hit.line, hit.line_key, hit.region) == (number, line.key, piece.region)
                assert hit.item is line.regions[piece.region]
                assert hit.target == line.regions[piece.region].target
                assert hit.offset == laid.braille[piece.region].to_text[offset]
                assert 0 <= hit.offset < len(hit.item.text)
                seen.add((number, piece.region))
    for number, line in enumerate(lines):
        for index, region in enumerate(line.regions):
            if region.text:
                assert (number, index) in seen


@pytest.mark.parametrize("columns", WIDTHS)
def test_both_ends_of_every_window_are_exact(columns: int) -> None:
    line = hand(len(LABELS))
    laid = lay_out_line(line, translator("fr-bfu-comp6.utb"), columns)
    for window in laid.windows:
        first, last = window.pieces[0], window.pieces[-1]
        left_edge = MARKER_CELLS if window.more_left else 0
        assert first.column == left_edge and first.start == 0
        assert window.piece_at(left_edge) == (first, 0)
        end = last.column + last.stop - last.start - 1
        assert window.piece_at(end) == (last, last.stop - 1)
        assert window.piece_at(end + 1) is None
        assert end <= columns - (MARKER_CELLS + 1 if window.more_right else 1)


def test_markers_pan_and_routing_on_cards_gives_their_targets() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 12)
    viewport.show(Screen((hand(6),)))
    assert viewport.rows()[0] == "⠗⠼⠑⠀⠗⠐⠖⠼⠃⠀⠀" + RIGHT_MARKER
    assert viewport.texts()[0].startswith("r5  r+2")
    assert viewport.texts()[0].endswith(">")
    hit = viewport.handle(Route(0))
    assert hit is not None and hit.target == ("play", "r5") and hit.offset == 0
    hit = viewport.handle(Route(8))
    assert hit is not None and hit.target == ("play", "r+2") and hit.offset == 2
    assert viewport.handle(Route(3)) is None  # the blank between two cards
    assert viewport.handle(Route(11)) is None and viewport.window == 1  # right marker pans
    assert viewport.rows()[0][:2] == LEFT_MARKER + BLANK
    assert viewport.handle(Route(1)) is None  # the blank beside the marker
    hit = viewport.handle(Route(2))
    assert hit is not None and hit.target == ("play", "b7")
    assert viewport.handle(Route(0)) is None and viewport.window == 0  # left marker pans back


def test_panning_visits_every_window_of_every_line_and_back() -> None:
    lines = sample_lines()
    viewport = Viewport(translator("en-ueb-g1.ctb"), 20)
    viewport.show(Screen(tuple(lines)))
    visited = [(viewport.top, viewport.window)]
    while viewport.pan_right():
        visited.append((viewport.top, viewport.window))
    expected = [(number, window) for number, laid in enumerate(viewport.lines)
                for window in range(len(laid.windows))]
    assert visited == expected
    back = [(viewport.top, viewport.window)]
    while viewport.pan_left():
        back.append((viewport.top, viewport.window))
    assert back == expected[::-1]


def test_line_keys_move_between_lines_and_stop_at_the_ends() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 40)
    viewport.show(Screen(tuple(sample_lines())))
    count = len(viewport.lines)
    assert not viewport.line_up()
    for number in range(1, count):
        viewport.window = len(viewport.lines[viewport.top].windows) - 1
        assert viewport.line_down() and viewport.top == number and viewport.window == 0
    assert not viewport.line_down()
    viewport.handle(Top())
    assert (viewport.top, viewport.window) == (0, 0)
    viewport.handle(Bottom())
    assert viewport.top == count - 1
    viewport.handle(LineUp())
    assert viewport.top == count - 2
    viewport.handle(PanLeft())
    assert viewport.top == count - 3


def test_multi_row_display_shows_consecutive_lines() -> None:
    lines = sample_lines()
    viewport = Viewport(translator("en-ueb-g1.ctb"), 32, rows=3)
    viewport.show(Screen(tuple(lines)))
    assert len(viewport.rows()) == 3
    for row in range(3):
        assert viewport.rows()[row] == viewport.lines[row].windows[0].cells
    viewport.line_down()
    viewport.line_down()
    assert viewport.line_key == lines[2].key
    hit = viewport.route(0, row=1)
    assert hit is not None and hit.line == 3 and hit.item.text == "r5"
    assert viewport.route(0, row=3) is None
    viewport.handle(Bottom())
    assert viewport.top == len(lines) - 3
    assert not viewport.line_down()
    # Panning moves all rows; a row whose line has no such window is blank.
    top = viewport.top
    assert viewport.lines[top].line.key == "long"
    assert viewport.pan_right()
    assert viewport.window == 1 and viewport.top == top
    assert viewport.rows()[0] == viewport.lines[top].windows[1].cells
    assert viewport.rows()[1] == BLANK * 32  # "empties" has one window only
    assert viewport.rows()[2] == viewport.lines[top + 2].windows[1].cells


def test_multi_row_display_with_fewer_lines_than_rows() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 20, rows=4)
    viewport.show(Screen((hand(3),)))
    assert viewport.rows()[1:] == [BLANK * 20] * 3
    assert viewport.texts()[1:] == ["", "", ""]
    assert not viewport.line_down() and not viewport.pan_right()


def test_redraw_keeps_the_place_on_the_same_card() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 14)
    status = Line("status", (Region("top r5"),))
    viewport.show(Screen((status, hand(12))))
    viewport.line_down()
    while not any(hit is not None and hit.target == ("play", "ysk")
                  for hit in (viewport.route(cell) for cell in range(14))):
        assert viewport.pan_right()
    laid = viewport.lines[1]
    anchor = laid.line.regions[laid.windows[viewport.window].pieces[0].region].text
    # A card before leaves the hand and a line appears above: the window still shows it.
    cards = tuple(region for region in hand(12).regions if region.text != "r+2")
    viewport.show(Screen((Line("choices", (Region("red"),)), status, Line("hand", cards))))
    assert viewport.line_key == "hand"
    window = viewport.lines[viewport.top].windows[viewport.window]
    texts = [viewport.lines[viewport.top].line.regions[piece.region].text
             for piece in window.pieces]
    assert anchor in texts


def test_redraw_when_the_card_is_gone_stays_at_its_place() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 14)
    viewport.show(Screen((hand(12),)))
    viewport.pan_right()
    viewport.pan_right()
    first = viewport.lines[0].windows[2].pieces[0].region
    cards = tuple(region for index, region in enumerate(hand(12).regions) if index != first)
    viewport.show(Screen((Line("hand", cards),)))
    window = viewport.lines[0].windows[viewport.window]
    assert any(piece.region == first for piece in window.pieces)


def test_redraw_when_the_line_is_gone_keeps_the_line_number() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 40)
    viewport.show(Screen(tuple(sample_lines())))
    viewport.handle(Bottom())
    viewport.show(Screen((hand(3), hand(4))))
    assert viewport.top == 1 and viewport.window == 0


def test_goto_and_resize() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 12)
    viewport.show(Screen((Line("status", (Region("top r5"),)), hand(20))))
    viewport.goto("hand", 10)
    assert viewport.line_key == "hand"
    window = viewport.lines[1].windows[viewport.window]
    assert any(piece.region == 10 for piece in window.pieces)
    viewport.resize(40)
    assert viewport.columns == 40 and len(viewport.rows()[0]) == 40
    window = viewport.lines[1].windows[viewport.window]
    assert any(piece.region == 10 for piece in window.pieces)
    with pytest.raises(KeyError):
        viewport.goto("nowhere")


@pytest.mark.parametrize(("columns", "rows"), [(11, 1), (81, 1), (40, 0), (40, 17)])
def test_sizes_outside_the_range_are_refused(columns: int, rows: int) -> None:
    with pytest.raises(ValueError, match="outside"):
        check_size(columns, rows)


def test_empty_screen() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 12)
    viewport.show(Screen(()))
    assert viewport.rows() == [BLANK * 12]
    assert viewport.route(0) is None and viewport.line_key is None
    assert not viewport.pan_right() and not viewport.line_down()


regions = st.builds(
    Region,
    text=st.text(alphabet="abcrgybw+0123456789 ", max_size=90),
    target=st.integers(0, 5),
    atomic=st.booleans())


@settings(max_examples=80, deadline=None)
@given(st.lists(regions, max_size=12), st.integers(12, 80), st.sampled_from(TABLES))
def test_any_line_on_any_width_keeps_every_invariant(items: list[Region], columns: int,
                                                     table: str) -> None:
    laid = lay_out_line(Line("any", tuple(items)), translator(table), columns)
    check_line(laid, columns)
    check_greedy(laid, columns)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(regions, max_size=6), min_size=1, max_size=6), st.integers(12, 80),
       st.integers(1, 9))
def test_panning_is_reversible_on_any_screen(lines: list[list[Region]], columns: int,
                                             rows: int) -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), columns, rows)
    viewport.show(Screen(tuple(Line(f"l{n}", tuple(items)) for n, items in enumerate(lines))))
    forward = [(viewport.top, viewport.window)]
    while viewport.pan_right():
        forward.append((viewport.top, viewport.window))
        assert len(forward) < 10_000
    backward = [(viewport.top, viewport.window)]
    while viewport.pan_left():
        backward.append((viewport.top, viewport.window))
    assert backward == forward[::-1]
    for rows_cells in viewport.rows():
        assert len(rows_cells) == columns


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_joined_grid_row_routes_each_cell_to_its_own_square(columns: int) -> None:
    squares = "⠤⠁⠚⠤⠃" * 20
    row = Line("grid1", tuple(Region(char, target=number) for number, char in
                              enumerate(squares)), gap=0)
    viewport = Viewport(translator("en-ueb-g1.ctb"), columns)
    viewport.show(Screen((row,)))
    seen = []
    while True:
        window = viewport.lines[0].windows[viewport.window]
        left = MARKER_CELLS if window.more_left else 0
        right = columns - MARKER_CELLS if window.more_right else columns
        for cell in range(left, right):
            hit = viewport.route(cell)
            if hit is None:
                assert window.cells[cell] == BLANK and cell >= left + len(window.pieces)
                continue
            assert hit.target == hit.region and hit.region == window.pieces[0].region + cell - left
            assert window.cells[cell] == squares[hit.region]
            seen.append(hit.region)
        if not viewport.pan_right():
            break
    assert seen == list(range(len(squares)))  # every square once, in order, none split


def test_a_marked_region_raises_dots_7_and_8_under_every_cell_only() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 20)
    viewport.show(Screen((Line("set_1", (Region("1"), Region("r5", mark=True),
                                         Region("b5"))),)))
    assert viewport.rows()[0][:9] == "⠼⠁⠀⣗⣼⣑⠀⠃⠼"
    hit = viewport.route(4)
    assert hit is not None and hit.item.mark and hit.item.text == "r5"


def test_a_blank_cell_stands_between_each_marker_and_the_text() -> None:
    viewport = Viewport(translator("en-ueb-g1.ctb"), 20)
    viewport.show(Screen((hand(len(LABELS)),)))
    middle = viewport.lines[0].windows[1]
    assert middle.more_left and middle.more_right
    assert middle.cells[:2] == LEFT_MARKER + BLANK
    assert middle.cells[-2:] == BLANK + RIGHT_MARKER
    assert middle.cells[2] != BLANK


def test_a_spare_count_is_shown_where_it_fits_and_never_costs_a_window() -> None:
    braille = translator("en-ueb-g1.ctb")
    words = tuple(Region(word) for word in ["Bo", "plays", "r5", "and", "says", "UNO"])
    count = Region("(3 more)", spare=True)
    fits = lay_out_line(Line("messages", (*words, count)), braille, 40)
    assert len(fits.windows) == 1 and fits.windows[0].text.endswith("(3 more)")
    alone = lay_out_line(Line("messages", words), braille, 20)
    counted = lay_out_line(Line("messages", (*words, count)), braille, 20)
    assert len(alone.windows) == 2
    assert len(counted.windows) == len(alone.windows)
    # where it fits in the last window it is there; where it would not, the line is as without
    last = counted.windows[-1]
    assert last.text.endswith("(3 more)") or counted.windows == alone.windows
    for columns in range(12, 41):
        with_count = lay_out_line(Line("messages", (*words, count)), braille, columns)
        without = lay_out_line(Line("messages", words), braille, columns)
        assert len(with_count.windows) == len(without.windows)
