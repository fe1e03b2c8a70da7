"""Saves written before the message model (history as plain texts) resume, through the
session and through ``brailledev play`` without ``--new``, and play on (issue 13.1: a saved
game is never lost to an upgrade)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from brailledev.programs.cli import main
from brailledev.programs.session import Session
from layouts.registry import kit

OLD = Path(__file__).parent / "saves_0_2"
GAMES = ("uno", "rummikub", "elevens", "elements", "domino")


@pytest.mark.parametrize("game", GAMES)
def test_a_save_before_the_message_model_resumes_whole_and_plays_on(game, tmp_path):
    path = tmp_path / f"{game}.json"
    shutil.copy(OLD / f"{game}.json", path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    session = Session.resume(path, pace=0)
    assert session.table.game.to_dict() == saved["table"]["state"]
    assert session.table.moves == saved["table"]["moves"]
    told = saved["reader"]["history"]["texts"]
    assert session.seat.history.texts[:len(told)] == told  # every message kept, in order
    assert session.seat.history.texts[-1].endswith(
        session.seat.catalog.text("game_resumed"))
    helper = kit(game).make_bot("heuristic", 5)
    for _ in range(4):  # the person's moves go on being played and saved
        session.table.run_bots()
        if session.table.game.is_over():
            break
        assert session.seat.play(helper.choose(session.seat.view(), session.table.legal(0)))
    again = Session.resume(path, pace=0)
    assert again.table.game.to_dict() == session.table.game.to_dict()
    assert json.loads(path.read_text(encoding="utf-8"))["reader"]["history"]["messages"]


@pytest.mark.parametrize("game", GAMES)
def test_make_play_goes_on_with_a_save_before_the_message_model(game, tmp_path, capsys,
                                                              quitting):
    path = tmp_path / f"{game}.json"
    shutil.copy(OLD / f"{game}.json", path)
    state = json.loads(path.read_text(encoding="utf-8"))["table"]["state"]
    assert main(["play", game, "--save", str(path), "--no-speech", "--pace", "0"]) == 0
    assert capsys.readouterr().err == ""
    assert json.loads(path.read_text(encoding="utf-8"))["table"]["state"] == state
    assert not list(tmp_path.glob("*.broken-*"))  # resumed, nothing set aside
    assert quitting and quitting[0].writes  # the game was drawn
