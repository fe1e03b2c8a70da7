"""Domino 10-11-12's score pad kept for a game at a real table (``brailledev pad domino``):
each turn a player enters the values of the lines made (10, 11, 12), and every player's
sheet fills exactly as the paper pad and the engine fill it, through :mod:`games.domino.pad`
(DOM-7 to DOM-10). The dealer opens each round with two cards; the next player deals the
next one (DOM-4, DOM-5). Undo and finish are the moves every pad has (:mod:`games.pads`).

    book = DominoBook.blank(rules_data("domino"), players=3)
    book, events = play(book, EnterTurn((11, 12)))     # the current player made an 11 and a 12
    book.totals()                                       # (8, 0, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.core import Event, IllegalMove, Reason
from games.domino.pad import PadEntry, ScorePad, turn_points
from games.pads import PadMove


@dataclass(frozen=True)
class EnterTurn(PadMove):
    """The current player's turn, the values of the lines made (none: no line)."""

    lines: tuple[int, ...]


@dataclass(frozen=True)
class NewRound(PadMove):
    """The next round begins; its dealer opens it."""


@dataclass(frozen=True)
class Select(PadMove):
    """The next turn entered is ``seat``'s."""

    seat: int


@dataclass(frozen=True)
class DominoTurn:
    """One turn entered: who, the values of the lines made, the round, and whether it was
    the round's two-card opening (which never earns the super bonus, DOM-9)."""

    seat: int
    lines: tuple[int, ...]
    round: int
    opening: bool


@dataclass(frozen=True)
class TurnEntered(Event):
    """A turn written on ``seat``'s sheet: what the pad took, the new total."""

    seat: int
    lines: tuple[int, ...]
    entry: PadEntry
    opening: bool
    total: int


@dataclass(frozen=True)
class TurnUndone(Event):
    turn: DominoTurn


@dataclass(frozen=True)
class RoundBegun(Event):
    round: int
    dealer: int


@dataclass(frozen=True)
class Selected(Event):
    seat: int


