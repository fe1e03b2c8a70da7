"""The ``brailledev`` command: play, selfplay, emboss, embossers, devices, udev, tables.

Each subsystem registers its own subcommands; a mistake of the user's is one sentence on
standard error, in the reader's language (``--lang`` where the command has it, else the
environment's), and exit status 2, never a traceback (``--debug`` shows it).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import ClassVar, NoReturn

from brailledev import __version__, devices, play, selfplay
from brailledev.errors import UserError, env_lang, error_lang
from emboss import cli as emboss_cli
from layouts.catalog import Problem

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


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one sentence in the reader's language, then exit 2."""

    # The command line being parsed (main sets it), for its --lang.
    words: ClassVar[tuple[str, ...]] = ()

    def error(self, message: str) -> NoReturn:
        # --lang is not parsed yet: look for it in the command line, else the environment.
        words = Parser.words
        lang = next((words[i + 1] for i, word in enumerate(words[:-1])
                     if word == "--lang" and words[i + 1] in ("en", "fr")), None)
        for pattern, code in _ARGPARSE:
            found = pattern.match(message)
            if found:
                values = found.groupdict()
                if values.get("kind") in ("int", "float"):  # the kinds our options use
                    code = f"argument_{values.pop('kind')}"
                message = UserError(code, command=self.prog, **values).text(lang or env_lang())
                break
        self.exit(2, f"brailledev: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = Parser(
        prog="brailledev",
        description="Card games on a braille display; braille cards and score pads on paper.")
    parser.add_argument("--version", action="version", version=f"brailledev {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    selfplay.register(sub)
    devices.register(sub)
    play.register(sub)
    emboss_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    Parser.words = tuple(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(list(Parser.words))
    try:
        status: int = args.run(args)
        return status
    except Problem as error:
        if args.debug:
            raise
        print(f"brailledev: {error.text(error_lang(getattr(args, 'lang', None)))}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"brailledev: {UserError('stopped').text(error_lang(getattr(args, 'lang', None)))}",
              file=sys.stderr)
        return 130
    except EOFError:  # the terminal display's input ended: a closed terminal, or no stdin
        lang = error_lang(getattr(args, "lang", None))
        print(f"brailledev: {UserError('terminal_closed').text(lang)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
