"""The store: a table's log of changes and its snapshots, the ids of the moves played, a
table's life (expired, retired into a record) and its own secret, for every kind of store
(the ``store`` fixture's parameters: an SQLite file and a database of the private
PostgreSQL), and two processes given the same table at once (exactly one moves it on); then
what only the SQLite file does: WAL mode, its own application id and schema version, a
foreign or newer database refused by name and left as it was, a store of brailledev 0.1 or
of the version before the log brought up to date, and a file that stays bounded as tables
come and go; and what only PostgreSQL does: another program's database or a newer one
refused by name, one of the version before the log brought up to date, the schema made once
by processes starting together, an address nobody answers at, a lost connection, each
change told to the other processes as it commits."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from brailledev.network.store import (
    HISTORY,
    Lifetimes,
    Result,
    Shares,
    StoreConflict,
    Stored,
    StoreFailed,
    TableDamaged,
    TableStore,
    dump_events,
    pack,
    seat_events,
    unpack,
)
from brailledev.network.store_postgres import LISTEN_AGAIN, PostgresStore
from brailledev.network.store_postgres import SCHEMA as PG_SCHEMA
from brailledev.network.store_postgres import VERSION as PG_VERSION
from brailledev.network.store_sqlite import (
    APPLICATION_ID,
    TABLES,
    UPGRADE_2,
    UPGRADE_3,
    VERSION,
    SqliteStore,
)
from brailledev.network.stores import open_store
from brailledev.table.core import Table
from layouts.errors import UserError
from layouts.registry import GAMES, kit
from tests.daemon import free_port
from tests.server.postgres import PrivatePostgres

DAY = 86_400.0
LIFE = Lifetimes(unjoined=DAY, finished=3_600.0, idle=30 * DAY, records=365 * DAY)


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a new store of each kind is: a file, or an empty database of the private
    PostgreSQL."""
    if request.param == "postgresql":
        cluster: PrivatePostgres = request.getfixturevalue("postgres")
        return cluster.database()
    return tmp_path / "tables.db"


@pytest.fixture
def store(where: Path | str) -> Iterator[TableStore]:
    """A new store of each kind."""
    made = open_store(where)
    yield made
    made.close()


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


def test_changes_are_kept_per_seat_in_order_and_a_number_is_never_used_twice(store):
    store.create("abcdef", "uno", {"n": 0}, [["dealt to 0"], ["dealt to 1"]])
    store.commit("abcdef", 2, ["add", 1], [["0 saw"], ["1 saw"]], over=False)
    store.commit("abcdef", 3, ["add", 2], [[], ["only 1"]], over=True)
    assert store.changes("abcdef", 1, 1) == [(2, ["1 saw"]), (3, ["only 1"])]
    assert store.changes("abcdef", 0, 0) == [(1, ["dealt to 0"]), (2, ["0 saw"]), (3, [])]
    assert store.load("abcdef") == Stored({"n": 0}, 1, ((2, ["add", 1]), (3, ["add", 2])))
    assert store.in_play() == [] and store.exists("abcdef") and not store.exists("x")
    with pytest.raises(StoreConflict):
        store.commit("abcdef", 3, ["add", 9], [[], []], over=True)
    with pytest.raises(StoreConflict):
        store.commit("abcdef", 3, ["add", 9], [[], []], over=True, state={"n": 9})
    found = store.load("abcdef")
    assert found is not None and found.seq == 3 and found.state == {"n": 0}


