"""The most each colour can still add: an upper bound the layered searches prune with.

Each colour is packed alone, its runs as the searches make them, while its tiles may go to
groups whenever other colours (or jokers) have enough tiles of their number: two for one
group, four for two groups, one per colour and group. A joker set's number tiles stay in its
run (no group may take them) or in its group. Every colour may use all the jokers still free
(with joker sets: in its runs, those it may hold; in its groups, those of the number, and
neither more than are still to be placed unless its runs' share is the lesser, ``LOOSE``).
Whatever the whole search can still do from a state, each colour does at least as well
here, so the sum over the colours bounds the rest of the search; ``NEG`` says that a
colour's open runs cannot be closed at all. The rests are kept across bounds, keyed by
what they read (a colour's tiles from a number on): the fewest-changes tests search tiles
that differ in a set or two, and most of their rests are found already.

    bound = ColourBound(table, avail, jokers=1, canonical=True)
    bound.rest(colour=0, index=4, runs=RUNS.index((2,)), free=1)   # black from number 5
"""

from __future__ import annotations

from games.rummikub.packing.moves import (
    DOWN,
    NEG,
    RUNS,
    TOP,
    WEIGHT,
    Counts,
    Memo,
    options,
    run_id,
)
from games.rummikub.tiles import COLOURS

_NONE = NEG - 1  # not computed yet
# added to the free jokers of a colour whose runs may hold fewer jokers than are still to be
# placed: its groups may then hold more than its runs' share (those of their number)
LOOSE = 8
# Shared by every bound: a colour's tiles from a number on (with what its groups may use) get
# one id, so a search of nearly the same tiles (the fewest-changes tests) reuses the rests.
_SIGNS: dict[tuple[int, ...], int] = {}
_RESTS: dict[int, int] = {}
_HELD = 100_000  # rests kept at most: about 10 MB
_FRESH = [1]  # the next id: never given twice, so a bound made before a clearing stays right


class ColourBound:
    """Per colour, index, open runs (an index into ``RUNS``) and jokers still free, the most
    the colour can still add to the score from that number on, in the relaxation above."""

    def __init__(self, table: Counts, avail: Counts, jokers: int, canonical: bool,
                 allowed: tuple[int, ...] | None = None,
                 grouping: tuple[int, ...] | None = None,
                 in_runs: Counts | None = None, in_groups: Counts | None = None,
                 numbers: tuple[int, ...] = DOWN) -> None:
        self.table = table
        self.numbers = numbers  # the number at each index (see moves.UP)
        self.avail = avail
        self.jokers = jokers
        self.canonical = canonical
        # the jokers each colour's runs may take (all of them unless told), and per number
        # the jokers a group there may hold (the colour's free ones unless told)
        self.allowed = allowed or (jokers,) * len(COLOURS)
        self.grouping = grouping
        # tiles that only a run (a joker set's run), or only a group, may hold
        nothing = tuple((0,) * TOP for _ in COLOURS)
        self.in_runs = in_runs or nothing
        self.in_groups = in_groups or nothing
        # per colour and number, for one group and for two (one each for the colour's two
        # tiles), how many tiles of the other colours they may hold: one of each in a group
        partners: list[list[tuple[int, int]]] = [[] for _ in COLOURS]
        for index in range(TOP):
            free = [row[index] - held[index] for row, held in zip(avail, self.in_runs,
                                                                  strict=True)]
            one = sum(min(1, tiles) for tiles in free)
            two = sum(min(2, tiles) for tiles in free)
            for colour, tiles in enumerate(free):
                partners[colour].append((one - min(1, tiles), two - min(2, tiles)))
        self.partners = tuple(tuple(row) for row in partners)
        self.rows = tuple((*row, -1, -1) for row in avail)
        if len(_RESTS) > _HELD or len(_SIGNS) > _HELD:
            _RESTS.clear()
            _SIGNS.clear()
        self.signs = tuple(self._signs(colour) for colour in range(len(COLOURS)))
        self.every: dict[int, tuple[int, ...]] = {}

    def _signs(self, colour: int) -> tuple[int, ...]:
        """Per index, the id of everything :meth:`rest` reads of ``colour`` from there."""
        signs = [0] * (TOP + 1)
        # the direction in the base: a rest counts the points of the numbers it reads
        signs[TOP] = _sign((-1, int(self.canonical), self.numbers[0]))
        for index in range(TOP - 1, -1, -1):
            signs[index] = _sign((
                self.table[colour][index], self.avail[colour][index],
                *self.partners[colour][index], self.in_runs[colour][index],
                self.in_groups[colour][index],
                -1 if self.grouping is None else self.grouping[index], signs[index + 1]))
        return tuple(signs)

    def start(self) -> int:
        """The bound of the whole search (every colour from number 1, no run open)."""
        total = 0
        for colour in range(len(COLOURS)):
            rest = self.rest(colour, 0, 0, self.free(colour, self.jokers))
            if rest == NEG:
                return NEG
            total += rest
        return total

    def free(self, colour: int, left: int) -> int:
        """The free jokers :meth:`rest` takes for ``colour`` when ``left`` jokers are still
        to be placed: ``free(0, 2)``."""
        most = self.allowed[colour]
        return left if left <= most else most | LOOSE

    def rests(self, colour: int, index: int, runs: int) -> tuple[int, ...]:
        """:meth:`rest` for every number of jokers still to be placed, from none."""
        place = (colour * (TOP + 1) + index) << 6 | runs
        found = self.every.get(place)
        if found is None:
            found = self.every[place] = tuple(self.rest(colour, index, runs,
                                                        self.free(colour, left))
                                              for left in range(self.jokers + 1))
        return found

    def rest(self, colour: int, index: int, runs: int, free: int) -> int:
        """The most ``colour`` adds from ``index`` on with the open runs ``RUNS[runs]`` and
        ``free`` jokers (plus ``LOOSE``: see :meth:`free`)."""
        place = (self.signs[colour][index] << 6 | runs) << 4 | free
        found = _RESTS.get(place, _NONE)
        if found != _NONE:
            return found
        if index == TOP:
            found = 0 if all(length >= 3 for length in RUNS[runs]) else NEG
        else:
            found = NEG
            must = self.table[colour][index]
            row = self.rows[colour]
            weight = WEIGHT + self.numbers[index]
            # a group holds two tiles besides the colour's, of other colours or jokers
            partners = self.partners[colour][index]
            loose, free = free & LOOSE, free & ~LOOSE
            spare = free if self.grouping is None else (
                self.grouping[index] if loose else min(self.grouping[index], free))
            most = row[index] - self.in_runs[colour][index]
            if partners[1] + spare < 4:
                most = min(most, 1)
            if partners[0] + spare < 2:
                most = 0
            least = self.in_groups[colour][index]
            for after, grouped, joker, used in _options(
                    runs, must, row[index], free, row[index + 1], row[index + 2],
                    self.canonical, index >= TOP - 3):
                if not least <= grouped <= most:
                    continue
                more = self.rest(colour, index + 1, after, free - joker | loose)
                if more != NEG and (used - must) * weight + more > found:
                    found = (used - must) * weight + more
        _RESTS[place] = found
        return found


