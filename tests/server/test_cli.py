"""The commands as a person runs them: ``table new`` prints the code, the line to give
the others and the page's link, in the reader's language; ``join`` in a real pseudo-terminal
reads the table and sends a talk line typed whole; every mistake (a wrong code, a bad
address, a damaged saved seat, a port taken, a store that cannot be opened) is one sentence
and status 2."""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from brailledev.network.client import TableClient
from brailledev.network.remote import Background
from tests.daemon import free_port
from tests.server.helpers import ServerThread, new_table

BRAILLEDEV = str(Path(sys.executable).with_name("brailledev"))


def run(*args: str, lang: str = "C.UTF-8", home: Path | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "LANG": lang}
    if home is not None:
        env["XDG_STATE_HOME"] = str(home)
    return subprocess.run([BRAILLEDEV, *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.fixture(scope="module")
def server():
    with ServerThread() as running:
        yield running


@pytest.mark.parametrize(("lang", "ready", "invite", "link"), [
    ("C.UTF-8", r"^Table ([bcdfghjkmnpqrstvwxz]{12}) \(uno\) is ready\.$",
     "The other players join it with: brailledev join {url} {code}",
     "In a browser, without a braille display: {url}/t/{code}"),
    ("fr_FR.UTF-8", r"^La table ([bcdfghjkmnpqrstvwxz]{12}) \(uno\) est prête\.$",
     "Les autres joueurs la rejoignent avec : brailledev join {url} {code}",
     "Dans un navigateur, sans afficheur braille : {url}/t/{code}"),
])
def test_table_new_prints_the_code_and_the_lines_to_give(server, lang, ready, invite, link):
    done = run("table", "new", "uno", "--players", "4", "--people", "2", "--server",
               server.url, lang=lang)
    assert done.returncode == 0, done.stderr
    first, second, third = done.stdout.splitlines()
    found = re.match(ready, first)
    assert found is not None, first
    code = found.group(1)
    assert second == invite.format(url=server.url, code=code)
    assert third == link.format(url=server.url, code=code)
    seats = server.call(lambda: server.room(code).seat_states())
    assert [seat.kind for seat in seats] == ["free", "free", "bot", "bot"]


@pytest.mark.parametrize(("args", "lang", "said"), [
    (["table", "new", "uno", "--players", "9"], "C.UTF-8",
     "brailledev: Uno is for 2 to 6 players, not 9; give --players 2 to 6"),
    (["table", "new", "uno", "--people", "3"], "fr_FR.UTF-8",
     "brailledev: Le réglage de table people va de 1 à 2 ;"),
    (["table", "new", "uno", "--bots", "clever"], "C.UTF-8",
     "brailledev: uno has no computer player called 'clever'; choose among"),
    (["join", "{url}", "zzzzzz", "--display", "terminal"], "fr_FR.UTF-8",
     "brailledev: Il n'y a pas de table zzzzzz sur {url} ; vérifiez le code reçu."),
    (["join", "ftp://example.org", "zzzzzz"], "C.UTF-8",
     "brailledev: ftp://example.org is not a server address; write it like"),
])
def test_mistakes_are_one_sentence_in_the_readers_language(server, tmp_path, args, lang,
                                                           said):
    words = [word.format(url=server.url) for word in args]
    if words[0] == "table":
        words += ["--server", server.url]
    done = run(*words, lang=lang, home=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(said.format(url=server.url)), done.stderr
    assert "Traceback" not in done.stderr


def test_a_server_that_does_not_answer_is_one_sentence(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = run("join", f"http://127.0.0.1:{port}", "abcdef", home=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"brailledev: No table server answers at "
                                  f"http://127.0.0.1:{port}")


def test_a_damaged_saved_seat_is_one_sentence(server, tmp_path):
    code = new_table(server.url, game="uno", players=2)
    save = tmp_path / "seat.json"
    save.write_text("{not json")
    done = run("join", server.url, code, "--save", str(save), home=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"brailledev: The saved seat {save} is damaged")


def test_serve_on_a_taken_port_or_an_unusable_store_is_one_sentence(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run("serve", "--port", str(port), "--db", str(tmp_path / "t.db"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"brailledev: Cannot serve on 127.0.0.1 port {port}")
    folder = tmp_path / "a-folder"
    folder.mkdir()
    done = run("serve", "--db", str(folder), lang="fr_FR.UTF-8")
    assert done.returncode == 2
    assert done.stderr.startswith(f"brailledev: Le fichier des tables {folder} est "
                                  f"inutilisable")
    nobody = f"postgresql://ann:hidden@127.0.0.1:{port}/tables"  # the port is no database
    done = run("serve", "--port", str(free_port()), "--db", nobody, lang="fr_FR.UTF-8")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"brailledev: Aucune base PostgreSQL ne répond à "
                                  f"postgresql://ann@127.0.0.1:{port}/tables (")
    assert "hidden" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


class Listener:
    """The other player: a client that keeps every line of talk it hears."""

    def __init__(self, url: str, code: str) -> None:
        self.said: list[dict[str, Any]] = []
        self.left: list[str] = []
        self.client = TableClient(url, code, name="Bea", on_frame=self._frame)
        self.background = Background()
        self.running = self.background.submit(self.client.run())
        self.background.run(self.client.seated.wait(), 10)

    def _frame(self, frame: dict[str, Any]) -> None:
        if frame.get("type") == "news":
            self.said += [event for event in frame["events"] if event.get("$") == "Said"]
            self.left += [event["name"] for event in frame["events"] if event.get("$") == "Left"]

    def close(self) -> None:
        self.background.run(self.client.stop(), 5)
        self.running.result(5)
        self.background.close()


def _saved_text(folder: Path) -> str:
    return "".join(path.read_text() for path in folder.glob("*.json")) if folder.exists() \
        else ""


def test_join_in_a_terminal_reads_the_table_and_sends_a_talk_line(server, tmp_path):
    code = new_table(server.url, game="uno", players=3, people=2, seed=4)
    listener = Listener(server.url, code)
    child = pexpect.spawn(BRAILLEDEV, ["join", server.url, code, "--name", "Ann",
                                       "--display", "terminal", "--no-speech"],
                          encoding="utf-8", timeout=15, dimensions=(24, 100),
                          env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
                               "XDG_STATE_HOME": str(tmp_path)})
    try:
        child.expect("Table")
        child.send("t")
        child.expect("say: ")
        child.send("well played, Bea\r")
        deadline = time.monotonic() + 10
        saved = tmp_path / "brailledev" / "tables"
        while time.monotonic() < deadline and not (
                listener.said and "You say: well played, Bea." in _saved_text(saved)):
            time.sleep(0.02)
        child.send("q")
        child.expect(r"Quit\? +route +again")
        child.send("q")  # yes: Ann leaves, and is told where her seat is kept
        child.expect(f"You left table {code}; your seat is kept for you: brailledev join ")
        child.expect(pexpect.EOF)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not listener.left:
            time.sleep(0.02)
    finally:
        child.close()
        listener.close()
    assert listener.left == ["Ann"]
    assert [(event["name"], event["text"]) for event in listener.said] == [
        ("Ann", "well played, Bea")]
    assert child.exitstatus == 0
    saved = next((tmp_path / "brailledev" / "tables").iterdir())
    assert stat.S_IMODE(os.stat(saved).st_mode) == 0o600
    data = json.loads(saved.read_text())
    assert data["code"] == code and len(data["token"]) > 20
    told = [part for message in data["reader"]["history"]["messages"]
            for part in message["parts"]]
    assert "You say: well played, Bea." in told
