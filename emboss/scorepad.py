"""Blank score sheets in braille: a title, a row of column headings, rows of boxes.

A game offers its pad with :func:`register_pad`: a function from a :class:`PadRequest` (box
data, words in the chosen language, players) to :class:`Sheet` values. Boxes are blank cells
closed on the right by a guide of dots 4-5-6, so a finger follows a column down the page;
printed values (the Domino row bonuses) stand in their box.

    sheets = pad_sheets("domino", "fr", players=3)
    document = pad_document(sheets, Geometry(paper("a4")), translator("fr-bfu-comp6.utb"))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from brailledev.braille import Translator
from emboss.page import BLANK, Caption, Document, Geometry, LayoutError, Page
from layouts.catalog import HERE as LAYOUTS
from layouts.catalog import DataError, load_toml, rules_data

GUIDE = "\u2838"          # dots 4-5-6: the right edge of a box
MIN_BOX = 4               # cells: room for a three-digit score and its number sign


@dataclass(frozen=True)
class Column:
    """A column: its printed heading and the least number of cells its boxes need."""

    heading: str
    width: int = MIN_BOX


@dataclass(frozen=True)
class Sheet:
    """One score sheet: title, columns, rows of printed values (``""`` = blank box), footer."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    footer: str = ""
    # A sheet of rounds keeps only the rows the page has room for.
    fill: bool = False
    # Ink beside each row in previews, for sighted helpers: "row 3, bonus 1".
    row_captions: tuple[str, ...] = ()


@dataclass(frozen=True)
class PadRequest:
    rules: Mapping[str, Any]
    words: Mapping[str, Any]
    players: int


PadMaker = Callable[[PadRequest], list[Sheet]]
PADS: dict[str, PadMaker] = {}


def register_pad(game: str, maker: PadMaker) -> None:
    """Offer ``game``'s score pad: ``register_pad("uno", uno_pad)``."""
    PADS[game] = maker


def pad_words(game: str, lang: str) -> Mapping[str, Any]:
    words = load_toml(LAYOUTS / game / "pad.toml").get(lang)
    if not isinstance(words, Mapping):
        raise DataError("pad_words_missing", game=game, lang=lang)
    return words


def pad_sheets(game: str, lang: str, players: int) -> list[Sheet]:
    """The sheets of one pad of ``game`` for ``players`` players."""
    if game not in PADS:
        raise LayoutError("no_pad", game=game, choices=", ".join(sorted(PADS)))
    if not 1 <= players <= 10:
        raise LayoutError("pad_players", players=players)
    rules = rules_data(game)
    return PADS[game](PadRequest(rules, pad_words(game, lang), players))


def _cells(translator: Translator, text: str) -> str:
    cells = translator.translate(text).cells if text else ""
    if any(ord(cell) > 0x283F for cell in cells):
        raise LayoutError("not_six_dot", text=text, table=translator.table)
    return cells


def wrap(translator: Translator, text: str, width: int) -> list[str]:
    """``text`` in braille lines of at most ``width`` cells, broken between words."""
    lines: list[str] = []
    words: list[str] = []
    for word in text.split():
        if words and len(_cells(translator, " ".join([*words, word]))) > width:
            lines.append(_cells(translator, " ".join(words)))
            words = []
        words.append(word)
    if words:
        lines.append(_cells(translator, " ".join(words)))
    for line in lines:
        if len(line) > width:
            raise LayoutError("word_too_long", text=text, width=width)
    return lines


def sheet_page(sheet: Sheet, geometry: Geometry, translator: Translator) -> Page:
    """One sheet laid out on one page; a sheet that does not fit is an error saying why."""
    width = geometry.cells_per_line
    title = wrap(translator, sheet.title, width)
    footer = wrap(translator, sheet.footer, width)
    headings = [_cells(translator, column.heading) for column in sheet.columns]
    room = geometry.lines_per_page - len(title) - 1 - len(footer)
    rows = [[_cells(translator, value) for value in row]
            for row in (sheet.rows[:max(room, 0)] if sheet.fill else sheet.rows)]
    widths = [max([column.width, len(heading)] + [len(row[i]) for row in rows])
              for i, (column, heading) in enumerate(zip(sheet.columns, headings, strict=True))]
    needed_cells = sum(box + 1 for box in widths)
    needed_lines = len(title) + 1 + max(len(rows), 1) + len(footer)
    if needed_cells > width or needed_lines > geometry.lines_per_page:
        raise LayoutError("sheet_too_big", title=sheet.title, cells=needed_cells,
                          lines=needed_lines, paper=geometry.paper.name, width=width,
                          height=geometry.lines_per_page)
    page = Page.blank(geometry)
    for line, cells in enumerate(title):
        page.put(line, 0, cells)
    page.captions.append(Caption(*_below(geometry, len(title) - 1), sheet.title))
    top = len(title)

    def boxes(line: int, values: list[str]) -> None:
        col = 0
        for width, value in zip(widths, values, strict=True):
            page.put(line, col, value + BLANK * (width - len(value)) + GUIDE)
            col += width + 1

    boxes(top, headings)
    page.captions.append(Caption(*_below(geometry, top),
                                 " | ".join(column.heading for column in sheet.columns)))
    for offset, row in enumerate(rows):
        boxes(top + 1 + offset, row)
        if offset < len(sheet.row_captions):
            x, y = geometry.cell_origin(top + 1 + offset, needed_cells)
            page.captions.append(Caption(x + 1, y + 2 * geometry.cell.dot_pitch,
                                         sheet.row_captions[offset]))
    bottom = top + 1 + len(rows)
    for offset, cells in enumerate(footer):
        page.put(bottom + offset, 0, cells)
    if footer:
        page.captions.append(Caption(*_below(geometry, bottom + len(footer) - 1), sheet.footer))
    return page


