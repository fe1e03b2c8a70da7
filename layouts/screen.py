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
    """Text shown as one unit. ``atomic`` regions (card labels) are never split by panning."""

    text: str
    target: Hashable = None
    atomic: bool = True


@dataclass(frozen=True)
class Line:
    """One line of a screen; ``key`` names it (``status``, ``hand``, ``history``...)."""

    key: str
    regions: tuple[Region, ...]

    @property
    def text(self) -> str:
        return " ".join(region.text for region in self.regions)


@dataclass(frozen=True)
class Screen:
    lines: tuple[Line, ...]

    def line(self, key: str) -> Line:
        for line in self.lines:
            if line.key == key:
                return line
        raise KeyError(key)
