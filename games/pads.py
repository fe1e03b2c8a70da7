"""Score pads kept for a physical game: what the players enter at the table, scored by the
box's rules, so the blind player keeps the pad the others keep on paper.

Domino 10-11-12 (:class:`DominoBook`): each turn a player enters the values of the lines made
(10, 11, 12); the sheets fill exactly as the paper pad and the engine fill them, through
:mod:`games.domino.pad` (DOM-7 to DOM-10). The four other games (:class:`RoundsBook`) keep a
row per round: Uno (UNO-9: the player who went out scores the cards left in the other hands,
first to the match target wins), Rummikub (RUM-8: the others score minus their rack, the
winner plus their total), Elevens (ELV-11: bonus cards, jokers and number cards left in hand)
and Elements (ELE-7, ELE-8: the point cards won each hand, a hand per player).

A book is immutable: every entry gives a new book, undo gives the book before it, and the
entries alone (``to_dict``) rebuild it.

    book = DominoBook.blank(rules_data("domino"), players=3)
    book, entry = book.record((11, 12))          # the current player made an 11 and a 12
    book.totals()                                 # (8, 0, 0)
    uno = RoundsBook.blank("uno", rules_data("uno"), players=3)
    uno = uno.record(winner=1, values=((12,), (), (40,)))   # player 2 went out: 52 points
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from games.core import Event, IllegalMove, Reason
from games.domino.pad import PadEntry, ScorePad, turn_points

# The highest number a player may enter in one box (a sanity bound, not a rule).
MOST = 9999


@dataclass(frozen=True)
class DominoTurn:
    """One turn entered: who, the values of the lines made, the round, and whether it was
    the round's two-card opening (which never earns the super bonus, DOM-9)."""

    seat: int
    lines: tuple[int, ...]
    round: int
    opening: bool


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

    def undo(self) -> tuple[DominoBook, DominoTurn] | None:
        """The book before the last turn (its player is current again), or ``None``."""
        if not self.turns:
            return None
        last = self.turns[-1]
        dealer = last.seat if last.opening else self.dealer
        return replace(self, turns=self.turns[:-1], current=last.seat, round=last.round,
                       dealer=dealer, opening=last.opening, finished=False), last

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


@dataclass(frozen=True)
class RoundRule:
    """How a game's round is entered and scored: whether a player went out (``winner``), the
    numbers entered for each other player (all players when no one goes out), the rules'
    numbers (``points``), and the end: a match target or as many rounds as players."""

    game: str
    winner: bool
    fields: tuple[str, ...]
    points: Mapping[str, int]
    target: int = 0
    rounds_are_players: bool = False

    def scores(self, winner: int | None, values: Sequence[Sequence[int]]) -> tuple[int, ...]:
        """Each player's points for a round; ``values[seat]`` the numbers entered for that
        seat (empty for the winner)."""
        if self.game == "uno":
            return tuple(sum(sum(v) for v in values) if seat == winner else 0
                         for seat in range(len(values)))
        if self.game == "rummikub":
            return tuple(sum(sum(v) for v in values) if seat == winner else -sum(entered)
                         for seat, entered in enumerate(values))
        if self.game == "elevens":
            bonus, joker = self.points["bonus"], self.points["joker"]
            return tuple(bonuses * bonus + jokers * joker - numbers
                         for bonuses, numbers, jokers in values)
        return tuple(sum(entered) for entered in values)


def round_rule(game: str, rules: Mapping[str, Any]) -> RoundRule:
    """The round sheet of ``game`` from its box data: ``round_rule("uno", rules_data("uno"))``.
    """
    if game == "uno":
        return RoundRule("uno", True, ("hand",), {}, target=int(rules["match_target"]))
    if game == "rummikub":
        return RoundRule("rummikub", True, ("rack",), {})
    if game == "elevens":
        points = {name: int(value) for name, value in rules["points"].items()}
        return RoundRule("elevens", False, ("bonus", "numbers", "jokers"), points)
    if game == "elements":
        return RoundRule("elements", False, ("won",), {}, rounds_are_players=True)
    raise ValueError(f"no round sheet for {game}")


ROUND_GAMES = ("uno", "rummikub", "elevens", "elements")


@dataclass(frozen=True)
class Round:
    """One round entered: who went out (``None`` when no one does) and the numbers entered
    for each seat, in the rule's field order."""

    winner: int | None
    values: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class RoundsBook:
    """A round sheet for one game at a real table: the rounds entered, scored by the rule."""

    rule: RoundRule
    players: int
    rounds: tuple[Round, ...] = ()
    finished: bool = False

    @classmethod
    def blank(cls, game: str, rules: Mapping[str, Any], players: int) -> RoundsBook:
        return cls(round_rule(game, rules), players)

    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.rule.scores(entry.winner, entry.values) for entry in self.rounds)

    def totals(self) -> tuple[int, ...]:
        """Every player's total over the rounds so far."""
        return tuple(sum(scores[seat] for scores in self.round_scores())
                     for seat in range(self.players))

    @property
    def over(self) -> bool:
        """The game has ended: finished by hand, the match target reached (Uno), or every
        player has been first player once (Elements)."""
        if self.finished:
            return True
        if self.rule.target and any(total >= self.rule.target for total in self.totals()):
            return True
        return self.rule.rounds_are_players and len(self.rounds) >= self.players

    def winners(self) -> tuple[int, ...]:
        """The players with the most points (ties are shared)."""
        totals = self.totals()
        return tuple(seat for seat, total in enumerate(totals) if total == max(totals))

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

    def undo(self) -> RoundsBook | None:
        if not self.rounds:
            return None
        return replace(self, rounds=self.rounds[:-1], finished=False)

    def finish(self) -> RoundsBook:
        return replace(self, finished=True)

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


