"""Every game as the suites that hold all games to the same contract see it: how to start
one, which bots play it, and how to deal differently the cards a seat cannot see.

    case = CASES["uno"]
    game = case.new(players=3, seed=7)
    bots = case.bots(game, seed=7, names=("heuristic", "random"))
    for seat, move, events in play_moves(game, bots, 50): ...
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from games.core import Event, Game
from games.domino import Domino
from games.elements import Elements
from games.elevens import Elevens
from games.play import tell_bots
from games.rummikub import Rummikub
from games.uno import Uno

State = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One game: its engine, the player counts and options to try, its bot names (the first
    is its random bot) and a function that deals the cards ``seat`` cannot see differently
    in a saved state (``None`` when no such deal keeps the state whole)."""

    name: str
    engine: type[Game[Any, Any]]
    players: tuple[int, ...]
    options: Mapping[str, Any]
    bot_names: tuple[str, ...]
    redeal: Callable[[State, int, random.Random], State | None]
    lists_moves: bool = True

    @property
    def module(self) -> Any:
        return __import__(f"games.{self.name}", fromlist=["BOTS"])

    def new(self, players: int, seed: int) -> Game[Any, Any]:
        return self.engine.new(players=players, seed=seed, **self.options)

    def bots(self, game: Game[Any, Any], seed: int, names: tuple[str, ...] | None = None
             ) -> dict[int, Any]:
        names = names or self.bot_names[:1]
        return {seat: self.module.BOTS[names[seat % len(names)]](seed * 10 + seat)
                for seat in range(game.players)}


def play_moves(game: Game[Any, Any], bots: Mapping[int, Any], most: int
               ) -> Iterator[tuple[int, Any, list[Event]]]:
    """Up to ``most`` moves, each by the first optional actor that wants to act, else by the
    seat the game waits for (as :func:`games.play.bot_step`: every bot then sees the move's
    events), yielding the move too."""
    for _ in range(most):
        if game.is_over():
            return
        chosen = None
        required = game.must_act()
        for seat in [s for s in game.actors() if s not in required] + required[:1]:
            move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
            if move is not None:
                chosen = (seat, move)
                break
        assert chosen is not None, "the bot the game waits for made no move"
        seat, move = chosen
        events = game.play(seat, move)
        tell_bots(bots, events)
        yield seat, move, events


def _deal(state: State, seat: int, rng: random.Random, hands: str, piles: list[str]) -> State:
    """Deal again every card of the other seats' ``hands`` and of ``piles``, each keeping
    its size."""
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


def _uno(state: State, seat: int, rng: random.Random) -> State:
    drawer, drawn = state["current"], state["drawn"]
    if drawn and drawer != seat:  # the card just drawn stays with the drawer
        state["hands"][drawer].remove(drawn)
    _deal(state, seat, rng, "hands", ["stock"])
    if drawn and drawer != seat:
        state["hands"][drawer].append(drawn)
    return state


def _rummikub(state: State, seat: int, rng: random.Random) -> State:
    return _deal(state, seat, rng, "racks", ["pool"])


def _elevens(state: State, seat: int, rng: random.Random) -> State | None:
    if state["turn"] and state["current"] != seat:
        return None  # the turn in progress says what the seat playing holds
    return _deal(state, seat, rng, "hands", ["stock"])


def _elements(state: State, seat: int, rng: random.Random) -> State:
    # cards laid face down before the element cards are hidden until the reveal (ELE-3)
    faces = [index for index, (_, owner, _) in enumerate(state["placements"]) if owner != seat]
    state["face_down"] = [state["placements"][index][2] for index in faces]
    _deal(state, seat, rng, "hands", ["stock", "face_down"])
    for index, card in zip(faces, state.pop("face_down"), strict=True):
        state["placements"][index][2] = card
    return state


def _domino(state: State, seat: int, rng: random.Random) -> State:
    others = [other for other in range(state["players"]) if other != seat]
    state["hidden_stocks"] = [card for other in others for card in state["stocks"][other]]
    _deal(state, seat, rng, "hands", ["set_aside", "hidden_stocks"])
    hidden = state.pop("hidden_stocks")
    for other in others:
        size = len(state["stocks"][other])
        state["stocks"][other], hidden = hidden[:size], hidden[size:]
    return state


CASES: dict[str, Case] = {
    "uno": Case("uno", Uno, (2, 3, 4, 6),
                {"match_target": 60}, ("random", "heuristic"), _uno),
    "rummikub": Case("rummikub", Rummikub, (2, 3, 4), {"turn_times": 0},
                     ("random", "greedy", "heuristic"), _rummikub, lists_moves=False),
    "elevens": Case("elevens", Elevens, (2, 3, 4, 6), {}, ("random", "heuristic"), _elevens),
    "elements": Case("elements", Elements, (3, 4, 5), {}, ("random", "heuristic"), _elements),
    "domino": Case("domino", Domino, (2, 3, 4), {}, ("random", "heuristic"), _domino),
}
