"""Invariants of the Elements engine over random games (hypothesis picks seeds and moves)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalMove, events_for
from games.elements.cards import Card
from games.elements.engine import BID, KEEP, PLACE, Elements, Keep, Lay, Pass, Place
from tests.elements_helpers import census, new

FEW = settings(max_examples=12, deadline=None)
DECK = {Card(colour, value): 1 for colour in "rygbk" for value in range(11)}


def random_move(game, rng):
    seat = game.actors()[0]
    legal = game.legal_moves(seat)
    if game.phase == BID and rng.random() < 0.5:
        return seat, legal[0]           # lay more often than uniformly, to reach round 3
    return seat, rng.choice(legal)


def junk_move(game, rng):
    card = Card(rng.choice("rygbk"), rng.randint(0, 10))
    other = Card(rng.choice("rygbk"), rng.randint(0, 10))
    return rng.choice([Place(card, rng.choice("rygbkx")), Lay((card,)), Lay((card, other)),
                       Lay((card, card)), Pass(), Keep((card,)), Keep((card, card))])


@FEW
@given(seed=st.integers(0, 10_000), players=st.integers(3, 5))
def test_cards_are_never_created_or_lost_and_illegal_moves_change_nothing(seed, players):
    game = new(players, seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over() and steps < 400:
        assert census(game) == DECK
        for _ in range(2):
            seat = rng.randrange(players)
            move = junk_move(game, rng)
            if game.check(seat, move) is None:
                continue
            before = game.to_dict()
            try:
                game.play(seat, move)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"illegal {move} by {seat} was played")
            assert game.to_dict() == before
        seat, move = random_move(game, rng)
        assert game.check(seat, move) is None
        game.play(seat, move)
        steps += 1
    assert census(game) == DECK


@FEW
@given(seed=st.integers(0, 10_000), players=st.integers(3, 5))
def test_ele_3_the_face_down_card_never_leaks_before_the_reveal(seed, players):
    game = new(players, seed)
    rng = random.Random(seed)
    later = rng.randrange(players)           # sometimes a later hand's placement
    while game.hand_number < later or game.phase != PLACE:
        game.play(*random_move(game, rng))
    while game.phase == PLACE and len(game.placements) < players - 1:
        seat = game.actors()[0]
        element = next(e for e in game.row if e not in game.placements)
        # the other seats cannot tell which card was placed: views and events are identical
        first, second = rng.sample(game.hands[seat], 2)
        twin = Elements.from_dict(game.to_dict())
        events = game.play(seat, Place(first, element))
        twin_events = twin.play(seat, Place(second, element))
        for other in range(players):
            if other != seat:
                assert game.view(other) == twin.view(other)
                assert events_for(events, other) == events_for(twin_events, other)
                assert all(card is None for _, owner, card in game.view(other).placements
                           if owner != other)


@FEW
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 150))
def test_views_never_show_other_hands_or_the_stock(seed, steps):
    game = new(4, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over():
            break
        game.play(*random_move(game, rng))
    # swap a card of seat 1's hand with one of the stock: seat 0 must see no difference
    twin = Elements.from_dict(game.to_dict())
    if twin.hands[1] and twin.stock:
        i, j = rng.randrange(len(twin.hands[1])), rng.randrange(len(twin.stock))
        twin.hands[1][i], twin.stock[j] = twin.stock[j], twin.hands[1][i]
        for seat in (0, 2, 3):
            assert game.view(seat) == twin.view(seat)
        assert game.view(1) != twin.view(1)


@FEW
@given(seed=st.integers(0, 10_000), split=st.integers(0, 300))
def test_to_dict_round_trip_continues_identically(seed, split):
    game = new(3, seed)
    rng = random.Random(seed)
    for _ in range(split):
        if game.is_over():
            break
        game.play(*random_move(game, rng))
    saved = json.loads(json.dumps(game.to_dict()))
    resumed = Elements.from_dict(saved)
    assert resumed.to_dict() == game.to_dict()
    rng_a, rng_b = random.Random(split), random.Random(split)
    while not game.is_over():
        seat, move = random_move(game, rng_a)
        assert random_move(resumed, rng_b) == (seat, move)
        assert game.play(seat, move) == resumed.play(seat, move)
    assert resumed.is_over() and resumed.to_dict() == game.to_dict()


def test_legal_moves_cover_every_phase_and_notation_round_trips():
    game = new(3, 4)
    rng = random.Random(4)
    seen = set()
    while not game.is_over():
        seat = game.actors()[0]
        for move in game.legal_moves(seat):
            assert game.check(seat, move) is None
            assert game.parse_move(seat, game.format_move(move)) == move
        seen.add(game.phase)
        game.play(*random_move(game, rng))
    assert seen == {PLACE, BID, KEEP}
