"""The packing's two search directions (numbers from 13 down, from 1 up), the resumable
run, and the race of the two in ``pack`` (RUM-10 best move, RUM-6 joker sets)."""

import json
import random
from collections import Counter
from pathlib import Path

from games.rummikub.packing import NEG, pack
from games.rummikub.packing.best import race
from games.rummikub.packing.bound import forget
from games.rummikub.packing.joker_layers import JokerLayers
from games.rummikub.packing.layers import Layers
from games.rummikub.packing.moves import DOWN, UP, JokerSet, mirrored
from games.rummikub.packing.reference import Search, exchangeable
from games.rummikub.tiles import COLOURS, Arranged, arrange
from tests.games.test_rummikub_solver import (
    counted_positions,
    joker_set_position,
    joker_set_positions,
    random_position,
)


def legal_sets(sets, table, rack, jokers_counted=True):
    """Whether ``sets`` are valid sets in real numbers holding every table tile and else
    rack tiles only (``jokers_counted``: the jokers too; a canonical search leaves the
    spare ones out)."""
    def counted(tiles):
        return Counter(t for t in tiles if jokers_counted or t != "J")
    used = counted(t for s in sets for t in s)
    need = counted(t for s in table for t in s)
    return (all(isinstance(arrange(s), Arranged) for s in sets if jokers_counted
                or "J" not in s)
            and not +(need - used) and not +(used - need - counted(rack)))


def both_ways(kind, *args, **options):
    """Score and sets of the search ``kind(*args, **options)`` going down, then up, each
    run alone."""
    found = []
    for up in (False, True):
        search = kind(*args, **options, ascending=up)
        score = search.run()
        assert search.numbers == (UP if up else DOWN)
        found.append((score, search.sets() if score != NEG else []))
    return found


def test_rum_10_searching_up_finds_the_best_of_searching_down():
    # no joker sets: rack jokers, initial melds, canonical or not; the same best score and
    # legal sets named by their real numbers either way
    rng = random.Random(161)
    scored = 0
    for table, rack, table_counts, rack_counts, jokers, threshold, canonical in \
            counted_positions(rng, 60, melds_every=5):
        (down, down_sets), (up, up_sets) = both_ways(
            Layers, table_counts, rack_counts, 0, jokers, threshold, 30, canonical)
        assert down == up, (table, rack, canonical)
        if up == NEG:
            continue
        scored += 1
        for sets in (down_sets, up_sets):
            assert legal_sets(sets, table, rack, not canonical), (table, rack, sets)
        if threshold:  # a joker counts the number it stands for (RUM-4)
            melded = [arrange(s) for s in up_sets]
            assert sum(sum(s.numbers) for s in melded if isinstance(s, Arranged)) >= 30
    assert scored >= 50


def test_rum_6_searching_up_finds_the_best_of_searching_down_with_joker_sets():
    # joker runs and groups on the table: their places mirrored, the same best score as
    # down and as the recursive reference going up, and legal sets in real numbers
    rng = random.Random(162)
    groups = 0
    for table, rack in joker_set_positions(rng, 30):
        specials, table_counts, table_jokers, rack_counts, jokers = joker_set_position(
            table, rack)
        groups += any(s.kind == "group" for s in specials)
        for canonical in (True, False):
            (down, _), (up, up_sets) = both_ways(
                JokerLayers, table_counts, rack_counts, table_jokers, jokers, 30, specials,
                canonical)
            reference = Search(mirrored(table_counts), mirrored(rack_counts), table_jokers,
                               jokers, 0, 30, tuple(s.mirrored() for s in specials),
                               canonical, numbers=UP)
            assert down == up == reference.best(reference.start()), (table, rack)
            if up != NEG:
                assert legal_sets(up_sets, table, rack, not canonical), (table, rack, up_sets)
                # the joker sets' successors come first, in their order
                for joker_set, successor in zip(specials, up_sets[:len(specials)],
                                                strict=True):
                    real = [t for t in successor if t != "J"]
                    if joker_set.kind == "group":
                        assert len({t[1:] for t in real}) == 1, successor
                    else:
                        assert {t[0] for t in real} == {COLOURS[joker_set.colour]}
    assert groups >= 5


