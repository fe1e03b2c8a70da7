"""Whole jobs, byte for byte, against APH's libembosser (github.com/aphtech/libembosser).

Each expected byte string is the one a libembosser test asserts for the same settings (cells
a line, lines a page, margins, sheet length, sides), written out here as a fact; the comment
over each case names the libembosser test case it mirrors. Where our bytes differ from that
case the difference is spelled out in the test and said why it is ours.

The documents are built on paper whose geometry gives libembosser's numbers exactly (e.g. 40
cells and 25 lines with no margins); the ASCII braille of the cases is read back into cells,
so what is compared is what our profiles make of a page.
"""

from __future__ import annotations

import pytest

from brailledev.display.braille import ascii_to_cells
from emboss.embossers import PROFILES, profile_named, sheet_inches
from emboss.page import MARBURG_MEDIUM, US_LIBRARY, Document, Geometry, Margins, Page, Paper

# libembosser's multiLineDocumentInput, multiPageDocumentInput and basic document, as BRF.
THREE_LINES = [",! F/ L9E4", ",SECOND L9E4", ",A ?IRD L9E4"]
TWO_PAGES = [["F/ PAGE"], ["SECOND PAGE"]]
TEST_DOCUMENT = [",A TE/ DOCU;T4"]


def document(geometry: Geometry, pages: list[list[str]]) -> Document:
    """Pages of BRF lines (an empty list: a page without braille) on ``geometry``."""
    sheets = []
    for lines in pages:
        page = Page.blank(geometry)
        for number, text in enumerate(lines):
            page.put(number, 0, ascii_to_cells(text))
        sheets.append(page)
    return Document(geometry, sheets, "golden", "en")


def job_bytes(name: str, geometry: Geometry, pages: list[list[str]], from_page: int = 1) -> bytes:
    return profile_named(name).job(document(geometry, pages)).data(from_page)


# ---- Enabling Technologies (ESC letter settings, numbers from '@') --------------------------

# libembosser's ET header for P1ONLY, the NLS cell and column 1 as the left margin: the values
# of ESC R (right margin column), ESC T (inches) and ESC Q (lines) vary by case.
ET_HEADER = "\x1bA@@\x1bK@\x1bW@\x1bi{sides}\x1bs@\x1bLA\x1bR{right}\x1bT{inches}\x1bQ{lines}"


def et_header(right: str, inches: str, lines: str, sides: str = "A") -> bytes:
    return ET_HEADER.format(sides=sides, right=right, inches=inches, lines=lines).encode()


def us_paper(width: float, cells_right: float, bottom: float, top: float = 0.0,
             left: float = 0.0, duplex: bool = False) -> Geometry:
    """11-inch US-cell paper; the right and bottom margins set the cells and lines."""
    return Geometry(Paper("golden", width, 11 * 25.4), US_LIBRARY,
                    Margins(top, cells_right, bottom, left), duplex)


# 40 cells (ESC R 'h'), 25 lines (ESC Q 'Y'), 11 inches (ESC T 'K'), no margins.
ET_40_25 = us_paper(250, 7, 30)
# Every older ET model takes a 40-cell line; romeo embosses one side only.
OLDER_ET = ["romeo", "juliet", "juliet-pro60"]


def test_the_et_geometries_give_libembossers_numbers():
    assert (ET_40_25.cells_per_line, ET_40_25.lines_per_page) == (40, 25)
    margins = us_paper(280, 20, 10, top=20, left=18.3)
    assert (margins.cells_per_line, margins.lines_per_page) == (40, 25)


@pytest.mark.parametrize("name", OLDER_ET)
def test_et_page_not_full(name):
    # Mirrors EnablingTechnologiesDocumentHandlerTest.handlerProvider, multiLineDocumentInput
    # with Model.JULIET_CLASSIC: lines joined by CR LF, the page ends CR LF FF, no job end.
    expected = et_header("h", "K", "Y") + b",! F/ L9E4\r\n,SECOND L9E4\r\n,A ?IRD L9E4\r\n\x0c"
    assert job_bytes(name, ET_40_25, [THREE_LINES]) == expected


