"""What the common checks need of Domino 10-11-12 (:mod:`games.trial`): every player count,
the hands, the card set aside and the other seats' stocks dealt again, and a table with
cards on it to read moves on.

    TRIAL.redeal(game.to_dict(), seat, random.Random(1))
"""

from __future__ import annotations

import random
from typing import Any

from games.core import BadState
from games.domino import GAME
from games.domino.notation import Card, parse_card
from games.trial import State, Trial, deal_again


def redeal(state: State, seat: int, rng: random.Random) -> State | None:
    """The other hands, the cards set aside and the other seats' stocks dealt again; ``None``
    when that deal is no game (the seat to play must hold a card that fits)."""
    others = [other for other in range(state["players"]) if other != seat]
    state["hidden_stocks"] = [card for other in others for card in state["stocks"][other]]
    deal_again(state, seat, rng, "hands", ["set_aside", "hidden_stocks"])
    hidden = state.pop("hidden_stocks")
    for other in others:
        size = len(state["stocks"][other])
        state["stocks"][other], hidden = hidden[:size], hidden[size:]
    try:
        GAME.from_dict(state)
    except BadState:
        return None
    return state


def _card(game: Any, text: str) -> Card:
    return parse_card(text)


TRIAL = Trial(players=(2, 3, 4), bots=("random", "heuristic"), moves=40, redeal=redeal,
              readers={"card": _card},
              positions=("domino players=2 table=6/4@0,0>;1/1@0,1> hands=6/0,1/2;3/3,4/4,5/5 "
                         "opening=no",),
              damaged=(("max_line", None),), places=lambda move: True)
