"""The Elements rules engine (rulings ELE-1 to ELE-8 of ``shared/rules/elements.md``).

A hand has three phases: ``place`` (each player in turn puts a card face down before a free
element card; the reveal sets the colour order and the point cards), ``bid`` (point cards
are won one at a time, from the lowest, by laying cards 1 / 1 / 2 or passing) and ``keep``
(each player keeps some cards, the others go to the stock, everyone draws back to 11). Each
player is first player for one hand; then the game is over.

Moves, in text: ``place r7@Eb``, ``lay r7``, ``lay r7 b7``, ``pass``, ``keep r7 b3`` (``keep``
alone keeps nothing).

    game = Elements.new(players=3, seed=1)
    game.play(0, game.parse_move(0, "place r7@Eb"))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar

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
from games.elements import notation
from games.elements.cards import (
    BidKey,
    Card,
    ComboKey,
    bid_key,
    combination_key,
    element_label,
)
from games.elements.notation import Keep, Lay, Move, Pass, Place
from games.position import (
    FLAGS,
    INT,
    INTS,
    PER_SEAT_TEXTS,
    TEXT,
    TEXTS,
    Field,
    ListOf,
    State,
    const,
    maybe,
    per_seat,
)

__all__ = ["BID", "KEEP", "OVER", "PLACE", "Elements", "ElementsView", "Keep", "Lay", "Move",
           "Pass", "Place"]

PLACE, BID, KEEP, OVER = "place", "bid", "keep", "over"
PHASES = (PLACE, BID, KEEP, OVER)


# ---- events ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Placed(SeatSecret):
    """A card put face down before an element card (``cards``, one card); other seats see
    ``cards=None``."""

    seat: Seat
    element: str
    cards: tuple[Card, ...] | None


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


@dataclass(frozen=True)
class Dealt(SeatSecret):
    """ELE-2: a seat's hand dealt at the start (``cards``), seen by that seat only."""

    seat: Seat
    count: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True)
class Drew(SeatSecret):
    """Cards drawn back to the hand size; other seats learn only how many."""

    seat: Seat
    count: int
    cards: tuple[Card, ...] | None


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
    scores: tuple[int, ...]           # finished hands plus the point cards won this hand
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
    """Elements for 3 to 5 players; ``data`` is ``games/elements/rules.toml``.

    Options: ``first_player`` (ELE-2, seat 0 by default).
    """

    name: ClassVar[str] = "elements"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    default_players: ClassVar[int] = 3

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
        self.start_events: list[Event] = []

    # -- creation and saving ----------------------------------------------------------------

    @classmethod
    def _create(cls, players: int, seed: int, data: Mapping[str, Any],
                **options: Any) -> Elements:
        first = options.pop("first_player", 0)
        if options:
            raise data_problem("unknown_option", game="elements",
                               option=sorted(options)[0][:20])
        if type(first) is not int or not 0 <= first < players:
            raise data_problem("option_value", option="first_player",
                               value=str(first)[:20])
        try:
            box = _BOX(data, "data")
        except BadState as damaged:
            raise saved.box_problem(damaged) from None
        game = cls(players, box, random.Random(seed))
        if players > len(game.colours) or game.hand_size * players > len(game.deck()):
            raise data_problem("box_data", at="colours", why="too_few_cards",
                               players=players)
        # ELE-2: the element cards lie in a row in no particular order
        game.rng.shuffle(game.row)
        game.stock = game.deck()
        game.rng.shuffle(game.stock)
        for seat in range(players):
            game.hands[seat] = sorted(game._take(game.hand_size), key=game.sort_key)
            game.start_events.append(Dealt(seat, game.hand_size, tuple(game.hands[seat])))
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
            "data": saved.plain(self.data, "data"),
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
        return _read(data)

    def census(self) -> Counter[str]:
        return census_of(self.stock, self.point_cards, *self.hands, *self.laid, *self.won,
                         [card for _, card in self.placements.values()])

    def box_cards(self) -> Counter[str]:
        return census_of(self.deck())

    # -- notation ---------------------------------------------------------------------------

    def read_card(self, text: str) -> Card:
        """``read_card("r7") == Card("r", 7)``; raises :class:`NotationError`."""
        return notation.read_card(text, self.colours, self.values)

    def read_cards(self, texts: Sequence[str]) -> list[Card]:
        return notation.read_cards(texts, self.colours, self.values)

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def parse_move(self, seat: Seat, text: str) -> Move:
        return notation.parse_move(text, self.colours, self.values)

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
        if not self.is_seat(seat):
            return Reason.of("no_such_seat", seat=repr(seat)[:20])
        if seat != self.turn:
            return Reason.of("not_your_turn")
        if not _well_formed(move):
            return Reason.of("unknown_move", text=repr(move)[:40])
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
                return Reason.of("must_pass", count=need)
            if len(move.cards) != need:
                return Reason.of("lay_count", count=need)
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
        events: list[Event] = [Placed(seat, move.element, (move.card,))]
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
        if not self.is_seat(seat):
            raise self.no_such_seat(seat)
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
            scores=tuple(self.scores()),
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


