"""The Uno screen: status, hand, choices, commands, words in English and French."""

from __future__ import annotations

from typing import Any

import pytest

from brailledev.display.speech import Silence
from brailledev.programs.session import Session
from games.uno.notation import ACCEPT, CHALLENGE, CHOOSE, KEEP, PLAY
from games.uno.notation import Move as UnoMove
from layouts.catalog import Catalog
from layouts.screen import Ask, PlayMove
from layouts.uno.screen import UnoInput, sort_hand
from layouts.uno.words import label
from tests.play_helpers import ONE_ROUND, told


def session_with(lang: str = "en", players: int = 2, **state: Any) -> Session:
    """A session whose game state is changed by ``state`` (hands, discard, phase...)."""
    session = Session.start("uno", players=players, seed=1, lang=lang, options=ONE_ROUND,
                            pace=0)
    for key, value in state.items():  # set on the engine: a save would be refused
        setattr(session.table.game, key, value)
    return session


def line(session: Session, key: str):
    return next(each for each in session.seat.lines() if each.key == key)


def test_uno_12_labels_english_and_french():
    en, fr = Catalog.load("uno", "en"), Catalog.load("uno", "fr")
    cards = ["r5", "r+2", "rsk", "rrv", "wi", "wi+4", "y0", "g9", "bsk"]
    assert [label(card, en) for card in cards] == \
        ["r5", "r+2", "rsk", "rrv", "wi", "wi+4", "y0", "g9", "bsk"]
    assert [label(card, fr) for card in cards] == \
        ["r5", "r+2", "rpas", "rinv", "jk", "jk+4", "j0", "v9", "bpas"]


def test_hand_is_sorted_by_colour_then_value_wilds_last():
    hand = ("wi+4", "b2", "r+2", "y9", "r5", "wi", "rsk", "g0", "r0", "rrv")
    assert sort_hand(hand, ("r", "y", "g", "b")) == \
        ["r0", "r5", "rsk", "rrv", "r+2", "y9", "g0", "b2", "wi", "wi+4"]


def test_status_line_tells_top_colour_turn_counts_direction():
    session = session_with(players=3, discard=["g7"], colour="g", current=0, direction=-1,
                           hands=[["r1", "r2"], ["y1"] * 5, ["b3"] * 3])
    assert line(session, "status").text == \
        "g7 green, you to play, Cy 3 cards, Bo 5 cards, to right"
    french = session_with(lang="fr", players=3, discard=["wi"], colour="y", current=1,
                          hands=[["r1"], ["y1"] * 2, ["b3"] * 4])
    assert line(french, "status").text == \
        "jk jaune, à Bo, Bo 2 cartes, Cy 4 cartes, vers la gauche"


def test_hand_routes_play_the_card_and_a_wild_asks_its_colour_first():
    session = session_with(discard=["r7"], colour="r", current=0, phase="play",
                           hands=[["r5", "wi", "b2"], ["y1"] * 3])
    hand = line(session, "hand")
    assert [region.text for region in hand.regions] == ["r5", "b2", "wi"]
    assert hand.regions[0].target == PlayMove(UnoMove(PLAY, "r5"))
    wild = hand.regions[2].target
    assert wild == Ask(UnoInput(wild="wi"), then="choice")
    session.seat.route(wild)
    choice = line(session, "choice")
    assert session.seat.focus == "choice"
    assert [region.text for region in choice.regions] == \
        ["wi colour?", "red", "yellow", "green", "blue", "cancel"]
    session.seat.route(choice.regions[3].target)
    assert session.table.game.view(0).colour == "g" and session.table.game.view(0).top == "wi"
    assert session.seat.pending is None


def test_choice_line_for_a_wild_draw_four_challenge():
    session = session_with(discard=["r7", "wi+4"], colour="b", previous_colour="r",
                           current=0, phase="challenge", wd4_by=1,
                           hands=[["r5", "g2"], ["y1"] * 3])
    choice = line(session, "choice")
    assert [region.text for region in choice.regions] == ["+4 from Bo:", "challenge", "accept"]
    assert [region.target for region in choice.regions[1:]] == \
        [PlayMove(UnoMove(CHALLENGE)), PlayMove(UnoMove(ACCEPT))]
    assert session.seat.home() == "choice"


def test_choice_line_after_drawing_play_or_keep():
    session = session_with(discard=["r7"], colour="r", current=0, phase="drawn", drawn="r9",
                           hands=[["b5", "g2", "r9"], ["y1"] * 3])
    assert [region.text for region in line(session, "choice").regions] == \
        ["drew r9:", "play", "keep"]
    unplayable = session_with(discard=["r7"], colour="r", current=0, phase="drawn",
                              drawn="g9", hands=[["b5", "g9"], ["y1"] * 3])
    choice = line(unplayable, "choice")
    assert [region.text for region in choice.regions] == ["drew g9:", "keep"]
    assert choice.regions[1].target == PlayMove(UnoMove(KEEP))


