"""Elements cards and the ranking of combinations (ELE-1, ELE-6).

Cards are :class:`Card` s of :mod:`games.elements.notation` (``r7``; an element card is ``Er``),
re-exported here; the colour letters come from the box data (``games/elements/rules.toml``).

    order = ("b", "r", "k", "g", "y")                 # strongest colour first
    key = combination_key([Card("r", 5), Card("b", 5)], order)
    key.pattern                                        # Pattern.TWO_NUMBER
    bid_key(key, laid_rank=0) > bid_key(other, laid_rank=1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import NamedTuple

from games.elements.notation import ELEMENT_PREFIX, Card, element_label

__all__ = ["ELEMENT_PREFIX", "BidKey", "Card", "ComboKey", "Pattern", "bid_key",
           "combination_key", "element_label", "strengths"]


class Pattern(IntEnum):
    """The patterns of ELE-6, weakest first, so a larger value is a stronger pattern."""

    SINGLE = 0
    TWO_COLOUR = 1
    TWO_NUMBER = 2
    THREE_COLOUR = 3
    THREE_NUMBER = 4
    FOUR_COLOUR = 5
    FOUR_NUMBER = 6

    @property
    def code(self) -> str:
        """The word code of the pattern (``two_number``), for layouts and the notation."""
        return self.name.lower()


class ComboKey(NamedTuple):
    """How strong a laid set is: compare keys as tuples (larger is stronger).

    ``first`` and ``second`` are the tie-breaks of ELE-6 for the pattern: number patterns put
    the number first (and, for pairs, the strength of the strongest colour of the pair);
    colour patterns put the colour's strength first then the highest value; a single card its
    value then its colour's strength. A colour's strength is 5 for the strongest of 5.
    """

    pattern: Pattern
    first: int
    second: int


def strengths(order: Sequence[str]) -> dict[str, int]:
    """Colour -> strength, larger is stronger: ``strengths("br")`` is ``{"b": 2, "r": 1}``."""
    return {colour: len(order) - index for index, colour in enumerate(order)}


_NUMBER_PATTERNS = {2: Pattern.TWO_NUMBER, 3: Pattern.THREE_NUMBER, 4: Pattern.FOUR_NUMBER}
_COLOUR_PATTERNS = {2: Pattern.TWO_COLOUR, 3: Pattern.THREE_COLOUR, 4: Pattern.FOUR_COLOUR}


def combination_key(cards: Iterable[Card], order: Sequence[str]) -> ComboKey:
    """The strongest pattern among ``cards`` (1 to 4 cards) under the colour ``order``.

    Every group of one number or one colour is a candidate, every card a single; the largest
    key wins (a group beats its own sub-groups, so whole groups are enough)."""
    strength = strengths(order)
    by_value: dict[int, list[int]] = {}
    by_colour: dict[str, list[int]] = {}
    best: ComboKey | None = None
    for card in cards:
        by_value.setdefault(card.value, []).append(strength[card.colour])
        by_colour.setdefault(card.colour, []).append(card.value)
        single = ComboKey(Pattern.SINGLE, card.value, strength[card.colour])
        if best is None or single > best:
            best = single
    if best is None:
        raise ValueError("a combination needs at least one card")
    for value, colours in by_value.items():
        if len(colours) >= 2:
            # ELE-6: only a pair of one number is split by its strongest colour
            second = max(colours) if len(colours) == 2 else 0
            best = max(best, ComboKey(_NUMBER_PATTERNS[len(colours)], value, second))
    for colour, values in by_colour.items():
        if len(values) >= 2:
            best = max(best, ComboKey(_COLOUR_PATTERNS[len(values)], strength[colour],
                                      max(values)))
    return best


BidKey = tuple[ComboKey, int]


def bid_key(key: ComboKey, laid_rank: int) -> BidKey:
    """The full comparison of ELE-6: the combination, then who laid first (rank 0 first).

    Two players never share a laid rank, so bid keys are a strict total order."""
    return key, -laid_rank
