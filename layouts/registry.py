"""The games brailledev knows, found by name: the one way to reach a game.

A game is a package ``games/NAME`` (its rules) and a package ``layouts/NAME`` whose ``KIT``
(a :class:`layouts.kit.GameKit`) holds everything else: engine, bots, options, words, screen,
card faces, score pad. A sixth game is those two folders; nothing else changes.

    GAMES                                   # ('uno', 'domino', 'rummikub', 'elevens', ...)
    game = kit("uno").new_game(players=3, seed=1)
    bot = kit("uno").make_bot("heuristic", seed=5)
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import games
import layouts
from layouts.errors import UnknownName
from layouts.kit import GameKit

# The order the games of the box are offered in; another game found comes after them.
OFFERED_FIRST = ("uno", "domino", "rummikub", "elevens", "elements")


def _packages(package: ModuleType) -> set[str]:
    return {module.name for module in pkgutil.iter_modules(package.__path__) if module.ispkg}


def _offered(name: str) -> tuple[int, str]:
    place = OFFERED_FIRST.index(name) if name in OFFERED_FIRST else len(OFFERED_FIRST)
    return place, name


GAMES: tuple[str, ...] = tuple(sorted(_packages(games) & _packages(layouts), key=_offered))


def kit(name: str) -> GameKit:
    """The kit of the game ``name``; an unknown name lists the games there are:
    ``kit("uno").label("r+2", kit("uno").catalog("fr"))``."""
    if name not in GAMES:
        raise UnknownName("game_unknown", game=name, choices=", ".join(GAMES))
    found: GameKit = importlib.import_module(f"layouts.{name}").KIT
    return found
