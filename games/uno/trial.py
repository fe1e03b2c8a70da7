"""What the common checks need of Uno (:mod:`games.trial`): every player count with teams
possible, a match long enough to meet a second round, the card just drawn kept by its drawer
when the hidden cards are dealt again.

    TRIAL.redeal(game.to_dict(), seat, random.Random(1))
"""

from __future__ import annotations

import random
from typing import Any

from games.trial import State, Trial, deal_again
from games.uno.notation import PLAY, Move, parse_card


def redeal(state: State, seat: int, rng: random.Random) -> State:
    """The hands of the others and the stock dealt again; the card just drawn stays with the
    seat that drew it (the others saw it leave the stock, not what it is)."""
    drawer, drawn = state["current"], state["drawn"]
    if drawn and drawer != seat:
        state["hands"][drawer].remove(drawn)
    deal_again(state, seat, rng, "hands", ["stock"])
    if drawn and drawer != seat:
        state["hands"][drawer].append(drawn)
    return state


def _card(game: Any, text: str) -> str:
    return parse_card(text, game.colours)


def _plays(move: Move) -> bool:
    """A card played (with a Wild's colour: ``wi:g``)."""
    return move.kind == PLAY


TRIAL = Trial(players=(2, 3, 4, 6), bots=("random", "heuristic"), moves=150, redeal=redeal,
              readers={"card": _card}, positions=(),
              damaged=(("colours", ["r", "r"]), ("hand_size", 10**8), ("deck", {"7": -1}),
                       ("deck", {"0": 1})),
              places=_plays, options={"match_target": 60})
