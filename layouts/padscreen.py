"""Score pads on a display: the screens of ``brailledev pad``, for a game played at a real
table with the box's cards, where the pad is what a blind player cannot keep alone.

A pad screen is a :class:`layouts.screen.GameScreen` over a book of :mod:`games.pads` (the
view), so the key loop, the messages, speech and saving work as in a game; a game's kit
gives its pad screen (``KIT.kept_pad.screen``). :class:`PadScreen` holds what every pad
shows; :class:`RoundsPadScreen` is the round sheet (a game whose pad is its own has its
screen in its folder, e.g. ``layouts/domino/padscreen.py``). A round sheet's lines (``key``):
  ``messages``, ``status`` (the pad, the round, the match target);
  ``choice``   what is being entered: who went out, then each number in turn: the digits
               typed so far, ``0`` to ``9``, ``delete``, ``ok``, ``back``, ``cancel``;
  ``round1``... the rounds' rows;
  ``totals``   every player's total, the winners once the game is over;
  ``commands`` undo, finish (where the game ends by hand), help, quit.

    screen = RoundsPadScreen("uno")
    lines = screen.screen(book, context)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.core import Event, Json, Reason
from games.pads import (
    Book,
    EnterRound,
    Finish,
    Finished,
    Reopened,
    RoundEntered,
    RoundsBook,
    RoundUndone,
    Undo,
    winners_of,
)
from layouts.catalog import Catalog
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
    listed,
    message_line,
    status_line,
    words,
)

TOTALS_LINE = "totals"
DIGITS = "0123456789"


def round_key(number: int) -> str:
    """The line of a round of a round sheet, from 1: ``round_key(2) == "round2"``."""
    return f"round{number}"


@dataclass(frozen=True)
class RoundInput:
    """A round being entered: who went out (when the game has one), the numbers entered so
    far (seat by seat, field by field) and the digits of the one being typed."""

    winner: int | None = None
    numbers: tuple[int, ...] = ()
    typed: str = ""


def player(catalog: Catalog, seat: int) -> str:
    """A player's short name on the pad: ``p2`` (``j2`` in French)."""
    return catalog.text("pad_player", number=seat + 1)


def players_listed(catalog: Catalog, points: Sequence[int]) -> str:
    return ", ".join(f"{player(catalog, seat)} {total}" for seat, total in enumerate(points))


def winners_text(catalog: Catalog, winners: Sequence[int], totals: Sequence[int]) -> str:
    names = " ".join(player(catalog, seat) for seat in winners)
    code = "pad_wins" if len(winners) == 1 else "pad_share"
    return catalog.text(code, players=names, total=totals[winners[0]])


class PadScreen:
    """What every pad screen shares: totals, undo and finish, refusals in words, and the
    game's pad words (``<game>|pad.*``): ``PadScreen("uno")``."""

    def __init__(self, game: str) -> None:
        self.game = game

    def pad_words(self, catalog: Catalog) -> Any:
        return catalog.section("pad")

    def home(self, view: Book, context: Context) -> str:
        return CHOICE_LINE

    def explain(self, reason: Reason, context: Context) -> str:
        return context.catalog.reason(reason)

    def save_input(self, pending: Hashable) -> Json:
        """A number half typed is not kept with the pad: typed again in a moment."""
        return None

    def load_input(self, data: Json, view: Book) -> Hashable:
        return None

    def echoes(self, event: Event, context: Context) -> bool:
        """An entry's points, bonuses and totals are news to the one keeping the pad (the
        session shows them at once): never a step kept silent."""
        return False

    def totals(self, view: Book, context: Context) -> Line:
        cat = context.catalog
        title = str(self.pad_words(cat)["grand_total"])
        totals = view.totals()
        regions = [Region(cat.text("pad_head", title=title)), *listed(f"{player(cat, seat)} {total}"
                                                for seat, total in enumerate(totals))]
        if view.over:
            regions += words(winners_text(cat, winners_of(totals), totals))
        return Line(TOTALS_LINE, tuple(regions))

    def finish_commands(self, view: Book, context: Context, can_finish: bool) -> list[Region]:
        cat = context.catalog
        regions = [Region(cat.text("pad_undo"), target=PlayMove(Undo()))]
        if can_finish and not view.finished:
            regions.append(Region(cat.text("pad_finish"), target=PlayMove(Finish())))
        return regions

    def told(self, event: Event, context: Context) -> str | None:
        """The events every pad tells."""
        cat = context.catalog
        if isinstance(event, Finished):
            return cat.text("pad_finished_told", totals=players_listed(cat, event.totals),
                            winners=winners_text(cat, event.winners, event.totals))
        if isinstance(event, Reopened):
            return cat.text("pad_reopened")
        return None


