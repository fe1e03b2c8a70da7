"""BRF: North American braille ASCII, one byte per cell, for any embosser.

Bytes 0x20-0x5F only; each line ends with CR LF and each page with FF. Trailing blank cells
and trailing empty lines are left out (the embosser's own page length does the rest).

    data = page_bytes(page)            # b"R#E\\r\\n\\x0c"
    brf = document_bytes(document)
"""

from __future__ import annotations

from brailledev.display.braille import cells_to_ascii
from emboss.page import Document, Page

CRLF = b"\r\n"
FORM_FEED = b"\x0c"


def page_bytes(page: Page) -> bytes:
    """One page as BRF: its lines, CR LF after each, then FF."""
    lines = [cells_to_ascii(row).encode("ascii") for row in page.rows()]
    return b"".join(line + CRLF for line in lines) + FORM_FEED


def pages_bytes(document: Document) -> list[bytes]:
    """Every page of ``document`` as BRF bytes, in order."""
    return [page_bytes(page) for page in document.pages]


def document_bytes(document: Document) -> bytes:
    """The whole document as one BRF file."""
    return b"".join(pages_bytes(document))
