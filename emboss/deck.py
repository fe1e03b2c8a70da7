"""Card labels at the real card size, packed onto sheets, with cut marks and ink captions.

The faces (what is embossed on each card, and its caption) come from the game's kit; this
module knows no game: it packs faces of a given card size onto sheets.

    uno = kit("uno")
    faces = uno.deck_faces("en", cards="r7,r7,b+2,wi")
    document = deck_document(faces, Geometry(paper("a4")), uno.card_size(), translator(...),
                             "Uno card labels", "en")
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from brailledev.braille import Translator
from emboss.page import Caption, Cut, Document, Geometry, Page, Paper
from layouts.errors import PaperError
from layouts.paper import CardSize, Face

# Room kept between a card's edge and its dots (mm), so a cut never grazes braille.
EDGE = 3.0


def grid(paper: Paper, size: CardSize) -> tuple[int, int]:
    """Columns and rows of cards that fit the sheet in reading orientation."""
    return (math.floor(paper.width / size.width + 1e-9),
            math.floor(paper.height / size.height + 1e-9))


@dataclass(frozen=True)
class Slot:
    """Where one label goes on the sheet (mm); ``turned`` when it lies on its long side."""

    x: float
    y: float
    width: float
    height: float
    turned: bool


def _block(x: float, y: float, width: float, height: float, size: CardSize,
           turned: bool) -> list[Slot]:
    w, h = (size.height, size.width) if turned else (size.width, size.height)
    columns = math.floor(width / w + 1e-9)
    rows = math.floor(height / h + 1e-9)
    return [Slot(x + c * w, y + r * h, w, h, turned) for r in range(rows) for c in range(columns)]


def slots(paper: Paper, size: CardSize, rotate: bool = False) -> list[Slot]:
    """The most labels a sheet holds edge to edge, centred on it.

    In reading orientation this is a plain grid. With ``rotate`` the sheet may also be cut in
    two (a band across or down), each part a grid of upright or turned cards, the best of all.
    """
    candidates = [_block(0, 0, paper.width, paper.height, size, False)]
    if rotate:
        candidates.append(_block(0, 0, paper.width, paper.height, size, True))
        for first in (False, True):
            w, h = (size.height, size.width) if first else (size.width, size.height)
            for rows in range(1, math.floor(paper.height / h + 1e-9)):
                band = rows * h
                candidates.append(_block(0, 0, paper.width, band, size, first)
                                  + _block(0, band, paper.width, paper.height - band, size,
                                           not first))
            for columns in range(1, math.floor(paper.width / w + 1e-9)):
                band = columns * w
                candidates.append(_block(0, 0, band, paper.height, size, first)
                                  + _block(band, 0, paper.width - band, paper.height, size,
                                           not first))
    best = max(candidates, key=len)
    if not best:
        return []
    # Centre the packing so the leftover paper is shared by opposite edges.
    dx = (paper.width - max(slot.x + slot.width for slot in best)) / 2
    dy = (paper.height - max(slot.y + slot.height for slot in best)) / 2
    return [Slot(slot.x + dx, slot.y + dy, slot.width, slot.height, slot.turned)
            for slot in best]


def physical_maximum(paper: Paper, size: CardSize, rotated: bool = False) -> int:
    """The most cards of ``size`` a sheet holds edge to edge (optionally turned 90°)."""
    return len(slots(paper, size, rotated))


def area_bound(paper: Paper, size: CardSize) -> int:
    """No packing at all can beat the sheet's area over the card's."""
    return math.floor(paper.width * paper.height / (size.width * size.height) + 1e-9)


def card_cells(translator: Translator, face: Face) -> list[str]:
    """The cells of each line of a face, never contracted (a label is written letter by
    letter, whatever the table); a label liblouis cannot render is an error."""
    lines = []
    for text in face.lines:
        cells = translator.translate(text, label=True).cells
        if text.strip() and (not cells.strip("\u2800")
                             or any(ord(cell) > 0x283F for cell in cells)):
            raise PaperError("label_not_six_dot", text=text, card=face.card,
                              table=translator.table)
        lines.append(cells)
    return lines


def deck_document(faces: list[Face], geometry: Geometry, size: CardSize,
                  translator: Translator, title: str, lang: str,
                  rotate: bool = False) -> Document:
    """Sheets of labels, as many per sheet as fit, each label's cells inside its card.

    With ``rotate`` labels may lie on their long side, the braille then running along it.
    """
    if geometry.duplex:
        raise PaperError("labels_one_side")
    places = slots(geometry.paper, size, rotate)
    if not places:
        raise PaperError("card_too_big", width=size.width, height=size.height,
                          paper=geometry.paper.name)
    cuts = _cut_marks(geometry.paper, places)
    pages = []
    for start in range(0, len(faces), len(places)):
        page = Page.blank(geometry)
        for slot, face in zip(places, faces[start:start + len(places)], strict=False):
            _place(page, geometry, face, translator, slot)
        page.cuts.extend(cuts)
        pages.append(page)
    return Document(geometry, pages, title, lang)


def _place(page: Page, geometry: Geometry, face: Face, translator: Translator,
           slot: Slot) -> None:
    cols = geometry.cols_within(slot.x + EDGE, slot.x + slot.width - EDGE)
    lines = geometry.lines_within(slot.y + EDGE, slot.y + slot.height - EDGE)
    cells = card_cells(translator, face)
    if len(cells) > len(lines) or any(len(line) > len(cols) for line in cells):
        raise PaperError("label_too_big", card=face.card, cells=max(map(len, cells)),
                          lines=len(cells), room_cells=len(cols), room_lines=len(lines))
    for offset, line in enumerate(cells):
        page.put(lines[offset], cols.start, line)
    below = geometry.cell_origin(lines.start + len(cells), cols.start)[1]
    page.captions.append(Caption(slot.x + EDGE, min(below + 2, slot.y + slot.height - EDGE),
                                 face.caption))


def _cut_marks(paper: Paper, places: list[Slot]) -> list[Cut]:
    # Every card edge once, reaching a little past the cards so a ruler finds it.
    reach = 4.0
    edges: set[Cut] = set()
    for slot in places:
        x1, y1 = slot.x + slot.width, slot.y + slot.height
        top, bottom = max(0.0, slot.y - reach), min(paper.height, y1 + reach)
        left, right = max(0.0, slot.x - reach), min(paper.width, x1 + reach)
        edges.update({Cut(round(slot.x, 2), round(top, 2), round(slot.x, 2), round(bottom, 2)),
                      Cut(round(x1, 2), round(top, 2), round(x1, 2), round(bottom, 2)),
                      Cut(round(left, 2), round(slot.y, 2), round(right, 2), round(slot.y, 2)),
                      Cut(round(left, 2), round(y1, 2), round(right, 2), round(y1, 2))})
    return sorted(edges, key=lambda cut: (cut.x1, cut.y1, cut.x2, cut.y2))
