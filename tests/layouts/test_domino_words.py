"""Domino 10-11-12: every reason and card has words in English and French."""

import re
from pathlib import Path

import pytest

import games.domino.engine as engine
from games.domino import GAME
from games.domino.grid import card_text
from layouts.catalog import Catalog, rules_data

CODES = set(re.findall(r'Reason\.of\("(\w+)"', Path(engine.__file__).read_text()))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_reason_code_has_a_message(lang):
    words = Catalog.load("domino", lang)
    assert {"line_too_long", "not_touching", "opening_not_joined"} <= CODES
    for code in CODES:
        assert words.text(code, card="6/0", value=13, max=12, text="x")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_card_of_the_box_has_a_label(lang):
    labels = Catalog.load("domino", lang).section("cards")
    deck = GAME.new(2, 1, rules_data("domino")).box.deck
    assert {labels[card_text(c)] for c in deck} >= {"6/0", "1/1", "6/6"}


def test_both_languages_have_the_same_messages():
    en, fr = (Catalog.load("domino", lang) for lang in ("en", "fr"))
    assert set(en.section("messages")) == set(fr.section("messages"))
    assert set(en.section("cards")) == set(fr.section("cards"))
