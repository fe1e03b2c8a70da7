"""The one protocol every display backend keeps: size, write cells, read keys.

Cells are Unicode braille characters (U+2800-U+28FF, dots 7-8 included), one string per
display row, each exactly ``columns`` long. ``text`` optionally gives the print text under
each row (the terminal shows it; a braille display ignores it).

When the display changes size (another display plugged in, BRLTTY restarted with another
one), ``read_key`` returns ``Named(RESIZED)``: lay the screen out again for the new
``columns`` and ``rows`` and write it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from brailledev.display.keys import Key

RESIZED = "resized"


class Display(Protocol):
    @property
    def columns(self) -> int: ...

    @property
    def rows(self) -> int: ...

    def write(self, rows: Sequence[str], cursor: int | None = None,
              text: Sequence[str] | None = None) -> None:
        """Show ``rows`` (Unicode braille, one string per display row); ``cursor`` a cell."""

    def read_key(self, timeout: float | None = None) -> Key | None:
        """The next key, or ``None`` after ``timeout`` seconds with no key."""

    def close(self) -> None: ...


def fit(rows: Sequence[str], columns: int, count: int) -> list[str]:
    """``rows`` cut or padded with blank cells to ``count`` rows of ``columns`` cells.

    >>> fit(["⠁"], 3, 2)
    ['⠁⠀⠀', '⠀⠀⠀']
    """
    blank = "\u2800"
    fitted = [row[:columns].ljust(columns, blank) for row in rows[:count]]
    return fitted + [blank * columns] * (count - len(fitted))
