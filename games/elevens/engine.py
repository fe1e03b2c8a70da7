"""Elevens (Elfer raus! Master): four rows of 1-21 around the 11s, link cards, jokers, bonuses.

A turn is a sequence of steps ended by ``end`` (or a single ``draw``); each step is checked on
its own and ``undo`` takes back the last step of the turn in progress. The notation of steps
is in :mod:`games.elevens.notation` (``r5``, ``*@b7``, ``L r12>b``, ``x b7``, ``discard *``,
``draw``, ``end``, ``undo``); colour letters come from ``games/elevens/rules.toml``.

    game = Elevens.new(players=2, seed=1)
    game.play(0, game.parse_move(0, "r12"))

Where the rulings are silent: once the stock is empty, a whole round of passes ends the game
(nobody can or must play any more), scored as usual.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games import saved
from games.core import (
    BadState,
    Event,
    Game,
    Json,
    NotationError,
    Reason,
    Seat,
    SeatSecret,
    data_problem,
    rng_from_json,
    rng_state_to_json,
)
from games.elevens.notation import (
    DISCARD,
    DRAW,
    END,
    JOKER,
    KINDS,
    UNDO,
    Step,
    format_step,
    parse_step,
    place,
    split_card,
)
from games.position import (
    FLAG,
    INT,
    INTS,
    MAYBE_INT,
    PER_SEAT_TEXTS,
    TEXTS,
    Field,
    State,
    const,
    per_seat,
)

__all__ = ["DISCARD", "DRAW", "END", "JOKER", "KINDS", "UNDO", "Elevens", "ElevensView",
           "Step", "place", "segments", "split_card"]


@dataclass(frozen=True)
class Placed(Event):
    """A card (``*`` for a joker) put at ``row``/``pos``; through a link when ``source``."""

    seat: Seat
    card: str
    row: str
    pos: int
    source: str = ""


@dataclass(frozen=True)
class Exchanged(Event):
    seat: Seat
    row: str
    pos: int


@dataclass(frozen=True)
class Discarded(Event):
    seat: Seat


@dataclass(frozen=True)
class BonusTaken(Event):
    """ELV-10: ``half`` is ``low`` (lowest to start) or ``high`` (start to highest)."""

    seat: Seat
    row: str
    half: str


@dataclass(frozen=True)
class Undone(Event):
    seat: Seat
    step: Step


@dataclass(frozen=True)
class Dealt(SeatSecret):
    """ELV-3: a seat's hand dealt at the start (``cards``), seen by that seat only."""

    seat: Seat
    count: int
    cards: tuple[str, ...] | None


@dataclass(frozen=True)
class Drew(SeatSecret):
    """The drawn card (``cards``, one card) is known to the drawer only."""

    seat: Seat
    cards: tuple[str, ...] | None


@dataclass(frozen=True)
class TurnEnded(Event):
    seat: Seat
    next_seat: Seat
    passed: bool


@dataclass(frozen=True)
class GameOver(Event):
    """``out`` is the seat that played its last card, ``None`` when the game was blocked."""

    out: Seat | None
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]


