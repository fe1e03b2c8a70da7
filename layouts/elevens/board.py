"""Elevens on a display of several rows: the news, the status, the four rows of the table one
display row each (``r 5-16``), the hand, the places of the chosen card, the steps of the turn
and the commands.

The four rows never move: each keeps its display row (a row longer than the display is
panned, the four together). At 40 x 9 (a Canute): news, status, the four rows, hand, places,
commands; at 32 x 10 (a Monarch) the steps of the turn too; at 20 x 7 (a Dot Pad) news, the
four rows, hand and commands: the status, and the places of a card with several, are read
on the reading band (a card routed takes the reader there, as a question does).

    BOARD.board(view, context, SCREEN.screen(view, context), Size(40, 9))
"""

from __future__ import annotations

from games.elevens.engine import ElevensView
from layouts.board import GRID, Board, Part, Size, pick, reading, stack
from layouts.elevens.screen import TURN_LINE, row_key
from layouts.screen import CHOICE_LINE, COMMAND_LINE, HAND_LINE, STATUS_LINE, Context, Line

ROWS = "rows"
# The rows of the table take four display rows from this display size on.
FOUR_ROWS_FROM = 7
# The steps of the turn have a row from this display size on.
TURN_FROM = 10


class ElevensBoard:
    """The :class:`layouts.board.GameBoard` of Elevens."""

    def board(self, view: ElevensView, context: Context, lines: tuple[Line, ...],
              size: Size) -> Board:
        rows = pick(lines, *(row_key(row) for row in view.order))
        parts = [reading(lines), Part(STATUS_LINE, pick(lines, STATUS_LINE), rank=4),
                 Part(ROWS, rows, least=4 if size.rows >= FOUR_ROWS_FROM else 1, most=4,
                      rank=1, kind=GRID),
                 Part(HAND_LINE, pick(lines, HAND_LINE), rank=0),
                 Part(CHOICE_LINE, pick(lines, CHOICE_LINE), rank=3)]
        if size.rows >= TURN_FROM:
            parts.append(Part(TURN_LINE, pick(lines, TURN_LINE), rank=5))
        parts.append(Part(COMMAND_LINE, pick(lines, COMMAND_LINE), rank=2))
        return stack(size, parts)


BOARD = ElevensBoard()
