"""The Rummikub turn being built on the display: a work-in-progress table, before it is sent
to the engine as one ``table`` move. One immutable state: every action returns the next state,
which remembers the one before it (``undo``), so the screen's targets are states themselves.

The player selects tiles (from the rack, or taken out of table sets), then makes them a new
set or adds them to a set; ``undo`` steps back, ``reset`` restores the table of the start of
the turn, ``done`` gives the move to play. Sets that are not runs or groups are reported with
their reason, so the screen can mark them (dots 7-8) and say why.

A set keeps its place (and so its number) while it lasts: :func:`in_place` puts each set of a
new table where the set it continues was, and new sets after them; a hint is laid out so too.

    work = Work.start(view)
    work = work.select_rack(0).select_rack(0).select_rack(0).new_set()
    move = work.done()          # Table(...) for game.play, or a Reason
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from games.core import Json, Reason
from games.rummikub.engine import RummikubView, Table
from games.rummikub.solver import Solution, solve
from games.rummikub.tiles import TileSet, arrange, multiset, sort_key
from games.saved import each, ensure, field, integer, items, need_dict, text

# The states of a turn a save keeps for undo, and the most tiles a list in it may hold.
MOST_STEPS = 500
MOST_TILES = 200


@dataclass(frozen=True)
class Picked:
    """A selected tile and where it came from: ``None`` for the rack, else a set index:
    ``Picked("K5", 0)``."""

    tile: str
    origin: int | None


@dataclass(frozen=True)
class Work:
    """The turn in progress: ``sets`` (the table as it stands now; a set emptied by taking
    keeps its place, so origins and numbers stay valid), ``rack`` (tiles still on the rack),
    ``selection``; ``start_sets``/``start_rack`` for reset; ``back`` the state before the last
    action; ``hinted`` when the last action asked for the hint (laid out, or none found):
    ``Work.start(view).select_rack(0)``."""

    start_sets: tuple[TileSet, ...]
    start_rack: tuple[str, ...]
    sets: tuple[TileSet, ...]
    rack: tuple[str, ...]
    selection: tuple[Picked, ...] = ()
    back: Work | None = None
    hinted: bool = False

    @classmethod
    def start(cls, view: RummikubView, sets: Sequence[TileSet] | None = None) -> Work:
        """The table (``sets``: its sets in the places they are shown at, empty places
        included; else the view's order) and the rack (sorted) of the start of the turn."""
        table = tuple(tuple(tile_set) for tile_set in (view.table if sets is None else sets))
        rack = tuple(sorted(view.hand, key=sort_key))
        return cls(table, rack, table, rack)

    def _then(self, sets: tuple[TileSet, ...], rack: tuple[str, ...],
              selection: tuple[Picked, ...]) -> Work:
        # Every action remembers the state it came from: that is what undo goes back to.
        return replace(self, sets=sets, rack=rack, selection=selection, back=self,
                       hinted=False)

    # --- selecting ----------------------------------------------------------------------

    def select_rack(self, index: int) -> Work:
        """Routing on a rack tile: it joins the selection."""
        tile = self.rack[index]
        return self._then(self.sets, self.rack[:index] + self.rack[index + 1:],
                          (*self.selection, Picked(tile, None)))

    def take(self, set_index: int, position: int) -> Work:
        """Routing on a tile of a table set: it leaves the set for the selection."""
        tiles = self.sets[set_index]
        return self._then(_with_set(self.sets, set_index, tiles[:position] + tiles[position + 1:]),
                          self.rack, (*self.selection, Picked(tiles[position], set_index)))

    def deselect(self, index: int) -> Work:
        """Routing on a selected tile: it goes back where it came from."""
        picked = self.selection[index]
        selection = self.selection[:index] + self.selection[index + 1:]
        if picked.origin is None:
            return self._then(self.sets, tuple(sorted((*self.rack, picked.tile), key=sort_key)),
                              selection)
        tiles = _ordered((*self.sets[picked.origin], picked.tile))
        return self._then(_with_set(self.sets, picked.origin, tiles), self.rack, selection)

    # --- placing ------------------------------------------------------------------------

    def new_set(self) -> Work:
        """The selection becomes a new set at the end of the table (nothing selected: no
        change)."""
        if not self.selection:
            return self
        return self._then((*self.sets, _ordered(self._selected())), self.rack, ())

    def add_to(self, set_index: int) -> Work:
        """The selection joins the routed set (nothing selected: no change)."""
        if not self.selection:
            return self
        tiles = _ordered((*self.sets[set_index], *self._selected()))
        return self._then(_with_set(self.sets, set_index, tiles), self.rack, ())

    def undo(self) -> Work | None:
        """The state before the last action; ``None`` when there is nothing to undo."""
        return self.back

    def reset(self) -> Work:
        """Back to the table and rack of the start of the turn, nothing to undo."""
        return Work(self.start_sets, self.start_rack, self.start_sets, self.start_rack)

    def _selected(self) -> tuple[str, ...]:
        return tuple(picked.tile for picked in self.selection)

    # --- checking and ending ------------------------------------------------------------

    def problems(self) -> dict[int, Reason]:
        """The sets (by index) that are not runs or groups, with why: marked on screen."""
        found = {}
        for index, tile_set in enumerate(self.sets):
            if tile_set:
                arranged = arrange(tile_set)
                if isinstance(arranged, Reason):
                    found[index] = arranged
        return found

    def done(self) -> Table | Reason:
        """The move that ends the turn, or why the work is not ready (the engine checks the
        rest: initial meld, jokers, tiles played)."""
        if self.selection:
            return Reason.of("selection_not_placed", count=len(self.selection))
        problems = self.problems()
        if problems:
            first = min(problems)
            return Reason.of("invalid_set", set=first + 1, why=problems[first].code)
        return Table(tuple(tile_set for tile_set in self.sets if tile_set))

    @staticmethod
    def hint(view: RummikubView) -> Solution:
        """The exact best move from the start of the turn (RUM-10)."""
        return _best(view.table, view.hand, not view.melded[view.seat], view.initial_meld,
                     view.joker_penalty)

    def apply_hint(self, hint: Solution) -> Work:
        """Lay the hint's table out as the work in progress, each set kept at its place
        (undo goes back); a hint that plays nothing changes nothing but says so (``hinted``)."""
        if not hint.count:
            return replace(self, hinted=True)
        left = list(self.start_rack)
        for tile in hint.played:
            left.remove(tile)
        return replace(self._then(in_place(self.start_sets, hint.table), tuple(left), ()),
                       hinted=True)


    # --- saving ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Json]:
        """The turn in progress as plain data for the save file: the start of the turn, then
        every state from the oldest undo can reach to this one (the last :data:`MOST_STEPS`),
        as a list rather than nested; the refusal note is not kept (it was told)."""
        chain: list[Work] = []
        state: Work | None = self
        while state is not None and len(chain) < MOST_STEPS:
            chain.append(state)
            state = state.back
        return {"start_sets": [list(tile_set) for tile_set in self.start_sets],
                "start_rack": list(self.start_rack),
                "steps": [{"sets": [list(tile_set) for tile_set in step.sets],
                           "rack": list(step.rack),
                           "selection": [[picked.tile, picked.origin]
                                         for picked in step.selection]}
                          for step in reversed(chain)]}

    @classmethod
    def from_dict(cls, data: Json, view: RummikubView) -> Work:
        """The turn :meth:`to_dict` saved, checked against the seat's ``view``: it starts
        from the view's table and rack, and every state holds exactly those tiles;
        :class:`games.core.BadState` otherwise."""
        saved = need_dict(data, "pending")
        start = cls.start(view)
        ensure(_sets(field(saved, "start_sets", "pending"), "pending.start_sets")
               == start.start_sets, "pending.start_sets", "not_this_table")
        ensure(tuple(_tiles(field(saved, "start_rack", "pending"), "pending.start_rack"))
               == start.start_rack, "pending.start_rack", "not_this_rack")
        tiles = multiset([*(tile for tile_set in start.sets for tile in tile_set),
                          *start.rack])
        work: Work | None = None
        steps = items(field(saved, "steps", "pending"), "pending.steps", MOST_STEPS, least=1)
        for number, step in enumerate(steps):
            at = f"pending.steps.{number}"
            state = need_dict(step, at)
            sets = _sets(field(state, "sets", at), f"{at}.sets")
            rack = _tiles(field(state, "rack", at), f"{at}.rack")
            picks = items(field(state, "selection", at), f"{at}.selection", MOST_TILES)
            selection = tuple(_picked(value, f"{at}.selection.{index}", len(sets))
                              for index, value in enumerate(picks))
            held = multiset([*(tile for tile_set in sets for tile in tile_set), *rack,
                             *(picked.tile for picked in selection)])
            ensure(held == tiles, f"{at}", "tiles_not_kept")
            work = cls(start.start_sets, start.start_rack, sets, tuple(rack), selection,
                       back=work)
        assert work is not None  # items() asked for at least one step
        return work


def _tiles(value: Json, at: str) -> list[str]:
    return each(value, at, MOST_TILES, lambda tile, where: text(tile, where))


def _sets(value: Json, at: str) -> tuple[TileSet, ...]:
    return tuple(tuple(_tiles(tile_set, where))
                 for tile_set, where in ((item, f"{at}.{index}") for index, item in
                                         enumerate(items(value, at, MOST_TILES))))


def _picked(value: Json, at: str, sets: int) -> Picked:
    tile, origin = items(value, at, 2, least=2)
    return Picked(text(tile, f"{at}.0"),
                  None if origin is None else integer(origin, f"{at}.1", 0, sets - 1))


@lru_cache(maxsize=8)
def _best(table: tuple[TileSet, ...], rack: tuple[str, ...], initial: bool, least: int,
          penalty: int) -> Solution:
    # The screen is drawn again and again in one position: solve it once.
    return solve(table, rack, initial=initial, initial_meld=least, joker_penalty=penalty)


def _with_set(sets: tuple[TileSet, ...], index: int, tiles: TileSet) -> tuple[TileSet, ...]:
    return (*sets[:index], tiles, *sets[index + 1:])


def _ordered(tiles: Sequence[str]) -> TileSet:
    """A set in canonical order when it is valid, else sorted for reading."""
    arranged = arrange(tuple(tiles))
    if isinstance(arranged, Reason):
        return tuple(sorted(tiles, key=sort_key))
    return tuple(arranged.tiles)


def in_place(before: Sequence[TileSet], table: Sequence[TileSet]) -> tuple[TileSet, ...]:
    """``table`` with each set at the place of the set of ``before`` it continues (the one
    sharing the most tiles with it), new sets after them, a place left empty (``()``) where
    a set is gone::

        in_place([("K1", "K2", "K3")], [("R5", "B5", "Y5"), ("K1", "K2", "K3", "K4")])
        # (("K1", "K2", "K3", "K4"), ("R5", "B5", "Y5"))
    """
    shared = []
    for old_place, old in enumerate(before):
        for new_place, new in enumerate(table):
            common = sum((Counter(old) & Counter(new)).values())
            if common:
                # among sets sharing as many tiles, the one changed least: with two tiles of
                # each kind, a set left as it was is never taken for one built of the same
                changed = len(old) + len(new) - 2 * common
                shared.append((-common, changed, old_place, new_place))
    taken: dict[int, int] = {}
    placed: set[int] = set()
    for _, _, old_place, new_place in sorted(shared):
        if old_place not in taken and new_place not in placed:
            taken[old_place] = new_place
            placed.add(new_place)
    kept = [tuple(table[taken[place]]) if place in taken else () for place in range(len(before))]
    kept += [tuple(new) for place, new in enumerate(table) if place not in placed]
    while kept and not kept[-1]:
        kept.pop()
    return tuple(kept)
