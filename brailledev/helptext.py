"""The command line's help in the reader's language: every ``help=`` and ``description=``,
and argparse's own words (usage, section titles, ``-h``), from ``[help]`` of
``layouts/common/{en,fr}.toml``.

The language is chosen before the arguments are parsed: ``--lang fr|en`` in the command
line, else the environment's (see :func:`brailledev.errors.env_lang`). Parsers built inside
``speaking(lang)`` keep that language for their help and their error sentences.

    with speaking(help_lang(["play", "uno", "--lang", "fr", "--help"])):
        parser = HelpParser(prog="brailledev", description=say("brailledev"))
    say("play.players")          # inside speaking("fr"): "joueurs, vous compris (2 par défaut)"
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from brailledev.errors import env_lang
from layouts.catalog import LANGUAGES, help_text

# The language of the parsers being built; None outside speaking(): the environment's.
_LANG: ContextVar[str | None] = ContextVar("help_lang", default=None)


def argv_lang(words: Sequence[str]) -> str | None:
    """The language a command line asks for with ``--lang fr`` or ``--lang=fr``, if any:
    ``argv_lang(["play", "uno", "--lang", "fr"]) == "fr"``."""
    for index, word in enumerate(words):
        if word == "--lang" and index + 1 < len(words):
            value = words[index + 1]
        elif word.startswith("--lang="):
            value = word.removeprefix("--lang=")
        else:
            continue
        if value in LANGUAGES:
            return value
    return None


def help_lang(words: Sequence[str]) -> str:
    """The language of the help and errors of a command line: its ``--lang``, else the
    environment's: ``help_lang(["--help"])`` is ``"fr"`` under ``LANG=fr_FR.UTF-8``."""
    return argv_lang(words) or env_lang()


def current_lang() -> str:
    """The language of the parsers being built (the environment's outside ``speaking``)."""
    return _LANG.get() or env_lang()


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Build parsers whose help is in ``lang``: ``with speaking("fr"): build_parser()``."""
    token = _LANG.set(lang)
    try:
        yield
    finally:
        _LANG.reset(token)


def say(key: str, **params: Any) -> str:
    """A help text in the current language: ``say("paper.margin")``."""
    return help_text(key, current_lang(), **params)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with its "usage:" and section titles in the parser's language."""

    def __init__(self, prog: str, lang: str) -> None:
        super().__init__(prog)
        self.lang = lang

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup],
                  prefix: str | None = None) -> None:
        if prefix is None:
            prefix = help_text("usage", self.lang)
        super().add_usage(usage, actions, groups, prefix)

    def start_section(self, heading: str | None) -> None:
        # argparse puts its colon right after a title; French wants a space before it.
        super().start_section(heading and help_text("section", self.lang, title=heading))


class HelpParser(argparse.ArgumentParser):
    """An ArgumentParser whose own words (section titles, ``-h``, "usage:") are in the
    language current when it was built; subcommands' parsers are of the same class."""

    def __init__(self, **kwargs: Any) -> None:
        add_help = kwargs.pop("add_help", True)
        super().__init__(add_help=False, **kwargs)
        self.lang = current_lang()
        self._positionals.title = help_text("positionals", self.lang)
        self._optionals.title = help_text("options", self.lang)
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=help_text("help", self.lang))

    def _get_formatter(self) -> argparse.HelpFormatter:
        return HelpFormatter(self.prog, self.lang)
