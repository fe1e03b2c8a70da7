"""The Uno rules engine (rulings UNO-1 to UNO-12 of ``shared/rules/uno.md``).

    game = Uno.new(players=3, seed=7)
    events = game.play(game.must_act()[0], game.parse_move(game.must_act()[0], "draw"))

Design: cards are their notation strings (``r7``, ``wi+4``, see :mod:`games.uno.notation`);
hands, stock and discard are lists of them (the discard's top is its last card; the stock is
an unordered pile from which every draw takes a card at random, as good as shuffling). A
Wild's colour is chosen in the move that plays it (``wi:g``); only a Wild turned up as the
first card needs a separate ``choose`` move. A turn is a phase of the current seat:

- ``play``: play a matching card or ``draw`` (always allowed, UNO-4, unless the stock and
  the discard are both spent: then ``draw`` passes a player who has no matching card, UNO-8);
- ``drawn``: play the card just drawn or ``keep`` it (UNO-4); a drawn card that does not
  match ends the turn at once, with nothing to decide;
- ``choose``: the colour of a first-card Wild (UNO-3);
- ``challenge``: the victim of a Wild Draw Four answers ``challenge`` or ``accept`` (UNO-6).

A player who plays the second-to-last card without saying UNO (``r7`` instead of ``r7!``)
becomes ``catchable``: every opponent is an actor and may ``catch`` until the seat the game
waits for completes a move (UNO-7). Rounds follow each other until a score reaches the match
target (UNO-9); ``match_target=0`` plays one round. The start of the game (dealer draw, deal,
first card) is in :attr:`Uno.start_events` (not saved: a resumed game has shown them already);
later rounds' starts come with the move that ended the round before.

A position line (``game.position()``) names the seats' hands and the piles, e.g.
``uno rng=7+812 players=2 dealer=1 hands=r5,g7,wi;b1,b2 discard=g3,g9 stock=...``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, NamedTuple

from games import saved
from games.core import (
    BadState,
    Event,
    Game,
    Json,
    Reason,
    Seat,
    SeatSecret,
    census_of,
    data_problem,
    rng_state_to_json,
)
from games.position import (
    FLAG,
    INT,
    INTS,
    PER_SEAT_TEXTS,
    TEXT,
    TEXTS,
    Field,
    State,
    const,
    per_seat,
)
from games.uno import notation
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
    colour_of,
    value_of,
)

PHASE_PLAY, PHASE_DRAWN, PHASE_CHOOSE, PHASE_CHALLENGE, PHASE_OVER = (
    "play", "drawn", "choose", "challenge", "over")
NO_OTHER_PLAYABLE, NO_MATCHING_COLOUR = "no_other_playable", "no_matching_colour"
_VARIANTS = (NO_OTHER_PLAYABLE, NO_MATCHING_COLOUR)
_OPTIONS = ("wild_draw_four", "teams", "match_target")
_DRAW, _KEEP = Move(DRAW), Move(KEEP)


# ----------------------------------------------------------------------------- events

@dataclass(frozen=True, slots=True)
class DealerCard(Event):
    """UNO-2: ``seat`` drew ``card`` to choose the dealer (action cards count 0)."""

    seat: Seat
    card: str


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    dealer: Seat


@dataclass(frozen=True, slots=True)
class Drew(SeatSecret):
    """``seat`` took ``count`` cards (``why``: deal, draw, draw_two, draw_four, challenge,
    caught); only the drawer learns ``cards``."""

    seat: Seat
    count: int
    why: str
    cards: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class FirstCard(Event):
    """The card turned to start the discard; ``returned`` for a Wild Draw Four (UNO-3)."""

    card: str
    returned: bool = False


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """UNO-8: the discard except its top became the stock of ``count`` cards."""

    count: int


@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: Seat
    card: str
    colour: str
    uno: bool


@dataclass(frozen=True, slots=True)
class ColourChosen(Event):
    seat: Seat
    colour: str


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    seat: Seat


@dataclass(frozen=True, slots=True)
class Reversed(Event):
    direction: int


@dataclass(frozen=True, slots=True)
class Kept(Event):
    seat: Seat


@dataclass(frozen=True, slots=True)
class Caught(Event):
    """UNO-7: ``by`` caught ``seat`` who forgot to say UNO."""

    by: Seat
    seat: Seat


@dataclass(frozen=True, slots=True)
class Challenged(Event):
    """UNO-6: ``by`` challenged the Wild Draw Four of ``seat``; ``guilty`` if it was a bluff."""

    by: Seat
    seat: Seat
    guilty: bool


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """UNO-6: the challenged hand, seen by the challenger alone."""

    to: Seat
    seat: Seat
    cards: tuple[str, ...]

    def seen_by(self, seat: Seat) -> Event | None:
        return self if seat == self.to else None


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    """UNO-9: ``winner`` went out and scored ``points``; ``scores`` are the match totals."""

    winner: Seat
    points: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    winners: tuple[Seat, ...]


# ----------------------------------------------------------------------------- view

class UnoView(NamedTuple):
    """Everything one seat may know. ``turn`` is the seat the game waits for (``None`` when
    over);
    ``drawn`` the card this seat just drew and may still play; ``catchable`` the seat that
    forgot to say UNO (-1: none); ``shown_hand`` the hand of ``shown_by`` after this seat's
    last challenge this round; ``challenge_from`` the seat whose Wild Draw Four this seat may
    challenge and ``previous_colour`` the colour before it; ``deck`` the box's cards (public,
    what a player counts the cards not yet seen against). A named tuple because bots build
    one per move (a frozen dataclass costs several times more to create)."""

    seat: Seat
    players: int
    hand: tuple[str, ...]
    top: str
    colour: str
    direction: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_size: int
    scores: tuple[int, ...]
    turn: Seat | None
    phase: str
    drawn: str
    dealer: Seat
    catchable: Seat
    challenge_from: Seat
    previous_colour: str
    shown_by: Seat
    shown_hand: tuple[str, ...]
    colours: tuple[str, ...]
    teams: int
    round: int
    match_target: int
    wild_draw_four: str
    deck: tuple[str, ...]


# ----------------------------------------------------------------------------- engine

class Uno(Game[Move, UnoView]):
    """Uno for 2 to 6 players; options ``wild_draw_four`` (``"no_other_playable"``, the seed,
    or ``"no_matching_colour"``, Mattel), ``teams`` (0, or 2 for teams of two partners sitting
    alternately) and ``match_target`` (points to win the match; 0 for a single round; default
    from the data)."""

    name: ClassVar[str] = "uno"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6

    def __init__(self, players: int, data: Mapping[str, Any], wild_draw_four: str, teams: int,
                 match_target: int, rng: random.Random) -> None:
        self.players = players
        # the box data as canonical JSON: cheap to keep, to save and to key the tables cache
        self.data_json = _canonical_json(data)
        self.wild_draw_four = wild_draw_four
        self.teams = teams
        self.match_target = match_target
        tables = _tables(self.data_json)
        self.colours, self.hand_size, self.deck, self.points, self.play_moves = tables[:5]
        self.matching = tables.matching
        self.rng = rng
        self.round = 0
        self.dealer: Seat = 0
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.stock: list[str] = []
        self.discard: list[str] = []
        self.colour = ""
        self.direction = 1
        self.current: Seat = 0
        self.phase = PHASE_PLAY
        self.drawn = ""
        self.catchable: Seat = -1
        self.wd4_by: Seat = -1
        self.wd4_guilty = False
        self.wd4_hand: list[str] = []
        self.previous_colour = ""
        self.shown_to: Seat = -1
        self.shown_by: Seat = -1
        self.shown_hand: list[str] = []
        self.totals = [0] * players
        self.last_winner: Seat = -1
        self.start_events: list[Event] = []

    # -------------------------------------------------------------- creation and saving

    @property
    def data(self) -> dict[str, Any]:
        """The box data the game was created with (a fresh copy)."""
        loaded: dict[str, Any] = json.loads(self.data_json)
        return loaded

    @classmethod
    def _create(cls, players: int, seed: int, data: Mapping[str, Any], **options: Any) -> Uno:
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise data_problem("unknown_option", game="uno", option=unknown[0][:20])
        wd4 = options.get("wild_draw_four", NO_OTHER_PLAYABLE)
        if wd4 not in _VARIANTS:
            raise data_problem("option_value", option="wild_draw_four",
                               value=str(wd4)[:20])
        teams = options.get("teams", 0)
        if teams not in (0, 2) or type(teams) is not int:
            raise data_problem("option_value", option="teams", value=str(teams)[:20])
        if teams and (players % 2 or players < 4):
            raise data_problem("uno_teams_players", players=players)
        box = _checked_box(data)
        target = options.get("match_target", box.get("match_target", 500))
        if type(target) is not int or not 0 <= target <= MOST_TARGET:
            raise data_problem("option_value", option="match_target",
                               value=str(target)[:20])
        game = cls(players, box, wd4, teams, target, random.Random(seed))
        if not game._can_deal():
            raise data_problem("box_data", at="deck", why="too_few_cards")
        events: list[Event] = []
        game.dealer = game._draw_for_dealer(events)
        game._start_round(events)
        game.start_events = events
        return game

    def _can_deal(self) -> bool:
        """Whether a round can start: hands, then a first card that is not a +4 (UNO-3)."""
        return sum(card != WILD_DRAW_FOUR for card in self.deck) > self.hand_size * self.players

    def to_dict(self) -> dict[str, Json]:
        return {
            "game": self.name, "players": self.players, "data": self.data,
            "wild_draw_four": self.wild_draw_four, "teams": self.teams,
            "match_target": self.match_target, "rng": rng_state_to_json(self.rng),
            "round": self.round, "dealer": self.dealer,
            "hands": [list(hand) for hand in self.hands], "stock": list(self.stock),
            "discard": list(self.discard), "colour": self.colour,
            "direction": self.direction, "current": self.current, "phase": self.phase,
            "drawn": self.drawn, "catchable": self.catchable, "wd4_by": self.wd4_by,
            "wd4_guilty": self.wd4_guilty, "wd4_hand": list(self.wd4_hand),
            "previous_colour": self.previous_colour, "shown_to": self.shown_to,
            "shown_by": self.shown_by, "shown_hand": list(self.shown_hand),
            "totals": list(self.totals), "last_winner": self.last_winner,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Uno:
        return _read(data)

    def census(self) -> Counter[str]:
        return census_of(self.stock, self.discard, *self.hands)

    def box_cards(self) -> Counter[str]:
        return Counter(self.deck)

    # -------------------------------------------------------------- who acts, what is legal

    def team_of(self, seat: Seat) -> int:
        # Teams of two sit alternately (UNO-11): partners are half the table apart.
        return seat % (self.players // 2) if self.teams else seat

    def actors(self) -> list[Seat]:
        if self.phase == PHASE_OVER:
            return []
        seats = [self.current]
        if self.catchable >= 0:
            team = self.team_of(self.catchable)
            seats += [seat for seat in range(self.players)
                      if seat != self.current and self.team_of(seat) != team]
        return seats

    def must_act(self) -> list[Seat]:
        return [] if self.phase == PHASE_OVER else [self.current]

    def matches(self, card: str) -> bool:
        """UNO-4: same colour, same number or symbol, or any Wild."""
        return card in self.matching[self.colour, self.discard[-1]]

    def legal_moves(self, seat: Seat) -> list[Move]:
        if self.phase == PHASE_OVER or type(seat) is not int or not 0 <= seat < self.players:
            return []
        moves: list[Move] = []
        catchable = self.catchable
        if (catchable >= 0 and seat != catchable
                and self.team_of(seat) != self.team_of(catchable)):
            moves.append(Move(CATCH, target=catchable))
        if seat != self.current:
            return moves
        phase = self.phase
        if phase == PHASE_PLAY:
            hand = self.hands[seat]
            table = self.play_moves[len(hand) == 2]
            matching = self.matching[self.colour, self.discard[-1]]
            plays = [move for card in dict.fromkeys(hand) if card in matching
                     for move in table[card]]
            moves += plays
            # UNO-8: with nothing left to draw, "draw" only passes a player who cannot play
            if not plays or self.stock or len(self.discard) > 1:
                moves.append(_DRAW)
        elif phase == PHASE_DRAWN:
            if self.matches(self.drawn):
                moves += self.play_moves[len(self.hands[seat]) == 2][self.drawn]
            moves.append(_KEEP)
        elif phase == PHASE_CHOOSE:
            moves += [Move(CHOOSE, colour=colour) for colour in self.colours]
        else:
            moves += [Move(CHALLENGE), Move(ACCEPT)]
        return moves

    def check(self, seat: Seat, move: Move) -> Reason | None:
        if self.phase == PHASE_OVER:
            return Reason.of("game_over")
        if type(move) is not Move or move.kind not in notation.KINDS:
            return Reason.of("unknown_move", text=str(move)[:40])
        if (move.kind == PLAY and seat == self.current and self.phase == PHASE_PLAY
                and type(seat) is int):
            return self._check_play(seat, move)  # the common case first: self-play speed
        if type(seat) is not int or not 0 <= seat < self.players:
            return Reason.of("no_such_seat", seat=repr(seat)[:20])
        if not _well_formed(move):
            return Reason.of("unknown_move", text=str(move)[:40])
        if move.kind == CATCH:
            return self._check_catch(seat, move)
        if seat != self.current:
            return Reason.of("not_your_turn")
        phase, kind = self.phase, move.kind
        if phase == PHASE_CHOOSE:
            if kind != CHOOSE:
                return Reason.of("uno_choose_colour_first")
            return None if move.colour in self.colours else Reason.of(
                "uno_unknown_colour", colour=move.colour)
        if phase == PHASE_CHALLENGE:
            return None if kind in (CHALLENGE, ACCEPT) else Reason.of("uno_challenge_or_accept")
        if kind in (CHOOSE, CHALLENGE, ACCEPT):
            return Reason.of(f"uno_no_{kind}_now")
        if phase == PHASE_DRAWN:
            if kind == DRAW:
                return Reason.of("uno_play_drawn_or_keep", card=self.drawn)
            if kind == PLAY and move.card != self.drawn:
                return Reason.of("uno_only_drawn_card", card=self.drawn)
        elif kind == KEEP:
            return Reason.of("uno_nothing_drawn")
        elif kind == DRAW and not self._can_draw() and self._has_match(seat):
            return Reason.of("uno_nothing_to_draw")
        return self._check_play(seat, move) if kind == PLAY else None

    def _can_draw(self) -> bool:
        return bool(self.stock) or len(self.discard) > 1

    def _has_match(self, seat: Seat) -> bool:
        matching = self.matching[self.colour, self.discard[-1]]
        return any(card in matching for card in self.hands[seat])

    def _check_catch(self, seat: Seat, move: Move) -> Reason | None:
        if self.catchable < 0 or move.target != self.catchable:
            return Reason.of("uno_nothing_to_catch", seat=move.target)
        if seat == self.catchable or self.team_of(seat) == self.team_of(self.catchable):
            return Reason.of("uno_catch_opponents_only")
        return None

    def _check_play(self, seat: Seat, move: Move) -> Reason | None:
        card, hand = move.card, self.hands[seat]
        if card not in hand:
            return Reason.of("uno_card_not_in_hand", card=str(card)[:20])
        if move.uno.__class__ is not bool or move.colour.__class__ is not str:
            return Reason.of("unknown_move", text=str(move)[:40])
        if card not in self.matching[self.colour, self.discard[-1]]:
            return Reason.of("uno_card_does_not_match", card=card, top=self.discard[-1],
                             colour=self.colour)
        if card in WILDS:
            if move.colour not in self.colours:
                return Reason.of("uno_wild_needs_colour", card=card)
        elif move.colour:
            return Reason.of("uno_colour_only_for_wilds", card=card)
        if move.uno and len(hand) != 2:
            return Reason.of("uno_not_due")
        return None

    # -------------------------------------------------------------- applying moves

    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        events: list[Event] = []
        kind = move.kind
        if kind == CATCH:
            events.append(Caught(seat, move.target))
            self.catchable = -1
            # UNO-6: while a Wild Draw Four may be challenged the card under it stays, for a
            # guilty challenge puts it back on top
            self._draw(move.target, 2, "caught", events,
                       kept=2 if self.phase == PHASE_CHALLENGE else 1)
            return events
        self.catchable = -1  # UNO-7: the seat waited for acted, the catch window closes
        if kind == PLAY:
            self._play_card(seat, move, events)
        elif kind == DRAW:
            cards = self._draw(seat, 1, "draw", events)
            if cards and self.matches(cards[0]):
                self.phase, self.drawn = PHASE_DRAWN, cards[0]
            else:
                self._pass_turn(seat)  # UNO-4: nothing to play, the turn passes by itself
        elif kind == KEEP:
            events.append(Kept(seat))
            self._pass_turn(seat)
        elif kind == CHOOSE:
            self.colour = move.colour
            self.phase = PHASE_PLAY
            events.append(ColourChosen(seat, move.colour))
        elif kind == CHALLENGE:
            self._challenge(seat, events)
        else:
            self._draw(seat, 4, "draw_four", events)
            self._pass_turn(seat)
        return events

    def _next(self, seat: Seat, steps: int = 1) -> Seat:
        return (seat + self.direction * steps) % self.players

    def _pass_turn(self, seat: Seat) -> None:
        self.current, self.phase, self.drawn = self._next(seat), PHASE_PLAY, ""

    def _play_card(self, seat: Seat, move: Move, events: list[Event]) -> None:
        card, hand = move.card, self.hands[seat]
        if card == WILD_DRAW_FOUR:
            self.wd4_guilty = self._bluffing(hand)
            self.wd4_hand = list(hand)
            self.wd4_hand.remove(card)
            self.previous_colour = self.colour
        hand.remove(card)
        self.discard.append(card)
        self.colour = move.colour or card[0]
        self.drawn = ""
        self.phase = PHASE_PLAY
        events.append(Played(seat, card, self.colour, move.uno))
        value = card if card in WILDS else card[1:]
        if not hand:
            if value in (DRAW_TWO, WILD_DRAW_FOUR):
                why = "draw_two" if value == DRAW_TWO else "draw_four"
                self._draw(self._next(seat), 2 if value == DRAW_TWO else 4, why, events)
            self._end_round(seat, events)
            return
        if len(hand) == 1 and not move.uno:
            self.catchable = seat
        if value == SKIP:
            events.append(Skipped(self._next(seat)))
            self.current = self._next(seat, 2)
        elif value == REVERSE:
            self.direction = -self.direction
            events.append(Reversed(self.direction))
            # UNO-10: with two players a Reverse acts as a Skip
            self.current = seat if self.players == 2 else self._next(seat)
        elif value == DRAW_TWO:
            victim = self._next(seat)
            self._draw(victim, 2, "draw_two", events)
            events.append(Skipped(victim))
            self.current = self._next(seat, 2)
        elif value == WILD_DRAW_FOUR:
            self.current = self._next(seat)
            self.wd4_by = seat
            self.phase = PHASE_CHALLENGE
        else:
            self.current = self._next(seat)

    def _bluffing(self, hand: list[str]) -> bool:
        """UNO-5: would a Wild Draw Four from ``hand`` be illegal now?"""
        if self.wild_draw_four == NO_MATCHING_COLOUR:
            return any(card[0] == self.colour for card in hand if card not in WILDS)
        return any(self.matches(card) for card in hand if card != WILD_DRAW_FOUR)

    def _challenge(self, seat: Seat, events: list[Event]) -> None:
        offender, guilty = self.wd4_by, self.wd4_guilty
        events.append(Challenged(seat, offender, guilty))
        events.append(HandShown(seat, offender, tuple(self.wd4_hand)))
        self.shown_to, self.shown_by, self.shown_hand = seat, offender, list(self.wd4_hand)
        self.wd4_by = -1
        if guilty:
            self.hands[offender].append(self.discard.pop())
            self.colour = self.previous_colour
            self._draw(offender, 4, "challenge", events)
            self.phase = PHASE_PLAY
        else:
            self._draw(seat, 6, "challenge", events)
            self._pass_turn(seat)

    def _draw(self, seat: Seat, count: int, why: str, events: list[Event],
              kept: int = 1) -> list[str]:
        """Move up to ``count`` cards from the stock to ``seat`` (UNO-8 reshuffles all the
        discard but its ``kept`` top cards)."""
        cards: list[str] = []
        stock = self.stock
        for _ in range(count):
            if not stock:
                if len(self.discard) <= kept:
                    break  # UNO-8: nothing left to draw
                stock.extend(self.discard[:-kept])
                del self.discard[:-kept]
                events.append(Reshuffled(len(stock)))
            cards.append(_take(stock, self.rng))
        self.hands[seat].extend(cards)
        events.append(Drew(seat, len(cards), why, tuple(cards)))
        return cards

    # -------------------------------------------------------------- rounds

    def _draw_for_dealer(self, events: list[Event]) -> Seat:
        """UNO-2: highest number deals, action cards count 0, tied players draw again."""
        deck = list(self.deck)
        drawing = list(range(self.players))
        while True:
            values: dict[Seat, int] = {}
            for seat in drawing:
                if not deck:
                    deck = list(self.deck)
                card = _take(deck, self.rng)
                events.append(DealerCard(seat, card))
                value = value_of(card)
                values[seat] = int(value) if value.isdigit() else 0
            best = max(values.values())
            drawing = [seat for seat in drawing if values[seat] == best]
            if len(drawing) == 1:
                return drawing[0]

    def _start_round(self, events: list[Event]) -> None:
        self.round += 1
        events.append(RoundStarted(self.round, self.dealer))
        stock = list(self.deck)
        self.stock = stock
        self.hands = [[] for _ in range(self.players)]
        for seat in (self._next_left(self.dealer, i) for i in range(1, self.players + 1)):
            cards = [_take(stock, self.rng) for _ in range(self.hand_size)]
            self.hands[seat] = cards
            events.append(Drew(seat, len(cards), "deal", tuple(cards)))
        self.direction, self.catchable, self.drawn, self.wd4_by = 1, -1, "", -1
        self.shown_to, self.shown_by, self.shown_hand = -1, -1, []
        top = _take(stock, self.rng)
        while top == WILD_DRAW_FOUR:  # UNO-3: a first +4 goes back and another card is turned
            events.append(FirstCard(top, returned=True))
            stock.append(top)
            top = _take(stock, self.rng)
        self.discard = [top]
        events.append(FirstCard(top))
        self._first_card(top, events)

    def _next_left(self, seat: Seat, steps: int) -> Seat:
        return (seat + steps) % self.players

    def _first_card(self, top: str, events: list[Event]) -> None:
        """UNO-3: the conventions of the first card of the discard."""
        left = self._next_left(self.dealer, 1)
        self.colour, self.phase = colour_of(top), PHASE_PLAY
        value = value_of(top)
        if value == DRAW_TWO:
            self._draw(left, 2, "draw_two", events)
            events.append(Skipped(left))
            self.current = self._next_left(self.dealer, 2)
        elif value == REVERSE:
            self.direction = -1
            events.append(Reversed(-1))
            self.current = self.dealer
        elif value == SKIP:
            events.append(Skipped(left))
            self.current = self._next_left(self.dealer, 2)
        elif top in WILDS:
            self.current, self.phase = left, PHASE_CHOOSE
        else:
            self.current = left

    def round_points(self, winner: Seat) -> int:
        """UNO-9/UNO-11: the cards left in the hands of the winner's opponents."""
        team = self.team_of(winner)
        points = self.points
        return sum(points[card] for seat, hand in enumerate(self.hands)
                   if self.team_of(seat) != team for card in hand)

    def _end_round(self, winner: Seat, events: list[Event]) -> None:
        points = self.round_points(winner)
        team = self.team_of(winner)
        for seat in range(self.players):
            if self.team_of(seat) == team:
                self.totals[seat] += points
        self.last_winner = winner
        events.append(RoundOver(winner, points, tuple(self.totals)))
        if self.match_target == 0 or self.totals[winner] >= self.match_target:
            self.phase = PHASE_OVER
            self.current = -1
            events.append(MatchOver(tuple(self.winners())))
            return
        self.dealer = self._next_left(self.dealer, 1)
        self._start_round(events)

    # -------------------------------------------------------------- what seats see

    def view(self, seat: Seat) -> UnoView:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise self.no_such_seat(seat)
        own_turn = seat == self.current
        challenge = self.phase == PHASE_CHALLENGE
        shown = self.shown_to == seat
        # positional: a named tuple is several times faster to build without keywords
        return UnoView(
            seat, self.players, tuple(self.hands[seat]), self.discard[-1], self.colour,
            self.direction, tuple(map(len, self.hands)), len(self.stock), len(self.discard),
            tuple(self.totals), None if self.current < 0 else self.current, self.phase,
            self.drawn if own_turn else "", self.dealer, self.catchable,
            self.wd4_by if own_turn and challenge else -1,
            self.previous_colour if challenge else "", self.shown_by if shown else -1,
            tuple(self.shown_hand) if shown else (), self.colours, self.teams, self.round,
            self.match_target, self.wild_draw_four, self.deck)

    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    def scores(self) -> list[int]:
        return list(self.totals)

    def winners(self) -> list[Seat]:
        """The seat (and its partner in teams) that went out last, once the match is over."""
        if self.phase != PHASE_OVER:
            return []
        team = self.team_of(self.last_winner)
        return [seat for seat in range(self.players) if self.team_of(seat) == team]

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def parse_move(self, seat: Seat, text: str) -> Move:
        return notation.parse_move(text, self.colours)

    def parse_card(self, text: str) -> str:
        return notation.parse_card(text, self.colours)


