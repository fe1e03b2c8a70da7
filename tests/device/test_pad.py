"""``brailledev pad`` through the screen: the pads of the five games entered by routing (and
on a braille keyboard), in English and French, saved after every entry and resumed, refused
entries said in one sentence, and the command in a real terminal writing the filled pad."""

from __future__ import annotations

import json
import re
import resource
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from brailledev.display.braille import ascii_to_cells, translator
from brailledev.display.keys import Chord
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.cli import main
from brailledev.programs.pad import PadFront, PadSession, chord_digit
from emboss.scorepad import GUIDE
from games.domino.book import DominoBook, EnterTurn
from games.pads import RoundsBook
from layouts.errors import UserError
from layouts.screen import CHOICE_LINE, PlayMove

BRAILLEDEV = str(Path(sys.executable).with_name("brailledev"))


def line(session: PadSession, key: str) -> str:
    return next(found.text for found in session.seat.lines() if found.key == key)


def route(session: PadSession, key: str, text: str) -> None:
    """Route the region ``text`` of line ``key``, as a routing key over it would."""
    found = next(found for found in session.seat.lines() if found.key == key)
    region = next(region for region in found.regions if region.text == text)
    assert region.target is not None, (key, text)
    session.seat.route(region.target)


def test_domino_pad_in_french_by_routing(tmp_path: Path):
    session = PadSession.start("domino", 2, "fr", save=tmp_path / "pad.json")
    assert line(session, "status") == \
        "feuille de Domino 10-11-12, manche 1, j1 ouvre la manche"
    assert line(session, CHOICE_LINE) == "j1, lignes : 10 11 12 = aucune ligne noter"
    route(session, CHOICE_LINE, "10")
    route(session, CHOICE_LINE, "12")
    assert "= 10+12" in line(session, CHOICE_LINE)
    route(session, CHOICE_LINE, "noter")
    assert session.seat.history.texts[-1] == "j1 : 10+12, 6 points, total 6."
    route(session, CHOICE_LINE, "11")
    route(session, CHOICE_LINE, "effacer")                  # cleared: nothing entered
    route(session, CHOICE_LINE, "12")
    route(session, CHOICE_LINE, "noter")
    assert line(session, "pad1") == "j1 : 10 : 1 11 : - 12 : 5 prime : - total : - " \
        "Total général 6"
    assert line(session, "totals") == "Total général : j1 6, j2 5"
    route(session, "commands", "nouvelle manche")
    assert session.seat.history.texts[-1] == \
        "Manche 2 : j2 distribue et l'ouvre avec deux cartes."
    route(session, "commands", "terminer")
    assert session.seat.history.texts[-1] == "Total général : j1 6, j2 5. j1 gagne avec 6."
    assert line(session, CHOICE_LINE) == \
        "La partie est finie ; annuler reprend la dernière note."
    saved = json.loads((tmp_path / "pad.json").read_text())
    assert saved["format"] == "brailledev-pad" and len(saved["book"]["turns"]) == 2


def test_a_refused_entry_is_said_and_changes_nothing():
    session = PadSession.start("domino", 2, "en")
    before = session.book
    session.seat.route(PlayMove(EnterTurn((9,))))
    assert session.seat.history.texts[-1] == "Refused: Only lines of 10, 11 and 12 score."
    assert session.book == before
    route(session, "commands", "undo")
    assert session.seat.history.texts[-1] == "Refused: Nothing to undo yet."


