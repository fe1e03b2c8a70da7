"""Previews drawn by cairo, read back by others: the PDF's dots measured by pdfminer, its
pages rendered by poppler, its text extracted by pdftotext; the SVG parsed as XML; the PNG
decoded by cairo. A preview printed at 100% lies over the embossed sheet: its dots sit where
the embosser's job (header and BRF lines) puts them."""

from __future__ import annotations

import io
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import cairo
import pytest
from pdfminer.high_level import extract_pages
from pdfminer.layout import LTCurve, LTPage

from brailledev.display.braille import ascii_to_cells, translator
from brailledev.programs.cli import main
from emboss.deck import BLEED, deck_document, deck_layout
from emboss.embossers import profile_named
from emboss.page import (
    CELL_SIZES,
    DOT_DIAMETER,
    Document,
    Geometry,
    Margins,
    Page,
    paper,
)
from emboss.preview import PIXELS_PER_MM, POINTS_PER_MM, SHEET_GAP, dots, write_preview
from layouts.errors import PaperError
from layouts.registry import kit

SVG = "{http://www.w3.org/2000/svg}"
FULL = "⠿"


def labels(cards: str | None = "r7,y+2,wi+4", lang: str = "en", name: str = "a4",
           embosser: str = "generic") -> Document:
    geometry = profile_named(embosser).placed(Geometry(paper(name)))
    table = "en-ueb-g1.ctb" if lang == "en" else "fr-bfu-comp6.utb"
    return deck_document(kit("uno").deck_faces(lang, cards), geometry, kit("uno").card_size(),
                         translator(table), "Uno & co", lang)


def pdf_pages(path: Path) -> list[tuple[tuple[float, float], list[tuple[float, float, float]]]]:
    """Each PDF page's size (mm) and its dots: (x, y, diameter) in mm from the top-left,
    every filled path of curves pdfminer finds: its centre the middle of its points (ends and
    Bezier handles lie symmetrically round it), its diameter the span of its ends."""
    pages = []
    for page in extract_pages(str(path)):
        assert isinstance(page, LTPage)
        width, height = page.width / POINTS_PER_MM, page.height / POINTS_PER_MM
        found = []
        for item in page:
            steps = getattr(item, "original_path", None) or []
            if not (isinstance(item, LTCurve) and item.fill
                    and any(step[0] == "c" for step in steps)):
                continue
            points = [point for step in steps for point in step[1:]]
            xs, ys = [x for x, _ in points], [y for _, y in points]
            found.append(((min(xs) + max(xs)) / 2 / POINTS_PER_MM,
                          height - (min(ys) + max(ys)) / 2 / POINTS_PER_MM,
                          item.width / POINTS_PER_MM))
        pages.append(((width, height), found))
    return pages


@pytest.mark.parametrize(("cell", "dot", "across", "down"), [
    ("marburg", 2.5, 6.0, 10.0), ("us", 2.3, 6.1, 10.0)])
def test_dot_centres_in_the_pdf_at_the_cells_physical_spacing(tmp_path: Path, cell, dot,
                                                               across, down):
    geometry = Geometry(paper("a4"), CELL_SIZES[cell], Margins(12, 10, 10, 15))
    page = Page.blank(geometry)
    for line, col in ((0, 0), (0, 1), (1, 0), (4, 7)):
        page.put(line, col, FULL)
    target = tmp_path / "cells.pdf"
    write_preview(Document(geometry, [page], "cells", "en"), target)
    [(size, found)] = pdf_pages(target)
    assert size == pytest.approx((210, 297), abs=0.1)
    assert len(found) == 4 * 6
    assert all(diameter == pytest.approx(DOT_DIAMETER, abs=0.05) for *_, diameter in found)
    centres = sorted((round(x, 3), round(y, 3)) for x, y, _ in found)
    # Cell (0, 0): dot 1 at the margins, the others a dot pitch right and down.
    left, top = 15.0, 12.0
    for line, col in ((0, 0), (0, 1), (1, 0), (4, 7)):
        for dx in (0, 1):
            for dy in (0, 1, 2):
                want = (left + col * across + dx * dot, top + line * down + dy * dot)
                assert any(abs(x - want[0]) <= 0.1 and abs(y - want[1]) <= 0.1
                           for x, y in centres), (cell, line, col, want)
    first = [(x, y) for x, y in centres if x < left + across - 1 and y < top + 3 * dot]
    assert max(x for x, _ in first) - min(x for x, _ in first) == pytest.approx(dot, abs=0.1)
    assert max(y for _, y in first) - min(y for _, y in first) == pytest.approx(2 * dot,
                                                                              abs=0.1)
    next_cell = min(x for x, y in centres if x > left + dot + 0.5 and y < top + 3 * dot)
    assert next_cell - left == pytest.approx(across, abs=0.1)
    next_line = min(y for x, y in centres if y > top + 2 * dot + 0.5)
    assert next_line - top == pytest.approx(down, abs=0.1)


