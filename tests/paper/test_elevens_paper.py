"""Elevens on paper: labels for every card of the box (ELV-1) and the score sheet (ELV-11)."""

from __future__ import annotations

from collections import Counter

import pytest

from brailledev.display.braille import translator
from brailledev.programs.cli import main
from emboss.page import Geometry, paper
from emboss.scorepad import GUIDE, pad_document
from layouts.errors import PaperError
from layouts.registry import kit


def test_elv_1_whole_deck_labels_every_card_of_the_box():
    counts = Counter(kit("elevens").whole_deck())
    assert sum(counts.values()) == 84 + 4 + 15 + 7
    assert counts["r11"] == counts["b21"] == counts["y1"] == 1
    assert (counts["*"], counts["L"], counts["bonus"]) == (4, 15, 7)


def test_labels_are_the_display_labels_in_each_language():
    english = {face.card: face for face in kit("elevens").deck_faces("en")}
    french = {face.card: face for face in kit("elevens").deck_faces("fr")}
    assert [english[c].lines[0] for c in ("r5", "y12", "g21", "*", "L", "bonus")] == [
        "r5", "y12", "g21", "*", "li", "11"]
    assert [french[c].lines[0] for c in ("r5", "y12", "g21", "b1")] == ["r5", "j12", "v21", "b1"]
    assert french["y12"].caption == "jaune 12" and english["L"].caption == "link card"
    assert french["bonus"].caption == "carte bonus 11" and english["*"].caption == "joker"


def test_replacement_set_and_unknown_card():
    assert kit("elevens").parse_cards("r5, *, L,bonus", "en") == ["r5", "*", "L", "bonus"]
    with pytest.raises(PaperError, match="1-21"):
        kit("elevens").parse_cards("r22", "en")


@pytest.mark.parametrize(("lang", "table", "heads"), [
    ("en", "en-ueb-g1.ctb", ["gm", "p1", "p2", "p3"]),
    ("fr", "fr-bfu-comp6.utb", ["pt", "j1", "j2", "j3"])])
def test_elv_11_score_sheet_a_game_per_row_and_the_box_points(lang, table, heads):
    louis = translator(table)
    document = pad_document(kit("elevens").pad_sheets(lang, 3), Geometry(paper("a4")), louis,
                            "Elevens", lang)
    rows = document.pages[0].rows()
    assert "Elevens" in louis.back(rows[0])
    assert [louis.back(part.strip("\u2800")) for part in rows[1].split(GUIDE)[:-1]] == heads
    footer = louis.back("".join(rows[-3:]))
    assert "+11" in footer and "-11" in footer


def test_emboss_command_writes_elevens_labels(tmp_path):
    out = tmp_path / "labels.brf"
    assert main(["emboss", "deck", "elevens", "--cards", "y12,*", "--lang", "fr",
                 "--out", str(out)]) == 0
    data = out.read_bytes()
    assert data and all(0x20 <= byte <= 0x5F or byte in (10, 12, 13) for byte in data)
