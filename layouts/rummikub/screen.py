"""Rummikub on a display: the rack, the selected tiles, the commands, the work-in-progress
table (one line per set), messages and help, as lines of regions.

The turn is built in a :class:`layouts.rummikub.work.Work` (the session's pending state,
each routing target the state it leads to): routing a rack tile
selects it, routing a selected tile gives it back, routing a tile of a set takes it out of
the set, routing a set's number adds the selection to it, ``new set`` makes the selection a
set. A set that is not a run or a group is marked: dots 7 and 8 raised under its number and
every tile (``Region.mark``); its reason is on the ``problems`` line. ``done`` plays the
whole table (the engine judges it; a selection left over is refused at once), ``undo`` steps
back, ``reset`` restores the table, ``draw`` draws, ``hint`` lays out the solver's best move
and says what it laid on the ``hint`` line (or that there is none: draw).

A set keeps its number while it lasts, through a hint and the others' turns (the seat keeps
the places, ``Context.keep``); a joker in a set reads as the number it stands for (``jk5``);
a meld is told as every set it made or changed, by number, those tiles were taken from
included (``set 2 lost y10, now y11 y12 y13``).

    lines = SCREEN.screen(game.view(0), context)
    [line.key for line in lines][:3]     # ['messages', 'status', 'rack']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from games.core import Event, Json, Reason
from games.rummikub.engine import (
    Draw,
    Drew,
    FirstPlayer,
    GameOver,
    Laid,
    Passed,
    RummikubView,
    StartDraw,
)
from games.rummikub.tiles import Arranged, TileSet, arrange, is_joker, parse_set, sort_key
from layouts.catalog import Catalog
from layouts.rummikub.words import joker_for, label, name
from layouts.rummikub.work import Work, in_place
from layouts.screen import (
    COMMAND_LINE,
    Ask,
    Context,
    Line,
    PlayMove,
    Refuse,
    Region,
    help_and_quit,
    help_line,
    message_line,
    own_step,
    status_line,
)
from layouts.screen import words as word_regions

# The lines of the rack, the selected tiles, what the hint did and why sets are invalid; one
# line per table set.
RACK_LINE = "rack"
SELECTION_LINE = "selection"
HINT_LINE = "hint"
PROBLEMS_LINE = "problems"


def set_key(number: int) -> str:
    """The line of a table set, numbered from 1: ``set_key(2) == "set_2"``."""
    return f"set_{number}"

# The key of the set places the seat keeps between drawings (Context.keep).
PLACES = "rummikub_places"


def placed(table: Sequence[TileSet], context: Context) -> tuple[TileSet, ...]:
    """``table`` with its sets at the places the seat has seen them at (see
    :func:`layouts.rummikub.work.in_place`), remembered for the next time."""
    sets = in_place(context.keep.get(PLACES, ()), table)
    context.keep[PLACES] = sets
    return sets


def turn_work(view: RummikubView, context: Context) -> Work | None:
    """The turn in progress, when it is the display's seat's turn."""
    if view.over or view.turn != view.seat:
        return None
    pending = context.pending
    if isinstance(pending, Work):
        return pending
    return Work.start(view, placed(view.table, context))


def _stands_for(tiles: Sequence[str]) -> tuple[int, ...] | None:
    """The number each tile of a valid set stands for (a joker's own), else ``None``."""
    arranged = arrange(tuple(tiles))
    return arranged.numbers if isinstance(arranged, Arranged) and \
        arranged.tiles == tuple(tiles) else None


def tile_labels(tiles: Sequence[str], cat: Catalog) -> list[str]:
    """The labels of a set's tiles, a joker with the number it stands for (``jk5``) when
    the set is valid."""
    numbers = _stands_for(tiles)
    return [f"{label(tile, cat)}{numbers[place]}" if is_joker(tile) and numbers is not None
            else label(tile, cat) for place, tile in enumerate(tiles)]


def tile_names(tiles: Sequence[str], cat: Catalog) -> str:
    """A set's tiles as a sentence names them (:func:`name`), a joker with the number it
    stands for when the set is valid: ``r4 jk5 r6``, on a web page ``red 4, joker as 5,
    red 6``."""
    numbers = _stands_for(tiles)
    return cat.series(joker_for(numbers[place], cat) if is_joker(tile) and numbers is not None
                      else name(tile, cat) for place, tile in enumerate(tiles))


def changes(before: Sequence[TileSet], after: Sequence[TileSet], cat: Catalog) -> str:
    """The sets that differ between two tables of numbered places (:func:`placed`), in
    words: a set made or grown with its tiles (``set 4 r7 b7 y7``), one that only gave tiles
    with what it lost and what is left (``set 2 lost y10, now y11 y12 y13``), one taken
    apart (``set 3 taken apart``): ``changes(start, hinted, catalog)``."""
    told = []
    for index in range(max(len(before), len(after))):
        old = Counter(before[index] if index < len(before) else ())
        tiles = after[index] if index < len(after) else ()
        new = Counter(tiles)
        if old == new:
            continue
        shown = tile_names(tiles, cat)
        if not tiles:
            told.append(cat.text("set_gone", set=index + 1))
        elif not new - old:
            lost = cat.series(name(tile, cat) for tile in sorted((old - new).elements(),
                                                                 key=sort_key))
            told.append(cat.text("set_lost", set=index + 1, lost=lost, tiles=shown))
        else:
            told.append(cat.text("set_told", set=index + 1, tiles=shown))
    return str(cat.section("screen")["sets_apart"]).join(told)


class RummikubScreen:
    """The :class:`layouts.screen.GameScreen` of Rummikub."""

    def screen(self, view: RummikubView, context: Context) -> tuple[Line, ...]:
        cat = context.catalog
        work = turn_work(view, context)
        lines = [message_line(context.messages, cat), self.status(view, context)]
        sets = work.sets if work is not None else placed(view.table, context)
        lines.append(self.rack(view, context, work))
        if work is not None and work.selection:
            lines.append(self.selection(work, cat))
        # the commands next to the rack: done or hint is a line key away, however big the table
        lines.append(self.commands(view, work, cat))
        if work is not None and work.hinted:
            lines.append(self.hinted(work, cat))
        lines += self.table_lines(sets, work, cat)
        if work is not None:
            problems = self.problems(work, cat)
            if problems is not None:
                lines.append(problems)
        lines.append(help_line(cat, cat.text("rummikub_help")))
        return tuple(lines)

    def home(self, view: RummikubView, context: Context) -> str:
        return RACK_LINE

    def status(self, view: RummikubView, context: Context) -> Line:
        words = context.catalog.section("screen")
        texts = []
        if view.turn is None:
            texts.append(str(words["over"]))
        elif view.turn == view.seat:
            texts.append(str(words["your_turn"]))
            if not view.melded[view.seat]:
                texts.append(str(words["first_meld"]).format(least=view.initial_meld))
        else:
            texts.append(str(words["turn_of"]).format(player=context.names[view.turn]))
        texts.append(str(words["pool"]).format(count=view.stock_size))
        for step in range(1, len(view.hand_sizes)):
            seat = (view.seat + step) % len(view.hand_sizes)
            count = view.hand_sizes[seat]
            texts.append(context.catalog.count("tiles_of", count,
                                               player=context.names[seat], count=count))
        return status_line(texts)

    def time_left(self, seconds: int, context: Context) -> str:
        """The time left in words, ``"Time is up."`` once none is (never "0 seconds left",
        while the move the clock plays is on its way): ``time_left(15, context)``."""
        if seconds <= 0:
            return context.catalog.text("time_up")
        return context.catalog.count("time_left", seconds, count=seconds)

    def clock_starts(self, seconds: int, context: Context) -> str:
        return context.catalog.count("clock_starts", seconds, count=seconds)

    def clock_notice(self, view: RummikubView, context: Context) -> str | None:
        """How long the seat's turns are, and how to play without the clock (RUM-7)."""
        seconds = view.turn_times[view.seat]
        return context.catalog.count("clock_notice", seconds, count=seconds) if seconds \
            else None

    def rack(self, view: RummikubView, context: Context, work: Work | None) -> Line:
        """One region per tile still on the rack; routing selects it."""
        cat = context.catalog
        regions = [Region(str(cat.section("screen")["rack"]))]
        tiles = work.rack if work is not None else view.hand
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
            for position, text in enumerate(tile_labels(tiles, cat)):
                take = Ask(work.take(index, position)) if work is not None else None
                regions.append(Region(text, target=take, mark=marked, label=True))
            lines.append(Line(set_key(index + 1), tuple(regions)))
        if not lines:
            lines.append(Line(set_key(1), (Region(str(cat.section("screen")["empty_table"])),)))
        return lines

    def hinted(self, work: Work, cat: Catalog) -> Line:
        """What the hint laid out, by the sets it made or changed (``done`` plays it), or
        that there is no move, with ``draw`` to route."""
        laid = Counter(work.start_rack) - Counter(work.rack)
        if not laid:
            return Line(HINT_LINE, (*word_regions(cat.text("hint_none")),
                                    Region(str(cat.section("screen")["draw"]),
                                           target=PlayMove(Draw()))))
        tiles = " ".join(label(tile, cat) for tile in sorted(laid.elements(), key=sort_key))
        return Line(HINT_LINE, word_regions(cat.text(
            "hint_laid", tiles=tiles, sets=changes(work.start_sets, work.sets, cat))))

    def problems(self, work: Work, cat: Catalog) -> Line | None:
        """Why each marked set is not valid."""
        texts = [cat.text("set_problem", set=index + 1, why=cat.reason(reason))
                 for index, reason in sorted(work.problems().items())]
        if not texts:
            return None
        return Line(PROBLEMS_LINE, tuple(Region(text) for text in texts))

    def commands(self, view: RummikubView, work: Work | None, cat: Catalog) -> Line:
        """done, undo, reset, draw, hint (when it is the seat's turn), help, quit."""
        words = cat.section("screen")
        regions = []
        if work is not None:
            ending = work.done()
            done = Refuse(ending) if isinstance(ending, Reason) else PlayMove(ending)
            regions.append(Region(str(words["done"]), target=done))
            back = work.undo()
            if back is not None:
                regions.append(Region(str(words["undo"]), target=Ask(back)))
            regions.append(Region(str(words["reset"]), target=Ask(None)))
            regions.append(Region(str(words["draw"]), target=PlayMove(Draw())))
            hinted = work.apply_hint(work.hint(view))
            regions.append(Region(str(words["hint"]), target=Ask(
                hinted, then=HINT_LINE, said=" ".join(self.hinted(hinted, cat).text.split()))))
        regions += help_and_quit(cat)
        return Line(COMMAND_LINE, tuple(regions))

    def prompt(self, view: RummikubView, context: Context) -> str | None:
        if view.over or view.turn != view.seat:
            return None
        return context.catalog.text("your_turn_rummikub")

    def explain(self, reason: Reason, context: Context) -> str:
        """A refusal with its tiles and sets named for the reader (a set given in notation,
        ``K4 J K6``, reads ``k4 jk5 k6``, on a web page ``black 4, joker as 5, black 6``)."""
        cat = context.catalog
        params = dict(reason.params)
        if isinstance(params.get("tile"), str):
            params["tile"] = name(str(params["tile"]), cat)
        if isinstance(params.get("set"), str):
            params["set"] = tile_names(parse_set(str(params["set"])), cat)
        return cat.text(reason.code, **params)

    def echoes(self, event: Event, context: Context) -> bool:
        """The seat's own table played: its rack and the set lines show it."""
        return own_step(event, context, (Laid,))

    def describe(self, event: Event, context: Context) -> str | None:
        """What a seat learns of an event, in words, the seat itself as "you"; a meld is
        told as the sets it made or changed, by the numbers they keep."""
        cat = context.catalog
        names = context.names

        def say(code: str, seat: int, **args: object) -> str:
            if seat == context.seat:
                return cat.text(f"{code}_you", **args)
            return cat.text(code, player=names[seat], **args)

        if isinstance(event, Laid):
            return say("laid_initial" if event.initial else "laid", event.seat,
                       tiles=cat.series(name(t, cat) for t in event.played),
                       sets=self._sets_told(event, context))
        if isinstance(event, Drew):
            if event.cards:
                tiles = cat.series(name(t, cat) for t in event.cards)
                return say("drew_penalty" if event.penalty else "drew", event.seat,
                           tiles=tiles, count=event.count)
            return say("drew_penalty" if event.penalty else "drew", event.seat,
                       tiles="", count=event.count)
        if isinstance(event, Passed):
            return say("passed", event.seat)
        if isinstance(event, StartDraw):
            return say("start_draw", event.seat, tile=name(event.tile, cat))
        if isinstance(event, FirstPlayer):
            return say("first_player", event.seat)
        if isinstance(event, GameOver):
            winners = ", ".join(names[s] for s in event.winners)
            scores = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(event.scores))
            return cat.count("game_over_rummikub", len(event.winners), winners=winners,
                             scores=scores)
        return None

    def save_input(self, pending: Hashable) -> Json:
        """The turn being built (:meth:`Work.to_dict`); ``None`` when none is."""
        return pending.to_dict() if isinstance(pending, Work) else None

    def load_input(self, data: Json, view: RummikubView) -> Hashable:
        """The turn being built, checked against the seat's table and rack."""
        return None if data is None else Work.from_dict(data, view)

    @staticmethod
    def _sets_told(event: Laid, context: Context) -> str:
        """Every set the move changed, by the number it keeps (:func:`changes`): the seat's
        last table is what it is compared with, so a tile of the same colour and number
        already on the table is never taken for one laid."""
        before = context.keep.get(PLACES)
        after = placed(event.table, context)
        if before is None:  # no table seen yet: the sets holding a tile laid, as they are
            laid = Counter(event.played)
            before = tuple(() if laid & Counter(tiles) else tiles for tiles in after)
        return changes(before, after, context.catalog)

SCREEN = RummikubScreen()
