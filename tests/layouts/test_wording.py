"""What every catalog's sentences hold to: plural forms chosen by the count, never "card(s)";
French typography (a space before ``; : ? !``, no capital after a colon)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import polib
import pytest

from games.core import NotationError
from games.uno.notation import parse_card
from layouts.catalog import Catalog
from layouts.translations import LANGUAGES, LOCALE


def texts(lang: str) -> Iterator[tuple[str, str]]:
    """Every translation of a language's catalog as (key, text), each form of a plural one:
    ``("common|messages.refused", "Refusé : {why}")``."""
    for entry in polib.pofile(str(LOCALE / f"{lang}.po")):
        if entry.obsolete:
            continue
        forms = entry.msgstr_plural.values() if entry.msgid_plural else (entry.msgstr,)
        for text in forms:
            yield entry.msgctxt, text


@pytest.mark.parametrize(("lang", "count", "said"), [
    ("en", 0, "Bo keeps 0 cards."), ("en", 1, "Bo keeps 1 card."),
    ("en", 2, "Bo keeps 2 cards."), ("fr", 0, "Bo garde 0 carte."),
    ("fr", 1, "Bo garde 1 carte."), ("fr", 2, "Bo garde 2 cartes.")])
def test_a_count_chooses_the_form_of_its_sentence(lang, count, said):
    catalog = Catalog.load("elements", lang)
    assert catalog.count("kept", count, count=count, player="Bo") == said
    assert catalog.text("kept", count=count, player="Bo") == said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_puts_a_plural_in_brackets(lang):
    found = [(key, text) for key, text in texts(lang)
             if re.search(r"\w\((s|es|x|n|en)\)", text)]
    assert not found, found


def french_faults(text: str) -> list[str]:
    """What ``text`` breaks of French typography: a ``;`` ``:`` ``?`` or ``!`` without the
    space before it, a capital after a colon (a word in capitals, UNO, is a name):
    ``french_faults("Refusé: La carte") == ["no space before ':'", "capital after ':' La"]``."""
    words = re.sub(r"{[^}]*}", "x", text)  # placeholders are filled with the reader's words
    words = re.sub(r"\S+://\S+|\b[\w.-]+:[\w/.-]+", "u", words)  # addresses, keyfile:/x
    found = [f"no space before {sign!r}" for sign in
             re.findall(r"[^\s\u00a0\u202f]([;:?!])(?:\s|$)", words)]
    found += [f"capital after ':' {word}" for word in re.findall(r":\s+([A-ZÀ-Ý]\w*)", words)
              if not word.isupper()]
    return found


def test_the_french_check_finds_each_fault():
    assert french_faults("Refusé: La carte") == ["no space before ':'", "capital after ':' La"]
    assert french_faults("simple; paire ?") == ["no space before ';'"]
    assert french_faults("Refusé : la carte ; {name} : UNO ! http://127.0.0.1:8765") == []


def test_french_puts_a_space_before_double_signs_and_no_capital_after_a_colon():
    found = [(key, text) for key, text in texts("fr") if french_faults(text)]
    assert not found, found


def test_a_french_uno_card_typed_wrong_is_explained_with_the_notations_letters():
    """Issue 32, item 10: the notation writes colours by their English initials, which no
    French label carries; the French sentence says so instead of leaving g+2 unexplained."""
    with pytest.raises(NotationError) as refused:
        parse_card("v+2", ("r", "y", "g", "b"))
    said = Catalog.load("uno", "fr").reason(refused.value.reason)
    assert said.startswith("« v+2 » n'est pas une carte Uno ;")
    assert "initiale anglaise (r rouge, y jaune, g vert, b bleu)" in said and "g+2" in said