def test_rum_6_the_strict_search_up_finds_the_best_of_the_strict_search_down():
    # each freed joker goes to a new set: the new sets' old runs and groups mirrored
    from games.rummikub import solver
    rng = random.Random(163)

    def jokers_freed(table, rack):
        specials, _, _, rack_counts, _ = joker_set_position(table, rack)
        return sum(min(s.jokers, exchangeable(s, rack_counts)) for s in specials)

    for table, rack in joker_set_positions(rng, 20, (12, 30), (3, 10), jokers_freed):
        specials, table_counts, table_jokers, rack_counts, jokers = joker_set_position(
            table, rack)
        freeable = jokers_freed(table, rack)
        new = solver._new_place([tuple(s) for s in table if "J" not in s])
        (down, _), (up, up_sets) = both_ways(
            JokerLayers, table_counts, rack_counts, table_jokers, jokers, 30,
            specials + (new,) * freeable, False, strict=True)
        assert down == up, (table, rack)
        if up != NEG:
            assert legal_sets(up_sets, table, rack), (table, rack, up_sets)


def test_rum_6_a_joker_set_mirrored_twice_is_itself():
    from games.rummikub import solver
    run = solver._joker_set(solver._arranged(["R4", "J", "R6", "R7"]))
    group = solver._joker_set(solver._arranged(["K9", "B9", "J"]))
    new = solver._new_place([("Y1", "Y2", "Y3"), ("K8", "R8", "B8")])
    for joker_set in (run, group, new):
        assert joker_set.mirrored().mirrored() == joker_set
    assert run.mirrored().places == frozenset({12 - 9, 12 - 7, 12 - 6})
    assert run.mirrored().joker_places == (12 - 8,)
    assert group.mirrored().number == 8 and group.mirrored().places == group.places
    # Y1-Y3 stood at indices 10-12 going down: 0-2 going up, first index first
    assert new.mirrored().old_runs[COLOURS.index("Y")] == ((0, 2),)
    assert new.mirrored().old_groups[7] == new.old_groups[5]


def test_rum_10_a_run_in_slices_ends_as_one_run():
    # the search paused every few states and resumed finds the same score, sets and count
    # of states as when run at once, and an ended search keeps its score
    rng = random.Random(164)
    paused = 0
    for trial in range(30):
        table, rack = random_position(rng, rng.randint(15, 45), rng.randint(4, 14),
                                      jokers_on_table=trial % 2 == 0)
        specials, table_counts, table_jokers, rack_counts, jokers = joker_set_position(
            table, rack)
        ascending = trial % 3 == 0

        def make(ascending=ascending, specials=specials, table_counts=table_counts,
                 table_jokers=table_jokers, rack_counts=rack_counts, jokers=jokers):
            if specials:
                return JokerLayers(table_counts, rack_counts, table_jokers, jokers, 30,
                                   specials, False, ascending=ascending)
            return Layers(table_counts, rack_counts, 0, jokers, 0, 30, False,
                          ascending=ascending)

        whole = make()
        score = whole.run()
        sliced = make()
        found = None
        while found is None:
            found = sliced.run(rng.choice((1, 7, 50)))
            if found is None:
                paused += 1
                assert sliced.frontier() >= score  # still waiting at or above the best
        assert (found, sliced.taken) == (score, whole.taken), (table, rack)
        assert sliced.run(5) == sliced.run() == score
        if score != NEG:
            assert sliced.sets() == whole.sets()
    assert paused >= 30


def test_rum_10_shared_rests_tell_the_two_directions_apart():
    # a rest counts the points of the numbers it reads: a bound going up never takes one
    # found going down from the same tiles
    rng = random.Random(165)
    makes = []
    for _ in range(8):
        table, rack = random_position(rng, rng.randint(20, 45), rng.randint(3, 12))
        _, table_counts, _, rack_counts, jokers = joker_set_position(table, rack)
        for ascending in (False, True):
            makes.append(lambda ascending=ascending, t=table_counts, r=rack_counts,
                         j=jokers: Layers(t, r, 0, j, 0, 30, False, ascending=ascending))

    def every_rest(make):
        bound = make().bound
        return [bound.rest(colour, index, 0, free) for colour in range(len(COLOURS))
                for index in range(14) for free in range(bound.jokers + 1)]

    forget()
    shared = [every_rest(make) for make in makes]
    fresh = []
    for make in makes:
        forget()
        fresh.append(every_rest(make))
    forget()
    assert shared == fresh
    assert shared[0::2] != shared[1::2]


