"""The shared state encoding and moves of the searches: what one colour may do with its tiles
of one number, how tiles given to groups are grouped, the state packed into one integer, and
the replay of a best packing's choices into its sets.

    colour_options((2,), must=1, avail=1, jokers=0, next1=1, next2=0, canonical=True,
                   late=False)   # the run of two goes on with the table's tile
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any, Generic, TypeVar

from games.rummikub.tiles import COLOURS, JOKER

TOP = 13
WEIGHT = 10_000  # one more tile played outweighs any difference of points
Counts = tuple[tuple[int, ...], ...]  # [colour][index], see index_of
Runs = tuple[tuple[int, ...], ...]  # per colour, sorted open run lengths capped at 3
NEG = -(1 << 60)


# The number at each step index: the searches take the numbers from 13 down (a move's
# points, most of them in the high numbers, are settled first) unless told to go up; the
# counts and joker sets given to a search are indexed from 13 down (see ``index_of``).
DOWN = tuple(range(TOP, 0, -1))
UP = tuple(range(1, TOP + 1))


def index_of(number: int) -> int:
    """The index of a number in the counts a search is given: ``index_of(13)`` is 0."""
    return TOP - number


def mirrored(counts: Counts) -> Counts:
    """The counts indexed the other way round (for a search going up, see ``UP``):
    ``mirrored(table)[colour][0]`` counts the ones."""
    return tuple(tuple(reversed(row)) for row in counts)


@dataclass(frozen=True)
class Packing:
    """The best ``score`` found, its ``sets``, and the ``states`` its searches took."""

    score: int
    sets: list[tuple[str, ...]]
    states: int = 0

    @property
    def played(self) -> int:
        return self.score // WEIGHT

    @property
    def points(self) -> int:
        return self.score % WEIGHT


# One colour's choice at one number: runs after, tiles given to groups, jokers put in runs,
# number tiles used, how many open runs of length 3 went on (the shorter ones always do).
Option = tuple[tuple[int, ...], int, int, int, int, int]


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


Kept = TypeVar("Kept")


class Memo(Generic[Kept]):
    """The results of one of the searches' hot calls, in a dict (``table``) keyed by one
    integer packed from the call's arguments, emptied when it holds ``held``; each is
    listed in ``MEMOS`` under ``name``. Compiled by mypyc, an lru_cache's hit goes through
    Python's call protocol and builds and hashes a tuple of the arguments: a rack-joker hint
    makes about 1,100 such calls. Each field of a key has 4 bits (a count of one tile is at
    most 2, of jokers at most 7; -1 is stored as 0).

        found = memo.table.get(key)
        if found is None:
            found = memo.keep(key, computed(...))
    """

    def __init__(self, name: str, held: int) -> None:
        self.held = held
        self.table: dict[int, Kept] = {}
        MEMOS[name] = self

    def keep(self, key: int, value: Kept) -> Kept:
        """``value``, held under ``key`` (the table emptied first when full)."""
        if len(self.table) >= self.held:
            self.table.clear()
        self.table[key] = value
        return value


MEMOS: dict[str, Memo[Any]] = {}


def memos() -> dict[str, tuple[int, int]]:
    """Entries held and most held of each :class:`Memo` (for the bench's memory report):
    ``memos()["look_moves"]``."""
    return {name: (len(memo.table), memo.held) for name, memo in MEMOS.items()}


def forget_memos() -> None:
    """Empty every :class:`Memo` (the bench measures what they hold from empty):
    ``forget_memos()``."""
    for memo in MEMOS.values():
        memo.table.clear()


_OPTIONS: Memo[tuple[Option, ...]] = Memo("options", 1 << 13)  # ~4.5 MB full


def options(runs_id: int, must: int, avail: int, jokers: int, next1: int, next2: int,
            canonical: bool, late: bool) -> tuple[Option, ...]:
    """:func:`colour_options` of the open runs ``RUNS[runs_id]``, kept by one integer key:
    ``options(run_id((2,)), 1, 1, 0, 1, 0, True, False)``."""
    key = (((((((runs_id << 4 | must) << 4 | avail) << 4 | jokers) << 4 | next1 + 1) << 4
             | next2 + 1) << 1 | canonical) << 1 | late)
    found = _OPTIONS.table.get(key)
    if found is None:
        found = _OPTIONS.keep(key, colour_options(RUNS[runs_id], must, avail, jokers, next1,
                                                  next2, canonical, late))
    return found


_WAYS: Memo[tuple[tuple[int, int], ...]] = Memo("group_ways", 1 << 10)


def group_ways(tiles: int, most: int, jokers: int, canonical: bool
               ) -> tuple[tuple[int, int], ...]:
    """(groups, jokers used) that can hold ``tiles`` number tiles, at most ``most`` of one
    colour, with at most ``jokers`` jokers: each group 3-4 places, two number tiles at least.
    ``canonical``: a joker only completes two number tiles to three. Three groups of one
    number need jokers (eight tiles and one make 3 + 3 + 3)."""
    key = ((tiles << 4 | most) << 4 | jokers) << 1 | canonical
    found = _WAYS.table.get(key)
    if found is None:
        found = _WAYS.keep(key, _group_ways(tiles, most, jokers, canonical))
    return found


def _group_ways(tiles: int, most: int, jokers: int, canonical: bool
                ) -> tuple[tuple[int, int], ...]:
    ways = []
    for groups in range(0, 4):
        if groups < most or tiles < 2 * groups or (groups == 0 and tiles):
            continue
        for joker in range(jokers + 1):
            if not 3 * groups <= tiles + joker <= 4 * groups:
                continue
            if canonical and joker and not (2 * joker + 3 * (groups - joker) <= tiles
                                            <= 2 * joker + 4 * (groups - joker)):
                continue
            ways.append((groups, joker))
    return tuple(ways)


@dataclass(frozen=True)
class JokerSet:
    """A table set holding a joker (RUM-6 as ``engine.py`` defines it), packed as one set
    that keeps its number tiles together: a run of ``colour`` through every index of
    ``places`` (0-12, see :func:`index_of`), or a group at index ``number`` holding every
    colour of ``places``.
    ``joker_places`` are where its jokers stood in a run (a freed joker needs the tile of its
    place, played from the rack, in the set).

    Kind ``"new"`` is no set of the table but the place of a freed joker (RUM-6): a set the
    search may make anywhere, a run of any colour or a group of any number, holding a joker
    and no whole joker-free set of the table: ``old_runs`` per colour (first and last index
    of each), ``old_groups`` per index (the colours of each, as bits); see :func:`new_set`."""

    kind: str
    colour: int
    number: int
    places: frozenset[int]
    jokers: int
    joker_places: tuple[int, ...] = ()
    old_runs: tuple[tuple[tuple[int, int], ...], ...] = ()
    old_groups: tuple[tuple[int, ...], ...] = ()

    def mirrored(self) -> JokerSet:
        """The same set with its indices counted the other way round (see :func:`mirrored`):
        ``JokerSet("group", 0, 0, frozenset({1, 2}), 1).mirrored().number`` is 12."""
        last = TOP - 1
        group = self.kind == "group"  # its places are colours
        return JokerSet(
            self.kind, self.colour, last - self.number if group else 0,
            self.places if group else frozenset(last - index for index in self.places),
            self.jokers,
            tuple(last - index for index in self.joker_places),
            tuple(tuple((last - high, last - low) for low, high in runs)
                  for runs in self.old_runs),
            tuple(reversed(self.old_groups)))

    @property
    def low(self) -> int:
        return min(self.places)

    @property
    def high(self) -> int:
        return max(self.places)


# Where a joker set stands in the search. A run: (phase 0 not begun / 1 open / 2 closed,
# length capped at 3, jokers in it, bit mask of its old joker places now holding a rack
# tile). A group: (done, number tiles in it, of them rack tiles of colours it lacked,
# jokers in it, exchange satisfied). A new set: (phase 0 not begun / 1 open / 2 closed,
# run length capped at 3 or group tiles, jokers in it, a run's index of the first number
# tile after its last joker plus one (0: none) or a group's colours as bits, shape: 0 not
# begun, 1 + colour for a run, ``NEW_GROUP``).
Special = tuple[int, int, int, int, int]
NEW_GROUP = 1 + len(COLOURS)
# What a colour step gave each joker set: (which set, "real" or "joker")
Adds = tuple[tuple[int, str], ...]


Chosen = Option | tuple[int, int, int]  # a colour's choice, or the groups made
Made = Chosen | tuple[Option, Adds]  # with what the joker sets took, when there are some
Step = tuple[int, int, Chosen, Adds, tuple[Special, ...]]


def build_sets(path: list[Step], specials: tuple[JokerSet, ...], numbers: tuple[int, ...]
               ) -> list[tuple[str, ...]]:
    """Replay the choices of a best packing into its sets, ``numbers`` naming the numbers
    at the path's indices (``DOWN`` or ``UP``); the joker sets' come first."""
    found: list[tuple[str, ...]] = []
    own: list[list[str]] = [[] for _ in specials]
    open_runs: list[list[list[str]]] = [[] for _ in COLOURS]
    to_group: list[list[str]] = []
    closed: set[int] = set()  # new groups given their jokers
    for index, colour, made, adds, after in path:
        if len(made) == 3:
            groups, joker, _ = made
            for k, joker_set in enumerate(specials):
                if joker_set.kind == "group" and joker_set.number == index:
                    own[k].extend([JOKER] * after[k][3])
                elif joker_set.kind == "new" and after[k][4] == NEW_GROUP and k not in closed:
                    own[k].extend([JOKER] * after[k][2])
                    closed.add(k)
            found.extend(_groups(to_group, groups, joker))
            to_group = []
            continue
        _, grouped, joker, real, go_on, new = made
        tile = f"{COLOURS[colour]}{numbers[index]}"
        for k, kind in adds:
            own[k].append(tile if kind == "real" else JOKER)
        current = open_runs[colour]
        if current or new:
            short = [run for run in current if len(run) < 3]
            full = [run for run in current if len(run) >= 3]
            found.extend(_written(run, numbers) for run in full[go_on:])
            going = short + full[:go_on] + [[] for _ in range(new)]
            items = [tile] * (real - grouped) + [JOKER] * joker
            for run, item in zip(going, items, strict=True):
                run.append(item)
            open_runs[colour] = going
        if grouped:
            to_group.append([tile] * grouped)
    for colour_runs in open_runs:
        found.extend(_written(run, numbers) for run in colour_runs)
    # runs were made in the search's order, written from their lowest number; a new set
    # never begun is no set
    return [_written(tiles, numbers) if _is_run(joker_set, tiles) else tuple(tiles)
            for tiles, joker_set in zip(own, specials, strict=True)
            if tiles or joker_set.kind != "new"] + found


def _written(run: list[str], numbers: tuple[int, ...]) -> tuple[str, ...]:
    """A run made in the search's order, from its lowest number (a search going down made
    it from its highest)."""
    return tuple(reversed(run)) if numbers[0] > numbers[-1] else tuple(run)


def _is_run(joker_set: JokerSet, tiles: list[str]) -> bool:
    if joker_set.kind != "new":
        return joker_set.kind == "run"
    return len({tile[0] for tile in tiles if tile != JOKER}) == 1  # a new group has two


# The layered search packs its state into one integer: per colour the open runs (an index
# into ``RUNS``), then the tiles given to groups at this number, how many colours gave two,
# the jokers used and the initial meld's value so far.
RUN_BITS = 6
GROUPED = 4 * RUN_BITS
TWOS = GROUPED + 5
USED = TWOS + 3
MELD = USED + 3
GROUP_MASK = (1 << (MELD - GROUPED)) - 1
RUNS: list[tuple[int, ...]] = [()]
_RUN_ID: dict[tuple[int, ...], int] = {(): 0}


def run_id(runs: tuple[int, ...]) -> int:
    found = _RUN_ID.get(runs)
    if found is None:
        found = _RUN_ID[runs] = len(RUNS)
        RUNS.append(runs)
        assert found < 1 << RUN_BITS
    return found


# Every open-runs tuple a search makes (lengths 1, 2 and 3 or more; at most four runs, a
# colour's two copies and two jokers) has its id from the start, in this order: equal
# states wait in the order of their ids, so ids given as tuples first appeared would make a
# move's tie-break depend on what the process solved before (a resumed game playing another
# move than the same game played on)
for _count in range(5):
    for _runs in combinations_with_replacement((1, 2, 3), _count):
        run_id(_runs)


BaseMove = tuple[int, int, int, int, Option]
_BASE: Memo[tuple[BaseMove, ...]] = Memo("base_moves", 1 << 13)  # ~4 MB full


def _base_moves(runs_id: int, used: int, must: int, avail: int, next1: int, next2: int,
                jokers: int, canonical: bool, late: bool) -> tuple[BaseMove, ...]:
    """(open runs after, tiles given to groups, tiles played, tiles in runs, choice) for each
    way one colour uses its tiles of one number (see :func:`colour_options`)."""
    key = ((((((((runs_id << 4 | used) << 4 | must) << 4 | avail) << 4 | next1 + 1) << 4
              | next2 + 1) << 4 | jokers) << 1 | canonical) << 1 | late)
    found = _BASE.table.get(key)
    if found is None:
        found = _BASE.keep(key, _made_base_moves(runs_id, used, must, avail, next1, next2,
                                                 jokers, canonical, late))
    return found


def _made_base_moves(runs_id: int, used: int, must: int, avail: int, next1: int, next2: int,
                     jokers: int, canonical: bool, late: bool) -> tuple[BaseMove, ...]:
    free = jokers - used
    moves = []
    for option in options(runs_id, must, avail, free, next1, next2, canonical, late):
        after_runs, grouped, joker, real, _, _ = option
        # runs of three that cannot all go on at the next number close now: one state
        short = sum(1 for length in after_runs if length < 3)
        room = max(0, next1 + free - joker - short)
        if len(after_runs) > short + room:
            after_runs = after_runs[:short + room]
        moves.append((run_id(after_runs), grouped, real - must, real - grouped + joker, option))
    return tuple(moves)


_ALIVE: Memo[bool] = Memo("groups_alive", 1 << 12)


def groups_alive(grouped: int, two: int, free: int, later: int, canonical: bool) -> bool:
    """Whether ``grouped`` tiles (``two``: a colour gave two) and up to ``later`` more from
    the colours still to come at this number can still make groups, with ``free`` jokers."""
    key = (((grouped << 4 | two) << 4 | free) << 4 | later) << 1 | canonical
    found = _ALIVE.table.get(key)
    if found is None:
        found = _ALIVE.keep(key, _groups_alive(grouped, two, free, later, canonical))
    return found


def _groups_alive(grouped: int, two: int, free: int, later: int, canonical: bool) -> bool:
    most = 2 if two else min(1, grouped)
    return any(group_ways(grouped + extra, most, free, canonical)
               for extra in range(later + 1))


LookMove = tuple[int, int, int, int, Option]
# ~14 MB full; at 1 << 13 a rack-joker hint missed twice as often
_LOOK: Memo[tuple[LookMove, ...]] = Memo("look_moves", 1 << 15)


def look_moves(look: int, must: int, avail: int, next1: int, next2: int, later: int,
               jokers: int, canonical: bool, late: bool) -> tuple[LookMove, ...]:
    """(added to the state but for the colour's place, tiles played, tiles in runs, choice)
    for each way one colour can use its tiles of one number, from the open runs, tiles
    grouped and jokers used in ``look``; ``later`` tiles of the colours still to come at
    this number may join the groups, and a move whose groups could no longer be made is
    left out. The runs part is a difference of run indices, shifted by the caller."""
    key = ((((((((look << 4 | must) << 4 | avail) << 4 | next1 + 1) << 4 | next2 + 1) << 4
              | later) << 4 | jokers) << 1 | canonical) << 1 | late)
    found = _LOOK.table.get(key)
    if found is None:
        found = _LOOK.keep(key, _made_look_moves(look, must, avail, next1, next2, later,
                                                 jokers, canonical, late))
    return found


def _made_look_moves(look: int, must: int, avail: int, next1: int, next2: int, later: int,
                     jokers: int, canonical: bool, late: bool) -> tuple[LookMove, ...]:
    runs_id = look & 63
    grouped_before = look >> 6 & 31
    twos = look >> (6 + TWOS - GROUPED) & 7
    used = look >> (6 + USED - GROUPED) & 7
    moves = []
    for after_id, grouped, played, in_runs, option in _base_moves(
            runs_id, used, must, avail, next1, next2, jokers, canonical, late):
        joker = option[2]
        two = 1 if twos or grouped == 2 else 0
        if groups_alive(grouped_before + grouped, two, jokers - used - joker, later,
                        canonical):
            rest = (grouped << GROUPED) + ((two - twos) << TWOS) + (joker << USED)
            moves.append((after_id - runs_id, rest, played, in_runs, option))
    return tuple(moves)


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
