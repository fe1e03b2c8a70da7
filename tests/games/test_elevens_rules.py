"""Elevens rules, one or more tests per ruling (ELV-1 .. ELV-12 in shared/rules/elevens.md)."""

import pytest

from games.core import NotationError, Reason, events_for
from games.elevens.engine import (
    JOKER,
    BonusTaken,
    Drew,
    Elevens,
    GameOver,
    Placed,
    Step,
    segments,
)
from tests.elevens_helpers import DATA, ORDER, refused, steps, table


def all_number_cards():
    return {f"{c}{v}" for c in ORDER for v in range(1, 22)}


def test_elv_1_box_has_84_numbers_15_links_4_jokers_7_bonuses():
    game = Elevens.new(2, seed=5, data=DATA)
    held = [card for hand in game.hands for card in hand] + game.stock
    table_cards = [card for row in game.rows.values() for card in row.values()]
    numbers = [card for card in held + table_cards if card != JOKER]
    assert sorted(numbers) == sorted(all_number_cards())
    assert held.count(JOKER) == 4
    assert sum(game.links) + game.links_out == 15
    assert game.bonus_left == 7
    assert all(game.rows[c] == {11: f"{c}11"} for c in ORDER)


def test_elv_2_rows_in_a_seeded_column_order_with_neighbours():
    orders = {tuple(Elevens.new(2, seed=s, data=DATA).order) for s in range(20)}
    assert len(orders) > 1 and all(sorted(o) == sorted(ORDER) for o in orders)
    game = Elevens.new(2, seed=3, data=DATA)
    assert Elevens.new(2, seed=3, data=DATA).order == game.order
    top, second, third, bottom = game.order
    assert game.neighbours(top) == [second]
    assert game.neighbours(third) == [second, bottom]


def test_elv_2_low_cards_on_one_side_high_on_the_other():
    game = table([["r10", "r12"], ["b3"]])
    steps(game, 0, "r10", "r12")
    assert segments(game.rows["r"]) == [(10, 12)]


@pytest.mark.parametrize("players, links, cards", [(2, 4, 20), (3, 4, 20), (4, 3, 15),
                                                    (5, 3, 12), (6, 2, 12)])
def test_elv_3_deal_per_player_count(players, links, cards):
    game = Elevens.new(players, seed=1, data=DATA)
    assert [len(hand) for hand in game.hands] == [cards] * players
    assert game.links == [links] * players
    assert game.links_out == 15 - links * players
    assert len(game.stock) == 84 - 4 + 4 - cards * players


def test_elv_3_links_public_hands_hidden_first_seat_option():
    game = Elevens.new(3, seed=2, data=DATA, first=2)
    assert game.actors() == [2]
    view = game.view(0)
    assert view.link_cards == (4, 4, 4)
    assert view.hand == tuple(game.hands[0])
    assert view.hand_sizes == (20, 20, 20)
    assert not set(game.hands[1]) - {JOKER} & set(view.hand)


def test_elv_4_at_most_four_cards_a_turn():
    game = table([["r12", "r13", "r14", "r15", "r16"], ["b3"]])
    steps(game, 0, "r12", "r13", "r14", "r15")
    assert refused(game, 0, "r16") == "limit_reached"
    steps(game, 0, "end")
    assert game.actors() == [1]


def test_elv_4_draw_is_the_whole_turn():
    game = table([["r12", "r14"], ["b3"]], stock=["y5", "g2"])
    steps(game, 0, "r12")
    assert refused(game, 0, "draw") == "draw_only_first"
    steps(game, 0, "undo", "draw")
    assert game.hands[0] == ["r12", "r14", "g2"]
    assert game.actors() == [1]


def test_elv_4_nothing_placed_with_a_stock_means_draw():
    game = table([["r12"], ["b3"]])
    assert refused(game, 0, "end") == "draw_or_play"


def test_elv_5_card_goes_next_to_its_row_only():
    game = table([["r9", "r13"], ["b3"]])
    assert refused(game, 0, "r9") == "not_next_to_row"
    assert refused(game, 0, "r13") == "not_next_to_row"
    assert refused(game, 0, "b3") == "card_not_in_hand"


