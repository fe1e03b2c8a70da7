"""Domino 10-11-12's score pad on a display (``brailledev pad domino``), over a
:class:`games.domino.book.DominoBook`. Lines (``key``):
  ``messages``, ``status`` (the pad, the round, whose entry is due);
  ``choice``   whose turn, ``10`` ``11`` ``12`` (each route adds a line of that value), the
               lines so far, ``enter``, ``clear``;
  ``pad1``...  each player's sheet, as DOM-8 fills it (routing the player's name enters the
               next turn for them);
  ``totals``   the Grand Total of every player (DOM-10), the winners once the game is over;
  ``commands`` undo, new round, finish, help, quit.

    screen = DominoPadScreen("domino")
    lines = screen.screen(book, context)
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Event
from games.domino.book import (
    DominoBook,
    EnterTurn,
    NewRound,
    RoundBegun,
    Select,
    Selected,
    TurnEntered,
    TurnUndone,
)
from layouts.domino.screen import pad_regions
from layouts.padscreen import PadScreen, player
from layouts.screen import (
    CHOICE_LINE,
    COMMAND_LINE,
    Ask,
    Context,
    Line,
    PlayMove,
    Region,
    help_and_quit,
    help_line,
    message_line,
    status_line,
    words,
)


def sheet_key(seat: int) -> str:
    """The line of a player's sheet, from 1: ``sheet_key(0) == "pad1"``."""
    return f"pad{seat + 1}"


@dataclass(frozen=True)
class LinesInput:
    """The values of the lines entered so far for the current turn."""

    lines: tuple[int, ...] = ()


class DominoPadScreen(PadScreen):
    """The DOM-8 pad of Domino 10-11-12 for every player at the table."""

    def screen(self, view: DominoBook, context: Context) -> tuple[Line, ...]:
        cat = context.catalog
        pads = view.pads()
        lines = [message_line(context.messages, cat), self.status(view, context),
                 self.choice(view, context)]
        for seat, pad in enumerate(pads):
            head = Region(cat.text("pad_head", title=player(cat, seat)),
                          target=PlayMove(Select(seat)))
            lines.append(Line(sheet_key(seat), (head, *pad_regions(pad, cat))))
        lines.append(self.totals(view, context))
        commands = self.finish_commands(view, context, can_finish=True)
        if not view.finished:
            commands.insert(1, Region(cat.text("pad_new_round"), target=PlayMove(NewRound())))
        lines.append(Line(COMMAND_LINE, (*commands, *help_and_quit(cat))))
        lines.append(help_line(cat, cat.text("pad_domino_help")))
        return tuple(lines)

    def status(self, view: DominoBook, context: Context) -> Line:
        cat = context.catalog
        parts = [cat.text("pad_title", game=cat.section("names")["game"]),
                 cat.text("pad_round", number=view.round)]
        if not view.finished:
            parts.append(cat.text("pad_opening_of" if view.opening else "pad_turn_of",
                                  player=player(cat, view.current)))
        return status_line(parts)

    def choice(self, view: DominoBook, context: Context) -> Line:
        cat = context.catalog
        if view.finished:
            return Line(CHOICE_LINE, words(cat.text("pad_over")))
        said = context.pending if isinstance(context.pending, LinesInput) else LinesInput()
        regions = [Region(cat.text("pad_lines_of", player=player(cat, view.current)))]
        regions += [Region(str(value), target=Ask(LinesInput((*said.lines, value))),
                           label=True) for value in view.values]
        entered = "+".join(map(str, said.lines)) or cat.text("pad_no_line")
        regions.append(Region(f"= {entered}"))
        regions.append(Region(cat.text("pad_enter"), target=PlayMove(EnterTurn(said.lines))))
        if said.lines:
            regions.append(Region(cat.text("pad_clear"), target=Ask(None)))
        return Line(CHOICE_LINE, tuple(regions))

    def describe(self, event: Event, context: Context) -> str | None:
        cat = context.catalog
        if isinstance(event, TurnEntered):
            entry = event.entry
            said = [cat.text("pad_turn_entered", player=player(cat, event.seat),
                             lines="+".join(map(str, event.lines)) or cat.text("pad_no_line"),
                             count=entry.points, total=event.total)]
            said += [cat.text("pad_row_bonus", row=row + 1, bonus=bonus)
                     for row, bonus in entry.row_bonuses]
            if entry.super_row is not None:
                said.append(cat.text("pad_super", points=entry.super_value))
            said += [cat.text("pad_column_full", value=value) for value in entry.lost]
            return " ".join(said)
        if isinstance(event, TurnUndone):
            return cat.text("pad_turn_undone", player=player(cat, event.turn.seat),
                            lines="+".join(map(str, event.turn.lines))
                            or cat.text("pad_no_line"))
        if isinstance(event, RoundBegun):
            return cat.text("pad_round_begun", number=event.round,
                            player=player(cat, event.dealer))
        if isinstance(event, Selected):
            return cat.text("pad_selected", player=player(cat, event.seat))
        return self.told(event, context)

    def prompt(self, view: DominoBook, context: Context) -> str | None:
        if view.finished:
            return None
        return context.catalog.text("pad_lines_of", player=player(context.catalog,
                                                                  view.current))
