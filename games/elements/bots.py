"""Computer opponents for Elements: from a seat's view to a move, seeded.

    bot = HeuristicBot(seed=3)
    move = bot.choose(game.view(seat), game.legal_moves(seat))
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from games.core import SeededBot
from games.elements.cards import BidKey, Card, bid_key, combination_key
from games.elements.engine import BID, PLACE, ElementsView, Keep, Lay, Move, Pass, Place


class RandomBot(SeededBot):
    """Any legal move, uniformly: ``RandomBot(1).choose(view, legal)``."""

    def choose(self, view: ElementsView, legal: Sequence[Move]) -> Move | None:
        return self.rng.choice(list(legal)) if legal else None


class HeuristicBot(SeededBot):
    """Spends cards where they buy points: ``HeuristicBot(1).choose(view, legal)``.

    Phase 1: puts its most expendable high card before the element of the colour it holds
    most, so that colour ranks high. Phase 2: finds the cheapest set of cards that beats every
    combination laid so far and lays it only if the point card is worth that many cards
    (its share of the hand's points); once it leads, it passes and lets its cards compete.
    Phase 3: keeps high cards and cards that pair with another.
    """

    def choose(self, view: ElementsView, legal: Sequence[Move]) -> Move | None:
        if not legal:
            return None
        if view.phase == PLACE:
            return self._place(view)
        if view.phase == BID:
            return self._bid(view)
        return self._keep(view)

    # -- phase 1 --------------------------------------------------------------------------

    def _place(self, view: ElementsView) -> Move:
        taken = {element for element, _, _ in view.placements}
        free = [element for element in view.row if element not in taken]
        by_colour = Counter(card.colour for card in view.hand)
        by_value = Counter(card.value for card in view.hand)
        element = max(free, key=lambda colour: (by_colour[colour], -view.row.index(colour)))

        # the card we miss least: alone in its number, of a colour we hold little, high value
        # so that the element it stands before ranks near the box
        def spare(card: Card) -> tuple[int, int, int]:
            return (-by_value[card.value], -by_colour[card.colour], card.value)

        return Place(max(view.hand, key=spare), element)

    # -- phase 2 --------------------------------------------------------------------------

    def _bid(self, view: ElementsView) -> Move:
        seat, need = view.seat, view.need
        if need == 0 or len(view.hand) < need or view.current is None:
            return Pass()
        order = view.order
        best_other = max((bid_key(combination_key(view.laid[other], order),
                                  view.laid_order.index(other))
                          for other in view.laid_order if other != seat), default=None)
        my_rank = (view.laid_order.index(seat) if seat in view.laid_order
                   else len(view.laid_order))
        mine = list(view.laid[seat])
        if mine and (best_other is None
                     or bid_key(combination_key(mine, order), my_rank) > best_other):
            return Pass()
        plan = self._cheapest_win(view, mine, my_rank, best_other)
        if plan is None:
            return Pass()
        extra = len(plan)
        if extra > self._allowance(view):
            return Pass()
        # lay first what is strongest by itself, so we lead as early as possible
        ranked = sorted(combinations(plan, need),
                        key=lambda group: combination_key([*mine, *group], order))
        return Lay(tuple(sorted(ranked[-1],  # in hand order, as the notation reads them
                                key=lambda card: (view.colours.index(card.colour), card.value))))

    @staticmethod
    def _cost(card: Card, hand: Sequence[Card]) -> float:
        partners = sum(1 for other in hand if other != card and other.value == card.value)
        return 1 + card.value / 20 + 0.3 * partners

    def _cheapest_win(self, view: ElementsView, mine: list[Card], rank: int,
                      target: BidKey | None) -> tuple[Card, ...] | None:
        """The cheapest cards of the hand whose final combination beats ``target``."""
        sizes, total = [], 0
        for count in view.rounds:
            total += count
            if total > len(mine) and total - len(mine) <= len(view.hand):
                sizes.append(total - len(mine))
        best: tuple[float, tuple[Card, ...]] | None = None
        for size in sizes:
            for group in combinations(view.hand, size):
                key = bid_key(combination_key([*mine, *group], view.order), rank)
                if target is not None and key < target:
                    continue
                cost = sum(self._cost(card, view.hand) for card in group)
                if best is None or cost < best[0]:
                    best = (cost, group)
        return None if best is None else best[1]

    @staticmethod
    def _allowance(view: ElementsView) -> int:
        """How many cards the current point card is worth: its share of the hand's points."""
        assert view.current is not None
        remaining = sum(card.value for card in view.point_cards)
        share = len(view.hand) * view.current.value / max(remaining, 1)
        return max(1, math.ceil(1.5 * share))

    # -- phase 3 --------------------------------------------------------------------------

    @staticmethod
    def _keep(view: ElementsView) -> Move:
        by_value = Counter(card.value for card in view.hand)
        return Keep(tuple(card for card in view.hand
                          if card.value >= 6 or by_value[card.value] > 1))
