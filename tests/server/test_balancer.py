"""Several table servers behind Debian's HAProxy, run with the repository's own
``deploy/haproxy.cfg`` (its ports moved to free ones), sharing one database of the private
PostgreSQL (:mod:`tests.server.balancer`): a whole Uno game is played through the balancer
by three people, Zoe at a web page in a real Chromium clicking what it shows, Ann and Bea
each on a real BRLTTY (Virtual driver) through ``brailledev join``'s own client and key
loop, pressing routing keys; the ``serve`` process holding the table is killed (``kill
-9``) twice mid-game. No turn moves the table on twice, the log holds each change once and
each move of the game once, and the game ends as the same moves from the same seed end it
uninterrupted (the engine alone, in this process); every seat, the page too, is told the
connection is back within seconds."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from playwright.sync_api import Browser

from brailledev.network.client import TableClient
from brailledev.network.server.room import Room
from brailledev.network.stores import open_store
from brailledev.network.web.page import page_words
from tests.brltty.test_table_brltty import READERS, SeatFingers, at_display
from tests.page_player import Notation, PagePlayer
from tests.play_helpers import wanted
from tests.server.balancer import Cluster
from tests.server.helpers import ServeProcess, launch_all, new_table, stored_events
from tests.server.postgres import PrivatePostgres
from tests.server.test_join_reconnect import BACK
from tests.web.helpers import WebPlayer, chromium, wait

pytestmark = pytest.mark.brltty

# One round (no match to 500 points) of three people: Zoe's page is seat 0, Ann seat 1, Bea
# seat 2; nobody acts out of turn, so the game is the same however it is timed.
GAME, SEED, OPTIONS = "uno", 19, {"match_target": 0}
KILLS = (8, 20)  # the table's positions at which its process is killed
WITHIN = 5.0  # seconds within which every seat is told it is back
CLICKED = 2.5  # seconds a click takes to move the table on, its news told (0.3 s quiet)
REACTION = 0.1  # seconds a routing key waits after the display changed by itself


@pytest.fixture
def browser() -> Iterator[Browser]:
    # Not the module's: Playwright's loop, running, would refuse the other test its own.
    with chromium() as running:
        yield running


@pytest.fixture
def cluster(postgres: PrivatePostgres, tmp_path: Path) -> Iterator[Cluster]:
    """Three serve processes on one new database, and HAProxy in front of them."""
    with Cluster(postgres.database(), tmp_path, processes=3) as running:
        yield running


class StoredTable:
    """The table as the store holds it, which every process would load: position, the
    seat the game waits for, whether it is over, the number of its last change."""

    def __init__(self, address: str, code: str) -> None:
        self.store, self.address, self.code = open_store(address), address, code

    def room(self) -> Room:
        room = Room.load(self.code, self.store)
        assert room is not None
        return room

    def now(self) -> tuple[int, int | None, bool, int]:
        room = self.room()
        waiting = room.table.game.must_act()
        return (room.table.moves, waiting[0] if waiting else None, room.table.game.is_over(),
                room.seq)

    def log(self) -> list[tuple[int, Any]]:
        """Every change of the table's log as the store keeps it (a game of this length
        keeps them all), in order: ``(number, change)``, the deal's change ``None``."""
        with psycopg.connect(self.address) as db:
            rows = db.execute("SELECT seq, change FROM changes WHERE code = %s ORDER BY seq",
                              (self.code,)).fetchall()
        return [(seq, None if change is None else json.loads(change)) for seq, change in rows]

    def close(self) -> None:
        self.store.close()


def uninterrupted(room: Room, log: list[tuple[int, Any]]) -> Room:
    """The table ``room`` is, made anew in this process from its settings (the same seed)
    and every change of ``log`` after the deal played again on it by the engine alone."""
    store = open_store(":memory:")
    Room.create(room.code, room.settings, store)
    for seq, change in log[1:]:
        store.commit(room.code, seq, change, [[] for _ in range(room.table.players)], False)
    again = Room.load(room.code, store)
    assert again is not None
    store.close()
    return again


