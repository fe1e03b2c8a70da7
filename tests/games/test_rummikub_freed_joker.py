"""RUM-6, a freed joker goes into a new set: the solver (the display's hint and the default
bot) never proposes a table the engine refuses for it."""

from __future__ import annotations

import random

from games.rummikub import solve
from tests.games.test_rummikub_solver import engine_accepts, random_position

# Positions where the packing put a freed joker into a set of the table it grew (found by
# fuzzing): R7 frees the joker of K7 B7 Y7 J, and B8 B9 B10 J is no new set.
GROWN = [
    ("K7 B7 Y7 J | K10 B10 J | B8 B9 B10", "Y13 R7"),
    ("R7 R8 J R10 R11 | Y9 Y10 Y11 Y12 | K10 B10 Y10 J", "K10 R10 Y8 R12 R2"),
    ("R7 B7 J | B2 B3 B4 B5 | K12 B12 Y12 | B5 B6 B7 | K4 R4 B4 Y4 | R1 R2 R3 J",
     "B9 K1 Y6 Y7 K10"),
    ("R10 R11 R12 R13 | K8 R8 Y8 | B7 B8 B9 | Y6 Y7 Y8 | K2 R2 B2 | K6 R6 Y6 | J R5 R6 | "
     "K11 R11 B11 | K6 K7 K8 K9", "R4 B5 Y11"),
    ("K10 R10 B10 J | Y5 Y6 Y7 J | K9 R9 Y9 | B9 B10 B11 B12 | B4 B5 B6 B7 | K1 R1 B1 Y1 | "
     "K5 R5 Y5 | K1 B1 Y1", "K13 B8 Y10"),
]


def sets_of(text: str) -> list[tuple[str, ...]]:
    return [tuple(part.split()) for part in text.split(" | ")]


def test_rum_6_the_solver_never_grows_a_table_set_with_a_freed_joker():
    for table, rack in GROWN:
        found = solve(table, rack)
        if found.count:
            assert engine_accepts(sets_of(table), rack.split(), found) is None, (table, rack)


def test_rum_6_every_solver_move_with_jokers_on_the_table_is_accepted_by_the_engine():
    rng = random.Random(6)
    played = 0
    for _ in range(500):
        table, rack = random_position(rng, rng.randint(6, 30), rng.randint(2, 12),
                                      jokers_on_table=True)
        found = solve(table, rack)
        if found.count:
            played += 1
            assert engine_accepts(table, rack, found) is None, (table, rack, found.table)
    assert played > 200
