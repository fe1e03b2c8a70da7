"""``brailledev pad``: a game's score pad on the braille display (or the terminal), for the
game played at a real table with the box's cards.

A pad is not a game, but it runs on a game's machinery: a book of :mod:`games.pads` stands
where the table would be (:class:`PadLink`, a :class:`brailledev.table.seat.TableLink`), a seat
client reads its screen (:mod:`layouts.padscreen`) with the message history and speech, the
key loop drives it (:class:`PadFront`), and it is saved after every entry by the save policy
of ``play`` (a save that fails never ends the pad) and resumed like a game. At the end the
filled pad is embossed (``--emboss``) or written (``--out``) with the same sheet layout as
the blank pad.

    session = PadSession.start("domino", players=3, lang="en", save=Path("pad.json"))
    PadFront(session, display, translator("en-ueb-g1.ctb")).run()

On a braille keyboard, when a number is due, the letters a to j type the digits 1 to 0
(with or without dot 6, as French computer braille writes digits), dot 7 deletes and dot 8
is ok (Domino: enter); other chords work as in a game.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from brailledev.display.base import Display
from brailledev.display.braille import Translator, table_for, translator
from brailledev.display.keys import Chord, Key
from brailledev.display.speech import Silence, Speech
from brailledev.errors import env_lang
from brailledev.files import held, private_folder, state_folder
from brailledev.helptext import say
from brailledev.programs.launch import SeatProgram, add_reader_options, launch
from brailledev.programs.play import default_save
from brailledev.programs.savefile import SaveFile
from brailledev.table.history import History
from brailledev.table.keyloop import Front
from brailledev.table.seat import SeatClient
from games.core import Event, IllegalMove, Reason, Seat
from games.pads import Book, PadMove, play
from layouts.errors import UserError
from layouts.kit import KeptPad
from layouts.registry import GAMES, kit
from layouts.screen import CHOICE_LINE, MESSAGE_LINE, Ask, Line

PAD_FORMAT = "brailledev-pad"
PAD_VERSION = 1
# The braille keyboard's digits: the cells of the letters a to j (dots 1 to 6 as a bitmask).
DIGIT_CELLS = {0b000001: "1", 0b000011: "2", 0b001001: "3", 0b011001: "4", 0b010001: "5",
               0b001011: "6", 0b011011: "7", 0b010011: "8", 0b001010: "9", 0b011010: "0"}
DOT_6, DOT_7, DOT_8 = 0b100000, 0b1000000, 0b10000000


def pad_games() -> tuple[str, ...]:
    """The games whose kit keeps a score pad on the display, in the order they are offered:
    ``pad_games()[0] == "uno"``."""
    return tuple(name for name in GAMES if kit(name).kept_pad is not None)


def kept_pad(game: str) -> KeptPad:
    """How ``game`` keeps its pad; a game without one is one sentence naming those with one:
    ``kept_pad("domino").screen``."""
    found = kit(game).kept_pad if game in GAMES else None
    if found is None:
        raise UserError("pad_game_unknown", game=game, choices=", ".join(pad_games()))
    return found


def blank_book(game: str, players: int) -> Book:
    """A fresh pad for ``game`` and ``players`` from the box data; a game without a pad, or a
    player count the game does not take, is one sentence."""
    kept = kept_pad(game)
    kit(game).check_players(players)
    return kept.book(kit(game).rules(), players)


class PadLink:
    """The seat's link to its pad: the book is the view, an entry is a move; every entry
    is handed to ``heard`` (the session tells it and saves)."""

    seat: Seat = 0

    def __init__(self, book: Book, heard: Callable[[list[Event]], None]) -> None:
        self.book = book
        self.heard = heard
        self.entries = 0

    @property
    def players(self) -> int:
        return self.book.players

    @property
    def position(self) -> int:
        return self.entries

    def view(self) -> Book:
        return self.book

    def legal(self) -> list[Any]:
        return []

    def waiting_for_me(self) -> bool:
        return not self.book.over

    def over(self) -> bool:
        return self.book.over

    def time_left(self) -> int | None:
        return None

    def play(self, move: Hashable) -> Reason | None:
        try:
            if not isinstance(move, PadMove):
                return Reason.of("pad_not_here")
            self.book, events = play(self.book, move)
        except IllegalMove as refused:
            return refused.reason
        self.entries += 1
        self.heard(events)
        return None


class PadSession(SeatProgram):
    """A pad kept on a display: the book, the reader's seat, the save file. Driven by the
    key loop like a game session."""

    def __init__(self, game: str, book: Book, lang: str, braille_table: str | None = None,
                 history: History | None = None, save: Path | None = None,
                 speech: Speech | Silence | None = None) -> None:
        self.game = game
        self.saving = SaveFile(save, failing="pad_save_failing")
        self.link = PadLink(book, self._heard)
        self.seat = SeatClient(self.link, game, lang, braille_table, history, speech,
                               screen=kept_pad(game).screen)

    @classmethod
    def start(cls, game: str, players: int, lang: str, braille_table: str | None = None,
              save: Path | None = None, speech: Speech | Silence | None = None) -> PadSession:
        """A blank pad for ``players`` players."""
        session = cls(game, blank_book(game, players), lang, braille_table, save=save,
                      speech=speech)
        catalog = session.seat.catalog
        session.seat.tell(catalog.count("pad_started", players,
                                        game=catalog.section("names")["game"], players=players))
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, save: Path | None = None,
               speech: Speech | Silence | None = None) -> PadSession:
        """The pad saved in ``path``; a damaged file is one sentence."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UserError("no_saved_pad", path=path) from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise UserError("saved_pad_damaged", path=path, detail=error) from None
        try:
            if not isinstance(data, dict) or data.get("format") != PAD_FORMAT \
                    or data.get("version") != PAD_VERSION:
                raise ValueError("it is not a brailledev score pad")
            game = str(data["game"])
            book = blank_book(game, int(data["players"])).restored(data["book"])
            reader = SeatClient.saved(data["reader"])
            session = cls(game, book, save=save or path, speech=speech, **reader)
        except UserError:
            raise
        except Exception as error:  # whatever a damaged file provokes, said in one sentence
            raise UserError("saved_pad_damaged", path=path,
                            detail=f"{type(error).__name__}: {error}") from None
        session.seat.tell(session.seat.catalog.text("pad_resumed"))
        session.seat.jump(MESSAGE_LINE)
        return session

    @property
    def book(self) -> Book:
        return self.link.book

    def to_dict(self) -> dict[str, Any]:
        return {"format": PAD_FORMAT, "version": PAD_VERSION, "game": self.game,
                "players": self.book.players, "book": self.book.to_dict(),
                "reader": self.seat.to_dict()}

    def _heard(self, events: list[Event]) -> None:
        self.seat.hear(events)
        # What an entry scored is read at once (a calculator's answer); reading past it goes
        # back to the entry line.
        self.seat.newest()
        self.save()


