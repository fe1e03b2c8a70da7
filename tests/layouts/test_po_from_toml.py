"""tools/po_from_toml.py on a real git repository of its own: the words a branch added to the TOML
catalogs after the catalogs moved to gettext (texts, and texts that count as other branches
wrote them: ``{ one = "...", other = "..." }``) are folded into the .po files whether it runs
before, during or after the branch's merge, on main or on a branch that merged main, and only
that branch's words: a word main translated since stays as it is."""

from __future__ import annotations

import subprocess
from pathlib import Path

import polib
import pytest

from tools import po_from_toml

CARDS = '[cards]\nred = "{red}"\n\n'
WORDS = {
    "common": {"en": '[messages]\nhello = "Hello"\n',
               "fr": '[messages]\nhello = "Bonjour"\n',
               "de": '[messages]\nhello = "Hallo"\n'},
    "uno": {"en": CARDS.format(red="r") + '[messages]\nturn = "Your turn"\n',
            "fr": CARDS.format(red="r") + '[messages]\nturn = "À vous"\n',
            "de": CARDS.format(red="r") + '[messages]\nturn = "Du bist dran"\n'},
}


def git(repo: Path, *args: str, check: bool = True) -> str:
    """Runs git in the test's repository as a fixed person; what it printed."""
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
                           "-c", "init.defaultBranch=main", "-c", "merge.conflictStyle=merge",
                           *args], cwd=repo, capture_output=True, text=True)
    assert done.returncode == 0 or not check, done.stderr
    return done.stdout


def write(repo: Path, scope: str, lang: str, text: str) -> None:
    path = repo / "layouts" / scope / f"{lang}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def add_word(repo: Path, scope: str, lang: str, section: str, key: str, text: str,
             first: bool = False) -> None:
    """Adds a word to a TOML catalog, in a section of its own at the end (or the start)."""
    path = repo / "layouts" / scope / f"{lang}.toml"
    added, kept = f'[{section}]\n{key} = "{text}"\n', path.read_text(encoding="utf-8")
    path.write_text(f"{added}\n{kept}" if first else f"{kept}\n{added}", encoding="utf-8")


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def fold(repo: Path, *args: str) -> int:
    return po_from_toml.main(list(args), root=repo)


