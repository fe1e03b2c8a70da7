"""``brailledev play``: a session on a display, driven by the display's keys.

The loop shows the focused line (and the lines after it on a multi-row display), turns keys
into session actions, and lets the bots act at a reading pace; keys are read while a bot
waits its turn, so the display never freezes.

    brailledev play uno --players 3 --lang fr --display terminal
    front = Front(session, display, translator("en-ueb-g1.ctb")); front.run()
"""

from __future__ import annotations

import argparse
import os
import random
import threading
from pathlib import Path

from brailledev import options as game_options
from brailledev.braille import Translator, dots_to_numbers, table_for, translator
from brailledev.chords import SPACE_MOVES, NoCommand, Ran, Typist, chord_letter
from brailledev.display.base import RESIZED, Display
from brailledev.errors import DisplayGone, env_lang
from brailledev.helptext import say
from brailledev.keys import Chord, Key, Named, PanLeft, PanRight, Route
from brailledev.session import Session
from brailledev.speech import Silence, Speech
from brailledev.window import MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS, Viewport
from layouts.catalog import LANGUAGES
from layouts.errors import UserError
from layouts.registry import GAMES
from layouts.screen import HELP_LINE, MESSAGE_LINE, Screen


class Front:
    """A session shown on a display: see the module docstring."""

    def __init__(self, session: Session, display: Display, braille: Translator) -> None:
        self.session = session
        self.display = display
        self.braille = braille
        self.viewport = Viewport(braille, display.columns, display.rows)
        self.typist = Typist()
        self._stop = threading.Event()
        self._jumps = -1
        self._screen: Screen | None = None
        self.redraws = 0
        # For tests and benchmarks: keys handled so far, and whether the loop waits for the
        # player with nothing else to do.
        self.handled = 0
        self.idle = threading.Event()

    def stop(self) -> None:
        """Thread-safe: end ``run`` at its next turn (tests, signals)."""
        self._stop.set()

    def redraw(self) -> None:
        """Lay the session's screen out and write it, on the line the session wants."""
        session = self.session
        if (self.display.columns, self.display.rows) != (self.viewport.columns,
                                                         self.viewport.display_rows):
            self.viewport.resize(self.display.columns, self.display.rows)
            self._screen = None
        screen = Screen(session.lines())
        if screen != self._screen:  # laying out again only for news keeps redraws cheap
            self._screen = screen
            self.viewport.show(screen)
        if session.jumps != self._jumps:
            self._jumps = session.jumps
            try:
                self.viewport.goto(session.focus)
            except KeyError:
                session.focus = session.home()
                self.viewport.goto(session.focus)
        session.focus = self.viewport.line_key or session.focus
        self.display.write(self.viewport.rows(), text=self.viewport.texts())
        self.redraws += 1

    def run(self) -> None:
        """Play until the player quits (or ``stop``); the game is saved after every move."""
        session = self.session
        self.redraw()
        while not self._stop.is_set():
            told = session.take_notices()
            if session.timer_tick() or told:
                self.redraw()
            if session.bot_due() is not None:
                key = self.display.read_key(timeout=session.seconds_to_next_bot())
                if key is None:
                    session.bot_move()
                    self.redraw()
                    continue
            else:
                self.idle.set()
                key = self.display.read_key(timeout=0.2)
                if key is None:
                    continue
                self.idle.clear()
            if not self.press(key):
                break
            self.redraw()
            self.handled += 1
        self.idle.set()
        session.save()

    def press(self, key: Key) -> bool:
        """Act on one key; False when the player quits."""
        session = self.session
        if isinstance(key, Chord):
            return self._chord(key)
        self.typist.clear()
        if isinstance(key, Named):
            return self._named(key.name)
        viewport = self.viewport
        if viewport.line_key == MESSAGE_LINE and viewport.display_rows == 1:
            windows = len(viewport.lines[viewport.top].windows)
            if isinstance(key, PanRight) and viewport.window + 1 >= windows:
                session.read_on()
                return True
            if isinstance(key, PanLeft) and viewport.window == 0:
                session.read_back()
                return True
        hit = viewport.handle(key)
        if hit is None:
            if not isinstance(key, Route):
                session.focus = viewport.line_key or session.focus
            return True
        if hit.line_key == MESSAGE_LINE:
            session.read_on()
            return True
        return session.route(hit.target)

    def _chord(self, chord: Chord) -> bool:
        """A braille keyboard chord: a letter towards a command (see ``brailledev.chords``),
        space with one dot a move, space alone speaks the line."""
        session = self.session
        if chord.space and chord.dots in SPACE_MOVES:
            return self.press(SPACE_MOVES[chord.dots])
        if chord == Chord(0, space=True):
            self.typist.clear()
            return self._named("repeat")
        letter = chord_letter(chord, self.braille)
        if letter is None:
            self.typist.clear()
            session.tell(session.catalog.text("chord_not_letter", dots=dots_to_numbers(
                chord.dots)))
            return True
        typed = self.typist.type(letter, session.lines())
        if isinstance(typed, Ran):
            session.tell(session.catalog.text("chord_ran", command=typed.region.text))
            return session.route(typed.region.target)
        names = ", ".join(typed.names)
        code = "chord_no_command" if isinstance(typed, NoCommand) else "chord_several"
        session.tell(session.catalog.text(code, letters=typed.typed, commands=names))
        return True

    def _named(self, name: str) -> bool:
        session = self.session
        if name == "quit":
            session.save()
            return False
        if name == "help":
            session.jump(HELP_LINE)
        elif name == RESIZED:
            session.jump(session.focus)
        elif name == "repeat":
            session.speech.say(session.current_text())
        return True


