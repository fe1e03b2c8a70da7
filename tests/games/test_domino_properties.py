"""Domino 10-11-12: what must hold in every game (hypothesis drives seeds, seats and bots)."""

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalMove, events_for
from games.domino import BOTS, GAME, Domino
from games.domino.game import Dealt, Drew, Exchanged, Placed
from games.domino.grid import Opening, Place, lines_through, touches
from layouts.catalog import rules_data

DATA = rules_data("domino")
FAST = settings(max_examples=12, deadline=None)


def cards_everywhere(game):
    found = Counter(place.card for place in game.table)
    for pile in (*game.hands, *game.stocks, game.set_aside):
        found.update(pile)
    return found


def steps(game, bots):
    """Play to the end, yielding the seat, its move and the events after each move."""
    while not game.is_over():
        seat = game.actors()[0]
        move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
        yield seat, move, game.play(seat, move)


def bots_for(players, seed, names):
    return {seat: BOTS[names[seat % len(names)]](seed + seat) for seat in range(players)}


games_drawn = st.tuples(st.integers(2, 4), st.integers(0, 10**6),
                        st.sampled_from([("random",), ("heuristic", "random")]))


@FAST
@given(games_drawn)
def test_every_legal_placement_touches_and_keeps_lines_at_most_12(drawn):
    players, seed, names = drawn
    game = GAME.new(players, seed, DATA)
    for count, _ in enumerate(steps(game, bots_for(players, seed, names))):
        if count % 5 or game.is_over():
            continue
        seat = game.actors()[0]
        for option in game.options(seat):
            places = (option.move.first, option.move.second) if isinstance(
                option.move, Opening) else (option.move,)
            squares = [s for p in places for s in p.squares]
            assert not any(s in game.grid for s in squares)
            assert isinstance(option.move, Opening) or touches(game.grid, squares)
            grid = dict(game.grid)
            for place in places:
                grid.update(place.cells())
            values = lines_through(grid, squares)
            assert max(values) <= 12
            assert option.lines == tuple(sorted(v for v in values if 10 <= v <= 12))
            assert game.check(seat, option.move) is None


@FAST
@given(games_drawn)
def test_pad_total_is_boxes_plus_row_bonuses_plus_super_bonuses(drawn):
    players, seed, names = drawn
    game = GAME.new(players, seed, DATA)
    written = [0] * players
    for seat, _, events in steps(game, bots_for(players, seed, names)):
        for event in events:
            if isinstance(event, Placed):
                assert event.seat == seat
                written[seat] += event.entry.points
    bonus = DATA["pad"]["row_bonus"]
    for seat, pad in enumerate(game.to_dict()["pads"]):
        boxes = sum(sum(column) for column in pad["columns"])
        complete = min(len(column) for column in pad["columns"])
        assert game.scores()[seat] == boxes + sum(bonus[:complete]) + sum(pad["supers"])
        assert written[seat] == game.scores()[seat]
        assert all(len(column) <= DATA["pad"]["rows"] for column in pad["columns"])


@FAST
@given(games_drawn)
def test_cards_are_never_created_or_lost_across_rounds(drawn):
    players, seed, names = drawn
    game = GAME.new(players, seed, DATA)
    deck = Counter(game.box.deck)
    assert cards_everywhere(game) == deck
    for _ in steps(game, bots_for(players, seed, names)):
        assert cards_everywhere(game) == deck


@FAST
@given(games_drawn)
def test_views_and_events_never_leak_hands_or_stocks(drawn):
    players, seed, names = drawn
    game = GAME.new(players, seed, DATA)
    for seat, _, events in steps(game, bots_for(players, seed, names)):
        for other in range(players):
            view = game.view(other)
            assert view.hand == tuple(game.hands[other])
            assert not hasattr(view, "stocks") and not hasattr(view, "hands")
            assert view.stock_sizes == tuple(len(s) for s in game.stocks)
            for event in events_for(events, other):
                if isinstance(event, (Dealt, Drew)):
                    hidden = event.cards if isinstance(event, Dealt) else event.card
                    assert (hidden is None) == (event.seat != other)
                if isinstance(event, Exchanged):
                    assert (event.drawn is None) == (event.seat != other)
        assert seat in range(players)


@FAST
@given(games_drawn, st.integers(0, 60))
def test_to_dict_round_trip_continues_identically(drawn, stop):
    players, seed, names = drawn
    game = GAME.new(players, seed, DATA)
    bots = bots_for(players, seed, names)
    for count, _ in enumerate(steps(game, bots)):
        if count == stop:
            break
    copy = Domino.from_dict(json.loads(json.dumps(game.to_dict())))
    assert copy.to_dict() == game.to_dict()
    for seat in range(players):
        assert copy.view(seat) == game.view(seat)
    again = bots_for(players, seed + 1, names)
    twin = bots_for(players, seed + 1, names)
    log = [(s, m) for s, m, _ in steps(game, again)]
    assert [(s, m) for s, m, _ in steps(copy, twin)] == log
    assert copy.scores() == game.scores()


@FAST
@given(games_drawn, st.integers(0, 40), st.integers(-3, 8), st.integers(-3, 8),
       st.booleans(), st.integers(0, 6), st.integers(0, 6), st.integers(0, 3))
def test_an_illegal_move_never_changes_the_state(drawn, stop, x, y, down, a, b, who):
    players, seed, names = drawn
    game = GAME.new(players, seed, DATA)
    for count, _ in enumerate(steps(game, bots_for(players, seed, names))):
        if count == stop:
            break
    move = Place(a, b, x, y, down)
    seat = who % players
    before = game.to_dict()
    reason = game.check(seat, move)
    if reason is None:
        assert move in game.legal_moves(seat)
        return
    assert move not in game.legal_moves(seat)
    try:
        game.play(seat, move)
    except IllegalMove as refused:
        assert refused.reason == reason
    else:
        raise AssertionError("an illegal move was played")
    assert game.to_dict() == before
