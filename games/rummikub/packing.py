"""The exact core of the solver: cover tiles with runs and groups, dynamic programming.

The tiles are counts per colour and number: ``table`` counts must all be used, ``rack`` counts
may be; ``must_jokers`` must be placed, ``rack_jokers`` may be. Numbers are taken from 1 to 13;
the state after a number is, per colour, the sorted lengths of the runs still open (capped at
3: a run of 3 or more may close or go on), the jokers used so far and, for an initial meld,
its value so far (capped at the threshold). Within a number the colours are decided one after
the other and the tiles left for groups are counted, then grouped with any jokers. This is the
shape of van Rijn, Takes and Vis, "Computational complexity of Rummikub", written anew.

    best = pack(table, rack, must_jokers=0, rack_jokers=1, threshold=0, points=Points(30))
    best.score, best.sets

The score is lexicographic, packed into one integer: rack tiles played, then their points
(a number tile its number, a joker the rack penalty).

Two forms of one search. :class:`_Search` is recursive and memoised, state by state; it
holds the rules of each step (the joker sets' too) and stays as the reference the tests
hold the other to. :class:`_Layers` (and :class:`_JokerLayers` when the table has joker
sets) takes every state of a step at once, each state one integer: the form ``pack`` uses.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from operator import itemgetter

from games.rummikub.tiles import COLOURS, JOKER

TOP = 13
WEIGHT = 10_000  # one more tile played outweighs any difference of points
Counts = tuple[tuple[int, ...], ...]  # [colour][number - 1]
Runs = tuple[tuple[int, ...], ...]  # per colour, sorted open run lengths capped at 3
NEG = -(1 << 60)


@dataclass(frozen=True)
class Packing:
    score: int
    sets: list[tuple[str, ...]]

    @property
    def played(self) -> int:
        return self.score // WEIGHT

    @property
    def points(self) -> int:
        return self.score % WEIGHT


# One colour's choice at one number: runs after, tiles given to groups, jokers put in runs,
# number tiles used, how many open runs of length 3 went on (the shorter ones always do).
Option = tuple[tuple[int, ...], int, int, int, int, int]


@lru_cache(maxsize=1 << 17)
def colour_options(runs: tuple[int, ...], must: int, avail: int, jokers: int,
                   next1: int, next2: int, canonical: bool, late: bool) -> tuple[Option, ...]:
    """Every way one colour can use its tiles of one number.

    ``must`` tiles of the table and up to ``avail`` in all, ``jokers`` still free; ``next1``
    and ``next2`` are how many tiles of this colour exist at the next two numbers (-1 past
    13): a run shorter than 3 must find its next tiles there or in jokers. Jokers go to the
    short runs first, then to the long ones, then open new runs. ``canonical`` puts jokers
    only where a set needs them (a spare joker is added at the end, see :func:`pack`): a
    long run takes one only to bridge to a number tile, a run opens with one only near 13
    (``late``), where it cannot end with it.
    """
    short = sum(1 for length in runs if length < 3)
    full = len(runs) - short
    options: dict[tuple[tuple[int, ...], int, int, int], tuple[int, int]] = {}
    for used in range(must, avail + 1):
        for go_on in range(full + 1):
            extended = short + go_on
            for new in range(used + jokers + 1):
                items = extended + new
                for real in range(min(used, items) + 1):
                    joker = items - real
                    if joker > jokers:
                        continue
                    on_long = max(0, min(go_on, joker - short))
                    on_new = max(0, joker - short - go_on)
                    # a run opened by a joker needs a number tile within two steps
                    if on_new and next1 <= 0 and next2 <= 0:
                        continue
                    if canonical and on_new and not late:
                        continue
                    if canonical and on_long and next1 <= 0 and (next2 <= 0 or on_long > 1
                                                                 or jokers - joker < 1):
                        continue
                    lengths = [min(3, length + 1) for length in runs if length < 3]
                    lengths += [3] * go_on + [1] * new
                    left = jokers - joker
                    need1 = sum(1 for length in lengths if length < 3)
                    need2 = sum(1 for length in lengths if length == 1)
                    if need1 and (next1 < 0 or need1 > next1 + left):
                        continue
                    if need2 and (next2 < 0 or need2 > next2 + left):
                        continue
                    key = (tuple(sorted(lengths)), used - real, joker, used)
                    options.setdefault(key, (go_on, new))
    return tuple((k[0], k[1], k[2], k[3], go_on, new)
                 for k, (go_on, new) in options.items())


@lru_cache(maxsize=1024)
def group_ways(tiles: int, most: int, jokers: int, canonical: bool) -> list[tuple[int, int]]:
    """(groups, jokers used) that can hold ``tiles`` number tiles, at most ``most`` of one
    colour, with at most ``jokers`` jokers: each group 3-4 places, two number tiles at least.
    ``canonical``: a joker only completes two number tiles to three."""
    ways = []
    for groups in range(0, 3):
        if groups < most or tiles < 2 * groups or (groups == 0 and tiles):
            continue
        for joker in range(jokers + 1):
            if not 3 * groups <= tiles + joker <= 4 * groups:
                continue
            if canonical and joker and not (2 * joker + 3 * (groups - joker) <= tiles
                                            <= 2 * joker + 4 * (groups - joker)):
                continue
            ways.append((groups, joker))
    return ways


@dataclass(frozen=True)
class JokerSet:
    """A table set holding a joker (RUM-6 as ``engine.py`` defines it), packed as one set
    that keeps its number tiles together: a run of ``colour`` through every index of
    ``places`` (0-12), or a group at index ``number`` holding every colour of ``places``.
    ``joker_places`` are where its jokers stood in a run (a freed joker needs the tile of its
    place, played from the rack, in the set)."""

    kind: str
    colour: int
    number: int
    places: frozenset[int]
    jokers: int
    joker_places: tuple[int, ...] = ()

    @property
    def low(self) -> int:
        return min(self.places)

    @property
    def high(self) -> int:
        return max(self.places)


# Where a joker set stands in the search. A run: (phase 0 not begun / 1 open / 2 closed,
# length capped at 3, jokers in it, bit mask of its old joker places now holding a rack
# tile). A group: (done, number tiles in it, of them rack tiles of colours it lacked,
# jokers in it, exchange satisfied).
Special = tuple[int, int, int, int, int]
# number index, colour, open runs, tiles grouped, most of one colour grouped, jokers, meld,
# joker sets
State = tuple[int, int, Runs, int, int, int, int, tuple[Special, ...]]
# What a colour step gave each joker set: (which set, "real" or "joker")
Adds = tuple[tuple[int, str], ...]


class _Search:
    """Memoised search; a state is taken after each colour of each number, so partial
    choices shared by many earlier states are solved once. :class:`_JokerLayers` uses its
    step rules (``_special_steps``, ``_group_specials``, ``_finished``); ``best`` is the
    recursive reference of the tests."""

    def __init__(self, table: Counts, rack: Counts, must_jokers: int, rack_jokers: int,
                 threshold: int, joker_points: int, specials: tuple[JokerSet, ...],
                 canonical: bool) -> None:
        self.canonical = canonical
        self.table = table
        self.avail = tuple(tuple(t + r for t, r in zip(tc, rc, strict=True))
                           for tc, rc in zip(table, rack, strict=True))
        self.must_jokers = must_jokers
        self.jokers = must_jokers + rack_jokers
        self.threshold = threshold
        self.joker_points = joker_points
        self.specials = specials
        # canonically (see _finished) no table joker outside a joker set is ever placed
        loose = 0 if canonical else must_jokers - sum(s.jokers for s in specials)
        self.outside = rack_jokers + loose + sum(
            min(s.jokers, _exchangeable(s, rack)) for s in specials)
        self.groups = tuple(s.kind == "group" for s in specials)
        self.memo: dict[State, int] = {}
        self.bounds: dict[State, int] = {}
        # most[p]: the best any state at step p (number index * 4 + colour) can still add
        weights = [rack[c][i] * (WEIGHT + i + 1) if self._may_play(c, i) else 0
                   for i in range(TOP) for c in range(len(COLOURS))]
        self.most = [sum(weights[p:]) + rack_jokers * (WEIGHT + joker_points)
                     for p in range(len(weights) + 1)]
        self.ahead = tuple(tuple(
            (self._at(c, index + 1), self._at(c, index + 2)) for index in range(TOP))
            for c in range(len(COLOURS)))

    def _may_play(self, colour: int, index: int) -> bool:
        """Whether a tile could be in any set at all, given every tile there is and the
        jokers (two jokers complete anything, one needs one partner, none needs two)."""
        if self.jokers >= 2:
            return True
        have = self.avail
        partners = sum(1 for c in range(len(COLOURS)) if c != colour and have[c][index])
        near = [0 <= index + d < TOP and have[colour][index + d] > 0 for d in (-2, -1, 1, 2)]
        if self.jokers == 1:
            return partners >= 1 or any(near)
        return partners >= 2 or (near[0] and near[1]) or (near[1] and near[2]) or (
            near[2] and near[3])

    def _at(self, colour: int, index: int) -> int:
        return self.avail[colour][index] if index < TOP else -1

    def start(self) -> State:
        specials = tuple((0, 0, 0, 0, 0) for _ in self.specials)
        return (0, 0, tuple(() for _ in COLOURS), 0, 0, 0, 0, specials)

    def _finished(self, used: int, specials: tuple[Special, ...]) -> bool:
        """Every joker set closed whole, and the jokers account (RUM-6): a joker leaves its
        set only against its tile from the rack; jokers added to a joker set come from the
        rack. Canonically, a joker set's own jokers that nothing needs go back into it."""
        rack = self.jokers - self.must_jokers
        extra = in_sets = exchangeable = 0
        for joker_set, (phase, length, third, fourth, ok) in zip(self.specials, specials,
                                                                 strict=True):
            if joker_set.kind == "group":  # (done, tiles, eligible, jokers, ok)
                jokers, capacity = fourth, third
                if not phase or not ok:
                    return False
            else:  # (phase, length, jokers, bits, -)
                jokers, capacity = third, bin(fourth).count("1")
                if phase == 0 or (phase == 1 and length < 3):
                    return False
            in_sets += jokers
            extra += max(0, jokers - joker_set.jokers)
            spare = max(0, joker_set.jokers - jokers)
            if not self.canonical and spare > capacity:
                return False
            exchangeable += min(spare, capacity)
        if self.canonical:
            return extra <= rack and used - in_sets <= rack - extra + exchangeable
        return used >= self.must_jokers and extra <= used - self.must_jokers

    def best(self, state: State, floor: int = NEG) -> int:
        """The best score from ``state`` on when it beats ``floor``; otherwise at most
        ``floor`` (branch and bound: a state cut off is remembered with that bound)."""
        found = self.memo.get(state)
        if found is not None:
            return found
        bound = self.bounds.get(state)
        if bound is not None and bound <= floor:
            return bound
        index, colour, runs, tiles, most, used, meld, specials = state
        result = NEG
        if index == TOP:
            if meld >= self.threshold and self._finished(used, specials):
                # canonically every rack joker goes down: the spare ones join sets with room
                played = self.jokers if self.canonical else used
                result = (played - self.must_jokers) * (WEIGHT + self.joker_points)
            self.memo[state] = result
            return result
        number = index + 1
        if colour == len(COLOURS):
            room = self.outside - used + self._held(specials) if specials else self.jokers - used
            for after_specials, special_jokers in self._group_specials(index, specials,
                                                                       self.jokers - used):
                free = min(self.jokers - used - special_jokers, room)
                for _, joker in group_ways(tiles, most, free, self.canonical):
                    placed = tiles + joker
                    if specials:
                        placed += self._special_group_size(index, after_specials)
                    reached = min(self.threshold, meld + placed * number)
                    after: State = (index + 1, 0, runs, 0, 0, used + joker + special_jokers,
                                    reached, after_specials)
                    level = max(result, floor)
                    if self.most[index * 4 + 4] <= level:
                        continue
                    result = max(result, self.best(after, level))
            return self._settle(state, result, floor)
        must = self.table[colour][index]
        avail = self.avail[colour][index]
        next1, next2 = self.ahead[colour][index]
        room = self.outside - used + self._held(specials) if specials else self.jokers
        ahead = self.most[index * 4 + colour + 1]
        for after_specials, own_real, own_joker, _, marks in self._special_steps(
                colour, index, specials):
            if own_real > avail or used + own_joker > self.jokers:
                continue
            for option in colour_options(runs[colour], max(0, must - own_real),
                                         avail - own_real,
                                         min(self.jokers - used - own_joker, room),
                                         next1, next2, self.canonical, index >= TOP - 3):
                after_runs, grouped, joker, real, _, _ = option
                total = real + own_real
                marked = after_specials
                if marks and total > must:
                    marked = _mark(after_specials, marks)
                reached = meld
                if self.threshold:
                    in_runs = real - grouped + joker + own_real + own_joker
                    reached = min(self.threshold, meld + in_runs * number)
                nxt: State = (index, colour + 1,
                              (*runs[:colour], after_runs, *runs[colour + 1:]),
                              tiles + grouped, max(most, grouped), used + joker + own_joker,
                              reached, marked)
                gain = (total - must) * (WEIGHT + number)
                level = max(result, floor)
                if gain + ahead <= level:
                    continue
                rest = self.best(nxt, level - gain)
                if rest == NEG:
                    continue
                result = max(result, rest + gain)
        return self._settle(state, result, floor)

    def _settle(self, state: State, result: int, floor: int) -> int:
        """Remember ``result`` as exact when it beats ``floor``, else ``floor`` as a bound."""
        if result > floor or floor <= NEG:
            self.memo[state] = result
            return result
        self.bounds[state] = floor
        return floor

    def _special_steps(self, colour: int, index: int, specials: tuple[Special, ...]
                       ) -> list[tuple[tuple[Special, ...], int, int, Adds,
                                       tuple[tuple[int, int], ...]]]:
        """What the joker sets take of this colour at this index: new states, number tiles,
        jokers, who took what, and (set, bit) marks earned if a rack tile is used here."""
        steps: list[tuple[tuple[Special, ...], int, int, Adds, tuple[tuple[int, int], ...]]]
        steps = [(specials, 0, 0, (), ())]
        next1, next2 = self.ahead[colour][index]
        bridge = next1 > 0 or next2 > 0
        for k, joker_set in enumerate(self.specials):
            if joker_set.kind == "run" and joker_set.colour != colour:
                continue
            if joker_set.kind == "group" and joker_set.number != index:
                continue
            grown = []
            for current, real, joker, adds, marks in steps:
                for special, take_real, take_joker, mark in _special_step(
                        joker_set, current[k], colour, index, self.canonical and not bridge):
                    changed = (*current[:k], special, *current[k + 1:])
                    more = ((k, "real"),) * take_real + ((k, "joker"),) * take_joker
                    grown.append((changed, real + take_real, joker + take_joker,
                                  adds + more, marks + (((k, mark),) if mark != -1 else ())))
            steps = grown
        return steps

    def _group_specials(self, index: int, specials: tuple[Special, ...], jokers: int
                        ) -> list[tuple[tuple[Special, ...], int]]:
        """Close the joker groups of this index: each takes 0-2 jokers, 3-4 tiles in all."""
        ways: list[tuple[tuple[Special, ...], int]] = [(specials, 0)]
        for k, joker_set in enumerate(self.specials):
            if joker_set.kind != "group" or joker_set.number != index:
                continue
            grown = []
            for current, spent in ways:
                _, tiles, eligible, _, _ = current[k]
                for joker in range(0, jokers - spent + 1):
                    if not 3 <= tiles + joker <= 4 or tiles < 2:
                        continue
                    if self.canonical and joker and tiles + joker > 3:
                        continue  # a spare joker is put back at the end
                    if not self.canonical and eligible < joker_set.jokers - joker:
                        continue  # a freed joker needs its tile from the rack
                    done: Special = (1, tiles, eligible, joker, 1)
                    grown.append(((*current[:k], done, *current[k + 1:]), spent + joker))
            ways = grown
        return ways

    def _held(self, specials: tuple[Special, ...]) -> int:
        """Jokers the joker sets hold so far: the rest went to other sets, and only the rack's
        and the freed ones may (RUM-6), which ``self.outside`` bounds."""
        return sum(s[3] if group else s[2] for group, s in zip(self.groups, specials,
                                                                strict=True))

    def _special_group_size(self, index: int, specials: tuple[Special, ...]) -> int:
        return sum(s[1] + s[3] for joker_set, s in zip(self.specials, specials, strict=True)
                   if joker_set.kind == "group" and joker_set.number == index)


