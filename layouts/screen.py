"""Screens as plain text: lines of regions, each region a piece of text with a target.

A routing key over any cell of a region activates its target (a move, a command). A screen
knows nothing of cells, braille tables or displays: ``brailledev.window`` lays it out.

    hand = Line("hand", (Region("r5", target=play_r5), Region("b+2", target=play_b2)))
    screen = Screen((status, hand))
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """A named action offered on screen, e.g. ``Command("draw")``; ``arg`` refines it."""

    name: str
    arg: Hashable = None


@dataclass(frozen=True)
class Region:
    """Text shown as one unit. ``atomic`` regions (card labels) are never split by panning;
    a ``mark``ed region (an invalid set) has dots 7 and 8 raised under every cell:
    ``Region("r5 b5", mark=True)``."""

    text: str
    target: Hashable = None
    atomic: bool = True
    mark: bool = False


@dataclass(frozen=True)
class Line:
    """One line of a screen; ``key`` names it (``status``, ``hand``, ``history``...).

    ``gap`` blank cells separate its regions; a grid row uses ``gap=0`` so each square is
    one cell and rows line up cell under cell: ``Line("grid1", squares, gap=0)``.
    """

    key: str
    regions: tuple[Region, ...]
    gap: int = 1

    @property
    def text(self) -> str:
        return (" " * self.gap).join(region.text for region in self.regions)


@dataclass(frozen=True)
class Screen:
    lines: tuple[Line, ...]

    def line(self, key: str) -> Line:
        for line in self.lines:
            if line.key == key:
                return line
        raise KeyError(key)
