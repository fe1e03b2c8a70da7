"""Bots against bots: ``brailledev selfplay uno --games 100 --seed 1 --bots heuristic,random``.

Prints one JSON object: games, options, seconds, games per second, wins per seat (a shared win
counts for each winner). The game's variants: ``--option NAME=VALUE`` and its flags
(``brailledev selfplay elevens --beginner``). Deterministic for a given seed, apart from the timing.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from brailledev.helptext import say
from brailledev.programs import options as game_options
from brailledev.table.core import MOST_SEED
from games.play import play_out
from layouts.errors import UserError
from layouts.registry import GAMES, kit

# The most games one run plays (a bench asks for thousands; more is surely a typing slip).
MOST_GAMES = 1_000_000


def selfplay(game_name: str, games: int, seed: int, players: int, bots: list[str],
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` whole games; bot names are assigned to seats in turn."""
    game_kit = kit(game_name)
    settings = dict(game_kit.selfplay_options)
    settings.update(options or {})
    wins = [0] * players
    moves = 0
    start = time.perf_counter()
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        game = game_kit.new_game(players, game_seed, **settings)
        seats = {seat: game_kit.make_bot(bots[seat % len(bots)], game_seed * 16 + seat)
                 for seat in range(players)}
        moves += play_out(game, seats)
        for seat in game.winners():
            wins[seat] += 1
    seconds = time.perf_counter() - start
    return {
        "game": game_name,
        "games": games,
        "players": players,
        "bots": [bots[seat % len(bots)] for seat in range(players)],
        "seed": seed,
        "options": settings,
        "moves": moves,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "wins": wins,
    }


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("selfplay", help=say("selfplay.command"),
                            description=say("selfplay.command"), add_help=False)
    parser.add_argument("-h", "--help", action=game_options.GameHelp, help=say("help_game"))
    parser.add_argument("game", choices=GAMES, help=say("selfplay.game"))
    parser.add_argument("--games", type=int, default=100, metavar="N",
                        help=say("selfplay.games"))
    parser.add_argument("--seed", type=int, default=1, metavar="N", help=say("selfplay.seed"))
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help=say("selfplay.players"))
    parser.add_argument("--bots", default="heuristic,random", metavar=say("metavar.bots"),
                        help=say("selfplay.bots"))
    game_options.add_arguments(parser)
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= MOST_GAMES:
        raise UserError("games_range", most=MOST_GAMES)
    if not 0 <= args.seed <= MOST_SEED:
        raise UserError("seed_range", most=MOST_SEED)
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    if not bots:
        raise UserError("bots_missing")
    if args.players is None:
        args.players = kit(args.game).default_players
    options = game_options.chosen(args, args.game, args.players)
    print(json.dumps(selfplay(args.game, args.games, args.seed, args.players, bots, options)))
    return 0