def test_a_share_told_alike_to_several_seats_is_written_once(store):
    """A public move is told alike to every seat: the row holds it once and the number of
    the first seat told it for the others (a quarter of the row at four seats)."""
    public, private = '[{"$":"Played","card":"r7"}]', '[{"$":"Drew","card":"g2"}]'
    hidden = '[{"$":"Drew","card":null}]'
    shares = Shares((public, public, public, public))
    assert dump_events(shares) == f"[{public},0,0,0]"
    assert dump_events(Shares((hidden, private, hidden, hidden))) == \
        f"[{hidden},{private},0,0]"
    store.create("abcdef", "uno", {"n": 0}, [[], [], [], []])
    store.commit("abcdef", 2, ["play"], shares, over=False)
    store.commit("abcdef", 3, ["draw"], Shares((hidden, private, hidden, hidden)), over=False)
    for seat in range(4):
        assert store.changes("abcdef", seat, 1) == [
            (2, json.loads(public)), (3, json.loads(private if seat == 1 else hidden))]
    assert store.changes("abcdef", 6, 1) == [(2, []), (3, [])]  # no such seat: nothing
    # A row written before, one list per seat, reads as it did; a number that does not
    # name an earlier seat's list is a damaged table.
    assert seat_events([[1], [2]], 1) == [2]
    for damaged, seat in (([[1], 1], 1), ([[1], 5], 1), ([0, 0], 1), ({"a": 1}, 0),
                          ([[1], "x"], 1)):
        with pytest.raises(ValueError):
            seat_events(damaged, seat)


def test_a_snapshot_ends_the_log_played_again_and_prunes_all_but_the_history(store):
    store.create("abcdef", "uno", {"n": 0}, [[], []])
    last = HISTORY + 30
    for seq in range(2, last + 1):
        snapshot = {"n": seq} if seq in (10, HISTORY + 20) else None
        store.commit("abcdef", seq, ["add", seq], [[f"{seq}"], []], over=False, state=snapshot)
    assert store.load("abcdef") == Stored({"n": HISTORY + 20}, HISTORY + 20, tuple(
        (seq, ["add", seq]) for seq in range(HISTORY + 21, last + 1)))
    kept = store.changes("abcdef", 0, 0)
    assert [seq for seq, _ in kept] == list(range(21, last + 1))  # HISTORY before the snapshot
    assert kept[0] == (21, ["21"])
    store.snapshot("abcdef", last, {"n": last})
    assert store.load("abcdef") == Stored({"n": last}, last, ())
    assert store.changes("abcdef", 0, 0)[0][0] == last - HISTORY + 1
    with pytest.raises(StoreConflict):  # the table is at change ``last``, not one before
        store.snapshot("abcdef", last - 1, {"n": 0})
    assert store.load("abcdef") == Stored({"n": last}, last, ())


def test_tables_nobody_joined_expire_and_finished_ones_retire_into_records(store):
    now = 1_000_000.0
    for code in ("waiting", "kept", "playing", "finished"):
        store.create(code, "uno", {"code": code}, [[], []])
    store.commit("playing", 2, ["sat"], [["sat"], []], over=False)
    store.commit("finished", 2, ["sat"], [["sat"], []], over=True, state={"over": True})
    census = store.census()
    assert (census.waiting, census.playing, census.finished, census.records) == (2, 1, 1, 0)
    # Made "now" in real time: nothing is old enough yet.
    assert store.expire(now, LIFE, set(), 100) == 0
    assert store.retirable(now, LIFE, set(), 100) == []
    later = 4_000_000_000.0  # a century on: everything is old enough
    assert store.expire(later, LIFE, {"kept"}, 100) == 1
    assert not store.exists("waiting") and store.exists("kept")
    assert sorted(store.retirable(later, LIFE, {"kept"}, 100)) == ["finished", "playing"]
    store.retire("finished", Result((("Ann", "person"), ("", "bot")), (0, 57), over=True))
    store.retire("playing", None)
    record = store.record("finished")
    assert record is not None and record.result.scores == (0, 57) and record.result.over
    assert record.game == "uno" and record.created <= record.ended
    assert store.load("finished") is None and store.changes("finished", 0, 0) == []
    assert store.exists("finished") and not store.exists("playing")
    census = store.census()
    assert (census.waiting, census.playing, census.finished, census.records) == (1, 0, 0, 1)
    assert store.expire(later + 400 * DAY, LIFE, {"kept"}, 100) == 1  # the record's turn
    assert store.record("finished") is None


def test_the_store_keeps_its_secret(where, tmp_path):
    first = open_store(where)
    secret = first.secret()
    first.close()
    again = open_store(where)
    assert again.secret() == secret and len(secret) == 32
    again.close()
    other = open_store(tmp_path / "other.db")
    assert other.secret() != secret
    other.close()


