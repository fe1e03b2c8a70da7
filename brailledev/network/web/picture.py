"""What a web page draws besides the screen's lines: the seat's table as a sighted player
expects it (cards with their print value, colour and braille label, the top of the discard
pile, the Domino grid, every player's card count, whose turn), built only from the seat's
view and its screen, never from the state.

Every region of the screen travels as a dict; a card label's region carries its braille
cells (Unicode U+2800..), translated as ``emboss`` translates the label on the card: letter
by letter through the reader's uncontracted table.

    frame_lines(lines, "fr")      # [{"key": "hand", "regions": [{"text": "r5", ...}]}]
    picture(reader, lines)        # {"players": [...], "cards": {"2.0": {...}}, ...}
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

from brailledev.display.braille import label_table, table_for, translator
from brailledev.table.presence import SEAT_BOT, SEAT_FREE, TableSeat
from games.domino.grid import bounds, card_text
from games.domino.notation import anchor_of, column_of, row_of, square_name
from games.uno.notation import WILDS, colour_of
from layouts.catalog import Catalog
from layouts.domino.screen import grid_key
from layouts.registry import kit
from layouts.screen import (
    HAND_LINE,
    Ask,
    Line,
    PlayMove,
    Region,
    Show,
    Ui,
)
from layouts.uno.screen import sort_hand
from layouts.uno.words import colour_name

Json = dict[str, Any]


def braille_label(text: str, lang: str) -> str:
    """A card label's cells as embossed: ``braille_label("r5", "en") == "⠗⠼⠑"``."""
    return translator(label_table(table_for(lang))).translate(text, label=True).cells


def action(target: Hashable) -> str | None:
    """What routing a target does, as the page needs to know it: ``play`` a move, ``ask``
    (a choice on the way to a move), ``show`` a line, a session command ``ui:<name>``."""
    if target is None:
        return None
    if isinstance(target, PlayMove):
        return "play"
    if isinstance(target, Ask):
        return "ask"
    if isinstance(target, Show):
        return "show"
    if isinstance(target, Ui):
        return f"ui:{target.name}"
    return "other"


def region_json(region: Region, row: int, column: int, lang: str) -> Json:
    """One region as the page gets it: text, its target's id ("line.region") and action,
    whether it is marked, and a card label's braille."""
    found: Json = {"text": region.text, "mark": region.mark,
                   "target": f"{row}.{column}" if region.target is not None else None,
                   "action": action(region.target)}
    if region.label:
        found["braille"] = braille_label(region.text.strip("[]"), lang)
    return found


def frame_lines(lines: tuple[Line, ...], lang: str) -> list[Json]:
    """The screen's lines as the page gets them (see :func:`region_json`)."""
    return [{"key": line.key, "regions": [region_json(region, row, column, lang)
                                          for column, region in enumerate(line.regions)]}
            for row, line in enumerate(lines)]


def _rows(lines: tuple[Line, ...], key: str) -> Iterator[tuple[int, Line]]:
    return ((row, line) for row, line in enumerate(lines) if line.key == key)


def _card(game: str, card: str, catalog: Catalog) -> Json:
    deck = kit(game).deck
    assert deck is not None, f"{game} has cards"
    face = deck.face(card, catalog)
    label = " ".join(face.lines)
    return {"card": card, "label": label, "caption": face.caption,
            "braille": braille_label(label, catalog.lang)}


def _uno(reader: TableSeat, view: Any, lines: tuple[Line, ...]) -> Json:
    catalog = reader.catalog
    cards: Json = {}
    for row, line in _rows(lines, HAND_LINE):
        for column, card in enumerate(sort_hand(view.hand, view.colours)):
            if column < len(line.regions):
                cards[f"{row}.{column}"] = _uno_card(card, catalog)
    top = _uno_card(view.top, catalog) if view.top else None
    return {"cards": cards, "top": top,
            "colour": {"code": view.colour, "name": colour_name(view.colour, catalog)}
            if view.colour else None,
            "stock": view.stock_size, "direction": view.direction}


def _uno_card(card: str, catalog: Catalog) -> Json:
    found = _card("uno", card, catalog)
    colour = colour_of(card)
    found["colour"] = colour or "w"
    found["value"] = {"wi": "W", "wi+4": "+4", "sk": "⊘", "rv": "⇄"}.get(
        card if card in WILDS else card[len(colour):], card[len(colour):])
    return found


def _domino(reader: TableSeat, view: Any, lines: tuple[Line, ...]) -> Json:
    catalog = reader.catalog
    cards: Json = {}
    for row, line in _rows(lines, HAND_LINE):
        for column, card in enumerate(sorted(view.hand, reverse=True)):
            if column < len(line.regions):
                found = _card("domino", card_text(card), catalog)
                found["halves"] = list(card)
                found["chosen"] = line.regions[column].text.startswith("[")
                cards[f"{row}.{column}"] = found
    # Squares carry the round's fixed names, as on the display and in the messages.
    anchor = anchor_of(view.table)
    x0, y0, x1, y1 = bounds(view.grid)
    rows = []
    for y in range(y0, y1 + 1):
        number = row_of(anchor, y)
        where = next((row for row, _ in _rows(lines, grid_key(number))), None)
        squares = []
        for x in range(x0, x1 + 1):
            pips = view.grid.get((x, y))
            target = f"{where}.{x - x0 + 1}" if where is not None and pips is None else None
            squares.append({"pips": pips, "target": target,
                            "name": square_name(anchor, (x, y))})
        rows.append({"number": str(number), "squares": squares})
    return {"cards": cards, "grid": {"columns": [column_of(anchor, x)
                                                 for x in range(x0, x1 + 1)], "rows": rows}}


_GAMES: dict[str, Callable[[TableSeat, Any, tuple[Line, ...]], Json]] = {
    "uno": _uno, "domino": _domino}


def picture(reader: TableSeat, lines: tuple[Line, ...]) -> Json:
    """The seat's table as the page draws it: every player (name as the seat reads it, how
    the seat is played, connected or not, card count, whose turn) and, for Uno and Domino,
    the cards of the hand by region id, the top card, the grid."""
    view = reader.view()
    counts = getattr(view, "hand_sizes", None)
    turn = getattr(view, "turn", None)
    players = []
    for seat, state in enumerate(reader.company.seats()):
        players.append({"name": reader.names[seat] if seat < len(reader.names) else "",
                        "you": seat == reader.seat,
                        "kind": state.kind, "connected": state.connected
                        if state.kind not in (SEAT_BOT, SEAT_FREE) else None,
                        "count": counts[seat] if counts is not None else None,
                        "turn": isinstance(turn, int) and turn == seat})
    found: Json = {"game": reader.game, "players": players}
    draw = _GAMES.get(reader.game)
    if draw is not None:
        found.update(draw(reader, view, lines))
    return found
