"""The exact best move (RUM-10): the most rack tiles that can be played, with the engine's
rules (RUM-4 initial meld, RUM-5 manipulation, RUM-6 jokers as defined in ``engine.py``).

    best = solve("K1 K2 K3 | R7 B7 Y7", "K4 K7 Y1", initial=False)
    best.count, best.value, best.table, best.played

Ties are broken by the higher value played (a number tile its number, a joker its rack
penalty: what leaves the rack's score, RUM-8), then by fewer table sets changed. Count and
value are exact. Fewer changes is sought greedily: table sets are kept untouched one by one
while the rest still packs, which finds a maximal (not always maximum) set of untouched sets.

How: each joker set's successor is chosen among its few possible forms (grown, or with its
joker exchanged), and the rest of the tiles is packed by the dynamic programme of
:mod:`games.rummikub.packing`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from games.core import Reason
from games.rummikub.packing import WEIGHT, Counts, pack
from games.rummikub.tiles import (
    COLOURS,
    JOKER,
    Arranged,
    TileSet,
    arrange,
    colour_of,
    is_joker,
    number_of,
    parse_set,
    parse_table,
    sort_key,
)


@dataclass(frozen=True)
class Solution:
    """``count`` rack tiles played (0: draw), their ``value``, the whole final ``table``,
    the ``played`` tiles and how many table sets were ``changed``."""

    count: int
    value: int
    table: tuple[TileSet, ...]
    played: tuple[str, ...]
    changed: int


@dataclass(frozen=True)
class _Successor:
    """One possible final form of a joker set."""

    tiles: TileSet
    extras: tuple[str, ...]      # number tiles added, from the table or the rack
    exchanged: tuple[str, ...]   # tiles that replace freed jokers: from the rack only
    rack_jokers: int
    freed: int
    unchanged: bool


def solve(table: str | Sequence[Sequence[str]], rack: str | Sequence[str],
          initial: bool = False, initial_meld: int = 30, joker_penalty: int = 30,
          fewest_changes: bool = True) -> Solution:
    """The best move for ``rack`` on ``table`` (text in RUM-1 notation or lists of tiles).

    ``initial`` asks for an initial meld of at least ``initial_meld`` from the rack alone.
    ``solve("", "K10 K11 K12 J", initial=True).count`` is 4.
    """
    sets = [_arranged(s) for s in (parse_table(table) if isinstance(table, str) else table)]
    tiles = list(parse_set(rack)) if isinstance(rack, str) else list(rack)
    rack_counts, rack_jokers = _counts(tiles)
    before = tuple(s.tiles for s in sets)
    nothing = Solution(0, 0, before, (), 0)
    if initial:
        found = pack(_EMPTY, rack_counts, 0, rack_jokers, initial_meld, joker_penalty)
        if found is None or not found.played:
            return nothing
        return _solution(before + tuple(found.sets), before, tiles, found.played, 0,
                         joker_penalty)
    joker_sets = [s for s in sets if JOKER in s.tiles]
    ordinary = [s.tiles for s in sets if JOKER not in s.tiles]
    free_table, _ = _counts(t for s in ordinary for t in s)
    choices = [_successors(s, rack_counts, free_table, rack_jokers) for s in joker_sets]
    best: tuple[int, int] | None = None
    result: tuple[list[TileSet], list[TileSet]] | None = None
    for combo in product(*choices):
        plan = _plan(combo, free_table, rack_counts, rack_jokers, joker_penalty)
        if plan is None:
            continue
        gain, table_left, rack_left, jokers_left, freed = plan
        found = pack(table_left, rack_left, freed, jokers_left, 0, joker_penalty)
        if found is None:
            continue
        key = (found.score + gain, sum(1 for s in combo if s.unchanged))
        if best is None or key > best:
            best = key
            result = ([s.tiles for s in combo], found.sets)
    if best is None or result is None or best[0] < WEIGHT:
        return nothing
    successors, packed = result
    kept = _keep_untouched(ordinary, packed) if fewest_changes else []
    changed = len(joker_sets) - best[1] + len(ordinary) - len(kept)
    final = tuple(successors) + tuple(kept) + tuple(_rest(packed, kept))
    return _solution(final, before, tiles, best[0] // WEIGHT, changed, joker_penalty)


_EMPTY: Counts = tuple((0,) * 13 for _ in COLOURS)


def _arranged(tile_set: Sequence[str]) -> Arranged:
    arranged = arrange(tuple(tile_set))
    if isinstance(arranged, Reason):
        raise ValueError(f"table set {' '.join(tile_set)} is not a run or a group")
    return arranged


def _counts(tiles: Iterable[str]) -> tuple[Counts, int]:
    counts = [[0] * 13 for _ in COLOURS]
    jokers = 0
    for tile in tiles:
        if is_joker(tile):
            jokers += 1
        else:
            counts[COLOURS.index(colour_of(tile))][number_of(tile) - 1] += 1
    return tuple(tuple(row) for row in counts), jokers


def _solution(final: tuple[TileSet, ...], before: tuple[TileSet, ...], rack: list[str],
              count: int, changed: int, joker_penalty: int) -> Solution:
    played = Counter(t for s in final for t in s)
    played.subtract(t for s in before for t in s)
    tiles = tuple(sorted((+played).elements(), key=sort_key))
    assert len(tiles) == count and not +(Counter(tiles) - Counter(rack))
    value = sum(joker_penalty if is_joker(t) else number_of(t) for t in tiles)
    ordered = tuple(_canonical(s) for s in final)
    return Solution(count, value, ordered, tiles, changed)


def _canonical(tile_set: TileSet) -> TileSet:
    arranged = arrange(tile_set)
    assert not isinstance(arranged, Reason), tile_set
    return arranged.tiles


def _successors(old: Arranged, rack: Counts, table: Counts, rack_jokers: int) -> list[_Successor]:
    """Every final form of the joker set ``old`` that keeps its number tiles together."""
    own = sum(1 for t in old.tiles if is_joker(t))
    real = [t for t in old.tiles if not is_joker(t)]
    joker_for = [old.stands_for(i) for i, t in enumerate(old.tiles) if is_joker(t)]

    def have(tile: str) -> bool:
        c, n = COLOURS.index(colour_of(tile)), number_of(tile) - 1
        return rack[c][n] + table[c][n] > 0

    found: dict[tuple[tuple[str, ...], tuple[str, ...], int, int], _Successor] = {}
    for layout in _forms(old, real, own + rack_jokers):
        grown = Counter(t for t in layout if not is_joker(t))
        grown.subtract(real)
        added = list((+grown).elements())
        for tile in added:
            if not have(tile):
                break
        else:
            jokers = len(layout) - len(added) - len(real)
            kept = min(own, jokers)
            freed = own - kept
            for swaps in _exchanges(joker_for, freed, added, rack):
                extras = Counter(added)
                extras.subtract(swaps)
                key = (tuple(sorted((+extras).elements())), tuple(sorted(swaps)),
                       jokers - kept, freed)
                if key not in found:
                    tiles = _canonical(tuple(layout))
                    found[key] = _Successor(tiles, key[0], key[1], jokers - kept, freed,
                                            tiles == old.tiles)
    return sorted(found.values(), key=lambda s: not s.unchanged)


def _forms(old: Arranged, real: list[str], jokers: int) -> Iterable[TileSet]:
    """Valid sets holding all of ``real`` and at most ``jokers`` jokers."""
    if old.kind == "group":
        number = number_of(real[0])
        present = {colour_of(t) for t in real}
        missing = [f"{c}{number}" for c in COLOURS if c not in present]
        for size in range(0, len(missing) + 1):
            for chosen in combinations(missing, size):
                for joker in range(0, jokers + 1):
                    total = len(real) + size + joker
                    if 3 <= total <= 4 and len(real) + size >= 2:
                        yield tuple(real) + chosen + (JOKER,) * joker
        return
    colour = colour_of(real[0])
    numbers = sorted(number_of(t) for t in real)
    for low in range(1, numbers[0] + 1):
        for high in range(max(numbers[-1], low + 2), 14):
            places = [n for n in range(low, high + 1) if n not in numbers]
            for joker in range(0, min(jokers, len(places)) + 1):
                for where in combinations(places, joker):
                    yield tuple(JOKER if n in where else f"{colour}{n}"
                                for n in range(low, high + 1))


def _exchanges(joker_for: list[frozenset[str]], freed: int, added: list[str],
               rack: Counts) -> Iterable[tuple[str, ...]]:
    """Ways to name, among the ``added`` tiles, the rack tiles that replace ``freed`` jokers
    (each joker by a tile it stood for)."""
    if not freed:
        yield ()
        return
    seen = set()
    for jokers in combinations(range(len(joker_for)), freed):
        for picks in product(*(sorted(joker_for[j]) for j in jokers)):
            need = Counter(picks)
            if any(Counter(added)[t] < k for t, k in need.items()):
                continue
            if any(rack[COLOURS.index(colour_of(t))][number_of(t) - 1] < k
                   for t, k in need.items()):
                continue
            key = tuple(sorted(picks))
            if key not in seen:
                seen.add(key)
                yield key


def _plan(combo: Sequence[_Successor], table: Counts, rack: Counts, rack_jokers: int,
          joker_penalty: int) -> tuple[int, Counts, Counts, int, int] | None:
    """Take the successors' tiles (number tiles from the table first: the table's must be
    placed anyway) and return the gain and what is left for the packing."""
    table_left = [list(row) for row in table]
    rack_left = [list(row) for row in rack]
    gain = 0
    jokers = rack_jokers
    for successor in combo:
        for tile in successor.exchanged:
            c, n = COLOURS.index(colour_of(tile)), number_of(tile) - 1
            if rack_left[c][n] == 0:
                return None
            rack_left[c][n] -= 1
            gain += WEIGHT + n + 1
        for tile in successor.extras:
            c, n = COLOURS.index(colour_of(tile)), number_of(tile) - 1
            if table_left[c][n]:
                table_left[c][n] -= 1
            elif rack_left[c][n]:
                rack_left[c][n] -= 1
                gain += WEIGHT + n + 1
            else:
                return None
        jokers -= successor.rack_jokers
        gain += successor.rack_jokers * (WEIGHT + joker_penalty)
    if jokers < 0:
        return None
    freed = sum(s.freed for s in combo)
    return (gain, tuple(tuple(r) for r in table_left), tuple(tuple(r) for r in rack_left),
            jokers, freed)


def _keep_untouched(ordinary: list[TileSet], packed: list[TileSet]) -> list[TileSet]:
    """Table sets (without jokers) that can stay as they were while the packed tiles still
    form valid sets."""
    pool = Counter(t for s in packed for t in s)
    kept: list[TileSet] = []
    candidates = list(ordinary)
    if _packs(pool - Counter(t for s in candidates for t in s), candidates, pool):
        return candidates
    for tile_set in candidates:
        need = Counter(tile_set)
        if any(pool[t] < k for t, k in need.items()):
            continue
        rest = pool - need
        if _feasible(rest):
            pool = rest
            kept.append(tile_set)
    return kept


def _packs(rest: Counter[str], sets: list[TileSet], pool: Counter[str]) -> bool:
    need = Counter(t for s in sets for t in s)
    return all(pool[t] >= k for t, k in need.items()) and _feasible(rest)


def _feasible(tiles: Counter[str]) -> bool:
    counts, jokers = _counts(tiles.elements())
    return pack(counts, _EMPTY, jokers, 0, 0, 0) is not None


def _rest(packed: list[TileSet], kept: list[TileSet]) -> list[TileSet]:
    """The packed tiles less the kept sets, packed again (when sets were kept)."""
    if not kept:
        return packed
    pool = Counter(t for s in packed for t in s)
    pool.subtract(t for s in kept for t in s)
    counts, jokers = _counts((+pool).elements())
    found = pack(counts, _EMPTY, jokers, 0, 0, 0)
    assert found is not None
    return found.sets
