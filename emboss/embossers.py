"""Embosser profiles: what each machine accepts, and the bytes of a job for it.

A profile knows its paper limits, its widest line, whether it embosses both sides, and the
header and job end its protocol wants around BRF pages. A document that does not fit is
refused before a byte is sent, with the reason.

    profile = profile_named("index-everest-d")
    job = profile.job(document)          # Job(header=b"\\x1bDBT0,...;", pages=[...], end=...)
    job.data(from_page=3)                # header + pages 3.. + job end
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from emboss import brf
from emboss.page import INCH, Document, Geometry
from layouts.errors import PaperError

ESC = b"\x1b"


@dataclass(frozen=True)
class Job:
    """An embosser job cut in pages, so a transport can report and resume page by page."""

    header: bytes
    pages: list[bytes]
    end: bytes

    def check_start(self, from_page: int, duplex: bool) -> None:
        """Refuse a resume point that does not exist or would put a back page on a front."""
        if not 1 <= from_page <= len(self.pages):
            raise PaperError("from_page_outside", page=from_page, pages=len(self.pages))
        if duplex and from_page % 2 == 0:
            raise PaperError("from_page_back", page=from_page, front=from_page - 1)

    def data(self, from_page: int = 1) -> bytes:
        """The bytes to send, starting at page ``from_page`` (1-based)."""
        return self.header + b"".join(self.pages[from_page - 1:]) + self.end


@dataclass(frozen=True)
class Profile:
    """One embosser model and its limits (mm, cells, lines)."""

    name: str
    description: str
    min_width: float = 0.0
    max_width: float = 10_000.0
    min_height: float = 0.0
    max_height: float = 10_000.0
    max_cells: int = 1_000
    max_lines: int = 1_000
    interpoint: bool = True

    def check(self, geometry: Geometry) -> None:
        """Raise :class:`PaperError` saying why ``geometry`` does not suit this embosser."""
        paper = geometry.paper
        if not self.min_width <= paper.width <= self.max_width:
            raise PaperError("paper_width", embosser=self.description, low=self.min_width,
                              high=self.max_width, paper=paper.name, size=paper.width)
        if not self.min_height <= paper.height <= self.max_height:
            raise PaperError("paper_height", embosser=self.description, low=self.min_height,
                              high=self.max_height, paper=paper.name, size=paper.height)
        if geometry.cells_per_line > self.max_cells:
            raise PaperError("too_many_cells", embosser=self.description,
                              most=self.max_cells, paper=paper.name,
                              needed=geometry.cells_per_line)
        if geometry.lines_per_page > self.max_lines:
            raise PaperError("too_many_lines", embosser=self.description,
                              most=self.max_lines, paper=paper.name,
                              needed=geometry.lines_per_page)
        if geometry.duplex and not self.interpoint:
            raise PaperError("one_side_only", embosser=self.description)

    def placed(self, geometry: Geometry) -> Geometry:
        """``geometry`` as this embosser really places cells (its margins may be coarser)."""
        return geometry

    def header(self, geometry: Geometry) -> bytes:
        return b""

    def end(self) -> bytes:
        return b""

    def job(self, document: Document) -> Job:
        """The job for ``document``, after checking it fits this embosser."""
        self.check(document.geometry)
        return Job(self.header(document.geometry), brf.pages_bytes(document), self.end())


def _whole_cells(geometry: Geometry) -> Geometry:
    """Margins rounded to whole cells and lines, as embossers that count them set them."""
    cell, margins = geometry.cell, geometry.margins
    left = round(margins.left / cell.cell_pitch) * cell.cell_pitch
    top = round(margins.top / cell.line_pitch) * cell.line_pitch
    return replace(geometry, margins=replace(margins, left=left, top=top))


@dataclass(frozen=True)
class IndexProfile(Profile):
    """Index Braille V4/V5 protocol: one ``ESC D`` sequence of comma-separated settings."""

    # Index text dot distances (mm) and their codes in the TD setting.
    DOT_DISTANCES = ((2.5, 0), (2.2, 1), (3.2, 2))
    # Gaps between braille lines the LS setting offers, in tenths of a mm.
    LINE_GAPS = (50, 100)

    def check(self, geometry: Geometry) -> None:
        super().check(geometry)
        self._dot_code(geometry)
        self._line_gap(geometry)

    def placed(self, geometry: Geometry) -> Geometry:
        return _whole_cells(geometry)

    def _line_gap(self, geometry: Geometry) -> int:
        cell = geometry.cell
        gap = (cell.line_pitch - 2 * cell.dot_pitch) * 10
        nearest = min(self.LINE_GAPS, key=lambda offered: abs(offered - gap))
        if abs(nearest - gap) > 6:
            raise PaperError("line_gap", embosser=self.description, gap=gap / 10)
        return nearest

    def _dot_code(self, geometry: Geometry) -> int:
        distance, code = min(self.DOT_DISTANCES,
                             key=lambda pair: abs(pair[0] - geometry.cell.dot_pitch))
        if abs(distance - geometry.cell.dot_pitch) > 0.2:
            raise PaperError("dot_pitch", embosser=self.description,
                              pitch=geometry.cell.dot_pitch)
        return code

    def header(self, geometry: Geometry) -> bytes:
        cell = geometry.cell
        binding = round(geometry.margins.left / cell.cell_pitch)
        top = round(geometry.margins.top / cell.line_pitch)
        settings = [
            "BT0",                                   # the six-dot braille ASCII table
            "PN0",                                   # no page numbers over our cells
            f"TD{self._dot_code(geometry)}",
            f"LS{self._line_gap(geometry)}",
            f"DP{2 if geometry.duplex else 1}",      # 1 single-sided, 2 interpoint
            f"CH{geometry.cells_per_line}",
            f"LP{geometry.lines_per_page}",
            f"BI{binding}",
            f"TM{top}",
        ]
        return ESC + b"D" + ",".join(settings).encode("ascii") + b";"

    def end(self) -> bytes:
        # End of file (SUB): the embosser ejects the last sheet without waiting for more.
        return b"\x1a"


def _number(value: int) -> bytes:
    """Enabling Technologies encode a number 0-59 as one byte from '@' upwards."""
    if not 0 <= value <= 59:
        raise PaperError("enabling_setting", value=value)
    return bytes([0x40 + value])


@dataclass(frozen=True)
class EnablingProfile(Profile):
    """Enabling Technologies (Romeo, Juliet): single-letter ESC settings, numbers from '@'."""

    def placed(self, geometry: Geometry) -> Geometry:
        return _whole_cells(geometry)

    def header(self, geometry: Geometry) -> bytes:
        cell_type = b"H" if geometry.cell.name == "marburg" else b"@"
        inches = max(1, round(geometry.paper.height / INCH))
        binding = round(geometry.margins.left / geometry.cell.cell_pitch)
        return b"".join([
            ESC + b"@",                                        # reset
            ESC + b"K@",                                       # six-dot braille
            ESC + b"i" + (b"@" if geometry.duplex else b"A"),  # interpoint or front only
            ESC + b"s" + cell_type,                            # Marburg Medium or US cell
            ESC + b"L" + _number(binding + 1),                 # left margin, 1-based
            ESC + b"R" + _number(geometry.cells_per_line),
            ESC + b"T" + _number(inches),                      # form length in inches
            ESC + b"Q" + _number(geometry.lines_per_page),
        ])


@dataclass(frozen=True)
class BrailloProfile(Profile):
    """Braillo 200 (firmware 000.17 or later): ``ESC`` letter settings with two-digit numbers,
    as two public drivers agree (APH's libembosser, DAISY's braille-utils): ``S1``, ``J0``,
    ``N0``, ``R0`` as both send them, ``A`` the sheet length in half inches (rounded up, 8 to
    28), ``B`` the cells per line (10 to 42), ``C`` interpoint (1) or one side (0). The braille
    table is the machine's own setting: it must be North American braille ASCII (see the
    README), and the margins are the machine's, as a generic embosser's."""

    def header(self, geometry: Geometry) -> bytes:
        half_inches = math.ceil(geometry.paper.height / INCH * 2 - 1e-9)
        settings = [b"S1", b"J0", b"N0", b"R0", b"A%02d" % half_inches,
                    b"B%02d" % geometry.cells_per_line, b"C%d" % (1 if geometry.duplex else 0)]
        return b"".join(ESC + setting for setting in settings)


PROFILES: dict[str, Profile] = {profile.name: profile for profile in (
    Profile("generic", "a generic BRF embosser"),
    IndexProfile("index-basic-d", "Index Basic-D (V4/V5)", min_width=100, max_width=325,
                 min_height=100, max_height=17 * INCH, max_cells=49, max_lines=70),
    IndexProfile("index-everest-d", "Index Everest-D (V4/V5)", min_width=130, max_width=297,
                 min_height=120, max_height=590, max_cells=49, max_lines=70),
    EnablingProfile("romeo", "Enabling Technologies Romeo", min_width=4 * INCH,
                    max_width=15 * INCH, min_height=3 * INCH, max_height=14 * INCH,
                    max_cells=40, max_lines=59, interpoint=False),
    EnablingProfile("juliet", "Enabling Technologies Juliet", min_width=4 * INCH,
                    max_width=15 * INCH, min_height=3 * INCH, max_height=14 * INCH,
                    max_cells=40, max_lines=59, interpoint=True),
    BrailloProfile("braillo-200", "Braillo 200", min_width=140, max_width=330,
                   min_height=4 * INCH, max_height=14 * INCH, max_cells=42, max_lines=40),
)}


def profile_named(name: str) -> Profile:
    """The profile called ``name``, or an error listing the profiles."""
    try:
        return PROFILES[name]
    except KeyError:
        raise PaperError("embosser_unknown", name=name, choices=", ".join(PROFILES)) from None
