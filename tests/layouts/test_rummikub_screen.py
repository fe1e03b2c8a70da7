"""The Rummikub screen in a play session: the turn built by routing, words, speech."""

from __future__ import annotations

import re

import pytest

from brailledev.programs.session import Session
from games.rummikub.engine import Rummikub, Table
from games.rummikub.solver import solve
from layouts.catalog import Catalog
from layouts.rummikub.screen import changes
from layouts.rummikub.words import label as tile_label
from tests.games.test_rummikub_engine import rigged
from tests.play_helpers import told


def session_with(game: Rummikub, lang: str = "en") -> Session:
    session = Session.start("rummikub", players=2, seed=1, lang=lang, pace=0, bots="greedy")
    session.table.game = game
    return session


def line(session: Session, key: str):
    return next(each for each in session.seat.lines() if each.key == key)


def texts(session: Session, key: str) -> list[str]:
    return [region.text for region in line(session, key).regions]


def route(session: Session, key: str, text: str) -> None:
    region = next(r for r in line(session, key).regions if r.text == text)
    session.seat.route(region.target)


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
    assert texts(session, "set_1") == ["1", "k4", "jk5", "k6"]  # the joker reads as k5
    route(session, "set_1", "jk5")
    assert texts(session, "selection")[1] == "jk"  # off the table it stands for nothing
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
    assert session.seat.flash == ("Refused: Tiles selected and not yet in a set: 1; add them "
                                  "to a set or deselect them.")
    assert session.seat.history.texts[-1] == session.seat.flash and game.turn == 0
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
    session.table.run_bots()
    told = " ".join(session.seat.history.texts)
    assert "Bo pose pour la première fois : combinaison 1 r10 r11 r12." in told
    assert texts(session, "rack") == ["support", "n1"]


def test_done_with_an_invalid_set_says_why_and_plays_nothing():
    game = rigged("B4 B5 B6", ["B3 K8", "Y1"])
    session = session_with(game)
    route(session, "rack", "k8")
    route(session, "set_1", "1")
    route(session, "commands", "done")
    assert session.seat.flash == "Refused: Set 1 is neither a run nor a group."
    assert line(session, "problems").text.startswith("Set 1: ")  # and why, on its line
    assert game.table == [("B4", "B5", "B6")] and game.turn == 0


def test_a_joker_in_a_set_reads_as_the_number_it_stands_for_in_both_languages():
    game = rigged("R3 J R5 | K7 B7 J", ["K1", "Y1"])
    assert texts(session_with(game), "set_1") == ["1", "r3", "jk4", "r5"]
    assert texts(session_with(game), "set_2") == ["2", "k7", "b7", "jk7"]
    assert texts(session_with(game, "fr"), "set_1") == ["1", "r3", "jo4", "r5"]


def test_set_numbers_stay_across_a_hint_and_an_opponents_turn():
    game = rigged("R7 B7 Y7 | K1 K2 K3 | B10 B11 B12", ["K4 B9 K7 Y1", "R1 R2 R3 B13 Y2"])
    session = Session.start("rummikub", players=2, seed=1, lang="en", pace=0, bots="solver")
    session.table.game = game

    def sets() -> list[str]:
        return [each.text for each in session.seat.lines() if each.key.startswith("set_")]

    assert sets() == ["1 r7 b7 y7", "2 k1 k2 k3", "3 b10 b11 b12"]
    # the solver gives its sets in an order of its own; each stays at its number all the same
    assert [tiles[0] for tiles in solve(game.table, game.racks[0]).table] != ["K7", "K1", "B9"]
    route(session, "commands", "hint")
    assert sets() == ["1 k7 r7 b7 y7", "2 k1 k2 k3 k4", "3 b9 b10 b11 b12"]
    route(session, "commands", "done")
    session.table.run_bots()
    assert sets()[:3] == ["1 k7 r7 b7 y7", "2 k1 k2 k3 k4", "3 b9 b10 b11 b12 b13"]
    assert sets()[3:] == ["4 r1 r2 r3"]


def test_the_player_is_you_never_a_third_person():
    for lang, wrong in (("en", r"\byou (draws|makes|lays|starts|passes)\b"),
                        ("fr", r"\bvous (tire|pose|commence|pioche|passe)\b")):
        session = Session.start("rummikub", players=2, seed=3, lang=lang, pace=0,
                                bots="greedy", options={"turn_times": 0})
        for _ in range(6):
            session.table.run_bots()
            if session.table.game.is_over():
                break
            route(session, "commands", session.seat.catalog.section("screen")["draw"])
        said = " ".join(told(session)).casefold()
        assert re.search(wrong, said) is None, said
        assert ("you draw" if lang == "en" else "vous tirez") in said


def test_an_opponents_meld_is_told_as_the_sets_it_made_or_changed():
    game = rigged("K1 K2 K3 | R7 B7 Y7", ["Y1", "K4 K7 R10 R11 R12"], melded=(True, True))
    game.turn = 1
    session = session_with(game)
    session.table.run_bots()
    assert "Bo lays k4 k7 r10 r11 r12: set 1 k1 k2 k3 k4; set 2 k7 r7 b7 y7; set 3 r10 r11 " \
        "r12." in told(session)


