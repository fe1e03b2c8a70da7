"""PEF 1.0 (Portable Embosser Format, ``http://www.daisy.org/ns/2008/pef``) writer.

One volume, one section, a page per page of the document, a row per line with its trailing
blank cells dropped. The output is deterministic for a given document, identifier and date,
so it can be compared byte for byte.

    xml = document_pef(document, identifier="brailledev-uno-deck-en", date="2026-11-22")
"""

from __future__ import annotations

import datetime
from xml.sax.saxutils import escape

from emboss.page import Document

NAMESPACE = "http://www.daisy.org/ns/2008/pef"
DUBLIN_CORE = "http://purl.org/dc/elements/1.1/"


def document_pef(document: Document, identifier: str, date: str | None = None) -> bytes:
    """The whole document as a PEF 1.0 file (UTF-8 bytes)."""
    day = date or datetime.date.today().isoformat()
    geometry = document.geometry
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<pef version="2008-1" xmlns="{NAMESPACE}" xmlns:dc="{DUBLIN_CORE}">',
        "<head>",
        "<meta>",
        "<dc:format>application/x-pef+xml</dc:format>",
        f"<dc:identifier>{escape(identifier)}</dc:identifier>",
        f"<dc:title>{escape(document.title)}</dc:title>",
        f"<dc:language>{escape(document.lang)}</dc:language>",
        f"<dc:date>{escape(day)}</dc:date>",
        "<dc:creator>brailledev</dc:creator>",
        "</meta>",
        "</head>",
        "<body>",
        f'<volume cols="{geometry.cells_per_line}" rows="{geometry.lines_per_page}" '
        f'rowgap="0" duplex="{"true" if geometry.duplex else "false"}">',
        "<section>",
    ]
    for page in document.pages:
        rows = page.rows()
        if not rows:
            out.append("<page/>")
            continue
        out.append("<page>")
        out.extend(f"<row>{row}</row>" if row else "<row/>" for row in rows)
        out.append("</page>")
    out += ["</section>", "</volume>", "</body>", "</pef>", ""]
    return "\n".join(out).encode("utf-8")