@dataclass(frozen=True)
class ElevensView:
    """What one seat may know: its own hand, every other hand as a count, the whole table
    (``table_links`` holds each laid link card as ``(source, pos, row)``: public, ELV-6)."""

    seat: Seat
    players: int
    order: tuple[str, ...]
    rows: dict[str, dict[int, str]]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    link_cards: tuple[int, ...]
    table_links: tuple[tuple[str, int, str], ...]
    stock_size: int
    bonuses: tuple[int, ...]
    bonus_left: int
    turn: Seat | None
    played: int
    limit: int
    steps: tuple[Step, ...]
    placed_other: bool
    beginner: bool
    over: bool
    lowest: int
    highest: int
    start: int

    exchanged: bool = False

    def neighbours(self, row: str) -> list[str]:
        return _neighbours(self.order, row)

    def links_at(self, row: str) -> list[tuple[int, str]]:
        """The laid link cards touching ``row`` as (position, the other row), by position,
        then the upper neighbour first: after ``L g5>y``, ``links_at("y") == [(5, "g")]``
        and ``links_at("g") == [(5, "y")]``."""
        found = [(pos, other if source == row else source)
                 for source, pos, other in self.table_links if row in (source, other)]
        return sorted(found, key=lambda link: (link[0], self.order.index(link[1])))

    def free_ends(self, row: str) -> list[int]:
        """Free positions next to an occupied one in ``row`` (where a card may go)."""
        ends = {pos for low, high in segments(self.rows[row]) for pos in (low - 1, high + 1)}
        return sorted(pos for pos in ends if self.lowest <= pos <= self.highest)

    def _on_board(self, row: str, pos: int) -> bool:
        return row in self.rows and self.lowest <= pos <= self.highest

    def _touches(self, row: str, pos: int) -> bool:
        cells = self.rows[row]
        return pos - 1 in cells or pos + 1 in cells

    def can_place_number(self) -> bool:
        """ELV-7: whether this seat can put a number card on the table, directly or by a
        link card."""
        for card in self.hand:
            if card == JOKER:
                continue
            row, pos = split_card(card)
            if pos in self.rows[row]:
                continue
            if self._touches(row, pos):
                return True
            if self.link_cards[self.seat] and any(pos in self.rows[other]
                                                  for other in self.neighbours(row)):
                return True
        return False

    def check(self, step: Step) -> Reason | None:
        """The reason ``step`` is illegal for this seat now, or ``None``."""
        if self.over:
            return Reason.of("game_over")
        if self.seat != self.turn:
            return Reason.of("not_your_turn")
        if step.kind == "draw":
            if self.played:
                return Reason.of("draw_only_first")
            return None if self.stock_size else Reason.of("stock_empty")
        if step.kind == "end":
            return self._check_end()
        if step.kind == "undo":
            return None if self.played else Reason.of("nothing_to_undo")
        if step.kind not in KINDS:
            return Reason.of("unknown_step", kind=step.kind)
        row, pos = split_card(step.card)
        if step.card != JOKER and not (self._on_board(row, pos) and pos != self.start):
            return Reason.of("no_such_card", card=step.card)
        if step.card not in self.hand:
            return Reason.of("card_not_in_hand", card=step.card)
        if self.played >= self.limit:
            return Reason.of("limit_reached", limit=self.limit)
        if step.kind == "discard":
            if step.card != JOKER:
                return Reason.of("discard_only_jokers")
            if len(self.hand) == 1 and self.exchanged and not self.placed_other:
                return Reason.of("exchange_needs_other_card")
            return None
        if step.kind == "exchange":
            return self._check_exchange(step)
        if step.kind == "link":
            return self._check_link(step)
        return self._check_place(step)

    def _check_end(self) -> Reason | None:
        if self.exchanged and not self.placed_other:
            return Reason.of("exchange_needs_other_card")
        if not self.played and self.stock_size:
            return Reason.of("draw_or_play")
        # ELV-7: a joker alone never forces; a turn full of discards leaves no room to play
        if (not self.stock_size and not self.placed_other and self.played < self.limit
                and self.can_place_number()):
            return Reason.of("must_play")
        return None

    def _check_place(self, step: Step) -> Reason | None:
        row, pos = step.row, step.pos
        if step.card != JOKER and (row, pos) != split_card(step.card):
            return Reason.of("wrong_place", card=step.card)
        if not self._on_board(row, pos):
            return Reason.of("no_such_place", row=row, pos=pos)
        if pos in self.rows[row]:
            return Reason.of("place_taken", row=row, pos=pos)
        if not self._touches(row, pos):
            return Reason.of("not_next_to_row", row=row, pos=pos)
        return None

    def _check_link(self, step: Step) -> Reason | None:
        if self.beginner:
            return Reason.of("no_links_in_beginner")
        if self.link_cards[self.seat] == 0:
            return Reason.of("no_link_card")
        row, pos = step.row, step.pos
        if step.card != JOKER and (row, pos) != split_card(step.card):
            return Reason.of("wrong_place", card=step.card)
        if not self._on_board(step.source, pos) or not self._on_board(row, pos):
            return Reason.of("no_such_place", row=row, pos=pos)
        if row not in self.neighbours(step.source):
            return Reason.of("not_neighbour_row", source=step.source, row=row)
        if pos not in self.rows[step.source]:
            return Reason.of("link_needs_card", row=step.source, pos=pos)
        if pos in self.rows[row]:
            return Reason.of("place_taken", row=row, pos=pos)
        return None

    def _check_exchange(self, step: Step) -> Reason | None:
        row, pos = split_card(step.card)
        if step.card == JOKER or (step.row, step.pos) != (row, pos):
            return Reason.of("wrong_place", card=step.card)
        if self.rows[row].get(pos) != JOKER:
            return Reason.of("no_joker_there", row=row, pos=pos)
        # ELV-8: room and a free place must remain for the other card the exchange requires
        if not self.placed_other and (self.played + 1 >= self.limit
                                      or not any(self.free_ends(r) for r in self.order)):
            return Reason.of("exchange_needs_other_card")
        return None

    def legal_steps(self) -> list[Step]:
        """Every legal step of this seat now (none when it is not the seat's turn)."""
        if self.over or self.seat != self.turn:
            return []
        hand = self.hand
        candidates: list[Step] = [DRAW, END, UNDO, DISCARD]
        numbers = [card for card in dict.fromkeys(hand) if card != JOKER]
        candidates += [place(card) for card in numbers]
        candidates += [Step("exchange", card, *split_card(card)) for card in numbers]
        joker = JOKER in hand
        if joker:
            candidates += [Step("place", JOKER, row, pos)
                           for row in self.order for pos in self.free_ends(row)]
        if self.link_cards[self.seat] and not self.beginner:
            for source in self.order:
                for other in self.neighbours(source):
                    for pos in sorted(self.rows[source]):
                        if pos in self.rows[other]:
                            continue
                        card = f"{other}{pos}"
                        if card in hand:
                            candidates.append(Step("link", card, other, pos, source))
                        if joker:
                            candidates.append(Step("link", JOKER, other, pos, source))
        return [step for step in candidates if self.check(step) is None]


