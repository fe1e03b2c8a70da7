"""Score pads: the Domino pad of DOM-8 from the box data, and the Uno and Rummikub sheets."""

from __future__ import annotations

from dataclasses import replace

import pytest

from brailledev.display.braille import translator
from brailledev.programs.pad import blank_book
from emboss.page import Geometry, paper
from emboss.scorepad import GUIDE, pad_document
from games.pads import EnterRound, RoundsBook, play
from layouts.catalog import rules_data
from layouts.errors import PaperError, UnknownName
from layouts.registry import kit


def boxes(louis, row: str) -> list[str]:
    """The printed contents of each box of a braille row, back-translated."""
    return [louis.back(part.strip("\u2800")) for part in row.split(GUIDE)[:-1]]


@pytest.mark.parametrize(("lang", "table", "words"), [
    ("en", "en-ueb-g1.ctb", ["10", "11", "12", "bonus", "total"]),
    ("fr", "fr-bfu-comp6.utb", ["10", "11", "12", "prime", "total"]),
])
def test_dom_8_pad_columns_rows_and_bonuses_from_the_box_data(lang, table, words):
    louis = translator(table)
    pad = rules_data("domino")["pad"]
    document = pad_document(kit("domino").pad_sheets(lang, 3), Geometry(paper("a4")), louis,
                            "Domino", lang)
    assert len(document.pages) == 3                       # one sheet per player
    for seat, page in enumerate(document.pages):
        rows = page.rows()
        title = louis.back(rows[0])
        assert "10-11-12" in title and title.endswith(str(seat + 1))
        assert boxes(louis, rows[1]) == words
        body = rows[2:2 + pad["rows"]]
        assert len(body) == pad["rows"] == 20
        for row, bonus in zip(body, pad["row_bonus"], strict=True):
            assert boxes(louis, row) == ["", "", "", str(bonus), ""]
        assert str(pad["super_bonus"]) in louis.back("".join(rows[2 + pad["rows"]:]))


def test_dom_8_pad_follows_a_box_with_other_rows(monkeypatch):
    import layouts.kit

    data = rules_data("domino")
    data["pad"]["rows"] = 3
    data["pad"]["row_bonus"] = [7, 8, 9]
    monkeypatch.setattr(layouts.kit, "rules_data", lambda game: data)
    louis = translator("en-ueb-g1.ctb")
    page = pad_document(kit("domino").pad_sheets("en", 1), Geometry(paper("a4")), louis,
                        "Domino", "en").pages[0]
    assert [boxes(louis, row)[3] for row in page.rows()[2:5]] == ["7", "8", "9"]


def test_uno_sheet_counts_rounds_to_the_match_target():
    louis = translator("en-ueb-g1.ctb")
    geometry = Geometry(paper("a4"))
    page = pad_document(kit("uno").pad_sheets("en", 4), geometry, louis, "Uno", "en").pages[0]
    rows = page.rows()
    assert "500" in louis.back(rows[0])
    assert boxes(louis, rows[1]) == ["rd", "p1", "p2", "p3", "p4"]
    numbered = [boxes(louis, row)[0] for row in rows[2:] if GUIDE in row]
    assert numbered == [str(n) for n in range(1, len(numbered) + 1)]
    assert len(rows) == geometry.lines_per_page          # the page is filled with rounds


def test_rummikub_sheet_in_french():
    louis = translator("fr-bfu-comp6.utb")
    page = pad_document(kit("rummikub").pad_sheets("fr", 3), Geometry(paper("letter")), louis,
                        "Rummikub", "fr", copies=2).pages[1]
    assert louis.back(page.rows()[0]).lower().startswith("rummikub")
    assert boxes(louis, page.rows()[1]) == ["mc", "j1", "j2", "j3"]


def test_interpoint_pad_keeps_a_blank_back_per_sheet():
    document = pad_document(kit("domino").pad_sheets("en", 2), Geometry(paper("a4"), duplex=True),
                            translator("en-ueb-g1.ctb"), "Domino", "en")
    assert len(document.pages) == 4
    assert document.pages[1].rows() == [] and document.pages[3].rows() == []


def test_sheet_too_wide_for_the_paper_says_why():
    with pytest.raises(PaperError, match="choose larger paper or fewer players"):
        pad_document(kit("uno").pad_sheets("en", 9), Geometry(paper("a4")),
                     translator("en-ueb-g1.ctb"), "Uno", "en")


def test_unknown_pad_and_bad_counts_are_refused():
    with pytest.raises(UnknownName, match="unknown game 'chess'"):
        kit("chess")
    with pytest.raises(PaperError, match="no score pad for uno yet; brailledev emboss scorepad "
                                         "--help lists the games that have one"):
        replace(kit("uno"), pad=None).pad_sheets("en", 2)
    with pytest.raises(PaperError, match="--players 0"):
        kit("uno").pad_sheets("en", 0)
    with pytest.raises(PaperError, match="--sheets 0"):
        pad_document([], Geometry(paper("a4")), translator("en-ueb-g1.ctb"), "x", "en", 0)


def test_dom_8_preview_says_which_row_and_its_bonus():
    page = pad_document(kit("domino").pad_sheets("fr", 1), Geometry(paper("a4")),
                        translator("fr-bfu-comp6.utb"), "Domino", "fr").pages[0]
    texts = [caption.text for caption in page.captions]
    assert "ligne 1, prime 1" in texts and "ligne 20, prime 5" in texts
    assert texts[0] == "Domino 10-11-12, joueur 1"


@pytest.mark.parametrize(("game", "rounds", "total"), [
    ("uno", [(1, ((12,), (), (40,))), (0, ((), (8,), (20,)))], "total"),
    ("rummikub", [(2, ((15,), (42,), ()))], "total"),
    ("elevens", [(None, ((1, 20, 0), (0, 35, 2), (2, 0, 0)))], "total"),
    ("elements", [(None, ((5,), (12,), (0,))), (None, ((9,), (3,), (7,)))], "tot"),
])
def test_a_filled_round_sheet_holds_every_round_and_the_totals(game, rounds, total):
    book = blank_book(game, 3)
    for winner, values in rounds:
        book, _ = play(book, EnterRound(winner, values))
    assert isinstance(book, RoundsBook)
    [sheet] = kit(game).pad_sheets("en", 3, book)
    expected = [[str(number), *map(str, scores)]
                for number, scores in enumerate(book.round_scores(), start=1)]
    assert [list(row) for row in sheet.rows] == [*expected, [total, *map(str, book.totals())]]
    louis = translator("en-ueb-g1.ctb")
    page = pad_document([sheet], Geometry(paper("a4")), louis, game, "en").pages[0]
    read = [boxes(louis, row) for row in page.rows() if GUIDE in row]
    assert read[-1] == [total, *map(str, book.totals())]
    assert read[1:-1] == expected
