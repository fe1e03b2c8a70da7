"""Transports for real: an atomic file, a serial job through a real pseudo-terminal pair."""

from __future__ import annotations

import os
import pty
import random
import re
import select
import threading
import time
from pathlib import Path

import pytest

from emboss.embossers import Job, profile_named
from emboss.page import Document, Geometry, Page, paper
from emboss.transport import (
    CupsTransport,
    FileTransport,
    SerialTransport,
    TransportError,
    cups_queues,
    write_file,
)
from layouts.errors import UserError

XOFF, XON = b"\x13", b"\x11"


def dense_job(pages: int, seed: int = 4) -> Job:
    """An Index job of full pages of varied cells (so every page's bytes differ)."""
    rng = random.Random(seed)
    geometry = Geometry(paper("a4"))
    sheets = []
    for _ in range(pages):
        page = Page.blank(geometry)
        for line in range(geometry.lines_per_page):
            page.put(line, 0, "".join(chr(0x2801 + rng.randrange(63))
                                      for _ in range(geometry.cells_per_line)))
        sheets.append(page)
    return profile_named("index-everest-d").job(Document(geometry, sheets, "t", "en"))


class Embosser:
    """The far end of the cable: reads the master side of a pty in a thread."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.received = bytearray()

    def read_until(self, count: int, stop_after_pages: int | None = None,
                   limit: float = 20.0) -> threading.Thread:
        def run() -> None:
            deadline = time.monotonic() + limit
            while len(self.received) < count and time.monotonic() < deadline:
                ready, _, _ = select.select([self.master], [], [], 0.1)
                if not ready:
                    continue
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    return
                self.received += chunk
                if stop_after_pages is not None \
                        and self.received.count(b"\x0c") >= stop_after_pages:
                    # Paper jam: the embosser says stop and reads nothing more.
                    os.write(self.master, XOFF)
                    return

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def drain(self) -> None:
        while True:
            ready, _, _ = select.select([self.master], [], [], 0.3)
            if not ready:
                return
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.received += chunk


@pytest.fixture
def pty_pair():
    master, slave = pty.openpty()
    yield master, slave, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_serial_job_arrives_byte_for_byte(pty_pair):
    master, _, path = pty_pair
    job = dense_job(5)
    embosser = Embosser(master)
    reader = embosser.read_until(len(job.data()))
    progress: list[tuple[int, int]] = []
    SerialTransport(path, baud=38400, flow="rtscts", write_timeout=5).send(
        job, progress=lambda done, total: progress.append((done, total)))
    reader.join(10)
    assert bytes(embosser.received) == job.data()
    assert progress == [(page, 5) for page in range(1, 6)]


def test_interrupted_serial_job_reports_last_page_and_resumes_from_the_next(pty_pair):
    master, slave, path = pty_pair
    job = dense_job(150)
    embosser = Embosser(master)
    reader = embosser.read_until(len(job.data()), stop_after_pages=2)
    with pytest.raises(TransportError) as stopped:
        SerialTransport(path, baud=38400, flow="xonxoff", write_timeout=0.5).send(job)
    reader.join(10)
    message = str(stopped.value)
    found = re.search(r"the last page sent whole was page (\d+).*--from-page (\d+)", message)
    assert found is not None, message
    last, resume = int(found.group(1)), int(found.group(2))
    assert 2 <= last < 150 and resume == last + 1
    embosser.drain()
    # The embosser got the header and every page up to the one reported, then part of the
    # next at most: nothing after the reported page was whole.
    whole = job.header + b"".join(job.pages[:last])
    assert bytes(embosser.received[:len(whole)]) == whole
    assert job.pages[last].startswith(bytes(embosser.received[len(whole):]))
    assert len(embosser.received) - len(whole) < len(job.pages[last])

    os.write(master, XON)
    # The kernel handles XON in its own time: wait until the port takes output again.
    assert select.select([], [slave], [], 5)[1] == [slave]
    embosser.received.clear()
    reader = embosser.read_until(len(job.data(resume)))
    SerialTransport(path, baud=38400, flow="xonxoff", write_timeout=5).send(
        job, from_page=resume)
    reader.join(20)
    assert bytes(embosser.received) == job.header + b"".join(job.pages[last:]) + job.end


def test_serial_port_that_does_not_exist_is_one_sentence():
    with pytest.raises(TransportError, match="cannot open /dev/ttyNOPE9"):
        SerialTransport("/dev/ttyNOPE9").send(dense_job(1))


def test_file_is_written_whole_and_nothing_is_left_behind(tmp_path: Path):
    job = dense_job(3)
    target = tmp_path / "deck.brf"
    FileTransport(target).send(job, from_page=2)
    assert target.read_bytes() == job.header + job.pages[1] + job.pages[2] + job.end
    assert [path.name for path in tmp_path.iterdir()] == ["deck.brf"]


def test_file_in_a_missing_folder_is_refused_without_a_trace(tmp_path: Path):
    with pytest.raises(TransportError, match="there is no folder"):
        write_file(tmp_path / "nowhere" / "deck.brf", b"x")
    assert list(tmp_path.iterdir()) == []


def test_file_in_a_read_only_folder_leaves_the_old_file_intact(tmp_path: Path):
    target = tmp_path / "deck.brf"
    target.write_bytes(b"old")
    os.chmod(tmp_path, 0o500)
    try:
        if os.access(tmp_path, os.W_OK):
            # Root writes anyway: make the rename fail instead, onto a directory.
            os.chmod(tmp_path, 0o700)
            (tmp_path / "dir.brf").mkdir()
            with pytest.raises(UserError, match="cannot write"):
                write_file(tmp_path / "dir.brf", b"new")
        else:
            with pytest.raises(UserError, match="cannot write"):
                write_file(target, b"new")
    finally:
        os.chmod(tmp_path, 0o700)
    assert target.read_bytes() == b"old"
    assert sorted(path.name for path in tmp_path.iterdir()) in (["deck.brf"],
                                                                 ["deck.brf", "dir.brf"])


def test_cups_without_the_queue_is_refused_with_the_reason():
    with pytest.raises(TransportError, match="CUPS refused the job for queue 'no-such-queue'"):
        CupsTransport("no-such-queue").send(dense_job(1))


def test_cups_queues_listed_gracefully_when_none():
    assert isinstance(cups_queues(), list)
