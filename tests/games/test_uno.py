"""Uno rulings UNO-1 to UNO-12 (shared/rules/uno.md), one or more tests each."""

from collections import Counter
from typing import Any

import pytest

from games.core import IllegalMove, NotationError, events_for
from games.uno import Move, Uno
from games.uno.engine import (
    Challenged,
    DealerCard,
    Drew,
    FirstCard,
    HandShown,
    MatchOver,
    Reshuffled,
    RoundOver,
    RoundStarted,
)
from games.uno.notation import format_move, parse_card, parse_move
from layouts.catalog import Catalog, rules_data

DATA = rules_data("uno")
COLOURS = ("r", "y", "g", "b")


def new(players: int = 3, seed: int = 1, **options: Any) -> Uno:
    return Uno.new(players=players, seed=seed, data=DATA, **options)


def rig(game: Uno, **fields: Any) -> Uno:
    """The game with some of its fields replaced, as the rule under test needs them; the
    stock is what the hands and the discard leave of the deck unless given. A rigged table
    need not be one the rules could reach (``stock=[]`` with small hands), so it is set on
    the engine directly, not read as a save."""
    pool = Counter(game.deck)
    hands: list[list[str]] = fields.get("hands", game.hands)
    discard: list[str] = fields.get("discard", game.discard)
    for card in [c for hand in hands for c in hand] + list(discard):
        pool[card] -= 1
        assert pool[card] >= 0, f"more {card} than the deck has"
    fields.setdefault("stock", sorted(pool.elements()))
    for key, value in fields.items():
        setattr(game, key, [list(v) for v in value] if key == "hands" else
                list(value) if isinstance(value, list) else value)
    return game


def play(game: Uno, seat: int, text: str) -> list:
    return game.play(seat, game.parse_move(seat, text))


def refused(game: Uno, seat: int, text: str) -> str:
    before = game.to_dict()
    with pytest.raises(IllegalMove) as caught:
        play(game, seat, text)
    assert game.to_dict() == before
    return caught.value.reason.code


def seed_with_first(value: str, players: int = 3) -> Uno:
    """A real game whose first turned card has ``value`` (``"+2"``, ``"wi"``...)."""
    for seed in range(5000):
        game = new(players, seed)
        first = [e for e in game.start_events if isinstance(e, FirstCard)]
        if value == "wi+4" and first[0].returned:
            return game
        if value != "wi+4" and not first[0].returned and first[0].card.endswith(value) and (
                value != "wi" or first[0].card == "wi"):
            return game
    raise AssertionError(f"no seed turns {value} first")


def test_uno_1_deck_has_108_cards_of_the_box():
    game = new()
    deck = Counter(game.deck)
    assert len(game.deck) == 108
    for colour in COLOURS:
        assert deck[f"{colour}0"] == 1
        for value in [*"123456789", "sk", "rv", "+2"]:
            assert deck[f"{colour}{value}"] == 2
    assert deck["wi"] == 4 and deck["wi+4"] == 4


def test_uno_1_deck_follows_the_data():
    data = rules_data("uno")
    data["wilds"]["wi"] = 6
    game = Uno.new(players=2, seed=3, data=data)
    assert len(game.deck) == 110
    assert Uno.from_dict(game.to_dict()).data["wilds"]["wi"] == 6


def test_uno_2_dealer_draws_highest_number_actions_count_zero_ties_redraw():
    saw_tie = False
    for seed in range(60):
        game = new(4, seed)
        draws = [e for e in game.start_events if isinstance(e, DealerCard)]
        drawing, used = [0, 1, 2, 3], 0
        while len(drawing) > 1:
            batch = draws[used:used + len(drawing)]
            assert [e.seat for e in batch] == drawing
            used += len(batch)
            value = {e.seat: int(e.card[1:]) if e.card[1:].isdigit() else 0 for e in batch}
            drawing = [seat for seat in drawing if value[seat] == max(value.values())]
        assert used == len(draws) and game.dealer == drawing[0]
        saw_tie |= len(draws) > 4
    assert saw_tie