@pytest.mark.parametrize("name", OLDER_ET)
def test_et_full_page_ends_with_cr_lf_only(name):
    # Mirrors handlerProvider "Only EOL on a full page, no EOP" (setLinesPerPage(3)): a page
    # of 3 lines out of 3 ends CR LF, no FF. That case runs on Model.PHOENIX_GOLD, which ends a
    # job with SUB; the older Romeo and Juliet end with nothing (libembosser's Model table and
    # its JULIET_CLASSIC cases), so the SUB is left out here.
    phoenix = et_header("h", "K", "C") + b",! F/ L9E4\r\n,SECOND L9E4\r\n,A ?IRD L9E4\r\n\x1a"
    assert job_bytes(name, us_paper(250, 7, 250), [THREE_LINES]) == phoenix[:-1]
    # Mirrors intPropertyProvider's setPageLength case on JULIET_CLASSIC (top margin 0, one
    # line a page, 11 inches): "A" then the line end alone.
    one_line = us_paper(250, 7, 270)
    assert one_line.lines_per_page == 1
    assert job_bytes(name, one_line, [["A"]]) == et_header("h", "K", "A") + b"A\r\n"


@pytest.mark.parametrize("name", ["juliet", "juliet-pro60"])
def test_et_interpoint_blank_back(name):
    # Mirrors duplexModeProvider, Layout.INTERPOINT (ESC i '@'): one page of braille, then
    # CR LF FF again for its blank back. Model.PHOENIX_GOLD's SUB is left out (see above).
    phoenix = et_header("h", "K", "Y", sides="@") + b",TE/ DOCU;T\r\n\x0c\r\n\x0c\x1a"
    duplex = us_paper(250, 7, 30, duplex=True)
    # The back is ours (a score pad's blank page) or completed by the job: the same bytes.
    assert job_bytes(name, duplex, [[",TE/ DOCU;T"], []]) == phoenix[:-1]
    assert job_bytes(name, duplex, [[",TE/ DOCU;T"]]) == phoenix[:-1]


def test_et_margins_are_padded_and_counted_in_esc_r_and_esc_q():
    # Mirrors handlerProvider "Tests for adding/padding margins" (setLeftMargin(3),
    # setTopMargin(2)): ESC L stays at column 1, ESC R is 3 + 40 = 43 ('k'), ESC Q 2 + 25 = 27
    # ('['), and every page starts with 2 blank lines and every line with 3 spaces. Its SUB
    # (Model.PHOENIX_GOLD) is left out: the Juliet Classic ends with nothing.
    phoenix = (et_header("k", "K", "[") + b"\r\n\r\n   F/ PAGE\r\n\x0c"
               b"\r\n\r\n   SECOND PAGE\r\n\x0c\x1a")
    margins = us_paper(280, 20, 10, top=20, left=18.3)
    assert job_bytes("juliet", margins, TWO_PAGES) == phoenix[:-1]


@pytest.mark.parametrize("name", OLDER_ET)
def test_et_resume_from_page_2_and_the_job_end(name):
    # Mirrors PageFilterTest (pages outside the range dropped, the rest formatted as usual)
    # over handlerProvider's multiPageDocumentInput: header, page 2, the job end (nothing on
    # the Juliet Classic; the case's Model.PHOENIX_GOLD adds SUB).
    whole = et_header("h", "K", "Y") + b"F/ PAGE\r\n\x0cSECOND PAGE\r\n\x0c"
    assert job_bytes(name, ET_40_25, TWO_PAGES) == whole
    assert job_bytes(name, ET_40_25, TWO_PAGES, from_page=2) == (
        et_header("h", "K", "Y") + b"SECOND PAGE\r\n\x0c")


@pytest.mark.parametrize("name", ["romeo-attache", "romeo-attache-pro"])
def test_romeo_attache_ends_lines_with_lf(name):
    # Mirrors handlerProvider, multiLineDocumentInput with Model.ROMEO_ATTACHE: LF between
    # lines, LF FF after the page, no job end; ESC R '`' is 32 cells, its longest line.
    attache = us_paper(200, 5, 30)
    assert attache.cells_per_line == 32
    expected = et_header("`", "K", "Y") + b",! F/ L9E4\n,SECOND L9E4\n,A ?IRD L9E4\n\x0c"
    assert job_bytes(name, attache, [THREE_LINES]) == expected
    # A full page ends with the line end alone, as on every ET model (Model.getLineEnd).
    full = us_paper(200, 5, 250)
    assert job_bytes(name, full, [THREE_LINES]) == (
        et_header("`", "K", "C") + b",! F/ L9E4\n,SECOND L9E4\n,A ?IRD L9E4\n")


@pytest.mark.parametrize(("height", "inches"), [
    (279.4, 11),          # Letter: 11 inches exactly
    (266.7, 11),          # 10.5 inches: up, not to the even 10
    (254.0 + 0.5, 10),    # half a mm over 10 inches is still 10
    (254.0 + 0.6, 11),    # past it: 11, so every line fits
    (297.0, 12),          # A4: 11.69 inches
])
def test_et_form_length_rounds_up_past_half_a_mm(height, inches):
    # As EnablingTechnologiesEmbosser.createHandler rounds the paper height to inches.
    assert sheet_inches(height) == inches
    geometry = Geometry(Paper("tall", 250, height), US_LIBRARY)
    assert f"\x1bT{chr(0x40 + inches)}".encode() in profile_named("juliet").header(geometry)


