"""Pictures of embossed pages for sighted helpers: PDF, SVG or PNG, to scale, drawn by cairo.

One drawing code for the three formats: every raised dot is a disc at its physical place
(millimetres on the sheet, the back of an interpoint sheet drawn as seen from the back), with
the cut marks and the ink captions (DejaVu Sans, which carries every accent a French caption
needs). The PDF has one page per embossed page at the paper's real size, so printed at 100%
it lies over the embossed sheet; SVG and PNG show the pages one under the other.

    write_preview(document, Path("uno.pdf"))       # or uno.svg, uno.png
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from pathlib import Path

import cairo

from emboss.page import DOT_DIAMETER, Document
from emboss.transport import write_file
from layouts.errors import PaperError

POINTS_PER_MM = 72 / 25.4
# A quick look on screen: 96 pixels to the inch, a screen's usual scale.
PIXELS_PER_MM = 96 / 25.4
SHEET_GAP = 10.0
FONT = "DejaVu Sans"
KINDS = (".pdf", ".svg", ".png")


def dots(document: Document, index: int) -> Iterator[tuple[float, float]]:
    """Centres (mm) of the raised dots of page ``index``."""
    page, back, geometry = document.pages[index], document.is_back(index), document.geometry
    for line_number, line in enumerate(page.lines):
        for col, cell in enumerate(line):
            mask = ord(cell) - 0x2800
            for dot in range(1, 9):
                if mask & (1 << (dot - 1)):
                    yield geometry.dot_centre(line_number, col, dot, back)


def draw_page(context: cairo.Context, document: Document, index: int) -> None:
    """Page ``index`` on ``context``, whose user unit is one millimetre from the sheet's
    top-left corner: the white sheet, cut marks (dashed red), dots (black), captions (blue)."""
    paper, page = document.geometry.paper, document.pages[index]
    context.rectangle(0, 0, paper.width, paper.height)
    context.set_source_rgb(1, 1, 1)
    context.fill_preserve()
    context.set_source_rgb(0.55, 0.55, 0.55)
    context.set_line_width(0.3)
    context.stroke()
    context.set_source_rgb(0.8, 0, 0)
    context.set_line_width(0.2)
    context.set_dash([2.0, 1.0])
    for cut in page.cuts:
        context.move_to(cut.x1, cut.y1)
        context.line_to(cut.x2, cut.y2)
        context.stroke()
    context.set_dash([])
    context.set_source_rgb(0, 0, 0)
    for x, y in dots(document, index):
        # One path a dot: each is an object of its own in the PDF, found and measured alone.
        context.arc(x, y, DOT_DIAMETER / 2, 0, 2 * math.pi)
        context.fill()
    context.set_source_rgb(0, 0, 0.8)
    context.select_font_face(FONT, cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
    for caption in page.captions:
        context.set_font_size(caption.size / POINTS_PER_MM)
        context.move_to(caption.x, caption.y)
        context.show_text(caption.text)


def pdf(document: Document) -> bytes:
    """A PDF, one page per embossed page, each at the paper's real size."""
    paper = document.geometry.paper
    out = io.BytesIO()
    surface = cairo.PDFSurface(out, paper.width * POINTS_PER_MM, paper.height * POINTS_PER_MM)
    surface.set_metadata(cairo.PDFMetadata.TITLE, document.title)
    surface.set_metadata(cairo.PDFMetadata.CREATOR, "brailledev")
    context = cairo.Context(surface)
    context.scale(POINTS_PER_MM, POINTS_PER_MM)
    for index in range(len(document.pages)):
        draw_page(context, document, index)
        context.show_page()
    surface.finish()
    return out.getvalue()


def _stacked(document: Document, surface: cairo.Surface, scale: float) -> None:
    """Every page one under the other, ``SHEET_GAP`` mm apart, at ``scale`` units a mm."""
    context = cairo.Context(surface)
    context.scale(scale, scale)
    for index in range(len(document.pages)):
        context.save()
        context.translate(0, index * (document.geometry.paper.height + SHEET_GAP))
        draw_page(context, document, index)
        context.restore()
    surface.flush()


def _stack_size(document: Document) -> tuple[float, float]:
    paper, count = document.geometry.paper, len(document.pages)
    return paper.width, count * paper.height + (count - 1) * SHEET_GAP


def svg(document: Document) -> bytes:
    """An SVG of every page one under the other, in millimetres."""
    width, height = _stack_size(document)
    out = io.BytesIO()
    # In millimetres, the surface's size and its user unit alike.
    surface = cairo.SVGSurface(out, width, height)
    surface.set_document_unit(cairo.SVGUnit.MM)
    _stacked(document, surface, 1.0)
    surface.finish()
    return out.getvalue()


def png(document: Document) -> bytes:
    """A PNG of every page one under the other, at a screen's 96 pixels to the inch."""
    width, height = _stack_size(document)
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, round(width * PIXELS_PER_MM),
                                 round(height * PIXELS_PER_MM))
    background = cairo.Context(surface)
    background.set_source_rgb(0.85, 0.85, 0.85)
    background.paint()
    _stacked(document, surface, PIXELS_PER_MM)
    out = io.BytesIO()
    surface.write_to_png(out)
    return out.getvalue()


def preview_data(document: Document, path: Path) -> bytes:
    """The PDF, SVG or PNG preview of ``document``, chosen by the extension of ``path``:
    ``preview_data(document, Path("uno.pdf"))``."""
    makers = {".pdf": pdf, ".svg": svg, ".png": png}
    maker = makers.get(path.suffix.lower())
    if maker is None:
        raise PaperError("preview_kind", name=path.name)
    return maker(document)


def write_preview(document: Document, path: Path) -> None:
    """Write a PDF, SVG or PNG preview, chosen by the file's extension."""
    write_file(path, preview_data(document, path))
