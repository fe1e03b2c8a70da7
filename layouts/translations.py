"""The gettext catalogs: every word a person reads or hears, one ``.po`` file per language.

``layouts/locale/<lang>.po`` holds an entry per key: ``msgctxt`` is the key the code asks for
(its scope, ``common`` or the game, and its path: ``uno|messages.uno_help``), ``msgid`` the
English, ``msgstr`` the translation, and ``msgid_plural`` with one ``msgstr[i]`` per plural
form for a text that counts something (the header's ``Plural-Forms`` picks the form, compiled
by the gettext module). ``make setup`` compiles each into ``<lang>.mo`` (tools/build_catalogs.py);
a ``.po`` newer than its ``.mo`` (edited, or just merged) is compiled in memory instead, so an
edit shows at once. A key a language lacks, or holds as fuzzy, is told in English.

    words("fr").text("common|messages.not_your_turn")        # "Ce n'est pas votre tour."
    words("de").count("common|web.cards", 1)                 # "{count} Karte"
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

LOCALE = Path(__file__).resolve().parent / "locale"
# The languages are the catalogs there: a translator adds one by adding its .po file.
LANGUAGES: tuple[str, ...] = tuple(sorted((path.stem for path in LOCALE.glob("*.po")),
                                          key=lambda lang: (lang != "en", lang)))


@dataclass(frozen=True)
class Words:
    """One language's entries by key: a text, or a text's plural forms, and how to choose one.
    """

    lang: str
    entries: Mapping[str, str | tuple[str, ...]]
    plural: Callable[[int], int]
    # ``under``'s answers by prefix: a web page's picture asks for its words at every card, and
    # each answer scans both catalogs' 2,400 keys (42 of a 51 s Elevens game went there).
    _under: dict[str, dict[str, str]] = field(default_factory=dict, compare=False, repr=False)

    def get(self, key: str) -> str | tuple[str, ...] | None:
        """The entry of ``key`` here, else in English, else None."""
        found = self.entries.get(key)
        if found is None and self.lang != "en":
            return words("en").get(key)
        return found

    def text(self, key: str) -> str | None:
        """The text of ``key`` (None if it has none, or counts something):
        ``words("fr").text("common|help.usage")``."""
        found = self.get(key)
        return found if isinstance(found, str) else None

    def count(self, key: str, number: int) -> str | None:
        """The form of ``key`` for ``number`` of things (None if it counts nothing):
        ``words("fr").count("common|web.cards", 0) == "{count} carte"``."""
        found = self.entries.get(key)
        if isinstance(found, tuple):
            return found[min(self.plural(number), len(found) - 1)]
        if found is None and self.lang != "en":
            return words("en").count(key, number)
        return None

    def under(self, prefix: str) -> dict[str, str]:
        """Every text whose key starts with ``prefix``, by the rest of its key:
        ``words("en").under("common|errors.")["stopped"] == "stopped."`` (a dict of the
        caller's own)."""
        found = self._under.get(prefix)
        if found is None:
            found = {key[len(prefix):]: text for key, text in words("en").entries.items()
                     if key.startswith(prefix) and isinstance(text, str)} \
                if self.lang != "en" else {}
            found.update({key[len(prefix):]: text for key, text in self.entries.items()
                          if key.startswith(prefix) and isinstance(text, str)})
            self._under[prefix] = found
        return dict(found)


def _compiled(lang: str) -> gettext.GNUTranslations:
    source, compiled = LOCALE / f"{lang}.po", LOCALE / f"{lang}.mo"
    try:
        fresh = compiled.stat().st_mtime >= source.stat().st_mtime
    except FileNotFoundError:
        fresh = compiled.exists()
    if fresh:
        with compiled.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    # Only an edited or uncompiled catalog pays for polib.
    import polib

    return gettext.GNUTranslations(io.BytesIO(polib.pofile(str(source)).to_binary()))


@cache
def words(lang: str) -> Words:
    """The entries of ``layouts/locale/<lang>.po``, compiled (empty for a language without a
    catalog: every key is then told in English): ``words("de")``."""
    if lang not in LANGUAGES:
        return Words(lang, {}, lambda number: int(number != 1))
    translations = _compiled(lang)
    entries: dict[str, str | tuple[str, ...]] = {}
    forms: dict[str, dict[int, str]] = {}
    # GNUTranslations keys its catalog by "context\x04msgid" (and a form's index for plurals)
    # and has no public call to look an entry up by its context alone, which is our key.
    for item, text in translations._catalog.items():  # type: ignore[attr-defined]
        if isinstance(item, tuple):
            key, _, _ = item[0].partition("\x04")
            forms.setdefault(key, {})[item[1]] = text
        elif "\x04" in item:
            entries[item.partition("\x04")[0]] = text
    for key, found in forms.items():
        entries[key] = tuple(found[index] for index in sorted(found))
    # _parse sets plural from the header's Plural-Forms (compiled by gettext.c2py).
    return Words(lang, entries, translations.plural)  # type: ignore[attr-defined]
