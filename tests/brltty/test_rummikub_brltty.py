"""Rummikub played through a real BRLTTY (Virtual driver) by its display side: the test reads
the ``Braille`` lines BRLTTY sends, back-translates them with liblouis, and presses routing
and line keys as a player's fingers would: an initial meld, a run split, a joker exchange."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from brailledev.display.braille import BLANK, translator
from brailledev.display.window import DOTS_78, LEFT_MARKER, RIGHT_MARKER
from brailledev.programs.session import Session
from games.rummikub.engine import Rummikub
from tests.brltty.harness import Fingers, fingers_on
from tests.games.test_rummikub_engine import rigged

EN = translator("en-ueb-g1.ctb")


@contextmanager
def playing(tmp_path: Path, game: Rummikub) -> Iterator[Fingers]:
    session = Session.start("rummikub", players=2, seed=3, lang="en",
                            save=tmp_path / "rummikub.json", pace=0, bots="greedy",
                            clock=lambda: 0.0)  # the turn clock stands still here
    session.table.game = game
    with fingers_on(session, EN, Fingers) as fingers:
        yield fingers


def test_rum_4_initial_meld_by_routing_keys(tmp_path):
    game = rigged("", ["K10 K11 K12 R1", "B2 B3"], melded=(False, True))
    with playing(tmp_path, game) as fingers:
        fingers.read_all_messages()
        fingers.go_to("rack")
        assert fingers.text() == "rack k10 k11 k12 r1"
        for label in ("k10", "k11", "k12"):
            fingers.route_on("rack", label)
        fingers.route_on("selection", "new")       # "new set"
        fingers.route_on("commands", "done")
        assert game.table[0] == ("K10", "K11", "K12") and game.melded[0]


def test_rum_5_run_split_by_routing_keys(tmp_path):
    game = rigged("R4 R5 R6 R7 R8", ["R6 K1", "Y1"])
    with playing(tmp_path, game) as fingers:
        fingers.read_all_messages()
        fingers.route_on("set_1", "r8")
        fingers.route_on("set_1", "r7")
        fingers.route_on("rack", "r6")
        fingers.route_on("selection", "new")
        fingers.route_on("commands", "done")
        assert sorted(game.table)[:2] == [("R4", "R5", "R6"), ("R6", "R7", "R8")]


def test_rum_6_joker_exchange_by_routing_keys(tmp_path):
    game = rigged("K4 J K6", ["K5 R9 B9", "Y2"])
    with playing(tmp_path, game) as fingers:
        fingers.read_all_messages()
        fingers.route_on("set_1", "jk5")  # the joker reads as the k5 it stands for
        fingers.route_on("rack", "r9")
        fingers.route_on("rack", "b9")
        fingers.route_on("selection", "new")
        fingers.route_on("rack", "k5")
        # K4 K6 is not a set: its number and tiles arrive with dots 7 and 8 raised
        fingers.go_to("set_1")
        row = fingers.brltty.display_rows()[0]
        shown = [cell for cell in row if cell not in (BLANK, LEFT_MARKER, RIGHT_MARKER)]
        assert shown and all(ord(cell) & DOTS_78 == DOTS_78 for cell in shown)
        assert fingers.text() == "1 k4 k6"
        fingers.route_on("set_1", "1")
        fingers.route_on("commands", "done")
        assert ("K4", "K5", "K6") in game.table and game.is_over()
