"""Computer opponents for Domino 10-11-12; each sees only its seat's view.

    bot = HeuristicBot(seed=3)
    move = bot.choose(game.view(seat), game.legal_moves(seat))
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from games import saved
from games.core import BotMaker, Json, SeededBot
from games.domino.engine import DominoView
from games.domino.grid import (
    Card,
    Grid,
    Move,
    Opening,
    Option,
    Rules,
    best_points,
    opening_options,
    placements,
)


class RandomBot(SeededBot):
    """Any legal placement, uniformly."""

    def choose(self, view: DominoView, legal: Sequence[Move]) -> Move | None:
        return self.rng.choice(legal) if legal else None


def unseen(view: DominoView) -> Counter[Card]:
    """Cards the seat has not seen: the box minus the table and its own hand."""
    left = Counter(view.deck)
    left.subtract(place.card for place in view.table)
    left.subtract(view.hand)
    return +left


def expected_reply(grid: Grid, cards: Counter[Card], hand: int, rules: Rules) -> float:
    """The points the next player can expect to score on ``grid`` with ``hand`` cards drawn
    from ``cards``: the expected best of ``hand`` draws, card by card (hypergeometric)."""
    total = sum(cards.values())
    if total == 0 or hand <= 0 or not grid:
        return 0.0
    hand = min(hand, total)
    best = best_points(grid, cards, rules)
    # E[max] = sum over thresholds t of P(max >= t), P(max >= t) = 1 - P(no card reaches t)
    levels = sorted({points for points in best.values() if points > 0})
    expected, previous = 0.0, 0
    for level in levels:
        reaching = sum(cards[c] for c, points in best.items() if points >= level)
        below = total - reaching
        miss = math.comb(below, hand) / math.comb(total, hand)
        expected += (level - previous) * (1.0 - miss)
        previous = level
    return expected


class HeuristicBot(SeededBot):
    """Weighs each of its best few placements (by what the sheet takes now: points, row
    bonuses, super bonuses, full columns) against what it leaves open: the points the next
    player can expect to score on the table it leaves, with cards drawn from those unseen."""

    def __init__(self, seed: int, caution: float = 1.0, shortlist: int = 6) -> None:
        super().__init__(seed)
        self.caution = caution
        self.shortlist = shortlist

    def memory(self) -> dict[str, Json]:
        return {"caution": self.caution, "shortlist": self.shortlist}

    def remember(self, data: Mapping[str, Json]) -> None:
        caution = saved.field(data, "caution", "bot")
        saved.ensure(type(caution) in (int, float) and 0 <= caution <= 100, "bot.caution",
                     "out_of_range")
        self.caution = float(caution)
        self.shortlist = saved.integer(saved.field(data, "shortlist", "bot"), "bot.shortlist",
                                       1, 100)

    def choose(self, view: DominoView, legal: Sequence[Move]) -> Move | None:
        if not legal:
            return None
        options = self._options(view)
        ranked = sorted(((view.gain(o) + self.rng.random() * 0.01, o) for o in options),
                        key=lambda pair: -pair[0])
        if self.caution == 0 or len(ranked) == 1:
            return ranked[0][1].move
        cards = unseen(view)
        following = (view.seat + 1) % view.players
        hand = view.hand_sizes[following] if following != view.seat else 0
        best: tuple[float, Move] | None = None
        for gain, option in ranked[: self.shortlist]:
            move = option.move
            places = (move.first, move.second) if isinstance(move, Opening) else (move,)
            grid = dict(view.grid)
            for place in places:
                grid.update(place.cells())
            value = gain - self.caution * expected_reply(grid, cards, hand, view.rules)
            if best is None or value > best[0]:
                best = (value, move)
        return None if best is None else best[1]

    @staticmethod
    def _options(view: DominoView) -> list[Option]:
        if view.opening or not view.grid:
            return opening_options(view.hand, view.rules)
        return placements(view.grid, view.hand, view.rules)


BOTS: Mapping[str, BotMaker[DominoView, Move]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
