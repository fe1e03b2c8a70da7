"""Damaged save files through the command line (issue 13.4): a corpus made by mutating whole
valid saves of every game (every field of the table, the reader and the half-made input:
wrong types, out-of-range numbers, unknown cards, huge values, deep nesting), and by damaging
the file itself (cut short, bytes changed, not UTF-8, NaN, numbers of 5,000 digits, 200,000
brackets deep, 33 MB, a folder, a pipe). Each goes through ``play GAME --resume FILE`` and
through ``play GAME`` without ``--new``: either one sentence, status 2 and the file left as it
was (bytes and modification time), or a game that resumes and quits; never a traceback.

The test runs a sample of each game's corpus; ``SAVES_CORPUS=all`` runs the whole of it, and
``python -m tests.device.test_damaged_saves`` prints the counts and the slowest answer.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import brailledev.display
from brailledev.display.keys import Named
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.cli import main
from brailledev.programs.session import Session
from layouts.registry import GAMES, kit
from layouts.screen import Ask
from tests.games.test_saved_states import DEEP, mutations

PLAYERS = {"elements": 3}
OPTIONS = {"uno": {"match_target": 0}, "rummikub": {"turn_times": 60}}
_DEEP_MARK = "\u0000deep\u0000"


def valid_saves(game: str) -> list[dict[str, Any]]:
    """Whole saves of one game: at the start, with a half-made input, later on, over."""
    saves = []
    session = Session.start(game, players=PLAYERS.get(game, 2), seed=5, lang="fr",
                            options=OPTIONS.get(game), pace=0, save=None)
    saves.append(session.to_dict())
    rng = random.Random(game)
    for step in range(2_000):
        if session.table.game.is_over():
            break
        if session.table.bot_move():
            continue
        if step % 3 == 0 and session.seat.pending is None:
            asks = [region.target.pending for line in session.seat.lines()
                    for region in line.regions if isinstance(region.target, Ask)
                    and region.target.pending is not None]
            if asks:
                session.seat.pending = rng.choice(asks)
                saves.append(session.to_dict())
        bot = kit(game).make_bot("random", step)
        session.seat.play(bot.choose(session.seat.view(), session.table.game.legal_moves(0)))
        if step in (20, 120):
            saves.append(session.to_dict())
    saves.append(session.to_dict())
    return [json.loads(json.dumps(save)) for save in saves]


def text_of(save: Any) -> bytes:
    """A save as a file's bytes; the deep list written out as brackets (json cannot)."""
    try:  # most saves hold no deep list: copying every one of them cost 9 million calls
        return json.dumps(save).encode()
    except RecursionError:
        pass

    def swap(value: Any) -> Any:
        if value is DEEP:
            return _DEEP_MARK
        if isinstance(value, dict):
            return {key: swap(item) for key, item in value.items()}
        if isinstance(value, list):
            return [swap(item) for item in value]
        return value

    text = json.dumps(swap(save))
    return text.replace(json.dumps(_DEEP_MARK), "[" * 20_000 + "]" * 20_000).encode()


