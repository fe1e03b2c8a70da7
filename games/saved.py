"""Reading a saved state strictly: every value's type, range and size, before any is used.

Each function takes the value, the path it was found at (``"hands.1"``, for the reason) and
its bounds, and returns it typed, or raises :class:`BadState` naming the path and what is
wrong (``wrong_type``, ``out_of_range``, ``too_long``, ``unknown_card``...). Sizes are checked
before contents, so a list of a million items or one nested a thousand deep is refused at
once.

    saved = need_dict(data, "")
    players = integer(field(saved, "players"), "players", 2, 6)
    hands = [cards(hand, f"hands.{seat}", known, 200) for seat, hand in
             enumerate(items(field(saved, "hands"), "hands", players, players))]

An engine declares its save with the same checks as kinds (:class:`Record`, :class:`Int`,
:class:`Cards`, :class:`ListOf`...): a kind is called with the value and its path, like the
functions. A record reads its fields in order, a field's kind may depend on the fields before
it (:class:`Depends`), and its checks, which relate fields to each other, run after them:

    state = Record({"players": Int(2, 6),
                    "hands": Depends(lambda read: one_per_seat(read["players"], Cards(known)))},
                   checks=[lambda read, at: ensure(any(read["hands"]), "hands", "all_empty")])
    state(data, "")  # {"players": 2, "hands": [["r1"], []]}, or BadState
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from games.errors import BadState, DataProblem, Reason, bad_state
from games.rng import rng_from_json

T = TypeVar("T")

# Bounds on what a saved game may hold: far above any real game, low enough to answer fast.
MOST_CARDS = 5_000
MOST_POINTS = 10**9
MOST_TEXT = 200


def need_dict(value: object, at: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise bad_state(at or "state", "wrong_type", need="dict")
    if len(value) > 200:
        raise bad_state(at or "state", "too_long")
    return value


def field(data: Mapping[str, Any], key: str, at: str = "") -> Any:
    """``data[key]``, or :class:`BadState` ``missing`` at ``at.key``."""
    path = f"{at}.{key}" if at else key
    if key not in data:
        raise bad_state(path, "missing")
    return data[key]


def integer(value: object, at: str, low: int, high: int) -> int:
    if type(value) is not int:
        raise bad_state(at, "wrong_type", need="int")
    if not low <= value <= high:
        raise bad_state(at, "out_of_range", low=low, high=high)
    return value


def flag(value: object, at: str) -> bool:
    if type(value) is not bool:
        raise bad_state(at, "wrong_type", need="bool")
    return value


def text(value: object, at: str, choices: Collection[str] | None = None) -> str:
    if type(value) is not str:
        raise bad_state(at, "wrong_type", need="str")
    if len(value) > MOST_TEXT:
        raise bad_state(at, "too_long")
    if choices is not None and value not in choices:
        raise bad_state(at, "unknown_value", value=value[:20])
    return value


def items(value: object, at: str, most: int, least: int = 0) -> list[Any]:
    """A list of ``least`` to ``most`` items (not yet checked themselves)."""
    if type(value) is not list:
        raise bad_state(at, "wrong_type", need="list")
    if len(value) > most:
        raise bad_state(at, "too_long", most=most)
    if len(value) < least:
        raise bad_state(at, "too_short", least=least)
    return value


def each(value: object, at: str, most: int, read: Callable[[Any, str], T],
         least: int = 0) -> list[T]:
    """A list read item by item: ``each(data, "totals", 6, lambda v, at: integer(v, at, 0, 9))``."""
    return [read(item, f"{at}.{index}") for index, item in enumerate(items(value, at, most, least))]


def card(value: object, at: str, known: Collection[str]) -> str:
    if type(value) is not str:
        raise bad_state(at, "wrong_type", need="str")
    if value not in known:
        raise bad_state(at, "unknown_card", card=value[:20])
    return value


def cards(value: object, at: str, known: Collection[str], most: int = MOST_CARDS) -> list[str]:
    return each(value, at, most, lambda item, where: card(item, where, known))


def seat(value: object, at: str, players: int, *also: int | None) -> Any:
    """A seat from 0 to ``players - 1``, or one of ``also`` (``-1``, ``None``)."""
    if value in also and (value is None or type(value) is int):
        return value
    return integer(value, at, 0, players - 1)


def ensure(holds: bool, at: str, why: str, **args: Any) -> None:
    """Refuse the state unless ``holds``: ``ensure(x in hand, "drawn", "not_in_hand")``."""
    if not holds:
        raise bad_state(at, why, **args)


def same_cards(found: Counter[str], box: Counter[str], at: str = "cards") -> None:
    """The whole box exactly: nothing created (``card_twice``), nothing lost (``card_lost``)."""
    if found == box:
        return
    extra = found - box
    if extra:
        raise bad_state(at, "card_twice", card=min(extra)[:20])
    raise bad_state(at, "card_lost", card=min(box - found)[:20])


def box_problem(error: BadState) -> DataProblem:
    """The box data's damage found while creating a game: a :class:`DataProblem`."""
    return DataProblem(Reason("box_data", error.reason.args))


def plain(value: object, at: str, depth: int = 6) -> Any:
    """A JSON-like copy of box data (TOML tables and arrays as dicts and lists), refusing
    nesting deeper than ``depth`` and anything but str, int, float, bool."""
    if depth < 0:
        raise bad_state(at, "too_deep")
    if isinstance(value, Mapping):
        need_dict(value, at)
        return {str(k)[:MOST_TEXT]: plain(v, f"{at}.{k}", depth - 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v, f"{at}.{i}", depth - 1)
                for i, v in enumerate(items(list(value), at, MOST_CARDS))]
    if isinstance(value, float) and not math.isfinite(value):
        raise bad_state(at, "not_finite")
    if isinstance(value, (str, int, float, bool)):
        return value
    raise bad_state(at, "wrong_type", need="data")


