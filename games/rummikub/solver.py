"""The exact best move (RUM-10): the most rack tiles that can be played, with the engine's
rules (RUM-4 initial meld, RUM-5 manipulation, RUM-6 jokers as defined in ``engine.py``).

    best = solve("K1 K2 K3 | R7 B7 Y7", "K4 K7 Y1", initial=False)
    best.count, best.value, best.table, best.played

Ties are broken by the higher value played (a number tile its number, a joker its rack
penalty: what leaves the rack's score, RUM-8), then by fewer table sets changed. Count and
value are exact. Fewer changes is sought greedily: of the table sets the best packing reaches,
each is kept in turn while the rest still splits into sets, which finds a maximal (not always
maximum) collection of untouched sets; past a budget of search states (what the best move's
search left of ``_KEEP_STATES``, at least ``_KEEP_LEAST``) the sets not yet asked about count
as changed.

How: the dynamic programme of :mod:`games.rummikub.packing` packs the table and the rack,
each joker set of the table being packed as one set that keeps its number tiles together.
That search lets a freed joker go anywhere; when the engine refuses what it found (a freed
joker growing a set of the table, RUM-6), the strict search, where each freed joker goes to
a new set the search makes, finds the best legal move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.core import Reason
from games.rummikub.engine import check_jokers
from games.rummikub.packing import Counts, JokerSet, index_of, pack, pack_strict, split
from games.rummikub.packing.layers import Budget, OutOfStates
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
    table_counts, table_jokers = _counts(t for s in before for t in s)
    specials = tuple(_joker_set(s) for s in joker_sets)
    # without jokers every packing is a legal turn: no joker set to keep whole
    accept = _legal_turn(before, tiles) if table_jokers + rack_jokers else None
    found = pack(table_counts, rack_counts, table_jokers, rack_jokers, 0, joker_penalty,
                 specials, accept)
    if found is None or not found.played:
        return nothing
    successors = found.sets[:len(specials)]
    packed = found.sets[len(specials):]
    kept, rest = _keep_untouched(ordinary, packed, found.states) if fewest_changes \
        else ([], packed)
    final = tuple(successors) + tuple(kept) + tuple(rest)
    if accept is not None and not accept(list(final)):
        # keeping sets whole, or the search itself (a freed joker may go anywhere there: a
        # relaxation of RUM-6), left a freed joker growing a set of the table: the packing
        # as found, else the search where each freed joker goes to a new set
        final = tuple(successors) + tuple(packed)
        if not accept(list(final)):
            # its best is at most the relaxed one's, which it stops at when it finds it
            searched = found.states
            found = pack_strict(table_counts, rack_counts, table_jokers, rack_jokers,
                                joker_penalty, specials, _new_place(ordinary), found.score)
            if found is None or not found.played:
                return nothing
            successors = found.sets[:len(specials)]
            packed = found.sets[len(specials):]
            kept, rest = _keep_untouched(ordinary, packed, searched + found.states) \
                if fewest_changes else ([], packed)
            final = tuple(successors) + tuple(kept) + tuple(rest)
            if not accept(list(final)):
                final = tuple(successors) + tuple(packed)
    left = Counter(_canonical(s) for s in final[len(successors):])
    unchanged = 0
    for tile_set in ordinary:
        if left[tile_set] > 0:
            left[tile_set] -= 1
            unchanged += 1
    changed = sum(1 for old, new in zip(joker_sets, successors, strict=True)
                  if _canonical(new) != old.tiles) + len(ordinary) - unchanged
    return _solution(final, before, tiles, found.played, changed, joker_penalty)


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
        place = _PLACES.get(tile)
        if place is not None:
            counts[place[0]][place[1]] += 1
        elif is_joker(tile):
            jokers += 1
        else:
            counts[COLOURS.index(colour_of(tile))][index_of(number_of(tile))] += 1
    return tuple(tuple(row) for row in counts), jokers


# tile -> (colour index, number's index), and a tile's possible partners: the other colours'
# tiles of its number, and its run neighbours two below to two above (None past the ends)
_PLACES = {f"{c}{n}": (k, index_of(n)) for k, c in enumerate(COLOURS) for n in range(1, 14)}
_PARTNERS = {tile: tuple(f"{c}{tile[1:]}" for c in COLOURS if c != tile[0])
             for tile in _PLACES}
_NEIGHBOURS = {tile: tuple(f"{tile[0]}{int(tile[1:]) + d}" if 1 <= int(tile[1:]) + d <= 13
                           else None for d in (-2, -1, 1, 2)) for tile in _PLACES}


def _solution(final: tuple[TileSet, ...], before: tuple[TileSet, ...], rack: list[str],
              count: int, changed: int, joker_penalty: int) -> Solution:
    played = Counter(t for s in final for t in s)
    played.subtract(t for s in before for t in s)
    tiles = tuple(sorted((+played).elements(), key=sort_key))
    assert len(tiles) == count and not +(Counter(tiles) - Counter(rack))
    value = sum(joker_penalty if is_joker(t) else number_of(t) for t in tiles)
    ordered = tuple(_canonical(s) for s in final)
    return Solution(count, value, ordered, tiles, changed)


# each packing a hint checks arranges its sets again, most of them met before
_arrange = lru_cache(maxsize=1 << 12)(arrange)


# a hint compares each table set with every set of each split found: ~260 calls a hint
@lru_cache(maxsize=1 << 12)
def _canonical(tile_set: TileSet) -> TileSet:
    if JOKER not in tile_set:  # a valid set without jokers: colour then number order
        return tuple(sorted(tile_set, key=sort_key))
    arranged = _arrange(tile_set)
    assert not isinstance(arranged, Reason), tile_set
    return arranged.tiles


def _legal_turn(before: tuple[TileSet, ...], rack: list[str]
                ) -> Callable[[list[TileSet]], bool]:
    """Whether a packing is a turn the engine accepts (the spare jokers' places decide)."""
    # without a joker set on the table every joker is the rack's: valid sets are a turn
    rule_6 = any(JOKER in s for s in before)

    # the search's packing is checked again when the sets kept whole leave it as it was
    known: dict[tuple[TileSet, ...], bool] = {}

    def accept(sets: list[TileSet]) -> bool:
        key = tuple(sets)
        found = known.get(key)
        if found is None:
            found = known[key] = _accepted(sets)
        return found

    def _accepted(sets: list[TileSet]) -> bool:
        final = [_arrange(s) for s in sets]
        if not all(isinstance(s, Arranged) for s in final):
            return False
        if not rule_6:
            return True
        played = Counter(t for s in sets for t in s)
        played.subtract(t for s in before for t in s)
        return check_jokers(before, [s for s in final if isinstance(s, Arranged)],
                            +played) is None
    return accept


def _joker_set(old: Arranged) -> JokerSet:
    """The packing's view of a table set holding a joker."""
    real = [t for t in old.tiles if not is_joker(t)]
    jokers = len(old.tiles) - len(real)
    if old.kind == "group":
        colours = frozenset(COLOURS.index(colour_of(t)) for t in real)
        return JokerSet("group", 0, index_of(old.numbers[0]), colours, jokers)
    places = frozenset(index_of(number_of(t)) for t in real)
    joker_places = tuple(index_of(n) for t, n in zip(old.tiles, old.numbers, strict=True)
                         if is_joker(t))
    return JokerSet("run", COLOURS.index(colour_of(real[0])), 0, places, jokers, joker_places)


def _new_place(ordinary: list[TileSet]) -> JokerSet:
    """The packing's place for a freed joker: a new set, holding none of ``ordinary``."""
    runs: list[list[tuple[int, int]]] = [[] for _ in COLOURS]
    groups: list[list[int]] = [[] for _ in range(13)]
    for tile_set in ordinary:
        numbers = [number_of(t) for t in tile_set]
        colours = [COLOURS.index(colour_of(t)) for t in tile_set]
        if len(set(numbers)) == 1:
            groups[index_of(numbers[0])].append(sum(1 << c for c in colours))
        else:
            runs[colours[0]].append((index_of(max(numbers)), index_of(min(numbers))))
    return JokerSet("new", 0, 0, frozenset(), 0, (), tuple(map(tuple, runs)),
                    tuple(map(tuple, groups)))


# States a hint's searches may take (about 50 ms): the fewest-changes questions share those
# the best move's search left, and at least _KEEP_LEAST (a few ms); past them the sets not
# yet asked about count as changed, so a hint never waits long on a tie-break
_KEEP_STATES = 10_000
_KEEP_LEAST = 1_000


def _keep_untouched(ordinary: list[TileSet], packed: list[TileSet], searched: int
                    ) -> tuple[list[TileSet], list[TileSet]]:
    """Table sets (without jokers) that can stay as they were while the other packed tiles
    still form valid sets, and those sets.

    Only the region of the packing the move reaches can change: the packed sets holding a
    played tile (or a joker, or short of a tile that went to a joker set) and the table sets
    sharing a tile with them, and so on while they share tiles. Outside it the packed sets
    hold exactly the tiles of the table sets there, which therefore stay as they were.
    Inside, the table sets the packing holds whole stay; each other one stays in turn when
    the rest still packs. The result is maximal (unless the questions spend their budget):
    adding valid sets to tiles that pack still packs, so a set refused once stays refused.
    ``searched``: the states the best move's search took, which the questions' budget
    (``_KEEP_STATES``) lends them no more."""
    balance = Counter(t for s in packed for t in s)
    balance.subtract(t for s in ordinary for t in s)  # below 0: a tile went to a joker set
    reached = {t for t, k in balance.items() if k}
    region: list[TileSet] = []  # packed sets
    other_packed = list(packed)
    changing: list[TileSet] = []  # table sets
    staying = list(ordinary)
    grown = True
    while grown:
        grown = False
        for inside, outside in ((region, other_packed), (changing, staying)):
            touched = [s for s in outside if any(t in reached for t in s)]
            if touched:
                grown = True
                inside += touched
                for tile_set in touched:
                    outside.remove(tile_set)
                    reached.update(tile_set)
    free = Counter(t for s in region for t in s)
    kept = list(staying)
    sets = region  # a split of ``free``, kept up to date
    # the table sets the packing holds whole stay at no cost: first, while it is known
    trying = []
    for tile_set in changing:
        whole = next((s for s in sets if _canonical(s) == tile_set), None)
        if whole is None:
            trying.append(tile_set)
            continue
        sets.remove(whole)
        free -= Counter(tile_set)
        kept.append(tile_set)
    # then each other one, when the rest still splits into sets (the last split found
    # may hold the next one whole); the questions share one budget of states
    budget = Budget(max(_KEEP_LEAST, _KEEP_STATES - searched))
    for tile_set in trying:
        need = Counter(tile_set)
        if any(free[t] < k for t, k in need.items()):
            continue
        whole = next((s for s in sets if _canonical(s) == tile_set), None)
        if whole is not None:
            sets.remove(whole)
        else:
            rest = free - need
            found = None if _isolated(rest) else _split(rest, budget)
            if found is None:
                continue
            sets = found
        free -= need
        kept.append(tile_set)
    return kept, sets


def _split(tiles: Counter[str], budget: Budget) -> list[TileSet] | None:
    """A split of ``tiles`` into sets, or ``None`` when there is none or ``budget`` ran out
    before one was found."""
    try:
        return split(*_counts(tiles.elements()), budget)
    except OutOfStates:
        return None


def _isolated(tiles: Counter[str]) -> bool:
    """Whether a number tile has no run neighbours nor two group partners (then no split
    into sets exists); jokers make every tile fit, so then never."""
    if tiles[JOKER]:
        return False
    present = {t for t, k in tiles.items() if k > 0}
    for tile in present:
        partners = _PARTNERS.get(tile)
        if partners is None:  # not a tile of the standard box: no shortcut
            return False
        if sum(1 for other in partners if other in present) >= 2:
            continue
        below2, below, above, above2 = (n in present for n in _NEIGHBOURS[tile])
        if not ((below2 and below) or (below and above) or (above and above2)):
            return True
    return False