# One step of a best packing: number index, colour (4: the groups), the choice made, what the
# joker sets took, and the joker sets' states after it.
Chosen = Option | tuple[int, int, int]  # a colour's choice, or the groups made
Made = Chosen | tuple[Option, Adds]  # with what the joker sets took, when there are some
Step = tuple[int, int, Chosen, Adds, tuple[Special, ...]]


def build_sets(path: list[Step], specials: tuple[JokerSet, ...]) -> list[tuple[str, ...]]:
    """Replay the choices of a best packing into its sets; the joker sets' come first."""
    found: list[tuple[str, ...]] = []
    own: list[list[str]] = [[] for _ in specials]
    open_runs: list[list[list[str]]] = [[] for _ in COLOURS]
    to_group: list[list[str]] = []
    for index, colour, made, adds, after in path:
        if len(made) == 3:
            groups, joker, _ = made
            for k, joker_set in enumerate(specials):
                if joker_set.kind == "group" and joker_set.number == index:
                    own[k].extend([JOKER] * after[k][3])
            found.extend(_groups(to_group, groups, joker))
            to_group = []
            continue
        _, grouped, joker, real, go_on, new = made
        tile = f"{COLOURS[colour]}{index + 1}"
        for k, kind in adds:
            own[k].append(tile if kind == "real" else JOKER)
        current = open_runs[colour]
        if current or new:
            short = [run for run in current if len(run) < 3]
            full = [run for run in current if len(run) >= 3]
            found.extend(tuple(run) for run in full[go_on:])
            going = short + full[:go_on] + [[] for _ in range(new)]
            items = [tile] * (real - grouped) + [JOKER] * joker
            for run, item in zip(going, items, strict=True):
                run.append(item)
            open_runs[colour] = going
        if grouped:
            to_group.append([tile] * grouped)
    for colour_runs in open_runs:
        found.extend(tuple(run) for run in colour_runs)
    return [tuple(tiles) for tiles in own] + found


