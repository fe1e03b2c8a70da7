"""RUM-6, a freed joker goes into a new set: the solver (the display's hint and the default
bot) never proposes a table the engine refuses for it."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from games.rummikub import solve
from games.rummikub.engine import check_jokers
from games.rummikub.tiles import COLOURS, Arranged, arrange, full_box, sort_key
from tests.games.test_rummikub_solver import (
    engine_accepts,
    every_partition,
    joker_set_position,
    random_position,
)

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


# Positions the first pass got wrong (found by the brute force below): the joker set could
# grow, or the freed joker had a new set to go to, yet the solver played nothing.
MISSED = [
    # B13 joins K13 R13 J, the joker staying where it is
    ("K13 R13 J | R8 R9 R10", "Y13 B13 Y9 Y1", 1, 13),
    # K5 frees the joker (R5 the same way), which makes the new set J Y11 Y12
    ("B5 Y5 J | Y11 Y12 Y13 | Y10 Y11 Y12", "K5 R5", 2, 10),
    # Y5 frees the joker of K5 R5 B5 J (a group of five is no set): it makes the new set
    # J R4 R5 while R3 joins K3 B3 Y3
    ("K5 R5 B5 J | K3 B3 Y3 | R3 R4 R5", "Y5", 1, 5),
    ("R10 J R12 | R6 R7 R8 | R6 R7 R8", "R11 R10", 1, 11),
]


def test_rum_6_a_freed_joker_goes_to_a_new_set_and_nothing_better_is_missed():
    for table, rack, count, value in MISSED:
        found = solve(table, rack)
        assert (found.count, found.value) == (count, value), (table, rack, found)
        assert engine_accepts(sets_of(table), rack.split(), found) is None, (table, rack)


def test_rum_6_the_new_set_holds_the_freed_joker_and_no_whole_table_set():
    # K5 and R5 both played: one frees the joker of B5 Y5 J, which ends in a run with Y11
    # Y12 (Y10 Y11 Y12 J would grow a set of the table)
    found = solve("B5 Y5 J | Y11 Y12 Y13 | Y10 Y11 Y12", "K5 R5")
    assert ("K5", "R5", "B5", "Y5") in found.table
    holding = [s for s in found.table if "J" in s]
    assert holding and all(not {"Y10", "Y11", "Y12"} <= set(s) for s in holding)


def brute_force_rum_6(table, rack):
    """Most rack tiles, then most points (a joker 30), over every split of the table and a
    part of the rack that the engine's RUM-6 check accepts."""
    base = [t for s in table for t in s]
    for size in range(len(rack), 0, -1):
        best = None
        for chosen in set(combinations(sorted(rack, key=sort_key), size)):
            value = sum(30 if t == "J" else int(t[1:]) for t in chosen)
            if best is not None and value <= best:
                continue
            tiles = tuple(sorted(base + list(chosen), key=sort_key))
            if any(check_jokers(table, split, Counter(chosen)) is None
                   for split in every_partition(tiles)):
                best = value
        if best is not None:
            return size, best
    return 0, 0


def exchange_position(rng, joker_sets=1):
    """A small table: ``joker_sets`` sets whose joker the rack can free (its tile is on the
    rack) and 1-3 sets without jokers, often of the first one's colour, to grow or not."""
    while True:
        pool = Counter(full_box(2, 2))
        table, freed = [], []
        for _ in range(joker_sets):
            colour = rng.choice(COLOURS)
            if rng.random() < 0.6:
                low = rng.randint(1, 11)
                joker_set = [f"{colour}{n}" for n in range(low, low + rng.randint(3, 4))]
            else:
                number = rng.randint(1, 13)
                joker_set = [f"{c}{number}" for c in rng.sample(COLOURS, rng.randint(3, 4))]
            place = rng.randrange(len(joker_set))
            freed.append(joker_set[place])
            joker_set[place] = "J"
            table.append(joker_set)
        colour = next(t[0] for t in table[0] if t != "J")
        for _ in range(rng.randint(1, 4 - joker_sets)):
            other = rng.choice(COLOURS) if rng.random() < 0.5 else colour
            if rng.random() < 0.6:
                low = rng.randint(1, 11)
                table.append([f"{other}{n}" for n in range(low, low + 3)])
            else:
                number = rng.randint(1, 13)
                table.append([f"{c}{number}" for c in rng.sample(COLOURS, 3)])
        need = Counter(t for s in table for t in s) + Counter(freed)
        if any(pool[t] < k for t, k in need.items()):
            continue
        pool -= need
        rest = list(pool.elements())
        if rng.random() < 0.7:
            rest = [t for t in rest if t != "J"]
        rng.shuffle(rest)
        arranged = [s for s in (arrange(tuple(s)) for s in table) if isinstance(s, Arranged)]
        if len(arranged) == len(table):
            return [s.tiles for s in arranged], [*freed, *rest[:rng.randint(0, 4 - len(freed))]]