def _is_card(card: object) -> bool:
    return type(card) is Card and type(card.colour) is str and type(card.value) is int


def _well_formed(move: object) -> bool:
    if type(move) is Place:
        return _is_card(move.card) and type(move.element) is str
    if isinstance(move, (Lay, Keep)) and type(move) in (Lay, Keep):
        cards = move.cards
        return type(cards) is tuple and len(cards) <= 100 and all(map(_is_card, cards))
    return type(move) is Pass


_LETTERS = tuple("abcdefghijklmnopqrstuvwxyz")


# ELE-1, ELE-2, ELE-5: the box's numbers
_BOX = saved.BoxData(saved.Record({
    "colours": saved.ListOf(saved.Text(_LETTERS), 10, least=3, distinct=True),
    "min_value": saved.Int(0, 99),
    "max_value": saved.Depends(lambda box: saved.Int(box["min_value"], 99)),
    "hand_size": saved.Int(1, 50), "rounds": saved.ListOf(saved.Int(1, 4), 4, least=1),
}, checks=[lambda box, at: saved.ensure(sum(box["rounds"]) <= 4, "data.rounds",
                                        "more_than_four_cards")]))


_HEAD = saved.Record({
    "game": saved.Text(("elements",)),
    "players": saved.Int(Elements.min_players, Elements.max_players),
    "data": _BOX, "rng": saved.RNG,
}, checks=[lambda head, at: saved.ensure(head["players"] <= len(head["data"]["colours"]),
                                         "players", "more_than_elements")])


def _body(game: Elements) -> saved.Record:
    """The fields of a saved state that :meth:`Elements.__init__` does not take, named as
    the engine's attributes."""
    players, colours = game.players, game.colours
    known = {str(card): card for card in game.deck()}
    cards, seat = saved.Cards(known, len(known)), saved.Seat(players)
    return saved.Record({
        "phase": saved.Text(PHASES), "hands": saved.one_per_seat(players, cards),
        "stock": cards,
        "row": saved.ListOf(saved.Text(colours), len(colours), len(colours), distinct=True),
        "placements": saved.ListOf(saved.Fixed((saved.ANY, seat, saved.Card(known))),
                                   players),  # element, seat, card
        "order": saved.ListOf(saved.Text(colours), len(colours)), "point_cards": cards,
        "laid": saved.one_per_seat(players, cards), "won": saved.one_per_seat(players, cards),
        "laid_rank": saved.one_per_seat(players, saved.Seat(players, None)),
        "passed": saved.one_per_seat(players, saved.FLAG),
        "kept": saved.one_per_seat(players, saved.FLAG),
        "turn": seat, "starter": seat, "first": seat,
        "totals": saved.one_per_seat(players, saved.Int(0, saved.MOST_POINTS)),
        "hand_number": saved.Int(0, players - 1),
    })


def _read(data: object) -> Elements:
    """The game of a saved state, every field checked (see :meth:`Game.from_dict`)."""
    head = _HEAD(data, "")
    game = Elements(head["players"], head["data"], head["rng"])
    read = _body(game)(data, "")
    vars(game).update(read, order=tuple(read["order"]), placements={})
    for index, (element, owner, card) in enumerate(read["placements"]):
        # ELE-3: a card face down before an element card of the row, one each
        saved.ensure(element in game.row and element not in game.placements,
                     f"placements.{index}", "wrong_element")
        game.placements[element] = (owner, card)
    saved.same_cards(game.census(), game.box_cards())
    _check_phase(game)
    return game


