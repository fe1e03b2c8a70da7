"""The ``brailledev`` command: play, selfplay, emboss, embossers, devices, udev, tables.

Each subsystem registers its own subcommands; a mistake of the user's is one sentence on
standard error, in the reader's language (``--lang`` where the command has it, else the
environment's), and exit status 2, never a traceback (``--debug`` shows it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from brailledev import __version__, play, selfplay
from brailledev.errors import UserError, error_lang
from emboss import cli as emboss_cli
from layouts.catalog import Problem


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="brailledev",
        description="Card games on a braille display; braille cards and score pads on paper.")
    parser.add_argument("--version", action="version", version=f"brailledev {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    selfplay.register(sub)
    play.register(sub)
    emboss_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
