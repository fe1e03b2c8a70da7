"""One vocabulary of input events; every display backend translates its keys into these.

    Route(5)          routing key above cell 5 (0-based) of display row 0
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


@dataclass(frozen=True)
class Route:
    cell: int
    row: int = 0


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


Key = Route | PanLeft | PanRight | LineUp | LineDown | Top | Bottom | Chord | Named
