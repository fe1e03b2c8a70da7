"""A game whose saves fail, played in a process of its own (the limits it sets must not reach
the tests): ``python -m tests.device.save_child FOLDER KIND``.

KIND ``read_only``: FOLDER is read-only (its owner may make it writable again);
``file_size``: the process may write no file larger than 1 kB (``RLIMIT_FSIZE``), as on a full
disk. The game is played for a few moves while saving fails, then the way is cleared and it is
played on. Prints, as JSON, every message told and whether the file finally holds the game.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
from pathlib import Path

from brailledev.programs.session import Session
from layouts.registry import kit


def play_a_turn(session: Session, seed: int) -> None:
    """The person plays what a random bot would, then the bots answer."""
    bot = kit(session.table.name).make_bot("random", seed + session.table.moves)
    session.seat.play(bot.choose(session.seat.view(), session.table.game.legal_moves(0)))
    session.table.run_bots()


def main(folder: Path, kind: str) -> None:
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    if kind == "read_only":
        os.chmod(folder, 0o555)
    else:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, no more
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, limit[1]))
    path = folder / "uno.json"
    session = Session.start("uno", players=2, seed=4, lang="fr",
                            options={"match_target": 0}, save=path, pace=0)
    session.table.run_bots()
    for turn in range(3):
        if not session.table.game.is_over():
            play_a_turn(session, turn)
    failing = session.saving.failure is not None
    if kind == "read_only":
        os.chmod(folder, 0o755)
    else:
        resource.setrlimit(resource.RLIMIT_FSIZE, limit)
    for turn in range(3, 5):
        if not session.table.game.is_over():
            play_a_turn(session, turn)
    saved = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    print(json.dumps({"told": [part for message in session.seat.history.messages
                                for part in message.parts], "failing": failing,
                      "works": session.saving.failure is None,
                      "same": saved is not None
                      and saved["table"]["state"] == session.table.game.to_dict()}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