def job_lines(data: bytes, embosser: str) -> list[bytes]:
    """A page's BRF lines read back from its job bytes: the page end (or, on a full page of a
    machine that feeds on by itself, the line end) taken off, the rest split at line ends."""
    profile = profile_named(embosser)
    if data == (profile.page_end if profile.blank_page is None else profile.blank_page):
        return []
    for end in (profile.page_end, profile.line_end):
        if data.endswith(end):
            return data[:-len(end)].split(profile.line_end)
    raise AssertionError(f"{data!r} does not end as a page of {embosser}")


def job_dots(document: Document, embosser: str) -> list[set[tuple[float, float]]]:
    """Where the embosser puts each page's dots, from the job's own bytes: an Index header's
    binding margin (BI, cells) and top margin (TM, lines), or margins padded in the lines
    (Enabling Technologies: from the sheet's edge), then each BRF line's cells."""
    profile = profile_named(embosser)
    job = profile.job(document)
    cell = document.geometry.cell
    if profile.protocol.margins == "counted":
        settings = dict(re.findall(rb"([A-Z]{2})(\d+)", job.header))
        left = int(settings[b"BI"]) * cell.cell_pitch
        top = int(settings[b"TM"]) * cell.line_pitch
    elif profile.protocol.margins == "padded":
        assert b"\x1bLA" in job.header     # column 1 is the sheet's edge
        left = top = 0.0
    else:
        # The embosser starts at its own margins: the ones the document was set for.
        left, top = document.geometry.margins.left, document.geometry.margins.top
    pages = []
    for data in job.pages:
        found = set()
        for number, line in enumerate(job_lines(data, embosser)):
            for col, char in enumerate(ascii_to_cells(line.decode("ascii"))):
                mask = ord(char) - 0x2800
                for bit, (dx, dy) in enumerate([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]):
                    if mask & (1 << bit):
                        found.add((round(left + col * cell.cell_pitch + dx * cell.dot_pitch, 1),
                                   round(top + number * cell.line_pitch + dy * cell.dot_pitch,
                                         1)))
        pages.append(found)
    return pages


@pytest.mark.parametrize(("name", "embosser"), [
    ("a4", "generic"), ("a4", "index-everest-d"), ("letter", "index-basic-d"),
    ("a4", "juliet-120"), ("a4", "juliet"), ("letter", "romeo"), ("a4", "braillo-200"),
])
def test_a_preview_printed_at_full_size_lies_over_the_embossed_sheet(tmp_path: Path, name,
                                                                      embosser):
    document = labels(None, "fr", name, embosser)
    target = tmp_path / "deck.pdf"
    write_preview(document, target)
    read = pdf_pages(target)
    embossed = job_dots(document, embosser)
    assert len(read) == len(embossed) == len(document.pages)
    sheet = paper(name)
    for (size, found), expected in zip(read, embossed, strict=True):
        assert size == pytest.approx((sheet.width, sheet.height), abs=0.1)
        drawn = {(round(x, 1), round(y, 1)) for x, y, _ in found}
        assert len(drawn) == len(found)
        assert drawn == expected


def ppm(path: Path) -> tuple[int, int, bytes]:
    data = path.read_bytes()
    magic, width, height, depth, pixels = data.split(maxsplit=4)
    assert magic == b"P6" and depth == b"255"
    return int(width), int(height), pixels


