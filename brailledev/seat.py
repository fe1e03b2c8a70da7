"""A seat client: what one person at a table reads, hears and routes.

It holds the reader's state (the message history and place in it, the line in focus, the
half-made input, the language, speech) and asks its screen for lines. The table it sits at is
behind a :class:`TableLink`: a local table for ``brailledev play``, the wire for a table held
by a server; the seat is the same code either way. Events reach it already filtered for its
seat (:meth:`SeatClient.hear`).

    seat = SeatClient(LocalLink(table, 0), "uno", lang="en")
    table.listen(seat.listener)
    seat.route(next(line for line in seat.lines() if line.key == "hand").regions[0].target)
"""

from __future__ import annotations

import queue
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol

from brailledev.history import History
from brailledev.speech import Silence, Speech
from brailledev.table import Table, TimeLeft
from brailledev.turntimer import shown_left
from games.core import Event, Reason, Seat
from layouts.errors import UserError
from layouts.registry import kit
from layouts.screen import (
    MESSAGE_LINE,
    OUTCOMES,
    STATUS_LINE,
    Ask,
    Context,
    GameScreen,
    Line,
    Outcome,
    PlayMove,
    Region,
    Show,
    TimedScreen,
    seat_names,
)


class TableLink(Protocol):
    """What a seat knows of its table: its view and legal moves, whether the game waits for
    it, the time it has left, and a way to send a move."""

    seat: Seat

    @property
    def players(self) -> int: ...

    @property
    def position(self) -> int:
        """A number that changes with every move played at the table."""

    def view(self) -> Any: ...

    def legal(self) -> list[Any]: ...

    def waiting_for_me(self) -> bool: ...

    def time_left(self) -> int | None: ...

    def play(self, move: Hashable) -> Reason | None:
        """Send a move: ``None`` when played, else why it was refused."""


class LocalLink:
    """A seat's link to a table in the same process."""

    def __init__(self, table: Table, seat: Seat) -> None:
        self.table = table
        self.seat = seat

    @property
    def players(self) -> int:
        return self.table.players

    @property
    def position(self) -> int:
        return self.table.moves

    def view(self) -> Any:
        return self.table.view(self.seat)

    def legal(self) -> list[Any]:
        return self.table.legal(self.seat)

    def waiting_for_me(self) -> bool:
        game = self.table.game
        return not game.is_over() and self.seat in game.actors()

    def time_left(self) -> int | None:
        return self.table.time_left(self.seat)

    def play(self, move: Hashable) -> Reason | None:
        return self.table.play(self.seat, move)


def game_screen(name: str) -> GameScreen:
    """The screen a game offers a seat (its kit's); a game without one is refused."""
    screen = kit(name).screen
    if screen is None:
        raise UserError("no_display_screen", game=name)
    return screen


