"""The table server on the open internet (issue 31): each of the ten findings of the attack
on ``brailledev serve``, against a real ``serve`` process. Nobody fills it (limits per
address, tables that expire, a file that stays bounded), nobody reads a hand through a
failed sit-down, talk with web seats stays small, a full disk or a locked store is HTTP 503
and one sentence, a foreign or newer database is refused by name and a damaged table alone,
another site's pages get nothing, codes cannot be swept, every answer carries careful
headers, the log says one line per offender a minute, and a move id sent again is answered,
never played, however old."""

from __future__ import annotations

import asyncio
import html
import http.cookiejar
import json
import re
import resource
import sqlite3
import stat
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from brailledev.network.client import TableClient, WireBot
from brailledev.network.protocol import PROTOCOL
from brailledev.network.server import room as room_module
from brailledev.network.server.app import CODE_LENGTH, CODE_LETTERS
from brailledev.network.store import HISTORY
from brailledev.network.store_sql import REST
from brailledev.network.store_sqlite import VERSION
from brailledev.network.web.page import STATIC
from tests.server.helpers import (
    BRAILLEDEV,
    Raw,
    ServeProcess,
    new_table,
    post,
    request,
    store_locked,
)

UNO = {"game": "uno", "players": 2, "people": 2, "seed": 5, "pace": 0}
LIFTED = ("--tables-per-hour", "100000", "--tries-per-minute", "100000")


def rss_mb(pid: int) -> float:
    """A process's resident memory, from the kernel (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def from_address(address: str) -> dict[str, str]:
    """What a proxy in front adds to a request of a client at ``address``."""
    return {"X-Forwarded-For": f"10.0.0.9, {address}"}


def one_line(said: str) -> str:
    assert said.startswith("brailledev: ") and said.count("\n") == 1, said
    assert "Traceback" not in said
    return said.removeprefix("brailledev: ").strip()


Form = Callable[..., tuple[int, Any, str]]


def form_page(url: str, headers: dict[str, str] | None = None) -> Form:
    """A browser at the form (French), with its cookie and its form's token: the function
    that sends it with ``form`` (and an ``origin``), returning status, headers, page."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    asked = urllib.request.Request(f"{url}/?lang=fr", headers=headers or {})
    with opener.open(asked, timeout=10) as answer:
        token = re.search(r'name="form_token" value="([0-9a-f]+)"', answer.read().decode())
    assert token is not None

    def send(form: dict[str, str], origin: str | None = None) -> tuple[int, Any, str]:
        sent = urllib.request.Request(
            f"{url}/?lang=fr", data=urllib.parse.urlencode(
                {**form, "form_token": token.group(1)}).encode(),
            headers={**(headers or {}), **({"Origin": origin} if origin else {})})
        try:
            with opener.open(sent, timeout=10) as answer:
                return answer.status, answer.headers, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read().decode()
    return send


