"""The joker-set layers: the layered search for a table holding joker sets, whose states
are one more field of the integer state and whose moves are the reference's rules.

    search = JokerLayers(table, rack, 2, 0, 30, specials, canonical=True)
    search.run(), search.sets()
"""

from __future__ import annotations

from games.rummikub.packing.bound import ColourBound
from games.rummikub.packing.layers import Layers, Move
from games.rummikub.packing.moves import (
    DOWN,
    GROUPED,
    MELD,
    NEG,
    RUN_BITS,
    RUNS,
    TOP,
    TWOS,
    UP,
    USED,
    WEIGHT,
    Counts,
    JokerSet,
    Special,
    Step,
    build_sets,
    group_ways,
    groups_alive,
    mirrored,
    options,
    run_id,
)
from games.rummikub.packing.reference import Search, mark
from games.rummikub.tiles import COLOURS

_SPECIALS = MELD  # the joker sets' states: an index into the search's own list


class JokerLayers(Layers):
    """:class:`Layers` for a table with joker sets (no initial meld then): the joker sets'
    states (see :class:`Search`) are one more field of the integer state, numbered as
    they appear; the moves are :class:`Search`'s, computed once per step for each part of
    the state they depend on. The bound of the rest counts a joker set's open run among
    its colour's runs and keeps its number tiles in its run (or its group); a colour's runs
    may hold the jokers that can leave their sets and its own joker sets', but never more
    than are still to be placed."""

    ranked = True  # the joker sets' rules decide, not the first packing found
    quiet = False  # a joker set may take a joker, or start, where its colour has no tile

    def __init__(self, table: Counts, rack: Counts, must_jokers: int, rack_jokers: int,
                 joker_points: int, specials: tuple[JokerSet, ...], canonical: bool,
                 strict: bool = False, ascending: bool = False) -> None:
        if ascending:  # the rules see everything in the search's order (see Layers)
            specials = tuple(joker_set.mirrored() for joker_set in specials)
        self.rules = Search(mirrored(table) if ascending else table,
                            mirrored(rack) if ascending else rack, must_jokers, rack_jokers,
                            0, joker_points, specials, canonical, strict,
                            UP if ascending else DOWN)
        self.specials = specials
        # the jokers a colour's runs may hold: those that may leave their sets, and its own
        # joker sets'; a group's: those that may leave, and its number's joker groups'; never
        # more than there are (a joker that may leave its run is counted both ways)
        self.allowed = tuple(min(must_jokers + rack_jokers, self.rules.outside + sum(
            s.jokers for s in specials if s.kind == "run" and s.colour == colour))
            for colour in range(len(COLOURS)))
        super().__init__(table, rack, must_jokers, rack_jokers, 0, joker_points, canonical,
                         ascending=ascending)
        # per colour, the joker sets that are runs of it
        self.own_runs = tuple(tuple(k for k, s in enumerate(specials)
                                    if s.kind == "run" and s.colour == colour)
                              for colour in range(len(COLOURS)))
        self.states: list[tuple[Special, ...]] = [self.rules.start()[7]]
        self.state_ids = {self.states[0]: 0}
        self.look_mask = (1 << (_SPECIALS + 24 - GROUPED)) - 1
        self.merged: dict[int, int] = {}  # see _merged

    def _colour_bound(self) -> ColourBound:
        grouping = tuple(self.rules.outside + sum(
            s.jokers for s in self.specials if s.kind == "group" and s.number == index)
            for index in range(TOP))
        # a joker set's number tiles stay in its run, or its group (RUM-6)
        in_runs = [[0] * TOP for _ in COLOURS]
        in_groups = [[0] * TOP for _ in COLOURS]
        for joker_set in self.specials:
            if joker_set.kind == "run":
                for index in joker_set.places:
                    in_runs[joker_set.colour][index] += 1
            elif joker_set.kind == "group":
                for colour in joker_set.places:
                    in_groups[colour][joker_set.number] += 1
        return ColourBound(self.table, self.avail, self.jokers, self.canonical,
                           self.allowed, grouping, tuple(map(tuple, in_runs)),
                           tuple(map(tuple, in_groups)), self.numbers)

    def _merged(self, runs_id: int, special_id: int, colour: int) -> int:
        """The colour's open runs with its joker sets' open runs among them (the joker
        sets' states numbered ``special_id``)."""
        place = (special_id << 6 | runs_id) << 3 | colour
        found = self.merged.get(place)
        if found is None:
            found = self.merged[place] = self._merge(runs_id, self.states[special_id],
                                                     colour)
        return found

    def _merge(self, runs_id: int, specials: tuple[Special, ...], colour: int) -> int:
        lengths = [specials[k][1] for k in self.own_runs[colour] if specials[k][0] == 1]
        lengths += [specials[k][1] for k in self.rules.news
                    if specials[k][0] == 1 and specials[k][4] == 1 + colour]
        if not lengths:
            return runs_id
        return run_id(tuple(sorted(RUNS[runs_id] + tuple(lengths))))

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
            if joker_set.kind == "new":
                normal.append((first, second, third, fourth, ok))
            elif joker_set.kind == "group":  # (done, tiles, eligible, jokers, ok)
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

    def _moves(self, look: int, colour: int, index: int, must: int, avail: int, next1: int,
               next2: int, later: int, jokers: int, canonical: bool) -> list[Move]:
        """The colour step of :meth:`Search.best` from the state ``look``, each move gaining
        its score and the change of the colour's bound (its runs holding at most the jokers
        still to be placed; what the jokers it takes change in the other colours' bounds
        comes from :meth:`_rebound`)."""
        rules = self.rules
        # the colour's sets hold no more jokers than are still to be placed (bound.free);
        # its methods called on it directly: compiled, a native call
        bound = self.bound

        runs_id = look & 63
        twos = look >> (6 + TWOS - GROUPED) & 7
        used = look >> (6 + USED - GROUPED) & 7
        special_id = look >> (6 + _SPECIALS - GROUPED)
        grouped_before = look >> 6 & 31
        specials = self.states[special_id]
        before = bound.rest(colour, index, self._merged(runs_id, special_id, colour),
                            bound.free(colour, jokers - used))
        # the jokers other sets may still take; a joker a new set takes is one less
        room = rules.outside - used + rules.held(specials)
        shift = colour * RUN_BITS
        number = self.numbers[index]
        moves: list[Move] = []
        for after_specials, own_real, own_joker, adds, marks in rules.special_steps(
                colour, index, specials):
            if own_real > avail or used + own_joker > jokers:
                continue
            if used + own_joker == jokers and any(after_specials[k][0] and not
                                                  after_specials[k][2] for k in rules.news):
                continue  # a new set begun that no joker is left for
            free = min(jokers - used - own_joker,
                       rules.room(used + own_joker, after_specials) if rules.strict else room)
            for option in options(runs_id, max(0, must - own_real), avail - own_real, free,
                                  next1, next2, canonical, index >= TOP - 3):
                after_runs, grouped, joker, real, _, _ = option
                total = real + own_real
                marked = after_specials
                if marks and total > must:
                    marked = mark(after_specials, marks)
                two = 1 if twos or grouped == 2 else 0
                if not groups_alive(grouped_before + grouped, two,
                                    jokers - used - own_joker - joker, later, canonical):
                    continue
                short = sum(1 for length in after_runs if length < 3)
                reach = max(0, next1 + jokers - used - own_joker - joker - short)
                if len(after_runs) > short + reach:
                    after_runs = after_runs[:short + reach]
                after_id = run_id(after_runs)
                marked_id = self._id(marked)
                spent = joker + own_joker
                more = bound.rest(colour, index + 1,
                                  self._merged(after_id, marked_id, colour),
                                  bound.free(colour, jokers - used - spent))
                if more == NEG:
                    continue
                delta = ((after_id - runs_id) << shift) + (grouped << GROUPED) + (
                    (two - twos) << TWOS) + (spent << USED) + (
                    (marked_id - special_id) << _SPECIALS)
                gain = (total - must) * (WEIGHT + number) + more - before
                moves.append((delta, gain, 0, (option, adds), spent))
        return moves

    def _runs_of(self, key: int, colour: int) -> int:
        """The colour's open runs with its joker sets' open runs among them."""
        return self._merged(key >> colour * RUN_BITS & 63, key >> _SPECIALS, colour)

    def _group_moves(self, look: int, index: int) -> list[Move]:
        """The group step of :meth:`Search.best` from the state ``look``."""
        rules = self.rules
        grouped = look & 31
        twos = look >> (TWOS - GROUPED) & 7
        used = look >> (USED - GROUPED) & 7
        special_id = look >> (_SPECIALS - GROUPED)
        specials = self.states[special_id]
        most = 2 if twos else min(1, grouped)
        room = rules.outside - used + rules.held(specials)
        clear = -(grouped << GROUPED) - (twos << TWOS)
        moves: list[Move] = []
        for after_specials, special_jokers in rules.group_specials(index, specials,
                                                                   self.jokers - used):
            free = min(self.jokers - used - special_jokers,
                       rules.room(used + special_jokers, after_specials) if rules.strict
                       else room)
            for groups, joker in group_ways(grouped, most, free, self.canonical):
                delta = clear + ((joker + special_jokers) << USED) + (
                    (self._id(after_specials) - special_id) << _SPECIALS)
                moves.append((delta, 0, 0, (groups, joker, special_jokers),
                              joker + special_jokers))
        return moves

    def _end(self, key: int, value: int) -> int:
        """The value of a state past 13, or ``NEG`` when it does not finish a packing (every
        joker was counted as played: those that were not are taken off)."""
        used = key >> USED & 7
        if not self.rules.finished(used, self.states[key >> _SPECIALS]):
            return NEG
        if self.canonical:
            return value
        return value - (self.jokers - used) * (WEIGHT + self.joker_points)

    def sets(self) -> list[tuple[str, ...]]:
        """The sets of the best packing found by :meth:`run`, the joker sets' first."""
        path: list[Step] = []
        for index, colour, made, key in self._choices():
            after = self.states[key >> _SPECIALS]
            if colour < len(COLOURS):
                option, adds = made  # type: ignore[misc]
                path.append((index, colour, option, adds, after))
            else:
                path.append((index, colour, made, (), after))  # type: ignore[arg-type]
        return build_sets(path, self.specials, self.numbers)
