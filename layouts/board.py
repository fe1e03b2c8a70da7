"""Boards: a game's table laid out over the rows of a multi-line braille display.

A one-row display shows one line of a screen at a time; a display of several rows (a Canute
360's 9 x 40 cells, a Monarch's 10 x 32, a Dot Pad's 7 x 20) shows a *board*: the rows cut
into *bands* from top to bottom, each showing some lines of the screen. The first band is
the reading band: the message line, where a refusal is shown at once and where a line that
has no band of its own (help, the problems of a Rummikub table) is read when the reader goes
to it. A band keeps its rows whatever happens, so the fingers know where to go back to; what
does not fit in it is paged there (``brailledev.display.page`` lays a board out in cells).

Bands are of three kinds:

- ``FLOW``: each line starts a row and flows on over the next ones (a hand, a status);
- ``PACK``: lines several to a row, each whole on one row where it fits, and each kept on
  its row while it fits there (Rummikub's sets: a set that grows rewrites its row only);
- ``GRID``: one line a row, cell under cell, ``head`` above them on every page, all panned
  together (Domino's grid under its column letters).

A game's board (``layouts/<game>/board.py``, the ``board`` of its kit) says which lines go
where for a display size; :func:`stack` gives the rows out by rank, so any size from 2 rows
up keeps what matters most:

    stack(Size(40, 9), [reading(lines, most=2), Part("hand", pick(lines, HAND_LINE), most=3),
                        Part("commands", pick(lines, COMMAND_LINE), rank=2)])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from layouts.screen import MESSAGE_LINE, Context, Line

FLOW, PACK, GRID = "flow", "pack", "grid"
# The name of the reading band, the first of every board.
READING = MESSAGE_LINE


@dataclass(frozen=True)
class Size:
    """A display's size in cells: ``Size(columns=40, rows=9)``."""

    columns: int
    rows: int


@dataclass(frozen=True)
class Band:
    """``rows`` display rows showing ``lines`` (see the module docstring for ``kind`` and
    ``head``); ``name`` keeps the band's place and page from one drawing to the next:
    ``Band("hand", (hand_line,), rows=3)``."""

    name: str
    lines: tuple[Line, ...]
    rows: int
    kind: str = FLOW
    head: Line | None = None


@dataclass(frozen=True)
class Board:
    """The bands of a display, top to bottom, the reading band first:
    ``Board((Band(READING, (messages,), 2), Band("hand", (hand,), 3)))``."""

    bands: tuple[Band, ...]

    @property
    def rows(self) -> int:
        return sum(band.rows for band in self.bands)

    def band_of(self, key: str) -> Band | None:
        """The band showing the line ``key`` (``None``: the line is not on the board)."""
        for band in self.bands:
            if any(line.key == key for line in band.lines) \
                    or (band.head is not None and band.head.key == key):
                return band
        return None


@dataclass(frozen=True)
class Part:
    """A band to be: it is shown with ``least`` rows at least, given them before the parts
    of a higher ``rank``, and takes rows up to ``most`` before the parts of a higher
    ``grow`` (its rank unless told): ``Part("hand", (hand,), most=4, rank=1, grow=9)``."""

    name: str
    lines: tuple[Line, ...]
    least: int = 1
    most: int = 1
    rank: int = 0
    kind: str = FLOW
    head: Line | None = None
    grow: int | None = None


class GameBoard(Protocol):
    """A game's face on a display of several rows: the ``board`` of its kit."""

    def board(self, view: Any, context: Context, lines: tuple[Line, ...],
              size: Size) -> Board:
        """The bands of ``lines`` (the seat's screen now) for a display of ``size``."""


def pick(lines: Iterable[Line], *keys: str) -> tuple[Line, ...]:
    """The lines of ``keys`` that the screen has, in the screen's order:
    ``pick(lines, CHOICE_LINE, COMMAND_LINE)``."""
    return tuple(line for line in lines if line.key in keys)


def reading(lines: Iterable[Line], most: int = 1) -> Part:
    """The reading band of a board: the message line, given its first row before anything
    else: ``reading(lines, most=2)``."""
    return Part(READING, pick(lines, MESSAGE_LINE), least=1, most=most, rank=-1)


def stack(size: Size, parts: Sequence[Part]) -> Board:
    """The parts as bands for a display of ``size``: each part in rank order gets its
    ``least`` rows while rows remain (a part that does not fit is left out: its lines are
    read in the reading band), then each in ``grow`` order takes rows up to its ``most``.

    >>> board = stack(Size(40, 3), [Part("a", (), most=2, rank=1), Part("b", (), most=2)])
    >>> [(band.name, band.rows) for band in board.bands]
    [('a', 1), ('b', 2)]
    """
    left = size.rows
    given = [0] * len(parts)
    by_rank = sorted(range(len(parts)), key=lambda index: parts[index].rank)
    for index in by_rank:
        if parts[index].least <= left:
            given[index] = parts[index].least
            left -= given[index]
    by_growth = sorted(by_rank, key=lambda index: _growth(parts[index]))
    for index in by_growth:
        if given[index]:
            more = min(parts[index].most - given[index], left)
            given[index] += max(more, 0)
            left -= max(more, 0)
    return Board(tuple(Band(part.name, part.lines, rows, part.kind, part.head)
                       for part, rows in zip(parts, given, strict=True) if rows))


def _growth(part: Part) -> int:
    return part.rank if part.grow is None else part.grow
