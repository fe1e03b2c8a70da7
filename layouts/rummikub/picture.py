"""Rummikub on a web page: tiles in the box's colours with their print number (a joker's
face), the table as rows of sets, each a group of tiles named as a run or a group; the turn
in progress built by picking tiles from the rack or the table, then pointing at a set's "put
here" or at "new set"; done, undo, reset, draw and hint as buttons (hint says what it would
lay before laying it); what this turn changed marked until done; the first meld's points so
far. Every click is the display's routing of the same target (:mod:`layouts.rummikub.work`).

    PICTURE.draw(view, lines, context)    # {"table": [sets...], "hand": [rack], ...}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.rummikub.engine import RummikubView
from games.rummikub.tiles import Arranged, TileSet, arrange, colour_of, is_joker, number_of
from layouts.catalog import Catalog
from layouts.picture import Json, Picture, Targets, button, card, group, question, text, words_of
from layouts.rummikub.paper import face
from layouts.rummikub.screen import (
    RACK_LINE,
    SELECTION_LINE,
    placed,
    set_key,
    turn_work,
)
from layouts.rummikub.work import Work
from layouts.screen import COMMAND_LINE, Context, Line

# The page's tile colours (page.css has none of these: layouts/rummikub/picture.css).
TONES = {"K": "tile-black", "R": "tile-red", "B": "tile-blue", "Y": "tile-orange"}
JOKER_TONE = "tile-joker"
JOKER_FACE = "☺"


def tile(text_of_tile: str, catalog: Catalog, target: str | None = None,
         marks: Sequence[str] = (), number: int | None = None) -> Json:
    """A tile as the box prints it: its number in its colour, a joker's face (and, in a
    set, the number it stands for): ``tile("R5", catalog)``."""
    found = face(text_of_tile, catalog)
    if is_joker(text_of_tile):
        name = (words_of(catalog)["joker_as"].format(number=number) if number is not None
                else found.caption)
        return card(found, big=JOKER_FACE, tone=JOKER_TONE, target=target, marks=marks,
                    name=name)
    return card(found, big=str(number_of(text_of_tile)), tone=TONES[colour_of(text_of_tile)],
                target=target, marks=marks)


def _numbers(tiles: TileSet) -> tuple[int, ...] | None:
    """What each place of a valid set stands for (a joker's number), ``None`` if invalid."""
    arranged = arrange(tuple(tiles))
    if isinstance(arranged, Arranged) and arranged.tiles == tuple(tiles):
        return arranged.numbers
    return None


class RummikubPicture(Picture):
    """The :class:`layouts.picture.Picture` of Rummikub."""

    tones = (*TONES.values(), JOKER_TONE)

    def __init__(self) -> None:
        super().__init__(hand=RACK_LINE, unit="tiles")

    def draw(self, view: RummikubView, lines: tuple[Line, ...], context: Context) -> Json:
        cat = context.catalog
        words = words_of(cat)
        targets = Targets(lines)
        work = turn_work(view, context)
        rack_tiles = work.rack if work is not None else view.hand
        rack = [tile(each, cat, target)
                for target, each in zip(targets.labels(RACK_LINE), rack_tiles, strict=True)]
        sets = work.sets if work is not None else placed(view.table, context)
        table = [self._set(index, tiles, work, targets, cat)
                 for index, tiles in enumerate(sets) if tiles]
        if not table:
            table.append(text(words["empty_table"]))
        return {"status": self._status(view, work, context), "table": table,
                "hand": [group("", rack)],
                "actions": self._actions(view, work, targets, cat), "help": words["help"]}

    @staticmethod
    def _status(view: RummikubView, work: Work | None, context: Context) -> list[str]:
        words = words_of(context.catalog)
        found = []
        if view.turn is None:
            found.append(words["over"])
        elif view.turn == view.seat:
            found.append(words["your_turn"])
            if not view.melded[view.seat] and work is not None:
                laid = sum(arranged.value for tiles in work.sets[len(work.start_sets):]
                           for arranged in [arrange(tuple(tiles))]
                           if tiles and isinstance(arranged, Arranged))
                found.append(context.catalog.count("picture.first_meld", laid, value=laid,
                                                   least=view.initial_meld))
        else:
            found.append(words["turn_of"].format(name=context.names[view.turn]))
        found.append(context.catalog.count("picture.pool", view.stock_size,
                                           count=view.stock_size))
        return found

    @staticmethod
    def _set(index: int, tiles: TileSet, work: Work | None, targets: Targets,
             cat: Catalog) -> Json:
        """One set of the table: its tiles (a click takes one into the selection), what this
        turn changed marked, "put here" while tiles are selected, why it is not a set yet."""
        words = words_of(cat)
        key = set_key(index + 1)
        regions = list(targets.each(key))
        before: TileSet = ()
        if work is not None and index < len(work.start_sets):
            before = work.start_sets[index]
        new_tiles = Counter(tiles) - Counter(before) if work is not None else Counter()
        numbers = _numbers(tiles)
        items = []
        for position, each in enumerate(tiles):
            take = regions[position + 1][0] if position + 1 < len(regions) else None
            marks = []
            if new_tiles[each] > 0:
                new_tiles[each] -= 1
                marks.append(words["new_tile"])
            items.append(tile(each, cat, take, marks,
                              numbers[position] if numbers is not None else None))
        put = regions[0][0] if regions else None
        if put is not None:
            items.append(button(words["put_here"], put))
        arranged = arrange(tuple(tiles))
        kind = (words["run"] if isinstance(arranged, Arranged) and arranged.kind == "run"
                else words["group"] if isinstance(arranged, Arranged) else words["not_set"])
        marks = []
        if work is not None and tuple(tiles) != tuple(before):
            marks.append(words["new_set"] if not before else words["changed"])
        note = cat.reason(arranged) if not isinstance(arranged, Arranged) else ""
        return group(words["set"].format(number=index + 1, kind=kind), items, note=note,
                     marks=marks)

    @staticmethod
    def _actions(view: RummikubView, work: Work | None, targets: Targets,
                 cat: Catalog) -> list[Json]:
        words = words_of(cat)
        if work is None:
            return [] if view.over else [text(words["wait"])]
        found: list[Json] = []
        if work.selection:
            picked = [tile(picked.tile, cat, target) for target, picked
                      in zip(targets.labels(SELECTION_LINE), work.selection, strict=True)]
            new_set = [target for target, region in targets.each(SELECTION_LINE)
                       if target is not None and not region.label]
            found.append(group(words["selected"], [*picked, button(words["make_set"],
                                                                   new_set[-1])]))
        screen = cat.section("screen")
        commands = {region.text: target for target, region in targets.each(COMMAND_LINE)}
        for name in ("done", "undo", "reset", "draw"):
            target = commands.get(str(screen[name]))
            if target is not None:
                found.append(button(words[name], target))
        hint_target = commands.get(str(screen["hint"]))
        hint = work.hint(view) if hint_target is not None else None
        if hint is not None and hint.count:  # with no move to lay, Draw a tile is the answer
            laid = ", ".join(face(each, cat).caption for each in hint.played)
            found.append(button(words["hint"], choices=question(
                cat.count("picture.hint_says", hint.count, count=hint.count, tiles=laid),
                [button(words["lay_hint"], hint_target)])))
        return found


PICTURE = RummikubPicture()
