"""Invariants of the Elements engine over random games (hypothesis picks seeds and moves)."""

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
