"""Rummikub engine: one test per ruling (RUM-1 to RUM-9) and the invariants."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalMove, NotationError, Reason, events_for
from games.play import bot_step
from games.rummikub import BOTS, CLOCK
from games.rummikub.engine import Dealt, Draw, Drew, FirstPlayer, Rummikub, StartDraw, Table
from games.rummikub.tiles import Arranged, arrange, format_table, full_box, parse_table
from layouts.catalog import Catalog, rules_data


def ok(tiles):
    """The set ``tiles`` arranged, which must be valid."""
    found = arrange(tuple(tiles))
    assert isinstance(found, Arranged), tiles
    return found


def new(players=2, seed=1, **options):
    return Rummikub.new(players=players, seed=seed, data=rules_data("rummikub"), **options)


def rigged(table, racks, melded=(True, True), pool=None):
    """A game in a chosen position; the pool holds the rest of the box."""
    game = new()
    game.table = [ok(s).tiles for s in parse_table(table)]
    game.racks = [r.split() for r in racks]
    game.melded = list(melded)
    game.turn = 0
    box = Counter(full_box(2, 2))
    box.subtract(t for s in game.table for t in s)
    for rack in game.racks:
        box.subtract(rack)
    game.pool = list((+box).elements()) if pool is None else pool
    return game


def move(game, text, seat=0):
    return game.play(seat, game.parse_move(seat, text))


def refused(game, text, code, seat=0):
    before = game.to_dict()
    with pytest.raises(IllegalMove) as error:
        move(game, text, seat)
    assert error.value.reason.code == code
    assert game.to_dict() == before


def all_tiles(game):
    tiles = Counter(game.pool)
    for rack in game.racks:
        tiles.update(rack)
    for tile_set in game.table:
        tiles.update(tile_set)
    return tiles


def test_rum_1_box_of_106_tiles_and_notation():
    game = new()
    tiles = all_tiles(game)
    assert sum(tiles.values()) == 106
    assert tiles["J"] == 2 and tiles["K1"] == 2 and tiles["Y13"] == 2
    assert format_table(parse_table("k1 K2 k3 | r5 b5 j")) == "K1 K2 K3 | R5 B5 J"
    with pytest.raises(NotationError):
        parse_table("K14 K1 K2")
    assert game.format_move(game.parse_move(0, "table K1 K2 K3 | R5 B5 Y5")) == \
        "table K1 K2 K3 | R5 B5 Y5"
    assert game.parse_move(0, "draw") == Draw()


def test_rum_2_start_draw_is_seen_and_highest_starts():
    for seed in range(20):
        game = new(players=3, seed=seed)
        events = game.start_events
        assert all(len(r) == 14 for r in game.racks)
        draws = [e for e in events if isinstance(e, StartDraw)]
        first = next(e for e in events if isinstance(e, FirstPlayer)).seat
        assert first == game.turn
        # every seat sees every start draw, but only its own dealt rack
        seen = events_for(events, 1)
        assert [e for e in seen if isinstance(e, StartDraw)] == draws
        dealt = [e for e in seen if isinstance(e, Dealt)]
        assert [e.cards is not None for e in dealt] == [False, True, False]
        assert len(game.pool) == 106 - 42  # the drawn tiles went back


def test_rum_2_first_player_holds_the_highest_last_draw():
    game = new(players=4, seed=3)
    draws = [e for e in game.start_events if isinstance(e, StartDraw)]
    number = {d.seat: (0 if d.tile == "J" else int(d.tile[1:])) for d in draws}
    assert number[game.turn] == max(number.values())


@pytest.mark.parametrize("text,valid", [
    ("K1 K2 K3", True), ("K11 K12 K13", True), ("K12 K13 K1", False), ("K1 K2", False),
    ("R5 B5 Y5", True), ("R5 B5 Y5 K5", True), ("R5 B5 R5", False), ("K1 K3 J", True),
    ("K5 J J", True), ("R5 B5 Y6", False), ("K1 R2 B3", False), ("J J K13", True),
])
def test_rum_3_runs_and_groups(text, valid):
    assert (not isinstance(arrange(parse_table(text)[0]), Reason)) == valid


def test_rum_3_joker_stands_for_its_place():
    assert ok(("K5", "K6", "J")).numbers == (5, 6, 7)
    assert ok(("J", "K5", "K6")).numbers == (4, 5, 6)
    assert ok(("K12", "K13", "J")).numbers == (11, 12, 13)
    assert ok(("R5", "B5", "J")).stands_for(2) == {"K5", "Y5"}


def test_rum_4_initial_meld_needs_30_from_the_rack():
    game = rigged("K1 K2 K3", ["K10 K11 K12 R7 B7 Y7", "R1"], melded=(False, True))
    refused(game, "table K1 K2 K3 | R7 B7 Y7", "initial_too_low")
    refused(game, "table K1 K2 | K3 R7 B7 Y7 | K10 K11 K12", "invalid_set")
    refused(game, "table K1 K2 K3 K10 K11 K12", "invalid_set")
    move(game, "table K1 K2 K3 | K10 K11 K12 | R7 B7 Y7")
    assert game.melded[0] and game.is_over()  # the whole rack went down


def test_rum_4_initial_meld_may_not_touch_the_table():
    game = rigged("K1 K2 K3", ["K4 K11 K12 K13", "R1"], melded=(False, True))
    refused(game, "table K1 K2 K3 K4 | K11 K12 K13", "initial_table_touched")
    move(game, "table K1 K2 K3 | K11 K12 K13")


def test_rum_4_joker_counts_as_its_tile_in_the_initial_meld():
    game = rigged("", ["K9 K11 J R1", "R2"], melded=(False, True))
    move(game, "table K9 J K11")  # 9 + 10 + 11 = 30
    assert game.melded[0]


def test_rum_5_split_a_run_with_a_rack_tile():
    # seed example 3: R4-R8 on the table, R6 from the rack -> R4 R5 R6 and R6 R7 R8
    game = rigged("R4 R5 R6 R7 R8", ["R6 K1", "Y1"])
    move(game, "table R4 R5 R6 | R6 R7 R8")
    assert sorted(game.table) == [("R4", "R5", "R6"), ("R6", "R7", "R8")]


def test_rum_5_take_from_run_and_group_to_make_a_group():
    # seed example 4: Y1-Y4 and a group of four 1s; B1... the player adds a 1
    game = rigged("Y1 Y2 Y3 Y4 | K1 R1 B1 Y1", ["B1 K9", "Y9"])
    move(game, "table Y2 Y3 Y4 | K1 B1 Y1 | R1 Y1 B1")


def test_rum_5_refusals_leave_the_state_as_it_was():
    game = rigged("B4 B5 B6", ["B3 B7 K8", "Y1"])
    refused(game, "table B4 B5 B6", "nothing_played")
    refused(game, "table B4 B5", "invalid_set")
    refused(game, "table B3 B4 B5", "table_tile_taken")
    refused(game, "table B4 B5 B6 B7 B8", "not_on_rack")
    refused(game, "table B4 B5 B6 | B3 B7 K8", "invalid_set")
    refused(game, "table B3 B4 B5 B6 B7", "not_your_turn", seat=1)
    move(game, "table B3 B4 B5 B6 B7")


def test_rum_6_joker_exchange_frees_it_for_a_new_set():
    game = rigged("K4 J K6 | R1 B1 Y1", ["K5 R9 B9", "Y2"])
    move(game, "table K4 K5 K6 | R1 B1 Y1 | R9 B9 J")
    assert ("R9", "B9", "J") in game.table


def test_rum_6_no_exchange_before_the_initial_meld():
    game = rigged("K4 J K6", ["K5 R9 B9 K10 K11 K12", "Y2"], melded=(False, True))
    refused(game, "table K4 K5 K6 | R9 B9 J | K10 K11 K12", "initial_table_touched")


def test_rum_6_exchange_only_with_the_tile_from_the_rack():
    # K5 comes from another table set, not from the rack: refused
    game = rigged("K4 J K6 | K5 R5 B5 Y5", ["R9 B9", "Y2"])
    refused(game, "table K4 K5 K6 | R5 B5 Y5 | R9 B9 J", "joker_not_exchanged")


def test_rum_6_joker_set_is_never_split():
    # splitting means its number tiles end in two sets: refused even with rack tiles
    game = rigged("K4 K5 K6 J", ["K7 K8 B1", "Y2"])
    refused(game, "table K4 K5 J | K6 K7 K8", "joker_set_split")
    refused(game, "table K4 K5 K6 K7 K8 | J B1", "invalid_set")
    # growing it keeps it whole: allowed
    move(game, "table K4 K5 K6 J K8")


def test_rum_6_freed_joker_may_not_join_another_joker_set():
    game = rigged("K4 J K6 | R7 R8 J", ["K5 R9", "Y2"])
    refused(game, "table K4 K5 K6 | R7 R8 J R9 J", "freed_joker_not_new_set")


def test_rum_6_freed_joker_may_not_join_an_existing_set():
    # the exchange is fine; the freed joker grows K1 K2 K3, a set of the table: refused
    game = rigged("R4 R5 J | K1 K2 K3", ["R6 Y2", "Y3"])
    refused(game, "table R4 R5 R6 | K1 K2 K3 J", "freed_joker_not_new_set")
    refused(game, "table R4 R5 R6 | J K1 K2 K3", "freed_joker_not_new_set")
    # nor a set grown from two sets of the table
    game = rigged("R4 R5 J | K1 K2 K3 | K5 K6 K7", ["R6 K4", "Y3"])
    refused(game, "table R4 R5 R6 | K1 K2 K3 K4 J K5 K6 K7", "freed_joker_not_new_set")
    # a joker from the rack may go anywhere, the freed one into a set made this turn
    game = rigged("R4 R5 J | K1 K2 K3", ["R6 J Y9 B9", "Y3"])
    refused(game, "table R4 R5 R6 | K1 K2 K3 J | Y9 B9", "invalid_set")
    move(game, "table R4 R5 R6 | K1 K2 K3 J | Y9 B9 J")
    assert ("K1", "K2", "K3", "J") in game.table and ("B9", "Y9", "J") in game.table


def test_rum_6_freed_joker_may_go_into_a_new_set_of_tiles_split_from_the_table():
    game = rigged("R4 R5 J | K1 K2 K3 K4 K5 K6", ["R6 Y2", "Y3"])
    move(game, "table R4 R5 R6 | K1 K2 K3 | K4 K5 K6 J")
    assert ("K4", "K5", "K6", "J") in game.table


def test_rum_7_timeout_draws_three_and_needs_a_limit():
    game = new(seed=2)
    seat = game.turn
    rack = len(game.racks[seat])
    events = move(game, "timeout", seat)
    assert len(game.racks[seat]) == rack + 3
    assert isinstance(events[0], Drew) and events[0].penalty
    hidden = events_for(events, 1 - seat)[0]
    assert isinstance(hidden, Drew) and hidden.cards is None
    free = new(seed=2, turn_times=0)
    refused(free, "timeout", "no_time_limit", seat=free.turn)
    per_seat = new(seed=2, turn_times=[0, 90])
    assert per_seat.view(0).turn_times == (0, 90)


def test_rum_7_the_clock_runs_for_the_seat_to_play_with_its_own_limit():
    game = new(seed=2, turn_times=[0, 90])
    seat = game.turn
    limits = [CLOCK.time_limit(game.view(each)) for each in range(2)]
    assert limits[seat] == (None, 90.0)[seat] and limits[1 - seat] is None
    assert game.check(seat, CLOCK.timeout_move(game.view(seat))) == (
        Reason.of("no_time_limit") if seat == 0 else None)
    done = rigged("K1 K2 K3", ["K4", "R5 R6 J"])
    move(done, "table K1 K2 K3 K4")
    assert [CLOCK.time_limit(done.view(each)) for each in range(2)] == [None, None]


def test_rum_8_scoring_when_a_rack_is_emptied():
    game = rigged("K1 K2 K3", ["K4", "R5 R6 J"])
    move(game, "table K1 K2 K3 K4")
    assert game.is_over() and game.scores() == [41, -41] and game.winners() == [0]


def test_rum_9_empty_pool_ends_after_a_round_of_passes():
    game = rigged("K1 K2 K3", ["K9 R13", "B2 Y2"], pool=[])
    move(game, "draw", 0)
    assert not game.is_over()
    move(game, "draw", 1)
    assert game.is_over()
    assert game.winners() == [1] and game.scores() == [-22, 22]


def test_a_refusal_names_the_set_in_every_language():
    # that every key exists in every language is tests/layouts/test_catalogs.py's
    game = rigged("B4 B5 B6", ["B3", "Y1"])
    with pytest.raises(IllegalMove) as error:
        move(game, "table B4 B5")
    assert "Set 1" in Catalog.load("rummikub", "en").reason(error.value.reason)
    assert "combinaison 1" in Catalog.load("rummikub", "fr").reason(error.value.reason)
    assert "Kombination 1" in Catalog.load("rummikub", "de").reason(error.value.reason)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), bot=st.sampled_from(["random", "greedy"]))
def test_tiles_never_created_or_lost_and_tables_valid(seed, bot):
    game = new(players=3, seed=seed)
    bots = {seat: BOTS[bot](seed + seat) for seat in range(3)}
    box = all_tiles(game)
    for _ in range(120):
        if game.is_over():
            break
        seat, events = bot_step(game, bots)
        assert all_tiles(game) == box
        assert all(not hasattr(arrange(s), "code") for s in game.table)
        view = game.view((seat + 1) % 3)
        assert view.hand == tuple(game.racks[(seat + 1) % 3])
        assert sum(view.hand_sizes) == sum(len(r) for r in game.racks)
        for event in events_for(events, (seat + 1) % 3):
            if isinstance(event, Drew):
                assert event.cards is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_illegal_turn_leaves_table_and_rack_as_they_were(seed, data):
    game = new(seed=seed)
    seat = game.turn
    rack = list(game.racks[seat])
    chosen = data.draw(st.lists(st.sampled_from(rack), min_size=1, max_size=5))
    before = game.to_dict()
    sets = (tuple(chosen),)
    reason = game.check(seat, Table(sets))
    if reason is None:
        game.play(seat, Table(sets))
        assert Counter(game.racks[seat]) + Counter(chosen) == Counter(rack)
    else:
        with pytest.raises(IllegalMove):
            game.play(seat, Table(sets))
        assert game.to_dict() == before


def test_selfplay_command_runs_the_default_and_named_bots(capsys):
    from brailledev.programs.cli import main

    assert main(["selfplay", "rummikub", "--games", "1", "--bots", "greedy,random"]) == 0
    assert '"games": 1' in capsys.readouterr().out
    assert set(BOTS) >= {"random", "greedy", "solver", "heuristic"}
