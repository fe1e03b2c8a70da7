"""What must always hold in Uno beyond the contract of every game (``test_conformance``):
``check`` and ``legal_moves`` agree on every move the notation can write, and every refusal
has words."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalMove
from games.uno import Move, Uno
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
