"""The device layer's signals, and the language a person's error sentences are told in.

Errors meant for people live in :mod:`layouts.errors`; these two are signals the play loop
acts on: the display went away (save, then say so), speech cannot start (go on silently).

    raise DisplayGone("BRLTTY stopped")
    error_lang(None)                                   # "fr" under LANG=fr_FR.UTF-8
"""

from __future__ import annotations

import os

from layouts.translations import LANGUAGES


class DisplayGone(Exception):
    """The display went away (BRLTTY stopped, device unplugged) and could not be reached:
    ``raise DisplayGone(error)``."""


class TerminalClosed(EOFError):
    """The terminal the program runs in closed (SIGHUP): ``raise TerminalClosed()``."""


class SpeechUnavailable(RuntimeError):
    """Speech cannot start or play: ``code`` says why in one short sentence for the reader
    (``speech_no_engine``, ``speech_no_player``, ``speech_no_device``), ``detail`` what the
    system said (kept out of the display): ``SpeechUnavailable("speech_no_player")``."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


def env_lang() -> str:
    """The environment's language when we have its catalog (LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG, the first one set: ``de_DE.UTF-8`` gives German), else English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value:
            return value[:2] if value[:2] in LANGUAGES else "en"
    return "en"


def error_lang(chosen: str | None) -> str:
    """The language of error sentences: ``--lang`` when the command has it and it was given,
    else the environment's."""
    return chosen if chosen in LANGUAGES else env_lang()