def distinct(values: Iterable[Any], at: str) -> None:
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            raise bad_state(at, "twice", value=str(value)[:20])
        seen.add(value)


# ----------------------------------------------------------------------------- kinds

Kind = Callable[[Any, str], Any]  # (value, path) -> the value read, or BadState at the path
Read = dict[str, Any]  # a record's fields read so far, by key
Check = Callable[[Read, str], None]  # (the record read, its path): BadState if they disagree


FLAG: Kind = flag
TEXT: Kind = text
RNG: Kind = rng_from_json


def as_is(value: object, at: str) -> Any:
    """Any value, left to the engine's own checks: ``ANY``."""
    return value


ANY: Kind = as_is


@dataclass(frozen=True)
class Int:
    """An int from ``low`` to ``high``: ``Int(0, 9)(value, "totals.1")``."""

    low: int
    high: int

    def __call__(self, value: object, at: str) -> int:
        return integer(value, at, self.low, self.high)


@dataclass(frozen=True)
class Text:
    """A short text, one of ``choices``: ``Text(("play", "over"))(value, "phase")``."""

    choices: Collection[str]

    def __call__(self, value: object, at: str) -> str:
        return text(value, at, self.choices)


class Seat:
    """A seat of ``players``, or one of ``also``: ``Seat(4, -1)(value, "catchable")``."""

    def __init__(self, players: int, *also: int | None) -> None:
        self.players = players
        self.also = also

    def __call__(self, value: object, at: str) -> Any:
        return seat(value, at, self.players, *self.also)


@dataclass(frozen=True)
class Card:
    """One card of ``known``, as its text, or as ``known``'s value when it is a mapping from
    text to card: ``Card({"r1": ...})(value, "placements.0")``."""

    known: Collection[str]

    def __call__(self, value: object, at: str) -> Any:
        found = card(value, at, self.known)
        return self.known[found] if isinstance(self.known, Mapping) else found


@dataclass(frozen=True)
class Cards:
    """A pile of at most ``most`` cards of ``known``, each read as :class:`Card` reads it:
    ``Cards(known, 55)(value, "stock")``."""

    known: Collection[str]
    most: int = MOST_CARDS

    def __call__(self, value: object, at: str) -> list[Any]:
        return each(value, at, self.most, Card(self.known))


@dataclass(frozen=True)
class ListOf:
    """A list of ``least`` to ``most`` items, each of kind ``item`` at ``at.<index>`` (and
    each once if ``distinct``): the length is checked before any item.
    ``ListOf(Int(0, 9), 6)(value, "totals")``."""

    item: Kind
    most: int
    least: int = 0
    distinct: bool = False

    def __call__(self, value: object, at: str) -> list[Any]:
        found = each(value, at, self.most, self.item, self.least)
        if self.distinct:
            distinct(found, at)
        return found


def one_per_seat(players: int, item: Kind) -> ListOf:
    """One ``item`` per seat: ``one_per_seat(3, FLAG)``."""
    return ListOf(item, players, players)


@dataclass(frozen=True)
class Fixed:
    """A list of exactly one item per kind, each read at the list's own path (a refusal names
    the whole item): ``Fixed((TEXT, Int(1, 21), TEXT))(["r", 12, "b"], "table_links.0")``."""

    kinds: tuple[Kind, ...]

    def __call__(self, value: object, at: str) -> list[Any]:
        size = len(self.kinds)
        return [kind(item, at) for kind, item in zip(self.kinds, items(value, at, size, size),
                                                    strict=True)]


@dataclass(frozen=True)
class MapOf:
    """A dict whose keys are of kind ``keys`` (read at the dict's path) and whose values are
    of kind ``values`` (at ``at.<key>``): ``MapOf(Text(("r", "b")), Int(0, 20))``."""

    keys: Kind
    values: Kind

    def __call__(self, value: object, at: str) -> dict[Any, Any]:
        return {self.keys(key, at): self.values(item, f"{at}.{key}")
                for key, item in need_dict(value, at).items()}


@dataclass(frozen=True)
class Depends:
    """A field whose kind depends on the fields of its record read before it:
    ``Depends(lambda read: one_per_seat(read["players"], FLAG))``."""

    kind: Callable[[Read], Kind]


@dataclass(frozen=True)
class IfGiven:
    """A field that may be left out (then absent from what the record reads)."""

    kind: Kind | Depends


@dataclass(frozen=True)
class Record:
    """A dict with ``fields`` (key: kind), read in their order, then ``checks`` on what was
    read; other keys are left alone. Returns the fields read, by key."""

    fields: Mapping[str, Kind | Depends | IfGiven]
    checks: Sequence[Check] = ()

    def __call__(self, value: object, at: str) -> Read:
        data = need_dict(value, at)
        read: Read = {}
        for key, kind in self.fields.items():
            if isinstance(kind, IfGiven):
                if key not in data:
                    continue
                kind = kind.kind
            if isinstance(kind, Depends):
                kind = kind.kind(read)
            read[key] = kind(field(data, key, at), f"{at}.{key}" if at else key)
        for check in self.checks:
            check(read, at)
        return read


@dataclass(frozen=True)
class BoxData:
    """Box data: its plain copy (:func:`plain`), checked by ``record`` and kept whole, keys the
    record does not name included: ``BoxData(Record({"hand_size": Int(1, 30)}))(data, "data")``.
    """

    record: Record

    def __call__(self, value: object, at: str) -> dict[str, Any]:
        box: dict[str, Any] = plain(need_dict(value, at), at)
        self.record(box, at)
        return box
