"""Uno's computer opponents and self-play through the real CLI."""

import json

from brailledev.cli import main
from brailledev.selfplay import selfplay
from games.play import play_out
from games.uno import BOTS, SELFPLAY_OPTIONS, HeuristicBot, Move, Uno
from layouts.catalog import rules_data

DATA = rules_data("uno")


def rigged(line: str) -> Uno:
    """A table in one line (the colour is the top card's, seat 0 to play, the rest of the
    deck in the stock): ``rigged("players=2 hands=r5,g1;b1,b2 discard=r9")``."""
    return Uno.from_position(f"uno {line}")


def test_bots_finish_whole_matches_of_every_size():
    for players in range(2, 7):
        game = Uno.new(players=players, seed=players, data=DATA, match_target=200)
        bots = {seat: BOTS[("heuristic", "random")[seat % 2]](seat) for seat in range(players)}
        play_out(game, bots)
        assert game.is_over() and max(game.scores()) >= 200


def test_heuristic_keeps_wilds_and_picks_its_strongest_colour():
    game = rigged("players=2 hands=wi,r5,g1,g2,g7;b1,b2,b3,b4,b5 discard=r9")
    bot = BOTS["heuristic"](1)
    assert bot.choose(game.view(0), game.legal_moves(0)) == Move("play", "r5")
    game = rigged("players=2 hands=wi,y5,g1,g2,g7;b1,b2,b3,b4,b5 discard=r9")
    assert bot.choose(game.view(0), game.legal_moves(0)) == Move("play", "wi", "g")


def test_heuristic_says_uno_and_catches_forgotten_unos():
    game = rigged("players=3 hands=r5,g1;b1,b2;y1,y2 discard=r9")
    bot = BOTS["heuristic"](1)
    move = bot.choose(game.view(0), game.legal_moves(0))
    assert move == Move("play", "r5", uno=True)
    game.play(0, Move("play", "r5"))
    assert bot.choose(game.view(2), game.legal_moves(2)) == Move("catch", target=0)
    assert bot.choose(game.view(2), []) is None


def test_heuristic_challenges_a_likely_bluff():
    bot = BOTS["heuristic"](1)
    game = rigged("players=2 hands=r3,r4,r5,r6,wi+4;b1,b2 discard=r9")
    game.play(0, Move("play", "wi+4", "g"))
    assert bot.choose(game.view(1), game.legal_moves(1)) == Move("challenge")


def test_heuristic_stops_challenging_a_player_whose_draw_fours_prove_honest():
    bot = HeuristicBot(1)
    honest = rigged("players=2 hands=wi+4,wi+4,b1,b2,y3;r1,g2 discard=r9")
    honest.play(0, Move("play", "wi+4", "g"))
    assert bot.choose(honest.view(1), honest.legal_moves(1)) == Move("challenge")
    honest.play(1, Move("challenge"))
    later = rigged("players=2 hands=wi+4,b1,b2,y3,y4;r1,g2,g5,g5,g6,g6,g7,g7 discard=r9 "
                   "current=1")
    bot.choose(later.view(1), later.legal_moves(1))
    assert bot.bluffs == {0: [0, 1]}
    bot.bluffs[0] = [0, 3]
    later = rigged("players=2 hands=r3,r4,r5,wi+4,y4;b1,b2 discard=r9")
    later.play(0, Move("play", "wi+4", "g"))
    assert bot.choose(later.view(1), later.legal_moves(1)) == Move("accept")


def test_heuristic_attacks_when_an_opponent_is_near_out():
    game = rigged("players=3 hands=r5,r+2,g9,g8;b1;y1,y2,y3 discard=r9")
    bot = BOTS["heuristic"](1)
    assert bot.choose(game.view(0), game.legal_moves(0)) == Move("play", "r+2")


def test_heuristic_beats_random_in_two_player_rounds():
    result = selfplay("uno", 200, 5, 2, ["heuristic", "random"])
    assert result["wins"][0] >= 0.6 * 200


def test_selfplay_plays_single_rounds_and_is_deterministic():
    assert SELFPLAY_OPTIONS == {"match_target": 0}
    first = selfplay("uno", 30, 9, 3, ["heuristic", "random"])
    second = selfplay("uno", 30, 9, 3, ["heuristic", "random"])
    for result in (first, second):
        del result["seconds"], result["games_per_second"]
    assert first == second and sum(first["wins"]) >= 30


def test_selfplay_command_prints_one_json_object(capsys):
    assert main(["selfplay", "uno", "--games", "5", "--seed", "3", "--players", "4",
                 "--bots", "heuristic,random"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 5 and result["bots"] == ["heuristic", "random"] * 2
    assert sum(result["wins"]) >= 5
