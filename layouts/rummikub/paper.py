"""Rummikub on paper: the 106 tiles of the box (RUM-1), the face of a tile (its label,
captioned with its colour) and the score sheet of rounds (RUM-8).

    deck_cards(rules)[:2]                           # ['K1', 'K1']
    face("Y12", Catalog.load("rummikub", "fr"))     # Face('Y12', ('j12',), 'jaune 12')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rummikub import tiles
from layouts.catalog import Catalog
from layouts.paper import Face, PadRequest, Sheet, rounds_pad
from layouts.rummikub.words import label, print_name


def deck_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Rummikub box (RUM-1): ``K1`` .. ``Y13`` twice each, then the jokers ``J``."""
    return tiles.full_box(int(rules["copies"]), int(rules["jokers"]), rules["colours"],
                          int(rules["top"]))


def read_card(text: str, rules: Mapping[str, Any]) -> str:
    """A tile in the canonical notation, case ignored: ``read_card("y12", rules) == "Y12"``."""
    return tiles.parse_tile(text)


def face(card: str, catalog: Catalog) -> Face:
    """A tile's label, the display's own: colour letter + number (``j12`` in French for
    yellow 12), the joker ``jo`` (French) or ``jk`` (English); the caption names the tile as
    the box prints it: ``jaune 12``, ``joker``."""
    return Face(card, (label(card, catalog),), print_name(card, catalog))


def pad(request: PadRequest) -> list[Sheet]:
    """Rummikub (RUM-8): a round per row, plus for the winner, minus for the others."""
    return rounds_pad(str(request.words["title"]), request)
