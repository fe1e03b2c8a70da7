"""Several table servers behind Debian's HAProxy, run with the repository's own
``deploy/haproxy.cfg`` (its ports moved to free ones), sharing one database of the private
PostgreSQL: a whole Uno game is played through the balancer by two braille seats (clients
of the protocol, each with a bot choosing its moves from what its seat sees) while the
second player's web page follows it (a web client on that seat's key, told screens), and
the ``serve`` process holding the table is killed (``kill -9``) twice mid-game. The game
ends as an uninterrupted one through the same balancer does, no change lost or doubled
(each seat told exactly the store's story), and every seat is back within seconds."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from brailledev.network.client import TableClient, WireBot
from brailledev.network.server.room import Room
from brailledev.network.stores import open_store
from tests.daemon import Daemon, free_port
from tests.server.helpers import (
    ServeProcess,
    launch_all,
    new_table,
    played_out,
    reached,
    request,
    seat_bots,
    stored_events,
    told_as_stored,
)
from tests.server.postgres import PrivatePostgres

HAPROXY = "/usr/sbin/haproxy"
CONFIG = Path(__file__).parents[2] / "deploy" / "haproxy.cfg"
# One round (no match to 500 points), whose 80 moves never let both seats act at once (a
# forgotten UNO caught by one while the other says it): the same game however it is timed.
GAME, SEED, OPTIONS = "uno", 0, {"match_target": 0}
KILLS = (12, 30)  # the table's positions at which its process is killed
BACK = 5.0  # seconds within which every seat is playing again


class Balancer:
    """HAProxy in front of ``ports``, with the repository's configuration, started."""

    def __init__(self, folder: Path, ports: list[int]) -> None:
        self.port = free_port()
        text = CONFIG.read_text().replace("127.0.0.1:8765", f"127.0.0.1:{self.port}")
        for number, port in enumerate(ports, 1):
            text = text.replace(f"127.0.0.1:877{number}", f"127.0.0.1:{port}")
        self.config = folder / "haproxy.cfg"
        self.config.write_text(text)
        self.daemon = Daemon("HAProxy", [HAPROXY, "-db", "-f", str(self.config)],
                             folder / "haproxy.log")
        self.daemon.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.daemon.stop()


@pytest.fixture
def cluster(postgres: PrivatePostgres, tmp_path: Path) -> Iterator[tuple[list[ServeProcess],
                                                                          Balancer, str]]:
    """Three serve processes on one new database, and HAProxy in front of them."""
    address = postgres.database()
    serves = [ServeProcess(address, folder=tmp_path) for _ in range(3)]
    launch_all(serves)
    balancer = Balancer(tmp_path, [serve.port for serve in serves])
    try:
        balancer.daemon.wait_until(
            lambda: all(_healthy(serve) for serve in serves) and _through(balancer), 20,
            pause=0.1)
        yield serves, balancer, address
    finally:
        balancer.close()
        for serve in serves:
            serve.stop()


def _healthy(serve: ServeProcess) -> bool:
    try:
        return request(f"{serve.url}/healthz")[0] == 200
    except OSError:
        return False


def _through(balancer: Balancer) -> bool:
    try:
        return request(f"{balancer.url}/healthz")[0] == 200
    except OSError:
        return False


def _holder(serves: list[ServeProcess]) -> ServeProcess:
    """The one live process holding a table (the others let theirs go)."""
    deadline = time.monotonic() + 10
    while True:
        holding = [serve for serve in serves if serve.process is not None
                   and json.loads(request(f"{serve.url}/healthz")[2])["tables"] > 0]
        if len(holding) == 1:
            return holding[0]
        assert time.monotonic() < deadline, f"{len(holding)} processes hold the table"
        time.sleep(0.05)


async def play(serves: list[ServeProcess], url: str, code: str,
               kills: tuple[int, ...]) -> tuple[list[WireBot], list[list[Any]], TableClient,
                                                list[float]]:
    """Two braille seats play to the end, the second's page following; the holder of the
    table is killed when the table first reaches each position of ``kills``; how long each
    seat took to be told a change after each kill."""
    bots, told = await seat_bots(url, code, GAME, 2)
    screens: list[float] = []
    page = TableClient(url, code, token=bots[1].client.token, web=True,
                       on_frame=lambda frame: screens.append(time.monotonic())
                       if frame.get("type") in ("screen", "messages") else None)
    asyncio.get_running_loop().create_task(page.run())
    await asyncio.wait_for(page.seated.wait(), 10)
    back: list[float] = []
    for position in kills:
        await reached(bots, position)
        holder = await asyncio.to_thread(_holder, serves)
        killed = time.monotonic()
        holder.kill()
        # Every seat, the page too, is told something new after the kill.
        seen = [max(bot.seen, default=0) for bot in bots]
        told_page = len(screens)
        while not (all(max(bot.seen, default=0) > before for bot, before
                       in zip(bots, seen, strict=True)) or any(bot.over.is_set()
                                                               for bot in bots)) \
                or len(screens) == told_page:
            assert time.monotonic() - killed < 30, "the seats did not come back"
            await asyncio.sleep(0.01)
        back.append(time.monotonic() - killed)
    await played_out(bots)
    await page.stop()
    return bots, told, page, back


