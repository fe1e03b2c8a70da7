"""Presence and table talk at a shared table: who sits where, who is connected, who a bot
stands in for, and the short lines players type to each other.

A table server adds these events to the game's; they go into every seat's message history
like the game's own, worded in each reader's language. :class:`TableSeat` is the seat client
of a shared table: the game's screen with a ``players`` line after the status line, a
``talk`` command on the commands line, and a one-line talk entry when that command runs.

    seat = TableSeat(link, "uno", lang="fr")   # link: a TableLink that is also a Company
    seat.activate(Ui(TALK))                    # the talk entry opens on the talk line
    seat.type_text("bien joué")
    seat.activate(Ui(TALK_SEND))               # everyone reads "vous : bien joué" / "Ann : ..."
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol

from brailledev.display.speech import Silence, Speech
from brailledev.table.history import History
from brailledev.table.seat import SeatClient, TableLink
from games.core import Event, Reason, Seat
from layouts.catalog import Catalog
from layouts.screen import (
    COMMAND_LINE,
    HELP_LINE,
    MESSAGE_LINE,
    STATUS_LINE,
    Line,
    Outcome,
    Region,
    Show,
    Ui,
    listed,
    words,
)

SEAT_PERSON, SEAT_BOT, SEAT_FREE = "person", "bot", "free"
PLAYERS_LINE = "players"
TALK_LINE = "talk"
TALK, TALK_SEND, TALK_CANCEL = "talk", "talk_send", "talk_cancel"
# Characters of one talk line: a line or two of a 40-cell display.
TALK_MAX = 120
SENTENCE_ENDS = (".", "!", "?", "…")


@dataclass(frozen=True)
class SeatState:
    """One seat as everyone at the table may know it: ``name`` (the person's, "" for a bot's
    or a free seat), ``kind`` (person, bot or free), whether its person is ``connected``, and
    whether a bot ``stand_in`` plays for the person while away:
    ``SeatState("Ann", SEAT_PERSON, connected=True)``."""

    name: str
    kind: str
    connected: bool = False
    stand_in: bool = False


@dataclass(frozen=True)
class SatDown(Event):
    """A person took ``seat``; ``missing`` seats are still free before the game begins."""

    seat: Seat
    name: str
    missing: int


@dataclass(frozen=True)
class Started(Event):
    """Every person's seat is taken: the game begins."""


@dataclass(frozen=True)
class Gone(Event):
    """The person of ``seat`` lost the connection (the seat stays theirs)."""

    seat: Seat
    name: str


@dataclass(frozen=True)
class Left(Event):
    """The person of ``seat`` left the table on purpose (the seat stays theirs)."""

    seat: Seat
    name: str


@dataclass(frozen=True)
class Back(Event):
    """The person of ``seat`` is connected again (and plays again if a bot stood in)."""

    seat: Seat
    name: str


@dataclass(frozen=True)
class StoodIn(Event):
    """The person of ``seat`` stayed away too long: a bot plays for them until they are back."""

    seat: Seat
    name: str


@dataclass(frozen=True)
class Said(Event):
    """A line of table talk typed at ``seat``."""

    seat: Seat
    name: str
    text: str


PRESENCE_EVENTS = (SatDown, Started, Gone, Left, Back, StoodIn, Said)
WIRE_CLASSES = (SeatState, *PRESENCE_EVENTS)


def clean_talk(text: str) -> str:
    """A talk line as it is kept: printable characters, spaces collapsed, at most
    ``TALK_MAX`` characters: ``clean_talk(" hi\\n there ") == "hi there"``."""
    kept = "".join(char if unicodedata.category(char)[0] != "C" else " " for char in text)
    return " ".join(kept.split())[:TALK_MAX]


class Company(Protocol):
    """What a shared table tells a seat besides the game: the seats, and a way to talk."""

    def seats(self) -> tuple[SeatState, ...]: ...

    def say(self, text: str) -> Reason | None:
        """Send a talk line: ``None`` when sent, else why not."""


class SharedLink(TableLink, Company, Protocol):
    """A seat's link to a shared table: the game (:class:`TableLink`) and the company."""


