"""Game variants from the command line: `--option NAME=VALUE` and the friendly flags reach
the engine; a bad value is one sentence and exit status 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pexpect
import pytest

from brailledev.programs.cli import main
from brailledev.programs.options import game_options
from brailledev.programs.session import Session
from games.options import Option
from games.rummikub import Rummikub
from games.uno import Uno
from layouts.registry import GAMES

BRAILLEDEV = str(Path(sys.executable).with_name("brailledev"))


def selfplay(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["selfplay", *args]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert err.startswith("brailledev: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


def test_every_game_declares_its_options():
    for game in GAMES:
        options = game_options(game)
        assert options, game
        assert all(isinstance(option, Option) for option in options.values())


def test_uno_12_mattel_variant_reaches_the_session(tmp_path):
    save = tmp_path / "uno.json"
    child = pexpect.spawn(BRAILLEDEV, ["play", "uno", "--variant", "mattel", "--seed", "3",
                                       "--save", str(save), "--no-speech", "--display",
                                       "terminal"],
                          encoding="utf-8", timeout=15, dimensions=(24, 100),
                          env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    child.expect("\x1b\\[2J")
    child.send("qq")  # quit, and yes to its question
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    game = Session.resume(save).table.game
    assert isinstance(game, Uno) and game.wild_draw_four == "no_matching_colour"


def test_uno_11_teams_and_match_target_through_options_in_a_session(tmp_path):
    session = Session.start("uno", players=4, seed=2, lang="en",
                            options={"teams": 2, "match_target": 0})
    game = session.table.game
    assert isinstance(game, Uno) and (game.teams, game.match_target) == (2, 0)


def test_selfplay_uno_flags_and_option_reach_the_engine(capsys):
    result = selfplay(capsys, "uno", "--games", "2", "--players", "4", "--teams",
                      "--variant", "mattel", "--option", "match_target=0")
    assert result["options"] == {"match_target": 0, "teams": 2,
                                 "wild_draw_four": "no_matching_colour"}
    wins = result["wins"]
    assert isinstance(wins, list) and wins[0] == wins[2] and wins[1] == wins[3]  # partners


def test_selfplay_elevens_beginner_plays_beginner_games(capsys, monkeypatch):
    from games.elevens import Elevens

    made: list[Elevens] = []
    original = Elevens.new.__func__  # type: ignore[attr-defined]

    def recording(cls, *args, **kwargs):  # keeps every game made, to look at it afterwards
        game = original(cls, *args, **kwargs)
        made.append(game)
        return game

    monkeypatch.setattr(Elevens, "new", classmethod(recording))
    result = selfplay(capsys, "elevens", "--games", "2", "--beginner", "--first", "1")
    assert result["options"] == {"beginner": True, "first": 1}
    assert len(made) == 2 and all(game.beginner for game in made)


def test_first_is_one_name_for_elevens_and_elements(capsys, monkeypatch):
    from games.elements.engine import Elements

    firsts: list[int] = []
    original = Elements.new.__func__  # type: ignore[attr-defined]

    def recording(cls, *args, **kwargs):  # the first player of each game made
        game = original(cls, *args, **kwargs)
        firsts.append(game.first)
        return game

    monkeypatch.setattr(Elements, "new", classmethod(recording))
    result = selfplay(capsys, "elements", "--games", "1", "--option", "first=2")
    assert result["options"] == {"first": 2} and firsts == [2]
    assert selfplay(capsys, "elements", "--games", "1", "--first", "1")["options"] == \
        {"first": 1}
    assert selfplay(capsys, "elevens", "--games", "1", "--option", "first=1")["options"] == \
        {"first": 1}
    assert [name for name in game_options("elements")] == ["first"]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_starts_without_players_given(capsys, game):
    from layouts.registry import kit

    result = selfplay(capsys, game, "--games", "1")
    assert result["players"] == kit(game).default_players
    assert kit(game).game.min_players <= result["players"] <= kit(game).game.max_players


def test_play_elements_without_players_plays_three(tmp_path, monkeypatch):
    import os

    read, write = os.pipe()
    os.close(write)  # the terminal ends at once: what matters is the game made
    with os.fdopen(read) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        status = main(["play", "elements", "--save", str(tmp_path / "e.json"), "--no-speech",
                       "--display", "terminal", "--lang", "en"])
    assert status == 2  # the terminal closed: one sentence, the game saved
    saved = json.loads((tmp_path / "e.json").read_text())
    assert saved["table"]["state"]["players"] == 3


@pytest.mark.parametrize(("args", "sentence"), [
    (["play", "elements", "--players", "2"],
     "Elements is for 3 to 5 players, not 2; give --players 3 to 5, or leave it out for 3."),
    (["play", "uno", "--bots", "heuristic,clever"],
     "Uno has no computer player called 'clever'; choose among random, heuristic with "
     "--bots."),
])
def test_players_and_bots_are_refused_before_any_display_opens(capsys, args, sentence):
    # a BrlAPI host nobody answers at: had the display been asked first, it would say so
    err = refused(capsys, *args, "--display", "brlapi", "--brlapi-host", "127.0.0.1:9",
                  "--no-speech", "--lang", "en", "--new")
    assert err == f"brailledev: {sentence}\n"


def test_players_refused_in_french_too(capsys):
    err = refused(capsys, "play", "elements", "--players", "6", "--display", "brlapi",
                  "--brlapi-host", "127.0.0.1:9", "--lang", "fr", "--new")
    assert err == ("brailledev: Elements se joue de 3 à 5 joueurs, pas 6 ; donnez --players "
                   "de 3 à 5, ou omettez-le pour 3.\n")


def test_selfplay_rummikub_time_limit(capsys):
    result = selfplay(capsys, "rummikub", "--games", "1", "--time-limit", "30",
                      "--bots", "greedy,random")
    assert result["options"] == {"turn_times": 30}
    session = Session.start("rummikub", players=2, seed=1, lang="en", bots="greedy",
                            options={"turn_times": 30})
    game = session.table.game
    assert isinstance(game, Rummikub) and game.turn_times == [30, 30]


def test_domino_deck_file_replaces_the_box_deck(tmp_path, capsys):
    from layouts.catalog import rules_data

    cards = rules_data("domino")["cards"]
    deck = tmp_path / "deck.toml"
    deck.write_text("cards = [" + ", ".join(f'"{card}"' for card in cards) + "]\n")
    result = selfplay(capsys, "domino", "--games", "1", "--deck", str(deck))
    assert result["options"] == {"deck": cards}
    short = tmp_path / "short.toml"
    short.write_text('cards = ["6/0", "1/1"]\n')
    err = refused(capsys, "selfplay", "domino", "--games", "1", "--deck", str(short))
    assert err == (f"brailledev: The deck file {short} cannot be played (a game needs at least "
                   "25 cards; it holds 2); correct it, or leave out --deck to play with the "
                   "box's cards.\n")
    err = refused(capsys, "selfplay", "domino", "--deck", str(tmp_path / "none.toml"))
    assert err == f"brailledev: There is no deck file {tmp_path / 'none.toml'}; give a TOML " \
                  "file holding cards = [...].\n"


@pytest.mark.parametrize(("args", "start"), [
    (["selfplay", "uno", "--option", "teams=3"], "The option teams cannot be '3'"),
    (["selfplay", "uno", "--option", "teams"], "--option 'teams' is not NAME=VALUE"),
    (["selfplay", "uno", "--option", "colour=red"], "uno has no option 'colour'"),
    (["selfplay", "uno", "--option", "match_target=x"], "The option match_target takes a"),
    (["selfplay", "elevens", "--option", "beginner=maybe"], "The option beginner is true or"),
    (["selfplay", "domino", "--beginner"], "--beginner is not an option of domino"),
    (["selfplay", "rummikub", "--time-limit", "-5", "--bots", "greedy"],
     "The option turn_times must be 0 or"),
    (["selfplay", "elevens", "--first", "2"], "The option first is a seat from 0 (you) to 1"),
    (["selfplay", "uno", "--teams", "--games", "1"],
     "The option teams = 2 is for 4, 6 players, not 2; change --players or leave it out."),
    (["play", "uno", "--variant", "weird"], "The option wild_draw_four cannot be 'weird'"),
])
def test_a_bad_option_is_one_sentence_and_exit_2(capsys, args, start):
    assert refused(capsys, *args).startswith(f"brailledev: {start}")


def test_play_game_help_lists_that_games_options(capsys):
    with pytest.raises(SystemExit) as done:
        main(["play", "uno", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "options of uno" in out and "wild_draw_four" in out and "--variant" in out
    assert "options of elevens" not in out
    with pytest.raises(SystemExit):
        main(["selfplay", "elevens", "--help"])
    assert "beginner: true|false" in capsys.readouterr().out


def test_options_cannot_change_a_resumed_game(tmp_path, capsys):
    path = tmp_path / "uno.json"
    Session.start("uno", players=2, seed=1, lang="en", save=path)
    err = refused(capsys, "play", "uno", "--resume", str(path), "--teams", "--no-speech",
                  "--display", "terminal")
    assert err.startswith(f"brailledev: Resuming the saved game {path} keeps the players")
