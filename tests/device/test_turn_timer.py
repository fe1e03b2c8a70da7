"""The turn time limit of the display's seat (RUM-7), with a fake clock instead of minutes."""

from __future__ import annotations

import threading
import time

import pytest

from brailledev.display.braille import translator
from brailledev.display.memory import MemoryDisplay
from brailledev.programs import options as game_options
from brailledev.programs.cli import build_parser
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from brailledev.table.turntimer import TurnTimer
from games.rummikub.engine import Rummikub
from tests.games.test_rummikub_engine import rigged
from tests.play_helpers import told


class FakeClock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def timed_session(game: Rummikub, clock: FakeClock, lang: str = "en") -> Session:
    session = Session.start("rummikub", players=2, seed=1, lang=lang, pace=0, bots="greedy",
                            clock=clock)
    session.table.game = game
    return session


def status(session: Session) -> list[str]:
    return [region.text for region in next(line for line in session.seat.lines()
                                           if line.key == "status").regions]


def route(session: Session, key: str, text: str) -> None:
    line = next(each for each in session.seat.lines() if each.key == key)
    session.seat.route(next(region for region in line.regions if region.text == text).target)


def test_rum_7_time_told_at_one_minute_and_15_seconds_then_timeout_restores_and_draws_3():
    game = rigged("B4 B5 B6", ["B3 K8", "Y1"])
    game.turn_times = [120, 120]
    clock = FakeClock()
    session = timed_session(game, clock)
    session.table.tick()
    assert status(session)[-1] == "120 seconds left."
    route(session, "rack", "k8")          # a turn in the works: K8 put on set 1
    route(session, "set_1", "1")
    assert session.seat.pending is not None
    clock.now += 59.5
    session.table.tick()
    assert not any("seconds left" in text for text in told(session))
    assert status(session)[-1] == "75 seconds left."   # shown in 15 s steps (61 left)
    clock.now += 0.5
    assert session.table.tick()
    assert told(session)[-1] == "60 seconds left."
    assert session.seat.flash == "60 seconds left."  # shown at once, where the player is
    session.seat.clear_flash()
    clock.now += 44.0
    session.table.tick()
    assert told(session)[-1] == "60 seconds left."  # told once
    assert status(session)[-1] == "30 seconds left."       # 16 left, next step up
    clock.now += 1.0
    session.table.tick()
    assert told(session)[-1] == "15 seconds left."
    assert status(session)[-1] == "15 seconds left."
    clock.now += 14.9
    session.table.tick()
    assert game.turn == 0
    clock.now += 0.1
    assert session.table.tick()
    assert game.table == [("B4", "B5", "B6")]     # the work in progress is gone
    assert len(game.racks[0]) == 2 + 3            # and three tiles drawn
    assert "K8" in game.racks[0] and session.seat.pending is None
    assert any(text.startswith("Time is up: you draw") for text in told(session))
    assert game.turn == 1
    marks = [text for text in told(session) if "seconds left" in text]
    assert marks == ["60 seconds left.", "15 seconds left."]
    assert "seconds left." not in status(session)[-1]   # the bot's turn: no timer shown


def test_a_short_limit_tells_only_the_marks_below_it_and_a_new_turn_starts_afresh():
    game = rigged("B4 B5 B6", ["B3 K8", "Y1 Y2"])
    game.turn_times = [30, 30]
    clock = FakeClock()
    session = timed_session(game, clock)
    session.table.tick()
    clock.now += 20
    session.table.tick()
    assert told(session)[-1] == "15 seconds left."
    route(session, "commands", "draw")    # the turn ends in time
    session.table.run_bots()
    assert game.turn == 0
    session.table.tick()
    assert status(session)[-1] == "30 seconds left."
    assert [text for text in told(session) if "seconds left" in text] == \
        ["15 seconds left."]


