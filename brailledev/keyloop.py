"""The key loop: a seat shown on a display, driven by the display's keys.

The loop shows the focused line (and the lines after it on a multi-row display), turns keys
into the seat's actions, and between keys lets its driver do what is due (bots at a reading
pace, the turn clock, news from a server); keys are read while a bot waits its turn, so the
display never freezes.

    front = Front(session, display, translator("en-ueb-g1.ctb"))
    front.run()          # until the player quits
"""

from __future__ import annotations

import threading
from typing import Generic, Protocol, TypeVar

from brailledev.braille import Translator, dots_to_numbers
from brailledev.chords import SPACE_MOVES, NoCommand, Ran, Typist, chord_letter
from brailledev.display.base import RESIZED, Display
from brailledev.keys import Chord, Key, Named, PanLeft, PanRight, Route
from brailledev.seat import SeatClient
from brailledev.session import IDLE_POLL
from brailledev.window import Viewport
from layouts.screen import HELP_LINE, MESSAGE_LINE, Screen


class Driven(Protocol):
    """A seat and what drives it between keys: a :class:`brailledev.session.Session`, or a
    client of a table server."""

    seat: SeatClient

    def step(self) -> bool:
        """Do what is due now; True when the screen may have changed."""

    def next_due(self) -> float | None:
        """Seconds until :meth:`step` has something to do; ``None``: only the player."""

    def save(self) -> None: ...


D = TypeVar("D", bound=Driven)


class Front(Generic[D]):
    """A seat shown on a display: see the module docstring."""

    def __init__(self, session: D, display: Display, braille: Translator) -> None:
        self.session = session
        self.seat = session.seat
        self.display = display
        self.braille = braille
        self.viewport = Viewport(braille, display.columns, display.rows)
        self.typist = Typist()
        self._stop = threading.Event()
        self._jumps = -1
        self._screen: Screen | None = None
        self.redraws = 0
        # For tests and benchmarks: keys handled so far, and whether the loop waits for the
        # player with nothing else to do.
        self.handled = 0
        self.idle = threading.Event()

    def stop(self) -> None:
        """Thread-safe: end ``run`` at its next turn (tests, signals)."""
        self._stop.set()

    def redraw(self) -> None:
        """Lay the seat's screen out and write it, on the line the seat wants."""
        seat = self.seat
        if (self.display.columns, self.display.rows) != (self.viewport.columns,
                                                         self.viewport.display_rows):
            self.viewport.resize(self.display.columns, self.display.rows)
            self._screen = None
        screen = Screen(seat.lines())
        if screen != self._screen:  # laying out again only for news keeps redraws cheap
            self._screen = screen
            self.viewport.show(screen)
        if seat.jumps != self._jumps:
            self._jumps = seat.jumps
            try:
                self.viewport.goto(seat.focus)
            except KeyError:
                seat.focus = seat.home()
                self.viewport.goto(seat.focus)
        seat.focus = self.viewport.line_key or seat.focus
        self.display.write(self.viewport.rows(), text=self.viewport.texts())
        self.redraws += 1

    def run(self) -> None:
        """Play until the player quits (or ``stop``); the driver saves after every move."""
        session = self.session
        self.redraw()
        while not self._stop.is_set():
            if session.step():
                self.redraw()
            due = session.next_due()
            if due is None:
                self.idle.set()
            key = self.display.read_key(timeout=IDLE_POLL if due is None else due)
            if key is None:
                continue
            self.idle.clear()
            if not self.press(key):
                break
            self.redraw()
            self.handled += 1
        self.idle.set()
        session.save()

    def press(self, key: Key) -> bool:
        """Act on one key; False when the player quits."""
        seat = self.seat
        if isinstance(key, Chord):
            return self._chord(key)
        self.typist.clear()
        if isinstance(key, Named):
            return self._named(key.name)
        viewport = self.viewport
        if viewport.line_key == MESSAGE_LINE and viewport.display_rows == 1:
            windows = len(viewport.lines[viewport.top].windows)
            if isinstance(key, PanRight) and viewport.window + 1 >= windows:
                if seat.history.read_on():
                    seat.jump(MESSAGE_LINE)
                    return True
                # caught up: panning reads on to the line below, as on every other line
            elif isinstance(key, PanLeft) and viewport.window == 0:
                seat.read_back()
                return True
        place = (viewport.top, viewport.window)
        hit = viewport.handle(key)
        if hit is None:
            if not isinstance(key, Route):
                seat.focus = viewport.line_key or seat.focus
            elif (viewport.top, viewport.window) == place:  # a blank cell (a marker pans)
                if viewport.line_key == MESSAGE_LINE:
                    seat.read_on()  # anywhere on the message line reads on
                else:
                    seat.nothing_to_route()
            return True
        if hit.line_key == MESSAGE_LINE:
            seat.read_on()
            return True
        return self._route(hit.target)

    def _route(self, target: object) -> bool:
        if self.seat.route(target):
            return True
        self.session.save()
        return False

    def _chord(self, chord: Chord) -> bool:
        """A braille keyboard chord: a letter towards a command (see ``brailledev.chords``),
        space with one dot a move, space alone speaks the line."""
        seat = self.seat
        if chord.space and chord.dots in SPACE_MOVES:
            return self.press(SPACE_MOVES[chord.dots])
        if chord == Chord(0, space=True):
            self.typist.clear()
            return self._named("repeat")
        letter = chord_letter(chord, self.braille)
        if letter is None:
            self.typist.clear()
            seat.tell(seat.catalog.text("chord_not_letter", dots=dots_to_numbers(chord.dots)))
            return True
        typed = self.typist.type(letter, seat.lines())
        if isinstance(typed, Ran):
            seat.tell(seat.catalog.text("chord_ran", command=typed.region.text))
            return self._route(typed.region.target)
        names = ", ".join(typed.names)
        code = "chord_no_command" if isinstance(typed, NoCommand) else "chord_several"
        seat.tell(seat.catalog.text(code, letters=typed.typed, commands=names))
        return True

    def _named(self, name: str) -> bool:
        seat = self.seat
        if name == "quit":
            self.session.save()
            return False
        if name == "help":
            seat.jump(HELP_LINE)
        elif name == RESIZED:
            seat.jump(seat.focus)
        elif name == "repeat":
            seat.speech.say(seat.current_text())
        return True
