"""`brailledev play uno` in a real pseudo-terminal (pexpect), with no braille display: the
player reads the print text under the braille row and types the terminal's keys."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from brailledev.programs.session import Session
from brailledev.table.keyloop import REACTION
from tests.play_helpers import wanted

BRAILLEDEV = str(Path(sys.executable).with_name("brailledev"))
FRAME = "\x1b[H\x1b[2J"
BRAILLE = {chr(cell) for cell in range(0x2800, 0x2900)}


class Terminal:
    def __init__(self, args: list[str], save: Path) -> None:
        self.save = save
        self.child = pexpect.spawn(BRAILLEDEV, args, encoding="utf-8", timeout=15,
                                   dimensions=(24, 100), env={"LANG": "C.UTF-8",
                                                              "PATH": "/usr/bin:/bin"})
        self.screen = ""

    def frame(self) -> list[str]:
        """The last whole frame drawn: braille row, print text, caret, status."""
        # A whole frame ends by parking the cursor on the caret's cell.
        whole = [frame for frame in self.screen.split(FRAME)
                 if re.search(r"\x1b\[\d+;\d+H$", frame)]
        last = whole[-1] if whole else ""
        return re.split(r"\r*\n", re.sub(r"\x1b\[[0-9;]*H", "", last))

    def settle(self, timeout: float = 10) -> None:
        """Read until a new frame came and the program has been quiet for a moment."""
        frames = self.screen.count(FRAME)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.screen += self.child.read_nonblocking(65536, timeout=0.1)
            except pexpect.TIMEOUT:
                if self.screen.count(FRAME) > frames:
                    return
        raise AssertionError(f"no new frame after a key: {self.frame()}")

    def wait_text(self, pattern: str, keys: str = "]") -> None:
        """Send ``keys`` until the print row matches ``pattern``."""
        for _ in range(30):
            if re.search(pattern, self.text()):
                return
            self.send(keys)
        raise AssertionError(f"{pattern!r} never showed: {self.frame()}")

    def text(self) -> str:
        lines = self.frame()
        return lines[1] if len(lines) > 1 else ""

    def send(self, keys: str) -> None:
        self.child.send(keys)
        self.settle()

    def route_word(self, word: str) -> bool:
        """Type the cell number of ``word`` on the print row and Enter, if it shows."""
        for match in re.finditer(r"\S+", self.text()):
            if match.group() == word:
                self.send(f"{match.start() + 1}\r")
                return True
        return False

    def quit(self, said: str) -> None:
        """Press ``q`` and yes to its question: the program says ``said`` as it ends, and ends
        well."""
        self.child.send("qq")
        self.child.expect_exact(said)
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0

    def saved(self) -> dict:
        return json.loads(self.save.read_text())

    def told(self) -> list[str]:
        """Every sentence of the saved history, oldest first."""
        return [part for message in self.saved()["reader"]["history"]["messages"]
                for part in message["parts"]]


def test_terminal_display_plays_moves_through_a_pseudo_terminal(tmp_path):
    save = tmp_path / "uno.json"
    terminal = Terminal(["play", "uno", "--display", "terminal", "--no-speech", "--seed", "0",
                         "--players", "2", "--pace", "0", "--lang", "en", "--save", str(save)],
                        save)
    try:
        terminal.settle()
        terminal.wait_text(r"Uno +for +2 +players")
        assert "?: keys" in terminal.frame()[3]
        start = terminal.saved()["table"]["moves"]
        mine = 0
        deadline = time.monotonic() + 60
        while mine < 3 and time.monotonic() < deadline:
            session = Session.resume(save, pace=0)
            key, index = wanted(session.seat.lines(), session.table.game.legal_moves(0), None)
            word = next(line for line in session.seat.lines()
                        if line.key == key).regions[index].text.split()[0]
            if "colour?" in terminal.text():  # a Wild routed before asks its colour
                word = "red"
            before = terminal.saved()["table"]["moves"]
            for _ in range(40):  # pan along (reading the news first) until the word shows
                if terminal.route_word(word):
                    break
                terminal.send("]")
            else:
                raise AssertionError(f"{word!r} never showed: {terminal.frame()}")
            if terminal.saved()["table"]["moves"] > before:
                mine += 1
        assert mine == 3
        state = terminal.saved()
        assert state["table"]["moves"] >= start + 3
        told = terminal.told()
        assert sum(text.startswith(("You play", "You draw")) for text in told) >= 2
        terminal.quit(f"The game is saved in {save}; go on with it with --resume {save}.")
    finally:
        terminal.child.terminate(force=True)
    resumed = Terminal(["play", "uno", "--display", "terminal", "--no-speech", "--pace", "0",
                        "--resume", str(save)], save)
    try:
        resumed.settle()
        for _ in range(40):  # the news ends with the resumption
            if re.search(r"Game +resumed", resumed.text()):
                break
            resumed.send("]")
        resumed.wait_text(r"Game +resumed")
        resumed.child.send("qq")  # quit, and yes to its question
        resumed.child.expect(pexpect.EOF)
        # Same game, same place: the player's turn, nothing played meanwhile.
        assert resumed.saved()["table"]["state"] == state["table"]["state"]
        assert resumed.told()[-1] == "Game resumed where it was saved."
    finally:
        resumed.child.terminate(force=True)


def test_quitting_says_where_the_game_is_saved_in_french(tmp_path):
    """Issue 32, item 10: ``q`` leaves an unfinished game saved, and the last line says where
    and how to go on with it, in the reader's language."""
    save = tmp_path / "elevens.json"
    terminal = Terminal(["play", "elevens", "--display", "terminal", "--no-speech", "--pace",
                         "0", "--lang", "fr", "--save", str(save)], save)
    try:
        terminal.settle()
        terminal.quit(f"La partie est enregistrée dans {save} ; continuez-la avec --resume "
                      f"{save}.")
        assert terminal.saved()["table"]["moves"] == 0  # saved, nothing played
    finally:
        terminal.child.terminate(force=True)