def _below(geometry: Geometry, line: int) -> tuple[float, float]:
    # Ink goes in the gap under a braille line, where no dot is.
    x, y = geometry.cell_origin(line, 0)
    return x, y + 2 * geometry.cell.dot_pitch + 2.8


def pad_document(sheets: list[Sheet], geometry: Geometry, translator: Translator, title: str,
                 lang: str, copies: int = 1) -> Document:
    """``copies`` pads, each sheet on its own page (a blank back if interpoint)."""
    if copies < 1:
        raise LayoutError("sheets_too_few", copies=copies)
    pages: list[Page] = []
    for _ in range(copies):
        for sheet in sheets:
            pages.append(sheet_page(sheet, geometry, translator))
            if geometry.duplex:
                pages.append(Page.blank(geometry))
    return Document(geometry, pages, title, lang)


def domino_pad(request: PadRequest) -> list[Sheet]:
    """DOM-8: a sheet per player, columns 10/11/12/bonus/total, the row bonuses printed."""
    pad, words = request.rules["pad"], request.words
    columns = tuple(Column(str(words["columns"].get(name, name))) for name in pad["columns"])
    bonuses = [int(bonus) for bonus in pad["row_bonus"]]
    if len(bonuses) != int(pad["rows"]):
        raise DataError("pad_rows_disagree", rows=pad["rows"], bonuses=len(bonuses))
    bonus_at = list(pad["columns"]).index("bonus")
    rows = tuple(tuple(str(bonus) if i == bonus_at else "" for i in range(len(columns)))
                 for bonus in bonuses)
    footer = str(words["footer"]).format(super_bonus=pad["super_bonus"])
    captions = tuple(str(words["row_caption"]).format(number=number, bonus=bonus)
                     for number, bonus in enumerate(bonuses, start=1))
    return [Sheet(str(words["title"]).format(
                      player=str(words["player"]).format(number=seat + 1)),
                  columns, rows, footer, row_captions=captions)
            for seat in range(request.players)]


def rounds_pad(title: str, request: PadRequest) -> list[Sheet]:
    """One sheet for the table: a round number column, a column per player, rows to fill."""
    words = request.words
    players = [Column(str(words["player"]).format(number=seat + 1))
               for seat in range(request.players)]
    columns = (Column(str(words["round"]), 2), *players)
    # As many rounds as the page holds; the sheet drops the rows that do not fit.
    rows = tuple((str(number),) + ("",) * request.players for number in range(1, 100))
    template = words.get("row_caption")
    captions = () if template is None else tuple(str(template).format(number=number)
                                                  for number in range(1, 100))
    return [Sheet(title, columns, rows, str(words["footer"]), fill=True,
                  row_captions=captions)]


def uno_pad(request: PadRequest) -> list[Sheet]:
    """Uno: rounds until a player reaches the match target (500 in the box)."""
    return rounds_pad(str(request.words["title"]).format(target=request.rules["match_target"]),
                      request)


def rummikub_pad(request: PadRequest) -> list[Sheet]:
    """Rummikub (RUM-8): a round per row, plus for the winner, minus for the others."""
    return rounds_pad(str(request.words["title"]), request)


def elevens_pad(request: PadRequest) -> list[Sheet]:
    """Elevens (ELV-11): a game per row; the footer gives the box's points."""
    points = request.rules["points"]
    footer = str(request.words["footer"]).format(**points)
    return [replace(sheet, footer=footer)
            for sheet in rounds_pad(str(request.words["title"]), request)]


def elements_pad(request: PadRequest) -> list[Sheet]:
    """Elements (ELE-7, ELE-8): a hand per player as first player, one row each, a total row."""
    words = request.words
    columns = (Column(str(words["hand"]), 2),
               *(Column(str(words["player"]).format(number=seat + 1))
                 for seat in range(request.players)))
    rows = tuple((str(number),) + ("",) * request.players
                 for number in range(1, request.players + 1))
    return [Sheet(str(words["title"]), columns,
                  (*rows, (str(words["total"]),) + ("",) * request.players),
                  str(words["footer"]))]


register_pad("domino", domino_pad)
register_pad("elements", elements_pad)
register_pad("elevens", elevens_pad)
register_pad("uno", uno_pad)
register_pad("rummikub", rummikub_pad)
