"""What every catalog's sentences hold to: plural forms chosen by the count, never "card(s)"."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

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
