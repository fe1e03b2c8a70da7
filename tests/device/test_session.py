"""The play session without a display: routing, refusals, history, bots, autosave, resume."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from brailledev.display.braille import translator
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.cli import main
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from games.uno.engine import Drew
from games.uno.notation import PLAY
from games.uno.notation import Move as UnoMove
from layouts.errors import UserError
from layouts.screen import MESSAGE_LINE, PlayMove
from tests.play_helpers import ONE_ROUND, wanted
from tests.route_keys import keys_to


def new(tmp_path: Path | None = None, seed: int = 3, lang: str = "en", players: int = 2,
        **kwargs) -> Session:
    save = tmp_path / "uno.json" if tmp_path is not None else None
    return Session.start("uno", players=players, seed=seed, lang=lang, options=ONE_ROUND,
                         save=save, pace=0, **kwargs)


def play_turn(session: Session) -> None:
    """Route what a player would route, then let the bots answer."""
    seat = session.seat
    key, index = wanted(seat.lines(), session.table.game.legal_moves(0), seat.pending)
    line = next(line for line in session.seat.lines() if line.key == key)
    session.seat.route(line.regions[index].target)
    session.table.run_bots()


def play_to_end(session: Session, limit: int = 500) -> int:
    session.table.run_bots()
    turns = 0
    while not session.table.game.is_over():
        play_turn(session)
        turns += 1
        assert turns < limit
    return turns


def test_whole_game_by_routing_targets_alone():
    for seed in range(6):
        session = new(seed=seed)
        play_to_end(session)
        assert session.table.game.is_over()
        last = session.seat.history.newest
        assert last is not None and last.parts[-1] in ("You win the game!", "Bo wins the game.")
        assert session.seat.focus == MESSAGE_LINE  # the end is news: it waits on the message line


def test_illegal_card_is_refused_with_its_reason_and_nothing_changes(tmp_path):
    session = new(tmp_path)
    session.table.run_bots()
    view = session.seat.view()
    wrong = next(card for card in view.hand
                 if session.table.game.check(0, UnoMove(PLAY, card)) is not None)
    before = session.table.game.to_dict()
    saved = (tmp_path / "uno.json").read_text()
    told = len(session.seat.history.texts)
    assert session.seat.play(UnoMove(PLAY, wrong)) is False
    assert session.table.game.to_dict() == before
    assert (tmp_path / "uno.json").read_text() == saved
    refusal = session.seat.history.texts[told]
    why = session.table.game.check(0, UnoMove(PLAY, wrong))
    assert why is not None
    reason = session.seat.screen.explain(why, session.seat.context())
    assert refusal == f"Refused: {reason}"
    assert len(session.seat.history.texts) == told + 1


def test_refusal_is_shown_at_once_where_the_player_is_and_kept():
    session = new()
    session.table.run_bots()
    session.seat.read_on()
    assert session.seat.focus == "hand"
    wrong = next(card for card in session.seat.view().hand
                 if session.table.game.check(0, UnoMove(PLAY, card)) is not None)
    session.seat.play(UnoMove(PLAY, wrong))
    assert session.seat.focus == "hand"  # the player is not moved: the refusal comes to them
    flash = session.seat.flash
    assert flash is not None and flash.startswith("Refused: ")
    for _ in range(3):  # time and redraws do not clear it; only a key does (the front's)
        session.seat.lines()
        assert session.seat.flash == flash
    assert session.seat.history.newest is not None and session.seat.history.newest.text == flash
    assert not session.seat.history.fresh  # shown at once, so never queued as unread


def test_history_holds_what_the_seat_may_know_only():
    session = new(seed=11)
    play_to_end(session)
    # Every Drew of another seat is told as a count, never as cards.
    for message in session.seat.history.messages:
        for text in message.parts:
            if text.startswith("Bo draws"):
                assert text in ("Bo draws 1.", "Bo draws 2.", "Bo draws 4.", "Bo draws 6.")


def test_drew_event_of_another_seat_is_told_without_cards():
    session = new()
    context = session.seat.context()
    assert session.seat.screen.describe(Drew(1, 1, "draw", None), context) == "Bo draws 1."
    assert session.seat.screen.describe(Drew(0, 1, "draw", ("r5",)), context) == "You draw r5."


def test_autosave_after_every_move_and_resume_goes_on_identically(tmp_path):
    session = new(tmp_path, seed=5)
    session.table.run_bots()
    for _ in range(3):
        play_turn(session)
    path = tmp_path / "uno.json"
    saved = json.loads(path.read_text())
    assert saved["table"]["game"] == "uno"
    assert saved["table"]["state"] == session.table.game.to_dict()
    assert saved["reader"]["history"] == session.seat.history.to_dict()
    assert [p.name for p in tmp_path.iterdir()] == ["uno.json"]  # no temporary left over
    again = Session.resume(path, pace=0)
    assert again.table.game.to_dict() == session.table.game.to_dict()
    newest = again.seat.history.newest
    assert newest is not None and newest.parts[-1] == "Game resumed where it was saved."
    kept = [message.parts for message in session.seat.history.messages]
    resumed = [message.parts for message in again.seat.history.messages]
    assert resumed[:len(kept) - 1] == kept[:-1]
    assert again.seat.focus == MESSAGE_LINE
    play_to_end(session)
    play_to_end(again)
    assert again.table.game.to_dict() == session.table.game.to_dict()


@pytest.mark.parametrize("content", ["{not json", '{"format": "other"}', "",
                                     '{"format": "brailledev-save", "version": 1, '
                                     '"game": "uno", "state": {"players": 2}}'])
def test_damaged_save_is_one_clear_sentence(tmp_path, content):
    path = tmp_path / "uno.json"
    path.write_text(content)
    with pytest.raises(UserError) as error:
        Session.resume(path)
    message = str(error.value)
    assert message.startswith(f"The saved game {path} is damaged")
    assert message.count(". ") == 0 and message.endswith(".")


def test_damaged_save_from_the_command_line_exits_non_zero(tmp_path, capsys):
    path = tmp_path / "uno.json"
    path.write_bytes(b"\x00\xff garbage")
    status = main(["play", "uno", "--resume", str(path), "--no-speech", "--display", "terminal"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("brailledev: The saved game") and err.count("\n") == 1
    assert "Traceback" not in err


def test_missing_save_file_says_so(tmp_path, capsys):
    status = main(["play", "uno", "--resume", str(tmp_path / "none.json"), "--no-speech"])
    assert status == 2
    assert "There is no saved game" in capsys.readouterr().err


def test_bots_stop_where_the_display_seat_must_act():
    session = new(seed=2, players=4)
    session.table.run_bots()
    assert session.table.game.must_act() == [0] or session.table.game.is_over()
    assert session.table.bot_due() is None


def test_routing_a_move_target_plays_it_and_the_changed_hand_is_the_confirmation():
    session = new(seed=4)
    session.table.run_bots()
    session.seat.read_on()
    legal = session.table.game.legal_moves(0)
    hand = session.seat.lines()[2]
    index = next(i for i, region in enumerate(hand.regions)
                 if isinstance(region.target, PlayMove) and region.target.move in legal)
    card = hand.regions[index].text
    count = len(hand.regions)
    session.seat.route(hand.regions[index].target)
    assert session.seat.focus == "hand"  # no echo queued: the player stays where they acted
    assert len(session.seat.lines()[2].regions) == count - 1
    assert f"You play {card}." in session.seat.history.texts  # kept for reading back
    assert not session.seat.history.fresh


def test_quit_target_ends_the_key_loop_and_saves(tmp_path):
    session = new(tmp_path)
    commands = next(line for line in session.seat.lines() if line.key == "commands")
    (tmp_path / "uno.json").unlink()
    display = MemoryDisplay(40)
    keys = keys_to(session.seat.lines(), "commands", len(commands.regions) - 1,
                   translator("en-ueb-g1.ctb"))
    display.press(*keys, keys[-1])  # quit asks first: routed again, yes
    front = Front(session, display, translator("en-ueb-g1.ctb"))
    loop = threading.Thread(target=front.run)
    loop.start()
    loop.join(20)
    if loop.is_alive():
        front.stop()
    assert not loop.is_alive() and commands.regions[-1].text == "quit"
    assert (tmp_path / "uno.json").exists()


def test_a_new_game_asked_for_never_replaces_an_unfinished_one(tmp_path, capsys):
    session = new(tmp_path)
    path = tmp_path / "uno.json"
    saved = path.read_text()
    status = main(["play", "uno", "--save", str(path), "--no-speech", "--display", "terminal",
                   "--seed", "5"])
    assert status == 2
    assert capsys.readouterr().err == (
        f"brailledev: An unfinished game is saved in {path}; go on with it with --resume "
        f"{path}, or start a new one with --new.\n")
    assert path.read_text() == saved
    assert not session.table.game.is_over()


def test_the_same_command_again_goes_on_with_the_unfinished_game(tmp_path, monkeypatch):
    import os
    import sys

    new(tmp_path)
    path = tmp_path / "uno.json"
    saved = json.loads(path.read_text())
    read, write = os.pipe()
    os.close(write)  # the terminal ends at once: what matters is which game was loaded
    with os.fdopen(read) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        status = main(["play", "uno", "--save", str(path), "--no-speech",
                       "--display", "terminal", "--pace", "0", "--lang", "en"])
    assert status == 2  # the terminal closed: one sentence, the game saved
    after = json.loads(path.read_text())
    assert after["table"]["state"] == saved["table"]["state"]
    told = [part for message in after["reader"]["history"]["messages"]
            for part in message["parts"]]
    assert any(text.startswith("Your saved game goes on") for text in told)


def test_refusal_is_spoken_too(tmp_path):
    from brailledev.display.speech import Speech

    speech = Speech("en", record_dir=tmp_path / "said")
    session = new()
    session.seat.attach_speech(speech)
    session.table.run_bots()
    assert speech.wait(timeout=60)
    before = len(list((tmp_path / "said").glob("*.wav")))
    wrong = next(card for card in session.seat.view().hand
                 if session.table.game.check(0, UnoMove(PLAY, card)) is not None)
    session.seat.play(UnoMove(PLAY, wrong))
    assert speech.wait(timeout=60)
    speech.close()
    assert len(list((tmp_path / "said").glob("*.wav"))) == before + 1
    assert before >= len(session.seat.history.texts) - 1  # every message was spoken


def test_speech_that_cannot_start_is_one_message_in_the_players_language(tmp_path,
                                                                          monkeypatch):
    from brailledev.display.speech import Speech

    monkeypatch.setenv("PATH", str(tmp_path))  # no sound player anywhere
    session = new(lang="fr")
    speech = Speech("fr", on_notice=session.seat.notice)
    session.seat.attach_speech(speech)
    assert speech.wait(timeout=30)
    speech.close()
    assert session.seat.take_notices()
    assert not session.seat.take_notices()
    newest = session.seat.history.newest
    assert newest is not None and newest.parts[-1] == (
        "Parole coupée : aucun lecteur de son installé (aplay, paplay ou play de sox).")


def test_bad_table_is_refused_before_any_game_is_saved(tmp_path, capsys):
    path = tmp_path / "uno.json"
    status = main(["play", "uno", "--table", "nope.ctb", "--save", str(path), "--no-speech",
                   "--display", "terminal"])
    assert status == 2
    assert capsys.readouterr().err.startswith("brailledev: The braille table 'nope.ctb'")
    assert not path.exists()


def test_play_whose_terminal_input_ends_says_so_without_a_traceback(tmp_path, capsys,
                                                                    monkeypatch):
    import os
    import sys

    read, write = os.pipe()
    os.close(write)
    with os.fdopen(read) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        status = main(["play", "uno", "--save", str(tmp_path / "uno.json"), "--no-speech",
                       "--display", "terminal", "--pace", "0", "--lang", "en"])
    assert status == 2
    err = capsys.readouterr().err
    path = tmp_path / "uno.json"
    assert err == f"brailledev: The terminal closed; the game is saved in {path}: resume it " \
                  f"with --resume {path}.\n"
    assert path.exists()


def test_a_language_or_table_given_on_resume_wins_over_the_save(tmp_path):
    save = tmp_path / "uno.json"
    Session.start("uno", players=2, seed=4, lang="en", options=ONE_ROUND, pace=0,
                  braille_table="en-ueb-g2.ctb", save=save)
    french = Session.resume(save, lang="fr")
    assert french.seat.lang == "fr" and french.seat.catalog.lang == "fr"
    # the saved table was English: the caller takes French's
    assert french.seat.braille_table is None
    newest = french.seat.history.newest
    assert newest is not None and newest.parts[-1] == "Partie reprise là où elle était."
    assert Session.resume(save, lang="fr", braille_table="fr-bfu-g2.ctb").seat.braille_table == \
        "fr-bfu-g2.ctb"
    same = Session.resume(save, lang="en")  # the same language keeps its saved table
    assert same.seat.braille_table == "en-ueb-g2.ctb"
    assert same.seat.history.texts[-1].endswith("Game resumed where it was saved.")
    assert Session.resume(save, braille_table="en-us-comp6.ctb").seat.braille_table == \
        "en-us-comp6.ctb"
