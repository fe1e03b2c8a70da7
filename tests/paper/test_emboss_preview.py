"""Previews: the SVG parsed as XML, the PDF rendered by poppler's pdftoppm."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from brailledev.braille import translator
from emboss.deck import deck_document
from emboss.page import Geometry, paper
from emboss.preview import POINTS_PER_MM, dots, write_preview
from layouts.errors import PaperError
from layouts.registry import kit

SVG = "{http://www.w3.org/2000/svg}"


def labels(cards: str | None = "r7,y+2,wi+4"):
    return deck_document(kit("uno").deck_faces("en", cards), Geometry(paper("a4")),
                         kit("uno").card_size(), translator("en-ueb-g1.ctb"), "Uno & co", "en")


def test_svg_has_every_dot_cut_and_caption(tmp_path: Path):
    document = labels(None)
    target = tmp_path / "deck.svg"
    write_preview(document, target)
    root = ET.parse(target).getroot()
    assert root.get("viewBox") == f"0 0 210 {12 * 297 + 11 * 10:g}"
    pages = root.findall(f"{SVG}g")
    assert len(pages) == len(document.pages) == 12
    for index, page in enumerate(pages):
        circles = page.findall(f"{SVG}circle")
        expected = list(dots(document, index))
        assert [(float(c.get("cx", "")), float(c.get("cy", ""))) for c in circles] == [
            (round(x, 2), round(y, 2)) for x, y in expected]
        assert len(page.findall(f"{SVG}line")) == len(document.pages[index].cuts)
        assert [t.text for t in page.findall(f"{SVG}text")] == [
            caption.text for caption in document.pages[index].captions]
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Uno & co"


def ppm(path: Path) -> tuple[int, int, bytes]:
    data = path.read_bytes()
    magic, width, height, depth, pixels = data.split(maxsplit=4)
    assert magic == b"P6" and depth == b"255"
    return int(width), int(height), pixels


def test_pdf_renders_with_dots_where_the_braille_is(tmp_path: Path):
    document = labels()
    target = tmp_path / "deck.pdf"
    write_preview(document, target)
    run = subprocess.run(["pdftoppm", "-r", "72", str(target), str(tmp_path / "page")],
                         check=True, capture_output=True)
    assert run.stderr == b""                              # poppler found nothing to repair
    rendered = sorted(tmp_path.glob("page*.ppm"))
    assert len(rendered) == 1
    width, height, pixels = ppm(rendered[0])
    assert abs(width - 595.3) < 1 and abs(height - 841.9) < 1     # A4 at 72 dpi

    def shade(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        x, y = int(x_mm * POINTS_PER_MM), int(y_mm * POINTS_PER_MM)
        offset = 3 * (y * width + x)
        return pixels[offset], pixels[offset + 1], pixels[offset + 2]

    for x, y in dots(document, 0):
        assert max(shade(x, y)) < 100                     # a black dot
    assert min(shade(1, 1)) > 200                         # white paper in the corner
    cut = document.pages[0].cuts[0]
    red = shade(cut.x1, (cut.y1 + cut.y2) / 2 + 0.3)
    assert red[0] > red[2] or max(red) > 200              # a dashed red line, or its gap
    text = subprocess.run(["pdftotext", str(target), "-"], capture_output=True, text=True,
                          check=True)
    assert "red 7" in text.stdout and "wild draw four" in text.stdout


def test_preview_needs_svg_or_pdf(tmp_path: Path):
    with pytest.raises(PaperError, match=r"\.svg or \.pdf"):
        write_preview(labels(), tmp_path / "deck.png")
    assert list(tmp_path.iterdir()) == []
