"""A region longer than the display (a long message) keeps the reader's window on redraw."""

from brailledev.display.braille import translator
from brailledev.display.keys import PanRight
from brailledev.display.window import Viewport
from layouts.screen import Line, Region, Screen

TEXT = "Revealed: Eg r8, Ey y7, Ek y3. Colour order, strongest first: g y k r b."


def test_redrawing_the_same_screen_stays_on_the_window_being_read():
    viewport = Viewport(translator("en-ueb-g1.ctb"), 40)
    screen = Screen((Line("messages", (Region(TEXT, atomic=False), Region("(2 more)"))),
                     Line("hand", (Region("r5"),))))
    viewport.show(screen)
    assert len(viewport.lines[0].windows) == 3
    for expected in (1, 2):
        viewport.handle(PanRight())
        viewport.show(screen)            # the play loop redraws after every key
        assert viewport.window == expected
        assert viewport.line_key == "messages"
