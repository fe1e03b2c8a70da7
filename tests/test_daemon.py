"""The tests' daemon helper with real processes: ready when its check passes, its log in the
error when it ends at start or is not ready in time, killed when it will not stop."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import pytest

from tests.daemon import Daemon, DaemonFailed, answers, free_port

LISTEN = """
import socket, sys, time
print("listening", flush=True)
with socket.create_server(("127.0.0.1", int(sys.argv[1]))) as server:
    time.sleep(60)
"""
DEAF = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print('deaf', flush=True); time.sleep(60)")


def test_a_daemon_is_ready_once_its_port_answers_and_stops_when_asked(tmp_path: Path):
    port = free_port()
    daemon = Daemon("listener", [sys.executable, "-c", LISTEN, str(port)],
                    tmp_path / "listener.log")
    daemon.start()
    try:
        daemon.wait_until(lambda: answers(port), 10)
        assert daemon.running() and daemon.output() == "listening\n"
    finally:
        daemon.stop()
    assert not answers(port) and daemon.process is None


def test_a_daemon_ending_at_start_is_told_with_its_log(tmp_path: Path):
    daemon = Daemon("broken", ["sh", "-c", "echo 'no such table'; exit 3"],
                    tmp_path / "broken.log")
    daemon.start()
    with pytest.raises(DaemonFailed, match="broken ended at start: no such table"):
        daemon.wait_until(lambda: False, 10)


def test_a_daemon_never_ready_is_told_after_its_timeout(tmp_path: Path):
    daemon = Daemon("slow", ["sh", "-c", "echo starting; sleep 60"], tmp_path / "slow.log")
    daemon.start()
    try:
        daemon.wait_until(lambda: daemon.output() == "starting\n", 10)
        with pytest.raises(DaemonFailed, match=r"slow was not ready within 0.5 s: starting"):
            daemon.wait_until(lambda: False, 0.5)
    finally:
        daemon.stop()


def test_a_daemon_deaf_to_its_signal_is_killed_after_the_grace(tmp_path: Path):
    daemon = Daemon("deaf", [sys.executable, "-c", DEAF], tmp_path / "deaf.log", grace=0.5)
    daemon.start()
    process = daemon.process
    assert process is not None
    daemon.wait_until(lambda: daemon.output() == "deaf\n", 10)  # its handler set
    began = time.monotonic()
    daemon.stop()
    assert process.returncode == -signal.SIGKILL and time.monotonic() - began < 5
