"""The Rummikub turn being built on the display: a work-in-progress table, before it is sent
to the engine as one ``table`` move (the display's model; the screen shows it).

The player selects tiles (from the rack, or taken out of table sets), then makes them a new
set or adds them to a set; ``undo`` steps back, ``reset`` restores the table of the start of
the turn, ``done`` gives the move to play. Sets that are not runs or groups are reported with
their reason, so the screen can mark them (dots 7-8) and say why on demand.

    work = Workspace.start(view)
    work.select_rack(0); work.select_rack(1); work.select_rack(2)
    work.new_set()
    move = work.done()          # Table(...) for game.play, or a Reason
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.core import Reason
from games.rummikub.engine import Draw, RummikubView, Table
from games.rummikub.solver import Solution, solve
from games.rummikub.tiles import TileSet, arrange, sort_key

# Seconds left at which the time is announced (RUM-7).
ANNOUNCE_AT = (60, 15)


@dataclass(frozen=True)
class Picked:
    """A selected tile and where it came from: ``None`` for the rack, else a set index."""

    tile: str
    origin: int | None


@dataclass
class Workspace:
    """The turn in progress: ``sets`` (the table as it stands now), ``rack`` (tiles still on
    the rack), ``selection``; ``start_sets``/``start_rack`` for reset."""

    start_sets: tuple[TileSet, ...]
    start_rack: tuple[str, ...]
    sets: list[list[str]]
    rack: list[str]
    selection: list[Picked] = field(default_factory=list)
    history: list[tuple[list[list[str]], list[str], list[Picked]]] = field(default_factory=list)

    @classmethod
    def start(cls, view: RummikubView) -> Workspace:
        rack = sorted(view.rack, key=sort_key)
        return cls(tuple(view.table), tuple(rack), [list(s) for s in view.table], rack)

    # --- selecting ----------------------------------------------------------------------

    def select_rack(self, index: int) -> None:
        """Routing on a rack tile: it joins the selection."""
        self._save()
        self.selection.append(Picked(self.rack.pop(index), None))

    def take(self, set_index: int, position: int) -> None:
        """Routing on a tile of a table set: it leaves the set for the selection."""
        self._save()
        tile = self.sets[set_index].pop(position)
        self.selection.append(Picked(tile, set_index))

    def deselect(self, index: int) -> None:
        """Routing on a selected tile: it goes back where it came from."""
        self._save()
        picked = self.selection.pop(index)
        if picked.origin is None:
            self.rack.append(picked.tile)
            self.rack.sort(key=sort_key)
        else:
            self.sets[picked.origin].append(picked.tile)
            self.sets[picked.origin] = _ordered(self.sets[picked.origin])

    # --- placing ------------------------------------------------------------------------

    def new_set(self) -> None:
        """The selection becomes a new set at the end of the table."""
        if self.selection:
            self._save()
            self.sets.append(_ordered([p.tile for p in self.selection]))
            self.selection = []

    def add_to(self, set_index: int) -> None:
        """The selection joins the routed set."""
        if self.selection:
            self._save()
            self.sets[set_index] = _ordered(self.sets[set_index]
                                            + [p.tile for p in self.selection])
            self.selection = []

    def undo(self) -> bool:
        """Step back one action; ``False`` when there is nothing to undo."""
        if not self.history:
            return False
        self.sets, self.rack, self.selection = self.history.pop()
        return True

    def reset(self) -> None:
        """Back to the table and rack of the start of the turn."""
        self.sets = [list(s) for s in self.start_sets]
        self.rack = list(self.start_rack)
        self.selection = []
        self.history = []

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
        return Table(tuple(tuple(s) for s in self.sets if s))

    @staticmethod
    def draw() -> Draw:
        return Draw()

    def hint(self, view: RummikubView) -> Solution:
        """The exact best move from the start of the turn (RUM-10)."""
        return solve(view.table, view.rack, initial=not view.melded[view.seat],
                     initial_meld=view.initial_meld, joker_penalty=view.joker_penalty)

    def apply_hint(self, hint: Solution) -> None:
        """Lay the hint's table out as the work in progress (undo goes back)."""
        self._save()
        left = list(self.start_rack)
        for tile in hint.played:
            left.remove(tile)
        self.sets = [list(s) for s in hint.table]
        self.rack = left
        self.selection = []

    def _save(self) -> None:
        self.history.append(([list(s) for s in self.sets], list(self.rack),
                             list(self.selection)))


def _ordered(tiles: Sequence[str]) -> list[str]:
    """A set in canonical order when it is valid, else sorted for reading."""
    arranged = arrange(tuple(tiles))
    if isinstance(arranged, Reason):
        return sorted(tiles, key=sort_key)
    return list(arranged.tiles)


def announcements(before: float, now: float) -> list[int]:
    """The thresholds of :data:`ANNOUNCE_AT` crossed between two readings of the seconds
    left: ``announcements(61.0, 59.5) == [60]``."""
    return [mark for mark in ANNOUNCE_AT if before > mark >= now]
