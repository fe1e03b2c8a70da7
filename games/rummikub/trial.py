"""What the common checks need of Rummikub (:mod:`games.trial`): no turn clock, bots of every
strength, a move that is a whole table (never listed: there are too many).

    TRIAL.redeal(game.to_dict(), seat, random.Random(1))
"""

from __future__ import annotations

import random
from typing import Any

from games.rummikub.notation import Table, TileSet, parse_set, parse_table, parse_tile
from games.trial import State, Trial, deal_again


def redeal(state: State, seat: int, rng: random.Random) -> State:
    """The other racks and the pool dealt again."""
    return deal_again(state, seat, rng, "racks", ["pool"])


def _tile(game: Any, text: str) -> str:
    return parse_tile(text)


def _set(game: Any, text: str) -> TileSet:
    return parse_set(text)


def _table(game: Any, text: str) -> list[TileSet]:
    return parse_table(text)


TRIAL = Trial(players=(2, 3, 4), bots=("random", "greedy", "heuristic"), moves=40,
              redeal=redeal, readers={"tile": _tile, "set": _set, "table": _table},
              positions=(), damaged=(("top", 14), ("jokers", "2")),
              places=lambda move: isinstance(move, Table),
              options={"turn_times": 0}, lists_moves=False)
