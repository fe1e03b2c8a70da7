"""What the common checks need of Elevens (:mod:`games.trial`): every player count, and no
second deal while a turn is under way (its steps say what the seat playing holds).

    TRIAL.redeal(game.to_dict(), seat, random.Random(1))
"""

from __future__ import annotations

import random
from typing import Any

from games.elevens.engine import Step
from games.elevens.notation import parse_step
from games.trial import State, Trial, deal_again


def redeal(state: State, seat: int, rng: random.Random) -> State | None:
    """The other hands and the stock dealt again, between turns or on the seat's own."""
    if state["turn"] and state["current"] != seat:
        return None
    return deal_again(state, seat, rng, "hands", ["stock"])


def _step_any_rows(game: Any, text: str) -> Step:
    return parse_step(text, "abcdefghijklmnopqrstuvwxyz", 0, 999)


def _places(step: Step) -> bool:
    """A card put in a row: ``*@r10``, ``L r12>b``, ``x b7`` (a number card alone, ``r12``,
    is its own label)."""
    return step.kind in ("place", "link", "exchange")


TRIAL = Trial(players=(2, 3, 4, 6), bots=("random", "heuristic"), moves=120, redeal=redeal,
              readers={"step, any rows": _step_any_rows}, positions=(),
              damaged=(("start", 0), ("colours", ["r"])), places=_places)
