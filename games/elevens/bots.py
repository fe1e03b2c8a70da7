"""Computer opponents for Elevens. A turn is several steps, so a bot is asked again while it
is still the actor; each answer is one step chosen from the seat's view and the legal steps.

    bot = BOTS["heuristic"](seed=3)
    step = bot.choose(game.view(seat), game.legal_moves(seat))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.core import BotMaker, SeededBot
from games.elevens.engine import JOKER, ElevensView, Step

# Weights of the heuristic, in points of the final score (a number card in hand costs its value).
FOLLOW = 3.0        # a place opened next to the new card that the bot can fill itself
GIFT = -3.0         # a place opened that only someone else can fill (the bot holds blockers)
BONUS = 20.0        # completing a half-row while bonus cards remain (ELV-10)
LINK_COST = -2.0    # a link card is spent: keep them for rows the bot can really fill
JOKER_KEEP = -6.0   # a joker is worth keeping to bridge a gap later, unless the end is near
SHED = 0.25         # per point of the card's value taken out of the hand
ENDGAME_HAND = 4    # a hand this small (own or an opponent's) means the end is near


class RandomBot(SeededBot):
    """Any legal step, uniformly; ``undo`` only to get out of an exchange it cannot complete
    (ELV-8), so that its turns always end."""

    def choose(self, view: ElevensView, legal: Sequence[Step]) -> Step | None:
        if not legal:
            return None
        stuck = view.exchanged and not view.placed_other
        steps = [step for step in legal if stuck or step.kind != "undo"] or list(legal)
        return self.rng.choice(steps)


class HeuristicBot(SeededBot):
    """Plays chains of its own cards, holds cards that would only open places for others,
    spends link cards where it can go on filling, takes bonuses, sheds jokers near the end.
    """

    def choose(self, view: ElevensView, legal: Sequence[Step]) -> Step | None:
        if not legal:
            return None
        kinds = {step.kind for step in legal}
        endgame = self._endgame(view)
        scored = [(self._score(view, step, endgame), self.rng.random(), step)
                  for step in legal if step.kind not in ("draw", "end", "undo")]
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        best = scored[0] if scored else None
        # a first card is almost always better than drawing one more; near the end, shed
        threshold = -15.0 if endgame else -8.0 if not view.steps else 0.0
        if best is not None and best[0] > threshold:
            return best[2]
        for fallback in ("draw", "end"):
            if fallback in kinds:
                return Step(fallback)
        return best[2] if best is not None else Step("undo")

    def _endgame(self, view: ElevensView) -> bool:
        others = [count for seat, count in enumerate(view.hand_sizes) if seat != view.seat]
        return (view.stock_size == 0 or len(view.hand) <= ENDGAME_HAND
                or min(others, default=99) <= ENDGAME_HAND)

    def _score(self, view: ElevensView, step: Step, endgame: bool) -> float:
        mine = set(view.hand)
        if step.kind == "discard":
            return 5.0 if endgame or mine == {JOKER} else -20.0
        if step.kind == "exchange":
            # a card whose place a joker holds can only ever leave the hand this way
            return 4.0 if view.placed_other else -30.0
        score = self._opened(view, step, mine)
        if step.card == JOKER:
            score += 11 * SHED if endgame else JOKER_KEEP
        else:
            score += step.pos * SHED
        if step.kind == "link":
            score += LINK_COST
        if view.bonus_left and self._completes_half(view, step):
            score += BONUS
        return score

    def _opened(self, view: ElevensView, step: Step, mine: set[str]) -> float:
        cells = view.rows[step.row]
        score = 0.0
        for near, beyond in ((step.pos - 1, step.pos - 2), (step.pos + 1, step.pos + 2)):
            if not view.lowest <= near <= view.highest or near in cells or beyond in cells:
                continue  # off the row, taken, or open already
            score += FOLLOW if f"{step.row}{near}" in mine else GIFT
        return score

    def _completes_half(self, view: ElevensView, step: Step) -> bool:
        cells = view.rows[step.row]
        low = step.pos < view.start
        span = range(view.lowest, view.start) if low else range(view.start + 1, view.highest + 1)
        return all(pos in cells or pos == step.pos for pos in span)


BOTS: Mapping[str, BotMaker[ElevensView, Step]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
