"""Domino 10-11-12 on a display: several ways into a grid that fingers cannot take in at once.

Lines (``key``):
  ``messages``  the message history (the session reads it);
  ``status``    round, whose turn, every player's pad total, the own stock;
  ``hand``      one region per card, routing selects it (the selected one is in brackets);
  ``places``    every legal placement of the selected card, best first, each a short region
                ``c4>6 11+12 8`` (the 6 of the card on c4, laid to the right, lines of 11 and 12,
                8 points); routing plays it. The points are what the own pad really takes
                (a full column takes nothing, DOM-8), the order too. The round's opening shows
                both cards' squares;
  ``pad``       the own score pad: the boxes of columns 10, 11 and 12, bonuses, the total
                column's super bonuses, then the Grand Total (DOM-10);
  ``columns``   the grid's column letters, then one line per grid row (``grid3`` for row 3,
                ``grid-1`` for row -1: keys and names stay the same for the whole round): its
                number, then one cell per square (the braille glyphs of ``[grid]`` in the
                words, so every braille table shows the same cells and rows line up: a half by its
                pips, a blank half and an empty square feel different); routing a square
                keeps only the placements that cover it;
  ``commands``, ``help``.

    lines = SCREEN.screen(game.view(0), context)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Event, Json, Reason, Seat
from games.domino.engine import (
    Dealt,
    DominoView,
    Drew,
    Exchanged,
    GameEnded,
    Passed,
    Placed,
    RoundEnded,
    RoundStarted,
    parse_card,
)
from games.domino.grid import (
    Card,
    Opening,
    Option,
    Place,
    Square,
    anchor_of,
    bounds,
    column_of,
    opening_options,
    placements,
    row_of,
    square_name,
)
from games.domino.notation import parse_move
from games.domino.pad import ScorePad
from games.saved import each, ensure, field, integer, need_dict
from layouts.catalog import Catalog
from layouts.domino.words import half_name, label, name
from layouts.screen import (
    COMMAND_LINE,
    HAND_LINE,
    STATUS_LINE,
    Ask,
    Context,
    Line,
    PlayMove,
    Region,
    help_and_quit,
    help_line,
    message_line,
    own_step,
    status_line,
)

# The lines of the placements of the selected card, the own pad, the grid's column letters,
# then one line per grid row.
PLACES_LINE = "places"
PAD_LINE = "pad"
COLUMNS_LINE = "columns"


def grid_key(number: int) -> str:
    """The line of a grid row by its number, the round's fixed row names (0 and below above
    row 1): ``grid_key(3) == "grid3"``, ``grid_key(-1) == "grid-1"``."""
    return f"grid{number}"

BLANK_CELL = "\u2800"  # a braille blank, kept by every braille table (a space would be trimmed)


@dataclass(frozen=True)
class DominoInput:
    """What the player has chosen so far: a card of the hand and perhaps a square."""

    card: Card | None = None
    square: Square | None = None


def options_of(view: DominoView) -> list[Option]:
    """Every legal move of the view's seat now, from the view alone (empty if not its turn)."""
    if view.over or view.turn != view.seat:
        return []
    if view.opening:
        return opening_options(view.hand, view.rules)
    return placements(view.grid, view.hand, view.rules)


def best_first(view: DominoView, options: Sequence[Option]) -> list[Option]:
    """``options`` by what the seat's pad really takes (:meth:`DominoView.gain`), most
    first; among equals, the lines' face value first."""
    return sorted(options, key=lambda o: (-view.gain(o), -o.points, -len(o.lines)))


def _said(context: Context) -> DominoInput:
    return context.pending if isinstance(context.pending, DominoInput) else DominoInput()


def selected(view: DominoView, context: Context, options: Sequence[Option]) -> Card | None:
    """The card chosen on the hand line, else the card of the best placement."""
    said = _said(context)
    if said.card is not None and said.card in view.hand:
        return said.card
    ranked = best_first(view, options)
    if ranked:
        move = ranked[0].move
        return move.first.card if isinstance(move, Opening) else move.card
    return view.hand[0] if view.hand else None


def _places(move: Place | Opening) -> tuple[Place, ...]:
    return (move.first, move.second) if isinstance(move, Opening) else (move,)


def place_text(view: DominoView, place: Place) -> str:
    """``c4>6``: square, way (``>`` right, ``v`` down), the half laid on that square."""
    way = "v" if place.vertical else ">"
    return f"{square_name(anchor_of(view.table), (place.x, place.y))}{way}{place.first}"