@dataclass(frozen=True)
class DominoBook:
    """Every player's DOM-8 sheet for one game at a real table, from the turns entered.
    ``current`` is the player whose turn is entered next; ``round``, ``dealer`` and
    ``opening`` follow the rounds (the dealer opens each round, the next player deals the
    next one, DOM-4, DOM-5)."""

    players: int
    line_points: Mapping[int, int]
    row_bonus: tuple[int, ...]
    super_bonus: int
    turns: tuple[DominoTurn, ...] = ()
    current: int = 0
    round: int = 1
    dealer: int = 0
    opening: bool = True
    finished: bool = False

    @classmethod
    def blank(cls, rules: Mapping[str, Any], players: int) -> DominoBook:
        """A fresh book from the box data (``games/domino/rules.toml``)."""
        pad = rules["pad"]
        return cls(players, {int(value): int(points)
                             for value, points in rules["line_points"].items()},
                   tuple(int(bonus) for bonus in pad["row_bonus"]), int(pad["super_bonus"]))

    @property
    def values(self) -> tuple[int, ...]:
        """The line values that score (10, 11, 12): the pad's value columns."""
        return tuple(sorted(self.line_points))

    @property
    def over(self) -> bool:
        """The game ends by hand only (finish)."""
        return self.finished

    def pads(self) -> tuple[ScorePad, ...]:
        """Each player's sheet, filled turn by turn (the one source: :mod:`games.domino.pad`)."""
        pads = [ScorePad.blank(self.values, self.row_bonus, self.super_bonus)
                for _ in range(self.players)]
        for turn in self.turns:
            points, earned = turn_points(turn.lines, self.line_points, self.super_bonus,
                                         turn.opening)
            pads[turn.seat], _ = pads[turn.seat].record(points, earned)
        return tuple(pads)

    def totals(self) -> tuple[int, ...]:
        """Every player's Grand Total (DOM-10)."""
        return tuple(pad.total() for pad in self.pads())

    def check(self, lines: Sequence[int]) -> str | None:
        """Why these lines cannot be a turn (a code), or ``None``."""
        if self.finished:
            return "pad_finished"
        if any(value not in self.line_points for value in lines):
            return "pad_line_value"
        return None

    def record(self, lines: Sequence[int]) -> tuple[DominoBook, PadEntry]:
        """The current player's turn with these lines (none: a turn that scores nothing);
        the next player's turn follows."""
        turn = DominoTurn(self.current, tuple(sorted(lines)), self.round, self.opening)
        points, earned = turn_points(turn.lines, self.line_points, self.super_bonus,
                                     turn.opening)
        _, entry = self.pads()[self.current].record(points, earned)
        return replace(self, turns=(*self.turns, turn), current=(self.current + 1) % self.players,
                       opening=False), entry

    def enter(self, move: PadMove) -> tuple[DominoBook, list[Event]]:
        """A turn, a new round or the player whose turn is entered next."""
        if isinstance(move, EnterTurn):
            problem = self.check(move.lines)
            if problem is not None:
                raise IllegalMove(Reason.of(problem))
            seat = self.current
            after, entry = self.record(move.lines)
            return after, [TurnEntered(seat, tuple(sorted(move.lines)), entry, self.opening,
                                       after.totals()[seat])]
        if self.finished:
            raise IllegalMove(Reason.of("pad_finished"))
        if isinstance(move, NewRound):
            after = self.new_round()
            return after, [RoundBegun(after.round, after.current)]
        if isinstance(move, Select) and 0 <= move.seat < self.players:
            return self.select(move.seat), [Selected(move.seat)]
        raise IllegalMove(Reason.of("pad_not_here"))

    def undo(self) -> tuple[DominoBook, DominoTurn] | None:
        """The book before the last turn (its player is current again), or ``None``."""
        if not self.turns:
            return None
        last = self.turns[-1]
        dealer = last.seat if last.opening else self.dealer
        return replace(self, turns=self.turns[:-1], current=last.seat, round=last.round,
                       dealer=dealer, opening=last.opening, finished=False), last

    def take_back(self) -> tuple[DominoBook, list[Event]] | None:
        undone = self.undo()
        return None if undone is None else (undone[0], [TurnUndone(undone[1])])

    def new_round(self) -> DominoBook:
        """The next round: its dealer (one seat left each round) opens it with two cards."""
        dealer = (self.dealer + 1) % self.players
        return replace(self, round=self.round + 1, current=dealer, dealer=dealer,
                       opening=True)

    def select(self, seat: int) -> DominoBook:
        """Enter the next turn for ``seat`` (a pass, or a turn entered out of order); chosen
        for a round's opening, ``seat`` is its dealer."""
        return replace(self, current=seat, dealer=seat if self.opening else self.dealer)

    def finish(self) -> DominoBook:
        return replace(self, finished=True)

    def reopen(self) -> DominoBook:
        return replace(self, finished=False)

    def to_dict(self) -> dict[str, Any]:
        return {"turns": [[t.seat, list(t.lines), t.round, t.opening] for t in self.turns],
                "current": self.current, "round": self.round, "dealer": self.dealer,
                "opening": self.opening, "finished": self.finished}

    def restored(self, saved: Mapping[str, Any]) -> DominoBook:
        """This blank book with the saved turns and place (from :meth:`to_dict`)."""
        turns = tuple(DominoTurn(int(seat), tuple(int(v) for v in lines), int(number),
                                 bool(opening))
                      for seat, lines, number, opening in saved["turns"])
        if any(not 0 <= turn.seat < self.players for turn in turns):
            raise ValueError("a turn names a player the pad does not have")
        return replace(self, turns=turns, current=int(saved["current"]) % self.players,
                       round=int(saved["round"]), dealer=int(saved["dealer"]) % self.players,
                       opening=bool(saved["opening"]), finished=bool(saved["finished"]))
