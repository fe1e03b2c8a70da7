"""The Elements rules engine (rulings ELE-1 to ELE-8 of ``shared/rules/elements.md``).

A hand has three phases: ``place`` (each player in turn puts a card face down before a free
element card; the reveal sets the colour order and the point cards), ``bid`` (point cards
are won one at a time, from the lowest, by laying cards 1 / 1 / 2 or passing) and ``keep``
(each player keeps some cards, the others go to the stock, everyone draws back to 11). Each
player is first player for one hand; then the game is over.

Moves, in text: ``place r7@Eb``, ``lay r7``, ``lay r7 b7``, ``pass``, ``keep r7 b3`` (``keep``
alone keeps nothing).

    game = Elements.new(players=3, seed=1, data=rules_data("elements"))
    game.play(0, game.parse_move(0, "place r7@Eb"))
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar

from games.core import (
    Event,
    Game,
    Json,
    NotationError,
    Reason,
    Seat,
    SeatSecret,
    rng_from_json,
    rng_state_to_json,
)
from games.elements.cards import (
    ELEMENT_PREFIX,
    BidKey,
    Card,
    ComboKey,
    bid_key,
    combination_key,
    element_label,
)

PLACE, BID, KEEP, OVER = "place", "bid", "keep", "over"


# ---- moves -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Place:
    """Phase 1: put ``card`` face down before the element card of colour ``element``."""

    card: Card
    element: str


@dataclass(frozen=True)
class Lay:
    """Phase 2: lay ``cards`` face up (1 card in rounds 1 and 2, 2 cards in round 3)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Pass:
    """Phase 2: stop bidding for this point card (cards already laid still compete)."""


@dataclass(frozen=True)
class Keep:
    """Phase 3: keep ``cards`` of the hand; the others go to the stock."""

    cards: tuple[Card, ...]


Move = Place | Lay | Pass | Keep


# ---- events ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Placed(SeatSecret):
    """A card put face down before an element card; other seats see ``card=None``."""

    seat: Seat
    element: str
    card: Card | None

    hidden: ClassVar[Mapping[str, Any]] = {"card": None}


@dataclass(frozen=True)
class Revealed(Event):
    """The reveal (ELE-3): the placed cards, the colour order (strongest first) and the point
    cards in the new row, left to right."""

    placements: tuple[tuple[str, Seat, Card], ...]
    order: tuple[str, ...]
    point_cards: tuple[Card, ...]


@dataclass(frozen=True)
class ToStock(Event):
    """A point card goes to the stock unwon: a zero (ELE-4) or nobody laid (ELE-5)."""

    card: Card
    why: str


@dataclass(frozen=True)
class Bidding(Event):
    """Bidding opens for ``card``; ``seat`` starts."""

    card: Card
    seat: Seat


@dataclass(frozen=True)
class Laid(Event):
    seat: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Passed(Event):
    seat: Seat


@dataclass(frozen=True)
class Won(Event):
    """``seat`` wins the point card ``card`` with the combination ``key`` of ``cards``."""

    seat: Seat
    card: Card
    cards: tuple[Card, ...]
    key: ComboKey


@dataclass(frozen=True)
class HandScored(Event):
    """The end of a hand: the points of the hand per seat and the totals (ELE-7)."""

    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class Kept(SeatSecret):
    """What a seat kept; other seats learn only how many (``cards=None``)."""

    seat: Seat
    count: int
    cards: tuple[Card, ...] | None

    hidden: ClassVar[Mapping[str, Any]] = {"cards": None}


@dataclass(frozen=True)
class Drew(SeatSecret):
    """Cards drawn back to the hand size; other seats learn only how many."""

    seat: Seat
    count: int
    cards: tuple[Card, ...] | None

    hidden: ClassVar[Mapping[str, Any]] = {"cards": None}


@dataclass(frozen=True)
class NewHand(Event):
    number: int
    first: Seat


@dataclass(frozen=True)
class GameOver(Event):
    winners: tuple[Seat, ...]
    totals: tuple[int, ...]


# ---- the view ------------------------------------------------------------------------------