def test_uno_2_deal_seven_each_and_turn_one_card():
    game = seed_with_first("5")
    assert [len(hand) for hand in game.hands] == [7, 7, 7]
    assert len(game.discard) == 1 and len(game.stock) == 108 - 21 - 1
    assert game.current == (game.dealer + 1) % 3
    dealt = [e for e in game.start_events if isinstance(e, Drew) and e.why == "deal"]
    assert [e.count for e in dealt] == [7, 7, 7]
    seen = events_for(game.start_events, 0)
    assert all(e.cards is None for e in seen if isinstance(e, Drew) and e.seat != 0)


def test_uno_3_first_draw_two_left_player_draws_and_is_skipped():
    game = seed_with_first("+2")
    left = (game.dealer + 1) % 3
    assert len(game.hands[left]) == 9
    assert game.current == (game.dealer + 2) % 3


def test_uno_3_first_reverse_dealer_starts_and_play_goes_right():
    game = seed_with_first("rv")
    assert game.current == game.dealer and game.direction == -1
    play(game, game.dealer, "draw")
    if game.phase == "drawn":
        play(game, game.dealer, "keep")
    assert game.current == (game.dealer - 1) % 3


def test_uno_3_first_skip_second_player_left_of_dealer_starts():
    game = seed_with_first("sk")
    assert game.current == (game.dealer + 2) % 3


def test_uno_3_first_wild_left_player_chooses_colour_then_plays():
    game = seed_with_first("wi")
    left = (game.dealer + 1) % 3
    assert game.current == left and game.view(left).phase == "choose"
    assert refused(game, left, "draw") == "uno_choose_colour_first"
    play(game, left, "choose b")
    assert game.colour == "b" and game.current == left and game.phase == "play"


def test_uno_3_first_wild_draw_four_goes_back_and_another_is_turned():
    game = seed_with_first("wi+4")
    assert game.discard[-1] != "wi+4"
    assert sum(hand.count("wi+4") for hand in game.hands) + game.stock.count("wi+4") == 4


def test_uno_4_match_colour_number_symbol_or_wild():
    game = rig(new(), hands=[["r3", "g7", "bsk", "wi", "y3", "g+2"], ["r1"], ["r2"]],
               discard=["g3"], colour="g", current=0)
    plays = {format_move(m) for m in game.legal_moves(0) if m.kind == "play"}
    assert plays == {"r3", "g7", "y3", "g+2", "wi:r", "wi:y", "wi:g", "wi:b"}
    assert refused(game, 0, "bsk") == "uno_card_does_not_match"
    assert refused(game, 0, "b5") == "uno_card_not_in_hand"
    assert refused(game, 0, "wi") == "uno_wild_needs_colour"
    assert refused(game, 0, "r3:g") == "uno_colour_only_for_wilds"
    assert refused(game, 1, "r1") == "not_your_turn"


def test_uno_4_may_draw_holding_a_playable_card_then_play_only_the_drawn_card():
    game = rig(new(), hands=[["r3", "r4"], ["b1"], ["b2"]], discard=["r9"], colour="r",
               current=0, stock=["r5"])
    events = play(game, 0, "draw")
    assert events_for(events, 0) == [Drew(0, 1, "draw", ("r5",))]
    assert events_for(events, 1) == [Drew(0, 1, "draw", None)]
    assert game.view(0).drawn == "r5" and game.view(1).drawn == ""
    assert refused(game, 0, "r3") == "uno_only_drawn_card"
    assert refused(game, 0, "draw") == "uno_play_drawn_or_keep"
    play(game, 0, "r5")
    assert game.discard[-1] == "r5" and game.current == 1


def test_uno_4_drawn_card_may_be_kept_and_the_turn_passes():
    game = rig(new(), hands=[["r3", "r4"], ["b1"], ["b2"]], discard=["r9"], colour="r",
               current=0, stock=["r5"])
    assert refused(game, 0, "keep") == "uno_nothing_drawn"
    play(game, 0, "draw")
    assert [format_move(m) for m in game.legal_moves(0)] == ["r5", "keep"]
    play(game, 0, "keep")
    assert game.current == 1 and game.hands[0] == ["r3", "r4", "r5"]