def slow_going_down():
    """A position of the bench's corpus that the search going down takes tens of thousands
    of states over and the one going up a few hundred: its joker sets' view."""
    corpus = json.loads((Path(__file__).parents[2] / "bench" / "rummikub_worst.json")
                        .read_text(encoding="utf-8"))
    for entry in corpus:
        entry["table"] = [s.split() for s in entry["table"].split(" | ")]
        entry["rack"] = entry["rack"].split()
        view = joker_set_position(entry["table"], entry["rack"])
        specials, table_counts, table_jokers, rack_counts, jokers = view
        if not specials:
            continue
        down = JokerLayers(table_counts, rack_counts, table_jokers, jokers, 30, specials,
                           True)
        if down.run(20_000) is not None:
            continue
        up = JokerLayers(table_counts, rack_counts, table_jokers, jokers, 30, specials, True,
                         ascending=True)
        if up.run(2_000) is not None:
            return entry, view
    raise AssertionError("the corpus has a position slow going down, quick going up")


def test_rum_10_a_race_won_going_up_gives_sets_in_real_numbers():
    entry, (specials, table_counts, table_jokers, rack_counts, jokers) = slow_going_down()
    for canonical in (True, False):
        made: list[Layers] = []

        def make(up: bool, canonical: bool = canonical, made: list[Layers] = made) -> Layers:
            made.append(JokerLayers(table_counts, rack_counts, table_jokers, jokers, 30,
                                    specials, canonical, ascending=up))
            return made[-1]

        winner, score = race(make)
        assert winner.numbers == UP and score != NEG
        # the search going down was given up, its states let go at once
        assert made[0].numbers == DOWN and made[0].walk is None and not made[0].heap
        assert made[0].score is None and made[0].taken >= 1_000
        assert legal_sets(winner.sets(), entry["table"], entry["rack"], not canonical)
    found = pack(table_counts, rack_counts, table_jokers, jokers, 0, 30, specials)
    assert found is not None
    assert (found.played, found.points) == (entry["count"], entry["value"])
    assert legal_sets(found.sets, entry["table"], entry["rack"])


def test_rum_10_a_race_gives_the_first_direction_its_head_start():
    # a search that ends within the head start never makes the other direction
    made = []
    nothing = tuple((0,) * 13 for _ in COLOURS)

    def make(up: bool) -> Layers:
        made.append(up)
        return Layers(nothing, nothing, 0, 0, 0, 0, True, ascending=up)

    winner, score = race(make, ascending=True)
    assert made == [True] and winner.numbers == UP and score == 0


def test_rum_10_mirrored_counts_read_the_ones_first():
    counts = tuple(tuple(range(13)) for _ in COLOURS)  # index 12 (the ones) holds 12
    assert mirrored(counts)[0][0] == 12 and mirrored(mirrored(counts)) == counts
    assert JokerSet("group", 0, 12, frozenset({0, 1}), 1).mirrored().number == 0


