"""Domino 10-11-12 (Zatre, the card game): the rules engine (rulings DOM-1 to DOM-10).

Cards are written ``6/0`` (the halves' pips, 0 a blank half; canonically higher first). A move
is a card at a square with an orientation, the card's halves in the order laid: ``6/0@c4>``
puts the 6 on ``c4`` and the 0 on ``d4`` (``>`` to the right, ``v`` downwards); ``0/6@c4>``
turns the card round. The round's opening lays two cards: ``6/4@c3> 1/1@c4>``. Squares are
named from the normalised origin of :mod:`games.domino.grid`.

    game = Domino.new(players=2, seed=1, data=rules_data("domino"))
    seat = game.actors()[0]
    best = max(game.options(seat), key=lambda option: option.points)
    events = game.play(seat, best.move)
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
from games.domino.grid import (
    Card,
    Move,
    Opening,
    Option,
    Place,
    Rules,
    Slot,
    Square,
    card,
    card_text,
    joined_at_number,
    lines_through,
    opening_options,
    parse_square,
    placements,
    score_lines,
    slots,
    square_name,
    touches,
)
from games.domino.pad import PadEntry, ScorePad


class DataProblem(ValueError):
    """The box data (``layouts/domino/rules.toml`` or a deck given as an option) is unusable."""


def parse_card(text: str) -> Card:
    """``parse_card('0/6') == (6, 0)``; raises :class:`NotationError` for anything else."""
    found = re.fullmatch(r"(\d)/(\d)", text.strip())
    if found is None:
        raise NotationError(Reason.of("not_a_card", text=text))
    return card(int(found.group(1)), int(found.group(2)))


@dataclass(frozen=True)
class Box:
    """The box's numbers (DOM-1, DOM-4, DOM-5, DOM-6, DOM-7, DOM-8, DOM-9) read from data."""

    deck: tuple[Card, ...]
    rules: Rules
    cards_per_round: int
    dealer_hand: int
    hand: int
    exchange_draw: int
    row_bonus: tuple[int, ...]

    @classmethod
    def read(cls, data: Mapping[str, Any], players: int) -> Box:
        try:
            deck = tuple(parse_card(text) for text in data["cards"])
            points = {int(value): int(p) for value, p in data["line_points"].items()}
            pad = data["pad"]
            box = cls(deck, Rules(int(data["max_line"]), points, int(pad["super_bonus"])),
                      int(data["cards_per_round"]), int(data["dealer_hand"]), int(data["hand"]),
                      int(data["exchange_draw"]), tuple(int(b) for b in pad["row_bonus"]))
            rows = int(pad["rows"])
        except (KeyError, TypeError, ValueError) as error:
            raise DataProblem(f"the domino box data is incomplete or malformed ({error})") from None
        if rows != len(box.row_bonus):
            raise DataProblem(f"the pad has {rows} rows but {len(box.row_bonus)} row bonuses")
        if len(deck) < box.cards_per_round or box.cards_per_round < (
                box.dealer_hand + box.hand * (players - 1)):
            raise DataProblem(f"a deck of {len(deck)} cards cannot deal rounds of "
                              f"{box.cards_per_round} cards to {players} players")
        return box

    def blank_pad(self) -> ScorePad:
        return ScorePad.blank(tuple(sorted(self.rules.line_points)), self.row_bonus,
                              self.rules.super_bonus)


# Events. Hidden cards (a hand dealt, a card drawn) reach only their owner.

@dataclass(frozen=True)
class RoundStarted(Event):
    round: int
    dealer: Seat
    stocks: tuple[int, ...]


@dataclass(frozen=True)
class Dealt(SeatSecret):
    seat: Seat
    count: int
    cards: tuple[Card, ...] | None

    hidden: ClassVar[Mapping[str, Any]] = {"cards": None}


@dataclass(frozen=True)
class Placed(Event):
    """A turn's cards laid (DOM-5), the scoring line values, and what the pad took (DOM-8).
    ``notation`` is the move with its squares named on the table just after it was laid."""

    seat: Seat
    move: Move
    lines: tuple[int, ...]
    points: int
    entry: PadEntry
    notation: str


@dataclass(frozen=True)
class Drew(SeatSecret):
    seat: Seat
    card: Card | None

    hidden: ClassVar[Mapping[str, Any]] = {"card": None}