def test_rum_6_brute_force_agrees_on_small_positions_with_a_joker_to_free():
    rng = random.Random(16)
    freed = 0
    for _ in range(100):
        table, rack = exchange_position(rng)
        found = solve(table, rack)
        assert (found.count, found.value) == brute_force_rum_6(table, rack), (table, rack)
        if found.count:
            assert engine_accepts(table, rack, found) is None, (table, rack, found.table)
            # the joker left its set (its successor holds its number tiles, not the joker):
            # the case the first pass could miss
            numbers = Counter(t for t in table[0] if t != "J")
            freed += any(not numbers - Counter(s) and "J" not in s for s in found.table)
    assert freed >= 15, freed


def test_rum_6_brute_force_agrees_with_two_jokers_to_free():
    # two joker sets, each with its tile on the rack: two freed jokers, two new sets
    rng = random.Random(26)
    both = 0
    for _ in range(40):
        table, rack = exchange_position(rng, joker_sets=2)
        found = solve(table, rack)
        assert (found.count, found.value) == brute_force_rum_6(table, rack), (table, rack)
        if found.count:
            assert engine_accepts(table, rack, found) is None, (table, rack, found.table)
            both += sum(s.count("J") for s in found.table) == 2 and all(
                any(not Counter(t for t in old if t != "J") - Counter(s) and "J" not in s
                    for s in found.table) for old in table[:2])
    assert both >= 3, both


def strict_position(rng):
    """An exchange position (see :func:`exchange_position`), the packing's view of it (see
    ``joker_set_position``) and the place of a freed joker, a new set (RUM-6)."""
    from games.rummikub import solver
    table, rack = exchange_position(rng)
    return (table, rack, *joker_set_position(table, rack),
            solver._new_place([s for s in table if "J" not in s]))


def test_rum_6_strict_layered_search_agrees_with_the_recursive_one():
    # the new sets are places of both searches: the same best score, with a freed joker
    from games.rummikub.packing import NEG
    from games.rummikub.packing.joker_layers import JokerLayers
    from games.rummikub.packing.reference import Search
    rng = random.Random(61)
    scored = 0
    for _ in range(40):
        table, rack, specials, table_counts, table_jokers, rack_counts, jokers, new = (
            strict_position(rng))
        places = specials + (new,) * len(specials)
        recursive = Search(table_counts, rack_counts, table_jokers, jokers, 0, 30, places,
                           canonical=False, strict=True)
        layered = JokerLayers(table_counts, rack_counts, table_jokers, jokers, 30, places,
                              canonical=False, strict=True)
        score = layered.run()
        assert score == recursive.best(recursive.start()), (table, rack)
        scored += score != NEG and score > 0
    assert scored > 20


def test_rum_6_a_cap_from_the_relaxed_search_changes_no_score():
    # the search where freed jokers go to new sets knows the relaxed best (a freed joker
    # anywhere) and the full search the canonical best: neither may beat it, and stopping
    # at the first packing that reaches it finds the very score found without it
    from games.rummikub.packing import NEG, pack, pack_strict
    from games.rummikub.packing.joker_layers import JokerLayers
    rng = random.Random(62)
    reached = 0
    for _ in range(40):
        table, rack, specials, table_counts, table_jokers, rack_counts, jokers, new = (
            strict_position(rng))
        relaxed = pack(table_counts, rack_counts, table_jokers, jokers, 0, 30, specials)
        assert relaxed is not None, (table, rack)
        plain = pack_strict(table_counts, rack_counts, table_jokers, jokers, 30, specials,
                            new)
        capped = pack_strict(table_counts, rack_counts, table_jokers, jokers, 30, specials,
                             new, relaxed.score)
        assert (plain is None) == (capped is None), (table, rack)
        if plain is not None and capped is not None:
            assert plain.score == capped.score <= relaxed.score, (table, rack)
            reached += capped.score == relaxed.score
        searches = [JokerLayers(table_counts, rack_counts, table_jokers, jokers, 30,
                                specials, canonical) for canonical in (True, False, False)]
        canonical_best = searches[0].run()
        if canonical_best != NEG:
            searches[2].cap = canonical_best
        assert searches[1].run() == searches[2].run() <= canonical_best, (table, rack)
    assert reached >= 10, reached
