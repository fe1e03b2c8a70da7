"""Elements on paper: labels for the 55 number cards and 5 element cards (ELE-1), and the
score sheet (ELE-7, ELE-8)."""

from __future__ import annotations

import pytest

from brailledev.display.braille import translator
from brailledev.programs.cli import main
from emboss.page import Geometry, paper
from emboss.scorepad import GUIDE, pad_document
from games.elements.cards import Card
from layouts.elements.words import Words, label
from layouts.errors import PaperError
from layouts.registry import kit


def test_ele_1_whole_deck_is_55_number_cards_and_5_element_cards():
    deck = kit("elements").whole_deck()
    assert len(deck) == len(set(deck)) == 60
    assert deck[:11] == [f"r{value}" for value in range(11)]
    assert deck[55:] == ["Er", "Ey", "Eg", "Eb", "Ek"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_labels_are_the_display_labels(lang):
    catalog = Words.load(lang).catalog
    faces = kit("elements").deck_faces(lang)
    shown = [label(card if card.startswith("E") else Card(card[0], int(card[1:])), catalog)
             for card in kit("elements").whole_deck()]
    assert [face.lines[0] for face in faces] == shown
    french = {face.card: face for face in kit("elements").deck_faces("fr")}
    assert french["y7"].lines == ("j7",) and french["y7"].caption == "jaune 7"
    assert french["Ek"].lines == ("én",) and french["Ek"].caption == "élément noir"
    english = {face.card: face for face in kit("elements").deck_faces("en")}
    assert english["Ek"].lines == ("ek",) and english["Ek"].caption == "black element"


def test_replacement_set_and_unknown_card():
    assert kit("elements").parse_cards("r7, k10,Eb", "en") == ["r7", "k10", "Eb"]
    with pytest.raises(PaperError, match="0-10"):
        kit("elements").parse_cards("r11", "en")


@pytest.mark.parametrize(("lang", "table", "heads", "total"), [
    ("en", "en-ueb-g1.ctb", ["hd", "p1", "p2", "p3", "p4"], "tot"),
    ("fr", "fr-bfu-comp6.utb", ["mc", "j1", "j2", "j3", "j4"], "tot")])
def test_ele_8_score_sheet_a_row_per_hand_and_a_total(lang, table, heads, total):
    louis = translator(table)
    document = pad_document(kit("elements").pad_sheets(lang, 4), Geometry(paper("a4")), louis,
                            "Elements", lang)
    rows = document.pages[0].rows()
    assert "Elements" in louis.back(rows[0])
    assert [louis.back(part.strip("\u2800")) for part in rows[1].split(GUIDE)[:-1]] == heads
    hands = [louis.back(row.split(GUIDE)[0].strip("\u2800")) for row in rows[2:7]]
    assert hands == ["1", "2", "3", "4", total]


def test_emboss_command_writes_elements_labels(tmp_path):
    out = tmp_path / "labels.brf"
    assert main(["emboss", "deck", "elements", "--cards", "y7,Eb", "--lang", "fr",
                 "--out", str(out)]) == 0
    data = out.read_bytes()
    assert data and all(0x20 <= byte <= 0x5F or byte in (10, 12, 13) for byte in data)