# The layered search packs its state into one integer: per colour the open runs (an index
# into ``_RUNS``), then the tiles given to groups at this number, how many colours gave two,
# the jokers used and the initial meld's value so far.
_RUN_BITS = 6
_GROUPED = 4 * _RUN_BITS
_TWOS = _GROUPED + 5
_USED = _TWOS + 3
_MELD = _USED + 3
_GROUP_MASK = (1 << (_MELD - _GROUPED)) - 1
_RUNS: list[tuple[int, ...]] = [()]
_RUN_ID: dict[tuple[int, ...], int] = {(): 0}


def _run_id(runs: tuple[int, ...]) -> int:
    found = _RUN_ID.get(runs)
    if found is None:
        found = _RUN_ID[runs] = len(_RUNS)
        _RUNS.append(runs)
        assert found < 1 << _RUN_BITS
    return found


@lru_cache(maxsize=1 << 16)
def _base_moves(runs_id: int, used: int, must: int, avail: int, next1: int, next2: int,
                jokers: int, canonical: bool, late: bool
                ) -> tuple[tuple[int, int, int, int, Option], ...]:
    """(open runs after, tiles given to groups, tiles played, tiles in runs, choice) for each
    way one colour uses its tiles of one number (see :func:`colour_options`)."""
    free = jokers - used
    moves = []
    for option in colour_options(_RUNS[runs_id], must, avail, free, next1, next2,
                                 canonical, late):
        after_runs, grouped, joker, real, _, _ = option
        # runs of three that cannot all go on at the next number close now: one state
        short = sum(1 for length in after_runs if length < 3)
        room = max(0, next1 + free - joker - short)
        if len(after_runs) > short + room:
            after_runs = after_runs[:short + room]
        moves.append((_run_id(after_runs), grouped, real - must, real - grouped + joker, option))
    return tuple(moves)


