"""Uno on a display of several rows: the news, the status (the pile, whose turn, the others'
cards), the hand, the question due and the commands, each on rows of its own.

At 40 x 9 (a Canute): news 2 rows, status 2, hand 3, choice 1, commands 1; at 32 x 10 (a
Monarch) the hand has 4; at 20 x 7 (a Dot Pad) news 1, status 2, hand 2. With fewer rows the
hand, the commands and the choice keep theirs first; the status is then read on the reading
band (line keys), as the help always is.

    BOARD.board(view, context, SCREEN.screen(view, context), Size(40, 9))
"""

from __future__ import annotations

from games.uno.engine import UnoView
from layouts.board import Board, Part, Size, pick, reading, stack
from layouts.screen import CHOICE_LINE, COMMAND_LINE, HAND_LINE, STATUS_LINE, Context, Line


class UnoBoard:
    """The :class:`layouts.board.GameBoard` of Uno."""

    def board(self, view: UnoView, context: Context, lines: tuple[Line, ...],
              size: Size) -> Board:
        return stack(size, [
            reading(lines, most=2 if size.rows > 7 else 1),
            Part(STATUS_LINE, pick(lines, STATUS_LINE), most=2, rank=4, grow=0),
            Part(HAND_LINE, pick(lines, HAND_LINE), most=size.rows, rank=1, grow=9),
            Part(CHOICE_LINE, pick(lines, CHOICE_LINE), rank=3),
            Part(COMMAND_LINE, pick(lines, COMMAND_LINE), rank=2),
        ])


BOARD = UnoBoard()
