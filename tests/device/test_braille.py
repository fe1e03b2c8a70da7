"""liblouis translation with the real installed tables, and the cell encodings."""

from __future__ import annotations

import re
from pathlib import Path

import louis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.display.braille import (
    BLANK,
    CONTRACTED_TABLES,
    DEFAULT_TABLES,
    Translator,
    UnknownBrailleTable,
    ascii_to_cells,
    available_tables,
    cell_to_dots,
    cells_to_ascii,
    dots_to_cell,
    dots_to_numbers,
    numbers_to_dots,
    table_for,
    translator,
)
from layouts.catalog import Catalog
from layouts.errors import UserError

FOUR_TABLES = ("fr-bfu-comp6.utb", "en-ueb-g1.ctb", "fr-bfu-g2.ctb", "en-ueb-g2.ctb")
BRF_ORDER = " A1B'K2L@CIF/MSP\"E3H9O6R^DJG>NTQ,*5<-U8V.%[$+X!&;:4\\0Z7(_?W]#Y)="


def uno_labels() -> list[str]:
    """Every Uno card label of both languages, as the display shows them."""
    labels = {"r5", "r+2", "wi+4", "jk+4", "rinv"}
    for lang in ("en", "fr"):
        cards = dict(Catalog.load("uno", lang).section("cards"))
        prefixes = cards.pop("colour_prefix")
        for code, label in cards.items():
            if code.startswith("wi"):
                labels.add(label)
            else:
                labels.update(prefix + label for prefix in prefixes.values())
    return sorted(labels)


def assert_maps_complete(braille_text: str, table: str) -> None:
    braille = translator(table).translate(braille_text)
    assert len(braille.to_text) == len(braille.cells)
    assert len(braille.to_cells) == len(braille_text)
    assert list(braille.to_text) == sorted(braille.to_text)
    assert list(braille.to_cells) == sorted(braille.to_cells)
    assert all(0 <= i < len(braille_text) for i in braille.to_text)
    assert all(0 <= i < len(braille.cells) for i in braille.to_cells)
    # Every character that produced cells is reached from one of them.
    if braille.cells:
        assert braille.to_text[0] == 0 and braille.to_cells[0] == 0


@pytest.mark.parametrize("table", FOUR_TABLES)
def test_uno_labels_round_trip_in_all_four_tables(table: str) -> None:
    t = translator(table)
    for label in uno_labels():
        braille = t.translate(label)
        assert braille.cells, label
        assert all(0x2800 <= ord(cell) <= 0x28FF for cell in braille.cells)
        assert t.back(braille.cells) == label, (table, label, braille.cells)
        assert_maps_complete(label, table)


def test_known_cells_of_labels() -> None:
    assert translator("fr-bfu-comp6.utb").translate("r5").cells == "⠗⠠⠱"
    assert translator("en-ueb-g1.ctb").translate("r5").cells == "⠗⠼⠑"
    braille = translator("en-ueb-g1.ctb").translate("r+2")
    assert braille.cells == "⠗⠐⠖⠼⠃"
    assert braille.to_text == (0, 1, 1, 2, 2)
    assert braille.to_cells == (0, 1, 3)


def test_contracted_maps_point_every_cell_to_a_character() -> None:
    braille = translator("fr-bfu-g2.ctb").translate("Joueur 2: 7 cartes")
    assert len(braille.cells) < len(braille.text)
    assert_maps_complete("Joueur 2: 7 cartes", "fr-bfu-g2.ctb")


def test_empty_text_has_no_cells() -> None:
    braille = translator("en-ueb-g1.ctb").translate("")
    assert (braille.cells, braille.to_text, braille.to_cells) == ("", (), ())
    assert translator("en-ueb-g1.ctb").back("") == ""


def test_defaults_by_language() -> None:
    assert table_for("fr") == "fr-bfu-comp6.utb" == DEFAULT_TABLES["fr"]
    assert table_for("en") == "en-ueb-g1.ctb"
    assert table_for("fr", contracted=True) == "fr-bfu-g2.ctb" == CONTRACTED_TABLES["fr"]
    assert table_for("en", contracted=True) == "en-ueb-g2.ctb"
    assert table_for("de") == "de-g0.utb"
    assert table_for("de", contracted=True) == "de-g2.ctb"
    with pytest.raises(UserError, match="'es'"):
        table_for("es")