@lru_cache(maxsize=1 << 12)
def _groups_alive(grouped: int, two: int, free: int, later: int, canonical: bool) -> bool:
    """Whether ``grouped`` tiles (``two``: a colour gave two) and up to ``later`` more from
    the colours still to come at this number can still make groups, with ``free`` jokers."""
    most = 2 if two else min(1, grouped)
    return any(group_ways(grouped + extra, most, free, canonical)
               for extra in range(later + 1))


@lru_cache(maxsize=1 << 16)
def _look_moves(look: int, must: int, avail: int, next1: int, next2: int, later: int,
                jokers: int, canonical: bool, late: bool
                ) -> tuple[tuple[int, int, int, int, Option], ...]:
    """(added to the state but for the colour's place, tiles played, tiles in runs, choice)
    for each way one colour can use its tiles of one number, from the open runs, tiles
    grouped and jokers used in ``look``; ``later`` tiles of the colours still to come at
    this number may join the groups, and a move whose groups could no longer be made is
    left out. The runs part is a difference of run indices, shifted by the caller."""
    runs_id = look & 63
    grouped_before = look >> 6 & 31
    twos = look >> (6 + _TWOS - _GROUPED) & 7
    used = look >> (6 + _USED - _GROUPED) & 7
    moves = []
    for after_id, grouped, played, in_runs, option in _base_moves(
            runs_id, used, must, avail, next1, next2, jokers, canonical, late):
        joker = option[2]
        two = 1 if twos or grouped == 2 else 0
        if _groups_alive(grouped_before + grouped, two, jokers - used - joker, later,
                         canonical):
            rest = (grouped << _GROUPED) + ((two - twos) << _TWOS) + (joker << _USED)
            moves.append((after_id - runs_id, rest, played, in_runs, option))
    return tuple(moves)


