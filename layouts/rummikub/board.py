"""Rummikub on a display of several rows: the news, the status, the table's sets several to
a row (each starting with its number), the selected tiles, then the rack and the commands
on the last rows.

A set keeps its row while it fits there: a meld that changes one set rewrites that set's
row only. At 40 x 9 (a Canute): news 2 rows, status, 3 rows of sets, selection, rack,
commands; at 32 x 10 (a Monarch) the rack has 2 rows; at 20 x 7 (a Dot Pad) news 1 row and
2 rows of sets. More sets than rows are paged, as a longer rack; why a set is not valid is
read on the reading band (the line keys reach the problems line).

    BOARD.board(view, context, SCREEN.screen(view, context), Size(40, 9))
"""

from __future__ import annotations

from games.rummikub.engine import RummikubView
from layouts.board import PACK, Board, Part, Size, pick, reading, stack
from layouts.rummikub.screen import RACK_LINE, SELECTION_LINE, set_key
from layouts.screen import COMMAND_LINE, STATUS_LINE, Context, Line

SETS = "sets"
# What the key of every set line starts with.
SET_PREFIX = set_key(1).removesuffix("1")


class RummikubBoard:
    """The :class:`layouts.board.GameBoard` of Rummikub."""

    def board(self, view: RummikubView, context: Context, lines: tuple[Line, ...],
              size: Size) -> Board:
        sets = tuple(line for line in lines if line.key.startswith(SET_PREFIX))
        return stack(size, [
            reading(lines, most=2 if size.rows >= 9 else 1),
            Part(STATUS_LINE, pick(lines, STATUS_LINE), rank=5),
            Part(SETS, sets, most=size.rows, rank=3, kind=PACK, grow=9),
            Part(SELECTION_LINE, pick(lines, SELECTION_LINE), rank=4),
            Part(RACK_LINE, pick(lines, RACK_LINE), most=2 if size.rows >= 10 else 1, rank=1),
            Part(COMMAND_LINE, pick(lines, COMMAND_LINE), rank=2),
        ])


BOARD = RummikubBoard()
