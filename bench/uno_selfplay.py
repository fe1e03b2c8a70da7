"""Uno self-play speed against RLCard's Uno, and the heuristic bot's strength.

    .venv/bin/python bench/uno_selfplay.py            (after `make bench` installs rlcard)
    .venv/bin/python bench/uno_selfplay.py --games 500 --seconds 5

Prints, in one run on one machine: random-vs-random two-player games per second of our engine
(complete rules: dealer draw, UNO calls and catches, challenges, first-card conventions) and of
RLCard's ``uno`` environment driven by ``env.run`` with its random agents, the ratio (target
>= 3), and the win rate of our ``heuristic`` bot against ``random`` over 2,000 two-player single
rounds (target >= 70%; published anchors: 66% for chausner/UnoAI's best bot, 54% for RLCard's
rule agent), with how the heuristic plays like a person in those rounds: the share of its Wild
Draw Fours that were bluffs, of its second-to-last cards played without UNO, and of the
opponent's Wild Draw Fours it challenged (bluffs and fair ones apart). Speeds are CPU time
(``time.process_time``) so other programs on the machine disturb them less; the two sides run
in alternating slices, so that a busy moment of the machine weighs on both, and each speed is
all its games over all its slices' time.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable

from games.core import Bot, Event
from games.play import bot_step, play_out, tell_bots
from games.uno import BOTS, Move, Uno, UnoView
from games.uno.engine import Challenged, Played
from games.uno.notation import WILD_DRAW_FOUR
from layouts.catalog import rules_data


def drive(game: Uno, bots: dict[int, Bot[UnoView, Move]]) -> None:
    """Play to the end, like :func:`games.play.play_out` (catchers first, then the seat the
    game waits for; bots see views and legal moves) without its generic bookkeeping, as
    RLCard's ``env.run`` is its own loop."""
    while not game.is_over():
        actors = game.actors()
        for seat in actors[1:]:
            move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
            if move is not None:
                game.play(seat, move)
                break
        else:
            seat = actors[0]
            chosen = bots[seat].choose(game.view(seat), game.legal_moves(seat))
            assert chosen is not None, "a bot passed where it must move"
            game.play(seat, chosen)


def ours_runner() -> Callable[[int], None]:
    data = rules_data("uno")
    random_bot = BOTS["random"]

    def run(game_seed: int) -> None:
        game = Uno.new(players=2, seed=game_seed, data=data, match_target=0)
        drive(game, {0: random_bot(game_seed * 2), 1: random_bot(game_seed * 2 + 1)})

    return run


def rlcard_runner() -> Callable[[int], None]:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def run(game_seed: int) -> None:
        env.run(is_training=False)

    return run


def cpu_seconds(run: Callable[[int], None], games: int, start: int) -> float:
    began = time.process_time()
    for index in range(games):
        run(start + index)
    return time.process_time() - began


def heuristic_win_rate(games: int, seed: int, habits: Counter[str] | None = None) -> float:
    """Share of single two-player rounds the heuristic bot wins against random, seats
    alternating so neither bot always sits left of the dealer's draw. ``habits`` counts the
    heuristic's bluffs, forgotten UNOs and challenges (the bench reads the engine's state
    for whether a Wild Draw Four was a bluff; the bots never do)."""
    data = rules_data("uno")
    wins = 0
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        game = Uno.new(players=2, seed=game_seed, data=data, match_target=0)
        heuristic_seat = index % 2
        bots = {heuristic_seat: BOTS["heuristic"](game_seed * 2),
                1 - heuristic_seat: BOTS["random"](game_seed * 2 + 1)}
        if habits is None:
            play_out(game, bots)
        else:
            tell_bots(bots, game.start_events)
            while not game.is_over():
                last_but_one = len(game.hands[heuristic_seat]) == 2
                seat, events = bot_step(game, bots)
                count_habits(habits, events, seat == heuristic_seat, last_but_one,
                             game.wd4_guilty)
        wins += heuristic_seat in game.winners()
    return wins / games


def count_habits(habits: Counter[str], events: list[Event], heuristic: bool,
                 last_but_one: bool, guilty: bool) -> None:
    for event in events:
        if isinstance(event, Played) and heuristic:
            if event.card == WILD_DRAW_FOUR:
                habits["draw_fours"] += 1
                habits["bluffs"] += guilty
            if last_but_one:
                habits["last_but_one"] += 1
                habits["forgot"] += not event.uno
        if isinstance(event, Challenged):
            if heuristic:
                habits["challenged_bluffs" if event.guilty else "challenged_fair"] += 1
        elif isinstance(event, Played) and not heuristic and event.card == WILD_DRAW_FOUR:
            habits["faced_bluffs" if guilty else "faced_fair"] += 1


def share(counts: Counter[str], part: str, whole: str) -> str:
    return f"{counts[part] / max(counts[whole], 1):.0%} ({counts[part]}/{counts[whole]})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per timing slice")
    parser.add_argument("--slices", type=int, default=10, help="alternating slices per side")
    parser.add_argument("--strength-games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        theirs = rlcard_runner()
    except ImportError:
        print("rlcard is not installed: run `make bench` (or .venv/bin/pip install rlcard).",
              file=sys.stderr)
        return 2
    ours = ours_runner()
    ours(0)
    theirs(0)  # warm both up (imports, caches) before timing
    our_time = their_time = 0.0
    for index in range(args.slices):
        start = args.seed * 1_000_003 + index * args.games
        our_time += cpu_seconds(ours, args.games, start)
        their_time += cpu_seconds(theirs, args.games, start)
    games = args.games * args.slices
    our_speed, their_speed = games / our_time, games / their_time
    print(f"brailledev uno, random vs random, 2 players: {our_speed:,.0f} games/s (CPU), "
          f"{games} games")
    print(f"RLCard uno,     random vs random, 2 players: {their_speed:,.0f} games/s (CPU), "
          f"{games} games")
    ratio = our_speed / their_speed
    print(f"ratio: {ratio:.2f}x (target >= 3x) {'OK' if ratio >= 3 else 'BELOW TARGET'}")
    habits: Counter[str] = Counter()
    rate = heuristic_win_rate(args.strength_games, args.seed, habits)
    print(f"heuristic vs random, {args.strength_games} two-player rounds: {rate:.1%} won "
          f"(target >= 70%; anchors: chausner/UnoAI 66%, RLCard rule agent 54%) "
          f"{'OK' if rate >= 0.7 else 'BELOW TARGET'}")
    print(f"heuristic habits: bluffed {share(habits, 'bluffs', 'draw_fours')} of its Wild "
          f"Draw Fours, forgot UNO on {share(habits, 'forgot', 'last_but_one')} of its "
          f"second-to-last cards, challenged {share(habits, 'challenged_bluffs', 'faced_bluffs')} "
          f"of random's bluffs and {share(habits, 'challenged_fair', 'faced_fair')} of its "
          f"fair Wild Draw Fours")
    return 0


if __name__ == "__main__":
    sys.exit(main())
