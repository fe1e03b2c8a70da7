"""``brailledev play``: a one-person game (:mod:`brailledev.session`) on a display, driven by
its keys (:mod:`brailledev.keyloop`).

    brailledev play uno --players 3 --lang fr --display terminal
"""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path

from brailledev import options as game_options
from brailledev.braille import table_for, translator
from brailledev.errors import DisplayGone, env_lang
from brailledev.helptext import say
from brailledev.keyloop import Front
from brailledev.session import Session
from brailledev.speech import Silence, Speech
from brailledev.table import bot_names
from brailledev.window import MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS
from layouts.catalog import LANGUAGES
from layouts.errors import UserError
from layouts.registry import GAMES, kit


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
    game_kit = kit(args.game)
    args.players = game_kit.default_players if args.players is None else args.players
    options = game_options.chosen(args, args.game, args.players)
    if args.resume is None:  # refused at once, before any display opens
        game_kit.check_players(args.players)
        for bot in bot_names(args.bots):
            game_kit.check_bot(bot)
    resumed: Session | None = None
    if args.resume is not None:
        # a --lang or --table given now wins over the save, from the first word told
        resumed = Session.resume(args.resume, save=save, pace=args.pace, lang=args.lang,
                                 braille_table=args.table)
        if resumed.name != args.game:
            raise UserError("resume_other_game", path=args.resume, saved=resumed.name,
                            game=args.game)
        lang = resumed.lang
    else:
        if not args.new and unfinished(save):
            raise UserError("unfinished_game_saved", path=save)
        lang = args.lang or default_lang()
    # Everything that can be refused is checked before a new game is saved over anything.
    braille_table = args.table or (resumed.braille_table if resumed else None) \
        or table_for(lang)
    braille = translator(braille_table)
    display = open_display(args.display, args.brlapi_host, lang=lang)
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
