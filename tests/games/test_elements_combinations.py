"""ELE-6: the ranking of combinations is a total order that follows every clause.

The engine ranks with key tuples; here an independent reference reads ELE-6 clause by clause
(counting numbers and colours), and every combination of 1 to 4 cards of the whole deck is
checked against it under several colour orders. Comparing all pairs of 368 830 combinations
is out of reach, so the combinations are grouped by engine key: every member of a group must
have the same reference reading, and the groups' readings must compare as their keys do.
"""

import itertools
import random
from collections import Counter

import pytest

from games.elements.cards import Card, Pattern, bid_key, combination_key
from tests.elements_helpers import cards

COLOURS = ("r", "y", "g", "b", "k")
DECK = [Card(colour, value) for colour in COLOURS for value in range(11)]
ORDERS = [("r", "y", "g", "b", "k"), ("k", "b", "g", "y", "r"), ("g", "r", "k", "y", "b")]

CLAUSES = ("single", "two_colour", "two_number", "three_colour", "three_number",
           "four_colour", "four_number")


def reference(laid, order):
    """ELE-6 read as written: (clause, tie-break values in the order the clause names them)."""
    strength = {colour: -order.index(colour) for colour in order}
    numbers = Counter(card.value for card in laid)
    colours = Counter(card.colour for card in laid)
    for size, name in ((4, "four"), (3, "three")):
        same_number = [value for value, count in numbers.items() if count == size]
        if same_number:
            return (f"{name}_number", (same_number[0],))
        same_colour = [colour for colour, count in colours.items() if count == size]
        if same_colour:
            colour = same_colour[0]
            return (f"{name}_colour", (strength[colour],
                                       max(c.value for c in laid if c.colour == colour)))
    pairs = [value for value, count in numbers.items() if count == 2]
    if pairs:
        value = max(pairs)
        return ("two_number", (value, max(strength[c.colour] for c in laid if c.value == value)))
    pairs = [colour for colour, count in colours.items() if count == 2]
    if pairs:
        colour = max(pairs, key=lambda c: strength[c])
        return ("two_colour", (strength[colour],
                               max(c.value for c in laid if c.colour == colour)))
    value = max(card.value for card in laid)
    return ("single", (value, max(strength[c.colour] for c in laid if c.value == value)))


def reference_compare(a, b):
    """-1, 0 or 1 as reading ``a`` is weaker, tied with, or stronger than reading ``b``."""
    (clause_a, ties_a), (clause_b, ties_b) = a, b
    if clause_a != clause_b:
        return 1 if CLAUSES.index(clause_a) > CLAUSES.index(clause_b) else -1
    for x, y in zip(ties_a, ties_b, strict=True):
        if x != y:
            return 1 if x > y else -1
    return 0


def all_combinations(deck):
    for size in range(1, 5):
        yield from itertools.combinations(deck, size)


def check_against_reference(deck, order):
    """Group every combination of ``deck`` by engine key; returns how many were checked."""
    groups: dict = {}
    count = 0
    for laid in all_combinations(deck):
        key = combination_key(laid, order)
        reading = reference(laid, order)
        known = groups.setdefault(key, reading)
        assert known == reading, (laid, key, known, reading)
        assert key.pattern.code == reading[0]
        count += 1
    keys = sorted(groups)
    # every pair of groups: the keys' order is the clauses' order (strict: no two groups tie)
    for low_index, low in enumerate(keys):
        for high in keys[low_index + 1:]:
            assert reference_compare(groups[high], groups[low]) == 1, (low, high)
    return count


def test_ele_6_every_combination_of_the_whole_deck_follows_the_clauses():
    assert check_against_reference(DECK, ORDERS[0]) == 55 + 1485 + 26235 + 341055


