"""The store: a table's state and its changes in SQLite, in WAL mode; random generators'
states packed small and read back exactly, for every game's table and bots."""

from __future__ import annotations

import json
import sqlite3

import pytest

from brailledev.network.store import Store, pack, unpack
from brailledev.table.core import Table
from layouts.registry import GAMES, kit


@pytest.mark.parametrize("game", GAMES)
def test_a_tables_state_with_its_bots_reads_back_exactly_and_smaller(game):
    engine = kit(game).game
    table = Table.new(game, max(engine.min_players, 3), seed=8, people=(),
                      bots=",".join(kit(game).bots))
    table.run_bots(15)
    state = json.loads(json.dumps(table.to_dict()))
    stored = json.dumps(pack(state))
    assert unpack(json.loads(stored)) == state
    assert len(stored) < len(json.dumps(state)) * 0.7
    again = Table.from_dict(unpack(json.loads(stored)))
    assert again.to_dict() == table.to_dict()


def test_changes_are_kept_per_seat_in_order_and_a_table_reloads(tmp_path):
    store = Store(tmp_path / "tables.db")
    store.create("abcdef", "uno", {"n": 0}, [["dealt to 0"], ["dealt to 1"]])
    store.commit("abcdef", 2, {"n": 1}, [["0 saw"], ["1 saw"]], over=False)
    store.commit("abcdef", 3, {"n": 2}, [[], ["only 1"]], over=True)
    assert store.changes("abcdef", 1, 1) == [(2, ["1 saw"]), (3, ["only 1"])]
    assert store.changes("abcdef", 0, 0) == [(1, ["dealt to 0"]), (2, ["0 saw"]), (3, [])]
    assert store.load("abcdef") == ({"n": 2}, 3)
    assert store.unfinished() == [] and store.exists("abcdef") and not store.exists("x")
    with pytest.raises(sqlite3.IntegrityError):  # a change number is never used twice
        store.commit("abcdef", 3, {"n": 9}, [[], []], over=True)
    assert store.load("abcdef") == ({"n": 2}, 3)
    store.close()
    reopened = Store(tmp_path / "tables.db")
    assert reopened.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert reopened.load("abcdef") == ({"n": 2}, 3)
