"""A joined seat whose connection is cut and comes back (issue 32.7): Ann reaches a real
server through a TCP relay that the test cuts (every socket closed, the port refusing) and
mends (the same port again); while she is away Bea and the bot play on. Ann is shown at once
that the connection is lost, then that it is back, in her language; and her news holds the
others' moves of the gap once each, in order: her sentences are those of a reader of her
seat told the whole table from its first change."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import pytest

from brailledev.network.remote import Background
from brailledev.programs.join import connect
from brailledev.table.history import History
from tests.play_helpers import wanted
from tests.server.helpers import ServerThread, free_port, new_table
from tests.server.test_join import TABLES, Player

LOST = {"en": "The connection to the table is lost; trying again.",
        "fr": "La connexion à la table est perdue ; nouvel essai en cours."}
BACK = {"en": "Connected to the table again.", "fr": "La connexion à la table est rétablie."}
OTHER = {"en": "fr", "fr": "en"}


class Relay:
    """A TCP relay from a port of its own to ``port``, in a thread of its own; :meth:`cut`
    closes every connection and stops listening, :meth:`mend` listens again on the same
    port: ``Relay(8765).url``."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = free_port()
        self.background = Background()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        self.mend()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def mend(self) -> None:
        async def listen() -> asyncio.Server:
            return await asyncio.start_server(self._pair, "127.0.0.1", self.port,
                                              reuse_address=True)
        self.server = self.background.run(listen(), 5)

    def cut(self) -> None:
        async def close() -> None:
            assert self.server is not None
            self.server.close()
            for writer in list(self.writers):
                writer.transport.abort()
            self.writers.clear()
        self.background.run(close(), 5)

    def close(self) -> None:
        self.cut()
        self.background.close()

    async def _pair(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        far_reader, far_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers |= {writer, far_writer}
        await asyncio.gather(self._pipe(reader, far_writer), self._pipe(far_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.transport.abort()


@pytest.fixture
def server(tmp_path):
    with ServerThread(tmp_path / "tables.db") as running:
        yield running


def play_once(player: Player) -> None:
    """The player's sensible move, routed after reading the news."""
    player.read_on()
    player.route(*wanted(player.seat.lines(), player.joined.link.legal(), player.seat.pending))


def actors(server: ServerThread, code: str) -> list[int]:
    return server.call(lambda: list(server.room(code).table.game.actors()))


def told_from_the_start(player: Player, url: str, code: str) -> list[str]:
    """The sentences a reader of ``player``'s seat is told when it joins from the table's
    first change (a second client of the seat, from its file's key)."""
    saved: dict[str, Any] = json.loads(player.save.read_text())  # saved for the relay's url
    fresh = {**saved, "seq": 0, "reader": {**saved["reader"], "history": History().to_dict(),
                                           "pending": None}}
    reader = connect(url, code, "Ann", player.seat.lang, fresh, None, TABLES[player.seat.lang])
    try:
        wanted_seq = player.joined.client.seq
        deadline = time.monotonic() + 10
        while reader.client.seq < wanted_seq or not reader.inbox.empty():
            assert time.monotonic() < deadline, "the reader never caught up"
            reader.step()
            time.sleep(0.01)
        return list(reader.seat.history.sentences)
    finally:
        reader.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_seat_cut_off_says_so_and_is_told_the_gap_once(server, tmp_path, lang):
    relay = Relay(int(server.url.rsplit(":", 1)[1]))
    code = new_table(server.url, game="uno", players=3, people=2, seed=3,
                     options={"match_target": 0})
    ann = Player(relay.url, code, "Ann", lang, tmp_path)
    bea = Player(server.url, code, "Bea", OTHER[lang], tmp_path)
    try:
        ann.until(lambda: ann.joined.link.started, others=[bea])
        for _ in range(60):  # a few turns, until Bea is to play and Ann is not
            ann.pump()
            bea.pump()
            seats = actors(server, code)
            if ann.joined.link.position >= 3 and seats == [bea.seat.seat]:
                break
            if ann.joined.link.waiting_for_me():
                play_once(ann)
            elif bea.joined.link.waiting_for_me():
                play_once(bea)
            time.sleep(0.01)
        assert actors(server, code) == [bea.seat.seat]
        relay.cut()
        ann.until(lambda: ann.heard(LOST[lang]))
        assert ann.seat.shown_at_once() is not None
        assert ann.seat.shown_at_once().text == LOST[lang]
        gap = server.call(lambda: server.room(code).table.moves)
        while ann.seat.seat not in actors(server, code):  # Bea and the bot play on
            bea.pump()
            if bea.joined.link.waiting_for_me():
                play_once(bea)
            time.sleep(0.01)
        assert server.call(lambda: server.room(code).table.moves) > gap
        assert ann.joined.link.position == gap
        relay.mend()
        ann.until(lambda: ann.heard(BACK[lang]), timeout=20)
        assert ann.seat.shown_at_once() is not None
        assert ann.seat.shown_at_once().text == BACK[lang]
        ann.until(lambda: ann.joined.link.position > gap)
        ann.pump()
        told = ann.seat.history.sentences
        lost = told.index(LOST[lang])
        gap_told = [sentence for sentence in told[lost + 1:] if sentence != BACK[lang]]
        whole = told_from_the_start(ann, server.url, code)
        assert len(gap_told) >= 3  # Ann gone, a move of the others at least, Ann back
        assert whole[-len(gap_told):] == gap_told
        # The first: the table joined, told to Ann alone; a seat joining late hears the deal
        # before the others sitting down, so the whole is compared as a multiset.
        assert sorted(told[1:lost] + gap_told) == sorted(whole)
    finally:
        ann.close()
        bea.close()
        relay.close()
