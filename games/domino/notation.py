"""Domino 10-11-12's text notation for cards, squares and moves (DOM-1, DOM-2, DOM-5).

A card is written ``6/0``: its halves' pips, 0-6, 0 a blank half; canonically higher first.
A move is a card at a square with an orientation, the halves in the order laid:

    6/0@0,0>        the 6 on square (0, 0), the 0 on (1, 0): ``>`` to the right
    0/6@0,0v        the 0 on (0, 0), the 6 below it on (0, 1): ``v`` downwards
    6/4@0,0> 1/1@0,1>   a round's opening: two cards laid together (DOM-5)

Squares are absolute table coordinates (``x`` to the right, ``y`` downwards; an opening laid
by the engine starts on ``0,0``), so ``str(move)`` needs no table. For people, squares are
*named*, and a name stays the same for the whole round: the first square of the round's first
card is always ``c3`` (its *anchor*, see :func:`anchor_of`), and every other square is named by
its distance from it. Columns run ``a b c ... z aa ab ...`` to the right and ``-a -b ...``
(minus a, minus b) to the left of ``a``; rows run ``1 2 3 ...`` downwards and ``0 -1 -2 ...``
upwards from ``1``. Names sort as signed numbers do: ``-b < -a < a < b``, ``-1 < 0 < 1``
(:func:`square_key`). :func:`parse_move` reads names too, on the round they name, and
:func:`name_move` writes a move with them.

    >>> parse_move("6/0@c3>", anchor=(0, 0))
    Place(first=6, second=0, x=0, y=0, vertical=False)
    >>> square_name((0, 0), (-3, -4))
    '-a-1'
    >>> str(Opening(Place(6, 4, 0, 0, False), Place(1, 1, 0, 1, False)))
    '6/4@0,0> 1/1@0,1>'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.errors import NotationError, Reason

Square = tuple[int, int]
Card = tuple[int, int]  # canonical: higher half first, e.g. (6, 0)
Grid = Mapping[Square, int]
MOST_PIPS = 6  # DOM-1: each half shows 0 to 6 pips
MARGIN = 2


def card(a: int, b: int) -> Card:
    """The canonical card of two halves, in either order: ``card(0, 6) == (6, 0)``."""
    return (a, b) if a >= b else (b, a)


def card_text(c: Card) -> str:
    """``card_text((6, 0)) == '6/0'``."""
    return f"{c[0]}/{c[1]}"


_CARD = re.compile(r"([0-9])/([0-9])")


def parse_card(text: str) -> Card:
    """``parse_card('0/6') == (6, 0)``; raises :class:`NotationError` for anything else
    (``domino_pips`` for a half above 6)."""
    found = _CARD.fullmatch(text.strip()) if type(text) is str else None
    if found is None:
        raise NotationError(Reason.of("not_a_card", text=str(text).strip()[:20]))
    a, b = int(found.group(1)), int(found.group(2))
    if max(a, b) > MOST_PIPS:
        raise NotationError(Reason.of("domino_pips", text=text.strip(), most=MOST_PIPS))
    return card(a, b)


@dataclass(frozen=True, slots=True)
class Place:
    """One card laid on the table: half ``first`` on square ``(x, y)``, half ``second`` on the
    square to its right (``vertical`` False, notation ``>``) or below it (``v``)."""

    first: int
    second: int
    x: int
    y: int
    vertical: bool

    @property
    def card(self) -> Card:
        return card(self.first, self.second)

    @property
    def squares(self) -> tuple[Square, Square]:
        return ((self.x, self.y), (self.x, self.y + 1) if self.vertical else (self.x + 1, self.y))

    def cells(self) -> tuple[tuple[Square, int], tuple[Square, int]]:
        one, two = self.squares
        return ((one, self.first), (two, self.second))

    def __str__(self) -> str:
        return f"{self.first}/{self.second}@{self.x},{self.y}{'v' if self.vertical else '>'}"


@dataclass(frozen=True, slots=True)
class Opening:
    """DOM-5: the first turn of a round, two cards laid together, scored as one turn."""

    first: Place
    second: Place

    def cells(self) -> tuple[tuple[Square, int], ...]:
        return (*self.first.cells(), *self.second.cells())

    def __str__(self) -> str:
        return f"{self.first} {self.second}"


Move = Place | Opening


def format_move(move: Move) -> str:
    return str(move)


# ----------------------------------------------------------------------------- square names

def anchor_of(table: Sequence[Place]) -> Square:
    """The square a round's names count from: the first square of its first card, ``(0, 0)``
    before any card is laid (where every opening the engine offers puts it)."""
    return (table[0].x, table[0].y) if table else (0, 0)


def column_name(index: int) -> str:
    """0 -> 'a', 25 -> 'z', 26 -> 'aa' (like spreadsheet columns); left of 'a' a minus sign
    and the same letters counting leftwards: -1 -> '-a', -27 -> '-aa'."""
    if index < 0:
        return "-" + column_name(-index - 1)
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


def column_index(name: str) -> int:
    """'a' -> 0, 'aa' -> 26, '-a' -> -1."""
    if name.startswith("-"):
        return -column_index(name[1:]) - 1
    index = 0
    for char in name:
        index = index * 26 + ord(char) - ord("a") + 1
    return index - 1


def column_of(anchor: Square, x: int) -> str:
    """The name of the column of ``x`` in the round anchored at ``anchor``: the anchor's
    column is 'c'."""
    return column_name(x - anchor[0] + MARGIN)


def row_of(anchor: Square, y: int) -> int:
    """The number of the row of ``y`` in the round anchored at ``anchor``: the anchor's row
    is 3, rows above 1 are 0, -1, ..."""
    return y - anchor[1] + MARGIN + 1


def square_name(anchor: Square, square: Square) -> str:
    """``square`` named in the round anchored at ``anchor``: ``square_name((0, 0), (1, 1))
    == 'd4'``."""
    return f"{column_of(anchor, square[0])}{row_of(anchor, square[1])}"


_SQUARE = re.compile(r"(-?[a-z]{1,4})(-?[0-9]{1,5})")


def square_key(name: str) -> tuple[int, int]:
    """The order of square names, row by row then column by column, as the squares lie:
    ``sorted(names, key=square_key)``; ``ValueError`` for a text that is no square name."""
    found = _SQUARE.fullmatch(name)
    if found is None:
        raise ValueError(name)
    return (int(found.group(2)), column_index(found.group(1)))


def parse_square(anchor: Square, text: str) -> Square | None:
    """The absolute square named ``text`` (``'c4'``) in the round anchored at ``anchor``, or
    ``None`` if not a name."""
    found = _SQUARE.fullmatch(text)
    if found is None:
        return None
    return (column_index(found.group(1)) - MARGIN + anchor[0],
            int(found.group(2)) - 1 - MARGIN + anchor[1])


def name_place(anchor: Square, place: Place) -> str:
    """``6/0@c4>``: the move's text with its square named in the round of ``anchor``."""
    way = "v" if place.vertical else ">"
    return f"{place.first}/{place.second}@{square_name(anchor, (place.x, place.y))}{way}"


