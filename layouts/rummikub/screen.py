"""Rummikub on a display: the rack, the work-in-progress table (one line per set), the
selected tiles, commands, messages and help, as lines of regions.

The turn is built in a :class:`Work` (the session's pending state): routing a rack tile
selects it, routing a selected tile gives it back, routing a tile of a set takes it out of
the set, routing a set's number adds the selection to it, ``new set`` makes the selection a
set. A set that is not a run or a group is marked: dots 7 and 8 raised under its number and
every tile (``Region.mark``); its reason is on the ``problems`` line. ``done`` plays the
whole table (the engine judges it), ``undo`` steps back, ``reset`` restores the table,
``draw`` draws, ``hint`` lays out the solver's best move.

    lines = SCREEN.screen(game.view(0), table)
    [line.key for line in lines][:3]     # ['messages', 'status', 'rack']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.core import Event, Reason
from games.rummikub.engine import (
    Draw,
    Drew,
    FirstPlayer,
    GameOver,
    Laid,
    Passed,
    RummikubView,
    StartDraw,
    Timeout,
)
from games.rummikub.solver import solve
from games.rummikub.tiles import TileSet, is_joker
from layouts.catalog import Catalog
from layouts.common.screen import Ask, Move, Show, Table, Ui, help_line, message_line
from layouts.rummikub.workspace import Picked, Workspace
from layouts.screen import Line, Region


@dataclass(frozen=True)
class Work:
    """The turn being built: the table's sets now, the rack, the selection (tile, origin:
    ``None`` the rack, else a set index), the state before the last action, and a note
    (a reason code to show, or the empty string)."""

    sets: tuple[TileSet, ...]
    rack: tuple[str, ...]
    selection: tuple[tuple[str, int | None], ...] = ()
    back: Work | None = None
    note: str = ""

    @classmethod
    def start(cls, view: RummikubView) -> Work:
        work = Workspace.start(view)
        return cls(tuple(tuple(s) for s in work.sets), tuple(work.rack))

    def space(self, view: RummikubView) -> Workspace:
        space = Workspace.start(view)
        space.sets = [list(s) for s in self.sets]
        space.rack = list(self.rack)
        space.selection = [Picked(tile, origin) for tile, origin in self.selection]
        return space

    def after(self, space: Workspace, note: str = "") -> Work:
        return Work(tuple(tuple(s) for s in space.sets), tuple(space.rack),
                    tuple((p.tile, p.origin) for p in space.selection), self, note)


def tile_label(catalog: Catalog, tile: str) -> str:
    """The display's (and the embosser's) label of a tile: ``j12`` in French for Y12."""
    labels = catalog.table("cards")
    if is_joker(tile):
        return str(labels["joker"])
    return str(labels["colour_prefix"][tile[0]]) + tile[1:]


def set_label(catalog: Catalog, tiles: TileSet) -> str:
    return " ".join(tile_label(catalog, t) for t in tiles)


@lru_cache(maxsize=8)
def _hint_tables(table: tuple[TileSet, ...], rack: tuple[str, ...], initial: bool,
                 least: int, penalty: int) -> tuple[TileSet, ...] | None:
    best = solve(table, rack, initial=initial, initial_meld=least, joker_penalty=penalty)
    return best.table if best.count else None


def _work(view: RummikubView, table: Table) -> Work | None:
    """The turn in progress, when it is the display's seat's turn."""
    if view.over or view.turn != view.seat:
        return None
    pending = table.pending
    if isinstance(pending, Work):
        return pending
    return Work.start(view)


class RummikubScreen:
    """The :class:`layouts.common.screen.GameScreen` of Rummikub."""

    def screen(self, view: RummikubView, table: Table) -> tuple[Line, ...]:
        cat = table.catalog
        work = _work(view, table)
        lines = [message_line(table.messages, cat), self.status(view, table)]
        sets = work.sets if work is not None else view.table
        lines.append(self.rack(view, table, work))
        if work is not None and work.selection:
            lines.append(self.selection(view, work, cat))
        lines += self.table_lines(view, sets, work, cat)
        if work is not None:
            problems = self.problems(view, work, cat)
            if problems is not None:
                lines.append(problems)
        lines.append(self.commands(view, work, cat))
        lines.append(help_line(cat, cat.text("rummikub_help")))
        return tuple(lines)

    def home(self, view: RummikubView, table: Table) -> str:
        return "rack"

    def status(self, view: RummikubView, table: Table) -> Line:
        words = table.catalog.table("screen")
        texts = []
        if view.over:
            texts.append(str(words["over"]))
        elif view.turn == view.seat:
            texts.append(str(words["your_turn"]))
            if not view.melded[view.seat]:
                texts.append(str(words["first_meld"]).format(least=view.initial_meld))
        else:
            texts.append(str(words["turn_of"]).format(player=table.names[view.turn]))
        texts.append(str(words["pool"]).format(count=view.pool))
        for step in range(1, len(view.rack_counts)):
            seat = (view.seat + step) % len(view.rack_counts)
            texts.append(str(words["other"]).format(player=table.names[seat],
                                                    count=view.rack_counts[seat]))
        return Line("status", tuple(Region(text + ("," if i < len(texts) - 1 else ""))
                                    for i, text in enumerate(texts)))

    def time_limit(self, view: RummikubView) -> float | None:
        """The seat's seconds per turn (RUM-7) while it is its turn; ``None``: no limit."""
        if view.over or view.turn != view.seat:
            return None
        return view.turn_times[view.seat] or None

    def timeout_move(self, view: RummikubView) -> Timeout:
        """Time is up: the table goes back as it was and the seat draws the penalty."""
        return Timeout()

    def time_left(self, seconds: int, table: Table) -> str:
        return table.catalog.text("time_left", seconds=seconds)

    def rack(self, view: RummikubView, table: Table, work: Work | None) -> Line:
        """One region per tile still on the rack; routing selects it."""
        cat = table.catalog
        regions = [Region(str(cat.table("screen")["rack"]))]
        tiles = work.rack if work is not None else view.rack
        for index, tile in enumerate(tiles):
            target = None
            if work is not None:
                space = work.space(view)
                space.select_rack(index)
                target = Ask(work.after(space))
            regions.append(Region(tile_label(cat, tile), target=target))
        return Line("rack", tuple(regions))

    def selection(self, view: RummikubView, work: Work, cat: Catalog) -> Line:
        """The selected tiles (routing gives one back), then ``new set``."""
        words = cat.table("screen")
        regions = [Region(str(words["selected"]))]
        for index, (tile, _) in enumerate(work.selection):
            space = work.space(view)
            space.deselect(index)
            regions.append(Region(tile_label(cat, tile), target=Ask(work.after(space))))
        space = work.space(view)
        space.new_set()
        regions.append(Region(str(words["new_set"]), target=Ask(work.after(space))))
        return Line("selection", tuple(regions))

    def table_lines(self, view: RummikubView, sets: tuple[TileSet, ...], work: Work | None,
                    cat: Catalog) -> list[Line]:
        """A line per set: its number (routing adds the selection to it), then its tiles
        (routing takes one into the selection); a set that is not valid is marked (dots 7-8
        under every cell), its reason on the ``problems`` line."""
        problems = work.space(view).problems() if work is not None else {}
        lines = []
        for index, tiles in enumerate(sets):
            if not tiles:
                continue
            head = str(index + 1)
            marked = index in problems
            target = None
            if work is not None and work.selection:
                space = work.space(view)
                space.add_to(index)
                target = Ask(work.after(space))
            regions = [Region(head, target=target, mark=marked)]
            for position, tile in enumerate(tiles):
                take = None
                if work is not None:
                    space = work.space(view)
                    space.take(index, position)
                    take = Ask(work.after(space))
                regions.append(Region(tile_label(cat, tile), target=take, mark=marked))
            lines.append(Line(f"set_{index + 1}", tuple(regions)))
        if not lines:
            lines.append(Line("set_1", (Region(str(cat.table("screen")["empty_table"])),)))
        return lines

    def problems(self, view: RummikubView, work: Work, cat: Catalog) -> Line | None:
        """Why each marked set is not valid, and the note of a refused ``done``."""
        texts = [cat.text("set_problem", set=index + 1, why=cat.reason(reason))
                 for index, reason in sorted(work.space(view).problems().items())]
        if work.note:
            texts.insert(0, cat.text(work.note, count=len(work.selection)))
        if not texts:
            return None
        return Line("problems", tuple(Region(text) for text in texts))

    def commands(self, view: RummikubView, work: Work | None, cat: Catalog) -> Line:
        """done, undo, reset, draw, hint (when it is the seat's turn), help, quit."""
        words = cat.table("screen")
        regions = []
        if work is not None:
            ending = work.space(view).done()
            done = Ask(Work(work.sets, work.rack, work.selection, work.back, ending.code)) \
                if isinstance(ending, Reason) else Move(ending)
            regions.append(Region(str(words["done"]), target=done))
            if work.back is not None:
                regions.append(Region(str(words["undo"]), target=Ask(work.back)))
            regions.append(Region(str(words["reset"]), target=Ask(None)))
            regions.append(Region(str(words["draw"]), target=Move(Draw())))
            hinted = _hint_tables(view.table, view.rack, not view.melded[view.seat],
                                  view.initial_meld, view.joker_penalty)
            if hinted is not None:
                space = work.space(view)
                space.reset()
                space.sets = [list(s) for s in hinted]
                space.rack = _rack_left(view, hinted)
                regions.append(Region(str(words["hint"]), target=Ask(work.after(space))))
        regions.append(Region(cat.text("help"), target=Show("help")))
        regions.append(Region(cat.text("quit"), target=Ui("quit")))
        return Line("commands", tuple(regions))

    def prompt(self, view: RummikubView, table: Table) -> str | None:
        if view.over or view.turn != view.seat:
            return None
        return table.catalog.text("your_turn_rummikub")

    def explain(self, reason: Reason, table: Table) -> str:
        cat = table.catalog
        params = {k: tile_label(cat, v) if k == "tile" else v for k, v in reason.params.items()}
        return cat.text(reason.code, **params)

    def describe(self, event: Event, table: Table) -> str | None:
        """What a seat learns of an event, in words; opponents' melds are spoken."""
        cat = table.catalog
        names = table.names
        if isinstance(event, Laid):
            tiles = " ".join(tile_label(cat, t) for t in event.played)
            code = "laid_initial" if event.initial else "laid"
            return cat.text(code, player=names[event.seat], tiles=tiles,
                            count=len(event.played), sets=len(event.table))
        if isinstance(event, Drew):
            if event.cards:
                tiles = " ".join(tile_label(cat, t) for t in event.cards)
                code = "you_penalty" if event.penalty else "you_drew"
                return cat.text(code, tiles=tiles)
            code = "drew_penalty" if event.penalty else "drew"
            return cat.text(code, player=names[event.seat], count=event.count)
        if isinstance(event, Passed):
            return cat.text("passed", player=names[event.seat])
        if isinstance(event, StartDraw):
            return cat.text("start_draw", player=names[event.seat],
                            tile=tile_label(cat, event.tile))
        if isinstance(event, FirstPlayer):
            return cat.text("first_player", player=names[event.seat])
        if isinstance(event, GameOver):
            winners = ", ".join(names[s] for s in event.winners)
            scores = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(event.scores))
            return cat.text("game_over_rummikub", winners=winners, scores=scores)
        return None


def _count(sets: tuple[TileSet, ...], tile: str) -> int:
    return sum(s.count(tile) for s in sets)


def _rack_left(view: RummikubView, final: tuple[TileSet, ...]) -> list[str]:
    """The rack once the tiles that ``final`` adds to the table have left it."""
    left = list(view.rack)
    for tile in set(t for s in final for t in s):
        for _ in range(_count(final, tile) - _count(view.table, tile)):
            left.remove(tile)
    return left


SCREEN = RummikubScreen()
