"""The one protocol every display backend keeps: size, write cells, read keys.

Cells are Unicode braille characters (U+2800-U+28FF, dots 7-8 included), one string per
display row, each exactly ``columns`` long.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from brailledev.keys import Key


class DisplayGone(Exception):
    """The display went away (BRLTTY stopped, device unplugged) and could not be reached."""


class Display(Protocol):
    @property
    def columns(self) -> int: ...

    @property
    def rows(self) -> int: ...

    def write(self, rows: Sequence[str], cursor: int | None = None) -> None:
        """Show ``rows`` (Unicode braille, one string per display row); ``cursor`` a cell."""

    def read_key(self, timeout: float | None = None) -> Key | None:
        """The next key, or ``None`` after ``timeout`` seconds with no key."""

    def close(self) -> None: ...