def test_elv_5_taken_place_refused():
    game = table([["r12"], ["b3"]], jokers=[("r", 12)])
    assert refused(game, 0, "r12") == "place_taken"


def test_elv_5_joker_takes_any_free_place_next_to_a_row():
    game = table([["*"], ["b3"]], rows={"b": [12, 13]})
    assert refused(game, 0, "*@b15") == "not_next_to_row"
    steps(game, 0, "*@b14")
    assert game.rows["b"][14] == JOKER


def test_elv_5_segments_merge_when_they_meet():
    game = table([["r13", "r14"], ["b3"]], rows={"r": [15, 16]}, jokers=[("r", 12)])
    assert segments(game.rows["r"]) == [(11, 12), (15, 16)]
    steps(game, 0, "r13")
    assert segments(game.rows["r"]) == [(11, 13), (15, 16)]
    steps(game, 0, "r14")
    assert segments(game.rows["r"]) == [(11, 16)]


def test_elv_6_link_card_starts_new_segment_in_neighbour_row():
    game = table([["y5", "y6"], ["b3"]], rows={"r": range(5, 11)})
    steps(game, 0, "L r5>y")
    assert game.rows["y"] == {11: "y11", 5: "y5"}
    assert segments(game.rows["y"]) == [(5, 5), (11, 11)]
    assert game.links[0] == 3 and game.table_links == [("r", 5, "y")]
    steps(game, 0, "y6")  # the new segment grows like any other
    assert segments(game.rows["y"]) == [(5, 6), (11, 11)]


def test_elv_6_laid_link_cards_are_public_in_every_seats_view():
    game = table([["y5", "b12", "b20"], ["b3"]], rows={"r": range(5, 11), "g": [12]})
    steps(game, 0, "L r5>y", "L g12>b", "undo")
    assert game.view(1).links_at("b") == [] and game.view(1).links_at("g") == []
    steps(game, 0, "L g12>b", "end")
    for seat in (0, 1):
        view = game.view(seat)
        assert view.links_at("y") == [(5, "r")] and view.links_at("r") == [(5, "y")]
        assert view.links_at("g") == [(12, "b")] and view.links_at("b") == [(12, "g")]


def test_elv_6_link_only_to_a_neighbour_row_from_a_placed_card():
    game = table([["g5", "y4", "*"], ["b3"]], rows={"r": range(5, 11)})
    assert refused(game, 0, "L r5>g") == "not_neighbour_row"
    assert refused(game, 0, "L r4>y") == "link_needs_card"
    assert refused(game, 0, "L r11>y *") == "place_taken"


def test_elv_6_link_with_a_joker_and_without_link_cards():
    game = table([["*", "*"], ["b3"]], rows={"y": [12, 13]}, links=[1, 0])
    steps(game, 0, "L y13>g *")
    assert game.rows["g"][13] == JOKER
    assert refused(game, 0, "L y12>g *") == "no_link_card"


def test_elv_6_link_cards_do_not_count_toward_the_limit_their_card_does():
    game = table([["r12", "r13", "r14", "y12", "y13"], ["b3"]], rows={"g": [12, 13]})
    steps(game, 0, "r12", "r13", "r14", "L g13>y")
    assert refused(game, 0, "y12") == "limit_reached"


def test_elv_7_no_stock_must_play_a_playable_card():
    game = table([["r12", "b3"], ["b4"]], stock=[])
    assert refused(game, 0, "end") == "must_play"
    steps(game, 0, "r12", "end")


def test_elv_7_no_stock_nothing_playable_passes():
    game = table([["r14", "*"], ["b3"]], stock=[])
    events = game.play(0, Step("end"))  # only the joker could go: not forced (seed)
    assert any(getattr(e, "passed", False) for e in events)
    assert game.actors() == [1]


def test_elv_7_a_card_playable_through_a_link_forces_too():
    game = table([["y5"], ["b3"]], rows={"r": range(5, 11)}, stock=[])
    assert refused(game, 0, "end") == "must_play"
    assert refused(table([["y5"], ["b3"]], rows={"r": range(5, 11)}, stock=[], links=[0, 0]),
                   0, "draw") == "stock_empty"


