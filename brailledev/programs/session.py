"""The one-person game: a local table with one person's seat and bots in the others, saved
to a file after every move, resumed from it.

It puts together the two halves a table server keeps apart, and holds nothing else: the
table core (:attr:`Session.table`, :mod:`brailledev.table.core`: the game, the bots, the turn
clock) and the person's seat (:attr:`Session.seat`, :mod:`brailledev.table.seat`: messages,
focus, half-made input, speech); what is played and read goes to them directly. The key loop
(:mod:`brailledev.table.keyloop`) drives it: :meth:`Session.step` lets the bots act at a
reading pace and keeps the turn clock; every move of the person's seat is saved.

    session = Session.start("uno", players=2, seed=7, lang="en", save=Path("uno.json"))
    hand = next(line for line in session.seat.lines() if line.key == HAND_LINE)
    session.seat.route(hand.regions[0].target)    # route the first card of the hand
    session.table.run_bots()                      # the others answer
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from brailledev.display.speech import Silence, Speech
from brailledev.programs.launch import SeatProgram
from brailledev.programs.savefile import (
    SAVE_FORMAT,
    SAVE_VERSION,
    SaveFile,
    Unreadable,
    damage,
    read_save,
)
from brailledev.table.core import DEFAULT_BOT, Table
from brailledev.table.history import History
from brailledev.table.seat import LocalLink, SeatClient
from games import saved as check
from games.core import BadState, Event, Seat, events_for
from layouts.errors import Problem, UserError
from layouts.screen import MESSAGE_LINE, TimedScreen


class Session(SeatProgram):
    """See the module docstring."""

    def __init__(self, table: Table, seat: SeatClient, save: Path | None = None,
                 pace: float = 1.5) -> None:
        self.table = table
        self.seat = seat
        self.saving = SaveFile(save)
        self.pace = pace
        self._last_move = 0.0
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
                         clock=clock)
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
        reader.hear(events_for(core.start_events, seat))
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
        self.seat.tell(self.seat.catalog.text("game_resumed"))
        self.seat.history.to_newest()
        self.seat.jump(MESSAGE_LINE)  # the reader picks up with the news

    def to_dict(self) -> dict[str, Any]:
        """Everything a save file holds: the table and the person's reading state."""
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION,
                "table": self.table.to_dict(), "reader": self.seat.to_dict()}

    def save(self) -> None:
        """Write the save file (see :class:`brailledev.programs.savefile.SaveFile`: a save that
        fails leaves the game going on, told once, tried again at every move)."""
        self._input_saved = self.seat.pending
        super().save()

    def _heard(self, seat: Seat, events: Sequence[Event]) -> None:
        if seat != self.seat.seat:
            return
        self._last_move = time.monotonic()
        self.seat.hear(events)
        self.save()

    def seconds_to_next_bot(self) -> float:
        """How long the pacing still holds the next bot back."""
        return max(0.0, self._last_move + self.pace - time.monotonic())

    def step(self) -> bool:
        """What the key loop does between keys: notices from other threads, a half-made
        input saved (a Wild waiting for its colour: a game resumed after a crash finds it
        again), the turn clock, and one bot move once the pace allows. True when the screen
        may have changed."""
        changed = self.seat.take_notices()
        if self.seat.pending != self._input_saved:
            self.save()
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

