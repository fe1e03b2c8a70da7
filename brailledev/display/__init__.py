"""Display backends: ``brlapi`` (a real BRLTTY), ``terminal`` (no display), ``memory`` (tests).

    display = open_display("auto")          # BRLTTY's display if one answers, else terminal
    display = open_display("brlapi", host="127.0.0.1:1")
"""

from __future__ import annotations

from brailledev.display.base import RESIZED, Display, fit
from brailledev.errors import DisplayGone
from layouts.errors import UserError

KINDS = ("auto", "brlapi", "terminal", "memory")

__all__ = ["KINDS", "RESIZED", "Display", "fit", "open_display"]


def open_display(kind: str = "auto", host: str | None = None, columns: int = 40,
                 rows: int = 1, give_up: float | None = None,
                 auth: str | None = None) -> Display:
    """A display of ``kind``; ``columns``/``rows`` size the terminal and memory ones;
    ``auth`` is BrlAPI's key (``keyfile:/etc/brlapi.key``; ``None``: BrlAPI's default).

    ``auto`` takes BRLTTY's display when a BRLTTY with a display answers at ``host``
    (``None``: BrlAPI's own default), else the terminal; a BRLTTY that refuses our key is
    told (UserError), not taken for no BRLTTY.
    """
    if kind not in KINDS:
        raise UserError("display_kind_unknown", kind=kind, choices=", ".join(KINDS))
    if kind == "memory":
        from brailledev.display.memory import MemoryDisplay
        return MemoryDisplay(columns, rows)
    if kind in ("auto", "brlapi"):
        from brailledev.display.brlapi import BrlapiDisplay, probe
        info = probe(host, auth)
        if info is not None and info.columns * info.rows > 0:
            try:
                return BrlapiDisplay(host, auth, give_up=give_up, connect_timeout=5.0)
            except DisplayGone:
                pass
        if kind == "brlapi":
            if host:
                raise UserError("no_brlapi_display_at", host=host)
            raise UserError("no_brlapi_display")
    from brailledev.display.terminal import TerminalDisplay
    return TerminalDisplay(columns, rows)
