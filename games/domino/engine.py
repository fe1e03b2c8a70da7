"""Domino 10-11-12 (Zatre, the card game): the rules engine (rulings DOM-1 to DOM-10).

Cards are written ``6/0`` (the halves' pips, 0 a blank half; canonically higher first). A move
is a card at a square with an orientation, the card's halves in the order laid: ``6/0@0,0>``
puts the 6 on square (0, 0) and the 0 on (1, 0) (``>`` to the right, ``v`` downwards);
``0/6@0,0>`` turns the card round. The round's opening lays two cards: ``6/4@0,0> 1/1@0,1>``.
For people, squares are named, the same for the whole round (``6/0@c4>``, the round's first
card on ``c3``): see :mod:`games.domino.notation`.

    game = Domino.new(players=2, seed=1)
    seat = game.actors()[0]
    best = max(game.options(seat), key=lambda option: option.points)
    events = game.play(seat, best.move)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games import saved
from games.core import (
    BadState,
    DataProblem,
    Event,
    Game,
    Json,
    NotationError,
    Reason,
    Seat,
    SeatSecret,
    bad_state,
    census_of,
    data_problem,
    rng_state_to_json,
)
from games.domino import notation
from games.domino.grid import (
    Card,
    Move,
    Opening,
    Option,
    Place,
    Rules,
    Slot,
    Square,
    anchor_of,
    card_text,
    joined_at_number,
    lines_through,
    opening_options,
    placements,
    score_lines,
    slots,
    touches,
)
from games.domino.notation import name_move, parse_card
from games.domino.pad import PadEntry, ScorePad
from games.position import (
    FLAG,
    INT,
    Field,
    ListOf,
    State,
    const,
    per_seat,
)

__all__ = ["DataProblem", "Domino", "DominoView", "parse_card"]

MOST_COPIES = 8  # one card printed more often than this is no box's (DOM-1)
MOST_SQUARE = 1_000  # a table of 200 cards stays within this many squares of its start


def _card(value: object, at: str) -> Card:
    """A card of the box as printed, ``6/0`` or ``0/6``."""
    try:
        return parse_card(saved.text(value, at))
    except NotationError as error:
        raise bad_state(at, error.reason.code) from None


def _line(longest: int) -> saved.Kind:
    """A line's value as a key of the line points (``"10"``), from 1 to ``longest``."""
    def read(value: object, at: str) -> int:
        saved.ensure(value in {str(v) for v in range(1, longest + 1)}, at, "no_such_line",
                     value=str(value)[:10])
        return int(str(value))

    return read


def _copies(box: saved.Read, at: str) -> None:
    """DOM-1: no card printed more often than any box prints one."""
    printed: Counter[Card] = Counter(box["cards"])
    for each, copies in printed.items():
        saved.ensure(copies <= MOST_COPIES, "data.cards", "card_too_often",
                     card=card_text(each), most=MOST_COPIES)


# DOM-1, DOM-4, DOM-5, DOM-6, DOM-7, DOM-8, DOM-9: the box's numbers
_BOX = saved.Record({
    "cards_per_round": saved.Int(2, 200),
    "cards": saved.Depends(lambda box: saved.ListOf(_card, 2 * box["cards_per_round"],
                                                    box["cards_per_round"])),
    "max_line": saved.Int(1, 100),
    "line_points": saved.Depends(lambda box: saved.MapOf(_line(box["max_line"]),
                                                         saved.Int(0, 100))),
    "first_turn_cards": saved.IfGiven(saved.Int(2, 2)),  # DOM-5: the two-card opening
    "pad": saved.Record({
        "columns": saved.IfGiven(saved.ListOf(saved.TEXT, 10)),  # the printed pad's headings
        "rows": saved.Int(1, 100),
        "row_bonus": saved.Depends(lambda pad: saved.ListOf(saved.Int(0, 100), pad["rows"],
                                                            pad["rows"])),
        "super_bonus": saved.Int(0, 100)}),
    "dealer_hand": saved.Int(1, 20), "hand": saved.Int(1, 20), "exchange_draw": saved.Int(1, 20),
}, checks=[_copies, lambda box, at: saved.ensure(bool(box["line_points"]), "data.line_points",
                                                 "empty")])


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
    def read(cls, data: object) -> Box:
        """The box's numbers, each checked: :class:`BadState` at ``data.*``."""
        box = _BOX(data, "data")
        pad = box["pad"]
        return cls(tuple(box["cards"]), Rules(box["max_line"], box["line_points"],
                                              pad["super_bonus"]),
                   box["cards_per_round"], box["dealer_hand"], box["hand"],
                   box["exchange_draw"], tuple(pad["row_bonus"]))

    def deals(self, players: int) -> bool:
        """Whether a round's cards give every player a hand (DOM-4)."""
        return self.cards_per_round >= self.dealer_hand + self.hand * (players - 1)

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
    """A card drawn from the own stock (``cards``, one card), seen by the drawer only."""

    seat: Seat
    cards: tuple[Card, ...] | None


