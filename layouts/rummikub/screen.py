"""Rummikub on a display: the rack, the work-in-progress table (one line per set), the
selected tiles, commands, messages and help, as lines of regions.

The turn is built in a :class:`layouts.rummikub.work.Work` (the session's pending state,
each routing target the state it leads to): routing a rack tile
selects it, routing a selected tile gives it back, routing a tile of a set takes it out of
the set, routing a set's number adds the selection to it, ``new set`` makes the selection a
set. A set that is not a run or a group is marked: dots 7 and 8 raised under its number and
every tile (``Region.mark``); its reason is on the ``problems`` line. ``done`` plays the
whole table (the engine judges it), ``undo`` steps back, ``reset`` restores the table,
``draw`` draws, ``hint`` lays out the solver's best move.

    lines = SCREEN.screen(game.view(0), context)
    [line.key for line in lines][:3]     # ['messages', 'status', 'rack']
"""

from __future__ import annotations

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
from games.rummikub.tiles import TileSet
from layouts.catalog import Catalog
from layouts.rummikub.words import label
from layouts.rummikub.work import Work
from layouts.screen import (
    COMMAND_LINE,
    PROBLEMS_LINE,
    RACK_LINE,
    SELECTION_LINE,
    Ask,
    Context,
    Line,
    PlayMove,
    Region,
    help_and_quit,
    help_line,
    message_line,
    set_key,
    status_line,
)


def _work(view: RummikubView, context: Context) -> Work | None:
    """The turn in progress, when it is the display's seat's turn."""
    if view.over or view.turn != view.seat:
        return None
    pending = context.pending
    if isinstance(pending, Work):
        return pending
    return Work.start(view)


