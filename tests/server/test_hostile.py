"""Bad input from the network is refused with a clear code to its sender, logged once per
kind, and never disturbs the table or the other players: not JSON, an unknown type, a frame
not text, frames too big, someone else's seat, a move the notation cannot write, a wrong
key, a stolen seat, a second hello, flooding."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

import aiohttp
import pytest

from brailledev.network.protocol import MAX_FRAME, MIN_KEY, PROTOCOL
from brailledev.network.server.app import BURST, DROPS_BEFORE_CLOSE, HARD_FRAME_LIMIT, Connection
from brailledev.network.wire import codec_for
from games.uno.notation import Move
from tests.server.helpers import Raw, ServerThread, new_table


@pytest.fixture
def server():
    with ServerThread(rate=BURST) as running:  # a person's bound of frames in a burst
        yield running


def table_state(server: ServerThread, code: str) -> dict[str, Any]:
    return server.call(lambda: server.room(code).table.to_dict()["state"])


async def seated_pair(url: str, session: aiohttp.ClientSession, code: str) -> tuple[Raw, Raw]:
    ann, bea = Raw(session, url), Raw(session, url)
    await ann.__aenter__()
    await bea.__aenter__()
    assert (await ann.hello(code, name="Ann"))["type"] == "welcome"
    assert (await bea.hello(code, name="Bea"))["type"] == "welcome"
    return ann, bea


def test_malformed_frames_are_told_and_change_nothing(server, caplog):
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)

    async def scenario() -> list[dict[str, Any]]:
        async with aiohttp.ClientSession() as session:
            ann, bea = await seated_pair(server.url, session, code)
            await ann.state()
            before = table_state(server, code)
            told = []
            assert ann.ws is not None
            for text in ("not json", "[1, 2]", json.dumps({"type": "dance"}),
                         json.dumps({"type": "move", "id": 7, "move": None}),
                         json.dumps({"type": "hello", "protocol": 99, "code": code}),
                         "x" * (MAX_FRAME + 1), "not json"):
                await ann.ws.send_str(text)
                told.append(await ann.until("error"))
            await ann.ws.send_bytes(b"\x00\x01")
            told.append(await ann.until("error"))
            assert table_state(server, code) == before
            await ann.__aexit__()
            await bea.__aexit__()
            return told

    with caplog.at_level(logging.WARNING, logger="brailledev.network.server"):
        told = asyncio.run(scenario())
    assert [frame["code"] for frame in told] == [
        "frame_not_json", "frame_invalid", "frame_unknown_type", "frame_invalid",
        "frame_invalid", "frame_too_big", "frame_not_json", "frame_not_text"]
    assert told[5]["params"] == {"most": str(MAX_FRAME)}
    logged = [record.getMessage() for record in caplog.records]
    assert sum("frame_not_json" in line for line in logged) == 1  # once, though sent twice


def test_a_frame_beyond_the_hard_limit_closes_that_connection_only(server):
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with aiohttp.ClientSession() as session:
            ann, bea = await seated_pair(server.url, session, code)
            assert ann.ws is not None
            await ann.ws.send_str("x" * (HARD_FRAME_LIMIT + 10))
            closed = await ann.until("never")
            await bea.send(type="say", text="still here")
            said = await bea.heard("still here")
            await bea.__aexit__()
            return closed, said

    closed, said = asyncio.run(scenario())
    # 1009 (message too big) reaches the client unless it was still writing its frame
    # when the server closed: then the socket breaks under it (1006).
    assert closed["type"] == "closed"
    assert closed["code"] in (aiohttp.WSCloseCode.MESSAGE_TOO_BIG,
                              aiohttp.WSCloseCode.ABNORMAL_CLOSURE)
    assert said["events"][-1]["text"] == "still here"


def test_someone_elses_seat_and_unreadable_moves_are_refused(server):
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)
    codec = codec_for("uno")

    async def scenario() -> list[Any]:
        async with aiohttp.ClientSession() as session:
            ann, bea = await seated_pair(server.url, session, code)
            states = [await ann.state(), await bea.state()]
            player = ann if states[0]["actor"] else bea
            state = states[0] if player is ann else states[1]
            before = table_state(server, code)
            other = 1 - state["view"]["seat"]
            answers: list[Any] = []
            for move, seat in ((codec.encode(Move("draw")), other),
                               ({"$": "Move", "kind": ["draw"]}, None),
                               ({"$": "Popen", "args": "sh"}, None),
                               ({"$": "Drew", "seat": 0, "count": 9, "why": "x"}, None)):
                await player.send(type="move", id=f"m{len(answers)}", move=move, seat=seat)
                answers.append((await player.until("answer"))["reason"]["code"])
            assert table_state(server, code) == before
            await player.send(type="move", id="fine", move=codec.encode(Move("draw")))
            answers.append((await player.until("answer"))["reason"])
            assert server.call(lambda: server.room(code).table.moves) == state["position"] + 1
            await ann.__aexit__()
            await bea.__aexit__()
            return answers

    assert asyncio.run(scenario()) == ["not_your_seat", "move_malformed", "move_malformed",
                                       "move_malformed", None]


def test_a_wrong_key_or_a_full_table_never_gives_a_seat(server):
    code = new_table(server.url, game="uno", players=3, people=2, seed=5)

    async def scenario() -> list[str]:
        async with aiohttp.ClientSession() as session:
            ann, bea = await seated_pair(server.url, session, code)
            results = []
            async with Raw(session, server.url) as thief:
                results.append((await thief.hello(code, token="x" * 32))["code"])
                results.append((await thief.hello(code, name="Eve"))["code"])
                results.append((await thief.hello("nosuch", name="Eve"))["code"])
                await thief.send(type="say", text="let me in")
                results.append((await thief.until("error"))["code"])
            results.append((await ann.hello(code, name="Ann again"))["code"])
            await ann.__aexit__()
            await bea.__aexit__()
            return results

    assert asyncio.run(scenario()) == ["wrong_token", "table_full", "table_unknown",
                                       "not_seated", "already_seated"]
    seats = server.call(lambda: server.room(code).seat_states())
    assert [seat.name for seat in seats] == ["Ann", "Bea", ""]


def test_only_the_seats_key_takes_it_back(server):
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)

    async def scenario() -> tuple[int, int, str]:
        async with aiohttp.ClientSession() as session:
            async with Raw(session, server.url) as ann:
                welcome = await ann.hello(code, name="Ann")
            async with Raw(session, server.url) as again:
                back = await again.hello(code, token=welcome["token"], since=0)
            async with Raw(session, server.url) as thief:
                refused = await thief.hello(code, token=welcome["token"][:-2] + "xx")
            return welcome["seat"], back["seat"], refused["code"]

    seat, back, refused = asyncio.run(scenario())
    assert back == seat and refused == "wrong_token"
    stored = server.call(lambda: server.room(code).to_dict()["seats"][seat]["token_hash"])
    assert len(stored) == 64  # a hash, never the key


def test_a_hello_sent_again_after_its_welcome_was_cut_gets_the_seat_it_took(server):
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)
    key = "k" * MIN_KEY

    async def scenario() -> list[Any]:
        async with aiohttp.ClientSession() as session:
            async with Raw(session, server.url) as ann:
                await ann.send(type="hello", protocol=PROTOCOL, code=code, name="Ann", key=key)
            # The hello was read and its seat committed, the welcome lost with the connection.
            for _ in range(100):
                if server.call(lambda: server.room(code).seat_states()[0].name) == "Ann":
                    break
                await asyncio.sleep(0.05)
            async with Raw(session, server.url) as bea:
                took = (await bea.hello(code, name="Bea", key="b" * MIN_KEY))["seat"]
            async with Raw(session, server.url) as again:
                back = await again.hello(code, name="Ann", key=key)
            async with Raw(session, server.url) as eve:
                full = (await eve.hello(code, name="Eve", key="e" * MIN_KEY))["code"]
                short = (await eve.hello(code, name="Eve", key="e" * (MIN_KEY - 1)))["code"]
            return [took, back["seat"], back["token"], full, short]

    assert asyncio.run(scenario()) == [1, 0, key, "table_full", "frame_invalid"]
    names = [seat.name for seat in server.call(lambda: server.room(code).seat_states())]
    assert names == ["Ann", "Bea"]  # Ann sat down once


def test_flooding_is_dropped_then_closed_and_the_others_play_on(server, caplog):
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)

    async def scenario() -> tuple[list[str], dict[str, Any]]:
        async with aiohttp.ClientSession() as session:
            ann, bea = await seated_pair(server.url, session, code)
            assert ann.ws is not None
            # Until the server closes it: on a loaded machine the sending is slow enough
            # for the rate to let some through, and more than BURST + DROPS frames it takes.
            spam = json.dumps({"type": "say", "text": "spam"})
            codes: list[str] = []

            async def read_until_closed() -> None:
                # Ann reads while she floods, as a client does: unread, her news piled up
                # on a loaded machine until the server dropped her as a slow reader (1006).
                while True:
                    frame = await ann.until("error", "closed", timeout=30)
                    codes.append(str(frame["code"]) if frame["type"] == "error" else "closed")
                    if frame["type"] == "closed":
                        return

            reading = asyncio.create_task(read_until_closed())
            for sent in range(20 * (BURST + DROPS_BEFORE_CLOSE)):
                if ann.ws.closed:
                    break
                with contextlib.suppress(ConnectionError):
                    await ann.ws.send_str(spam)
                if sent % BURST == 0:  # a send that need not wait never lets her read
                    await asyncio.sleep(0)
            await reading
            await bea.send(type="say", text="hello")
            news = await bea.heard("hello")
            await bea.__aexit__()
            return codes, news

    with caplog.at_level(logging.WARNING, logger="brailledev.network.server"):
        codes, _ = asyncio.run(scenario())
    # Told why, then closed: the last refusal goes ahead of the flood's news still queued,
    # and the server reads what she still sends until she answers the close (her kernel
    # would otherwise be answered with a reset and throw the unread refusal away).
    assert codes[0] == "too_fast" and codes[-2:] == ["too_fast", "closed"], codes
    assert codes.count("too_fast") <= 5  # one a burst of frames dropped, and the last
    logged = [record.getMessage() for record in caplog.records if "too_fast" in
              record.getMessage()]
    assert len(logged) == 1


def test_a_flood_sent_without_reading_is_told_then_closed_by_the_handshake(server):
    """The server closes a flooding client that reads nothing while it sends by the close
    handshake: it sends the refusal and the close frame, reads and throws away what still
    comes until the client answers the close, and only then closes the socket. A client
    that sends blindly for a second, then reads, finds the refusal and a clean close
    (1000); a socket closed under its sending was answered with a reset (1006)."""
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)

    async def scenario() -> list[str]:
        async with aiohttp.ClientSession() as session:
            ann, bea = await seated_pair(server.url, session, code)
            assert ann.ws is not None
            spam = json.dumps({"type": "say", "text": "spam"})
            end = asyncio.get_running_loop().time() + 1.0
            sent = 0
            while asyncio.get_running_loop().time() < end:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await ann.ws.send_str(spam)
                sent += 1
                if sent % 50 == 0:  # the frames go out; nothing is read
                    await asyncio.sleep(0.001)
            assert sent > BURST + DROPS_BEFORE_CLOSE
            told: list[str] = []
            while not told or told[-1].startswith("error"):
                frame = await ann.until("error", "closed", timeout=10)
                told.append(f"{frame['type']} {frame['code']}")
            await bea.__aexit__()
            return told

    told = asyncio.run(scenario())
    assert told[0] == "error too_fast" and told[-1] == "closed 1000", told


def test_a_client_outrunning_a_busy_server_now_and_then_is_never_closed(server):
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)

    def dropped() -> int:
        return server.call(lambda: max(connection.dropped for connection
                                       in server.tables.connections))

    async def scenario() -> tuple[int, dict[str, Any]]:
        async with aiohttp.ClientSession() as session:
            ann, bea = await seated_pair(server.url, session, code)
            assert ann.ws is not None
            # Bea reads all along, as a client does (unread, her frames would pile up on a
            # loaded machine until the server dropped her as a slow reader).
            listening = asyncio.create_task(bea.heard("still here"))
            # Bursts of one and a half times the burst the rate allows, spaced out: more
            # frames dropped in all than a flood may, never so many at once.
            while dropped() <= DROPS_BEFORE_CLOSE:
                for number in range(BURST * 3 // 2):
                    await ann.ws.send_str(json.dumps({"type": "say", "text": f"{number}"}))
                await asyncio.sleep(3)
            await ann.send(type="say", text="still here")
            said = await listening
            total = dropped()
            await ann.__aexit__()
            await bea.__aexit__()
            return total, said

    total, said = asyncio.run(scenario())
    assert total > DROPS_BEFORE_CLOSE and said["events"][-1]["text"] == "still here"


def test_a_move_sent_again_with_its_id_is_answered_again_never_played_twice(server):
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)
    codec = codec_for("uno")

    async def scenario() -> tuple[Any, Any, int, int]:
        async with aiohttp.ClientSession() as session:
            ann, bea = await seated_pair(server.url, session, code)
            states = [await ann.state(), await bea.state()]
            player = ann if states[0]["actor"] else bea
            moves = server.call(lambda: server.room(code).table.moves)
            frame = {"type": "move", "id": "once", "move": codec.encode(Move("draw"))}
            await player.send(**frame)
            first = (await player.until("answer"))["reason"]
            after = server.call(lambda: server.room(code).table.moves)
            await player.send(**frame)  # as a client does after a lost connection
            again = (await player.until("answer"))["reason"]
            assert server.call(lambda: server.room(code).table.moves) == after
            await ann.__aexit__()
            await bea.__aexit__()
            return first, again, moves, after

    first, again, moves, after = asyncio.run(scenario())
    assert first is None and again is None and after == moves + 1


def test_a_reader_backed_up_is_queued_then_dropped_and_its_table_goes_on(server):
    code = new_table(server.url, game="uno", players=2, people=2, seed=5)
    frame = json.dumps({"type": "said", "text": "x" * (1 << 20)})  # a megabyte a frame

    def seat(number: int) -> Connection:
        return next(each for each in server.tables.connections if each.seat == number)

    def flood() -> list[tuple[bool, bool]]:
        """A frame each to Ann, who reads nothing, and Bea: whether each is backed up."""
        ann, bea = seat(0), seat(1)
        backed_up = []
        for _ in range(16):
            ann.send(frame)
            backed_up.append((ann.writer is not None, bea.writer is not None))
        return backed_up

    async def scenario() -> tuple[list[tuple[bool, bool]], bool, dict[str, Any]]:
        async with aiohttp.ClientSession() as session:
            ann, bea = await seated_pair(server.url, session, code)
            assert ann.ws is not None
            backed_up = server.call(flood)
            closing = server.call(lambda: seat(0).closing)
            await bea.send(type="say", text="still here")
            heard = await bea.until("news")
            while "still here" not in json.dumps(heard):
                heard = await bea.until("news")
            await ann.__aexit__()
            await bea.__aexit__()
            return backed_up, closing, heard

    backed_up, closing, heard = asyncio.run(scenario())
    # Written straight out first, then queued behind the socket, never for Bea.
    assert backed_up[0] == (False, False) and backed_up[-1][0] and not any(
        bea for _, bea in backed_up)
    assert closing  # past QUEUE_BYTES she was dropped as too slow
    assert heard["type"] == "news"  # Bea's news came through