@dataclass(frozen=True)
class Exchanged(SeatSecret):
    """DOM-6: the hand shown and set aside, and the cards drawn (``cards``, seen by the
    drawer only)."""

    seat: Seat
    shown: tuple[Card, ...]
    count: int
    cards: tuple[Card, ...] | None


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

    def gain(self, option: Option) -> int:
        """The points ``option`` adds to this seat's sheet, written as the engine writes it
        (DOM-8: a full column takes nothing, a completed row earns its bonus; DOM-9): what
        the places line ranks by and the heuristic bot weighs. ``view.gain(option)``."""
        pad = self.pads[self.seat]
        return pad.score(option.lines, self.rules.line_points, option.super_bonus > 0)[1].points


class Domino(Game[Move, DominoView]):
    """The state of a whole game of Domino 10-11-12 (as many rounds as players, DOM-4)."""

    name: ClassVar[str] = "domino"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init__(self, players: int, data: Mapping[str, Any], rng: random.Random) -> None:
        self.players = players
        self.data: dict[str, Any] = saved.plain(data, "data")
        self.box = Box.read(self.data)
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
    def _create(cls, players: int, seed: int, data: Mapping[str, Any],
                **options: Any) -> Domino:
        """A fresh game; option ``deck`` (card texts) replaces the box's deck (a toy
        library's own, DOM-1)."""
        deck = options.pop("deck", None)
        if options:
            raise data_problem("unknown_option", game="domino",
                               option=sorted(options)[0][:20])
        if deck is not None:
            data = {**data, "cards": list(deck) if isinstance(deck, (list, tuple)) else deck}
        try:
            game = cls(players, data, random.Random(seed))
        except BadState as damaged:
            raise saved.box_problem(damaged) from None
        if not game.box.deals(players):
            raise data_problem("box_data", at="cards_per_round", why="too_few_cards",
                               players=players)
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
        if self.over or not self.is_seat(seat) or seat != self.turn:
            return []
        return list(self._options_of(self.hands[seat]))

    def legal_moves(self, seat: Seat) -> list[Move]:
        return [option.move for option in self.options(seat)]

    def check(self, seat: Seat, move: Move) -> Reason | None:
        if self.over:
            return Reason.of("game_over")
        if not self.is_seat(seat):
            return Reason.of("no_such_seat", seat=repr(seat)[:20])
        if seat != self.turn:
            return Reason.of("not_your_turn")
        if not _well_formed(move):
            return Reason.of("unknown_move", text=repr(move)[:40])
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
        rules = self.box.rules
        scoring, points, bonus = score_lines(lines_through(self.grid, squares), rules,
                                             opening=isinstance(move, Opening))
        self.pads[seat], entry = self.pads[seat].score(scoring, rules.line_points, bonus > 0)
        events: list[Event] = [Placed(seat, move, scoring, points, entry,
                                      name_move(anchor_of(self.table), move))]
        if self.stocks[seat]:
            drawn = self.stocks[seat].pop()
            self.hands[seat].append(drawn)
            events.append(Drew(seat, (drawn,)))
        self.opening, self._known = False, {}
        self.passes = 0
        self._seek((seat + 1) % self.players, events)
        return events

    def view(self, seat: Seat) -> DominoView:
        if not self.is_seat(seat):
            raise self.no_such_seat(seat)
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
        return _read(data)

    def census(self) -> Counter[str]:
        return census_of([card_text(c) for pile in (
            [place.card for place in self.table], *self.hands, *self.stocks, self.set_aside)
            for c in pile])

    def box_cards(self) -> Counter[str]:
        return Counter(card_text(c) for c in self.box.deck)

    # --- notation --------------------------------------------------------------------------

    def name_move(self, move: Move) -> str:
        """The move with its squares named in this round, for people: ``6/0@c4>``."""
        return name_move(anchor_of(self.table), move)

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def parse_move(self, seat: Seat, text: str) -> Move:
        """A move with absolute squares (``6/0@0,0>``) or squares named in this round
        (``6/0@c3>``)."""
        return notation.parse_move(text, anchor_of(self.table))


