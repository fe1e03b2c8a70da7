"""Every number the command line takes, fuzzed (issue 13.5): whatever text is given (digits
``str.isdigit`` accepts and ``int`` refuses such as ``K¹``, other scripts' digits, NaN,
infinities, 10^5000, signs, blanks), the command either does its work or says one sentence
in the reader's language and exits with status 2; never a traceback, never a file left
behind by a refusal.

``play`` runs on a memory display whose reader quits at once; ``selfplay`` creates its first
game (the check of players and options) but plays none.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import brailledev.display
import brailledev.programs.selfplay
from brailledev.display.keys import Named
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.cli import main
from layouts.registry import kit

ODD = ["K¹", "²", "٣", "१२", "１２", "Ⅻ", "1e999", "-1e999", "nan", "NaN", "inf", "-inf",
       "-0", "0x10", "1_000", " 7 ", "", "+3", "1.5", "9" * 5_000, "-" + "9" * 30, "७"]
NUMBERS = st.one_of(
    st.sampled_from(ODD),
    st.integers(min_value=-10**30, max_value=10**30).map(str),
    st.integers(min_value=-3, max_value=700).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.text(st.sampled_from("0123456789.-+e xK¹٣_"), max_size=12),
)
FUZZ = settings(max_examples=int(os.environ.get("CLI_EXAMPLES", "25")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def quitting_display(*args: Any, **kwargs: Any) -> MemoryDisplay:
    display = MemoryDisplay(40)
    display.press(Named("quit"), Named("quit"))  # quit, and yes
    return display


def first_game_only(game: str, games: int, seed: int, players: int, bots: list[str],
                    options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Self-play's checks without its games: the first game is created, none is played."""
    kit(game).new_game(players, seed, **{**kit(game).selfplay_options, **(options or {})})
    for name in bots:
        kit(game).make_bot(name, seed)
    return {"game": game}


@pytest.fixture
def sandbox(monkeypatch, tmp_path):
    monkeypatch.setattr(brailledev.display, "open_display", quitting_display)
    monkeypatch.setattr(brailledev.programs.selfplay, "selfplay", first_game_only)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path


def answered(words: list[str], capsys, folder: Path, outputs: set[str]) -> int:
    """Run ``words``; check the answer's shape and that a refusal leaves no file."""
    capsys.readouterr()  # what earlier examples of the same test said
    before = set(_files(folder))
    try:
        status = main(words)
    except SystemExit as stopped:  # argparse's own refusals end the command this way
        status = int(stopped.code or 0)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    if status == 2:
        assert captured.err.startswith("brailledev: ") and captured.err.count("\n") == 1, \
            captured.err
        assert set(_files(folder)) == before, "a refusal left a file"
    else:
        assert status == 0 and captured.err == "", (status, captured.err)
        assert set(_files(folder)) - before <= outputs
    return status


def _files(folder: Path) -> list[str]:
    return [str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file()]


# ---- play and selfplay ---------------------------------------------------------------------

PLAY_OPTIONS = [("uno", "--players"), ("uno", "--seed"), ("uno", "--pace"),
                ("uno", "--match-target"), ("rummikub", "--time-limit"),
                ("elevens", "--first"), ("elements", "--first"), ("elements", "--players"),
                ("domino", "--players")]


@pytest.mark.parametrize(("game", "option"), PLAY_OPTIONS)
@FUZZ
@given(value=NUMBERS)
@example(value="K¹")
@example(value="nan")
@example(value="inf")
@example(value="10" + "0" * 8)
def test_play_numbers(game, option, value, sandbox, capsys):
    save = sandbox / "games" / f"{game}.json"
    save.parent.mkdir(exist_ok=True)
    save.unlink(missing_ok=True)
    answered(["play", game, "--lang", "fr", "--no-speech", "--new", "--save", str(save),
              f"{option}={value}"], capsys, sandbox, {f"games/{game}.json"})


@pytest.mark.parametrize("name", ["match_target", "teams", "wild_draw_four"])
@FUZZ
@given(value=NUMBERS)
def test_play_option_values(name, value, sandbox, capsys):
    save = sandbox / "uno.json"
    save.unlink(missing_ok=True)
    answered(["play", "uno", "--no-speech", "--new", "--save", str(save), "--players", "4",
              "--option", f"{name}={value}"], capsys, sandbox, {"uno.json"})


@pytest.mark.parametrize(("game", "option"), [("uno", "--games"), ("uno", "--seed"),
                                              ("uno", "--players"), ("rummikub", "--players"),
                                              ("rummikub", "--time-limit")])
@FUZZ
@given(value=NUMBERS)
@example(value="0")
@example(value="100000000000")
def test_selfplay_numbers(game, option, value, sandbox, capsys):
    answered(["selfplay", game, f"{option}={value}"], capsys, sandbox, set())


# ---- emboss -----------------------------------------------------------------------------