class SeatClient:
    """One person's place at a table; see the module docstring."""

    def __init__(self, link: TableLink, game: str, lang: str, braille_table: str | None = None,
                 history: History | None = None,
                 speech: Speech | Silence | None = None,
                 screen: GameScreen | None = None) -> None:
        self.link = link
        self.seat = link.seat
        self.game = game
        self.lang = lang
        self.braille_table = braille_table
        self.catalog = kit(game).catalog(lang)
        # A score pad brings its own screen over the game's words (brailledev/pad.py).
        self.screen = screen if screen is not None else game_screen(game)
        self.history = history if history is not None else History()
        self.speech: Speech | Silence = speech if speech is not None else Silence()
        self.pending: Hashable = None
        self.focus = MESSAGE_LINE
        # Counts the seat's own focus changes, so a front knows when to move its window.
        self.jumps = 0
        self.names = seat_names(link.players, self.seat, self.catalog)
        self._notices: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        self._prompted = -1

    # ---- the reader's state, saved with the game --------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "lang": self.lang, "braille_table": self.braille_table,
                "history": self.history.to_dict()}

    @staticmethod
    def saved(data: Mapping[str, Any]) -> dict[str, Any]:
        """The keyword arguments of the constructor a saved reader state gives."""
        table = data.get("braille_table")
        return {"lang": str(data["lang"]),
                "braille_table": str(table) if table is not None else None,
                "history": History.from_dict(data["history"])}

    def set_lang(self, lang: str) -> None:
        """Words and names in ``lang`` from now on (the history stays as it was told)."""
        self.lang = lang
        self.catalog = kit(self.game).catalog(lang)
        self.names = seat_names(self.link.players, self.seat, self.catalog)

    def attach_speech(self, speech: Speech | Silence) -> None:
        """Speak from now on, starting with the messages not yet read."""
        self.speech = speech
        for text in self.history.texts[max(self.history.cursor, 0):]:
            speech.say(text)

    # ---- what the screen shows ---------------------------------------------------------

    def context(self) -> Context:
        """What the screen is told besides the view, the seat's legal moves included."""
        return Context(self.seat, self.names, self.history.messages(), self.pending,
                       self.catalog, tuple(self.link.legal()))

    def view(self) -> Any:
        return self.link.view()

    def lines(self) -> tuple[Line, ...]:
        """The lines of the screen now (with the time left on ``status`` when a limit runs)."""
        context = self.context()
        lines = self.screen.screen(self.view(), context)
        left = self.link.time_left()
        if left is None or not isinstance(self.screen, TimedScreen):
            return lines
        shown = Region(self.screen.time_left(shown_left(left), context))
        return tuple(Line(line.key, (*line.regions, shown), line.gap)
                     if line.key == STATUS_LINE else line for line in lines)

    def home(self) -> str:
        """The line the player belongs on when nothing is left to read."""
        return self.screen.home(self.view(), self.context())

    def current_text(self) -> str:
        """The text of the line the player is on (what ``repeat`` speaks)."""
        for line in self.lines():
            if line.key == self.focus:
                return line.text
        return ""

    # ---- telling -----------------------------------------------------------------------

    def tell(self, text: str) -> None:
        """Add ``text`` to the history and speak it; a caught-up player's focus goes to it."""
        if self.history.add(text):
            self.jump(MESSAGE_LINE)
        self.speech.say(text)

    def notice(self, code: str, detail: str = "") -> None:
        """Thread-safe: a notice from another thread (speech) told at the next chance."""
        self._notices.put((code, detail))

    def take_notices(self) -> bool:
        """Tell the notices other threads left; True if there were any."""
        told = False
        while not self._notices.empty():
            code, detail = self._notices.get()
            self.tell(self.catalog.text(code, detail=detail))
            told = True
        return told

    def hear(self, events: Sequence[Event]) -> None:
        """Tell events already filtered for this seat, then prompt if it is its turn."""
        context = self.context()
        for event in events:
            if isinstance(event, TimeLeft) and isinstance(self.screen, TimedScreen):
                self.tell(self.screen.time_left(event.seconds, context))
                continue
            text = self.screen.describe(event, context)
            if text:
                self.tell(text)
        if self.pending is not None and not self.link.waiting_for_me():
            self.pending = None
        self._prompt()

    def listener(self, seat: Seat, events: Sequence[Event]) -> None:
        """A table listener: hears this seat's share of every move."""
        if seat == self.seat:
            self.hear(events)

    def jump(self, line: str) -> None:
        """Put the player on ``line`` (a front moves its window there)."""
        self.focus = line
        self.jumps += 1

    def read_on(self) -> None:
        """The player read past the message shown: the next one, or back home."""
        self.jump(MESSAGE_LINE if self.history.read_on() else self.home())

    def read_back(self) -> None:
        """The message before the one shown (reading back through the history)."""
        self.history.read_back()
        self.jump(MESSAGE_LINE)

    # ---- acting ------------------------------------------------------------------------

    def route(self, target: Hashable) -> bool:
        """Activate a routed target; returns False for the ``quit`` command."""
        if target is None:
            return True
        if not isinstance(target, OUTCOMES):
            raise TypeError(f"a screen target must be an Outcome, not {target!r}")
        return self.activate(target)

    def activate(self, outcome: Outcome) -> bool:
        """Do what an outcome says: ``activate(Show("help"))``; False for ``Ui("quit")``."""
        if isinstance(outcome, PlayMove):
            self.play(outcome.move)
        elif isinstance(outcome, Ask):
            self.pending = outcome.pending
            self.jump(self.home())
        elif isinstance(outcome, Show):
            self.jump(outcome.line)
        elif outcome.name == "quit":
            return False
        elif outcome.name == "repeat":
            self.speech.say(self.current_text())
        return True

    def play(self, move: Hashable) -> bool:
        """Send ``move``; a refusal is told with its reason, and nothing else changes."""
        pending = self.pending
        self.pending = None
        reason = self.link.play(move)
        if reason is not None:
            self.pending = pending
            self.tell(self.catalog.text("refused", why=self.screen.explain(reason,
                                                                         self.context())))
            return False
        return True

    def _prompt(self) -> None:
        position = self.link.position
        if self._prompted == position:
            return
        self._prompted = position
        # Spoken only: the status line already shows whose turn it is.
        prompt = self.screen.prompt(self.view(), self.context())
        if prompt:
            self.speech.say(prompt)

