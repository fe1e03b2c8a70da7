"""The command line's help speaks the reader's language: ``--lang`` in the command line, else
the environment's; its texts, argparse's own words included, are ``common|help.*`` of the
gettext catalogs."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from brailledev.helptext import argv_lang
from brailledev.programs.cli import build_parser, main
from brailledev.programs.options import describe
from layouts.registry import GAMES

# The console script pyproject.toml installs beside the interpreter.
BRAILLEDEV = Path(sys.executable).parent / "brailledev"
LOCALE = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
# Words only the French help says, and their English counterparts.
FRENCH = ("utilisation : brailledev", "afficher cette aide et quitter",
          "Jeux de cartes sur un afficheur braille")
ENGLISH = ("usage: brailledev", "show this help message and exit",
           "Card games on a braille display")


def run(*args: str, lang: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in LOCALE}
    env["LANG"] = lang
    env["COLUMNS"] = "200"  # one help text a line, whatever the terminal running the tests
    return subprocess.run([str(BRAILLEDEV), *args], env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def parsers(parser: argparse.ArgumentParser,
            path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                          argparse.ArgumentParser]]:
    """Every parser of the command line with the words that reach it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from parsers(child, (*path, name))


COMMANDS = [path for path, _ in parsers(build_parser("en"))]


@pytest.mark.parametrize(("lang", "said", "unsaid"), [
    ("fr_FR.UTF-8", FRENCH, ENGLISH),
    ("C", ENGLISH, FRENCH),
])
def test_the_console_script_helps_in_the_environments_language(lang, said, unsaid):
    done = run("--help", lang=lang)
    assert done.returncode == 0, done.stderr
    for words in said:
        assert words in done.stdout
    for words in unsaid:
        assert words not in done.stdout


def test_lang_in_the_command_line_wins_over_the_environment():
    french = run("play", "uno", "--lang", "fr", "--help", lang="C")
    assert french.returncode == 0, french.stderr
    assert "utilisation : brailledev play" in french.stdout
    assert "\narguments de position :\n" in french.stdout
    assert "\noptions du jeu :\n" in french.stdout
    assert "afficher cette aide et les options du jeu, puis quitter" in french.stdout
    assert "options du jeu uno (--option NOM=VALEUR, ou le raccourci) :" in french.stdout
    top = run("--lang", "fr", "--help", lang="C")
    assert top.returncode == 0, top.stderr
    assert top.stdout.startswith("utilisation : brailledev")
    english = run("emboss", "deck", "--lang=en", "--help", lang="fr_FR.UTF-8")
    assert english.returncode == 0, english.stderr
    assert "usage: brailledev emboss deck" in english.stdout
    assert "write a .brf or .pef file, or a .pdf, .svg or .png preview" in english.stdout
    assert "utilisation" not in english.stdout


@pytest.mark.parametrize("command", COMMANDS, ids=lambda path: " ".join(path) or "brailledev")
@pytest.mark.parametrize(("lang", "usage", "help_line"), [
    ("fr_FR.UTF-8", "utilisation : brailledev", "afficher cette aide"),
    ("en_GB.UTF-8", "usage: brailledev", "show this help"),
])
def test_every_command_helps_in_both_languages(monkeypatch, capsys, command, lang, usage,
                                               help_line):
    for variable in LOCALE:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", lang)
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{usage} {' '.join(command)}".rstrip())
    assert help_line in out


def test_no_help_text_is_left_in_english_in_the_french_help():
    english, french = dict(parsers(build_parser("en"))), dict(parsers(build_parser("fr")))
    assert english.keys() == french.keys()
    for path, parser in english.items():
        other = french[path]
        assert parser.description != other.description or parser.description is None, path
        for mine, theirs in zip(parser._actions, other._actions, strict=True):
            assert mine.dest == theirs.dest
            if mine.help is not None:
                assert mine.help != theirs.help, (path, mine.dest, mine.help)
        for group, translated in zip(parser._action_groups, other._action_groups, strict=True):
            if group.title not in (None, "options"):
                assert group.title != translated.title, (path, group.title)


@pytest.mark.parametrize("game", GAMES)
def test_the_game_options_are_described_in_both_languages(game):
    english, french = describe(game, "en"), describe(game, "fr")
    assert english.startswith((f"options of {game} ", f"{game} has no options."))
    assert french.startswith((f"options du jeu {game} ", f"le jeu {game} n'a pas d'options."))
    assert len(english.splitlines()) == len(french.splitlines())


def test_elevens_options_in_french_read_the_values_and_defaults(capsys):
    with pytest.raises(SystemExit) as done:
        main(["selfplay", "elevens", "--lang", "fr", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "  beginner : true|false (par défaut false); --beginner" in out
    assert "une place, 0 = vous" in out


def test_lang_before_the_command_is_the_commands_language(monkeypatch, capsys):
    for variable in LOCALE:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C")
    assert main(["--lang", "fr", "selfplay", "uno", "--games", "0"]) == 2
    assert capsys.readouterr().err == (
        "brailledev: --games doit valoir de 1 à 1000000, par exemple --games 100.\n")


@pytest.mark.parametrize(("words", "lang"), [
    (["play", "uno", "--lang", "fr"], "fr"),
    (["play", "uno", "--lang=en"], "en"),
    (["play", "uno", "--lang", "de"], "de"),
    (["play", "uno", "--lang", "es"], None),
    (["play", "uno", "--lang"], None),
    (["tables"], None),
])
def test_the_lang_is_read_from_the_command_line_before_parsing(words, lang):
    assert argv_lang(words) == lang
