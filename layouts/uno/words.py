"""Uno in words: the label of a card (UNO-12) and the name of a colour, in the reader's
language, the same on the display, on the embossed card and on a web page.

    label("r+2", Catalog.load("uno", "fr"))        # 'r+2'
    label("wi+4", Catalog.load("uno", "fr"))       # 'jk+4'
    colour_name("y", Catalog.load("uno", "en"))    # 'yellow'
    name("y7", Catalog.load("uno", "en").in_print())  # 'yellow 7', as the box prints it
"""

from __future__ import annotations

from games.uno.notation import WILDS, colour_of
from layouts.catalog import Catalog
from layouts.paper import caption_words


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


def print_name(card: str, catalog: Catalog) -> str:
    """A card named as the box prints it: ``print_name("ysk", Catalog.load("uno", "fr")) ==
    "jaune passe ton tour"``, ``"joker +4"`` for a Wild Draw Four."""
    words = caption_words("uno", catalog.lang)
    colour = colour_of(card)
    if not colour:
        return words[card]
    value = card[len(colour):]
    return words.get(value, words["number"]).format(colour=colour_name(colour, catalog),
                                                    value=value)


def name(card: str, catalog: Catalog) -> str:
    """A card as a sentence names it: its label, or its print name for a catalog
    :meth:`Catalog.in_print` (a web page's): ``name("b6", catalog)``."""
    return print_name(card, catalog) if catalog.print_names else label(card, catalog)