def entry(repo: Path, lang: str, key: str) -> polib.POEntry:
    po = polib.pofile(str(repo / "layouts" / "locale" / f"{lang}.po"))
    found = [each for each in po if each.msgctxt == key and not each.obsolete]
    assert len(found) == 1, f"{lang}.po: {key} is there {len(found)} times"
    return found[0]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main with TOML words, branch web from it adding one word (English and French) and
    changing one English text, then main moving its words to gettext and translating them."""
    git(tmp_path, "init", "-q")
    for scope, langs in WORDS.items():
        for lang, text in langs.items():
            write(tmp_path, scope, lang, text)
    commit(tmp_path, "words in TOML")
    git(tmp_path, "checkout", "-q", "-b", "web")
    add_word(tmp_path, "common", "en", "web", "title", "Table {code}")
    add_word(tmp_path, "common", "fr", "web", "title", "Table {code}")
    add_word(tmp_path, "uno", "en", "web", "stock", "Stock")
    add_word(tmp_path, "uno", "fr", "web", "stock", "Pioche")
    path = tmp_path / "layouts" / "uno" / "en.toml"
    path.write_text(path.read_text().replace("Your turn", "Your turn now"))
    for lang, forms in (("en", ("card", "cards")), ("fr", ("carte", "cartes"))):
        counted = tmp_path / "layouts" / "common" / f"{lang}.toml"
        counted.write_text(counted.read_text() + f'\n[count]\ncards = {{ one = "{{count}} '
                           f'{forms[0]}", other = "{{count}} {forms[1]}" }}\n')
    commit(tmp_path, "web words")
    git(tmp_path, "checkout", "-q", "main")
    assert fold(tmp_path) == 0
    commit(tmp_path, "words in gettext")
    # main's German for hello is reworded after the move: a fold of web must keep it
    de = tmp_path / "layouts" / "locale" / "de.po"
    de.write_text(de.read_text(encoding="utf-8").replace('"Hallo"', '"Guten Tag"'))
    commit(tmp_path, "German reworded")
    return tmp_path


def folded(repo: Path) -> None:
    """web's words are in every catalog as they should be, main's own untouched."""
    assert entry(repo, "en", "common|web.title").msgid == "Table {code}"
    assert entry(repo, "fr", "common|web.title").msgstr == "Table {code}"
    assert entry(repo, "de", "common|web.title").msgstr == ""  # left to translate
    assert entry(repo, "fr", "uno|web.stock").msgstr == "Pioche"
    counted = {lang: entry(repo, lang, "common|count.cards") for lang in ("en", "fr", "de")}
    assert (counted["en"].msgid, counted["en"].msgid_plural) == ("{count} card", "{count} cards")
    assert counted["fr"].msgstr_plural == {0: "{count} carte", 1: "{count} cartes"}
    assert counted["de"].msgid_plural == "{count} cards" and counted["de"].msgstr_plural == {
        0: "", 1: ""}
    turn = {lang: entry(repo, lang, "uno|messages.turn") for lang in ("en", "fr", "de")}
    assert turn["en"].msgid == turn["fr"].msgid == "Your turn now"
    assert "fuzzy" in turn["fr"].flags and turn["fr"].msgstr == "À vous"
    assert "fuzzy" in turn["de"].flags
    assert entry(repo, "de", "common|messages.hello").msgstr == "Guten Tag"
    assert "fuzzy" not in entry(repo, "de", "common|messages.hello").flags
    template = polib.pofile(str(repo / "layouts" / "locale" / "brailledev.pot"))
    assert "common|web.title" in {found.msgctxt for found in template}
    assert not (repo / "layouts" / "common" / "en.toml").exists()
    assert (repo / "layouts" / "uno" / "en.toml").read_text() == CARDS.format(red="r").rstrip() \
        + "\n"


def test_folded_on_main_before_the_merge(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fold(repo, "--branch", "web") == 0
    folded(repo)
    assert "de.po: 4 to translate" in capsys.readouterr().out
    catalogs = {path.name: path.read_bytes() for path in (repo / "layouts" / "locale").iterdir()}
    assert fold(repo, "--branch", "web") == 0  # a second run changes nothing
    assert catalogs == {path.name: path.read_bytes()
                        for path in (repo / "layouts" / "locale").iterdir()}


def test_folded_during_a_merge_left_in_conflict(repo: Path) -> None:
    git(repo, "merge", "-q", "web", check=False)
    assert "<<<<<<<" in (repo / "layouts" / "uno" / "en.toml").read_text()
    assert fold(repo, "--branch", "web") == 0
    folded(repo)
    commit(repo, "merge web")
    assert fold(repo, "--branch", "web") == 0  # after the merge too, nothing more
    assert git(repo, "status", "--porcelain") == ""


def test_folded_after_the_merge_was_committed(repo: Path) -> None:
    git(repo, "merge", "-q", "web", check=False)
    git(repo, "checkout", "-q", "main", "--", "layouts/uno")
    git(repo, "rm", "-q", "layouts/common/en.toml", "layouts/common/fr.toml")
    commit(repo, "merge web, words not folded yet")
    git(repo, "commit", "-q", "--allow-empty", "-m", "later on main")
    assert fold(repo, "--branch", "web") == 0
    folded(repo)


def test_folded_on_the_branch_after_it_merged_main(repo: Path) -> None:
    git(repo, "checkout", "-q", "web")
    git(repo, "merge", "-q", "main", check=False)
    git(repo, "checkout", "-q", "main", "--", "layouts/uno")
    git(repo, "rm", "-q", "layouts/common/en.toml", "layouts/common/fr.toml")
    commit(repo, "merge main")
    assert fold(repo, "--branch", "web") == 0
    folded(repo)
    git(repo, "checkout", "-q", "main")
    assert fold(repo, "--branch", "web") == 0  # and so does the lead later, on main
    folded(repo)


def test_a_branch_that_merged_main_before_the_move_folds_only_its_words(repo: Path) -> None:
    # msgs adds a word on the old main, web merges it, main folds msgs and translates it
    git(repo, "checkout", "-q", "-b", "msgs", "HEAD~2")
    add_word(repo, "common", "en", "msgs", "bye", "Bye", first=True)
    add_word(repo, "common", "fr", "msgs", "bye", "Au revoir", first=True)
    commit(repo, "msgs words")
    git(repo, "checkout", "-q", "web")
    git(repo, "merge", "-q", "msgs")
    git(repo, "checkout", "-q", "main")
    assert fold(repo, "--branch", "msgs") == 0
    de = repo / "layouts" / "locale" / "de.po"
    de.write_text(de.read_text().replace('msgid "Bye"\nmsgstr ""', 'msgid "Bye"\nmsgstr "Tschüss"'))
    commit(repo, "msgs folded and translated")
    assert fold(repo, "--branch", "web") == 0
    folded(repo)
    assert entry(repo, "de", "common|msgs.bye").msgstr == "Tschüss"


def test_an_unknown_branch_is_one_sentence(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fold(repo, "--branch", "nosuch") == 2
    error = capsys.readouterr().err
    assert error.startswith("po_from_toml: cannot fold nosuch:") and error.count("\n") == 1
    assert git(repo, "status", "--porcelain") == ""
