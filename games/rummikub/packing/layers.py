"""The layered search: the states of the search step by step (a number's colours, then its
groups), each state one integer, taken best first.

    search = Layers(table, rack, 0, 1, 0, 30, canonical=True)
    search.run(), search.sets()
"""

from __future__ import annotations

import heapq

from games.rummikub.packing.bound import ColourBound
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

# A move: added to the state, value gained, meld value, choice, jokers it takes.
Move = tuple[int, int, int, Made, int]
# A group move: added to the state, meld value, choice, jokers it takes.
GroupMove = tuple[int, int, Made, int]
# Where a state came from: the state before and the choice (None: nothing happened).
Back = tuple[int, Made | None]
_STEP_BITS = 7  # a step fits in 7 bits (13 numbers of 5 steps, and the end)


class Layers:
    """The search of :class:`Search` for a table without joker sets, state by state in the
    order of their value: the score so far plus the most the rest could add (a
    :class:`~bound.ColourBound`), which no move raises. The first finished state taken is
    therefore the best, and only states that could beat it are ever taken: a bound of the
    rest prunes every configuration that cannot win, however many jokers multiply them.

    A state is one integer (see ``RUN_BITS``) and each choice adds a fixed amount to it; the
    moves of a step are found once per part of the state they depend on (``look``). Back
    pointers give the sets of the best packing. States valued no more than ``floor`` are
    left out."""

    ranked = False  # whether packings of the table alone are told apart

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
        # per step: where each state reached came from
        self.backs: list[dict[int, Back]] = []
        self.end = 0
        self.look_mask = GROUP_MASK  # the state's bits a step's moves depend on
        self.floor = NEG
        # without a rack every packing scores the same: no bound is needed (see run)
        self.scoring = bool(self.ranked or rack_jokers or any(any(row) for row in rack))
        self.bound = self._colour_bound()
        if self.scoring or threshold:
            # every rack joker is counted as played until the end says otherwise
            start = self.bound.start()
            self.most = NEG if start == NEG else start + rack_jokers * (WEIGHT + joker_points)
        self.taken = 0  # states taken, for the bench

    def _colour_bound(self) -> ColourBound:
        return ColourBound(self.table, self.avail, self.jokers, self.canonical)

    def _moves(self, look: int, colour: int, index: int, must: int, avail: int, next1: int,
               next2: int, later: int, jokers: int, canonical: bool) -> list[Move]:
        """Each way the colour can use its tiles of this number from the state ``look``: a
        move gains its score and the change of the colour's bound (the other colours' comes
        from :meth:`_rebound` when it takes jokers), and none leaves runs that cannot
        close."""
        rest = self.bound.rest
        free = jokers - (look >> (6 + USED - GROUPED) & 7)
        before = rest(colour, index, look & 63, free)
        moves: list[Move] = []
        for delta, gain, worth, option, after in step_moves(
                look, colour, index, must, avail, next1, next2, later, jokers, canonical):
            joker = option[2]
            more = rest(colour, index + 1, after, free - joker)
            if more != NEG:
                moves.append((delta, gain + more - before, worth, option, joker))
        return moves

    def _rebound(self, key: int, colour: int, index: int) -> list[int]:
        """For each number of jokers a move of ``colour`` (4: the groups) at ``index`` may
        take from the state ``key``, how the other colours' bounds change (``NEG``: one
        could no longer close its runs)."""
        rests = self.bound.rests
        free = self.jokers - (key >> USED & 7)
        changes = [0] * (free + 1)
        for other in range(len(COLOURS)):
            if other == colour:
                continue
            every = rests(other, index + 1 if other < colour else index,
                          key >> other * RUN_BITS & 63)
            now = every[free]
            for spent in range(1, free + 1):
                later = every[free - spent]
                if later == NEG:
                    changes[spent] = NEG
                elif changes[spent] != NEG:
                    changes[spent] += later - now
        return changes

    def run(self) -> int:
        """The best score, or ``NEG`` when the table tiles cannot all be placed (or
        nothing beats ``floor``). Without a rack, the first packing found is the best."""
        if not self.scoring and not self.threshold:
            return self.first()
        if self.most == NEG or self.most <= self.floor:
            return NEG
        steps = self._steps()
        last = len(steps)
        trace = self.trace or bool(self.threshold)
        threshold, floor, mask = self.threshold, self.floor, self.look_mask
        jokers, canonical = self.jokers, self.canonical
        best: list[dict[int, int]] = [{} for _ in range(last + 2)]
        backs: list[dict[int, Back]] = [{} for _ in range(last)]
        tables: list[dict[int, list[Move]]] = [{} for _ in range(last)]
        groupings: dict[int, list[GroupMove]] = {}
        push, pop = heapq.heappush, heapq.heappop
        neg = NEG
        best[0][0] = self.most
        heap = [(-(self.most << _STEP_BITS), 0)]
        while heap:
            priority, key = pop(heap)
            value, step = -priority >> _STEP_BITS, -priority & ((1 << _STEP_BITS) - 1)
            if step > last:
                self.end, self.backs = key, backs
                return value
            if best[step][key] != value:
                continue  # a better way to this state was found since
            self.taken += 1
            # steps where nothing can happen to this state keep it as it is
            while step < last and steps[step][4] and not key >> steps[step][3] & 63:
                value += steps[step][5]
                if best[step + 1].get(key, neg) >= value:
                    step = -1  # reached as well another way
                    break
                if trace:
                    backs[step][key] = (key, None)
                best[step + 1][key] = value
                step += 1
            if step < 0:
                continue
            if step == last:
                end = self._end(key, value)
                if end > floor and end > best[last + 1].get(key, neg):
                    best[last + 1][key] = end
                    push(heap, (-(end << _STEP_BITS | last + 1), key))
                continue
            colour, index, (must, avail, next1, next2, later), shift, _, _ = steps[step]
            after_best, back, follow = best[step + 1], backs[step], step + 1
            changes = None
            moves: list[Move] | list[GroupMove]
            if colour < len(COLOURS):
                look = (key >> shift) & 63 | (key >> GROUPED & mask) << 6
                table = tables[step]
                found = table.get(look)
                if found is None:
                    found = table[look] = self._moves(look, colour, index, must, avail, next1,
                                                      next2, later, jokers, canonical)
                moves = found
            else:
                look = key >> GROUPED & mask
                place = look << 4 | index
                grouped = groupings.get(place)
                if grouped is None:
                    grouped = groupings[place] = self._group_moves(look, index + 1)
                moves = [(delta, 0, worth, made, spent)
                         for delta, worth, made, spent in grouped]
            for delta, gain, worth, made, spent in moves:
                reached = value + gain
                if spent:
                    if changes is None:
                        changes = self._rebound(key, colour, index)
                    change = changes[spent]
                    if change == neg:
                        continue
                    reached += change
                if reached <= floor:
                    continue
                after = key + delta
                if threshold:
                    meld = after >> MELD
                    after += (min(threshold, meld + worth) - meld) << MELD
                if reached > after_best.get(after, neg):
                    after_best[after] = reached
                    if trace:
                        back[after] = (key, made)
                    push(heap, (-(reached << _STEP_BITS | follow), after))
        return NEG

    def first(self) -> int:
        """Depth first, the first packing found, whatever its score: 0, or ``NEG`` when
        there is none. States from which none was found are not tried twice."""
        if self.floor >= 0 or self.bound.start() == NEG:
            return NEG
        steps = self._steps()
        rest = self.bound.rest
        last = len(steps)
        mask, jokers, canonical = self.look_mask, self.jokers, self.canonical
        backs: list[dict[int, Back]] = [{} for _ in range(last)]
        failed: set[int] = set()
        groupings: dict[int, list[GroupMove]] = {}

        def found(step: int, key: int) -> bool:
            while step < last and steps[step][4] and not key >> steps[step][3] & 63:
                backs[step][key] = (key, None)
                step += 1
            if step == last:
                if self._end(key, 0) == NEG:
                    return False
                self.end = key
                return True
            place = key << _STEP_BITS | step
            if place in failed:
                return False
            colour, index, (must, avail, next1, next2, later), shift, _, _ = steps[step]
            choices: list[tuple[int, Made]]
            if colour < len(COLOURS):
                look = (key >> shift) & 63 | (key >> GROUPED & mask) << 6
                free = jokers - (key >> USED & 7)
                # no move that leaves the colour runs it cannot close
                choices = [(delta, option) for delta, _, _, option, after in step_moves(
                    look, colour, index, must, avail, next1, next2, later, jokers, canonical)
                    if rest(colour, index + 1, after, free - option[2]) != NEG]
            else:
                look = key >> GROUPED & mask
                grouped = groupings.get(look << 4 | index)
                if grouped is None:
                    grouped = groupings[look << 4 | index] = self._group_moves(look, index + 1)
                choices = [(delta, made) for delta, _, made, _ in grouped]
            for delta, made in choices:
                if found(step + 1, key + delta):
                    backs[step][key + delta] = (key, made)
                    return True
            failed.add(place)
            return False

        if not found(0, 0):
            return NEG
        self.backs = backs
        return 0

    def _steps(self) -> list[tuple[int, int, tuple[int, int, int, int, int], int, bool, int]]:
        """Per step: the colour (4: the groups), the number index, the colour's tiles (table,
        all, at the next two numbers, and the later colours' at this number), the shift of
        the colour's runs in a state, whether nothing can happen to a state without open
        runs of that colour (no tile, no joker), and what the bound says then."""
        rows = [(*row, -1, -1) for row in self.avail]
        jokers, rest = self.jokers, self.bound.rest
        steps: list[tuple[int, int, tuple[int, int, int, int, int], int, bool, int]] = []
        for index in range(TOP):
            at = [row[index] for row in rows]
            later = sum(at)
            for colour, row in enumerate(rows):
                later -= at[colour]
                tiles = (self.table[colour][index], at[colour], row[index + 1],
                         row[index + 2], later)
                idle = not at[colour] and not jokers
                change = 0
                if idle and (self.scoring or self.threshold):
                    change = rest(colour, index + 1, 0, 0) - rest(colour, index, 0, 0)
                steps.append((colour, index, tiles, colour * RUN_BITS, idle, change))
            # no group can be made of fewer than three tiles and no joker: nothing given
            steps.append((len(COLOURS), index, (0, 0, 0, 0, 0), 0, not jokers and sum(at) < 3,
                          0))
        return steps

    def _end(self, key: int, value: int) -> int:
        """The value of a state past 13, or ``NEG`` when it does not finish a packing."""
        used = key >> USED & 7
        if key >> MELD < self.threshold:
            return NEG
        if self.canonical:
            # every rack joker goes down: the spare ones join sets with room
            return value if used <= self.jokers - self.must_jokers else NEG
        if used < self.must_jokers:
            return NEG
        return value - (self.jokers - used) * (WEIGHT + self.joker_points)

    def _group_moves(self, look: int, number: int) -> list[tuple[int, int, Made, int]]:
        """(added to the state, meld value, choice, jokers taken) for each way to group the
        tiles given to groups at this number, from the counts and jokers used in ``look``."""
        grouped = look & 31
        twos = look >> (TWOS - GROUPED) & 7
        used = look >> (USED - GROUPED) & 7
        most = 2 if twos else min(1, grouped)
        clear = -(grouped << GROUPED) - (twos << TWOS)
        return [(clear + (joker << USED), (grouped + joker) * number, (groups, joker, 0), joker)
                for groups, joker in group_ways(grouped, most, self.jokers - used,
                                                self.canonical)]

    def sets(self) -> list[tuple[str, ...]]:
        """The sets of the best packing found by :meth:`run`."""
        path: list[Step] = [(index, colour, made, (), ())  # type: ignore[misc]
                            for index, colour, made, _ in self._choices()]
        return build_sets(path, ())

    def _choices(self) -> list[tuple[int, int, Made, int]]:
        """Number index, colour (4: the groups), choice and state after it, for each step of
        the best packing found by :meth:`run` where something happened, in order."""
        key = self.end
        choices = []
        for step in range(len(self.backs) - 1, -1, -1):
            before, made = self.backs[step][key]
            if made is not None:
                index, colour = divmod(step, len(COLOURS) + 1)
                choices.append((index, colour, made, key))
            key = before
        choices.reverse()
        return choices
