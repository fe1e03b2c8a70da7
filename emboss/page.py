"""Braille pages with physical geometry: paper, margins, cell and line pitch, sides.

A :class:`Geometry` says where every cell of a page lies on the paper (millimetres from the
top-left corner of the sheet, as seen from the side being embossed); a :class:`Page` holds
Unicode braille cells on that grid, plus what only previews show: ink captions and cut marks.

    geometry = Geometry(paper("a4"))
    geometry.cells_per_line, geometry.lines_per_page      # (32, 28)
    page = Page.blank(geometry)
    page.put(0, 0, "⠗⠼⠑")
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from layouts.errors import PaperError

BLANK = "\u2800"
INCH = 25.4


@dataclass(frozen=True)
class Paper:
    """A sheet: ``Paper("A4", 210, 297)``, sizes in millimetres, portrait."""

    name: str
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("A4", 210.0, 297.0),
    "letter": Paper("Letter", 8.5 * INCH, 11 * INCH),
    "11x11.5in": Paper("11x11.5in", 11 * INCH, 11.5 * INCH),
    "11x12in": Paper("11x12in", 11 * INCH, 12 * INCH),
}

_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(mm)?\s*$", re.IGNORECASE)


def paper(spec: str) -> Paper:
    """A named paper or a custom ``WIDTHxHEIGHT`` in millimetres.

    >>> paper("a4").width, paper("250x300").height
    (210.0, 300.0)
    """
    named = PAPERS.get(spec.strip().lower())
    if named is not None:
        return named
    match = _CUSTOM.match(spec)
    if match is None:
        raise PaperError("paper_unknown", spec=spec, choices=", ".join(PAPERS))
    width, height = float(match.group(1)), float(match.group(2))
    if not (50 <= width <= 600 and 50 <= height <= 1000):
        raise PaperError("paper_implausible", spec=spec)
    return Paper(f"{width:g}x{height:g}mm", width, height)


@dataclass(frozen=True)
class CellSize:
    """Spacing of braille dots in mm: cell pitch, line pitch and dot pitch inside a cell."""

    name: str
    cell_pitch: float
    line_pitch: float
    dot_pitch: float


# Marburg Medium is the European default (2.5 / 6.0 / 10.0 mm); the US library cell has dots
# closer together (2.3 mm) and cells a little wider apart (6.1 mm), on the same 10 mm lines.
MARBURG_MEDIUM = CellSize("marburg", 6.0, 10.0, 2.5)
US_LIBRARY = CellSize("us", 6.1, 10.0, 2.3)
CELL_SIZES: dict[str, CellSize] = {size.name: size for size in (MARBURG_MEDIUM, US_LIBRARY)}
# Dots are about 1.4-1.6 mm across; previews draw them at this diameter.
DOT_DIAMETER = 1.5


@dataclass(frozen=True)
class Margins:
    """Unembossed borders in mm: ``Margins(10, 10, 10, 10)`` (top, right, bottom, left)."""

    top: float = 10.0
    right: float = 10.0
    bottom: float = 10.0
    left: float = 10.0


@dataclass(frozen=True)
class Geometry:
    """Where cells lie on the paper: ``Geometry(paper("letter"), US_LIBRARY, duplex=True)``.

    On the back of an interpoint sheet the left and right margins swap, so a cell sits behind
    the same place on the front.
    """

    paper: Paper
    cell: CellSize = MARBURG_MEDIUM
    margins: Margins = field(default_factory=Margins)
    duplex: bool = False

    @property
    def cells_per_line(self) -> int:
        usable = self.paper.width - self.margins.left - self.margins.right
        # A cell needs its own width (two dot columns) but not the gap after it.
        return max(0, math.floor((usable - self.cell.dot_pitch) / self.cell.cell_pitch) + 1)

    @property
    def lines_per_page(self) -> int:
        usable = self.paper.height - self.margins.top - self.margins.bottom
        return max(0, math.floor((usable - 2 * self.cell.dot_pitch) / self.cell.line_pitch) + 1)

    def cell_origin(self, line: int, col: int, back: bool = False) -> tuple[float, float]:
        """Centre of dot 1 of a cell, in mm from the sheet's top-left, on the side embossed."""
        left = self.margins.right if back else self.margins.left
        return (left + col * self.cell.cell_pitch, self.margins.top + line * self.cell.line_pitch)

    def dot_centre(self, line: int, col: int, dot: int, back: bool = False) -> tuple[float, float]:
        """Centre of dot ``dot`` (1-8) of a cell, in mm."""
        x, y = self.cell_origin(line, col, back)
        column, row = (0, dot - 1) if dot in (1, 2, 3) else (1, dot - 4)
        if dot in (7, 8):
            column, row = dot - 7, 3
        return (x + column * self.cell.dot_pitch, y + row * self.cell.dot_pitch)

    def first_col_at(self, x: float) -> int:
        """The first column whose dots all lie at or right of ``x`` mm (front side)."""
        return max(0, math.ceil((x - self.margins.left) / self.cell.cell_pitch - 1e-9))

    def first_line_at(self, y: float) -> int:
        """The first line whose dots all lie at or below ``y`` mm."""
        return max(0, math.ceil((y - self.margins.top) / self.cell.line_pitch - 1e-9))


@dataclass(frozen=True)
class Caption:
    """Ink text for sighted helpers, shown only in previews; position in mm, size in points."""

    x: float
    y: float
    text: str
    size: float = 7.0


@dataclass(frozen=True)
class Cut:
    """A cut mark: a straight ink line from (x1, y1) to (x2, y2) in mm, previews only."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass
class Page:
    """One side of a sheet: ``lines`` of exactly ``width`` Unicode braille cells each."""

    width: int
    lines: list[list[str]]
    captions: list[Caption] = field(default_factory=list)
    cuts: list[Cut] = field(default_factory=list)

    @classmethod
    def blank(cls, geometry: Geometry) -> Page:
        return cls(geometry.cells_per_line,
                   [[BLANK] * geometry.cells_per_line for _ in range(geometry.lines_per_page)])

    @property
    def height(self) -> int:
        return len(self.lines)

    def put(self, line: int, col: int, cells: str) -> None:
        """Write ``cells`` from (line, col); refuses to write past the page."""
        if not 0 <= line < self.height or col < 0 or col + len(cells) > self.width:
            raise PaperError("cells_overflow", count=len(cells), line=line + 1,
                              column=col + 1, height=self.height, width=self.width)
        for offset, cell in enumerate(cells):
            if not "\u2800" <= cell <= "\u28ff":
                raise ValueError(f"not a Unicode braille cell: {cell!r}")
            self.lines[line][col + offset] = cell

    def rows(self) -> list[str]:
        """The lines as text with trailing blank cells dropped, trailing empty lines too."""
        rows = ["".join(line).rstrip(BLANK) for line in self.lines]
        while rows and not rows[-1]:
            rows.pop()
        return rows


@dataclass
class Document:
    """Pages to emboss with their geometry: what BRF, PEF, embossers and previews take."""

    geometry: Geometry
    pages: list[Page]
    title: str
    lang: str

    def is_back(self, index: int) -> bool:
        """Whether page ``index`` (0-based) is the back of a sheet."""
        return self.geometry.duplex and index % 2 == 1
