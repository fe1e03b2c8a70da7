"""A seat file or a pad in use is locked (issue 32.11, for ``join`` and ``pad`` as for
``play``): two real programs on one file; the second refuses in one sentence naming the
file, in the reader's language, with status 2, and leaves the file as the first keeps it
byte for byte; however the first ends (quit, SIGTERM, SIGHUP, kill -9), the file is free
again and a new program takes it."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from tests.server.helpers import BRAILLEDEV, ServerThread, new_table

ENV = {"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
SAID = {
    "join": {
        "en": "brailledev: The seat file {path} is open in another brailledev join; quit the "
              "table there first, or join with --save ANOTHER.json.\n",
        "fr": "brailledev: Le fichier de place {path} est ouvert dans un autre brailledev "
              "join ; quittez d'abord la table là-bas, ou rejoignez-la avec --save "
              "AUTRE.json.\n"},
    "pad": {
        "en": "brailledev: The pad {path} is open in another brailledev program; quit the pad "
              "there first, or keep another one with --save ANOTHER.json.\n",
        "fr": "brailledev: La feuille {path} est ouverte dans un autre programme brailledev ; "
              "quittez d'abord la feuille là-bas, ou tenez-en une autre avec --save "
              "AUTRE.json.\n"}}


@pytest.fixture(scope="module")
def server():
    with ServerThread() as running:
        yield running


def spawn(args: list[str]) -> pexpect.spawn:
    return pexpect.spawn(str(BRAILLEDEV), args, encoding="utf-8", timeout=20,
                         dimensions=(24, 100), env=ENV)


def until(done: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def program(kind: str, server: ServerThread, code: str, save: Path, lang: str) -> list[str]:
    """The command line of a ``join`` at ``code`` or a ``pad`` of Uno, saved in ``save``."""
    reader = ["--display", "terminal", "--no-speech", "--lang", lang, "--save", str(save)]
    if kind == "join":
        return ["join", server.url, code, "--name", "Ann", *reader]
    return ["pad", "uno", *reader]


def started(kind: str, server: ServerThread, code: str, save: Path,
            lang: str) -> pexpect.spawn:
    """The program running, its file written and locked."""
    child = spawn(program(kind, server, code, save, lang))
    lock = save.with_name(f"{save.name}.lock")
    until(lambda: (save.exists() and lock.exists()) or not child.isalive(),
          f"{kind} never saved")
    assert child.isalive(), child.read_nonblocking(4096, 0)
    child.expect(r"\S")  # drawn: the key loop runs
    return child


@pytest.mark.parametrize("kind", ["join", "pad"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_second_program_on_a_file_in_use_is_refused_and_the_file_kept(server, tmp_path,
                                                                        kind, lang):
    code = new_table(server.url, game="uno", players=3, people=2, seed=4)
    save = tmp_path / f"{kind}.json"
    first = started(kind, server, code, save, lang)
    try:
        time.sleep(0.5)  # the first has nothing more to write while no key is pressed
        before = save.read_bytes()
        second = subprocess.run([str(BRAILLEDEV), *program(kind, server, code, save, lang)],
                                capture_output=True, text=True, timeout=60,
                                stdin=subprocess.DEVNULL, env=ENV)
        assert (second.returncode, second.stderr) == (2, SAID[kind][lang].format(path=save))
        assert second.stdout == ""
        assert save.read_bytes() == before
        assert first.isalive()
    finally:
        first.terminate(force=True)


def quit_with_keys(child: pexpect.spawn) -> None:
    child.send("q")
    child.send("q")  # yes to the quit question
    child.expect(pexpect.EOF)


ENDINGS: dict[str, Callable[[pexpect.spawn], None]] = {
    "quit": quit_with_keys,
    "SIGTERM": lambda child: child.kill(signal.SIGTERM),
    "SIGHUP": lambda child: child.kill(signal.SIGHUP),
    "kill -9": lambda child: child.kill(signal.SIGKILL),
}


@pytest.mark.parametrize("kind", ["join", "pad"])
@pytest.mark.parametrize("ending", list(ENDINGS))
def test_the_file_is_free_again_however_the_program_ends(server, tmp_path, kind, ending):
    code = new_table(server.url, game="uno", players=3, people=2, seed=4)
    save = tmp_path / f"{kind}.json"
    first = started(kind, server, code, save, "en")
    try:
        ENDINGS[ending](first)
        until(lambda: not first.isalive(), f"{kind} did not end on {ending}")
    finally:
        first.close(force=True)
    again = started(kind, server, code, save, "en")
    try:
        assert again.isalive()
    finally:
        quit_with_keys(again)
        again.close(force=True)
    assert again.exitstatus == 0