# ---- what a player does on a pad, and what it tells -----------------------------------------

@dataclass(frozen=True)
class EnterTurn:
    """Domino: the current player's turn, the values of the lines made (none: no line)."""

    lines: tuple[int, ...]


@dataclass(frozen=True)
class EnterRound:
    """A round sheet: who went out (``None`` when no one does), the numbers of each seat."""

    winner: int | None
    values: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Undo:
    """Take back the last turn or round entered."""


@dataclass(frozen=True)
class NewRound:
    """Domino: the next round begins; its dealer opens it."""


@dataclass(frozen=True)
class Select:
    """Domino: the next turn entered is ``seat``'s."""

    seat: int


@dataclass(frozen=True)
class Finish:
    """The game is over: the Grand Totals are told (Domino, Rummikub, Elevens end by hand)."""


PadMove = EnterTurn | EnterRound | Undo | NewRound | Select | Finish
PAD_MOVES = (EnterTurn, EnterRound, Undo, NewRound, Select, Finish)
Book = DominoBook | RoundsBook


@dataclass(frozen=True)
class TurnEntered(Event):
    """A Domino turn written on ``seat``'s sheet: what the pad took, the new total."""

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


def winners_of(totals: Sequence[int]) -> tuple[int, ...]:
    return tuple(seat for seat, total in enumerate(totals) if total == max(totals))


AnyBook = TypeVar("AnyBook", bound=DominoBook | RoundsBook)


def play(book: AnyBook, move: PadMove) -> tuple[AnyBook, list[Event]]:
    """Apply ``move`` to ``book``: the new book (of the same kind) and what to tell; a move
    the book refuses raises :class:`IllegalMove` with its reason and leaves ``book`` as it
    was: ``play(book, EnterTurn((11, 12)))``."""
    after, events = _play(book, move)
    return cast(AnyBook, after), events


def _play(book: Book, move: PadMove) -> tuple[Book, list[Event]]:
    if isinstance(move, Undo):
        return _undo(book)
    if isinstance(move, Finish):
        if book.finished:
            raise IllegalMove(Reason.of("pad_finished"))
        done = book.finish()
        return done, [Finished(done.totals(), winners_of(done.totals()))]
    if isinstance(book, DominoBook):
        return _play_domino(book, move)
    if not isinstance(move, EnterRound):
        raise IllegalMove(Reason.of("pad_not_here"))
    problem = book.check(move.winner, move.values)
    if problem is not None:
        raise IllegalMove(Reason.of(problem))
    after = book.record(move.winner, move.values)
    events: list[Event] = [RoundEntered(len(after.rounds), after.round_scores()[-1],
                                        after.totals())]
    if after.over:
        events.append(Finished(after.totals(), after.winners()))
    return after, events


def _play_domino(book: DominoBook, move: PadMove) -> tuple[Book, list[Event]]:
    if isinstance(move, EnterTurn):
        problem = book.check(move.lines)
        if problem is not None:
            raise IllegalMove(Reason.of(problem))
        seat = book.current
        after, entry = book.record(move.lines)
        return after, [TurnEntered(seat, tuple(sorted(move.lines)), entry, book.opening,
                                   after.totals()[seat])]
    if book.finished:
        raise IllegalMove(Reason.of("pad_finished"))
    if isinstance(move, NewRound):
        after = book.new_round()
        return after, [RoundBegun(after.round, after.current)]
    if isinstance(move, Select) and 0 <= move.seat < book.players:
        return book.select(move.seat), [Selected(move.seat)]
    raise IllegalMove(Reason.of("pad_not_here"))


@dataclass(frozen=True)
class Reopened(Event):
    """A game finished by hand goes on (undo after finish)."""


def _undo(book: Book) -> tuple[Book, list[Event]]:
    if book.finished:
        return replace(book, finished=False), [Reopened()]
    if isinstance(book, DominoBook):
        undone = book.undo()
        if undone is None:
            raise IllegalMove(Reason.of("pad_nothing_to_undo"))
        return undone[0], [TurnUndone(undone[1])]
    before = book.undo()
    if before is None:
        raise IllegalMove(Reason.of("pad_nothing_to_undo"))
    return before, [RoundUndone(len(book.rounds))]