@lru_cache(maxsize=1 << 16)
def _step_moves(look: int, colour: int, index: int, must: int, avail: int, next1: int,
                next2: int, later: int, jokers: int, canonical: bool
                ) -> tuple[tuple[int, int, int, Option], ...]:
    """(added to the state, score gained, meld value, choice) for each way the colour can use
    its tiles of this number from the state ``look`` (see :func:`_look_moves`)."""
    shift = colour * _RUN_BITS
    number = index + 1
    weight = WEIGHT + number
    return tuple(((runs << shift) + rest, played * weight, in_runs * number, option)
            for runs, rest, played, in_runs, option in _look_moves(
                look, must, avail, next1, next2, later, jokers, canonical, index >= TOP - 3))


# One colour step of the layered search: it takes the states of ``layer``, finds each one's
# moves (cached in ``table`` by the bits ``look`` of the state they depend on), and keeps
# the best score of every state reached, with where it came from.
Layer = dict[int, int]
Backs = dict[int, tuple[int, Made]]
MovesOf = Callable[..., Sequence[tuple[int, int, int, Made]]]


def _step(layer: Layer, table: dict[int, Sequence[tuple[int, int, int, Made]]],
          moves_of: MovesOf, here: tuple[int, ...], shift: int, mask: int, threshold: int,
          floor: int, trace: bool) -> tuple[Layer, Backs]:
    """States scoring below ``floor`` (the search's floor less the most the rest could add)
    are dropped; without ``trace`` nobody's origin is kept (the score alone is sought); with
    a ``threshold`` the initial meld's value is counted, up to it."""
    new: Layer = {}
    back: Backs = {}
    best = new.get
    cached = table.get
    neg = NEG
    for key, score in layer.items():
        look = (key >> shift) & 63 | (key >> _GROUPED & mask) << 6
        moves = cached(look)
        if moves is None:
            moves = table[look] = moves_of(look, *here)
        for delta, gain, worth, made in moves:
            value = score + gain
            if value < floor:
                continue
            after = key + delta
            if threshold:
                meld = after >> _MELD
                after += (min(threshold, meld + worth) - meld) << _MELD
            if value > best(after, neg):
                new[after] = value
                if trace:
                    back[after] = (key, made)
    return new, back


