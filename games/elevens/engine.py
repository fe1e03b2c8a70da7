"""Elevens (Elfer raus! Master): four rows of 1-21 around the 11s, link cards, jokers, bonuses.

A turn is a sequence of steps ended by ``end`` (or a single ``draw``); each step is checked on
its own and ``undo`` takes back the last step of the turn in progress. Notation (colour letters
from ``layouts/elevens/rules.toml``, by default ``r y g b``; positions 1-21):

    r5          place the number card r5 at position 5 of row r (ELV-5)
    *@b7        place a joker at position 7 of row b
    L r12>b     lay a link card on r12 toward the neighbour row b and place b12 there (ELV-6)
    L r12>b *   the same, with a joker standing for b12
    x b7        exchange: b7 from the hand replaces the joker at b7, which goes to the hand (ELV-8)
    discard *   discard a joker from the hand back to the box (ELV-9)
    draw        draw the top card of the stock: the whole turn (ELV-4)
    end         end the turn; with nothing placed and an empty stock it is a pass (ELV-7)
    undo        take back the last step of the turn in progress

    game = Elevens.new(players=2, seed=1, data=rules_data("elevens"))
    game.play(0, game.parse_move(0, "r12"))

Where the rulings are silent: once the stock is empty, a whole round of passes ends the game
(nobody can or must play any more), scored as usual.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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

JOKER = "*"
KINDS = ("place", "link", "exchange", "discard", "draw", "end", "undo")


@dataclass(frozen=True)
class Step:
    """One step of a turn. ``card`` is a number card (``r5``) or ``*``; ``row``/``pos`` where it
    goes; ``source`` the row a link card starts from, e.g. ``Step("link", "b12", "b", 12, "r")``.
    """

    kind: str
    card: str = ""
    row: str = ""
    pos: int = 0
    source: str = ""


# The steps that need no card or place.
DRAW, END, UNDO = Step("draw"), Step("end"), Step("undo")
DISCARD = Step("discard", JOKER)


def place(card: str, row: str = "", pos: int = 0) -> Step:
    """``place("r5")`` a number card; ``place("*", "b", 7)`` a joker at b7."""
    if card != JOKER:
        row, pos = split_card(card)
    return Step("place", card, row, pos)


def split_card(card: str) -> tuple[str, int]:
    """``split_card("r12") == ("r", 12)``; a malformed card gives ``("", 0)``."""
    match = _CARD.match(card)
    if match is None:
        return "", 0
    return match.group(1), int(match.group(2))


_CARD = re.compile(r"^([a-z]+)(\d+)$")
_JOKER_AT = re.compile(r"^\*\s*@\s*([a-z]+)(\d+)$")
_LINK = re.compile(r"^l\s*([a-z]+)(\d+)\s*>\s*([a-z]+)\s*(\*)?$")
_EXCHANGE = re.compile(r"^x\s*([a-z]+)(\d+)$")
_DISCARD = re.compile(r"^discard\s*\*?$")


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
class Drew(SeatSecret):
    """The drawn card is known to the drawer only."""

    seat: Seat
    card: str | None

    hidden: ClassVar[Mapping[str, Any]] = {"card": None}


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
    hand_counts: tuple[int, ...]
    link_cards: tuple[int, ...]
    table_links: tuple[tuple[str, int, str], ...]
    stock: int
    bonuses: tuple[int, ...]
    bonus_left: int
    current: Seat | None
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
        if self.seat != self.current:
            return Reason.of("not_your_turn")
        if step.kind == "draw":
            if self.played:
                return Reason.of("draw_only_first")
            return None if self.stock else Reason.of("stock_empty")
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
        if not self.played and self.stock:
            return Reason.of("draw_or_play")
        # ELV-7: a joker alone never forces; a turn full of discards leaves no room to play
        if (not self.stock and not self.placed_other and self.played < self.limit
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
        if self.over or self.seat != self.current:
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

    # ---- setup and saving -------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int, data: Mapping[str, Any], **options: Any) -> Elevens:
        import random

        unknown = set(options) - {"beginner", "first"}
        if unknown:
            raise ValueError(f"unknown Elevens option {sorted(unknown)[0]!r}; "
                             "use beginner or first")
        beginner = bool(options.get("beginner", False))
        first = int(options.get("first", 0))
        if not 0 <= first < players:
            raise ValueError(f"first seat {first} does not exist with {players} players")
        deal = data["deal"].get(str(players))
        if deal is None:
            raise ValueError(f"layouts/elevens/rules.toml has no deal for {players} players")
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
            raise ValueError(f"the deal for {players} players needs more cards than the box has")
        hands = [deck[seat * hand_size:(seat + 1) * hand_size] for seat in range(players)]
        game = cls({
            "data": _plain(data), "players": players, "beginner": beginner, "order": order,
            "rows": {colour: {str(start): f"{colour}{start}"} for colour in colours},
            "hands": hands, "links": [link_each] * players, "table_links": [],
            "links_out": (0 if beginner else data["link_cards"]) - link_each * players,
            "stock": deck[hand_size * players:], "boxed": 0, "bonuses": [0] * players,
            "bonus_left": 0 if beginner else data["bonus_cards"], "current": first,
            "turn": [], "idle": 0, "over": False, "out": None,
            "rng": rng_state_to_json(rng),
        })
        for hand in game.hands:
            game._sort(hand)
        return game

    def to_dict(self) -> dict[str, Json]:
        return {
            "data": _plain(self.data), "players": self.players, "beginner": self.beginner,
            "order": list(self.order),
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
        return cls(data)

    # ---- turn order ---------------------------------------------------------------------

    def actors(self) -> list[Seat]:
        return [] if self.over else [self.current]

    def is_over(self) -> bool:
        return self.over

    # ---- checking, through the seat's view (a seat's legal steps depend on what it knows)

    def neighbours(self, row: str) -> list[str]:
        return _neighbours(self.order, row)

    def check(self, seat: Seat, move: Step) -> Reason | None:
        return self.view(seat).check(move)

    def legal_moves(self, seat: Seat) -> list[Step]:
        return self.view(seat).legal_steps()

    def _apply(self, seat: Seat, move: Step) -> list[Event]:
        if move.kind == "draw":
            card = self.stock.pop()
            self.hands[seat].append(card)
            self._sort(self.hands[seat])
            return [Drew(seat, card), *self._end_turn(seat, passed=False)]
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
        return ElevensView(
            seat=seat, players=self.players, order=tuple(self.order),
            rows={row: dict(cells) for row, cells in self.rows.items()},
            hand=tuple(self.hands[seat]),
            hand_counts=tuple(len(hand) for hand in self.hands),
            link_cards=tuple(self.links), table_links=tuple(self.table_links),
            stock=len(self.stock), bonuses=tuple(self.bonuses), bonus_left=self.bonus_left,
            current=None if self.over else self.current,
            played=len(self.turn), limit=self.limit,
            steps=tuple(_step_of(r) for r in self.turn),
            placed_other=any(r["kind"] in ("place", "link") for r in self.turn),
            exchanged=any(r["kind"] == "exchange" for r in self.turn),
            beginner=self.beginner, over=self.over,
            lowest=self.lowest, highest=self.highest, start=self.start)

    # ---- notation -----------------------------------------------------------------------

    def format_move(self, move: Step) -> str:
        if move.kind in ("draw", "end", "undo"):
            return move.kind
        if move.kind == "discard":
            return "discard *"
        if move.kind == "exchange":
            return f"x {move.card}"
        if move.kind == "link":
            suffix = " *" if move.card == JOKER else ""
            return f"L {move.source}{move.pos}>{move.row}{suffix}"
        if move.card == JOKER:
            return f"*@{move.row}{move.pos}"
        return move.card

    def parse_move(self, seat: Seat, text: str) -> Step:
        words = " ".join(text.strip().split())
        lowered = words.lower()
        if lowered in ("draw", "end", "undo"):
            return Step(lowered)
        if _DISCARD.match(lowered):
            return DISCARD
        match = _EXCHANGE.match(lowered)
        if match:
            card = self._card(match.group(1), match.group(2), text)
            return Step("exchange", card, *split_card(card))
        match = _JOKER_AT.match(lowered)
        if match:
            card = self._card(match.group(1), match.group(2), text)
            return Step("place", JOKER, *split_card(card))
        match = _LINK.match(lowered)
        if match:
            self._card(match.group(1), match.group(2), text)
            card = self._card(match.group(3), match.group(2), text)
            row, pos = split_card(card)
            return Step("link", JOKER if match.group(4) else card, row, pos, match.group(1))
        match = _CARD.match(lowered)
        if match:
            return place(self._card(match.group(1), match.group(2), text))
        raise NotationError(Reason.of("unknown_move", text=text))

    def _card(self, row: str, value: str, text: str) -> str:
        card = f"{row}{int(value)}"
        if row not in self.rows or not self.lowest <= int(value) <= self.highest:
            raise NotationError(Reason.of("unknown_move", text=text))
        return card


def _step_of(record: Mapping[str, Any]) -> Step:
    return Step(record["kind"], record["card"], record["row"], record["pos"], record["source"])


def _plain(value: Any) -> Any:
    """A JSON-able deep copy of box data (TOML tables and arrays as dicts and lists)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [_plain(v) for v in value]
    return value