def file_damage(valid: bytes) -> Iterator[tuple[str, bytes | str]]:
    """Damage to the file itself (``str``: a kind of file that is not a regular one)."""
    for cut in (0, 1, len(valid) // 3, len(valid) - 1):
        yield f"cut at {cut}", valid[:cut]
    rng = random.Random(len(valid))
    for _ in range(6):
        at = rng.randrange(len(valid))
        yield f"byte {at} changed", valid[:at] + bytes([rng.randrange(256)]) + valid[at + 1:]
    yield "latin-1", valid.replace(b'"', b'"\xe9', 1)
    yield "byte order mark", b"\xef\xbb\xbf" + valid
    yield "NaN", valid.replace(b'"moves": ', b'"moves": NaN, "x": ', 1)
    yield "5,000 digits", valid.replace(b'"moves": ', b'"moves": ' + b"9" * 5_000 + b', "x": ',
                                        1)
    yield "200,000 deep", b"[" * 200_000 + b"]" * 200_000
    yield "deep object", b'{"a":' * 100_000 + b"1" + b"}" * 100_000
    yield "33 MB", b'{"format": "brailledev-save", "pad": "' + b"x" * (33 * 2**20) + b'"}'
    yield "a folder", "folder"
    yield "a pipe", "pipe"


def corpus(game: str, every: int) -> Iterator[tuple[str, bytes | str]]:
    """Every ``every``-th damaged save of ``game``, the damage to the file itself always."""
    rng = random.Random(f"{game} saves")
    saves = valid_saves(game)
    yield from file_damage(text_of(saves[len(saves) // 2]))
    count = 0
    for number, save in enumerate(saves):
        for what, damaged in mutations(save, rng):
            if count % every == 0:
                yield f"save {number}: {what}", text_of(damaged)
            count += 1


def put(path: Path, damaged: bytes | str) -> None:
    if damaged == "folder":
        path.mkdir()
    elif damaged == "pipe":
        os.mkfifo(path)
    else:
        assert isinstance(damaged, bytes)
        path.write_bytes(damaged)


def looked(path: Path) -> tuple[bytes | None, int]:
    return (path.read_bytes() if path.is_file() else None), path.lstat().st_mtime_ns


class Quitting:
    """The display ``play`` opens: in memory, its reader quits at once."""

    def __call__(self, *args: Any, **kwargs: Any) -> MemoryDisplay:
        display = MemoryDisplay(40)
        display.press(Named("quit"), Named("quit"))  # quit, and yes
        return display


def attempt(game: str, command: str, path: Path, capture: Any) -> tuple[str, float]:
    """One damaged file through one command: ``refused``, ``resumed`` or what went wrong;
    and how long the command took."""
    before = looked(path)
    words = ["play", game, "--no-speech", "--pace", "0"]
    words += ["--resume", str(path)] if command == "resume" else ["--save", str(path)]
    started = time.perf_counter()
    try:
        status = main(words)
    except BaseException as error:  # what this test hunts: anything escaping main
        return f"escaped: {type(error).__name__}: {str(error)[:100]}", 0.0
    seconds = time.perf_counter() - started
    err = capture()
    if "Traceback" in err or err.count("\n") > 1:
        return f"status {status}, {err[:300]!r}", seconds
    if status == 2:
        if not err.startswith("brailledev: ") or looked(path) != before:
            return f"refused but {'changed' if looked(path) != before else repr(err)}", seconds
        return "refused", seconds
    if status == 0 and err == "":
        return "resumed", seconds
    return f"status {status}: {err[:200]!r}", seconds


def run(game: str, every: int, folder: Path, capture: Any) -> tuple[int, int, list[str],
                                                                     float]:
    """Try the corpus of ``game``: (cases, refusals, failures, slowest seconds)."""
    tried = refused = 0
    failures: list[str] = []
    slowest = 0.0
    for number, (what, damaged) in enumerate(corpus(game, every)):
        for command in ("resume", "play"):
            path = folder / f"{number}-{command}" / f"{game}.json"
            path.parent.mkdir()
            put(path, damaged)
            outcome, seconds = attempt(game, command, path, capture)
            slowest = max(slowest, seconds)
            tried += 1
            refused += outcome == "refused"
            if outcome not in ("refused", "resumed"):
                failures.append(f"{what} ({command}): {outcome}")
    return tried, refused, failures, slowest


SAMPLE = 1 if os.environ.get("SAVES_CORPUS") == "all" else 97


@pytest.mark.parametrize("game", GAMES)
def test_every_damaged_save_is_refused_in_one_sentence_or_resumes(game, tmp_path, capsys,
                                                                 monkeypatch):
    monkeypatch.setattr(brailledev.display, "open_display", Quitting())
    tried, refused, failures, _ = run(game, SAMPLE, tmp_path,
                                      lambda: capsys.readouterr().err)
    assert not failures, "\n".join(failures[:20])
    assert tried > 60 and refused > tried // 2


def report(names: list[str]) -> None:
    """The whole corpus of each game: counts, failures, the slowest answer."""
    import contextlib
    import io
    import tempfile

    brailledev.display.open_display = Quitting()
    for name in names:
        caught = io.StringIO()

        def take(caught: io.StringIO = caught) -> str:
            text = caught.getvalue()
            caught.seek(0)
            caught.truncate()
            return text

        with tempfile.TemporaryDirectory() as where, contextlib.redirect_stderr(caught):
            cases, no, failed, worst = run(name, 1, Path(where), take)
        print(f"{name}: {cases} cases, {no} refused, {cases - no - len(failed)} resumed, "
              f"{len(failed)} failures, slowest {worst:.3f} s", flush=True)
        for line in failed[:40]:
            print("   ", line)


if __name__ == "__main__":
    report(sys.argv[1:] or list(GAMES))
