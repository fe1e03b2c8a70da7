"""Rummikub in words: the label of a tile in the reader's language, the same on the display,
on the embossed tile and on a web page.

    label("Y12", Catalog.load("rummikub", "fr"))    # 'j12'
    label("J", Catalog.load("rummikub", "en"))      # 'jk'
"""

from __future__ import annotations

from games.rummikub.tiles import colour_of, is_joker, number_of
from layouts.catalog import Catalog


def label(tile: str, catalog: Catalog) -> str:
    """The label of a tile: its colour letter and number (``label("Y12", fr) == "j12"``),
    the joker's own label (``jk`` in English, ``jo`` in French)."""
    labels = catalog.section("cards")
    if is_joker(tile):
        return str(labels["joker"])
    return str(labels["colour_prefix"][colour_of(tile)]) + str(number_of(tile))