def test_a_store_file_says_what_it_is_and_reopens(tmp_path):
    store = SqliteStore(tmp_path / "tables.db")
    store.create("abcdef", "uno", {"n": 0}, [[], []])
    store.close()
    reopened = SqliteStore(tmp_path / "tables.db")
    assert reopened.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert reopened.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert reopened.db.execute("PRAGMA user_version").fetchone()[0] == VERSION
    assert reopened.db.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental
    assert reopened.load("abcdef") == Stored({"n": 0}, 1)
    reopened.close()


def refused(path: Path | str) -> str:
    with pytest.raises(UserError) as caught:
        open_store(path)
    return caught.value.text("en")


def test_another_programs_database_is_refused_by_name_and_left_as_it_was(tmp_path):
    foreign = tmp_path / "photos.db"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    db.execute("INSERT INTO photos VALUES (1, 'cat.jpg')")
    db.commit()
    db.close()
    before = foreign.read_bytes()
    said = refused(foreign)
    assert said.startswith(f"The file {foreign} is not a brailledev table store")
    assert foreign.read_bytes() == before and not Path(f"{foreign}-wal").exists()
    # Tables of the same names but another program's columns are foreign too.
    lookalike = tmp_path / "lookalike.db"
    db = sqlite3.connect(lookalike)
    db.executescript("CREATE TABLE tables (code TEXT); CREATE TABLE changes (x TEXT);")
    db.close()
    assert "is not a brailledev table store" in refused(lookalike)
    other_id = tmp_path / "other-id.db"
    db = sqlite3.connect(other_id)
    db.executescript("PRAGMA application_id=1234; CREATE TABLE t (x);")
    db.close()
    assert "is not a brailledev table store" in refused(other_id)


def test_a_store_of_a_newer_brailledev_is_refused_by_name(tmp_path):
    newer = tmp_path / "tables.db"
    SqliteStore(newer).close()
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version={VERSION + 1}")
    db.close()
    said = refused(newer)
    assert said == (f"The table store {newer} was written by a newer brailledev (its version "
                    f"{VERSION + 1}, this one knows up to {VERSION}); update brailledev or "
                    f"choose another --db.")


def test_a_file_that_is_not_a_database_is_one_sentence(tmp_path):
    text = tmp_path / "notes.db"
    text.write_text("not a database at all, " * 200)
    assert "cannot be used (file is not a database)" in refused(text)


def test_a_store_of_brailledev_0_1_is_brought_up_to_date_with_its_tables(tmp_path):
    old = tmp_path / "tables.db"
    db = sqlite3.connect(old)
    db.executescript(TABLES)
    db.execute("INSERT INTO tables VALUES ('abcdef', 'uno', '{\"n\": 1}', 2, 0, 1.0, 2.0)")
    db.execute("INSERT INTO changes VALUES ('abcdef', 1, '[[], []]')")
    db.execute("INSERT INTO changes VALUES ('abcdef', 2, '[[\"x\"], []]')")
    db.commit()
    db.close()
    store = SqliteStore(old)
    assert store.load("abcdef") == Stored({"n": 1}, 2)
    assert store.changes("abcdef", 0, 1) == [(2, ["x"])]
    assert store.in_play() == ["abcdef"] and len(store.secret()) == 32
    assert store.db.execute("PRAGMA auto_vacuum").fetchone()[0] == 2
    store.commit("abcdef", 3, ["add", 1], [[], []], over=False, move=(0, "m1"))
    assert logged_moves(store) == [(0, "m1")] and not moves_index(store)
    assert store.load("abcdef") == Stored({"n": 1}, 2, ((3, ["add", 1]),))
    store.close()


def old_store(path: Path, schema: str, version: int, secret: str) -> sqlite3.Connection:
    """A store file as brailledev wrote it at schema ``version`` (``schema``, its tables
    as they were then, and the store's ``secret``), for the test to fill with its rows."""
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(schema)
    db.execute("INSERT INTO meta VALUES ('secret', ?)", (secret,))
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute(f"PRAGMA user_version={version}")
    return db


