"""The keys a reader presses to route one region of a screen, found on a window laid out like
the display's: to the top line, line down to the region's line, pan right until the region
shows, then its routing key. Tests drive a memory display, a terminal or a BRLTTY with them.

    keys = keys_to(session.seat.lines(), "hand", 3, translator("en-ueb-g1.ctb"))
    # [Top(), LineDown(), LineDown(), PanRight(), Route(cell=12, row=0)]
"""

from __future__ import annotations

from brailledev.display.braille import Translator
from brailledev.display.keys import Key, LineDown, PanRight, Route, Top
from brailledev.display.window import Viewport
from layouts.screen import Line, Screen


def keys_to(lines: tuple[Line, ...], line_key: str, region: int, braille: Translator,
            columns: int = 40) -> list[Key]:
    """Keys from anywhere on a one-row display of ``columns`` cells showing ``lines`` to the
    routing of region ``region`` of line ``line_key``."""
    viewport = Viewport(braille, columns)
    viewport.show(Screen(lines))
    keys: list[Key] = [Top()]
    viewport.handle(Top())
    for _ in range(len(lines)):
        if viewport.line_key == line_key:
            break
        keys.append(LineDown())
        viewport.handle(LineDown())
    assert viewport.line_key == line_key, f"line {line_key} cannot be reached"
    for _ in range(200):
        window = viewport._window_at(0)
        for cell in range(columns):
            if window is not None and ((window.more_left and cell == 0)
                                       or (window.more_right and cell == columns - 1)):
                continue  # a marker: routing there pans
            hit = viewport.route(cell)
            if hit is not None and hit.line_key == line_key and hit.region == region:
                return [*keys, Route(cell)]
        place = viewport.window
        keys.append(PanRight())
        viewport.handle(PanRight())
        assert viewport.window != place and viewport.line_key == line_key, \
            f"region {region} of {line_key} never shows"
    raise AssertionError(f"region {region} of {line_key} never shows")


TERMINAL_KEYS = {"Top": "\x1b[H", "LineDown": "\x1b[B", "PanRight": "]"}


def terminal_keys(keys: list[Key]) -> str:
    """The same keys typed on the terminal display: Home, Down, ``]``, a cell number and
    Enter."""
    typed = []
    for key in keys:
        if isinstance(key, Route):
            typed.append(f"{key.cell + 1}\r")
        else:
            typed.append(TERMINAL_KEYS[type(key).__name__])
    return "".join(typed)
