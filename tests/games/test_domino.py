"""Domino 10-11-12: the seed's worked examples and every ruling DOM-1 to DOM-10."""

from collections import Counter

import pytest

from games.core import IllegalMove, NotationError, events_for
from games.domino import BOTS, GAME, Domino
from games.domino.engine import (
    DataProblem,
    Drew,
    Exchanged,
    GameEnded,
    Passed,
    Placed,
    RoundStarted,
    parse_card,
)
from games.domino.grid import (
    Opening,
    Place,
    Rules,
    anchor_of,
    card,
    card_text,
    column_index,
    column_name,
    lines_through,
    placements,
    square_name,
)
from games.domino.pad import ScorePad
from games.play import play_out
from layouts.catalog import rules_data

DATA = rules_data("domino")
RULES = Rules(12, {10: 1, 11: 3, 12: 5}, 6)


def C(text):
    return parse_card(text)


def position(table, hands, stocks=None, set_aside=None, turn=0, players=2):
    """A game in the middle of round 1 from its position line: ``table`` of Places, hands
    and stocks as card texts, the rest of the box set aside. A ``set_aside`` of fewer cards
    than the rest is set on the engine directly: no save of a 50-card box holds it."""
    def texts(cards):
        return ",".join(card_text(C(text)) for text in cards) or "-"

    line = [f"domino players={players} turn={turn}", f"table={';'.join(map(str, table)) or '-'}",
            f"hands={';'.join(map(texts, hands))}"]
    if stocks:
        line.append(f"stocks={';'.join(map(texts, stocks))}")
    game = Domino.from_position(" ".join(line))
    if set_aside is not None:
        game.set_aside = [C(text) for text in set_aside]
    return game


def refusal(game, seat, move):
    reason = game.check(seat, move)
    return None if reason is None else reason.code


def bot_move(game, bots, seat):
    move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
    assert move is not None
    return move


def H(first, second, x, y):
    return Place(first, second, x, y, False)


def V(first, second, x, y):
    return Place(first, second, x, y, True)


# Ill. 3: 6/0 laid at (1,0)-(2,0) joins the row 3 . . 3 into 12, and makes a 10 and an 11 across.
ILL3_TABLE = [V(1, 3, 0, -1), H(4, 5, 1, -1), V(2, 3, 3, -1), H(6, 1, 2, 1)]
# Ill. 4: 1/0 extends the row 5 6 to 12 and, with its blank, the column 6 6 stays a 12.
ILL4_TABLE = [H(5, 6, 0, 0), V(6, 6, 3, -2), H(1, 2, 1, -1)]
# Ill. 6: 1/1 under two columns of 11 between a 5 and a 5 makes three 12s.
ILL6_TABLE = [V(5, 6, 1, -2), V(6, 5, 2, -2), V(1, 5, 0, -1), V(0, 5, 3, -1)]


def test_dom_9_ill_3_six_blank_joins_two_lines_10_11_12_super_bonus():
    game = position(ILL3_TABLE, [["6/0", "1/1", "2/2"], ["3/3"]], stocks=[["4/4"], ["5/5"]])
    option = next(o for o in game.options(0) if o.move == H(6, 0, 1, 0))
    assert option.lines == (10, 11, 12)
    assert option.points == 9 + 6 and option.super_bonus == 6
    events = game.play(0, game.parse_move(0, game.format_move(H(6, 0, 1, 0))))
    placed = events[0]
    assert isinstance(placed, Placed) and placed.points == 15
    pad = game.pads[0]
    assert pad.column(10) == (1,) and pad.column(11) == (3,) and pad.column(12) == (5,)
    assert pad.bonuses() == (1,)  # DOM-8: row 1 now has 10, 11 and 12 filled
    assert pad.supers == (6,) and pad.super_rows() == (19,)
    assert game.scores()[0] == 9 + 1 + 6