# ---- Index (one ESC D sequence of settings) -----------------------------------------------

INDEX_HEADER = "\x1bDBT0,LS50,TD0,PN0,MC1,DP{sides},BI{bi},CH{ch},TM{tm},LP{lp};"


def index_header(lp: int = 25, bi: int = 0, ch: int = 40, tm: int = 0, sides: int = 1) -> bytes:
    return INDEX_HEADER.format(sides=sides, bi=bi, ch=ch, tm=tm, lp=lp).encode()


NO_MARGINS = Margins(0, 0, 0, 0)


def marburg_paper(width: float, height: float, margins: Margins = NO_MARGINS,
                  duplex: bool = False) -> Geometry:
    return Geometry(Paper("golden", width, height), MARBURG_MEDIUM, margins, duplex)


# 40 cells, 25 lines, no margins: libembosser's IndexBrailleDocumentHandler defaults.
INDEX_40_25 = marburg_paper(240, 250)
INDEX_MODELS = ["index-basic-d", "index-everest-d", "index-braillebox", "index-fanfold-d",
                "juliet-120", "romeo-60"]
INDEX_INTERPOINT = [name for name in INDEX_MODELS if PROFILES[name].interpoint]


def test_the_index_geometries_give_libembossers_numbers():
    assert (INDEX_40_25.cells_per_line, INDEX_40_25.lines_per_page) == (40, 25)
    assert marburg_paper(240, 250, Margins(0, 0, 220, 0)).lines_per_page == 3
    margins = marburg_paper(260, 280, Margins(20, 4, 10, 18))
    assert (margins.cells_per_line, margins.lines_per_page) == (40, 25)


@pytest.mark.parametrize("name", INDEX_MODELS)
def test_index_page_not_full_and_the_job_end(name):
    # Mirrors IndexBrailleDocumentHandlerTest.handlerProvider, multiLineDocumentInput with the
    # builder's defaults: no line end after the last line, FF, then SUB ends the job.
    expected = index_header() + b",! F/ L9E4\r\n,SECOND L9E4\r\n,A ?IRD L9E4\x0c\x1a"
    assert job_bytes(name, INDEX_40_25, [THREE_LINES]) == expected
    # The minimalDocumentInput case: a page without braille is FF alone.
    assert job_bytes(name, INDEX_40_25, [[]]) == index_header() + b"\x0c\x1a"


@pytest.mark.parametrize("name", INDEX_MODELS)
def test_index_full_page_ends_with_ff(name):
    # Mirrors handlerProvider with setLinesPerPage(3): 3 lines out of 3, then FF (Index
    # gets a page end on a full page too), then SUB.
    three = marburg_paper(240, 250, Margins(0, 0, 220, 0))
    assert job_bytes(name, three, [THREE_LINES]) == (
        index_header(lp=3) + b",! F/ L9E4\r\n,SECOND L9E4\r\n,A ?IRD L9E4\x0c\x1a")


@pytest.mark.parametrize("name", INDEX_INTERPOINT)
def test_index_interpoint_blank_back(name):
    # Mirrors paperModeProvider, Layout.INTERPOINT: DP2, the page, FF for its blank back, SUB.
    expected = index_header(sides=2) + b",A TE/ DOCU;T4\x0c\x0c\x1a"
    duplex = marburg_paper(240, 250, duplex=True)
    assert job_bytes(name, duplex, [TEST_DOCUMENT, []]) == expected
    assert job_bytes(name, duplex, [TEST_DOCUMENT]) == expected


@pytest.mark.parametrize("name", INDEX_MODELS)
def test_index_margins_are_sent_not_padded(name):
    # Mirrors handlerProvider "Tests for margins" (setLeftMargin(3), setTopMargin(2)): BI3 and
    # TM2 in the header, the pages as they are.
    margins = marburg_paper(260, 280, Margins(20, 4, 10, 18))
    assert job_bytes(name, margins, TWO_PAGES) == (
        index_header(bi=3, tm=2) + b"F/ PAGE\x0cSECOND PAGE\x0c\x1a")