def test_uno_4_a_drawn_card_that_does_not_match_ends_the_turn():
    game = rig(new(), hands=[["r3", "r4"], ["b1"], ["b2"]], discard=["r9"], colour="r",
               current=0, stock=["b5"])
    play(game, 0, "draw")
    assert game.current == 1 and game.phase == "play" and game.hands[0] == ["r3", "r4", "b5"]
    assert refused(game, 0, "keep") == "not_your_turn"


def test_uno_5_wild_draw_four_with_a_matching_card_is_a_legal_bluff():
    game = rig(new(), hands=[["r3", "wi+4", "b1"], ["b1"], ["b2"]], discard=["r9"],
               colour="r", current=0)
    assert "wi+4:g" in {format_move(m) for m in game.legal_moves(0)}
    play(game, 0, "wi+4:g")
    assert game.wd4_guilty


def test_uno_5_seed_rule_any_other_playable_card_makes_it_a_bluff():
    hands = [["y9", "wi+4", "b1"], ["b1"], ["b2"]]
    seed_rule = rig(new(), hands=hands, discard=["r9"], colour="r", current=0)
    play(seed_rule, 0, "wi+4:g")
    assert seed_rule.wd4_guilty  # y9 matches the number
    mattel = rig(new(wild_draw_four="no_matching_colour"), hands=hands, discard=["r9"],
                 colour="r", current=0)
    play(mattel, 0, "wi+4:g")
    assert not mattel.wd4_guilty  # no red card


def test_uno_5_a_plain_wild_in_hand_makes_the_draw_four_a_bluff_by_the_seed_rule():
    game = rig(new(), hands=[["wi", "wi+4", "b1"], ["b1"], ["b2"]], discard=["r9"],
               colour="r", current=0)
    play(game, 0, "wi+4:g")
    assert game.wd4_guilty


def test_uno_5_no_other_playable_card_is_legal():
    game = rig(new(), hands=[["wi+4", "wi+4", "b1"], ["b1"], ["b2"]], discard=["r9"],
               colour="r", current=0)
    play(game, 0, "wi+4:g")
    assert not game.wd4_guilty


def test_uno_6_guilty_challenge_returns_the_card_and_shows_the_hand_to_the_challenger_only():
    game = rig(new(), hands=[["r3", "wi+4", "b1"], ["b7", "g7"], ["b2", "y4"]],
               discard=["r9"], colour="r", current=0)
    play(game, 0, "wi+4:g")
    assert game.current == 1 and game.view(1).phase == "challenge"
    assert game.view(1).challenge_from == 0 and game.view(1).previous_colour == "r"
    assert refused(game, 2, "challenge") == "not_your_turn"
    assert refused(game, 1, "b7") == "uno_challenge_or_accept"
    events = play(game, 1, "challenge")
    assert Challenged(1, 0, True) in events
    assert [e for e in events_for(events, 1) if isinstance(e, HandShown)] == [
        HandShown(1, 0, ("r3", "b1"))]
    assert not [e for e in events_for(events, 2) if isinstance(e, HandShown)]
    assert not [e for e in events_for(events, 0) if isinstance(e, HandShown)]
    assert game.view(1).shown_hand == ("r3", "b1") and game.view(1).shown_by == 0
    assert game.view(2).shown_hand == () and game.view(0).shown_hand == ()
    assert len(game.hands[0]) == 2 + 1 + 4 and "wi+4" in game.hands[0]
    assert game.discard[-1] == "r9" and game.colour == "r"
    assert game.current == 1 and game.phase == "play"
    assert len(game.hands[1]) == 2