def test_the_help_line_names_every_command():
    for lang in ("en", "fr"):
        session = session_with(rigged("", ["K1", "Y1"]), lang)
        help_text = line(session, "help").text
        words = session.seat.catalog.section("screen")
        for command in ("done", "undo", "reset", "draw", "hint", "new_set"):
            assert str(words[command]) in help_text, (lang, command)


BEFORE = "Y11 Y12 Y13 | R10 B10 Y10 K10 | R1 B1 K1"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Bo lays y1 y9: set 1 y9 y10 y11 y12 y13; set 2 lost y10, now k10 r10 b10; "
           "set 3 k1 r1 b1 y1."),
    ("fr", "Bo pose j1 j9 : combinaison 1 j9 j10 j11 j12 j13 ; combinaison 2 perd j10, "
           "reste n10 r10 b10 ; combinaison 3 n1 r1 b1 j1.")])
def test_a_meld_names_every_set_it_changed_those_tiles_came_from_included(lang, said):
    game = rigged(BEFORE, ["K5", "Y9 Y1 R13"])
    game.turn = 1
    session = session_with(game, lang)
    session.seat.lines()    # the table as the player last saw it
    session.table.play(1, Table((("R1", "B1", "K1", "Y1"), ("Y9", "Y10", "Y11", "Y12", "Y13"),
                                 ("R10", "B10", "K10"))))
    assert said in told(session)


def test_a_set_taken_apart_is_told_so():
    before = (("R7", "R8", "R9"), ("K1", "K2", "K3"))
    after = ((), ("K1", "K2", "K3", "R7"), ("R8", "R9", "R10"))
    for lang, said in (("en", "set 1 taken apart; set 2 k1 k2 k3 r7; set 3 r8 r9 r10"),
                       ("fr", "combinaison 1 défaite ; combinaison 2 n1 n2 n3 r7 ; "
                              "combinaison 3 r8 r9 r10")):
        assert changes(before, after, Catalog.load("rummikub", lang)) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Bo lays y10 y11 y12 y13: set 2 y10 y11 y12 y13."),
    ("fr", "Bo pose j10 j11 j12 j13 : combinaison 2 j10 j11 j12 j13.")])
def test_a_set_of_tiles_already_on_the_table_is_credited_to_who_laid_it(lang, said):
    game = rigged("Y11 Y12 Y13", ["K5", "Y10 Y11 Y12 Y13 R1"])  # each tile twice in the box
    game.turn = 1
    session = session_with(game, lang)
    session.seat.lines()
    # the new run first: it shares as many tiles with set 1 as set 1 itself does
    session.table.play(1, Table((("Y10", "Y11", "Y12", "Y13"), ("Y11", "Y12", "Y13"))))
    assert said in told(session)
    assert texts(session, "set_1") == ["1", tile_label("Y11", session.seat.catalog),
                                       tile_label("Y12", session.seat.catalog),
                                       tile_label("Y13", session.seat.catalog)]


def test_32_8_after_a_hint_the_opponents_first_meld_names_only_its_own_sets():
    session = Session.start("rummikub", players=2, seed=5, lang="en", pace=0,
                            options={"turn_times": 0})
    route(session, "commands", "hint")
    assert texts(session, "set_1") == ["1", "y11", "y12", "y13"]
    route(session, "commands", "done")
    session.table.run_bots()
    meld = next(text for text in told(session) if text.startswith("Bo makes a first meld"))
    assert "set 1 " not in meld and "set 2 " not in meld, meld
    assert "set 3 " in meld


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_32_9_hint_says_what_it_laid_and_done_plays_it(lang):
    game = rigged("K1 K2 K3", ["K4 Y5 Y6 Y7", "B1"])
    session = session_with(game, lang)
    words = session.seat.catalog.section("screen")
    route(session, "commands", words["hint"])
    assert session.seat.focus == "hint"
    assert line(session, "hint").text == {
        "en": "Hint: lay k4 y5 y6 y7: set 1 k1 k2 k3 k4; set 2 y5 y6 y7. Done plays it; you "
              "may change it first.",
        "fr": "Conseil : posez n4 j5 j6 j7 : combinaison 1 n1 n2 n3 n4 ; combinaison 2 j5 j6 "
              "j7. Fini le joue ; vous pouvez le changer avant."}[lang]
    route(session, "set_1", tile_label("K4", session.seat.catalog))   # the next step: it is gone
    assert "hint" not in [each.key for each in session.seat.lines()]
    route(session, "commands", words["undo"])
    route(session, "commands", words["done"])
    assert game.is_over()


@pytest.mark.parametrize(("lang", "said"), [("en", "Hint: no move: draw"),
                                            ("fr", "Conseil : aucun coup : piocher")])
def test_32_9_hint_stays_when_there_is_no_move_and_says_draw(lang, said):
    game = rigged("", ["K1 R5 B9", "Y1"], melded=(False, True))
    session = session_with(game, lang)
    words = session.seat.catalog.section("screen")
    assert words["hint"] in texts(session, "commands")
    route(session, "commands", words["hint"])
    assert session.seat.focus == "hint" and line(session, "hint").text == said
    route(session, "hint", words["draw"])
    assert len(game.racks[0]) == 4 and game.turn == 1
