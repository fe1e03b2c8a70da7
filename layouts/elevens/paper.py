"""Elevens on paper: every card of the box (ELV-1), the face of a card (its label, captioned
with its colour or kind) and the score sheet (ELV-11).

    deck_cards(rules)[-1]                           # 'bonus'
    face("y12", Catalog.load("elevens", "fr"))      # Face('y12', ('j12',), 'jaune 12')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.elevens.engine import JOKER
from layouts.catalog import Catalog
from layouts.elevens.words import BONUS_CARD, LINK_CARD, label, print_name
from layouts.paper import Face, PadRequest, Sheet, rounds_pad


def deck_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Elevens box (ELV-1): ``r1`` .. ``b21``, then ``*`` jokers, ``L`` link cards and
    ``bonus`` cards, as many as the box data says."""
    cards = [f"{colour}{value}" for colour in rules["colours"]
             for value in range(int(rules["lowest"]), int(rules["highest"]) + 1)]
    counts = {JOKER: rules["jokers"], LINK_CARD: rules["link_cards"],
              BONUS_CARD: rules["bonus_cards"]}
    return cards + [card for card, count in counts.items() for _ in range(int(count))]


def face(card: str, catalog: Catalog) -> Face:
    """An Elevens label: colour letter + value (``j12`` in French), ``*``, ``li``, ``11``; the
    caption names the card as the box prints it: ``jaune 12``, ``carte liaison``."""
    return Face(card, (label(card, catalog),), print_name(card, catalog))


def pad(request: PadRequest) -> list[Sheet]:
    """Elevens (ELV-11): a game per row; the footer gives the box's points."""
    footer = str(request.words["footer"]).format(**request.rules["points"])
    return [replace(sheet, footer=footer)
            for sheet in rounds_pad(str(request.words["title"]), request)]
