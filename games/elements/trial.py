"""What the common checks need of Elements (:mod:`games.trial`): every player count, and the
cards laid face down before the element cards hidden until the reveal (ELE-3).

    TRIAL.redeal(game.to_dict(), seat, random.Random(1))
"""

from __future__ import annotations

import random
from typing import Any

from games.elements.notation import Card, Place, read_cards
from games.trial import State, Trial, deal_again


def redeal(state: State, seat: int, rng: random.Random) -> State:
    """The other hands, the stock and the others' face-down cards dealt again."""
    faces = [index for index, (_, owner, _) in enumerate(state["placements"]) if owner != seat]
    state["face_down"] = [state["placements"][index][2] for index in faces]
    deal_again(state, seat, rng, "hands", ["stock", "face_down"])
    for index, card in zip(faces, state.pop("face_down"), strict=True):
        state["placements"][index][2] = card
    return state


def _card(game: Any, text: str) -> Card:
    found: Card = game.read_card(text)
    return found


def _cards(game: Any, text: str) -> list[Card]:
    return read_cards(text.split(","), game.colours, range(0, 100))


TRIAL = Trial(players=(3, 4, 5), bots=("random", "heuristic"), moves=150, redeal=redeal,
              readers={"card": _card, "cards": _cards}, positions=(),
              damaged=(("rounds", [2, 2, 2]), ("max_value", 10**9)),
              places=lambda move: isinstance(move, Place))
