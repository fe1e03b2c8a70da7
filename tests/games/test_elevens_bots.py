"""Elevens computer opponents: what the heuristic does on purpose, and whole games."""

import json

from brailledev.programs.cli import main
from games.elevens import BOTS
from games.elevens.engine import JOKER, Elevens
from games.play import play_out
from tests.elevens_helpers import DATA, table


def choose(game, seat=0):
    bot = BOTS["heuristic"](1)
    return game.format_move(bot.choose(game.view(seat), game.legal_moves(seat)))


def test_heuristic_plays_rather_than_draws():
    game = table([["r12", "b20"], ["b3"]], stock=["g1", "g2"])
    assert choose(game) == "r12"


def test_heuristic_plays_its_chain_first_and_holds_a_card_that_opens_for_others():
    game = table([["r12", "r13", "y10", "b20", "g20", "y20", "g19"],
                  ["b3", "b4", "b5", "b6", "b7"]])
    assert choose(game) == "r12"
    game.play(0, game.parse_move(0, "r12"))
    assert choose(game) == "r13"
    game.play(0, game.parse_move(0, "r13"))
    assert choose(game) == "end"  # y10 would only open y9 to the others


def test_elv_10_heuristic_completes_a_half_row_for_the_bonus():
    game = table([["r12", "y1"], ["b3"]], rows={"y": range(2, 11)})
    assert choose(game) == "y1"


def test_elv_6_heuristic_links_to_a_row_it_can_fill():
    game = table([["y5", "y6", "y7", "b20"], ["b3"]], rows={"r": range(5, 11)})
    assert choose(game).startswith("L r") and choose(game).endswith(">y")


def test_elv_9_heuristic_sheds_jokers_before_the_end():
    game = table([["r20", "b20", JOKER], ["b3"]], stock=[])
    step = choose(game)
    assert step == "discard *" or step.startswith("*@")
    calm = table([["r20", "b20", "g20", "y20", "y3", JOKER], ["b3", "b4", "b5", "b6", "b7"]])
    assert choose(calm) == "draw"  # far from the end a joker is kept for a gap


def test_elv_8_heuristic_exchanges_a_card_whose_place_a_joker_holds():
    game = table([["r12", "y12", "b20"], ["b3"]], jokers=[("y", 12)])
    assert choose(game) == "r12"
    game.play(0, game.parse_move(0, "r12"))
    assert choose(game) == "x y12"


def test_whole_games_between_all_bots_end():
    for players in (2, 3, 6):
        game = Elevens.new(players, seed=players, data=DATA)
        bots = {seat: BOTS[("heuristic", "random")[seat % 2]](seat) for seat in range(players)}
        assert play_out(game, bots, max_steps=20_000) > 0 and game.is_over()


def test_selfplay_command_prints_the_result(capsys):
    assert main(["selfplay", "elevens", "--games", "3", "--seed", "2"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "elevens" and sum(result["wins"]) >= 3