def test_first_wild_asks_the_first_colour_in_french():
    session = session_with(lang="fr", discard=["wi"], colour="", current=0, phase="choose",
                           hands=[["b5"], ["y1"]])
    choice = line(session, "choice")
    assert [region.text for region in choice.regions] == \
        ["1re carte jk : couleur ?", "rouge", "jaune", "vert", "bleu"]
    assert choice.regions[4].target == PlayMove(UnoMove(CHOOSE, colour="b"))
    assert line(session, "status").text.startswith("jk, à vous")


def test_uno_7_say_uno_is_a_command_that_arms_the_next_card():
    session = session_with(discard=["r7"], colour="r", current=0, phase="play",
                           hands=[["r5", "b2"], ["y1"] * 3])
    commands = line(session, "commands")
    assert [region.text for region in commands.regions] == ["draw", "uno?", "help", "quit"]
    focus = session.seat.focus
    session.seat.route(commands.regions[1].target)
    assert session.seat.focus == focus  # arming UNO moves nobody
    assert [region.text for region in line(session, "commands").regions][1] == "UNO on"
    # the confirmation is where the player lands, before the card to route; it disarms
    hand = line(session, "hand").regions
    assert [region.text for region in hand] == ["UNO on:", "r5", "b2"]
    session.seat.route(hand[0].target)
    assert [region.text for region in line(session, "hand").regions] == ["r5", "b2"]
    session.seat.route(line(session, "commands").regions[1].target)
    session.seat.route(line(session, "hand").regions[1].target)
    assert "You play r5. You: UNO!" in session.seat.history.texts
    assert session.seat.view().catchable == -1


def test_uno_7_catch_a_forgetful_opponent_from_the_command_line():
    session = session_with(discard=["r7"], colour="r", current=0, phase="play", catchable=1,
                           hands=[["r5", "b2", "g4"], ["y1"]])
    commands = line(session, "commands")
    catch = next(region for region in commands.regions if region.text == "catch Bo")
    session.seat.route(catch.target)
    assert session.table.game.view(0).hand_sizes[1] == 3
    assert "You catch Bo: no UNO!" in told(session)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_event_of_a_game_has_words(lang):
    session = Session.start("uno", players=3, seed=8, lang=lang, options=ONE_ROUND, pace=0,
                            bots="random")
    session.table.seating.bots[0] = "random"
    session.table.bots = session.table.seating.make_bots("uno")
    session.table.run_bots()
    assert session.table.game.is_over()
    assert all(text and "{" not in text for text in session.seat.history.texts)


def test_refusal_words_use_labels_and_colour_names():
    session = session_with(lang="fr", discard=["y5"], colour="y", current=0, phase="play",
                           hands=[["rsk", "b2"], ["y1"] * 3])
    session.seat.play(UnoMove(PLAY, "rsk"))
    assert session.seat.history.texts[-1] == (
        "Refusé : rpas ne va pas sur j5 ; jouez une carte de couleur jaune, de même valeur, "
        "ou un Joker, ou piochez.")


def test_uno_7_prompt_reminds_to_say_uno_with_two_cards():
    session = session_with(discard=["r7"], colour="r", current=0, phase="play",
                           hands=[["r5", "b2"], ["y1"] * 3])
    assert session.seat.screen.prompt(session.seat.view(), session.seat.context()) == (
        "Your turn, on r7 red. Two cards: route uno? before the card, or be caught.")


class Heard(Silence):
    """A speaker that keeps what it is asked to say (the words, not the sound)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)


@pytest.mark.parametrize(("lang", "on", "off"), [
    ("en", "UNO on: the next card you play says UNO.", "UNO off."),
    ("fr", "UNO dit : la prochaine carte que vous jouez dit UNO.", "UNO retiré."),
])
def test_uno_7_arming_and_disarming_uno_are_spoken(lang, on, off):
    session = session_with(lang=lang, discard=["r7"], colour="r", current=0, phase="play",
                           hands=[["r5", "b2"], ["y1"] * 3])
    heard = Heard()
    session.seat.speech = heard
    session.seat.route(line(session, "commands").regions[1].target)
    assert heard.said == [on]
    session.seat.route(line(session, "hand").regions[0].target)  # "UNO on:" routed: disarmed
    session.seat.route(line(session, "commands").regions[1].target)  # armed again
    session.seat.route(line(session, "commands").regions[1].target)  # and off from the command
    assert heard.said == [on, off, on, off]
    pending = session.seat.pending
    assert not isinstance(pending, UnoInput) or not pending.uno
