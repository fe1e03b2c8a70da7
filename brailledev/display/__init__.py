"""The display room: what a reader touches and hears, and nothing of games or tables.

    base       the protocol every backend keeps (size, write cells, read keys)
    brlapi     a real display through BRLTTY; terminal: no display; memory: tests
    braille    liblouis translation with paired position maps, cells and dots
    window     a screen laid out on the display: windows, panning, routing keys
    keys       one vocabulary of input events; chords: typing on the braille keyboard
    speech     espeak-ng in a thread of its own (or silence)

Here: opening a backend, ``brlapi`` (a real BRLTTY), ``terminal`` or ``memory``.

    display = open_display("auto")          # BRLTTY's display if one answers, else terminal
    display = open_display("brlapi", host="127.0.0.1:1")

A BRLTTY that is starting (its process runs, or its BrlAPI socket is there) is given a few
seconds to answer before the terminal stands in: a game started with the computer does not
miss the display.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from brailledev.display.base import RESIZED, Display, fit
from brailledev.errors import DisplayGone
from layouts.errors import UserError

KINDS = ("auto", "brlapi", "terminal", "memory")
# Seconds a BRLTTY that is starting has to answer with a display.
STARTING_WAIT = 5.0
RETRY_EVERY = 0.25
# Where BrlAPI's local sockets live, one per host number (":0" is the file "0").
SOCKETS = Path("/var/lib/BrlAPI")

__all__ = ["KINDS", "RESIZED", "Display", "brltty_starting", "fit", "open_display"]


def brltty_starting(host: str | None = None, processes: Path = Path("/proc")) -> bool:
    """Whether a BRLTTY may answer soon at ``host``: its local BrlAPI socket exists, or a
    ``brltty`` process runs (it opens BrlAPI once its braille driver has started):
    ``brltty_starting(":0")``."""
    name = host or os.environ.get("BRLAPI_HOST") or ":0"
    if name.startswith(":") and (SOCKETS / name[1:]).exists():
        return True
    for entry in processes.glob("[0-9]*/comm"):
        try:
            if entry.read_text().strip() == "brltty":
                return True
        except OSError:
            continue  # a process that ended meanwhile
    return False


def open_display(kind: str = "auto", host: str | None = None, columns: int = 40,
                 rows: int = 1, give_up: float | None = None,
                 wait: float = STARTING_WAIT, lang: str = "en",
                 auth: str | None = None) -> Display:
    """A display of ``kind``; ``columns``/``rows`` size the terminal and memory ones, ``lang``
    is the language of the terminal's words, ``auth`` BrlAPI's key
    (``keyfile:/etc/brlapi.key``; ``None``: BrlAPI's default).

    ``auto`` takes BRLTTY's display when a BRLTTY with a display answers at ``host``
    (``None``: BrlAPI's own default), else the terminal; a BRLTTY that is starting gets
    ``wait`` seconds to answer first; a BRLTTY that refuses our key is told (UserError),
    not taken for no BRLTTY.
    """
    if kind not in KINDS:
        raise UserError("display_kind_unknown", kind=kind, choices=", ".join(KINDS))
    if kind == "memory":
        from brailledev.display.memory import MemoryDisplay
        return MemoryDisplay(columns, rows)
    if kind in ("auto", "brlapi"):
        from brailledev.display.brlapi import BrlapiDisplay, BrlttyInfo, probe

        def answers() -> BrlttyInfo | None:
            info = probe(host, auth)
            return info if info is not None and info.columns * info.rows > 0 else None

        deadline = time.monotonic() + wait
        info = answers()
        while info is None and time.monotonic() < deadline and brltty_starting(host):
            time.sleep(RETRY_EVERY)
            info = answers()
        if info is not None:
            try:
                return BrlapiDisplay(host, auth, give_up=give_up, connect_timeout=5.0)
            except DisplayGone:
                pass
        if kind == "brlapi":
            if host:
                raise UserError("no_brlapi_display_at", host=host)
            raise UserError("no_brlapi_display")
    from brailledev.display.terminal import TerminalDisplay
    return TerminalDisplay(columns, rows, lang=lang)
