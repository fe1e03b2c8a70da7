"""Fold the words of the TOML catalogs into the gettext catalogs, then take them out of the TOML.

Every word a person reads or hears lives in ``layouts/locale/<lang>.po`` (``msgctxt`` the key
the code asks for, ``msgid`` the English, ``msgstr`` the translation) with the template
``layouts/locale/brailledev.pot``; the TOML files keep only data: card labels (``[cards]``)
and Domino's grid glyphs (``[grid]``) in ``layouts/<scope>/<lang>.toml``, card sizes in
``deck.toml``. A word's key is its scope (``common`` or the game) and its TOML path:
``[messages] not_your_turn`` of ``common/en.toml`` is ``common|messages.not_your_turn``,
``[caption.fr] sk`` of ``uno/deck.toml`` is ``uno|deck.caption.sk``, ``[en] title`` of
``uno/pad.toml`` is ``uno|pad.title``.

    python tools/po_from_toml.py                 # every word left in the TOML files
    python tools/po_from_toml.py --branch web    # the words branch web added or changed

A new key is added to every catalog (its English to en.po and the .pot, each language's text
where its TOML has one, else left untranslated); a key whose English changed gets the new
English, and a translation its branch did not give becomes fuzzy. With ``--branch`` only the
words that branch added or changed are folded, and keys it removed become obsolete; they are
read with git, whatever a merge left in the files: the branch's words are those of its newest
commit that still has words in its TOML (its tip, or the commit before it merged a main
without them), compared with where it last met the main line (the merge base with HEAD, or
with the main it merged, or with HEAD before the branch came in: run it before, during or
after the merge, on main or on the branch; ``--base`` names another commit). Either way the
words are then taken out of the TOML files in the work tree (a file a merge left in conflict
gets HEAD's data back), and the entries still to translate are listed:
tests/layouts/test_catalogs.py fails until they are.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polib

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = "brailledev.pot"
# Sections of layouts/<scope>/<lang>.toml that are data, not words: they stay in the TOML.
DATA = frozenset({"cards", "grid"})
PLURAL_FORMS = {"en": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);",
                "de": "nplurals=2; plural=(n != 1);"}
# the plural categories a TOML text that counts may give (Unicode CLDR's), as other branches
# wrote them before the catalogs moved: kept = { one = "{count} card", other = "{count} cards" }
CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})
_HEADER = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]")
_KEY = re.compile(r'^\s*("[^"]*"|[A-Za-z0-9_+\-]+)\s*=')


@dataclass(frozen=True)
class Word:
    """One word of a TOML catalog: its key, its text (its singular, for a text that counts:
    ``{ one = "...", other = "..." }``, whose plural is then ``plural``) and its comment."""

    key: str
    text: str
    comment: str = ""
    plural: str = ""

    def forms(self) -> dict[int, str]:
        """msgstr_plural of this word for a language of two forms, as ``{0: one, 1: other}``."""
        return {0: self.text, 1: self.plural}


class BadBranch(Exception):
    """A branch or commit git does not know, or whose words cannot be found."""


def git(root: Path, *args: str, check: bool = True) -> str:
    """What git prints in ``root``: ``git(ROOT, "merge-base", "HEAD", "web")``."""
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise BadBranch(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else
                        f"git {' '.join(args)} failed")
    return done.stdout.strip()


def scopes(read: Reader) -> list[str]:
    """The folders of layouts/ that hold words: common first, then the games, by name."""
    found = {path.parent.name for path in read.paths("*/en.toml")}
    found |= {path.parent.name for path in read.paths("*/deck.toml")}
    found |= {path.parent.name for path in read.paths("*/pad.toml")}
    return sorted(found, key=lambda scope: (scope != "common", scope))


class Reader:
    """TOML files of layouts/ in the work tree, or at a git revision: ``Reader(ROOT, "main")``."""

    def __init__(self, root: Path = ROOT, revision: str | None = None) -> None:
        self.root = root
        self.revision = revision

    def paths(self, pattern: str) -> list[Path]:
        if self.revision is None:
            return sorted((self.root / "layouts").glob(pattern))
        listed = git(self.root, "ls-tree", "-r", "--name-only", self.revision,
                     "layouts/").split()
        return [self.root / name for name in listed if Path(name).match(f"layouts/{pattern}")]

    def text(self, path: Path) -> str | None:
        if self.revision is None:
            return path.read_text(encoding="utf-8") if path.exists() else None
        shown = subprocess.run(["git", "show", f"{self.revision}:{path.relative_to(self.root)}"],
                               cwd=self.root, capture_output=True, text=True)
        return shown.stdout if shown.returncode == 0 else None


def comments(source: str) -> dict[tuple[str, ...], str]:
    """The comment over each key of a TOML file (its own block, else its section's), by path:
    ``comments('# why\\n[messages]\\nhelp = "help"')[("messages", "help")] == "why"``."""
    found: dict[tuple[str, ...], str] = {}
    section: tuple[str, ...] = ()
    block: list[str] = []
    section_comment = ""
    current = ""
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            block.append(stripped.lstrip("#").strip())
            continue
        header = _HEADER.match(line)
        if header and not stripped.startswith("[["):
            section = tuple(part.strip().strip('"') for part in header.group(1).split("."))
            section_comment = current = " ".join(block)
            block = []
            continue
        key = _KEY.match(line)
        if key:
            if block:
                current = " ".join(block)
            found[(*section, key.group(1).strip('"'))] = current or section_comment
        block = []
    return found


def _counts(value: Any) -> bool:
    """Whether a TOML value is a text that counts: a table of CLDR plural categories."""
    return isinstance(value, Mapping) and "other" in value and set(value) <= CATEGORIES


def _flat(table: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                                                  Any]]:
    for name, value in table.items():
        if isinstance(value, Mapping) and not _counts(value):
            yield from _flat(value, (*path, name))
        else:
            yield (*path, name), value


def _word(scope: str, path: tuple[str, ...], value: Any, notes: Mapping[tuple[str, ...], str],
          where: tuple[str, ...]) -> Word:
    note = notes.get(where, "")
    while not note and len(where) > 1:
        where = where[:-1]
        note = notes.get(where, "")
    key = f"{scope}|{'.'.join(path)}"
    if _counts(value):
        return Word(key, str(value.get("one", value["other"])), note, str(value["other"]))
    # A list of words (the bots' names) is one entry, its items separated by ", ".
    return Word(key, ", ".join(value) if isinstance(value, list) else str(value), note)


def words(read: Reader, lang: str) -> dict[str, Word]:
    """Every word of ``lang`` in the TOML files ``read`` sees, by key, in file order."""
    found: dict[str, Word] = {}
    for scope in scopes(read):
        folder = read.root / "layouts" / scope
        source = read.text(folder / f"{lang}.toml")
        if source:
            notes = comments(source)
            for path, value in _flat(tomllib.loads(source)):
                if path[0] not in DATA:
                    word = _word(scope, path, value, notes, path)
                    found[word.key] = word
        source = read.text(folder / "deck.toml")
        if source:
            notes, data = comments(source), tomllib.loads(source)
            if lang in data.get("notation", {}):
                word = _word(scope, ("deck", "notation"), data["notation"][lang], notes,
                             ("notation", lang))
                found[word.key] = word
            for path, value in _flat(data.get("caption", {}).get(lang, {})):
                word = _word(scope, ("deck", "caption", *path), value, notes,
                             ("caption", lang, *path))
                found[word.key] = word
        source = read.text(folder / "pad.toml")
        if source:
            notes, data = comments(source), tomllib.loads(source)
            for path, value in _flat(data.get(lang, {})):
                word = _word(scope, ("pad", *path), value, notes, (lang, *path))
                found[word.key] = word
    return found


def catalog(locale: Path, lang: str) -> polib.POFile:
    """``layouts/locale/<lang>.po``, or a new one with its header."""
    path = locale / f"{lang}.po"
    if path.exists():
        return polib.pofile(str(path), wrapwidth=100)
    po = polib.POFile(wrapwidth=100)
    po.metadata = header(lang)
    return po


def header(lang: str | None) -> dict[str, str]:
    """The header of a catalog of ``lang`` (of the template when None)."""
    found = {"Project-Id-Version": "brailledev", "Report-Msgid-Bugs-To": "",
             "Language": lang or "", "MIME-Version": "1.0",
             "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit"}
    if lang:
        found["Plural-Forms"] = PLURAL_FORMS.get(lang, "nplurals=2; plural=(n != 1);")
    return found


def _entry(word: Word, given: Word | None) -> polib.POEntry:
    """A new entry of ``word``, translated as ``given`` says (untranslated when None)."""
    entry = polib.POEntry(msgctxt=word.key, msgid=word.text, msgid_plural=word.plural,
                          comment=word.comment)
    _put(entry, given)
    if "{" in word.text + word.plural:
        entry.flags.append("python-brace-format")
    return entry


def _put(entry: polib.POEntry, given: Word | None) -> None:
    """Gives ``entry`` the translation ``given`` (it is no longer fuzzy), or, when None, the
    shape of an untranslated one (msgstr, or every plural form, empty)."""
    if entry.msgid_plural:
        entry.msgstr = ""
        entry.msgstr_plural = given.forms() if given else {0: "", 1: ""}
    else:
        entry.msgstr_plural = {}
        entry.msgstr = given.text if given else ""
    if given is not None:
        entry.previous_msgid = None
        entry.previous_msgid_plural = None
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")


class Fold:
    """The catalogs being updated, and what happened to them."""

    def __init__(self, locale: Path, langs: list[str]) -> None:
        self.locale = locale
        self.po = {lang: catalog(locale, lang) for lang in langs}
        self.notes: list[str] = []

    def add(self, english: Word, texts: Mapping[str, Mapping[str, Word]]) -> None:
        """Fold one English word, with its translations where a TOML gives them."""
        found = self.po["en"].find(english.key, by="msgctxt")
        if found is None and any(entry.msgctxt == english.key for entry in self.po["en"]
                                 if entry.obsolete):
            self.notes.append(f"{english.key}: retired here, not folded")
            return
        if found is not None and found.msgid_plural and not english.plural:
            if found.msgid != english.text:
                self.notes.append(f"{english.key}: counts here (msgid_plural); fold by hand")
            return
        same = found is not None and (found.msgid, found.msgid_plural) == (english.text,
                                                                          english.plural)
        for lang, po in self.po.items():
            given = english if lang == "en" else texts.get(lang, {}).get(english.key)
            if given is not None and bool(given.plural) != bool(english.plural):
                given = None  # a text where the English counts, or the other way: translate it
            entry = po.find(english.key, by="msgctxt")
            if entry is None:
                po.append(_entry(english, given))
            elif not same:
                entry.previous_msgid, entry.previous_msgid_plural = entry.msgid, \
                    entry.msgid_plural or None
                entry.msgid, entry.msgid_plural = english.text, english.plural
                if given is None and entry.msgid_plural and not entry.msgstr_plural:
                    entry.msgstr_plural = {0: entry.msgstr, 1: entry.msgstr}
                    entry.msgstr = ""
                if given is not None:
                    _put(entry, given)
                elif "fuzzy" not in entry.flags:
                    entry.flags.append("fuzzy")
            elif given is not None:
                _put(entry, given)

    def retire(self, key: str) -> None:
        """A key its branch removed: obsolete in every catalog."""
        for po in self.po.values():
            entry = po.find(key, by="msgctxt")
            if entry is not None:
                entry.obsolete = True

    def complete(self) -> None:
        """Every catalog holds every key of en.po, in its order (untranslated where new)."""
        english = [entry for entry in self.po["en"] if not entry.obsolete]
        for lang, po in self.po.items():
            if lang == "en":
                continue
            have = {entry.msgctxt: entry for entry in po}
            ordered = []
            for source in english:
                entry = have.pop(source.msgctxt, None)
                if entry is None:
                    entry = polib.POEntry(msgctxt=source.msgctxt, msgid=source.msgid,
                                          msgid_plural=source.msgid_plural, msgstr="",
                                          msgstr_plural={0: "", 1: ""}
                                          if source.msgid_plural else {},
                                          comment=source.comment, flags=list(source.flags))
                entry.comment = source.comment
                ordered.append(entry)
            ordered += list(have.values())
            po[:] = ordered

    def write(self) -> None:
        self.locale.mkdir(exist_ok=True)
        for lang, po in self.po.items():
            po.save(str(self.locale / f"{lang}.po"))
        template = polib.POFile(wrapwidth=100)
        template.metadata = header(None)
        for entry in self.po["en"]:
            if not entry.obsolete:
                template.append(polib.POEntry(
                    msgctxt=entry.msgctxt, msgid=entry.msgid, msgid_plural=entry.msgid_plural,
                    msgstr="", msgstr_plural={0: "", 1: ""} if entry.msgid_plural else {},
                    comment=entry.comment, flags=list(entry.flags)))
        template.save(str(self.locale / TEMPLATE))

    def untranslated(self) -> dict[str, list[str]]:
        return {lang: [entry.msgctxt for entry in po if not entry.obsolete
                       and (not entry.translated())]
                for lang, po in self.po.items()}


def _sections(source: str) -> list[tuple[tuple[str, ...], list[str]]]:
    """A TOML file cut at its section headers, each part with the comments just above its
    header: [((), preamble), (("messages",), lines), ...]."""
    parts: list[tuple[tuple[str, ...], list[str]]] = [((), [])]
    for line in source.splitlines(keepends=True):
        header = _HEADER.match(line)
        if header and not line.strip().startswith("[["):
            lines = parts[-1][1]
            lead = len(lines)
            while lead > 0 and lines[lead - 1].lstrip().startswith("#"):
                lead -= 1
            carried = lines[lead:] if parts[-1][0] or lead > 0 else []
            del lines[len(lines) - len(carried):]
            path = tuple(part.strip().strip('"') for part in header.group(1).split("."))
            parts.append((path, [*carried, line]))
        else:
            parts[-1][1].append(line)
    return parts


def _kept(parts: list[tuple[tuple[str, ...], list[str]]], keep: Any) -> str:
    text = "".join("".join(lines) for path, lines in parts if not path or keep(path))
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"


def strip(scope_folder: Path, head: Reader | None = None) -> list[Path]:
    """Take the words out of the TOML files of one folder of layouts/; the files changed.
    A file a merge left in conflict is given ``head``'s text first (its words were read with
    git): ``strip(ROOT / "layouts" / "uno", Reader(ROOT, "HEAD"))``."""
    changed = []
    for path in sorted(scope_folder.glob("*.toml")):
        source = path.read_text(encoding="utf-8")
        if head is not None and "\n<<<<<<< " in f"\n{source}":
            source = head.text(path) or ""
        parts = _sections(source)
        if path.stem == "deck":
            text = _kept(parts, lambda section: section[0] not in ("notation", "caption"))
        elif path.stem == "pad":
            text = ""
        elif re.fullmatch(r"[a-z]{2}", path.stem):
            text = _kept(parts, lambda section: section[0] in DATA)
        else:
            continue
        if not tomllib.loads(text):
            path.unlink()
        elif text != path.read_text(encoding="utf-8"):
            path.write_text(text, encoding="utf-8")
        else:
            continue
        changed.append(path)
    return changed


def has_words(root: Path, commit: str) -> bool:
    """Whether the TOML files at ``commit`` still hold words (English ones suffice)."""
    return bool(words(Reader(root, commit), "en"))


def revisions(root: Path, branch: str, base: str | None = None) -> tuple[str, str]:
    """The commits whose TOML words are compared, (before, after): ``after`` is the branch's
    newest commit with words in its TOML, ``before`` where it last met the main line.

    ``revisions(ROOT, "web")`` run on main before, during or after merging web, or on web
    after it merged a main without TOML words, gives web's fork point and web's last words.
    """
    tip = _commit(root, branch)
    line = git(root, "rev-list", "--first-parent", tip).split()
    # past the merge of a main whose words had gone to the catalogs, to the branch's own words
    found = next((index for index, commit in enumerate(line) if has_words(root, commit)), None)
    if found is None:
        raise BadBranch(f"{branch} has no word in its TOML files")
    after = line[found]
    if base is not None:
        return _commit(root, base), after
    head = git(root, "rev-parse", "HEAD")
    if not _holds(root, head, after):
        return git(root, "merge-base", head, after), after
    # HEAD is the branch, or holds it: the main the branch merged after its words, if any
    for commit in line[max(found - 1, 0):]:
        merged = git(root, "rev-list", "--parents", "-n", "1", commit).split()[2:]
        if merged and not _holds(root, merged[0], after) and not has_words(root, merged[0]):
            return git(root, "merge-base", merged[0], after), after
    # else the main line just before the merge that brought the branch in
    for commit in git(root, "rev-list", "--first-parent", head).split():
        if not _holds(root, commit, after):
            if commit in line:
                break
            return git(root, "merge-base", commit, after), after
    raise BadBranch(f"HEAD is {branch} itself, which never merged a main with the catalogs; "
                    "run this on main, or name the commit to compare with by --base")


def _commit(root: Path, name: str) -> str:
    found = git(root, "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}", check=False)
    if not found:
        raise BadBranch(f"git knows no branch or commit named {name}")
    return found


def _holds(root: Path, commit: str, ancestor: str) -> bool:
    return subprocess.run(["git", "merge-base", "--is-ancestor", ancestor, commit],
                          cwd=root, capture_output=True).returncode == 0


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--branch", help="fold only what this branch changed")
    parser.add_argument("--base", help="with --branch: the commit its words are compared with "
                        "(found by itself otherwise)")
    args = parser.parse_args(argv)
    if args.base and not args.branch:
        parser.error("--base goes with --branch: name the branch whose words to fold")
    locale = root / "layouts" / "locale"
    langs = {path.stem for path in locale.glob("*.po")} | {"en", "fr"}
    head: Reader | None = None
    if args.branch:
        try:
            base, tip = revisions(root, args.branch, args.base)
        except BadBranch as problem:
            print(f"po_from_toml: cannot fold {args.branch}: {problem} (git branch -a lists "
                  "the branches; run it in the repository that has them).", file=sys.stderr)
            return 2
        before: Reader | None = Reader(root, base)
        after = Reader(root, tip)
        head = Reader(root, "HEAD")
        print(f"folding {args.branch}: its words at {tip[:12]}, compared with {base[:12]}")
    else:
        before, after = None, Reader(root)
    order = sorted(langs | {path.stem for path in after.paths("common/*.toml")},
                   key=lambda lang: (lang != "en", lang))
    fold = Fold(locale, order)
    new = {lang: words(after, lang) for lang in order}
    old = {lang: words(before, lang) for lang in order} if before else \
        {lang: {} for lang in order}
    changed = {lang: {key: word for key, word in new[lang].items()
                      if before is None or old[lang].get(key) != word} for lang in order}
    for key, word in new["en"].items():
        if any(key in changed[lang] for lang in order):
            fold.add(word, changed)
    if before is not None:
        for key in old["en"].keys() - new["en"].keys():
            fold.retire(key)
    fold.complete()
    fold.write()
    for folder in sorted(path for path in (root / "layouts").iterdir() if path.is_dir()):
        for path in strip(folder, head):
            print(f"words taken out of {path.relative_to(root)}")
    for note in fold.notes:
        print(note)
    for lang, keys in fold.untranslated().items():
        if keys:
            print(f"{lang}.po: {len(keys)} to translate: {', '.join(keys[:8])}"
                  f"{' ...' if len(keys) > 8 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
