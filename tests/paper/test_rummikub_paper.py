"""Rummikub on paper: a label for each of the 106 tiles (RUM-1), the display's labels."""

from __future__ import annotations

from collections import Counter

import pytest

from brailledev.programs.cli import main
from layouts.errors import PaperError
from layouts.registry import kit


def test_rum_1_whole_deck_labels_the_106_tiles():
    counts = Counter(kit("rummikub").whole_deck())
    assert sum(counts.values()) == 106
    assert counts["K1"] == counts["Y13"] == 2 and counts["J"] == 2


def test_rum_1_labels_use_each_language_colour_letters():
    english = {face.card: face for face in kit("rummikub").deck_faces("en")}
    french = {face.card: face for face in kit("rummikub").deck_faces("fr")}
    assert [english[c].lines[0] for c in ("K5", "R13", "B1", "Y12", "J")] == [
        "k5", "r13", "b1", "y12", "jk"]
    assert [french[c].lines[0] for c in ("K5", "R13", "B1", "Y12", "J")] == [
        "n5", "r13", "b1", "j12", "jo"]
    assert french["Y12"].caption == "jaune 12" and english["J"].caption == "joker"
    assert english["K1"].caption == "black 1"


def test_replacement_tiles_and_unknown_tile():
    assert kit("rummikub").parse_cards("k5, Y12,j", "en") == ["K5", "Y12", "J"]
    with pytest.raises(PaperError, match="1-13"):
        kit("rummikub").parse_cards("K14", "en")


def test_emboss_command_writes_rummikub_labels(tmp_path):
    out = tmp_path / "tiles.brf"
    assert main(["emboss", "deck", "rummikub", "--lang", "fr", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert data and all(0x20 <= byte <= 0x5F or byte in (10, 12, 13) for byte in data)