class _Layers:
    """The search of :class:`_Search` for a table without joker sets, taken number by number
    and colour by colour over all states at once, keeping the best score of each state.

    A state is one integer (see ``_RUN_BITS``) and each choice adds a fixed amount to it, so
    a step is a loop of additions and dictionary look-ups: no recursion, no bounds, every
    reachable state visited once. Back pointers give the sets of the best packing."""

    def __init__(self, table: Counts, rack: Counts, must_jokers: int, rack_jokers: int,
                 threshold: int, joker_points: int, canonical: bool, trace: bool = True
                 ) -> None:
        self.trace = trace
        self.table = table
        self.avail = tuple(tuple(t + r for t, r in zip(tc, rc, strict=True))
                           for tc, rc in zip(table, rack, strict=True))
        self.must_jokers = must_jokers
        self.jokers = must_jokers + rack_jokers
        self.threshold = threshold
        self.joker_points = joker_points
        self.canonical = canonical
        # per step: the state before each state reached and the choice that reached it
        # (None: a step where nothing could happen)
        self.backs: list[dict[int, tuple[int, Made]] | None] = []
        self.end = 0
        self.look_mask = _GROUP_MASK  # the state's bits a step's moves depend on
        # a state whose score plus the most it could still add is below ``floor`` is dropped
        self.floor = NEG
        most = [rack_jokers * (WEIGHT + joker_points)]
        for i in range(TOP - 1, -1, -1):  # from the end: what is left to gain after a step
            for c in range(len(COLOURS) - 1, -1, -1):
                most.append(most[-1] + rack[c][i] * (WEIGHT + i + 1))
        self.most = most[::-1]
        # a beam: at most ``cap`` states kept per step (0: all), ``narrowed`` if any was left
        self.cap = 0
        self.narrowed = False

    def _at(self, colour: int, index: int) -> int:
        return self.avail[colour][index] if index < TOP else -1

    # the moves of a colour step from a state: (look, *here) -> (added, gained, worth, made)
    _moves: Callable[..., Sequence[tuple[int, int, int, Made]]] = staticmethod(_step_moves)

    def run(self) -> int:
        """The best score, or ``NEG`` when the table tiles cannot all be placed."""
        layer: dict[int, int] = {0: 0}
        threshold = self.threshold
        backs = self.backs
        trace = self.trace or bool(threshold)
        floor = self.floor + 1 if self.floor > NEG else NEG
        cap = self.cap
        jokers, canonical, mask, moves_of = self.jokers, self.canonical, self.look_mask, self._moves
        # per colour its tiles at every number, and -1 twice past 13 (no tile can follow)
        rows = [(*row, -1, -1) for row in self.avail]
        musts = self.table
        open_runs = [False] * len(COLOURS)  # whether any state may have runs open
        for index in range(TOP):
            number = index + 1
            at = [row[index] for row in rows]
            later = sum(at)
            for colour in range(len(COLOURS)):
                avail = at[colour]
                later -= avail
                if not avail and not open_runs[colour] and not jokers:
                    backs.append(None)
                    continue
                open_runs[colour] = True
                shift = colour * _RUN_BITS
                row = rows[colour]
                here = (colour, index, musts[colour][index], avail, row[index + 1],
                        row[index + 2], later, jokers, canonical)
                layer, back = _step(layer, {}, moves_of, here, shift, mask, threshold,
                                   floor - self.most[index * 4 + colour + 1], trace)
                backs.append(back)
                if cap and len(layer) > cap:
                    layer = self._narrow(layer)
                if row[index + 1] <= 0:
                    open_runs[colour] = any(key >> shift & 63 for key in layer)
            if not jokers and sum(at) < 3:
                backs.append(None)  # no group can be made: nothing was given to groups
                continue
            new, back = self._group_step(layer, number, threshold, trace)
            backs.append(back)
            layer = self._narrow(new) if cap and len(new) > cap else new
        return self._finish(layer)

    def _group_step(self, layer: Layer, number: int, threshold: int, trace: bool
                    ) -> tuple[Layer, Backs]:
        """The groups of a number made from the tiles each state gave them."""
        new: Layer = {}
        back: Backs = {}
        best = new.get
        grouping: dict[int, list[tuple[int, int, Made]]] = {}
        mask = self.look_mask
        neg = NEG
        for key, score in layer.items():
            look = key >> _GROUPED & mask
            moves = grouping.get(look)
            if moves is None:
                moves = grouping[look] = self._group_moves(look, number)
            for delta, worth, made in moves:
                after = key + delta
                if threshold:
                    meld = after >> _MELD
                    after += (min(threshold, meld + worth) - meld) << _MELD
                if score > best(after, neg):
                    new[after] = score
                    if trace:
                        back[after] = (key, made)
        return new, back

    def _narrow(self, layer: Layer) -> Layer:
        """The ``cap`` best states of a step (all have the same most to gain after it)."""
        self.narrowed = True
        return dict(heapq.nlargest(self.cap, layer.items(), key=itemgetter(1)))

    def _finish(self, layer: dict[int, int]) -> int:
        best = NEG
        jokers, must = self.jokers, self.must_jokers
        for key, score in layer.items():
            used = key >> _USED & 7
            if key >> _MELD < self.threshold:
                continue
            if self.canonical:
                # every rack joker goes down: the spare ones join sets with room
                if used > jokers - must:
                    continue
                played = jokers
            else:
                if used < must:
                    continue
                played = used
            value = score + (played - must) * (WEIGHT + self.joker_points)
            if value > best:
                best, self.end = value, key
        return best

    def _group_moves(self, look: int, number: int) -> list[tuple[int, int, Made]]:
        """(added to the state, meld value, choice) for each way to group the tiles given to
        groups at this number, from the counts and jokers used in ``look``."""
        grouped = look & 31
        twos = look >> (_TWOS - _GROUPED) & 7
        used = look >> (_USED - _GROUPED) & 7
        most = 2 if twos else min(1, grouped)
        clear = -(grouped << _GROUPED) - (twos << _TWOS)
        return [(clear + (joker << _USED), (grouped + joker) * number, (groups, joker, 0))
                for groups, joker in group_ways(grouped, most, self.jokers - used,
                                                self.canonical)]

    def sets(self) -> list[tuple[str, ...]]:
        """The sets of the best packing found by :meth:`run`."""
        key = self.end
        path: list[Step] = []
        for step in range(len(self.backs) - 1, -1, -1):
            back = self.backs[step]
            if back is None:
                continue  # a step where nothing happened
            index, colour = divmod(step, len(COLOURS) + 1)
            key, made = back[key]
            path.append((index, colour, made, (), ()))  # type: ignore[arg-type]
        path.reverse()
        return build_sets(path, ())


_SPECIALS = _MELD  # the joker sets' states: an index into the search's own list


