"""No braille display: the cells drawn in a terminal, with keys standing in for the display's.

Each display row is drawn as Unicode braille with its print text under it, then a caret
``^`` under the cell the routing keys act on. Keys (``?`` lists them on screen):

    Left, Right          move the caret one cell
    Enter, Space         routing key over the caret's cell
    1-80 then Enter      routing key over that cell (cells count from 1 here)
    [ ]                  pan left, pan right
    Up, Down             line up, line down
    Home, End            top, bottom
    m                    the newest message       b    back to where you were
    h                    the game's help          q    quit
    t                    talk, at a shared table (a line typed whole, Enter sends it)
    ?                    show or hide this list of keys

Plain ANSI escapes on any terminal (a pseudo-terminal too); the terminal's settings are
restored on ``close``. The list of keys and the status line are in the player's language
(``[help.terminal]`` of ``layouts/common/<lang>.toml``).

    display = TerminalDisplay(columns=40, lang="fr")
    display.write(viewport.rows(), text=viewport.texts())
    key = display.read_key()
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import termios
import time
import tty
from collections.abc import Sequence
from typing import Any, TextIO

from brailledev.display.base import fit
from brailledev.display.keys import (
    BACK,
    NEWEST,
    Bottom,
    Key,
    LineDown,
    LineUp,
    Named,
    PanLeft,
    PanRight,
    Route,
    Top,
)
from layouts.catalog import help_text

# The lines of the list of keys: keys_1, keys_2 ... of [help.terminal].
HELP_LINES = 5
_ESCAPES = {
    b"[A": "up", b"[B": "down", b"[C": "right", b"[D": "left",
    b"[H": "home", b"[F": "end", b"OH": "home", b"OF": "end",
    b"[1~": "home", b"[4~": "end", b"[7~": "home", b"[8~": "end",
    b"OA": "up", b"OB": "down", b"OC": "right", b"OD": "left",
}
_MOVES: dict[str, Key] = {
    "up": LineUp(), "down": LineDown(), "home": Top(), "end": Bottom(),
    "[": PanLeft(), "]": PanRight(), "h": Named("help"), "q": Named("quit"),
    "m": Named(NEWEST), "b": Named(BACK), "t": Named("talk"),
}


def _sequence_end(buffer: bytes) -> int | None:
    """Where the escape sequence at the start of ``buffer`` ends; ``None``: incomplete."""
    if len(buffer) < 2:
        return None
    if buffer[1:2] == b"O":
        return 3 if len(buffer) >= 3 else None
    if buffer[1:2] != b"[":
        return 1
    for index in range(2, len(buffer)):
        if 0x40 <= buffer[index] <= 0x7E:
            return index + 1
    return None


class TerminalDisplay:
    """A display of ``columns`` x ``rows`` cells drawn on a terminal."""

    def __init__(self, columns: int = 40, rows: int = 1, stdin: TextIO | None = None,
                 stdout: TextIO | None = None, lang: str = "en") -> None:
        self._columns = columns
        self.lang = lang
        self._keys = [help_text(f"terminal.keys_{number}", lang)
                      for number in range(1, HELP_LINES + 1)]
        self._rows = rows
        self._in = stdin or sys.stdin
        self._out = stdout or sys.stdout
        self._fd = self._in.fileno()
        self._saved: list[Any] | None = None
        if os.isatty(self._fd):
            self._saved = termios.tcgetattr(self._fd)
            tty.setcbreak(self._fd)  # keys one by one, no echo; Ctrl-C still interrupts
        self._buffer = b""
        self._caret = 0
        self._number = ""
        self._help = False
        self._cells = fit([], columns, rows)
        self._text: list[str] = [""] * rows
        self._frame_lines = 0

    @property
    def columns(self) -> int:
        return self._columns

    @property
    def rows(self) -> int:
        return self._rows

    def write(self, rows: Sequence[str], cursor: int | None = None,
              text: Sequence[str] | None = None) -> None:
        # ``cursor`` is BRLTTY's cell cursor: the terminal parks its own on the caret.
        self._cells = fit(rows, self._columns, self._rows)
        self._text = [(list(text)[row] if text is not None and row < len(text) else "")
                      for row in range(self._rows)]
        self._draw()

    def read_key(self, timeout: float | None = None) -> Key | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            while self._buffer:
                key = self._take()
                if key is not None:
                    return key
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self._fill(left) and deadline is not None \
                    and time.monotonic() >= deadline:
                return None

    def read_line(self, prompt: str) -> str:
        """A line typed whole under the frame, echoed, with the terminal's own editing, until
        Enter (table talk): ``display.read_line("say: ")``."""
        self._out.write(f"\x1b[{self._frame_lines + 1};1H\x1b[K{prompt}")
        self._out.flush()
        if self._saved is not None:  # the terminal's line mode: echo and backspace
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
        typed = b""
        try:
            while not typed.endswith(b"\n"):
                data = os.read(self._fd, 1024)
                if not data:
                    raise EOFError("the terminal closed")
                typed += data
        finally:
            if self._saved is not None:
                tty.setcbreak(self._fd)
        self._draw()
        return typed.decode("utf-8", "replace").strip()

    def close(self) -> None:
        """Give the terminal back as it was; a terminal already closed (EIO) is left be."""
        try:
            if self._saved is not None:
                saved, self._saved = self._saved, None
                termios.tcsetattr(self._fd, termios.TCSADRAIN, saved)
            # Below the last frame, so the shell's prompt does not land on the game's lines.
            self._out.write(f"\x1b[{self._frame_lines + 1};1H\r\n" if self._frame_lines
                            else "\r\n")
            self._out.flush()
        except (termios.error, OSError):
            pass

    def _fill(self, timeout: float | None) -> bool:
        ready, _, _ = select.select([self._fd], [], [], timeout)
        if not ready:
            return False
        data = os.read(self._fd, 256)
        if not data:
            raise EOFError("the terminal closed")
        self._buffer += data
        return True

    def _take(self) -> Key | None:
        """Consume one key press from the buffer; a key event, or ``None`` if handled here."""
        if self._buffer.startswith(b"\x1b"):
            end = _sequence_end(self._buffer)
            if end is None:
                if self._fill(0.05):
                    return None  # the rest of the escape sequence is on its way
                end = 1
            sequence, self._buffer = self._buffer[1:end], self._buffer[end:]
            name = _ESCAPES.get(sequence)
            return None if name is None else self._named(name)
        text = self._buffer[:1].decode("latin-1")
        self._buffer = self._buffer[1:]
        if text.isdigit():
            self._number = (self._number + text)[-3:]
            self._draw()
            return None
        if text in "\r\n ":
            return self._route()
        return self._named(text)

    def _named(self, name: str) -> Key | None:
        self._number = ""
        if name in ("left", "right"):
            step = 1 if name == "right" else -1
            self._caret = (self._caret + step) % (self._columns * self._rows)
            self._draw()
            return None
        if name == "?":
            self._help = not self._help
            self._draw()
            return None
        return _MOVES.get(name)

    def _route(self) -> Key | None:
        if self._number:
            number, self._number = int(self._number), ""
            if not 1 <= number <= self._columns * self._rows:
                self._draw()
                return None
            self._caret = number - 1
        self._draw()
        return Route(self._caret % self._columns, self._caret // self._columns)

    def _draw(self) -> None:
        lines: list[str] = []
        row_of_caret, column = divmod(self._caret, self._columns)
        for row in range(self._rows):
            lines.append(self._cells[row])
            lines.append(self._text[row][:self._columns + 20])
            lines.append(" " * column + "^" if row == row_of_caret else "")
        status = help_text("terminal.cell", self.lang, cell=self._caret + 1)
        if self._number:
            status += "  " + help_text("terminal.go_to", self.lang, cell=self._number)
        lines.append(status + "    " + help_text("terminal.keys", self.lang))
        if self._help:
            lines.extend(self._keys)
        # Home, clear, draw, then park the terminal cursor on the caret's cell.
        frame = "\x1b[H\x1b[2J" + "\r\n".join(lines)
        self._frame_lines = len(lines)
        frame += f"\x1b[{row_of_caret * 3 + 1};{column + 1}H"
        with contextlib.suppress(BrokenPipeError):
            self._out.write(frame)
            self._out.flush()