def table_names(seats: Sequence[SeatState], me: Seat, catalog: Catalog) -> tuple[str, ...]:
    """What every seat is called at this seat: "you" for ``me``, people by their names, a
    bot or a free seat by the short name of its seat number (the same at every seat, so
    players talk of the same Bo): ``table_names(seats, 0, catalog) == ("you", "Ann", "Cy")``.
    """
    short = str(catalog.section("seats")["names"]).split(", ")
    people = {state.name.casefold() for state in seats if state.kind == SEAT_PERSON}
    names: list[str] = []
    for index, state in enumerate(seats):
        if index == me:
            names.append(catalog.text("you"))
        elif state.kind == SEAT_PERSON:
            names.append(state.name)
        else:
            name = str(short[index % len(short)])
            names.append(f"{name} {index + 1}" if name.casefold() in people else name)
    return tuple(names)


def describe(event: Event, me: Seat, catalog: Catalog) -> str:
    """A presence or talk event in words for the reader at seat ``me``:
    ``describe(Back(1, "Ann"), 0, catalog) == "Ann is back."``."""
    if isinstance(event, Said):
        # a sentence of its own: the next message never runs on from it
        text = event.text if event.text.endswith(SENTENCE_ENDS) else f"{event.text}."
        if event.seat == me:
            return catalog.text("said_you", text=text)
        return catalog.text("said", name=event.name, text=text)
    if isinstance(event, Started):
        return catalog.text("table_started")
    if isinstance(event, SatDown):
        own = "_you" if event.seat == me else ""
        text = catalog.text(f"sat_down{own}", name=event.name, number=event.seat + 1)
        if event.missing:
            text += " " + catalog.text("table_waiting", count=event.missing)
        return text
    codes = {Gone: "gone", Left: "left", Back: "back", StoodIn: "stood_in"}
    for kind, code in codes.items():
        if isinstance(event, kind):
            own = "_you" if getattr(event, "seat", None) == me else ""
            return catalog.text(f"{code}{own}", name=getattr(event, "name", ""))
    raise TypeError(f"{type(event).__name__} is not a presence event")


def players_line(seats: Sequence[SeatState], me: Seat, names: Sequence[str],
                 catalog: Catalog) -> Line:
    """The other seats, each with how it is played: ``Ann, Cy offline, Bo bot``."""
    parts = []
    for index, state in enumerate(seats):
        if index == me:
            continue
        name = names[index] if index < len(names) else str(index + 1)
        if state.kind == SEAT_FREE:
            parts.append(catalog.text("seat_free", number=index + 1))
        elif state.kind == SEAT_BOT:
            parts.append(catalog.text("seat_bot", name=name))
        elif state.stand_in:
            parts.append(catalog.text("seat_stand_in", name=name))
        elif not state.connected:
            parts.append(catalog.text("seat_offline", name=name))
        else:
            parts.append(name)
    return Line(PLAYERS_LINE, listed(parts))


