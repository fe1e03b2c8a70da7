"""What every game's screen gives the play session, and the pieces screens share.

A game plugs into ``brailledev.session`` with a module ``layouts/<game>/screen.py`` exporting
``SCREEN``, an object with the four methods of :class:`GameScreen`. Routing targets on its
screens are *outcomes*: :class:`Move` (play this move for the seat), :class:`Ask` (keep
asking: a new pending input state, e.g. the colour after a Wild), :class:`Show` (focus a line,
e.g. help), or :class:`Ui` (a session command: quit, repeat).

    hand = Line("hand", (Region("r5", target=Move(Play("r5"))),
                         Region("wi", target=Ask(("colour", "wi")))))
    SCREEN.screen(view, Table(seat=0, names=..., history=..., pending=None, catalog=cat))
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.core import Event, Reason, Seat
from layouts.catalog import Catalog
from layouts.screen import Line, Region


@dataclass(frozen=True)
class Move:
    """Routing this target plays ``move`` for the display's seat (checked by the game)."""

    move: Hashable


@dataclass(frozen=True)
class Ask:
    """Routing this target changes the pending input state (``None`` cancels the question)."""

    pending: Hashable


@dataclass(frozen=True)
class Show:
    """Routing this target moves the focus to the line named ``line``."""

    line: str


@dataclass(frozen=True)
class Ui:
    """A session command: ``quit`` (save and leave), ``repeat`` (speak the line again)."""

    name: str


Outcome = Move | Ask | Show | Ui


@dataclass(frozen=True)
class Messages:
    """The message history as a screen sees it: every message, the one being read
    (``cursor``, -1 when there is none yet) and how many are still unread after it."""

    texts: tuple[str, ...]
    cursor: int
    unread: int

    @property
    def current(self) -> str:
        return self.texts[self.cursor] if self.cursor >= 0 else ""


@dataclass(frozen=True)
class Table:
    """Everything a screen needs besides the view: the display's seat, every seat's name
    (the display's seat is "you"), the messages, the pending input state, the words."""

    seat: Seat
    names: tuple[str, ...]
    messages: Messages
    pending: Hashable
    catalog: Catalog


class GameScreen(Protocol):
    """A game's face on a display; ``layouts/<game>/screen.py`` exports one as ``SCREEN``."""

    def screen(self, view: Any, table: Table) -> tuple[Line, ...]:
        """The lines to show for ``view``; include :func:`message_line` where messages go."""

    def home(self, view: Any, table: Table) -> str:
        """The key of the line the player should be on when there is nothing new to read:
        a choice line when a choice is due, else the hand."""

    def describe(self, event: Event, table: Table) -> str | None:
        """One event, already filtered for ``table.seat``, in words (``None``: not told)."""

    def prompt(self, view: Any, table: Table) -> str | None:
        """What to say when the seat must act (``"Your turn."``), or ``None``."""

    def explain(self, reason: Reason, table: Table) -> str:
        """A refusal in words, with the game's labels for its arguments (a game with
        nothing to relabel returns ``table.catalog.reason(reason)``)."""


MESSAGE_LINE = "messages"


def words(text: str) -> tuple[Region, ...]:
    """A sentence as one region per word: panning breaks between words, and a reader who
    is halfway through keeps the place when the screen around changes."""
    return tuple(Region(word) for word in text.split())


def message_line(messages: Messages, catalog: Catalog) -> Line:
    """The line showing the message being read, with a count of unread ones after it.

    Routing on it reads on (the session handles that line's targets itself).
    """
    if messages.cursor < 0:
        return Line(MESSAGE_LINE, words(catalog.text("no_messages")))
    regions = words(messages.current)
    if messages.unread:
        regions += (Region(catalog.text("more_messages", count=messages.unread)),)
    return Line(MESSAGE_LINE, regions)


def help_line(catalog: Catalog, game_help: str) -> Line:
    """The help line: the game's own help then the keys common to every game."""
    return Line("help", words(game_help) + words(catalog.text("help_keys")))


def seat_names(players: int, seat: Seat, catalog: Catalog) -> tuple[str, ...]:
    """Short names for the seats: the display's seat is "you", the others from the common
    words (``[seats] names``), in seat order."""
    others: Sequence[str] = catalog.table("seats")["names"]
    names: list[str] = []
    index = 0
    for each in range(players):
        if each == seat:
            names.append(catalog.text("you"))
        else:
            names.append(str(others[index % len(others)]))
            index += 1
    return tuple(names)
