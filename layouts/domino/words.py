"""Domino 10-11-12 in words: the label of a card in the reader's language, the same on the
display, on the embossed card and on a web page.

    label((6, 0), Catalog.load("domino", "fr"))     # '6/0'
"""

from __future__ import annotations

from games.domino.grid import Card, card_text
from layouts.catalog import Catalog


def label(card: Card, catalog: Catalog) -> str:
    """The label of a card: both halves' pips, higher first, 0 a blank half (the ``[cards]``
    words): ``label((6, 0), Catalog.load("domino", "en")) == "6/0"``."""
    return str(catalog.section("cards")[card_text(card)])
