"""What the suites that hold every game to the same contract need of a game, declared by the
game itself in ``games/<game>/trial.py`` (as each of OpenSpiel's games declares what it is):
the suites run over the registry's games, so a game without its trial fails them instead of
being left out.

A trial says which player counts and options to try, the bots to play with (the first is
the game's random bot), how many moves one example plays (enough to meet every phase of
most games), whether its moves can be listed, how to deal again the cards a seat cannot see
in a saved state, the readers of its notation to fuzz, positions to read moves on, box
data damaged in ways its engine must refuse, and which of its moves put a card at a place
(what a player must never read in notation).

    TRIAL = Trial(players=(2, 3), bots=("random", "heuristic"), moves=100, redeal=redeal,
                  readers={"card": lambda game, text: parse_card(text)}, positions=(),
                  damaged=(("hand_size", 10**8),), places=lambda move: move.kind == "play")
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

State = dict[str, Any]
# Deals again the cards ``seat`` cannot see in a saved state (``None`` when no such deal
# keeps the state whole): ``redeal(game.to_dict(), seat, rng)``.
Redeal = Callable[[State, int, random.Random], State | None]
# Reads a text of the game's notation (a card, a set) on a game: ``read(game, "r7")``.
Reader = Callable[[Any, str], Any]
# Whether a move puts a card at a place, as its notation writes a card with its place
# (``*@r10``, ``4/4@c3>``): what no message or line a player reads may hold.
Places = Callable[[Any], bool]


@dataclass(frozen=True)
class Trial:
    """What the common checks need of one game; see the module docstring."""

    players: tuple[int, ...]
    bots: tuple[str, ...]
    moves: int
    redeal: Redeal
    readers: Mapping[str, Reader]
    positions: tuple[str, ...]
    damaged: tuple[tuple[str, Any], ...]
    places: Places
    options: Mapping[str, Any] = field(default_factory=dict)
    lists_moves: bool = True


def deal_again(state: State, seat: int, rng: random.Random, hands: str,
               piles: Sequence[str]) -> State:
    """``state`` with every card of the other seats' ``hands`` and of ``piles`` dealt again,
    each keeping its size: ``deal_again(state, 0, rng, "hands", ["stock"])``."""
    hidden = [card for other, hand in enumerate(state[hands]) if other != seat for card in hand]
    for pile in piles:
        hidden += state[pile]
    rng.shuffle(hidden)
    for other, hand in enumerate(state[hands]):
        if other != seat:
            state[hands][other], hidden = hidden[:len(hand)], hidden[len(hand):]
    for pile in piles:
        size = len(state[pile])
        state[pile], hidden = hidden[:size], hidden[size:]
    return state
