"""A game's whole state as one line of text, both ways (as python-chess has FEN).

The line is the game's name, then ``key=value`` fields separated by spaces; a value never
holds a space. Lists are written with commas, one list per seat separated by ``;``, an empty
list or text as ``-``, flags as ``yes``/``no``:

    uno players=2 dealer=1 hands=r5,wi+4;b1,b2 discard=g9,g3 stock=... rng=7+1234

Each engine declares its fields (``POSITION``: :class:`Field` s, in writing order) with a
codec and a default. A field whose value is its default is left out when writing and filled
in when reading, so a hand-written test position names only what matters; the leftover pile
(Uno's stock, Rummikub's pool...) defaults to the rest of the box in box order. ``data`` (the
box's numbers, compact JSON) is written only when it is not the box's own; ``rng`` is the
random state (:func:`games.rng.rng_text`: ``seed+words``, or the whole state).

Reading builds the ``to_dict()`` state and hands it to ``from_dict``, which checks it all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.box import box_data
from games.errors import BadState, bad_state
from games.rng import rng_from_json, rng_from_text, rng_state_to_json, rng_text

MOST_LINE = 200_000
EMPTY = "-"


class Codec(Protocol):
    def write(self, value: Any) -> str: ...

    def read(self, text: str) -> Any: ...


class _Int:
    def write(self, value: Any) -> str:
        return str(value)

    def read(self, text: str) -> Any:
        if not re.fullmatch(r"-?[0-9]{1,30}", text):
            raise ValueError(text)
        return int(text)


class _Flag:
    def write(self, value: Any) -> str:
        return "yes" if value else "no"

    def read(self, text: str) -> Any:
        if text not in ("yes", "no"):
            raise ValueError(text)
        return text == "yes"


class _Text:
    """A word (``""`` written ``-``)."""

    def write(self, value: Any) -> str:
        return str(value) or EMPTY

    def read(self, text: str) -> Any:
        return "" if text == EMPTY else text


class _Maybe:
    """A value or ``None`` (written ``-``)."""

    def __init__(self, inner: Codec) -> None:
        self.inner = inner

    def write(self, value: Any) -> str:
        return EMPTY if value is None else self.inner.write(value)

    def read(self, text: str) -> Any:
        return None if text == EMPTY else self.inner.read(text)


@dataclass(frozen=True)
class ListOf:
    """Items joined by ``sep``; the empty list is ``-``."""

    item: Codec
    sep: str = ","

    def write(self, value: Any) -> str:
        return self.sep.join(self.item.write(v) for v in value) or EMPTY

    def read(self, text: str) -> Any:
        return [] if text == EMPTY else [self.item.read(part) for part in text.split(self.sep)]


class _Json:
    """Compact JSON (the box data); spaces in its strings written ``\\u0020``."""

    def write(self, value: Any) -> str:
        return json.dumps(value, separators=(",", ":"), sort_keys=True).replace(" ", "\\u0020")

    def read(self, text: str) -> Any:
        return json.loads(text)


INT, FLAG, TEXT = _Int(), _Flag(), _Text()
MAYBE_INT = _Maybe(INT)
INTS, TEXTS, FLAGS = ListOf(INT), ListOf(TEXT), ListOf(FLAG)
PER_SEAT_TEXTS = ListOf(TEXTS, ";")


def maybe(inner: Codec) -> Codec:
    return _Maybe(inner)


State = dict[str, Any]
Default = Callable[[State], Any]


def const(value: Any) -> Default:
    """A default that is always ``value`` (lists and dicts copied)."""
    return lambda state: json.loads(json.dumps(value))


def per_seat(value: Any) -> Default:
    """A default of one ``value`` per seat (``state["players"]`` seats)."""
    return lambda state: [json.loads(json.dumps(value)) for _ in range(state["players"])]


@dataclass(frozen=True)
class Field:
    """One field of a position: the ``to_dict()`` key, how it is written, its default
    (``None``: always written, required when read)."""

    key: str
    codec: Codec
    default: Default | None = None


def write_position(name: str, fields: Sequence[Field], state: Mapping[str, Any],
                   seed: int | None) -> str:
    """The line of ``state`` (a ``to_dict()``) for the game ``name``."""
    parts = [name]
    filled: State = {"data": state["data"]}
    for spec in fields:
        value = state[spec.key]
        if spec.default is None or value != spec.default(filled):
            parts.append(f"{spec.key}={spec.codec.write(value)}")
        filled[spec.key] = value
    parts.append(f"rng={rng_text(rng_from_json(state['rng']), seed)}")
    if state.get("data") != box_data(name):
        parts.append(f"data={_Json().write(state['data'])}")
    return " ".join(parts)


def read_position(name: str, fields: Sequence[Field], line: str) -> tuple[State, int | None]:
    """The ``to_dict()`` state of a line and the seed of its random state (or ``None``);
    raises :class:`BadState` for a line that cannot be read."""
    if type(line) is not str:
        raise bad_state("position", "wrong_type", need="str")
    if len(line) > MOST_LINE:
        raise bad_state("position", "too_long")
    words = line.split()
    if not words or words[0] != name:
        raise bad_state("position", "not_this_game", game=name)
    given: dict[str, str] = {}
    known = {"data", "rng", *(spec.key for spec in fields)}
    for word in words[1:]:
        key, sign, value = word.partition("=")
        if not sign or key not in known:
            raise bad_state("position", "unknown_field", field=key[:20])
        if key in given:
            raise bad_state(key, "twice")
        given[key] = value
    state: State = {"game": name}
    try:
        state["data"] = _Json().read(given["data"]) if "data" in given else box_data(name)
    except ValueError:  # json.JSONDecodeError, and RecursionError's cousins
        raise bad_state("data", "unreadable") from None
    except RecursionError:
        raise bad_state("data", "too_deep") from None
    rng, seed = rng_from_text(given.get("rng", "0"))
    state["rng"] = rng_state_to_json(rng)
    for spec in fields:
        if spec.key in given:
            try:
                state[spec.key] = spec.codec.read(given[spec.key])
            except BadState:
                raise
            except (ValueError, KeyError, IndexError):
                raise bad_state(spec.key, "unreadable") from None
        elif spec.default is None:
            raise bad_state(spec.key, "missing")
        else:
            try:
                state[spec.key] = spec.default(state)
            except BadState:
                raise
            except (ValueError, KeyError, IndexError, TypeError):
                raise bad_state(spec.key, "no_default") from None
    return state, seed
