"""Elements words: both languages complete, labels unambiguous, every event and refusal said."""

import random
import re
from pathlib import Path

import pytest

from games.core import events_for
from games.elements import engine
from games.elements.cards import Pattern, element_label
from layouts.elements.words import Words, label
from layouts.registry import kit
from tests.elements_helpers import new


def test_ele_6_every_combination_is_named_in_both_languages():
    for lang in ("en", "fr"):
        names = Words.load(lang).catalog.section("combinations")
        assert set(names) == {pattern.code for pattern in Pattern}
        assert len(set(names.values())) == len(Pattern)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_ele_1_labels_of_the_55_cards_and_5_elements_are_unique_and_read_back(lang):
    words = Words.load(lang)
    labels = [(face.card, face.lines[0]) for face in kit("elements").deck_faces(lang)]
    assert len(labels) == 60 and len({text for _, text in labels}) == 60
    for notation, text in labels[:55]:
        assert str(words.read_card(text)) == notation
    assert [text for _, text in labels[55:]] == [label(element_label(c), words.catalog)
                                                 for c in "rygbk"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_refusal_of_the_engine_has_words(lang):
    source = Path(engine.__file__).read_text()
    codes = set(re.findall(r'Reason\.of\("(\w+)"', source))
    assert {"element_taken", "lay_count", "must_pass"} <= codes
    words = Words.load(lang)
    for code in codes:
        assert words.text(code, text="x", card="r7", element="Eb", count=2, move="pass")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_event_of_a_whole_game_is_said_to_every_seat(lang):
    words = Words.load(lang)
    game = new(3, 9)
    rng = random.Random(9)
    kinds = set()
    while not game.is_over():
        seat = game.actors()[0]
        events = game.play(seat, rng.choice(game.legal_moves(seat)))
        for viewer in range(3):
            for event in events_for(events, viewer):
                kinds.add(type(event).__name__)
                said = words.event(event, viewer)
                assert said is None or ("{" not in said and said.strip())
    assert {"Placed", "Revealed", "Bidding", "Laid", "Passed", "Won", "HandScored", "Kept",
            "Drew", "NewHand", "GameOver"} <= kinds


def test_hidden_placement_is_said_without_the_card():
    words = Words.load("en")
    said = words.event(engine.Placed(1, "b", None), viewer=0)
    assert said == "Player 2 puts a card face down before eb."


def test_own_moves_are_said_in_the_second_person():
    fr = Words.load("fr")
    assert fr.event(engine.Passed(0), viewer=0) == "Vous passez."
    assert fr.event(engine.Passed(2), viewer=0) == "Joueur 3 passe."


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("why", ["zero", "nobody_laid"])
def test_a_point_card_going_to_the_stock_is_told_for_each_reason_the_engine_gives(lang, why):
    # the engine says "nobody_laid"; the words once said "nobody", and telling it failed
    told = Words.load(lang).event(engine.ToStock(engine.Card("r", 7), why), viewer=0)
    assert told and "r7" in told
