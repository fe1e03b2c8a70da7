"""Elements bots: legal moves from views alone, whole games, and what the heuristic reads."""

from games.elements import BOTS, SELFPLAY_OPTIONS
from games.elements.bots import HeuristicBot
from games.elements.engine import BID, Keep, Lay, Pass, Place
from games.play import play_out
from layouts.registry import GAMES, kit
from tests.elements_helpers import cards, new, rig


def test_elements_is_registered_with_both_bots():
    assert "elements" in GAMES and set(BOTS) == {"random", "heuristic"}
    assert SELFPLAY_OPTIONS == {}


def test_bots_play_whole_games_with_legal_moves_only():
    for players in (3, 4, 5):
        game = kit("elements").new_game(players, seed=players)
        bots = {seat: kit("elements").make_bot(("heuristic", "random")[seat % 2], seat)
                for seat in range(players)}
        assert play_out(game, bots) > 0
        assert game.is_over() and game.winners()


def test_heuristic_places_before_the_colour_it_holds_most():
    game = new(3)
    game.row = ["r", "y", "g", "b", "k"]
    rig(game, {0: "b1 b2 b3 b4 b5 b6 r9 g2 y7 k4 k8"})
    move = HeuristicBot(1).choose(game.view(0), game.legal_moves(0))
    assert isinstance(move, Place) and move.element == "b" and move.card.colour != "b"


def bidding(laid, point_cards, hand, passed=(False, False, False)):
    """Seat 0 to bid in a rigged phase 2 under the colour order b r g y k."""
    game = new(3)
    game.phase, game.order, game.row = BID, ("b", "r", "g", "y", "k"), ["b", "r", "g", "y", "k"]
    rig(game, {0: hand})
    game.point_cards = cards(point_cards)
    game.laid = [cards(text) for text in laid]
    game.laid_rank = [None] * 3
    for rank, seat in enumerate(seat for seat in range(3) if laid[seat]):
        game.laid_rank[seat] = rank
    game.passed = list(passed)
    game.turn = 0
    return game


def test_heuristic_passes_when_it_leads():
    game = bidding(["b10", "y2", ""], "k9 b5", "r1 r2 y3 y4 g5 g6 k7 k8 b8 b9",
                   passed=(False, False, True))
    assert HeuristicBot(1).choose(game.view(0), game.legal_moves(0)) == Pass()


def test_heuristic_passes_when_the_point_card_is_not_worth_the_cards():
    # beating a pair of 10s takes three of a colour, 4 cards laid, for a point card of 1
    game = bidding(["", "r10 y10", ""], "k9 r1", "r1 r2 r3 y4 g5 g6 k7 k8 b8 b9")
    assert HeuristicBot(1).choose(game.view(0), game.legal_moves(0)) == Pass()


def test_heuristic_lays_one_cheap_card_that_wins_a_valuable_point_card():
    game = bidding(["", "k3", ""], "k2 r9", "r1 r2 y3 y4 g5 g6 k7 k8 b8 b9")
    move = HeuristicBot(1).choose(game.view(0), game.legal_moves(0))
    assert move == Lay(tuple(cards("y3")))      # same value as k3, stronger colour


def test_heuristic_keeps_high_cards_and_pairs():
    game = new(3)
    game.phase = "keep"
    game.hands[0] = cards("r1 b1 y3 g8 k10")
    game.turn = 0
    move = HeuristicBot(1).choose(game.view(0), game.legal_moves(0))
    assert isinstance(move, Keep) and set(move.cards) == set(cards("r1 b1 g8 k10"))