_KNOWN_DATA: list[tuple[dict[str, Any], str]] = []


def _canonical_json(data: object) -> str:
    """``data`` as sorted JSON, remembered for the few data sets a program uses: comparing a
    known dict is ten times cheaper than encoding it, and self-play creates many games. Data
    met for the first time is checked (:class:`BadState` at ``data.*``)."""
    for known, text in _KNOWN_DATA:
        if known == data:
            return text
    text = json.dumps(_BOX(data, "data"), sort_keys=True)
    _KNOWN_DATA[:] = [*_KNOWN_DATA[-7:], (json.loads(text), text)]
    return text


def _checked_box(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The box data checked for a new game: damage is a :class:`DataProblem`."""
    try:
        _canonical_json(data)  # equal to data already checked, or checked now
    except BadState as damaged:
        raise saved.box_problem(damaged) from None
    return data


_VALUES = (*notation.NUMBERS, SKIP, REVERSE, DRAW_TWO)


def _points_table(read: saved.Read) -> saved.Kind:
    """UNO-9: a score for every value the box holds (numbers may count at face value)."""
    copies = {**read["deck"], **read["wilds"]}

    def points(value: object, at: str) -> saved.Read:
        table = saved.need_dict(value, at)
        face = table.get("number") == "face"
        return saved.Record({value: saved.Int(0, 1000) for value, count in copies.items()
                             if count and not (face and value.isdigit())})(table, at)

    return points


def _dealer_values(box: saved.Read, at: str) -> None:
    """UNO-2: the draw for dealer needs two different values, or ties would go on for ever."""
    values = {int(value) if value.isdigit() else 0
              for value, count in {**box["deck"], **box["wilds"]}.items() if count}
    saved.ensure(len(values) >= 2, "data.deck", "one_value_only")


_COLOUR_LETTERS = tuple("abcdefghijklmnopqrstuvxyz")  # one letter each; "w" starts the Wilds
_PHASES = (PHASE_PLAY, PHASE_DRAWN, PHASE_CHOOSE, PHASE_CHALLENGE, PHASE_OVER)
MOST_TARGET = 10**6
MOST_ROUNDS = 10**5

# UNO-1, UNO-9: the box's colours, hand size, deck and points
_BOX = saved.BoxData(saved.Record({
    "colours": saved.ListOf(saved.Text(_COLOUR_LETTERS), 8, least=1, distinct=True),
    "hand_size": saved.Int(1, 30), "match_target": saved.IfGiven(saved.Int(0, MOST_TARGET)),
    "deck": saved.MapOf(saved.Text(_VALUES), saved.Int(0, 20)),
    "wilds": saved.MapOf(saved.Text(WILDS), saved.Int(0, 20)),
    "points": saved.Depends(_points_table),
}, checks=[_dealer_values]))


def _well_formed(move: Move) -> bool:
    return (type(move.card) is str and type(move.colour) is str and type(move.uno) is bool
            and type(move.target) is int)


def _box_copy(value: object, at: str) -> dict[str, Any]:
    """A save's box data, checked (once per data set) and copied."""
    copied: dict[str, Any] = json.loads(_canonical_json(value))
    return copied


def _teams_fit(head: saved.Read, at: str) -> None:
    """UNO-11: teams of two partners, at a table of four or six."""
    teams = head["teams"]
    saved.ensure(teams != 1 and (not teams or head["players"] in (4, 6)), "teams",
                 "wrong_players")


_HEAD = saved.Record({
    "game": saved.Text(("uno",)), "players": saved.Int(Uno.min_players, Uno.max_players),
    "data": _box_copy, "wild_draw_four": saved.Text(_VARIANTS), "teams": saved.Int(0, 2),
    "match_target": saved.Int(0, MOST_TARGET), "rng": saved.RNG,
}, checks=[_teams_fit])


def _body(game: Uno) -> saved.Record:
    """The fields of a saved state that :meth:`Uno.__init__` does not take, named as the
    engine's attributes."""
    players, deck = game.players, set(game.deck)
    seat, cards, colour = (saved.Seat(players, -1), saved.Cards(deck, len(game.deck)),
                           saved.Text(("", *game.colours)))
    return saved.Record({
        "round": saved.Int(1, MOST_ROUNDS), "dealer": saved.Seat(players),
        "hands": saved.one_per_seat(players, cards), "stock": cards, "discard": cards,
        "phase": saved.Text(_PHASES), "current": seat, "colour": colour,
        "direction": saved.Int(-1, 1), "drawn": saved.Text({"", *deck}), "catchable": seat,
        "wd4_by": seat, "wd4_guilty": saved.FLAG, "wd4_hand": cards, "previous_colour": colour,
        "shown_to": seat, "shown_by": seat, "shown_hand": cards,
        "totals": saved.one_per_seat(players, saved.Int(0, saved.MOST_POINTS)),
        "last_winner": seat,
    })


def _read(data: object) -> Uno:
    """The game of a saved state, every field checked (see :meth:`Uno.from_dict`)."""
    head = _HEAD(data, "")
    game = Uno(head["players"], head["data"], head["wild_draw_four"], head["teams"],
               head["match_target"], head["rng"])
    saved.ensure(game._can_deal(), "data.deck", "too_few_cards")
    vars(game).update(_body(game)(data, ""))
    saved.ensure(bool(game.discard), "discard", "empty")
    saved.same_cards(game.census(), game.box_cards())
    phase, top = game.phase, game.discard[-1]
    over = phase == PHASE_OVER
    saved.ensure((game.current == -1) == over, "current", "wrong_for_phase")
    saved.ensure((game.colour == "") == (phase == PHASE_CHOOSE), "colour", "wrong_for_phase")
    saved.ensure(phase != PHASE_CHOOSE or top in WILDS, "phase", "wrong_for_top")
    saved.ensure(game.direction != 0, "direction", "out_of_range")
    saved.ensure((game.drawn != "") == (phase == PHASE_DRAWN), "drawn", "wrong_for_phase")
    saved.ensure(not game.drawn or game.drawn in game.hands[game.current], "drawn", "not_in_hand")
    saved.ensure(game.catchable == -1 or (not over and len(game.hands[game.catchable]) == 1),
                 "catchable", "wrong_for_hand")
    if phase == PHASE_CHALLENGE:
        saved.ensure(top == WILD_DRAW_FOUR and len(game.discard) >= 2, "discard",
                     "wrong_for_phase")
        saved.ensure(game.wd4_by not in (-1, game.current), "wd4_by", "wrong_for_phase")
        saved.ensure(game.previous_colour != "", "previous_colour", "wrong_for_phase")
    saved.ensure(not over or game.last_winner >= 0, "last_winner", "wrong_for_phase")
    return game


def _rest_of_box(state: State) -> list[str]:
    """The position's default stock: the box's cards not in a hand or the discard."""
    rest = Counter(_tables(_canonical_json(state["data"])).deck)
    rest.subtract(card for hand in state["hands"] for card in hand)
    rest.subtract(state["discard"])
    return [card for card in dict.fromkeys(_tables(_canonical_json(state["data"])).deck)
            for _ in range(max(rest[card], 0))]


def _top_colour(state: State) -> str:
    return colour_of(state["discard"][-1])


Uno.POSITION = (
    Field("players", INT), Field("wild_draw_four", TEXT, const(NO_OTHER_PLAYABLE)),
    Field("teams", INT, const(0)),
    Field("match_target", INT, lambda state: state["data"].get("match_target", 500)),
    Field("round", INT, const(1)), Field("dealer", INT, const(0)),
    Field("current", INT, const(0)), Field("direction", INT, const(1)),
    Field("phase", TEXT, const(PHASE_PLAY)), Field("hands", PER_SEAT_TEXTS),
    Field("discard", TEXTS), Field("colour", TEXT, _top_colour), Field("drawn", TEXT, const("")),
    Field("catchable", INT, const(-1)), Field("wd4_by", INT, const(-1)),
    Field("wd4_guilty", FLAG, const(False)), Field("wd4_hand", TEXTS, const([])),
    Field("previous_colour", TEXT, const("")), Field("shown_to", INT, const(-1)),
    Field("shown_by", INT, const(-1)), Field("shown_hand", TEXTS, const([])),
    Field("totals", INTS, per_seat(0)), Field("last_winner", INT, const(-1)),
    Field("stock", TEXTS, _rest_of_box),
)


def _take(pile: list[str], rng: random.Random) -> str:
    """Take a uniformly random card out of ``pile``. The stock is kept unordered and every
    draw is random, which is the same as drawing the top of a shuffled stock, without the
    cost of shuffling (a game would shuffle 108 cards for every round and every reshuffle)."""
    index = int(rng.random() * len(pile))
    card = pile[index]
    pile[index] = pile[-1]
    pile.pop()
    return card


PlayMoves = tuple[dict[str, list[Move]], dict[str, list[Move]]]


class Tables(NamedTuple):
    colours: tuple[str, ...]
    hand_size: int
    deck: tuple[str, ...]
    points: dict[str, int]
    play_moves: PlayMoves  # per card, the moves playing it: [0] plain, [1] also saying UNO
    matching: dict[tuple[str, str], frozenset[str]]  # (colour, top card) -> cards that match


@cache
def _tables(data_json: str) -> Tables:
    """What the engine derives from the box data, computed once per data set: games are
    created by the thousand in self-play."""
    data = json.loads(data_json)
    deck = _deck(data)
    colours = data["colours"]
    plain: dict[str, list[Move]] = {}
    last_but_one: dict[str, list[Move]] = {}
    for card in dict.fromkeys(deck):
        choices = colours if card in WILDS else [""]
        plain[card] = [Move(PLAY, card, colour) for colour in choices]
        last_but_one[card] = [Move(PLAY, card, colour, uno) for colour in choices
                              for uno in (False, True)]
    cards = list(plain)
    matching = {(colour, top): frozenset(
        card for card in cards
        if card in WILDS or card[0] == colour or (top not in WILDS and card[1:] == top[1:]))
        for colour in ["", *colours] for top in cards}
    return Tables(tuple(colours), int(data["hand_size"]), deck, _points(data, deck),
                  (plain, last_but_one), matching)


def _deck(data: Mapping[str, Any]) -> tuple[str, ...]:
    """UNO-1: every card of the box, in a fixed order."""
    cards = [colour + value for colour in data["colours"]
             for value, copies in data["deck"].items() for _ in range(int(copies))]
    cards += [wild for wild, copies in data["wilds"].items() for _ in range(int(copies))]
    return tuple(cards)


def _points(data: Mapping[str, Any], deck: tuple[str, ...]) -> dict[str, int]:
    """UNO-9: what each card scores to the winner (numbers at face value by default)."""
    table = data["points"]
    points: dict[str, int] = {}
    for card in deck:
        value = value_of(card)
        if value.isdigit() and table.get("number") == "face":
            points[card] = int(value)
        else:
            points[card] = int(table[value])
    return points