def chord_digit(chord: Chord) -> str | None:
    """The digit a braille keyboard chord types where a number is due: the letters a to j,
    with or without dot 6: ``chord_digit(Chord(0b000011)) == "2"``."""
    if chord.space:
        return None
    return DIGIT_CELLS.get(chord.dots & ~DOT_6 & 0xFF) if chord.dots & 0x3F else None


class PadFront(Front[PadSession]):
    """The key loop of a pad: a game's, with digits, delete and ok on the braille keyboard
    where a number is due (on the Domino pad two digits make a line: 1 then 1 is an 11)."""

    def __init__(self, session: PadSession, display: Display, braille: Translator) -> None:
        super().__init__(session, display, braille)
        self.tens = ""

    def _press(self, key: Key) -> bool:
        if isinstance(key, Chord) and not key.space:
            choice = next((line for line in self.seat.lines() if line.key == CHOICE_LINE), None)
            target = None if choice is None else self._number_target(key, choice)
            if target is not None:
                self.typist.clear()
                return self.seat.route(target)
        self.tens = ""
        return super()._press(key)

    def _number_target(self, chord: Chord, choice: Line) -> Hashable | None:
        """What a chord does on the choice line where a number is due, or ``None`` (then it
        is a chord as in a game)."""
        catalog = self.seat.catalog
        named = {region.text: region.target for region in choice.regions
                 if region.target is not None}
        if chord.dots in (DOT_7, DOT_8):
            words = ("pad_delete", "pad_clear") if chord.dots == DOT_7 else ("pad_ok",
                                                                            "pad_enter")
            return next((named[catalog.text(word)] for word in words
                         if catalog.text(word) in named), None)
        digit = chord_digit(chord)
        if digit is None:
            return None
        if "0" in named:  # a round sheet: the digit itself
            return named.get(digit)
        typed, self.tens = self.tens + digit, ""
        if len(typed) < 2:
            self.tens = typed
            return Ask(self.seat.pending)      # nothing changes until the second digit
        if typed in named:
            return named[typed]
        self.seat.tell(catalog.text("refused", why=catalog.text("pad_line_value")))
        return Ask(self.seat.pending)


