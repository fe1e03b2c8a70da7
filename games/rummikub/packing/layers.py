"""The layered search: every state of a step at once, each state one integer.

    search = Layers(table, rack, 0, 1, 0, 30, canonical=True)
    search.run(), search.sets()
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from operator import itemgetter

from games.rummikub.packing.moves import (
    GROUP_MASK,
    GROUPED,
    MELD,
    NEG,
    RUN_BITS,
    TOP,
    TWOS,
    USED,
    WEIGHT,
    Counts,
    Made,
    Step,
    build_sets,
    group_ways,
    step_moves,
)
from games.rummikub.tiles import COLOURS

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
        look = (key >> shift) & 63 | (key >> GROUPED & mask) << 6
        moves = cached(look)
        if moves is None:
            moves = table[look] = moves_of(look, *here)
        for delta, gain, worth, made in moves:
            value = score + gain
            if value < floor:
                continue
            after = key + delta
            if threshold:
                meld = after >> MELD
                after += (min(threshold, meld + worth) - meld) << MELD
            if value > best(after, neg):
                new[after] = value
                if trace:
                    back[after] = (key, made)
    return new, back


class Layers:
    """The search of :class:`Search` for a table without joker sets, taken number by number
    and colour by colour over all states at once, keeping the best score of each state.

    A state is one integer (see ``RUN_BITS``) and each choice adds a fixed amount to it, so
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
        self.look_mask = GROUP_MASK  # the state's bits a step's moves depend on
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
    _moves: Callable[..., Sequence[tuple[int, int, int, Made]]] = staticmethod(step_moves)

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
                shift = colour * RUN_BITS
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
            look = key >> GROUPED & mask
            moves = grouping.get(look)
            if moves is None:
                moves = grouping[look] = self._group_moves(look, number)
            for delta, worth, made in moves:
                after = key + delta
                if threshold:
                    meld = after >> MELD
                    after += (min(threshold, meld + worth) - meld) << MELD
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
            used = key >> USED & 7
            if key >> MELD < self.threshold:
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
        twos = look >> (TWOS - GROUPED) & 7
        used = look >> (USED - GROUPED) & 7
        most = 2 if twos else min(1, grouped)
        clear = -(grouped << GROUPED) - (twos << TWOS)
        return [(clear + (joker << USED), (grouped + joker) * number, (groups, joker, 0))
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