def default_save(game: str) -> Path:
    """Where a game is saved when ``--save`` is not given (XDG state folder)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "brailledev" / f"{game}.json"


def unfinished(path: Path) -> bool:
    """Whether ``path`` holds a saved game that is not over (a new game must not replace it
    unasked)."""
    try:
        session = Session.resume(path)
    except UserError:
        return False
    return not session.game.is_over()


def default_lang() -> str:
    """French when the environment's locale is French, else English."""
    return env_lang()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("play", help=say("play.command"), description=say("play.command"),
                            add_help=False)
    parser.add_argument("-h", "--help", action=game_options.GameHelp, help=say("help_game"))
    parser.add_argument("game", choices=GAMES, help=say("play.game"))
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help=say("play.players"))
    parser.add_argument("--seed", type=int, default=None, metavar="N", help=say("play.seed"))
    parser.add_argument("--bots", default="heuristic", metavar=say("metavar.bots"),
                        help=say("play.bots"))
    parser.add_argument("--display", choices=("auto", "brlapi", "terminal"), default="auto",
                        help=say("play.display"))
    parser.add_argument("--brlapi-host", default=None, metavar=say("metavar.host"),
                        help=say("play.brlapi_host"))
    parser.add_argument("--table", default=None, metavar=say("metavar.table"),
                        help=say("play.table"))
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=say("play.lang"))
    parser.add_argument("--no-speech", action="store_true", help=say("play.no_speech"))
    file = say("metavar.file")
    parser.add_argument("--resume", type=Path, default=None, metavar=file,
                        help=say("play.resume", file=file))
    parser.add_argument("--save", type=Path, default=None, metavar=file,
                        help=say("play.save", file=file))
    parser.add_argument("--new", action="store_true", help=say("play.new"))
    parser.add_argument("--pace", type=float, default=1.5, metavar=say("metavar.seconds"),
                        help=say("play.pace"))
    game_options.add_arguments(parser)
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from brailledev.display import open_display

    if args.pace < 0:
        raise UserError("pace_negative")
    save = args.save or (args.resume if args.resume else default_save(args.game))
    if args.resume is not None and game_options.given(args):
        raise UserError("options_with_resume", path=args.resume)
    new_game_asked = (args.new or game_options.given(args) or args.seed is not None
                      or args.players is not None)
    # The same command again goes on with an unfinished game: a game is never lost to a
    # repeated `make play`; asking for a particular new game still refuses to replace it.
    auto_resume = args.resume is None and not new_game_asked and unfinished(save)
    if auto_resume:
        args.resume = save
    args.players = 2 if args.players is None else args.players
    options = game_options.chosen(args, args.game, args.players)
    resumed: Session | None = None
    if args.resume is not None:
        resumed = Session.resume(args.resume, save=save, pace=args.pace)
        if resumed.name != args.game:
            raise UserError("resume_other_game", path=args.resume, saved=resumed.name,
                            game=args.game)
        if args.lang is not None and args.lang != resumed.lang:
            resumed.set_lang(args.lang)
        lang = resumed.lang
    else:
        if not args.new and unfinished(save):
            raise UserError("unfinished_game_saved", path=save)
        lang = args.lang or default_lang()
    # Everything that can be refused is checked before a new game is saved over anything.
    braille_table = args.table or (resumed.braille_table if resumed else None) \
        or table_for(lang)
    braille = translator(braille_table)
    display = open_display(args.display, args.brlapi_host)
    if not (MIN_COLUMNS <= display.columns <= MAX_COLUMNS
            and MIN_ROWS <= display.rows <= MAX_ROWS):
        display.close()
        raise UserError("display_size", columns=display.columns, rows=display.rows,
                        low=MIN_COLUMNS, high=MAX_COLUMNS, most_rows=MAX_ROWS)
    speech: Speech | Silence = Silence()
    session = resumed
    try:
        if session is None:
            seed = args.seed if args.seed is not None else \
                random.SystemRandom().randrange(10**9)
            session = Session.start(args.game, players=args.players, seed=seed, lang=lang,
                                    bots=args.bots, options=options,
                                    braille_table=braille_table, save=save, pace=args.pace)
        session.braille_table = braille_table
        if auto_resume:
            session.notice("resumed_saved_game", str(save))
        if not args.no_speech:
            speech = Speech(lang, on_notice=session.notice)
        session.attach_speech(speech)
        Front(session, display, braille).run()
    except DisplayGone as gone:
        raise UserError("display_gone", detail=gone, path=save) from None
    finally:
        display.close()
        speech.close()
        if session is not None:
            session.save()
    return 0
