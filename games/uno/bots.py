"""Computer opponents for Uno; they see a seat's :class:`UnoView`, never the game state.

    bot = HeuristicBot(seed=3)
    move = bot.choose(game.view(seat), game.legal_moves(seat))

``random`` plays any matching card at random (see :class:`RandomBot`); ``heuristic``
keeps its Wilds for when nothing else plays, chains Skip/Reverse/+2 for extra turns with two
players, picks the colour it holds most of, always says UNO, catches every forgotten UNO,
challenges a Wild Draw Four when a bluff is likely enough, and dumps its high-value cards and
attacks when an opponent is close to going out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import saved
from games.core import Json, SeededBot
from games.uno.engine import NO_MATCHING_COLOUR, PHASE_CHALLENGE, PHASE_CHOOSE, UnoView
from games.uno.notation import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    CHOOSE,
    DRAW,
    DRAW_TWO,
    KEEP,
    PLAY,
    REVERSE,
    SKIP,
    WILD_DRAW_FOUR,
    WILDS,
    Move,
    value_of,
)

# Chance that one card of a hand matches the top card (a quarter of the colours, the same
# value in another colour, a Wild): how a bluffing opponent's hand is judged (UNO-6).
_MATCH_CHANCE = 0.33
_COLOUR_CHANCE = 0.23
# Challenge when the chance of a bluff exceeds this: a won challenge is worth about five
# times what a lost one costs (they take the four and five cards back; we lose two more).
_CHALLENGE_ABOVE = 0.2
_SEATS = {str(seat) for seat in range(6)}  # the seats a saved bluff record may name


# Weights of a play, tuned by self-play against ``random`` (2 x 1,000 two-player rounds each).
LACK = 10.0  # keeps in play a colour the next player just failed to play on
WILD_COST = -30.0  # a Wild spent is a Wild missing later (a Wild Draw Four costs 10 less)
AGAIN = 25.0  # UNO-10: Skip, Reverse or +2 with two players gives another turn at once
KEEP_COLOUR = 2.0  # per card of the colour left in play that stays in hand


class RandomBot(SeededBot):
    """A random player as the published baselines define one (RLCard's random agent): any
    matching card at random, drawing only when none matches; a random colour, a random
    answer to a Wild Draw Four; it says UNO and catches half the forgotten ones.

    ``RandomBot(1).choose(view, legal)``
    """

    def choose(self, view: UnoView, legal: Sequence[Move]) -> Move | None:
        draw = self.rng.random  # index by random() rather than choice(): a third of the cost
        if view.turn != view.seat:
            return legal[0] if legal and draw() < 0.5 else None
        plays = [move for move in legal if move.kind == PLAY]
        if plays:
            said = [move for move in plays if move.uno] if len(view.hand) == 2 else plays
            return said[int(draw() * len(said))]
        choices = [move for move in legal if move.kind not in (CATCH, DRAW)] or [Move(DRAW)]
        return choices[int(draw() * len(choices))]


class HeuristicBot(SeededBot):
    """Rule-of-thumb play from the view only: ``HeuristicBot(1).choose(view, legal)``.

    Between its turns it remembers what it left on the discard: if the next player then drew
    and the same card and colour are still there, that player lacks the colour, and the bot
    keeps it in play. It also remembers how its challenges turned out, player by player, and
    stops challenging a player whose Wild Draw Fours prove honest. All of it is saved by
    ``to_dict()``.
    """

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.left: tuple[str, str, tuple[int, ...]] | None = None  # top, colour, hand counts
        self.lacking = ""  # a colour the next player could not play on
        self.challenged: tuple[int, int] | None = None  # whom, our hand size then
        self.bluffs: dict[int, list[int]] = {}  # seat -> [caught bluffing, challenged]

    def memory(self) -> dict[str, Json]:
        left = self.left
        return {"left": None if left is None else [left[0], left[1], list(left[2])],
                "lacking": self.lacking,
                "challenged": None if self.challenged is None else list(self.challenged),
                "bluffs": {str(seat): list(record) for seat, record in self.bluffs.items()}}

    def remember(self, data: Mapping[str, Json]) -> None:
        def number(value: Any, at: str) -> int:
            return saved.integer(value, at, 0, 10**6)

        left = saved.field(data, "left", "bot")
        if left is not None:
            top, colour, counts = saved.items(left, "bot.left", 3, 3)
            self.left = (saved.text(top, "bot.left"), saved.text(colour, "bot.left"),
                         tuple(saved.each(counts, "bot.left", 6, number)))
        self.lacking = saved.text(saved.field(data, "lacking", "bot"), "bot.lacking")
        challenged = saved.field(data, "challenged", "bot")
        if challenged is not None:
            whom, before = saved.each(challenged, "bot.challenged", 2, number, least=2)
            self.challenged = (whom, before)
        bluffs = saved.need_dict(saved.field(data, "bluffs", "bot"), "bot.bluffs")
        for seat, record in bluffs.items():
            at = f"bot.bluffs.{str(seat)[:4]}"
            saved.ensure(seat in _SEATS, at, "not_a_seat")
            caught, tried = saved.each(record, at, 2, number, least=2)
            self.bluffs[int(seat)] = [caught, tried]

    def choose(self, view: UnoView, legal: Sequence[Move]) -> Move | None:
        for move in legal:
            if move.kind == CATCH:
                return move
        if view.turn != view.seat:
            return None
        self._learn(view)
        if view.phase == PHASE_CHOOSE:
            return Move(CHOOSE, colour=_best_colour(view, view.hand))
        if view.phase == PHASE_CHALLENGE:
            caught, tried = self.bluffs.get(view.challenge_from, [0, 0])
            honesty = (caught + 1) / (tried + 1)  # how often this player bluffed, hopefully
            if _bluff_chance(view) * honesty <= _CHALLENGE_ABOVE:
                return Move(ACCEPT)
            self.challenged = (view.challenge_from, len(view.hand))
            return Move(CHALLENGE)
        plays = [move for move in legal if move.kind == PLAY]
        best = _best_play(view, plays, self.lacking)
        if best is not None:
            self.left = (best.card, best.colour or best.card[0], view.hand_counts)
            return best
        self.left = None
        return Move(KEEP) if any(move.kind == KEEP for move in legal) else Move(DRAW)

    def _learn(self, view: UnoView) -> None:
        if self.challenged is not None:
            # UNO-6: a lost challenge costs six cards, a won one none
            seat, before = self.challenged
            record = self.bluffs.setdefault(seat, [0, 0])
            record[0] += len(view.hand) < before + 6
            record[1] += 1
            self.challenged = None
        if self.left is None:
            return
        top, colour, counts = self.left
        self.left = None
        after = _next_seat(view)
        if (view.top == top and view.colour == colour
                and view.hand_counts[after] > counts[after]):
            self.lacking = colour
        elif view.colour == self.lacking:
            self.lacking = ""


def _opponents(view: UnoView) -> list[int]:
    if view.teams:
        return [seat for seat in range(view.players) if seat % 2 != view.seat % 2]
    return [seat for seat in range(view.players) if seat != view.seat]


def _best_colour(view: UnoView, hand: Sequence[str]) -> str:
    """The colour this hand holds most of (by count, then by points)."""
    weight = dict.fromkeys(view.colours, 0.0)
    for card in hand:
        if card not in WILDS:
            weight[card[0]] += 1.0 + _points(card) / 100
    return max(view.colours, key=lambda colour: weight[colour])


def _points(card: str) -> int:
    value = value_of(card)
    if value.isdigit():
        return int(value)
    return 50 if card in WILDS else 20


def _bluff_chance(view: UnoView) -> float:
    """How likely the Wild Draw Four just played on us was illegal (UNO-5), from its player's
    hand size alone."""
    others = view.hand_counts[view.challenge_from]
    chance = _COLOUR_CHANCE if view.wild_draw_four == NO_MATCHING_COLOUR else _MATCH_CHANCE
    return float(1 - (1 - chance) ** others)


def _next_seat(view: UnoView) -> int:
    return (view.seat + view.direction) % view.players


def _is_bluff(view: UnoView, hand: Sequence[str]) -> bool:
    if view.wild_draw_four == NO_MATCHING_COLOUR:
        return any(card[0] == view.colour for card in hand if card not in WILDS)
    top = view.top
    return any(card == "wi" or card[0] == view.colour
               or (top not in WILDS and card not in WILDS and card[1:] == top[1:])
               for card in hand if card != WILD_DRAW_FOUR)


def _best_play(view: UnoView, plays: Sequence[Move], lacking: str = "") -> Move | None:
    if not plays:
        return None
    hand = list(view.hand)
    opponents = _opponents(view)
    danger = min(view.hand_counts[seat] for seat in opponents) <= 2
    next_seat = _next_seat(view)
    next_is_opponent = next_seat in opponents
    two_players = view.players == 2
    best: Move | None = None
    best_score = -1e9
    for move in plays:
        card = move.card
        if card == WILD_DRAW_FOUR and _is_bluff(view, hand):
            continue
        rest = list(hand)
        rest.remove(card)
        if not rest:
            return _with_uno(move, hand)
        value = value_of(card)
        if card in WILDS:
            colour = _best_colour(view, rest)
            if lacking and any(other[0] == lacking for other in rest if other not in WILDS):
                colour = lacking
            if move.colour != colour:
                continue
            score = WILD_COST if card == "wi" else WILD_COST + 10
        else:
            colour = card[0]
            score = 0.0
        score += KEEP_COLOUR * sum(1 for other in rest if other not in WILDS and other[0] == colour)
        if colour == lacking and next_is_opponent:
            score += LACK
        if value in (SKIP, REVERSE, DRAW_TWO, WILD_DRAW_FOUR):
            if two_players and value != WILD_DRAW_FOUR:
                score += AGAIN
            if next_is_opponent and value in (SKIP, DRAW_TWO):
                score += 6.0 + (30.0 if danger else 0.0)
            if value == WILD_DRAW_FOUR and danger:
                score += 60.0
        if danger:
            score += _points(card) / 2
        else:
            score += _points(card) / 10
        if score > best_score:
            best, best_score = move, score
    return None if best is None else _with_uno(best, hand)


def _with_uno(move: Move, hand: Sequence[str]) -> Move:
    """UNO-7: always say UNO when the play leaves one card."""
    if len(hand) == 2 and not move.uno:
        return Move(move.kind, move.card, move.colour, True)
    return move
