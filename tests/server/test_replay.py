"""The conformance suite's resume check through the server's store, for every game of the
registry: a whole game of bots played in a room whose store (SQLite, and PostgreSQL for one
seed) keeps a log and a snapshot every 3 changes, once without a stop and once loaded again
from the store after every change (its last snapshot and the log after it played again),
each position of the two the same room, game and bots' memory and random state, to the end.
A person sits, talks, plays her first turns (a move chosen at random among the legal ones)
and goes, a bot standing in for her, so the log plays those changes again too; in a game
with a turn clock (Rummikub) her turns have 20 seconds, so the clock tells her the time
left and plays her timeout move."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from brailledev.network.protocol import Hello, MoveFrame
from brailledev.network.server.room import QUIET, Room, Settings, hash_token
from brailledev.network.store import TableStore, dump
from brailledev.network.stores import open_store
from layouts.registry import GAMES, kit
from layouts.screen import Line
from tests.games.cases import case_of
from tests.server.postgres import PrivatePostgres

CODE = "tkrzvmbcdfgh"
EVERY = 3  # changes between two snapshots: most positions are a snapshot and a log
ANN_TURNS = 60  # turns of the test Ann stays for
# The option giving each seat a time limit, in the games whose kit has a turn clock.
TIMED = {"turn_times": 20}
MOST_ACTS = 2_000  # far above a trial game's length: a game that never ends fails


class Clock:
    """The room's clock, moved on by the test: the same times in both games."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Seen:
    """A connection as the room sees it, keeping what it is sent."""

    seat: int = -1
    web: bool = False
    screen: tuple[int, tuple[Line, ...], str] | None = None
    drawn: Any = None
    said: tuple[int, int | None] | None = None
    told: int = 0
    protocol: int = 1
    view: Any = None
    seats: str = ""
    answered: str = ""
    frames: list[str] = field(default_factory=list)

    def send(self, text: str) -> None:
        self.frames.append(text)

    def drop(self) -> None:
        """Nothing to close."""


def positions(name: str, seed: int, store: TableStore, restart: bool) -> list[dict[str, Any]]:
    """Every position of a whole game at table ``CODE`` of ``store``, the room loaded again
    from the store after every change when ``restart``."""
    case = case_of(name)
    options = {**case.trial.options, **(TIMED if kit(name).clock is not None else {})}
    settings = Settings(name, players=case.players[0], people=1,
                        bots=",".join(case.bot_names), options=options, seed=seed, away=0.0,
                        pace=0.0)
    clock = Clock()
    room = Room.create(CODE, settings, store, clock=clock, snapshot_every=EVERY)
    peer = Seen()
    _, token = room.sit(Hello(CODE, name="Ann"), peer)
    assert room.say(0, "bonjour") is None
    seen = [json.loads(dump(room.to_dict()))]  # a copy: the room's lists change on
    for turn in range(MOST_ACTS):
        if room.over:
            break
        clock.now += 1.0
        before = room.seq
        if turn == ANN_TURNS:
            room.leave(peer)  # Ann is gone: a bot stands in for her at once (away=0)
        elif turn < ANN_TURNS and room.can_act(0) and room.table.legal(0):
            move = random.Random(turn).choice(room.table.legal(0))
            assert room.play(0, MoveFrame(f"m{turn}", room.codec.encode(move))) is None
        room.act()
        # Loaded again at every change (a turn clock's running time between two changes is
        # the process's: a restart gives the turn the time it had at the last change).
        if restart and room.seq != before:
            loaded = Room.load(CODE, store, clock=clock, snapshot_every=EVERY)
            assert loaded is not None
            room = loaded
            if turn < ANN_TURNS:  # Ann's connection, as if it had come back at once
                room.sit(Hello(CODE, token=token), peer)
        seen.append(json.loads(dump(room.to_dict())))
    assert room.over, f"{name}: not over after {MOST_ACTS} turns"
    assert token is not None and room.seats[0].token_hash == hash_token(token)
    for position in seen:  # Ann's key is new at each sitting (the room keeps it, checked)
        position["seats"][0]["token_hash"] = ""
    return seen


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("kind", "seed"), [("sqlite", 3), ("sqlite", 11), ("postgresql", 7)])
def test_a_room_loaded_from_its_snapshot_and_log_at_every_change_plays_on_identically(
        name: str, kind: str, seed: int, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "postgresql":
        cluster: PrivatePostgres = request.getfixturevalue("postgres")
        whole, again = open_store(cluster.database()), open_store(cluster.database())
    else:
        whole, again = open_store(tmp_path / "whole.db"), open_store(tmp_path / "again.db")
    uninterrupted = positions(name, seed, whole, restart=False)
    restarted = positions(name, seed, again, restart=True)
    assert len(restarted) == len(uninterrupted) > EVERY * 3
    for number, (one, other) in enumerate(zip(restarted, uninterrupted, strict=True)):
        assert one == other, f"{name}: position {number} differs"
    assert uninterrupted[-1]["table"]["bot_states"]  # the bots' memory and random state too
    # Ann's moves with their ids (in a game that lists them: Rummikub's would be searched)
    assert uninterrupted[-1]["seats"][0]["moves"] or not case_of(name).lists_moves
    if kit(name).clock is not None:  # the clock told Ann the time left, and it ran out
        told = dump(again.changes(CODE, 0, 0))
        assert '"seconds":15' in told and '"seconds":0' in told
    finished = again.load(CODE)
    assert finished is not None and finished.log == ()  # a snapshot at the game's end
    whole.close()
    again.close()



def test_a_quiet_table_folds_its_log_into_a_snapshot_unless_another_process_moved_it_on(
        tmp_path: Path) -> None:
    store = open_store(tmp_path / "tables.db")
    clock = Clock()
    settings = Settings("uno", players=2, people=1, bots="heuristic", options={}, seed=5)
    room = Room.create(CODE, settings, store, clock=clock)
    room.sit(Hello(CODE, name="Ann"), Seen())
    assert room.say(0, "bonjour") is None
    found = store.load(CODE)
    assert found is not None and found.at == 1
    assert [change[0] for _, change in found.log] == ["sit", "say"]
    assert room.quiet_in() == QUIET
    clock.now += QUIET
    assert room.quiet_in() == 0.0
    room.settle()
    found = store.load(CODE)
    assert found is not None and (found.at, found.log) == (3, ()) and room.quiet_in() is None
    assert room.say(0, "encore") is None  # change 4, in the log
    other = Room.load(CODE, store, clock=clock)  # another process takes the table up
    assert other is not None and other.say(0, "ailleurs") is None  # and moves it on: 5
    room.settle()
    assert room.lost and room.snapshot_seq == 3
    found = store.load(CODE)
    assert found is not None and found.at == 3 and [seq for seq, _ in found.log] == [4, 5]
