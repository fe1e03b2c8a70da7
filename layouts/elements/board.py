"""Elements on a display of several rows: the news, the status, the table (the five elements
and what lies on them, or the colour order; the point cards; the scores), the bids, the
hand, what is due and the commands.

The table's lines share rows where they fit (the order and the point cards on one row, the
scores after them). At 40 x 9 (a Canute): news 2 rows, status, table, bids 2, hand, choice,
commands; at 32 x 10 (a Monarch) the table has 2 rows; at 20 x 7 (a Dot Pad) one row each
(the news, the status, the table, the bids).

    BOARD.board(view, context, SCREEN.screen(view, context), Size(40, 9))
"""

from __future__ import annotations

from games.elements.engine import ElementsView
from layouts.board import PACK, Board, Part, Size, pick, reading, stack
from layouts.elements.screen import BIDS_LINE, ORDER_LINE, POINTS_LINE, SCORES_LINE
from layouts.screen import CHOICE_LINE, COMMAND_LINE, HAND_LINE, STATUS_LINE, Context, Line

TABLE = "table"


class ElementsBoard:
    """The :class:`layouts.board.GameBoard` of Elements."""

    def board(self, view: ElementsView, context: Context, lines: tuple[Line, ...],
              size: Size) -> Board:
        return stack(size, [
            reading(lines, most=2 if size.rows >= 9 else 1),
            Part(STATUS_LINE, pick(lines, STATUS_LINE), rank=5),
            Part(TABLE, pick(lines, ORDER_LINE, POINTS_LINE, SCORES_LINE), most=2, rank=4,
                 kind=PACK, grow=2),
            Part(BIDS_LINE, pick(lines, BIDS_LINE), most=2, rank=3, grow=1),
            Part(HAND_LINE, pick(lines, HAND_LINE), rank=0),
            Part(CHOICE_LINE, pick(lines, CHOICE_LINE), rank=1),
            Part(COMMAND_LINE, pick(lines, COMMAND_LINE), rank=2),
        ])


BOARD = ElementsBoard()
