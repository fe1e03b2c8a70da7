"""Domino 10-11-12 on paper: the 50 cards of the box (DOM-1), the face of a card (its label)
and the score pad of DOM-8, one sheet per player with the row bonuses printed.

    deck_cards(rules)[:2]                           # ['1/1', '1/1']
    face("6/0", Catalog.load("domino", "en"))       # Face('6/0', ('6/0',), '6 and blank')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.domino.engine import parse_card
from games.domino.grid import card_text
from games.domino.pad import ScorePad
from layouts.catalog import Catalog
from layouts.domino.words import label, print_name
from layouts.errors import DataError
from layouts.paper import Column, Face, PadRequest, Sheet


def deck_cards(rules: Mapping[str, Any]) -> list[str]:
    """The Domino 10-11-12 box (DOM-1) from the box data, each card higher half first:
    ``1/1``, ``1/1``, ``2/1`` ... ``6/0``."""
    return [card_text(parse_card(text)) for text in rules["cards"]]


def read_card(text: str, rules: Mapping[str, Any]) -> str:
    """A card with its halves in either order: ``read_card("0/6", rules) == "6/0"``."""
    return card_text(parse_card(text))


def face(card: str, catalog: Catalog) -> Face:
    """A Domino label: both halves' pips, higher first, 0 a blank half (``6/0``), the same
    label as on the display; the caption names the halves as the box shows them:
    ``6 and blank``, ``1 and 1``."""
    high, low = parse_card(card)
    return Face(card, (label((high, low), catalog),), print_name((high, low), catalog))


def pad(request: PadRequest) -> list[Sheet]:
    """DOM-8: a sheet per player, columns 10/11/12/bonus/total, the row bonuses printed, and
    the Grand Total line (DOM-10). Filled from a book (:class:`games.domino.book.DominoBook`): the
    boxes as the turns filled them, the bonuses earned, the super bonuses bottom up in total,
    the Grand Total."""
    box, words = request.rules["pad"], request.words
    names = list(box["columns"])
    columns = tuple(Column(str(words["columns"].get(name, name))) for name in names)
    bonuses = [int(bonus) for bonus in box["row_bonus"]]
    if len(bonuses) != int(box["rows"]):
        raise DataError("pad_rows_disagree", rows=box["rows"], bonuses=len(bonuses))
    footer = str(words["footer"]).format(super_bonus=box["super_bonus"])
    captions = tuple(str(words["row_caption"]).format(number=number, bonus=bonus)
                     for number, bonus in enumerate(bonuses, start=1))
    pads = request.book.pads() if request.book is not None else None
    sheets = []
    for seat in range(request.players):
        filled = pads[seat] if pads is not None else None
        sheets.append(Sheet(str(words["title"]).format(
                                player=str(words["player"]).format(number=seat + 1)),
                            columns, _rows(names, bonuses, filled), footer,
                            row_captions=captions, grand_total=str(words["grand_total"]),
                            grand_value="" if filled is None else str(filled.total())))
    return sheets


def _rows(names: list[str], bonuses: list[int],
          filled: ScorePad | None) -> tuple[tuple[str, ...], ...]:
    """The boxes of a sheet, row by row: blank with the printed bonuses, or as filled."""
    if filled is None:
        return tuple(tuple(str(bonus) if name == "bonus" else "" for name in names)
                     for bonus in bonuses)
    supers = dict(zip(filled.super_rows(), filled.supers, strict=True))
    earned = filled.bonuses()

    def box(name: str, row: int) -> str:
        if name == "bonus":
            return str(earned[row]) if row < len(earned) else ""
        if name == "total":
            return str(supers[row]) if row in supers else ""
        boxes = filled.column(int(name))
        return str(boxes[row]) if row < len(boxes) else ""

    return tuple(tuple(box(name, row) for name in names) for row in range(len(bonuses)))
