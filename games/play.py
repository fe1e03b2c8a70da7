"""Driving a game with computer opponents: the loop selfplay and the play session share.

    while not game.is_over():
        bot_step(game, bots)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Bot, BotError, Event, Game, Reason, Seat

__all__ = ["BotError", "bot_step", "optional_actors", "play_out"]


def optional_actors(game: Game[Any, Any]) -> list[Seat]:
    """Seats that may act now without being waited for (e.g. Uno's catchers)."""
    required = set(game.must_act())
    return [seat for seat in game.actors() if seat not in required]


def bot_step(game: Game[Any, Any], bots: Mapping[Seat, Bot[Any, Any]]) -> tuple[Seat, list[Event]]:
    """Let one bot act: first any optional actor that wants to, else the seat the game waits
    for. Returns the seat that acted and the full events of its move."""
    for seat in optional_actors(game):
        bot = bots.get(seat)
        if bot is None:
            continue
        move = bot.choose(game.view(seat), game.legal_moves(seat))
        if move is not None:
            return seat, game.play(seat, move)
    seat = game.must_act()[0]
    move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
    if move is None:
        raise BotError(Reason.of("bot_made_no_move", game=game.name, seat=seat))
    return seat, game.play(seat, move)


def play_out(game: Game[Any, Any], bots: Mapping[Seat, Bot[Any, Any]],
             max_steps: int = 1_000_000) -> int:
    """Play a game to its end with bots in every seat; returns the number of moves."""
    steps = 0
    while not game.is_over():
        bot_step(game, bots)
        steps += 1
        if steps >= max_steps:
            raise BotError(Reason.of("game_did_not_end", game=game.name, moves=max_steps))
    return steps