def test_dom_7_ill_4_one_blank_completes_two_twelves_for_10():
    game = position(ILL4_TABLE, [["1/0", "2/2"], ["3/3"]])
    option = next(o for o in game.options(0) if o.move == H(1, 0, 2, 0))
    assert option.lines == (12, 12) and option.points == 10 and option.super_bonus == 0
    game.play(0, option.move)
    assert game.pads[0].column(12) == (10,)  # DOM-8: same-value lines of one turn in one box
    assert game.scores()[0] == 10


def test_dom_9_ill_6_one_one_makes_three_twelves_15_plus_6():
    game = position(ILL6_TABLE, [["1/1", "2/2"], ["3/3"]])
    option = next(o for o in game.options(0) if o.move == H(1, 1, 1, 0))
    assert option.lines == (12, 12, 12) and option.points == 21 and option.super_bonus == 6
    game.play(0, option.move)
    assert game.pads[0].column(12) == (15,) and game.pads[0].supers == (6,)
    assert game.scores()[0] == 21


def test_dom_1_default_deck_is_the_reconstructed_fifty():
    deck = Counter(GAME.new(2, 1, DATA).box.deck)
    assert sum(deck.values()) == 50
    assert all(deck[card(a, b)] == 2 for a in range(1, 7) for b in range(a, 7))
    assert [deck[card(0, b)] for b in range(1, 7)] == [1, 1, 2, 2, 1, 1]


def test_dom_1_a_different_deck_file_is_an_option():
    cards = [f"{a}/{b}" for a in range(1, 7) for b in range(a, 7)] * 2 + ["0/0"] * 8
    game = GAME.new(2, 3, DATA, deck=cards)
    assert Counter(game.box.deck)[(0, 0)] == 8
    assert game.to_dict()["data"]["cards"] == cards
    with pytest.raises(DataProblem):
        GAME.new(2, 3, DATA, deck=["1/1"] * 10)


def test_dom_2_blank_half_continues_a_line_free_square_ends_it():
    grid = {(0, 0): 5, (1, 0): 0, (2, 0): 4, (4, 0): 6}
    assert lines_through(grid, [(0, 0)]) == [9]
    assert lines_through(grid, [(4, 0)]) == []  # a lone half is no line


def test_dom_3_line_above_twelve_refused_and_state_untouched():
    game = position(ILL4_TABLE, [["6/6", "1/0"], ["3/3"]])
    before = game.to_dict()
    with pytest.raises(IllegalMove) as refused:
        game.play(0, H(6, 6, 2, 0))  # row 5 6 6 6 = 23
    assert refused.value.reason.code == "line_too_long"
    assert game.to_dict() == before
    assert all(max(o.lines, default=0) <= 12 for o in game.options(0))


def test_dom_3_card_must_touch_and_cover_free_squares():
    game = position(ILL4_TABLE, [["1/0", "2/2"], ["3/3"]])
    assert refusal(game, 0, H(2, 2, 10, 10)) == "not_touching"
    assert refusal(game, 0, H(2, 2, 0, 0)) == "square_taken"
    assert refusal(game, 0, H(3, 3, 2, 0)) == "card_not_in_hand"
    assert refusal(game, 1, H(3, 3, 2, 0)) == "not_your_turn"


@pytest.mark.parametrize(("players", "stock"), [(2, 9), (3, 5), (4, 3)])
def test_dom_4_deal_per_player_count(players, stock):
    game = GAME.new(players, 11, DATA)
    assert [len(h) for h in game.hands] == [4] + [3] * (players - 1)
    assert [len(s) for s in game.stocks] == [stock] * players
    assert len(game.set_aside) == 25
    assert game.actors() == [0]