@dataclass(frozen=True)
class ElementsView:
    """Everything one seat may know (never another seat's hand, nor a face-down card before
    the reveal, nor the stock)."""

    seat: Seat
    players: int
    phase: str
    colours: tuple[str, ...]          # the box's colours (notation order)
    rounds: tuple[int, ...]           # cards laid per bidding round (1, 1, 2)
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    row: tuple[str, ...]              # element cards, left (next to the box) to right
    placements: tuple[tuple[str, Seat, Card | None], ...]  # element, seat, card if known
    order: tuple[str, ...]            # colour order, strongest first ("" before the reveal)
    point_cards: tuple[Card, ...]     # still to win, left to right; the current one is last
    current: Card | None              # the point card being bid for
    laid: tuple[tuple[Card, ...], ...]
    laid_order: tuple[Seat, ...]      # seats in the order they first laid (ELE-6 last tie)
    passed: tuple[bool, ...]
    turn: Seat | None                 # whose move it is (None when over)
    need: int                         # cards this seat must lay now (0: cannot lay)
    won: tuple[tuple[Card, ...], ...]  # point cards won this hand
    totals: tuple[int, ...]           # points of the finished hands
    hand_number: int                  # 0-based
    hands: int                        # hands in the game (one per player)
    first: Seat

    def combination(self, seat: Seat) -> ComboKey | None:
        """The combination ``seat`` has laid for the current point card, if any."""
        if not self.laid[seat] or not self.order:
            return None
        return combination_key(self.laid[seat], self.order)


# ---- the game ------------------------------------------------------------------------------