def _well_formed(move: object) -> bool:
    if type(move) is Opening:
        return _well_formed(move.first) and _well_formed(move.second)
    return (type(move) is Place and all(type(pips) is int and 0 <= pips <= notation.MOST_PIPS
                                        for pips in (move.first, move.second))
            and all(type(at) is int and abs(at) <= 10 * MOST_SQUARE for at in (move.x, move.y))
            and type(move.vertical) is bool)


_HEAD = saved.Record({"game": saved.Text(("domino",)),
                      "players": saved.Int(Domino.min_players, Domino.max_players),
                      "data": saved.ANY,  # read whole by Domino() as its Box
                      "rng": saved.RNG})
_PIPS, _SQUARE = saved.Int(0, notation.MOST_PIPS), saved.Int(-MOST_SQUARE, MOST_SQUARE)
_PLACE = saved.Fixed((_PIPS, _PIPS, _SQUARE, _SQUARE, saved.FLAG))  # first, second, x, y, down


def _body(game: Domino) -> saved.Record:
    """The fields of a saved state that :meth:`Domino.__init__` does not take, named as the
    engine's attributes (the table as lists of :data:`_PLACE`)."""
    players, deck = game.players, game.box.deck
    known = {card_text(card): card for card in deck}
    cards, seat = saved.Cards(known, len(deck)), saved.Seat(players)
    blank = game.box.blank_pad()
    # DOM-8, DOM-9: a score sheet as saved, boxes of each column top down, super bonuses
    sheet = saved.Record({
        "columns": saved.ListOf(saved.ListOf(saved.Int(1, 1000), blank.rows),
                                len(blank.values), len(blank.values)),
        "supers": saved.ListOf(saved.Int(blank.super_value, blank.super_value), blank.rows)})
    return saved.Record({
        "round": saved.Int(0, players - 1), "dealer": seat, "turn": seat,
        "opening": saved.FLAG, "over": saved.FLAG, "passes": saved.Int(0, players),
        "table": saved.ListOf(_PLACE, len(deck)), "hands": saved.one_per_seat(players, cards),
        "stocks": saved.one_per_seat(players, cards), "set_aside": cards,
        "shown": saved.Cards(known, 10 * len(deck)),
        "pads": saved.one_per_seat(players, lambda value, at: blank.restored(sheet(value, at))),
    })


def _read(data: object) -> Domino:
    """The game of a saved state, every field checked (see :meth:`Game.from_dict`)."""
    head = _HEAD(data, "")
    players = head["players"]
    game = Domino(players, head["data"], head["rng"])
    saved.ensure(game.box.deals(players), "data.cards_per_round", "too_few_cards")
    read = _body(game)(data, "")
    vars(game).update(read, table=[])
    for index, laid in enumerate(read["table"]):
        place = Place(*laid)
        saved.ensure(not any(square in game.grid for square in place.squares),
                     f"table.{index}", "square_taken")
        game.table.append(place)
        game.grid.update(place.cells())
    _check_table(game)
    saved.same_cards(game.census(), game.box_cards())
    if not game.over:
        saved.ensure(game.opening == (not game.table), "opening", "wrong_for_table")
        saved.ensure(game.passes < players, "passes", "out_of_range")
        saved.ensure(bool(game.hands[game.turn]) and game._fits(game.hands[game.turn]),
                     "turn", "nothing_to_place")
    else:
        saved.ensure(game.round == players - 1, "round", "wrong_for_over")
    return game