class Page:
    """Zoe at her page, with the number of the last change each screen she was sent
    showed (read off the page's sockets) and how many frames came in all."""

    def __init__(self, web: WebPlayer) -> None:
        self.web = web
        self.frames = 0
        self.seq = -1
        web.page.on("websocket", lambda socket: socket.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        self.frames += 1
        frame = json.loads(payload)
        if frame.get("type") == "screen":
            self.seq = int(frame["seq"])

    def shows(self, seq: int) -> bool:
        """Whether the page is connected, drew every frame it received, the last screen
        showing change ``seq``."""
        drawn = int(self.web.page.evaluate("Number(document.body.dataset.frames || 0)"))
        return (self.seq == seq and drawn == self.frames
                and self.web.page.locator("#connection").is_hidden())


@contextmanager
def seated(cluster: Cluster, browser: Browser, folder: Path
           ) -> Iterator[tuple[Page, list[SeatFingers], StoredTable]]:
    """A new table through the balancer, Zoe at her page, Ann and Bea at their displays."""
    code = new_table(cluster.url, game=GAME, players=3, people=3, seed=SEED, options=OPTIONS)
    with ExitStack() as stack:
        web = WebPlayer(browser, cluster.url, code)
        stack.callback(web.close)
        page = Page(web)
        web.join("Zoe")
        players = [at_display(stack, cluster.url, code, reader, folder) for reader in READERS]
        for fingers in players:
            wait(lambda: fingers.link.started, what="the table starts")  # noqa: B023
            fingers.settle()
            # A routing key waits until the display is at rest, not a reader's half second
            # too: the failover is under test (112 keys routed, 56 s of the game's 120).
            fingers.front.reaction = REACTION
        assert [fingers.joined.seat.seat for fingers in players] == [1, 2]
        table = StoredTable(cluster.address, code)
        stack.callback(table.close)
        yield page, players, table


def told(players: list[SeatFingers]) -> int:
    """The furthest position the braille seats' clients were told (each is told every
    move): whether a turn moved the table on, without loading it from the store."""
    return max(int((fingers.joined.client.state or {}).get("position", 0))
               for fingers in players)


def web_turn(page: Page, table: StoredTable, players: list[SeatFingers],
             player: PagePlayer, notation: Notation) -> int:
    """Zoe's turn: once her page shows the table as the store has it, she clicks what she
    picks (and answers the question it asks); a click refused (a screen the process that
    took the table up had replaced) is made again on the new screen, as a person would.
    How many times she clicked again."""
    position, _, _, seq = table.now()
    for again in range(3):
        wait(lambda: page.shows(seq), 15, "the page shows the table")  # noqa: B023
        control = player.pick(page.web.controls())
        assert control is not None and not notation.reads(control["text"]), control
        page.web.click(control)
        if control["asks"]:
            page.web.page.wait_for_selector("#question")
            answer = player.pick(page.web.controls())
            assert answer is not None and answer["area"] == "question", answer
            page.web.click(answer)
        # A click lost as the page redraws (news of the others coming back) is made again.
        if _moved(lambda: told(players) > position, table, position, CLICKED):
            return again
        now, _, _, seq = table.now()
        if now != position:
            return again
    raise AssertionError(f"Zoe's clicks never moved the table: {page.web.controls()}")


def braille_turn(fingers: SeatFingers, players: list[SeatFingers], table: StoredTable,
                 position: int) -> int:
    """A braille player's turn, by routing keys, once the display shows the table; a key
    that did nothing is pressed again once, as in the served-table tests' play_out. How
    many times it was pressed again."""
    for again, waiting in enumerate((5, 15)):
        fingers.caught_up(position)
        lines = fingers.joined.seat.lines()
        fingers.route_region(*wanted(lines, fingers.link.legal(), fingers.joined.seat.pending))
        if _moved(lambda: told(players) > position or fingers.joined.seat.pending is not None,
                  table, position, waiting):
            return again
    raise AssertionError(f"the braille move: display {fingers.text()!r}, table {table.now()}")


def _moved(seen: Callable[[], bool], table: StoredTable, position: int,
           seconds: float) -> bool:
    """Whether the table moved on from ``position`` within ``seconds``: as the clients saw
    it (``seen()``), else as the store has it then (its clients were away)."""
    deadline = time.monotonic() + seconds
    while not seen() and time.monotonic() < deadline:
        time.sleep(0.02)
    return seen() or table.now()[0] != position


def kill_holder(cluster: Cluster, page: Page, players: list[SeatFingers]) -> list[float]:
    """``kill -9`` the process holding the table: the seconds until each seat (the page
    last) is told the connection is back."""
    back_words = page_words("en")["connection_back"]
    told = [fingers.joined.seat.history.sentences.count(BACK[lang])
            for fingers, (_, lang, _) in zip(players, READERS, strict=True)]
    page_told = page.web.log().count(back_words)
    holder = cluster.holder()
    killed = time.monotonic()
    holder.kill()
    seconds = []
    for fingers, (_, lang, _), before in zip(players, READERS, told, strict=True):
        wait(lambda: fingers.joined.seat.history.sentences.count(  # noqa: B023
            BACK[lang]) > before, 30, "the braille seat is back")  # noqa: B023
        seconds.append(time.monotonic() - killed)
    wait(lambda: page.web.log().count(back_words) > page_told, 30, "the page is back")
    return [*seconds, time.monotonic() - killed]


def test_killed_twice_behind_haproxy_the_game_ends_as_an_uninterrupted_one(
        cluster, browser, tmp_path):
    began, left, backs, turns, last, again = time.monotonic(), list(KILLS), [], 0, 0, 0
    with seated(cluster, browser, tmp_path) as (page, players, table):
        by_seat = {fingers.joined.seat.seat: fingers for fingers in players}
        player, notation = PagePlayer(GAME, "en"), Notation(GAME)
        while True:
            position, waiting, over, _ = table.now()
            assert position - last in (0, 1), f"a turn moved the table {position - last} on"
            last = position
            if over:
                break
            if left and position >= left[0]:
                left.pop(0)
                backs.append(kill_holder(cluster, page, players))
            elif waiting == 0:
                again += web_turn(page, table, players, player, notation)
            elif waiting in by_seat:
                again += braille_turn(by_seat[waiting], players, table, position)
            turns += 1
            assert turns < 300, "the game did not end"
        room, log = table.room(), table.log()
        for fingers in players:
            fingers.caught_up(room.table.moves)
            assert fingers.link.position == room.table.moves
            assert fingers.joined.client.reconnections >= len(KILLS)
            assert [number for number, _ in table.store.changes(
                table.code, fingers.joined.seat.seat, 0)] == list(range(1, room.seq + 1))
        assert not page.web.errors
    assert not left and room.table.moves > KILLS[-1] + 5  # the kills fell mid-game
    # Each change once, each move of the game once: the deal, three sit-downs, the moves.
    assert [number for number, _ in log] == list(range(1, room.seq + 1))
    assert Counter(change[0] for _, change in log[1:]) == {"sit": 3, "play": room.table.moves}
    whole = uninterrupted(room, log)
    assert room.to_dict()["table"]["state"] == whole.to_dict()["table"]["state"]
    assert (room.table.moves, room.seq) == (whole.table.moves, whole.seq)
    print(f"killed twice: {room.seq} changes in {time.monotonic() - began:.1f} s, {turns} "
          f"turns, {again} of them made again, seats "
          "(Ann, Bea, Zoe's page) back in " + "; ".join(
              ", ".join(f"{seconds:.2f}" for seconds in kill) for kill in backs) + " s")
    assert all(seconds < WITHIN for kill in backs for seconds in kill), backs
    assert sum(serve.process is not None for serve in cluster.serves) == 1


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
    # Each let the table go: told by the other's notification, or by its own change refused.
    assert all("made by another process" in serve.output()
               or "was committed already" in serve.output() for serve in serves)


async def _two_processes(serves: list[ServeProcess], code: str) -> list[list[Any]]:
    """Ann sits at the first process, Bea then at the second (which takes the table up from
    the store, and moves it on); Ann's line of talk finds the table moved on: her connection
    closed, the line not kept; she comes back, is told Bea's arrival, and her next line is
    kept; Bea's next line finds the table moved on in turn, and she comes back told Ann's."""
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
    # Bea's process is told at once and lets her go: her line said meanwhile is not kept.
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
