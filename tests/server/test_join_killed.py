"""kill -9 of the real ``brailledev join`` mid-turn (issue 37.1): a real ``serve`` process, a
real ``join`` in a pseudo-terminal on the terminal display, keys typed as a reader types
them; a Rummikub set built with a tile selected (its undo with it), or an Elements card
chosen in phase 1; the program killed with SIGKILL and started again with the same
``--save``: the seat file holds the same input, the screen shows it on the same lines, and
undo goes on where it was, in English and French.

The keys come from a second client of the same seat (the seat file's key) that sees the
same table and applies the same routing: what the reader's screen shows, without reading
it from the program under test.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from brailledev.display.braille import translator
from brailledev.programs.join import Joined, connect, saved_seat
from layouts.screen import Line
from tests.device.test_play_terminal import Terminal
from tests.route_keys import keys_to, terminal_keys
from tests.server.helpers import ServeProcess, new_table

TABLES = {"en": "en-ueb-g1.ctb", "fr": "fr-bfu-comp6.utb"}
Step = Callable[[tuple[Line, ...]], tuple[str, int]]


def at(key: str, index: int) -> Step:
    """Region ``index`` of line ``key`` (a tile of the rack, a card of the hand)."""
    return lambda lines: (key, index)


def last_of(key: str) -> Step:
    """The last region of line ``key`` (the selection's ``new set``)."""
    return lambda lines: (key, len(next(line for line in lines if line.key == key).regions) - 1)


def named(key: str, text: str) -> Step:
    """The region of line ``key`` that reads ``text``."""
    def find(lines: tuple[Line, ...]) -> tuple[str, int]:
        line = next(line for line in lines if line.key == key)
        return key, next(index for index, region in enumerate(line.regions)
                         if region.text == text)
    return find


# The game, its table, the input routed, the lines that show it, and the undo command.
CASES: dict[str, dict[str, Any]] = {
    "rummikub": {"settings": {"players": 2, "options": {"turn_times": 0}},
                 "steps": [at("rack", 1), at("rack", 1), last_of("selection"),
                           at("rack", 1)],
                 "shown": ("selection", "set_3"),
                 "undo": {"en": "undo", "fr": "annuler"}},
    "elements": {"settings": {"players": 3}, "steps": [at("hand", 2)], "shown": ("choice",),
                 "undo": None},
}
BACK = {"en": "You are back at the table.", "fr": "Vous êtes de retour à la table."}


class Ann:
    """``join`` of Ann in a pseudo-terminal, saved in ``save``."""

    def __init__(self, url: str, code: str, lang: str, save: Path) -> None:
        self.terminal = Terminal(["join", url, code, "--name", "Ann", "--display", "terminal",
                                  "--no-speech", "--lang", lang, "--save", str(save)], save)
        self.save = save

    def saved(self) -> dict[str, Any]:
        while True:
            try:
                data: dict[str, Any] = json.loads(self.save.read_text())
                return data
            except (FileNotFoundError, ValueError):  # not written yet
                time.sleep(0.05)

    def saves_input(self, wanted: Any, what: str) -> None:
        """Wait until the seat file holds the input ``wanted``."""
        until(lambda: self.saved()["reader"]["pending"] == wanted, what)

    def row(self, lines: tuple[Line, ...], key: str, braille: Any) -> str:
        """The print row of line ``key``'s first window, reached by the reader's keys."""
        self.terminal.send(terminal_keys(keys_to(lines, key, 0, braille)[:-1]))
        return " ".join(self.terminal.text().split())


def until(done: Callable[[], bool], what: str, pump: Callable[[], Any] = lambda: None,
          timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, what
        pump()
        time.sleep(0.05)


def gone(joined: Joined) -> None:
    joined.background.run(joined.client.stop(), 5)
    assert joined.running is not None
    joined.running.result(5)
    joined.background.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", list(CASES))
def test_a_half_built_turn_is_back_after_join_is_killed(tmp_path, game, lang):
    case = CASES[game]
    braille = translator(TABLES[lang])
    save = tmp_path / "ann.json"
    with ServeProcess(tmp_path / "tables.db") as serve:
        code = new_table(serve.url, game=game, people=1, seed=3, **case["settings"])
        ann = Ann(serve.url, code, lang, save)
        try:
            until(lambda: "token" in ann.saved(), "join never saved its seat")
            mirror = connect(serve.url, code, "Ann", lang, saved_seat(save, serve.url, code),
                             None, TABLES[lang])
            link = mirror.link
            until(lambda: link.waiting_for_me() and ann.saved()["position"] == link.position,
                  "Ann's turn never came", mirror.step)
            for step in case["steps"]:
                lines = mirror.seat.lines()
                key, region = step(lines)
                ann.terminal.send(terminal_keys(keys_to(lines, key, region, braille)))
                target = next(line for line in lines if line.key == key).regions[region].target
                mirror.seat.route(target)
                ann.saves_input(mirror.seat.screen.save_input(mirror.seat.pending),
                                f"the input after {key} {region} was never saved")
            kept = ann.saved()["reader"]["pending"]
            shown = {line.key: line.text for line in mirror.seat.lines()}
            assert all(key in shown for key in case["shown"]), shown
            gone(mirror)
            ann.terminal.child.kill(signal.SIGKILL)
            ann.terminal.child.wait()
        finally:
            ann.terminal.child.close(force=True)
        assert ann.saved()["reader"]["pending"] == kept
        again = Ann(serve.url, code, lang, save)
        try:
            until(lambda: BACK[lang] in json.dumps(again.saved()["reader"]["history"],
                                                   ensure_ascii=False), "join never came back")
            assert again.saved()["reader"]["pending"] == kept
            lines = mirror.seat.lines()
            for key in case["shown"]:
                assert shown[key].replace(" ", "").startswith(
                    again.row(lines, key, braille).replace(" ", "")), key
            if case["undo"] is not None:
                key, region = named("commands", case["undo"][lang])(lines)
                again.terminal.send(terminal_keys(keys_to(lines, key, region, braille)))
                again.saves_input({**kept, "steps": kept["steps"][:-1]},
                                  "undo did not go back one step")
        finally:
            again.terminal.child.close(force=True)
