"""Rummikub's text notation for tiles, sets, tables and moves (RUM-1).

A tile is a colour letter (``K`` black, ``R`` red, ``B`` blue, ``Y`` yellow) and a number
1-13, or ``J`` for a joker. A set is its tiles separated by spaces, a table its sets
separated by ``|``. A move is a whole turn:

    draw                          play nothing: take a tile from the pool (RUM-4, RUM-9)
    timeout                       the seat's time ran out (RUM-7; sent by the session)
    table K1 K2 K3 | R5 B5 Y5     the whole table at the end of the turn

    >>> parse_move("table k1 k2 k3")
    Table(sets=(('K1', 'K2', 'K3'),))
    >>> str(Table((("K1", "K2", "K3"),)))
    'table K1 K2 K3'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from games.errors import NotationError, Reason

JOKER = "J"
COLOURS = ("K", "R", "B", "Y")
NUMBERS = range(1, 14)
TileSet = tuple[str, ...]
MOST_TEXT = 2_000  # a whole table of 106 tiles is about 450 characters

_TILE = re.compile(r"([KRBY])(1[0-3]|[1-9])")


def is_joker(tile: str) -> bool:
    return tile == JOKER


def colour_of(tile: str) -> str:
    return tile[0]


def number_of(tile: str) -> int:
    return int(tile[1:])


def parse_tile(text: str) -> str:
    """``parse_tile("k13")`` -> ``"K13"``; raises :class:`NotationError` for anything else."""
    word = text.strip().upper() if type(text) is str else ""
    if word == JOKER or _TILE.fullmatch(word):
        return word
    raise NotationError(Reason.of("not_a_tile", text=str(text).strip()[:20]))


def parse_set(text: str) -> TileSet:
    return tuple(parse_tile(word) for word in _words(text).split())


def parse_table(text: str) -> list[TileSet]:
    """Sets separated by ``|``; an empty text is an empty table."""
    if not _words(text).strip():
        return []
    sets = [parse_set(part) for part in text.split("|")]
    if any(not tile_set for tile_set in sets):
        raise NotationError(Reason.of("empty_set"))
    return sets


def _words(text: str) -> str:
    if type(text) is not str or len(text) > MOST_TEXT:
        raise NotationError(Reason.of("not_a_tile", text=repr(text)[:20]))
    return text


def format_set(tile_set: Iterable[str]) -> str:
    return " ".join(tile_set)


def format_table(sets: Iterable[Iterable[str]]) -> str:
    return " | ".join(format_set(tile_set) for tile_set in sets)


@dataclass(frozen=True)
class Draw:
    """Play nothing this turn: take a tile from the pool (pass when it is empty)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Timeout:
    """The seat's turn time ran out (RUM-7); sent by the session, never chosen by a player."""

    def __str__(self) -> str:
        return "timeout"


@dataclass(frozen=True)
class Table:
    """The whole table at the end of the turn, as sets of tiles."""

    sets: tuple[TileSet, ...]

    def __str__(self) -> str:
        return f"table {format_table(self.sets)}".rstrip()


Move = Draw | Timeout | Table


def format_move(move: Move) -> str:
    return str(move)


def parse_move(text: str) -> Move:
    """``draw``, ``timeout`` or ``table K1 K2 K3 | R5 B5 Y5`` (the whole final table)."""
    word, _, rest = _words(text).strip().partition(" ")
    if word.lower() == "draw" and not rest.strip():
        return Draw()
    if word.lower() == "timeout" and not rest.strip():
        return Timeout()
    if word.lower() == "table":
        return Table(tuple(parse_table(rest)))
    raise NotationError(Reason.of("unknown_move", text=text.strip()[:40]))
