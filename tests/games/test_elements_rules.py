"""Elements rulings ELE-1 to ELE-8, one test (or more) per ruling."""

import pytest

from games.core import IllegalMove, events_for
from games.elements.cards import Card, Pattern
from games.elements.engine import (
    BID,
    KEEP,
    OVER,
    PLACE,
    Drew,
    Elements,
    GameOver,
    HandScored,
    Kept,
    Lay,
    Placed,
    Revealed,
    ToStock,
    Won,
)
from tests.elements_helpers import cards, census, new, play


def placed_game(first_cards="r5 y1 y2 y3 y4 y5 y6 y7 y8 y9 y10",
                second_cards="b5 g1 g2 g3 g4 g5 g6 g7 g8 g9 g10",
                third_cards="k9 k1 k2 k3 k4 k5 k6 k7 k8 k10 r10",
                moves=("place r5@Eg", "place b5@Er", "place k9@Eb")):
    """A 3-player game whose row is r y g b k (the box's order, a position's default),
    after the given placements; the rest of the deck is the stock."""
    hands = ";".join(",".join(map(str, sorted(cards(text), key=lambda card: (
        "rygbk".index(card.colour), card.value)))) for text in (first_cards, second_cards,
                                                                third_cards))
    game = Elements.from_position(f"elements players=3 hands={hands}")
    events = play(game, *moves)
    return game, events


def test_ele_1_deck_is_55_number_cards_and_5_elements():
    game = new(3)
    deck = game.deck()
    assert len(deck) == len(set(deck)) == 55
    assert {card.colour for card in deck} == set(game.colours) and len(game.colours) == 5
    assert {card.value for card in deck} == set(range(11))
    assert sorted(game.row) == sorted(game.colours)
    assert census(game) == {card: 1 for card in deck}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_ele_2_deal_eleven_each_rest_is_stock(players):
    game = new(players)
    assert [len(hand) for hand in game.hands] == [11] * players
    assert len(game.stock) == 55 - 11 * players
    assert game.actors() == [0] and game.phase == PLACE


def test_ele_2_first_player_is_an_option():
    assert new(4, first_player=2).actors() == [2]
    with pytest.raises(ValueError):
        new(3, first_player=3)


def test_ele_3_placement_in_turn_face_down_then_revealed():
    game = new(3, first_player=1)
    assert game.actors() == [1]
    card = game.hands[1][0]
    events = game.play(1, game.parse_move(1, f"place {card}@E{game.row[0]}"))
    assert events_for(events, 1) == [Placed(1, game.row[0], (card,))]
    assert events_for(events, 0) == [Placed(1, game.row[0], None)]
    assert game.view(0).placements == ((game.row[0], 1, None),)
    assert game.view(1).placements == ((game.row[0], 1, card),)
    assert game.actors() == [2]


def test_ele_3_an_element_holds_one_card():
    game, _ = placed_game(moves=("place r5@Eg",))
    with pytest.raises(IllegalMove) as refused:
        game.play(1, game.parse_move(1, "place b5@Eg"))
    assert refused.value.reason.code == "element_taken"


def test_ele_3_order_by_decreasing_number_ties_keep_row_order_unpaired_last():
    game, events = placed_game()
    reveal = next(event for event in events if isinstance(event, Revealed))
    # b holds 9; r and g both hold a 5: r was nearer the box; y and k had no card
    assert reveal.order == ("b", "r", "g", "y", "k")
    assert reveal.point_cards == tuple(cards("k9 b5 r5"))
    assert game.order == reveal.order and game.phase == BID
    assert set(reveal.placements) == {("g", 0, Card("r", 5)), ("r", 1, Card("b", 5)),
                                      ("b", 2, Card("k", 9))}


def test_ele_3_unpaired_elements_keep_their_original_order():
    game, _ = placed_game(moves=("place r5@Ek", "place b5@Eb", "place k9@Ey"))
    assert game.order == ("y", "b", "k", "r", "g")


def test_ele_4_bidding_starts_with_the_lowest_point_card():
    game, _ = placed_game()
    assert game.view(0).current == Card("r", 5)
    assert game.point_cards == cards("k9 b5 r5")


def test_ele_4_zero_point_cards_go_to_the_stock():
    game, events = placed_game(
        first_cards="r0 y1 y2 y3 y4 y5 y6 y7 y8 y9 y10",
        moves=("place r0@Eg", "place b5@Er", "place k9@Eb"))
    assert ToStock(Card("r", 0), "zero") in events
    assert Card("r", 0) in game.stock
    assert game.point_cards == cards("k9 b5")
    assert game.view(0).current == Card("b", 5)


def test_ele_5_rounds_lay_one_then_one_then_two():
    game, _ = placed_game()
    assert game.view(0).need == 1
    with pytest.raises(IllegalMove) as refused:
        game.play(0, Lay(tuple(cards("y1 y2"))))
    assert refused.value.reason.code == "lay_count"
    play(game, "lay y1", "lay g1", "lay k1", "lay y2", "lay g2", "lay k2")
    assert game.view(0).need == 2
    play(game, "lay y3 y4")
    assert len(game.laid[0]) == 4 and game.actors() == [1]


