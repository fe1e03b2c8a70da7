"""Elements on paper: the 55 number cards and 5 element cards (ELE-1), the face of a card (its
label, captioned with its colour) and the score sheet (ELE-7, ELE-8).

    deck_cards(rules)[-1]                           # 'Ek'
    face("Ek", Catalog.load("elements", "fr"))      # Face('Ek', ('en',), 'élément noir')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.elements.cards import ELEMENT_PREFIX, Card, element_label
from layouts.catalog import Catalog
from layouts.elements.words import label, print_name
from layouts.paper import Column, Face, PadRequest, Sheet, filled_rounds


def deck_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Elements box (ELE-1): ``r0`` .. ``k10`` then the element cards ``Er`` .. ``Ek``."""
    values = range(int(rules["min_value"]), int(rules["max_value"]) + 1)
    return ([str(Card(colour, value)) for colour in rules["colours"] for value in values]
            + [element_label(colour) for colour in rules["colours"]])


def face(card: str, catalog: Catalog) -> Face:
    """An Elements label, the display's own: ``j7``, ``ej`` in French; the caption names the
    card as the box prints it: ``jaune 7``, ``élément jaune``."""
    shown: Card | str = card if card.startswith(ELEMENT_PREFIX) \
        else Card(card[0], int(card[1:]))
    return Face(card, (label(shown, catalog),), print_name(shown, catalog))


def pad(request: PadRequest) -> list[Sheet]:
    """Elements (ELE-7, ELE-8): a hand per player as first player, one row each, a total
    row."""
    words = request.words
    columns = (Column(str(words["hand"]), 2),
               *(Column(str(words["player"]).format(number=seat + 1))
                 for seat in range(request.players)))
    if request.book is not None:
        return [Sheet(str(words["title"]), columns,
                      filled_rounds(request.book, str(words["total"])), str(words["footer"]))]
    rows = tuple((str(number),) + ("",) * request.players
                 for number in range(1, request.players + 1))
    return [Sheet(str(words["title"]), columns,
                  (*rows, (str(words["total"]),) + ("",) * request.players),
                  str(words["footer"]))]