class PadOut(Protocol):
    """Writes or embosses the filled pad (``--out``, ``--emboss``); ``check_only``: refuses
    now what would be refused at the end (paper, embosser, file)."""

    def __call__(self, args: argparse.Namespace, players: int, book: object = None,
                 check_only: bool = False) -> None: ...


@dataclass(frozen=True)
class PadPaper:
    """The paper side of the pad, given by the command line (the only part of brailledev
    that imports ``emboss``): the paper's options (machine, paper, cell, margin) and ``out``:
    ``PadPaper(emboss.cli.paper_options, emboss.cli.pad_out)``."""

    options: Callable[[argparse.ArgumentParser], None]
    out: PadOut


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], paper: PadPaper) -> None:
    """Add ``pad`` to the ``brailledev`` command, the filled pad going to ``paper``:
    ``register(sub, PadPaper(emboss.cli.paper_options, emboss.cli.pad_out))``."""
    parser = sub.add_parser("pad", help=say("pad.command"), description=say("pad.command"))
    parser.add_argument("game", choices=pad_games(), help=say("pad.game"))
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help=say("pad.players"))
    add_reader_options(parser)
    file = say("metavar.file")
    parser.add_argument("--resume", type=Path, default=None, metavar=file,
                        help=say("pad.resume", file=file))
    parser.add_argument("--save", type=Path, default=None, metavar=file,
                        help=say("pad.save", file=file))
    parser.add_argument("--new", action="store_true", help=say("pad.new"))
    parser.add_argument("--out", type=Path, default=None, metavar=file, help=say("pad.out"))
    parser.add_argument("--emboss", default=None, metavar=say("metavar.where"),
                        help=say("pad.emboss"))
    paper.options(parser)
    parser.set_defaults(run=functools.partial(_run, paper=paper))


def _run(args: argparse.Namespace, paper: PadPaper) -> int:
    save = args.save or args.resume or default_save(f"{args.game}-pad")
    if args.save is None and args.resume is None:
        with contextlib.suppress(OSError):  # a folder we cannot tighten is told at saving
            private_folder(state_folder(), ours=True)
    with held(save, "pad_in_use"):  # one program keeps a pad at a time
        return _keep_pad(args, paper, save)


def _keep_pad(args: argparse.Namespace, paper: PadPaper, save: Path) -> int:
    """Keep the pad saved in ``save``, held by this program: resumed, or a new one."""
    resumed = None
    if args.resume is not None or (not args.new and args.players is None
                                   and _unfinished(save, args.game)):
        resumed = PadSession.resume(args.resume or save, save=save)
        if resumed.game != args.game:
            raise UserError("pad_other_game", path=args.resume or save, saved=resumed.game,
                            game=args.game)
        lang = resumed.seat.lang if args.lang is None else args.lang
        if lang != resumed.seat.lang:
            resumed.seat.set_lang(lang)
    else:
        lang = args.lang or env_lang()
        if not args.new and _unfinished(save, args.game):
            raise UserError("unfinished_pad_saved", path=save)
    args.lang = lang
    braille_table = args.table or (resumed.seat.braille_table if resumed else None) \
        or table_for(lang)
    braille = translator(braille_table)
    players = resumed.book.players if resumed else (
        kit(args.game).default_players if args.players is None else args.players)
    blank_book(args.game, players)  # a player count the game does not take, said first
    # Everything the paper needs is checked before the pad starts, not after the game.
    paper.out(args, players, check_only=True)
    session = launch(args, lang, braille,
                     lambda: resumed or PadSession.start(args.game, players, lang,
                                                         braille_table, save=save),
                     PadFront, gone=lambda error: UserError("display_gone", detail=error,
                                                            path=save))
    paper.out(args, players, session.book)
    session.saving.check_lost("pad_save_failed_at_end")
    return 0


def _unfinished(path: Path, game: str) -> bool:
    """Whether ``path`` holds a pad of ``game`` whose game is not over."""
    try:
        session = PadSession.resume(path)
    except UserError:
        return False
    return session.game == game and not session.book.over
