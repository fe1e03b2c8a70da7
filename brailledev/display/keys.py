"""One vocabulary of input events; every display backend translates its keys into these.

    Route(5)          routing key above cell 5 (0-based) of display row 0
    RowKey(2)         the key beside display row 2 (a Canute's line keys: BRLTTY's ROUTE_LINE)
    Forward()         the next item on the rows (a Canute's Forward key: BRLTTY's WINDN)
    PanRight()        next window of the current line
    Chord(0b0000111)  dots 1 2 3 on the braille keyboard (bit n-1 = dot n); space flag apart
    Named("help")     a named command (help, quit, repeat, newest, back ...)
"""

from __future__ import annotations

from dataclasses import dataclass

# The named commands of the message history: show the newest message, and go back to where
# the reader was before it.
NEWEST = "newest"
BACK = "back"
# Act on the item picked with Forward, Backward or a row key (Enter on a braille keyboard).
ACT = "act"


@dataclass(frozen=True)
class Route:
    cell: int
    row: int = 0


@dataclass(frozen=True)
class RowKey:
    """The key beside display row ``row`` of a display without routing keys (a Canute's
    line keys): the first press picks the row's first item, the next one acts on it."""

    row: int


@dataclass(frozen=True)
class Forward:
    """Pick the next item on the display's rows (a Canute's Forward key)."""


@dataclass(frozen=True)
class Backward:
    """Pick the previous item on the display's rows (a Canute's Back key)."""


@dataclass(frozen=True)
class PanLeft:
    pass


@dataclass(frozen=True)
class PanRight:
    pass


@dataclass(frozen=True)
class LineUp:
    pass


@dataclass(frozen=True)
class LineDown:
    pass


@dataclass(frozen=True)
class Top:
    pass


@dataclass(frozen=True)
class Bottom:
    pass


@dataclass(frozen=True)
class Chord:
    dots: int
    space: bool = False


@dataclass(frozen=True)
class Named:
    name: str


Key = (Route | RowKey | Forward | Backward | PanLeft | PanRight | LineUp | LineDown | Top
       | Bottom | Chord | Named)
