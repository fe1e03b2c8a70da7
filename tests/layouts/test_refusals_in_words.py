"""Every refusal every engine can give, told through its game's screen in every language.

The codes are found in the source (every ``Reason(...)`` and ``Reason.of(...)`` of each game's
folders in ``games/`` and ``layouts/``, and of the engines' shared ``games/core.py``), so a new
refusal without words, or without a case here, fails this test. The other shared files of
``games/`` give no refusal of a move: saves and box data (``saved.py``, ``errors.py``), bots
that fail (``play.py``), the score pads with their own screen (``pads.py``, and each game's
pad book, ``games/<game>/book.py``).
Each case has realistic arguments (cards in the engine's notation), given by the game itself
(``layouts/<game>/refusals.toml``); the words must be one sentence with no placeholder, no
code and no notation left, the cards in the reader's labels.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from brailledev.programs.session import Session
from games.core import Reason
from layouts.catalog import LANGUAGES, game_data
from layouts.registry import GAMES, kit

ROOT = Path(__file__).resolve().parents[2]
# Shared by the engines: the files outside a game's folder whose refusals every game gives.
ENGINES_SHARED = ("games/core.py",)
Case = dict[str, Any]
REFUSED = {"en": "Refused: ", "fr": "Refusé : ", "de": "Abgelehnt: "}
COMMON: dict[str, list[Case]] = {"not_your_turn": [{}], "game_over": [{}],
                                 "no_such_seat": [{"seat": "7"}]}


def examples(game: str) -> dict[str, Any]:
    """The game's own examples of its refusals (``layouts/<game>/refusals.toml``): ``cases``
    (code -> the arguments of each case, and what each language must show of them),
    ``patterns`` (codes built from a pattern in the source, and every code it makes) and
    ``unseen`` (notation the reader never sees)."""
    return dict(game_data(game, "refusals"))


def _pad_books() -> set[Path]:
    """The files of the score pads kept on a display: they refuse entries, not moves, told by
    the pad's own screen."""
    return {Path(inspect.getfile(kept.book)).resolve() for game in GAMES
            if (kept := kit(game).kept_pad) is not None}


def _game_of(path: Path) -> str | None:
    """The game a source file belongs to (``None``: every game's)."""
    parts = path.relative_to(ROOT).parts
    return parts[1] if len(parts) > 2 and parts[1] in GAMES else None


def _is_reason(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Name) and func.id == "Reason") or (
        isinstance(func, ast.Attribute) and func.attr == "of"
        and isinstance(func.value, ast.Name) and func.value.id == "Reason")


def scanned() -> dict[str, set[str]]:
    """Every refusal code of the source, by game (the engines' shared ones to every game)."""
    found: dict[str, set[str]] = {game: set() for game in GAMES}
    pads = _pad_books()
    for folder in ("games", "layouts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            owner = _game_of(path)
            shared = str(path.relative_to(ROOT)) in ENGINES_SHARED
            if (owner is None and not shared) or path.resolve() in pads:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and _is_reason(node) and node.args):
                    continue
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes: tuple[str, ...] = (first.value,)
                else:  # a code built in a game's source: its examples say which it makes
                    assert owner is not None, (path, ast.unparse(first))
                    codes = tuple(examples(owner).get("patterns", {})[ast.unparse(first)])
                for game in [owner] if owner else GAMES:
                    found[game].update(codes)
    return found


def test_every_code_in_the_source_has_a_case_and_every_case_a_code():
    found = scanned()
    for game in GAMES:
        assert found[game] == set(examples(game)["cases"]) | set(COMMON), game


def sessions() -> dict[tuple[str, str], Session]:
    made = {}
    for game in GAMES:
        for lang in LANGUAGES:
            made[game, lang] = Session.start(game, players=kit(game).default_players, seed=1,
                                             lang=lang, pace=0)
    return made


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_is_a_sentence_in_the_readers_words(game):
    made = sessions()
    unseen = examples(game).get("unseen", ())
    for code, cases in {**COMMON, **examples(game)["cases"]}.items():
        for case in cases:
            params = {key: value for key, value in case.items() if key not in LANGUAGES}
            for lang in LANGUAGES:
                seat = made[game, lang].seat
                text = seat.refusal(Reason.of(code, **params))
                refused = REFUSED[lang]
                assert text.startswith(refused), text
                said = text[len(refused):]
                assert "{" not in said and "}" not in said, (code, lang, said)
                assert code not in said, (code, lang, said)
                assert said[-1] in ".!?", (code, lang, said)
                if lang == "fr":  # French takes no capital after a colon, but for a name
                    first = said.split()[0]
                    assert not first[0].isupper() or first in seat.names, (code, said)
                for shown in case.get(lang, ()):
                    assert shown in said, (code, lang, shown, said)
                for notation in unseen:
                    assert notation not in f" {said} ", (code, lang, said)


def test_every_refusal_of_a_kept_pad_is_a_sentence_in_every_language():
    """The codes the pads refuse an entry with (``pad_...`` in ``games/pads.py`` and the
    games' pad books) are sentences in each kept pad's words, in every language."""
    codes: set[str] = set()
    for path in {ROOT / "games" / "pads.py", *_pad_books()}:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"pad_[a-z_]+", node.value):
                codes.add(node.value)
    assert {"pad_finished", "pad_line_value", "pad_winner", "pad_not_here"} <= codes
    for game in GAMES:
        if kit(game).kept_pad is None:
            continue
        for lang in LANGUAGES:
            for code in codes:
                said = kit(game).catalog(lang).reason(Reason.of(code))
                assert "{" not in said and said[-1] in ".!?", (game, lang, code, said)