def test_no_timer_for_a_seat_without_limit_nor_for_bots_nor_games_without_limits():
    game = rigged("B4 B5 B6", ["B3 K8", "Y1"])
    game.turn_times = [0, 120]
    clock = FakeClock()
    session = timed_session(game, clock)
    assert not session.table.tick()
    clock.now += 10_000
    assert not session.table.tick()
    assert session.table.timer.left() is None and game.turn == 0 and len(game.racks[0]) == 2
    assert not any("seconds left" in text for text in status(session))
    # the bot's seat has a limit, but bots are never timed
    game.turn_times = [120, 120]
    game.turn = 1
    session.table.tick()
    clock.now += 10_000
    assert not session.table.tick()
    assert game.turn == 1 and len(game.racks[1]) == 1
    uno = Session.start("uno", players=2, seed=1, lang="en", pace=0, clock=clock)
    clock.now += 10_000
    assert not uno.table.tick() and uno.table.timer.left() is None


@pytest.mark.parametrize(("lang", "last", "up"), [
    ("en", "15 seconds left.", "Time is up."),
    ("fr", "Plus que 15 secondes.", "Temps écoulé."),
    ("de", "Noch 15 Sekunden.", "Die Zeit ist um."),
])
def test_the_status_line_says_the_time_is_up_never_0_seconds_left(lang, last, up):
    game = rigged("B4 B5 B6", ["B3 K8", "Y1"])
    game.turn_times = [30, 30]
    clock = FakeClock()
    session = timed_session(game, clock, lang)
    session.table.tick()
    clock.now += 29.5
    assert status(session)[-1] == last
    clock.now += 0.5  # no second left, and the table has not yet played the clock's move
    assert status(session)[-1] == up
    assert not any(text[0] == "0" or " 0 " in text for text in status(session))
    assert session.table.tick() and game.turn == 1
    assert up not in status(session)  # the bot's turn: no clock shown


def test_time_limit_on_the_command_line_reaches_the_timer():
    args = build_parser().parse_args(["play", "rummikub", "--time-limit", "45"])
    options = game_options.chosen(args, "rummikub", 2)
    clock = FakeClock()
    session = Session.start("rummikub", players=2, seed=4, lang="fr", pace=0, options=options,
                            clock=clock)
    assert isinstance(session.table.game, Rummikub) and session.table.game.turn_times == [45, 45]
    session.table.run_bots()
    session.table.tick()
    assert status(session)[-1] == "Plus que 45 secondes."
    assert told(session)[1] == ("Chacun de vos tours dure 45 secondes ; pour jouer sans "
                                "chronomètre, lancez la partie avec --time-limit 0.")
    assert "À vous : 45 secondes au chronomètre." in told(session)  # before the turn is read
    clock.now += 30
    session.table.tick()
    assert told(session)[-1] == "Plus que 15 secondes."


def test_a_game_without_a_clock_says_nothing_of_it():
    session = Session.start("rummikub", players=2, seed=4, lang="en", pace=0,
                            options={"turn_times": 0})
    session.table.run_bots()
    assert not any("clock" in text for text in told(session))


def test_the_play_loop_times_the_turn_out_by_itself():
    game = rigged("B4 B5 B6", ["B3 K8", "Y1"])
    game.turn_times = [120, 120]
    clock = FakeClock()
    session = timed_session(game, clock)
    display = MemoryDisplay(columns=40)
    front = Front(session, display, translator("en-ueb-g1.ctb"))
    thread = threading.Thread(target=front.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while session.table.timer.left() != 120 and time.monotonic() < deadline:
            time.sleep(0.01)
        clock.now += 120
        while len(game.racks[0]) < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(game.racks[0]) == 5
    finally:
        front.stop()
        thread.join(10)


def test_the_timer_alone():
    clock = FakeClock()
    timer = TurnTimer(clock)
    timer.follow(90, turn=1)
    assert (timer.left(), timer.due(), timer.expired()) == (90, [], False)
    clock.now += 80      # a late look: both marks passed, only the lowest is still true
    assert timer.due() == [15] and timer.due() == []
    timer.follow(90, turn=1)
    assert timer.left() == 10          # the same turn keeps its start
    timer.follow(90, turn=2)
    assert timer.left() == 90          # a new turn starts again
    timer.follow(None, turn=3)
    assert timer.left() is None and not timer.expired()