class RoundsPadScreen(PadScreen):
    """A round sheet (:class:`games.pads.RoundsBook`): a row per round."""

    def screen(self, view: RoundsBook, context: Context) -> tuple[Line, ...]:
        cat = context.catalog
        lines = [message_line(context.messages, cat), self.status(view, context),
                 self.choice(view, context)]
        for number, scores in enumerate(view.round_scores(), start=1):
            lines.append(Line(round_key(number), (
                Region(cat.text("pad_head", title=cat.text("pad_round", number=number))),
                *listed(f"{player(cat, seat)} {points}" for seat, points in enumerate(scores)))))
        lines.append(self.totals(view, context))
        can_finish = not (view.rule.target or view.rule.rounds_are_players)
        commands = self.finish_commands(view, context, can_finish)
        lines.append(Line(COMMAND_LINE, (*commands, *help_and_quit(cat))))
        lines.append(help_line(cat, cat.text("pad_rounds_help")))
        return tuple(lines)

    def status(self, view: RoundsBook, context: Context) -> Line:
        cat = context.catalog
        parts = [cat.text("pad_title", game=cat.section("names")["game"]),
                 cat.text("pad_round", number=len(view.rounds) + 1)]
        if view.rule.target:
            parts.append(cat.text("pad_target", target=view.rule.target))
        return status_line(parts)

    def due(self, view: RoundsBook, said: RoundInput) -> tuple[int, str] | None:
        """The seat and field of the number to enter next, or ``None`` when all are in."""
        fields = view.rule.fields
        seats = view.entered_for(said.winner)
        index = len(said.numbers)
        if index >= len(seats) * len(fields):
            return None
        return seats[index // len(fields)], fields[index % len(fields)]

    def values(self, view: RoundsBook, said: RoundInput,
               numbers: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """The numbers entered, seat by seat (the winner's empty)."""
        width = len(view.rule.fields)
        found: list[tuple[int, ...]] = [() for _ in range(view.players)]
        for place, seat in enumerate(view.entered_for(said.winner)):
            found[seat] = numbers[place * width:(place + 1) * width]
        return tuple(found)

    def choice(self, view: RoundsBook, context: Context) -> Line:
        cat = context.catalog
        if view.over:
            return Line(CHOICE_LINE, words(cat.text("pad_over")))
        said = context.pending if isinstance(context.pending, RoundInput) else RoundInput()
        cancel = Region(cat.text("pad_cancel"), target=Ask(None))
        if view.rule.winner and said.winner is None:
            return Line(CHOICE_LINE, (
                Region(cat.text("pad_who_out")),
                *(Region(player(cat, seat), target=Ask(RoundInput(winner=seat)))
                  for seat in range(view.players))))
        due = self.due(view, said)
        if due is None:  # every number is in: nothing left but to enter the round
            return Line(CHOICE_LINE, (cancel,))
        seat, field = due
        name = self.pad_words(cat)["fields"][field]
        regions = [Region(cat.text("pad_value_of", player=player(cat, seat), field=name)),
                   Region(said.typed or "_", label=True)]
        regions += [Region(digit, target=Ask(replace(said, typed=said.typed + digit)),
                           label=True) for digit in DIGITS if len(said.typed) < 4]
        if said.typed:
            regions.append(Region(cat.text("pad_delete"),
                                  target=Ask(replace(said, typed=said.typed[:-1]))))
            numbers = (*said.numbers, int(said.typed))
            if self.due(view, RoundInput(said.winner, numbers)) is None:
                ok: Ask | PlayMove = PlayMove(EnterRound(said.winner,
                                                         self.values(view, said, numbers)))
            else:
                ok = Ask(RoundInput(said.winner, numbers))
            regions.append(Region(cat.text("pad_ok"), target=ok))
        if said.numbers:
            back = RoundInput(said.winner, said.numbers[:-1], str(said.numbers[-1]))
            regions.append(Region(cat.text("pad_back"), target=Ask(back)))
        regions.append(cancel)
        return Line(CHOICE_LINE, tuple(regions))

    def describe(self, event: Event, context: Context) -> str | None:
        cat = context.catalog
        if isinstance(event, RoundEntered):
            return cat.text("pad_round_entered", number=event.number,
                            scores=players_listed(cat, event.scores),
                            totals=players_listed(cat, event.totals))
        if isinstance(event, RoundUndone):
            return cat.text("pad_round_undone", number=event.number)
        return self.told(event, context)

    def prompt(self, view: RoundsBook, context: Context) -> str | None:
        return None
