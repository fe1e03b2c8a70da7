"""The table server's files follow the save rules of issue 13: ``serve --db`` where no store
can be is one sentence in the reader's language (a file in the folder's place, a folder, a
pipe, a folder it may not write in); a new store is made private (folder 0700, file 0600);
a saved seat of ``join`` is read strictly (one sentence naming it, the file left as it was);
a seat that cannot be saved plays on and is told once, then once when saving works again."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pexpect
import pytest

from brailledev.programs.cli import main
from brailledev.programs.join import connect, saved_seat
from tests.daemon import free_port
from tests.server.helpers import BRAILLEDEV, ServerThread, new_table

NOBODY = 65534


def serve(db: Path, lang: str = "fr_FR.UTF-8", user: int | None = None) -> tuple[int, str]:
    """``brailledev serve --db DB`` that must refuse at once: its status and what it said."""
    extra: dict[str, Any] = {}
    if user is not None:
        extra = {"user": user, "group": user, "extra_groups": []}
    done = subprocess.run([str(BRAILLEDEV), "serve", "--port", str(free_port()), "--db", str(db)],
                          env={"PATH": "/usr/bin:/bin", "LANG": lang, "HOME": str(db.parent)},
                          capture_output=True, text=True, timeout=60, check=False, **extra)
    return done.returncode, done.stderr


def one_sentence(said: str) -> str:
    assert said.startswith("brailledev: ") and said.count("\n") == 1, said
    assert "Traceback" not in said
    return said.removeprefix("brailledev: ").strip()


@pytest.mark.parametrize(("kind", "reason"), [
    ("under_a_file", "une partie du chemin du dossier est un fichier"),
    ("a_folder", "ce nom est un dossier"),
    ("a_pipe", "ce n'est pas un fichier ordinaire"),
])
def test_serve_where_no_store_can_be_is_one_sentence(kind, reason, tmp_path):
    db = tmp_path / "tables.db"
    if kind == "under_a_file":
        (tmp_path / "plain").write_text("a file")
        db = tmp_path / "plain" / "more" / "tables.db"
    elif kind == "a_folder":
        db.mkdir()
    else:
        os.mkfifo(db)
    status, said = serve(db)
    assert status == 2
    assert one_sentence(said) == (f"Le fichier des tables {db} est inutilisable ({reason}) ; "
                                  "choisissez un autre --db.")


def test_serve_into_a_folder_it_may_not_write_in_is_one_sentence():
    folder = Path(tempfile.mkdtemp(prefix="brailledev-serve-"))
    try:
        locked = folder / "locked"
        locked.mkdir(mode=0o555)
        os.chmod(locked, 0o555)
        if os.geteuid() == 0:  # root writes anywhere: refused as nobody
            os.chown(folder, NOBODY, NOBODY)
        user = NOBODY if os.geteuid() == 0 else None
        for db in (locked / "tables.db", locked / "more" / "tables.db"):
            status, said = serve(db, lang="C.UTF-8", user=user)
            assert status == 2
            assert one_sentence(said) == (f"The table store {db} cannot be used (permission "
                                          "denied); choose another --db.")
        assert list(locked.iterdir()) == []
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def test_a_new_store_is_private(tmp_path):
    db = tmp_path / "state" / "brailledev" / "tables.db"
    child = pexpect.spawn(str(BRAILLEDEV), ["serve", "--port", str(free_port()), "--db", str(db)],
                          env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, encoding="utf-8",
                          timeout=30)
    try:
        child.expect("Ctrl-C stops")
        assert stat.S_IMODE(db.stat().st_mode) == 0o600  # seat keys are in it
        for folder in (db.parent, db.parent.parent):
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    finally:
        child.kill(signal.SIGINT)
        child.expect(pexpect.EOF)
        child.close()


# ---- a saved seat of join ----------------------------------------------------------------

def a_saved_seat(server: ServerThread, folder: Path) -> tuple[Path, str]:
    code = new_table(server.url, game="uno", players=2, people=1, seed=3)
    path = folder / "seat.json"
    joined = connect(server.url, code, "Ann", "en", None, path, "en-ueb-g1.ctb")
    joined.close()
    assert saved_seat(path, server.url, code) is not None
    return path, code


def damaged(valid: dict[str, Any]) -> list[tuple[str, bytes | str]]:
    """Damaged copies of a saved seat: the file itself, then its fields."""
    def changed(change: Any) -> bytes:
        copy = json.loads(json.dumps(valid))
        change(copy)
        return json.dumps(copy).encode()

    return [
        ("cut short", json.dumps(valid).encode()[:40]),
        ("not UTF-8", b'{"format": "\xff"}'),
        ("200,000 deep", b"[" * 200_000 + b"]" * 200_000),
        ("NaN", json.dumps(valid).replace('"seq": ', '"seq": NaN, "x": ').encode()),
        ("a pipe", "pipe"),
        ("a folder", "folder"),
        ("another format", changed(lambda seat: seat.update(format="brailledev-save"))),
        ("token a number", changed(lambda seat: seat.update(token=7))),
        ("token huge", changed(lambda seat: seat.update(token="k" * 100_000))),
        ("seq negative", changed(lambda seat: seat.update(seq=-1))),
        ("position a word", changed(lambda seat: seat.update(position="seven"))),
        ("reader a list", changed(lambda seat: seat.update(reader=[]))),
        ("language unknown", changed(lambda seat: seat["reader"].update(lang="xx"))),
        ("history a string", changed(lambda seat: seat["reader"].update(history="x"))),
        ("a message of no kind", changed(
            lambda seat: seat["reader"]["history"]["messages"][0].update(kind="shout"))),
        ("cursor past the end", changed(
            lambda seat: seat["reader"]["history"].update(cursor=10**6))),
    ]


@pytest.fixture(scope="module")
def server():
    with ServerThread() as running:
        yield running


def test_a_damaged_saved_seat_is_one_sentence_naming_it_and_is_left_alone(server, tmp_path,
                                                                         capsys):
    path, code = a_saved_seat(server, tmp_path)
    valid = json.loads(path.read_text(encoding="utf-8"))
    cases = damaged(valid)
    for number, (what, content) in enumerate(cases):
        seat = tmp_path / f"{number}" / "seat.json"
        seat.parent.mkdir()
        if content == "pipe":
            os.mkfifo(seat)
        elif content == "folder":
            seat.mkdir()
        else:
            assert isinstance(content, bytes)
            seat.write_bytes(content)
        before = (seat.read_bytes() if seat.is_file() else None), seat.lstat().st_mtime_ns
        status = main(["join", server.url, code, "--save", str(seat), "--display", "terminal",
                       "--no-speech", "--lang", "fr"])
        said = one_sentence(capsys.readouterr().err)
        assert status == 2, what
        assert said.startswith(f"La place enregistrée {seat} est abîmée ("), (what, said)
        assert ((seat.read_bytes() if seat.is_file() else None),
                seat.lstat().st_mtime_ns) == before, what
    assert len(cases) == 16


def test_a_seat_that_cannot_be_saved_plays_on_and_is_told_once(server, tmp_path):
    code = new_table(server.url, game="uno", players=2, people=1, seed=3)
    blocker = tmp_path / "seats"
    blocker.write_text("a file where the folder should be")
    path = blocker / "seat.json"
    joined = connect(server.url, code, "Ann", "en", None, path, "en-ueb-g1.ctb")
    try:
        for _ in range(3):
            joined.save()
        told = [part for message in joined.seat.history.messages for part in message.parts]
        assert [text for text in told if text.startswith("Saving fails")] == [
            f"Saving fails: a part of the folder's path is a file ({path}); the game goes on, "
            "and every move tries again."]
        blocker.unlink()
        joined.save()
        joined.save()
        told = [part for message in joined.seat.history.messages for part in message.parts]
        assert told.count(f"Saving works again ({path}).") == 1
        assert joined.saving.failure is None
        assert stat.S_IMODE(blocker.stat().st_mode) == 0o700
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        joined.close()
    assert saved_seat(path, server.url, code) is not None