def _check_table(game: Domino) -> None:
    """DOM-2, DOM-3: the table is one layout (every square joined to the first by edges)
    whose lines are all within the box's limit."""
    grid = game.grid
    if not grid:
        return
    seen = {next(iter(grid))}
    todo = list(seen)
    while todo:
        x, y = todo.pop()
        for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if near in grid and near not in seen:
                seen.add(near)
                todo.append(near)
    saved.ensure(len(seen) == len(grid), "table", "not_one_layout")
    saved.ensure(max(lines_through(grid, grid), default=0) <= game.box.rules.max_line, "table",
                 "line_too_long")


def _rest_of_box(state: State) -> list[str]:
    """The position's default cards set aside: every card of the box not on the table, in
    no hand and no stock, in box order."""
    deck = [card_text(c) for c in Box.read(saved.plain(state["data"], "data")).deck]
    rest = Counter(deck)
    rest.subtract(card_text(notation.card(first, second))
                  for first, second, *_ in state["table"])
    for key in ("hands", "stocks"):
        rest.subtract(card for pile in state[key] for card in pile)
    return [text for text in dict.fromkeys(deck) for _ in range(max(rest[text], 0))]


def _blank_pads(state: State) -> list[dict[str, Any]]:
    values = len(saved.need_dict(state["data"]["line_points"], "data.line_points"))
    return [{"columns": [[] for _ in range(values)], "supers": []}
            for _ in range(state["players"])]


class _Places:
    """The table: its cards in the order laid, in move notation: ``6/4@0,0>;1/1@0,1>``."""

    def write(self, value: Any) -> str:
        return ";".join(str(Place(*laid)) for laid in value) or "-"

    def read(self, text: str) -> Any:
        if text == "-":
            return []
        table = []
        for item in text.split(";"):
            move = notation.parse_move(item)
            if not isinstance(move, Place):
                raise ValueError(item)
            table.append([move.first, move.second, move.x, move.y, move.vertical])
        return table


class _Pads:
    """Every seat's sheet: the boxes of each column, then the super bonuses, ``:`` between
    them, ``;`` between seats: ``1,1:3:5,10:6;-:-:-:-``."""

    def write(self, value: Any) -> str:
        return ";".join(":".join(",".join(map(str, boxes)) or "-"
                                 for boxes in (*pad["columns"], pad["supers"]))
                        for pad in value)

    def read(self, text: str) -> Any:
        pads = []
        for sheet in text.split(";"):
            groups = [[] if group == "-" else [_number(box) for box in group.split(",")]
                      for group in sheet.split(":")]
            pads.append({"columns": groups[:-1], "supers": groups[-1]})
        return pads


class _Cards:
    """Cards in either order of their halves, written canonically: ``6/0,1/2`` reads as
    ``6/0,2/1``."""

    def write(self, value: Any) -> str:
        return ",".join(value) or "-"

    def read(self, text: str) -> Any:
        return [] if text == "-" else [card_text(parse_card(item)) for item in text.split(",")]


CARDS, PER_SEAT_CARDS = _Cards(), ListOf(_Cards(), ";")


def _number(text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise ValueError(text)
    return int(text)


Domino.POSITION = (
    Field("players", INT), Field("round", INT, const(0)),
    Field("dealer", INT, lambda state: state["round"] % state["players"]),
    Field("turn", INT, lambda state: state["dealer"]), Field("over", FLAG, const(False)),
    Field("passes", INT, const(0)), Field("table", _Places(), const([])),
    Field("opening", FLAG, lambda state: not state["table"]),
    Field("hands", PER_SEAT_CARDS), Field("stocks", PER_SEAT_CARDS, per_seat([])),
    Field("shown", CARDS, const([])), Field("pads", _Pads(), _blank_pads),
    Field("set_aside", CARDS, _rest_of_box),
)