def _neighbours(order: Sequence[str], row: str) -> list[str]:
    index = order.index(row)
    return [order[i] for i in (index - 1, index + 1) if 0 <= i < len(order)]


def segments(cells: Mapping[int, str]) -> list[tuple[int, int]]:
    """Contiguous runs of occupied positions: ``segments({3: .., 4: .., 8: ..}) == [(3, 4),
    (8, 8)]``."""
    runs: list[tuple[int, int]] = []
    for pos in sorted(cells):
        if runs and runs[-1][1] == pos - 1:
            runs[-1] = (runs[-1][0], pos)
        else:
            runs.append((pos, pos))
    return runs


class Elevens(Game[Step, ElevensView]):
    """The rules engine; ``beginner=True`` plays ELV-12, ``first`` is the starting seat."""

    name: ClassVar[str] = "elevens"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.data: dict[str, Any] = state["data"]
        self.players: int = state["players"]
        self.beginner: bool = state["beginner"]
        self.order: list[str] = list(state["order"])
        self.rows: dict[str, dict[int, str]] = {
            row: {int(pos): card for pos, card in cells.items()}
            for row, cells in state["rows"].items()}
        self.hands: list[list[str]] = [list(hand) for hand in state["hands"]]
        self.links: list[int] = list(state["links"])
        self.table_links: list[tuple[str, int, str]] = [
            (source, pos, row) for source, pos, row in state["table_links"]]
        self.links_out: int = state["links_out"]
        self.stock: list[str] = list(state["stock"])
        self.boxed: int = state["boxed"]
        self.bonuses: list[int] = list(state["bonuses"])
        self.bonus_left: int = state["bonus_left"]
        self.current: Seat = state["current"]
        self.turn: list[dict[str, Any]] = [dict(step) for step in state["turn"]]
        self.idle: int = state["idle"]
        self.over: bool = state["over"]
        self.out: Seat | None = state["out"]
        self.rng = rng_from_json(state["rng"])
        self.lowest: int = self.data["lowest"]
        self.highest: int = self.data["highest"]
        self.start: int = self.data["start"]
        self.limit: int = self.data["cards_per_turn"]
        self._rank = {colour: index for index, colour in enumerate(self.data["colours"])}
        self.start_events: list[Event] = []

    # ---- setup and saving -------------------------------------------------------------

    @classmethod
    def _create(cls, players: int, seed: int, data: Mapping[str, Any],
                **options: Any) -> Elevens:
        unknown = set(options) - {"beginner", "first"}
        if unknown:
            raise data_problem("unknown_option", game="elevens",
                               option=sorted(unknown)[0][:20])
        beginner, first = options.get("beginner", False), options.get("first", 0)
        if type(beginner) is not bool:
            raise data_problem("option_value", option="beginner",
                               value=str(beginner)[:20])
        if type(first) is not int or not 0 <= first < players:
            raise data_problem("option_value", option="first", value=str(first)[:20])
        try:
            data = _BOX(data, "data")
        except BadState as damaged:
            raise saved.box_problem(damaged) from None
        deal = data["deal"].get(str(players))
        if deal is None:
            raise data_problem("box_data", at="deal", why="missing", players=players)
        rng = random.Random(seed)
        colours = list(data["colours"])
        order = colours[:]
        rng.shuffle(order)  # ELV-2: a seeded column order, fixed for the game
        start, jokers = data["start"], 0 if beginner else data["jokers"]
        deck = [f"{colour}{value}" for colour in colours
                for value in range(data["lowest"], data["highest"] + 1) if value != start]
        deck += [JOKER] * jokers
        rng.shuffle(deck)
        link_each, hand_size = (0 if beginner else deal[0]), deal[1]
        if hand_size * players > len(deck) or link_each * players > data["link_cards"]:
            raise data_problem("box_data", at="deal", why="too_few_cards",
                               players=players)
        hands = [deck[seat * hand_size:(seat + 1) * hand_size] for seat in range(players)]
        game = cls({
            "data": data, "players": players, "beginner": beginner, "order": order,
            "rows": {colour: {str(start): f"{colour}{start}"} for colour in colours},
            "hands": hands, "links": [link_each] * players, "table_links": [],
            "links_out": (0 if beginner else data["link_cards"]) - link_each * players,
            "stock": deck[hand_size * players:], "boxed": 0, "bonuses": [0] * players,
            "bonus_left": 0 if beginner else data["bonus_cards"], "current": first,
            "turn": [], "idle": 0, "over": False, "out": None,
            "rng": rng_state_to_json(rng),
        })
        for seat, hand in enumerate(game.hands):
            game._sort(hand)
            game.start_events.append(Dealt(seat, len(hand), tuple(hand)))
        return game

    def to_dict(self) -> dict[str, Json]:
        return {
            "data": saved.plain(self.data, "data"), "players": self.players,
            "beginner": self.beginner, "order": list(self.order),
            "rows": {row: {str(pos): card for pos, card in sorted(cells.items())}
                     for row, cells in self.rows.items()},
            "hands": [list(hand) for hand in self.hands], "links": list(self.links),
            "table_links": [list(link) for link in self.table_links],
            "links_out": self.links_out, "stock": list(self.stock), "boxed": self.boxed,
            "bonuses": list(self.bonuses), "bonus_left": self.bonus_left,
            "current": self.current, "turn": [dict(step) for step in self.turn],
            "idle": self.idle, "over": self.over, "out": self.out,
            "rng": rng_state_to_json(self.rng),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Elevens:
        return _read(data)

    def census(self) -> Counter[str]:
        """Number cards and jokers (``*``, those back in the box too), link cards (``L``)
        and bonus cards (``B``) wherever they are."""
        found = Counter(card for row in self.rows.values() for card in row.values())
        for pile in (*self.hands, self.stock):
            found.update(pile)
        found[JOKER] += self.boxed
        found[LINK_CARD] += sum(self.links) + len(self.table_links) + self.links_out
        found[BONUS_CARD] += sum(self.bonuses) + self.bonus_left
        return +found

    def box_cards(self) -> Counter[str]:
        data, extras = self.data, not self.beginner
        found = Counter(f"{colour}{value}" for colour in data["colours"]
                        for value in range(self.lowest, self.highest + 1))
        found[JOKER] = data["jokers"] * extras
        found[LINK_CARD] = data["link_cards"] * extras
        found[BONUS_CARD] = data["bonus_cards"] * extras
        return +found

    # ---- turn order ---------------------------------------------------------------------

    def actors(self) -> list[Seat]:
        return [] if self.over else [self.current]

    def is_over(self) -> bool:
        return self.over

    # ---- checking, through the seat's view (a seat's legal steps depend on what it knows)

    def neighbours(self, row: str) -> list[str]:
        return _neighbours(self.order, row)

    def check(self, seat: Seat, move: Step) -> Reason | None:
        if self.over:
            return Reason.of("game_over")
        if not self.is_seat(seat):
            return Reason.of("no_such_seat", seat=repr(seat)[:20])
        if not _well_formed(move):
            return Reason.of("unknown_move", text=repr(move)[:40])
        return self.view(seat).check(move)

    def legal_moves(self, seat: Seat) -> list[Step]:
        return self.view(seat).legal_steps() if self.is_seat(seat) else []

    def _apply(self, seat: Seat, move: Step) -> list[Event]:
        if move.kind == "draw":
            card = self.stock.pop()
            self.hands[seat].append(card)
            self._sort(self.hands[seat])
            return [Drew(seat, (card,)), *self._end_turn(seat, passed=False)]
        if move.kind == "end":
            return self._end_turn(seat, passed=not self.turn)
        if move.kind == "undo":
            return self._undo(seat)
        hand = self.hands[seat]
        hand.remove(move.card)
        record: dict[str, Any] = {"kind": move.kind, "card": move.card, "row": move.row,
                                  "pos": move.pos, "source": move.source, "bonus": ""}
        self.turn.append(record)
        events: list[Event]
        if move.kind == "discard":
            self.boxed += 1
            events = [Discarded(seat)]
        elif move.kind == "exchange":
            self.rows[move.row][move.pos] = move.card
            hand.append(JOKER)
            self._sort(hand)
            events = [Exchanged(seat, move.row, move.pos)]
        else:
            if move.kind == "link":
                self.links[seat] -= 1
                self.table_links.append((move.source, move.pos, move.row))
            self.rows[move.row][move.pos] = move.card
            events = [Placed(seat, move.card, move.row, move.pos, move.source)]
            half = self._completed_half(move.row, move.pos)
            if half and self.bonus_left > 0:
                self.bonus_left -= 1
                self.bonuses[seat] += 1
                record["bonus"] = half
                events.append(BonusTaken(seat, move.row, half))
        if not hand:  # ELV-11: the game stops the moment a hand is empty
            self.out = seat
            events += self._finish()
        return events

    def _completed_half(self, row: str, pos: int) -> str:
        if self.beginner:
            return ""
        low = pos < self.start
        span = range(self.lowest, self.start) if low else range(self.start + 1, self.highest + 1)
        cells = self.rows[row]
        return ("low" if low else "high") if all(p in cells for p in span) else ""

    def _undo(self, seat: Seat) -> list[Event]:
        record = self.turn.pop()
        kind, card, row, pos = record["kind"], record["card"], record["row"], record["pos"]
        hand = self.hands[seat]
        if kind == "discard":
            self.boxed -= 1
        elif kind == "exchange":
            self.rows[row][pos] = JOKER
            hand.remove(JOKER)
        else:
            del self.rows[row][pos]
            if kind == "link":
                self.links[seat] += 1
                self.table_links.pop()
            if record["bonus"]:
                self.bonus_left += 1
                self.bonuses[seat] -= 1
        hand.append(card)
        self._sort(hand)
        return [Undone(seat, _step_of(record))]

    def _end_turn(self, seat: Seat, passed: bool) -> list[Event]:
        self.turn = []
        self.idle = self.idle + 1 if passed else 0
        self.current = (seat + 1) % self.players
        events: list[Event] = [TurnEnded(seat, self.current, passed)]
        if not self.stock and self.idle >= self.players:
            events += self._finish()
        return events

    def _finish(self) -> list[Event]:
        self.over = True
        self.turn = []
        return [GameOver(self.out, tuple(self.scores()), tuple(self.winners()))]

    def _sort(self, hand: list[str]) -> None:
        def key(card: str) -> tuple[int, int]:
            if card == JOKER:
                return (len(self._rank), 0)
            row, pos = split_card(card)
            return (self._rank[row], pos)

        hand.sort(key=key)

    # ---- scores ------------------------------------------------------------------------

    def scores(self) -> list[int]:
        """ELV-11: +bonus per bonus card, minus each number card's value, joker penalty."""
        points = self.data["points"]
        result = []
        for seat, hand in enumerate(self.hands):
            total = self.bonuses[seat] * points["bonus"] + self.links[seat] * points["link"]
            for card in hand:
                total += points["joker"] if card == JOKER else -split_card(card)[1]
            result.append(total)
        return result

    def winners(self) -> list[Seat]:
        """ELV-12: in the beginner variant the player who went out wins alone."""
        if self.beginner and self.out is not None:
            return [self.out]
        return super().winners()

    # ---- views --------------------------------------------------------------------------

    def view(self, seat: Seat) -> ElevensView:
        if not self.is_seat(seat):
            raise self.no_such_seat(seat)
        return ElevensView(
            seat=seat, players=self.players, order=tuple(self.order),
            rows={row: dict(cells) for row, cells in self.rows.items()},
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            link_cards=tuple(self.links), table_links=tuple(self.table_links),
            stock_size=len(self.stock), bonuses=tuple(self.bonuses), bonus_left=self.bonus_left,
            turn=None if self.over else self.current,
            played=len(self.turn), limit=self.limit,
            steps=tuple(_step_of(r) for r in self.turn),
            placed_other=any(r["kind"] in ("place", "link") for r in self.turn),
            exchanged=any(r["kind"] == "exchange" for r in self.turn),
            beginner=self.beginner, over=self.over,
            lowest=self.lowest, highest=self.highest, start=self.start)

    # ---- notation -----------------------------------------------------------------------

    def format_move(self, move: Step) -> str:
        return format_step(move)

    def parse_move(self, seat: Seat, text: str) -> Step:
        return parse_step(text, self.rows, self.lowest, self.highest)


def _step_of(record: Mapping[str, Any]) -> Step:
    return Step(record["kind"], record["card"], record["row"], record["pos"], record["source"])


LINK_CARD, BONUS_CARD = "L", "B"  # how link and bonus cards are counted in a census
_LETTERS = tuple(string.ascii_lowercase)
_HALVES = ("", "low", "high")
_RECORD_KINDS = ("place", "link", "exchange", "discard")


def _well_formed(step: object) -> bool:
    return (type(step) is Step and type(step.kind) is str and type(step.card) is str
            and type(step.row) is str and type(step.pos) is int and type(step.source) is str)


def _links_dealt(box: saved.Read, at: str) -> None:
    """ELV-3: the link cards dealt at the start are in the box."""
    for players, (link_each, _) in box["deal"].items():
        saved.ensure(link_each * int(players) <= box["link_cards"], f"data.deal.{players}",
                     "too_many_links")


# ELV-1, ELV-3, ELV-4, ELV-10, ELV-11: the box's numbers
_BOX = saved.BoxData(saved.Record({
    "colours": saved.ListOf(saved.Text(_LETTERS), 8, least=2, distinct=True),
    "lowest": saved.Int(1, 99), "start": saved.Int(1, 99), "highest": saved.Int(1, 99),
    "jokers": saved.Int(0, 20), "link_cards": saved.Int(0, 100), "bonus_cards": saved.Int(0, 20),
    "cards_per_turn": saved.Int(1, 20),
    "deal": saved.MapOf(saved.Text([str(n) for n in range(2, 7)]),  # players: link cards, hand
                        saved.ListOf(saved.Int(0, 200), 2, 2)),
    "points": saved.Record({key: saved.Int(-1000, 1000) for key in ("bonus", "joker", "link")}),
}, checks=[lambda box, at: saved.ensure(box["lowest"] < box["start"] < box["highest"],
                                        "data.start", "out_of_range"), _links_dealt]))


def _dealt(head: saved.Read, at: str) -> None:
    """ELV-3: the box says what to deal to this many players."""
    players = head["players"]
    saved.ensure(str(players) in head["data"]["deal"], "data.deal", "missing", players=players)


_HEAD = saved.Record({"data": _BOX,
                      "players": saved.Int(Elevens.min_players, Elevens.max_players)},
                     checks=[_dealt])


def _body(players: int, box: Mapping[str, Any]) -> saved.Record:
    """The fields of a saved state after the box and the players, named as the state
    :class:`Elevens` is made from."""
    colours: list[str] = box["colours"]
    lowest, start, highest = box["lowest"], box["start"], box["highest"]
    numbers = {f"{colour}{value}" for colour in colours for value in range(lowest, highest + 1)}
    known = (numbers - {f"{colour}{start}" for colour in colours}) | {JOKER}
    cards, row_name = saved.Cards(known, len(known) + box["jokers"]), saved.Text(colours)
    places = {str(pos) for pos in range(lowest, highest + 1)}

    def row_cells(value: object, at: str, row: str) -> dict[str, str]:
        """ELV-1: a row's cards by position, each at its place (or a joker), the start card
        among them."""
        cells: dict[int, str] = {}
        for pos_text, card in saved.need_dict(value, at).items():
            where = f"{at}.{str(pos_text)[:5]}"
            saved.ensure(pos_text in places, where, "no_such_place")
            saved.ensure(card in (f"{row}{pos_text}", JOKER), where, "wrong_card")
            cells[int(pos_text)] = card
        saved.ensure(cells.get(start) == f"{row}{start}", at, "start_card_missing")
        return {str(pos): cells[pos] for pos in sorted(cells)}

    def rows(value: object, at: str) -> dict[str, dict[str, str]]:
        found = saved.need_dict(value, at)
        saved.ensure(sorted(found) == sorted(colours), at, "wrong_rows")
        return {row: row_cells(found[row], f"{at}.{row}", row) for row in colours}

    step = saved.Record({
        "kind": saved.Text(_RECORD_KINDS), "card": saved.TEXT, "row": saved.Text(("", *colours)),
        "pos": saved.Int(0, highest), "source": saved.Text(("", *colours)),
        "bonus": saved.Text(_HALVES)})
    return saved.Record({
        "order": saved.ListOf(row_name, len(colours), len(colours), distinct=True), "rows": rows,
        "table_links": saved.ListOf(saved.Fixed((row_name, saved.Int(lowest, highest), row_name)),
                                    200),  # from row, position, to row
        "over": saved.FLAG, "beginner": saved.FLAG, "hands": saved.one_per_seat(players, cards),
        "links": saved.one_per_seat(players, saved.Int(0, 100)), "links_out": saved.Int(0, 100),
        "stock": cards, "boxed": saved.Int(0, 20),
        "bonuses": saved.one_per_seat(players, saved.Int(0, 20)), "bonus_left": saved.Int(0, 20),
        "current": saved.Seat(players), "turn": saved.ListOf(step, box["cards_per_turn"]),
        "idle": saved.Int(0, players), "out": saved.Seat(players, None), "rng": saved.RNG,
    })


def _read(data: object) -> Elevens:
    """The game of a saved state, every field checked (see :meth:`Game.from_dict`)."""
    head = _HEAD(data, "")
    players = head["players"]
    read = _body(players, head["data"])(data, "")
    clean = {**read, "data": head["data"], "players": players,
             "rng": rng_state_to_json(read["rng"])}
    game = Elevens(clean)
    _check_links(game)
    for index, step in enumerate(game.turn):
        _check_step(step, f"turn.{index}", game.lowest)
    saved.same_cards(game.census(), game.box_cards())
    hands, out, over = game.hands, game.out, game.over
    saved.ensure(out is None or (over and not hands[out]), "out", "wrong_for_hand")
    saved.ensure(over or all(hands), "hands", "empty_hand")  # ELV-11: the game would be over
    saved.ensure(over or game.idle < players, "idle", "out_of_range")
    saved.ensure(not (over and game.turn), "turn", "wrong_for_over")
    _undoable(Elevens(clean))
    return game


def _check_links(game: Elevens) -> None:
    """ELV-6: a link card joins a card to the same place of a neighbouring row, once;
    ELV-5, ELV-6: every segment of a row grows from its start card or from a link card."""
    targets: set[tuple[str, int]] = set()
    for index, (source, pos, row) in enumerate(game.table_links):
        at = f"table_links.{index}"
        saved.ensure(row in game.neighbours(source), at, "not_neighbour_row")
        saved.ensure(pos in game.rows[source] and pos in game.rows[row], at, "link_needs_cards")
        saved.ensure((row, pos) not in targets, at, "twice")
        targets.add((row, pos))
    for row, cells in game.rows.items():
        for low, high in segments(cells):
            saved.ensure(low <= game.start <= high or any(
                (row, pos) in targets for pos in range(low, high + 1)), f"rows.{row}",
                "segment_from_nowhere")


def _check_step(step: Mapping[str, Any], at: str, lowest: int) -> None:
    """A step of the turn in progress holds what ``undo`` needs to take it back: a discarded
    joker, or a card at a place (through a link when ``source``), with the bonus it earned."""
    kind, card, row, pos, source, bonus = (step[key] for key in (
        "kind", "card", "row", "pos", "source", "bonus"))
    if kind == "discard":
        saved.ensure(card == JOKER and not (row or pos or source or bonus), at, "wrong_step")
        return
    saved.ensure(bool(row) and lowest <= pos, at, "no_such_place")
    saved.ensure(card in (JOKER, f"{row}{pos}") and (kind != "exchange" or card != JOKER),
                 at, "wrong_card")
    saved.ensure(bool(source) == (kind == "link"), at, "wrong_step")
    saved.ensure(not bonus or kind in ("place", "link"), at, "wrong_step")


def _undoable(game: Elevens) -> None:
    """Refuse a turn in progress that ``undo`` could not take back step by step."""
    seat = game.current
    while game.turn:
        record = game.turn[-1]
        kind, card, row, pos = record["kind"], record["card"], record["row"], record["pos"]
        at = f"turn.{len(game.turn) - 1}"
        if kind == "discard":
            saved.ensure(game.boxed > 0, at, "not_on_table")
        elif kind == "exchange":
            saved.ensure(game.rows[row].get(pos) == card and JOKER in game.hands[seat], at,
                         "not_on_table")
        else:
            saved.ensure(game.rows[row].get(pos) == card and pos != game.start, at,
                         "not_on_table")
            if kind == "link":
                saved.ensure(bool(game.table_links) and game.table_links[-1] == (
                    record["source"], pos, row), at, "not_on_table")
            saved.ensure(not record["bonus"] or game.bonuses[seat] > 0, at, "no_bonus")
        game._undo(seat)


def _rows_default(state: State) -> dict[str, dict[str, str]]:
    box = _BOX(state["data"], "data")
    return {colour: {str(box["start"]): f"{colour}{box['start']}"} for colour in box["colours"]}


def _deal(state: State) -> list[int]:
    if state["beginner"]:
        return [0] * state["players"]
    return [_BOX(state["data"], "data")["deal"][str(state["players"])][0]] * state["players"]


def _links_out(state: State) -> int:
    if state["beginner"]:
        return 0
    return int(_BOX(state["data"], "data")["link_cards"] - sum(state["links"])
               - len(state["table_links"]))


def _bonus_left(state: State) -> int:
    if state["beginner"]:
        return 0
    return int(_BOX(state["data"], "data")["bonus_cards"] - sum(state["bonuses"]))


def _rest_of_box(state: State) -> list[str]:
    """The position's default stock: every number card and joker in no hand, not on the
    table and not discarded, in box order."""
    box = _BOX(state["data"], "data")
    cards = [f"{colour}{value}" for colour in box["colours"]
             for value in range(box["lowest"], box["highest"] + 1) if value != box["start"]]
    cards += [JOKER] * (0 if state["beginner"] else box["jokers"])
    rest = Counter(cards)
    rest.subtract(card for hand in state["hands"] for card in hand)
    rest.subtract(card for cells in state["rows"].values() for card in cells.values())
    rest[JOKER] -= state["boxed"]
    return [card for card in dict.fromkeys(cards) for _ in range(max(rest[card], 0))]


class _Rows:
    """The table: every card on it, jokers as ``*@b7``: ``r9,r10,r11,*@r12,y11,g11,b11``."""

    def write(self, value: Any) -> str:
        return ",".join(card if card != JOKER else f"*@{row}{pos}"
                        for row, cells in value.items() for pos, card in cells.items())

    def read(self, text: str) -> Any:
        rows: dict[str, dict[str, str]] = {}
        for item in text.split(","):
            row, pos = split_card(item[2:] if item.startswith("*@") else item)
            if not row:
                raise ValueError(item)
            rows.setdefault(row, {})[str(pos)] = JOKER if item.startswith("*@") else item
        return rows


class _Links:
    """The link cards laid: ``r12>b,g5>y`` (from row, position, to row)."""

    def write(self, value: Any) -> str:
        return ",".join(f"{source}{pos}>{row}" for source, pos, row in value) or "-"

    def read(self, text: str) -> Any:
        if text == "-":
            return []
        links = []
        for item in text.split(","):
            start, _, row = item.partition(">")
            source, pos = split_card(start)
            if not source or not row:
                raise ValueError(item)
            links.append([source, pos, row])
        return links


class _Turn:
    """The steps of the turn in progress, in notation without spaces, a bonus taken marked
    ``+low`` or ``+high``: ``r12,Lr12>b+high``."""

    def write(self, value: Any) -> str:
        return ",".join(format_step(_step_of(record)).replace(" ", "")
                        + (f"+{record['bonus']}" if record["bonus"] else "")
                        for record in value) or "-"

    def read(self, text: str) -> Any:
        if text == "-":
            return []
        records = []
        for item in text.split(","):
            notation, _, bonus = item.partition("+")
            try:
                step = parse_step(notation, _LETTERS, 0, 999)
            except NotationError:
                raise ValueError(item) from None
            records.append({"kind": step.kind, "card": step.card, "row": step.row,
                            "pos": step.pos, "source": step.source, "bonus": bonus})
        return records


Elevens.POSITION = (
    Field("players", INT), Field("beginner", FLAG, const(False)),
    Field("order", TEXTS, lambda state: list(_BOX(state["data"], "data")["colours"])),
    Field("current", INT, const(0)), Field("rows", _Rows(), _rows_default),
    Field("table_links", _Links(), const([])), Field("hands", PER_SEAT_TEXTS),
    Field("turn", _Turn(), const([])), Field("links", INTS, _deal),
    Field("links_out", INT, _links_out), Field("bonuses", INTS, per_seat(0)),
    Field("bonus_left", INT, _bonus_left), Field("boxed", INT, const(0)),
    Field("idle", INT, const(0)), Field("over", FLAG, const(False)),
    Field("out", MAYBE_INT, const(None)), Field("stock", TEXTS, _rest_of_box),
)