@dataclass(frozen=True)
class Exchanged(SeatSecret):
    """DOM-6: the hand shown and set aside, and the cards drawn (seen by the drawer only)."""

    seat: Seat
    shown: tuple[Card, ...]
    count: int
    drawn: tuple[Card, ...] | None

    hidden: ClassVar[Mapping[str, Any]] = {"drawn": None}


@dataclass(frozen=True)
class Passed(Event):
    seat: Seat


@dataclass(frozen=True)
class RoundEnded(Event):
    round: int
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]


@dataclass(frozen=True)
class DominoView:
    """What one seat may know: the table, the own hand, every pad (pads are public), the
    sizes of the other hands and of the stocks. ``deck`` is the box's (public) composition."""

    seat: Seat
    players: int
    round: int
    rounds: int
    dealer: Seat
    turn: Seat | None
    opening: bool
    over: bool
    grid: Mapping[Square, int]
    table: tuple[Place, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_sizes: tuple[int, ...]
    set_aside_size: int
    pads: tuple[ScorePad, ...]
    rules: Rules
    deck: tuple[Card, ...]
    shown: tuple[Card, ...] = field(default=())


class Domino(Game[Move, DominoView]):
    """The state of a whole game of Domino 10-11-12 (as many rounds as players, DOM-4)."""

    name: ClassVar[str] = "domino"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init__(self, players: int, data: Mapping[str, Any], rng: random.Random) -> None:
        self.players = players
        self.data = dict(data)
        self.box = Box.read(self.data, players)
        self.rng = rng
        self.round = 0
        self.dealer: Seat = 0
        self.turn: Seat = 0
        self.opening = True
        self.over = False
        self.passes = 0
        self.table: list[Place] = []
        self.grid: dict[Square, int] = {}
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stocks: list[list[Card]] = [[] for _ in range(players)]
        self.set_aside: list[Card] = []
        self.shown: list[Card] = []
        self.pads = [self.box.blank_pad() for _ in range(players)]
        self._slots: list[Slot] | None = None
        # what a fresh game dealt (round 1 starting), for whoever shows the game from the start
        self.start_events: list[Event] = []
        # options per set of cards on the current table (a bot and check ask several times)
        self._known: dict[tuple[Card, ...], list[Option]] = {}

    @classmethod
    def new(cls, players: int, seed: int, data: Mapping[str, Any],
            deck: Sequence[str] | None = None, **options: Any) -> Domino:
        """A fresh game; ``deck`` (card texts) replaces the box's deck (a toy library's own)."""
        if options:
            raise DataProblem(f"unknown domino options: {', '.join(sorted(options))}")
        if not cls.min_players <= players <= cls.max_players:
            raise DataProblem(f"domino is for 2 to 4 players, not {players}")
        if deck is not None:
            data = {**data, "cards": list(deck)}
        game = cls(players, data, random.Random(seed))
        game._start_round(game.start_events)
        return game

    # --- turn flow -------------------------------------------------------------------------

    def _start_round(self, events: list[Event]) -> None:
        """DOM-4: gather the round's cards, deal hands and personal stocks, clear the table.
        Round 2 deals the pile set aside as exchanges left it, and sets the first round's
        cards aside; cards that do not split evenly into stocks stay set aside."""
        box = self.box
        if self.round == 1:
            pile = self.set_aside
            others = [p.card for p in self.table] + [c for h in self.hands for c in h] + [
                c for s in self.stocks for c in s]
        else:
            everything = list(box.deck)
            self.rng.shuffle(everything)
            pile, others = everything[:box.cards_per_round], everything[box.cards_per_round:]
        self.rng.shuffle(pile)
        self.table, self.grid, self._slots, self._known = [], {}, None, {}
        self.shown = []
        self.hands = [[] for _ in range(self.players)]
        for offset in range(self.players):
            seat = (self.dealer + offset) % self.players
            size = box.dealer_hand if offset == 0 else box.hand
            self.hands[seat], pile = pile[:size], pile[size:]
        share = len(pile) // self.players
        self.stocks = [pile[i * share:(i + 1) * share] for i in range(self.players)]
        self.set_aside = others + pile[share * self.players:]
        self.opening, self.passes, self.turn = True, 0, self.dealer
        events.append(RoundStarted(self.round, self.dealer, tuple(map(len, self.stocks))))
        events.extend(Dealt(seat, len(hand), tuple(hand)) for seat, hand in enumerate(self.hands))
        self._seek(self.dealer, events)

    def _seek(self, seat: Seat, events: list[Event]) -> None:
        """Give the turn to ``seat`` or the next seat that can place (DOM-6 exchanges on the
        way); end the round when hands are empty or a full round of turns placed nothing."""
        while True:
            if not any(self.hands) or self.passes >= self.players:
                self._end_round(events)
                return
            if self.hands[seat] and self._exchange_until_placeable(seat, events):
                self.turn = seat
                return
            if self.hands[seat]:
                events.append(Passed(seat))
            self.passes += 1
            seat = (seat + 1) % self.players

    def _exchange_until_placeable(self, seat: Seat, events: list[Event]) -> bool:
        """DOM-6: while no card of the hand fits, show it, set it aside, draw 3 from the
        cards set aside. Passes when fewer than 3 are set aside or none of them could fit."""
        draw = self.box.exchange_draw
        while not self._fits(self.hands[seat]):
            if len(self.set_aside) < draw or not self._fits(self.set_aside):
                return False
            shown = tuple(self.hands[seat])
            self.shown.extend(shown)
            self.set_aside.extend(shown)
            self.rng.shuffle(self.set_aside)
            drawn = self.set_aside[-draw:]
            del self.set_aside[-draw:]
            self.hands[seat] = drawn
            events.append(Exchanged(seat, shown, len(drawn), tuple(drawn)))
        return True

    def _fits(self, cards: Sequence[Card]) -> bool:
        return bool(self._options_of(cards))

    def _options_of(self, cards: Sequence[Card]) -> list[Option]:
        key = tuple(sorted(cards))
        known = self._known.get(key)
        if known is None:
            if self.opening:
                known = opening_options(key, self.box.rules) if len(key) >= 2 else []
            else:
                known = placements(self.grid, key, self.box.rules, self._table_slots())
            self._known[key] = known
        return known

    def _end_round(self, events: list[Event]) -> None:
        events.append(RoundEnded(self.round, tuple(self.scores())))
        if self.round + 1 >= self.players:
            self.over = True
            events.append(GameEnded(tuple(self.scores()), tuple(self.winners())))
            return
        self.round += 1
        self.dealer = (self.dealer + 1) % self.players
        self._start_round(events)

    def _table_slots(self) -> list[Slot]:
        if self._slots is None:
            self._slots = slots(self.grid)
        return self._slots

    # --- the Game contract -----------------------------------------------------------------

    def actors(self) -> list[Seat]:
        return [] if self.over else [self.turn]

    def options(self, seat: Seat) -> list[Option]:
        """Every legal move of ``seat`` with the lines it makes and the points it scores."""
        if self.over or seat != self.turn:
            return []
        return list(self._options_of(self.hands[seat]))

    def legal_moves(self, seat: Seat) -> list[Move]:
        return [option.move for option in self.options(seat)]

    def check(self, seat: Seat, move: Move) -> Reason | None:
        if self.over:
            return Reason.of("game_over")
        if seat != self.turn:
            return Reason.of("not_your_turn")
        if self.opening and not isinstance(move, Opening):
            return Reason.of("opening_two_cards")
        if not self.opening and isinstance(move, Opening):
            return Reason.of("one_card_per_turn")
        places = (move.first, move.second) if isinstance(move, Opening) else (move,)
        need = Counter(place.card for place in places)
        have = Counter(self.hands[seat])
        for wanted, count in need.items():
            if have[wanted] < count:
                return Reason.of("card_not_in_hand", card=card_text(wanted))
        cells = [cell for place in places for cell in place.cells()]
        squares = [square for square, _ in cells]
        if len(set(squares)) < len(squares) or any(s in self.grid for s in squares):
            return Reason.of("square_taken")
        grid = {**self.grid, **dict(cells)}
        if isinstance(move, Opening):
            if not joined_at_number(grid, move.first, move.second):
                return Reason.of("opening_not_joined")
        elif not touches(self.grid, squares):
            return Reason.of("not_touching")
        worst = max(lines_through(grid, squares))
        if worst > self.box.rules.max_line:
            return Reason.of("line_too_long", value=worst, max=self.box.rules.max_line)
        return None

    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        places = (move.first, move.second) if isinstance(move, Opening) else (move,)
        for place in places:
            self.hands[seat].remove(place.card)
            self.table.append(place)
            self.grid.update(place.cells())
        self._slots, self._known = None, {}
        squares = [square for place in places for square in place.squares]
        scoring, points, bonus = score_lines(lines_through(self.grid, squares), self.box.rules)
        per_value = Counter[int]()
        for value in scoring:
            per_value[value] += self.box.rules.line_points[value]
        self.pads[seat], entry = self.pads[seat].record(per_value, bonus > 0)
        events: list[Event] = [Placed(seat, move, scoring, points, entry, self.format_move(move))]
        if self.stocks[seat]:
            drawn = self.stocks[seat].pop()
            self.hands[seat].append(drawn)
            events.append(Drew(seat, drawn))
        self.opening, self._known = False, {}
        self.passes = 0
        self._seek((seat + 1) % self.players, events)
        return events

    def view(self, seat: Seat) -> DominoView:
        return DominoView(
            seat=seat, players=self.players, round=self.round, rounds=self.players,
            dealer=self.dealer, turn=None if self.over else self.turn, opening=self.opening,
            over=self.over, grid=dict(self.grid), table=tuple(self.table),
            hand=tuple(self.hands[seat]), hand_sizes=tuple(map(len, self.hands)),
            stock_sizes=tuple(map(len, self.stocks)), set_aside_size=len(self.set_aside),
            pads=tuple(self.pads), rules=self.box.rules, deck=self.box.deck,
            shown=tuple(self.shown))

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        return [pad.total() for pad in self.pads]

    def to_dict(self) -> dict[str, Json]:
        def texts(cards: Sequence[Card]) -> list[str]:
            return [card_text(c) for c in cards]

        return {
            "game": self.name, "players": self.players, "data": self.data,
            "rng": rng_state_to_json(self.rng), "round": self.round, "dealer": self.dealer,
            "turn": self.turn, "opening": self.opening, "over": self.over,
            "passes": self.passes,
            "table": [[p.first, p.second, p.x, p.y, p.vertical] for p in self.table],
            "hands": [texts(h) for h in self.hands], "stocks": [texts(s) for s in self.stocks],
            "set_aside": texts(self.set_aside), "shown": texts(self.shown),
            "pads": [pad.to_dict() for pad in self.pads],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Domino:
        game = cls(int(data["players"]), data["data"], rng_from_json(data["rng"]))
        game.round, game.dealer, game.turn = int(data["round"]), data["dealer"], data["turn"]
        game.opening, game.over = bool(data["opening"]), bool(data["over"])
        game.passes = int(data["passes"])
        game.table = [Place(int(a), int(b), int(x), int(y), bool(v))
                      for a, b, x, y, v in data["table"]]
        for place in game.table:
            game.grid.update(place.cells())
        game.hands = [[parse_card(t) for t in hand] for hand in data["hands"]]
        game.stocks = [[parse_card(t) for t in stock] for stock in data["stocks"]]
        game.set_aside = [parse_card(t) for t in data["set_aside"]]
        game.shown = [parse_card(t) for t in data["shown"]]
        game.pads = [pad.restored(saved) for pad, saved in zip(game.pads, data["pads"],
                                                                 strict=True)]
        return game

    # --- notation --------------------------------------------------------------------------

    def format_place(self, place: Place) -> str:
        """``6/0@c4>``: the halves in the order laid, the first half's square, the way."""
        way = "v" if place.vertical else ">"
        return f"{place.first}/{place.second}@{square_name(self.grid, (place.x, place.y))}{way}"

    def format_move(self, move: Move) -> str:
        if isinstance(move, Opening):
            return f"{self.format_place(move.first)} {self.format_place(move.second)}"
        return self.format_place(move)

    def parse_move(self, seat: Seat, text: str) -> Move:
        parts = text.split()
        places = [self._parse_place(part, text) for part in parts]
        if len(places) == 1:
            return places[0]
        if len(places) == 2:
            return Opening(places[0], places[1])
        raise NotationError(Reason.of("unknown_move", text=text))

    def _parse_place(self, part: str, text: str) -> Place:
        found = re.fullmatch(r"(\d)/(\d)@([a-z]+[0-9]+)([>v])", part.strip().lower())
        square = None if found is None else parse_square(self.grid, found.group(3))
        if found is None or square is None:
            raise NotationError(Reason.of("unknown_move", text=text))
        return Place(int(found.group(1)), int(found.group(2)), square[0], square[1],
                     found.group(4) == "v")
