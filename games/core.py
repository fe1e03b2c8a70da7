"""The shape every rules engine shares.

A game is created from ``(players, seed, rules data, variant options)``. All randomness comes
from its own seeded ``random.Random``, so a seed reproduces a whole game, and the generator's
state is part of ``to_dict()`` so a resumed game continues identically.

    game = Uno.new(players=3, seed=7, data=uno_data)
    seat = game.actors()[0]
    events = game.play(seat, game.legal_moves(seat)[0])
    mine = events_for(events, seat)   # what that seat may learn

Nothing here prints or formats text for people: a refusal is a :class:`Reason` (a code plus
arguments) that ``layouts`` turns into words in the user's language.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

Seat = int
Json = Any  # plain data: dict, list, str, int, float, bool, None


@dataclass(frozen=True)
class Reason:
    """Why a move is illegal: a stable code and its arguments, e.g. ``Reason("not_your_turn")``."""

    code: str
    args: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, code: str, **args: Any) -> Reason:
        """``Reason.of("card_not_in_hand", card="r7")``."""
        return cls(code, tuple(sorted(args.items())))

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.args)

    def __str__(self) -> str:
        if not self.args:
            return self.code
        inner = ", ".join(f"{k}={v}" for k, v in self.args)
        return f"{self.code}({inner})"


class IllegalMove(Exception):
    """Raised by ``play`` for a refused move; the game state is left exactly as it was."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(str(reason))
        self.reason = reason


class NotationError(ValueError):
    """Text that is not a card or move in the game's notation, e.g. ``parse_card("x9")``."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True)
class Event:
    """Something that happened. Subclasses that carry hidden information override
    :meth:`seen_by` to return what one seat may learn of it (or ``None``)."""

    def seen_by(self, seat: Seat) -> Event | None:
        return self


class SeatSecret(Event):
    """An event carrying one seat's hidden cards: ``seat`` sees it whole, every other seat
    sees it with the fields named in ``hidden`` replaced, e.g. ``hidden = {"cards": None}``
    for a draw whose count stays public. Subclasses are frozen dataclasses with a ``seat``."""

    seat: Seat
    hidden: ClassVar[Mapping[str, Any]] = {}

    def seen_by(self, seat: Seat) -> Event | None:
        return self if seat == self.seat else dataclasses.replace(cast(Any, self), **self.hidden)


def events_for(events: Sequence[Event], seat: Seat) -> list[Event]:
    """The events as ``seat`` may learn them, hidden cards of other seats removed."""
    seen: list[Event] = []
    for event in events:
        filtered = event.seen_by(seat)
        if filtered is not None:
            seen.append(filtered)
    return seen


def rng_state_to_json(rng: random.Random) -> Json:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Json) -> random.Random:
    rng = random.Random()
    version, internal, gauss = data
    rng.setstate((version, tuple(internal), gauss))
    return rng


M = TypeVar("M")
V = TypeVar("V")
G = TypeVar("G", bound="Game[Any, Any]")


class Game(ABC, Generic[M, V]):
    """A rules engine. Subclasses implement the abstract methods; ``play`` is final.

    ``check`` must find every reason a move is illegal, so that ``_apply`` never fails halfway:
    the property tests hold every game to that.
    """

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    @classmethod
    @abstractmethod
    def new(cls: type[G], players: int, seed: int, data: Mapping[str, Any], **options: Any) -> G:
        """A fresh game: ``data`` is the box's numbers (from ``layouts``), ``options`` variants."""

    @abstractmethod
    def actors(self) -> list[Seat]:
        """Seats that may act now, the one that must act first."""

    def must_act(self) -> list[Seat]:
        """Seats the game waits for; the other actors may act but need not (Uno's catch)."""
        return self.actors()[:1]

    @abstractmethod
    def legal_moves(self, seat: Seat) -> list[M]:
        """Every legal move of ``seat`` now (empty for a seat that may not act)."""

    @abstractmethod
    def check(self, seat: Seat, move: M) -> Reason | None:
        """The reason ``move`` is illegal for ``seat`` now, or ``None`` if it is legal."""

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
        """Everything ``seat`` may know, and nothing more."""

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
    def to_dict(self) -> dict[str, Json]:
        """The whole state as plain JSON-able data."""

    @classmethod
    @abstractmethod
    def from_dict(cls: type[G], data: Mapping[str, Json]) -> G: ...

    @abstractmethod
    def format_move(self, move: M) -> str:
        """The move in the game's text notation (used by the CLI, the tests and the logs)."""

    @abstractmethod
    def parse_move(self, seat: Seat, text: str) -> M:
        """Read a move in the game's text notation, or raise :class:`NotationError`."""


V_contra = TypeVar("V_contra", contravariant=True)


class Bot(Protocol[V_contra, M]):
    """A computer opponent: from a seat's view (never the state) to a move.

    ``legal`` is ``game.legal_moves(seat)``, which only depends on what the seat knows; games
    whose moves cannot be listed pass an empty list. An optional actor (``seat`` not in
    ``must_act()``) may return ``None`` to do nothing.
    """

    def choose(self, view: V_contra, legal: Sequence[M]) -> M | None: ...
