"""What must always hold in Elevens, over whole games between bots (hypothesis picks the
seeds, the player count, the variant and the bots)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalMove
from games.elevens import BOTS
from games.elevens.engine import JOKER, Elevens, Step, segments
from tests.elevens_helpers import DATA, ORDER

NUMBERS = sorted(f"{c}{v}" for c in ORDER for v in range(1, 22))

games_st = st.tuples(st.integers(0, 10_000), st.integers(2, 4), st.booleans(),
                     st.lists(st.sampled_from(sorted(BOTS)), min_size=2, max_size=2))


def play_checked(seed, players, beginner, bots, each_step):
    game = Elevens.new(players, seed=seed, data=DATA, beginner=beginner)
    seats = {s: BOTS[bots[s % 2]](seed * 7 + s) for s in range(players)}
    moves: list = []
    while not game.is_over():
        seat = game.must_act()[0]
        move = seats[seat].choose(game.view(seat), game.legal_moves(seat))
        assert move is not None
        each_step(game, len(moves))
        moves.append((seat, move))
        game.play(seat, move)
        assert len(moves) < 5000
    each_step(game, len(moves))
    return game, moves


def invariants(game: Elevens) -> None:
    held = [card for hand in game.hands for card in hand] + game.stock
    on_table = [card for row in game.rows.values() for card in row.values()]
    numbers = sorted(card for card in held + on_table if card != JOKER)
    assert numbers == NUMBERS  # never created or lost, never twice
    jokers = held.count(JOKER) + on_table.count(JOKER) + game.boxed
    assert jokers == (0 if game.beginner else DATA["jokers"])
    links = sum(game.links) + len(game.table_links) + game.links_out
    assert links == (0 if game.beginner else DATA["link_cards"])
    assert min(game.links) >= 0 and game.boxed >= 0
    assert game.bonus_left >= 0 and sum(game.bonuses) + game.bonus_left == (
        0 if game.beginner else DATA["bonus_cards"])
    assert sum(game.bonuses) <= 7
    link_targets = {(row, pos) for _, pos, row in game.table_links}
    for colour, cells in game.rows.items():
        assert all(1 <= pos <= 21 for pos in cells)
        for pos, card in cells.items():
            assert card in (JOKER, f"{colour}{pos}")
        # every segment grew from the 11 or from a card placed through a link
        for low, high in segments(cells):
            assert low <= 11 <= high or any(
                (colour, p) in link_targets for p in range(low, high + 1))
    assert len(game.turn) <= game.limit


def random_step(rng: random.Random) -> Step:
    card = rng.choice([*NUMBERS, JOKER])
    row, pos = rng.choice(ORDER), rng.randint(0, 22)
    return rng.choice([
        Step("place", card, *(("", 0) if card == JOKER else (card[0], int(card[1:])))),
        Step("place", JOKER, row, pos),
        Step("link", card, row, pos, rng.choice(ORDER)),
        Step("exchange", card, row, pos),
        Step("discard", card), Step("draw"), Step("end"), Step("undo"),
        Step("fly", card, row, pos),
    ])


@settings(max_examples=25, deadline=None)
@given(games_st)
def test_cards_rows_and_bonuses_always_consistent(case):
    seed, players, beginner, bots = case
    game, _ = play_checked(seed, players, beginner, bots, lambda g, i: invariants(g))
    assert game.is_over()


@settings(max_examples=20, deadline=None)
@given(games_st)
def test_an_illegal_step_never_changes_the_state(case):
    seed, players, beginner, bots = case
    rng = random.Random(seed)
    refused = 0

    def attempt(game, index):
        nonlocal refused
        seat = rng.randrange(players)
        move = random_step(rng)
        reason = game.check(seat, move)
        if reason is None:
            assert move in game.legal_moves(seat)
            return
        before = json.dumps(game.to_dict(), sort_keys=True)
        try:
            game.play(seat, move)
        except IllegalMove as error:
            assert error.reason == reason
        else:
            raise AssertionError(f"{move} was played though {reason}")
        assert json.dumps(game.to_dict(), sort_keys=True) == before
        refused += 1

    play_checked(seed, players, beginner, bots, attempt)
    assert refused > 0