def test_uno_round_sheet_by_routing_digits():
    session = PadSession.start("uno", 3, "en")
    assert line(session, CHOICE_LINE) == "who went out? p1 p2 p3"
    route(session, CHOICE_LINE, "p2")
    assert line(session, CHOICE_LINE).startswith("p1, points in hand: _ 0 1 2")
    for digit in "129":
        route(session, CHOICE_LINE, digit)
    route(session, CHOICE_LINE, "delete")                  # 12
    route(session, CHOICE_LINE, "ok")
    assert line(session, CHOICE_LINE).startswith("p3, points in hand: _")
    route(session, CHOICE_LINE, "back")                    # p1's 12 is typed again
    assert line(session, CHOICE_LINE).startswith("p1, points in hand: 12")
    route(session, CHOICE_LINE, "ok")
    for digit in "40":
        route(session, CHOICE_LINE, digit)
    route(session, CHOICE_LINE, "ok")
    assert session.seat.history.texts[-1] == "Round 1: p1 0, p2 52, p3 0. Totals: p1 0, " \
                                             "p2 52, p3 0."
    assert line(session, "round1") == "round 1: p1 0, p2 52, p3 0"
    assert line(session, "status") == "Uno pad, round 2, first to 500"
    assert "finish" not in line(session, "commands")     # Uno ends at its target


def test_elevens_asks_three_numbers_a_player_and_scores_elv_11():
    session = PadSession.start("elevens", 2, "fr")
    asked = []
    for number in ("1", "20", "0", "0", "35", "2"):
        asked.append(line(session, CHOICE_LINE).split(":")[0])
        for digit in number:
            route(session, CHOICE_LINE, digit)
        route(session, CHOICE_LINE, "valider")
    assert asked == ["j1, cartes bonus ", "j1, cartes nombres en main, leur somme ",
                     "j1, jokers en main ", "j2, cartes bonus ",
                     "j2, cartes nombres en main, leur somme ", "j2, jokers en main "]
    assert session.book.totals() == (11 - 20, -35 - 22)
    route(session, "commands", "terminer")
    assert session.seat.history.texts[-1].endswith("j1 gagne avec -9.")


def test_elements_ends_after_a_hand_per_player():
    session = PadSession.start("elements", 3, "en")
    for hand in (("5", "12", "0"), ("9", "3", "7"), ("0", "4", "10")):
        for number in hand:
            for digit in number:
                route(session, CHOICE_LINE, digit)
            route(session, CHOICE_LINE, "ok")
    assert session.book.totals() == (14, 19, 17)
    # one entry, told as one message: the hand's points, the totals, then the end
    assert session.seat.history.texts[-1].endswith(
        "Totals: p1 14, p2 19, p3 17. Grand Total: p1 14, p2 19, p3 17. p2 wins with 19.")
    assert line(session, "totals") == "total: p1 14, p2 19, p3 17 p2 wins with 19."
    assert line(session, CHOICE_LINE).startswith("The game is over")


@pytest.mark.parametrize(("dots", "digit"), [(0b000001, "1"), (0b100001, "1"),
                                             (0b011010, "0"), (0b111010, "0"),
                                             (0b001010, "9")])
def test_braille_keyboard_digits_are_the_letters_a_to_j(dots, digit):
    assert chord_digit(Chord(dots)) == digit
    assert chord_digit(Chord(dots, space=True)) is None


def test_numbers_typed_on_a_braille_keyboard():
    # Domino: 1 then 2 is a line of 12, dot 8 enters the turn.
    session = PadSession.start("domino", 2, "en")
    front = PadFront(session, MemoryDisplay(40), translator("en-ueb-g1.ctb"))
    front.redraw()
    for chord in (Chord(0b000001), Chord(0b000011), Chord(0b000001), Chord(0b000001),
                  Chord(0x80)):
        assert front.press(chord)
    assert isinstance(session.book, DominoBook)
    assert session.book.pads()[0].column(12) == (5,) and session.book.pads()[0].column(11) == (3,)
    # A round sheet, French computer braille digits (dot 6): 4 5, dot 7 deletes the 5, ok.
    rummy = PadSession.start("rummikub", 2, "fr")
    front = PadFront(rummy, MemoryDisplay(40), translator("fr-bfu-comp6.utb"))
    front.redraw()
    route(rummy, CHOICE_LINE, "j2")
    for chord in (Chord(0b111001), Chord(0b110001), Chord(0x40), Chord(0x80)):
        assert front.press(chord)
    assert isinstance(rummy.book, RoundsBook) and rummy.book.totals() == (-4, 4)


