"""Card labels at the real card size, packed onto sheets, with cut marks and ink captions.

The faces (what is embossed on each card, and its caption) come from the game's kit; this
module knows no game: it packs faces of a given card size onto sheets.

Every label is cut on its own, with a bleed of at least :data:`BLEED` mm of paper around it
that the cuts take away, so a cut a little off never eats into a neighbour. Labels are set
out at whole cell and line pitches of the embosser's grid, so the braille sits at the same
place below the top cut and right of the left cut on every label of the sheet. The packing is
the best a guillotine (a paper cutter, cuts straight across) can cut: an exact search over
every way of cutting the sheet in two, and each part again, down to plain grids of upright
or (with ``rotate``) turned labels.

    uno = kit("uno")
    faces = uno.deck_faces("en", cards="r7,r7,b+2,wi")
    document = deck_document(faces, Geometry(paper("a4")), uno.card_size(), translator(...),
                             "Uno card labels", "en")
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from brailledev.display.braille import Translator
from emboss.page import Caption, Cut, Document, Geometry, Page, Paper
from layouts.errors import PaperError, Problem
from layouts.paper import CardSize, Face

# Least room between a card's cut and its dots' centres (mm), so a cut never grazes braille.
EDGE = 3.0
# Paper between two labels' cuts (mm), cut away: a cut a little off spoils no label.
BLEED = 2.0
# Room under the braille for the ink caption of a preview (mm, from the last dot row).
CAPTION_GAP = 4.0


@dataclass(frozen=True)
class Slot:
    """Where one label goes on the sheet (mm); ``turned`` when it lies on its long side."""

    x: float
    y: float
    width: float
    height: float
    turned: bool


@dataclass(frozen=True)
class Layout:
    """The labels of one sheet: their slots in reading order, and where the braille starts in
    every one of them, the same for all (mm right of the left cut, below the top cut, to the
    centre of dot 1): ``Layout(slots, 3.0, 7.0)``."""

    slots: tuple[Slot, ...]
    left: float
    top: float


def grid(paper: Paper, size: CardSize) -> tuple[int, int]:
    """Columns and rows of cards that fit the sheet edge to edge in reading orientation."""
    return (math.floor(paper.width / size.width + 1e-9),
            math.floor(paper.height / size.height + 1e-9))


def area_bound(paper: Paper, size: CardSize) -> int:
    """No packing at all can beat the sheet's area over the card's."""
    return math.floor(paper.width * paper.height / (size.width * size.height) + 1e-9)


# A label's room on the embosser's grid: whole cells across and whole lines down, its bleed
# included, and whether it is turned.
_Kind = tuple[int, int, bool]
# A packing in grid units: (column, line, kind) of each label's top-left corner.
_Units = list[tuple[int, int, _Kind]]


def _kinds(geometry: Geometry, size: CardSize, rotate: bool) -> list[_Kind]:
    cell = geometry.cell
    kinds = []
    for turned in (False, True) if rotate else (False,):
        width, height = (size.height, size.width) if turned else (size.width, size.height)
        kinds.append((math.ceil((width + BLEED) / cell.cell_pitch - 1e-9),
                      math.ceil((height + BLEED) / cell.line_pitch - 1e-9), turned))
    return kinds


def _guillotine(across: int, down: int, kinds: list[_Kind]) -> _Units:
    """The most labels a guillotine cuts from ``across`` x ``down`` grid units: every
    rectangle is a plain grid of one kind, or two rectangles cut across or down (exact over
    all such cuttings, by dynamic programming)."""
    best = [[0] * (down + 1) for _ in range(across + 1)]
    how: list[list[tuple[str, int]]] = [[("none", 0)] * (down + 1) for _ in range(across + 1)]
    for w in range(1, across + 1):
        for h in range(1, down + 1):
            found, choice = 0, ("none", 0)
            for index, (a, b, _) in enumerate(kinds):
                if (w // a) * (h // b) > found:
                    found, choice = (w // a) * (h // b), ("grid", index)
            for x in range(1, w // 2 + 1):
                if best[x][h] + best[w - x][h] > found:
                    found, choice = best[x][h] + best[w - x][h], ("across", x)
            for y in range(1, h // 2 + 1):
                if best[w][y] + best[w][h - y] > found:
                    found, choice = best[w][y] + best[w][h - y], ("down", y)
            best[w][h], how[w][h] = found, choice

    def place(col: int, line: int, w: int, h: int) -> _Units:
        kind, at = how[w][h]
        if kind == "grid":
            a, b, _ = kinds[at]
            return [(col + i * a, line + j * b, kinds[at])
                    for j in range(h // b) for i in range(w // a)]
        if kind == "across":
            return place(col, line, at, h) + place(col + at, line, w - at, h)
        if kind == "down":
            return place(col, line, w, at) + place(col, line + at, w, h - at)
        return []

    return place(0, 0, across, down)


def _origin(low: float, high: float, grid_start: float, pitch: float,
            extent: float) -> tuple[float, float] | None:
    """Where a block of ``extent`` mm starts between ``low`` and ``high`` so that its braille,
    ``offset`` mm in (at least :data:`EDGE`), falls on the grid (lines or columns every
    ``pitch`` mm from ``grid_start``): ``(start, offset)``, the offset as small as it can be,
    then the block as central as it can be; ``None`` if it does not fit."""
    last = high - extent
    if last < low - 1e-9:
        return None
    centre = (low + last) / 2
    # Starts that put the braille exactly EDGE in, on a grid line at or after the first one.
    first = max(0, math.ceil((low - grid_start + EDGE) / pitch - 1e-9))
    exact = [grid_start - EDGE + k * pitch for k in range(first, math.floor(
        (last - grid_start + EDGE) / pitch + 1e-9) + 1)]
    if exact:
        start = min(exact, key=lambda each: abs(each - centre))
        return start, EDGE
    # Too little slack for that: the furthest start, whose braille comes soonest after EDGE.
    start = last
    steps = math.ceil((start + EDGE - grid_start) / pitch - 1e-9)
    return start, grid_start + max(steps, 0) * pitch - start


def sheet_layout(geometry: Geometry, size: CardSize, cells: int, lines: int,
                 rotate: bool = False) -> Layout:
    """The most labels of ``size`` a sheet takes, each holding ``lines`` lines of up to
    ``cells`` cells at the same place: ``sheet_layout(Geometry(paper("a4")), CardSize(56, 87),
    cells=4, lines=1, rotate=True)``."""
    paper, cell = geometry.paper, geometry.cell
    kinds = [kind for kind in _kinds(geometry, size, rotate)
             if _holds(size, kind[2], cells, lines, geometry)]
    # The last label of a row needs no bleed after it: room for its whole pitch, and the
    # real extent is checked when the packing is placed.
    spare_x = max(a * cell.cell_pitch - (size.height if turned else size.width)
                  for a, _, turned in kinds) if kinds else 0.0
    spare_y = max(b * cell.line_pitch - (size.width if turned else size.height)
                  for _, b, turned in kinds) if kinds else 0.0
    across = math.floor((paper.width + spare_x) / cell.cell_pitch + 1e-9)
    down = math.floor((paper.height + spare_y) / cell.line_pitch + 1e-9)
    while kinds and across > 0 and down > 0:
        units = _guillotine(across, down, kinds)
        if not units:
            break
        found = _placed(geometry, size, units, cells, lines)
        if isinstance(found, Layout):
            return found
        # The braille of the last column or row left the embosser's grid: a smaller block.
        across, down = (across - 1, down) if found == "across" else (across, down - 1)
    return Layout((), EDGE, EDGE)


def room(size: CardSize, turned: bool, geometry: Geometry) -> tuple[int, int]:
    """The cells and lines a label of this orientation holds whatever the braille's offset
    (at most a pitch past EDGE), with EDGE to spare on the far sides:
    ``room(CardSize(56, 87), False, Geometry(paper("a4"))) == (7, 7)``."""
    cell = geometry.cell
    width, height = (size.height, size.width) if turned else (size.width, size.height)
    cells = math.floor((width - 2 * EDGE - cell.cell_pitch - cell.dot_pitch)
                       / cell.cell_pitch + 1e-9) + 1
    lines = math.floor((height - 2 * EDGE - cell.line_pitch - 2 * cell.dot_pitch)
                       / cell.line_pitch + 1e-9) + 1
    return max(cells, 0), max(lines, 0)


def _holds(size: CardSize, turned: bool, cells: int, lines: int, geometry: Geometry) -> bool:
    room_cells, room_lines = room(size, turned, geometry)
    return cells <= room_cells and lines <= room_lines


def _placed(geometry: Geometry, size: CardSize, units: _Units, cells: int,
            lines: int) -> Layout | str:
    """The layout of a packing in grid units, or which way it overflows ("across", "down")."""
    cell, margins, paper = geometry.cell, geometry.margins, geometry.paper

    def extent(unit: tuple[int, int, _Kind], across: bool) -> float:
        col, line, (_, _, turned) = unit
        width, height = (size.height, size.width) if turned else (size.width, size.height)
        return col * cell.cell_pitch + width if across else line * cell.line_pitch + height

    wide = max(extent(unit, True) for unit in units)
    tall = max(extent(unit, False) for unit in units)
    x = _origin(0.0, paper.width, margins.left, cell.cell_pitch, wide)
    y = _origin(0.0, paper.height, margins.top, cell.line_pitch, tall)
    if x is None:
        return "across"
    if y is None:
        return "down"
    (x0, left), (y0, top) = x, y
    first_col = round((x0 + left - margins.left) / cell.cell_pitch)
    first_line = round((y0 + top - margins.top) / cell.line_pitch)
    if max(col for col, _, _ in units) + first_col + cells > geometry.cells_per_line:
        return "across"
    if max(line for _, line, _ in units) + first_line + lines > geometry.lines_per_page:
        return "down"
    slots = []
    for col, line, (_, _, turned) in sorted(units, key=lambda unit: (unit[1], unit[0])):
        width, height = (size.height, size.width) if turned else (size.width, size.height)
        slots.append(Slot(x0 + col * cell.cell_pitch, y0 + line * cell.line_pitch, width, height,
                          turned))
    return Layout(tuple(slots), left, top)


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


def deck_layout(faces: list[Face], geometry: Geometry, size: CardSize,
                translator: Translator, rotate: bool = False) -> Layout:
    """The sheet layout for these faces (room for the largest of them): how many labels a
    sheet takes: ``len(deck_layout(faces, geometry, size, louis).slots)``."""
    braille = [card_cells(translator, face) for face in faces]
    cells = max((len(line) for lines in braille for line in lines), default=1)
    lines = max((len(lines) for lines in braille), default=1)
    if not _holds(size, False, cells, lines, geometry) and not (
            rotate and _holds(size, True, cells, lines, geometry)):
        widest = max(braille, key=lambda each: (max(map(len, each), default=0), len(each)))
        room_cells, room_lines = room(size, False, geometry)
        raise PaperError("label_too_big", card=faces[braille.index(widest)].card,
                         cells=Problem("count_cells", count=cells),
                         lines=Problem("count_lines", count=lines),
                         room_cells=Problem("count_cells", count=room_cells),
                         room_lines=Problem("count_lines", count=room_lines))
    layout = sheet_layout(geometry, size, cells, lines, rotate)
    if not layout.slots:
        raise PaperError("card_too_big", width=size.width, height=size.height,
                          paper=geometry.paper.name)
    return layout


def deck_document(faces: list[Face], geometry: Geometry, size: CardSize,
                  translator: Translator, title: str, lang: str,
                  rotate: bool = False) -> Document:
    """Sheets of labels, as many per sheet as fit, each label's cells inside its card at the
    same place on every label, cut marks round each label (none round a slot the last sheet
    leaves empty). With ``rotate`` labels may lie on their long side, the braille then running
    along it."""
    if geometry.duplex:
        raise PaperError("labels_one_side")
    layout = deck_layout(faces, geometry, size, translator, rotate)
    pages = []
    per_sheet = len(layout.slots)
    for start in range(0, len(faces), per_sheet):
        page = Page.blank(geometry)
        on_sheet = faces[start:start + per_sheet]
        for slot, face in zip(layout.slots, on_sheet, strict=False):
            _place(page, geometry, face, translator, slot, layout)
        # Marks only round the labels: a slot left empty is blank paper, nothing to cut.
        page.cuts.extend(_cut_marks(geometry.paper, layout.slots[:len(on_sheet)]))
        pages.append(page)
    return Document(geometry, pages, title, lang)


def _place(page: Page, geometry: Geometry, face: Face, translator: Translator, slot: Slot,
           layout: Layout) -> None:
    cell, margins = geometry.cell, geometry.margins
    col = round((slot.x + layout.left - margins.left) / cell.cell_pitch)
    line = round((slot.y + layout.top - margins.top) / cell.line_pitch)
    cells = card_cells(translator, face)
    for offset, text in enumerate(cells):
        page.put(line + offset, col, text)
    below = slot.y + layout.top + (len(cells) - 1) * cell.line_pitch + 2 * cell.dot_pitch
    page.captions.append(Caption(slot.x + layout.left - cell.dot_pitch / 2,
                                 min(below + CAPTION_GAP, slot.y + slot.height - EDGE),
                                 face.caption))


def _cut_marks(paper: Paper, places: tuple[Slot, ...]) -> list[Cut]:
    # Each label's four edges, reaching into the bleed so a ruler finds the corners, never
    # into a neighbour.
    reach = BLEED
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
