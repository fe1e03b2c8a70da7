"""Computer opponents for Uno; they see a seat's :class:`UnoView` and the events that seat
learned (:meth:`HeuristicBot.see`), never the game state.

    bot = HeuristicBot(seed=3)
    bot.see(events_for(events, seat))      # after every move: what the seat saw happen
    move = bot.choose(game.view(seat), game.legal_moves(seat))

``random`` plays any matching card at random (see :class:`RandomBot`); ``heuristic``
keeps its Wilds for when nothing else plays, chains Skip/Reverse/+2 for extra turns with two
players, picks the colour it holds most of, catches every forgotten UNO, challenges a Wild
Draw Four when the evidence says it was a bluff (:meth:`HeuristicBot.guilt`), now and then
bluffs one itself, and dumps its high-value cards and attacks when an opponent is close to
going out. Like people, both bots sometimes forget to say UNO (``FORGET_UNO``). Every chance
is drawn from the bot's own generator, saved with what it remembers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games import saved
from games.core import Event, Json, SeededBot
from games.uno.engine import (
    NO_MATCHING_COLOUR,
    PHASE_CHALLENGE,
    PHASE_CHOOSE,
    Challenged,
    ColourChosen,
    Drew,
    FirstCard,
    HandShown,
    Kept,
    Played,
    Reshuffled,
    RoundStarted,
    UnoView,
)
from games.uno.notation import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    CHOOSE,
    DRAW,
    DRAW_TWO,
    KEEP,
    NUMBERS,
    PLAY,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    WILDS,
    Move,
    colour_of,
    value_of,
)

# UNO-7: how often a bot playing its second-to-last card forgets to say UNO, as people do.
FORGET_UNO = 0.1
# How often the heuristic lets itself bluff a Wild Draw Four it holds beside playable cards
# (UNO-5); it then plays it only where a +4 is worth it (mostly against a near winner).
BLUFF_CHANCE = 0.3
# UNO-6: challenge when the chance of a bluff is above this, a share that drifts with a seeded
# hunch (x0.5 to x1.5): a won challenge swings about nine cards (they take back the +4 and
# draw four, we draw none), a lost one costs two more cards.
CHALLENGE_ABOVE = 0.2
# What the heuristic believes of a player it has never challenged: one Wild Draw Four in
# PRIOR_TRIED is a bluff, PRIOR_CAUGHT of them; each challenge it sees moves that on.
PRIOR_CAUGHT, PRIOR_TRIED = 1.0, 10.0
MOST_SEATS = 6
_CARDS = frozenset([*WILDS, *(colour + value for colour in "abcdefghijklmnopqrstuvxyz"
                              for value in (*NUMBERS, SKIP, REVERSE, DRAW_TWO))])


# Weights of a play, tuned by self-play against ``random`` (2 x 1,000 two-player rounds each).
LACK = 10.0  # keeps in play a colour the next player just failed to play on
WILD_COST = -30.0  # a Wild spent is a Wild missing later (a Wild Draw Four costs 10 less)
AGAIN = 25.0  # UNO-10: Skip, Reverse or +2 with two players gives another turn at once
KEEP_COLOUR = 2.0  # per card of the colour left in play that stays in hand


class RandomBot(SeededBot):
    """A random player as the published baselines define one (RLCard's random agent): any
    matching card at random, drawing only when none matches; a random colour, a random
    answer to a Wild Draw Four; it catches half the forgotten UNOs, and says its own but
    when it forgets (``FORGET_UNO``).

    ``RandomBot(1).choose(view, legal)``
    """

    def choose(self, view: UnoView, legal: Sequence[Move]) -> Move | None:
        draw = self.rng.random  # index by random() rather than choice(): a third of the cost
        if view.turn != view.seat:
            return legal[0] if legal and draw() < 0.5 else None
        plays = [move for move in legal if move.kind == PLAY]
        if plays:
            if len(view.hand) == 2:
                said = draw() >= FORGET_UNO
                plays = [move for move in plays if move.uno == said]
            return plays[int(draw() * len(plays))]
        choices = [move for move in legal if move.kind not in (CATCH, DRAW)] or [Move(DRAW)]
        return choices[int(draw() * len(choices))]


class HeuristicBot(SeededBot):
    """Rule-of-thumb play from the view and the events its seat saw:
    ``HeuristicBot(1).choose(view, legal)``.

    It remembers, for the round, what a player at the table could: the cards gone to the
    discard since the last reshuffle, the cards it knows in other hands (a hand shown to it
    after a challenge, a Wild Draw Four taken back), and for each player the colours they
    drew on instead of playing, with how many cards they took since. Across rounds it keeps,
    player by player, how the challenges it saw turned out. All of it is saved by
    ``to_dict()``.
    """

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.discard: list[str] = []  # the discard pile as seen, top last
        self.colour = ""  # the colour in play as the events told it
        self.before = ""  # the colour under the last Wild Draw Four
        self.held: dict[int, list[str]] = {}  # seat -> cards known to be in its hand
        self.lacks: dict[int, dict[str, int]] = {}  # seat -> colour passed -> cards taken since
        self.drawer = -1  # the seat that drew instead of playing and may play the card
        self.drawn_on = ""  # the colour it drew on
        self.bluffs: dict[int, list[int]] = {}  # seat -> [caught bluffing, challenged]

    # ---- memory ----------------------------------------------------------------------------

    def memory(self) -> dict[str, Json]:
        return {"discard": list(self.discard), "colour": self.colour, "before": self.before,
                "held": {str(seat): list(cards) for seat, cards in self.held.items()},
                "lacks": {str(seat): dict(colours) for seat, colours in self.lacks.items()},
                "drawer": self.drawer, "drawn_on": self.drawn_on,
                "bluffs": {str(seat): list(record) for seat, record in self.bluffs.items()}}

    def remember(self, data: Mapping[str, Json]) -> None:
        def get(key: str) -> Any:
            return saved.field(data, key, "bot")

        def count(value: Any, at: str) -> int:
            return saved.integer(value, at, 0, 10**6)

        def colour(value: Any, at: str) -> str:
            text = saved.text(value, at)
            saved.ensure(len(text) <= 1, at, "not_a_colour")
            return text

        def per_seat(key: str) -> dict[int, Any]:
            table = saved.need_dict(get(key), f"bot.{key}")
            for seat in table:
                saved.ensure(seat in {str(s) for s in range(MOST_SEATS)}, f"bot.{key}",
                             "not_a_seat", seat=str(seat)[:4])
            return {int(seat): value for seat, value in table.items()}

        self.discard = saved.cards(get("discard"), "bot.discard", _CARDS, 200)
        self.colour, self.before = colour(get("colour"), "bot.colour"), \
            colour(get("before"), "bot.before")
        self.held = {seat: saved.cards(cards, f"bot.held.{seat}", _CARDS, 200)
                     for seat, cards in per_seat("held").items()}
        self.lacks = {seat: {colour(name, f"bot.lacks.{seat}"): count(taken, f"bot.lacks.{seat}")
                             for name, taken in saved.need_dict(colours,
                                                                f"bot.lacks.{seat}").items()}
                      for seat, colours in per_seat("lacks").items()}
        self.drawer = saved.integer(get("drawer"), "bot.drawer", -1, MOST_SEATS - 1)
        self.drawn_on = colour(get("drawn_on"), "bot.drawn_on")
        self.bluffs = {seat: saved.each(record, f"bot.bluffs.{seat}", 2, count, least=2)
                       for seat, record in per_seat("bluffs").items()}
        for seat, (caught, tried) in self.bluffs.items():
            saved.ensure(caught <= tried, f"bot.bluffs.{seat}", "out_of_range")

    # ---- what the seat sees happen ----------------------------------------------------------

    def see(self, events: Sequence[Event]) -> None:
        """Remember what a player at the table would of these events (the bot's seat's
        share): ``bot.see(events_for(game.play(seat, move), bot_seat))``."""
        for event in events:
            if isinstance(event, RoundStarted):
                self.discard, self.colour, self.held, self.lacks = [], "", {}, {}
                self.drawer = -1
            elif isinstance(event, FirstCard):
                if not event.returned:
                    self.discard, self.colour = [event.card], colour_of(event.card)
            elif isinstance(event, Played):
                self._played(event)
            elif isinstance(event, ColourChosen):
                self.colour = event.colour
            elif isinstance(event, Drew):
                self._drew(event)
            elif isinstance(event, Kept):
                if event.seat == self.drawer and self.drawn_on:
                    # UNO-4: only a card that matched is kept: it may be of that colour
                    self.lacks.setdefault(event.seat, {})[self.drawn_on] = 1
                self.drawer = -1
            elif isinstance(event, Reshuffled):
                kept = len(self.discard) - event.count
                self.discard = self.discard[-kept:] if kept > 0 else []
            elif isinstance(event, Challenged):
                record = self.bluffs.setdefault(event.seat, [0, 0])
                record[0] += event.guilty
                record[1] += 1
                if event.guilty:  # UNO-6: the +4 goes back, the colour before it stands
                    if self.discard and self.discard[-1] == WILD_DRAW_FOUR:
                        self.discard.pop()
                    self.held.setdefault(event.seat, []).append(WILD_DRAW_FOUR)
                    self.colour = self.before
            elif isinstance(event, HandShown):
                back = [WILD_DRAW_FOUR] if WILD_DRAW_FOUR in self.held.get(event.seat, []) \
                    else []
                self.held[event.seat] = [*event.cards, *back]

    def _played(self, event: Played) -> None:
        if event.card == WILD_DRAW_FOUR:
            self.before = self.colour
        self.discard.append(event.card)
        self.colour = event.colour
        known = self.held.get(event.seat)
        if known and event.card in known:
            known.remove(event.card)
        self.drawer = -1

    def _drew(self, event: Drew) -> None:
        taken = self.lacks.setdefault(event.seat, {})
        for colour in taken:
            taken[colour] += event.count
        if event.why == "draw" and self.colour:
            # UNO-4: drawing instead of playing says the hand held nothing of that colour
            taken[self.colour] = 0
            self.drawer, self.drawn_on = event.seat, self.colour
        elif event.seat != self.drawer:
            self.drawer = -1

    # ---- choosing ---------------------------------------------------------------------------

    def choose(self, view: UnoView, legal: Sequence[Move]) -> Move | None:
        for move in legal:
            if move.kind == CATCH:
                return move
        if view.turn != view.seat:
            return None
        if view.phase == PHASE_CHOOSE:
            return Move(CHOOSE, colour=_best_colour(view, view.hand))
        if view.phase == PHASE_CHALLENGE:
            guilt = self.guilt(view)
            if guilt >= 1 or (guilt > 0 and guilt > CHALLENGE_ABOVE * (0.5 + self.rng.random())):
                return Move(CHALLENGE)
            return Move(ACCEPT)
        plays = [move for move in legal if move.kind == PLAY]
        has_bluff = any(move.card == WILD_DRAW_FOUR for move in plays) and \
            _is_bluff(view, view.hand)
        bluff = has_bluff and self.rng.random() < BLUFF_CHANCE
        lacking = {colour for colour, taken in self.lacks.get(_next_seat(view), {}).items()
                   if taken == 0}
        best = _best_play(view, plays, lacking, bluff)
        if best is not None:
            if len(view.hand) == 2 and self.rng.random() < FORGET_UNO:
                return Move(best.kind, best.card, best.colour, False)
            return best
        return Move(KEEP) if any(move.kind == KEEP for move in legal) else Move(DRAW)

    def had_another(self, view: UnoView) -> float:
        """The chance that the Wild Draw Four just played on this seat was played from a hand
        holding another playable card (UNO-5), from what the seat saw: 1 when it knows such a
        card in that hand, else the chance that the hand's unknown cards, drawn from those it
        has not seen, held one; cards taken before the player drew on the colour in play
        cannot be of it."""
        seat, colour = view.challenge_from, view.previous_colour
        under = self.discard[-2] if len(self.discard) >= 2 and \
            self.discard[-1] == WILD_DRAW_FOUR else ""
        mattel = view.wild_draw_four == NO_MATCHING_COLOUR

        def playable(card: str) -> bool:
            if card == WILD_DRAW_FOUR:
                return False
            if card == WILD:
                return not mattel
            if card[0] == colour:
                return True
            return not mattel and under != "" and under not in WILDS and card[1:] == under[1:]

        known = self.held.get(seat, [])
        if any(playable(card) for card in known):
            return 1.0
        unknown = view.hand_sizes[seat] - len(known)
        pool = Counter(view.deck)
        pool.subtract(view.hand)
        pool.subtract(self.discard)
        for cards in self.held.values():
            pool.subtract(cards)
        total = sum(count for count in pool.values() if count > 0)
        if unknown <= 0 or total <= 0:
            return 0.0
        hits = sum(count for card, count in pool.items() if count > 0 and playable(card))
        # playable without being the colour or a Wild: by value alone
        plain = sum(count for card, count in pool.items()
                    if count > 0 and playable(card) and card != WILD and card[0] != colour)
        fresh = min(self.lacks.get(seat, {}).get(colour, unknown), unknown)
        missed = (1 - hits / total) ** fresh * (1 - plain / total) ** (unknown - fresh)
        return 1.0 - missed

    def guilt(self, view: UnoView) -> float:
        """The chance that the Wild Draw Four just played on this seat is a bluff: what the
        cards say (:meth:`had_another`) weighed by how often that player's Wild Draw Fours
        proved bluffs when challenged (a newcomer: ``PRIOR_CAUGHT`` in ``PRIOR_TRIED``)."""
        had = self.had_another(view)
        if had >= 1 or had <= 0:
            return had
        caught, tried = self.bluffs.get(view.challenge_from, [0, 0])
        bluffing = (caught + PRIOR_CAUGHT) / (tried + PRIOR_TRIED)
        return bluffing * had / (bluffing * had + 1 - had)


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


def _next_seat(view: UnoView) -> int:
    return (view.seat + view.direction) % view.players


def _is_bluff(view: UnoView, hand: Sequence[str]) -> bool:
    if view.wild_draw_four == NO_MATCHING_COLOUR:
        return any(card[0] == view.colour for card in hand if card not in WILDS)
    top = view.top
    return any(card == "wi" or card[0] == view.colour
               or (top not in WILDS and card not in WILDS and card[1:] == top[1:])
               for card in hand if card != WILD_DRAW_FOUR)


def _best_play(view: UnoView, plays: Sequence[Move], lacking: set[str],
               bluff: bool) -> Move | None:
    """The play that scores best, a Wild Draw Four that would be a bluff only if ``bluff``;
    ``lacking``: colours the next player drew on and took no card since."""
    if not plays:
        return None
    hand = list(view.hand)
    opponents = _opponents(view)
    danger = min(view.hand_sizes[seat] for seat in opponents) <= 2
    next_seat = _next_seat(view)
    next_is_opponent = next_seat in opponents
    two_players = view.players == 2
    held = {card[0] for card in hand if card not in WILDS}
    lacked = [colour for colour in view.colours if colour in lacking and colour in held]
    best: Move | None = None
    best_score = -1e9
    for move in plays:
        card = move.card
        if card == WILD_DRAW_FOUR and not bluff and _is_bluff(view, hand):
            continue
        rest = list(hand)
        rest.remove(card)
        if not rest:
            return _with_uno(move, hand)
        value = value_of(card)
        if card in WILDS:
            colour = _best_colour(view, rest)
            if lacked and next_is_opponent:
                colour = max(lacked, key=lambda c: sum(other[0] == c for other in rest))
            if move.colour != colour:
                continue
            score = WILD_COST if card == "wi" else WILD_COST + 10
        else:
            colour = card[0]
            score = 0.0
        score += KEEP_COLOUR * sum(1 for other in rest if other not in WILDS and other[0] == colour)
        if colour in lacking and next_is_opponent:
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
    """UNO-7: say UNO when the play leaves one card."""
    if len(hand) == 2 and not move.uno:
        return Move(move.kind, move.card, move.colour, True)
    return move
