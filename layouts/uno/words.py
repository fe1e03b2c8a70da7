"""Uno in words: the label of a card (UNO-12) and the name of a colour, in the reader's
language, the same on the display, on the embossed card and on a web page.

    label("r+2", Catalog.load("uno", "fr"))        # 'r+2'
    label("wi+4", Catalog.load("uno", "fr"))       # 'jk+4'
    colour_name("y", Catalog.load("uno", "en"))    # 'yellow'
"""

from __future__ import annotations

from games.uno.notation import WILDS
from layouts.catalog import Catalog


def label(card: str, catalog: Catalog) -> str:
    """The label of a card in Uno's notation: its colour letter and value, a Wild alone:
    ``label("b+2", Catalog.load("uno", "en")) == "b+2"``."""
    cards = catalog.section("cards")
    if card in WILDS:
        return str(cards[card])
    return str(cards["colour_prefix"][card[0]]) + str(cards[card[1:]])


def colour_name(colour: str, catalog: Catalog) -> str:
    """A colour in words: ``colour_name("r", Catalog.load("uno", "fr")) == "rouge"``."""
    return str(catalog.section("names")["colours"][colour])
