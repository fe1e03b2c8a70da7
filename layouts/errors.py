"""Every error meant for a person, in one place: one sentence saying what is wrong and what to
do, in the reader's language.

A problem is the code of a sentence of the gettext catalogs (``common|errors.<code>``, or
``<game>|errors.<code>`` for its game's own: :class:`GameProblem`) and the values of its
placeholders; a sentence that counts something has plural forms, chosen by its ``count``
value. The command line tells it (``--lang``, else the environment's
language) with no traceback unless ``--debug``. The games' own exceptions (``IllegalMove``,
``NotationError``) stay in ``games/``; the device layer's signals (``DisplayGone``,
``SpeechUnavailable``) in ``brailledev/errors.py``.

    raise UserError("no_saved_game", path=path)
    UserError("no_saved_game", path="x.json").text("fr")   # "Il n'y a pas de partie ..."
"""

from __future__ import annotations

import errno
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from layouts.translations import words

_CODE = re.compile(r"[a-z][a-z0-9_]*")


@cache
def error_sentences(lang: str, folder: str = "common") -> Mapping[str, Any]:
    """The sentences of ``<folder>|errors.`` by code (the shared ones in ``common``, a game's
    own under its name), English where ``lang`` lacks one; a sentence that counts has its plural
    forms: ``error_sentences("fr")["stopped"]``."""
    prefix = f"{folder}|errors."
    found: dict[str, Any] = {}
    for each in dict.fromkeys(("en", lang)):
        found.update({key[len(prefix):]: text for key, text in words(each).entries.items()
                      if key.startswith(prefix)})
    return found


def _told(sentence: str | tuple[str, ...], lang: str, params: Mapping[str, Any]) -> str:
    if isinstance(sentence, tuple):
        # A sentence that counts: the form for its count, as the language's Plural-Forms say.
        sentence = sentence[min(words(lang).plural(int(params["count"])), len(sentence) - 1)]
    return sentence.format(**params)


class Problem(Exception):
    """An error a person reads: ``raise Problem("no_saved_game", path=path)``; a text that is
    not a code (a sentence) is told as it is, in every language. A value that is itself a
    problem is told in the same language (the detail of a damaged save). ``str()`` is the
    English sentence."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def text(self, lang: str = "en") -> str:
        """The sentence in ``lang`` (English if ``lang`` has no such sentence):
        ``Problem("stopped").text("fr")``."""
        if not _CODE.fullmatch(self.code):
            return self.code
        sentences = self.sentences(lang)
        if self.code in sentences:
            # A problem given as a value (the detail of another) speaks the same language.
            params = {key: value.text(lang) if isinstance(value, Problem) else value
                      for key, value in self.params.items()}
            return _told(sentences[self.code], lang, params)
        return f"{self.code} {self.params}"

    def sentences(self, lang: str) -> Mapping[str, Any]:
        """The sentences this problem is told from, by code: the shared ones."""
        return error_sentences(lang)

    def __str__(self) -> str:
        return self.text("en")


class GameProblem(Problem):
    """A problem in a game's own words (``[errors]`` of ``layouts/<game>/<lang>.toml``, the
    shared sentences behind them): ``GameProblem("uno", "refused_teams_players", players=3)``.
    """

    def __init__(self, game: str, code: str, **params: Any) -> None:
        super().__init__(code, **params)
        self.game = game

    def sentences(self, lang: str) -> Mapping[str, Any]:
        return {**error_sentences(lang), **error_sentences(lang, self.game)}


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
    status 2: ``UserError("pace_range", most=60)``."""


class UnknownBrailleTable(UserError):
    """A braille table name liblouis cannot load; the message lists the known tables:
    ``UnknownBrailleTable("table_unknown", name="x.ctb", choices="...")``."""


class PaperError(UserError):
    """Something does not fit on the page, the paper or a card, or a card or pad that cannot
    be embossed: ``PaperError("card_too_big", width=250, height=100, paper="A4")``."""


class TransportError(UserError):
    """A job could not be delivered; the message says how far it got and what to do:
    ``TransportError("lp_missing")``."""


# What the system's refusals of a file are called in [errors] (the system's own words are
# English whatever the reader's language).
_SYSTEM_REASONS = {
    errno.ENOSPC: "system_no_space", errno.EDQUOT: "system_quota",
    errno.EACCES: "system_no_permission", errno.EPERM: "system_no_permission",
    errno.EROFS: "system_read_only", errno.ENOTDIR: "system_not_a_folder",
    errno.EISDIR: "system_is_a_folder", errno.EFBIG: "system_too_big",
    errno.ENOENT: "system_missing", errno.ENAMETOOLONG: "system_name_too_long",
}


def system_reason(error: OSError) -> Problem:
    """Why the system refused to write or read a file, in words to tell in the reader's
    language: ``system_reason(OSError(errno.ENOSPC, "No space"))`` -> "the disk is full"."""
    code = _SYSTEM_REASONS.get(error.errno or 0)
    if code is not None:
        return Problem(code)
    return Problem("system_other", detail=error.strerror or type(error).__name__)
