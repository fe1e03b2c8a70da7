"""The moves' integer-keyed caches (RUM-10's search) give what their functions compute: no
two argument lists share a key."""

from itertools import product

from games.rummikub.packing import moves
from games.rummikub.packing.moves import RUNS, colour_options, forget_memos, look_moves, options


def test_rum_10_options_kept_by_key_are_the_colour_options_of_their_arguments() -> None:
    forget_memos()
    seen = 0
    for runs_id, must, avail, jokers, next1, next2, canonical, late in product(
            range(len(RUNS)), range(3), range(3), range(3), range(-1, 3), range(-1, 3),
            (False, True), (False, True)):
        if must > avail:
            continue
        got = options(runs_id, must, avail, jokers, next1, next2, canonical, late)
        assert got == colour_options(RUNS[runs_id], must, avail, jokers, next1, next2,
                                     canonical, late)
        seen += 1
    assert seen > moves.memos()["options"][1]  # emptied and filled again on the way


def test_rum_10_look_moves_kept_by_key_are_those_computed_afresh() -> None:
    forget_memos()
    for look, must, avail, next1, later, jokers in product(
            (0, 1, 5, 1 << 6, 3 << 6 | 1, 1 << 14 | 2, 2 << 14 | 1 << 11 | 7), range(2),
            range(3), range(-1, 3), (0, 2, 6), range(3)):
        if must > avail:
            continue
        for canonical, late in product((False, True), repeat=2):
            got = look_moves(look, must, avail, next1, 1, later, jokers, canonical, late)
            again = moves._made_look_moves(look, must, avail, next1, 1, later, jokers,
                                           canonical, late)
            assert got == again
