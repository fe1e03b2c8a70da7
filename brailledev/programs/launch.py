"""The one launcher of the programs that put a person's seat on a display (``play``, ``pad``,
``join``): the reader's options, the display and speech they name, and a run that opens
them, starts the program's seat, lets the key loop drive it and closes everything however it
ends; with the base of those programs' seats (:class:`SeatProgram`), saved after every change
by the one save policy (:class:`brailledev.programs.savefile.SaveFile`).

    add_reader_options(parser)
    session = launch(args, "en", braille, start, Front, gone=lambda error: UserError(...))
"""

from __future__ import annotations

import argparse
import signal
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, TypeVar

from brailledev.display.base import Display
from brailledev.display.braille import Translator
from brailledev.display.speech import Silence, Speech
from brailledev.display.window import MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS
from brailledev.errors import DisplayGone, TerminalClosed
from brailledev.helptext import say
from brailledev.programs.savefile import SaveFile
from brailledev.table.keyloop import Front
from brailledev.table.seat import SeatClient
from layouts.catalog import LANGUAGES
from layouts.errors import UserError


class SeatProgram(ABC):
    """A person's seat as a program runs it (a :class:`brailledev.table.keyloop.Driven`): the
    seat the key loop drives, and what the program keeps of it, written by ``saving`` after
    every change (``play``'s session, ``pad``'s pad, ``join``'s seat at a server's table).
    """

    seat: SeatClient
    saving: SaveFile

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """What the save file holds."""

    def save(self) -> None:
        """Write the save file now (see :class:`SaveFile`: a failure is told, not raised)."""
        self.saving.write(self.to_dict, self.seat)

    def step(self) -> bool:
        """What is due between two keys: here the notices of other threads (speech). True
        when the screen may have changed."""
        return self.seat.take_notices()

    def next_due(self) -> float | None:
        """Seconds until :meth:`step` has something to do; ``None``: only the reader."""
        return None

    def close(self) -> None:
        """The program ends: the last save."""
        self.save()


P = TypeVar("P", bound=SeatProgram)


def add_reader_options(parser: argparse.ArgumentParser) -> None:
    """The options of whoever reads at a display, the same for ``play``, ``pad`` and
    ``join``: ``add_reader_options(sub.add_parser("play"))``."""
    parser.add_argument("--display", choices=("auto", "brlapi", "terminal"), default="auto",
                        help=say("play.display"))
    parser.add_argument("--brlapi-host", default=None, metavar=say("metavar.host"),
                        help=say("play.brlapi_host"))
    parser.add_argument("--brlapi-auth", default=None, metavar=say("metavar.auth"),
                        help=say("brlapi_auth"))
    parser.add_argument("--table", default=None, metavar=say("metavar.table"),
                        help=say("play.table"))
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=say("play.lang"))
    parser.add_argument("--no-speech", action="store_true", help=say("play.no_speech"))
    parser.add_argument("--rows", type=int, choices=range(MIN_ROWS, MAX_ROWS + 1), default=1,
                        metavar="N", help=say("play.rows"))


def open_reader_display(args: argparse.Namespace, lang: str) -> Display:
    """The display the reader's options name, refused in one sentence (and closed) when
    its size is one no screen is laid out for: ``open_reader_display(args, "fr")``."""
    from brailledev.display import open_display

    display = open_display(args.display, args.brlapi_host, rows=args.rows, lang=lang,
                           auth=args.brlapi_auth)
    if not (MIN_COLUMNS <= display.columns <= MAX_COLUMNS
            and MIN_ROWS <= display.rows <= MAX_ROWS):
        display.close()
        raise UserError("display_size", columns=display.columns, rows=display.rows,
                        low=MIN_COLUMNS, high=MAX_COLUMNS, most_rows=MAX_ROWS)
    return display


def open_reader_speech(args: argparse.Namespace, lang: str,
                       notice: Callable[[str, str], None]) -> Speech | Silence:
    """The reader's speech, telling ``notice`` when it cannot speak, or silence with
    ``--no-speech``: ``open_reader_speech(args, "fr", seat.notice)``."""
    return Silence() if args.no_speech else Speech(lang, on_notice=notice)


def launch(args: argparse.Namespace, lang: str, braille: Translator, start: Callable[[], P],
           front: Callable[[P, Display, Translator], Front[P]],
           gone: Callable[[DisplayGone], UserError],
           closed: Callable[[P], UserError] | None = None) -> P:
    """Run a program's seat at the reader's display: open the display (a display refused is
    one sentence, before ``start`` takes or writes anything), ``start`` the seat, give it the
    reader's speech, let ``front`` (the key loop) drive it until the reader quits, then close
    the display, the speech and the seat (its last save) however it ended; a display that
    went away mid-game is ``gone``'s sentence, and a terminal that closed (its input ended,
    or SIGHUP) ``closed``'s, said once the seat's last save was tried. Returns the seat,
    closed:
    ``launch(args, "fr", braille, lambda: Session.start(...), Front, gone=...)``."""
    display = open_reader_display(args, lang)
    speech: Speech | Silence = Silence()
    program: P | None = None
    hangup = _on_hangup()
    try:
        program = start()
        speech = open_reader_speech(args, lang, program.seat.notice)
        program.seat.attach_speech(speech)
        front(program, display, braille).run()
    except DisplayGone as error:
        raise gone(error) from None
    except EOFError:
        if closed is None or program is None:
            raise
        shut = program
    else:
        return program
    finally:
        if hangup is not None and signal.getsignal(signal.SIGHUP) is _hang_up:
            signal.signal(signal.SIGHUP, hangup)
        display.close()
        speech.close()
        if program is not None:
            program.close()
    raise closed(shut) from None


def _hang_up(signum: int, frame: object) -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # once closed, a terminal has no more to say
    raise TerminalClosed()


def _on_hangup() -> Any:
    """SIGHUP (the terminal closed) ends the run as the end of its input does, so the last
    save is made and one true sentence said; the handler it replaced (``None``: not the
    main thread, nothing replaced)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGHUP, _hang_up)
