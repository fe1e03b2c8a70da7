"""Elevens words: every refusal and event has a sentence in English and French."""

import pytest

from games.core import Reason, events_for
from games.elevens.engine import DISCARD, JOKER, Step
from layouts.catalog import HERE, Catalog
from layouts.elevens.words import choice_words, event_text, label, reason_text, step_words
from tests.elevens_helpers import refused, table

ENGINE = HERE.parent / "games" / "elevens" / "engine.py"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_reason_code_of_the_engine_has_a_message(lang):
    import re

    codes = set(re.findall(r'Reason\.of\("([a-z_]+)"', ENGINE.read_text()))
    cat = Catalog.load("elevens", lang)
    args = {"card": "y12", "row": "y", "pos": 5, "source": "r", "limit": 4, "kind": "fly",
            "text": "q"}
    for code in codes:
        text = reason_text(cat, Reason(code, tuple(sorted(args.items()))))
        assert text and "{" not in text


def test_labels_follow_the_language():
    fr, en = Catalog.load("elevens", "fr"), Catalog.load("elevens", "en")
    assert label("y12", fr) == "j12" and label("y12", en) == "y12"
    assert label("g3", fr) == "v3" and label(JOKER, fr) == "*"



def test_steps_are_said_in_words_in_both_languages():
    fr, en = Catalog.load("elevens", "fr"), Catalog.load("elevens", "en")
    link, joker = Step("link", "y5", "y", 5, "g"), Step("place", JOKER, "b", 7)
    exchange, joker_link = Step("exchange", "g7", "g", 7), Step("link", JOKER, "r", 12, "y")
    assert step_words(fr, link) == "j5 par liaison depuis v5"
    assert step_words(en, joker) == "the joker on b7"
    assert step_words(fr, joker) == "le joker en b7"
    assert step_words(fr, exchange) == "v7 contre le joker en v7"
    assert step_words(en, joker_link) == "the joker on r12 by link from y12"
    assert step_words(en, DISCARD) == "the discarded joker"
    assert choice_words(en, joker) == "b7" and choice_words(fr, link) == "par liaison depuis v5"
    assert choice_words(en, joker_link) == "r12 by link from y12"
    assert choice_words(en, exchange) == "for the joker on g7"
    assert choice_words(fr, DISCARD) == "défausser un joker"


def test_refusal_names_the_place_in_french():
    game = table([["y9"], ["b3"]])
    code = refused(game, 0, "y9")
    text = reason_text(Catalog.load("elevens", "fr"), Reason.of(code, row="y", pos=9))
    assert text.startswith("j9 n'est à côté")


def test_opponents_turn_in_words_without_hidden_cards():
    game = table([["y5", "r14"], ["b3"]], rows={"r": range(5, 11)}, stock=["g7"])
    cat = Catalog.load("elevens", "en")
    said = [event_text(cat, e, me=1) for e in game.play(0, game.parse_move(0, "L r5>y"))]
    assert said == ["player 1 links from r5 and plays y5."]
    said = [event_text(cat, e, me=1) for e in events_for(game.play(0, Step("undo")), 1)]
    assert said == ["player 1 takes back y5 by link from r5."]
    seen = events_for(game.play(0, Step("draw")), 1)
    assert [event_text(cat, e, me=1) for e in seen] == ["player 1 draws a card.", None]


def test_own_steps_are_said_to_you_with_the_drawn_card():
    game = table([["r14"], ["b3"]], stock=["g7"])
    drew = events_for(game.play(0, Step("draw")), 0)[0]
    assert event_text(Catalog.load("elevens", "en"), drew, me=0) == "You draw g7."
    assert event_text(Catalog.load("elevens", "fr"), drew, me=0) == "Vous piochez v7."
    game = table([["r12", "r13"], ["b3"]])
    placed = game.play(0, game.parse_move(0, "r12"))[0]
    assert event_text(Catalog.load("elevens", "fr"), placed, me=0) == "Vous posez r12."
    assert event_text(Catalog.load("elevens", "fr"), placed, me=1,
                      names=["Bo", "vous"]) == "Bo pose r12."


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["You play the joker on r10.", "You take back the joker on r10.",
            "You draw a joker."]),
    ("fr", ["Vous posez le joker en r10.", "Vous reprenez le joker en r10.",
            "Vous piochez un joker."])])
def test_a_joker_is_told_in_words_never_as_notation(lang, said):
    game = table([["r12", JOKER], ["b3"]], stock=[JOKER])
    cat = Catalog.load("elevens", lang)
    events = [*game.play(0, game.parse_move(0, "*@r10")), *game.play(0, Step("undo")),
              *events_for(game.play(0, Step("draw")), 0)]
    told = [text for event in events if (text := event_text(cat, event, me=0))]
    assert told == said
