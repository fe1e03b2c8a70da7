"""The one-person game: a local table with one person's seat and bots in the others, saved
to a file after every move, resumed from it.

It puts together the two halves a table server keeps apart: the table core
(:mod:`brailledev.table.core`: the game, the bots, the turn clock) and the person's seat
(:mod:`brailledev.table.seat`: messages, focus, half-made input, speech). The key loop
(:mod:`brailledev.table.keyloop`) drives it: :meth:`Session.step` lets the bots act at a reading
pace and keeps the turn clock.

    session = Session.start("uno", players=2, seed=7, lang="en", save=Path("uno.json"))
    hand = next(line for line in session.lines() if line.key == HAND_LINE)
    session.route(hand.regions[0].target)     # route the first card of the hand
    session.run_bots()                        # the others answer
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from brailledev.display.speech import Silence, Speech
from brailledev.files import private_folder, write_atomically
from brailledev.programs.savefile import SAVE_FORMAT, SAVE_VERSION, Unreadable, damage, read_save
from brailledev.table.core import DEFAULT_BOT, Seating, Table
from brailledev.table.history import History
from brailledev.table.seat import LocalLink, SeatClient
from games import saved as check
from games.core import BadState, Event, Game, Seat
from layouts.catalog import Catalog
from layouts.errors import Problem, UserError, system_reason
from layouts.screen import MESSAGE_LINE, Context, GameScreen, Line, TimedScreen


class Session:
    """See the module docstring."""

    def __init__(self, table: Table, seat: SeatClient, save: Path | None = None,
                 pace: float = 1.5) -> None:
        self.table = table
        self.seat = seat
        self.save_path = save
        self.pace = pace
        self._last_move = 0.0
        # The error of the last save when it failed (the reader was told), else None.
        self.save_failure: OSError | None = None
        self._input_saved: Hashable = seat.pending
        table.listen(self._heard)

    # ---- starting and resuming -------------------------------------------------------------

    @classmethod
    def start(cls, name: str, players: int, seed: int, lang: str, seat: Seat = 0,
              bots: str = DEFAULT_BOT, options: Mapping[str, Any] | None = None,
              braille_table: str | None = None, history: History | None = None,
              save: Path | None = None, speech: Speech | Silence | None = None,
              pace: float = 1.5, clock: Callable[[], float] = time.monotonic) -> Session:
        """A new game: the person in ``seat``, bots (one name, or names given in turn) in the
        others; ``options`` are the game's variants (e.g. ``{"match_target": 0}``);
        ``braille_table`` is the braille table of the person's display."""
        core = Table.new(name, players, seed, people=(seat,), bots=bots, options=options,
                         clock=clock, timed=_timed(name))
        reader = SeatClient(LocalLink(core, seat), name, lang, braille_table, history, speech)
        session = cls(core, reader, save, pace)
        reader.tell(reader.catalog.text("game_start",
                                        game=reader.catalog.section("names")["game"],
                                        players=players))
        timed = reader.screen
        if isinstance(timed, TimedScreen):
            notice = timed.clock_notice(reader.view(), reader.context())
            if notice:
                reader.tell(notice)
        # Games that deal or turn cards on creation keep those events aside (Uno's deal).
        session.tell_events(core.start_events)
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, save: Path | None = None, speech: Speech | Silence | None = None,
               pace: float = 1.5, clock: Callable[[], float] = time.monotonic,
               lang: str | None = None, braille_table: str | None = None) -> Session:
        """The game saved in ``path`` (saved on to ``save``, default ``path``); a missing,
        damaged or newer file is one clear sentence (UserError) naming it. A ``lang`` or
        ``braille_table`` given wins over the saved one from the first word told (see
        :meth:`choose_words`)."""
        try:
            session = cls.load(path, save, speech, pace, clock)
        except FileNotFoundError:
            raise UserError("no_saved_game", path=path) from None
        except Unreadable as error:
            if error.newer is not None:
                raise UserError("saved_game_newer", path=path, version=error.newer) from None
            raise UserError("saved_game_damaged", path=path, detail=error.detail) from None
        session.choose_words(lang, braille_table)
        session.announce_resumed()
        return session

    @classmethod
    def load(cls, path: Path, save: Path | None = None, speech: Speech | Silence | None = None,
             pace: float = 1.5, clock: Callable[[], float] = time.monotonic) -> Session:
        """The game saved in ``path``, as it was (nothing told): ``FileNotFoundError`` when
        there is none, :class:`brailledev.programs.savefile.Unreadable` (the reason in words) when
        it cannot be resumed: ``Session.load(Path("uno.json"))``."""
        data = read_save(path)
        try:
            core = Table.from_dict(data["table"], clock=clock)
        except BadState as error:
            raise Unreadable(damage(error, "table")) from None
        try:
            reader_data = check.need_dict(data["reader"], "reader")
            seat = check.integer(check.field(reader_data, "seat", "reader"), "reader.seat", 0,
                                 core.players - 1)
            check.ensure(seat in core.seating.people, "reader.seat", "not_a_person")
            reader = SeatClient(LocalLink(core, seat), core.name, speech=speech,
                                **SeatClient.saved(reader_data))
            reader.restore_input(reader_data.get("pending"))
        except BadState as error:
            raise Unreadable(damage(error)) from None
        core.timed = _timed(core.name)
        try:
            # What the first redraw asks of the game and the screen, asked before any redraw.
            reader.lines()
            reader.home()
        except Problem:
            raise
        except Exception as error:  # a gap in the checks: the game is refused, never drawn
            raise Unreadable(Problem("damage_unexpected", kind=type(error).__name__)) from None
        return cls(core, reader, save or path, pace)

    def choose_words(self, lang: str | None, braille_table: str | None) -> None:
        """The reader's ``--lang`` or ``--table`` given to a resumed game, over the saved ones:
        another language drops the saved braille table unless one is given (the caller then
        takes the language's own): ``session.choose_words("fr", None)``."""
        if lang is not None and lang != self.seat.lang:
            self.seat.set_lang(lang)
            self.seat.braille_table = None  # the saved table is the other language's
        if braille_table is not None:
            self.seat.braille_table = braille_table

    def announce_resumed(self) -> None:
        """Tell the reader the game goes on, and show the news from there:
        ``Session.load(path).announce_resumed()``."""
        self.seat.history.close()  # the news before the break is complete; resuming is new
        self.tell(self.catalog.text("game_resumed"))
        self.seat.history.to_newest()
        self.jump(MESSAGE_LINE)  # the reader picks up with the news

    def to_dict(self) -> dict[str, Any]:
        """Everything a save file holds: the table and the person's reading state."""
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION,
                "table": self.table.to_dict(), "reader": self.seat.to_dict()}

    def save(self) -> None:
        """Write the save file atomically, readable by its owner only, in a folder that is
        too. A save that cannot be written leaves the game going on in memory: the reader is
        told once that saving fails and why, then once when it works again; every move
        tries again (:attr:`save_failure` holds the last failure, ``None`` once it works)."""
        self._input_saved = self.seat.pending
        if self.save_path is None:
            return
        data = json.dumps(self.to_dict(), ensure_ascii=False).encode("utf-8")
        try:
            private_folder(self.save_path.parent)
            write_atomically(self.save_path, data, mode=0o600)
        except OSError as error:
            if self.save_failure is None:
                self.seat.tell(self.catalog.text("save_failing", path=self.save_path,
                                                 reason=system_reason(error).text(self.lang)))
            self.save_failure = error
            return
        if self.save_failure is not None:
            self.save_failure = None
            self.seat.tell(self.catalog.text("save_works_again", path=self.save_path))

    def _save_new_input(self) -> None:
        """Save when the half-made input changed (a Wild waiting for its colour): a game
        resumed after a crash finds it again."""
        if self.seat.pending != self._input_saved:
            self.save()

    def _heard(self, seat: Seat, events: Sequence[Event]) -> None:
        if seat != self.seat.seat:
            return
        self._last_move = time.monotonic()
        self.seat.hear(events)
        self.save()

    # ---- the table and the seat, as one person plays them --------------------------------

    @property
    def name(self) -> str:
        return self.table.name

    @property
    def game(self) -> Game[Any, Any]:
        return self.table.game

    @game.setter
    def game(self, game: Game[Any, Any]) -> None:
        self.table.game = game

    @property
    def moves(self) -> int:
        return self.table.moves

    @property
    def seating(self) -> Seating:
        return self.table.seating

    @property
    def history(self) -> History:
        return self.seat.history

    @property
    def pending(self) -> Hashable:
        return self.seat.pending

    @pending.setter
    def pending(self, pending: Hashable) -> None:
        self.seat.pending = pending

    @property
    def focus(self) -> str:
        return self.seat.focus

    @focus.setter
    def focus(self, line: str) -> None:
        self.seat.focus = line

    @property
    def jumps(self) -> int:
        return self.seat.jumps

    @property
    def catalog(self) -> Catalog:
        return self.seat.catalog

    @property
    def screen(self) -> GameScreen:
        return self.seat.screen

    @property
    def speech(self) -> Speech | Silence:
        return self.seat.speech

    @property
    def lang(self) -> str:
        return self.seat.lang

    @property
    def braille_table(self) -> str | None:
        return self.seat.braille_table

    @braille_table.setter
    def braille_table(self, table: str | None) -> None:
        self.seat.braille_table = table

    def context(self) -> Context:
        return self.seat.context()

    def view(self) -> Any:
        return self.seat.view()

    def lines(self) -> tuple[Line, ...]:
        return self.seat.lines()

    def home(self) -> str:
        return self.seat.home()

    def tell(self, text: str) -> None:
        self.seat.tell(text)

    def tell_events(self, events: Sequence[Event]) -> None:
        """Tell full events as the person's seat may learn them."""
        self.seat.hear([seen for event in events
                        if (seen := event.seen_by(self.seat.seat)) is not None])

    def notice(self, code: str, detail: str = "") -> None:
        self.seat.notice(code, detail)

    def jump(self, line: str) -> None:
        self.seat.jump(line)

    def read_on(self) -> None:
        self.seat.read_on()

    def read_back(self) -> None:
        self.seat.read_back()

    def set_lang(self, lang: str) -> None:
        self.seat.set_lang(lang)

    def attach_speech(self, speech: Speech | Silence) -> None:
        self.seat.attach_speech(speech)

    def route(self, target: Hashable) -> bool:
        """Activate a routed target; False (after saving) for the ``quit`` command."""
        going_on = self.seat.route(target)
        if not going_on:
            self.save()
        else:
            self._save_new_input()
        return going_on

    def play(self, move: Hashable) -> bool:
        """Play ``move`` for the person; a refusal is told and nothing changes."""
        return self.seat.play(move)

    # ---- the bots and the clock, at a reading pace ---------------------------------------

    def bot_due(self) -> Seat | None:
        return self.table.bot_due()

    def bot_move(self) -> bool:
        return self.table.bot_move()

    def run_bots(self, limit: int = 10_000) -> int:
        return self.table.run_bots(limit)

    def timer_tick(self) -> bool:
        """Keep the turn clock (see :meth:`Table.tick`); True when the screen changed."""
        return self.table.tick()

    def seconds_to_next_bot(self) -> float:
        """How long the pacing still holds the next bot back."""
        return max(0.0, self._last_move + self.pace - time.monotonic())

    def step(self) -> bool:
        """What the key loop does between keys: notices from other threads, the turn clock,
        and one bot move once the pace allows. True when the screen may have changed."""
        changed = self.seat.take_notices()
        self._save_new_input()
        changed = self.table.tick() or changed
        if self.table.bot_due() is not None and self.seconds_to_next_bot() <= 0:
            changed = self.table.bot_move() or changed
        return changed

    def next_due(self) -> float | None:
        """Seconds until :meth:`step` has a bot to move; ``None`` when it waits for the
        person (the key loop then keeps the clock every ``IDLE_POLL`` seconds)."""
        if self.table.bot_due() is not None:
            return self.seconds_to_next_bot()
        return None


def _timed(name: str) -> TimedScreen | None:
    """The game's screen when its seats may have a turn time limit (Rummikub)."""
    from brailledev.table.seat import game_screen

    face = game_screen(name)
    return face if isinstance(face, TimedScreen) else None
