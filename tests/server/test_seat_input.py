"""A half-made input at a server's table survives the seat's program (issue 37.1): for every
game, an input routed at a joined seat (a Wild waiting for its colour, Rummikub tiles
selected, an Elements card chosen, an Elevens or Domino card whose places are offered) is
in the seat file at once, with the table's position; the seat's client gone without a word
(as under kill -9) and joined again from that file, the input is back and the screen shows
the same lines. When the table moved on meanwhile (the turn clock ran out), the input is
dropped and the news says so, in English and French."""

from __future__ import annotations

import functools
import json
import time
from pathlib import Path
from typing import Any

import pytest

from brailledev.programs.join import Joined
from layouts.registry import GAMES
from layouts.screen import HELP_LINE, MESSAGE_LINE, STATUS_LINE, Ask, PlayMove
from tests.server.helpers import ServerThread, new_table
from tests.server.test_join import Player

SETTINGS: dict[str, dict[str, Any]] = {
    "uno": {"players": 2, "options": {"match_target": 0}},
    "rummikub": {"players": 2}, "elevens": {"players": 2}, "elements": {"players": 3},
    "domino": {"players": 2}}
# Lines that change between two joins whatever the input: news, help, the turn clock.
UNSTEADY = (MESSAGE_LINE, HELP_LINE, STATUS_LINE)


@pytest.fixture(scope="module")
def server():
    with ServerThread() as running:
        yield running


def screen_of(player: Player) -> dict[str, str]:
    return {line.key: line.text for line in player.seat.lines() if line.key not in UNSTEADY}


def an_ask(player: Player) -> tuple[str, int] | None:
    """The first region that starts an input the screen shows (the commands aside)."""
    seat = player.seat
    plain = screen_of(player)
    for line in seat.lines():
        if line.key in (*UNSTEADY, "commands"):
            continue
        for index, region in enumerate(line.regions):
            if isinstance(region.target, Ask) and region.target.pending is not None:
                seat.pending = region.target.pending
                shows = screen_of(player) != plain
                seat.pending = None
                if shows:
                    return line.key, index
    return None


def a_move(player: Player) -> tuple[str, int]:
    """A legal move the screen offers (the first)."""
    legal = player.joined.link.legal()
    for line in player.seat.lines():
        for index, region in enumerate(line.regions):
            if isinstance(region.target, PlayMove) and region.target.move in legal:
                return line.key, index
    raise AssertionError(f"no legal move shows: {[line.text for line in player.seat.lines()]}")


def to_an_input(player: Player, turns: int = 300) -> bool:
    """Play the seat's turns until it can start an input, and start it; False when the
    game ended first."""
    link = player.joined.link
    for _ in range(turns):
        player.until(lambda: link.waiting_for_me() or link.over(), timeout=30)
        if link.over():
            return False
        found = an_ask(player)
        if found is not None:
            player.route(*found)
            assert player.seat.pending is not None
            return True
        moved = functools.partial(lambda at: link.position != at or player.seat.flash is not None,
                                  link.position)
        player.route(*a_move(player))
        player.until(moved)
    raise AssertionError(f"no input in {turns} turns")


def seated_with_an_input(server: ServerThread, tmp_path: Path, game: str, lang: str,
                         **settings: Any) -> tuple[str, Player]:
    """A table of ``game`` with Ann and bots, where Ann started an input (the first deal
    that lets her)."""
    for seed in range(20):
        code = new_table(server.url, game=game, people=1, seed=seed, **settings)
        ann = Player(server.url, code, "Ann", lang, tmp_path)
        if to_an_input(ann):
            return code, ann
        ann.close()
        ann.save.unlink()
    raise AssertionError(f"no {game} deal lets Ann start an input")


def gone(joined: Joined) -> None:
    """The seat's program gone without a word or a last save, as under kill -9."""
    joined.background.run(joined.client.stop(), 5)
    assert joined.running is not None
    joined.running.result(5)
    joined.background.close()


def saved_now(player: Player) -> dict[str, Any]:
    player.pump()  # what the key loop does after a key: the input is saved
    data: dict[str, Any] = json.loads(player.save.read_text())
    return data


@pytest.mark.parametrize("game", GAMES)
def test_a_half_made_input_is_back_after_the_seat_program_died(server, tmp_path, game):
    code, ann = seated_with_an_input(server, tmp_path, game, "en", **SETTINGS[game])
    pending, shown = ann.seat.pending, screen_of(ann)
    data = saved_now(ann)
    assert data["reader"]["pending"] == ann.seat.screen.save_input(pending) is not None
    assert data["position"] == ann.joined.link.position
    gone(ann.joined)
    again = Player(server.url, code, "Ann", "en", tmp_path, resume=True)
    try:
        assert again.seat.pending == pending
        assert screen_of(again) == shown
        again.until(lambda: again.heard("You are back at the table."))
        assert again.seat.pending == pending
        assert not again.heard("The table moved on")
    finally:
        again.close()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The table moved on while you were away: the turn you were building is dropped."),
    ("fr", "La table a avancé pendant votre absence : le coup que vous prépariez est "
           "abandonné.")])
def test_an_input_the_table_moved_past_is_dropped_and_said(server, tmp_path, lang, said):
    code, ann = seated_with_an_input(server, tmp_path, "rummikub", lang, players=2,
                                     options={"turn_times": 3})
    position = saved_now(ann)["position"]
    gone(ann.joined)
    deadline = time.monotonic() + 20  # the clock runs on at the server: the penalty is drawn
    while server.call(lambda: server.room(code).table.moves) == position:
        assert time.monotonic() < deadline, "the turn clock never ran out"
        time.sleep(0.05)
    again = Player(server.url, code, "Ann", lang, tmp_path, resume=True)
    try:
        assert again.seat.pending is None
        assert again.heard(said)
        again.pump()
        assert json.loads(again.save.read_text())["reader"]["pending"] is None
    finally:
        again.close()
