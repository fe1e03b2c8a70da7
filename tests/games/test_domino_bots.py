"""Domino 10-11-12 computer opponents: they see views only, take what the sheet pays, and
fear what they leave open."""

from collections import Counter
from dataclasses import replace

from games.domino import BOTS, GAME
from games.domino.bots import expected_reply, unseen
from games.domino.engine import parse_card
from games.domino.grid import Rules, card
from games.domino.pad import ScorePad
from games.play import play_out
from layouts.catalog import rules_data
from tests.games.test_domino import ILL3_TABLE, H, position

DATA = rules_data("domino")
RULES = Rules(12, {10: 1, 11: 3, 12: 5}, 6)
DECK = Counter(parse_card(text) for text in DATA["cards"])


def test_heuristic_takes_the_super_bonus_of_ill_3():
    game = position(ILL3_TABLE, [["6/0", "1/1", "2/2"], ["3/3", "4/4", "5/5"]])
    move = BOTS["heuristic"](1).choose(game.view(0), game.legal_moves(0))
    assert move == H(6, 0, 1, 0)


def test_gain_counts_row_bonus_and_full_columns():
    game = position(ILL3_TABLE, [["6/0"], ["3/3"]])
    view = game.view(0)
    option = next(o for o in game.options(0) if o.move == H(6, 0, 1, 0))
    pad = ScorePad.blank((10, 11, 12), (2,) * 20, 6)
    assert replace(view, pads=(pad, view.pads[1])).gain(option) == 9 + 2 + 6
    full = ScorePad.blank((10, 11, 12), (2,), 6)
    full, _ = full.record({12: 5}, False)
    # 12 lost, row 1 now complete
    assert replace(view, pads=(full, view.pads[1])).gain(option) == 1 + 3 + 2 + 6


def test_a_line_of_nine_leaves_more_to_the_next_player_than_a_line_of_two():
    nine = expected_reply({(0, 0): 6, (1, 0): 3}, DECK, 3, RULES)
    two = expected_reply({(0, 0): 1, (1, 0): 1}, DECK, 3, RULES)
    assert nine > two > 0
    assert expected_reply({(0, 0): 1, (1, 0): 1}, Counter({card(1, 1): 4}), 3, RULES) == 0


def test_unseen_cards_leave_out_the_table_and_own_hand_only():
    game = GAME.new(2, 3, DATA)
    view = game.view(1)
    left = unseen(view)
    assert sum(left.values()) == 50 - len(view.hand)
    assert all(left[c] <= DECK[c] for c in left)


def test_heuristic_beats_random_in_a_short_match():
    wins = 0
    for seed in range(6):
        game = GAME.new(2, seed, DATA)
        clever = seed % 2
        play_out(game, {clever: BOTS["heuristic"](seed), 1 - clever: BOTS["random"](seed)})
        wins += game.scores()[clever] > game.scores()[1 - clever]
    assert wins >= 5