@pytest.mark.parametrize("order", ORDERS)
def test_ele_6_every_combination_of_a_reduced_deck_under_other_orders(order):
    # all five colours (every pattern and colour tie-break) with low, middle and high values
    deck = [card for card in DECK if card.value in (0, 1, 5, 10)]
    assert check_against_reference(deck, order) == 20 + 190 + 1140 + 4845


def test_ele_6_bid_keys_are_antisymmetric_transitive_and_total():
    rng = random.Random(6)
    order = ORDERS[1]
    combos = [tuple(rng.sample(DECK, rng.randint(1, 4))) for _ in range(60)]
    combos += [tuple(cards("y7")), tuple(cards("y7"))]   # a full tie of combinations
    bids = [bid_key(combination_key(laid, order), rank) for rank, laid in enumerate(combos)]
    for a, b in itertools.permutations(bids, 2):
        assert (a > b) != (b > a)                  # total and antisymmetric: never equal
    for a, b, c in itertools.permutations(bids[:30], 3):
        if a > b and b > c:
            assert a > c
    assert bids[-2] > bids[-1]                     # laid first wins the full tie


ORDER = ("b", "r", "g", "y", "k")   # b strongest, k weakest


def stronger(a, b):
    return combination_key(cards(a), ORDER) > combination_key(cards(b), ORDER)


def test_ele_6_clause_1_four_of_a_number_beats_four_of_a_colour():
    assert stronger("r1 y1 g1 k1", "b7 b8 b9 b10")


def test_ele_6_clause_1_higher_four_of_a_number_wins():
    assert stronger("r3 y3 g3 k3", "r2 y2 g2 b2")


def test_ele_6_clause_2_four_of_a_colour_beats_three_of_a_number():
    assert stronger("k0 k1 k2 k3", "r10 y10 b10 g9")


def test_ele_6_clause_3_four_of_a_colour_stronger_colour_then_highest_value():
    assert stronger("b0 b1 b2 b3", "r7 r8 r9 r10")
    assert stronger("r1 r2 r3 r9", "r4 r5 r6 r8")


def test_ele_6_clause_4_three_of_a_number_beats_three_of_a_colour():
    assert stronger("k0 y0 g0", "b8 b9 b10")
    assert stronger("k4 y4 g4", "k2 y2 g2 b1")


def test_ele_6_clause_5_three_of_a_colour_beats_two_of_a_number():
    assert stronger("k0 k1 k2", "b10 r10")


def test_ele_6_clause_6_three_of_a_colour_stronger_colour_then_highest_value():
    assert stronger("r0 r1 r2", "g8 g9 g10")
    assert stronger("g1 g2 g9 y5", "g3 g4 g8 b10")


def test_ele_6_clause_7_two_of_a_number_beats_two_of_a_colour():
    assert stronger("k0 y0", "b9 b10")


def test_ele_6_clause_7_higher_pair_of_numbers_wins():
    assert stronger("k6 y6", "b5 r5")
    assert stronger("k6 y6 k1 y1", "b5 r5 b2 r2")


def test_ele_6_clause_8_same_pair_number_strongest_colour_wins():
    assert stronger("b5 k5", "r5 g5")
    assert combination_key(cards("b5 k5"), ORDER).pattern == Pattern.TWO_NUMBER


def test_ele_6_clause_9_two_of_a_colour_beats_a_single_card():
    assert stronger("k0 k1", "b10")


def test_ele_6_clause_10_two_of_a_colour_stronger_colour_then_highest_value():
    assert stronger("b0 b1", "r9 r10")
    assert stronger("g2 g8", "g3 g7")


def test_ele_6_clause_11_single_higher_value_wins():
    assert stronger("k9", "b8")
    assert stronger("k9 y3", "b8 r2")


def test_ele_6_clause_12_single_same_value_stronger_colour_wins():
    assert stronger("b9", "r9")
    assert not stronger("k9", "y9")


def test_ele_6_unbroken_tie_is_equal_combinations():
    assert combination_key(cards("g2 g8"), ORDER) == combination_key(cards("g3 g8 r1"), ORDER)