def test_a_store_of_the_version_before_the_log_is_brought_up_to_date_with_its_tables(
        tmp_path):
    old = tmp_path / "tables.db"
    db = old_store(old, TABLES + UPGRADE_2, 2, "ab" * 32)
    db.execute("INSERT INTO tables VALUES ('abcdef', 'uno', '{\"n\":3}', 3, 0, 1.0, 2.0)")
    for seq in (1, 2, 3):
        db.execute("INSERT INTO changes VALUES ('abcdef', ?, ?, 1, ?)",
                   (seq, f'[["{seq}"], []]', f"m{seq}"))
    db.close()
    store = SqliteStore(old)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == VERSION == 5
    holds_the_table_as_a_snapshot_and_logs_on(store, "ab" * 32)


def test_a_store_of_the_version_before_the_move_in_one_statement_is_brought_up_to_date(
        tmp_path):
    old = tmp_path / "tables.db"
    db = old_store(old, TABLES + UPGRADE_2 + UPGRADE_3, 3, "cd" * 32)
    db.execute("INSERT INTO tables VALUES ('abcdef', 'uno', 3, 0, 1.0, 2.0)")
    db.execute("INSERT INTO snapshots VALUES ('abcdef', 3, '{\"n\":3}')")
    for seq in (1, 2, 3):
        db.execute("INSERT INTO changes VALUES ('abcdef', ?, ?, 1, ?, NULL)",
                   (seq, f'[["{seq}"], []]', f"m{seq}"))
    db.close()
    store = SqliteStore(old)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == VERSION
    with pytest.raises(StoreConflict):  # the one statement's guard: change 3 is there
        store.commit("abcdef", 3, ["add", 1], [[], []], over=False)
    holds_the_table_as_a_snapshot_and_logs_on(store, "cd" * 32)


def logged_moves(store: Any) -> list[tuple[int, str]]:
    """The (seat, move id) of every change of table ``abcdef`` the log holds with a move."""
    return [(int(seat), str(move)) for seat, move in store.db.execute(
        "SELECT seat, move FROM changes WHERE code = 'abcdef' AND move IS NOT NULL "
        "ORDER BY seq").fetchall()]


def moves_index(store: Any) -> bool:
    """Whether the index of the moves' ids (dropped in SQLite's version 5, PostgreSQL's 3:
    it cost a fifth of a move's commit) is still there."""
    query = ("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'moves'"
             if isinstance(store, SqliteStore) else
             "SELECT 1 FROM pg_indexes WHERE indexname = 'moves'")
    return bool(store.db.execute(query).fetchall())


def holds_the_table_as_a_snapshot_and_logs_on(store: TableStore, secret: str) -> None:
    """What a store brought up from the version before the log holds: table ``abcdef``'s
    state (``{"n": 3}`` after change 3) as its snapshot, its changes and move ids, its
    secret; the next change goes into the log."""
    assert store.load("abcdef") == Stored({"n": 3}, 3)
    assert store.changes("abcdef", 0, 1) == [(2, ["2"]), (3, ["3"])]
    assert logged_moves(store) == [(1, "m1"), (1, "m2"), (1, "m3")]
    assert not moves_index(store)
    assert store.secret() == bytes.fromhex(secret)
    store.commit("abcdef", 4, ["add", 1], [[], []], over=False)
    assert store.load("abcdef") == Stored({"n": 3}, 3, ((4, ["add", 1]),))
    store.close()


def test_a_damaged_row_is_that_tables_alone(tmp_path):
    store = SqliteStore(tmp_path / "tables.db")
    store.create("broken", "uno", {"n": 0}, [[], []])
    store.create("fine", "uno", {"n": 0}, [[], []])
    store.create("holed", "uno", {"n": 0}, [[], []])
    store.db.execute("UPDATE snapshots SET state = '{\"n\": ' WHERE code = 'broken'")
    store.commit("holed", 2, ["add", 1], [[], []], over=False)
    store.commit("holed", 3, ["add", 1], [[], []], over=False)
    store.db.execute("DELETE FROM changes WHERE code = 'holed' AND seq = 2")
    for code in ("broken", "holed"):
        with pytest.raises(TableDamaged) as caught:
            store.load(code)
        assert caught.value.code == code
    assert store.load("fine") == Stored({"n": 0}, 1)
    store.close()