def _check_phase(game: Elements) -> None:
    """What each phase requires of the hand in progress (ELE-3 to ELE-7)."""
    phase, players, first = game.phase, game.players, game.first
    bidding = phase == BID
    saved.ensure(phase == PLACE or not game.placements, "placements", "wrong_for_phase")
    saved.ensure(game.order == (() if phase == PLACE else tuple(game.row)), "order",
                 "wrong_for_phase")
    saved.ensure(bool(game.point_cards) == bidding, "point_cards", "wrong_for_phase")
    saved.ensure(bidding or not any(game.laid), "laid", "wrong_for_phase")
    saved.ensure(bidding or not any(game.won), "won", "wrong_for_phase")
    saved.ensure(bidding or not any(game.passed), "passed", "wrong_for_phase")
    ranks = [rank for rank in game.laid_rank if rank is not None]
    saved.ensure(sorted(ranks) == list(range(len(ranks))), "laid_rank", "wrong_order")
    totals = [sum(game.rounds[:i]) for i in range(len(game.rounds) + 1)]
    for seat, laid in enumerate(game.laid):
        saved.ensure((game.laid_rank[seat] is None) == (not laid), f"laid.{seat}", "wrong_rank")
        saved.ensure(len(laid) in totals, f"laid.{seat}", "wrong_count")
    saved.ensure(phase == OVER or game.hand_number < players - 1 or phase != KEEP,
                 "hand_number", "wrong_for_phase")
    if phase == PLACE:
        placed = {owner for owner, _ in game.placements.values()}
        expected = {(first + step) % players for step in range(len(game.placements))}
        saved.ensure(placed == expected and len(placed) == len(game.placements),
                     "placements", "wrong_order")
        saved.ensure(game.turn == (first + len(placed)) % players, "turn", "wrong_for_phase")
        saved.ensure(bool(game.hands[game.turn]), "hands", "nothing_to_place")
    elif bidding:
        saved.ensure(game._still_bidding(game.turn), "turn", "wrong_for_phase")
    elif phase == KEEP:
        saved.ensure(not game.kept[game.turn], "turn", "wrong_for_phase")


def _rest_of_box(state: State) -> list[str]:
    """The position's default stock: every card in no other place, in box order."""
    box = _BOX(state["data"], "data")
    deck = [f"{colour}{value}" for colour in box["colours"]
            for value in range(box["min_value"], box["max_value"] + 1)]
    rest = Counter(deck)
    for key in ("hands", "laid", "won"):
        rest.subtract(card for pile in state[key] for card in pile)
    rest.subtract(state["point_cards"])
    rest.subtract(card for _, _, card in state["placements"])
    return [card for card in deck if rest[card] > 0]


class _Placements:
    """Cards face down before element cards: ``Eb:0:r7,Er:1:g3`` (element, seat, card)."""

    def write(self, value: Any) -> str:
        return ",".join(f"E{element}:{seat}:{card}" for element, seat, card in value) or "-"

    def read(self, text: str) -> Any:
        if text == "-":
            return []
        placed = []
        for item in text.split(","):
            element, seat, card = item.split(":")
            if not element.startswith("E") or not seat.isascii() or not seat.isdigit():
                raise ValueError(item)
            placed.append([element[1:], int(seat), card])
        return placed


Elements.POSITION = (
    Field("players", INT), Field("phase", TEXT, const(PLACE)),
    Field("hand_number", INT, const(0)), Field("first", INT, const(0)),
    Field("turn", INT, lambda state: state["first"]),
    Field("starter", INT, lambda state: state["first"]),
    Field("row", TEXTS, lambda state: list(_BOX(state["data"], "data")["colours"])),
    Field("order", TEXTS, const([])), Field("hands", PER_SEAT_TEXTS),
    Field("placements", _Placements(), const([])), Field("point_cards", TEXTS, const([])),
    Field("laid", PER_SEAT_TEXTS, per_seat([])),
    Field("laid_rank", ListOf(maybe(INT)), per_seat(None)),
    Field("passed", FLAGS, per_seat(False)), Field("won", PER_SEAT_TEXTS, per_seat([])),
    Field("totals", INTS, per_seat(0)), Field("kept", FLAGS, per_seat(False)),
    Field("stock", TEXTS, _rest_of_box),
)
