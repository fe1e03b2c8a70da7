"""The games brailledev knows, found by name.

Each game ``NAME`` is a package ``games/NAME`` exporting ``GAME`` (its :class:`games.core.Game`
subclass) and ``BOTS`` (bot name -> factory taking a seed), with its words and box data in
``layouts/NAME/``.

    game = new_game("uno", players=3, seed=1)
    bot = make_bot("uno", "heuristic", seed=5)
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from typing import Any

import games
from games.core import Bot, Game
from layouts.catalog import rules_data
from layouts.errors import GameRefused, Problem, UnknownName

# The order games are offered in; a game is available once its package exists in games/.
ORDER = ("uno", "domino", "rummikub", "elevens", "elements")
_PACKAGES = {module.name for module in pkgutil.iter_modules(games.__path__) if module.ispkg}
GAMES: tuple[str, ...] = tuple(name for name in ORDER if name in _PACKAGES)


def game_module(name: str) -> Any:
    if name not in GAMES:
        raise UnknownName("game_unknown", game=name, choices=", ".join(GAMES))
    return importlib.import_module(f"games.{name}")


def game_class(name: str) -> type[Game[Any, Any]]:
    cls: type[Game[Any, Any]] = game_module(name).GAME
    return cls


def new_game(name: str, players: int, seed: int, **options: Any) -> Game[Any, Any]:
    """A fresh game with the box data of ``layouts/<name>/rules.toml``; an engine's refusal
    of the options (a ValueError) becomes :class:`GameRefused`."""
    cls = game_class(name)
    if not cls.min_players <= players <= cls.max_players:
        raise GameRefused("players_range", game=name, low=cls.min_players,
                          high=cls.max_players, players=players)
    try:
        return cls.new(players=players, seed=seed, data=rules_data(name), **options)
    except Problem:
        raise
    except ValueError as error:
        raise GameRefused("game_refused", game=name, detail=error) from None


def bot_names(name: str) -> list[str]:
    bots: Mapping[str, Callable[[int], Bot[Any, Any]]] = game_module(name).BOTS
    return list(bots)


def make_bot(game: str, bot: str, seed: int) -> Bot[Any, Any]:
    bots: Mapping[str, Callable[[int], Bot[Any, Any]]] = game_module(game).BOTS
    if bot not in bots:
        raise UnknownName("bot_unknown", game=game, bot=bot, choices=", ".join(bots))
    return bots[bot](seed)
