"""Rummikub tiles and sets: what makes a set (RUM-3), the box, the rack order.

Tiles are strings in the notation of :mod:`games.rummikub.notation` (re-exported here): a
colour letter and a number 1-13, or ``J`` for a joker; a table is sets separated by ``|``:

    parse_table("K1 K2 K3 | R5 B5 J")   # -> [("K1", "K2", "K3"), ("R5", "B5", "J")]
    arrange(("K5", "J", "K7"))           # -> Arranged("run", ("K5", "J", "K7"), (5, 6, 7))

A run is written lowest first; a joker stands for the tile of its place, so ``K5 K6 J`` is
5-6-7 and ``J K5 K6`` is 4-5-6. A group (two number tiles at least) has its jokers last, each
standing for any colour the group lacks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.errors import Reason
from games.rummikub.notation import (
    COLOURS,
    JOKER,
    NUMBERS,
    TileSet,
    colour_of,
    format_set,
    format_table,
    is_joker,
    number_of,
    parse_set,
    parse_table,
    parse_tile,
)

__all__ = [
    "COLOURS", "JOKER", "NUMBERS", "Arranged", "TileSet", "arrange", "colour_of", "format_set",
    "format_table", "full_box", "is_joker", "multiset", "number_of", "parse_set",
    "parse_table", "parse_tile", "sort_key", "tile_points",
]


def tile_points(tile: str, joker_penalty: int) -> int:
    """What a tile left on a rack costs (RUM-8): its number, a joker ``joker_penalty``."""
    return joker_penalty if is_joker(tile) else number_of(tile)


def sort_key(tile: str) -> tuple[int, int]:
    """Rack order: by colour then number, jokers last."""
    found = _SORT_KEYS.get(tile)
    if found is not None:
        return found
    if is_joker(tile):
        return (len(COLOURS), 0)
    return (COLOURS.index(colour_of(tile)), number_of(tile))


_SORT_KEYS = {f"{colour}{number}": (place, number) for place, colour in enumerate(COLOURS)
              for number in range(1, 14)}


def full_box(copies: int, jokers: int, colours: Sequence[str] = COLOURS,
             top: int = 13) -> list[str]:
    """All tiles of a box: ``full_box(2, 2)`` is the 106 tiles of RUM-1."""
    tiles = [f"{colour}{number}" for colour in colours for number in range(1, top + 1)
             for _ in range(copies)]
    return tiles + [JOKER] * jokers


@dataclass(frozen=True)
class Arranged:
    """A valid set: ``kind`` run or group, the tiles in canonical order, and what number each
    place stands for (so a joker's number is known)."""

    kind: str
    tiles: TileSet
    numbers: tuple[int, ...]

    @property
    def value(self) -> int:
        """Points of the set with each joker counted as the tile it stands for (RUM-4)."""
        return sum(self.numbers)

    def stands_for(self, index: int) -> frozenset[str]:
        """The tiles the joker at ``index`` may stand for (a run: one; a group: the colours
        the group lacks)."""
        number = self.numbers[index]
        if self.kind == "run":
            colour = next(colour_of(t) for t in self.tiles if not is_joker(t))
            return frozenset({f"{colour}{number}"})
        present = {colour_of(t) for t in self.tiles if not is_joker(t)}
        return frozenset(f"{c}{number}" for c in COLOURS if c not in present)


def arrange(tiles: Sequence[str], min_size: int = 3, top: int = 13) -> Arranged | Reason:
    """The set ``tiles`` in canonical order, or the :class:`Reason` it is not a set (RUM-3).

    A run keeps the written order when it is consecutive; otherwise its number tiles are
    sorted and jokers fill the gaps, then extend it upwards (downwards past ``top``).
    """
    if len(tiles) < min_size:
        return Reason.of("set_too_short", size=len(tiles), least=min_size)
    real = [t for t in tiles if not is_joker(t)]
    if not real:
        return Reason.of("set_only_jokers")
    numbers = {number_of(t) for t in real}
    colours = [colour_of(t) for t in real]
    # One number tile with jokers reads as a run: it always fits, and is worth at least as much.
    if len(numbers) == 1 and len(real) > 1 and len(set(colours)) == len(colours):
        if len(tiles) > len(COLOURS):
            return Reason.of("group_too_long", size=len(tiles))
        number = next(iter(numbers))
        ordered = tuple(sorted(real, key=sort_key)) + (JOKER,) * (len(tiles) - len(real))
        return Arranged("group", ordered, (number,) * len(tiles))
    if len(set(colours)) != 1:
        if len(numbers) == 1:
            return Reason.of("group_colour_twice")
        return Reason.of("run_mixed_colours")
    if len(numbers) != len(real):
        return Reason.of("run_number_twice")
    colour = colours[0]
    return _as_run(tiles, colour, top) or _sorted_run(real, len(tiles) - len(real), colour, top)


def _as_run(tiles: Sequence[str], colour: str, top: int) -> Arranged | None:
    """The run exactly as written, if each tile is one more than the one before."""
    first = next(i for i, t in enumerate(tiles) if not is_joker(t))
    start = number_of(tiles[first]) - first
    numbers = tuple(range(start, start + len(tiles)))
    if start < 1 or numbers[-1] > top:
        return None
    for tile, number in zip(tiles, numbers, strict=True):
        if not is_joker(tile) and number_of(tile) != number:
            return None
    return Arranged("run", tuple(tiles), numbers)


def _sorted_run(real: list[str], jokers: int, colour: str, top: int) -> Arranged | Reason:
    values = sorted(number_of(t) for t in real)
    gaps = values[-1] - values[0] + 1 - len(values)
    if gaps > jokers:
        return Reason.of("run_gap")
    spare = jokers - gaps
    high = min(spare, top - values[-1])
    low = spare - high
    start = values[0] - low
    if start < 1:
        return Reason.of("run_too_long")
    numbers = tuple(range(start, values[-1] + high + 1))
    present = set(values)
    ordered = tuple(f"{colour}{n}" if n in present else JOKER for n in numbers)
    return Arranged("run", ordered, numbers)


def multiset(tiles: Iterable[str]) -> Counter[str]:
    return Counter(tiles)
