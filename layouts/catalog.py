"""A game's words in one language, and the shared ones, from the gettext catalogs.

Every word a person reads or hears is an entry of ``layouts/locale/<lang>.po`` (see
:mod:`layouts.translations`) keyed by its scope and path: ``uno|messages.uno_help``,
``common|errors.stopped``, ``common|help.play.players``. A game's data stays in TOML beside
its code: its card labels (``[cards]`` of ``layouts/<game>/<lang>.toml``), its card sizes
(``deck.toml``), the box's numbers (``games/<game>/rules.toml``, handed on by
:func:`rules_data`).

A text that counts something has plural forms (``msgid_plural``): :meth:`Catalog.count` takes
the number that chooses the form (as ``ngettext`` does); every other call takes it from the
``count`` value it is given, which the text may show or not (refusals and errors carry their
number that way).

    cat = Catalog.load("uno", "fr")
    cat.text("not_your_turn")            # uno|messages.not_your_turn, else common|messages...
    cat.count("uno_count", 2, name="Bo", count=2)        # "Bo 2 cartes": a plural entry
    cat.text("uno_count", name="Bo", count=1)            # "Bo 1 carte": the form for count
    cat.count("screen.other", 1, player="Bo", count=1)   # a dot: rummikub|screen.other
    cat.section("cards")["+2"]           # the card labels of layouts/uno/fr.toml
    cat.section("names")["colours"]["r"]  # a word section: uno|names.colours.r ...
    help_text("play.players", "fr")      # common|help.play.players
    output_text("emboss.wrote", "fr", path="a.brf", pages=1, what="...")  # common|output...
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from games.core import Reason, box_data
from layouts.errors import DataError
from layouts.translations import LANGUAGES, words

__all__ = ["LANGUAGES", "Catalog", "game_data", "help_text", "load_toml", "output_text",
           "rules_data"]
HERE = Path(__file__).resolve().parent


@cache
def load_toml(path: Path) -> Mapping[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataError("data_file_missing", path=path) from None
    except tomllib.TOMLDecodeError as error:
        raise DataError("data_file_invalid", path=path, detail=error) from None


def help_text(key: str, lang: str, **params: Any) -> str:
    """A text of the command line's help (``common|help.<key>``), a dot reaching into its
    groups: ``help_text("paper.paper", "fr", papers="a4, letter")``."""
    return _common_text(f"help.{key}", lang, params)


def output_text(key: str | Sequence[str], lang: str, **params: Any) -> str:
    """A line the commands print (``common|output.<key>``); a sequence joins names holding
    dots: ``output_text("emboss.wrote", "fr", path="a.brf", pages=2, what="...")``,
    ``output_text(("tables", "names", "en-ueb-g1.ctb"), "en")``."""
    return _common_text("output." + (key if isinstance(key, str) else ".".join(key)), lang,
                        params)


def _known(lang: str) -> None:
    if lang not in LANGUAGES:
        raise DataError("language_unknown", lang=lang, choices=", ".join(LANGUAGES))


def _common_text(path: str, lang: str, params: Mapping[str, Any]) -> str:
    _known(lang)
    found = _template(f"common|{path}", lang, params.get("count"))
    if found is None:
        raise DataError("data_message_missing", message=path, game="common", lang=lang)
    return found.format(**params)


def _template(key: str, lang: str, number: Any) -> str | None:
    """The text of ``key``, or its form for ``number`` when it counts something."""
    found = words(lang).text(key)
    if found is None and isinstance(number, int):
        found = words(lang).count(key, number)
    return found


def game_data(game: str, name: str) -> Mapping[str, Any]:
    """A data file of the game's folder, ``layouts/<game>/<name>.toml`` (``deck``: the card
    size; ``refusals``: the examples the tests tell): ``game_data("uno", "deck")``."""
    return load_toml(HERE / game / f"{name}.toml")


def rules_data(game: str) -> dict[str, Any]:
    """The box's numbers for ``game`` (``games/<game>/rules.toml``), a fresh copy."""
    return box_data(game)


@dataclass(frozen=True)
class Catalog:
    """The words of one game in one language, with the common words behind them.
    ``print_names``: its sentences name cards as the box prints them ("blue 6"), not by
    their braille labels ("b6"): a web page's (:meth:`in_print`)."""

    game: str
    lang: str
    data: Mapping[str, Any]
    print_names: bool = False

    @classmethod
    def load(cls, game: str, lang: str) -> Catalog:
        _known(lang)
        path = HERE / game / f"{lang}.toml"
        return cls(game, lang, load_toml(path) if path.exists() else {})

    def in_print(self) -> Catalog:
        """The same words, their sentences naming cards as printed (each game's
        ``words.name``): ``Catalog.load("uno", "en").in_print()``."""
        return replace(self, print_names=True)

    def series(self, names: Iterable[str]) -> str:
        """Cards named one after the other in a sentence: labels apart by a space (as on
        the display's lines), print names by commas: ``series(["blue 6", "red 4"])``."""
        return (", " if self.print_names else " ").join(names)

    def section(self, name: str) -> Mapping[str, Any]:
        """A whole section: the game's data (``section("cards")``, from its TOML), else its
        words under that name, else the common ones: ``section("names")["colours"]``."""
        found = self.data.get(name)
        if isinstance(found, Mapping):
            return found
        for scope in (self.game, "common"):
            table = _section(self.lang, f"{scope}|{name}.")
            if table:
                return table
        raise DataError("data_table_missing", table=name, game=self.game, lang=self.lang)

    def text(self, code: str, **args: Any) -> str:
        """The message ``code`` (``[messages]``, or a path with a dot: ``screen.rack``) with
        its ``{placeholders}`` filled from ``args``; one that counts takes the form for
        ``args["count"]``."""
        for key in self._keys(code):
            template = _template(key, self.lang, args.get("count"))
            if template is not None:
                return template.format(**args)
        raise DataError("data_message_missing", message=code, game=self.game, lang=self.lang)

    def count(self, code: str, number: int, **args: Any) -> str:
        """The message ``code`` that counts ``number`` things, in the plural form the
        language gives that number (``ngettext``): ``count("uno_count", 1, name="Bo",
        count=1)``."""
        for key in self._keys(code):
            template = words(self.lang).count(key, number)
            if template is not None:
                return template.format(**args)
        raise DataError("data_message_missing", message=code, game=self.game, lang=self.lang)

    def _keys(self, code: str) -> tuple[str, str]:
        path = code if "." in code else f"messages.{code}"
        return f"{self.game}|{path}", f"common|{path}"

    def reason(self, reason: Reason) -> str:
        """A refusal in words: ``reason(Reason.of("not_your_turn"))``."""
        return self.text(reason.code, **reason.params)


@cache
def _section(lang: str, prefix: str) -> Mapping[str, Any]:
    """The texts under ``prefix``, nested at the dots of their keys (``names.colours.r``)."""
    found: dict[str, Any] = {}
    for key, text in words(lang).under(prefix).items():
        *groups, last = key.split(".")
        table = found
        for group in groups:
            table = table.setdefault(group, {})
        table[last] = text
    return found
