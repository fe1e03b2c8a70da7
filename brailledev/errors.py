"""Errors meant for people: one sentence saying what is wrong and what to do, in the reader's
language (the sentences are in ``[errors]`` of ``layouts/common/{en,fr}.toml``).

    raise UserError("pace_negative")                  # a code and its placeholders' values
    error_lang(None)                                   # "fr" under LANG=fr_FR.UTF-8
"""

from __future__ import annotations

import os

from layouts.catalog import Problem


class UserError(Problem):
    """Shown as its sentence alone, no traceback (unless ``--debug``), exit status 2."""


def env_lang() -> str:
    """French when the environment's language is French (LANGUAGE, LC_ALL, LC_MESSAGES, LANG,
    the first one set), else English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value:
            return "fr" if value.startswith("fr") else "en"
    return "en"


def error_lang(chosen: str | None) -> str:
    """The language of error sentences: ``--lang`` when the command has it and it was given,
    else the environment's."""
    return chosen if chosen in ("en", "fr") else env_lang()
