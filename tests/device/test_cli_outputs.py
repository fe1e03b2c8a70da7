"""What the commands print, in the reader's language, run as real processes: ``devices``,
``tables``, ``embossers`` and ``emboss`` in French (``LANG=fr_FR.UTF-8``) and English
(``LANG=C``, or ``--lang``); and a reader that stops reading ends them without a traceback."""

from __future__ import annotations

import os
import string
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from brailledev.display.braille import TABLES, table_for, translator
from emboss import brf
from emboss.deck import deck_document
from emboss.embossers import PROFILES
from emboss.page import Geometry, paper
from emboss.udev import RULES_NAME, install
from layouts.catalog import output_text
from layouts.registry import kit
from layouts.translations import words as entries

ROOT = Path(__file__).resolve().parents[2]
LOCALES = {"fr": "fr_FR.UTF-8", "en": "C"}
# A port where nothing listens: `devices` must say that no BRLTTY answers.
SILENT_HOST = "127.0.0.1:29996"


def environment(lang: str) -> dict[str, str]:
    """The process environment with only LANG telling the language."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = LOCALES[lang]
    return env


def brailledev(lang: str, *words: str) -> subprocess.CompletedProcess[str]:
    """``brailledev WORDS`` in a fresh interpreter under ``LANG`` for ``lang``."""
    return subprocess.run([sys.executable, "-m", "brailledev", *words], cwd=ROOT,
                          env=environment(lang), capture_output=True, text=True, timeout=60,
                          check=False)


def lines_of(lang: str, *words: str) -> list[str]:
    done = brailledev(lang, *words)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout.splitlines()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_devices_without_brltty_says_so_in_the_environments_language(lang: str) -> None:
    lines = lines_of(lang, "devices", "--brlapi-host", SILENT_HOST)
    assert lines == [output_text("devices.none", lang, where=SILENT_HOST),
                     output_text("devices.none_hint", lang)]
    expected = {"fr": "Aucun BRLTTY ne répond à 127.0.0.1:29996 : les jeux utilisent "
                      "l'affichage du terminal.",
                "en": "No BRLTTY answers at 127.0.0.1:29996: games use the terminal display."}
    assert lines[0] == expected[lang]


def test_lang_option_wins_over_the_environment() -> None:
    assert lines_of("en", "devices", "--brlapi-host", SILENT_HOST, "--lang", "fr")[0] \
        .startswith("Aucun BRLTTY ne répond")
    assert lines_of("fr", "--lang", "en", "tables")[0].startswith("Braille tables (--table NAME)")
    assert lines_of("fr", "embossers", "--lang", "en")[0] == "Embosser profiles (--embosser):"


@pytest.mark.parametrize(("lang", "title", "line"), [
    ("fr", "Tables braille (--table NOM) ; * par défaut, + abrégé par défaut :",
     " * fr-bfu-comp6.utb   fr  français, intégral, 6 points"),
    ("en", "Braille tables (--table NAME); * default, + default contracted:",
     " * fr-bfu-comp6.utb   fr  French, uncontracted (intégral), 6 dots"),
])
def test_tables_in_the_environments_language(lang: str, title: str, line: str) -> None:
    lines = lines_of(lang, "tables")
    assert lines[0] == title
    assert lines[1] == line
    assert len(lines) == len(TABLES) + 2
    assert lines[-1] == output_text("tables.others", lang)


@pytest.mark.parametrize(("lang", "generic", "romeo", "ports"), [
    ("fr", "  generic : une embosseuse BRF quelconque, tout papier",
     "  romeo : Enabling Technologies Romeo Pro 50 ou Romeo 25 (avant le Romeo 60), papier "
     "38-337 x 76-356 mm, jusqu'à 40 cellules, recto seul", "Ports série (--device) :"),
    ("en", "  generic: a generic BRF embosser, any paper",
     "  romeo: Enabling Technologies Romeo Pro 50 or Romeo 25 (before the Romeo 60), paper "
     "38-337 x 76-356 mm, up to 40 cells, one side",
     "Serial ports (--device):"),
])
def test_embossers_in_the_environments_language(lang: str, generic: str, romeo: str,
                                                ports: str) -> None:
    lines = lines_of(lang, "embossers")
    assert lines[0] == output_text("embossers.profiles", lang)
    assert generic in lines and romeo in lines
    assert len([line for line in lines if line.startswith(ports)]) == 1
    queues = output_text("embossers.queues", lang)
    assert len([line for line in lines if line.startswith(queues.rstrip(":").rstrip())]) == 1


@pytest.mark.parametrize(("lang", "wrote"), [
    ("fr", "{path} écrit : {pages} page, 3 étiquettes, 9 par feuille"),
    ("en", "wrote {path}: {pages} page, 3 labels, 9 a sheet"),
])
def test_emboss_says_what_it_wrote_and_the_file_is_whole(tmp_path: Path, lang: str,
                                                         wrote: str) -> None:
    out = tmp_path / "cards.brf"
    lines = lines_of(lang, "emboss", "deck", "uno", "--cards", "r7,r7,b+2", "--out", str(out))
    # No --lang: the cards' words and braille table follow the environment too.
    expected = deck_document(kit("uno").deck_faces(lang, "r7,r7,b+2"), Geometry(paper("a4")),
                             kit("uno").card_size(), translator(table_for(lang)), "uno card labels",
                             lang)
    assert out.read_bytes() == brf.document_bytes(expected)
    assert len(expected.pages) == 1  # one page: the singular form
    assert lines == [wrote.format(path=out, pages=len(expected.pages))]


def keys(table: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """Every text of a table as (dotted key, its placeholders' names, sorted)."""
    for name, value in table.items():
        if isinstance(value, Mapping):
            yield from keys(value, f"{prefix}{name}.")
        else:
            fields = sorted({field for _, field, _, _ in string.Formatter().parse(value)
                             if field is not None})
            yield f"{prefix}{name}", ",".join(fields)


def test_every_table_and_embosser_profile_is_described() -> None:
    english = entries("en").under("common|output.")
    for table in TABLES:
        assert f"tables.names.{table.name}" in english
    for name in PROFILES:
        assert f"embossers.described.{name}" in english


def test_a_reader_gone_before_the_output_ends_it_quietly() -> None:
    reading, writing = os.pipe()
    os.close(reading)  # the reader left before a byte was written: every write hits EPIPE
    for words in (["tables"], ["embossers", "--lang", "fr"], ["--help"]):
        done = subprocess.run([sys.executable, "-m", "brailledev", *words], cwd=ROOT,
                              env=environment("en"), stdout=writing, stderr=subprocess.PIPE,
                              text=True, timeout=60, check=False)
        assert (done.returncode, done.stderr) == (141, ""), words
    os.close(writing)


def test_tables_into_a_pipe_closed_after_one_line() -> None:
    process = subprocess.Popen([sys.executable, "-m", "brailledev", "tables"],
                               cwd=ROOT,
                               env=environment("fr"), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline() == output_text("tables.title", "fr") + "\n"
    process.stdout.close()
    assert process.wait(timeout=60) in (0, 141)  # 0 when it had written all before the close
    assert process.stderr.read() == ""
    process.stderr.close()


def test_shell_pipe_into_head() -> None:
    done = subprocess.run(["bash", "-o", "pipefail", "-c",
                           f"{sys.executable} -m brailledev tables | head -1"],
                          cwd=ROOT,
                          env=environment("en"), capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.stdout == output_text("tables.title", "en") + "\n"
    assert done.stderr == ""
    assert done.returncode in (0, 141)


@pytest.mark.parametrize(("lang", "start"), [
    ("fr", "{path} installé ; udevadm n'est pas là"),
    ("en", "installed {path}; udevadm is not here"),
])
def test_udev_install_reports_in_the_readers_language(tmp_path: Path, lang: str,
                                                      start: str) -> None:
    message = install(tmp_path, is_root=True, udevadm=None, lang=lang)
    assert message.startswith(start.format(path=tmp_path / RULES_NAME))
