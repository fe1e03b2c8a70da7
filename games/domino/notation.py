"""Domino 10-11-12's text notation for cards, squares and moves (DOM-1, DOM-2, DOM-5).

A card is written ``6/0``: its halves' pips, 0-6, 0 a blank half; canonically higher first.
A move is a card at a square with an orientation, the halves in the order laid:

    6/0@0,0>        the 6 on square (0, 0), the 0 on (1, 0): ``>`` to the right
    0/6@0,0v        the 0 on (0, 0), the 6 below it on (0, 1): ``v`` downwards
    6/4@0,0> 1/1@0,1>   a round's opening: two cards laid together (DOM-5)

Squares are absolute table coordinates (``x`` to the right, ``y`` downwards; an opening laid
by the engine starts on ``0,0``), so ``str(move)`` needs no table. For people, squares are
*named* from the normalised origin two columns left of and two rows above the layout
(``c3`` is the top-left card's square; see :func:`square_name`); :func:`parse_move` reads
names too, on the table they name, and :func:`name_move` writes a move with them.

    >>> parse_move("6/0@c3>", grid={})
    Place(first=6, second=0, x=0, y=0, vertical=False)
    >>> str(Opening(Place(6, 4, 0, 0, False), Place(1, 1, 0, 1, False)))
    '6/4@0,0> 1/1@0,1>'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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

def origin(grid: Grid) -> Square:
    """The normalised origin: two columns left of and two rows above the layout."""
    if not grid:
        return (-MARGIN, -MARGIN)
    return (min(x for x, _ in grid) - MARGIN, min(y for _, y in grid) - MARGIN)


def column_name(index: int) -> str:
    """0 -> 'a', 25 -> 'z', 26 -> 'aa' (like spreadsheet columns); a column left of the
    origin, which no layout has, is written with a minus: -1 -> '-a'."""
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


def square_name(grid: Grid, square: Square) -> str:
    """``square`` in notation relative to the normalised origin of ``grid``, e.g. ``'c4'``."""
    ox, oy = origin(grid)
    return f"{column_name(square[0] - ox)}{square[1] - oy + 1}"


_SQUARE = re.compile(r"(-?[a-z]{1,4})(-?[0-9]{1,5})")


def parse_square(grid: Grid, text: str) -> Square | None:
    """The absolute square named ``text`` (``'c4'``) on ``grid``, or ``None`` if not a name."""
    found = _SQUARE.fullmatch(text)
    if found is None:
        return None
    ox, oy = origin(grid)
    return (column_index(found.group(1)) + ox, int(found.group(2)) - 1 + oy)


def name_place(grid: Grid, place: Place) -> str:
    """``6/0@c4>``: the move's text with its square named on ``grid`` (for people)."""
    way = "v" if place.vertical else ">"
    return f"{place.first}/{place.second}@{square_name(grid, (place.x, place.y))}{way}"


def name_move(grid: Grid, move: Move) -> str:
    """The move with its squares named on ``grid``: ``name_move({}, Place(6, 0, 0, 0, False))
    == '6/0@c3>'``."""
    if isinstance(move, Opening):
        return f"{name_place(grid, move.first)} {name_place(grid, move.second)}"
    return name_place(grid, move)


_PLACE = re.compile(r"([0-6])/([0-6])@(?:(-?[0-9]{1,5}),(-?[0-9]{1,5})|(-?[a-z]{1,4}-?[0-9]{1,5}))"
                    r"([>v])")


def parse_move(text: str, grid: Grid) -> Move:
    """One place, or two for an opening, squares absolute (``0,0``) or named on ``grid``
    (``c3``); raises :class:`NotationError`."""
    if type(text) is not str or len(text) > 200:
        raise NotationError(Reason.of("unknown_move", text=repr(text)[:40]))
    places = []
    for part in text.lower().split():
        found = _PLACE.fullmatch(part)
        if found is None:
            raise NotationError(Reason.of("unknown_move", text=text[:40]))
        first, second, x, y, name, way = found.groups()
        square = (int(x), int(y)) if name is None else parse_square(grid, name)
        if square is None:
            raise NotationError(Reason.of("unknown_move", text=text[:40]))
        places.append(Place(int(first), int(second), square[0], square[1], way == "v"))
    if len(places) == 1:
        return places[0]
    if len(places) == 2:
        return Opening(places[0], places[1])
    raise NotationError(Reason.of("unknown_move", text=text[:40]))
