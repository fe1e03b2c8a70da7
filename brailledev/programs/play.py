"""``brailledev play``: a one-person game (:mod:`brailledev.programs.session`) on a display,
driven by its keys (:mod:`brailledev.table.keyloop`).

    brailledev play uno --players 3 --lang fr --display terminal
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
from pathlib import Path

from brailledev.display.braille import table_for, translator
from brailledev.errors import env_lang
from brailledev.files import clean_leftovers, held, private_folder, state_folder
from brailledev.helptext import say
from brailledev.programs import options as game_options
from brailledev.programs.launch import add_reader_options, launch
from brailledev.programs.savefile import Unreadable, set_aside
from brailledev.programs.session import Session
from brailledev.table.core import DEFAULT_BOT, MOST_SEED, bot_names
from brailledev.table.keyloop import Front
from layouts.catalog import output_text
from layouts.errors import UserError, system_reason
from layouts.registry import GAMES, kit

# The longest pause between computer moves (seconds): longer is surely a mistake.
MOST_PACE = 60.0
# A file set aside before a new game is saved, and why: unreadable, or an unfinished game.
BROKEN, UNFINISHED = "broken", "unfinished"
Aside = tuple[Path, str]
KEPT_WORDS = {BROKEN: "kept_aside", UNFINISHED: "kept_unfinished"}


def default_save(game: str) -> Path:
    """Where a game is saved when ``--save`` is not given (XDG state folder)."""
    return state_folder() / f"{game}.json"


def saved_game(path: Path, pace: float = 1.5) -> Session | None:
    """The game saved in ``path`` (not saved on from here), ``None`` when there is no file;
    :class:`brailledev.programs.savefile.Unreadable` when the file cannot be resumed."""
    try:
        return Session.load(path, pace=pace)
    except FileNotFoundError:
        return None


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
    parser.add_argument("--bots", default=None, metavar=say("metavar.bots"),
                        help=say("play.bots"))
    add_reader_options(parser)
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
    if not 0 <= args.pace <= MOST_PACE:  # refuses NaN too
        raise UserError("pace_range", most=MOST_PACE)
    if args.seed is not None and not 0 <= args.seed <= MOST_SEED:
        raise UserError("seed_range", most=MOST_SEED)
    save = args.save or (args.resume if args.resume else default_save(args.game))
    if args.resume is not None:
        _refuse_new_game_options(args)
    if args.save is None and args.resume is None:
        with contextlib.suppress(OSError):  # a folder we cannot tighten is told at saving
            private_folder(state_folder(), ours=True)
    clean_leftovers(save.parent)
    with held(save):  # one program plays from a save at a time
        return _play(args, save)


def _play(args: argparse.Namespace, save: Path) -> int:
    """Play from ``save``, held by this program: resumed, or a new game."""
    game_kit = kit(args.game)
    players = game_kit.default_players if args.players is None else args.players
    options = game_options.chosen(args, args.game, players)  # a wrong option first
    new_game_asked = (args.new or game_options.given(args) or args.seed is not None
                      or args.players is not None or args.bots is not None)
    args.bots = args.bots or DEFAULT_BOT
    resumed, set_aside_first = _what_to_play(args, save, new_game_asked)
    auto_resume = resumed is not None and args.resume is None
    args.players = players
    if resumed is None:  # refused at once, before any display opens
        game_kit.check_players(args.players)
        for bot in bot_names(args.bots):
            game_kit.check_bot(bot)
        lang = args.lang or default_lang()
    else:
        if resumed.table.name != args.game:
            raise UserError("resume_other_game", path=args.resume or save,
                            saved=resumed.table.name, game=args.game)
        if auto_resume:  # --resume gave them to Session.resume, before its first word
            resumed.choose_words(args.lang, args.table)
        lang = resumed.seat.lang
    # Everything that can be refused is checked before a new game is saved over anything.
    braille_table = args.table or (resumed.seat.braille_table if resumed else None) \
        or table_for(lang)
    braille = translator(braille_table)

    def start() -> Session:
        kept = _set_aside(*set_aside_first) if set_aside_first is not None else None
        session = resumed
        if session is None:
            seed = args.seed if args.seed is not None else \
                random.SystemRandom().randrange(10**9)
            session = Session.start(args.game, players=args.players, seed=seed, lang=lang,
                                    bots=args.bots, options=options,
                                    braille_table=braille_table, save=save, pace=args.pace)
        elif auto_resume:
            session.announce_resumed()
        session.seat.braille_table = braille_table
        if kept is not None and set_aside_first is not None:
            session.seat.notice(KEPT_WORDS[set_aside_first[1]], str(kept))
        if auto_resume:
            session.seat.notice("resumed_saved_game", str(save))
        return session

    session = launch(args, lang, braille, start, Front,
                     gone=lambda error: UserError("display_gone", detail=error, path=save),
                     closed=lambda session: _terminal_closed(session, save))
    session.saving.check_lost("save_failed_at_end")
    if not session.table.game.is_over():  # a reader who quits learns where the game waits
        print(output_text("play.saved", session.seat.lang, path=save))
    return 0


def _refuse_new_game_options(args: argparse.Namespace) -> None:
    """A resumed game keeps its players, bots, seed and options: naming any of them with
    ``--resume`` is refused in one sentence that names them."""
    named = [flag for flag, value in (("--players", args.players), ("--bots", args.bots),
                                      ("--seed", args.seed)) if value is not None]
    named += game_options.given_names(args)
    if named:
        raise UserError("options_with_resume", path=args.resume, options=", ".join(named))


def _terminal_closed(session: Session, save: Path) -> UserError:
    """The terminal closed: that the game is saved, or that the moves since the last save
    that worked are lost, whichever is true: ``_terminal_closed(session, Path("uno.json"))``.
    """
    failure = session.saving.failure
    if failure is not None:
        return UserError("save_failed_at_end", path=save, reason=system_reason(failure))
    return UserError("terminal_closed_saved", path=save)


def _what_to_play(args: argparse.Namespace, save: Path,
                  new_game_asked: bool) -> tuple[Session | None, Aside | None]:
    """The saved game to go on with (``None``: a new game), and the file to set aside
    before the new game is saved (unreadable, or an unfinished game ``--new`` replaces);
    refuses whatever would write over a game."""
    if args.resume is not None:
        # a --lang or --table given wins over the save, from the first word told
        resumed = Session.resume(args.resume, save=save, pace=args.pace, lang=args.lang,
                                 braille_table=args.table)
        if _same_file(args.resume, save):
            return resumed, None
        return resumed, _guard(save, args.new)
    try:
        found = saved_game(save, args.pace)
    except Unreadable as error:
        if args.new:
            return None, (save, BROKEN)
        if error.newer is not None:
            raise UserError("saved_game_newer_kept", path=save, version=error.newer) from None
        raise UserError("saved_game_unreadable", path=save, detail=error.detail,
                        kept=_aside_name(save)) from None
    if found is None or found.table.game.is_over():
        return None, None
    if args.new:  # kept beside the new game, never lost to it
        return None, (save, UNFINISHED)
    if new_game_asked:
        raise UserError("unfinished_game_saved", path=save)
    # The same command again goes on with an unfinished game: a game is never lost to a
    # repeated `make play`.
    return found, None


def _guard(path: Path, new: bool) -> Aside | None:
    """Refuse to save a resumed game over ``path`` when it holds another unfinished game or
    a file that cannot be read, unless ``--new`` said so; returns the file to set aside."""
    try:
        found = saved_game(path)
    except Unreadable as error:
        if new:
            return path, BROKEN
        raise UserError("saved_game_unreadable", path=path, detail=error.detail,
                        kept=_aside_name(path)) from None
    if found is None or found.table.game.is_over():
        return None
    if not new:
        raise UserError("save_holds_unfinished", path=path)
    return path, UNFINISHED


def _same_file(first: Path, second: Path) -> bool:
    try:
        return first.resolve() == second.resolve() or os.path.samefile(first, second)
    except OSError:
        return False


def _aside_name(path: Path) -> str:
    """How a set-aside file is named, for the sentence that says so."""
    return f"{path.stem}.broken-DATE{path.suffix or '.json'}"


def _set_aside(path: Path, kind: str) -> Path:
    try:
        return set_aside(path, kind)
    except OSError as error:
        raise UserError("cannot_set_aside", path=path, reason=system_reason(error)) from None