def test_rum_10_a_split_starts_from_the_end_of_its_tightest_tiles():
    # the fewest-changes questions: where a number's tiles have few ways into a set, a
    # depth-first search that meets them first proves at once that there is no split
    from games.rummikub import solver
    from games.rummikub.packing.best import split, tight_low
    from games.rummikub.packing.layers import Budget

    high = ("K8 K9 K10 K11 K12 K13 R10 R11 R12 R13 B10 B11 B12 B13 Y10 Y11 Y12 Y13 "
            "K10 R10 B10 Y9 Y8")
    refused, split_up = (solver._counts(f"{high} {low}".split())
                         for low in ("Y2 Y3 Y4 B3 J", "Y2 Y3 Y4 B3 B4 J"))
    assert tight_low(refused[0]) and tight_low(split_up[0])
    assert not tight_low(solver._counts(["K1", "K2", "K3", "R1", "R2", "R3", "Y12"])[0])
    # B3 and the joker make no set with the yellow run, going either way
    up, down = Budget(10**6), Budget(10**6)
    assert split(*refused, up) is None
    search = Layers(refused[0], tuple((0,) * 13 for _ in COLOURS), 0, refused[1], 0, 0,
                    canonical=True)
    assert search.bound.start() != NEG and search.first(down, bounded=False) == NEG
    assert 10**6 - up.left < (10**6 - down.left) / 10, (up.left, down.left)
    # a split found going up names the tiles by their real numbers
    found = split(*split_up)
    tiles = Counter(f"{high} Y2 Y3 Y4 B3 B4 J".split())
    assert found is not None and Counter(t for s in found for t in s) == tiles
    assert all(isinstance(arrange(s), Arranged) for s in found)


def test_rum_10_a_split_gives_the_other_direction_its_turn():
    # two questions of a hint (seed 2 of the bench, two jokers played): where tight_low
    # looks, the depth-first search takes over 10,000 states; given slices in turn, the
    # other direction decides within a few hundred, whether the tiles split or not
    from games.rummikub import solver
    from games.rummikub.packing.best import split, tight_low
    from games.rummikub.packing.layers import Budget

    common = ("R13 R11 R10 R9 R8 R7 R7 R6 R4 B13 B12 B11 B10 B10 B9 B9 B7 B6 B6 B5 B5 B4 B4 "
              "B3 B2 B2 B1 Y13 Y12 Y10 Y9 Y9 Y8 Y7 Y7 Y6 Y6 Y5 Y4 Y3 Y3 Y1 J J")
    splits = f"{common} K13 K12 K10 K9 K7 K6 K5 K5 K4 K3 K1 R6 R5 R4 R3 R2"
    refused = f"{common} K13 K12 K12 K11 K10 K10 K9 K7 K6 K5 K5 K4 K3 K1"
    nothing = tuple((0,) * 13 for _ in COLOURS)
    for tiles, answer in ((splits, True), (refused, False)):
        counts, jokers = solver._counts(tiles.split())
        alone = Budget(10**6)
        search = Layers(counts, nothing, 0, jokers, 0, 0, canonical=True,
                        ascending=tight_low(counts))
        assert (search.first(alone, bounded=False) != NEG) == answer
        raced = Budget(10**6)
        found = split(counts, jokers, raced)
        assert (found is not None) == answer
        assert 10**6 - alone.left > 10_000 and 10**6 - raced.left < 1_000, (alone.left,
                                                                             raced.left)
        if found is not None:
            assert Counter(t for s in found for t in s) == Counter(tiles.split())


def test_rum_10_a_depth_first_search_given_more_states_goes_on():
    # stopped by its budget, the search keeps the states that failed: given more, it does
    # not take them again, and ends as a search given them all at once
    from games.rummikub import solver
    from games.rummikub.packing.layers import Budget, OutOfStates

    played = ("K13 K12 K12 K11 K10 K10 K9 K7 K6 K5 K5 K4 K3 K1 R13 R11 R10 R9 R8 R7 R7 R6 "
              "R4 B13 B12 B11 B10 B9 B7 B6 B5 B4 B3 B2 B1 Y13 Y12 Y10 Y9 Y8 Y7 Y6 Y5 Y4 Y3 "
              "Y1 J J")
    tiles = solver._counts(played.split())
    nothing = tuple((0,) * 13 for _ in COLOURS)

    def search():
        return Layers(tiles[0], nothing, 0, tiles[1], 0, 0, canonical=True)

    whole = Budget(10**6)
    score = answer = search().first(whole, bounded=False)
    taken = 10**6 - whole.left
    assert taken > 300, taken
    sliced = search()
    spent = 0
    for _ in range(taken):  # a search starting afresh each time would never end
        part = Budget(100)
        try:
            score = sliced.first(part, bounded=False)
        except OutOfStates:
            spent += 100
            continue
        spent += 100 - part.left
        break
    assert score == answer
    # each slice walks again the states it stood in when it stopped, no more
    assert spent < 2 * taken, (spent, taken)