def game(serves: list[ServeProcess], balancer: Balancer, address: str,
         kills: tuple[int, ...]) -> tuple[dict[str, Any], int, list[WireBot], list[float]]:
    code = new_table(balancer.url, game=GAME, players=2, people=2, seed=SEED, options=OPTIONS)
    bots, told, page, back = asyncio.run(play(serves, balancer.url, code, kills))
    store = open_store(address)
    room = Room.load(code, store)  # its last snapshot and the log after it played again
    assert room is not None
    state, seq = room.to_dict(), room.seq
    told_as_stored(store, code, bots, told)
    assert all(bot.refusals == [] for bot in bots)
    assert [number for number, _ in store.changes(code, 0, 0)] == list(range(1, seq + 1))
    store.close()
    assert page.reconnections >= len(kills)
    return state, seq, bots, back


def test_killed_twice_behind_haproxy_the_game_ends_as_an_uninterrupted_one(cluster):
    serves, balancer, address = cluster
    began = time.monotonic()
    whole, whole_seq, _, _ = game(serves, balancer, address, ())
    print(f"uninterrupted game: {whole_seq} changes in {time.monotonic() - began:.1f} s")
    began = time.monotonic()
    assert whole_seq > KILLS[-1] + 10  # the kills fall mid-game
    cut, cut_seq, bots, back = game(serves, balancer, address, KILLS)
    assert cut["table"]["state"] == whole["table"]["state"]
    assert cut["table"]["moves"] == whole["table"]["moves"]
    assert cut_seq == whole_seq  # nothing told twice, nothing more
    assert sum(bot.client.reconnections for bot in bots) >= 2 * len(KILLS)
    print(f"killed twice: {time.monotonic() - began:.1f} s, every seat back in "
          + ", ".join(f"{seconds:.2f} s" for seconds in back))
    assert all(seconds < BACK for seconds in back), back
    assert sum(serve.process is not None for serve in serves) == 1


def test_a_process_whose_table_another_moved_on_lets_it_go_and_its_seat_catches_up(
        postgres, tmp_path):
    # No balancer: each player reaches another process, as during a balancer's mistake.
    address = postgres.database()
    serves = [ServeProcess(address, folder=tmp_path) for _ in range(2)]
    launch_all(serves)
    try:
        code = new_table(serves[0].url, game=GAME, players=2, people=2, seed=SEED,
                         options=OPTIONS)
        told = asyncio.run(_two_processes(serves, code))
    finally:
        for serve in serves:
            serve.stop()
    store = open_store(address)
    for seat, events in enumerate(told):
        stored = stored_events(store, code, seat)
        # Once a client stopped, the other's leaving is stored but told nobody.
        assert stored[:len(events)] == events, f"seat {seat} was told another story"
        assert all(event["$"] == "Gone" for event in stored[len(events):])
    texts = [event.get("text") for _, events in store.changes(code, 0, 0) for event in events]
    assert "lost" not in texts and "lost too" not in texts and "kept" in texts
    store.close()
    assert all("was committed already" in serve.output() for serve in serves)


async def _two_processes(serves: list[ServeProcess], code: str) -> list[list[Any]]:
    """Ann sits at the first process, Bea then at the second (which takes the table up from
    the store); Ann's line of talk finds the table moved on: refused, her connection closed;
    she comes back, is told Bea's arrival, and her next line is kept; Bea's next line finds
    the table moved on in turn, and she comes back told Ann's."""
    told: list[list[Any]] = [[], []]
    clients = []
    for seat, serve in enumerate(serves):
        client = TableClient(serve.url, code, name=f"P{seat}",
                             on_frame=_news_into(told[seat]))
        asyncio.get_running_loop().create_task(client.run())
        await asyncio.wait_for(client.seated.wait(), 10)
        clients.append(client)
    ann = clients[0]
    await ann.say("lost")
    deadline = time.monotonic() + 10
    while ann.reconnections == 0 or ann.seq < 3 or not ann.connected.is_set():
        assert time.monotonic() < deadline, "Ann was not let go and taken back"
        await asyncio.sleep(0.02)
    await ann.say("kept")
    # Bea's process learns it only at its next change (no word between processes yet).
    while not any(event.get("text") == "kept" for event in told[0]):
        await asyncio.sleep(0.02)
    await clients[1].say("lost too")
    while not any(event.get("text") == "kept" for event in told[1]):
        assert time.monotonic() < deadline + 10, "Bea was not told Ann's line"
        await asyncio.sleep(0.02)
    for client in clients:
        await client.stop()
    return told


def _news_into(events: list[Any]) -> Any:
    def frame(data: dict[str, Any]) -> None:
        if data.get("type") == "news":
            events.extend(data["events"])
    return frame
