"""Per-game, per-language text data read from TOML files beside the code.

Each game has a folder ``layouts/<game>/`` with one file per language, ``en.toml`` and
``fr.toml``, whose tables hold card labels (``[cards]``), messages and reasons
(``[messages]``) and any other words. ``layouts/common/<lang>.toml`` holds shared words.
The box's numbers (deck, hand sizes, printed bonuses) live beside the engine, in
``games/<game>/rules.toml``: :func:`rules_data` hands them on.

    cat = Catalog.load("uno", "fr")
    cat.text("not_your_turn")            # from [messages], game file first, then common
    cat.plural("kept", 1, player="Bo")    # a count's form: 'Bo keeps 1 card.'
    cat.section("cards")["r+2"]           # a whole [section] of the game's file
    help_text("play.players", "fr")      # from [help] of common/fr.toml, a dotted key
    output_text("emboss.wrote", "fr", path="a.brf", pages=1, what="...")  # [output], likewise
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from games.core import Reason, box_data
from layouts.errors import DataError

LANGUAGES = ("en", "fr")
HERE = Path(__file__).resolve().parent
# Whether a count takes a message's singular form, per language (gettext's Plural-Forms:
# English n != 1 is plural, French n > 1: "0 carte", "1 carte", "2 cartes").
SINGULAR: Mapping[str, Callable[[int], bool]] = {"en": lambda n: n == 1,
                                                 "fr": lambda n: n <= 1}


@cache
def load_toml(path: Path) -> Mapping[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataError("data_file_missing", path=path) from None
    except tomllib.TOMLDecodeError as error:
        raise DataError("data_file_invalid", path=path, detail=error) from None


def _common(lang: str) -> Mapping[str, Any]:
    return load_toml(HERE / "common" / f"{lang}.toml")


def help_text(key: str, lang: str, **params: Any) -> str:
    """A text of the command line's help from ``[help]`` of ``layouts/common/<lang>.toml``, a
    dot reaching into its sub-tables: ``help_text("paper.paper", "fr", papers="a4, letter")``.
    """
    return _common_text("help", key.split("."), lang, params)


def output_text(key: str | Sequence[str], lang: str, **params: Any) -> str:
    """A line the commands print, from ``[output]`` of ``layouts/common/<lang>.toml``; a dot
    (or a sequence, for names holding dots) reaches into its sub-tables:
    ``output_text("emboss.wrote", "fr", path="a.brf", pages=2, what="...")``,
    ``output_text(("tables", "names", "en-ueb-g1.ctb"), "en")``.
    """
    return _common_text("output", key.split(".") if isinstance(key, str) else key, lang, params)


def _common_text(section: str, path: Sequence[str], lang: str, params: Mapping[str, Any]) -> str:
    if lang not in LANGUAGES:
        raise DataError("language_unknown", lang=lang, choices=", ".join(LANGUAGES))
    found: Any = _common(lang).get(section)
    for part in path:
        found = found.get(part) if isinstance(found, Mapping) else None
    if not isinstance(found, str):
        raise DataError("data_message_missing", message=".".join((section, *path)),
                        game="common", lang=lang)
    return found.format(**params)


def game_data(game: str, name: str) -> Mapping[str, Any]:
    """A data file of the game's folder, ``layouts/<game>/<name>.toml`` (``deck``: card size
    and notation; ``pad``: the score pad's words): ``game_data("uno", "deck")``."""
    return load_toml(HERE / game / f"{name}.toml")


def rules_data(game: str) -> dict[str, Any]:
    """The box's numbers for ``game`` (``games/<game>/rules.toml``), a fresh copy."""
    return box_data(game)


@dataclass(frozen=True)
class Catalog:
    """The words of one game in one language, with the common words behind them."""

    game: str
    lang: str
    data: Mapping[str, Any]
    common: Mapping[str, Any]

    @classmethod
    def load(cls, game: str, lang: str) -> Catalog:
        if lang not in LANGUAGES:
            raise DataError("language_unknown", lang=lang, choices=", ".join(LANGUAGES))
        return cls(game, lang, game_data(game, lang), _common(lang))

    def section(self, name: str) -> Mapping[str, Any]:
        """A whole section (a TOML table) of the game's file, the common words' if the game
        has none: ``section("cards")``."""
        found = self.data.get(name, self.common.get(name))
        if not isinstance(found, Mapping):
            raise DataError("data_table_missing", table=name, game=self.game, lang=self.lang)
        return found

    def text(self, code: str, **args: Any) -> str:
        """The message ``code`` with its ``{placeholders}`` filled from ``args``; a message
        with plural forms takes the form for ``args["count"]`` (see :meth:`plural`)."""
        for source in (self.data, self.common):
            template = source.get("messages", {}).get(code)
            if isinstance(template, Mapping):
                return self.plural(code, args.pop("count", None), **args)
            if template is not None:
                return str(template).format(**args)
        raise DataError("data_message_missing", message=code, game=self.game, lang=self.lang)

    def plural(self, code: str, count: Any, **args: Any) -> str:
        """The message ``code`` in the form ``count`` takes, its placeholders filled from
        ``count`` and ``args``: the catalog holds ``code = {one = "...", other = "..."}``
        (gettext's ngettext): ``plural("kept", 2, player="Bo") == "Bo keeps 2 cards."``."""
        for source in (self.data, self.common):
            forms = source.get("messages", {}).get(code)
            if forms is None:
                continue
            if not isinstance(forms, Mapping) or not isinstance(count, int):
                break
            form = "one" if SINGULAR[self.lang](count) else "other"
            return str(forms[form]).format(count=count, **args)
        raise DataError("data_message_missing", message=f"{code} ({count})", game=self.game,
                        lang=self.lang)

    def reason(self, reason: Reason) -> str:
        """A refusal in words: ``reason(Reason.of("not_your_turn"))``."""
        return self.text(reason.code, **reason.params)
