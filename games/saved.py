"""Reading a saved state strictly: every value's type, range and size, before any is used.

Each function takes the value, the path it was found at (``"hands.1"``, for the reason) and
its bounds, and returns it typed, or raises :class:`BadState` naming the path and what is
wrong (``wrong_type``, ``out_of_range``, ``too_long``, ``unknown_card``...). Sizes are checked
before contents, so a list of a million items or one nested a thousand deep is refused at
once.

    saved = need_dict(data, "")
    players = integer(saved_field(saved, "players"), "players", 2, 6)
    hands = [cards(hand, f"hands.{seat}", known, 200) for seat, hand in
             enumerate(items(saved_field(saved, "hands"), "hands", players, players))]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, TypeVar

from games.errors import BadState, DataProblem, Reason, bad_state

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
