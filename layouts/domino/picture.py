"""Domino 10-11-12 on a web page: the hand's cards with their two halves; the grid as the
round names it, where the chosen card can go lit, each lit square saying what it earns (the
points the places line ranks by: what the pad really takes); pointing at a lit square lays the
card there, after asking which way when several are legal; the same places listed in words,
best first; the score pad drawn as the printed sheet, rows and columns 10, 11, 12, bonus,
total, and the Grand Total.

    PICTURE.draw(view, lines, context)    # {"table": [board], "hand": [...], "below": [...]}
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from games.domino.engine import DominoView
from games.domino.grid import Card, Opening, Option, Place, Square, bounds
from games.domino.notation import anchor_of, column_of, row_of, square_name
from games.domino.pad import ScorePad
from layouts.catalog import Catalog
from layouts.domino.paper import face
from layouts.domino.screen import PLACES_LINE, best_first, options_of, selected
from layouts.domino.words import half_words
from layouts.picture import (
    Json,
    Picture,
    Targets,
    board,
    button,
    card,
    group,
    question,
    sheet,
    text,
    words_of,
)
from layouts.screen import HAND_LINE, Context, Line, PlayMove

# Places listed before "show all": a round's opening has up to a few hundred.
FOLD = 8


def places_of(move: Place | Opening) -> tuple[Place, ...]:
    """The places a move lays its cards at: one, two for a round's opening."""
    return (move.first, move.second) if isinstance(move, Opening) else (move,)


def card_words(card_pips: Card, catalog: Catalog) -> str:
    """A card as the box shows it: ``6 and blank``."""
    high, low = card_pips
    return face(f"{high}/{low}", catalog).caption


def place_words(view: DominoView, place: Place, catalog: Catalog) -> str:
    """Where a card's halves go, in words: ``5 on c4, 3 to its right``."""
    words = words_of(catalog)
    return words["place"].format(first=half_words(place.first, catalog),
                                 square=square_name(anchor_of(view.table), (place.x, place.y)),
                                 second=half_words(place.second, catalog),
                                 way=words["down" if place.vertical else "right"])


def option_words(view: DominoView, option: Option, catalog: Catalog) -> str:
    """A legal move and what it earns, in words: ``5 on c4, 3 to its right: lines of 12
    and 10, worth 6``; an opening names both cards."""
    words = words_of(catalog)
    where = words["then"].join(place_words(view, place, catalog)
                               for place in places_of(option.move))
    lines = (words["lines"].format(values=words["and"].join(map(str, option.lines)))
             if option.lines else words["no_line"])
    return words["option"].format(where=where, lines=lines, points=view.gain(option))


# The side of a square its card's other half lies on, by the step from one to the other.
SIDES = {(1, 0): "right", (-1, 0): "left", (0, 1): "down", (0, -1): "up"}


def laid_halves(view: DominoView, catalog: Catalog) -> dict[Square, Json]:
    """Each square of a card laid on the grid: its pips, the side its card's other half
    lies on (the page draws the two as one card), and what a screen reader reads of it:
    ``{"text": "5", "joins": "right", "name": "5, half of 5 and 3, its other half on
    d4"}``."""
    anchor = anchor_of(view.table)
    found: dict[Square, Json] = {}
    for place in view.table:
        cells = place.cells()
        for (square, pips), (other, _) in (cells, cells[::-1]):
            step = (other[0] - square[0], other[1] - square[1])
            found[square] = {"text": str(pips), "joins": SIDES[step],
                             "name": words_of(catalog)["laid"].format(
                                 pips=half_words(pips, catalog),
                                 card=card_words(place.card, catalog),
                                 square=square_name(anchor, other))}
    return found


