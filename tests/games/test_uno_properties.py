"""What must always hold in Uno, over random seeds and random legal play (hypothesis)."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalMove, events_for
from games.uno import Move, Uno
from games.uno.engine import Drew, HandShown
from layouts.catalog import Catalog, rules_data

DATA = rules_data("uno")
CATALOGS = [Catalog.load("uno", lang) for lang in ("en", "fr")]

games_args = st.tuples(
    st.integers(0, 2**32),                              # seed
    st.sampled_from([2, 2, 3, 4, 5, 6]),                # players
    st.sampled_from(["no_other_playable", "no_matching_colour"]),
    st.booleans(),                                      # teams (when the count allows)
    st.sampled_from([0, 0, 60, 500]),                   # match target
)


def make(args) -> Uno:
    seed, players, wd4, teams, target = args
    return Uno.new(players=players, seed=seed, data=DATA, wild_draw_four=wd4,
                   teams=2 if teams and players in (4, 6) else 0, match_target=target)


def step(game: Uno, rng: random.Random) -> tuple[int, Move, list]:
    """One random legal move of a random actor (catchers included)."""
    seat = rng.choice(game.actors())
    move = rng.choice(game.legal_moves(seat))
    return seat, move, game.play(seat, move)


def every_move(game: Uno) -> list[Move]:
    """Every move the notation can express at this table, legal or not."""
    cards = sorted(set(game.deck))
    moves = [Move(kind) for kind in ("draw", "keep", "challenge", "accept")]
    moves += [Move("choose", colour=c) for c in game.colours]
    moves += [Move("catch", target=s) for s in range(game.players)]
    for card in cards:
        for colour in (game.colours if card.startswith("wi") else ("",)):
            moves += [Move("play", card, colour, uno) for uno in (False, True)]
    return moves


def assert_cards_whole(game: Uno) -> None:
    where = Counter(game.stock) + Counter(game.discard)
    for hand in game.hands:
        where += Counter(hand)
    assert where == Counter(game.deck)
    assert sum(where.values()) == 108


def assert_events_private(events: list, players: int) -> None:
    for seat in range(players):
        for event in events_for(events, seat):
            if isinstance(event, Drew) and event.seat != seat:
                assert event.cards is None
            assert not (isinstance(event, HandShown) and event.to != seat)


def assert_view_depends_on_own_knowledge(game: Uno, seat: int, rng: random.Random) -> None:
    """Deal the cards this seat cannot see (other hands, stock) differently: its view must
    not change, so it holds nothing of them."""
    state = game.to_dict()
    hidden = [c for s, hand in enumerate(state["hands"]) if s != seat for c in hand]
    hidden += state["stock"]
    rng.shuffle(hidden)
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            state["hands"][s], hidden = hidden[:len(hand)], hidden[len(hand):]
    state["stock"] = hidden
    assert Uno.from_dict(state).view(seat) == game.view(seat)


@settings(max_examples=25, deadline=None)
@given(games_args, st.integers(0, 2**32))
def test_cards_whole_views_and_events_private_over_random_play(args, play_seed):
    game = make(args)
    rng = random.Random(play_seed)
    assert_cards_whole(game)
    assert_events_private(game.start_events, game.players)
    for _ in range(400):
        if game.is_over():
            break
        _, _, events = step(game, rng)
        assert_cards_whole(game)
        assert_events_private(events, game.players)
        if rng.random() < 0.1:
            assert_view_depends_on_own_knowledge(game, rng.randrange(game.players), rng)
    for seat in range(game.players):
        assert game.view(seat).hand == tuple(game.hands[seat])


@settings(max_examples=20, deadline=None)
@given(games_args, st.integers(0, 2**32), st.integers(0, 150))
def test_saved_game_continues_identically(args, play_seed, save_at):
    game = make(args)
    rng = random.Random(play_seed)
    for _ in range(save_at):
        if game.is_over():
            break
        step(game, rng)
    saved = json.loads(json.dumps(game.to_dict()))
    copy = Uno.from_dict(saved)
    assert copy.to_dict() == game.to_dict()
    rng_state = rng.getstate()
    original = [step(game, rng) for _ in range(80) if not game.is_over()]
    rng.setstate(rng_state)
    resumed = [step(copy, rng) for _ in range(80) if not copy.is_over()]
    assert resumed == original
    assert copy.to_dict() == game.to_dict()


@settings(max_examples=20, deadline=None)
@given(games_args, st.integers(0, 2**32))
def test_illegal_moves_change_nothing_and_legal_moves_agree_with_check(args, play_seed):
    game = make(args)
    rng = random.Random(play_seed)
    moves = every_move(game)
    for _ in range(60):
        if game.is_over():
            break
        seat = rng.randrange(game.players)
        legal = set(game.legal_moves(seat))
        for move in rng.sample(moves, 25):
            reason = game.check(seat, move)
            assert (reason is None) == (move in legal), (seat, move, reason)
            if reason is None:
                continue
            for catalog in CATALOGS:
                assert catalog.reason(reason)
            before = game.to_dict()
            try:
                game.play(seat, move)
            except IllegalMove as refused:
                assert refused.reason == reason
            else:
                raise AssertionError(f"{move} was played although {reason}")
            assert game.to_dict() == before
        step(game, rng)