def name_move(anchor: Square, move: Move) -> str:
    """The move with its squares named in the round of ``anchor``:
    ``name_move((0, 0), Place(6, 0, 0, 0, False)) == '6/0@c3>'``."""
    if isinstance(move, Opening):
        return f"{name_place(anchor, move.first)} {name_place(anchor, move.second)}"
    return name_place(anchor, move)


_PLACE = re.compile(r"([0-6])/([0-6])@(?:(-?[0-9]{1,5}),(-?[0-9]{1,5})|(-?[a-z]{1,4}-?[0-9]{1,5}))"
                    r"([>v])")


def parse_move(text: str, anchor: Square = (0, 0)) -> Move:
    """One place, or two for an opening, squares absolute (``0,0``) or named in the round
    anchored at ``anchor`` (``c3``); raises :class:`NotationError`."""
    if type(text) is not str or len(text) > 200:
        raise NotationError(Reason.of("unknown_move", text=repr(text)[:40]))
    places = []
    for part in text.lower().split():
        found = _PLACE.fullmatch(part)
        if found is None:
            raise NotationError(Reason.of("unknown_move", text=text[:40]))
        first, second, x, y, name, way = found.groups()
        square = (int(x), int(y)) if name is None else parse_square(anchor, name)
        if square is None:
            raise NotationError(Reason.of("unknown_move", text=text[:40]))
        places.append(Place(int(first), int(second), square[0], square[1], way == "v"))
    if len(places) == 1:
        return places[0]
    if len(places) == 2:
        return Opening(places[0], places[1])
    raise NotationError(Reason.of("unknown_move", text=text[:40]))
