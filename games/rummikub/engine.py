"""The Rummikub rules engine (RUM-1 to RUM-9).

A turn is one move: ``draw`` (play nothing; with an empty pool it only passes), ``timeout``
(the session says the seat's time ran out: RUM-7 penalty), or ``table`` with the whole table
as it stands at the end of the turn. The engine compares that final table with the table at
the start of the turn and refuses it with a reason unless every rule holds:

- every set is a run or a group (RUM-3);
- the tiles added are rack tiles, at least one, and no table tile went missing (RUM-5);
- before the initial meld: the table sets are all still there untouched and the new sets,
  made of rack tiles only, are worth the initial meld value (RUM-4);
- jokers (RUM-6), with these precise meanings:
  * a *joker set* is a table set holding a joker at the start of the turn;
  * *never split*: all number tiles of a joker set end in one and the same final set, its
    *successor* (it may grow; two joker sets have two different successors);
  * a joker leaves its set only by an *exchange*: the successor holds the tile the joker
    stood for, played from the rack this turn, by a player whose initial meld was made;
  * the freed joker goes to a *new set*: successors hold no joker beyond their own and the
    rack's, nor does a final set holding a whole joker-free set of the table (that set
    grown: ``R4 R5 J | K1 K2 K3`` may not become ``R4 R5 R6 | K1 K2 K3 J``).

    game = Rummikub.new(players=2, seed=1)
    seat = game.actors()[0]
    game.play(seat, game.parse_move(seat, "table K10 K11 K12"))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
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
from games.position import (
    FLAG,
    FLAGS,
    INT,
    INTS,
    PER_SEAT_TEXTS,
    TEXTS,
    Field,
    ListOf,
    State,
    const,
    per_seat,
)
from games.rummikub import notation
from games.rummikub.notation import Draw, Move, Table, Timeout
from games.rummikub.tiles import (
    COLOURS,
    JOKER,
    Arranged,
    TileSet,
    arrange,
    format_table,
    full_box,
    is_joker,
    number_of,
    sort_key,
    tile_points,
)

__all__ = ["Draw", "Move", "Rummikub", "RummikubView", "Table", "Timeout"]


@dataclass(frozen=True)
class StartDraw(Event):
    """RUM-2: a seat's tile drawn to decide who starts (seen by all; it goes back)."""

    seat: Seat
    tile: str


@dataclass(frozen=True)
class FirstPlayer(Event):
    seat: Seat


@dataclass(frozen=True)
class Dealt(SeatSecret):
    """A seat's starting rack; only that seat sees the tiles (``cards``)."""

    seat: Seat
    cards: tuple[str, ...] | None


@dataclass(frozen=True)
class Drew(SeatSecret):
    """Tiles (``cards``) taken from the pool (``penalty`` after a timeout); others learn
    only how many."""

    seat: Seat
    cards: tuple[str, ...] | None
    count: int
    penalty: bool = False


@dataclass(frozen=True)
class Passed(Event):
    """A seat played nothing while the pool was empty (RUM-9)."""

    seat: Seat


@dataclass(frozen=True)
class Laid(Event):
    """A seat laid ``played`` from its rack; ``table`` is the new table."""

    seat: Seat
    played: tuple[str, ...]
    table: tuple[TileSet, ...]
    initial: bool


