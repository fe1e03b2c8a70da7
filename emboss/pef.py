"""PEF 1.0 (Portable Embosser Format, ``http://www.daisy.org/ns/2008/pef``) writer.

One volume, one section, a page per page of the document, a row per line with its trailing
blank cells dropped, built as an XML tree (the standard library's ElementTree) and serialised
with its declaration. The output is deterministic for a given document, identifier and date,
so it can be compared byte for byte.

    xml = document_pef(document, identifier="brailledev-uno-deck-en", date="2026-11-22")
"""

from __future__ import annotations

import datetime
import xml.etree.ElementTree as ET

from emboss.page import Document

NAMESPACE = "http://www.daisy.org/ns/2008/pef"
DUBLIN_CORE = "http://purl.org/dc/elements/1.1/"
ET.register_namespace("", NAMESPACE)
ET.register_namespace("dc", DUBLIN_CORE)


def _pef(tag: str) -> str:
    return f"{{{NAMESPACE}}}{tag}"


def document_pef(document: Document, identifier: str, date: str | None = None) -> bytes:
    """The whole document as a PEF 1.0 file (UTF-8 bytes)."""
    geometry = document.geometry
    root = ET.Element(_pef("pef"), version="2008-1")
    meta = ET.SubElement(ET.SubElement(root, _pef("head")), _pef("meta"))
    for name, value in (("format", "application/x-pef+xml"), ("identifier", identifier),
                        ("title", document.title), ("language", document.lang),
                        ("date", date or datetime.date.today().isoformat()),
                        ("creator", "brailledev")):
        ET.SubElement(meta, f"{{{DUBLIN_CORE}}}{name}").text = value
    volume = ET.SubElement(ET.SubElement(root, _pef("body")), _pef("volume"),
                           cols=str(geometry.cells_per_line),
                           rows=str(geometry.lines_per_page), rowgap="0",
                           duplex="true" if geometry.duplex else "false")
    section = ET.SubElement(volume, _pef("section"))
    for page in document.pages:
        element = ET.SubElement(section, _pef("page"))
        for row in page.rows():
            ET.SubElement(element, _pef("row")).text = row or None
    ET.indent(root, space="")
    declaration = '<?xml version="1.0" encoding="UTF-8"?>\n'
    return (declaration + ET.tostring(root, encoding="unicode") + "\n").encode("utf-8")
