"""Card labels, every deck, every language, through every supported braille table (issues 19
and 36):
a label is never contracted and never capitalised, whatever the reader's table, so the
display and the embossed card show the same cells, and no two kinds of card share a label.

The expected cells of a label through a table are those of the uncontracted table that table
is built on (``fr-bfu-g2`` on ``fr-bfu-comp6``, ``en-ueb-g2`` on ``en-ueb-g1``, German
Vollschrift and Kurzschrift on Basisschrift, ``de-g0``), with no
contraction mode at all: the letters, digits and signs one by one. The capital sign of a
table is found from the table itself (``A`` against ``a``). A label reads back as itself
through the tables of its own language; another language's table may write two of its
characters alike (German Basisschrift writes é, è and € all ⠈⠑), and the labels still differ
there.
"""

from __future__ import annotations

import louis
import pytest

from brailledev.display.braille import available_tables, label_table, translator
from brailledev.display.window import lay_out_line
from brailledev.programs.session import Session
from layouts.catalog import LANGUAGES
from layouts.registry import GAMES, kit
from layouts.rummikub.screen import RACK_LINE
from layouts.screen import HAND_LINE, Line, Region

DECKS = [name for name in GAMES if kit(name).deck is not None]
SUPPORTED = ("fr-bfu-comp6.utb", "fr-bfu-g2.ctb", "en-ueb-g1.ctb", "en-ueb-g2.ctb",
             "de-g0.utb", "de-g1.ctb", "de-g2.ctb")
UNCONTRACTED = {"fr-bfu-comp6.utb": "fr-bfu-comp6.utb", "fr-bfu-g2.ctb": "fr-bfu-comp6.utb",
                "en-ueb-g1.ctb": "en-ueb-g1.ctb", "en-ueb-g2.ctb": "en-ueb-g1.ctb",
                "de-g0.utb": "de-g0.utb", "de-g1.ctb": "de-g0.utb", "de-g2.ctb": "de-g0.utb"}
LANGUAGE_OF = {table.name: table.lang for table in available_tables()}
# German computer braille: eight dots, a capital is dot 7 in the letter's own cell.
GERMAN_COMPUTER = "de-de-comp8.ctb"
PLAIN = louis.dotsIO | louis.ucBrl


def labels(game: str, lang: str) -> dict[str, set[str]]:
    """Each label of the deck with the kinds of card (notations) that carry it."""
    found: dict[str, set[str]] = {}
    for face in kit(game).deck_faces(lang):
        assert len(face.lines) == 1, (game, face)
        found.setdefault(face.lines[0], set()).add(face.card)
    return found


def letter_by_letter(table: str, text: str) -> str:
    """The uncontracted cells of ``text``: its table's own base, plain translation."""
    cells: str = louis.translateString([UNCONTRACTED[table]], text, mode=PLAIN)
    return cells


def capital_sign(table: str) -> str:
    """The cells a table puts before a capital ("": German Basisschrift marks none)."""
    upper: str = louis.translateString([table], "A", mode=PLAIN)
    lower: str = louis.translateString([table], "a", mode=PLAIN)
    assert upper.endswith(lower)
    return upper[:-len(lower)]


def test_labels_are_written_with_the_uncontracted_base_of_the_table():
    assert {table: label_table(table) for table in SUPPORTED} == UNCONTRACTED


@pytest.mark.parametrize("game", DECKS)
@pytest.mark.parametrize("table", SUPPORTED)
def test_every_label_is_uncontracted_and_uncapitalised_through_every_table(game, table):
    louis_table = translator(table)
    sign = capital_sign(table)
    wrong = {}
    for lang in LANGUAGES:
        for text in labels(game, lang):
            assert text == text.lower(), (game, lang, text)
            cells = louis_table.translate(text, label=True).cells
            expected = letter_by_letter(table, text)
            if cells != expected or (sign and sign in cells):
                wrong[(lang, text)] = (cells, expected)
            # Reading the cells back with the uncontracted table of the label's own language
            # gives the label exactly.
            if LANGUAGE_OF[table] == lang:
                assert translator(UNCONTRACTED[table]).back(cells) == text, (table, text, cells)
    assert not wrong, (game, table, wrong)


