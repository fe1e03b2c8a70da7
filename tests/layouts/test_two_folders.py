"""A sixth game is two folders: no production file outside a game's own ``games/<game>/`` and
``layouts/<game>/`` imports that game's packages or names it, so shared code reaches a game
through its kit and never asks "is this Domino?" (issue 29).

Read with ``ast`` in ``games/``, ``layouts/``, ``brailledev/`` and ``emboss/``: an import of
``games.<game>`` or ``layouts.<game>`` (``from games import uno`` too), and any string
constant but a docstring that is a game's name, starts with it (``uno_teams_players``) or is
a path into its folders (``"games.uno.engine"``). A game's folders may name that game only;
``layouts/registry.py`` may list the names, in the order the games are offered.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from layouts.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = ("games", "layouts", "brailledev", "emboss")
GAME_FOLDERS = ("games", "layouts")
# The one file that may list the games: the order they are offered in.
LISTS_GAMES = "layouts/registry.py"


def _owner(path: str) -> str | None:
    """The game whose folder holds ``path`` (``games/uno/engine.py`` -> ``uno``), if any."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] in GAME_FOLDERS and parts[1] in GAMES else None


def _game_of_module(module: str) -> str | None:
    """The game a module path reaches into (``layouts.uno.screen`` -> ``uno``), if any."""
    parts = module.replace("/", ".").split(".")
    return parts[1] if len(parts) > 1 and parts[0] in GAME_FOLDERS and parts[1] in GAMES else None


def _game_named(text: str) -> str | None:
    """The game a string names: its name, a code it starts (``uno_...``), a path into it."""
    for game in GAMES:
        if text == game or text.startswith((f"{game}_", f"{game}.", f"{game}/")):
            return game
    return _game_of_module(text)


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import reaches: ``from games import uno`` reaches ``games.uno``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def _documentation(tree: ast.Module) -> set[int]:
    """The string statements of a module: docstrings and the like, read by people only."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def violations(source: str, path: str) -> list[str]:
    """Where the file ``path`` (relative to the root) imports or names a game that is not its
    own: ``violations('import games.uno', "brailledev/x.py")`` -> one line saying so."""
    tree = ast.parse(source)
    owner = _owner(path)
    docs = _documentation(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            reached = [module for module in _imported(node)
                       if _game_of_module(module) not in (None, owner)]
            if reached:
                found.append(f"{path}:{node.lineno} imports {reached[0]}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs and path != LISTS_GAMES:
            game = _game_named(node.value)
            if game is not None and game != owner:
                found.append(f"{path}:{node.lineno} names {game}: {node.value!r}")
    return found


def production_files() -> list[Path]:
    return sorted(path for folder in PRODUCTION for path in (ROOT / folder).rglob("*.py"))


def test_no_shared_file_imports_or_names_a_game():
    files = production_files()
    # the whole of the production code is read, every game's folders too
    assert len(files) > 100 and {path.relative_to(ROOT).parts[0] for path in files} == \
        set(PRODUCTION) and {_owner(path.relative_to(ROOT).as_posix()) for path in files} \
        >= set(GAMES)
    found = [line for path in files
             for line in violations(path.read_text(encoding="utf-8"),
                                    path.relative_to(ROOT).as_posix())]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("source", "path"), [
    ("import games.uno", "brailledev/programs/pad.py"),
    ("from games.domino.grid import bounds", "brailledev/network/web/picture.py"),
    ("from layouts.domino.screen import pad_regions", "layouts/padscreen.py"),
    ("from games import rummikub", "games/pads.py"),
    ("from layouts import elements as found", "emboss/deck.py"),
    ("def pad(game):\n    return 1 if game == 'domino' else 2", "brailledev/programs/pad.py"),
    ("DRAW = {'uno': 1, 'domino': 2}", "brailledev/network/web/picture.py"),
    ("ok = name in ('rummikub', 'chess')", "games/pads.py"),
    ("ROUND_GAMES = ('elevens',)", "games/pads.py"),
    ("WORDS = {'uno_teams_players': 1}", "layouts/kit.py"),
    ("module = importlib.import_module('games.uno.engine')", "brailledev/table/core.py"),
    ("from games.domino.grid import bounds", "layouts/uno/picture.py"),   # another game's
    ("if name == 'elements': pass", "games/uno/engine.py"),
])
def test_the_guard_finds_a_game_imported_or_named_in_a_shared_file(source, path):
    assert violations(source, path)


@pytest.mark.parametrize(("source", "path"), [
    ('"""Reached through kit("uno"): the kit of Uno."""', "layouts/kit.py"),
    ('def f():\n    """``pad_screen("domino")``."""\n    return 1', "layouts/padscreen.py"),
    ("from games.core import Game\nfrom layouts.screen import HAND_LINE", "brailledev/x.py"),
    ("NAMES = ('unoriginal', 'dominoes', 'elementsof')", "brailledev/x.py"),
    ("from games.uno.notation import parse_card", "layouts/uno/picture.py"),
    ("KIT = GameKit(name='uno')", "layouts/uno/__init__.py"),
    ("OFFERED_FIRST = ('uno', 'domino')", LISTS_GAMES),
])
def test_the_guard_lets_a_game_name_itself_and_docstrings_name_any(source, path):
    assert violations(source, path) == []
