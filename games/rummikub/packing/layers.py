"""The layered search: the states of the search step by step (a number's colours, then its
groups), each state one integer, taken best first.

    search = Layers(table, rack, 0, 1, 0, 30, canonical=True)
    search.run(), search.sets()
"""

from __future__ import annotations

import heapq
from collections.abc import Generator
from typing import overload

from mypy_extensions import mypyc_attr

from games.rummikub.packing.bound import ColourBound
from games.rummikub.packing.moves import (
    DOWN,
    GROUP_MASK,
    GROUPED,
    MELD,
    NEG,
    RUN_BITS,
    TOP,
    TWOS,
    UP,
    USED,
    WEIGHT,
    Counts,
    Made,
    Memo,
    Step,
    build_sets,
    group_ways,
    look_moves,
    mirrored,
)
from games.rummikub.tiles import COLOURS

# A move: added to the state, value gained, meld value, choice, jokers it takes.
Move = tuple[int, int, int, Made, int]
# Where a state came from: the state before and the choice (None: nothing happened).
Back = tuple[int, Made | None]
# One step of a search (see Layers._steps): the colour (4: the groups), the number index,
# the colour's tiles there, the shift of its runs in a state, whether it is idle for a state
# without open runs of that colour, and what the bound says then.
Plan = tuple[int, int, tuple[int, int, int, int, int], int, bool, int]
# A state waiting in the heap: its key in the low bits, above them its value counted down
# from the most, above that the step counted down from the last, above that the value
# capped (see Layers.cap) counted down from the most: the smallest waits least.
_KEY_BITS = 64
_KEYS = (1 << _KEY_BITS) - 1
_STEP_BITS = 7  # a step fits in 7 bits (13 numbers of 5 steps, and the end)
_STEP_MASK = (1 << _STEP_BITS) - 1
_LAST = _STEP_MASK
_MOST = 1 << 40  # above any value
_MOVE_BITS = 10  # a move's place in its list, in a back pointer
_NOTHING = (1 << _MOVE_BITS) - 1  # a step where nothing happened
_BACK_BITS = _KEY_BITS + _MOVE_BITS  # a back pointer below a state's value
_BACKS = (1 << _BACK_BITS) - 1


_VALUE_BITS = 41  # the value itself, below the value capped and the step
_VALUES = (1 << _VALUE_BITS) - 1
_ENDLESS = 1 << 62  # states a run without a number of them may take


def _waiting(value: int, step: int, key: int, cap: int) -> int:
    return ((((_MOST - min(value, cap)) << _STEP_BITS | (_LAST - step)) << _VALUE_BITS
             | (_MOST - value)) << _KEY_BITS | key)


# A colour's moves at a step of depth-first searches without a bound, keyed by all they
# depend on (see Layers._found): the fewest-changes questions meet the same steps again
_UNBOUNDED: Memo[list[tuple[int, Made]]] = Memo("unbounded_moves", 1 << 14)  # ~5 MB full


class OutOfStates(Exception):
    """A :class:`Budget` ran out before the search ended."""


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests record the budgets given
class Budget:
    """States that depth-first searches may still take between them; past them
    :meth:`Layers.first` raises :class:`OutOfStates`.

        budget = Budget(10_000)
    """

    def __init__(self, states: int) -> None:
        self.left = states


class DepthFirst:
    """What :meth:`Layers.first` learnt, for its next call: whether it read the bound, its
    steps, the back pointers of the packing found, the states that failed, and per step the
    moves from each part of a state they depend on."""

    def __init__(self, bounded: bool, steps: list[Plan]) -> None:
        self.bounded = bounded
        self.steps = steps
        self.backs: list[dict[int, Back]] = [{} for _ in steps]
        self.failed: set[int] = set()
        self.tables: list[dict[int, list[tuple[int, Made]]]] = [{} for _ in steps]
        self.budget: Budget | None = None  # of the call under way


