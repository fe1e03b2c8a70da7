"""Pictures of embossed pages for sighted helpers: SVG or PDF, to scale.

Every raised dot is a circle at its physical place (millimetres on the sheet, the back of an
interpoint sheet drawn as seen from the back), with the cut marks and the ink captions.
The PDF is written here directly: a few vector operators per page and the built-in
Helvetica font, no dependency.

    write_preview(document, Path("uno.pdf"))       # or uno.svg
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from xml.sax.saxutils import escape

from emboss.page import DOT_DIAMETER, Document, Page
from emboss.transport import write_file
from layouts.errors import PaperError

POINTS_PER_MM = 72 / 25.4
# Bezier handle length for a quarter circle of radius 1.
KAPPA = 0.5523
SHEET_GAP = 10.0


def dots(document: Document, index: int) -> Iterator[tuple[float, float]]:
    """Centres (mm) of the raised dots of page ``index``."""
    page, back, geometry = document.pages[index], document.is_back(index), document.geometry
    for line_number, line in enumerate(page.lines):
        for col, cell in enumerate(line):
            mask = ord(cell) - 0x2800
            for dot in range(1, 9):
                if mask & (1 << (dot - 1)):
                    yield geometry.dot_centre(line_number, col, dot, back)


def svg(document: Document) -> str:
    """All pages one under the other in one SVG, 1 user unit = 1 mm."""
    paper = document.geometry.paper
    count = len(document.pages)
    height = count * paper.height + (count - 1) * SHEET_GAP
    radius = DOT_DIAMETER / 2
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{paper.width:g}mm" '
        f'height="{height:g}mm" viewBox="0 0 {paper.width:g} {height:g}">',
        f"<title>{escape(document.title)}</title>",
    ]
    for index, page in enumerate(document.pages):
        top = index * (paper.height + SHEET_GAP)
        side = "back" if document.is_back(index) else "front"
        out.append(f'<g class="page" id="page-{index + 1}" data-side="{side}" '
                   f'transform="translate(0 {top:g})">')
        out.append(f'<rect class="sheet" x="0" y="0" width="{paper.width:g}" '
                   f'height="{paper.height:g}" fill="white" stroke="#888" stroke-width="0.3"/>')
        out.extend(f'<line class="cut" x1="{cut.x1:.2f}" y1="{cut.y1:.2f}" x2="{cut.x2:.2f}" '
                   f'y2="{cut.y2:.2f}" stroke="#c00" stroke-width="0.2" '
                   'stroke-dasharray="2 1"/>' for cut in page.cuts)
        out.extend(f'<circle class="dot" cx="{x:.2f}" cy="{y:.2f}" r="{radius:g}"/>'
                   for x, y in dots(document, index))
        out.extend(f'<text class="caption" x="{caption.x:.2f}" y="{caption.y:.2f}" '
                   f'font-family="Helvetica, Arial, sans-serif" '
                   f'font-size="{caption.size / POINTS_PER_MM:.2f}" fill="#00c">'
                   f"{escape(caption.text)}</text>" for caption in page.captions)
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _pdf_text(text: str) -> bytes:
    # Helvetica with WinAnsi covers Latin-1; anything else shows as '?'.
    raw = text.encode("cp1252", errors="replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _page_stream(document: Document, index: int, page: Page) -> bytes:
    height = document.geometry.paper.height * POINTS_PER_MM
    radius = DOT_DIAMETER / 2 * POINTS_PER_MM
    handle = radius * KAPPA
    parts = [b"0.8 0 0 RG 0.4 w [4 2] 0 d"]
    for cut in page.cuts:
        parts.append(b"%.2f %.2f m %.2f %.2f l S" % (
            cut.x1 * POINTS_PER_MM, height - cut.y1 * POINTS_PER_MM,
            cut.x2 * POINTS_PER_MM, height - cut.y2 * POINTS_PER_MM))
    parts.append(b"[] 0 d 0 g")
    for x_mm, y_mm in dots(document, index):
        x, y = x_mm * POINTS_PER_MM, height - y_mm * POINTS_PER_MM
        parts.append(
            b"%.2f %.2f m %.2f %.2f %.2f %.2f %.2f %.2f c %.2f %.2f %.2f %.2f %.2f %.2f c "
            b"%.2f %.2f %.2f %.2f %.2f %.2f c %.2f %.2f %.2f %.2f %.2f %.2f c f" % (
                x + radius, y,
                x + radius, y + handle, x + handle, y + radius, x, y + radius,
                x - handle, y + radius, x - radius, y + handle, x - radius, y,
                x - radius, y - handle, x - handle, y - radius, x, y - radius,
                x + handle, y - radius, x + radius, y - handle, x + radius, y))
    parts.append(b"0 0 0.8 rg")
    for caption in page.captions:
        parts.append(b"BT /F1 %.1f Tf %.2f %.2f Td (%s) Tj ET" % (
            caption.size, caption.x * POINTS_PER_MM, height - caption.y * POINTS_PER_MM,
            _pdf_text(caption.text)))
    return b"\n".join(parts) + b"\n"


def pdf(document: Document) -> bytes:
    """A PDF 1.4 file, one PDF page per embossed page, at the paper's real size."""
    paper = document.geometry.paper
    width, height = paper.width * POINTS_PER_MM, paper.height * POINTS_PER_MM
    count = len(document.pages)
    # Objects: 1 catalog, 2 page tree, 3 font, then a page and its content per page.
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
            b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(count)), count),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for index, page in enumerate(document.pages):
        stream = _page_stream(document, index, page)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] "
                       b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>"
                       % (width, height, 5 + 2 * index))
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def preview_data(document: Document, path: Path) -> bytes:
    """The SVG or PDF preview of ``document``, chosen by the extension of ``path``:
    ``preview_data(document, Path("uno.pdf"))``."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        return svg(document).encode("utf-8")
    if suffix == ".pdf":
        return pdf(document)
    raise PaperError("preview_kind", name=path.name)


def write_preview(document: Document, path: Path) -> None:
    """Write an SVG or PDF preview, chosen by the file's extension."""
    write_file(path, preview_data(document, path))