def test_dom_4_rounds_dealer_moves_left_round_two_uses_set_aside_cards():
    game = GAME.new(3, 5, DATA)
    bots = {seat: BOTS["random"](seat) for seat in range(3)}
    starts = []
    while not game.is_over():
        seat = game.actors()[0]
        set_aside = Counter(game.set_aside)
        events = game.play(seat, bot_move(game, bots, seat))
        for event in events:
            if isinstance(event, RoundStarted):
                starts.append((event.round, event.dealer))
                if event.round == 1:
                    dealt = Counter(c for h in game.hands for c in h)
                    dealt.update(c for s in game.stocks for c in s)
                    assert dealt <= set_aside
                    assert not game.grid
    assert starts == [(1, 1), (2, 2)]


def test_dom_5_opening_is_two_cards_joined_at_a_number_scored_once():
    game = GAME.new(2, 2, DATA)
    game.hands[0] = [C("6/4"), C("5/5"), C("3/0"), C("2/1")]
    game._known = {}
    assert refusal(game, 0, H(6, 4, 0, 0)) == "opening_two_cards"
    blank_touch = Opening(H(6, 4, 0, 0), H(0, 3, 2, 0))  # 4 meets the blank only
    assert refusal(game, 0, blank_touch) == "opening_not_joined"
    move = game.parse_move(0, "6/4@c3> 5/5@c4>")
    assert move == Opening(H(6, 4, 0, 0), H(5, 5, 0, 1))
    stock = len(game.stocks[0])
    events = game.play(0, move)
    placed = events[0]
    # rows 6 4 (10) and 5 5 (10), columns 6 5 (11) and 4 5 (9): one turn, one pad entry
    assert isinstance(placed, Placed) and placed.lines == (10, 10, 11)
    assert game.pads[0].column(10) == (2,) and game.pads[0].column(11) == (3,)
    assert len(game.hands[0]) == 3 and len(game.stocks[0]) == stock - 1
    assert isinstance(events[1], Drew)
    assert game.check(1, game.legal_moves(1)[0]) is None
    assert all(isinstance(m, Place) for m in game.legal_moves(1))
    assert refusal(game, 1, Opening(H(1, 1, 9, 9), H(1, 1, 9, 10))) == "one_card_per_turn"


def test_dom_9_the_two_card_opening_never_earns_the_super_bonus():
    # 6/6 over 5/4: rows of 12 and 9, columns of 11 and 10: a 10, an 11 and a 12 at once,
    # made by two cards (ruling of 2026-11-24: "en posant une carte" means one card)
    game = position([], [["6/6", "5/4", "1/1", "2/2"], ["3/3", "4/4", "5/5"]])
    move = Opening(H(6, 6, 0, 0), H(5, 4, 0, -1))
    option = next(o for o in game.options(0) if o.move == move)
    assert option.lines == (10, 11, 12)
    assert option.super_bonus == 0 and option.points == 1 + 3 + 5
    placed = game.play(0, move)[0]
    assert isinstance(placed, Placed) and placed.lines == (10, 11, 12)
    assert placed.points == 9 and placed.entry.super_row is None
    assert placed.entry.points == 9 + 1  # and row 1's bonus, its three boxes now filled
    assert game.pads[0].supers == () and game.scores()[0] == 9 + 1


def test_dom_6_no_legal_card_shows_hand_and_draws_three_from_set_aside():
    # a square of four 6s: rows and columns of 12 that only a blank half can touch
    hand1 = ["5/6", "2/3", "1/1"]
    set_aside = ["1/2", "1/3", "0/3", "4/4", "5/5"]
    game = position([H(6, 6, 0, 0)], [["6/6", "2/2"], hand1], set_aside=set_aside)
    events = game.play(0, H(6, 6, 0, 1))
    exchanged = [e for e in events if isinstance(e, Exchanged)]
    assert exchanged and exchanged[0].seat == 1 and exchanged[0].shown == tuple(map(C, hand1))
    seen_by_0, seen_by_1 = events_for(exchanged, 0)[0], events_for(exchanged, 1)[0]
    assert isinstance(seen_by_0, Exchanged) and seen_by_0.cards is None
    assert isinstance(seen_by_1, Exchanged) and seen_by_1.cards == exchanged[0].cards
    assert C("0/3") in game.hands[1] and len(game.hands[1]) == 3
    assert game.actors() == [1] and game.legal_moves(1)
    pile = Counter(game.set_aside) + Counter(game.hands[1])
    assert pile == Counter(map(C, set_aside + hand1))


