"""Domino 10-11-12: what must hold in every game (hypothesis drives seeds, seats and bots)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalMove
from games.domino import BOTS, GAME
from games.domino.engine import Placed
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
