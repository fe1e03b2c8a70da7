"""Pages, BRF, PEF and embosser jobs, byte for byte, and PEF against the PEF 1.0 schema."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from brailledev.display.braille import ascii_to_cells, translator
from emboss import brf
from emboss.deck import deck_document
from emboss.embossers import PROFILES, profile_named
from emboss.page import (
    BLANK,
    INCH,
    US_LIBRARY,
    CellSize,
    Document,
    Geometry,
    Margins,
    Page,
    paper,
)
from emboss.pef import document_pef
from emboss.scorepad import pad_document
from layouts.errors import PaperError
from layouts.registry import kit

SCHEMA = Path(__file__).parents[1] / "data" / "pef-2008-1.rng"
PEF_NS = {"p": "http://www.daisy.org/ns/2008/pef"}


def small_document(duplex: bool = False) -> Document:
    geometry = Geometry(paper("a4"), duplex=duplex)
    first = Page.blank(geometry)
    first.put(0, 0, "⠗⠼⠑")           # r#e
    first.put(2, 3, "⠁")             # three blanks kept before it, none after
    second = Page.blank(geometry)
    second.put(1, 0, "⠺⠊⠖⠼⠙")         # W I 6 # D
    return Document(geometry, [first, second], "Test & <labels>", "en")


def test_paper_sizes_and_custom_millimetres():
    assert (paper("A4").width, paper("A4").height) == (210.0, 297.0)
    assert paper("letter").width == pytest.approx(215.9)
    assert paper("11x11.5in").height == pytest.approx(11.5 * INCH)
    assert paper("11x12in").height == pytest.approx(304.8)
    assert (paper("250x300").width, paper("250x300mm").height) == (250.0, 300.0)
    with pytest.raises(PaperError, match="unknown paper 'b5'"):
        paper("b5")


def test_geometry_counts_cells_and_lines_from_the_paper():
    a4 = Geometry(paper("a4"))
    # (210 - 20 - 2.5) / 6 + 1 cells, (297 - 20 - 5) / 10 + 1 lines
    assert (a4.cells_per_line, a4.lines_per_page) == (32, 28)
    us = Geometry(paper("11x11.5in"), US_LIBRARY, Margins(12.7, 12.7, 12.7, 12.7))
    # (279.4 - 25.4 - 2.3) / 6.1 + 1 cells, (292.1 - 25.4 - 4.6) / 10 + 1 lines
    assert (us.cells_per_line, us.lines_per_page) == (42, 27)
    assert a4.dot_centre(1, 2, 6) == pytest.approx((10 + 12 + 2.5, 10 + 10 + 5))


def test_interpoint_back_swaps_left_and_right_margins():
    geometry = Geometry(paper("a4"), margins=Margins(10, 5, 10, 20), duplex=True)
    assert geometry.cell_origin(0, 0) == (20, 10)
    assert geometry.cell_origin(0, 0, back=True) == (5, 10)


def test_page_refuses_cells_past_its_edge():
    page = Page.blank(Geometry(paper("a4")))
    with pytest.raises(PaperError, match="do not fit"):
        page.put(0, 30, "⠁⠃⠉")


def test_brf_bytes_exact():
    assert brf.document_bytes(small_document()) == (
        b"R#E\r\n\r\n   A\r\n\x0c" b"\r\nWI6#D\r\n\x0c")


cells = st.text(alphabet=[chr(0x2800 + dots) for dots in range(64)], min_size=0, max_size=32)


@settings(max_examples=40, deadline=None)
@given(st.lists(cells, min_size=0, max_size=28))
def test_brf_holds_only_braille_ascii_and_reads_back(lines):
    geometry = Geometry(paper("a4"))
    page = Page.blank(geometry)
    for number, line in enumerate(lines):
        page.put(number, 0, line)
    data = brf.page_bytes(page)
    assert data.endswith(b"\x0c") and data.count(b"\x0c") == 1
    body = data[:-1]
    assert all(0x20 <= byte <= 0x5F for byte in body.replace(b"\r\n", b""))
    read = [ascii_to_cells(text) for text in body.decode("ascii").split("\r\n")[:-1]]
    assert read == page.rows()


def test_pef_bytes_exact():
    expected = "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<pef xmlns="http://www.daisy.org/ns/2008/pef" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" version="2008-1">',
        "<head>", "<meta>",
        "<dc:format>application/x-pef+xml</dc:format>",
        "<dc:identifier>test-1</dc:identifier>",
        "<dc:title>Test &amp; &lt;labels&gt;</dc:title>",
        "<dc:language>en</dc:language>",
        "<dc:date>2026-11-22</dc:date>",
        "<dc:creator>brailledev</dc:creator>",
        "</meta>", "</head>", "<body>",
        '<volume cols="32" rows="28" rowgap="0" duplex="true">',
        "<section>",
        "<page>", "<row>⠗⠼⠑</row>", "<row />", "<row>⠀⠀⠀⠁</row>", "</page>",
        "<page>", "<row />", "<row>⠺⠊⠖⠼⠙</row>", "</page>",
        "</section>", "</volume>", "</body>", "</pef>", ""])
    pef = document_pef(small_document(duplex=True), "test-1", "2026-11-22")
    assert pef == expected.encode("utf-8")


@functools.cache
def pef_schema() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(SCHEMA)))


def assert_valid_pef(data: bytes) -> None:
    schema = pef_schema()
    tree = etree.fromstring(data)
    assert schema.validate(tree), schema.error_log
    # The two Schematron rules of pef-2008-1.sch (rows fit the page, cells fit the row).
    volume = tree.find(".//p:volume", PEF_NS)
    cols, rows = int(volume.get("cols")), int(volume.get("rows"))
    for page in tree.iterfind(".//p:page", PEF_NS):
        page_rows = page.findall("p:row", PEF_NS)
        assert len(page_rows) <= rows
        assert all(len(row.text or "") <= cols for row in page_rows)


def test_pef_of_the_whole_uno_deck_and_a_pad_is_valid_pef_1():
    geometry = Geometry(paper("a4"))
    deck = deck_document(kit("uno").deck_faces("fr"), geometry, kit("uno").card_size(),
                         translator("fr-bfu-comp6.utb"), "Uno", "fr")
    assert_valid_pef(document_pef(deck, "uno-deck"))
    pad = pad_document(kit("domino").pad_sheets("en", 2), Geometry(paper("letter"), duplex=True),
                       translator("en-ueb-g1.ctb"), "Domino", "en")
    assert_valid_pef(document_pef(pad, "domino-pad"))
    assert_valid_pef(document_pef(small_document(), "small"))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.lists(cells, max_size=28), min_size=1, max_size=4), st.booleans(),
       st.sampled_from(["a4", "letter", "11x11.5in"]))
def test_any_document_makes_valid_pef(pages, duplex, name):
    geometry = Geometry(paper(name), duplex=duplex)
    sheets = []
    for lines in pages:
        page = Page.blank(geometry)
        for number, line in enumerate(lines[:geometry.lines_per_page]):
            page.put(number, 0, line)
        sheets.append(page)
    assert_valid_pef(document_pef(Document(geometry, sheets, "t", "fr"), "x", "2026-11-22"))


def test_pef_schema_rejects_a_broken_file():
    broken = document_pef(small_document(), "x").replace(b'rowgap="0" ', b"")
    assert not pef_schema().validate(etree.fromstring(broken))


def test_index_header_bytes_exact():
    job = profile_named("index-everest-d").job(small_document())
    assert job.header == b"\x1bDBT0,LS50,TD0,PN0,MC1,DP1,BI2,CH32,TM1,LP28;"
    assert job.end == b"\x1a"
    # No line end after a page's last line: FF follows it.
    assert job.data() == job.header + b"R#E\r\n\r\n   A\x0c\r\nWI6#D\x0c\x1a"
    duplex = Geometry(paper("letter"), US_LIBRARY, duplex=True)
    header = profile_named("index-basic-d").header(duplex)
    assert header == b"\x1bDBT0,LS50,TD1,PN0,MC1,DP2,BI2,CH32,TM1,LP26;"


def test_enabling_technologies_header_bytes_exact():
    geometry = Geometry(paper("letter"), US_LIBRARY, duplex=True)
    header = profile_named("juliet").header(geometry)
    # US table, 6 dots, no wrap, interpoint, US cell, column 1, right margin at 2 + 32 cells,
    # 11 inches, 1 + 26 lines
    assert header == b"\x1bA@@\x1bK@\x1bW@\x1bi@\x1bs@\x1bLA\x1bRb\x1bTK\x1bQ["


def test_enabling_technologies_pad_the_margins_the_header_counts():
    job = profile_named("romeo").job(small_document())
    # A4: 2 cells of left margin and 1 line of top margin, padded; 2 + 32 cells ('b'),
    # 12 inches ('L'), 1 + 28 lines (']'); Marburg cell ('H'); pages not full end CR LF FF.
    assert job.header.endswith(b"\x1biA\x1bsH\x1bLA\x1bRb\x1bTL\x1bQ]")
    assert job.pages == [b"\r\n  R#E\r\n\r\n     A\r\n\x0c", b"\r\n\r\n  WI6#D\r\n\x0c"]
    assert job.end == b""


def test_braillo_200_header_bytes_exact():
    # As APH's libembosser sends it: S1 J0 N0 R0, then the sheet length in half inches (A4 is
    # 11.7 inches: 24), the cells per line, interpoint or not, no Z-folding.
    job = profile_named("braillo-200").job(small_document())
    assert job.header == b"\x1bS1\x1bJ0\x1bN0\x1bR0\x1bA24\x1bB32\x1bC0\x1bH0"
    assert job.data() == job.header + brf.document_bytes(small_document())
    letter = Geometry(paper("letter"), US_LIBRARY, duplex=True)
    assert profile_named("braillo-200").header(letter) == (
        b"\x1bS1\x1bJ0\x1bN0\x1bR0\x1bA22\x1bB32\x1bC1\x1bH0")
    tall = Geometry(paper("11x12in"), margins=Margins(15, 15, 15, 15))
    # 12 inches are 24 half inches; (279.4 - 30 - 2.5) / 6 + 1 = 42 cells, the most it takes
    assert profile_named("braillo-200").header(tall).endswith(b"\x1bA24\x1bB42\x1bC0\x1bH0")


def test_generic_profile_is_plain_brf():
    job = profile_named("generic").job(small_document())
    assert job.data() == brf.document_bytes(small_document())
    assert job.data(from_page=2) == brf.page_bytes(small_document().pages[1])


@pytest.mark.parametrize(("name", "geometry", "reason"), [
    ("romeo", Geometry(paper("a4"), duplex=True), "one side only"),
    ("index-everest-d", Geometry(paper("320x300")), "130 to 297 mm wide"),
    ("juliet-pro60", Geometry(paper("11x11.5in")),
     "at most 40 cells a line counting its left margin, and 11x11.5in with these margins "
     r"needs 45 \(2 of margin and 43 of braille\)"),
    # Issue 33: BI3 + CH48 is 51 columns, past the Basic-D's 49.
    ("index-basic-d", Geometry(paper("325x300"), margins=Margins(17, 17, 17, 18)),
     "Index Basic-D .* at most 49 cells a line counting its left margin.* needs 51"),
    ("index-everest-d", Geometry(paper("297x300"), margins=Margins(10, 5, 10, 12)),
     "at most 48 cells .* needs 49"),
    ("braillo-200", Geometry(paper("140x200"), margins=Margins(50, 50, 50, 50)),
     "Braillo 200 embosses at least 10 cells a line, and 140x200mm with these margins gives 7"),
    ("romeo-attache", Geometry(paper("a4")), "Romeo Attaché embosses at most 32 cells"),
    ("braillo-200", Geometry(paper("100x200")), "140 to 330 mm wide"),
    ("index-basic-d", Geometry(paper("300x500")), "100 to 432 mm long"),
    ("index-basic-d", Geometry(paper("a4"), CellSize("wide", 8.0, 12.0, 3.9)), "dots 2.2, 2.5"),
    ("index-everest-d", Geometry(paper("a4"), CellSize("airy", 6.0, 13.0, 2.5)),
     "5 or 10 mm between braille lines, not 8.0 mm"),
])
def test_profiles_refuse_jobs_that_do_not_fit(name, geometry, reason):
    document = Document(geometry, [Page.blank(geometry)], "t", "en")
    with pytest.raises(PaperError, match=reason):
        profile_named(name).job(document)


def test_every_profile_takes_a4_with_20_mm_margins_and_ends_a_blank_page_its_way():
    geometry = Geometry(paper("a4"), margins=Margins(20, 20, 20, 20))
    document = Document(geometry, [Page.blank(geometry)], "t", "en")
    # BRF and Index: FF alone; Enabling Technologies and Braillo: an empty line, then FF.
    blank = {"BRF": b"\x0c", "Index V4/V5": b"\x0c", "Enabling Technologies": b"\r\n\x0c",
             "Braillo 200": b"\r\n\x0c"}
    for profile in PROFILES.values():
        expected = b"\n\x0c" if "attache" in profile.name else blank[profile.protocol.name]
        assert profile.job(document).pages == [expected], profile.name


def test_resume_point_must_exist_and_be_a_front_page():
    document = small_document(duplex=True)
    job = profile_named("index-everest-d").job(document)
    with pytest.raises(PaperError, match="outside this job of 2 pages"):
        job.check_start(3, duplex=True)
    with pytest.raises(PaperError, match="resume from page 1"):
        job.check_start(2, duplex=True)
    job.check_start(2, duplex=False)


def test_blank_cells_are_the_unicode_blank():
    assert BLANK == "\u2800"


def test_embossers_that_count_margins_in_cells_get_layouts_in_whole_cells():
    geometry = Geometry(paper("a4"), margins=Margins(13, 10, 10, 10))
    assert profile_named("generic").placed(geometry) == geometry
    for name in ("index-everest-d", "juliet"):
        placed = profile_named(name).placed(geometry)
        assert (placed.margins.left, placed.margins.top) == (12.0, 10.0)
        header = profile_named("index-everest-d").header(placed)
        assert b"BI2," in header and b"TM1," in header
