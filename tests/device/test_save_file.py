"""A saved game is never lost or changed (issue 13.1, 13.3, 13.6): an unreadable or newer
save is refused by name and left as it is (``--new`` sets it aside), another unfinished game
is never written over, a save that cannot be written lets the game go on and says so, the
save folder is private and the leftovers of killed writers are cleaned."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from brailledev.programs.cli import main
from brailledev.programs.session import Session
from brailledev.table.history import History
from layouts.errors import UserError

ROOT = Path(__file__).resolve().parents[2]
ONE_ROUND = {"match_target": 0}


def new_game(path: Path, seed: int = 3, **kwargs) -> Session:
    session = Session.start("uno", players=2, seed=seed, lang="en", options=ONE_ROUND,
                            save=path, pace=0, **kwargs)
    session.table.run_bots()
    return session


def play(*words: str) -> list[str]:
    return ["play", *words, "--no-speech", "--pace", "0"]


def kept(path: Path) -> tuple[bytes, int]:
    """What must not change: the bytes and the modification time."""
    return path.read_bytes(), path.stat().st_mtime_ns


def one_sentence(err: str) -> str:
    assert err.startswith("brailledev: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.removeprefix("brailledev: ").strip()


# ---- refused by name, left as it is -------------------------------------------------------

def test_a_damaged_save_says_what_is_wrong_where_in_the_readers_language(tmp_path, capsys):
    path = tmp_path / "uno.json"
    new_game(path)
    saved = json.loads(path.read_text())
    saved["table"]["state"]["hands"][1][0] = "z99"
    path.write_text(json.dumps(saved))
    before = kept(path)
    assert main(play("uno", "--resume", str(path), "--lang", "fr")) == 2
    said = one_sentence(capsys.readouterr().err)
    assert said.startswith(f"La partie enregistrée {path} est abîmée")
    assert "table.state.hands.1.0 contient une carte inconnue, z99" in said
    assert main(play("uno", "--resume", str(path), "--lang", "en")) == 2
    said = one_sentence(capsys.readouterr().err)
    assert "table.state.hands.1.0 holds an unknown card, z99" in said
    assert "BadState" not in said and "bad_state" not in said
    assert kept(path) == before


def test_a_save_of_a_newer_brailledev_says_so_and_is_kept(tmp_path, capsys, quitting):
    path = tmp_path / "uno.json"
    new_game(path)
    saved = json.loads(path.read_text())
    saved["version"] = 7
    path.write_text(json.dumps(saved))
    before = kept(path)
    assert main(play("uno", "--resume", str(path))) == 2
    assert "was written by a newer brailledev (save version 7)" in \
        one_sentence(capsys.readouterr().err)
    assert main(play("uno", "--save", str(path))) == 2
    assert "so no new game replaces it" in one_sentence(capsys.readouterr().err)
    assert kept(path) == before and not quitting


@pytest.mark.parametrize("content", [b"[" * 200_000, b'{"format": "brailledev-save", "ver',
                                     b"\xff\xfe", b'{"format": "brailledev-save", '
                                     b'"version": 2, "table": {}, "reader": {}}'])
def test_play_without_new_never_writes_over_a_save_it_cannot_read(tmp_path, capsys, quitting,
                                                                 content):
    path = tmp_path / "uno.json"
    path.write_bytes(content)
    before = kept(path)
    assert main(play("uno", "--save", str(path), "--seed", "4")) == 2
    said = one_sentence(capsys.readouterr().err)
    assert said.startswith(f"The saved game {path} cannot be read (")
    assert "start one with --new (the file is kept as uno.broken-DATE.json)" in said
    assert main(play("uno", "--save", str(path))) == 2  # the same command again: the same
    assert one_sentence(capsys.readouterr().err) == said
    assert kept(path) == before and not quitting


def test_new_sets_the_unreadable_save_aside_and_says_where(tmp_path, capsys, quitting):
    path = tmp_path / "uno.json"
    path.write_bytes(b"{broken")
    assert main(play("uno", "--save", str(path), "--new", "--lang", "en")) == 0
    aside = [each for each in tmp_path.iterdir() if each.name.startswith("uno.broken-")]
    assert len(aside) == 1 and aside[0].suffix == ".json"
    assert aside[0].read_bytes() == b"{broken"
    told = told_parts(History.from_dict(json.loads(path.read_text())["reader"]["history"]))
    assert f"The saved game that could not be read is kept as {aside[0]}." in told
    assert sorted(each.name for each in tmp_path.iterdir()) == sorted(["uno.json",
                                                                       aside[0].name])


def test_resume_elsewhere_never_writes_over_another_unfinished_game(tmp_path, capsys,
                                                                   quitting):
    one, other = tmp_path / "one.json", tmp_path / "other.json"
    new_game(one, seed=3)
    new_game(other, seed=5)
    before = kept(other)
    assert main(play("uno", "--resume", str(one), "--save", str(other))) == 2
    assert one_sentence(capsys.readouterr().err) == (
        f"--save {other} holds another unfinished game; choose another --save, or add --new "
        "to replace it.")
    assert kept(other) == before and not quitting
    assert main(play("uno", "--resume", str(one), "--save", str(other), "--new")) == 0
    assert json.loads(other.read_text())["table"]["state"] == \
        json.loads(one.read_text())["table"]["state"]


def test_resume_elsewhere_over_an_unreadable_file_sets_it_aside_only_with_new(tmp_path,
                                                                             capsys, quitting):
    one, other = tmp_path / "one.json", tmp_path / "other.json"
    new_game(one)
    other.write_text("not a game")
    assert main(play("uno", "--resume", str(one), "--save", str(other))) == 2
    assert "cannot be read (it is not valid JSON at line 1, column 1)" in \
        one_sentence(capsys.readouterr().err)
    assert other.read_text() == "not a game"
    assert main(play("uno", "--resume", str(one), "--save", str(other), "--new")) == 0
    assert [each.read_text() for each in tmp_path.glob("other.broken-*.json")] == \
        ["not a game"]


def test_a_finished_game_is_replaced_by_a_new_one_without_asking(tmp_path, quitting):
    path = tmp_path / "uno.json"
    session = new_game(path)
    while not session.table.game.is_over():
        from tests.device.save_child import play_a_turn
        play_a_turn(session, session.table.moves)
    assert main(play("uno", "--save", str(path), "--seed", "9")) == 0
    assert not Session.resume(path).table.game.is_over()


def test_a_save_of_brailledev_0_1_still_resumes(tmp_path):
    path = tmp_path / "uno.json"
    session = new_game(path)
    table, reader = session.table.to_dict(), session.seat.to_dict()
    path.write_text(json.dumps({
        "format": "brailledev-save", "version": 1, "game": "uno", "state": table["state"],
        "seat": 0, "bots": table["bots"], "bot_seed": table["bot_seed"],
        "moves": table["moves"], "lang": "en", "table": None, "history": reader["history"]}))
    again = Session.resume(path)
    assert again.table.game.to_dict() == session.table.game.to_dict()
    assert again.seat.history.texts[-1] == "Game resumed where it was saved."


def told_parts(history: History) -> list[str]:
    """Every sentence told, oldest first (a summary of news holds several)."""
    return [part for message in history.messages for part in message.parts]


# ---- a save that cannot be written ---------------------------------------------------------

def test_a_save_folder_that_is_a_file_lets_the_game_go_on_and_says_so_once(tmp_path):
    from tests.device.save_child import play_a_turn

    blocker = tmp_path / "saves"
    blocker.write_text("a file where the folder should be")
    session = new_game(blocker / "uno.json", seed=4)
    for turn in range(3):
        play_a_turn(session, turn)
    failing = [text for text in told_parts(session.seat.history) if text.startswith("Saving fails")]
    assert failing == [f"Saving fails: a part of the folder's path is a file "
                       f"({blocker / 'uno.json'}); the game goes on, and every move tries "
                       "again."]
    assert session.table.moves > 3 and session.saving.failure is not None
    blocker.unlink()
    play_a_turn(session, 3)
    assert session.saving.failure is None
    assert told_parts(session.seat.history).count(
        f"Saving works again ({blocker / 'uno.json'}).") == 1
    assert Session.resume(blocker / "uno.json").table.game.to_dict() == \
        session.table.game.to_dict()
    assert stat.S_IMODE(blocker.stat().st_mode) == 0o700


def _child(kind: str) -> dict:
    """Run :mod:`tests.device.save_child` (as an unprivileged user when we are root: root
    writes in read-only folders)."""
    folder = Path(tempfile.mkdtemp(prefix="brailledev-saves-"))
    try:
        extra: dict = {}
        if os.geteuid() == 0:
            os.chown(folder, 65534, 65534)
            extra = {"user": 65534, "group": 65534, "extra_groups": []}
        result = subprocess.run([sys.executable, "-m", "tests.device.save_child", str(folder),
                                 kind], cwd=ROOT, capture_output=True, text=True, timeout=120,
                                env={"PATH": "/usr/bin:/bin", "HOME": str(folder),
                                     "PYTHONDONTWRITEBYTECODE": "1"}, check=False, **extra)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=False)


@pytest.mark.parametrize(("kind", "why"), [
    ("read_only", "permission refusée"),
    ("file_size", "le fichier dépasse la taille permise"),  # a disk that is full, for us
])
def test_a_save_that_fails_is_told_once_and_once_again_when_it_works(kind, why):
    result = _child(kind)
    failing = [text for text in result["told"] if text.startswith("L'enregistrement échoue")]
    assert len(failing) == 1 and f"échoue : {why} (" in failing[0], result["told"]
    again = [text for text in result["told"] if text.startswith("L'enregistrement fonctionne")]
    assert len(again) == 1
    assert result["failing"] and result["works"] and result["same"]


def test_quitting_while_saving_fails_says_the_moves_are_lost(tmp_path, capsys, quitting):
    blocker = tmp_path / "saves"
    blocker.write_text("a file")
    assert main(play("uno", "--save", str(blocker / "uno.json"), "--lang", "en")) == 2
    said = one_sentence(capsys.readouterr().err)
    assert said.startswith(f"The game could not be saved in {blocker / 'uno.json'} (a part "
                           "of the folder's path is a file), so the moves since its last save "
                           "are lost")
    assert blocker.read_text() == "a file"


# ---- the folder, the leftovers --------------------------------------------------------------

def test_the_default_save_folder_is_private(tmp_path, monkeypatch, quitting):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert main(play("uno")) == 0
    folder = tmp_path / "state" / "brailledev"
    assert (folder / "uno.json").exists()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "state").stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "uno.json").stat().st_mode) == 0o600
    folder.chmod(0o755)  # made by an older brailledev: ours, so it is tightened
    assert main(play("uno")) == 0
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_leftovers_of_killed_writers_are_cleaned_at_start_and_live_ones_kept(tmp_path,
                                                                           quitting):
    dead = subprocess.Popen(["true"])
    dead.wait()
    leftover = tmp_path / f".uno.json.{dead.pid}.abcd1234.tmp"
    leftover.write_text("half")
    live = tmp_path / f".uno.json.{os.getppid()}.wxyz5678.tmp"
    live.write_text("being written")
    unrelated = tmp_path / ".notes.tmp"
    unrelated.write_text("mine")
    assert main(play("uno", "--save", str(tmp_path / "uno.json"))) == 0
    names = {each.name for each in tmp_path.iterdir()}
    assert leftover.name not in names
    assert {live.name, unrelated.name, "uno.json"} == names


# ---- the turn clock ----------------------------------------------------------------------

def test_rum_7_a_resumed_turn_goes_on_with_the_time_that_was_left(tmp_path):
    now = [1000.0]
    path = tmp_path / "rummikub.json"
    session = Session.start("rummikub", players=2, seed=2, lang="en", save=path, pace=0,
                            clock=lambda: now[0])
    session.table.run_bots()
    assert session.table.game.must_act() == [0]
    assert session.table.time_left(0) == 120
    now[0] += 50
    session.table.tick()
    assert session.table.time_left(0) == 70
    session.save()
    later = [5000.0]  # another process: its clock has nothing to do with the first's
    again = Session.resume(path, pace=0, clock=lambda: later[0])
    assert again.table.time_left(0) == 70
    later[0] += 10
    again.table.tick()
    assert again.table.time_left(0) == 60
    told = [text for text in told_parts(again.seat.history) if "seconds left" in text]
    assert told == ["60 seconds left."]
    later[0] += 60
    again.table.tick()
    assert again.table.game.must_act() != [0] or again.table.moves > session.table.moves


def test_resume_refuses_a_file_it_is_given_that_does_not_exist(tmp_path):
    with pytest.raises(UserError, match="There is no saved game"):
        Session.resume(tmp_path / "none.json")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The unfinished game is kept as {kept}: resume it with --resume {kept}."),
    ("fr", "La partie inachevée est gardée sous le nom {kept} : reprenez-la avec --resume "
           "{kept}.")])
def test_new_keeps_the_unfinished_game_beside_the_new_one_and_says_where(tmp_path, quitting,
                                                                         lang, said):
    """Issue 32.12: --new never deletes an unfinished game."""
    path = tmp_path / "uno.json"
    new_game(path, seed=3)
    before = path.read_bytes()
    assert main(play("uno", "--save", str(path), "--new", "--seed", "5", "--lang", lang)) == 0
    aside = list(tmp_path.glob("uno.unfinished-*.json"))
    assert len(aside) == 1 and aside[0].read_bytes() == before
    told = told_parts(History.from_dict(json.loads(path.read_text())["reader"]["history"]))
    assert said.format(kept=aside[0]) in told
    assert Session.resume(aside[0]).table.to_dict()["state"] == \
        json.loads(before)["table"]["state"]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Resuming the saved game {path} keeps the players, bots, seed and options it was "
           "started with, so --players, --bots, --time-limit cannot apply; leave them out, "
           "or start a new game with --new."),
    ("fr", "La partie enregistrée {path} reprend avec les joueurs, les robots, la graine et "
           "les options de son début, donc --players, --bots, --time-limit ne peut pas "
           "s'appliquer ; retirez-les, ou commencez une nouvelle partie avec --new.")])
def test_a_resumed_game_names_the_options_that_cannot_apply(tmp_path, capsys, quitting, lang,
                                                            said):
    """Issue 32.13: --players 4 --bots random with --resume was ignored without a word."""
    path = tmp_path / "rummikub.json"
    Session.start("rummikub", players=2, seed=3, lang="en", save=path)
    before = kept(path)
    assert main(play("rummikub", "--resume", str(path), "--players", "4", "--bots", "random",
                     "--time-limit", "30", "--lang", lang)) == 2
    assert one_sentence(capsys.readouterr().err) == said.format(path=path)
    assert kept(path) == before and not quitting
    assert main(play("rummikub", "--save", str(path), "--bots", "random")) == 2
    assert one_sentence(capsys.readouterr().err).startswith(
        f"An unfinished game is saved in {path}")
    assert kept(path) == before and not quitting