class Layers:
    """The search of :class:`Search` for a table without joker sets, state by state in the
    order of their value: the score so far plus the most the rest could add (a
    :class:`~bound.ColourBound`), which no move raises. The first finished state taken is
    therefore the best, and only states that could beat it are ever taken: a bound of the
    rest prunes every configuration that cannot win, however many jokers multiply them.

    A state is one integer (see ``RUN_BITS``) and each choice adds a fixed amount to it; the
    moves of a step are found once per part of the state they depend on (``look``). Back
    pointers give the sets of the best packing.

    ``ascending`` takes the numbers from 1 up instead (the counts given are still indexed
    from 13 down): the same best score, found faster where the slack is in the low numbers;
    :func:`~best.pack` races the two."""

    ranked = False  # whether packings of the table alone are told apart
    quiet = True  # whether a step without tiles is idle although jokers are free (_steps)

    def __init__(self, table: Counts, rack: Counts, must_jokers: int, rack_jokers: int,
                 threshold: int, joker_points: int, canonical: bool, trace: bool = True,
                 ascending: bool = False) -> None:
        self.trace = trace
        # the number at each step index: a search going up sees the counts mirrored
        self.numbers = UP if ascending else DOWN
        if ascending:
            table, rack = mirrored(table), mirrored(rack)
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
        # without a rack every packing scores the same: no bound is needed (see run)
        self.scoring = bool(self.ranked or rack_jokers or any(any(row) for row in rack))
        self.most = NEG  # the bound of the whole search, once run
        self.taken = 0  # states taken, for the bench
        # a score no packing beats, known before the search (see pack): states whose value
        # is above it wait as if they had it, the latest step first, so the search goes
        # down to a packing of that score at once when there is one
        self.cap = _MOST
        self.drops: dict[int, list[int]] = {}  # see _rebound
        self.walk: Generator[None, int, int] | None = None  # the search under way (see run)
        self.score: int | None = None  # its result, once it ended
        self.heap: list[int] = []  # the states waiting while it runs (see frontier)
        self.depth_first: DepthFirst | None = None  # what first learnt, for its next call
        self._bound: ColourBound | None = None  # see bound

    @property
    def bound(self) -> ColourBound:
        """The bound of the rest that orders the best-first search, made on first use (not
        a cached_property: compiled by mypyc, that would make a new bound at every use)."""
        if self._bound is None:
            self._bound = self._colour_bound()
        return self._bound

    def _colour_bound(self) -> ColourBound:
        return ColourBound(self.table, self.avail, self.jokers, self.canonical,
                           numbers=self.numbers)

    def _moves(self, look: int, colour: int, index: int, must: int, avail: int, next1: int,
               next2: int, later: int, jokers: int, canonical: bool) -> list[Move]:
        """Each way the colour can use its tiles of this number from the state ``look``: a
        move gains its score and the change of the colour's bound (the other colours' comes
        from :meth:`_rebound` when it takes jokers), and none leaves runs that cannot
        close."""
        bound = self.bound  # its methods called on it directly: compiled, a native call
        free = jokers - (look >> (6 + USED - GROUPED) & 7)
        runs_id = look & 63
        before = bound.rest(colour, index, runs_id, free)
        shift, number = colour * RUN_BITS, self.numbers[index]
        weight = WEIGHT + number
        moves: list[Move] = []
        for runs, rest, played, in_runs, option in look_moves(
                look, must, avail, next1, next2, later, jokers, canonical, index >= TOP - 3):
            joker = option[2]
            more = bound.rest(colour, index + 1, runs_id + runs, free - joker)
            if more != NEG:
                moves.append(((runs << shift) + rest, played * weight + more - before,
                              in_runs * number, option, joker))
        return moves

    def _rebound(self, key: int, colour: int, index: int) -> list[int]:
        """For each number of jokers a move of ``colour`` (4: the groups) at ``index`` may
        take from the state ``key``, how the other colours' bounds change (``NEG``: one
        could no longer close its runs); each other colour's part found once (see
        :meth:`_drop`)."""
        free = self.jokers - (key >> USED & 7)
        changes: list[int] | None = None
        drops = self.drops
        for other in range(len(COLOURS)):
            if other == colour:
                continue
            at = index + 1 if other < colour else index
            runs = self._runs_of(key, other)
            place = ((runs << 2 | other) << 4 | at) << 3 | free
            part = drops.get(place)
            if part is None:
                part = drops[place] = self._drop(other, at, runs, free)
            if not part:
                continue  # the colour's bound reads no joker from here
            changes = part if changes is None else [
                NEG if NEG in (total, more) else total + more
                for total, more in zip(changes, part, strict=True)]
        return [0] * (free + 1) if changes is None else changes

    def _runs_of(self, key: int, colour: int) -> int:
        """The open runs of ``colour`` in the state ``key`` its bound reads."""
        return key >> colour * RUN_BITS & 63

    def _drop(self, colour: int, index: int, runs: int, free: int) -> list[int]:
        """Per number of jokers spent (none to ``free``), how the bound of ``colour`` from
        ``index`` with the open runs ``runs`` falls (``NEG``: it could no longer close
        them); empty when it does not fall at all."""
        every = self.bound.rests(colour, index, runs)
        now = every[free]
        if every[0] == now != NEG:
            return []  # the same bound without jokers: nothing changes
        return [NEG if every[free - spent] == NEG else every[free - spent] - now
                for spent in range(free + 1)]

    @overload
    def run(self) -> int: ...

    @overload
    def run(self, states: int) -> int | None: ...

    def run(self, states: int | None = None) -> int | None:
        """The best score, or ``NEG`` when the table tiles cannot all be placed. Without a
        rack, the first packing found is the best. Given ``states``, it stops once it took
        that many more (``None``: not ended yet) and goes on at the next call:
        ``search.run(2_000)``."""
        if self.score is not None:
            return self.score
        if self.walk is None:
            self.walk = self._walk()
            next(self.walk)  # to its first pause, before any state is taken
        try:
            self.walk.send(_ENDLESS if states is None else states)
        except StopIteration as ended:
            self.score = ended.value
            self.walk, self.heap = None, []  # its heap and tables go
            return self.score
        return None

    def drop(self) -> None:
        """Give up a search paused by :meth:`run`: its heap and tables go now (its paused
        walk refers to it, so they would wait for the garbage collector): ``search.drop()``."""
        if self.walk is not None:
            self.walk.close()
        self.walk, self.heap = None, []

    def frontier(self) -> int:
        """The most a packing may still score (capped, see ``cap``) where a search paused by
        :meth:`run` stands: the lower, the nearer its end (``race`` gives its next states to
        the nearer of two): ``search.frontier()``."""
        if not self.heap:
            return NEG
        return _MOST - (self.heap[0] >> _KEY_BITS + _VALUE_BITS + _STEP_BITS)

    def _walk(self) -> Generator[None, int, int]:
        """The search of :meth:`run`: it pauses before it starts, and then each time it took
        as many states as it was sent, to be sent how many more it may take."""
        if not self.scoring and not self.threshold:
            yield
            return self.first()
        stop = yield
        start = self.bound.start()
        if start == NEG:
            return NEG
        # every rack joker is counted as played until the end says otherwise
        self.most = start + (self.jokers - self.must_jokers) * (WEIGHT + self.joker_points)
        steps = self._steps(bounded=True)
        last = len(steps)
        trace = self.trace or bool(self.threshold)
        threshold, mask = self.threshold, self.look_mask
        jokers, canonical = self.jokers, self.canonical
        # per step, each state reached: its best value, and where it came from (the state
        # before and the move's place in its list) in the low bits
        best: list[dict[int, int]] = [{} for _ in range(last + 2)]
        tables: list[dict[int, list[Move]]] = [{} for _ in range(last)]
        # per step, the changes of the other colours' bounds (see _rebound), which read no
        # tile given to groups: many states share them
        rebounds: list[dict[int, list[int]]] = [{} for _ in range(last)]
        shared = ~(((1 << (USED - GROUPED)) - 1) << GROUPED)
        push, pop = heapq.heappush, heapq.heappop
        neg, top = NEG, last + 1
        best[0][0] = self.most << _BACK_BITS
        # a state waits in the heap as one integer: best value (capped) first, then latest
        # step, then best value
        cap, most = self.cap, _MOST
        heap = self.heap = [_waiting(self.most, 0, 0, cap)]
        taken = self.taken
        while heap:
            if taken == stop:  # the states it was given are taken: wait to be given more
                self.taken = taken
                stop += yield
            waiting = pop(heap)
            key = waiting & _KEYS
            rank = waiting >> _KEY_BITS
            step, value = _LAST - (rank >> _VALUE_BITS & _STEP_MASK), _MOST - (rank & _VALUES)
            if step == top:
                assert value <= cap, "a cap is a score no packing beats"
                self.end, self.backs = key, self._path(key, best, tables, steps)
                self.taken = taken
                return value
            if best[step][key] >> _BACK_BITS != value:
                continue  # a better way to this state was found since
            taken += 1
            # steps where nothing can happen to this state keep it as it is
            while step < last and steps[step][4] and not key >> steps[step][3] & 63:
                value += steps[step][5]
                if best[step + 1].get(key, neg) >> _BACK_BITS >= value:
                    step = -1  # reached as well another way
                    break
                best[step + 1][key] = (value << _BACK_BITS | key << _MOVE_BITS | _NOTHING
                                       if trace else value << _BACK_BITS)
                step += 1
            if step < 0:
                continue
            if step == last:
                end = self._end(key, value)
                if end > best[top].get(key, neg) >> _BACK_BITS:
                    best[top][key] = end << _BACK_BITS | key << _MOVE_BITS | _NOTHING
                    push(heap, _waiting(end, top, key, cap))
                continue
            colour, index, (must, avail, next1, next2, later), shift, _, _ = steps[step]
            after_best, follow = best[step + 1], step + 1
            table = tables[step]
            if colour < len(COLOURS):
                look = (key >> shift) & 63 | (key >> GROUPED & mask) << 6
                moves = table.get(look)
                if moves is None:
                    moves = table[look] = self._moves(look, colour, index, must, avail, next1,
                                                      next2, later, jokers, canonical)
            else:
                look = key >> GROUPED & mask
                moves = table.get(look)
                if moves is None:
                    moves = table[look] = self._group_moves(look, index)
            changes = None
            place = key << _MOVE_BITS if trace else 0
            rank_step = (_LAST - follow) << _VALUE_BITS  # the step's part of _waiting
            for delta, gain, worth, _, spent in moves:
                reached = value + gain
                if spent:
                    if changes is None:
                        changes = rebounds[step].get(key & shared)
                        if changes is None:
                            changes = rebounds[step][key & shared] = self._rebound(
                                key, colour, index)
                    change = changes[spent]
                    if change == neg:
                        place += 1
                        continue
                    reached += change
                after = key + delta
                if threshold:
                    meld = after >> MELD
                    after += (min(threshold, meld + worth) - meld) << MELD
                if reached > after_best.get(after, neg) >> _BACK_BITS:
                    after_best[after] = reached << _BACK_BITS | place
                    # _waiting(reached, follow, after, cap), written out: the hottest line
                    push(heap, ((((most - (reached if reached < cap else cap)) << _STEP_BITS)
                                 << _VALUE_BITS | rank_step | (most - reached)) << _KEY_BITS
                                | after))
                place += 1
        self.taken = taken
        return NEG

    def _path(self, key: int, best: list[dict[int, int]], tables: list[dict[int, list[Move]]],
              steps: list[Plan]) -> list[dict[int, Back]]:
        """The back pointers of the way to ``key`` alone, each with its choice."""
        path: list[dict[int, Back]] = [{} for _ in steps]
        if not (self.trace or self.threshold):
            return path  # the score alone was sought
        for step in range(len(steps) - 1, -1, -1):
            before, place = divmod(best[step + 1][key] & _BACKS, 1 << _MOVE_BITS)
            made: Made | None = None
            if place != _NOTHING:
                colour, shift = steps[step][0], steps[step][3]
                if colour < len(COLOURS):
                    look = (before >> shift) & 63 | (before >> GROUPED & self.look_mask) << 6
                else:
                    look = before >> GROUPED & self.look_mask
                made = tables[step][look][place][3]
            path[step][key] = (before, made)
            key = before
        return path

    def first(self, budget: Budget | None = None, bounded: bool = True) -> int:
        """Depth first, the first packing found, whatever its score: 0, or ``NEG`` when
        there is none. States from which none was found are not tried twice. Each state
        tried spends one of ``budget`` (:class:`OutOfStates` when none is left); called
        again, the search goes on from what it learnt (the states that failed are not tried
        again), so it may be given its states in slices (see :func:`~best.split`).
        ``bounded``: a move after which its colour alone could not place its tiles is left
        out (the bound's rests say so); without it only the moves' own look-ahead (a short
        run finds its next tiles) prunes, and no bound is built."""
        learnt = self.depth_first
        if learnt is None or learnt.bounded != bounded:
            learnt = self.depth_first = DepthFirst(bounded, self._steps(bounded=False))
        learnt.budget = budget
        if not self._found(learnt, 0, 0):
            return NEG
        self.backs = learnt.backs
        return 0

    def _found(self, learnt: DepthFirst, step: int, key: int) -> bool:
        """Whether :meth:`first` finds a packing from ``key`` at ``step`` (a method, not a
        closure: compiled, its recursion is a direct call)."""
        steps, backs = learnt.steps, learnt.backs
        last = len(steps)
        while step < last and steps[step][4] and not key >> steps[step][3] & 63:
            backs[step][key] = (key, None)
            step += 1
        if step == last:
            if self._end(key, 0) == NEG:
                return False
            self.end = key
            return True
        place = key << _STEP_BITS | step
        if place in learnt.failed:
            return False
        budget = learnt.budget
        if budget is not None:
            budget.left -= 1
            if budget.left < 0:
                raise OutOfStates
        colour, index, (must, avail, next1, next2, later), shift, _, _ = steps[step]
        if colour < len(COLOURS):
            look = (key >> shift) & 63 | (key >> GROUPED & self.look_mask) << 6
        else:
            look = key >> GROUPED & self.look_mask
        table = learnt.tables[step]
        choices = table.get(look)
        if choices is None:
            if colour < len(COLOURS) and not learnt.bounded:
                choices = self._shared_moves(look, colour, index, must, avail, next1, next2,
                                             later)
            elif colour < len(COLOURS):
                # a move after which the colour alone cannot place its tiles is no way
                free = self.jokers - (look >> (6 + USED - GROUPED) & 7)
                bound, runs_id, shift = self.bound, look & 63, colour * RUN_BITS
                choices = [((runs << shift) + rest, option) for runs, rest, _, _, option in
                           look_moves(look, must, avail, next1, next2, later, self.jokers,
                                      self.canonical, index >= TOP - 3)
                           if bound.rest(colour, index + 1, runs_id + runs,
                                         free - option[2]) != NEG]
            else:
                choices = [(delta, made) for delta, _, _, made, _ in
                           self._group_moves(look, index)]
            table[look] = choices
        for delta, made in choices:
            if self._found(learnt, step + 1, key + delta):
                backs[step][key + delta] = (key, made)
                return True
        learnt.failed.add(place)
        return False

    def _shared_moves(self, look: int, colour: int, index: int, must: int, avail: int,
                      next1: int, next2: int, later: int) -> list[tuple[int, Made]]:
        """A colour's moves at a step, as a search without a bound takes them: kept for
        every search (the fewest-changes questions meet the same steps again), keyed by one
        integer of all they depend on."""
        number = self.numbers[index]
        shared = (((((((look << 3 | colour) << 4 | index) << 4 | number) << 4 | must) << 4
                    | avail) << 4 | next1 + 1) << 4 | next2 + 1) << 4 | later
        shared = (shared << 4 | self.jokers) << 1 | self.canonical
        choices = _UNBOUNDED.table.get(shared)
        if choices is None:
            shift = colour * RUN_BITS
            choices = _UNBOUNDED.keep(shared, [
                ((runs << shift) + rest, option) for runs, rest, _, _, option in
                look_moves(look, must, avail, next1, next2, later, self.jokers,
                           self.canonical, index >= TOP - 3)])
        return choices

    def _steps(self, bounded: bool) -> list[Plan]:
        """Per step: the colour (4: the groups), the number index, the colour's tiles (table,
        all, at the next two numbers, and the later colours' at this number), the shift of
        the colour's runs in a state, whether nothing can happen to a state without open
        runs of that colour (no tile, and no joker or none may open a run there) or, at the
        groups, without tiles given to them, and what the bound says then."""
        rows = [(*row, -1, -1) for row in self.avail]
        jokers = self.jokers
        # canonical jokers open no run before the last three numbers (see colour_options),
        # and join no group of no tiles: such steps stay idle although jokers are free
        quiet = self.quiet and self.canonical
        steps: list[Plan] = []
        for index in range(TOP):
            at = [row[index] for row in rows]
            later = sum(at)
            for colour, row in enumerate(rows):
                later -= at[colour]
                tiles = (self.table[colour][index], at[colour], row[index + 1],
                         row[index + 2], later)
                idle = not at[colour] and (not jokers or (quiet and index < TOP - 3))
                change = 0
                if idle and bounded:
                    change = (self.bound.rest(colour, index + 1, 0, 0)
                              - self.bound.rest(colour, index, 0, 0))
                steps.append((colour, index, tiles, colour * RUN_BITS, idle, change))
            if self.quiet:  # a group step where no tile was given to groups does nothing
                steps.append((len(COLOURS), index, (0, 0, 0, 0, 0), GROUPED, True, 0))
            else:  # no group can be made of fewer than three tiles and no joker
                steps.append((len(COLOURS), index, (0, 0, 0, 0, 0), 0,
                              not jokers and sum(at) < 3, 0))
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

    def _group_moves(self, look: int, index: int) -> list[Move]:
        """Each way to group the tiles given to groups at this number, from the counts and
        jokers used in ``look`` (it gains nothing, but the change of the bound the jokers it
        takes make, see :meth:`_rebound`)."""
        grouped = look & 31
        twos = look >> (TWOS - GROUPED) & 7
        used = look >> (USED - GROUPED) & 7
        most = 2 if twos else min(1, grouped)
        clear = -(grouped << GROUPED) - (twos << TWOS)
        number = self.numbers[index]
        return [(clear + (joker << USED), 0, (grouped + joker) * number, (groups, joker, 0),
                 joker) for groups, joker in group_ways(grouped, most, self.jokers - used,
                                                        self.canonical)]

    def sets(self) -> list[tuple[str, ...]]:
        """The sets of the best packing found by :meth:`run`."""
        path: list[Step] = [(index, colour, made, (), ())  # type: ignore[misc]
                            for index, colour, made, _ in self._choices()]
        return build_sets(path, (), self.numbers)

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