def test_ele_5_a_player_who_passes_is_out_but_its_cards_compete():
    game, _ = placed_game()
    play(game, "lay y10", "lay g1", "lay k1", "pass", "pass")
    assert game.actors() == [2]                 # seat 0 passed: never asked again
    events = play(game, "pass")
    won = [event for event in events if isinstance(event, Won)]
    assert won == [Won(0, Card("r", 5), (Card("y", 10),), won[0].key)]
    assert won[0].key.pattern == Pattern.SINGLE
    assert game.won[0] == [Card("r", 5)]


def test_ele_5_who_cannot_lay_must_pass():
    game, _ = placed_game(third_cards="k9")
    play(game, "lay y1", "lay g1")
    assert game.legal_moves(2) == [game.parse_move(2, "pass")]
    with pytest.raises(IllegalMove) as refused:
        game.play(2, Lay(tuple(cards("k1"))))
    assert refused.value.reason.code == "must_pass"


def test_ele_5_nobody_lays_point_card_to_stock_and_laid_cards_go_to_stock():
    game, _ = placed_game()
    events = play(game, "pass", "pass", "pass")
    assert ToStock(Card("r", 5), "nobody_laid") in events
    assert Card("r", 5) in game.stock
    assert game.view(0).current == Card("b", 5) and game.actors() == [0]
    events = play(game, "pass", "lay g10", "lay k1", "pass", "pass")
    assert any(isinstance(event, Won) and event.seat == 1 for event in events)
    assert Card("g", 10) in game.stock and Card("k", 1) in game.stock
    assert game.laid == [[], [], []]


def test_ele_5_the_winner_starts_the_next_point_card():
    game, _ = placed_game()
    play(game, "lay y1", "lay g10", "lay k1", "pass", "pass", "pass")
    assert game.won[1] == [Card("r", 5)]
    assert game.actors() == [1] and game.view(1).current == Card("b", 5)


def test_ele_6_winner_by_combination():
    game, _ = placed_game(first_cards="r5 y1 y2 y3 y4 y5 y6 y7 y8 y9 g10",
                          second_cards="b5 g1 g2 g3 g4 g5 g6 g7 g8 g9 y10")
    # order b r g y k: g10 beats y10 (same value, stronger colour)
    events = play(game, "lay g10", "lay y10", "pass", "pass", "pass")
    assert [event.seat for event in events if isinstance(event, Won)] == [0]
    # four of colour g beats four of colour y
    events = play(game, "lay y1", "lay g1", "pass", "lay y2", "lay g2", "lay y3 y4",
                  "lay g3 g4")
    won = [event for event in events if isinstance(event, Won)]
    assert [event.seat for event in won] == [1]
    assert won[0].key.pattern == Pattern.FOUR_COLOUR


def test_ele_6_full_tie_goes_to_who_laid_first():
    game, _ = placed_game()
    game.order = ("b", "r", "g", "y", "k")
    # the same combination cannot be laid twice with one deck: compare the engine's keys
    game.laid = [cards("y7"), cards("y7"), []]
    game.laid_rank = [1, 0, None]
    keys = game.bid_keys()
    assert max(keys, key=lambda seat: keys[seat]) == 1


def finish_hand(game):
    """Everyone passes every remaining point card."""
    events = []
    while game.phase == BID:
        events += play(game, "pass")
    return events


def test_ele_7_hand_points_then_keep_and_draw_back_to_eleven():
    game, _ = placed_game()
    play(game, "lay y10", "pass", "pass", "pass")   # seat 0 wins r5
    play(game, "pass", "lay g10", "pass", "pass")   # seat 0 starts b5; seat 1 wins it
    events = play(game, "lay g9", "pass", "pass", "pass")   # seat 1 starts k9 and wins it
    scored = [event for event in events if isinstance(event, HandScored)]
    assert scored[0].points == (5, 14, 0) and scored[0].totals == (5, 14, 0)
    assert game.phase == KEEP and game.actors() == [0]
    assert census(game).total() == 55
    hand0 = list(game.hands[0])
    events = game.play(0, game.parse_move(0, f"keep {hand0[0]} {hand0[1]}"))
    assert events_for(events, 1)[0] == Kept(0, 2, None)
    assert game.hands[0] == hand0[:2]
    play(game, "keep", "keep")
    assert game.phase == PLACE
    assert [len(hand) for hand in game.hands] == [11, 11, 11]
    assert game.first == 1 and game.actors() == [1]
    assert census(game).total() == 55 and len(census(game)) == 55
    assert game.totals == list(scored[0].totals)


def test_ele_7_draws_are_private():
    game, _ = placed_game()
    finish_hand(game)
    events = play(game, "keep", "keep", "keep")
    drawn = [event for event in events if isinstance(event, Drew)]
    assert all(event.cards is not None for event in drawn)
    for event in events_for(events, 0):
        if isinstance(event, Drew) and event.seat != 0:
            assert event.cards is None


def test_ele_8_each_player_first_once_then_over():
    game = new(3)
    firsts = []
    while game.phase != OVER:
        if game.phase == PLACE and not game.placements:
            firsts.append(game.first)
        seat = game.actors()[0]
        legal = game.legal_moves(seat)
        move = legal[-1] if game.phase == BID else legal[0]
        events = game.play(seat, move)
    assert firsts == [0, 1, 2]
    over = [event for event in events if isinstance(event, GameOver)]
    assert over and list(over[0].winners) == game.winners()
    assert game.actors() == [] and game.legal_moves(0) == []


def test_ele_8_ties_are_shared():
    game = new(3)
    game.phase = OVER
    game.totals = [12, 12, 3]
    assert game.winners() == [0, 1]