def test_the_file_stays_bounded_as_tables_come_and_expire(tmp_path):
    path = tmp_path / "tables.db"
    store = SqliteStore(path)
    state = {"state": "x" * 6_000}  # a table's size, about

    def size() -> int:
        return path.stat().st_size + Path(f"{path}-wal").stat().st_size

    sizes = []
    for round_ in range(4):
        for number in range(300):
            code = f"r{round_}t{number}"
            store.create(code, "uno", state, [["dealt"], ["dealt"]])
        peak = size()
        assert store.expire(4_000_000_000.0, LIFE, set(), 1_000) == 300
        store.compact()
        sizes.append((peak, size()))
    peaks = [peak for peak, _ in sizes]
    assert max(peaks) < 1.3 * peaks[0]  # the room given back is used again
    assert all(after < peak / 4 for peak, after in sizes)  # and given back to the system
    store.close()


# A second process moving a table on: it loads change ``seq`` of the table, waits for the
# test's word, then commits change ``seq + 1``; it prints what happened.
MOVER = """
import sys
from brailledev.network.store import StoreConflict
from brailledev.network.store_postgres import LISTEN_AGAIN, PostgresStore
from brailledev.network.store_postgres import VERSION as PG_VERSION
from brailledev.network.stores import open_store
store = open_store(sys.argv[1])
seq = store.load("abcdef").seq
print("loaded", seq, flush=True)
sys.stdin.readline()
try:
    store.commit("abcdef", seq + 1, ["by", sys.argv[2]], [[sys.argv[2]], []], over=False,
                 state={"by": sys.argv[2]} if sys.argv[2] == "B" else None)
    print("moved", flush=True)
except StoreConflict:
    print("conflict", flush=True)
store.close()
"""


