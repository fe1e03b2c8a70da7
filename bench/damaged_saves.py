"""How fast the real ``brailledev play`` answers a damaged save: target under 2 s each.

    .venv/bin/python bench/damaged_saves.py             (12 damaged files a game)
    .venv/bin/python bench/damaged_saves.py --per-game 40

For every game, a sample of the damaged-save corpus of ``tests/device/test_damaged_saves.py``
(the damage to the file itself always: 33 MB, 200,000 brackets deep, 5,000 digits, a pipe,
a folder ...) goes through ``brailledev play GAME --resume FILE`` and ``brailledev play GAME
--save FILE`` in a process of its own, as a person would run it. The anchor, measured in the
same run: the same command resuming the valid save it was damaged from (the program starts,
reads it, draws, and ends as its input is closed). Prints the slowest damaged answer in
seconds, its ratio to the anchor, and whether every answer kept under 2 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from layouts.registry import GAMES
from tests.device.test_damaged_saves import corpus, put, text_of, valid_saves

BRAILLEDEV = str(Path(sys.executable).with_name("brailledev"))
TARGET = 2.0


def answer(game: str, command: str, path: Path) -> tuple[float, int]:
    """Seconds the program takes to answer, and its status."""
    words = ["play", game, "--display", "terminal", "--no-speech", "--lang", "en"]
    words += ["--resume", str(path)] if command == "resume" else ["--save", str(path)]
    started = time.perf_counter()
    result = subprocess.run([BRAILLEDEV, *words], stdin=subprocess.DEVNULL,
                            capture_output=True, timeout=60, check=False)
    return time.perf_counter() - started, result.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-game", type=int, default=12)
    args = parser.parse_args()
    worst_of_all, anchors = 0.0, []
    for game in GAMES:
        with tempfile.TemporaryDirectory() as where:
            folder = Path(where)
            valid = folder / "valid.json"
            valid.write_bytes(text_of(valid_saves(game)[1]))
            anchor = statistics.median(answer(game, "resume", valid)[0] for _ in range(3))
            anchors.append(anchor)
            cases = list(corpus(game, 1))
            chosen = cases[:21] + cases[21::max(1, (len(cases) - 21) // args.per_game)]
            worst, what, refused = 0.0, "", 0
            for number, (name, damaged) in enumerate(chosen):
                for command in ("resume", "play"):
                    path = folder / f"{number}{command}" / f"{game}.json"
                    path.parent.mkdir()
                    put(path, damaged)
                    seconds, status = answer(game, command, path)
                    refused += status == 2
                    if seconds > worst:
                        worst, what = seconds, f"{name} ({command})"
                    if os.path.isdir(path):
                        os.rmdir(path)
            worst_of_all = max(worst_of_all, worst)
            print(f"{game}: {2 * len(chosen)} answers, {refused} refusals; anchor (valid save)"
                  f" {anchor:.3f} s; slowest {worst:.3f} s = {worst / anchor:.2f} x anchor "
                  f"({what})")
    print(f"slowest answer {worst_of_all:.3f} s, {worst_of_all / max(anchors):.2f} x the "
          f"slowest anchor; target < {TARGET:g} s: {'met' if worst_of_all < TARGET else 'MISSED'}")
    return 0 if worst_of_all < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