def test_dom_6_fewer_than_three_set_aside_passes_and_round_ends():
    game = position([H(6, 6, 0, 0)], [["6/6"], ["5/6"]], set_aside=["6/5", "6/6"])
    events = game.play(0, H(6, 6, 0, 1))
    assert any(isinstance(e, Passed) and e.seat == 1 for e in events)
    assert game.round == 1  # seat 0 has no card left, seat 1 passed: the round is over


def test_dom_7_three_elevens_score_nine():
    # 1/0 laid in the row 4 . . 6 under columns of 10 (4+6) and 11 (5+6)
    table = [V(4, 6, 1, -2), V(5, 6, 2, -2), V(0, 4, 0, -1), V(0, 6, 3, -1)]
    game = position(table, [["1/0", "1/1"], ["3/3"]])
    option = next(o for o in game.options(0) if o.move == H(1, 0, 1, 0))
    assert option.lines == (11, 11, 11) and option.points == 9 and option.super_bonus == 0


def test_dom_7_lines_not_through_the_card_do_not_score():
    game = position(ILL4_TABLE, [["1/0", "3/3"], ["3/3"]])
    option = next(o for o in game.options(0) if o.move == V(3, 3, 4, -3))
    # beside the column 6 6 (a 12) without being in it: only its own 6 and 9 lines count
    assert option.lines == () and option.points == 0


def test_dom_8_pad_fills_next_free_box_and_row_bonus_when_row_complete():
    pad = ScorePad.blank((10, 11, 12), tuple(range(1, 21)), 6)
    pad, entry = pad.record({10: 1}, False)
    pad, entry = pad.record({10: 2, 12: 5}, False)
    assert pad.column(10) == (1, 2) and pad.column(12) == (5,)
    assert entry.boxes == ((10, 1, 2), (12, 0, 5)) and not entry.row_bonuses
    pad, entry = pad.record({11: 3}, False)
    assert entry.row_bonuses == ((0, 1),) and pad.bonuses() == (1,)
    assert pad.total() == 1 + 2 + 5 + 3 + 1


def test_dom_8_full_column_scores_nothing_more():
    pad = ScorePad.blank((10, 11, 12), (1, 1), 6)
    for _ in range(2):
        pad, _ = pad.record({12: 5}, False)
    pad, entry = pad.record({12: 10, 10: 1}, False)
    assert pad.column(12) == (5, 5) and entry.lost == (12,) and entry.points == 1
    assert pad.total() == 11


def test_dom_9_super_bonuses_are_written_bottom_up_in_total_column():
    pad = ScorePad.blank((10, 11, 12), (1,) * 20, 6)
    pad, first = pad.record({12: 15}, True)
    pad, second = pad.record({10: 1, 11: 3, 12: 5}, True)
    assert (first.super_row, second.super_row) == (19, 18)
    assert pad.total() == 15 + 9 + 6 + 6 + 1


def test_dom_10_totals_and_shared_ties():
    game = GAME.new(2, 9, DATA)
    play_out(game, {0: BOTS["heuristic"](1), 1: BOTS["random"](2)})
    assert game.is_over() and game.actors() == [] and game.legal_moves(0) == []
    assert game.scores() == [pad.total() for pad in game.pads]
    saved = game.to_dict()
    saved["pads"][1] = saved["pads"][0]
    tied = Domino.from_dict(saved)
    assert tied.winners() == [0, 1]
    assert refusal(game, 0, H(1, 1, 0, 0)) == "game_over"