def records(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as reader:
        return int(reader.execute("SELECT count(*) FROM records").fetchone()[0])


def serve_refusal(*args: str, lang: str = "C.UTF-8") -> tuple[int, str]:
    """``brailledev serve ARGS`` that must refuse at once: its status and what it said."""
    done = subprocess.run([str(BRAILLEDEV), "serve", "--port", "1", *args],
                          env={"PATH": "/usr/bin:/bin", "LANG": lang, "HOME": "/nonexistent"},
                          capture_output=True, text=True, timeout=60, check=False)
    return done.returncode, done.stderr


# ---- 1. Anyone could fill the server for good -----------------------------------------------

def test_1_one_address_makes_its_few_tables_an_hour_and_is_told_why_not(tmp_path):
    with ServeProcess(tmp_path / "tables.db", "--tables-per-hour", "3",
                      "--trust-proxy", "--open") as serve:
        answers = [post(serve.url, UNO, from_address("203.0.113.7")) for _ in range(3)]
        assert [status for status, _ in answers] == [201, 201, 201]
        status, headers, body = request(f"{serve.url}/tables", UNO, {
            **from_address("203.0.113.7"), "Accept-Language": "fr"})
        refused = json.loads(body)
        assert status == 429 and 3_500 <= int(headers["Retry-After"]) <= 3_600
        assert refused["error"] == "too_many_tables"
        assert refused["text"] == ("Cette adresse a créé 3 tables dans l'heure, autant que "
                                   "le serveur le permet ; réessayez dans 60 minutes.")
        assert post(serve.url, UNO, from_address("203.0.113.8"))[0] == 201
        # The form says it too, as a page in the page's language.
        send = form_page(serve.url, from_address("203.0.113.7"))
        status, headers, page = send({"game": "uno", "players": "2", "people": "2"})
        assert status == 429 and int(headers["Retry-After"]) > 3_500
        assert "Cette adresse a créé 3 tables dans l&#x27;heure" in page
    # Without --trust-proxy a client cannot pass itself off as another.
    with ServeProcess(tmp_path / "other.db", "--tables-per-hour", "2") as serve:
        statuses = [post(serve.url, UNO, from_address(f"198.51.100.{n}"))[0]
                    for n in range(3)]
        assert statuses == [201, 201, 429]


def test_1_an_address_holds_few_connections_not_at_a_seat_and_players_come_back(tmp_path):
    # A school behind one address: its players' connections are bounded by the seats, and
    # those of a table taken up after a takeover come back with their keys whatever it holds.
    with ServeProcess(tmp_path / "tables.db", "--connections", "2", "--trust-proxy",
                      "--open") as serve:
        code = new_table(serve.url, **{**UNO, "players": 4, "people": 4})
        other = new_table(serve.url, **UNO)
        school, home = from_address("203.0.113.7"), from_address("192.0.2.1")

        async def newcomer(session: aiohttp.ClientSession) -> list[Any]:
            """A new player at the school sits down at the other table: what they are told."""
            async with Raw(session, serve.url, school) as eve:
                told = await eve.hello(other, name="Eve")
                if told["type"] == "welcome":
                    return ["welcome"]
                return [told["code"], (await eve.until("never"))["type"]]

        async def visit() -> list[list[Any]]:
            async with aiohttp.ClientSession() as session:
                ann, bea, cid, dan, idle, idle_too = (
                    Raw(session, serve.url, address)
                    for address in (school, school, home, home, school, school))
                keys = []
                for client, name in ((ann, "Ann"), (bea, "Bea"), (cid, "Cid"), (dan, "Dan")):
                    await client.__aenter__()
                    keys.append((await client.hello(code, name=name))["token"])
                for client in (idle, idle_too):  # at no seat: the school's limit
                    await client.__aenter__()
                said = [await newcomer(session)]
                # Cid and Dan come to the school, and back to their seats from there.
                backs = [Raw(session, serve.url, school) for _ in range(2)]
                for old, new, key in zip((cid, dan), backs, keys[2:], strict=True):
                    await old.__aexit__()
                    await new.__aenter__()
                    said.append([(await new.hello(code, token=key))["type"]])
                said.append(await newcomer(session))  # the limit holds for the others
                await idle.__aexit__()  # room for one, the seated ones counting nothing
                said.append(await newcomer(session))
                for client in (ann, bea, idle_too, *backs):
                    await client.__aexit__()
                return said

        assert asyncio.run(visit()) == [["too_many_connections", "closed"], ["welcome"],
                                        ["welcome"], ["too_many_connections", "closed"],
                                        ["welcome"]]


def test_1_tables_nobody_joined_expire_and_the_file_stays_bounded(tmp_path):
    db, wal = tmp_path / "tables.db", tmp_path / "tables.db-wal"

    def tables() -> int:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as reader:
            return int(reader.execute("SELECT count(*) FROM tables").fetchone()[0])

    peaks, afters, logs = [], [], []
    with ServeProcess(db, "--expire-unjoined", "2s", *LIFTED) as serve:
        for _ in range(3):
            for _ in range(150):
                assert post(serve.url, UNO)[0] == 201
            peaks.append(db.stat().st_size)
            logs.append(wal.stat().st_size)
            deadline = time.monotonic() + 30
            while tables() or db.stat().st_size > 100_000:
                assert time.monotonic() < deadline, (tables(), db.stat().st_size)
                time.sleep(0.2)
            afters.append(db.stat().st_size)
    # 150 tables take about 1 MB (how much of it is in the file or still in the log when
    # looked at depends on the checkpoints); each sweep gives it all back to the system,
    # and the write-ahead log is cut back at each checkpoint.
    assert max(peaks) < 3 << 20, peaks
    assert max(afters) < 100_000, (peaks, afters)
    assert max(logs) < 6 << 20, logs
    assert "tables expired or retired" in serve.output()


def test_1_serve_says_how_many_tables_it_holds(tmp_path):
    db = tmp_path / "tables.db"
    with ServeProcess(db) as serve:
        codes = [new_table(serve.url, **UNO) for _ in range(3)]

        async def sit() -> None:
            async with aiohttp.ClientSession() as session, Raw(session, serve.url) as ann:
                assert (await ann.hello(codes[0], name="Ann"))["type"] == "welcome"
        asyncio.run(sit())
    with ServeProcess(db, lang="fr_FR.UTF-8") as serve:
        said = serve.output()
    assert ("Le fichier garde 3 tables (personne assis encore : 2, en cours : 1, finies : 0) "
            "et 0 traces de parties passées.") in said


def test_1_a_finished_table_becomes_a_short_record(tmp_path):
    with ServeProcess(tmp_path / "tables.db", "--keep-finished", "1s") as serve:
        code = new_table(serve.url, game="uno", players=2, people=1, seed=3, pace=0,
                         options={"match_target": 0})

        async def play_to_the_end() -> None:
            bot = WireBot(serve.url, code, "uno", seed=1, name="Ann")
            task = asyncio.get_running_loop().create_task(bot.client.run())
            await asyncio.wait_for(bot.over.wait(), 60)
            await bot.client.stop()
            await task
        asyncio.run(play_to_the_end())
        deadline = time.monotonic() + 30
        # Watched in the file: asking the server would hold the table in its memory.
        while not records(tmp_path / "tables.db"):
            assert time.monotonic() < deadline
            time.sleep(0.2)
        status, _, body = request(f"{serve.url}/tables/{code}")
        info = json.loads(body)
        assert status == 200 and info["retired"] and info["over"] and info["game"] == "uno"
        assert [seat["name"] for seat in info["seats"]] == ["Ann", ""]
        assert [seat["kind"] for seat in info["seats"]] == ["person", "bot"]
        assert len(info["scores"]) == 2 and info["created"] <= info["ended"]
        status, _, page = request(f"{serve.url}/t/{code}?lang=en")
        assert status == 200 and "The game of Uno at table" in page

        async def hello() -> dict[str, Any]:
            async with aiohttp.ClientSession() as session, Raw(session, serve.url) as eve:
                return await eve.hello(code, name="Eve")
        assert asyncio.run(hello())["code"] == "table_over"
    with sqlite3.connect(tmp_path / "tables.db") as db:
        assert db.execute("SELECT count(*) FROM changes WHERE code = ?",
                          (code,)).fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM tables").fetchone() == (0,)


def test_1_the_owner_decides_who_makes_tables(tmp_path):
    status, said = serve_refusal("--host", "0.0.0.0", "--db", str(tmp_path / "t.db"))
    assert status == 2 and one_line(said) == (
        "Listening on 0.0.0.0 lets anyone on the network in: say who may make tables, "
        "--open for anyone or --key-file FILE for whoever has the owner's key.")
    status, said = serve_refusal("--trust-proxy", "--db", str(tmp_path / "t.db"))
    assert status == 2 and one_line(said).startswith(
        "Behind a proxy anyone who reaches it comes in: say who may make tables")
    status, said = serve_refusal("--open", "--key-file", str(tmp_path / "k"),
                                 lang="fr_FR.UTF-8")
    assert status == 2 and one_line(said).startswith("--open laisse tout le monde")
    key_file = tmp_path / "owner.key"
    with ServeProcess(tmp_path / "tables.db", "--key-file", str(key_file)) as serve:
        assert f"A new owner's key is in {key_file}" in serve.output()
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        key = key_file.read_text().strip()
        assert len(key) >= 32
        status, refused = post(serve.url, UNO)
        assert (status, refused["error"]) == (401, "owner_key_needed")
        status, refused = post(serve.url, UNO, {"Authorization": "Bearer not-the-key"})
        assert (status, refused["error"]) == (403, "owner_key_wrong")
        assert post(serve.url, UNO, {"Authorization": f"Bearer {key}"})[0] == 201
        made = subprocess.run([str(BRAILLEDEV), "table", "new", "uno", "--server", serve.url,
                               "--key-file", str(key_file)], capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, timeout=60)
        assert made.returncode == 0 and "is ready" in made.stdout
        refused_cli = subprocess.run([str(BRAILLEDEV), "table", "new", "uno", "--server",
                                      serve.url], capture_output=True, text=True,
                                     env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                                     timeout=60)
        assert refused_cli.returncode == 2
        assert one_line(refused_cli.stderr).startswith(
            "This server makes tables for its owner only")
        _, _, form = request(f"{serve.url}/?lang=en")
        assert 'type="password"' in form and "The owner&#x27;s key" in form


# ---- 2. A failed sit-down leaked the next player's hand ------------------------------------

def test_2_a_sit_down_the_store_refuses_leaves_the_connection_unseated_and_told(tmp_path):
    db = tmp_path / "tables.db"
    with ServeProcess(db) as serve:
        code = new_table(serve.url, **UNO)

        async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            async with aiohttp.ClientSession() as session:
                eve = await Raw(session, serve.url).__aenter__()
                ann = TableClient(serve.url, code, name="Ann")
                with store_locked(db):
                    await eve.send(type="hello", protocol=PROTOCOL, code=code, name="Eve")
                    eve_got = [await eve.until("welcome", "news", "screen", "error", "closed",
                                               timeout=10)]
                    while eve_got[-1]["type"] != "closed":
                        eve_got.append(await eve.until("welcome", "news", "screen", "error",
                                                       "closed", timeout=10))
                    ann_got: list[dict[str, Any]] = []
                    ann.on_frame = ann_got.append
                    running = asyncio.get_running_loop().create_task(ann.run())
                    while not ann_got:
                        await asyncio.sleep(0.05)
                # Ann's client comes back by itself and sits once the store takes commits.
                await asyncio.wait_for(ann.connected.wait(), REST + 20)
                bea = await Raw(session, serve.url).__aenter__()
                assert (await bea.hello(code, name="Bea"))["type"] == "welcome"
                await bea.send(type="say", text="hello Ann")
                await bea.heard("hello Ann")
                await bea.__aexit__()
                await ann.stop()
                await running
                return eve_got, ann_got

        eve_got, ann_got = asyncio.run(scenario())
        status, _, body = request(f"{serve.url}/tables/{code}")
    assert eve_got[0] == {"type": "error", "code": "store_failed", "params": {}}
    assert [frame["type"] for frame in eve_got[1:]] == ["closed"]
    assert ann_got[0] == {"type": "error", "code": "store_failed", "params": {}}
    assert any(frame["type"] == "welcome" for frame in ann_got)
    assert status == 200
    assert [seat["name"] for seat in json.loads(body)["seats"]] == ["Ann", "Bea"]
    assert "Traceback" not in serve.output()


# ---- 3. Talk with a web seat grew memory and traffic quadratically -------------------------

TALK_RATE, TALK_SECONDS = 44, 20


async def read_frames(raw: Raw, frames: list[str], stop: asyncio.Event) -> None:
    assert raw.ws is not None
    while not stop.is_set():
        try:
            message = await asyncio.wait_for(raw.ws.receive(), 0.5)
        except TimeoutError:
            continue
        if message.type != aiohttp.WSMsgType.TEXT:
            return
        frames.append(message.data)


def test_3_talk_at_the_limit_with_two_web_seats_keeps_frames_and_memory_small(tmp_path):
    with ServeProcess(tmp_path / "tables.db") as serve:
        code = new_table(serve.url, game="uno", players=3, people=3, seed=5)

        async def scenario() -> tuple[list[list[str]], list[str], float, float]:
            async with aiohttp.ClientSession() as session:
                webs = [await Raw(session, serve.url).__aenter__() for _ in range(2)]
                for web, name in zip(webs, ("Wil", "Wen"), strict=True):
                    assert (await web.hello(code, name=name, web=True))["type"] == "welcome"
                talker = await Raw(session, serve.url).__aenter__()
                assert (await talker.hello(code, name="Tom"))["type"] == "welcome"
                frames: list[list[str]] = [[], []]
                talked: list[str] = []
                stop = asyncio.Event()
                readers = [asyncio.get_running_loop().create_task(read_frames(web, got, stop))
                           for web, got in zip(webs, frames, strict=True)]
                drained = asyncio.get_running_loop().create_task(
                    read_frames(talker, talked, stop))
                await asyncio.sleep(1)
                before = rss_mb(serve.pid)
                due = time.monotonic()
                for number in range(TALK_RATE * TALK_SECONDS):
                    await talker.send(type="say", text=f"line {number} " + "x" * 100)
                    # Kept waiting by a loaded machine, the talker does not burst to catch up.
                    due = max(due + 1 / TALK_RATE, time.monotonic() - 1)
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                await asyncio.sleep(2)
                after = rss_mb(serve.pid)
                stop.set()
                await asyncio.gather(*readers, drained)
                for client in (*webs, talker):
                    await client.__aexit__()
                return frames, talked, before, after

        frames, talked, before, after = asyncio.run(scenario())
    lines = TALK_RATE * TALK_SECONDS
    # Talk is told as a sentence of its own (issue 32.6): "Tom says: line 7 xx...x."
    order = {f"Tom says: line {number} " + "x" * 100 + ".": number for number in range(lines)}
    told = []
    for got in frames:
        said = [text for frame in got for text in json.loads(frame).get("messages", [])]
        told.append([order[text] for text in said if text.startswith("Tom says: line ")])
        sizes = sorted(len(frame.encode()) for frame in got)
        assert sizes[-1] < 16_000, sizes[-5:]  # no frame carries the whole talk again
        assert sum(sizes) < lines * 1_000, sum(sizes)  # about one line's worth each
    # Every line, in order, to both pages; on a machine so loaded that the server was kept
    # waiting, a few lines bunched up past the rate, told to the talker as too fast.
    assert told[0] == told[1] == sorted(set(told[0])) and len(told[0]) > 0.9 * lines
    assert len(told[0]) == lines or any('"too_fast"' in frame for frame in talked)
    assert after - before < 25, (before, after)
    with sqlite3.connect(tmp_path / "tables.db") as db:
        state = db.execute("SELECT length(state) FROM snapshots").fetchone()[0]
    assert state < 20_000  # the table, not the talk nor the pages' histories


# ---- 4. A full disk answered 500 with a traceback ------------------------------------------

def test_4_a_full_disk_is_http_503_and_one_sentence_never_500(tmp_path):
    db = tmp_path / "tables.db"
    with ServeProcess(db) as serve:
        code = new_table(serve.url, **UNO)
        made = [new_table(serve.url, **UNO) for _ in range(2)]
        # The disk is full for the server: no file of it may grow past what it is now.
        full = max(db.stat().st_size, Path(f"{db}-wal").stat().st_size)
        resource.prlimit(serve.pid, resource.RLIMIT_FSIZE, (full, resource.RLIM_INFINITY))
        status, headers, body = request(f"{serve.url}/tables", UNO)
        refused = json.loads(body)
        assert status == 503 and 1 <= int(headers["Retry-After"]) <= REST
        assert refused["error"] == "store_busy" and refused["text"].startswith(
            "The server cannot save tables just now; nothing changed, try again in")
        send = form_page(serve.url)
        status, headers, page = send({"game": "uno", "players": "2", "people": "2"})
        assert status == 503 and "Retry-After" in headers
        assert "Le serveur ne peut pas enregistrer les tables pour l&#x27;instant" in page

        async def sit() -> dict[str, Any]:
            async with aiohttp.ClientSession() as session, Raw(session, serve.url) as eve:
                return await eve.hello(code, name="Eve")
        assert asyncio.run(sit())["code"] == "store_failed"
        resource.prlimit(serve.pid, resource.RLIMIT_FSIZE,
                         (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        time.sleep(REST)
        assert post(serve.url, UNO)[0] == 201
        assert all(request(f"{serve.url}/tables/{each}")[0] == 200 for each in made)
    said = serve.output()
    assert "Traceback" not in said and " 500 " not in said
    assert len([line for line in said.splitlines() if "brailledev.network.store" in line]) == 1


# ---- 5. Another program's database, a damaged row ------------------------------------------

def test_5_a_foreign_or_newer_database_is_refused_by_name_and_left_as_it_was(tmp_path):
    photos = tmp_path / "photos.db"
    with sqlite3.connect(photos) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    before = photos.read_bytes()
    status, said = serve_refusal("--db", str(photos))
    assert status == 2 and one_line(said) == (
        f"The file {photos} is not a brailledev table store (another program's database?); "
        f"it is left as it is: choose another --db.")
    assert photos.read_bytes() == before
    newer = tmp_path / "tables.db"
    with ServeProcess(newer):
        pass
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version={VERSION + 1}")
    status, said = serve_refusal("--db", str(newer), lang="fr_FR.UTF-8")
    assert status == 2 and one_line(said).startswith(
        f"Le fichier des tables {newer} a été écrit par un brailledev plus récent")


def test_5_a_damaged_table_is_refused_alone_while_the_others_play_on(tmp_path):
    db = tmp_path / "tables.db"
    serve = ServeProcess(db)
    with serve:
        broken, fine = new_table(serve.url, **UNO), new_table(serve.url, **UNO)
    with sqlite3.connect(db) as store:
        store.execute("UPDATE snapshots SET state = json_set(state, '$.seats[0].kind', 'ghost') "
                      "WHERE code = ?", (broken,))
    with serve:
        for _ in range(3):
            status, _, body = request(f"{serve.url}/tables/{broken}")
            assert status == 409 and json.loads(body)["error"] == "table_damaged"
        status, _, page = request(f"{serve.url}/t/{broken}?lang=fr")
        assert status == 409 and f"La table {broken} est abîmée" in html.unescape(page)

        async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
            async with aiohttp.ClientSession() as session:
                async with Raw(session, serve.url) as eve:
                    refused = await eve.hello(broken, name="Eve")
                ann, bea = Raw(session, serve.url), Raw(session, serve.url)
                for client, name in ((ann, "Ann"), (bea, "Bea")):
                    await client.__aenter__()
                    assert (await client.hello(fine, name=name))["type"] == "welcome"
                await ann.send(type="say", text="still playing")
                heard = await bea.heard("still playing")
                for client in (ann, bea):
                    await client.__aexit__()
                return refused, heard

        refused, heard = asyncio.run(scenario())
    assert refused["code"] == "table_damaged" and heard["events"]
    said = serve.output()
    assert "Traceback" not in said
    assert len([line for line in said.splitlines() if f"table {broken}: damaged" in line]) == 1


# ---- 6. Another site's pages made tables and took seats ------------------------------------

def test_6_another_sites_pages_cannot_make_tables_nor_sit(tmp_path):
    with ServeProcess(tmp_path / "tables.db", "--allow-origin",
                      "https://games.example.org") as serve:
        own = serve.url
        for origin, allowed in (("http://evil.example", False), ("null", False),
                                (own, True), ("https://games.example.org", True)):
            status, refused = post(serve.url, UNO, {"Origin": origin})
            assert (status == 201) == allowed, (origin, status, refused)
            if not allowed:
                assert status == 403 and refused["error"] == "origin_refused"
        code = new_table(serve.url, **UNO)

        async def sockets() -> list[str]:
            found = []
            async with aiohttp.ClientSession() as session:
                for origin in ("http://evil.example", own):
                    try:
                        async with Raw(session, serve.url, {"Origin": origin}) as client:
                            found.append((await client.hello(code, name="X"))["type"])
                    except aiohttp.WSServerHandshakeError as error:
                        found.append(str(error.status))
            return found
        assert asyncio.run(sockets()) == ["403", "welcome"]
        # The form: without this server's cookie and token it makes nothing.
        status, _, page = request(f"{serve.url}/?lang=en",
                                  b"game=uno&players=2&people=2&form_token=0")
        assert status == 403 and "This form was not sent from this server" in html.unescape(
            page)
        send = form_page(serve.url)
        assert send({"game": "uno", "players": "2", "people": "2"},
                    origin="http://evil.example")[0] == 403
        status, _, page = send({"game": "uno", "players": "2", "people": "2"},
                               origin="null")  # what no-referrer makes a browser send
        assert status == 201 and "/t/" in page


# ---- 7. Codes could be swept ---------------------------------------------------------------

def test_7_an_address_trying_codes_is_stopped_and_learns_nothing(tmp_path):
    with ServeProcess(tmp_path / "tables.db", "--tries-per-minute", "5",
                      "--trust-proxy", "--open") as serve:
        code = new_table(serve.url, **UNO)
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS)
        sweeper = from_address("2001:db8:7:7::1")
        for guess in range(5):
            assert request(f"{serve.url}/tables/{'b' * 11}{CODE_LETTERS[guess]}",
                           headers=sweeper)[0] == 404
        status, headers, body = request(f"{serve.url}/tables/bbbbbbbbbbbz", headers=sweeper)
        assert status == 429 and 1 <= int(headers["Retry-After"]) <= 60
        assert json.loads(body)["error"] == "too_many_tries"
        # The good code is refused too: the answers say nothing about which codes exist.
        assert request(f"{serve.url}/tables/{code}", headers=sweeper)[0] == 429
        neighbour = from_address("2001:db8:7:ff::2")  # the same /56: the same sweeper
        status, _, page = request(f"{serve.url}/t/{code}?lang=fr", headers=neighbour)
        assert status == 429 and "cette adresse a essayé trop de tables" in html.unescape(
            page).lower()

        async def hello() -> list[dict[str, Any]]:
            async with aiohttp.ClientSession() as session:
                async with Raw(session, serve.url, sweeper) as client:
                    first = await client.hello(code, name="Eve")
                    closed = await client.until("never")
                async with Raw(session, serve.url, from_address("192.0.2.1")) as client:
                    other = await client.hello(code, name="Ann")
            return [first, closed, other]
        first, closed, other = asyncio.run(hello())
        assert first["code"] == "too_many_tries" and closed["type"] == "closed"
        assert other["type"] == "welcome"
        assert request(f"{serve.url}/tables/{code}", headers=from_address("192.0.2.1"))[0] \
            == 200


# ---- 8. No security headers ------------------------------------------------------------------

def test_8_every_answer_carries_the_headers_of_a_careful_web_app(tmp_path):
    with ServeProcess(tmp_path / "tables.db") as serve:
        code = new_table(serve.url, **UNO)
        for path in ("/", f"/t/{code}", "/web/page.js", "/web/page.css", f"/tables/{code}",
                     "/tables/nosuchtable", "/nowhere"):
            _, headers, _ = request(serve.url + path)
            policy = headers["Content-Security-Policy"]
            assert "script-src 'self'" in policy and "style-src 'self'" in policy
            assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert headers["X-Frame-Options"] == "DENY"
            assert headers["Referrer-Policy"] == "no-referrer"
            assert headers["Server"] == "brailledev", path
        _, headers, _ = request(f"{serve.url}/tables", UNO)
        assert headers["Server"] == "brailledev" and "Content-Security-Policy" in headers
        pages = [request(f"{serve.url}{path}")[2] for path in ("/", f"/t/{code}")]
    # Nothing inline for the policy to refuse, in the templates nor in the pages made.
    for text in [*pages, *(template.read_text() for template in STATIC.glob("*.html"))]:
        assert "<style" not in text and "style=" not in text
        assert re.findall(r"<script(?![^>]*\bsrc=)", text) == []
        assert re.findall(r"\son[a-z]+=", text) == []  # no inline event handlers either
    assert 'src="/web/page.js"' in pages[1]


# ---- 9. One log line per bad connection ----------------------------------------------------

def test_9_the_log_says_one_line_per_offender_a_minute(tmp_path):
    with ServeProcess(tmp_path / "tables.db", "--trust-proxy", "--open") as serve:
        code = new_table(serve.url, **UNO)

        async def churn(address: str) -> None:
            async with aiohttp.ClientSession() as session:
                for number in range(60):
                    async with Raw(session, serve.url, from_address(address)) as client:
                        assert client.ws is not None
                        await client.ws.send_str("not json")
                        await client.until("error")
                        await client.send(type="hello", protocol=PROTOCOL, code=code,
                                          token=f"guess{number}")
                        await client.until("error", "closed")

        async def both() -> None:
            await asyncio.gather(churn("198.51.100.1"), churn("198.51.100.2"))
        asyncio.run(both())
    lines = serve.output().splitlines()
    for address in ("198.51.100.1", "198.51.100.2"):
        assert len([line for line in lines if f"client {address}:" in line]) == 1, lines


# ---- 10. An older move id was judged as a new move -----------------------------------------

async def play_some(players: list[Raw], states: list[dict[str, Any]], moves: int,
                    ids: list[tuple[int, str, Any]]) -> list[dict[str, Any]]:
    """``moves`` moves played by whoever may act, each with an id of its own (kept in
    ``ids`` with the seat and the move); the seats' states after."""
    for _ in range(moves):
        index = next(index for index, state in enumerate(states) if state["actor"])
        move = states[index]["legal"][0]
        move_id = f"p{index}-{len(ids)}"
        reason, played = await players[index].move(move_id, move)
        assert reason is None and played is not None
        ids.append((index, move_id, move))
        states = [played if number == index else await player.state()
                  for number, player in enumerate(players)]
    return states


def test_10_an_old_move_id_sent_again_is_answered_never_played(tmp_path):
    serve = ServeProcess(tmp_path / "tables.db")
    with serve:
        code = new_table(serve.url, **UNO)

        async def sit_and_play(tokens: list[str], ids: list[tuple[int, str, Any]],
                               moves: int) -> tuple[list[Any], int]:
            async with aiohttp.ClientSession() as session:
                players = [await Raw(session, serve.url).__aenter__() for _ in range(2)]
                back = bool(tokens)
                for number, player in enumerate(players):
                    hello = {"token": tokens[number], "since": 0} if back else {
                        "name": f"P{number}"}
                    welcome = await player.hello(code, **hello)
                    if not back:
                        tokens.append(welcome["token"])
                states = [await player.state() for player in players]
                states = await play_some(players, states, moves, ids)
                position = states[0]["position"]
                answers = []
                for seat, move_id, move in ids[:3]:  # the oldest, after newer ones
                    await players[seat].send(type="move", id=move_id, move=move)
                    answers.append((await players[seat].until("answer"))["reason"])
                await players[0].send(type="say", text="where are we?")
                after = (await players[1].heard("where are we?"))["state"]["position"]
                for player in players:
                    await player.__aexit__()
                return answers, after - position

        tokens: list[str] = []
        ids: list[tuple[int, str, Any]] = []
        answers, moved = asyncio.run(sit_and_play(tokens, ids, 6))
        assert answers == [None, None, None] and moved == 0
        serve.kill()  # the ids are kept with the table: a server started again knows them
        serve.start()
        answers, moved = asyncio.run(sit_and_play(tokens, ids, 2))
        assert answers == [None, None, None] and moved == 0


def test_10_a_seats_move_ids_cover_every_move_the_store_keeps():
    """No store lookup at each move: the ids a seat keeps with the table outnumber the
    changes of all seats the log holds (``HISTORY`` before the last snapshot, fewer than
    ``SNAPSHOT_EVERY`` after), so an id the log could find is always found in the list."""
    assert room_module.MOVE_IDS > HISTORY + room_module.SNAPSHOT_EVERY

