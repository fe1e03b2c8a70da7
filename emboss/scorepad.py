"""Score sheets in braille, blank or filled: a title, a row of column headings, rows of
boxes, a Grand Total line where the sheet has one, a footer.

The sheets (:class:`layouts.paper.Sheet`) come from the game's kit; this module knows no game:
it lays sheets out in braille. Boxes are blank cells closed on the right by a guide of dots
4-5-6, so a finger follows a column down the page; printed values (the Domino row bonuses)
stand in their box.

    sheets = kit("domino").pad_sheets("fr", players=3)
    document = pad_document(sheets, Geometry(paper("a4")), translator("fr-bfu-comp6.utb"),
                            "Domino score pad", "fr")
"""

from __future__ import annotations

from brailledev.display.braille import Translator
from emboss.page import BLANK, Caption, Document, Geometry, Page
from layouts.errors import PaperError
from layouts.paper import MIN_BOX, Sheet

GUIDE = "\u2838"          # dots 4-5-6: the right edge of a box


def _cells(translator: Translator, text: str) -> str:
    cells = translator.translate(text).cells if text else ""
    if any(ord(cell) > 0x283F for cell in cells):
        raise PaperError("not_six_dot", text=text, table=translator.table)
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
            raise PaperError("word_too_long", text=text, width=width)
    return lines


def sheet_page(sheet: Sheet, geometry: Geometry, translator: Translator) -> Page:
    """One sheet laid out on one page; a sheet that does not fit is an error saying why."""
    width = geometry.cells_per_line
    title = wrap(translator, sheet.title, width)
    footer = wrap(translator, sheet.footer, width)
    headings = [_cells(translator, column.heading) for column in sheet.columns]
    grand = _cells(translator, sheet.grand_total)
    grand_value = _cells(translator, sheet.grand_value)
    grand_lines = 1 if sheet.grand_total else 0
    room = geometry.lines_per_page - len(title) - 1 - grand_lines - len(footer)
    rows = [[_cells(translator, value) for value in row]
            for row in (sheet.rows[:max(room, 0)] if sheet.fill else sheet.rows)]
    widths = [max([column.width, len(heading)] + [len(row[i]) for row in rows])
              for i, (column, heading) in enumerate(zip(sheet.columns, headings, strict=True))]
    grand_box = max(MIN_BOX, len(grand_value))
    needed_cells = max(sum(box + 1 for box in widths),
                       len(grand) + 1 + grand_box + 1 if grand_lines else 0)
    needed_lines = len(title) + 1 + max(len(rows), 1) + grand_lines + len(footer)
    if needed_cells > width or needed_lines > geometry.lines_per_page:
        raise PaperError("sheet_too_big", title=sheet.title, cells=needed_cells,
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
    if grand_lines:
        page.put(bottom, 0, grand + BLANK + grand_value
                 + BLANK * (grand_box - len(grand_value)) + GUIDE)
        page.captions.append(Caption(*_below(geometry, bottom),
                                     f"{sheet.grand_total} {sheet.grand_value}".strip()))
        bottom += 1
    for offset, cells in enumerate(footer):
        page.put(bottom + offset, 0, cells)
    if footer:
        page.captions.append(Caption(*_below(geometry, bottom + len(footer) - 1), sheet.footer))
    return page


def _below(geometry: Geometry, line: int) -> tuple[float, float]:
    # Ink goes in the gap under a braille line, where no dot is.
    x, y = geometry.cell_origin(line, 0)
    return x, y + 2 * geometry.cell.dot_pitch + 2.8


# The most pads one job embosses: a class's worth many times over, and a job that ends.
MOST_COPIES = 500


def pad_document(sheets: list[Sheet], geometry: Geometry, translator: Translator, title: str,
                 lang: str, copies: int = 1) -> Document:
    """``copies`` pads, each sheet on its own page (a blank back if interpoint)."""
    if not 1 <= copies <= MOST_COPIES:
        raise PaperError("sheets_range", copies=copies, most=MOST_COPIES)
    pages: list[Page] = []
    for _ in range(copies):
        for sheet in sheets:
            pages.append(sheet_page(sheet, geometry, translator))
            if geometry.duplex:
                pages.append(Page.blank(geometry))
    return Document(geometry, pages, title, lang)
