"""Screens as plain text, and what every game's screen gives the play session.

A screen is lines of *regions*, each region a piece of text with a *target*; a routing key over
any cell of a region activates its target. A screen knows nothing of cells, braille tables or
displays: ``brailledev.display.window`` lays it out. Targets are *outcomes*: :class:`PlayMove` (play
this move for the seat), :class:`Ask` (keep asking: a new pending input, e.g. the colour after
a Wild), :class:`Show` (focus a line, e.g. help) or :class:`Ui` (a session command: quit,
repeat).

Each game's ``layouts/<game>/screen.py`` makes a :class:`GameScreen` (the game's kit holds
it); the session hands it the seat's view and a :class:`Context`.

    hand = Line(HAND_LINE, (Region("r5", target=PlayMove(play_r5)),
                            Region("wi", target=Ask(("colour", "wi")))))
    kit("uno").screen.screen(view, Context(seat=0, names=..., messages=..., pending=None,
                                           catalog=catalog, legal_moves=(...)))
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from games.core import Event, Json, Reason, Seat, bad_state
from layouts.catalog import Catalog

# The keys of the lines, the names a session and the window find them by.
MESSAGE_LINE = "messages"     # the message being read (the session handles its targets)
STATUS_LINE = "status"        # whose turn, counts, scores: parts separated by commas
HAND_LINE = "hand"
CHOICE_LINE = "choice"        # what is due now: a colour, a place, confirm ...
COMMAND_LINE = "commands"     # the standing commands: draw, help, quit ...
HELP_LINE = "help"
# A game's own lines (a rack, a grid row) are keyed in its screen.


@dataclass(frozen=True)
class Region:
    """Text shown as one unit. ``atomic`` regions (card labels) are never split by panning;
    a ``mark``ed region (an invalid set) has dots 7 and 8 raised under every cell; a
    ``label`` (a card's, as embossed on it) is written letter by letter, never contracted nor
    capitalised, whatever the reader's table; a ``spare`` region (a count of newer messages)
    is left out where it would cost a window of its own: ``Region("r5", target=...,
    label=True)``, ``Region("(3 more)", spare=True)``."""

    text: str
    target: Hashable = None
    atomic: bool = True
    mark: bool = False
    label: bool = False
    spare: bool = False


@dataclass(frozen=True)
class Line:
    """One line of a screen; ``key`` names it (``STATUS_LINE``, ``HAND_LINE`` ...).

    ``gap`` blank cells separate its regions; a grid row uses ``gap=0`` so each square is
    one cell and rows line up cell under cell: ``Line("grid1", squares, gap=0)``.
    """

    key: str
    regions: tuple[Region, ...]
    gap: int = 1

    @property
    def text(self) -> str:
        return (" " * self.gap).join(region.text for region in self.regions)


@dataclass(frozen=True)
class Screen:
    """All the lines shown at once: ``Screen(lines).line(HAND_LINE)``."""

    lines: tuple[Line, ...]

    def line(self, key: str) -> Line:
        for line in self.lines:
            if line.key == key:
                return line
        raise KeyError(key)


@dataclass(frozen=True)
class PlayMove:
    """Routing this target plays ``move`` for the display's seat (checked by the game):
    ``PlayMove(Pass())``."""

    move: Hashable


@dataclass(frozen=True)
class Ask:
    """Routing this target changes the pending input state (``None`` cancels the question).
    The reader stays where they are, unless ``then`` names the line that now asks the
    question (a Wild's colours): they go there, and come back when it is answered:
    ``Ask(UnoInput(wild="wi"), then=CHOICE_LINE)``. ``said`` is spoken when it is routed
    (the line shows the change; speech alone would not: "UNO on: ...")."""

    pending: Hashable
    then: str | None = None
    said: str = ""


@dataclass(frozen=True)
class Show:
    """Routing this target moves the focus to the line named ``line``: ``Show(HELP_LINE)``."""

    line: str


@dataclass(frozen=True)
class Ui:
    """A session command: ``Ui("quit")`` (save and leave), ``Ui("repeat")`` (speak the line
    again)."""

    name: str


@dataclass(frozen=True)
class Refuse:
    """Routing this target is refused before the game is asked (a Rummikub ``done`` with
    tiles still selected): the reason is shown at once where the reader is, as the game's
    refusals are: ``Refuse(Reason.of("selection_not_placed", count=2))``."""

    reason: Reason


Outcome = PlayMove | Ask | Show | Ui | Refuse
OUTCOMES = (PlayMove, Ask, Show, Ui, Refuse)


@dataclass(frozen=True)
class Messages:
    """The message history as a screen sees it: the message shown (the newest, or an older
    one the reader went back to) and how many newer ones follow it:
    ``Messages("Bo plays r5. Cy draws a card.", newer=0)``."""

    current: str = ""
    newer: int = 0


@dataclass(frozen=True)
class Context:
    """Everything a screen needs besides the view: the display's seat, every seat's name
    (the display's seat is "you"), the messages, the pending input state, the words, and the
    seat's legal moves now (empty when the game cannot list them, as Rummikub's table moves):
    ``Context(0, ("you", "Bo"), Messages(), None, catalog, legal_moves=(...))``.

    ``keep`` is the seat's own memory for its screen, kept between two drawings (the places
    of the Rummikub sets, so their numbers stay): a screen may read and update it."""

    seat: Seat
    names: tuple[str, ...]
    messages: Messages
    pending: Hashable
    catalog: Catalog
    legal_moves: tuple[Hashable, ...] = ()
    keep: dict[str, Any] = field(default_factory=dict, compare=False)


class GameScreen(Protocol):
    """A game's face on a display: the ``screen`` of its :class:`layouts.kit.GameKit`."""

    def screen(self, view: Any, context: Context) -> tuple[Line, ...]:
        """The lines to show for ``view``; include :func:`message_line` where messages go."""

    def home(self, view: Any, context: Context) -> str:
        """The key of the line the player should be on when there is nothing new to read:
        a choice line when a choice is due, else the hand."""

    def describe(self, event: Event, context: Context) -> str | None:
        """One event, already filtered for ``context.seat``, in words (``None``: not told)."""

    def echoes(self, event: Event, context: Context) -> bool:
        """Whether ``event`` is the seat's own step that the line it changed already shows
        (the card left the hand): kept in the history, never queued as news."""

    def prompt(self, view: Any, context: Context) -> str | None:
        """What to say when the seat must act (``"Your turn."``), or ``None``."""

    def explain(self, reason: Reason, context: Context) -> str:
        """A refusal in words, with the game's labels for its arguments (a game with
        nothing to relabel returns ``context.catalog.reason(reason)``)."""

    def save_input(self, pending: Hashable) -> Json:
        """The seat's half-made input (``context.pending``: a Wild waiting for its colour, a
        selection) as plain data for the save file; ``None`` when there is none."""

    def load_input(self, data: Json, view: Any) -> Hashable:
        """The half-made input :meth:`save_input` gave, checked against the seat's ``view``:
        :class:`games.core.BadState` when it is damaged or does not fit the view."""


@runtime_checkable
class TimedScreen(Protocol):
    """The words of a game screen whose seats may have a turn time limit: the limit itself
    is the game's rule (the kit's ``clock``, :class:`games.core.TurnClock`) and the table
    core keeps the time (:class:`brailledev.table.turntimer.TurnTimer`)."""

    def time_left(self, seconds: int, context: Context) -> str:
        """The time left in words (``"60 seconds left."``), shown and spoken."""

    def clock_starts(self, seconds: int, context: Context) -> str:
        """The seat's timed turn begins, in words (``"Your turn: 120 seconds."``): told
        before the player reads the table."""

    def clock_notice(self, view: Any, context: Context) -> str | None:
        """What the first message says of the seat's clock and how to change it (``None``:
        nothing to say)."""


def saved_card(value: Json, at: str, cards: Iterable[Any]) -> Any:
    """The card of ``cards`` (a hand) whose text, ``str(card)``, a saved input holds:
    ``saved_card("r7", "pending.place", view.hand)``; :class:`games.core.BadState` if none."""
    if type(value) is not str:
        raise bad_state(at, "wrong_type", need="str")
    for card in cards:
        if str(card) == value:
            return card
    raise bad_state(at, "not_in_hand")


def words(text: str) -> tuple[Region, ...]:
    """A sentence as one region per word: panning breaks between words, and a reader who
    is halfway through keeps the place when the screen around changes: ``words("Your turn.")``.
    """
    return tuple(Region(word) for word in text.split())


def listed(parts: Iterable[str]) -> tuple[Region, ...]:
    """One region per part, a comma after each but the last, so fingers find where one ends
    and the next begins: ``listed(["r5 red", "Bo to play"])``."""
    texts = list(parts)
    return tuple(Region(text + ("," if index < len(texts) - 1 else ""))
                 for index, text in enumerate(texts))


def status_line(parts: Iterable[str]) -> Line:
    """The status line: whose turn, counts, scores, as :func:`listed` parts:
    ``status_line(["Round 1 of 3", "you to play"])``."""
    return Line(STATUS_LINE, listed(parts))


def message_line(messages: Messages, catalog: Catalog) -> Line:
    """The line showing the message being read, then how many newer ones follow it (a spare
    region: dropped where it would cost a window of its own):
    ``message_line(context.messages, context.catalog)``.

    Routing on it reads on (the session handles that line's targets itself).
    """
    if not messages.current:
        return Line(MESSAGE_LINE, words(catalog.text("no_messages")))
    regions = words(messages.current)
    if messages.newer:
        regions += (Region(catalog.text("more_messages", count=messages.newer), spare=True),)
    return Line(MESSAGE_LINE, regions)


def own_step(event: Event, context: Context, steps: tuple[type[Event], ...]) -> bool:
    """Whether ``event`` is one of ``steps`` taken by the display's seat (a screen's
    :meth:`GameScreen.echoes`): ``own_step(event, context, (Played, ColourChosen))``."""
    return isinstance(event, steps) and getattr(event, "seat", None) == context.seat


def help_line(catalog: Catalog, game_help: str) -> Line:
    """The help line: the game's own help then the keys common to every game:
    ``help_line(catalog, catalog.text("uno_help"))``."""
    return Line(HELP_LINE, words(game_help) + words(catalog.text("help_keys")))


def help_and_quit(catalog: Catalog) -> tuple[Region, Region]:
    """The two commands every game ends its command line with: ``help`` shows the help line,
    ``quit`` saves and leaves: ``Line(COMMAND_LINE, (*own, *help_and_quit(catalog)))``."""
    return (Region(catalog.text("help"), target=Show(HELP_LINE)),
            Region(catalog.text("quit"), target=Ui("quit")))


def seat_names(players: int, seat: Seat, catalog: Catalog) -> tuple[str, ...]:
    """Short names for the seats: the display's seat is "you", the others from the common
    words (``common|seats.names``, separated by commas), in seat order:
    ``seat_names(3, 0, catalog)``."""
    others = str(catalog.section("seats")["names"]).split(", ")
    names: list[str] = []
    index = 0
    for each in range(players):
        if each == seat:
            names.append(catalog.text("you"))
        else:
            names.append(str(others[index % len(others)]))
            index += 1
    return tuple(names)
