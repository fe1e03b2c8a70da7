"""Score pads kept for a physical game: what the players enter at the table, scored by the
box's rules, so the blind player keeps the pad the others keep on paper.

A game whose pad is kept on the display makes its blank book in its own folder
(``games/<game>/book.py``, handed on by its kit). Most keep a row per round
(:class:`RoundsBook`, scored by the game's :class:`RoundRule`: who went out, the numbers
entered for each player, the game's scoring); a game whose pad is its own (Domino's DOM-8
sheets) has a book of its own kind, with its own entries (:meth:`Book.enter`).

A book is immutable: every entry gives a new book, undo gives the book before it, and the
entries alone (``to_dict``) rebuild it.

    book = blank_book(rules_data("uno"), players=3)        # games/uno/book.py
    book, events = play(book, EnterRound(1, ((12,), (), (40,))))   # player 2 went out: 52
    book.totals()                                           # (0, 52, 0)
    book, events = play(book, Undo())
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, Self, TypeVar, cast

from games.core import Event, IllegalMove, Reason

# The highest number a player may enter in one box (a sanity bound, not a rule).
MOST = 9999


@dataclass(frozen=True)
class PadMove:
    """What a player does on a pad (every kind of entry derives from it)."""


@dataclass(frozen=True)
class EnterRound(PadMove):
    """A round sheet: who went out (``None`` when no one does), the numbers of each seat."""

    winner: int | None
    values: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Undo(PadMove):
    """Take back the last entry."""


@dataclass(frozen=True)
class Finish(PadMove):
    """The game is over: the Grand Totals are told (games that end by hand)."""


@dataclass(frozen=True)
class RoundEntered(Event):
    """A round written on the sheet: its number (from 1), each seat's points, the totals."""

    number: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class RoundUndone(Event):
    number: int


@dataclass(frozen=True)
class Finished(Event):
    """The game is over: every player's Grand Total and the winners (ties shared)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Reopened(Event):
    """A game finished by hand goes on (undo after finish)."""


class Book(Protocol):
    """A pad for one game at a real table, whatever its kind: who plays, whether it is
    finished by hand or over by the rules, the totals, and the entries of its own kind."""

    @property
    def players(self) -> int: ...

    @property
    def finished(self) -> bool: ...

    @property
    def over(self) -> bool:
        """No more entries: finished by hand, or ended by the rules."""

    def totals(self) -> tuple[int, ...]:
        """Every player's total so far."""

    def enter(self, move: PadMove) -> tuple[Self, list[Event]]:
        """This book after an entry of its own kind and what to tell; :class:`IllegalMove`
        for one it does not take."""

    def take_back(self) -> tuple[Self, list[Event]] | None:
        """The book before the last entry and what to tell, or ``None``: nothing to undo."""

    def finish(self) -> Self: ...

    def reopen(self) -> Self: ...

    def to_dict(self) -> dict[str, Any]: ...

    def restored(self, saved: Mapping[str, Any]) -> Self:
        """This blank book with the saved entries (from :meth:`to_dict`)."""


# A game's scoring of one round: each player's points from who went out (``None``) and the
# numbers entered for each seat (empty for the one who went out).
Scoring = Callable[[int | None, Sequence[Sequence[int]]], tuple[int, ...]]


@dataclass(frozen=True)
class RoundRule:
    """How a game's round is entered and scored: whether a player went out (``winner``), the
    numbers entered for each other player (all players when no one goes out, ``fields`` in
    order, named in the game's ``pad.toml``), the game's ``score``, and the end: a match
    target or as many rounds as players."""

    winner: bool
    fields: tuple[str, ...]
    score: Scoring
    target: int = 0
    rounds_are_players: bool = False