def test_rows_shows_the_board_of_a_multi_line_display_in_the_terminal(tmp_path):
    save = tmp_path / "uno.json"
    terminal = Terminal(["play", "uno", "--display", "terminal", "--rows", "9", "--no-speech",
                         "--seed", "0", "--players", "2", "--pace", "0", "--lang", "fr",
                         "--save", str(save)], save)
    terminal.child.setwinsize(40, 100)
    try:
        terminal.settle()
        deadline = time.monotonic() + 10
        while "piocher" not in terminal.frame()[1:27:3][-1] and time.monotonic() < deadline:
            terminal.settle()  # the bot plays first: then drawing is offered
        frame = terminal.frame()
        braille = frame[0:27:3]  # each display row: its cells, its print text, the caret
        assert len(braille) == 9 and all(len(row) == 40 and set(row) <= BRAILLE
                                         for row in braille)
        texts = frame[1:27:3]
        assert re.search(r"Uno +à +2 +joueurs", " ".join(terminal.told()))
        commands = next(row for row, text in enumerate(texts) if text.startswith("piocher"))
        before = terminal.saved()["table"]["moves"]
        time.sleep(REACTION)  # the row came with the bot's move: a finger reads it first
        terminal.send(f"{commands * 40 + 2}\r")  # cells count across the rows, from 1
        deadline = time.monotonic() + 10
        while terminal.saved()["table"]["moves"] == before and time.monotonic() < deadline:
            time.sleep(0.1)
        assert any(text.startswith("Vous piochez") for text in terminal.told())
        terminal.child.send("qq")  # quit, and yes to its question
        terminal.child.expect(pexpect.EOF)
    finally:
        terminal.child.terminate(force=True)


def test_rows_outside_what_a_display_has_is_one_sentence(tmp_path):
    terminal = Terminal(["play", "uno", "--display", "terminal", "--rows", "20", "--lang",
                         "en", "--save", str(tmp_path / "uno.json")], tmp_path / "uno.json")
    terminal.child.expect(pexpect.EOF)
    terminal.child.close()
    said = terminal.child.before.strip()
    assert terminal.child.exitstatus == 2 and said.startswith("brailledev: --rows cannot be 20")
    assert "\n" not in said and not (tmp_path / "uno.json").exists()


@pytest.mark.parametrize(("lang", "saves", "said"), [
    ("en", True, "brailledev: The terminal closed; the game is saved in {path}: resume it "
                 "with --resume {path}."),
    ("fr", False, "brailledev: La partie n'a pas pu être enregistrée dans {path}")])
def test_closing_the_terminal_under_play_says_one_true_sentence(tmp_path, lang, saves, said):
    """Issue 32.14: the terminal closes (SIGHUP) while the game runs; the last sentence says
    the game is saved only when it is, and no traceback is printed."""
    folder, err = tmp_path / "games", tmp_path / "err.txt"
    save = folder / "uno.json"
    command = (f"exec {BRAILLEDEV} play uno --display terminal --no-speech --seed 3 "
               f"--pace 0 --lang {lang} --save {save} 2>{err}")
    child = pexpect.spawn("/bin/sh", ["-c", command], encoding="utf-8", timeout=15,
                          dimensions=(24, 100), env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    child.expect("\x1b\\[2J")
    time.sleep(0.5)
    if not saves:  # a file where the save's folder was: every save from now on fails
        shutil.rmtree(folder)
        folder.write_text("")
    child.ptyproc.fileobj.close()  # the terminal closes: the kernel hangs the program up
    _, status = os.waitpid(child.pid, 0)
    child.ptyproc.closed = child.closed = True
    told = err.read_text()
    assert told.startswith(said.format(path=save)) and "Traceback" not in told, told
    assert save.exists() == saves
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 2, status


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "brailledev: The saved game {path} is open in another brailledev program; quit "
           "the game there first, or play another one with --save ANOTHER.json.\n"),
    ("fr", "brailledev: La partie enregistrée {path} est ouverte dans un autre programme "
           "brailledev ; quittez d'abord la partie là-bas, ou jouez-en une autre avec --save "
           "AUTRE.json.\n")])
def test_a_save_in_use_is_refused_to_a_second_program(tmp_path, lang, said):
    """Issue 32.11: two real programs on one save; the second refuses in one sentence and
    leaves the file as the first keeps it; once the first quits, the save resumes."""
    save = tmp_path / "same.json"
    first = Terminal(["play", "elevens", "--display", "terminal", "--no-speech", "--pace",
                      "0", "--lang", lang, "--save", str(save)], save)
    try:
        first.settle()
        before = save.read_bytes()
        second = subprocess.run([BRAILLEDEV, "play", "elevens", "--display", "terminal",
                                 "--no-speech", "--lang", lang, "--save", str(save)],
                                capture_output=True, text=True, timeout=60,
                                stdin=subprocess.DEVNULL,
                                env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"})
        assert (second.returncode, second.stderr) == (2, said.format(path=save))
        assert save.read_bytes() == before
        first.child.send("qq")  # quit, and yes to its question
        first.child.expect(pexpect.EOF)
    finally:
        first.child.terminate(force=True)
    again = Terminal(["play", "elevens", "--display", "terminal", "--no-speech", "--pace",
                      "0", "--lang", lang, "--save", str(save)], save)
    try:
        again.settle()
        assert again.child.isalive()
    finally:
        again.child.terminate(force=True)