def test_uno_6_a_catch_that_empties_the_stock_keeps_the_card_under_the_draw_four():
    # seat 0 bluffs its second-to-last card without UNO; seat 2 catches it with no stock
    # left: the reshuffle keeps r9 under the +4, so a guilty challenge can put it back
    game = rig(new(), hands=[["wi+4", "r5"], ["b1", "b2"], ["y1", "y2"]],
               discard=["g1", "r9"], colour="r", current=0, stock=[])
    play(game, 0, "wi+4:g")
    events = play(game, 2, "catch 0")
    assert Reshuffled(1) in events and game.discard == ["r9", "wi+4"]
    play(game, 1, "challenge")
    assert game.discard == ["r9"] and game.colour == "r" and "wi+4" in game.hands[0]
    assert game.view(1).top == "r9"


def test_uno_6_innocent_challenger_draws_six_and_loses_the_turn():
    game = rig(new(), hands=[["b3", "wi+4", "b1"], ["b7", "g7"], ["b2", "y4"]],
               discard=["r9"], colour="r", current=0)
    play(game, 0, "wi+4:y")
    play(game, 1, "challenge")
    assert len(game.hands[1]) == 8 and game.current == 2 and game.colour == "y"
    assert game.view(1).shown_hand == ("b3", "b1")


def test_uno_6_accepting_draws_four_and_loses_the_turn_no_challenge_after():
    game = rig(new(), hands=[["b3", "wi+4", "b1"], ["b7", "g7"], ["b2", "y4"]],
               discard=["r9"], colour="r", current=0)
    play(game, 0, "wi+4:y")
    play(game, 1, "accept")
    assert len(game.hands[1]) == 6 and game.current == 2
    assert refused(game, 2, "challenge") == "uno_no_challenge_now"
    assert refused(game, 1, "challenge") == "not_your_turn"


def test_uno_7_forgotten_uno_can_be_caught_by_any_opponent_and_draws_two():
    game = rig(new(), hands=[["r3", "r4"], ["b7", "g7"], ["b2", "y4"]], discard=["r9"],
               colour="r", current=0)
    play(game, 0, "r3")
    assert game.actors() == [1, 2] and game.must_act() == [1]
    assert [format_move(m) for m in game.legal_moves(2)] == ["catch 0"]
    assert game.view(2).catchable == 0
    assert refused(game, 0, "catch 0") == "uno_catch_opponents_only"
    assert refused(game, 2, "catch 1") == "uno_nothing_to_catch"
    events = play(game, 2, "catch 0")
    assert len(game.hands[0]) == 3 and game.actors() == [1]
    assert Drew(0, 2, "caught", None) in events_for(events, 1)


def test_uno_7_window_closes_when_the_next_player_acts():
    game = rig(new(), hands=[["r3", "r4"], ["b7", "g7"], ["b2", "y4"]], discard=["r9"],
               colour="r", current=0)
    play(game, 0, "r3")
    play(game, 1, "draw")
    assert game.actors() == [game.current] and game.view(2).catchable == -1
    assert refused(game, 2, "catch 0") == "uno_nothing_to_catch"


def test_uno_7_saying_uno_with_the_second_to_last_card_is_safe():
    game = rig(new(), hands=[["r3", "r4"], ["b7", "g7"], ["b2", "y4"]], discard=["r9"],
               colour="r", current=0)
    assert {format_move(m) for m in game.legal_moves(0)} >= {"r3", "r3!", "r4!"}
    play(game, 0, "r3!")
    assert game.actors() == [1] and game.view(1).catchable == -1


def test_uno_7_uno_only_with_the_second_to_last_card():
    game = rig(new(), hands=[["r3", "r4", "r5"], ["b7"], ["b2"]], discard=["r9"],
               colour="r", current=0)
    assert refused(game, 0, "r3!") == "uno_not_due"


def test_uno_8_empty_stock_reshuffles_the_discard_except_its_top():
    game = rig(new(), hands=[["r3", "b4"], ["b7"], ["b2"]], discard=["g1", "g2", "r9"],
               colour="r", current=0, stock=[])
    events = play(game, 0, "draw")
    assert Reshuffled(2) in events
    assert game.discard == ["r9"] and len(game.hands[0]) == 3 and len(game.stock) == 1


