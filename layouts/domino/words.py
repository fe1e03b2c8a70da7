"""Domino 10-11-12 in words: the label of a card in the reader's language, the same on the
display, on the embossed card and on a web page.

    label((6, 0), Catalog.load("domino", "fr"))     # '6/0'
    name((6, 0), Catalog.load("domino", "en").in_print())   # '6 and blank', as printed
"""

from __future__ import annotations

from games.domino.grid import Card, card_text
from layouts.catalog import Catalog
from layouts.paper import caption_words


def label(card: Card, catalog: Catalog) -> str:
    """The label of a card: both halves' pips, higher first, 0 a blank half (the ``[cards]``
    words): ``label((6, 0), Catalog.load("domino", "en")) == "6/0"``."""
    return str(catalog.section("cards")[card_text(card)])


def half_words(pips: int, catalog: Catalog) -> str:
    """A half as the box shows it: its pips, or blank: ``half_words(0, en) == "blank"``."""
    return str(pips) if pips else str(caption_words("domino", catalog.lang)["blank"])


def print_name(card: Card, catalog: Catalog) -> str:
    """A card named by its halves as the box shows them, higher first:
    ``print_name((6, 0), Catalog.load("domino", "en")) == "6 and blank"``."""
    high, low = (half_words(pips, catalog) for pips in card)
    return str(caption_words("domino", catalog.lang)["card"]).format(high=high, low=low)


def half_name(pips: int, catalog: Catalog) -> str:
    """A half as a sentence names it: its pips, on a web page blank for none
    (:func:`half_words`): ``half_name(0, catalog)``."""
    return half_words(pips, catalog) if catalog.print_names else str(pips)


def name(card: Card, catalog: Catalog) -> str:
    """A card as a sentence names it: its label, or its print name for a catalog
    :meth:`Catalog.in_print` (a web page's): ``name((5, 3), catalog)``."""
    return print_name(card, catalog) if catalog.print_names else label(card, catalog)
