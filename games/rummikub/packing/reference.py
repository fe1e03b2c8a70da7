"""The recursive reference: the search state by state, memoised, with branch and bound.

It holds the rules of each step, the joker sets' too (the joker-set layers use them), and the
tests hold the layered searches to it.

    search = Search(table, rack, 0, 1, 0, 30, (), canonical=True)
    search.best(search.start())
"""

from __future__ import annotations

from games.rummikub.packing.moves import (
    DOWN,
    NEG,
    NEW_GROUP,
    TOP,
    WEIGHT,
    Adds,
    Counts,
    JokerSet,
    Special,
    group_ways,
    options,
    run_id,
)
from games.rummikub.tiles import COLOURS

Runs = tuple[tuple[int, ...], ...]  # per colour, sorted open run lengths capped at 3
# number index, colour, open runs, tiles grouped, most of one colour grouped, jokers, meld,
# joker sets
State = tuple[int, int, Runs, int, int, int, int, tuple[Special, ...]]


class Search:
    """Memoised search; a state is taken after each colour of each number, so partial
    choices shared by many earlier states are solved once. :class:`JokerLayers` uses its
    step rules (``special_steps``, ``group_specials``, ``finished``); ``best`` is the
    recursive reference of the tests. ``numbers`` are the numbers at the counts' indices
    (``moves.UP`` for counts and joker sets mirrored, a search going up)."""

    def __init__(self, table: Counts, rack: Counts, must_jokers: int, rack_jokers: int,
                 threshold: int, joker_points: int, specials: tuple[JokerSet, ...],
                 canonical: bool, strict: bool = False, numbers: tuple[int, ...] = DOWN
                 ) -> None:
        self.canonical = canonical
        self.numbers = numbers  # the number at each index (see moves.UP)
        # strict: a freed joker goes to a new set (RUM-6), one of the ``"new"`` specials;
        # otherwise anywhere (a relaxation: the solver checks what it finds)
        assert not (strict and canonical), "the new sets place jokers anywhere"
        self.strict = strict
        self.table = table
        self.avail = tuple(tuple(t + r for t, r in zip(tc, rc, strict=True))
                           for tc, rc in zip(table, rack, strict=True))
        self.must_jokers = must_jokers
        self.jokers = must_jokers + rack_jokers
        self.threshold = threshold
        self.joker_points = joker_points
        self.specials = specials
        # canonically (see finished) no table joker outside a joker set is ever placed
        loose = 0 if canonical else must_jokers - sum(s.jokers for s in specials)
        self.outside = rack_jokers + loose + sum(
            min(s.jokers, exchangeable(s, rack)) for s in specials)
        self.groups = tuple(s.kind == "group" for s in specials)
        self.news = tuple(k for k, s in enumerate(specials) if s.kind == "new")
        self.memo: dict[State, int] = {}
        self.bounds: dict[State, int] = {}
        # most[p]: the best any state at step p (number index * 4 + colour) can still add
        weights = [rack[c][i] * (WEIGHT + numbers[i]) if self._may_play(c, i) else 0
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

    def finished(self, used: int, specials: tuple[Special, ...]) -> bool:
        """Every joker set closed whole, and the jokers account (RUM-6): a joker leaves its
        set only against its tile from the rack; jokers added to a joker set come from the
        rack. Canonically, a joker set's own jokers that nothing needs go back into it."""
        rack = self.jokers - self.must_jokers
        extra = in_sets = swappable = freed = in_new = 0
        for joker_set, (phase, length, third, fourth, ok) in zip(self.specials, specials,
                                                                 strict=True):
            if joker_set.kind == "new":  # (phase, length or tiles, jokers, -, shape)
                if phase == 0:
                    continue
                if not third or (phase != 2 if ok == NEW_GROUP else length < 3):
                    return False
                in_new += third
                continue
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
            swappable += min(spare, capacity)
            freed += spare
        if self.canonical:
            return extra <= rack and used - in_sets <= rack - extra + swappable
        # strict: the jokers outside the joker sets and the new sets (in sets that may grow
        # a set of the table) and those the joker sets gained are the rack's: freed ones
        # are all in new sets
        return used >= self.must_jokers and extra <= used - self.must_jokers and (
            not self.strict or in_new >= freed)

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
            if meld >= self.threshold and self.finished(used, specials):
                # canonically every rack joker goes down: the spare ones join sets with room
                played = self.jokers if self.canonical else used
                result = (played - self.must_jokers) * (WEIGHT + self.joker_points)
            self.memo[state] = result
            return result
        number = self.numbers[index]
        if colour == len(COLOURS):
            for after_specials, special_jokers in self.group_specials(index, specials,
                                                                      self.jokers - used):
                free = self.jokers - used - special_jokers
                if specials:
                    free = min(free, self.room(used + special_jokers, after_specials))
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
        ahead = self.most[index * 4 + colour + 1]
        for after_specials, own_real, own_joker, _, marks in self.special_steps(
                colour, index, specials):
            if own_real > avail or used + own_joker > self.jokers:
                continue
            free = self.jokers - used - own_joker
            if specials:
                free = min(free, self.room(used + own_joker, after_specials))
            for option in options(run_id(runs[colour]), max(0, must - own_real),
                                  avail - own_real, free, next1, next2, self.canonical,
                                  index >= TOP - 3):
                after_runs, grouped, joker, real, _, _ = option
                total = real + own_real
                marked = after_specials
                if marks and total > must:
                    marked = mark(after_specials, marks)
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

    def special_steps(self, colour: int, index: int, specials: tuple[Special, ...]
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
                if joker_set.kind == "new":
                    # the new sets begin in their order: one way to name the same sets
                    begin = k == self.news[0] or current[k - 1][0] > 0
                    options = _new_step(joker_set, current[k], colour, index, begin)
                else:
                    options = _special_step(joker_set, current[k], colour, index,
                                            self.canonical, self.canonical and not bridge)
                for special, take_real, take_joker, mark in options:
                    changed = (*current[:k], special, *current[k + 1:])
                    more = ((k, "real"),) * take_real + ((k, "joker"),) * take_joker
                    grown.append((changed, real + take_real, joker + take_joker,
                                  adds + more, marks + (((k, mark),) if mark != -1 else ())))
            steps = grown
        return steps

    def group_specials(self, index: int, specials: tuple[Special, ...], jokers: int
                       ) -> list[tuple[tuple[Special, ...], int]]:
        """Close the joker groups of this index: each takes 0-2 jokers, 3-4 tiles in all."""
        ways: list[tuple[tuple[Special, ...], int]] = [(specials, 0)]
        for k, joker_set in enumerate(self.specials):
            if joker_set.kind == "new" and specials[k][4] == NEW_GROUP and specials[k][0] == 1:
                grown = []
                for current, spent in ways:
                    _, tiles, _, colours, shape = current[k]
                    for joker in range(1, min(2, jokers - spent) + 1):
                        if 3 <= tiles + joker <= 4:
                            closed: Special = (2, tiles, joker, colours, shape)
                            grown.append(((*current[:k], closed, *current[k + 1:]),
                                          spent + joker))
                ways = grown
                continue
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

    def held(self, specials: tuple[Special, ...]) -> int:
        """Jokers the joker sets hold so far: the rest went to other sets, and only the rack's
        and the freed ones may (RUM-6), which ``self.outside`` bounds."""
        return sum(s[3] if group else s[2] for group, s in zip(self.groups, specials,
                                                               strict=True)) - sum(
            specials[k][2] for k in self.news)

    def room(self, used: int, specials: tuple[Special, ...]) -> int:
        """How many more jokers may go to sets other than the joker sets, ``used`` being
        placed and the joker sets as ``specials``; strict, to sets other than the new sets
        too: the rack's alone (see ``finished``)."""
        held = self.held(specials)
        if not self.strict:
            return self.outside - used + held
        in_new = sum(specials[k][2] for k in self.news)
        return min(self.outside - used + held, self.jokers - self.must_jokers
                   - (used - held - in_new))

    def _special_group_size(self, index: int, specials: tuple[Special, ...]) -> int:
        return sum(s[1] + s[3] for joker_set, s in zip(self.specials, specials, strict=True)
                   if joker_set.kind == "group" and joker_set.number == index)




def exchangeable(joker_set: JokerSet, rack: Counts) -> int:
    """How many jokers of ``joker_set`` the rack could free (RUM-6): a run's joker needs the
    tile of its place, a group's a colour the group lacks, one of each at most."""
    if joker_set.kind == "new":
        return 0
    if joker_set.kind == "run":
        return sum(1 for place in set(joker_set.joker_places)
                   if rack[joker_set.colour][place] > 0)
    return sum(1 for colour in range(len(COLOURS))
               if colour not in joker_set.places and rack[colour][joker_set.number] > 0)


def mark(specials: tuple[Special, ...], marks: tuple[tuple[int, int], ...]
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
                  canonical: bool, no_spare: bool) -> list[tuple[Special, int, int, int]]:
    """A joker set's choices at one colour and index: its new state, a number tile taken,
    a joker taken, and a mark (-1 for none). ``canonical``: a run begins with a joker only
    where one of its own stood (one before is spare, added at the end); ``no_spare``: no
    joker past the set's tiles on a run of three already, unless a number tile follows."""
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
    if canonical and phase == 0 and index not in joker_set.joker_places:
        spare = True
    if index not in joker_set.places and jokers < 4 and not spare:
        steps.append(((1, grown, jokers + 1, bits, ok), 0, 1, -1))
    return steps


def _new_step(new: JokerSet, current: Special, colour: int, index: int, begin: bool
              ) -> list[tuple[Special, int, int, int]]:
    """A new set's choices at one colour and index (see ``Special``): its new state, a number
    tile taken, a joker taken (no marks). It may begin here (when ``begin``) as a run of
    this colour or a group of this number; a run goes on or closes; a group takes other
    colours of its number. A state holding a whole joker-free set of the table is dropped."""
    phase, count, jokers, last, shape = current
    if phase == 2:
        return [(current, 0, 0, -1)]
    if phase == 0:
        steps = [(current, 0, 0, -1)]
        if not begin:
            return steps
        run = 1 + colour
        if not _run_grows(new, colour, index, index):
            steps.append(((1, 1, 0, _streak(new, colour, index, index), run), 1, 0, -1))
        steps.append(((1, 1, 1, 0, run), 0, 1, -1))
        if not _group_grows(new, index, 1 << colour):
            steps.append(((1, 1, 0, 1 << colour, NEW_GROUP), 1, 0, -1))
        return steps
    if shape == NEW_GROUP:  # open at its own number: it closes at the groups' step
        steps = [(current, 0, 0, -1)]
        colours = last | 1 << colour
        if colours != last and not _group_grows(new, index, colours):
            steps.append(((1, count + 1, jokers, colours, shape), 1, 0, -1))
        return steps
    if shape != 1 + colour:
        return [(current, 0, 0, -1)]
    steps = [((2, count, jokers, 0, shape), 0, 0, -1)] if count >= 3 else []
    length = min(3, count + 1)
    first = last - 1 if last else index
    if not _run_grows(new, colour, first, index):
        steps.append(((1, length, jokers, _streak(new, colour, first, index), shape), 1, 0,
                      -1))
    steps.append(((1, length, jokers + 1, 0, shape), 0, 1, -1))
    return steps


def _run_grows(new: JokerSet, colour: int, first: int, index: int) -> bool:
    """Whether number tiles of ``colour`` from index ``first`` to ``index`` hold a whole
    joker-free run of the table (those ending before ``index`` were checked before)."""
    return any(first <= low and high == index for low, high in new.old_runs[colour])


def _streak(new: JokerSet, colour: int, first: int, index: int) -> int:
    """What a run's number tiles from index ``first`` to ``index`` tell of the runs of the
    table it may still hold whole: the first index of the nearest of them (plus one), 0
    when none (one state for every ``first`` that tells the same)."""
    ahead = [low for low, high in new.old_runs[colour] if low >= first and high > index]
    return min(ahead) + 1 if ahead else 0


def _group_grows(new: JokerSet, index: int, colours: int) -> bool:
    """Whether ``colours`` (bits) at ``index`` hold a whole joker-free group of the table."""
    return any(old & ~colours == 0 for old in new.old_groups[index])
