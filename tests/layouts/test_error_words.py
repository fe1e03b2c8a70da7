"""Every code raised in the code has its error sentence, a game's own refusals have theirs, and
the command line speaks the reader's language (that every sentence is translated into every
language with the same placeholders is tests/layouts/test_catalogs.py's)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from brailledev.errors import env_lang
from brailledev.programs.cli import main
from games.core import Reason
from layouts.catalog import LANGUAGES
from layouts.errors import GameRefused, Problem, UserError
from layouts.registry import GAMES, kit
from layouts.translations import words as entries

ROOT = Path(__file__).resolve().parents[2]
# A coded raise: SomethingError("code" or UnknownName("code" (the first argument a code).
RAISED = re.compile(r"\b(?:[A-Z]\w*(?:Error|Name|Refused)|Problem)\(\s*\"([a-z][a-z0-9_]*)\"")


def errors(lang: str, folder: str = "common") -> dict[str, str]:
    """The sentences ``lang``'s own catalog holds for ``folder|errors.``, by code."""
    prefix = f"{folder}|errors."
    return {key[len(prefix):]: text if isinstance(text, str) else text[-1]
            for key, text in entries(lang).entries.items() if key.startswith(prefix)}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("game", GAMES)
def test_a_games_own_refusals_of_a_new_game_are_in_every_language(game):
    """The words of a kit's ``refusals`` are its own errors (``<game>|errors.``), in every
    language, with the placeholders the kit hands them and no other."""
    for lang in LANGUAGES:
        told = errors(lang, game)
        assert set(told) == {word for word, _ in kit(game).refusals.values()}, lang
        for word, needs in kit(game).refusals.values():
            assert fields(told[word]) == set(needs), (lang, word)


def test_a_games_own_refusal_is_told_in_its_words_and_no_other_games():
    with pytest.raises(GameRefused) as refused:
        kit("uno").new_game(5, seed=1, teams=2)
    assert "(teams need an even number of players, 4 or more, not 5)" in refused.value.text("en")
    assert "(les équipes demandent un nombre pair de joueurs, 4 ou plus, pas 5)" \
        in refused.value.text("fr")
    elsewhere = kit("domino").refusal(Reason.of("uno_teams_players", players=5))
    assert elsewhere.text("en") == "refused (uno_teams_players)"


def test_every_error_code_raised_in_the_code_has_its_sentence():
    raised = set()
    for folder in ("brailledev", "emboss", "layouts"):
        for path in (ROOT / folder).rglob("*.py"):
            raised |= set(RAISED.findall(path.read_text(encoding="utf-8")))
    raised.add("stopped")
    assert raised, "the pattern finds the raises"
    assert raised <= set(errors("en")), sorted(raised - set(errors("en")))


def test_no_error_a_person_reads_is_a_sentence_in_the_code():
    problems = re.compile(r"\b(?:UserError|PaperError|TransportError|DataError|UnknownName|"
                          r"UnknownBrailleTable|GameRefused|Problem)\(\s*(f?[\"'][^\"']*)")
    sentences = []
    for folder in ("brailledev", "emboss", "layouts"):
        for path in (ROOT / folder).rglob("*.py"):
            for found in problems.findall(path.read_text(encoding="utf-8")):
                if not re.fullmatch(r"[\"'][a-z][a-z0-9_]*", found):
                    sentences.append(f"{path.name}: {found}")
    assert not sentences


def test_a_problem_is_told_in_the_chosen_language():
    problem = UserError("no_saved_game", path="x.json")
    assert problem.text("fr").startswith("Il n'y a pas de partie enregistrée dans x.json")
    assert str(problem).startswith("There is no saved game at x.json")
    assert Problem("A sentence as it is.").text("fr") == "A sentence as it is."


@pytest.mark.parametrize(("variables", "lang"), [
    ({"LANGUAGE": "fr_CA:en"}, "fr"), ({"LC_ALL": "fr_FR.UTF-8"}, "fr"),
    ({"LC_MESSAGES": "fr_BE.UTF-8", "LANG": "en_GB.UTF-8"}, "fr"),
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LANGUAGE": "es_ES:de"}, "en"), ({}, "en"),
])
def test_the_environment_chooses_the_language(monkeypatch, variables, lang):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert env_lang() == lang


def test_french_locale_gives_french_errors(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LANGUAGE", "fr_FR")
    assert main(["selfplay", "uno", "--games", "0"]) == 2
    assert capsys.readouterr().err == (
        "brailledev: --games doit valoir de 1 à 1000000, par exemple --games 100.\n")
    assert main(["play", "uno", "--resume", str(tmp_path / "none.json"), "--no-speech"]) == 2
    assert capsys.readouterr().err == (
        f"brailledev: Il n'y a pas de partie enregistrée dans {tmp_path / 'none.json'} ; "
        "vérifiez le nom, ou commencez une nouvelle partie sans --resume.\n")
    assert main(["selfplay", "uno", "--option", "teams=3"]) == 2
    assert capsys.readouterr().err == (
        "brailledev: L'option teams ne peut pas valoir '3' ; choisissez parmi 0, 2.\n")


def test_lang_option_wins_over_the_environment(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LANGUAGE", "en_GB")
    status = main(["play", "uno", "--lang", "fr", "--pace", "-1", "--no-speech"])
    assert status == 2
    assert capsys.readouterr().err == (
        "brailledev: --pace doit valoir de 0 à 60 secondes, par exemple --pace 1.5.\n")


def test_emboss_errors_follow_its_lang_option(monkeypatch, capsys):
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(["emboss", "deck", "uno", "--lang", "fr", "--cards", ","]) == 2
    assert capsys.readouterr().err == ("brailledev: --cards est vide ; listez les cartes à "
                                       "embosser, par exemple --cards 'r7,b+2'\n")
    assert main(["emboss", "scorepad", "uno", "--paper", "b9"]) == 2
    assert capsys.readouterr().err.startswith("brailledev: unknown paper 'b9'; use one of")
    monkeypatch.setenv("LANGUAGE", "fr_FR")
    assert main(["emboss", "scorepad", "uno", "--paper", "b9"]) == 2
    assert capsys.readouterr().err.startswith("brailledev: papier 'b9' inconnu ; utilisez")


@pytest.mark.parametrize(("args", "english", "french"), [
    (["play", "chess"], "brailledev: game cannot be 'chess'; choose one of 'uno',",
     "brailledev: game ne peut pas valoir 'chess' ; choisissez parmi 'uno',"),
    (["selfplay", "uno", "--games", "x"],
     "brailledev: --games takes a whole number, not 'x'; see brailledev selfplay --help.",
     "brailledev: --games prend un nombre entier, pas 'x' ; voyez brailledev selfplay --help."),
    (["play"], "brailledev: brailledev play needs game; see brailledev play --help.",
     "brailledev: brailledev play demande game ; voyez brailledev play --help."),
    (["play", "uno", "--bogus"], "brailledev: brailledev does not know --bogus;",
     "brailledev: brailledev ne connaît pas --bogus ;"),
])
def test_command_line_mistakes_are_one_sentence_in_the_readers_language(
        monkeypatch, capsys, args, english, french):
    monkeypatch.setenv("LANGUAGE", "en")
    for words, start in ((args, english), ([*args, "--lang", "fr"], french)):
        with pytest.raises(SystemExit) as done:
            main(words)
        assert done.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(start) and err.count("\n") == 1, err