@pytest.mark.parametrize("table", SUPPORTED)
def test_the_display_writes_a_label_region_as_the_embossed_card(table):
    louis_table = translator(table)
    for game in DECKS:
        for lang in LANGUAGES:
            for text in labels(game, lang):
                laid = lay_out_line(Line("hand", (Region(text, label=True),)), louis_table, 40)
                assert laid.windows[0].cells.rstrip("\u2800") == letter_by_letter(table, text)


@pytest.mark.parametrize("game", DECKS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_two_kinds_of_card_share_a_label(game, lang):
    found = labels(game, lang)
    shared = {text: cards for text, cards in found.items() if len(cards) > 1}
    assert not shared, (game, lang, shared)
    assert len(found) == len(set(kit(game).whole_deck()))
    for table in SUPPORTED:
        cells = {translator(table).translate(text, label=True).cells for text in found}
        assert len(cells) == len(found), (game, lang, table)


@pytest.mark.parametrize("game", DECKS)
def test_every_label_reads_back_through_german_computer_braille(game):
    """The 8-dot table writes a label one cell a character, no capital (dot 7), and reads it
    back as it is."""
    table = translator(GERMAN_COMPUTER)
    assert label_table(GERMAN_COMPUTER) == GERMAN_COMPUTER
    for lang in LANGUAGES:
        for text in labels(game, lang):
            cells = table.translate(text, label=True).cells
            assert len(cells) == len(text), (lang, text, cells)
            assert not any((ord(cell) - 0x2800) & 0x40 for cell in cells), (lang, text, cells)
            assert table.back(cells) == text, (lang, text, cells)


@pytest.mark.parametrize("game", DECKS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_colour_s_letters_begin_another_s(game, lang):
    """A label reads unambiguously from its left: German gelb and grün are ge and gn, so
    neither is g and no colour's letters start another's (a prefix code)."""
    prefixes = kit(game).catalog(lang).section("cards").get("colour_prefix", {})
    for colour, letters in prefixes.items():
        for other, more in prefixes.items():
            assert colour == other or not more.startswith(letters), (lang, letters, more)


def test_german_labels_are_the_ones_the_readme_gives():
    uno = kit("uno").catalog("de")
    assert [kit("uno").label(card, uno) for card in ("r7", "y7", "g7", "b7", "ysk", "grv",
                                                     "b+2", "wi", "wi+4")] == \
        ["r7", "ge7", "gn7", "b7", "geau", "gnrw", "bz2", "fw", "fz4"]
    rummikub = kit("rummikub").catalog("de")
    assert [kit("rummikub").label(tile, rummikub) for tile in ("K5", "R5", "B5", "Y5", "J")] \
        == ["s5", "r5", "b5", "o5", "jo"]


def test_the_check_catches_contractions_and_capitals():
    # Without the label mode the contracted tables contract: French binv (Uno blue reverse)
    # takes the "in" sign, UEB grade 2 "er" its group sign; a capital gets its sign.
    french = translator("fr-bfu-g2.ctb")
    assert french.translate("binv").cells != letter_by_letter("fr-bfu-g2.ctb", "binv")
    assert french.translate("binv", label=True).cells == "⠃⠊⠝⠧"
    english = translator("en-ueb-g2.ctb")
    assert english.translate("er").cells == "⠻"
    assert english.translate("er", label=True).cells == "⠑⠗"
    assert capital_sign("en-ueb-g1.ctb") in translator("en-ueb-g1.ctb").translate(
        "L", label=True).cells
    assert capital_sign("fr-bfu-comp6.utb") == "⠨"


@pytest.mark.parametrize("game", DECKS)
def test_screens_mark_the_cards_in_hand_as_labels(game):
    session = Session.start(game, players=3, seed=4, lang="fr", braille_table="fr-bfu-g2.ctb")
    known = labels(game, "fr")
    [hand] = [line for line in session.seat.lines() if line.key in (HAND_LINE, RACK_LINE)]
    cards = [region for region in hand.regions if region.text in known]
    assert cards, (game, hand.text)
    assert all(region.label for region in cards), (game, hand.text)
    louis = translator("fr-bfu-g2.ctb")
    laid = lay_out_line(Line(HAND_LINE, tuple(cards)), louis, 80)
    assert laid.braille == tuple(louis.translate(region.text, label=True) for region in cards)