@pytest.mark.parametrize("name", INDEX_MODELS)
def test_index_resume_from_page_2(name):
    # Mirrors PageFilterTest over handlerProvider's multiPageDocumentInput: header, page 2,
    # SUB.
    assert job_bytes(name, INDEX_40_25, TWO_PAGES) == (
        index_header() + b"F/ PAGE\x0cSECOND PAGE\x0c\x1a")
    assert job_bytes(name, INDEX_40_25, TWO_PAGES, from_page=2) == (
        index_header() + b"SECOND PAGE\x0c\x1a")


# ---- Braillo 200 protocol (ESC letter settings, two-digit numbers) ------------------------

BRAILLO_MODELS = ["braillo-200", "braillo-400s", "braillo-400sr", "braillo-600",
                  "braillo-600sr"]
# 40 cells, 27 lines: an 11-inch sheet as Braillo200DocumentHandler counts it (11 x 2.54).
BRAILLO_40_27 = marburg_paper(250, 11 * 25.4, Margins(5, 5, 5, 5))


def braillo_header(sides: int = 0) -> bytes:
    # Braillo200DocumentHandler's header for 11 inches (A22), 40 cells (B40), no Z-folding.
    return b"\x1bS1\x1bJ0\x1bN0\x1bR0\x1bA22\x1bB40\x1bC%d\x1bH0" % sides


def test_the_braillo_geometry_gives_libembossers_numbers():
    assert (BRAILLO_40_27.cells_per_line, BRAILLO_40_27.lines_per_page) == (40, 27)


@pytest.mark.parametrize("name", BRAILLO_MODELS)
def test_braillo_page_not_full_and_the_job_end(name):
    # Mirrors AbstractBrailloDocumentHandlerTest.basicAndCopiesProvider (copies 1): the page
    # ends CR LF FF and nothing ends the job; the header as testHeader and
    # testSettingZfolding (ESC H0) check it.
    assert job_bytes(name, BRAILLO_40_27, [["A TE/"]]) == braillo_header() + b"A TE/\r\n\x0c"


# Braillo200DocumentHandlerTest.validSheetLengthProvider's 36 lines; a sheet of 11 inches
# holds the first 27.
SHEET_LINES = [a + b for a in " A1B'K" for b in " A1B'K"]


@pytest.mark.parametrize("name", BRAILLO_MODELS)
def test_braillo_full_page_ends_with_cr_lf_ff(name):
    # Mirrors validSheetLengthProvider at 11 inches: the page's 27 lines joined by CR LF, then
    # CR LF FF (a full page gets the page end on a Braillo). libembosser sends each line as
    # given, trailing blank cells included ("A ", "  "); we drop trailing blank cells (they
    # emboss nothing), so its lines are compared with theirs stripped.
    theirs = "\r\n".join(SHEET_LINES[:27]) + "\r\n\x0c"
    ours = "\r\n".join(line.rstrip(" ") for line in SHEET_LINES[:27]) + "\r\n\x0c"
    assert theirs != ours
    page = document(BRAILLO_40_27, [SHEET_LINES[:27]])
    assert page.pages[0].rows()[-1] == ascii_to_cells(SHEET_LINES[26])
    assert job_bytes(name, BRAILLO_40_27, [SHEET_LINES[:27]]) == braillo_header() + ours.encode()


@pytest.mark.parametrize("name", BRAILLO_MODELS)
def test_braillo_interpoint_blank_backs(name):
    # Mirrors Braillo200DocumentHandlerTest.interPointProvider (interpoint): pages A, a blank
    # back, B, C, D and the blank back the job completes, each ending CR LF FF; ESC C1.
    duplex = marburg_paper(250, 11 * 25.4, Margins(5, 5, 5, 5), duplex=True)
    expected = braillo_header(sides=1) + b"A\r\n\x0c\r\n\x0cB\r\n\x0cC\r\n\x0cD\r\n\x0c\r\n\x0c"
    assert job_bytes(name, duplex, [["A"], [], ["B"], ["C"], ["D"]]) == expected
    # basicAndCopiesProvider, interpoint, one copy: the page and its blank back.
    assert job_bytes(name, duplex, [["A TE/"]]) == (
        braillo_header(sides=1) + b"A TE/\r\n\x0c\r\n\x0c")


@pytest.mark.parametrize("name", BRAILLO_MODELS)
def test_braillo_resume_from_page_2(name):
    # Mirrors PageFilterTest over basicAndCopiesProvider's two pages ("AB", "BC").
    assert job_bytes(name, BRAILLO_40_27, [["AB"], ["BC"]]) == (
        braillo_header() + b"AB\r\n\x0cBC\r\n\x0c")
    assert job_bytes(name, BRAILLO_40_27, [["AB"], ["BC"]], from_page=2) == (
        braillo_header() + b"BC\r\n\x0c")