class RummikubScreen:
    """The :class:`layouts.screen.GameScreen` of Rummikub."""

    def screen(self, view: RummikubView, context: Context) -> tuple[Line, ...]:
        cat = context.catalog
        work = _work(view, context)
        lines = [message_line(context.messages, cat), self.status(view, context)]
        sets = work.sets if work is not None else view.table
        lines.append(self.rack(view, context, work))
        if work is not None and work.selection:
            lines.append(self.selection(work, cat))
        lines += self.table_lines(sets, work, cat)
        if work is not None:
            problems = self.problems(work, cat)
            if problems is not None:
                lines.append(problems)
        lines.append(self.commands(view, work, cat))
        lines.append(help_line(cat, cat.text("rummikub_help")))
        return tuple(lines)

    def home(self, view: RummikubView, context: Context) -> str:
        return RACK_LINE

    def status(self, view: RummikubView, context: Context) -> Line:
        words = context.catalog.section("screen")
        texts = []
        if view.over:
            texts.append(str(words["over"]))
        elif view.turn == view.seat:
            texts.append(str(words["your_turn"]))
            if not view.melded[view.seat]:
                texts.append(str(words["first_meld"]).format(least=view.initial_meld))
        else:
            texts.append(str(words["turn_of"]).format(player=context.names[view.turn]))
        texts.append(str(words["pool"]).format(count=view.pool))
        for step in range(1, len(view.rack_counts)):
            seat = (view.seat + step) % len(view.rack_counts)
            texts.append(str(words["other"]).format(player=context.names[seat],
                                                    count=view.rack_counts[seat]))
        return status_line(texts)

    def time_limit(self, view: RummikubView) -> float | None:
        """The seat's seconds per turn (RUM-7) while it is its turn; ``None``: no limit."""
        if view.over or view.turn != view.seat:
            return None
        return view.turn_times[view.seat] or None

    def timeout_move(self, view: RummikubView) -> Timeout:
        """Time is up: the table goes back as it was and the seat draws the penalty."""
        return Timeout()

    def time_left(self, seconds: int, context: Context) -> str:
        return context.catalog.text("time_left", seconds=seconds)

    def rack(self, view: RummikubView, context: Context, work: Work | None) -> Line:
        """One region per tile still on the rack; routing selects it."""
        cat = context.catalog
        regions = [Region(str(cat.section("screen")["rack"]))]
        tiles = work.rack if work is not None else view.rack
        for index, tile in enumerate(tiles):
            target = Ask(work.select_rack(index)) if work is not None else None
            regions.append(Region(label(tile, cat), target=target, label=True))
        return Line(RACK_LINE, tuple(regions))

    def selection(self, work: Work, cat: Catalog) -> Line:
        """The selected tiles (routing gives one back), then ``new set``."""
        words = cat.section("screen")
        regions = [Region(str(words["selected"]))]
        for index, picked in enumerate(work.selection):
            regions.append(Region(label(picked.tile, cat), target=Ask(work.deselect(index)),
                                  label=True))
        regions.append(Region(str(words["new_set"]), target=Ask(work.new_set())))
        return Line(SELECTION_LINE, tuple(regions))

    def table_lines(self, sets: tuple[TileSet, ...], work: Work | None,
                    cat: Catalog) -> list[Line]:
        """A line per set: its number (routing adds the selection to it), then its tiles
        (routing takes one into the selection); a set that is not valid is marked (dots 7-8
        under every cell), its reason on the ``problems`` line."""
        problems = work.problems() if work is not None else {}
        lines = []
        for index, tiles in enumerate(sets):
            if not tiles:
                continue
            head = str(index + 1)
            marked = index in problems
            target = Ask(work.add_to(index)) if work is not None and work.selection else None
            regions = [Region(head, target=target, mark=marked)]
            for position, tile in enumerate(tiles):
                take = Ask(work.take(index, position)) if work is not None else None
                regions.append(Region(label(tile, cat), target=take, mark=marked, label=True))
            lines.append(Line(set_key(index + 1), tuple(regions)))
        if not lines:
            lines.append(Line(set_key(1), (Region(str(cat.section("screen")["empty_table"])),)))
        return lines

    def problems(self, work: Work, cat: Catalog) -> Line | None:
        """Why each marked set is not valid, and the note of a refused ``done``."""
        texts = [cat.text("set_problem", set=index + 1, why=cat.reason(reason))
                 for index, reason in sorted(work.problems().items())]
        if work.note is not None:
            texts.insert(0, cat.reason(work.note))
        if not texts:
            return None
        return Line(PROBLEMS_LINE, tuple(Region(text) for text in texts))

    def commands(self, view: RummikubView, work: Work | None, cat: Catalog) -> Line:
        """done, undo, reset, draw, hint (when it is the seat's turn), help, quit."""
        words = cat.section("screen")
        regions = []
        if work is not None:
            ending = work.done()
            done = Ask(work.noted(ending)) if isinstance(ending, Reason) else PlayMove(ending)
            regions.append(Region(str(words["done"]), target=done))
            back = work.undo()
            if back is not None:
                regions.append(Region(str(words["undo"]), target=Ask(back)))
            regions.append(Region(str(words["reset"]), target=Ask(None)))
            regions.append(Region(str(words["draw"]), target=PlayMove(Draw())))
            hint = work.hint(view)
            if hint.count:
                regions.append(Region(str(words["hint"]), target=Ask(work.apply_hint(hint))))
        regions += help_and_quit(cat)
        return Line(COMMAND_LINE, tuple(regions))

    def prompt(self, view: RummikubView, context: Context) -> str | None:
        if view.over or view.turn != view.seat:
            return None
        return context.catalog.text("your_turn_rummikub")

    def explain(self, reason: Reason, context: Context) -> str:
        cat = context.catalog
        params = {k: label(v, cat) if k == "tile" else v for k, v in reason.params.items()}
        return cat.text(reason.code, **params)

    def describe(self, event: Event, context: Context) -> str | None:
        """What a seat learns of an event, in words; opponents' melds are spoken."""
        cat = context.catalog
        names = context.names
        if isinstance(event, Laid):
            tiles = " ".join(label(t, cat) for t in event.played)
            code = "laid_initial" if event.initial else "laid"
            return cat.text(code, player=names[event.seat], tiles=tiles,
                            count=len(event.played), sets=len(event.table))
        if isinstance(event, Drew):
            if event.cards:
                tiles = " ".join(label(t, cat) for t in event.cards)
                code = "you_penalty" if event.penalty else "you_drew"
                return cat.text(code, tiles=tiles)
            code = "drew_penalty" if event.penalty else "drew"
            return cat.text(code, player=names[event.seat], count=event.count)
        if isinstance(event, Passed):
            return cat.text("passed", player=names[event.seat])
        if isinstance(event, StartDraw):
            return cat.text("start_draw", player=names[event.seat],
                            tile=label(event.tile, cat))
        if isinstance(event, FirstPlayer):
            return cat.text("first_player", player=names[event.seat])
        if isinstance(event, GameOver):
            winners = ", ".join(names[s] for s in event.winners)
            scores = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(event.scores))
            return cat.text("game_over_rummikub", winners=winners, scores=scores)
        return None


SCREEN = RummikubScreen()
