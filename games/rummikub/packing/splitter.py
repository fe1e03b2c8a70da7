"""Whether tiles and up to two jokers split into sets, found fast when they do: a
depth-first search on the lowest tile, for the fewest-changes phase of the hint (RUM-10).
A search that runs past its budget of states is left to the layered one (``best.split``).

    splitter = Splitter()
    splitter.split(counts, 1)   # the sets, or None

The tiles are packed into one integer, two bits a tile, number first then colour, so the
lowest tile left is the lowest bit set. That tile is in a group of its number or starts a
run (only runs of up to five places are tried: a longer one is two shorter ones). Jokers go
only where a set needs them (a gap of a run, or a set shorter than three); the spare ones
then need room in the sets made (a group of three has room for one, a run of at most five
for two), so the state is the tiles left, the jokers left and that room (at most two).
States that cannot be finished are remembered across the questions asked of one splitter.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.rummikub.packing.best import split
from games.rummikub.packing.layers import Budget, OutOfStates
from games.rummikub.packing.moves import TOP, Counts
from games.rummikub.tiles import COLOURS, JOKER

MAX_JOKERS = 2  # the box's jokers; more would need sets of jokers alone
BUDGET = 60  # states a question may visit before the layered search takes it over
_MAX_COUNT = 3  # a tile's two bits hold up to three copies

# an option: the tiles left, the jokers it uses, the room it leaves, the set it makes
_Option = tuple[int, int, int, tuple[str, ...]]

_NAMES = tuple(f"{c}{n}" for n in range(1, TOP + 1) for c in COLOURS)


def _bit(number: int, colour: int) -> int:
    """The lowest bit of a tile's field: ``number`` from 1, ``colour`` an index of COLOURS."""
    return 1 << (2 * ((number - 1) * len(COLOURS) + colour))


class _OutOfBudget(Exception):
    pass


class Splitter:
    """Splits of tiles into sets, remembering the dead ends met across its questions."""

    def __init__(self, budget: int = BUDGET, layered: Budget | None = None) -> None:
        self._dead: set[int] = set()
        self._budget = self._left = budget
        self._layered = layered

    def split(self, tiles: Counts, jokers: int) -> list[tuple[str, ...]] | None:
        """A split of ``tiles`` (counts as in :mod:`moves`) and ``jokers`` jokers into sets,
        the spare jokers added to sets with room; ``None`` when there is none. More jokers or
        copies than the box holds, or a search past the budget, are left to ``best.split``,
        which spends the ``layered`` budget shared by every question: once it is spent, the
        answer is ``None`` (no split found).

            Splitter(layered=Budget(10_000)).split(counts, 0)
        """
        if jokers > MAX_JOKERS or any(k > _MAX_COUNT for row in tiles for k in row):
            return self._layered_split(tiles, jokers)
        packed = 0
        for colour, row in enumerate(tiles):
            for index, count in enumerate(row):
                packed += count * _bit(TOP - index, colour)
        sets: list[tuple[str, ...]] = []
        self._left = self._budget
        try:
            if not self._search(packed, jokers, 0, sets):
                return None
        except _OutOfBudget:
            return self._layered_split(tiles, jokers)
        return _with_spares(sets, jokers - sum(s.count(JOKER) for s in sets))

    def _layered_split(self, tiles: Counts, jokers: int) -> list[tuple[str, ...]] | None:
        try:
            return split(tiles, jokers, self._layered)
        except OutOfStates:
            return None

    def _search(self, tiles: int, jokers: int, room: int, sets: list[tuple[str, ...]]
                ) -> bool:
        if not tiles:
            return jokers <= room
        key = (tiles << 4) | (jokers << 2) | room
        if key in self._dead:
            return False
        self._left -= 1
        if self._left < 0:
            raise _OutOfBudget
        for rest, used, more, made in sorted(_options(tiles, jokers), key=_jokers_used):
            sets.append(made)
            if self._search(rest, jokers - used, min(MAX_JOKERS, room + more), sets):
                return True
            sets.pop()
        self._dead.add(key)
        return False


def _jokers_used(option: _Option) -> int:
    return option[1]


def _options(tiles: int, jokers: int) -> Iterator[_Option]:
    """Every set the lowest tile can be in: the tiles left after it, its jokers, its room."""
    low = (tiles & -tiles).bit_length() - 1
    place = low >> 1
    number, colour = divmod(place, len(COLOURS))
    number += 1
    rest = tiles - (1 << (place * 2))
    first = _NAMES[place]
    # groups: the lowest tile with other colours of its number (the lower ones are gone)
    others = [c for c in range(colour + 1, len(COLOURS)) if rest >> (2 * (place - colour + c)) & 3]
    for mask in range(1, 1 << len(others)):
        chosen = [c for k, c in enumerate(others) if mask >> k & 1]
        size = 1 + len(chosen)
        need = max(0, 3 - size)
        if need > jokers:
            continue
        left = rest - sum(_bit(number, c) for c in chosen)
        made = (first, *(_NAMES[place - colour + c] for c in chosen)) + (JOKER,) * need
        yield left, need, len(COLOURS) - size - need, made
    # runs: the lowest tile first, each later place a tile or a joker, ending on a tile
    yield from _runs(rest, jokers, number, colour, (first,), 0)


def _runs(tiles: int, jokers: int, number: int, colour: int, run: tuple[str, ...], gaps: int
          ) -> Iterator[_Option]:
    """The runs going on from ``run`` (ending at ``number``, ``gaps`` jokers in it)."""
    if len(run) < 3:
        need = gaps + 3 - len(run)
        if need <= jokers:  # a short run filled up by jokers at its end (or start, at 13)
            pad = (JOKER,) * (3 - len(run))
            made = run + pad if number + len(pad) <= TOP else pad + run
            yield tiles, need, MAX_JOKERS, made
    else:
        yield tiles, gaps, MAX_JOKERS, run
    if len(run) == 5:
        return
    for step in range(1, min(TOP - number, 5 - len(run)) + 1):
        skipped = step - 1
        if gaps + skipped > jokers:
            break
        bit = _bit(number + step, colour)
        if tiles & (bit * 3):
            name = _NAMES[(number + step - 1) * len(COLOURS) + colour]
            yield from _runs(tiles - bit, jokers, number + step, colour,
                             run + (JOKER,) * skipped + (name,), gaps + skipped)


def _with_spares(sets: list[tuple[str, ...]], spare: int) -> list[tuple[str, ...]]:
    """The sets with ``spare`` more jokers, each put in a set with room."""
    placed = list(sets)
    for index, tile_set in enumerate(placed):
        while spare and _room(tile_set):
            reals = [t for t in tile_set if t != JOKER]
            group = len(reals) > 1 and len({t[1:] for t in reals}) == 1
            top = int(reals[-1][1:]) + len(tile_set) - 1 - tile_set.index(reals[-1])
            tile_set = (*tile_set, JOKER) if group or top < TOP else (JOKER, *tile_set)
            spare -= 1
        placed[index] = tile_set
    assert not spare, "the search counted the room"
    return placed


def _room(tile_set: tuple[str, ...]) -> bool:
    reals = [t for t in tile_set if t != JOKER]
    group = len(reals) > 1 and len({t[1:] for t in reals}) == 1
    return len(tile_set) < (len(COLOURS) if group else TOP)