def test_uno_8_nothing_to_draw_passes_the_turn():
    game = rig(new(), hands=[["g3", "b4"], ["b7"], ["b2"]], discard=["r9"], colour="r",
               current=0, stock=[])
    events = play(game, 0, "draw")
    assert Drew(0, 0, "draw", ()) in events
    assert game.current == 1 and game.hands[0] == ["g3", "b4"]


def test_uno_8_nothing_to_draw_a_player_who_can_play_must_play():
    game = rig(new(), hands=[["r3", "b4"], ["b7"], ["b2"]], discard=["r9"], colour="r",
               current=0, stock=[])
    assert refused(game, 0, "draw") == "uno_nothing_to_draw"
    assert "draw" not in {format_move(m) for m in game.legal_moves(0)}


def test_uno_9_last_draw_two_is_drawn_before_scoring():
    game = rig(new(match_target=0), hands=[["r+2"], ["b7", "g7"], ["wi", "y4"]],
               discard=["r9"], colour="r", current=0, stock=["r2", "y8"])
    events = play(game, 0, "r+2")
    assert sorted(game.hands[1]) == ["b7", "g7", "r2", "y8"]
    over = [e for e in events if isinstance(e, RoundOver)]
    assert over == [RoundOver(0, 7 + 7 + 8 + 2 + 50 + 4, (78, 0, 0))]
    assert game.is_over() and game.winners() == [0] and game.scores() == [78, 0, 0]
    assert game.actors() == [] and game.legal_moves(1) == []
    assert refused(game, 1, "draw") == "game_over"


def test_uno_9_last_wild_draw_four_is_drawn_and_not_challenged():
    game = rig(new(match_target=0), hands=[["wi+4"], ["b7"], ["y4"]], discard=["r9"],
               colour="r", current=0, stock=["r2", "y8", "rsk", "g0"])
    play(game, 0, "wi+4:b")
    assert len(game.hands[1]) == 5 and game.is_over()
    assert game.scores()[0] == 7 + 0 + 20 + 8 + 2 + 4


def test_uno_9_match_goes_on_with_the_next_dealer_until_the_target():
    game = rig(new(), hands=[["r3"], ["b7"], ["y4"]], discard=["r9"], colour="r",
               current=0, totals=[480, 10, 0], dealer=2)
    events = play(game, 0, "r3")
    assert RoundOver(0, 11, (491, 10, 0)) in events
    assert RoundStarted(2, 0) in events
    assert not game.is_over() and game.dealer == 0 and game.round == 2
    assert sum(map(len, game.hands)) + len(game.stock) + len(game.discard) == 108
    assert game.winners() == []
    game = rig(game, hands=[["r3"], ["b7"], ["y4"]], discard=["r9"], colour="r",
               current=0, phase="play", drawn="", direction=1)
    events = play(game, 0, "r3")
    assert game.is_over() and game.winners() == [0] and game.scores() == [502, 10, 0]
    assert MatchOver((0,)) in events


def test_uno_10_two_players_reverse_and_skip_play_again():
    game = rig(new(2), hands=[["rrv", "rsk", "r1", "b1"], ["b7", "g7"]], discard=["r9"],
               colour="r", current=0)
    play(game, 0, "rrv")
    assert game.current == 0
    play(game, 0, "rsk")
    assert game.current == 0
    play(game, 0, "r1")
    assert game.current == 1


def test_uno_10_two_players_draw_two_and_four_make_the_opponent_draw_and_play_again():
    game = rig(new(2), hands=[["r+2", "wi+4", "b1", "y3"], ["b7", "g7"]], discard=["r9"],
               colour="r", current=0)
    play(game, 0, "r+2")
    assert len(game.hands[1]) == 4 and game.current == 0
    play(game, 0, "wi+4:b")
    play(game, 1, "accept")
    assert len(game.hands[1]) == 8 and game.current == 0