@dataclass(frozen=True)
class Round:
    """One round entered: who went out (``None`` when no one does) and the numbers entered
    for each seat, in the rule's field order."""

    winner: int | None
    values: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class RoundsBook:
    """A round sheet for one game at a real table: the rounds entered, scored by the rule:
    ``RoundsBook(RoundRule(True, ("hand",), scoring), players=3)``."""

    rule: RoundRule
    players: int
    rounds: tuple[Round, ...] = ()
    finished: bool = False

    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.rule.score(entry.winner, entry.values) for entry in self.rounds)

    def totals(self) -> tuple[int, ...]:
        """Every player's total over the rounds so far."""
        return tuple(sum(scores[seat] for scores in self.round_scores())
                     for seat in range(self.players))

    @property
    def over(self) -> bool:
        """The game has ended: finished by hand, the match target reached, or every player
        has been first player once."""
        if self.finished:
            return True
        if self.rule.target and any(total >= self.rule.target for total in self.totals()):
            return True
        return self.rule.rounds_are_players and len(self.rounds) >= self.players

    def entered_for(self, winner: int | None) -> tuple[int, ...]:
        """The seats numbers are entered for: every seat but the one who went out."""
        return tuple(seat for seat in range(self.players) if seat != winner)

    def check(self, winner: int | None, values: Sequence[Sequence[int]]) -> str | None:
        """Why this cannot be a round (a code), or ``None``."""
        if self.over:
            return "pad_finished"
        if self.rule.winner != (winner is not None) or (
                winner is not None and not 0 <= winner < self.players):
            return "pad_winner"
        if len(values) != self.players or any(
                len(values[seat]) != (0 if seat == winner else len(self.rule.fields))
                for seat in range(self.players)):
            return "pad_values"
        if any(not 0 <= number <= MOST for entered in values for number in entered):
            return "pad_number"
        return None

    def record(self, winner: int | None, values: Sequence[Sequence[int]]) -> RoundsBook:
        return replace(self, rounds=(*self.rounds, Round(winner, tuple(map(tuple, values)))))

    def enter(self, move: PadMove) -> tuple[RoundsBook, list[Event]]:
        if not isinstance(move, EnterRound):
            raise IllegalMove(Reason.of("pad_not_here"))
        problem = self.check(move.winner, move.values)
        if problem is not None:
            raise IllegalMove(Reason.of(problem))
        after = self.record(move.winner, move.values)
        events: list[Event] = [RoundEntered(len(after.rounds), after.round_scores()[-1],
                                            after.totals())]
        if after.over:
            events.append(Finished(after.totals(), winners_of(after.totals())))
        return after, events

    def take_back(self) -> tuple[RoundsBook, list[Event]] | None:
        if not self.rounds:
            return None
        return replace(self, rounds=self.rounds[:-1]), [RoundUndone(len(self.rounds))]

    def finish(self) -> RoundsBook:
        return replace(self, finished=True)

    def reopen(self) -> RoundsBook:
        return replace(self, finished=False)

    def to_dict(self) -> dict[str, Any]:
        return {"rounds": [[entry.winner, [list(v) for v in entry.values]]
                           for entry in self.rounds], "finished": self.finished}

    def restored(self, saved: Mapping[str, Any]) -> RoundsBook:
        book = replace(self, rounds=(), finished=False)
        for winner, values in saved["rounds"]:
            seat = None if winner is None else int(winner)
            numbers = tuple(tuple(int(n) for n in entered) for entered in values)
            problem = book.check(seat, numbers)
            if problem is not None:
                raise ValueError(f"a saved round cannot be entered ({problem})")
            book = book.record(seat, numbers)
        return replace(book, finished=bool(saved["finished"]))


def winners_of(totals: Sequence[int]) -> tuple[int, ...]:
    """The players with the most points (ties are shared): ``winners_of((3, 5, 5)) == (1, 2)``.
    """
    return tuple(seat for seat, total in enumerate(totals) if total == max(totals))


AnyBook = TypeVar("AnyBook", bound=Book)


def play(book: AnyBook, move: PadMove) -> tuple[AnyBook, list[Event]]:
    """Apply ``move`` to ``book``: the new book (of the same kind) and what to tell; a move
    the book refuses raises :class:`IllegalMove` with its reason and leaves ``book`` as it
    was: ``play(book, EnterRound(None, ((3,), (5,))))``."""
    if isinstance(move, Undo):
        if book.finished:
            return book.reopen(), [Reopened()]
        before = book.take_back()
        if before is None:
            raise IllegalMove(Reason.of("pad_nothing_to_undo"))
        return cast(AnyBook, before[0]), before[1]
    if isinstance(move, Finish):
        if book.finished:
            raise IllegalMove(Reason.of("pad_finished"))
        done = book.finish()
        return done, [Finished(done.totals(), winners_of(done.totals()))]
    after, events = book.enter(move)
    return cast(AnyBook, after), events