class _JokerLayers(_Layers):
    """:class:`_Layers` for a table with joker sets (no initial meld then): the joker sets'
    states (see :class:`_Search`) are one more field of the integer state, numbered as
    they appear; the moves are :class:`_Search`'s, computed once per step for each part of
    the state they depend on."""

    def __init__(self, table: Counts, rack: Counts, must_jokers: int, rack_jokers: int,
                 joker_points: int, specials: tuple[JokerSet, ...], canonical: bool,
                 floor: int = NEG) -> None:
        super().__init__(table, rack, must_jokers, rack_jokers, 0, joker_points, canonical)
        self.rules = _Search(table, rack, must_jokers, rack_jokers, 0, joker_points,
                             specials, canonical)
        self.specials = specials
        self.states: list[tuple[Special, ...]] = [self.rules.start()[7]]
        self.state_ids = {self.states[0]: 0}
        self.look_mask = (1 << (_SPECIALS + 16 - _GROUPED)) - 1
        self.floor = floor
        self._moves = self._joker_moves
        self.most = self.rules.most

    def _id(self, specials: tuple[Special, ...]) -> int:
        """The number of the joker sets' states, told apart only by what is still needed:
        a group's tile count once it is closed, more eligible colours than it has jokers,
        which of a run's joker places got their tile rather than how many did."""
        found = self.state_ids.get(specials)
        if found is not None:
            return found
        normal = []
        for joker_set, (first, second, third, fourth, ok) in zip(self.specials, specials,
                                                                strict=True):
            if joker_set.kind == "group":  # (done, tiles, eligible, jokers, ok)
                normal.append((first, 0 if first else second, min(third, joker_set.jokers),
                               fourth, ok))
            else:  # (phase, length, jokers, bits, ok)
                normal.append((first, second, third, (1 << bin(fourth).count("1")) - 1, ok))
        same = tuple(normal)
        found = self.state_ids.get(same)
        if found is None:
            found = self.state_ids[same] = len(self.states)
            self.states.append(same)
        self.state_ids[specials] = found
        return found

    def _joker_moves(self, look: int, colour: int, index: int, must: int, avail: int,
                     next1: int, next2: int, later: int, jokers: int, canonical: bool
                     ) -> list[tuple[int, int, int, Made]]:
        """The colour step of :meth:`_Search.best` from the state ``look``."""
        rules = self.rules
        runs_id = look & 63
        twos = look >> (6 + _TWOS - _GROUPED) & 7
        used = look >> (6 + _USED - _GROUPED) & 7
        special_id = look >> (6 + _SPECIALS - _GROUPED)
        grouped_before = look >> 6 & 31
        specials = self.states[special_id]
        room = rules.outside - used + rules._held(specials)
        shift = colour * _RUN_BITS
        number = index + 1
        moves: list[tuple[int, int, int, Made]] = []
        for after_specials, own_real, own_joker, adds, marks in rules._special_steps(
                colour, index, specials):
            if own_real > avail or used + own_joker > jokers:
                continue
            free = min(jokers - used - own_joker, room)
            for option in colour_options(_RUNS[runs_id], max(0, must - own_real),
                                         avail - own_real, free, next1, next2, canonical,
                                         index >= TOP - 3):
                after_runs, grouped, joker, real, _, _ = option
                total = real + own_real
                marked = after_specials
                if marks and total > must:
                    marked = _mark(after_specials, marks)
                two = 1 if twos or grouped == 2 else 0
                if not _groups_alive(grouped_before + grouped, two,
                                     jokers - used - own_joker - joker, later, canonical):
                    continue
                short = sum(1 for length in after_runs if length < 3)
                reach = max(0, next1 + jokers - used - own_joker - joker - short)
                if len(after_runs) > short + reach:
                    after_runs = after_runs[:short + reach]
                delta = ((_run_id(after_runs) - runs_id) << shift) + (grouped << _GROUPED) + (
                    (two - twos) << _TWOS) + ((joker + own_joker) << _USED) + (
                    (self._id(marked) - special_id) << _SPECIALS)
                moves.append((delta, (total - must) * (WEIGHT + number), 0, (option, adds)))
        return moves

    def _group_moves(self, look: int, number: int) -> list[tuple[int, int, Made]]:
        """The group step of :meth:`_Search.best` from the state ``look``."""
        rules = self.rules
        index = number - 1
        grouped = look & 31
        twos = look >> (_TWOS - _GROUPED) & 7
        used = look >> (_USED - _GROUPED) & 7
        special_id = look >> (_SPECIALS - _GROUPED)
        specials = self.states[special_id]
        most = 2 if twos else min(1, grouped)
        room = rules.outside - used + rules._held(specials)
        clear = -(grouped << _GROUPED) - (twos << _TWOS)
        moves: list[tuple[int, int, Made]] = []
        for after_specials, special_jokers in rules._group_specials(index, specials,
                                                                    self.jokers - used):
            free = min(self.jokers - used - special_jokers, room)
            for groups, joker in group_ways(grouped, most, free, self.canonical):
                delta = clear + ((joker + special_jokers) << _USED) + (
                    (self._id(after_specials) - special_id) << _SPECIALS)
                moves.append((delta, 0, (groups, joker, special_jokers)))
        return moves

    def _finish(self, layer: dict[int, int]) -> int:
        best = NEG
        for key, score in layer.items():
            used = key >> _USED & 7
            if not self.rules._finished(used, self.states[key >> _SPECIALS]):
                continue
            played = self.jokers if self.canonical else used
            value = score + (played - self.must_jokers) * (WEIGHT + self.joker_points)
            if value > best:
                best, self.end = value, key
        return best

    def sets(self) -> list[tuple[str, ...]]:
        """The sets of the best packing found by :meth:`run`, the joker sets' first."""
        key = self.end
        path: list[Step] = []
        for step in range(len(self.backs) - 1, -1, -1):
            back = self.backs[step]
            index, colour = divmod(step, len(COLOURS) + 1)
            after = self.states[key >> _SPECIALS]
            assert back is not None
            key, made = back[key]
            if colour < len(COLOURS):
                option, adds = made  # type: ignore[misc]
                path.append((index, colour, option, adds, after))
            else:
                path.append((index, colour, made, (), after))  # type: ignore[arg-type]
        path.reverse()
        return build_sets(path, self.specials)


def _exchangeable(joker_set: JokerSet, rack: Counts) -> int:
    """How many jokers of ``joker_set`` the rack could free (RUM-6): a run's joker needs the
    tile of its place, a group's a colour the group lacks, one of each at most."""
    if joker_set.kind == "run":
        return sum(1 for place in set(joker_set.joker_places)
                   if rack[joker_set.colour][place] > 0)
    return sum(1 for colour in range(len(COLOURS))
               if colour not in joker_set.places and rack[colour][joker_set.number] > 0)


def _mark(specials: tuple[Special, ...], marks: tuple[tuple[int, int], ...]
          ) -> tuple[Special, ...]:
    """Record that a rack tile went where a freed joker may need it."""
    changed = list(specials)
    for k, bit in marks:
        first, second, third, bits, ok = changed[k]
        if bit == _ELIGIBLE:
            changed[k] = (first, second, third + 1, bits, ok)
        else:
            changed[k] = (first, second, third, bits | (1 << bit), ok)
    return tuple(changed)