@dataclass(frozen=True)
class GameOver(Event):
    winners: tuple[Seat, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class RummikubView:
    """What one seat may know: its own rack (``hand``), the size of every rack and of the pool
    (``stock_size``), the public table; ``turn`` is ``None`` once the game is over."""

    seat: Seat
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[TileSet, ...]
    stock_size: int
    turn: Seat | None
    melded: tuple[bool, ...]
    turn_times: tuple[int, ...]
    initial_meld: int
    joker_penalty: int
    over: bool
    scores: tuple[int, ...]


@dataclass(eq=False, repr=False)  # a game compares by identity and hashes, as the others
class Rummikub(Game[Move, RummikubView]):
    """Rummikub for 2-4 players; see the module docstring for the turn rules."""

    name: ClassVar[str] = "rummikub"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    data: dict[str, Any]
    players: int
    rng: random.Random
    pool: list[str]
    racks: list[list[str]]
    table: list[TileSet]
    melded: list[bool]
    turn: Seat
    turn_times: list[int]
    idle: int = 0  # turns in a row with nothing played while the pool was empty
    over: bool = False
    final: list[int] = field(default_factory=list)
    start_events: list[Event] = field(default_factory=list)

    @classmethod
    def _create(cls, players: int, seed: int, data: Mapping[str, Any],
                **options: Any) -> Rummikub:
        """``turn_times``: seconds per seat (an int for every seat, or a list; 0 = no limit)."""
        try:
            box = _BOX(data, "data")
        except BadState as damaged:
            raise saved.box_problem(damaged) from None
        times = options.pop("turn_times", box["turn_time"])
        if options:
            raise data_problem("unknown_option", game="rummikub",
                               option=sorted(options)[0][:20])
        seat_times = [times] * players if type(times) is int else times
        if (not isinstance(seat_times, (list, tuple)) or len(seat_times) != players
                or any(type(t) is not int or not 0 <= t <= MOST_SECONDS for t in seat_times)):
            raise data_problem("option_value", option="turn_times",
                               value=str(times)[:20])
        rng = random.Random(seed)
        pool = full_box(box["copies"], box["jokers"], box["colours"], box["top"])
        rng.shuffle(pool)
        if box["rack_size"] * players > len(pool):
            raise data_problem("box_data", at="rack_size", why="too_few_tiles")
        events: list[Event] = []
        racks = []
        for seat in range(players):
            rack = sorted((pool.pop() for _ in range(box["rack_size"])), key=sort_key)
            racks.append(rack)
            events.append(Dealt(seat, tuple(rack)))
        # RUM-2: the draw for first player needs two different numbers, or ties never end
        if len({0 if is_joker(tile) else number_of(tile) for tile in pool}) < 2:
            raise data_problem("box_data", at="rack_size", why="too_few_tiles")
        first = _draw_for_first(rng, pool, players, events)
        game = cls(data=box, players=players, rng=rng, pool=pool, racks=racks, table=[],
                   melded=[False] * players, turn=first, turn_times=list(seat_times),
                   start_events=events)
        return game

    # --- the contract -------------------------------------------------------------------

    def actors(self) -> list[Seat]:
        return [] if self.over else [self.turn]

    def legal_moves(self, seat: Seat) -> list[Move]:
        """Table moves cannot be listed (any rearrangement of the table): empty, as the bot
        protocol allows; bots use :func:`games.rummikub.solve` and ``check``."""
        return []

    def check(self, seat: Seat, move: Move) -> Reason | None:
        if self.over:
            return Reason.of("game_over")
        if not self.is_seat(seat):
            return Reason.of("no_such_seat", seat=repr(seat)[:20])
        if seat != self.turn:
            return Reason.of("not_your_turn")
        if type(move) is Draw:
            return None
        if type(move) is Timeout:
            if not self.turn_times[seat]:
                return Reason.of("no_time_limit")
            return None
        if type(move) is not Table or not _well_formed(move.sets):
            return Reason.of("unknown_move", text=repr(move)[:40])
        return self._check_table(seat, move.sets)

    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        events: list[Event] = []
        if isinstance(move, Table):
            final = [_normal(s) for s in move.sets]
            played = _minus(_tiles(final), _tiles(self.table))
            rack = Counter(self.racks[seat])
            rack.subtract(played)
            self.racks[seat] = sorted(rack.elements(), key=sort_key)
            initial = not self.melded[seat]
            self.melded[seat] = True
            self.table = final
            self.idle = 0
            events.append(Laid(seat, tuple(sorted(played.elements(), key=sort_key)),
                               tuple(final), initial))
            if not self.racks[seat]:
                return events + self._finish([seat])
        else:
            count = self.data["penalty_tiles"] if isinstance(move, Timeout) else 1
            drawn = tuple(self.pool.pop() for _ in range(min(count, len(self.pool))))
            if drawn:
                self.racks[seat] = sorted(self.racks[seat] + list(drawn), key=sort_key)
                events.append(Drew(seat, drawn, len(drawn), isinstance(move, Timeout)))
            if not self.pool and len(drawn) < count:
                self.idle += 1
                if not drawn:
                    events.append(Passed(seat))
            else:
                self.idle = 0
            if self.idle >= self.players:
                return events + self._finish(self._lowest())
        self.turn = (self.turn + 1) % self.players
        return events

    def view(self, seat: Seat) -> RummikubView:
        if not self.is_seat(seat):
            raise self.no_such_seat(seat)
        return RummikubView(
            seat=seat, hand=tuple(self.racks[seat]),
            hand_sizes=tuple(len(rack) for rack in self.racks), table=tuple(self.table),
            stock_size=len(self.pool), turn=None if self.over else self.turn,
            melded=tuple(self.melded),
            turn_times=tuple(self.turn_times), initial_meld=self.data["initial_meld"],
            joker_penalty=self.data["joker_penalty"], over=self.over,
            scores=tuple(self.scores()))

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        return list(self.final) if self.final else [0] * self.players

    def rack_points(self, seat: Seat) -> int:
        return sum(tile_points(t, self.data["joker_penalty"]) for t in self.racks[seat])

    def to_dict(self) -> dict[str, Json]:
        return {
            "game": self.name, "data": self.data, "players": self.players,
            "rng": rng_state_to_json(self.rng), "pool": list(self.pool),
            "racks": [list(r) for r in self.racks], "table": [list(s) for s in self.table],
            "melded": list(self.melded), "turn": self.turn, "turn_times": list(self.turn_times),
            "idle": self.idle, "over": self.over, "final": list(self.final),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Rummikub:
        return _read(data)

    def census(self) -> Counter[str]:
        return census_of(self.pool, *self.racks, *self.table)

    def box_cards(self) -> Counter[str]:
        box = self.data
        return Counter(full_box(box["copies"], box["jokers"], box["colours"], box["top"]))

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def parse_move(self, seat: Seat, text: str) -> Move:
        """``draw``, ``timeout`` or ``table K1 K2 K3 | R5 B5 Y5`` (the whole final table)."""
        return notation.parse_move(text)

    # --- the table rules ----------------------------------------------------------------

    def _check_table(self, seat: Seat, sets: Sequence[TileSet]) -> Reason | None:
        final: list[Arranged] = []
        for index, tile_set in enumerate(sets):
            arranged = arrange(tile_set, self.data["min_set"], self.data["top"])
            if isinstance(arranged, Reason):
                return Reason.of("invalid_set", set=index + 1, why=arranged.code)
            final.append(arranged)
        before = _tiles(self.table)
        after = _tiles(s.tiles for s in final)
        missing = _minus(before, after)
        if missing:
            return Reason.of("table_tile_taken", tile=min(missing, key=sort_key))
        played = _minus(after, before)
        if not played:
            return Reason.of("nothing_played")
        short = _minus(played, Counter(self.racks[seat]))
        if short:
            return Reason.of("not_on_rack", tile=min(short, key=sort_key))
        if not self.melded[seat]:
            return self._check_initial(final)
        return check_jokers(self.table, final, played)

    def _check_initial(self, final: list[Arranged]) -> Reason | None:
        remaining = Counter(self.table)
        new_sets = []
        for arranged in final:
            if remaining[arranged.tiles] > 0:
                remaining[arranged.tiles] -= 1
            else:
                new_sets.append(arranged)
        if +remaining:
            return Reason.of("initial_table_touched")
        value = sum(s.value for s in new_sets)
        if value < self.data["initial_meld"]:
            return Reason.of("initial_too_low", value=value, least=self.data["initial_meld"])
        return None

    def _lowest(self) -> list[Seat]:
        points = [self.rack_points(seat) for seat in range(self.players)]
        return [seat for seat, p in enumerate(points) if p == min(points)]

    def _finish(self, winners: list[Seat]) -> list[Event]:
        """RUM-8 (and RUM-9 against the lowest rack): losers score minus their rack, each
        winner the total of the losers' racks."""
        losers = [seat for seat in range(self.players) if seat not in winners]
        total = sum(self.rack_points(seat) for seat in losers)
        self.final = [total if seat in winners else -self.rack_points(seat)
                      for seat in range(self.players)]
        self.over = True
        return [GameOver(tuple(winners), tuple(self.final))]


MOST_SECONDS = 86_400


def _four_colours(value: object, at: str) -> list[str]:
    saved.ensure(value == list(COLOURS), at, "unsupported")
    return list(COLOURS)


# The box's numbers. The solver's dynamic programme is built for this shape of box (see
# games/rummikub/packing): colours K R B Y, tiles 1-13, sets of 3 or more, at most 2 copies
# and 2 jokers.
_BOX = saved.BoxData(saved.Record({
    "colours": _four_colours, "top": saved.Int(13, 13), "min_set": saved.Int(3, 3),
    "copies": saved.Int(1, 2), "jokers": saved.Int(0, 2), "rack_size": saved.Int(1, 50),
    "initial_meld": saved.Int(0, 1000), "joker_penalty": saved.Int(0, 1000),
    "turn_time": saved.Int(0, MOST_SECONDS), "penalty_tiles": saved.Int(0, 20)}))


def _well_formed(sets: object) -> bool:
    """A table move's sets: a tuple of at most 106 tuples of known tiles."""
    return (type(sets) is tuple and len(sets) <= len(_TILES) and all(
        type(tile_set) is tuple and len(tile_set) <= len(_TILES)
        and all(type(tile) is str and tile in _TILES for tile in tile_set)
        for tile_set in sets))


_TILES = frozenset(full_box(1, 1))


_HEAD = saved.Record({"game": saved.Text(("rummikub",)),
                      "players": saved.Int(Rummikub.min_players, Rummikub.max_players),
                      "data": _BOX})


def _body(players: int, box: Mapping[str, Any]) -> saved.Record:
    """The fields of a saved game of ``players`` with the box ``box``, named as
    :class:`Rummikub`'s."""
    box_tiles = full_box(box["copies"], box["jokers"], box["colours"], box["top"])
    tiles = saved.Cards(set(box_tiles), len(box_tiles))

    def tile_set(value: object, at: str) -> TileSet:
        tiles_of = tuple(tiles(value, at))
        arranged = arrange(tiles_of, box["min_set"], box["top"])
        saved.ensure(isinstance(arranged, Arranged) and arranged.tiles == tiles_of, at,
                     "not_a_set")
        return tiles_of

    return saved.Record({
        "pool": tiles, "racks": saved.one_per_seat(players, tiles),
        "table": saved.ListOf(tile_set, len(box_tiles)),
        "melded": saved.one_per_seat(players, saved.FLAG), "over": saved.FLAG,
        "final": saved.ListOf(saved.Int(-saved.MOST_POINTS, saved.MOST_POINTS), players),
        "rng": saved.RNG, "turn": saved.Seat(players),
        "turn_times": saved.one_per_seat(players, saved.Int(0, MOST_SECONDS)),
        "idle": saved.Int(0, players),
    })


def _read(data: object) -> Rummikub:
    """The game of a saved state, every field checked (see :meth:`Game.from_dict`)."""
    head = _HEAD(data, "")
    players = head["players"]
    game = Rummikub(data=head["data"], players=players, **_body(players, head["data"])(data, ""))
    saved.ensure(len(game.final) == (players if game.over else 0), "final", "wrong_for_over")
    saved.same_cards(game.census(), game.box_cards())
    saved.ensure(game.over or all(game.racks), "racks", "empty_rack")  # RUM-8: it has won
    saved.ensure(game.over or game.idle < players, "idle", "out_of_range")
    saved.ensure(not game.table or any(game.melded), "melded", "table_without_meld")
    return game


def _rest_of_box(state: State) -> list[str]:
    """The position's default pool: the box's tiles on no rack and not on the table."""
    box = _BOX(state["data"], "data")
    tiles = full_box(box["copies"], box["jokers"], box["colours"], box["top"])
    rest = Counter(tiles)
    rest.subtract(tile for rack in state["racks"] for tile in rack)
    rest.subtract(tile for tile_set in state["table"] for tile in tile_set)
    return [tile for tile in dict.fromkeys(tiles) for _ in range(max(rest[tile], 0))]


def _draw_for_first(rng: random.Random, pool: list[str], players: int,
                    events: list[Event]) -> Seat:
    """RUM-2: each contender draws a tile, the highest starts (a joker counts 0), the tied
    highest draw again; the tiles go back into the pool."""
    contenders = list(range(players))
    while True:
        drawn = {}
        for seat in contenders:
            tile = pool[rng.randrange(len(pool))]
            drawn[seat] = tile
            events.append(StartDraw(seat, tile))
        values = {seat: 0 if is_joker(t) else number_of(t) for seat, t in drawn.items()}
        best = max(values.values())
        contenders = [seat for seat in contenders if values[seat] == best]
        if len(contenders) == 1:
            events.append(FirstPlayer(contenders[0]))
            return contenders[0]


def _normal(tile_set: TileSet) -> TileSet:
    arranged = arrange(tile_set)
    assert not isinstance(arranged, Reason), "checked before"
    return arranged.tiles


def _tiles(sets: Any) -> Counter[str]:
    counts: Counter[str] = Counter()
    for tile_set in sets:
        counts.update(tile_set)
    return counts


def _minus(a: Counter[str], b: Counter[str]) -> Counter[str]:
    left = Counter(a)
    left.subtract(b)
    return +left


def check_jokers(before: Sequence[TileSet], final: list[Arranged],
                  played: Counter[str]) -> Reason | None:
    """RUM-6 with the meanings of the module docstring; ``before`` sets are canonical. Each
    joker set needs a successor (tried in every way when copies make it ambiguous)."""
    joker_sets = [old for old in before if JOKER in old]
    plain = [Counter(old) for old in before if JOKER not in old]
    holds = [Counter(s.tiles) for s in final]
    candidates = []
    for old in joker_sets:
        numbers = Counter(t for t in old if not is_joker(t))
        found = [i for i, tiles in enumerate(holds) if _within(numbers, tiles)]
        if not found:
            return Reason.of("joker_set_split", set=format_table([old]))
        candidates.append(found)
    # the jokers of each final set that holds a whole set of the table without jokers
    growing = [s.tiles.count(JOKER) if JOKER in s.tiles
               and any(_within(old, tiles) for old in plain) else 0
               for s, tiles in zip(final, holds, strict=True)]
    reason: Reason | None = None
    for chosen in product(*candidates):
        if len(set(chosen)) < len(chosen):
            reason = reason or Reason.of("joker_set_split", set=format_table([joker_sets[0]]))
            continue
        grown = sum(growing) - sum(growing[i] for i in set(chosen))
        reason = _successors_fit(joker_sets, [final[i] for i in chosen], played, grown)
        if reason is None:
            return None
    return reason


def _within(part: Counter[str], whole: Counter[str]) -> bool:
    """Whether every tile of ``part`` is in ``whole``, as many times."""
    return all(whole[tile] >= count for tile, count in part.items())


def _successors_fit(joker_sets: list[TileSet], successors: list[Arranged],
                    played: Counter[str], grown: int = 0) -> Reason | None:
    """Each freed joker exchanged; jokers beyond a successor's own, and those of the sets of
    the table grown (``grown``), only as many as the rack gave."""
    extra_jokers = grown
    for old, new in zip(joker_sets, successors, strict=True):
        jokers = sum(1 for t in old if is_joker(t))
        kept = sum(1 for t in new.tiles if is_joker(t))
        extra_jokers += max(0, kept - jokers)
        freed = jokers - kept
        if freed > 0 and not _exchanged(old, new, freed, played):
            return Reason.of("joker_not_exchanged", set=format_table([old]))
    if extra_jokers > played[JOKER]:
        return Reason.of("freed_joker_not_new_set")
    return None


def _exchanged(old: TileSet, new: Arranged, freed: int, played: Counter[str]) -> bool:
    """Whether ``freed`` jokers of ``old`` each have the tile they stood for in ``new``,
    played from the rack (distinct tiles for distinct jokers)."""
    arranged = arrange(old)
    assert not isinstance(arranged, Reason)
    places = [i for i, t in enumerate(arranged.tiles) if is_joker(t)]
    present = Counter(new.tiles)
    for chosen in combinations(places, freed):
        options = [sorted(arranged.stands_for(i)) for i in chosen]
        if _distinct_pick(options, lambda tile, used: present[tile] > used[tile]
                          and played[tile] > used[tile]):
            return True
    return False


def _distinct_pick(options: list[list[str]], fits: Any) -> bool:
    used: Counter[str] = Counter()

    def pick(i: int) -> bool:
        if i == len(options):
            return True
        for tile in options[i]:
            if fits(tile, used):
                used[tile] += 1
                if pick(i + 1):
                    return True
                used[tile] -= 1
        return False

    return pick(0)


Rummikub.POSITION = (
    Field("players", INT), Field("turn", INT, const(0)), Field("racks", PER_SEAT_TEXTS),
    Field("table", ListOf(TEXTS, "|"), const([])),
    Field("melded", FLAGS, per_seat(False)),
    Field("turn_times", INTS,
          lambda state: [state["data"]["turn_time"]] * state["players"]),
    Field("idle", INT, const(0)), Field("over", FLAG, const(False)),
    Field("final", INTS, const([])), Field("pool", TEXTS, _rest_of_box),
)
