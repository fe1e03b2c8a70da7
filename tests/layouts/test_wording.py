"""What every catalog's sentences hold to: plural forms chosen by the count, never "card(s)";
French typography (a space before ``; : ? !``, no capital after a colon)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from games.core import NotationError
from games.uno.notation import parse_card
from layouts.catalog import HERE, LANGUAGES, Catalog, load_toml
from layouts.registry import GAMES

FOLDERS = ("common", *GAMES)


def messages(folder: str, lang: str) -> Mapping[str, Any]:
    found: Mapping[str, Any] = load_toml(HERE / folder / f"{lang}.toml").get("messages", {})
    return found


def sentences(folder: str, lang: str) -> Iterator[tuple[str, str]]:
    """Every message of a catalog as (key, text), each form of a plural one."""
    for key, value in messages(folder, lang).items():
        forms = value.values() if isinstance(value, Mapping) else (value,)
        for text in forms:
            yield key, str(text)


@pytest.mark.parametrize(("lang", "count", "said"), [
    ("en", 0, "Bo keeps 0 cards."), ("en", 1, "Bo keeps 1 card."),
    ("en", 2, "Bo keeps 2 cards."), ("fr", 0, "Bo garde 0 carte."),
    ("fr", 1, "Bo garde 1 carte."), ("fr", 2, "Bo garde 2 cartes.")])
def test_a_count_chooses_the_form_of_its_sentence(lang, count, said):
    catalog = Catalog.load("elements", lang)
    assert catalog.plural("kept", count, player="Bo") == said
    assert catalog.text("kept", count=count, player="Bo") == said


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_plural_message_has_one_and_other_in_both_languages(folder):
    plural = {lang: {key for key, value in messages(folder, lang).items()
                     if isinstance(value, Mapping)} for lang in LANGUAGES}
    assert plural["en"] == plural["fr"]
    for lang in LANGUAGES:
        for key in plural[lang]:
            forms = messages(folder, lang)[key]
            assert set(forms) == {"one", "other"}, (folder, lang, key)
            fields = [set(re.findall(r"{(\w+)", str(text))) for text in forms.values()]
            assert fields[0] == fields[1], (folder, lang, key)


@pytest.mark.parametrize("folder", FOLDERS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_puts_a_plural_in_brackets(folder, lang):
    for key, text in sentences(folder, lang):
        assert not re.search(r"\w\((s|es|x)\)", text), (folder, key, text)


def texts(data: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every text of a catalog, each with its path: ``("messages.refused", "Refusé : {why}")``."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield from texts(value, f"{path}.{key}" if path else str(key))
    elif isinstance(data, list):
        for value in data:
            yield from texts(value, path)
    elif isinstance(data, str):
        yield path, data


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


@pytest.mark.parametrize("folder", FOLDERS)
def test_french_puts_a_space_before_double_signs_and_no_capital_after_a_colon(folder):
    found = [(path, text) for path, text in texts(load_toml(HERE / folder / "fr.toml"))
             if french_faults(text)]
    assert not found, found


def test_a_french_uno_card_typed_wrong_is_explained_with_the_notations_letters():
    """Issue 32, item 10: the notation writes colours by their English initials, which no
    French label carries; the French sentence says so instead of leaving g+2 unexplained."""
    with pytest.raises(NotationError) as refused:
        parse_card("v+2", ("r", "y", "g", "b"))
    said = Catalog.load("uno", "fr").reason(refused.value.reason)
    assert said.startswith("« v+2 » n'est pas une carte Uno ;")
    assert "initiale anglaise (r rouge, y jaune, g vert, b bleu)" in said and "g+2" in said