_ELIGIBLE = -2  # a mark for a group: a rack tile of a colour the group lacked


def _special_step(joker_set: JokerSet, current: Special, colour: int, index: int,
                  no_spare: bool) -> list[tuple[Special, int, int, int]]:
    """A joker set's choices at one colour and index: its new state, a number tile taken,
    a joker taken, and a mark (-1 for none). ``no_spare``: no joker past the set's tiles
    on a run of three already, unless a number tile follows (canonical search)."""
    if joker_set.kind == "group":
        done, tiles, eligible, jokers, ok = current
        taken = (done, tiles + 1, eligible, jokers, ok)
        if colour in joker_set.places:
            return [(taken, 1, 0, -1)]
        return [(current, 0, 0, -1), (taken, 1, 0, _ELIGIBLE)]
    phase, length, jokers, bits, ok = current
    if phase == 2:
        return [(current, 0, 0, -1)]
    steps: list[tuple[Special, int, int, int]] = []
    if phase == 0:
        if index < joker_set.low:
            steps.append((current, 0, 0, -1))
        if index > joker_set.low:
            return steps
        length = 0
    elif index > joker_set.high and length >= 3:
        steps.append(((2, 0, jokers, bits, ok), 0, 0, -1))
    grown = min(3, length + 1)
    mark = joker_set.joker_places.index(index) if index in joker_set.joker_places else -1
    steps.append(((1, grown, jokers, bits, ok), 1, 0, mark))
    spare = no_spare and length >= 3 and not joker_set.low <= index <= joker_set.high
    if index not in joker_set.places and jokers < 4 and not spare:
        steps.append(((1, grown, jokers + 1, bits, ok), 0, 1, -1))
    return steps


def _groups(by_colour: list[list[str]], groups: int, jokers: int) -> list[tuple[str, ...]]:
    """Deal the number tiles (two copies of a colour go to different groups), then jokers,
    always to the smallest group."""
    if not groups:
        return []
    made: list[list[str]] = [[] for _ in range(groups)]
    for tiles in sorted(by_colour, key=len, reverse=True):
        targets = sorted(range(groups), key=lambda g: len(made[g]))[:len(tiles)]
        for group, tile in zip(targets, tiles, strict=True):
            made[group].append(tile)
    for _ in range(jokers):
        min(made, key=len).append(JOKER)
    return [tuple(group) for group in made]


def pack(table: Counts, rack: Counts, must_jokers: int, rack_jokers: int, threshold: int,
         joker_points: int, specials: tuple[JokerSet, ...] = (),
         accept: Callable[[list[tuple[str, ...]]], bool] | None = None,
         trace: bool = True, floor: int = NEG) -> Packing | None:
    """The best packing, or ``None`` when the table tiles cannot all be placed. The sets of
    ``specials`` come first in the packing, in their order. Without ``trace`` (and without
    jokers to place or joker sets) only the score is sought: the packing has no sets.

    Jokers are first placed only where a set needs them; the spare ones then go back into
    their joker sets or join sets with room (a joker no set needs can move to any set with
    room), the first way that ``accept`` takes. When none fits, when that finds nothing while
    jokers must be placed (one may be needed where it stands), or for an initial meld (where
    a spare joker adds to the meld's value), every placement is searched.
    """
    for canonical in ((False,) if threshold else (True, False)):
        def make(floor: int, cap: int, canonical: bool = canonical) -> _Layers:
            search: _Layers
            if specials:
                assert not threshold, "an initial meld is made from the rack alone"
                search = _JokerLayers(table, rack, must_jokers, rack_jokers, joker_points,
                                      specials, canonical, floor)
            else:
                search = _Layers(table, rack, must_jokers, rack_jokers, threshold,
                                 joker_points, canonical,
                                 trace or bool(must_jokers + rack_jokers))
                search.floor = floor
            search.cap = cap
            return search

        layers, score = _searched(make, floor, 0 if threshold else BEAM)
        if score == NEG:
            if canonical and must_jokers:
                continue  # a joker of the table may be needed where it stands
            return None
        if not layers.trace:
            return Packing(score, [])
        sets = layers.sets()
        if not canonical:
            return Packing(score, sets)
        missing = must_jokers + rack_jokers - sum(t.count(JOKER) for t in sets)
        spares = [max(0, s.jokers - sets[k].count(JOKER)) for k, s in enumerate(specials)]
        for back in product(*(range(n, -1, -1) for n in spares)):
            if sum(back) > missing:
                continue
            placed = _add_spares(sets, len(specials), back, missing - sum(back))
            if placed is not None and (accept is None or accept(placed)):
                return Packing(score, placed)
    raise AssertionError("the full search places every joker")


BEAM = 256  # states per step of the first, narrowed search


def _searched(make: Callable[[int, int], _Layers], floor: int, cap: int
              ) -> tuple[_Layers, int]:
    """A search and its best score, exact. A beam of ``cap`` states per step goes first:
    when it left none out it was the whole search; otherwise its move is a floor the full
    search need not go below. A floor nothing reached gives way to a search without one."""
    search = make(floor, cap)
    score = search.run()
    if search.narrowed:
        floor = max(floor, score - 1) if score > NEG else floor
        search = make(floor, 0)
        score = search.run()
    if floor > NEG and score <= floor:
        search = make(NEG, 0)
        score = search.run()
    return search, score


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
