"""A game's table as a web page draws it: words and pieces only, every control pointing at a
region of the seat's screen (its id ``"row.column"``), so a click does what that routing key
does and the seat's screen stays the one place a turn is built. The web module adds the
braille of every card label and what every page shares (the players, their counts, whose
turn, the clock).

A picture gives, by key:

- ``status``: what the table is at, in words (``["your turn", "pool: 78 tiles"]``);
- ``table``: the pieces on the table (a pile, sets, rows, a grid);
- ``hand``: the player's cards (a :func:`group`) and what is asked beside them;
- ``actions``: the questions due and the commands, in words;
- ``below``: what lies beside the table (a score pad, the scores);
- ``help``: how to play on the page, in words.

A piece is a dict with a ``kind``: :func:`card`, :func:`button` (which may hold
``choices``: a question the page asks before routing), :func:`group`, :func:`text`,
:func:`sheet` or :func:`board` (a grid of squares). No piece shows the game's notation: a
card shows its caption (``red 7``) and its print value and braille, a control its words.
A card's ``tone`` is one of the page's card colours (``page.css`` or the game's
``layouts/<game>/picture.css``: ``.card.tone-NAME``), listed in :attr:`Picture.tones`.

    Picture().draw(view, lines, context)       # the default: the screen's lines as controls
    card(face("r7", catalog), big="7", tone="red", target="2.0", marks=["can be played"])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any

from layouts.catalog import Catalog
from layouts.paper import Face
from layouts.screen import (
    COMMAND_LINE,
    HAND_LINE,
    HELP_LINE,
    MESSAGE_LINE,
    STATUS_LINE,
    Context,
    Line,
    Show,
    Ui,
)
from layouts.translations import words as entries

Json = dict[str, Any]
# The lines every page shows in its own way: messages, status, help, and the table's
# players line (brailledev/table/presence.py).
PAGE_LINES = (MESSAGE_LINE, STATUS_LINE, HELP_LINE, "players")


def card(face: Face, *, big: str | None = None, tone: str | None = None,
         target: str | None = None, marks: Sequence[str] = (), chosen: bool = False,
         lifted: bool = False, halves: Sequence[int] | None = None,
         name: str | None = None) -> Json:
    """A card as the page draws it: ``name`` (its caption unless given: the words it shows
    and is called by), ``big`` (its print value, drawn large), its ``tone``, Domino's
    ``halves``, its label (the web module adds its braille), ``marks`` (words shown on it:
    "can be played"), whether it is ``chosen`` or ``lifted`` out of the hand (it can be
    played), and the ``target`` a click routes:
    ``card(face("r7", catalog), big="7", tone="red", target="2.0", lifted=True)``."""
    return {"kind": "card", "name": name if name is not None else face.caption,
            "label": " ".join(face.lines), "big": big, "tone": tone, "target": target,
            "marks": list(marks), "chosen": chosen, "lifted": lifted,
            "halves": list(halves) if halves is not None else None}


def button(text: str, target: str | None = None, *, choices: Json | None = None,
           pressed: bool | None = None, detail: str = "") -> Json:
    """A control in words: a click routes ``target``, or first asks ``choices`` (a
    :func:`question`); ``pressed`` for a toggle, ``detail`` words said after the text:
    ``button("Draw a card", "4.0")``."""
    return {"kind": "button", "text": text, "target": target, "choices": choices,
            "pressed": pressed, "detail": detail}


def question(prompt: str, choices: Iterable[Json]) -> Json:
    """What a control asks before it routes: a prompt and the buttons that answer it (the
    page adds its own "cancel"): ``question("Which way?", [button("to the right", "5.2")])``.
    """
    return {"prompt": prompt, "items": list(choices)}


def group(name: str, items: Iterable[Json], *, note: str = "", marks: Sequence[str] = (),
          kind: str = "row", fold: int = 0) -> Json:
    """Pieces that belong together under a name (a Rummikub set, an Elevens row, the hand):
    ``note`` words under them, ``marks`` words that flag the group, ``kind`` how the page
    lays them (``row``; ``column``, one under the other, as a question's answers; ``line``,
    a row of places kept in columns, an empty place ``{"kind": "empty", "text": "7"}``, its
    number shown faint), ``fold`` how
    many items show before a "show all" (0: all of them):
    ``group("Set 2, a run", tiles, marks=["changed this turn"])``."""
    return {"kind": "group", "name": name, "items": list(items), "note": note,
            "marks": list(marks), "layout": kind, "fold": fold}


def text(words: str, *, strong: bool = False) -> Json:
    """A sentence shown as it is: ``text("First meld: 18 of 30 points")``."""
    return {"kind": "text", "text": words, "strong": strong}


def sheet(caption: str, head: Sequence[str], rows: Iterable[Sequence[str]],
          foot: Iterable[Sequence[str]] = ()) -> Json:
    """A table of words and numbers, a score pad as printed: the first cell of each row
    heads it: ``sheet("Your score pad", ["row", "10", "11"], [["1", "10", ""]])``."""
    return {"kind": "sheet", "caption": caption, "head": list(head),
            "rows": [list(row) for row in rows], "foot": [list(row) for row in foot]}


def board(name: str, columns: Sequence[str], rows: Iterable[Json]) -> Json:
    """A grid of squares with its column and row names: each row ``{"name": "4",
    "squares": [...]}``, each square ``{"text": "5"}`` (a half laid; with ``"joins":
    "right"`` and a ``"name"``, one half of a card whose other half lies to its right, drawn
    as one card, read by its name), ``{}`` (empty) or a control ``{"text": "+6", "name":
    ..., "target" | "choices": ...}``."""
    return {"kind": "board", "name": name, "columns": list(columns), "rows": list(rows)}


class Targets:
    """The screen's regions by line, to point a control at the one a player would route:
    ``Targets(lines).find(HAND_LINE, lambda target: target == wanted)`` -> ``"2.3"``."""

    def __init__(self, lines: Sequence[Line]) -> None:
        self.lines = lines

    def rows(self, key: str) -> Iterator[tuple[int, Line]]:
        """The lines keyed ``key`` with their row on the screen."""
        return ((row, line) for row, line in enumerate(self.lines) if line.key == key)

    def line(self, key: str) -> Line | None:
        """The first line keyed ``key``."""
        return next((line for _, line in self.rows(key)), None)

    def find(self, key: str, fits: Callable[[Hashable], bool]) -> str | None:
        """The id of the first region of line ``key`` whose target ``fits``."""
        for row, line in self.rows(key):
            for column, region in enumerate(line.regions):
                if region.target is not None and fits(region.target):
                    return f"{row}.{column}"
        return None

    def of(self, key: str, wanted: Hashable) -> str | None:
        """The id of the region of line ``key`` whose target is ``wanted``."""
        return self.find(key, lambda target: target == wanted)

    def labels(self, key: str) -> list[str | None]:
        """The ids of the card labels of line ``key``, in order (``None``: routes nothing):
        one per card of a hand line."""
        return [target for target, region in self.each(key) if region.label]

    def each(self, key: str) -> Iterator[tuple[str | None, Any]]:
        """Every region of line ``key``: its id (``None`` when it routes nothing) and it."""
        for row, line in self.rows(key):
            for column, region in enumerate(line.regions):
                yield (f"{row}.{column}" if region.target is not None else None), region


def _routable(target: Hashable) -> bool:
    """What a page offers: moves and questions, not the display's own commands (help,
    quit, repeat): the page shows help itself and a tab closes it."""
    return target is not None and not isinstance(target, (Show, Ui))


class Picture:
    """What a game's web page draws; see the module docstring. This default draws the
    screen's lines: the hand line's cards (their labels), every other line's regions as
    controls. ``hand`` is the key of the hand's line, ``unit`` what a hand holds
    (``cards`` or ``tiles``, the words of the players' counts)."""

    # The card colours this picture may give (each styled by page.css or the game's css).
    tones: tuple[str, ...] = ()

    def __init__(self, hand: str = HAND_LINE, unit: str = "cards") -> None:
        self.hand = hand
        self.unit = unit

    def draw(self, view: Any, lines: tuple[Line, ...], context: Context) -> Json:
        """The page's pieces for ``view``, in words (here: the screen's own)."""
        targets = Targets(lines)
        status = targets.line(STATUS_LINE)
        cards = [card(Face("", (region.text,), region.text), target=target)
                 for target, region in targets.each(self.hand) if region.label]
        actions = []
        for line in lines:
            if line.key in (*PAGE_LINES, self.hand, COMMAND_LINE):
                continue
            shown = [button(region.text, target) if _routable(region.target)
                     else text(region.text) for target, region in targets.each(line.key)]
            actions.append(group(line.key, shown, kind="column"))
        actions += [button(region.text, target) for target, region in targets.each(COMMAND_LINE)
                    if _routable(region.target)]
        return {"status": [status.text] if status is not None else [],
                "hand": [group("", cards)], "actions": actions,
                "help": page_help(context.catalog)}


def page_help(catalog: Catalog) -> str:
    """How to play the game on the page: its ``<game>|picture.help``, else the shared
    ``common|picture.help``: ``page_help(catalog)``."""
    return words_of(catalog)["help"]


def words_of(catalog: Catalog) -> dict[str, str]:
    """The page's words of a game: its catalog's ``<game>|picture.*`` over the shared
    ``common|picture.*``: ``words_of(catalog)["draw"]``."""
    found = entries(catalog.lang)
    shared = found.under("common|picture.")
    own = found.under(f"{catalog.game}|picture.")
    return {key: str(value) for key, value in {**shared, **own}.items()}