def test_saved_after_every_entry_and_resumed(tmp_path: Path):
    save = tmp_path / "pad.json"
    session = PadSession.start("rummikub", 3, "en", save=save)
    route(session, CHOICE_LINE, "p3")
    for number in ("7", "30"):
        for digit in number:
            route(session, CHOICE_LINE, digit)
        route(session, CHOICE_LINE, "ok")
    again = PadSession.resume(save)
    assert again.book == session.book and again.book.totals() == (-7, -30, 37)
    # the last entry's news, then where the pad stands
    assert again.seat.history.texts[-1].endswith("Pad resumed where it was saved.")
    save.write_text("{not json")
    with pytest.raises(UserError, match="cannot be read"):
        PadSession.resume(save)


def test_command_mistakes_are_one_sentence_before_anything_starts(tmp_path: Path, capsys):
    assert main(["pad", "uno", "--players", "9", "--lang", "en",
                 "--save", str(tmp_path / "p.json")]) == 2
    assert capsys.readouterr().err.strip() == ("brailledev: Uno is for 2 to 6 players, not 9; "
                                               "give --players 2 to 6, or leave it out for 2.")
    assert main(["pad", "domino", "--out", str(tmp_path / "pad.txt"), "--lang", "fr",
                 "--save", str(tmp_path / "p.json")]) == 2
    err = capsys.readouterr().err
    assert "va dans un fichier .brf ou .pef" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "p.json").exists()


class Terminal:
    """``brailledev pad`` in a pseudo-terminal: the print row under the braille row."""

    def __init__(self, args: list[str], limits: Callable[[], None] | None = None) -> None:
        self.child = pexpect.spawn(BRAILLEDEV, args, encoding="utf-8", timeout=15,
                                   dimensions=(24, 100), preexec_fn=limits,
                                   env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
                                        "PYTHONDONTWRITEBYTECODE": "1"})
        self.screen = ""

    def text(self) -> str:
        frames = [frame for frame in self.screen.split("\x1b[H\x1b[2J")
                  if re.search(r"\x1b\[\d+;\d+H$", frame)]
        rows = re.split(r"\r*\n", re.sub(r"\x1b\[[0-9;]*H", "", frames[-1] if frames else ""))
        return rows[1] if len(rows) > 1 else ""

    def send(self, keys: str) -> None:
        """Send ``keys``, then read until a new frame came and the program is quiet."""
        count = self.screen.count("\x1b[H\x1b[2J")
        self.child.send(keys)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                self.screen += self.child.read_nonblocking(65536, timeout=0.2)
            except pexpect.TIMEOUT:
                if self.screen.count("\x1b[H\x1b[2J") > count:
                    return
        raise AssertionError(f"no new frame: {self.text()!r}")

    def route(self, word: str) -> None:
        for _ in range(10):
            for match in re.finditer(r"\S+", self.text()):
                if match.group() == word:
                    self.send(f"{match.start() + 1}\r")
                    return
            self.send("]")
        raise AssertionError(f"{word!r} never showed: {self.text()!r}")


def test_pad_in_a_terminal_writes_the_filled_pad(tmp_path: Path):
    out, save = tmp_path / "pad.brf", tmp_path / "pad.json"
    terminal = Terminal(["pad", "domino", "--players", "2", "--display", "terminal",
                         "--no-speech", "--lang", "en", "--save", str(save), "--out", str(out)])
    try:
        terminal.send("")
        assert re.search(r"pad\s+for\s+2\s+players", terminal.text())
        terminal.send("1\r")                                # read on: the choice line
        terminal.route("12")
        terminal.route("enter")
        terminal.child.send("qq")  # quit, and yes to its question
        terminal.child.expect(pexpect.EOF)
    finally:
        terminal.child.close(force=True)
    assert terminal.child.exitstatus == 0, terminal.screen[-500:]
    braille = translator("en-ueb-g1.ctb")
    label = braille.translate("Grand Total").cells + "\u2800"
    pages = out.read_bytes().split(b"\x0c")[:-1]
    grand = []
    for page in pages:
        rows = [ascii_to_cells(row) for row in page.decode("ascii").split("\r\n")[:-1]]
        [row] = [row for row in rows if row.startswith(label)]
        grand.append(braille.back(row[len(label):row.index(GUIDE)].rstrip("\u2800")))
    assert grand == ["5", "0"]
    assert json.loads(save.read_text())["book"]["turns"] == [[0, [12], 1, True]]