EMBOSS_OPTIONS = ["--players", "--sheets", "--margin", "--baud", "--write-timeout",
                  "--from-page"]


@pytest.mark.parametrize("option", EMBOSS_OPTIONS)
@FUZZ
@given(value=NUMBERS)
@example(value="100000000")
@example(value="nan")
@example(value="-1")
def test_emboss_numbers(option, value, sandbox, capsys):
    out = sandbox / "pad.brf"
    out.unlink(missing_ok=True)
    (sandbox / "pad.svg").unlink(missing_ok=True)
    answered(["emboss", "scorepad", "uno", "--out", str(out), "--preview",
              str(sandbox / "pad.svg"), f"{option}={value}"], capsys, sandbox,
             {"pad.brf", "pad.svg"})


SIZES = st.one_of(st.tuples(NUMBERS, NUMBERS).map("x".join), NUMBERS,
                  st.sampled_from(["1e400x300", "nanx300", "٣٠٠x٣٠٠", "300x", "x", "0x0"]))


@pytest.mark.parametrize("option", ["--paper", "--card-size"])
@FUZZ
@given(value=SIZES)
def test_emboss_sizes(option, value, sandbox, capsys):
    out = sandbox / "deck.brf"
    out.unlink(missing_ok=True)
    answered(["emboss", "deck", "uno", "--cards", "r7,wi", "--out", str(out),
              f"{option}={value}"], capsys, sandbox, {"deck.brf"})


@FUZZ
@given(value=st.one_of(NUMBERS, st.text(max_size=30)))
def test_emboss_cards(value, sandbox, capsys):
    out = sandbox / "deck.brf"
    out.unlink(missing_ok=True)
    answered(["emboss", "deck", "domino", "--out", str(out), f"--cards={value}"], capsys,
             sandbox, {"deck.brf"})


# ---- Domino decks -----------------------------------------------------------------------

@pytest.mark.parametrize(("content", "said"), [
    ('cards = ["7/0", "1/1"]', "cannot be played (a game needs at least 25 cards; it holds "
                               "2); correct it, or leave out --deck to play with the box's "
                               "cards."),
    ('cards = ["9/9"]', "(a game needs at least 25 cards; it holds 1)"),
    ("cards = [" + ", ".join(['"6/0"'] * 100_000) + "]", "; it holds 100000)"),
    ("cards = [" + ", ".join(['"6/0"'] * 30) + "]", "(6/0 is there more than 8 times)"),
    ("cards = [" + ", ".join(f'"{a}/{b}"' if (a, b) != (0, 3) else '"7/9"'
                             for a in range(7) for b in range(a, 7)) + "]",
     "(7/9 is not a card of this game)"),
    ("cards = [" * 5_000 + "]" * 5_000, "The deck file"),
    ("x" * (2 * 1024 * 1024), "larger than 1024 kB"),
    (b"cards = ['\xff']", "is not UTF-8 text"),
    ("", "has no list of cards"),
])
def test_a_domino_deck_that_cannot_be_played_is_one_sentence(content, said, sandbox, capsys):
    deck = sandbox / "deck.toml"
    if isinstance(content, bytes):
        deck.write_bytes(content)
    else:
        deck.write_text(content)
    status = answered(["play", "domino", "--no-speech", "--new", "--save",
                       str(sandbox / "d.json"), "--deck", str(deck)], capsys, sandbox, set())
    assert status == 2
    assert main(["play", "domino", "--no-speech", "--new", "--save", str(sandbox / "d.json"),
                 "--deck", str(deck)]) == 2
    assert said in capsys.readouterr().err


def test_a_deck_file_that_cannot_be_played_is_named_in_french(sandbox, capsys):
    deck = sandbox / "jeu.toml"
    deck.write_text('cards = ["9/9", "1/1"]')
    assert main(["play", "domino", "--no-speech", "--new", "--lang", "fr", "--save",
                 str(sandbox / "d.json"), "--deck", str(deck)]) == 2
    assert capsys.readouterr().err == (
        f"brailledev: Le fichier de cartes {deck} ne peut pas servir (une partie demande au "
        "moins 25 cartes ; il en contient 2) ; corrigez-le, ou omettez --deck pour jouer "
        "avec les cartes de la boîte.\n")
    assert sorted(path.name for path in sandbox.iterdir()) == ["jeu.toml"]


def test_a_pipe_as_domino_deck_is_never_waited_on(sandbox, capsys):
    pipe = sandbox / "deck.toml"
    os.mkfifo(pipe)
    assert main(["play", "domino", "--no-speech", "--new", "--save", str(sandbox / "d.json"),
                 "--deck", str(pipe)]) == 2
    assert capsys.readouterr().err == (
        f"brailledev: The deck file {pipe} cannot be read (it is not a regular file); give a "
        "TOML file holding cards = [...].\n")
