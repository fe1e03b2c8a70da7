"""The joker-set layers: the layered search for a table holding joker sets, whose states
are one more field of the integer state and whose moves are the reference's rules.

    search = JokerLayers(table, rack, 2, 0, 30, specials, canonical=True)
    search.run(), search.sets()
"""

from __future__ import annotations

from games.rummikub.packing.layers import Layers
from games.rummikub.packing.moves import (
    GROUPED,
    MELD,
    NEG,
    RUN_BITS,
    RUNS,
    TOP,
    TWOS,
    USED,
    WEIGHT,
    Counts,
    JokerSet,
    Made,
    Special,
    Step,
    build_sets,
    colour_options,
    group_ways,
    groups_alive,
    run_id,
)
from games.rummikub.packing.reference import Search, mark
from games.rummikub.tiles import COLOURS

_SPECIALS = MELD  # the joker sets' states: an index into the search's own list


class JokerLayers(Layers):
    """:class:`Layers` for a table with joker sets (no initial meld then): the joker sets'
    states (see :class:`Search`) are one more field of the integer state, numbered as
    they appear; the moves are :class:`Search`'s, computed once per step for each part of
    the state they depend on."""

    def __init__(self, table: Counts, rack: Counts, must_jokers: int, rack_jokers: int,
                 joker_points: int, specials: tuple[JokerSet, ...], canonical: bool,
                 floor: int = NEG) -> None:
        super().__init__(table, rack, must_jokers, rack_jokers, 0, joker_points, canonical)
        self.rules = Search(table, rack, must_jokers, rack_jokers, 0, joker_points,
                            specials, canonical)
        self.specials = specials
        self.states: list[tuple[Special, ...]] = [self.rules.start()[7]]
        self.state_ids = {self.states[0]: 0}
        self.look_mask = (1 << (_SPECIALS + 16 - GROUPED)) - 1
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
        """The colour step of :meth:`Search.best` from the state ``look``."""
        rules = self.rules
        runs_id = look & 63
        twos = look >> (6 + TWOS - GROUPED) & 7
        used = look >> (6 + USED - GROUPED) & 7
        special_id = look >> (6 + _SPECIALS - GROUPED)
        grouped_before = look >> 6 & 31
        specials = self.states[special_id]
        room = rules.outside - used + rules.held(specials)
        shift = colour * RUN_BITS
        number = index + 1
        moves: list[tuple[int, int, int, Made]] = []
        for after_specials, own_real, own_joker, adds, marks in rules.special_steps(
                colour, index, specials):
            if own_real > avail or used + own_joker > jokers:
                continue
            free = min(jokers - used - own_joker, room)
            for option in colour_options(RUNS[runs_id], max(0, must - own_real),
                                         avail - own_real, free, next1, next2, canonical,
                                         index >= TOP - 3):
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
                delta = ((run_id(after_runs) - runs_id) << shift) + (grouped << GROUPED) + (
                    (two - twos) << TWOS) + ((joker + own_joker) << USED) + (
                    (self._id(marked) - special_id) << _SPECIALS)
                moves.append((delta, (total - must) * (WEIGHT + number), 0, (option, adds)))
        return moves

    def _group_moves(self, look: int, number: int) -> list[tuple[int, int, Made]]:
        """The group step of :meth:`Search.best` from the state ``look``."""
        rules = self.rules
        index = number - 1
        grouped = look & 31
        twos = look >> (TWOS - GROUPED) & 7
        used = look >> (USED - GROUPED) & 7
        special_id = look >> (_SPECIALS - GROUPED)
        specials = self.states[special_id]
        most = 2 if twos else min(1, grouped)
        room = rules.outside - used + rules.held(specials)
        clear = -(grouped << GROUPED) - (twos << TWOS)
        moves: list[tuple[int, int, Made]] = []
        for after_specials, special_jokers in rules.group_specials(index, specials,
                                                                   self.jokers - used):
            free = min(self.jokers - used - special_jokers, room)
            for groups, joker in group_ways(grouped, most, free, self.canonical):
                delta = clear + ((joker + special_jokers) << USED) + (
                    (self._id(after_specials) - special_id) << _SPECIALS)
                moves.append((delta, 0, (groups, joker, special_jokers)))
        return moves

    def _finish(self, layer: dict[int, int]) -> int:
        best = NEG
        for key, score in layer.items():
            used = key >> USED & 7
            if not self.rules.finished(used, self.states[key >> _SPECIALS]):
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
