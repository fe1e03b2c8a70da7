"""The play session: one game, this display's seat, computer opponents, a message history,
speech, autosave after every move, resume.

Any game plugs in through the screen of its kit (see :mod:`layouts.screen`):
the session asks it for lines, routes targets (moves, questions, focus changes), tells what
happened in words, and knows nothing else of the game.

    session = Session.start("uno", players=2, seed=7, lang="en", save=Path("uno.json"))
    hand = next(line for line in session.lines() if line.key == HAND_LINE)
    session.route(hand.regions[0].target)     # route the first card of the hand
    session.run_bots()                        # the others answer

``brailledev.play.Front`` puts a session on a display; ``brailledev play`` starts both.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brailledev.files import write_atomically
from brailledev.history import History
from brailledev.speech import Silence, Speech
from brailledev.turntimer import TurnTimer
from games.core import Bot, Event, Game, IllegalMove, Reason, Seat, events_for
from games.play import optional_actors
from layouts.errors import UserError
from layouts.registry import kit
from layouts.screen import (
    MESSAGE_LINE,
    OUTCOMES,
    STATUS_LINE,
    Ask,
    Context,
    GameScreen,
    Line,
    Outcome,
    PlayMove,
    Region,
    Show,
    TimedScreen,
    seat_names,
)

SAVE_FORMAT = "brailledev-save"
SAVE_VERSION = 1
DEFAULT_BOT = "heuristic"


def game_screen(name: str) -> GameScreen:
    """The screen a game offers the session (its kit's); a game without one is refused."""
    screen = kit(name).screen
    if screen is None:
        raise UserError("no_display_screen", game=name)
    return screen


@dataclass
class Seating:
    """Who sits where: the display's seat and a bot name for every other seat."""

    seat: Seat
    bots: dict[Seat, str]
    bot_seed: int

    def make_bots(self, game: str) -> dict[Seat, Bot[Any, Any]]:
        game_kit = kit(game)
        return {seat: game_kit.make_bot(name, self.bot_seed * 16 + seat)
                for seat, name in self.bots.items()}


class Session:
    """A game in progress for one display; see the module docstring."""

    def __init__(self, name: str, game: Game[Any, Any], seating: Seating, lang: str,
                 braille_table: str | None = None, history: History | None = None,
                 save: Path | None = None, speech: Speech | Silence | None = None,
                 pace: float = 1.5, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.game = game
        self.seating = seating
        self.lang = lang
        self.braille_table = braille_table
        self.catalog = kit(name).catalog(lang)
        self.screen = game_screen(name)
        self.bots = seating.make_bots(name)
        self.history = history if history is not None else History()
        self.save_path = save
        self.speech: Speech | Silence = speech if speech is not None else Silence()
        self.pace = pace
        self.pending: Hashable = None
        self.focus = MESSAGE_LINE
        # Counts the session's own focus changes, so a front knows when to move its window.
        self.jumps = 0
        self.names = seat_names(len(game.scores()), seating.seat, self.catalog)
        self.moves = 0
        # Bots that may act without being waited for are asked once per position.
        self._optional_asked = -1
        self._notices: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        self._last_move = 0.0
        self._prompted = -1
        # The display seat's turn time limit, when its game screen declares one.
        self.timer = TurnTimer(clock)

    # ---- starting and resuming -------------------------------------------------------------

    @classmethod
    def start(cls, name: str, players: int, seed: int, lang: str, seat: Seat = 0,
              bots: str = DEFAULT_BOT, options: Mapping[str, Any] | None = None,
              **kwargs: Any) -> Session:
        """A new game: the display's ``seat``, bots (one name, or names given in turn) in the
        others; ``options`` are the game's variants (e.g. ``{"match_target": 0}``)."""
        game = kit(name).new_game(players, seed, **dict(options or {}))
        names = [each.strip() for each in bots.split(",") if each.strip()] or [DEFAULT_BOT]
        others = [each for each in range(players) if each != seat]
        seating = Seating(seat, {other: names[i % len(names)] for i, other in enumerate(others)},
                          seed)
        session = cls(name, game, seating, lang, **kwargs)
        session.tell(session.catalog.text("game_start",
                                          game=session.catalog.section("names")["game"],
                                          players=players))
        # Games that deal or turn cards on creation keep those events aside (Uno's deal).
        session.tell_events(getattr(game, "start_events", []))
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, **kwargs: Any) -> Session:
        """The game saved in ``path``; a damaged file is one clear sentence (UserError)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UserError("no_saved_game", path=path) from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise UserError("saved_game_damaged", path=path, detail=error) from None
        try:
            if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
                raise ValueError("it is not a brailledev saved game")
            if data.get("version") != SAVE_VERSION:
                raise ValueError(f"it has version {data.get('version')!r}, not {SAVE_VERSION}")
            name = str(data["game"])
            game = kit(name).game.from_dict(data["state"])
            seating = Seating(int(data["seat"]),
                              {int(seat): str(bot) for seat, bot in data["bots"].items()},
                              int(data["bot_seed"]))
            history = History.from_dict(data["history"])
            lang = str(data["lang"])
            braille_table = data.get("table")
            session = cls(name, game, seating, lang,
                          braille_table=str(braille_table) if braille_table is not None else None,
                          history=history, save=kwargs.pop("save", None) or path, **kwargs)
        except UserError:
            raise
        except Exception as error:  # from_dict of any game raises what its data provokes
            raise UserError("saved_game_damaged", path=path,
                            detail=f"{type(error).__name__}: {error}") from None
        session.moves = int(data.get("moves", 0))
        session.tell(session.catalog.text("game_resumed"))
        session.jump(MESSAGE_LINE)  # the reader picks up where the reading stopped
        return session

    def to_dict(self) -> dict[str, Any]:
        """Everything a save file holds."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.name,
            "state": self.game.to_dict(),
            "seat": self.seating.seat,
            "bots": {str(seat): bot for seat, bot in self.seating.bots.items()},
            "bot_seed": self.seating.bot_seed,
            "lang": self.lang,
            "table": self.braille_table,  # the braille table; the key stays for older saves
            "history": self.history.to_dict(),
            "moves": self.moves,
        }

    def save(self) -> None:
        """Write the save file atomically, readable by its owner only."""
        if self.save_path is None:
            return
        self.save_path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(self.to_dict(), ensure_ascii=False).encode("utf-8")
        write_atomically(self.save_path, data, mode=0o600)

    def set_lang(self, lang: str) -> None:
        """Words and names in ``lang`` from now on (the history stays as it was told)."""
        self.lang = lang
        self.catalog = kit(self.name).catalog(lang)
        self.names = seat_names(len(self.game.scores()), self.seating.seat, self.catalog)

    def attach_speech(self, speech: Speech | Silence) -> None:
        """Speak from now on, starting with the messages not yet read."""
        self.speech = speech
        for text in self.history.texts[max(self.history.cursor, 0):]:
            speech.say(text)

    # ---- what the screen shows -------------------------------------------------------------

    def context(self) -> Context:
        """What the screen is told besides the view, the seat's legal moves included."""
        seat = self.seating.seat
        return Context(seat, self.names, self.history.messages(), self.pending, self.catalog,
                       tuple(self.game.legal_moves(seat)))

    def view(self) -> Any:
        return self.game.view(self.seating.seat)

    def lines(self) -> tuple[Line, ...]:
        """The lines of the screen now (with the time left on ``status`` when a limit runs)."""
        context = self.context()
        lines = self.screen.screen(self.view(), context)
        left = self.timer.shown_left() if self.timer.turn == self.moves else None
        if left is None or not isinstance(self.screen, TimedScreen):
            return lines
        shown = Region(self.screen.time_left(left, context))
        return tuple(Line(line.key, (*line.regions, shown), line.gap)
                     if line.key == STATUS_LINE else line for line in lines)

    def home(self) -> str:
        """The line the player belongs on when nothing is left to read."""
        return self.screen.home(self.view(), self.context())

    # ---- telling ---------------------------------------------------------------------------

    def tell(self, text: str) -> None:
        """Add ``text`` to the history and speak it; a caught-up player's focus goes to it."""
        if self.history.add(text):
            self.jump(MESSAGE_LINE)
        self.speech.say(text)

    def notice(self, code: str, detail: str = "") -> None:
        """Thread-safe: a notice from another thread (speech) told at the next chance."""
        self._notices.put((code, detail))

    def take_notices(self) -> bool:
        """Tell the notices other threads left; True if there were any."""
        told = False
        while not self._notices.empty():
            code, detail = self._notices.get()
            self.tell(self.catalog.text(code, detail=detail))
            told = True
        return told

    def jump(self, line: str) -> None:
        """Put the player on ``line`` (a front moves its window there)."""
        self.focus = line
        self.jumps += 1

    def read_on(self) -> None:
        """The player read past the message shown: the next one, or back home."""
        self.jump(MESSAGE_LINE if self.history.read_on() else self.home())

    def read_back(self) -> None:
        """The message before the one shown (reading back through the history)."""
        self.history.read_back()
        self.jump(MESSAGE_LINE)

    # ---- acting ----------------------------------------------------------------------------

    def route(self, target: Hashable) -> bool:
        """Activate a routed target; returns False for the ``quit`` command."""
        if target is None:
            return True
        if not isinstance(target, OUTCOMES):
            raise TypeError(f"a screen target must be an Outcome, not {target!r}")
        return self.activate(target)

    def activate(self, outcome: Outcome) -> bool:
        """Do what an outcome says: ``activate(Show("help"))``; False for ``Ui("quit")``."""
        if isinstance(outcome, PlayMove):
            self.play(outcome.move)
        elif isinstance(outcome, Ask):
            self.pending = outcome.pending
            self.jump(self.home())
        elif isinstance(outcome, Show):
            self.jump(outcome.line)
        elif outcome.name == "quit":
            self.save()
            return False
        elif outcome.name == "repeat":
            self.speech.say(self.current_text())
        return True

    def current_text(self) -> str:
        """The text of the line the player is on (what ``repeat`` speaks)."""
        for line in self.lines():
            if line.key == self.focus:
                return line.text
        return ""

    def play(self, move: Hashable) -> bool:
        """Play ``move`` for the display's seat; an illegal move is refused with its reason
        in the history and in speech, and nothing else changes."""
        seat = self.seating.seat
        reason: Reason | None = self.game.check(seat, move)
        if reason is None:
            try:
                events = self.game.play(seat, move)
            except IllegalMove as error:
                reason = error.reason
        if reason is not None:
            self.tell(self.catalog.text("refused",
                                        why=self.screen.explain(reason, self.context())))
            return False
        self.pending = None
        self._after(events)
        return True

    def timer_tick(self) -> bool:
        """Keep the turn timer of the display's seat: tell the time left at 60 and 15
        seconds, play the game's timeout move when the time is up. True when the screen
        changed (the front redraws). Bots and games without a limit have no timer."""
        screen = self.screen
        if not isinstance(screen, TimedScreen):
            return False
        view = self.view()
        acting = not self.game.is_over() and self.seating.seat in self.game.must_act()
        before = self.timer.left()
        self.timer.follow(screen.time_limit(view) if acting else None, self.moves)
        changed = self.timer.left() != before
        for seconds in self.timer.due():
            self.tell(screen.time_left(seconds, self.context()))
            changed = True
        if self.timer.expired():
            self.timer.follow(None, None)
            self.play(screen.timeout_move(view))
            return True
        return changed

    def bot_due(self) -> Seat | None:
        """The bot that acts next, if the game is not waiting for the display's seat."""
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
        if self._optional_asked != self.moves:
            self._optional_asked = self.moves
            for seat in optional_actors(self.game):
                bot = self.bots.get(seat)
                if bot is None:
                    continue
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
        """Let the bots act until the display's seat must act or the game ends (no pacing:
        the display front paces them). Returns how many moves they made."""
        count = 0
        while count < limit and self.bot_move():
            count += 1
        return count

    def tell_events(self, events: Sequence[Event]) -> None:
        """Tell the events as the display's seat may learn them."""
        context = self.context()
        for event in events_for(events, self.seating.seat):
            text = self.screen.describe(event, context)
            if text:
                self.tell(text)
        self._prompt()

    def _after(self, events: list[Event]) -> None:
        self.moves += 1
        self._last_move = time.monotonic()
        self.tell_events(events)
        if self.pending is not None and self.seating.seat not in self.game.actors():
            self.pending = None
        self.save()

    def _prompt(self) -> None:
        if self._prompted == self.moves:
            return
        self._prompted = self.moves
        # Spoken only: the status line already shows whose turn it is.
        prompt = self.screen.prompt(self.view(), self.context())
        if prompt:
            self.speech.say(prompt)

    def seconds_to_next_bot(self) -> float:
        """How long the pacing still holds the next bot back."""
        return max(0.0, self._last_move + self.pace - time.monotonic())
