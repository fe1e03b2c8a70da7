"""Rummikub in words: the label of a tile in the reader's language, the same on the display,
on the embossed tile and on a web page.

    label("Y12", Catalog.load("rummikub", "fr"))    # 'j12'
    label("J", Catalog.load("rummikub", "en"))      # 'jk'
    name("Y12", Catalog.load("rummikub", "en").in_print())   # 'yellow 12', as printed
"""

from __future__ import annotations

from games.rummikub.tiles import JOKER, colour_of, is_joker, number_of
from layouts.catalog import Catalog
from layouts.paper import caption_words


def label(tile: str, catalog: Catalog) -> str:
    """The label of a tile: its colour letter and number (``label("Y12", fr) == "j12"``),
    the joker's own label (``jk`` in English, ``jo`` in French)."""
    labels = catalog.section("cards")
    if is_joker(tile):
        return str(labels["joker"])
    return str(labels["colour_prefix"][colour_of(tile)]) + str(number_of(tile))


def print_name(tile: str, catalog: Catalog) -> str:
    """A tile named as the box prints it: ``print_name("Y12", Catalog.load("rummikub",
    "fr")) == "jaune 12"``, ``"joker"``."""
    words = caption_words("rummikub", catalog.lang)
    if is_joker(tile):
        return words["joker"]
    colour = catalog.section("names")["colours"][colour_of(tile)]
    return words["number"].format(colour=colour, value=number_of(tile))


def name(tile: str, catalog: Catalog) -> str:
    """A tile as a sentence names it: its label, or its print name for a catalog
    :meth:`Catalog.in_print` (a web page's): ``name("R4", catalog)``."""
    return print_name(tile, catalog) if catalog.print_names else label(tile, catalog)


def joker_for(number: int, catalog: Catalog) -> str:
    """A joker in a set with the number it stands for, as a sentence names it: ``jk5``,
    or ``joker as 5`` for a catalog :meth:`Catalog.in_print`: ``joker_for(5, catalog)``."""
    if catalog.print_names:
        return catalog.text("picture.joker_as", number=number)
    return f"{label(JOKER, catalog)}{number}"