def small_files_only() -> None:
    """In the child before it starts: no file it writes may pass 200 bytes, as on a full
    disk (a write past the limit fails rather than ending the process)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def read_news(terminal: Terminal, shown: list[str]) -> None:
    """Pan through the message line the pad put the reader on, keeping what it showed (the
    markers of more on the left or the right left out)."""
    for _ in range(8):
        shown.append(terminal.text().removeprefix("<").removesuffix(">").strip())
        terminal.send("]")


def enter_line(terminal: Terminal, value: str, enter: str) -> None:
    """From the top line down to the turn being entered (``p1, lines:``), then a line of
    ``value`` and ``enter``."""
    terminal.send("\x1b[H")
    for _ in range(4):
        if re.match(r"[pj]\d, l", terminal.text()):
            terminal.route(value)
            terminal.route(enter)
            return
        terminal.send("\x1b[B")
    raise AssertionError(f"no turn to enter: {terminal.text()!r}")


@pytest.mark.parametrize(("lang", "failing", "again"), [
    ("en", "Saving the pad fails: the file is larger than allowed ({path}); the pad goes on, "
           "and every entry tries again.", "Saving works again ({path})."),
    ("fr", "L'enregistrement de la feuille échoue : le fichier dépasse la taille permise "
           "({path}) ; la feuille continue, et chaque note réessaie.",
     "L'enregistrement fonctionne de nouveau ({path})."),
])
def test_a_pad_whose_save_fails_goes_on_and_says_so_on_the_display(tmp_path: Path, lang: str,
                                                                   failing: str, again: str):
    save = tmp_path / "pad.json"
    failing, again = failing.format(path=save), again.format(path=save)
    terminal = Terminal(["pad", "domino", "--players", "2", "--display", "terminal",
                         "--no-speech", "--lang", lang, "--save", str(save)],
                        limits=small_files_only)
    enter = {"en": "enter", "fr": "noter"}[lang]
    shown: list[str] = []
    try:
        terminal.send("")
        read_news(terminal, shown)
        enter_line(terminal, "12", enter)                   # saving still fails: no news
        read_news(terminal, shown)
        hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
        resource.prlimit(terminal.child.pid, resource.RLIMIT_FSIZE, (hard, hard))
        enter_line(terminal, "10", enter)
        read_news(terminal, shown)
        terminal.send("q")
        question = {"en": "Quit? route again", "fr": "Quitter ? routez encore"}[lang]
        assert " ".join(terminal.text().split()).startswith(question), terminal.text()
        terminal.send("h")  # any other key (help): the pad goes on
        terminal.send("q")
        terminal.child.send("q")  # yes: the pad ends
        terminal.child.expect(pexpect.EOF)
    finally:
        terminal.child.close(force=True)
    assert terminal.child.exitstatus == 0, terminal.screen[-500:]
    read = " ".join(" ".join(shown).split())
    assert failing.split(" (")[0] in read and again.split(" (")[0] in read, read
    saved = json.loads(save.read_text())
    told = [part for message in saved["reader"]["history"]["messages"]
            for part in message["parts"]]
    assert told.count(failing) == 1 and told.count(again) == 1, told
    assert [turn[1] for turn in saved["book"]["turns"]] == [[12], [10]]
