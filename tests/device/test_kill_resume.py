"""kill -9 of the real ``brailledev play`` (issue 13.2): for every game, the program is played
in a pseudo-terminal by a reader routing what the screen offers, killed at a random moment
(the keys of a move just sent, or between moves), started again with the same command (it
goes on with the saved game), played on and quit; its last save equals, byte for byte, the
table the same reader reaches in one uninterrupted game.

``KILL_SEED=n`` draws other seeds, bots and moments.

The reader's choice depends on the position alone (the saved game and its half-made input),
so replaying a move lost to the kill retraces the same way.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from brailledev.display.braille import translator
from brailledev.programs.savefile import Unreadable
from brailledev.programs.session import Session
from brailledev.table.history import History
from layouts.registry import GAMES
from layouts.screen import HELP_LINE, MESSAGE_LINE, Ask, PlayMove
from tests.route_keys import keys_to, terminal_keys

BRAILLEDEV = str(Path(sys.executable).with_name("brailledev"))
EN = translator("en-ueb-g1.ctb")
# Options that keep the games short, and the players each needs.
ARGS = {"uno": ["--match-target", "0"], "rummikub": ["--time-limit", "0"],
        "elevens": [], "elements": ["--players", "3"], "domino": []}
DECISIONS = 12


def choose(session: Session, seed: int) -> tuple[str, int]:
    """What the reader routes: a legal move or a change of the half-made input, picked by a
    generator seeded by the position (the table's moves and the input)."""
    game, seat = session.table.game, session.seat.seat
    moves: list[tuple[str, int]] = []
    asks: list[tuple[str, int]] = []
    said = json.dumps(session.seat.screen.save_input(session.seat.pending), sort_keys=True)
    for line in session.seat.lines():
        if line.key in (MESSAGE_LINE, HELP_LINE):
            continue
        for index, region in enumerate(line.regions):
            target = region.target
            if isinstance(target, PlayMove) and game.check(seat, target.move) is None:
                moves.append((line.key, index))
            elif isinstance(target, Ask) and json.dumps(session.seat.screen.save_input(
                    target.pending), sort_keys=True) != said:
                asks.append((line.key, index))  # an input that changes what is saved
    rng = random.Random(f"{seed}:{session.table.moves}:{said}")
    if moves and (not asks or rng.random() < 0.6):
        return rng.choice(moves)
    assert asks, f"nothing to route: {[line.text for line in session.seat.lines()]}"
    return rng.choice(asks)


def uninterrupted(game: str, seed: int, bots: str, most: int) -> dict[int, str]:
    """The same reader's game without a kill: the table at every moment the reader is to
    act (or the game is over), by the table's move count."""
    players = int(ARGS[game][1]) if ARGS[game][:1] == ["--players"] else 2
    options: dict[str, Any] = {"uno": {"match_target": 0}, "rummikub": {"turn_times": 0}}.get(
        game, {})
    session = Session.start(game, players=players, seed=seed, lang="en", bots=bots,
                            options=options, pace=0)
    session.table.run_bots()
    seen = {session.table.moves: _table(session)}
    for _ in range(most):
        if session.table.game.is_over():
            break
        key, index = choose(session, seed)
        line = next(line for line in session.seat.lines() if line.key == key)
        session.seat.route(line.regions[index].target)
        session.table.run_bots()
        seen[session.table.moves] = _table(session)
    return seen


def _table(session: Session) -> str:
    return json.dumps(session.table.to_dict(), sort_keys=True)


class Program:
    """``brailledev play`` in a pseudo-terminal, watched through its save file."""

    def __init__(self, args: list[str], save: Path) -> None:
        self.save = save
        self.child = pexpect.spawn(BRAILLEDEV, args, encoding="utf-8", timeout=20,
                                   dimensions=(24, 100),
                                   env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"})
        # Keys typed before the display takes the terminal are flushed with its old mode:
        # wait for its first screen (a save left by the killed program is there long before).
        self.child.expect_exact("?: keys", timeout=60)

    def drain(self) -> None:
        try:
            while True:
                self.child.read_nonblocking(65536, timeout=0)
        except (pexpect.TIMEOUT, pexpect.EOF):
            pass

    def settled(self, before: bytes | None, timeout: float = 20) -> Session:
        """The saved game once it differs from ``before`` and the reader is to act (or the
        game is over), and the file has stayed the same for a moment."""
        deadline = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            self.drain()
            data = self.save.read_bytes() if self.save.exists() else None
            if data != last:
                last, since = data, time.monotonic()
            elif data is not None and data != before and time.monotonic() - since > 0.3:
                try:
                    session = Session.load(self.save, pace=0)
                except Unreadable:  # caught between a write and its rename: not possible
                    raise
                if session.table.game.is_over() or session.table.game.must_act() == [0]:
                    return session
            time.sleep(0.05)
        raise AssertionError(f"the program did not settle: {self.child.before!r}")

    def kill(self) -> None:
        os.kill(self.child.pid, signal.SIGKILL)
        self.child.wait()

    def quit(self) -> None:
        self.child.send("qq")  # quit, and yes to its question
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0


@pytest.mark.parametrize("game", GAMES)
def test_killed_and_started_again_it_is_the_same_game(game, tmp_path):
    rng = random.Random(f"kill {game} {os.environ.get('KILL_SEED', '')}")
    seed = rng.randrange(1000)
    bots = rng.choice(["heuristic", "random", "heuristic,random"])
    kill_at = rng.randrange(2, DECISIONS - 2)
    save = tmp_path / f"{game}.json"
    common = ["--display", "terminal", "--no-speech", "--pace", "0", "--save", str(save)]
    program = Program(["play", game, *common, "--lang", "en", "--seed", str(seed), "--bots",
                       bots, *ARGS[game]], save)
    killed = False
    try:
        session = program.settled(None)
        for decision in range(DECISIONS):
            if session.table.game.is_over():
                break
            key, index = choose(session, seed)
            before = save.read_bytes()
            program.child.send(terminal_keys(keys_to(session.seat.lines(), key, index, EN)))
            if decision == kill_at:
                time.sleep(rng.uniform(0, 0.08))
                program.kill()
                killed = True
                program = Program(["play", game, *common], save)
                session = program.settled(None)
                continue
            session = program.settled(before)
        program.quit()
    finally:
        program.child.terminate(force=True)
    assert killed or session.table.game.is_over()
    final = json.loads(save.read_text(encoding="utf-8"))
    told = [part for message in History.from_dict(final["reader"]["history"]).messages
            for part in message.parts]
    assert any(text.startswith("Your saved game goes on") for text in told) or not killed
    table = json.dumps(final["table"], sort_keys=True)
    reference = uninterrupted(game, seed, bots, DECISIONS * 4)
    moves = final["table"]["moves"]
    assert moves in reference, f"the reference game never had {moves} moves"
    where = difference(json.loads(table), json.loads(reference[moves]))
    assert table == reference[moves], f"{game}: another game after the kill: {where}"


def difference(one: Any, other: Any, at: str = "") -> str:
    """Where two saved tables first differ, for the failure message."""
    if type(one) is not type(other):
        return f"{at}: {str(one)[:80]} | {str(other)[:80]}"
    if isinstance(one, dict):
        for key in sorted(set(one) | set(other)):
            if one.get(key) != other.get(key):
                return difference(one.get(key), other.get(key), f"{at}.{key}")
    if isinstance(one, list) and len(one) == len(other):
        for index, (left, right) in enumerate(zip(one, other, strict=True)):
            if left != right:
                return difference(left, right, f"{at}.{index}")
    return f"{at}: {str(one)[:80]} | {str(other)[:80]}"
