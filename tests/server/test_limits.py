"""What one client address may do, counted exactly: a sliding window of events per address,
connections held, the address a client is counted under (IPv6 by its /56, a proxy's
``X-Forwarded-For`` by its last address), and a log of one line per subject a minute."""

from __future__ import annotations

import logging

import pytest

from brailledev.network.logs import QUIET, QuietLog
from brailledev.network.server.limits import (
    MOST_ADDRESSES,
    Counter,
    Window,
    address_key,
    retry_after,
)


def test_a_window_allows_most_events_in_any_span_and_says_how_long_to_wait():
    window = Window(most=3, span=3600.0)
    for when in (0.0, 10.0, 20.0):
        assert window.wait("a", when) == 0.0
        window.add("a", when)
    assert window.wait("a", 30.0) == 3570.0  # until the first of the three is an hour old
    assert window.wait("b", 30.0) == 0.0
    assert window.wait("a", 3600.0) == 0.0
    window.add("a", 3600.0)
    assert window.wait("a", 3601.0) == 9.0  # the second one's turn


def test_a_flood_of_addresses_forgets_the_oldest_not_the_newest():
    window = Window(most=1, span=60.0)
    for number in range(MOST_ADDRESSES):
        window.add(f"10.{number // 65536}.{number // 256 % 256}.{number % 256}", 1.0)
    window.add("newcomer", 2.0)
    assert len(window.seen) <= MOST_ADDRESSES // 2 + 1
    assert window.wait("newcomer", 3.0) > 0


def test_connections_are_counted_while_held():
    held = Counter()
    assert [held.take("a") for _ in range(3)] == [1, 2, 3]
    held.give_back("a")
    assert held.take("a") == 3
    for _ in range(3):
        held.give_back("a")
    assert held.held == {}


@pytest.mark.parametrize(("remote", "forwarded", "counted"), [
    ("203.0.113.7", None, "203.0.113.7"),
    ("2001:db8:1:2:3::9", None, "2001:db8:1::/56"),
    ("2001:db8:1:ff::1", None, "2001:db8:1::/56"),
    ("::ffff:203.0.113.7", None, "203.0.113.7"),
    ("127.0.0.1", "198.51.100.1, 203.0.113.7", "203.0.113.7"),
    ("127.0.0.1", "2001:db8:5::1", "2001:db8:5::/56"),
    (None, None, "?"),
])
def test_the_address_a_client_is_counted_under(remote, forwarded, counted):
    assert address_key(remote, forwarded) == counted


def test_retry_after_is_whole_seconds_at_least_one():
    assert [retry_after(seconds) for seconds in (0.0, 0.2, 1.0, 59.1)] == ["1", "1", "1", "60"]


def test_the_quiet_log_says_one_line_per_subject_a_minute(caplog):
    now = [0.0]
    quiet = QuietLog(logging.getLogger("test.quiet"), clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="test.quiet"):
        told = [quiet.tell("client a", "frame_not_json") for _ in range(250)]
        told.append(quiet.tell("client b", "too_fast"))
        now[0] = QUIET
        told.append(quiet.tell("client a", "wrong seat keys"))
    assert told.count(True) == 3
    assert [record.getMessage() for record in caplog.records] == [
        "client a: frame_not_json", "client b: too_fast",
        "client a: wrong seat keys (249 more since its last line)"]