class DominoPicture(Picture):
    """The :class:`layouts.picture.Picture` of Domino 10-11-12."""

    def draw(self, view: DominoView, lines: tuple[Line, ...], context: Context) -> Json:
        cat = context.catalog
        words = words_of(cat)
        targets = Targets(lines)
        options = options_of(view)
        chosen = selected(view, context, options)
        mine = [option for option in best_first(view, options)
                if chosen in [place.card for place in places_of(option.move)]]
        laid = {option: targets.of(PLACES_LINE, PlayMove(option.move)) for option in mine}
        cards = []
        shown = False  # two copies of a card: the first shows the choice, as on the display
        for target, each in zip(targets.labels(HAND_LINE), sorted(view.hand, reverse=True),
                                strict=True):
            is_chosen = each == chosen and not shown and bool(options)
            shown = shown or is_chosen
            cards.append(card(face(f"{each[0]}/{each[1]}", cat), halves=each, target=target,
                              chosen=is_chosen, marks=[words["chosen"]] if is_chosen else []))
        actions: list[Json] = []
        if mine:
            actions.append(group(words["pick"].format(card=card_words(chosen, cat))
                                 if chosen is not None else "",
                                 [button(option_words(view, option, cat), laid[option])
                                  for option in mine], kind="column", fold=FOLD))
        elif not view.over:
            actions.append(text(words["wait"]))
        return {"status": self._status(view, context),
                "table": [self._board(view, chosen, mine, laid, targets, cat)],
                "hand": [group("", cards)], "actions": actions,
                "below": [self._pad(view.pads[view.seat], cat)], "help": words["help"]}

    @staticmethod
    def _status(view: DominoView, context: Context) -> list[str]:
        words = words_of(context.catalog)
        found = [words["round"].format(round=view.round + 1, rounds=view.rounds)]
        if view.over:
            found.append(words["over"])
        elif view.turn == view.seat:
            found.append(words["opening_turn" if view.opening else "your_turn"])
        elif view.turn is not None:
            found.append(words["turn_of"].format(name=context.names[view.turn]))
        totals = ", ".join(f"{context.names[seat]} {pad.total()}"
                           for seat, pad in enumerate(view.pads))
        found.append(words["totals"].format(scores=totals))
        stock = view.stock_sizes[view.seat]
        found.append(context.catalog.count("picture.stock", stock, count=stock))
        return found

    @staticmethod
    def _board(view: DominoView, chosen: Card | None, mine: Sequence[Option],
               laid: dict[Option, str | None], targets: Targets, cat: Catalog) -> Json:
        """The grid, each square where the chosen card's half can go lit with its best
        points; one way there is played at once, several are asked first."""
        words = words_of(cat)
        anchor = anchor_of(view.table)
        at: dict[Square, list[Option]] = defaultdict(list)
        for option in mine:
            place = next(place for place in places_of(option.move) if place.card == chosen)
            at[(place.x, place.y)].append(option)
        halves = laid_halves(view, cat)
        x0, y0, x1, y1 = bounds(view.grid)
        for x, y in at:
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
        rows = []
        for y in range(y0, y1 + 1):
            squares: list[Json] = []
            for x in range(x0, x1 + 1):
                pips = view.grid.get((x, y))
                here = at.get((x, y), [])
                if pips is not None:
                    squares.append(halves.get((x, y), {"text": str(pips)}))
                elif here:
                    best = view.gain(here[0])
                    name = cat.count("picture.lit_name", best, points=best,
                                     square=square_name(anchor, (x, y)))
                    choices = None if len(here) == 1 else question(
                        words["ask_way"].format(card=card_words(chosen, cat) if chosen
                                                else "", square=square_name(anchor, (x, y))),
                        [button(option_words(view, option, cat), laid[option])
                         for option in here[:FOLD]])
                    squares.append({"text": words["lit"].format(points=best), "name": name,
                                    "target": laid[here[0]] if choices is None else None,
                                    "choices": choices})
                else:
                    squares.append({})
            rows.append({"name": str(row_of(anchor, y)), "squares": squares})
        return board(words["board"], [column_of(anchor, x) for x in range(x0, x1 + 1)], rows)

    @staticmethod
    def _pad(pad: ScorePad, cat: Catalog) -> Json:
        """The own sheet as printed (DOM-8): a row per line of boxes with its bonus, the
        super bonuses in total from the bottom up, the Grand Total (DOM-10)."""
        words = words_of(cat)
        printed = cat.section("pad")
        columns = printed["columns"]
        earned = pad.bonuses()
        supers = dict(zip(pad.super_rows(), pad.supers, strict=True))
        rows = []
        for row in range(pad.rows):
            boxes = [str(pad.column(value)[row]) if row < len(pad.column(value)) else ""
                     for value in pad.values]
            bonus = words["bonus_earned" if row < len(earned) else "bonus_printed"].format(
                bonus=pad.row_bonus[row])
            rows.append([str(row + 1), *boxes, bonus, str(supers.get(row, ""))])
        head = [words["row"], *(str(columns[str(value)]) for value in pad.values),
                str(columns["bonus"]), str(columns["total"])]
        foot = [[str(printed["grand_total"]), *([""] * (len(head) - 2)), str(pad.total())]]
        return sheet(words["pad"], head, rows, foot)


PICTURE = DominoPicture()
