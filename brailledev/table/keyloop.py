"""The key loop: a seat shown on a display, driven by the display's keys.

The loop shows the focused line (on a display of several rows, the game's board:
:mod:`brailledev.table.boardkeys`; the lines after the focused one for a screen without a
board), turns keys into the seat's actions, and between keys lets its driver do what is due
(bots at a reading pace, the turn clock, news from a server); keys are read while a bot
waits its turn, so the display never freezes.

The reader's place is kept: a line redrawn stays at the window showing the same card, and a
return (reading past the news, a question answered, the back key) restores the window the
reader left on that line. A refusal the seat shows at once covers the top row: panning reads
it, any other key clears it (a routing key or a line key only clears it; a typed letter or a
named command also acts), and the reader is where they were.

What the display shows can change by itself (news, a notice): a routing key that comes
within ``REACTION`` seconds of such a change was pressed on what the reader felt before it,
so when the change gave its cell another meaning (a card became the message line, a
refusal covered the row, a card moved along a board's row) nothing is done and the reader is
told so at once, in words.

    front = Front(session, display, translator("en-ueb-g1.ctb"))
    front.run()          # until the player quits
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Hashable
from typing import Generic, Protocol, TypeVar

from brailledev.display.base import RESIZED, Display
from brailledev.display.braille import Translator, dots_to_numbers
from brailledev.display.chords import SPACE_MOVES, NoCommand, Ran, Typist, chord_letter
from brailledev.display.keys import (
    BACK,
    NEWEST,
    Bottom,
    Chord,
    Key,
    LineDown,
    LineUp,
    Named,
    PanLeft,
    PanRight,
    Route,
    Top,
)
from brailledev.display.window import LaidLine, Place, Viewport, Window, lay_out_line
from brailledev.table.boardkeys import BoardKeys, Seen
from brailledev.table.boardkeys import aim as board_aim
from brailledev.table.seat import SeatClient
from layouts.board import Size
from layouts.screen import HELP_LINE, MESSAGE_LINE, STATUS_LINE, Line, Screen, words

# Seconds between two looks at the turn clock when nothing else is due.
IDLE_POLL = 0.2
# Seconds after the display changed by itself in which a routing key was aimed at what it
# showed before: no reader feels new cells and routes on them sooner.
REACTION = 0.5
# What a display showed a routing key: the lines and a refusal's window on one row, or the
# board on several (see ``_aimed``).
Shown = tuple[Viewport, Window | None] | Seen


class Driven(Protocol):
    """A seat and what drives it between keys (a program's seat: a one-person game, a score
    pad, a seat at a server's table)."""

    @property
    def seat(self) -> SeatClient: ...

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
        # The seat's board while the display has several rows and the screen has one.
        self.boards: BoardKeys | None = None
        self.typist = Typist()
        self._stop = threading.Event()
        self._jumps = -1
        self._screen: Screen | None = None
        # The place the reader last had on each line, restored when they return to it.
        self._places: dict[str, Place] = {}
        # The refusal shown at once (the seat's flash) as laid out, and its window.
        self._flash: LaidLine | None = None
        self._flash_seen = -1
        self._flash_window = 0
        self._flash_shown: Window | None = None
        # The status line was reached by reading past the news: panning past it returns.
        self._status_then_back = False
        # What the display showed before it last changed by itself (no key since), and when
        # it changed: a routing key that follows within ``reaction`` seconds was aimed at it.
        self._before: Shown | None = None
        self.changed_at = -REACTION
        self.reaction = REACTION
        # For tests and benchmarks: the rows last written, keys handled so far, whether the
        # loop waits for the player with nothing else to do, and a lock held while a key or
        # news is acted on and drawn (what these say is whole while it is free).
        self.written: list[str] = []
        self.handled = 0
        self.idle = threading.Event()
        self.busy = threading.Lock()

    def stop(self) -> None:
        """Thread-safe: end ``run`` at its next turn (tests, signals)."""
        self._stop.set()

    def redraw(self) -> None:
        """Lay the seat's screen out and write it, on the line the seat wants."""
        seat = self.seat
        if self.display.rows > 1 and seat.board_maker is not None:
            self._draw_board()
            return
        self.boards = None
        viewport = self.viewport
        if (self.display.columns, self.display.rows) != (viewport.columns,
                                                         viewport.display_rows):
            viewport.resize(self.display.columns, self.display.rows)
            self._screen = None
            self._flash_seen = -1
        screen = Screen(seat.lines())
        if screen != self._screen:  # laying out again only for news keeps redraws cheap
            was = viewport.line_key
            self._screen = screen
            viewport.show(screen)
            keys = [line.key for line in screen.lines]
            if was is not None and was not in keys and seat.last_jump().number == self._jumps:
                seat.line_gone(keys)
        jump = seat.last_jump()
        if jump.number != self._jumps:
            self._jumps = jump.number
            self._go(jump.line, jump.returning)
        seat.reader_on(viewport.line_key)
        place = viewport.place()
        if place is not None:
            self._places[place.key] = place
        rows, texts = viewport.rows(), viewport.texts()
        flash = self._flashed()
        self._flash_shown = None if flash is None else flash.windows[self._flash_window]
        if self._flash_shown is not None:
            rows[0], texts[0] = self._flash_shown.cells, self._flash_shown.text
        self.display.write(rows, text=texts)
        self.written = rows

    def _draw_board(self) -> None:
        """The seat's board, laid out again for a display that changed size."""
        display = self.display
        if self.boards is None or self.boards.size != Size(display.columns, display.rows):
            self.boards = BoardKeys(self.seat, display, self.braille, self.seat.route)
        rows, texts = self.boards.draw()
        display.write(rows, text=texts)
        self.written = rows

    def _go(self, line: str, returning: bool) -> None:
        """Move to ``line``: back at the place the reader left it when ``returning``."""
        place = self._places.get(line) if returning else None
        try:
            if place is not None:
                self.viewport.restore(place)
            else:
                self.viewport.goto(line)
        except KeyError:
            home = self.seat.home()
            self.seat.reader_on(home)
            self.viewport.goto(home)

    def _flashed(self) -> LaidLine | None:
        """The seat's flash laid out for the display (``None`` when there is none)."""
        shown = self.seat.shown_at_once()
        if shown is None:
            return None
        if self._flash is None or shown.number != self._flash_seen:
            self._flash_seen = shown.number
            self._flash = lay_out_line(Line(MESSAGE_LINE, words(shown.text)), self.braille,
                                       self.viewport.columns)
            self._flash_window = 0
        return self._flash

    def run(self) -> None:
        """Play until the player quits (or ``stop``), then save; the driver also saves after
        every move."""
        session = self.session
        self.redraw()
        while not self._stop.is_set():
            with self.busy:
                if session.step():
                    before, rows = self._shown(), self.written
                    self.redraw()
                    if self.written != rows:
                        self._changed_by_itself(before)
            due = session.next_due()
            if due is None:
                self.idle.set()
            key = self.display.read_key(timeout=IDLE_POLL if due is None else due)
            if key is None:
                continue
            self.idle.clear()
            with self.busy:
                going_on = self.press(key)
                if going_on:
                    self.redraw()
                    self.handled += 1
            if not going_on:
                break
        self.idle.set()
        session.save()

    def _shown(self) -> Shown:
        """What the display shows as routing keys reach it: the lines where the reader is,
        and the window of the refusal covering the top row; on several rows, the board."""
        if self.boards is not None:
            return self.boards.seen()
        return copy.copy(self.viewport), self._flash_shown

    def _changed_by_itself(self, before: Shown) -> None:
        """The display was drawn again for news: what it showed before is kept for the keys
        pressed on it (the oldest since the reader's last key)."""
        now = time.monotonic()
        if self._before is None or now - self.changed_at >= self.reaction:
            self._before = before
        self.changed_at = now

    def press(self, key: Key) -> bool:
        """Act on one key; False when the player quits. Quit asks first: while its question
        stands, a routing key or quit again leaves, panning reads the question, and any
        other key clears it and acts as usual: ``front.press(Named("quit"))``."""
        seat = self.seat
        asked = seat.quit_asked
        if asked and (isinstance(key, Route) or key == Named("quit")):
            return False
        before, self._before = self._before, None
        if isinstance(key, Route) and before is not None \
                and time.monotonic() - self.changed_at < self.reaction \
                and _aimed(before, key) != _aimed(self._shown(), key):
            seat.show_at_once(seat.catalog.text("route_changed"))
            return True
        going_on = self._press(key)
        reading = isinstance(key, (PanLeft, PanRight)) and seat.flash is not None
        if asked and not reading:
            seat.stay()
        return going_on

    def _press(self, key: Key) -> bool:
        seat = self.seat
        status_read, self._status_then_back = self._status_then_back, False
        if self.boards is not None:
            handled = self.boards.press(key)
            if handled is not None:
                self.typist.clear()
                return handled
        elif seat.shown_at_once() is not None and not self._past_flash(key):
            return True
        if isinstance(key, Chord):
            return self._chord(key)
        self.typist.clear()
        if isinstance(key, Named):
            return self._named(key.name)
        if not isinstance(key, (Route, PanLeft, PanRight, LineUp, LineDown, Top, Bottom)):
            return True  # a row key, Forward or Backward: for boards only
        viewport = self.viewport
        at_end = viewport.display_rows == 1 and isinstance(key, PanRight) \
            and viewport.window + 1 >= len(viewport.lines[viewport.top].windows)
        if viewport.line_key == MESSAGE_LINE and viewport.display_rows == 1:
            if at_end:
                if seat.next_message():
                    return True
                if any(laid.line.key == STATUS_LINE for laid in viewport.lines):
                    # caught up: the status line is read next, then panning returns
                    seat.jump(STATUS_LINE)
                    self._status_then_back = True
                    return True
            elif isinstance(key, PanLeft) and viewport.window == 0:
                seat.read_back()
                return True
        if status_read and viewport.line_key == STATUS_LINE \
                and isinstance(key, (PanLeft, PanRight)):
            if at_end:
                seat.back()  # the news and the status read: back to the player's place
                return True
            self._status_then_back = True  # still reading the status line
        place = (viewport.top, viewport.window)
        hit = viewport.handle(key)
        if hit is None:
            if not isinstance(key, Route):
                seat.reader_on(viewport.line_key)
            elif (viewport.top, viewport.window) == place:  # a blank cell (a marker pans)
                if viewport.line_key == MESSAGE_LINE:
                    seat.read_on()  # anywhere on the message line reads on
                else:
                    seat.nothing_to_route()
            return True
        if hit.line_key == MESSAGE_LINE:
            seat.read_on()
            return True
        return self.seat.route(hit.target)

    def _past_flash(self, key: Key) -> bool:
        """A key while a refusal covers the top row: panning reads it (past its end clears
        it), other keys clear it; True when the key then acts as usual."""
        seat = self.seat
        flash = self._flashed()
        windows = len(flash.windows) if flash is not None else 1
        on_marker = isinstance(key, Route) and key.row == 0 and flash is not None \
            and flash.windows[self._flash_window].more_right \
            and key.cell == self.viewport.columns - 1
        if isinstance(key, PanRight) or on_marker:
            if self._flash_window + 1 < windows:
                self._flash_window += 1
            else:
                seat.clear_flash()
            return False
        if isinstance(key, PanLeft):
            self._flash_window = max(0, self._flash_window - 1)
            return False
        if isinstance(key, Named) and key.name in (RESIZED, "repeat"):
            return True
        seat.clear_flash()
        return isinstance(key, Chord | Named)

    def _chord(self, chord: Chord) -> bool:
        """A braille keyboard chord: a letter towards a command (see ``brailledev.display.chords``),
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
            seat.show_at_once(seat.catalog.text("chord_not_letter",
                                                dots=dots_to_numbers(chord.dots)))
            return True
        typed = self.typist.type(letter, seat.lines())
        if isinstance(typed, Ran):
            seat.tell_step(seat.catalog.text("chord_ran", command=typed.region.text))
            return seat.route(typed.region.target)
        names = ", ".join(typed.names)
        code = "chord_no_command" if isinstance(typed, NoCommand) else "chord_several"
        seat.show_at_once(seat.catalog.text(code, letters=typed.typed, commands=names))
        return True

    def _named(self, name: str) -> bool:
        seat = self.seat
        if name == "quit":
            return seat.ask_quit()
        if name == "help":
            seat.show(HELP_LINE)
        elif name == NEWEST:
            seat.newest()
        elif name == BACK:
            seat.back()
        elif name == RESIZED:
            seat.jump(seat.focus)
        elif name == "repeat":
            seat.repeat()
        return True


def _aimed(shown: Shown, key: Route) -> Hashable:
    """What routing key ``key`` does on what a display shows, one row or several."""
    if isinstance(shown[0], Viewport):
        return _aim(shown[0], shown[1], key)
    return "board", board_aim(shown, key)


def _aim(viewport: Viewport, flash: Window | None, key: Route) -> Hashable:
    """What routing key ``key`` does on what a display shows (``viewport`` and the window of
    a refusal covering the top row): the line under it and the target, marker, message or
    blank cell there: ``_aim(viewport, None, Route(7)) == ("hand", PlayMove(...))``."""
    if flash is not None and key.row == 0:
        return "flash", flash.more_right and key.cell == viewport.columns - 1
    line, reached = viewport.reaches(key.cell, key.row)
    return line, "read on" if line == MESSAGE_LINE and reached not in ("<", ">") else reached