def test_uno_10_two_players_first_draw_two_lets_the_dealer_start():
    game = seed_with_first("+2", players=2)
    other = 1 - game.dealer
    assert len(game.hands[other]) == 9 and game.current == game.dealer


def test_uno_10_two_players_guilty_challenge_gives_the_challenger_the_turn():
    game = rig(new(2), hands=[["r3", "wi+4", "b1"], ["b7", "g7"]], discard=["r9"],
               colour="r", current=0)
    play(game, 0, "wi+4:g")
    assert game.current == 1
    play(game, 1, "challenge")
    assert game.current == 1 and len(game.hands[0]) == 7 and game.colour == "r"


def test_uno_11_teams_score_both_opponents_and_win_together():
    with pytest.raises(ValueError):
        new(3, teams=2)
    game = rig(new(4, teams=2, match_target=0),
               hands=[["r3"], ["b7"], ["wi", "y1"], ["y4"]], discard=["r9"], colour="r",
               current=0)
    play(game, 0, "r3")
    assert game.scores() == [11, 0, 11, 0] and game.winners() == [0, 2]


def test_uno_11_six_players_make_three_teams_of_two_partners_apart():
    game = new(6, teams=2, match_target=0)
    assert [game.team_of(seat) for seat in range(6)] == [0, 1, 2, 0, 1, 2]
    game = rig(game, hands=[["r3"], ["b7"], ["y1"], ["wi", "y2"], ["g4"], ["y4"]],
               discard=["r9"], colour="r", current=0)
    play(game, 0, "r3")
    assert game.winners() == [0, 3]
    assert game.scores()[0] == game.scores()[3] == 7 + 1 + 4 + 4


def test_uno_11_partners_cannot_catch_each_other():
    game = rig(new(4, teams=2), hands=[["r3", "r4"], ["b7"], ["y5"], ["y4"]],
               discard=["r9"], colour="r", current=0)
    play(game, 0, "r3")
    assert game.actors() == [1, 3]
    assert refused(game, 2, "catch 0") == "uno_catch_opponents_only"


def test_uno_12_card_and_move_notation_round_trips():
    for text in ["r7", "r7!", "wi:g", "wi+4:b!", "draw", "keep", "choose y", "challenge",
                 "accept", "catch 2", "g+2", "bsk", "yrv"]:
        assert format_move(parse_move(text, COLOURS)) == text
    assert parse_move(" WI+4:G! ", COLOURS) == Move("play", "wi+4", "g", True)
    assert parse_card("R+2", COLOURS) == "r+2"
    for bad in ["x9", "r10", "wi:x", "catch", "play r7", ""]:
        with pytest.raises(NotationError):
            parse_move(bad, COLOURS)
    with pytest.raises(NotationError):
        parse_card("w4", COLOURS)


def test_uno_12_every_card_has_a_label_in_both_languages():
    for lang in ("en", "fr"):
        labels = Catalog.load("uno", lang).section("cards")
        for card in set(new().deck):
            value = card if card in ("wi", "wi+4") else card[1:]
            assert value in labels


def test_every_refusal_has_words_in_both_languages():
    import re
    from pathlib import Path

    import games.uno

    source = "".join(path.read_text() for path in Path(games.uno.__file__).parent.glob("*.py"))
    codes = set(re.findall(r'Reason\.of\(\s*"([a-z_]+)"', source))
    codes |= {f"uno_no_{kind}_now" for kind in ("choose", "challenge", "accept")}
    assert len(codes) > 15
    for lang in ("en", "fr"):
        catalog = Catalog.load("uno", lang)
        for code in codes:
            assert catalog.text(code, card="r3", top="r9", colour="r", seat=0, text="x")


def test_options_are_checked():
    for options in ({"wild_draw_four": "sometimes"}, {"teams": 3}, {"match_target": -5},
                    {"colour": "r"}):
        with pytest.raises(ValueError):
            new(**options)
    with pytest.raises(ValueError):
        new(7)