def test_two_processes_given_the_same_table_at_once_exactly_one_moves_it_on(where):
    store = open_store(where)
    store.create("abcdef", "uno", {"by": "none"}, [[], []])
    store.commit("abcdef", 2, ["by", "first"], [[], []], over=False)
    movers = [subprocess.Popen([sys.executable, "-c", MOVER, str(where), name],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
              for name in ("A", "B")]
    for mover in movers:  # both hold change 2 before either moves on
        assert mover.stdout is not None and mover.stdout.readline().split() == ["loaded", "2"]
    for mover in movers:
        assert mover.stdin is not None
        mover.stdin.write("go\n")
        mover.stdin.flush()
    said = sorted(mover.communicate(timeout=30)[0].strip() for mover in movers)
    assert said == ["conflict", "moved"]
    found = store.load("abcdef")
    assert found is not None and found.seq == 3
    # A moved with a log row alone, B with a snapshot too: the store holds the one who did.
    by = found.state["by"] if found.at == 3 else found.log[-1][1][1]
    assert [events for _, events in store.changes("abcdef", 0, 2)] == [[by]]
    assert found in (Stored({"by": "none"}, 1, ((2, ["by", "first"]), (3, ["by", "A"]))),
                     Stored({"by": "B"}, 3))
    store.close()


def test_a_postgresql_database_of_another_program_is_refused_by_name_and_left(postgres):
    address = postgres.database()
    postgres.execute(address, "CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    postgres.execute(address, "INSERT INTO photos VALUES (1, 'cat.jpg')")
    said = refused(address)
    assert said == (f"The PostgreSQL database {address} holds another program's tables; it is "
                    "left as it is: give brailledev a database of its own with --db.")
    assert postgres.execute(address, "SELECT table_name FROM information_schema.tables "
                            "WHERE table_schema = 'public'") == [("photos",)]


def test_a_postgresql_database_of_a_newer_brailledev_is_refused_by_name(postgres):
    address = postgres.database()
    PostgresStore(address).close()
    postgres.execute(address, f"UPDATE brailledev_meta SET value = '{PG_VERSION + 1}' "
                     "WHERE key = 'version'")
    assert refused(address).startswith(
        f"The PostgreSQL database {address} was set up by a newer brailledev (its version "
        f"{PG_VERSION + 1}, this one knows up to {PG_VERSION})")


def test_a_postgresql_database_of_the_version_before_the_log_is_brought_up_to_date(postgres):
    address = postgres.database()
    for statement in PG_SCHEMA.split(";"):
        postgres.execute(address, statement)
    postgres.execute(address, "INSERT INTO brailledev_meta VALUES ('version', '1'), "
                     f"('secret', '{'cd' * 32}')")
    postgres.execute(address, "INSERT INTO tables VALUES ('abcdef', 'uno', '{\"n\":3}', 3, "
                     "FALSE, 1.0, 2.0)")
    for seq in (1, 2, 3):
        postgres.execute(address, f"INSERT INTO changes VALUES ('abcdef', {seq}, "
                         f"'[[\"{seq}\"], []]', 1, 'm{seq}')")
    store = PostgresStore(address)
    assert postgres.execute(address, "SELECT value FROM brailledev_meta WHERE key = 'version'"
                            ) == [(str(PG_VERSION),)] and PG_VERSION == 3
    holds_the_table_as_a_snapshot_and_logs_on(store, "cd" * 32)


def test_processes_starting_together_make_the_schema_once(postgres):
    address = postgres.database()
    opened = [subprocess.Popen([sys.executable, "-c", "import sys\n"
                                "from brailledev.network.stores import open_store\n"
                                "print(open_store(sys.argv[1]).secret().hex())",
                                address], stdout=subprocess.PIPE, text=True)
              for _ in range(4)]
    secrets = {process.communicate(timeout=60)[0].strip() for process in opened}
    assert all(process.returncode == 0 for process in opened) and len(secrets) == 1


def test_an_address_nobody_answers_at_is_one_sentence_without_its_password(postgres):
    port = free_port()
    with pytest.raises(UserError) as caught:
        open_store(f"postgresql://ann:hidden@127.0.0.1:{port}/tables")
    said = caught.value.text("en")
    assert said.startswith(f"No PostgreSQL database answers at postgresql://ann@127.0.0.1:"
                           f"{port}/tables (") and "hidden" not in said
    assert said.endswith("start it, check the address, or choose another --db.")


def test_a_lost_connection_fails_one_change_and_the_next_connects_again(postgres):
    store = PostgresStore(postgres.database())
    store.create("abcdef", "uno", {"n": 0}, [[], []])
    postgres.execute(postgres.admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE application_name = 'brailledev serve'")
    with pytest.raises(StoreFailed):
        store.commit("abcdef", 2, ["add", 1], [[], []], over=False)
    store.resting_until = 0.0  # past the rest
    store.commit("abcdef", 2, ["add", 1], [[], []], over=False)
    assert store.load("abcdef") == Stored({"n": 0}, 1, ((2, ["add", 1]),))
    store.close()


def test_each_change_committed_is_told_and_one_made_while_nobody_listened_too(postgres):
    address = postgres.database()
    store, other = PostgresStore(address), PostgresStore(address)
    store.create("abcdef", "uno", {"n": 0}, [[], []])
    listener = "WHERE application_name = 'brailledev serve listening'"

    async def told() -> list[tuple[str, int]]:
        heard: list[tuple[str, int]] = []
        listening = asyncio.create_task(store.listen(
            lambda: ["abcdef"], lambda code, seq: heard.append((code, seq))))

        async def heard_of(seq: int, seconds: float) -> None:
            deadline = time.monotonic() + seconds
            while heard[-1:] != [("abcdef", seq)]:
                assert time.monotonic() < deadline, heard
                await asyncio.sleep(0.01)

        await heard_of(1, 5)  # where the table held is once listening
        other.commit("abcdef", 2, ["add", 1], [[], []], over=False)
        await heard_of(2, 5)
        with pytest.raises(StoreConflict):  # not committed: nobody is told
            other.commit("abcdef", 2, ["add", 9], [[], []], over=False)
        postgres.execute(postgres.admin,
                         f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity {listener}")
        while postgres.execute(postgres.admin, f"SELECT 1 FROM pg_stat_activity {listener}"):
            time.sleep(0.01)
        # Moved on while nobody listens (the loop has not run since): told once back.
        other.commit("abcdef", 3, ["add", 2], [[], []], over=False, state={"n": 3})
        await heard_of(3, LISTEN_AGAIN + 5)
        listening.cancel()
        return heard

    assert asyncio.run(told()) == [("abcdef", 1), ("abcdef", 2), ("abcdef", 3)]
    store.close()
    other.close()
