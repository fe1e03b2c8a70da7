"""Driving a game with computer opponents: the loop selfplay and the play session share.

    while not game.is_over():
        bot_step(game, bots)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Bot, BotError, Event, Game, Reason, Seat, events_for

__all__ = ["BotError", "bot_step", "optional_actors", "play_out", "tell_bots"]


def optional_actors(game: Game[Any, Any]) -> list[Seat]:
    """Seats that may act now without being waited for (e.g. Uno's catchers)."""
    required = set(game.must_act())
    return [seat for seat in game.actors() if seat not in required]


def tell_bots(bots: Mapping[Seat, Bot[Any, Any]], events: Sequence[Event]) -> None:
    """Hand every bot a move's events as its own seat learns them (:meth:`Bot.see`):
    ``tell_bots(bots, game.play(seat, move))``."""
    for seat, bot in bots.items():
        bot.see(events_for(events, seat))


def bot_step(game: Game[Any, Any], bots: Mapping[Seat, Bot[Any, Any]]) -> tuple[Seat, list[Event]]:
    """Let one bot act: first any optional actor that wants to, else the seat the game waits
    for; every bot then sees the move's events. Returns the seat that acted and the full
    events of its move."""
    for seat in optional_actors(game):
        bot = bots.get(seat)
        if bot is None:
            continue
        move = bot.choose(game.view(seat), game.legal_moves(seat))
        if move is not None:
            events = game.play(seat, move)
            tell_bots(bots, events)
            return seat, events
    seat = game.must_act()[0]
    move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
    if move is None:
        raise BotError(Reason.of("bot_made_no_move", game=game.name, seat=seat))
    events = game.play(seat, move)
    tell_bots(bots, events)
    return seat, events


def play_out(game: Game[Any, Any], bots: Mapping[Seat, Bot[Any, Any]],
             max_steps: int = 1_000_000) -> int:
    """Play a fresh game to its end with bots in every seat (who first see what it dealt at
    its creation); returns the number of moves."""
    tell_bots(bots, getattr(game, "start_events", []))
    steps = 0
    while not game.is_over():
        bot_step(game, bots)
        steps += 1
        if steps >= max_steps:
            raise BotError(Reason.of("game_did_not_end", game=game.name, moves=max_steps))
    return steps