def test_every_offered_table_loads_and_defaults_are_offered() -> None:
    names = [table.name for table in available_tables()]
    assert set(DEFAULT_TABLES.values()) | set(CONTRACTED_TABLES.values()) <= set(names)
    for name in names:
        assert Translator(name).translate("r5").cells


def test_unknown_table_is_one_sentence_naming_it_and_the_choices(
        capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnknownBrailleTable) as caught:
        Translator("klingon-g9.ctb")
    message = str(caught.value)
    assert "'klingon-g9.ctb'" in message
    assert "fr-bfu-comp6.utb" in message and "en-ueb-g2.ctb" in message
    assert message.count(".") >= 1 and "\n" not in message
    # liblouis's own compile errors are not printed on top of our sentence.
    assert "klingon" not in capfd.readouterr().err


def test_other_installed_tables_are_selectable() -> None:
    assert Translator("de-g1.ctb").back(Translator("de-g1.ctb").translate("ab").cells) == "ab"


def test_translator_is_shared_per_table() -> None:
    assert translator("en-ueb-g1.ctb") is translator("en-ueb-g1.ctb")


def test_dots_and_cells() -> None:
    assert dots_to_cell(0) == BLANK
    assert dots_to_cell(0b101) == "⠅"
    assert dots_to_cell(0xFF) == "⣿"
    assert cell_to_dots("⣿") == 0xFF
    assert numbers_to_dots("125") == 0b10011
    assert dots_to_numbers(0b10011) == "125"
    assert numbers_to_dots("") == 0 and dots_to_numbers(0) == ""
    for dots in range(256):
        assert cell_to_dots(dots_to_cell(dots)) == dots
        assert numbers_to_dots(dots_to_numbers(dots)) == dots
    with pytest.raises(ValueError):
        dots_to_cell(256)
    with pytest.raises(ValueError):
        cell_to_dots("a")
    with pytest.raises(ValueError):
        numbers_to_dots("19")


def test_braille_ascii_matches_the_standard_order() -> None:
    cells = "".join(dots_to_cell(dots) for dots in range(64))
    assert cells_to_ascii(cells) == BRF_ORDER
    assert ascii_to_cells(BRF_ORDER) == cells
    assert ascii_to_cells(BRF_ORDER.lower()) == cells


def test_braille_ascii_agrees_with_liblouis_display_table_file() -> None:
    path = Path("/usr/share/liblouis/tables/en-us-brf.dis")
    pairs = re.findall(r"^display (\S+) (\d+)$", path.read_text(), re.MULTILINE)
    assert len(pairs) == 64
    for char, numbers in pairs:
        char = {"\\s": " ", "\\\\": "\\"}.get(char, char)
        assert cells_to_ascii(dots_to_cell(numbers_to_dots(numbers.strip("0")))) == char


def test_braille_ascii_of_a_translated_label_equals_liblouis_brf_output() -> None:
    for text in ("r+2 wi+4", "Joueur 2"):
        cells = translator("en-ueb-g1.ctb").translate(text).cells
        assert cells_to_ascii(cells) == louis.translateString(
            ["en-us-brf.dis", "en-ueb-g1.ctb"], text)


def test_braille_ascii_refuses_what_it_cannot_hold() -> None:
    with pytest.raises(ValueError, match="dots 7-8"):
        cells_to_ascii(dots_to_cell(0b1000001))
    with pytest.raises(ValueError, match="braille ASCII"):
        ascii_to_cells("é")
    with pytest.raises(ValueError, match="braille ASCII"):
        ascii_to_cells("~")


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789+ :", max_size=30),
       st.sampled_from(FOUR_TABLES))
def test_position_maps_are_monotone_and_complete(text: str, table: str) -> None:
    assert_maps_complete(text, table)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="".join(chr(0x2800 + d) for d in range(64)), max_size=40))
def test_ascii_round_trip(cells: str) -> None:
    assert ascii_to_cells(cells_to_ascii(cells)) == cells
