"""Uno on paper: the whole deck (UNO-1), the face of a card (its UNO-12 label, captioned with
its colour) and the score sheet of rounds to the match target.

    deck_cards(rules)[:3]                      # ['r0', 'r1', 'r1']
    face("y7", Catalog.load("uno", "fr"))      # Face('y7', ('j7',), 'jaune 7')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.uno import notation
from layouts.catalog import Catalog
from layouts.paper import Face, PadRequest, Sheet, rounds_pad
from layouts.uno.words import label, print_name


def deck_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Uno deck (UNO-1) in canonical notation: ``r0``, ``r1``, ``r1``, ... ``wi+4``."""
    cards = [colour + value for colour in rules["colours"]
             for value, copies in rules["deck"].items() for _ in range(int(copies))]
    cards += [wild for wild, copies in rules["wilds"].items() for _ in range(int(copies))]
    return cards


def read_card(text: str, rules: Mapping[str, Any]) -> str:
    """A card in Uno's own notation (case and spaces ignored): ``read_card(" R7", rules)``."""
    return notation.parse_card(text, rules["colours"])


def face(card: str, catalog: Catalog) -> Face:
    """An Uno label (UNO-12): colour letter + value, a Wild alone: ``r5``, ``jk+4``; the
    caption names the card as the box prints it: ``rouge 7``, ``jaune passe ton tour``,
    ``joker +4``."""
    return Face(card, (label(card, catalog),), print_name(card, catalog))


def pad(request: PadRequest) -> list[Sheet]:
    """Uno: rounds until a player reaches the match target (500 in the box)."""
    return rounds_pad(str(request.words["title"]).format(target=request.rules["match_target"]),
                      request)