class TableSeat(SeatClient):
    """A seat at a shared table; see the module docstring. ``link`` is a :class:`SharedLink`.
    """

    def __init__(self, link: SharedLink, game: str, lang: str,
                 braille_table: str | None = None, history: History | None = None,
                 speech: Speech | Silence | None = None) -> None:
        super().__init__(link, game, lang, braille_table, history, speech)
        self.company: SharedLink = link
        # The talk line being typed; None when the entry is closed. The line the reader
        # opened it from, where sending or cancelling returns.
        self.talking: str | None = None
        self.talk_from: str | None = None
        # The game's events heard while a seat is still free (the deal): told once everyone
        # sat down, with the names they sat down with, never a free seat's default name.
        self._held: list[Event] = []
        self.refresh_names()

    def refresh_names(self) -> None:
        """Take the table's names again (someone sat down, a language changed)."""
        seats = self.company.seats()
        if len(seats) == self.link.players:
            self.names = table_names(seats, self.seat, self.catalog)

    def set_lang(self, lang: str) -> None:
        super().set_lang(lang)
        self.refresh_names()

    # ---- what the screen shows ---------------------------------------------------------

    def lines(self) -> tuple[Line, ...]:
        """The game's lines with the players line after the status, the talk command
        before help, and the talk entry after the messages while it is open."""
        catalog = self.catalog
        shown: list[Line] = []
        for line in super().lines():
            if line.key == COMMAND_LINE:
                line = Line(line.key, _before_help(line.regions, Region(
                    catalog.text("talk"), target=Ui(TALK))), line.gap)
            shown.append(line)
            if line.key == MESSAGE_LINE and self.talking is not None:
                shown.append(self._talk_line())
            if line.key == STATUS_LINE:
                shown.append(players_line(self.company.seats(), self.seat, self.names,
                                          catalog))
        return tuple(shown)

    def _talk_line(self) -> Line:
        catalog = self.catalog
        typed = (Region(self.talking, atomic=False),) if self.talking else ()
        return Line(TALK_LINE, (*words(catalog.text("talk_prompt")), *typed,
                                Region(catalog.text("talk_send"), target=Ui(TALK_SEND)),
                                Region(catalog.text("talk_cancel"), target=Ui(TALK_CANCEL))))

    # ---- telling -----------------------------------------------------------------------

    def hear(self, events: Sequence[Event]) -> None:
        """Tell game events through the game's screen and presence events in the table's
        words, in the order they happened; the game's events wait while a seat is free."""
        run: list[Event] = []
        for event in events:
            if not isinstance(event, PRESENCE_EVENTS):
                run.append(event)
                continue
            if run:
                self._tell_game(run)
                run = []
            self.refresh_names()
            self.tell(describe(event, self.seat, self.catalog))
            if isinstance(event, Started):
                self._tell_game([])
        if run:
            self._tell_game(run)

    def _tell_game(self, events: Sequence[Event]) -> None:
        """Tell the game's ``events`` (and those held) once no seat is free, else hold them.
        """
        self._held += events
        if self._held and not any(state.kind == SEAT_FREE for state in self.company.seats()):
            held, self._held = self._held, []
            super().hear(held)

    # ---- talking -----------------------------------------------------------------------

    def activate(self, outcome: Outcome) -> bool:
        """The seat client's outcomes, and the talk entry's: ``activate(Ui(TALK))`` opens
        it, ``Ui(TALK_SEND)`` sends the line, ``Ui(TALK_CANCEL)`` closes it."""
        if isinstance(outcome, Ui) and outcome.name == TALK:
            if self.talking is None:
                self.talk_from = self.focus
            self.talking = ""
            self.jump(TALK_LINE)
            return True
        if isinstance(outcome, Ui) and outcome.name == TALK_SEND:
            self.send_talk()
            return True
        if isinstance(outcome, Ui) and outcome.name == TALK_CANCEL:
            self.close_talk()
            return True
        return super().activate(outcome)

    def talk_open(self) -> bool:
        """Whether the talk entry is open (what is typed goes into it)."""
        return self.talking is not None

    def retype(self, text: str) -> None:
        """The open talk entry's text, typed again whole (ignored when it is closed)."""
        if self.talking is not None:
            self.talking = text[:TALK_MAX]

    def type_text(self, text: str) -> None:
        """Add typed characters to the open talk entry (ignored when it is closed)."""
        if self.talking is not None:
            self.talking = (self.talking + text)[:TALK_MAX]

    def send_talk(self) -> None:
        """Send the line typed (an empty one is told, not sent) and close the entry."""
        text = clean_talk(self.talking or "")
        self.close_talk()
        if not text:
            self.tell(self.catalog.text("talk_empty"))
            return
        reason = self.company.say(text)
        if reason is not None:
            self.tell(self.catalog.text("refused", why=self.catalog.reason(reason)))

    def close_talk(self) -> None:
        """Close the talk entry (nothing sent) and go back where the reader opened it."""
        self.talking = None
        back, self.talk_from = self.talk_from, None
        self.jump(back or self.home(), returning=True)

    def typing(self) -> bool:
        """While the talk entry is open, what comes is told without covering it."""
        return self.talking is not None


def _before_help(regions: tuple[Region, ...], region: Region) -> tuple[Region, ...]:
    """``regions`` with ``region`` put before the help command (at the end without one)."""
    targets: list[Hashable] = [each.target for each in regions]
    if Show(HELP_LINE) in targets:
        at = targets.index(Show(HELP_LINE))
        return (*regions[:at], region, *regions[at:])
    return (*regions, region)
