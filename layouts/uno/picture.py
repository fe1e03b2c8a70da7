"""Uno on a web page: the hand's cards in their colours with their value, the top of the
discard pile, the colour asked, the stock and the direction of play.

    PICTURE.draw(view, lines, catalog)    # {"cards": {"2.0": {...}}, "top": {...}, ...}
"""

from __future__ import annotations

from typing import Any

from games.uno.engine import UnoView
from games.uno.notation import WILDS, colour_of
from layouts.catalog import Catalog
from layouts.picture import Json, Picture, card_face, rows_keyed
from layouts.screen import HAND_LINE, Line
from layouts.uno.paper import face
from layouts.uno.screen import sort_hand
from layouts.uno.words import colour_name

# The page's card colour of each colour letter (a wild card is drawn black).
TONES = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "w": "black"}
# What an action card shows big, for its value.
SYMBOLS = {"wi": "W", "wi+4": "+4", "sk": "⊘", "rv": "⇄"}


def uno_card(card: str, catalog: Catalog) -> Json:
    """A card with its tone and the value it shows big: ``uno_card("rsk", catalog)``."""
    found = card_face(face(card, catalog))
    colour = colour_of(card)
    found["tone"] = TONES[colour or "w"]
    value = card if card in WILDS else card[len(colour):]
    found["value"] = SYMBOLS.get(value, value)
    return found


class UnoPicture(Picture):
    """The :class:`layouts.picture.Picture` of Uno."""

    tones = tuple(TONES.values())

    def draw(self, view: UnoView, lines: tuple[Line, ...], catalog: Catalog) -> Json:
        cards: dict[str, Any] = {}
        for row, line in rows_keyed(lines, HAND_LINE):
            for column, card in enumerate(sort_hand(view.hand, view.colours)):
                if column < len(line.regions):
                    cards[f"{row}.{column}"] = uno_card(card, catalog)
        return {"cards": cards, "top": uno_card(view.top, catalog) if view.top else None,
                "colour": {"code": view.colour, "name": colour_name(view.colour, catalog)}
                if view.colour else None,
                "stock": view.stock_size, "direction": view.direction}


PICTURE = UnoPicture()