def test_pdf_renders_with_dots_and_french_captions(tmp_path: Path):
    document = labels("r7,y+2,wi+4", "fr")
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
    text = subprocess.run(["pdftotext", str(target), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "rouge 7" in text and "jaune +2" in text and "joker +4" in text
    title = subprocess.run(["pdfinfo", str(target)], capture_output=True, text=True,
                           check=True).stdout
    assert re.search(r"Title:\s+Uno & co", title)
    element = deck_document(kit("elements").deck_faces("fr", "Ek"), Geometry(paper("a4")),
                            kit("elements").card_size(), translator("fr-bfu-comp6.utb"),
                            "Éléments", "fr")
    write_preview(element, tmp_path / "element.pdf")
    accents = subprocess.run(["pdftotext", str(tmp_path / "element.pdf"), "-"],
                             capture_output=True, text=True, check=True).stdout
    assert "élément noir" in accents                  # the font carries the accents


def test_svg_is_the_same_drawing_in_millimetres(tmp_path: Path):
    document = labels(None)
    target = tmp_path / "deck.svg"
    write_preview(document, target)
    root = ET.parse(target).getroot()
    count = len(document.pages)
    height = count * 297 + (count - 1) * SHEET_GAP
    assert root.get("width") == "210mm" and root.get("height") == f"{height:g}mm"
    assert root.get("viewBox") == f"0 0 210 {height:g}"
    # One path per dot, as in the PDF, in millimetres: the middle of its points is the
    # dot's centre on its page, the pages one under the other.
    centres = []
    drawn = [child for child in root if child.tag != f"{SVG}defs"]    # not the font's glyphs
    for element in (path for child in drawn for path in child.iter(f"{SVG}path")):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", element.get("d", ""))]
        if "C" in element.get("d", ""):
            xs, ys = numbers[0::2], numbers[1::2]
            centres.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2))
    expected = [(x, y + index * (297 + SHEET_GAP)) for index in range(count)
                for x, y in dots(document, index)]
    assert len(centres) == len(expected)
    for (x, y), (want_x, want_y) in zip(centres, expected, strict=True):
        assert x == pytest.approx(want_x, abs=0.01) and y == pytest.approx(want_y, abs=0.01)


def test_png_for_a_quick_look(tmp_path: Path):
    document = labels("r7,wi")
    target = tmp_path / "deck.png"
    write_preview(document, target)
    image = cairo.ImageSurface.create_from_png(io.BytesIO(target.read_bytes()))
    assert (image.get_width(), image.get_height()) == (round(210 * PIXELS_PER_MM),
                                                       round(297 * PIXELS_PER_MM))
    data, stride = image.get_data(), image.get_stride()

    def pixel(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        offset = round(y_mm * PIXELS_PER_MM) * stride + round(x_mm * PIXELS_PER_MM) * 4
        blue, green, red = data[offset], data[offset + 1], data[offset + 2]
        return red, green, blue

    for x, y in dots(document, 0):
        assert max(pixel(x, y)) < 100
    assert min(pixel(1, 1)) > 200


def test_preview_needs_pdf_svg_or_png(tmp_path: Path):
    with pytest.raises(PaperError, match=r"\.pdf, \.svg or \.png"):
        write_preview(labels(), tmp_path / "deck.jpg")
    assert list(tmp_path.iterdir()) == []


def test_issue_32_16_a_preview_marks_only_the_labels_of_a_part_sheet(tmp_path: Path):
    # Five Rummikub tiles on A4, through the command (--out .png is a preview): every red
    # cut-mark pixel lies on a label or its bleed, none on the slots left empty.
    target = tmp_path / "tiles.png"
    assert main(["emboss", "deck", "rummikub", "--cards", "r1,r2,b13,k5,J", "--lang", "en",
                 "--out", str(target)]) == 0
    tiles = kit("rummikub").deck_faces("en", "r1,r2,b13,k5,J")
    slots = deck_layout(tiles, Geometry(paper("a4")), kit("rummikub").card_size(),
                        translator("en-ueb-g1.ctb")).slots
    used, empty = slots[:5], slots[5:]
    assert empty
    image = cairo.ImageSurface.create_from_png(io.BytesIO(target.read_bytes()))
    data, stride = bytes(image.get_data()), image.get_stride()
    red = [(x / PIXELS_PER_MM, y / PIXELS_PER_MM)
           for y in range(image.get_height()) for x in range(image.get_width())
           if data[y * stride + 4 * x + 2] > 150 and data[y * stride + 4 * x + 1] < 90
           and data[y * stride + 4 * x] < 90]
    assert len(red) > 100
    margin = BLEED + 1.0          # the bleed, and a pixel's width of antialiasing
    for x, y in red:
        assert any(slot.x - margin <= x <= slot.x + slot.width + margin
                   and slot.y - margin <= y <= slot.y + slot.height + margin
                   for slot in used), (x, y)
    for slot in empty:
        assert not any(slot.x + margin < x < slot.x + slot.width - margin
                       and slot.y + margin < y < slot.y + slot.height - margin
                       for x, y in red)
