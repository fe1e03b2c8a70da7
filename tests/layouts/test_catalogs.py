"""The gettext catalogs: every key of the template translated in every language, nothing fuzzy,
the same placeholders as the English, plural forms as the language counts, the template the
English catalog's, and no word left in a TOML file."""

from __future__ import annotations

import gettext
import re
import string

import polib
import pytest

from layouts.catalog import Catalog, output_text
from layouts.errors import PaperError, Problem
from layouts.translations import LANGUAGES, LOCALE, words
from tools import po_from_toml

TEMPLATE = LOCALE / "brailledev.pot"
PLURAL_FORMS = {"en": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);",
                "de": "nplurals=2; plural=(n != 1);"}


def fields(text: str) -> list[tuple[str, str, str]]:
    """A text's placeholders, each with its conversion and format, sorted."""
    return sorted((name, conversion or "", spec or "")
                  for _, name, spec, conversion in string.Formatter().parse(text)
                  if name is not None)


def problems(po: polib.POFile, template: polib.POFile) -> list[str]:
    """What keeps a catalog from being complete: a key of the template missing, untranslated
    or fuzzy, a form missing, a placeholder that differs from the English."""
    found = []
    have = {entry.msgctxt: entry for entry in po if not entry.obsolete}
    counted = re.search(r"nplurals=(\d+)", po.metadata.get("Plural-Forms", ""))
    if counted is None:
        return ["Plural-Forms: missing"]
    plurals = int(counted.group(1))
    for source in template:
        entry = have.get(source.msgctxt)
        if entry is None:
            found.append(f"{source.msgctxt}: missing")
            continue
        if "fuzzy" in entry.flags:
            found.append(f"{source.msgctxt}: fuzzy")
        if entry.msgid != source.msgid or entry.msgid_plural != source.msgid_plural:
            found.append(f"{source.msgctxt}: another English")
        texts = [entry.msgstr] if not source.msgid_plural else \
            [entry.msgstr_plural.get(index, "") for index in range(plurals)]
        if not all(texts):
            found.append(f"{source.msgctxt}: untranslated")
        english = fields(source.msgid_plural or source.msgid)
        for text in texts:
            if text and fields(text) != english:
                found.append(f"{source.msgctxt}: placeholders {fields(text)} not {english}")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_is_translated_in_every_language(lang):
    po = polib.pofile(str(LOCALE / f"{lang}.po"))
    assert problems(po, polib.pofile(str(TEMPLATE))) == []
    assert po.metadata["Language"] == lang
    assert po.metadata["Plural-Forms"] == PLURAL_FORMS[lang]


def test_a_missing_fuzzy_or_misplaced_entry_is_found(tmp_path):
    template = polib.pofile(str(TEMPLATE))
    po = polib.pofile(str(LOCALE / "de.po"))
    entries = {entry.msgctxt: entry for entry in po}
    entries["uno|messages.uno_played"].msgstr = "{player} spielt {card}."
    entries["uno|messages.uno_count"].msgstr_plural[1] = "{name} Karten"
    entries["uno|messages.uno_turn"].flags.append("fuzzy")
    entries["uno|messages.uno_keep"].msgstr = ""
    po.remove(entries["uno|messages.uno_play"])
    po.save(str(tmp_path / "de.po"))
    assert problems(polib.pofile(str(tmp_path / "de.po")), template) == [
        "uno|messages.uno_turn: fuzzy",
        "uno|messages.uno_count: placeholders [('name', '', '')] not "
        "[('count', '', ''), ('name', '', '')]",
        "uno|messages.uno_play: missing",
        "uno|messages.uno_keep: untranslated",
        "uno|messages.uno_played: placeholders [('card', '', ''), ('player', '', '')] not "
        "[('card', '', ''), ('name', '', '')]",
    ]


def test_the_template_is_the_english_catalog_without_its_texts():
    english = {entry.msgctxt: (entry.msgid, entry.msgid_plural)
               for entry in polib.pofile(str(LOCALE / "en.po")) if not entry.obsolete}
    template = polib.pofile(str(TEMPLATE))
    assert {entry.msgctxt: (entry.msgid, entry.msgid_plural) for entry in template} == english
    assert all(not entry.msgstr and not any(entry.msgstr_plural.values()) for entry in template)


def test_the_languages_are_the_catalogs():
    assert set(LANGUAGES) == {path.stem for path in LOCALE.glob("*.po")} == {"en", "fr", "de"}


def test_no_word_is_left_in_the_toml_files():
    for lang in LANGUAGES:
        assert po_from_toml.words(po_from_toml.Reader(), lang) == {}, lang


@pytest.mark.parametrize(("lang", "forms"), [
    ("en", {0: "Bo 0 cards", 1: "Bo 1 card", 2: "Bo 2 cards"}),
    ("fr", {0: "Bo 0 carte", 1: "Bo 1 carte", 2: "Bo 2 cartes"}),
    ("de", {0: "Bo 0 Karten", 1: "Bo 1 Karte", 2: "Bo 2 Karten"}),
])
def test_a_count_takes_the_form_its_language_gives_it(lang, forms):
    catalog = Catalog.load("uno", lang)
    for number, said in forms.items():
        assert catalog.count("uno_count", number, name="Bo", count=number) == said
        assert catalog.text("uno_count", name="Bo", count=number) == said


def test_plural_forms_are_the_gettext_formulas():
    german, french = (gettext.c2py(PLURAL_FORMS[lang].split("plural=")[1].rstrip(";"))
                      for lang in ("de", "fr"))
    assert [german(n) for n in (0, 1, 2)] == [1, 0, 1]
    assert [french(n) for n in (0, 1, 2)] == [0, 0, 1]
    assert words("de").plural(1) == 0 and words("fr").plural(0) == 0


def test_counts_in_output_and_errors_follow_the_number():
    assert output_text("emboss.pads", "de", count=1) == "1 Block"
    assert output_text("emboss.pads", "de", count=3) == "3 Blöcke"
    assert output_text("emboss.pads", "fr", count=0) == "0 bloc"
    problem = PaperError("label_too_big", card="r7", cells=Problem("count_cells", count=4),
                         lines=Problem("count_lines", count=1),
                         room_cells=Problem("count_cells", count=3),
                         room_lines=Problem("count_lines", count=2))
    assert "needs 4 cells and 1 line, but a card holds 3 cells and 2 lines" in problem.text()
    assert "braucht 4 Zellen und 1 Zeile, aber eine Karte fasst hier 3 Zellen und 2 Zeilen" \
        in problem.text("de")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_errors_and_help_with_words_are_translated(lang):
    """An error sentence or a help text with a word in it reads differently from the English
    (a word left English is a word forgotten; "options" is French too)."""
    for entry in polib.pofile(str(LOCALE / f"{lang}.po")):
        outside = re.sub(r"\{[^}]*\}", "", entry.msgid)
        if entry.msgctxt.startswith(("common|errors.", "common|help.")) and not entry.obsolete \
                and not entry.msgid_plural and re.search("[a-z]{4}", outside) \
                and entry.msgid != "options":
            assert entry.msgstr != entry.msgid, entry.msgctxt
