"""The best packing: the search of the table and the rack (joker sets and all), the spare
jokers put back at the end, and whether tiles alone split into sets.

    best = pack(table, rack, must_jokers=0, rack_jokers=1, threshold=0, joker_points=30)
    best.score, best.sets
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

from games.rummikub.packing.joker_layers import JokerLayers
from games.rummikub.packing.layers import Budget, Layers, OutOfStates
from games.rummikub.packing.moves import NEG, TOP, UP, Counts, JokerSet, Packing
from games.rummikub.packing.reference import exchangeable
from games.rummikub.tiles import COLOURS, JOKER


def pack(table: Counts, rack: Counts, must_jokers: int, rack_jokers: int, threshold: int,
         joker_points: int, specials: tuple[JokerSet, ...] = (),
         accept: Callable[[list[tuple[str, ...]]], bool] | None = None,
         trace: bool = True) -> Packing | None:
    """The best packing, or ``None`` when the table tiles cannot all be placed. The sets of
    ``specials`` come first in the packing, in their order. Without ``trace`` (and without
    jokers to place or joker sets) only the score is sought: the packing has no sets.

    Jokers are first placed only where a set needs them; the spare ones then go back into
    their joker sets or join sets with room (a joker no set needs can move to any set with
    room), the first way that ``accept`` takes. When none fits, when that finds nothing while
    jokers must be placed (one may be needed where it stands), or for an initial meld (where
    a spare joker adds to the meld's value), every placement is searched.

    Each search runs from 13 down and from 1 up in turn (see :func:`race`); the full one
    starts in the direction that ended first.
    """
    cap = None  # the canonical search's score: the full search finds no better
    ascending = False  # the direction that ended first
    made: list[Layers] = []  # every search, for the states they took between them
    for canonical in ((False,) if threshold else (True, False)):

        def make(up: bool, canonical: bool = canonical, cap: int | None = cap) -> Layers:
            layers: Layers
            if specials:
                assert not threshold, "an initial meld is made from the rack alone"
                layers = JokerLayers(table, rack, must_jokers, rack_jokers, joker_points,
                                     specials, canonical, ascending=up)
            else:
                layers = Layers(table, rack, must_jokers, rack_jokers, threshold,
                                joker_points, canonical,
                                trace or bool(must_jokers + rack_jokers), ascending=up)
            if cap is not None:
                layers.cap = cap
            made.append(layers)
            return layers

        layers, score = race(make, ascending)
        ascending = layers.numbers == UP
        if score == NEG:
            if canonical and must_jokers:
                continue  # a joker of the table may be needed where it stands
            return None
        cap = score
        if not layers.trace:
            return Packing(score, [], _taken(made))
        sets = layers.sets()
        if not canonical:
            return Packing(score, sets, _taken(made))
        missing = must_jokers + rack_jokers - sum(t.count(JOKER) for t in sets)
        spares = [max(0, s.jokers - sets[k].count(JOKER)) for k, s in enumerate(specials)]
        for back in product(*(range(n, -1, -1) for n in spares)):
            if sum(back) > missing:
                continue
            placed = _add_spares(sets, len(specials), back, missing - sum(back))
            if placed is not None and (accept is None or accept(placed)):
                return Packing(score, placed, _taken(made))
    raise AssertionError("the full search places every joker")


def pack_strict(table: Counts, rack: Counts, must_jokers: int, rack_jokers: int,
                joker_points: int, specials: tuple[JokerSet, ...], new: JokerSet,
                cap: int | None = None) -> Packing | None:
    """The best packing where each joker freed from a set of ``specials`` goes to a new set
    (RUM-6), or ``None``: a place ``new`` (kind ``"new"``) for each joker the rack could free,
    every placement searched. Its sets: the successors of ``specials``, the new sets made,
    then the others. ``cap``: a score it cannot beat (the best where a freed joker may go
    anywhere, see :func:`pack`), which lets the search stop at the first packing scoring it.

        pack_strict(table, rack, 1, 0, 30, specials, new)
    """
    freeable = sum(min(s.jokers, exchangeable(s, rack)) for s in specials)

    made: list[Layers] = []

    def make(up: bool) -> Layers:
        layers = JokerLayers(table, rack, must_jokers, rack_jokers, joker_points,
                             specials + (new,) * freeable, canonical=False, strict=True,
                             ascending=up)
        if cap is not None:
            layers.cap = cap
        made.append(layers)
        return layers

    layers, score = race(make)
    return None if score == NEG else Packing(score, layers.sets(), _taken(made))


def _taken(searches: list[Layers]) -> int:
    """The states ``searches`` took between them (the race's loser too)."""
    return sum(search.taken for search in searches)


# States the first direction takes alone: most searches end within them, and then never
# pay for a second one, which then takes as many. Past them slices go to the search whose
# best may be the lower (the first on a tie), unless it took more than ``SHARE`` times the
# states of the other: on the bench's positions (seeds 1 and 2, the corpus) the fewest states
# in all, of the heads, slices and shares tried, and of ties given to the frontier that grows
# slowest.
HEAD = 1_000
SLICE = 1_000
SHARE = 5


def race(make: Callable[[bool], Layers], ascending: bool = False) -> tuple[Layers, int]:
    """The search that ends first of ``make(ascending)`` and ``make(not ascending)`` (the
    numbers taken down or up, see :class:`Layers`), and its score: the first alone for
    ``HEAD`` states, then the second as many, then slices to the one whose best may be the
    lower (see :meth:`Layers.frontier`): the nearer its end. Both find the same best score;
    where the slack of a position lies decides which finds it sooner, often by far.

        layers, score = race(lambda up: Layers(table, rack, 0, 1, 0, 30, True, ascending=up))
    """
    first = make(ascending)
    score = first.run(HEAD)
    if score is not None:
        return first, score
    second = make(not ascending)
    search = second
    score = second.run(HEAD)
    while score is None:
        nearer, other = (second, first) if second.frontier() < first.frontier() \
            else (first, second)
        search = other if nearer.taken > SHARE * other.taken else nearer
        score = search.run(SLICE)
    (second if search is first else first).drop()
    return search, score


def split(tiles: Counts, jokers: int, budget: Budget | None = None
          ) -> list[tuple[str, ...]] | None:
    """A split of ``tiles`` and ``jokers`` jokers into sets, or ``None`` when there is none:
    the first found, the jokers where a set needs them and the spare ones added to sets
    with room (where no set has room, every placement is searched). The depth-first search
    spends ``budget`` (:class:`~layers.OutOfStates` when it runs out). It takes the numbers
    from the end nearer the tiles with the fewest ways into a set (see :func:`tight_low`).

    It builds no bound: the fewest-changes questions ask of tiles no search has seen, whose
    rests (``ColourBound``) cost more to compute than the states they save. On the recorded
    questions of the bench's positions (seeds 1 and 2) the search takes 1.3-1.8 times the
    states it took with the bound (the moves' own look-ahead and the failed states prune
    most), and a question costs half the time when the rests are not already known.

    Past ``SPLIT_HEAD`` states the other direction gets as many, then each in turn twice as
    many as its last slice, each going on from what it learnt: where the tightest tiles are
    not where :func:`tight_low` looks, the other end decides sooner. On the recorded
    questions the most states a question took fell from 24,304 to 3,841, and the states of
    all questions by 37% where the rack holds a joker (seed 2; 1-4% elsewhere, but 10% more
    with table joker sets on seed 2); the hints' median times stay as they were (within 3%),
    their slowest questions no longer spend the budget of the hint alone.

        split(counts, 1)
    """
    def direction(up: bool) -> Layers:
        return Layers(tiles, _EMPTY, 0, jokers, 0, 0, canonical=True, ascending=up)

    low = tight_low(tiles)
    lead = search = direction(low)
    other: Layers | None = None
    size = SPLIT_HEAD
    while (score := _slice(search, size, budget)) is None:
        if other is None:
            other = direction(not low)
        search, other = other, search
        if search is lead:
            size *= 2
    if score == NEG:
        return None
    sets = search.sets()
    placed = _add_spares(sets, 0, (), jokers - sum(s.count(JOKER) for s in sets))
    if placed is not None:
        return placed
    found = pack(tiles, _EMPTY, jokers, 0, 0, 0)
    return None if found is None else found.sets


def _slice(search: Layers, states: int, budget: Budget | None) -> int | None:
    """``search.first`` given ``states`` more, no more than ``budget`` has left (which it
    spends): its score, ``None`` when they ran out, :class:`~layers.OutOfStates` when the
    budget had none left."""
    if budget is not None:
        if budget.left <= 0:
            raise OutOfStates
        states = min(states, budget.left)
    part = Budget(states)
    try:
        return search.first(part, bounded=False)
    except OutOfStates:
        return None
    finally:
        if budget is not None:
            budget.left -= states - max(0, part.left)


_EMPTY: Counts = tuple((0,) * TOP for _ in COLOURS)
# States a split's first direction takes alone (see split): most questions end within them
SPLIT_HEAD = 512


def tight_low(tiles: Counts) -> bool:
    """Whether the tiles with the fewest ways into a set without jokers (two partners of
    other colours, or the neighbours of one of the three runs of three through the tile)
    lie among the low numbers: ``tight_low(counts)``. Weighed by ``1 / (1 + ways) ** 4``,
    their centre below 7 says to search the numbers from 1 up. A depth-first search that
    meets the tiles which decide whether a split exists early proves there is none in
    fewer states: on the fewest-changes questions of the bench's positions (seeds 1 and 2)
    the depth-first states (without a bound, see :func:`split`) fell by 54% where the rack
    holds a joker and by 19-37% on the other kinds, against always going down."""
    # per colour, the indices holding a tile as bits
    masks = [sum(1 << index for index, count in enumerate(row) if count) for row in tiles]
    first, second, third, fourth = masks
    # bit i: a group of three can be made at index i
    groups = (first & second & (third | fourth)) | (third & fourth & (first | second))
    weight = centre = 0.0
    for mask in masks:
        runs = mask & mask >> 1 & mask >> 2  # bit i: a run of three from index i on
        # the ways into a set of each tile, counted bit by bit (ones, twos and fours)
        one, two = runs ^ runs << 1, runs & runs << 1
        carry = one & runs << 2
        one ^= runs << 2
        two, four = two ^ carry, two & carry
        carry = one & groups
        one ^= groups
        two, four = two ^ carry, four | two & carry
        for ways, tiles_with in enumerate((~(one | two | four), one & ~two & ~four,
                                           two & ~one & ~four, one & two, four)):
            tiles_with &= mask
            part = _WEIGHTS[ways]
            weight += part * tiles_with.bit_count()
            while tiles_with:  # each tile's number
                low = tiles_with & -tiles_with
                tiles_with ^= low
                centre += part * (TOP + 1 - low.bit_length())
    return weight > 0 and centre < 7 * weight


_WEIGHTS = tuple(1 / (1 + ways) ** 4 for ways in range(5))


def _add_spares(sets: list[tuple[str, ...]], skip: int, back: tuple[int, ...], spare: int
                ) -> list[tuple[str, ...]] | None:
    """Put ``back[k]`` jokers into the k-th set, and ``spare`` more into the sets after the
    first ``skip``; ``None`` if they do not fit."""
    placed = list(sets)
    for index, count in enumerate(back):
        grown = _with_jokers(placed[index], count)
        if grown is None:
            return None
        placed[index] = grown
    for index in range(skip, len(placed)):
        while spare:
            grown = _with_jokers(placed[index], 1)
            if grown is None:
                break
            placed[index] = grown
            spare -= 1
    return placed if not spare else None


def _with_jokers(tiles: tuple[str, ...], count: int) -> tuple[str, ...] | None:
    """A set with ``count`` more jokers at its end (a run ending at 13: at its start)."""
    for _ in range(count):
        reals = [t for t in tiles if t != JOKER]
        if len({t[1:] for t in reals}) == 1 and len(reals) > 1:
            if len(tiles) >= len(COLOURS):
                return None
            tiles = (*tiles, JOKER)
            continue
        if len(tiles) >= TOP:
            return None
        last = int(reals[-1][1:]) + (len(tiles) - 1 - tiles.index(reals[-1]))
        tiles = (*tiles, JOKER) if last < TOP else (JOKER, *tiles)
    return tiles
