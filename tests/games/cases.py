"""Every game of the registry as the suites that hold all games to the same contract see it:
its engine and bots from its kit, and what the suites need of it from its own declaration
(``games/<game>/trial.py``, :class:`games.trial.Trial`): a game without one fails them.

    case = case_of("uno")
    game = case.new(players=3, seed=7)
    bots = case.bots(game, seed=7, names=("heuristic", "random"))
    for seat, move, events in play_moves(game, bots, case.moves): ...
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.core import Event, Game
from games.play import tell_bots
from games.trial import Redeal, Trial
from layouts.kit import BotMaker
from layouts.registry import kit


@dataclass(frozen=True)
class Case:
    """One game: its name, its engine, its bots by name and its trial."""

    name: str
    engine: type[Game[Any, Any]]
    makers: Mapping[str, BotMaker]
    trial: Trial

    @property
    def players(self) -> tuple[int, ...]:
        return self.trial.players

    @property
    def bot_names(self) -> tuple[str, ...]:
        return self.trial.bots

    @property
    def moves(self) -> int:
        return self.trial.moves

    @property
    def redeal(self) -> Redeal:
        return self.trial.redeal

    @property
    def lists_moves(self) -> bool:
        return self.trial.lists_moves

    def new(self, players: int, seed: int) -> Game[Any, Any]:
        return self.engine.new(players=players, seed=seed, **self.trial.options)

    def bots(self, game: Game[Any, Any], seed: int, names: tuple[str, ...] | None = None
             ) -> dict[int, Any]:
        names = names or self.bot_names[:1]
        return {seat: self.makers[names[seat % len(names)]](seed * 10 + seat)
                for seat in range(game.players)}


@cache
def case_of(name: str) -> Case:
    """The game ``name`` of the registry with its trial (``ModuleNotFoundError`` when the game
    declares none): ``case_of("domino").moves``."""
    trial = importlib.import_module(f"games.{name}.trial").TRIAL
    return Case(name, kit(name).game, kit(name).bots, trial)


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