def test_game_ended_event_names_the_winners():
    game = GAME.new(2, 4, DATA)
    bots = {0: BOTS["random"](3), 1: BOTS["random"](4)}
    last = []
    while not game.is_over():
        seat = game.actors()[0]
        last = game.play(seat, bot_move(game, bots, seat))
    ended = last[-1]
    assert isinstance(ended, GameEnded) and list(ended.winners) == game.winners()


def test_notation_squares_are_named_from_the_rounds_first_card():
    assert [column_name(i) for i in (0, 25, 26, 27)] == ["a", "z", "aa", "ab"]
    assert column_index("aa") == 26
    # columns left of a: a minus and the letters counting leftwards
    assert [column_name(i) for i in (-1, -26, -27)] == ["-a", "-z", "-aa"]
    assert all(column_index(column_name(i)) == i for i in range(-800, 800))
    game = position(ILL4_TABLE, [["1/0", "2/2"], ["3/3"]])
    # the first card's first square, (0, 0), is c3, whatever lies left of it or above
    assert square_name(anchor_of(game.table), (0, 0)) == "c3"
    assert square_name(anchor_of(game.table), (2, 0)) == "e3"
    assert game.name_move(H(1, 0, 2, 0)) == "1/0@e3>"
    assert game.name_move(V(6, 6, 3, -2)) == "6/6@f1v"
    assert game.name_move(V(1, 1, -3, -4)) == "1/1@-a-1v"
    assert game.parse_move(0, "1/1@-a-1v") == V(1, 1, -3, -4)
    # the notation of a move names absolute squares: it needs no table
    assert game.format_move(H(1, 0, 2, 0)) == str(H(1, 0, 2, 0)) == "1/0@2,0>"
    assert game.parse_move(0, "0/1@e3v") == game.parse_move(0, "0/1@2,0v") == V(0, 1, 2, 0)
    for text in ("", "1/0", "1/0@5e>", "10/0@e5>", "1/0@e5> 1/1@a1v 2/2@b2>"):
        with pytest.raises(NotationError):
            game.parse_move(0, text)
    for text in ("7", "7/0", "6/9"):
        with pytest.raises(NotationError):
            parse_card(text)


def test_legal_moves_list_both_ends_and_both_ways():
    grid = {(0, 0): 3, (1, 0): 2}
    found = {o.move for o in placements(grid, [card(4, 1)], RULES)}
    assert H(4, 1, 2, 0) in found and H(1, 4, 2, 0) in found
    assert V(4, 1, 0, 1) in found and V(1, 4, 0, -2) in found


BOX = Domino.new(players=2, seed=1).data["cards"]


@pytest.mark.parametrize(("deck", "why"), [
    (["7/1", *BOX[1:]], "domino_pips"),                       # DOM-1: halves 0 to 6
    (["9/9", *BOX[1:]], "domino_pips"),
    (["1/1"] * 100_000, "too_long"),                           # no box holds that many
    (["6/6"] * 9 + BOX[9:], "card_too_often"),                 # more than a box prints
    (BOX[:10], "too_short"),                                   # not a round's cards
    ([6, *BOX[1:]], "wrong_type"),
    ("6/6", "wrong_type"),
    (["6/٣", *BOX[1:]], "not_a_card"),
])
def test_dom_1_a_deck_option_is_checked_card_by_card(deck, why):
    with pytest.raises(DataProblem) as refused:
        Domino.new(players=2, seed=1, deck=deck)
    assert refused.value.reason.code == "box_data"
    assert refused.value.reason.params["why"] == why


def test_dom_1_a_deck_of_other_cards_within_the_limits_is_a_box():
    deck = [f"{a}/{b}" for a in range(1, 7) for b in range(a, 7)] * 2 + ["0/0"] * 8
    assert sum(Domino.new(players=2, seed=3, deck=deck).box_cards().values()) == 50
