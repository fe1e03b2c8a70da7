"""Every error meant for a person, in one place: one sentence saying what is wrong and what to
do, in the reader's language.

A problem is the code of a sentence in ``[errors]`` of ``layouts/common/<lang>.toml`` and the
values of its placeholders; the command line tells it (``--lang``, else the environment's
language) with no traceback unless ``--debug``. The games' own exceptions (``IllegalMove``,
``NotationError``) stay in ``games/``; the device layer's signals (``DisplayGone``,
``SpeechUnavailable``) in ``brailledev/errors.py``.

    raise UserError("no_saved_game", path=path)
    UserError("no_saved_game", path="x.json").text("fr")   # "Il n'y a pas de partie ..."
"""

from __future__ import annotations

import re
from typing import Any

_CODE = re.compile(r"[a-z][a-z0-9_]*")


class Problem(Exception):
    """An error a person reads: ``raise Problem("no_saved_game", path=path)``; a text that is
    not a code (a sentence) is told as it is, in every language. ``str()`` is the English
    sentence."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def text(self, lang: str = "en") -> str:
        """The sentence in ``lang`` (English if ``lang`` has no such sentence):
        ``Problem("stopped").text("fr")``."""
        if not _CODE.fullmatch(self.code):
            return self.code
        # The catalog raises these errors itself, so it is reached only when words are wanted.
        from layouts.catalog import error_sentences

        for each in (lang, "en"):
            try:
                sentences = error_sentences(each)
            except Problem:  # the words themselves are missing: say what we can
                continue
            if self.code in sentences:
                return str(sentences[self.code]).format(**self.params)
        return f"{self.code} {self.params}"

    def __str__(self) -> str:
        return self.text("en")


class DataError(Problem, ValueError):
    """A data file is missing or malformed; the message names the file:
    ``DataError("data_file_missing", path=path)``."""


class UnknownName(Problem, ValueError):
    """A game or bot name that does not exist; the message lists the names that do:
    ``UnknownName("game_unknown", game="chess", choices="uno, domino")``."""


class GameRefused(Problem, ValueError):
    """The players or options asked for cannot start the game (the player count, or the
    engine's own check in its words): ``GameRefused("players_range", game="uno", ...)``."""


class UserError(Problem):
    """A mistake of the user's or of the system around: shown as its sentence alone, exit
    status 2: ``UserError("pace_negative")``."""


class UnknownBrailleTable(UserError):
    """A braille table name liblouis cannot load; the message lists the known tables:
    ``UnknownBrailleTable("table_unknown", name="x.ctb", choices="...")``."""


class PaperError(UserError):
    """Something does not fit on the page, the paper or a card, or a card or pad that cannot
    be embossed: ``PaperError("card_too_big", width=250, height=100, paper="A4")``."""


class TransportError(UserError):
    """A job could not be delivered; the message says how far it got and what to do:
    ``TransportError("lp_missing")``."""