def option_text(view: DominoView, option: Option, catalog: Catalog) -> str:
    """``c4>6 11+12 8``; an opening names both cards, each before its place:
    ``6/4 c3>6 5/5 c4>5 10+10+11 5``. The points are those the seat's pad takes
    (:meth:`DominoView.gain`)."""
    move = option.move
    if isinstance(move, Opening):
        where = " ".join(f"{label(p.card, catalog)} {place_text(view, p)}"
                         for p in _places(move))
    else:
        where = place_text(view, move)
    lines = "+".join(str(value) for value in option.lines) or catalog.text("dom_no_line")
    return f"{where} {lines} {view.gain(option)}"


def laid_words(event: Placed, catalog: Catalog) -> str:
    """The cards a turn laid, each with the half laid on each of its squares, named as the
    round names them: ``6/4 (4 on c3, 6 on d3)``; an opening's two cards joined."""
    named = _places(parse_move(event.notation))[0]  # its squares named from the anchor c3
    first = _places(event.move)[0]
    anchor = (first.x - named.x, first.y - named.y)
    told = []
    for place in _places(event.move):
        (one, first_half), (two, second_half) = place.cells()
        told.append(catalog.text("dom_laid_card", card=name(place.card, catalog),
                                 first=half_name(first_half, catalog),
                                 square=square_name(anchor, one),
                                 second=half_name(second_half, catalog),
                                 other=square_name(anchor, two)))
    return catalog.text("dom_laid_apart").join(told)


def pad_regions(pad: ScorePad, catalog: Catalog) -> list[Region]:
    """The sheet in regions: each value column's boxes, the bonuses, the total column's super
    bonuses (DOM-9), then the Grand Total (DOM-10, :meth:`ScorePad.total`); columns headed
    with the words of the printed pad (``layouts/domino/pad.toml``), the same pad."""
    words = catalog.section("pad")["columns"]
    regions = [Region(catalog.text("dom_pad_column", column=words[str(value)],
                                   boxes=" ".join(map(str, pad.column(value))) or "-"),
                      atomic=False) for value in pad.values]
    regions.append(Region(catalog.text("dom_pad_column", column=words["bonus"],
                                       boxes=" ".join(map(str, pad.bonuses())) or "-"),
                          atomic=False))
    regions.append(Region(catalog.text("dom_pad_column", column=words["total"],
                                       boxes=" ".join(map(str, pad.supers)) or "-"),
                          atomic=False))
    regions.append(Region(catalog.text("dom_pad_grand_total", total=pad.total())))
    return regions


def scores_text(scores: Sequence[int], context: Context) -> str:
    """Every seat's name and points: ``you 57, Bo 43``."""
    return ", ".join(f"{context.names[seat]} {points}" for seat, points in enumerate(scores))


def grand_totals(view: DominoView, context: Context) -> str:
    """DOM-10: every player's Grand Total, from the pads (``ScorePad.total``)."""
    return context.catalog.text("dom_grand_totals", scores=scores_text(
        [pad.total() for pad in view.pads], context))


def row_number(row: int, glyphs: Mapping[str, Any]) -> str:
    """A row's number in ``[grid]`` glyphs: the number sign, a minus above row 1 (rows 0,
    -1 ...), the digits."""
    digits = str(glyphs["digits"])
    minus = str(glyphs["minus"]) if row < 0 else ""
    return str(glyphs["number"]) + minus + "".join(digits[int(d)] for d in str(abs(row)))


def column_cell(name: str, glyphs: Mapping[str, Any]) -> str:
    """A column's name in one cell, so squares line up under it: its last letter, with the
    ``before`` dot added left of ``a`` (``-a``, ``-b`` ...) and the ``beyond`` dot from ``aa``
    on."""
    letter = str(glyphs["letters"])[ord(name[-1]) - ord("a")]
    mark = glyphs["before"] if name.startswith("-") else glyphs["beyond"] if len(name) > 1 \
        else BLANK_CELL
    return chr(ord(letter) | (ord(str(mark)) - ord(BLANK_CELL)))


