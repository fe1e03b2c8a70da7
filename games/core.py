"""The shape every rules engine shares.

A game is created from ``(players, seed, rules data, variant options)``. All randomness comes
from its own seeded ``random.Random``, so a seed reproduces a whole game, and the generator's
state is part of ``to_dict()`` so a resumed game continues identically.

    game = Uno.new(players=3, seed=7)          # the box's numbers from games/uno/rules.toml
    seat = game.actors()[0]
    events = game.play(seat, game.legal_moves(seat)[0])
    mine = events_for(events, seat)            # what that seat may learn
    line = game.position()                     # the whole state as one line of text
    Uno.from_position(line).to_dict() == game.to_dict()

Nothing here prints or formats text for people: a refusal is a :class:`Reason` (a code plus
arguments) that ``layouts`` turns into words in the user's language. Every error the layer
raises is in :mod:`games.errors`, the random state's saving in :mod:`games.rng` and the box's
numbers in :mod:`games.box` (all re-exported here).
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from games.box import box_data
from games.errors import (
    BadState,
    BotError,
    DataProblem,
    GameError,
    IllegalMove,
    NoSuchSeat,
    NotationError,
    Reason,
    bad_state,
    data_problem,
)
from games.position import Field, read_position, write_position
from games.rng import rng_from_json, rng_from_text, rng_state_to_json, rng_text

__all__ = [
    "BadState", "Bot", "BotError", "BotMaker", "DataProblem", "Event", "Game", "GameError",
    "IllegalMove", "Json", "NoSuchSeat", "NotationError", "Reason", "Seat", "SeatSecret",
    "SeededBot", "bad_state", "box_data", "census_of", "data_problem", "events_for",
    "rng_from_json", "rng_from_text", "rng_state_to_json", "rng_text",
]

Seat = int
Json = Any  # plain data: dict, list, str, int, float, bool, None


@dataclass(frozen=True)
class Event:
    """Something that happened. Subclasses that carry hidden information override
    :meth:`seen_by` to return what one seat may learn of it (or ``None``)."""

    def seen_by(self, seat: Seat) -> Event | None:
        return self


class SeatSecret(Event):
    """An event carrying one seat's hidden cards, always in a field named ``cards`` (a tuple,
    one card or several): ``seat`` sees the event whole, every other seat sees it with
    ``cards=None``; the other fields (a count, a reason) stay public. Subclasses are frozen
    dataclasses declaring ``seat`` and ``cards``, e.g. Uno's ``Drew(seat, count, why, cards)``.
    """

    seat: Seat
    cards: tuple[Any, ...] | None

    def seen_by(self, seat: Seat) -> Event | None:
        return self if seat == self.seat else dataclasses.replace(cast(Any, self), cards=None)


def events_for(events: Sequence[Event], seat: Seat) -> list[Event]:
    """The events as ``seat`` may learn them, hidden cards of other seats removed."""
    seen: list[Event] = []
    for event in events:
        filtered = event.seen_by(seat)
        if filtered is not None:
            seen.append(filtered)
    return seen


# ----------------------------------------------------------------------------- games

M = TypeVar("M")
V = TypeVar("V")
G = TypeVar("G", bound="Game[Any, Any]")


class Game(ABC, Generic[M, V]):
    """A rules engine. Subclasses implement the abstract methods; ``new`` and ``play`` are
    final.

    ``check`` must find every reason a move is illegal, so that ``_apply`` never fails halfway:
    the conformance suite holds every game to that. ``from_dict`` trusts nothing it reads:
    anything but a state the rules could reach is :class:`BadState`.
    """

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 2
    # The position line's fields (see :mod:`games.position`), in the order they are written.
    POSITION: ClassVar[Sequence[Field]] = ()

    players: int
    # What the creation of the game did that seats may be told (the deal, the first card),
    # with full information; empty when the engine deals nothing it reports. Never saved: a
    # resumed game has told them already.
    start_events: list[Event]
    # The seed ``new`` was given (``None`` for a game read back from a save): it lets
    # ``position()`` write the random state as ``seed+words`` instead of the whole state.
    seed: int | None = None

    @classmethod
    def new(cls: type[G], players: int | None = None, seed: int = 0,
            data: Mapping[str, Any] | None = None, **options: Any) -> G:
        """A fresh game: ``players`` (default :attr:`default_players`), ``data`` the box's
        numbers (default :func:`box_data`), ``options`` the variants. A refusal is
        :class:`DataProblem`: ``Uno.new(players=9)`` -> ``players_range``."""
        count = cls.default_players if players is None else players
        if type(count) is not int or not cls.min_players <= count <= cls.max_players:
            raise data_problem("players_range", game=cls.name, low=cls.min_players,
                               high=cls.max_players, players=str(count)[:20])
        game = cls._create(count, seed, box_data(cls.name) if data is None else data, **options)
        game.seed = seed if type(seed) is int else None
        return game

    @classmethod
    @abstractmethod
    def _create(cls: type[G], players: int, seed: int, data: Mapping[str, Any],
                **options: Any) -> G:
        """The fresh game of :meth:`new`, ``players`` already checked."""

    def is_seat(self, seat: object) -> bool:
        """Whether ``seat`` is a seat of this game (an int from 0 to ``players - 1``)."""
        return type(seat) is int and 0 <= seat < self.players

    def no_such_seat(self, seat: object) -> NoSuchSeat:
        return NoSuchSeat(Reason.of("no_such_seat", seat=repr(seat)[:20]))

    @abstractmethod
    def actors(self) -> list[Seat]:
        """Seats that may act now, the one that must act first."""

    def must_act(self) -> list[Seat]:
        """Seats the game waits for; the other actors may act but need not (Uno's catch)."""
        return self.actors()[:1]

    @abstractmethod
    def legal_moves(self, seat: Seat) -> list[M]:
        """Every legal move of ``seat`` now (empty for a seat that may not act, or that the
        game does not have)."""

    @abstractmethod
    def check(self, seat: Seat, move: M) -> Reason | None:
        """The reason ``move`` is illegal for ``seat`` now, or ``None`` if it is legal; any
        seat and any object are answered with a reason, never an exception."""

    @abstractmethod
    def _apply(self, seat: Seat, move: M) -> list[Event]:
        """Apply a move already checked legal; return every event with full information."""

    def play(self, seat: Seat, move: M) -> list[Event]:
        """Apply a legal move and return its events (full information: filter per seat with
        :func:`events_for`), or raise :class:`IllegalMove` leaving the state untouched."""
        reason = self.check(seat, move)
        if reason is not None:
            raise IllegalMove(reason)
        return self._apply(seat, move)

    @abstractmethod
    def view(self, seat: Seat) -> V:
        """Everything ``seat`` may know, and nothing more; :class:`NoSuchSeat` for a seat
        the game does not have."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[int]:
        """Points per seat so far (the match total when the game has several rounds)."""

    def winners(self) -> list[Seat]:
        """Seats with the best score once the game is over (ties are shared)."""
        points = self.scores()
        best = max(points)
        return [seat for seat, score in enumerate(points) if score == best]

    @abstractmethod
    def census(self) -> Counter[str]:
        """Every card of the game wherever it is (hands, piles, table, the box), by its text:
        equal to :meth:`box_cards` at every moment, cards are never created or lost."""

    @abstractmethod
    def box_cards(self) -> Counter[str]:
        """Every card the box data says the game holds, by its text."""

    @abstractmethod
    def to_dict(self) -> dict[str, Json]:
        """The whole state as plain JSON-able data."""

    @classmethod
    @abstractmethod
    def from_dict(cls: type[G], data: Mapping[str, Json]) -> G:
        """The game saved by :meth:`to_dict`; :class:`BadState` for anything the rules
        could not have reached (unknown or missing cards, seats out of range, wrong types)."""

    def position(self) -> str:
        """The whole state as one line of text, e.g. ``"uno players=2 dealer=1 ..."``; see
        :mod:`games.position` and each engine's ``POSITION``."""
        return write_position(self.name, self.POSITION, self.to_dict(), self.seed)

    @classmethod
    def from_position(cls: type[G], line: str) -> G:
        """The game of a :meth:`position` line; fields left out take their defaults (the
        leftover pile: the rest of the box). Raises :class:`BadState`."""
        state, seed = read_position(cls.name, cls.POSITION, line)
        game = cls.from_dict(state)
        game.seed = seed
        return game

    @abstractmethod
    def format_move(self, move: M) -> str:
        """The move in the game's text notation: the same as ``str(move)``."""

    @abstractmethod
    def parse_move(self, seat: Seat, text: str) -> M:
        """Read a move in the game's text notation, or raise :class:`NotationError`."""


def census_of(*piles: Sequence[Any]) -> Counter[str]:
    """Cards of several piles (any card objects, counted by their text)."""
    found: Counter[str] = Counter()
    for pile in piles:
        found.update(str(card) for card in pile)
    return found


# ----------------------------------------------------------------------------- bots

V_contra = TypeVar("V_contra", contravariant=True)


class Bot(Protocol[V_contra, M]):
    """A computer opponent: from a seat's view (never the state) to a move.

    ``legal`` is ``game.legal_moves(seat)``, which only depends on what the seat knows; games
    whose moves cannot be listed pass an empty list. An optional actor (``seat`` not in
    ``must_act()``) may return ``None`` to do nothing. Whoever drives the bot hands it every
    move's events as its seat learns them (``see``, :func:`games.play.tell_bots`), so it can
    remember what it saw, as a person at the table would.

    A bot saves with its table: ``to_dict()`` holds its random state and whatever it
    remembers; ``type(bot).from_dict(saved)`` gives it back (or ``bot.restore(saved)`` in
    place), so that a resumed table plays on exactly as it would have (:class:`BadState`
    for damaged data, the bot left as it was).
    """

    def choose(self, view: V_contra, legal: Sequence[M]) -> M | None: ...

    def see(self, events: Sequence[Event]) -> None: ...

    def to_dict(self) -> dict[str, Json]: ...

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Self: ...

    def restore(self, data: Mapping[str, Json]) -> None: ...


class BotMaker(Protocol[V_contra, M]):
    """What a game's ``BOTS`` table holds for each name: a bot class, called with a seed
    for a new bot, or asked ``from_dict`` for a saved one.

        bot = BOTS["heuristic"](3)
        again = BOTS["heuristic"].from_dict(bot.to_dict())
    """

    def __call__(self, seed: int) -> Bot[V_contra, M]: ...

    def from_dict(self, data: Mapping[str, Json]) -> Bot[V_contra, M]: ...


class TurnClock(Protocol[V_contra]):
    """A game's turn time limit, a rule of the game (Rummikub RUM-7): how long the seat of a
    view has for its turn now, and the move played for it when the time is up. The table
    keeps the time; the words of the clock are the screen's.

        CLOCK.time_limit(game.view(seat))      # 120.0, or None: no limit runs for the seat
        game.play(seat, CLOCK.timeout_move(game.view(seat)))
    """

    def time_limit(self, view: V_contra) -> float | None:
        """Seconds the view's seat has for its turn now, or ``None`` (not its turn, or no
        limit)."""

    def timeout_move(self, view: V_contra) -> Hashable:
        """The move played for the view's seat when its time is up."""


class SeededBot:
    """The part every bot shares: its own seeded generator, saved and restored with what
    the bot remembers (:meth:`memory` and :meth:`remember` in subclasses that remember).

    ``bot = RandomBot(3); again = RandomBot.from_dict(bot.to_dict())``
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def to_dict(self) -> dict[str, Json]:
        return {"rng": rng_state_to_json(self.rng), **self.memory()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Self:
        if not isinstance(data, Mapping):
            raise bad_state("bot", "not_a_dict")
        bot = cls(0)
        bot.rng = rng_from_json(data.get("rng"), "bot.rng")
        bot.remember(data)
        return bot

    def restore(self, data: Mapping[str, Json]) -> None:
        """Become the bot saved in ``data``; unchanged if it is damaged."""
        self.__dict__.update(type(self).from_dict(data).__dict__)

    def see(self, events: Sequence[Event]) -> None:
        """Learn from a move's events, already filtered for the bot's seat (most bots decide
        from the view alone and ignore them)."""

    def memory(self) -> dict[str, Json]:
        """What the bot remembers beyond its generator, as plain data."""
        return {}

    def remember(self, data: Mapping[str, Json]) -> None:
        """Take back what :meth:`memory` saved; :class:`BadState` if it is damaged."""
