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
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

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


@lru_cache(maxsize=65536)
def colour_options(runs: tuple[int, ...], must: int, avail: int, jokers: int,
                   index: int, ahead: int) -> tuple[Option, ...]:
    """Every way one colour can use its tiles of one number (``index`` 0-12).

    ``must`` tiles of the table and up to ``avail`` in all; ``ahead`` says whether a number
    tile of this colour exists at one of the next two numbers (a run cannot start with a
    joker otherwise).
    """
    short = sum(1 for length in runs if length < 3)
    full = len(runs) - short
    room = TOP - 1 - index  # numbers left after this one
    if short and room < 0:
        return ()
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
                    if new and joker and real < new and not ahead:
                        continue
                    lengths = [min(3, length + 1) for length in runs if length < 3]
                    lengths += [3] * go_on + [1] * new
                    if any(3 - length > room for length in lengths):
                        continue
                    key = (tuple(sorted(lengths)), used - real, joker, used)
                    options.setdefault(key, (go_on, new))
    return tuple((k[0], k[1], k[2], k[3], go_on, new)
                 for k, (go_on, new) in options.items())


def group_ways(tiles: int, most: int, jokers: int) -> list[tuple[int, int]]:
    """(groups, jokers used) that can hold ``tiles`` number tiles, at most ``most`` of one
    colour, with at most ``jokers`` jokers: each group 3-4 places, two number tiles at least."""
    ways = []
    for groups in range(0, 3):
        if groups < most or tiles < 2 * groups or (groups == 0 and tiles):
            continue
        for joker in range(jokers + 1):
            if 3 * groups <= tiles + joker <= 4 * groups:
                ways.append((groups, joker))
    return ways


# number index, colour, open runs, tiles grouped, most of one colour grouped, jokers, meld
State = tuple[int, int, Runs, int, int, int, int]


class _Search:
    """Memoised search; a state is taken after each colour of each number, so partial
    choices shared by many earlier states are solved once."""

    def __init__(self, table: Counts, rack: Counts, must_jokers: int, rack_jokers: int,
                 threshold: int, joker_points: int) -> None:
        self.table = table
        self.avail = tuple(tuple(t + r for t, r in zip(tc, rc, strict=True))
                           for tc, rc in zip(table, rack, strict=True))
        self.must_jokers = must_jokers
        self.jokers = must_jokers + rack_jokers
        self.threshold = threshold
        self.joker_points = joker_points
        self.memo: dict[State, int] = {}
        self.choice: dict[State, tuple[State, Option | tuple[int, int]]] = {}
        self.ahead = tuple(tuple(
            any(self.avail[c][i] for i in range(index + 1, min(TOP, index + 3)))
            for index in range(TOP)) for c in range(len(COLOURS)))

    def best(self, state: State) -> int:
        found = self.memo.get(state)
        if found is not None:
            return found
        index, colour, runs, tiles, most, used, meld = state
        result = NEG
        if index == TOP:
            if used >= self.must_jokers and meld >= self.threshold:
                result = (used - self.must_jokers) * (WEIGHT + self.joker_points)
            self.memo[state] = result
            return result
        number = index + 1
        if colour == len(COLOURS):
            for groups, joker in group_ways(tiles, most, self.jokers - used):
                reached = min(self.threshold, meld + (tiles + joker) * number)
                after: State = (index + 1, 0, runs, 0, 0, used + joker, reached)
                rest = self.best(after)
                if rest > result:
                    result = rest
                    self.choice[state] = (after, (groups, joker))
            self.memo[state] = result
            return result
        must = self.table[colour][index]
        for option in colour_options(runs[colour], must, self.avail[colour][index],
                                     self.jokers - used, index, self.ahead[colour][index]):
            after_runs, grouped, joker, real, _, _ = option
            reached = meld
            if self.threshold:
                reached = min(self.threshold, meld + (real - grouped + joker) * number)
            nxt: State = (index, colour + 1, (*runs[:colour], after_runs, *runs[colour + 1:]),
                          tiles + grouped, max(most, grouped), used + joker, reached)
            rest = self.best(nxt)
            if rest == NEG:
                continue
            value = rest + (real - must) * (WEIGHT + number)
            if value > result:
                result = value
                self.choice[state] = (nxt, option)
        self.memo[state] = result
        return result

    def sets(self, state: State) -> list[tuple[str, ...]]:
        """The sets of the best packing from ``state`` (the start) on."""
        found: list[tuple[str, ...]] = []
        open_runs: list[list[list[str]]] = [[] for _ in COLOURS]
        to_group: list[list[str]] = []
        while state[0] < TOP:
            index, colour = state[0], state[1]
            state, made = self.choice[state]
            if len(made) == 2:
                groups, joker = made
                found.extend(_groups(to_group, groups, joker))
                to_group = []
                continue
            _, grouped, joker, real, go_on, new = made
            tile = f"{COLOURS[colour]}{index + 1}"
            current = sorted(open_runs[colour], key=lambda run: min(3, len(run)))
            short = [run for run in current if len(run) < 3]
            full = [run for run in current if len(run) >= 3]
            found.extend(tuple(run) for run in full[go_on:])
            going = short + full[:go_on] + [[] for _ in range(new)]
            items = [tile] * (real - grouped) + [JOKER] * joker
            for run, item in zip(going, items, strict=True):
                run.append(item)
            open_runs[colour] = going
            to_group.append([tile] * grouped)
        for colour_runs in open_runs:
            found.extend(tuple(run) for run in colour_runs)
        return found


def _groups(by_colour: list[list[str]], groups: int, jokers: int) -> list[tuple[str, ...]]:
    """Deal the number tiles (two copies of a colour go to different groups), then jokers,
    always to the smallest group."""
    made: list[list[str]] = [[] for _ in range(groups)]
    for tiles in sorted(by_colour, key=len, reverse=True):
        targets = sorted(range(groups), key=lambda g: len(made[g]))[:len(tiles)]
        for group, tile in zip(targets, tiles, strict=True):
            made[group].append(tile)
    for _ in range(jokers):
        min(made, key=len).append(JOKER)
    return [tuple(group) for group in made]


def pack(table: Counts, rack: Counts, must_jokers: int, rack_jokers: int, threshold: int,
         joker_points: int) -> Packing | None:
    """The best packing, or ``None`` when the table tiles cannot all be placed."""
    search = _Search(table, rack, must_jokers, rack_jokers, threshold, joker_points)
    start: State = (0, 0, tuple(() for _ in COLOURS), 0, 0, 0, 0)
    score = search.best(start)
    if score == NEG:
        return None
    return Packing(score, search.sets(start))
