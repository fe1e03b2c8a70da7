"""How much one client address may do: tables made an hour, unknown codes (or wrong keys)
tried a minute, connections held at once.

An address is a client's IPv4 address, or the /56 network of an IPv6 one (a home is given
a /64 to a /48, and one customer rarely more: counting its addresses one by one would count
nothing, counting /64s would let a /48 count as 65,536 clients).
Behind a proxy every client comes from the proxy's address; the client's own is the last
one the proxy added to ``X-Forwarded-For``, believed only when the server is told to
(``serve --trust-proxy``).

    tables = Window(most=20, span=3600.0)
    wait = tables.wait("203.0.113.7", now)    # 0.0: one more is allowed; else seconds left
    tables.add("203.0.113.7", now)
"""

from __future__ import annotations

import ipaddress
import math
from collections import deque
from dataclasses import dataclass

MOST_ADDRESSES = 65_536  # addresses remembered at once: a flood of them forgets the oldest
IPV6_PREFIX = 56


@dataclass(frozen=True)
class Limits:
    """What one address may do: ``tables`` made an hour, ``tries`` of unknown table codes
    or wrong keys a minute, ``connections`` at once: ``Limits(tables=5)``."""

    tables: int = 20
    tries: int = 10
    connections: int = 20


def address_key(remote: str | None, forwarded: str | None = None) -> str:
    """The address a client is counted under: ``forwarded`` (an ``X-Forwarded-For``
    header, when a trusted proxy sent it: its last address) else ``remote``; an IPv6
    address as its /56: ``address_key("2001:db8:1:2:3::9") == "2001:db8:1::/56"``."""
    if forwarded:
        remote = forwarded.split(",")[-1].strip()
    try:
        address = ipaddress.ip_address((remote or "").strip("[]"))
    except ValueError:
        return remote or "?"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


class Window:
    """At most ``most`` events per address in any ``span`` seconds (a sliding window: the
    times of the last ``most`` events of each address)."""

    def __init__(self, most: int, span: float) -> None:
        self.most = most
        self.span = span
        self.seen: dict[str, deque[float]] = {}

    def wait(self, address: str, now: float) -> float:
        """Seconds until ``address`` may have one more event (0: now)."""
        times = self.seen.get(address)
        if times is None or len(times) < self.most:
            return 0.0
        return max(0.0, times[0] + self.span - now)

    def add(self, address: str, now: float) -> None:
        """One more event of ``address``."""
        times = self.seen.get(address)
        if times is None:
            if len(self.seen) >= MOST_ADDRESSES:
                self._forget(now)
            times = self.seen[address] = deque(maxlen=self.most)
        times.append(now)

    def _forget(self, now: float) -> None:
        """Forget the addresses whose events are all older than the window, else the
        oldest half."""
        old = [address for address, times in self.seen.items()
               if times[-1] + self.span <= now]
        if len(old) < len(self.seen) // 2:
            by_age = sorted(self.seen, key=lambda address: self.seen[address][-1])
            old = by_age[:len(self.seen) // 2]
        for address in old:
            del self.seen[address]


class Counter:
    """How many of something each address holds now (connections)."""

    def __init__(self) -> None:
        self.held: dict[str, int] = {}

    def take(self, address: str) -> int:
        """One more for ``address``; how many it holds with it."""
        self.held[address] = self.held.get(address, 0) + 1
        return self.held[address]

    def give_back(self, address: str) -> None:
        held = self.held.get(address, 0) - 1
        if held > 0:
            self.held[address] = held
        else:
            self.held.pop(address, None)


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header's whole seconds, at least 1: ``retry_after(0.2) == "1"``."""
    return str(max(1, math.ceil(seconds)))