# What rest reads of each way of colour_options (the open runs after as an id, tiles
# grouped, jokers, tiles used), kept by the key of moves.options
_OPTIONS: Memo[tuple[tuple[int, int, int, int], ...]] = Memo("bound_options", 1 << 13)


def _options(runs: int, must: int, avail: int, free: int, next1: int, next2: int,
             canonical: bool, late: bool) -> tuple[tuple[int, int, int, int], ...]:
    key = (((((((runs << 4 | must) << 4 | avail) << 4 | free) << 4 | next1 + 1) << 4
             | next2 + 1) << 1 | canonical) << 1 | late)
    found = _OPTIONS.table.get(key)
    if found is None:
        found = _OPTIONS.keep(key, tuple(
            (run_id(after), grouped, joker, used) for after, grouped, joker, used, _, _ in
            options(runs, must, avail, free, next1, next2, canonical, late)))
    return found


def forget() -> None:
    """Empty the rests the bounds share: the next bounds compute theirs afresh (for the
    bench's memory figures, and for tests that change how rests are computed).

        forget()
    """
    _RESTS.clear()
    _SIGNS.clear()


Held = tuple[dict[tuple[int, ...], int], dict[int, int]]


def held() -> Held:
    """A copy of the rests the bounds share, for :func:`restore` (the bench times each run of
    a position as its first call, from what the positions before it left):

        saved = held()
    """
    return dict(_SIGNS), dict(_RESTS)


def restore(saved: Held) -> None:
    """Put back the rests of :func:`held` (the ids given since are not given again):
    ``restore(saved)``."""
    signs, rests = saved
    _SIGNS.clear()
    _SIGNS.update(signs)
    _RESTS.clear()
    _RESTS.update(rests)


def _sign(key: tuple[int, ...]) -> int:
    """The id of ``key``, a new one the first time: ``_sign((-1, 1))``."""
    found = _SIGNS.get(key)
    if found is None:
        found = _SIGNS[key] = _FRESH[0]
        _FRESH[0] += 1
    return found