class DominoScreen:
    """The :class:`layouts.screen.GameScreen` of Domino 10-11-12."""

    def screen(self, view: DominoView, context: Context) -> tuple[Line, ...]:
        options = options_of(view)
        lines = [message_line(context.messages, context.catalog), self.status(view, context),
                 self.hand(view, context, options), self.places(view, context, options),
                 Line(PAD_LINE, tuple(pad_regions(view.pads[view.seat], context.catalog))),
                 *self.grid(view, context)]
        lines.append(Line(COMMAND_LINE, help_and_quit(context.catalog)))
        lines.append(help_line(context.catalog, context.catalog.text("dom_help")))
        return tuple(lines)

    def home(self, view: DominoView, context: Context) -> str:
        return PLACES_LINE if view.turn == view.seat or view.over else STATUS_LINE

    def status(self, view: DominoView, context: Context) -> Line:
        cat = context.catalog
        texts = [cat.text("dom_round", round=view.round + 1, rounds=view.rounds)]
        if view.over:
            texts.append(cat.text("dom_game_over"))
        elif view.turn is not None:
            texts.append(cat.text("dom_turn", name=context.names[view.turn]))
        texts += [cat.text("dom_total", name=context.names[seat], total=pad.total())
                  for seat, pad in enumerate(view.pads)]
        texts.append(cat.text("dom_stock", count=view.stock_sizes[view.seat]))
        return status_line(texts)

    def hand(self, view: DominoView, context: Context, options: Sequence[Option]) -> Line:
        """One region per card, highest first; routing selects it for the placements line."""
        chosen = selected(view, context, options)
        regions = []
        for card in sorted(view.hand, reverse=True):
            text = label(card, context.catalog)
            if card == chosen:
                text = f"[{text}]"
                chosen = None  # two copies of a card: the first one shows the choice
            regions.append(Region(text, target=Ask(DominoInput(card), then=PLACES_LINE),
                                  label=True))
        if not regions:
            regions.append(Region(context.catalog.text("dom_no_cards")))
        return Line(HAND_LINE, tuple(regions))

    def places(self, view: DominoView, context: Context, options: Sequence[Option]) -> Line:
        """The selected card's legal placements, best first (only those covering the routed
        square, if one was routed); routing one plays it."""
        cat = context.catalog
        if view.over:
            return Line(PLACES_LINE, (Region(cat.text("dom_game_over")),
                                      Region(grand_totals(view, context))))
        if view.turn != view.seat:
            return Line(PLACES_LINE, (Region(cat.text("dom_wait")),))
        chosen = selected(view, context, options)
        square = _said(context).square
        mine = [o for o in options if chosen in [p.card for p in _places(o.move)]]
        if square is not None:
            mine = [o for o in mine
                    if any(square in p.squares for p in _places(o.move))]
        regions = [Region(option_text(view, o, cat), target=PlayMove(o.move), label=True)
                   for o in best_first(view, mine)]
        if square is not None:
            name = square_name(anchor_of(view.table), square)
            regions.insert(0, Region(cat.text("dom_at", square=name),
                                     target=Ask(DominoInput(chosen))))
        if not mine:
            regions.append(Region(cat.text("dom_no_place")))
        return Line(PLACES_LINE, tuple(regions))

    def grid(self, view: DominoView, context: Context,
             area: tuple[int, int, int, int] | None = None) -> list[Line]:
        """The column letters, then one line per grid row of the layout and its margin, each
        square one cell of ``[grid]`` glyphs with no gap (``gap=0``) so rows and letters line
        up cell under cell on a multi-row display. Columns and rows carry the round's fixed
        names (:func:`games.domino.notation.square_name`); a line is keyed by its row.
        ``area`` (x0, y0, x1, y1) shows more squares around the layout (a board keeps its
        rows still so): those past the margin are shown empty, with nothing to route."""
        glyphs = context.catalog.section("grid")
        halves: Sequence[str] = glyphs["halves"]
        empty = str(glyphs["empty"])
        anchor = anchor_of(view.table)
        inside = bounds(view.grid)
        x0, y0, x1, y1 = inside if area is None else area
        numbers = {y: row_number(row_of(anchor, y), glyphs) for y in range(y0, y1 + 1)}
        width = max(len(text) for text in numbers.values())
        said = _said(context)
        # a blank cell after the row number: a one-pip half must not read as one more digit
        header = [Region(str(glyphs["corner"]) * width + BLANK_CELL)]
        header += [Region(column_cell(column_of(anchor, x), glyphs))
                   for x in range(x0, x1 + 1)]
        lines = [Line(COLUMNS_LINE, tuple(header), gap=0)]
        for y in range(y0, y1 + 1):
            regions = [Region(numbers[y].rjust(width, BLANK_CELL) + BLANK_CELL)]
            for x in range(x0, x1 + 1):
                pips = view.grid.get((x, y))
                text = empty if pips is None else str(halves[pips])
                target = None if pips is not None or not _within(inside, x, y) else \
                    Ask(DominoInput(said.card, (x, y)), then=PLACES_LINE)
                regions.append(Region(text, target=target))
            lines.append(Line(grid_key(row_of(anchor, y)), tuple(regions), gap=0))
        return lines

    def explain(self, reason: Reason, context: Context) -> str:
        """A refusal in words, its card named for the reader (:func:`name`)."""
        args = dict(reason.params)
        if "card" in args:
            args["card"] = name(parse_card(str(args["card"])), context.catalog)
        return context.catalog.text(reason.code, **args)

    def prompt(self, view: DominoView, context: Context) -> str | None:
        if view.turn != view.seat or view.over:
            return None
        key = "dom_your_opening" if view.opening else "dom_your_turn"
        return context.catalog.text(key)

    def echoes(self, event: Event, context: Context) -> bool:
        """The seat's card laid: the grid shows it, the pad its points and bonuses."""
        return own_step(event, context, (Placed,))

    def describe(self, event: Event, context: Context) -> str | None:
        """An event as the display's seat learns it, in words (speech says the same)."""
        cat = context.catalog

        def say(code: str, seat: Seat, **args: Any) -> str:
            own = seat == context.seat
            return cat.text(f"{code}_you" if own else code, name=context.names[seat], **args)

        def cards(hand: Sequence[Card]) -> str:
            return cat.series(name(card, cat) for card in hand)

        if isinstance(event, RoundStarted):
            return say("dom_round_started", event.dealer, round=event.round + 1)
        if isinstance(event, Dealt):
            return say("dom_dealt", event.seat, cards=cards(event.cards)) if event.cards \
                else None
        if isinstance(event, Placed):
            lines = "+".join(map(str, event.lines))
            code = "dom_placed_lines" if event.lines else "dom_placed"
            text = say(code, event.seat, move=laid_words(event, cat), lines=lines,
                       count=event.entry.points)
            extras = [cat.text("dom_row_bonus", row=row + 1, points=bonus)
                      for row, bonus in event.entry.row_bonuses]
            if event.entry.super_row is not None:
                extras.append(cat.text("dom_super_bonus", points=event.entry.super_value))
            extras += [cat.text("dom_column_full", value=value) for value in event.entry.lost]
            return " ".join([text, *extras])
        if isinstance(event, Drew):
            return cat.text("dom_drew_you", cards=cards(event.cards)) if event.cards \
                else None
        if isinstance(event, Exchanged):
            text = say("dom_exchanged", event.seat, cards=cards(event.shown), count=event.count)
            if event.cards:
                text += " " + cat.text("dom_drew_you", cards=cards(event.cards))
            return text
        if isinstance(event, Passed):
            return say("dom_passed", event.seat)
        if isinstance(event, RoundEnded):
            return cat.text("dom_round_ended", round=event.round + 1,
                            scores=scores_text(event.scores, context))
        if isinstance(event, GameEnded):
            # short: the round's end told the scores; the Grand Totals wait on the home line
            if context.seat in event.winners:
                return cat.text("dom_won_you")
            return cat.text("dom_won", name=", ".join(context.names[s] for s in event.winners))
        return None

    def save_input(self, pending: Hashable) -> Json:
        """``{"card": [6, 0], "square": [2, 3]}`` (either may be ``null``); ``None`` when
        nothing is chosen."""
        said = pending if isinstance(pending, DominoInput) else DominoInput()
        if said == DominoInput():
            return None
        return {"card": None if said.card is None else list(said.card),
                "square": None if said.square is None else list(said.square)}

    def load_input(self, data: Json, view: DominoView) -> Hashable:
        """The saved choice: a card of the seat's hand, an empty square of the grid shown."""
        if data is None:
            return None
        saved = need_dict(data, "pending")
        card = _pair(field(saved, "card", "pending"), "pending.card", 0, 9)
        ensure(card is None or card in view.hand, "pending.card", "not_in_hand")
        x0, y0, x1, y1 = bounds(view.grid)
        square = _pair(field(saved, "square", "pending"), "pending.square", -10_000, 10_000)
        ensure(square is None or (x0 <= square[0] <= x1 and y0 <= square[1] <= y1
                                  and square not in view.grid), "pending.square", "not_empty")
        return DominoInput(card, square)


def _within(area: tuple[int, int, int, int], x: int, y: int) -> bool:
    x0, y0, x1, y1 = area
    return x0 <= x <= x1 and y0 <= y <= y1


def _pair(value: Json, at: str, low: int, high: int) -> tuple[int, int] | None:
    """Two whole numbers from ``low`` to ``high`` (a card's pips, a square), or ``None``."""
    if value is None:
        return None
    first, second = each(value, at, 2, lambda number, where: integer(number, where, low, high),
                         least=2)
    return first, second


SCREEN = DominoScreen()
