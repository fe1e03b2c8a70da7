"""A seat's way to a table a server holds: the link the seat reads its table through
(:class:`RemoteLink`: what the server last sent, moves and talk sent back through a
:class:`brailledev.network.client.TableClient`), and the asyncio loop the client runs in, a
thread of its own (:class:`Background`), so a display never waits for the network.

    background = Background()
    link = RemoteLink(client, background, codec_for("uno"))
    link.apply(client.state)                  # what the last news frame carried
    reason = link.play(move)                  # None when played, else why not
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Coroutine, Hashable
from typing import Any, TypeVar

from brailledev.network.client import ANSWER_WAIT, TableClient
from brailledev.network.wire import Codec
from brailledev.table.presence import SeatState
from games.core import Reason, Seat

T = TypeVar("T")


class Background:
    """An asyncio event loop in a thread of its own: ``Background().run(coro, timeout=5)``.
    """

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, work: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run ``work`` in the loop and wait for its result (TimeoutError after
        ``timeout``)."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def submit(self, work: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Start ``work`` in the loop without waiting for it."""
        return asyncio.run_coroutine_threadsafe(work, self.loop)

    def close(self) -> None:
        """Stop the loop and its thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class RemoteLink:
    """A seat's link to a table held by a server (a :class:`brailledev.table.presence.SharedLink`):
    what the server last sent of the seat's view, legal moves and company, and moves and
    talk sent back through the client."""

    def __init__(self, client: TableClient, background: Background, codec: Codec) -> None:
        self.client = client
        self.background = background
        self.codec = codec
        self.seat: Seat = client.seat if client.seat is not None else 0
        self._players = client.players
        self._view: Any = None
        self._legal: list[Any] = []
        self._position = 0
        self._actor = False
        self._left: tuple[int, float] | None = None
        self._seats: tuple[SeatState, ...] = ()
        self._over = False
        self.started = False

    def apply(self, state: dict[str, Any]) -> None:
        """Take the seat's state as a news frame carried it."""
        decode = self.codec.decode
        self._view = decode(state["view"])
        self._legal = list(decode(state["legal"]))
        self._position = int(state["position"])
        self._actor = bool(state["actor"])
        left = state.get("time_left")
        self._left = None if left is None else (int(left), time.monotonic())
        self._seats = tuple(decode(state["seats"]))
        self._over = bool(state["over"])
        self.started = bool(state["started"])

    @property
    def players(self) -> int:
        return self._players

    def over(self) -> bool:
        return self._over

    @property
    def position(self) -> int:
        return self._position

    def view(self) -> Any:
        return self._view

    def legal(self) -> list[Any]:
        return list(self._legal)

    def waiting_for_me(self) -> bool:
        return self._actor

    def time_left(self) -> int | None:
        if self._left is None:
            return None
        left, since = self._left
        return max(0, round(left - (time.monotonic() - since)))

    def play(self, move: Hashable) -> Reason | None:
        """Send ``move`` and wait for the table's answer (a lost connection included:
        the move goes again, with its id, once the connection is back)."""
        try:
            answer = self.background.run(self.client.play(self.codec.encode(move)),
                                         ANSWER_WAIT + 1)
        except TimeoutError:
            return Reason.of("no_answer")
        return None if answer is None else self.codec.decode_reason(answer)

    def seats(self) -> tuple[SeatState, ...]:
        return self._seats

    def say(self, text: str) -> Reason | None:
        sent = self.background.run(self.client.say(text), ANSWER_WAIT)
        return None if sent else Reason.of("not_connected")
