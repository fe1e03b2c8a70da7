"""Card labels, every deck, both languages: one label per kind of card, and through each of the
language's braille tables, uncontracted and contracted, the cells read back exactly as the label
is written, so the reader reads the label whatever the table: no contraction turns it into a
word (``k`` alone is "knowledge" in UEB grade 2), no capital sign is added or lost.

Reading back is the check a reader's eyes would make: liblouis's own back-translation of the
cells with the same table. Forcing uncontracted cells instead would be wrong for a grade 2
reader: ``binv`` written out letter by letter reads ``binouveau`` in French grade 2.
"""

from __future__ import annotations

import pytest

from brailledev.braille import CONTRACTED_TABLES, DEFAULT_TABLES, translator
from layouts.catalog import LANGUAGES
from layouts.registry import GAMES, kit

DECKS = [name for name in GAMES if kit(name).deck is not None]
TABLES = [(lang, table) for lang in LANGUAGES
          for table in (DEFAULT_TABLES[lang], CONTRACTED_TABLES[lang])]


def labels(game: str, lang: str) -> dict[str, set[str]]:
    """Each label of the deck with the kinds of card (notations) that carry it."""
    found: dict[str, set[str]] = {}
    for face in kit(game).deck_faces(lang):
        assert len(face.lines) == 1, (game, face)
        found.setdefault(face.lines[0], set()).add(face.card)
    return found


def test_the_four_supported_tables_are_checked():
    assert sorted(table for _, table in TABLES) == [
        "en-ueb-g1.ctb", "en-ueb-g2.ctb", "fr-bfu-comp6.utb", "fr-bfu-g2.ctb"]
    assert DECKS and set(DECKS) == set(GAMES)


@pytest.mark.parametrize("game", DECKS)
@pytest.mark.parametrize(("lang", "table"), TABLES)
def test_every_label_reads_back_as_written_through_every_table(game, lang, table):
    louis = translator(table)
    misread = {}
    for text in labels(game, lang):
        read = louis.back(louis.translate(text).cells)
        if read != text:
            misread[text] = read
    assert not misread, (game, table, misread)


@pytest.mark.parametrize("game", DECKS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_two_kinds_of_card_share_a_label(game, lang):
    found = labels(game, lang)
    shared = {text: cards for text, cards in found.items() if len(cards) > 1}
    assert not shared, (game, lang, shared)
    assert len(found) == len(set(kit(game).whole_deck()))


def test_the_check_catches_a_label_its_table_misreads():
    # Labels are checked through their own language's tables: the English black element
    # card through the French contracted table reads "Eau", and a capital changes the label.
    french = translator("fr-bfu-g2.ctb")
    assert french.back(french.translate("Ek").cells) == "Eau"
    english = translator("en-ueb-g1.ctb")
    assert english.back(english.translate("R5").cells) != "r5"