def test_elv_7_a_round_of_passes_with_no_stock_ends_the_game():
    game = table([["r14"], ["b3"]], stock=[])
    steps(game, 0, "end")
    assert not game.is_over()
    events = game.play(1, Step("end"))
    assert game.is_over() and isinstance(events[-1], GameOver) and events[-1].out is None
    assert game.scores() == [-14, -3]


def test_elv_8_joker_exchange_needs_another_card_in_the_turn():
    game = table([["r12", "y12"], ["b3"]], jokers=[("y", 12)], stock=["g1"])
    steps(game, 0, "x y12")
    assert game.rows["y"][12] == "y12" and JOKER in game.hands[0]
    assert refused(game, 0, "end") == "exchange_needs_other_card"
    assert refused(game, 0, "draw") == "draw_only_first"
    steps(game, 0, "r12", "end")


def test_elv_8_exchanged_card_counts_toward_the_limit():
    game = table([["r12", "r13", "r14", "y12"], ["b3"]], jokers=[("y", 12)])
    steps(game, 0, "r12", "r13", "r14", "x y12")
    assert refused(game, 0, "*@r15") == "limit_reached"
    fresh = table([["r12", "r13", "y12"], ["b3"]], jokers=[("y", 12)])
    steps(fresh, 0, "r12", "r13")
    steps(fresh, 0, "x y12", "*@r14")  # the joker played at once


def test_elv_8_exchange_needs_room_for_the_other_card_and_the_joker():
    game = table([["y12", "*", "*", "*"], ["b3"]], jokers=[("y", 12)])
    steps(game, 0, "discard *", "discard *", "discard *")
    assert refused(game, 0, "x y12") == "exchange_needs_other_card"
    other = table([["r12"], ["b3"]], jokers=[("y", 12)])
    assert refused(other, 0, "x r12") == "no_joker_there"


def test_elv_9_discarding_a_joker_counts_and_may_end_the_game():
    game = table([["r12", "r13", "r14", "*"], ["b3"]])
    steps(game, 0, "discard *", "r12", "r13", "r14")
    assert game.boxed == 1
    out = table([["*", "*"], ["b3"]])
    steps(out, 0, "discard *")
    events = out.play(0, Step("discard", JOKER))
    assert out.is_over() and isinstance(events[-1], GameOver) and events[-1].out == 0


def test_elv_10_completing_a_half_row_takes_a_bonus_also_by_joker():
    game = table([["r20", "r21", "*"], ["b3"]], rows={"r": range(12, 20), "y": range(2, 11)})
    events = game.play(0, game.parse_move(0, "*@y1"))
    assert BonusTaken(0, "y", "low") in events
    steps(game, 0, "r20")
    assert game.bonuses[0] == 1  # r12-r20 is not the whole half yet
    steps(game, 0, "r21")
    assert game.bonuses[0] == 2 and game.bonus_left == 5


def test_elv_10_later_exchange_of_that_joker_gives_no_bonus():
    game = table([["r12", "y1"], ["b3"]], rows={"y": range(2, 11)}, jokers=[("y", 1)],
                 bonus_left=6)
    steps(game, 0, "r12", "x y1")
    assert game.bonuses[0] == 0 and game.bonus_left == 6


def test_elv_10_no_bonus_once_the_seven_are_gone():
    game = table([["y1"], ["b3"]], rows={"y": range(2, 11)}, bonus_left=0)
    events = game.play(0, game.parse_move(0, "y1"))
    assert not any(isinstance(e, BonusTaken) for e in events)
    assert game.bonuses == [0, 0]


def test_elv_10_undo_gives_the_bonus_back():
    game = table([["y1", "b5"], ["b3"]], rows={"y": range(2, 11)})
    steps(game, 0, "y1", "undo")
    assert game.bonuses == [0, 0] and game.bonus_left == 7


