"""The Rummikub screen in a play session: the turn built by routing, words, speech."""

from __future__ import annotations

from brailledev.session import Session
from games.rummikub.engine import Rummikub
from tests.games.test_rummikub_engine import rigged


def session_with(game: Rummikub, lang: str = "en") -> Session:
    session = Session.start("rummikub", players=2, seed=1, lang=lang, pace=0, bots="greedy")
    session.game = game
    return session


def line(session: Session, key: str):
    return next(each for each in session.lines() if each.key == key)


def texts(session: Session, key: str) -> list[str]:
    return [region.text for region in line(session, key).regions]


def route(session: Session, key: str, text: str) -> None:
    region = next(r for r in line(session, key).regions if r.text == text)
    session.route(region.target)


def test_rum_4_initial_meld_by_routing():
    game = rigged("", ["K10 K11 K12 R1", "B2 B3"], melded=(False, True))
    session = session_with(game)
    assert texts(session, "rack") == ["rack", "k10", "k11", "k12", "r1"]
    for label in ("k10", "k11", "k12"):
        route(session, "rack", label)
    assert texts(session, "selection")[1:] == ["k10", "k11", "k12", "new set"]
    route(session, "selection", "new set")
    assert texts(session, "set_1") == ["1", "k10", "k11", "k12"]
    route(session, "commands", "done")
    assert game.table == [("K10", "K11", "K12")] and game.racks[0] == ["R1"]


def test_rum_5_split_a_run_by_routing():
    game = rigged("R4 R5 R6 R7 R8", ["R6 K1", "Y1"])
    session = session_with(game)
    route(session, "set_1", "r8")
    route(session, "set_1", "r7")
    route(session, "rack", "r6")
    route(session, "selection", "new set")
    route(session, "commands", "done")
    assert sorted(game.table) == [("R4", "R5", "R6"), ("R6", "R7", "R8")]


def test_rum_6_joker_exchange_by_routing():
    game = rigged("K4 J K6", ["K5 R9 B9", "Y2"])
    session = session_with(game)
    route(session, "set_1", "jk")
    route(session, "rack", "r9")
    route(session, "rack", "b9")
    route(session, "selection", "new set")
    route(session, "rack", "k5")
    assert all(region.mark for region in line(session, "set_1").regions)  # K4 K6 is invalid
    route(session, "set_1", "1")          # its number adds the selection
    route(session, "commands", "done")
    assert ("K4", "K5", "K6") in game.table and game.is_over()


def test_invalid_set_marked_with_its_reason_then_undo():
    game = rigged("B4 B5 B6", ["B3 K8", "Y1"])
    session = session_with(game)
    route(session, "rack", "k8")
    route(session, "set_1", "1")
    assert texts(session, "set_1") == ["1", "k8", "b4", "b5", "b6"]
    assert [region.mark for region in line(session, "set_1").regions] == [True] * 5
    assert "Set 1" in line(session, "problems").text
    route(session, "set_1", "k8")         # taken back out: the set is valid, unmarked again
    assert not any(region.mark for region in line(session, "set_1").regions)
    route(session, "set_1", "1")
    route(session, "commands", "undo")
    route(session, "commands", "done")    # the selection is not placed: told, not played
    assert "not in a set" in line(session, "problems").text
    route(session, "commands", "reset")
    assert texts(session, "rack") == ["rack", "k8", "b3"]


def test_rum_10_hint_lays_out_the_best_move():
    game = rigged("K1 K2 K3", ["K4 Y5 Y6 Y7", "B1"])
    session = session_with(game)
    route(session, "commands", "hint")
    assert texts(session, "rack") == ["rack"]
    route(session, "commands", "done")
    assert game.is_over()


def test_opponents_melds_are_told_in_french():
    game = rigged("", ["K1", "R10 R11 R12"], melded=(True, False))
    game.turn = 1
    session = session_with(game, lang="fr")
    session.run_bots()
    told = " ".join(session.history.texts)
    assert "pose pour la première fois : r10 r11 r12" in told
    assert texts(session, "rack") == ["support", "n1"]


def test_done_with_an_invalid_set_says_why_and_plays_nothing():
    game = rigged("B4 B5 B6", ["B3 K8", "Y1"])
    session = session_with(game)
    route(session, "rack", "k8")
    route(session, "set_1", "1")
    route(session, "commands", "done")
    assert line(session, "problems").text.startswith("Set 1 is neither a run nor a group.")
    assert game.table == [("B4", "B5", "B6")] and game.turn == 0
