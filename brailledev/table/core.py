"""The table core: one game, its seats (people or bots), its store; no display, no wire.

A table plays the moves its seats send (the engine checks them), lets its bots act, keeps the
turn clock of seats that have a time limit, and hands each seat its view and the events as
that seat may learn them (``events_for``). The one-person ``play`` is a local table with one
person; a server holds many tables and sends the same views and events over the wire.

    table = Table.new("uno", players=3, seed=7, people=(0,), bots="heuristic,random")
    table.listen(lambda seat, events: print(seat, events))   # filtered per seat
    reason = table.play(0, move)          # None when played, else why it was refused
    table.run_bots()                      # the bots act until a person must
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from brailledev.table.turntimer import TurnTimer
from games.core import (
    BadState,
    Bot,
    Event,
    Game,
    IllegalMove,
    Reason,
    Seat,
    TurnClock,
    bad_state,
    events_for,
)
from games.play import optional_actors, tell_bots
from games.saved import each, field, flag, integer, need_dict, text
from layouts.registry import GAMES, kit

DEFAULT_BOT = "heuristic"
# Bounds of a saved table: far above any real game (a seed is a 64-bit number).
MOST_SEED = 2**64 - 1
MOST_MOVES = 10**9

# A listener hears every seat's events, each already filtered for that seat.
Listener = Callable[[Seat, Sequence[Event]], None]


def bot_names(bots: str) -> list[str]:
    """The bot names of a ``--bots`` list, in turn; the default bot when none is named:
    ``bot_names("heuristic, random") == ["heuristic", "random"]``."""
    return [each.strip() for each in bots.split(",") if each.strip()] or [DEFAULT_BOT]


@dataclass(frozen=True)
class TimeLeft(Event):
    """The turn clock reached a mark (60, then 15 seconds left; 0: time is up, the timeout
    move follows): told to that seat only."""

    seat: Seat
    seconds: int

    def seen_by(self, seat: Seat) -> Event | None:
        return self if seat == self.seat else None


@dataclass
class Seating:
    """Who sits where: the seats people hold, a bot name for every other seat, and the seed
    the bots were made from."""

    people: tuple[Seat, ...]
    bots: dict[Seat, str]
    bot_seed: int

    def make_bots(self, game: str) -> dict[Seat, Bot[Any, Any]]:
        game_kit = kit(game)
        return {seat: game_kit.make_bot(name, self.bot_seed * 16 + seat)
                for seat, name in self.bots.items()}


class Table:
    """A game and its seats; see the module docstring."""

    def __init__(self, name: str, game: Game[Any, Any], seating: Seating, moves: int = 0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.game = game
        self.seating = seating
        self.bots = seating.make_bots(name)
        tell_bots(self.bots, self.start_events)  # a fresh game's deal (none once resumed)
        self.moves = moves
        # The turn clock of seats with a time limit (Rummikub RUM-7): the game's rule says
        # how long a turn may take and which move the time running out plays.
        self.timed: TurnClock[Any] | None = kit(name).clock
        self.timer = TurnTimer(clock)
        self._listeners: list[Listener] = []
        # Bots that may act without being waited for are asked once per position.
        self._optional_asked = -1

    @classmethod
    def new(cls, name: str, players: int, seed: int, people: Iterable[Seat] = (0,),
            bots: str = DEFAULT_BOT, options: Mapping[str, Any] | None = None,
            **kwargs: Any) -> Table:
        """A new game: people in ``people``, bots (one name, or names given in turn) in the
        other seats; ``options`` are the game's variants (e.g. ``{"match_target": 0}``)."""
        game = kit(name).new_game(players, seed, **dict(options or {}))
        names = bot_names(bots)
        held = tuple(sorted(set(people)))
        others = [seat for seat in range(players) if seat not in held]
        seating = Seating(held, {seat: names[i % len(names)] for i, seat in enumerate(others)},
                          seed)
        return cls(name, game, seating, **kwargs)

    @property
    def players(self) -> int:
        return len(self.game.scores())

    @property
    def start_events(self) -> list[Event]:
        """What the game dealt or turned at its creation (Uno's deal), as full events."""
        events: list[Event] = getattr(self.game, "start_events", [])
        return events

    # ---- saving ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The table as plain data: the game, who sits where, the bots and what they remember,
        whether the bots were already asked if they act in this position (Uno's catch), the
        turn clock."""
        return {
            "game": self.name,
            "state": self.game.to_dict(),
            "people": list(self.seating.people),
            "bots": {str(seat): bot for seat, bot in self.seating.bots.items()},
            "bot_seed": self.seating.bot_seed,
            "bot_states": {str(seat): _bot_state(bot) for seat, bot in self.bots.items()},
            "moves": self.moves,
            "optional_asked": self._optional_asked == self.moves,
            "clock": self.timer.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], **kwargs: Any) -> Table:
        """A table saved by :meth:`to_dict`, every field checked: anything that is not a
        table this code could have saved is :class:`games.core.BadState`, its ``at`` naming
        the field from the table (``state.hands.1``, ``bot_states.1.rng``)."""
        saved = need_dict(data, "table")
        name = text(field(saved, "game"), "game", GAMES)
        game_kit = kit(name)
        try:
            game = game_kit.game.from_dict(field(saved, "state"))
        except BadState as error:
            raise _within("state", error) from None
        players = game.players
        people = tuple(each(field(saved, "people"), "people", players,
                            lambda value, at: integer(value, at, 0, players - 1)))
        bots: dict[int, str] = {}
        for key, bot in need_dict(field(saved, "bots"), "bots").items():
            bots[_seat_key(key, "bots", players)] = text(bot, f"bots.{key}", game_kit.bots)
        if sorted((*people, *bots)) != list(range(players)):
            raise bad_state("people", "wrong_seats", players=players)
        seed = integer(field(saved, "bot_seed"), "bot_seed", -MOST_SEED, MOST_SEED)
        moves = integer(saved.get("moves", 0), "moves", 0, MOST_MOVES)
        table = cls(name, game, Seating(people, bots, seed), moves=moves, **kwargs)
        states = need_dict(saved.get("bot_states", {}), "bot_states")
        for key, state in states.items():
            seat = _seat_key(key, "bot_states", players)
            bot = table.bots.get(seat)
            if bot is None:
                raise bad_state(f"bot_states.{key}", "not_a_bot")
            if state is None:
                continue
            try:
                bot.restore(state)
            except BadState as error:
                raise _within(f"bot_states.{key}", error) from None
        if flag(saved.get("optional_asked", False), "optional_asked"):
            table._optional_asked = moves
        try:
            table.timer.restore(saved.get("clock"))
        except BadState as error:
            raise _within("clock", error) from None
        return table

    # ---- what a seat may know ------------------------------------------------------------

    def view(self, seat: Seat) -> Any:
        return self.game.view(seat)

    def legal(self, seat: Seat) -> list[Any]:
        """The seat's legal moves now (they depend only on what the seat knows)."""
        return self.game.legal_moves(seat)

    def listen(self, listener: Listener) -> None:
        """Hear every seat's events from now on, each filtered for its seat."""
        self._listeners.append(listener)

    def publish(self, events: Sequence[Event]) -> None:
        for listener in self._listeners:
            for seat in range(self.players):
                listener(seat, events_for(events, seat))

    # ---- acting ----------------------------------------------------------------------------

    def play(self, seat: Seat, move: Hashable) -> Reason | None:
        """Play ``move`` for ``seat``: ``None`` when played, else the reason it was refused
        (and nothing changed)."""
        reason = self.game.check(seat, move)
        if reason is not None:
            return reason
        try:
            events = self.game.play(seat, move)
        except IllegalMove as error:
            return error.reason
        self._after(events)
        return None

    def bot_due(self) -> Seat | None:
        """The bot that acts next, if the game is not waiting for a person."""
        if self.game.is_over():
            return None
        if self._optional_asked != self.moves:
            for seat in optional_actors(self.game):
                if seat in self.bots:
                    return seat
        waiting = self.game.must_act()
        if waiting and waiting[0] in self.bots:
            return waiting[0]
        return None

    def bot_move(self) -> bool:
        """Let one bot act (catchers first, asked once per position); False if none did."""
        if self.game.is_over():
            return False
        asked = [seat for seat in optional_actors(self.game) if seat in self.bots]
        if self._optional_asked != self.moves and asked:
            self._optional_asked = self.moves  # saved: a resumed table asks them no more
            for seat in asked:
                bot = self.bots[seat]
                move = bot.choose(self.game.view(seat), self.game.legal_moves(seat))
                if move is not None:
                    self._after(self.game.play(seat, move))
                    return True
        waiting = self.game.must_act()
        if not waiting or waiting[0] not in self.bots:
            return False
        seat = waiting[0]
        move = self.bots[seat].choose(self.game.view(seat), self.game.legal_moves(seat))
        if move is None:
            raise RuntimeError(f"the {self.seating.bots[seat]} bot of seat {seat} did not move")
        self._after(self.game.play(seat, move))
        return True

    def run_bots(self, limit: int = 10_000) -> int:
        """Let the bots act until a person must act or the game ends (no pacing: whoever
        shows the table paces them). Returns how many moves they made."""
        count = 0
        while count < limit and self.bot_move():
            count += 1
        return count

    # ---- who plays a seat ------------------------------------------------------------------

    def stand_in(self, seat: Seat, bot: str | None = None) -> None:
        """A bot (``bot``, else the table's first) plays a person's ``seat`` until
        :meth:`take_back`, e.g. while its player is away: ``table.stand_in(1)``."""
        if seat not in self.seating.people:
            raise ValueError(f"seat {seat} is not a person's seat")
        name = bot or next(iter(self.seating.bots.values()), DEFAULT_BOT)
        self.seating.people = tuple(each for each in self.seating.people if each != seat)
        self.seating.bots[seat] = name
        self.bots[seat] = kit(self.name).make_bot(name, self.seating.bot_seed * 16 + seat)

    def take_back(self, seat: Seat) -> None:
        """The person plays ``seat`` again; the bot standing in goes: ``table.take_back(1)``."""
        if seat in self.seating.people:
            return
        del self.seating.bots[seat]
        del self.bots[seat]
        self.seating.people = tuple(sorted((*self.seating.people, seat)))

    # ---- the turn clock --------------------------------------------------------------------

    def timed_seat(self) -> Seat | None:
        """The person whose turn runs against a time limit now, if any."""
        if self.timed is None or self.game.is_over():
            return None
        waiting = self.game.must_act()
        if not waiting or waiting[0] not in self.seating.people:
            return None
        return waiting[0]

    def time_left(self, seat: Seat) -> int | None:
        """Whole seconds ``seat`` has left for its turn, ``None`` when no limit runs for it."""
        self._follow()
        return self.timer.left() if self.timer.turn == (seat, self.moves) else None

    def tick(self) -> bool:
        """Keep the turn clock: tell the seat the marks its time reaches (:class:`TimeLeft`)
        and, when its time is up, play the game's timeout move for it. True when the time
        shown changed or something happened."""
        before = self.timer.left()
        seat = self._follow()
        if seat is None or self.timed is None:
            return before is not None
        changed = self.timer.left() != before
        for seconds in self.timer.due():
            self.publish([TimeLeft(seat, seconds)])
            changed = True
        if self.timer.expired():
            self.timer.follow(None, None)
            self.publish([TimeLeft(seat, 0)])  # time is up: the seat shows what follows
            self.play(seat, self.timed.timeout_move(self.view(seat)))
            return True
        return changed

    def _follow(self) -> Seat | None:
        seat = self.timed_seat()
        limit = None
        if seat is not None and self.timed is not None:
            limit = self.timed.time_limit(self.view(seat))
        self.timer.follow(limit, (seat, self.moves) if limit else None)
        return seat if limit else None

    def _after(self, events: list[Event]) -> None:
        self.moves += 1
        tell_bots(self.bots, events)  # bots remember what their seat saw, as people do
        self.publish(events)


def _seat_key(key: str, at: str, players: int) -> int:
    """A seat written as a key of a JSON object (``"1"``)."""
    if not (isinstance(key, str) and key.isascii() and key.isdecimal() and len(key) < 3):
        raise bad_state(f"{at}.{str(key)[:20]}", "wrong_type", need="seat")
    return integer(int(key), f"{at}.{key}", 0, players - 1)


def _within(at: str, error: BadState) -> BadState:
    """``error`` with its field named from the table: ``state.`` + ``hands.1``."""
    params = error.reason.params
    inner = str(params.get("at", ""))
    params["at"] = f"{at}.{inner}" if inner else at
    return BadState(Reason.of(error.reason.code, **params))


def _bot_state(bot: Bot[Any, Any]) -> Any:
    """What a bot remembers (its random state, its memory), when it can say."""
    to_dict = getattr(bot, "to_dict", None)
    return to_dict() if to_dict is not None else None