def test_elv_11_game_stops_when_a_hand_is_empty_and_scores():
    game = table([["r12"], ["b3", "y20", "*"]], links=[4, 2])
    game.bonuses = [0, 2]
    events = game.play(0, game.parse_move(0, "r12"))
    assert game.is_over() and game.actors() == []
    assert isinstance(events[-1], GameOver)
    assert game.scores() == [0, 22 - 3 - 20 - 11]
    assert game.winners() == [0]
    assert game.check(1, Step("draw")) == Reason.of("game_over")


def test_elv_11_ties_are_shared():
    game = table([["r14"], ["b14"]], stock=[])
    steps(game, 0, "end")
    steps(game, 1, "end")
    assert game.scores() == [-14, -14] and game.winners() == [0, 1]


def test_elv_11_most_points_wins_even_if_not_out():
    game = table([["r12"], ["b3"]])
    game.bonuses = [0, 1]
    steps(game, 0, "r12")
    assert game.scores() == [0, 8] and game.winners() == [1]


def test_elv_12_beginner_has_no_links_jokers_or_bonuses():
    game = Elevens.new(2, seed=4, data=DATA, beginner=True)
    held = [card for hand in game.hands for card in hand] + game.stock
    assert JOKER not in held and len(held) == 80
    assert game.links == [0, 0] and game.bonus_left == 0
    start = table([["y1", "y5"], ["b3"]], rows={"y": range(2, 11), "r": range(5, 11)},
                  beginner=True, bonus_left=0, links=[0, 0])
    assert refused(start, 0, "L r5>y") == "no_links_in_beginner"
    steps(start, 0, "y1")
    assert start.bonuses == [0, 0]


def test_elv_12_beginner_first_out_wins():
    game = table([["r12"], ["b3"]], beginner=True, bonus_left=0, links=[0, 0])
    game.bonuses = [0, 1]  # cannot happen in the variant; the first out wins regardless
    steps(game, 0, "r12")
    assert game.is_over() and game.winners() == [0]


def test_undo_takes_back_each_kind_of_step_exactly():
    game = table([["r12", "y12", "y13", "*", "*"], ["b3"]], rows={"g": [13]},
                 jokers=[("y", 12)])
    before = game.to_dict()
    for text in ("r12", "L g13>y", "x y12", "discard *"):
        steps(game, 0, text)
    for _ in range(4):
        steps(game, 0, "undo")
    assert game.to_dict() == before
    assert refused(game, 0, "undo") == "nothing_to_undo"


def test_not_your_turn_and_unknown_notation():
    game = table([["r12"], ["r10"]])
    assert refused(game, 1, "r10") == "not_your_turn"
    for text in ("q5", "r22", "L r12", "discard r5", "*@", "hello"):
        with pytest.raises(NotationError):
            game.parse_move(0, text)


def test_notation_round_trips_for_every_legal_step():
    game = Elevens.new(2, seed=9, data=DATA)
    game.hands[0] = ["r10", "r12", "y12", "*"]
    game.rows["y"][12] = JOKER
    game.hands[1] = [c for c in game.hands[1] if c != "y12"]
    kinds = set()
    for move in game.legal_moves(0):
        assert game.parse_move(0, game.format_move(move)) == move
        kinds.add(move.kind)
    assert {"place", "link", "draw", "discard"} <= kinds


def test_drawn_card_seen_by_the_drawer_only():
    game = table([["r14"], ["b3"]], stock=["g7"])
    events = game.play(0, Step("draw"))
    assert Drew(0, ("g7",)) in events_for(events, 0)
    assert Drew(0, None) in events_for(events, 1)
    assert "g7" not in str(events_for(events, 1))


def test_placed_events_say_where_a_link_came_from():
    game = table([["y5"], ["b3"]], rows={"r": range(5, 11)})
    events = game.play(0, game.parse_move(0, "L r5>y"))
    assert events[0] == Placed(0, "y5", "y", 5, "r")


def test_elevens_check_of_an_unknown_seat_is_a_reason_not_an_index_error():
    game = Elevens.new(players=2, seed=1)
    step = game.legal_moves(0)[0]
    assert game.check(7, step) == Reason.of("no_such_seat", seat="7")
    assert game.check(-1, step) == Reason.of("no_such_seat", seat="-1")
    assert game.legal_moves(7) == []
