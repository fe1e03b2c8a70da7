"""Domino 10-11-12 on a display of several rows: the news, the status, the grid under its
column letters, then the hand and the selected card's placements on the last rows.

The grid shows a fixed area of the table, wider and taller than the layout, with the round's
fixed row and column names: a card laid rewrites the rows of its squares only, and the area
moves only when the layout outgrows it. At 40 x 9 (a Canute): news, status, the column
letters and 4 grid rows, hand, placements; at 32 x 10 (a Monarch) the news has 2 rows;
at 20 x 7 (a Dot Pad) 3 grid rows and no status row (the status, the score pad and the help
are read on the reading band with the line keys).

    BOARD.board(view, context, SCREEN.screen(view, context), Size(40, 9))
"""

from __future__ import annotations

from dataclasses import replace

from games.domino.engine import DominoView
from games.domino.grid import bounds
from layouts.board import GRID, Board, Part, Size, pick, reading, stack
from layouts.domino.screen import PLACES_LINE, SCREEN
from layouts.screen import HAND_LINE, STATUS_LINE, Context, Line

GRID_BAND = "grid"
# The seat's memory of the grid's area (``Context.keep``): (round, x0, y0, x1, y1).
AREA = "domino_area"
# The cells of the widest row number (the number sign, a minus, two digits) and its blank.
NUMBER_CELLS = 5


def span(low: int, high: int, size: int) -> tuple[int, int]:
    """At least ``size`` squares around ``low`` to ``high``, centred:
    ``span(2, 4, 5) == (1, 5)``."""
    extra = max(0, size - (high - low + 1))
    return low - extra // 2, high + extra - extra // 2


def area(view: DominoView, context: Context, squares: int,
         rows: int) -> tuple[int, int, int, int]:
    """The area of the table shown: at least ``squares`` wide and ``rows`` tall around the
    layout, and all of the round's area shown before (it grows, it never moves: the rows of
    the grid stay where they were)."""
    x0, y0, x1, y1 = bounds(view.grid)
    kept = context.keep.get(AREA)
    if kept is not None and kept[0] == view.round:
        _, kx0, ky0, kx1, ky1 = kept
        x0, y0, x1, y1 = min(x0, kx0), min(y0, ky0), max(x1, kx1), max(y1, ky1)
    ax0, ax1 = span(x0, x1, squares)
    ay0, ay1 = span(y0, y1, rows)
    context.keep[AREA] = (view.round, ax0, ay0, ax1, ay1)
    return ax0, ay0, ax1, ay1


class DominoBoard:
    """The :class:`layouts.board.GameBoard` of Domino 10-11-12."""

    def board(self, view: DominoView, context: Context, lines: tuple[Line, ...],
              size: Size) -> Board:
        parts = [reading(lines, most=2 if size.rows >= 10 else 1)]
        if size.rows >= 8:
            parts.append(Part(STATUS_LINE, pick(lines, STATUS_LINE), rank=4))
        parts += [Part(GRID_BAND, (), least=2, most=size.rows, rank=3, kind=GRID),
                  Part(HAND_LINE, pick(lines, HAND_LINE), rank=0),
                  Part(PLACES_LINE, pick(lines, PLACES_LINE), rank=1)]
        board = stack(size, parts)
        bands = []
        for band in board.bands:
            if band.name == GRID_BAND:
                shown = area(view, context, size.columns - NUMBER_CELLS, band.rows - 1)
                head, *rows = SCREEN.grid(view, context, shown)
                band = replace(band, lines=tuple(rows), head=head)
            bands.append(band)
        return Board(tuple(bands))


BOARD = DominoBoard()