class Elements(Game[Move, ElementsView]):
    """Elements for 3 to 5 players; ``data`` is ``layouts/elements/rules.toml``.

    Options: ``first_player`` (ELE-2, seat 0 by default).
    """

    name: ClassVar[str] = "elements"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5

    def __init__(self, players: int, data: Mapping[str, Any], rng: random.Random) -> None:
        self.players = players
        self.data = dict(data)
        self.rng = rng
        self.colours: tuple[str, ...] = tuple(data["colours"])
        self.values = range(int(data["min_value"]), int(data["max_value"]) + 1)
        self.hand_size = int(data["hand_size"])
        self.rounds: tuple[int, ...] = tuple(int(n) for n in data["rounds"])
        self.phase = PLACE
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = []
        self.row: list[str] = list(self.colours)
        self.placements: dict[str, tuple[Seat, Card]] = {}
        self.order: tuple[str, ...] = ()
        self.point_cards: list[Card] = []
        self.laid: list[list[Card]] = [[] for _ in range(players)]
        self.laid_rank: list[int | None] = [None] * players
        self.passed: list[bool] = [False] * players
        self.turn: Seat = 0
        self.starter: Seat = 0
        self.won: list[list[Card]] = [[] for _ in range(players)]
        self.totals: list[int] = [0] * players
        self.hand_number = 0
        self.first: Seat = 0
        self.kept: list[bool] = [False] * players

    # -- creation and saving ----------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int, data: Mapping[str, Any],
            **options: Any) -> Elements:
        if not cls.min_players <= players <= cls.max_players:
            raise ValueError(f"elements is for 3 to 5 players, not {players}")
        first = int(options.pop("first_player", 0))
        if options:
            raise ValueError(f"unknown elements options: {', '.join(sorted(options))}")
        if not 0 <= first < players:
            raise ValueError(f"first_player must be a seat from 0 to {players - 1}")
        game = cls(players, data, random.Random(seed))
        if sum(game.rounds) > 4 or min(game.rounds) < 1:
            raise ValueError("rounds must lay at least one card each and at most 4 in all")
        if game.hand_size * players > len(game.deck()):
            raise ValueError("the deck is too small to deal every player a hand")
        # ELE-2: the element cards lie in a row in no particular order
        game.rng.shuffle(game.row)
        game.stock = game.deck()
        game.rng.shuffle(game.stock)
        for seat in range(players):
            game.hands[seat] = sorted(game._take(game.hand_size), key=game.sort_key)
        game.first = game.turn = game.starter = first
        return game

    def deck(self) -> list[Card]:
        """The 55 number cards of ELE-1 (per the box data), in notation order."""
        return [Card(colour, value) for colour in self.colours for value in self.values]

    def sort_key(self, card: Card) -> tuple[int, int]:
        return self.colours.index(card.colour), card.value

    def _take(self, count: int) -> list[Card]:
        taken, self.stock = self.stock[:count], self.stock[count:]
        return taken

    def to_dict(self) -> dict[str, Json]:
        cards = _cards_json
        return {
            "game": self.name,
            "players": self.players,
            "data": _plain(self.data),
            "rng": rng_state_to_json(self.rng),
            "phase": self.phase,
            "hands": [cards(hand) for hand in self.hands],
            "stock": cards(self.stock),
            "row": list(self.row),
            "placements": [[element, seat, str(card)]
                           for element, (seat, card) in self.placements.items()],
            "order": list(self.order),
            "point_cards": cards(self.point_cards),
            "laid": [cards(laid) for laid in self.laid],
            "laid_rank": list(self.laid_rank),
            "passed": list(self.passed),
            "turn": self.turn,
            "starter": self.starter,
            "won": [cards(won) for won in self.won],
            "totals": list(self.totals),
            "hand_number": self.hand_number,
            "first": self.first,
            "kept": list(self.kept),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Elements:
        game = cls(int(data["players"]), data["data"], rng_from_json(data["rng"]))
        read = game.read_cards
        game.phase = str(data["phase"])
        game.hands = [read(hand) for hand in data["hands"]]
        game.stock = read(data["stock"])
        game.row = list(data["row"])
        game.placements = {element: (int(seat), game.read_card(card))
                           for element, seat, card in data["placements"]}
        game.order = tuple(data["order"])
        game.point_cards = read(data["point_cards"])
        game.laid = [read(laid) for laid in data["laid"]]
        game.laid_rank = [None if rank is None else int(rank) for rank in data["laid_rank"]]
        game.passed = [bool(flag) for flag in data["passed"]]
        game.turn = int(data["turn"])
        game.starter = int(data["starter"])
        game.won = [read(won) for won in data["won"]]
        game.totals = [int(points) for points in data["totals"]]
        game.hand_number = int(data["hand_number"])
        game.first = int(data["first"])
        game.kept = [bool(flag) for flag in data["kept"]]
        return game

    # -- notation ---------------------------------------------------------------------------

    def read_card(self, text: str) -> Card:
        """``read_card("r7") == Card("r", 7)``; raises :class:`NotationError`."""
        text = text.strip()
        colour, digits = text[:1], text[1:]
        if colour not in self.colours or not digits.isdigit() or int(digits) not in self.values:
            raise NotationError(Reason.of("not_a_card", text=text))
        return Card(colour, int(digits))

    def read_cards(self, texts: Sequence[str]) -> list[Card]:
        return [self.read_card(text) for text in texts]

    def format_move(self, move: Move) -> str:
        if isinstance(move, Place):
            return f"place {move.card}@{element_label(move.element)}"
        if isinstance(move, Lay):
            return " ".join(["lay", *map(str, move.cards)])
        if isinstance(move, Keep):
            return " ".join(["keep", *map(str, move.cards)])
        return "pass"

    def parse_move(self, seat: Seat, text: str) -> Move:
        words = text.split()
        if not words:
            raise NotationError(Reason.of("unknown_move", text=text))
        verb, rest = words[0].lower(), words[1:]
        if verb == "pass" and not rest:
            return Pass()
        if verb == "place" and len(rest) == 1 and "@" in rest[0]:
            card, element = rest[0].split("@", 1)
            colour = element[len(ELEMENT_PREFIX):]
            if not element.startswith(ELEMENT_PREFIX) or colour not in self.colours:
                raise NotationError(Reason.of("not_an_element", text=element))
            return Place(self.read_card(card), colour)
        if verb == "lay" and rest:
            return Lay(tuple(sorted(self.read_cards(rest), key=self.sort_key)))
        if verb == "keep":
            return Keep(tuple(sorted(self.read_cards(rest), key=self.sort_key)))
        raise NotationError(Reason.of("unknown_move", text=text))

    # -- whose move -------------------------------------------------------------------------

    def actors(self) -> list[Seat]:
        return [] if self.phase == OVER else [self.turn]

    def is_over(self) -> bool:
        return self.phase == OVER

    def need(self, seat: Seat) -> int:
        """Cards ``seat`` must lay in its next bidding turn (ELE-5); 0 once it laid them all."""
        laid = len(self.laid[seat])
        total = 0
        for count in self.rounds:
            if laid == total:
                return count
            total += count
        return 0

    # -- legality ---------------------------------------------------------------------------

    def legal_moves(self, seat: Seat) -> list[Move]:
        if seat not in self.actors():
            return []
        hand = self.hands[seat]
        if self.phase == PLACE:
            free = [element for element in self.row if element not in self.placements]
            return [Place(card, element) for card in hand for element in free]
        if self.phase == BID:
            need = self.need(seat)
            moves: list[Move] = []
            if len(hand) >= need:
                moves = [Lay(group) for group in combinations(hand, need)]
            return [*moves, Pass()]
        return [Keep(group) for size in range(len(hand) + 1)
                for group in combinations(hand, size)]

    def check(self, seat: Seat, move: Move) -> Reason | None:
        if self.phase == OVER:
            return Reason.of("game_over")
        if not 0 <= seat < self.players or seat != self.turn:
            return Reason.of("not_your_turn")
        hand = self.hands[seat]
        if isinstance(move, Place):
            if self.phase != PLACE:
                return Reason.of("not_now", move="place")
            if move.card not in hand:
                return Reason.of("card_not_in_hand", card=str(move.card))
            if move.element not in self.row:
                return Reason.of("not_an_element", text=element_label(move.element))
            if move.element in self.placements:
                return Reason.of("element_taken", element=element_label(move.element))
            return None
        if isinstance(move, Pass):
            return None if self.phase == BID else Reason.of("not_now", move="pass")
        if isinstance(move, Lay):
            if self.phase != BID:
                return Reason.of("not_now", move="lay")
            need = self.need(seat)
            if len(hand) < need:
                return Reason.of("must_pass", need=need)
            if len(move.cards) != need:
                return Reason.of("lay_count", need=need)
            return self._cards_reason(hand, move.cards)
        if isinstance(move, Keep):
            if self.phase != KEEP:
                return Reason.of("not_now", move="keep")
            return self._cards_reason(hand, move.cards)
        return Reason.of("unknown_move", text=repr(move))

    @staticmethod
    def _cards_reason(hand: Sequence[Card], cards: Sequence[Card]) -> Reason | None:
        for card in cards:
            if card not in hand:
                return Reason.of("card_not_in_hand", card=str(card))
        if len(set(cards)) != len(cards):
            return Reason.of("card_twice")
        return None

    # -- applying moves -----------------------------------------------------------------------

    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        if isinstance(move, Place):
            return self._place(seat, move)
        if isinstance(move, Lay):
            self._remove(seat, move.cards)
            if not self.laid[seat]:
                self.laid_rank[seat] = sum(rank is not None for rank in self.laid_rank)
            self.laid[seat].extend(move.cards)
            return [Laid(seat, move.cards), *self._next_bidder(seat)]
        if isinstance(move, Pass):
            self.passed[seat] = True
            return [Passed(seat), *self._next_bidder(seat)]
        assert isinstance(move, Keep)
        return self._keep(seat, move)

    def _remove(self, seat: Seat, cards: Sequence[Card]) -> None:
        for card in cards:
            self.hands[seat].remove(card)

    def _place(self, seat: Seat, move: Place) -> list[Event]:
        self._remove(seat, [move.card])
        self.placements[move.element] = (seat, move.card)
        events: list[Event] = [Placed(seat, move.element, move.card)]
        if len(self.placements) < self.players:
            self.turn = (seat + 1) % self.players
            return events
        return events + self._reveal()

    def _reveal(self) -> list[Event]:
        """ELE-3: pairs by decreasing number, ties keep their row order, unpaired elements
        after them in row order; then ELE-4: zeros to the stock, bid from the lowest."""
        placements = tuple((element, *self.placements[element])
                           for element in self.row if element in self.placements)
        paired = sorted((element for element in self.row if element in self.placements),
                        key=lambda element: -self.placements[element][1].value)
        unpaired = [element for element in self.row if element not in self.placements]
        self.row = paired + unpaired
        self.order = tuple(self.row)
        point_cards = [self.placements[element][1] for element in paired]
        self.placements = {}
        events: list[Event] = [Revealed(placements, self.order, tuple(point_cards))]
        self.point_cards = []
        for card in point_cards:
            if card.value == 0:
                self.stock.append(card)
                events.append(ToStock(card, "zero"))
            else:
                self.point_cards.append(card)
        self.phase = BID
        self.starter = self.first
        return events + self._open_bidding()

    def _open_bidding(self) -> list[Event]:
        if not self.point_cards:
            return self._end_hand()
        self.laid = [[] for _ in range(self.players)]
        self.laid_rank = [None] * self.players
        self.passed = [False] * self.players
        self.turn = self.starter
        return [Bidding(self.point_cards[-1], self.starter)]

    def _still_bidding(self, seat: Seat) -> bool:
        return not self.passed[seat] and self.need(seat) > 0

    def _next_bidder(self, seat: Seat) -> list[Event]:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self._still_bidding(candidate):
                self.turn = candidate
                return []
        return self._resolve()

    def bid_keys(self) -> dict[Seat, BidKey]:
        """The ELE-6 bid key of every seat that laid cards for the current point card."""
        return {seat: bid_key(combination_key(self.laid[seat], self.order), rank)
                for seat, rank in enumerate(self.laid_rank) if rank is not None}

    def _resolve(self) -> list[Event]:
        card = self.point_cards.pop()
        keys = self.bid_keys()
        events: list[Event] = []
        if keys:
            winner = max(keys, key=lambda seat: keys[seat])
            self.won[winner].append(card)
            events.append(Won(winner, card, tuple(self.laid[winner]), keys[winner][0]))
            self.starter = winner
        else:
            self.stock.append(card)
            events.append(ToStock(card, "nobody_laid"))
        for laid in self.laid:
            self.stock.extend(laid)
        return events + self._open_bidding()

    def _end_hand(self) -> list[Event]:
        """ELE-7: note the points, point cards back to the stock, then keep or end (ELE-8)."""
        points = [sum(card.value for card in won) for won in self.won]
        self.totals = [total + gained for total, gained in zip(self.totals, points, strict=True)]
        for won in self.won:
            self.stock.extend(won)
        self.won = [[] for _ in range(self.players)]
        self.laid = [[] for _ in range(self.players)]
        self.laid_rank = [None] * self.players
        self.passed = [False] * self.players
        events: list[Event] = [HandScored(tuple(points), tuple(self.totals))]
        if self.hand_number + 1 >= self.players:
            self.phase = OVER
            return [*events, GameOver(tuple(self.winners()), tuple(self.totals))]
        self.phase = KEEP
        self.kept = [not hand for hand in self.hands]
        return events + self._next_keeper(self.first - 1)

    def _next_keeper(self, seat: Seat) -> list[Event]:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if not self.kept[candidate]:
                self.turn = candidate
                return []
        return self._new_hand()

    def _keep(self, seat: Seat, move: Keep) -> list[Event]:
        for card in list(self.hands[seat]):
            if card not in move.cards:
                self.hands[seat].remove(card)
                self.stock.append(card)
        self.kept[seat] = True
        return [Kept(seat, len(move.cards), move.cards), *self._next_keeper(seat)]

    def _new_hand(self) -> list[Event]:
        self.hand_number += 1
        self.first = (self.first + 1) % self.players
        self.rng.shuffle(self.stock)
        events: list[Event] = [NewHand(self.hand_number, self.first)]
        for step in range(self.players):
            seat = (self.first + step) % self.players
            drawn = self._take(self.hand_size - len(self.hands[seat]))
            self.hands[seat] = sorted(self.hands[seat] + drawn, key=self.sort_key)
            events.append(Drew(seat, len(drawn), tuple(drawn)))
        self.phase = PLACE
        self.order = ()
        self.point_cards = []
        self.turn = self.first
        return events

    # -- what a seat may know -----------------------------------------------------------------

    def view(self, seat: Seat) -> ElementsView:
        return ElementsView(
            seat=seat,
            players=self.players,
            phase=self.phase,
            colours=self.colours,
            rounds=self.rounds,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            stock_size=len(self.stock),
            row=tuple(self.row),
            placements=tuple((element, owner, card if owner == seat else None)
                             for element in self.row if element in self.placements
                             for owner, card in [self.placements[element]]),
            order=self.order,
            point_cards=tuple(self.point_cards),
            current=self.point_cards[-1] if self.phase == BID and self.point_cards else None,
            laid=tuple(tuple(laid) for laid in self.laid),
            laid_order=tuple(sorted((seat for seat, rank in enumerate(self.laid_rank)
                                     if rank is not None),
                                    key=lambda seat: self.laid_rank[seat] or 0)),
            passed=tuple(self.passed),
            turn=None if self.phase == OVER else self.turn,
            need=self.need(seat) if self.phase == BID else 0,
            won=tuple(tuple(won) for won in self.won),
            totals=tuple(self.totals),
            hand_number=self.hand_number,
            hands=self.players,
            first=self.first,
        )

    def scores(self) -> list[int]:
        """Finished hands plus the point cards won so far in this hand."""
        return [total + sum(card.value for card in won)
                for total, won in zip(self.totals, self.won, strict=True)]


def _cards_json(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _plain(value: Any) -> Json:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
