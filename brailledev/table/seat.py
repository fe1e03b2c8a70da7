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
from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from brailledev.display.speech import Silence, Speech
from brailledev.table.core import Table, TimeLeft
from brailledev.table.history import History
from brailledev.table.turntimer import shown_left
from games import saved as check
from games.core import Event, Reason, Seat
from layouts.board import Board, Size
from layouts.catalog import LANGUAGES
from layouts.errors import UserError
from layouts.registry import kit
from layouts.screen import (
    CHOICE_LINE,
    MESSAGE_LINE,
    OUTCOMES,
    STATUS_LINE,
    Ask,
    Context,
    GameScreen,
    Line,
    Outcome,
    PlayMove,
    Refuse,
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

    def over(self) -> bool:
        """Whether the game has ended."""

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

    def over(self) -> bool:
        return self.table.game.is_over()

    def time_left(self) -> int | None:
        return self.table.time_left(self.seat)

    def play(self, move: Hashable) -> Reason | None:
        return self.table.play(self.seat, move)


class Jump(NamedTuple):
    """Where the seat last put the reader: the jump's ``number`` (one more at each), the
    ``line`` the reader is on, and whether it was ``returning`` to a place they had been at."""

    number: int
    line: str
    returning: bool


class AtOnce(NamedTuple):
    """What the seat shows at once where the reader is (a refusal), numbered: the same text
    shown again is shown afresh."""

    number: int
    text: str


def game_screen(name: str) -> GameScreen:
    """The screen a game offers a seat (its kit's); a game without one is refused."""
    screen = kit(name).screen
    if screen is None:
        raise UserError("no_display_screen", game=name)
    return screen


class SeatClient:
    """One person's place at a table; see the module docstring.

    Messages follow the rules of :mod:`brailledev.table.history`: the seat's own steps are kept
    but not queued, news gathers into one summary, and at the start of the seat's turn (or
    when the game ends) a summary not yet read is put before the player, on the message line;
    reading past it goes back to where they were. A refusal is shown at once where the player
    is (``flash``) until a key clears it, and kept in the history.
    """

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
        # A score pad brings its own screen over the game's words (brailledev/programs/pad.py).
        self.screen = screen if screen is not None else game_screen(game)
        # The game's board on a multi-line display goes with the game's own screen only.
        self.board_maker = kit(game).board if screen is None else None
        self.history = history if history is not None else History()
        self.speech: Speech | Silence = speech if speech is not None else Silence()
        self.pending: Hashable = None
        self.focus = MESSAGE_LINE
        # Counts the seat's own focus changes, so a front knows when to move its window;
        # ``returning``: the last one went back to a place the reader had been at.
        self.jumps = 0
        self.returning = False
        # Where reading the newest message, or the back key, returns to; and the line a
        # question was asked from (the reader comes back to it once it is answered).
        self.back_to: str | None = None
        self.asked_from: str | None = None
        # A refusal (or what typing a command says) shown at once, until a key clears it.
        self.flash: str | None = None
        self.flashes = 0
        # Quit was asked once: the next routing key (or quit again) leaves, any other stays.
        self.quit_asked = False
        self.names = seat_names(link.players, self.seat, self.catalog)
        # The screen's memory between two drawings (see ``Context.keep``).
        self.keep: dict[str, Any] = {}
        self._notices: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        self._prompted = -1
        self._was_waiting = False
        self._was_over = False

    # ---- the reader's state, saved with the game --------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The reader's state for the save file, the half-made input included."""
        return {"seat": self.seat, "lang": self.lang, "braille_table": self.braille_table,
                "history": self.history.to_dict(),
                "pending": self.screen.save_input(self.pending)}

    @staticmethod
    def saved(data: Mapping[str, Any]) -> dict[str, Any]:
        """The keyword arguments of the constructor a saved reader state gives, every field
        checked (:class:`games.core.BadState` naming the field)."""
        saved = check.need_dict(data, "reader")
        table = saved.get("braille_table")
        return {"lang": check.text(check.field(saved, "lang", "reader"), "reader.lang",
                                   LANGUAGES),
                "braille_table": None if table is None
                else check.text(table, "reader.braille_table"),
                "history": History.from_dict(check.field(saved, "history", "reader"),
                                             "reader.history")}

    def restore_input(self, data: Any) -> None:
        """Take back the half-made input a save holds (``None``: none), checked against the
        seat's view (:class:`games.core.BadState`)."""
        self.pending = self.screen.load_input(data, self.view())

    def set_lang(self, lang: str) -> None:
        """Words and names in ``lang`` from now on (the history stays as it was told)."""
        self.lang = lang
        self.catalog = kit(self.game).catalog(lang)
        self.names = seat_names(self.link.players, self.seat, self.catalog)

    def attach_speech(self, speech: Speech | Silence) -> None:
        """Speak from now on, starting with the newest message if it is news not yet read."""
        self.speech = speech
        newest = self.history.newest
        if newest is not None and self.history.fresh:
            speech.say(newest.text)

    # ---- what the screen shows ---------------------------------------------------------

    def context(self) -> Context:
        """What the screen is told besides the view, the seat's legal moves included."""
        return Context(self.seat, self.names, self.history.messages_shown(), self.pending,
                       self.catalog, tuple(self.link.legal()), self.keep)

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

    def board(self, size: Size) -> Board | None:
        """The screen now as the game's board for a display of ``size`` (``None``: the
        screen has no board): ``seat.board(Size(40, 9))``."""
        if self.board_maker is None:
            return None
        return self.board_maker.board(self.view(), self.context(), self.lines(), size)

    def home(self) -> str:
        """The line the player belongs on when nothing is left to read."""
        return self.screen.home(self.view(), self.context())

    def shown_at_once(self) -> AtOnce | None:
        """The text shown at once until a key clears it, ``None`` when there is none."""
        return None if self.flash is None else AtOnce(self.flashes, self.flash)

    def current_text(self) -> str:
        """The text of the line the player is on (what ``repeat`` speaks)."""
        if self.flash is not None:
            return self.flash
        for line in self.lines():
            if line.key == self.focus:
                return line.text
        return ""

    # ---- telling -----------------------------------------------------------------------

    def tell(self, text: str) -> None:
        """News: added to the summary being gathered, and spoken."""
        self.history.news(text)
        self.speech.say(text)

    def tell_step(self, text: str) -> None:
        """The player's own step: kept in the history, spoken, never queued."""
        self.history.step(text)
        self.speech.say(text)

    def show_at_once(self, text: str) -> None:
        """Show ``text`` where the player is until a key clears it (what a typed letter
        picks); spoken, not kept."""
        self.flash = text
        self.flashes += 1
        self.speech.say(text)

    def refuse(self, text: str) -> None:
        """A refusal: shown at once where the player is, kept in the history, spoken."""
        self.history.refusal(text)
        self.show_at_once(text)

    def clear_flash(self) -> None:
        self.flash = None

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
        """Tell events already filtered for this seat: the seat's own steps are kept, the
        rest is news (a turn clock's mark is shown at once); then, at the start of the
        seat's turn, put the news before the player."""
        context = self.context()
        time_up = False
        for event in events:
            if isinstance(event, TimeLeft) and isinstance(self.screen, TimedScreen):
                if event.seconds == 0:  # the move the clock plays follows: shown at once
                    time_up = True
                    continue
                self.alert(self.screen.time_left(event.seconds, context))
                continue
            text = self.screen.describe(event, context)
            if not text:
                continue
            if self.screen.echoes(event, context):
                self.tell_step(text)
            else:
                self.tell(text)
            if time_up:
                self._show_unless_typing(text)
                time_up = False
        if self.pending is not None and not self.link.waiting_for_me():
            self.pending = None
        self._prompt()

    def alert(self, text: str) -> None:
        """News the reader meets at once (a turn clock's mark, the connection lost or back):
        kept with the news and shown where the reader is, unless a line being typed must
        not be covered: ``seat.alert("The connection to the table is lost.")``."""
        self.history.news(text)
        self._show_unless_typing(text)

    def typing(self) -> bool:
        """Whether the player is typing a line (a shared table's talk) that what is shown
        at once must not cover: then it goes to the message line only."""
        return False

    def _show_unless_typing(self, text: str) -> None:
        if not self.typing():
            self.show_at_once(text)

    def listener(self, seat: Seat, events: Sequence[Event]) -> None:
        """A table listener: hears this seat's share of every move."""
        if seat == self.seat:
            self.hear(events)

    # ---- moving the reader -------------------------------------------------------------

    def jump(self, line: str, returning: bool = False) -> None:
        """Put the player on ``line`` (a front moves its window there); ``returning``: back
        to a place they were at (the front restores the window they were reading)."""
        self.focus = line
        self.jumps += 1
        self.returning = returning

    def last_jump(self) -> Jump:
        """Where the seat last put the reader (a front that has not seen this number moves
        there): ``seat.last_jump().line``."""
        return Jump(self.jumps, self.focus, self.returning)

    def reader_on(self, line: str | None) -> None:
        """The reader moved to ``line`` with the display's own keys (line keys, panning):
        the seat follows, without a jump (``None``: no line shown yet, nothing changes)."""
        if line is not None:
            self.focus = line

    def show(self, line: str) -> None:
        """Show ``line`` (help); the back key returns to where the reader was."""
        if self.focus != line:
            self.back_to = self.focus
        self.jump(line)

    def newest(self) -> None:
        """Show the newest message on the message line (the back key returns)."""
        self.history.to_newest()
        if self.focus != MESSAGE_LINE:
            self.back_to = self.focus
        self.jump(MESSAGE_LINE)

    def back(self) -> None:
        """Back to where the player was before the message line (else to the home line)."""
        line, self.back_to = self.back_to, None
        self.jump(line or self.home(), returning=True)

    def line_gone(self, present: Collection[str]) -> None:
        """The line the player was on is gone from the screen (``present``: the lines now):
        back to the line the question was asked from, else the home line."""
        asked, self.asked_from = self.asked_from, None
        self.jump(asked if asked is not None and asked in present else self.home(),
                  returning=True)

    def next_message(self) -> bool:
        """The next message on the message line; False when the newest is shown."""
        if self.history.read_on():
            self.jump(MESSAGE_LINE)
            return True
        return False

    def read_on(self) -> None:
        """The player read past the message shown: the next one, or back where they were."""
        if not self.next_message():
            self.back()

    def repeat(self) -> None:
        """Say the line the player is on again."""
        self.speech.say(self.current_text())

    def read_back(self) -> None:
        """The message before the one shown (reading back through the history)."""
        self.history.read_back()
        self.jump(MESSAGE_LINE)

    # ---- acting ------------------------------------------------------------------------

    def route(self, target: Hashable) -> bool:
        """Activate a routed target; returns False for the ``quit`` command."""
        if target is None:
            self.nothing_to_route()
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
            if outcome.said:
                self.speech.say(outcome.said)
            if outcome.then is not None and outcome.then != self.focus:
                self.asked_from = self.focus
                self.jump(outcome.then)
        elif isinstance(outcome, Show):
            self.show(outcome.line)
        elif isinstance(outcome, Refuse):
            self.refuse(self.refusal(outcome.reason))
        elif outcome.name == "quit":
            return self.ask_quit()
        elif outcome.name == "repeat":
            self.repeat()
        return True

    def ask_quit(self) -> bool:
        """Quit asked: the first time, the question is shown at once (True: the game goes
        on); asked again while it stands, False: the player leaves. A front calls
        :meth:`stay` on any other key: ``seat.ask_quit()``."""
        if self.quit_asked:
            return False
        self.show_at_once(self.catalog.text("quit_question"))
        self.quit_asked = True
        return True

    def stay(self) -> None:
        """The player answered the quit question with another key: the game goes on."""
        self.quit_asked = False

    def nothing_to_route(self) -> None:
        """A routing key over nothing to act on says so at once where the player is, like a
        refusal, and keeps nothing: the reader stays on the line they routed."""
        self.show_at_once(self.catalog.text("nothing_to_route"))

    def refusal(self, reason: Reason) -> str:
        """A refusal in the reader's words: ``Refused: ...``."""
        return self.catalog.text("refused", why=self.screen.explain(reason, self.context()))

    def play(self, move: Hashable) -> bool:
        """Send ``move``; a refusal is shown with its reason, and nothing else changes. A
        question the move raises (play or keep the card drawn) is where the player goes."""
        pending = self.pending
        self.pending = None
        asked = self.home() == CHOICE_LINE
        self.history.close()  # what follows this move is the next summary's
        reason = self.link.play(move)
        if reason is not None:
            self.pending = pending
            self.refuse(self.refusal(reason))
            return False
        if not asked and self.focus != MESSAGE_LINE:
            self._to_question()
        return True

    def _to_question(self) -> None:
        """Go to the choice line if a question is due there (and come back once answered)."""
        if self.link.waiting_for_me() and self.home() == CHOICE_LINE \
                and self.focus != CHOICE_LINE:
            self.asked_from = self.focus
            self.jump(CHOICE_LINE)

    def _prompt(self) -> None:
        position = self.link.position
        if self._prompted == position:
            return
        self._prompted = position
        waiting, over = self.link.waiting_for_me(), self.link.over()
        starts, ends = waiting and not self._was_waiting, over and not self._was_over
        self._was_waiting, self._was_over = waiting, over
        if starts:
            left = self.link.time_left()
            if left is not None and isinstance(self.screen, TimedScreen):
                self.tell(self.screen.clock_starts(left, self.context()))
        typing = self.typing()  # the line being typed stays in view; the news waits
        if (starts or ends) and self.history.fresh and not typing:
            # Read first; reading past the news goes to the line where the player acts.
            self.history.to_newest()
            self.back_to = None
            self.jump(MESSAGE_LINE)
        elif starts and not typing:
            self._to_question()
        if not waiting:
            return
        # Spoken only: the status line already shows whose turn it is.
        prompt = self.screen.prompt(self.view(), self.context())
        if prompt:
            self.speech.say(prompt)
