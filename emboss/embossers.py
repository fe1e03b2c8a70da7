"""Embosser profiles as data: what each model takes, and the bytes of a job for it.

A :class:`Profile` is one model's capabilities: its paper, its longest line (the binding
margin included where its protocol counts it), its lines a page, how a line, a page, a full
page and the job end, and the commands its header must send (a template its
:class:`Protocol` fills from the page's geometry). A document that does not fit is refused
before a byte is made, in one sentence naming the model and the limit.

    profile = profile_named("index-everest-d")
    job = profile.job(document)          # Job(header=b"\\x1bDBT0,LS50,...;", pages=[...], end=...)
    job.data(from_page=3)                # header + pages 3.. + job end

The expected bytes of every protocol were compared with APH's libembosser (its golden tests,
tests/paper/test_embosser_goldens.py); the README's embosser table says what was checked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from brailledev.display.braille import cells_to_ascii
from emboss.page import INCH, Document, Geometry, Page
from layouts.errors import PaperError

ESC = "\x1b"
CR_LF = b"\r\n"
LF = b"\n"
FF = b"\x0c"
# End of file (SUB): Index ejects the last sheet without waiting for more.
SUB = b"\x1a"
# libembosser rounds a sheet length in inches up only past this much (mm): a length given in
# mm and converted back is not pushed to the next inch by rounding.
INCH_SLACK = 0.5


@dataclass(frozen=True)
class Job:
    """An embosser job cut in pages, so a transport can report and resume page by page."""

    header: bytes
    pages: list[bytes]
    end: bytes

    def check_start(self, from_page: int, duplex: bool) -> None:
        """Refuse a resume point that does not exist or would put a back page on a front."""
        if not 1 <= from_page <= len(self.pages):
            raise PaperError("from_page_outside", page=from_page, pages=len(self.pages),
                             count=len(self.pages))
        if duplex and from_page % 2 == 0:
            raise PaperError("from_page_back", page=from_page, front=from_page - 1)

    def data(self, from_page: int = 1) -> bytes:
        """The bytes to send, starting at page ``from_page`` (1-based)."""
        return self.header + b"".join(self.pages[from_page - 1:]) + self.end


def margin_cells(geometry: Geometry) -> tuple[int, int]:
    """The left margin in whole cells and the top margin in whole lines, as a machine that
    counts them sets them: ``margin_cells(Geometry(paper("a4"))) == (2, 1)``."""
    cell = geometry.cell
    return (round(geometry.margins.left / cell.cell_pitch),
            round(geometry.margins.top / cell.line_pitch))


# What a protocol reads off the page for its header template: name -> value.
Settings = Callable[["Profile", Geometry], Mapping[str, object]]


@dataclass(frozen=True)
class Protocol:
    """How a family of machines is told the page: ``name`` (as the README and ``embossers``
    say it), ``margins``: ``"counted"`` (the machine takes the binding and top margins in
    cells and lines, in its header: they count toward its longest line and its lines a page),
    ``"padded"`` (likewise counted, and sent as spaces and blank lines) or ``"machine"`` (the
    machine's own, set on its panel); ``settings`` gives the header's values for a page."""

    name: str
    margins: str
    settings: Settings

    @property
    def counts_margins(self) -> bool:
        return self.margins in ("counted", "padded")


@dataclass(frozen=True)
class Profile:
    """One embosser model and what it takes (paper in mm, cells, lines, bytes): data, so a
    new model of a known protocol is one entry of :data:`PROFILES`."""

    name: str
    model: str
    protocol: Protocol
    min_width: float = 0.0
    max_width: float = 10_000.0
    min_height: float = 0.0
    max_height: float = 10_000.0
    # The longest line in cells, the binding margin included where the protocol counts it.
    max_line: int = 1_000
    min_line: int = 1
    # Lines a page, the top margin included where the protocol counts it.
    max_lines: int = 1_000
    interpoint: bool = True
    line_end: bytes = CR_LF
    # After a page's last line (or alone on a page without braille, unless blank_page).
    page_end: bytes = CR_LF + FF
    # A full page gets page_end too; if not, only line_end (the machine feeds on by itself).
    full_page_end: bool = True
    blank_page: bytes | None = None
    job_end: bytes = b""
    # The commands the job starts with, in order: ``{name}`` fields come from the protocol.
    header_template: tuple[str, ...] = ()

    def line_cells(self, geometry: Geometry) -> int:
        """The cells a line takes on this machine: the braille, and the binding margin where
        the protocol counts it (``BI`` + ``CH`` on Index, ``ESC R`` on Enabling Technologies):
        ``profile_named("index-basic-d").line_cells(Geometry(paper("a4"))) == 34``."""
        left = margin_cells(geometry)[0] if self.protocol.counts_margins else 0
        return left + geometry.cells_per_line

    def page_lines(self, geometry: Geometry) -> int:
        """The lines a page takes on this machine, the top margin where the protocol counts it:
        ``profile_named("juliet").page_lines(Geometry(paper("a4"))) == 29``."""
        top = margin_cells(geometry)[1] if self.protocol.counts_margins else 0
        return top + geometry.lines_per_page

    def check(self, geometry: Geometry) -> None:
        """Raise :class:`PaperError` saying why ``geometry`` does not suit this embosser:
        ``profile_named("romeo").check(Geometry(paper("a4"), duplex=True))`` refuses."""
        paper = geometry.paper
        if not self.min_width <= paper.width <= self.max_width:
            raise PaperError("paper_width", embosser=self.model, low=self.min_width,
                             high=self.max_width, paper=paper.name, size=paper.width)
        if not self.min_height <= paper.height <= self.max_height:
            raise PaperError("paper_height", embosser=self.model, low=self.min_height,
                             high=self.max_height, paper=paper.name, size=paper.height)
        line = self.line_cells(geometry)
        if line > self.max_line:
            if self.protocol.counts_margins:
                raise PaperError("too_many_cells_binding", embosser=self.model,
                                 most=self.max_line, paper=paper.name, needed=line,
                                 margin=line - geometry.cells_per_line,
                                 cells=geometry.cells_per_line)
            raise PaperError("too_many_cells", embosser=self.model, most=self.max_line,
                             paper=paper.name, needed=line)
        if geometry.cells_per_line < self.min_line:
            raise PaperError("too_few_cells", embosser=self.model, least=self.min_line,
                             paper=paper.name, cells=geometry.cells_per_line)
        if self.page_lines(geometry) > self.max_lines:
            raise PaperError("too_many_lines", embosser=self.model, most=self.max_lines,
                             paper=paper.name, needed=self.page_lines(geometry))
        if geometry.duplex and not self.interpoint:
            raise PaperError("one_side_only", embosser=self.model)
        self.protocol.settings(self, geometry)

    def placed(self, geometry: Geometry) -> Geometry:
        """``geometry`` as this embosser really places cells: a machine that counts margins
        in cells and lines puts the braille on whole ones."""
        if not self.protocol.counts_margins:
            return geometry
        cell, margins = geometry.cell, geometry.margins
        left, top = margin_cells(geometry)
        return replace(geometry, margins=replace(margins, left=left * cell.cell_pitch,
                                                 top=top * cell.line_pitch))

    def header(self, geometry: Geometry) -> bytes:
        """The commands a job on ``geometry`` starts with, the template filled:
        ``profile_named("braillo-200").header(Geometry(paper("a4")))`` ends ``b"\\x1bH0"``."""
        values = self.protocol.settings(self, geometry)
        return "".join(part.format(**values) for part in self.header_template).encode("ascii")

    def page_bytes(self, page: Page, geometry: Geometry) -> bytes:
        """One page: its lines joined by the line end, then the page end (a full page on a
        machine that feeds on by itself: the line end). Where the protocol pads margins, the
        top margin comes first as blank lines and each line after its left margin in spaces:
        ``profile_named("index-basic-d").page_bytes(page, geometry) == b"R#E\\r\\nA\\x0c"``."""
        rows = [cells_to_ascii(row).encode("ascii") for row in page.rows()]
        if not rows:
            return self.page_end if self.blank_page is None else self.blank_page
        left, top = margin_cells(geometry) if self.protocol.margins == "padded" else (0, 0)
        indent = b" " * left
        body = self.line_end * top + self.line_end.join(indent + row if row else row
                                                        for row in rows)
        full = len(rows) == page.height
        return body + (self.page_end if self.full_page_end or not full else self.line_end)

    def job(self, document: Document) -> Job:
        """The job for ``document``, after checking it fits this embosser. An interpoint job
        that ends on a front page ends that sheet's blank back too:
        ``profile_named("juliet").job(document).data(from_page=3)``."""
        geometry = document.geometry
        self.check(geometry)
        pages = [self.page_bytes(page, geometry) for page in document.pages]
        end = self.job_end
        if geometry.duplex and len(pages) % 2:
            end = self.page_bytes(Page.blank(geometry), geometry) + end
        return Job(self.header(geometry), pages, end)


def _brf_settings(profile: Profile, geometry: Geometry) -> Mapping[str, object]:
    return {}


# Index text dot distances (mm) and their codes in the TD setting.
DOT_DISTANCES = ((2.5, 0), (2.2, 1), (3.2, 2))
# Gaps between braille lines the LS setting offers, in tenths of a mm.
LINE_GAPS = (50, 100)


def _index_settings(profile: Profile, geometry: Geometry) -> Mapping[str, object]:
    cell = geometry.cell
    distance, dot_code = min(DOT_DISTANCES, key=lambda pair: abs(pair[0] - cell.dot_pitch))
    if abs(distance - cell.dot_pitch) > 0.2:
        raise PaperError("dot_pitch", embosser=profile.model, pitch=cell.dot_pitch)
    gap = (cell.line_pitch - 2 * cell.dot_pitch) * 10
    nearest = min(LINE_GAPS, key=lambda offered: abs(offered - gap))
    if abs(nearest - gap) > 6:
        raise PaperError("line_gap", embosser=profile.model, gap=gap / 10)
    binding, top = margin_cells(geometry)
    return {"gap": nearest, "dots": dot_code, "sides": 2 if geometry.duplex else 1,
            "binding": binding, "cells": geometry.cells_per_line, "top": top,
            "lines": geometry.lines_per_page}


def _enabling_number(value: int) -> str:
    """Enabling Technologies encode a number 0-59 as one character from '@' upwards."""
    if not 0 <= value <= 59:
        raise PaperError("enabling_setting", value=value)
    return chr(0x40 + value)


def sheet_inches(height: float) -> int:
    """A sheet's length in whole inches as an Enabling Technologies machine takes it: up
    past :data:`INCH_SLACK` mm over a whole inch, so every line fits (``sheet_inches(266.7)
    == 11``, ``sheet_inches(254.4) == 10``)."""
    whole, rest = divmod(height, INCH)
    return max(1, int(whole) + (1 if rest > INCH_SLACK + 1e-9 else 0))


def _enabling_settings(profile: Profile, geometry: Geometry) -> Mapping[str, object]:
    left, top = margin_cells(geometry)
    return {
        "sides": "@" if geometry.duplex else "A",
        "cell": "H" if geometry.cell.name == "marburg" else "@",
        "right": _enabling_number(left + geometry.cells_per_line),
        "inches": _enabling_number(sheet_inches(geometry.paper.height)),
        "lines": _enabling_number(top + geometry.lines_per_page),
    }


def _braillo_settings(profile: Profile, geometry: Geometry) -> Mapping[str, object]:
    return {"half_inches": math.ceil(geometry.paper.height / INCH * 2 - 1e-9),
            "cells": geometry.cells_per_line, "sides": 1 if geometry.duplex else 0}


BRF = Protocol("BRF", "machine", _brf_settings)
INDEX = Protocol("Index V4/V5", "counted", _index_settings)
ENABLING = Protocol("Enabling Technologies", "padded", _enabling_settings)
BRAILLO = Protocol("Braillo 200", "machine", _braillo_settings)

INDEX_HEADER = (
    ESC + "D",
    "BT0,",            # the braille table: six-dot North American braille ASCII
    "LS{gap},",        # the gap between lines, tenths of a mm
    "TD{dots},",       # the dot distance code
    "PN0,",            # no page numbers over our cells
    "MC1,",            # one copy, whatever count was left on the panel
    "DP{sides},",      # 1 one side, 2 interpoint
    "BI{binding},",    # the binding margin, cells
    "CH{cells},",      # cells a line
    "TM{top},",        # the top margin, lines
    "LP{lines};",      # lines a page
)
ENABLING_HEADER = (
    ESC + "A@@",       # the US computer braille table, whatever table the panel is set to
    ESC + "K@",        # six-dot braille
    ESC + "W@",        # no line wrapping: an over-long line would push every later line down
    ESC + "i{sides}",  # '@' interpoint, 'A' front only
    ESC + "s{cell}",   # the cell: 'H' Marburg Medium, '@' US library
    ESC + "LA",        # the left margin at column 1: our margin is padded with spaces
    ESC + "R{right}",  # the right margin column: left margin + cells
    ESC + "T{inches}",  # the form length, whole inches
    ESC + "Q{lines}",  # lines a page, the padded top margin included
)
BRAILLO_HEADER = (
    ESC + "S1", ESC + "J0", ESC + "N0", ESC + "R0",
    ESC + "A{half_inches:02d}",   # the sheet length, half inches rounded up
    ESC + "B{cells:02d}",         # cells a line
    ESC + "C{sides}",             # 1 interpoint, 0 one side
    ESC + "H0",                   # no Z-folding
)


# What every model of a protocol shares; each model below changes its name and limits.
_INDEX = Profile("", "", INDEX, max_lines=70, page_end=FF, job_end=SUB,
                 header_template=INDEX_HEADER)
# A full page ends with CR LF only: the machine feeds on at its form length, and an FF there
# would feed a blank sheet (libembosser, March 2020).
_ENABLING = Profile("", "", ENABLING, min_width=38, min_height=76, max_height=356,
                    max_lines=59, full_page_end=False, header_template=ENABLING_HEADER)
_BRAILLO = Profile("braillo-200", "Braillo 200", BRAILLO, min_width=140, max_width=330,
                   min_height=4 * INCH, max_height=14 * INCH, max_line=42, min_line=10,
                   max_lines=40, header_template=BRAILLO_HEADER)
_ATTACHE = replace(_ENABLING, name="romeo-attache", model="Enabling Technologies Romeo Attaché",
                   max_width=216, max_line=32, interpoint=False, line_end=LF,
                   page_end=LF + FF)

PROFILES: dict[str, Profile] = {profile.name: profile for profile in (
    Profile("generic", "a generic BRF embosser", BRF, blank_page=FF),
    replace(_INDEX, name="index-basic-d", model="Index Basic-D (V4/V5)", min_width=100,
            max_width=325, min_height=100, max_height=17 * INCH, max_line=49),
    replace(_INDEX, name="index-everest-d", model="Index Everest-D (V4/V5)", min_width=130,
            max_width=297, min_height=120, max_height=590, max_line=48),
    replace(_INDEX, name="index-braillebox", model="Index BrailleBox (V4/V5)", min_width=200,
            max_width=300, min_height=250, max_height=440, max_line=48),
    replace(_INDEX, name="index-fanfold-d", model="Index FanFold-D (V5)", min_width=127,
            max_width=317.5, min_height=203.2, max_height=304.8, max_line=48),
    # The current Juliet and Romeo are Index Basic-D V5 machines inside.
    replace(_INDEX, name="juliet-120", model="Enabling Technologies Juliet 120",
            min_width=101.6, max_width=317.5, min_height=76.2, max_height=609.6, max_line=49),
    replace(_INDEX, name="romeo-60", model="Enabling Technologies Romeo 60", min_width=101.6,
            max_width=317.5, min_height=76.2, max_height=609.6, max_line=49,
            interpoint=False),
    replace(_ENABLING, name="romeo", model="Enabling Technologies Romeo Pro 50 or Romeo 25",
            max_width=337, max_line=40, interpoint=False),
    replace(_ENABLING, name="juliet",
            model="Enabling Technologies Juliet Classic or Juliet Pro", max_width=381,
            max_line=56),
    replace(_ENABLING, name="juliet-pro60", model="Enabling Technologies Juliet Pro 60",
            max_width=381, max_line=40),
    _ATTACHE,
    replace(_ATTACHE, name="romeo-attache-pro",
            model="Enabling Technologies Romeo Attaché Pro"),
    _BRAILLO,
    # The Braillo 400 and 600 speak the Braillo 200's protocol, with its limits.
    replace(_BRAILLO, name="braillo-400s", model="Braillo 400S"),
    replace(_BRAILLO, name="braillo-400sr", model="Braillo 400SR"),
    replace(_BRAILLO, name="braillo-600", model="Braillo 600"),
    replace(_BRAILLO, name="braillo-600sr", model="Braillo 600SR"),
)}


def profile_named(name: str) -> Profile:
    """The profile called ``name``, or an error listing the profiles."""
    try:
        return PROFILES[name]
    except KeyError:
        raise PaperError("embosser_unknown", name=name, choices=", ".join(PROFILES)) from None
