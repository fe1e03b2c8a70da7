"""The ``brailledev`` command: play, selfplay, serve, table, join, pad, emboss, embossers,
devices, udev, tables.

Each subsystem registers its own subcommands; the help (``brailledev/helptext.py``) and a
mistake of the user's speak the reader's language (``--lang``, before the command or after it
where the command has it, else the environment's); a mistake is one sentence on standard
error and exit status 2, never a traceback (``--debug`` shows it). A reader that stops
reading (``brailledev tables | head -1``) ends the command quietly, status 141.

    main(["play", "uno", "--lang", "fr", "--help"])
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from brailledev import __version__
from brailledev.errors import env_lang, error_lang
from brailledev.helptext import HelpParser, help_lang, say, speaking
from brailledev.programs import devices, join, pad, play, selfplay, serve
from emboss import cli as emboss_cli
from layouts.catalog import LANGUAGES
from layouts.errors import Problem, UserError

# argparse's own complaints (English, from the standard library) -> our error codes.
_ARGPARSE = (
    (re.compile(r"argument (?P<name>\S+): invalid choice: (?P<value>.*?) \(choose from "
                r"(?P<choices>.*)\)$"), "argument_choice"),
    (re.compile(r"argument (?P<name>\S+): invalid (?P<kind>\w+) value: (?P<value>.*)$"),
     "argument_value"),
    (re.compile(r"argument (?P<name>\S+): expected (?:one|at least one) argument$"),
     "argument_missing_value"),
    (re.compile(r"argument (?P<name>\S+): not allowed with argument (?P<other>\S+)$"),
     "argument_conflict"),
    (re.compile(r"the following arguments are required: (?P<names>.*)$"), "argument_required"),
    (re.compile(r"unrecognized arguments: (?P<names>.*)$"), "argument_unknown"),
    (re.compile(r"ambiguous option: (?P<name>\S+) could match (?P<choices>.*)$"),
     "argument_ambiguous"),
)


class Parser(HelpParser):
    """argparse in the reader's language: its help (see :mod:`brailledev.helptext`), and a
    mistake is one sentence, then exit 2."""

    def error(self, message: str) -> NoReturn:
        for pattern, code in _ARGPARSE:
            found = pattern.match(message)
            if found:
                values = found.groupdict()
                if values.get("kind") in ("int", "float"):  # the kinds our options use
                    code = f"argument_{values.pop('kind')}"
                message = UserError(code, command=self.prog, **values).text(self.lang)
                break
        self.exit(2, f"brailledev: {message}\n")


def build_parser(lang: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, its help in ``lang`` (default: the environment's):
    ``build_parser("fr").parse_args(["tables"])``."""
    with speaking(lang or env_lang()):
        parser: argparse.ArgumentParser = Parser(prog="brailledev", description=say("brailledev"))
        parser.add_argument("--version", action="version", version=f"brailledev {__version__}",
                            help=say("version"))
        parser.add_argument("--debug", action="store_true", help=say("debug"))
        # Its own dest: a command's --lang (default None) would overwrite it in the namespace.
        parser.add_argument("--lang", choices=LANGUAGES, default=None, dest="every_lang",
                            help=say("lang"))
        sub = parser.add_subparsers(dest="command", required=True,
                                    metavar=say("metavar.command"))
        selfplay.register(sub)
        devices.register(sub)
        play.register(sub)
        serve.register(sub)
        join.register(sub)
        pad.register(sub, pad.PadPaper(emboss_cli.paper_options, emboss_cli.pad_out))
        emboss_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            return _run(words)
        finally:
            _flush()  # here, not at exit, so that a closed pipe is caught below
    except BrokenPipeError:
        return _reader_gone()


def _run(words: list[str]) -> int:
    # --lang is not parsed yet: the help and argparse's mistakes take it from the words.
    args = build_parser(help_lang(words)).parse_args(words)
    if getattr(args, "lang", None) is None and args.every_lang is not None:
        args.lang = args.every_lang  # brailledev --lang fr COMMAND: for the command too
    try:
        status: int = args.run(args)
        return status
    except Problem as error:
        if args.debug:
            raise
        _tell(f"brailledev: {error.text(error_lang(getattr(args, 'lang', None)))}")
        return 2
    except KeyboardInterrupt:
        _tell(f"brailledev: {UserError('stopped').text(error_lang(getattr(args, 'lang', None)))}")
        return 130
    except EOFError:  # the terminal display's input ended: a closed terminal, or no stdin
        lang = error_lang(getattr(args, "lang", None))
        _tell(f"brailledev: {UserError('terminal_closed').text(lang)}")
        return 1


def _flush() -> None:
    """Flush standard output; a terminal that closed (EIO) has nobody left to read it."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError:
        _to_nowhere()


def _to_nowhere() -> None:
    """Standard output points nowhere from now on, so the interpreter's last flush has
    nothing to fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _tell(text: str) -> None:
    """Say ``text`` on standard error, unless the terminal it went to is closed."""
    with contextlib.suppress(OSError):
        print(text, file=sys.stderr)


def _reader_gone() -> int:
    """Whoever read our output stopped (``brailledev tables | head -1``): end quietly with
    141, the shell's status for a program ended by SIGPIPE."""
    _to_nowhere()
    return 141


if __name__ == "__main__":
    sys.exit(main())
