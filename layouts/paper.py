"""What goes on paper, as plain text: the face of a card and the sheets of a score pad. Each
game's ``layouts/<game>/paper.py`` makes them from its words; ``emboss`` packs faces onto
sheets at the card's size and lays sheets out in braille, knowing no game.

    Face("r5", ("r5",), "red 5")
    caption_words("uno", "fr")["sk"]              # '{colour} passe ton tour'
    Sheet("Uno score", (Column("rd", 2), Column("p1")), rows=(("1", ""),))
    rounds_pad("Rummikub", PadRequest(rules, words, players=3))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from layouts.catalog import Catalog

MIN_BOX = 4               # cells: room for a three-digit score and its number sign


@dataclass(frozen=True)
class Face:
    """What goes on one card: its notation, the print lines embossed (its label), the ink
    caption for sighted helpers, naming the card as the box prints it:
    ``Face("y7", ("j7",), "jaune 7")``."""

    card: str
    lines: tuple[str, ...]
    caption: str


def caption_words(game: str, lang: str) -> Mapping[str, str]:
    """The caption templates of a game's labels in ``lang`` (``<game>|deck.caption.*``):
    ``caption_words("uno", "en")["number"]``."""
    found: Mapping[str, str] = Catalog.load(game, lang).section("deck")["caption"]
    return found


@dataclass(frozen=True)
class CardSize:
    """A card's width and height in mm, as held for reading: ``CardSize(56, 87)``."""

    width: float
    height: float


@dataclass(frozen=True)
class Column:
    """A column: its printed heading and the least number of cells its boxes need:
    ``Column("total")``."""

    heading: str
    width: int = MIN_BOX


@dataclass(frozen=True)
class Sheet:
    """One score sheet: title, columns, rows of printed values (``""`` = blank box), footer:
    ``Sheet("Domino 10-11-12, player 1", columns, rows, footer)``."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    footer: str = ""
    # A sheet of rounds keeps only the rows the page has room for.
    fill: bool = False
    # Ink beside each row in previews, for sighted helpers: "row 3, bonus 1".
    row_captions: tuple[str, ...] = ()
    # A last line of one labelled box (Domino's "Grand Total", DOM-10), and what it holds.
    grand_total: str = ""
    grand_value: str = ""


@dataclass(frozen=True)
class PadRequest:
    """What a pad maker is given: the box data, the pad's words in the chosen language (its
    catalog's ``pad`` section: ``<game>|pad.*``), the number of players, and for a filled pad the
    book kept on the display (:mod:`games.pads`; ``None``: a blank pad)."""

    rules: Mapping[str, Any]
    words: Mapping[str, Any]
    players: int
    book: Any = None


def filled_rounds(book: Any, total: str) -> tuple[tuple[str, ...], ...]:
    """A round sheet's rows from a book: each round's number and points, then the totals:
    ``filled_rounds(book, "tot")``."""
    rows = [(str(number), *(str(points) for points in scores))
            for number, scores in enumerate(book.round_scores(), start=1)]
    return (*rows, (total, *(str(points) for points in book.totals())))


# A game's pad maker: ``uno_pad(PadRequest(...))`` gives the sheets of one pad.
PadMaker = Callable[[PadRequest], list[Sheet]]


def rounds_pad(title: str, request: PadRequest) -> list[Sheet]:
    """One sheet for the table: a round number column, a column per player, rows to fill
    (filled from the book when there is one, with a total row): ``rounds_pad("Rummikub",
    request)``."""
    words = request.words
    players = [Column(str(words["player"]).format(number=seat + 1))
               for seat in range(request.players)]
    columns = (Column(str(words["round"]), 2), *players)
    if request.book is not None:
        return [Sheet(title, columns, filled_rounds(request.book, str(words["grand_total"])),
                      str(words["footer"]))]
    # As many rounds as the page holds; the sheet drops the rows that do not fit.
    rows = tuple((str(number),) + ("",) * request.players for number in range(1, 100))
    template = words.get("row_caption")
    captions = () if template is None else tuple(str(template).format(number=number)
                                                  for number in range(1, 100))
    return [Sheet(title, columns, rows, str(words["footer"]), fill=True,
                  row_captions=captions)]
