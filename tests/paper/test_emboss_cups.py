"""A real CUPS queue: a private cupsd (tests/paper/cups.py) with raw queues whose device
captures each job; what CUPS delivers is compared, byte for byte, with the file output of the
same command. ``brailledev`` reaches the scheduler through ``CUPS_SERVER``, as lp does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from brailledev.programs.cli import main
from tests.paper.cups import PrivateCups

COMMANDS = {
    "deck": ["emboss", "deck", "uno", "--lang", "en"],
    "pad": ["emboss", "scorepad", "domino", "--players", "3", "--lang", "en"],
}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[PrivateCups]:
    with PrivateCups() as cups:
        yield cups


@pytest.fixture
def cups(scheduler: PrivateCups, monkeypatch: pytest.MonkeyPatch) -> PrivateCups:
    monkeypatch.setenv("CUPS_SERVER", scheduler.server)
    return scheduler


@pytest.mark.parametrize("what", sorted(COMMANDS))
@pytest.mark.parametrize("embosser", ["generic", "index-everest-d"])
def test_cups_delivers_the_same_bytes_as_the_file(cups: PrivateCups, tmp_path: Path, capsys,
                                                  what, embosser):
    queue = f"{what}-{embosser}"
    cups.add_queue(queue)
    command = [*COMMANDS[what], "--embosser", embosser]
    assert main([*command, "--printer", queue]) == 0
    said = capsys.readouterr().out
    assert f"on {queue} as job {queue}-" in said
    out = tmp_path / "job.brf"
    assert main([*command, "--out", str(out)]) == 0
    [delivered] = cups.wait_done(queue, 1)
    assert delivered == out.read_bytes()
    assert delivered.startswith(b"\x1bD") == (embosser == "index-everest-d")


def test_embossers_lists_the_queue_of_the_scheduler_cups_server_names(cups: PrivateCups,
                                                                      capsys):
    cups.add_queue("braille-room")
    assert main(["embossers", "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("CUPS queues (--printer):")
    assert "  braille-room" in lines[start + 1:]


@pytest.mark.parametrize(("lang", "words"), [("en", "is stopped, so job"),
                                              ("fr", "est arrêtée : le travail")])
def test_a_stopped_queue_is_one_sentence_naming_the_job(cups: PrivateCups, tmp_path: Path,
                                                        capsys, lang, words):
    queue = f"stopped-{lang}"
    cups.add_queue(queue)
    cups.admin("cupsdisable", queue)
    status = main([*COMMANDS["pad"], "--lang", lang, "--printer", queue])
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert words in err and f"{queue}-" in err
    job = err.split(f"{queue}-")[1].split()[0].rstrip(".,;:»")
    assert job.isdigit()
    # The job waits in the stopped queue; started again, it comes out whole.
    assert f"{queue}-{job}" in cups.lpstat("-o", queue).stdout
    cups.admin("cupsenable", queue)
    out = tmp_path / "pad.brf"
    assert main([*COMMANDS["pad"], "--lang", lang, "--out", str(out)]) == 0
    [delivered] = cups.wait_done(queue, 1)
    assert delivered == out.read_bytes()


def test_issue_33_out_with_a_queue_is_a_copy_of_what_cups_delivered(cups: PrivateCups,
                                                                     tmp_path: Path, capsys):
    queue = "copy-juliet-120"
    cups.add_queue(queue)
    copy = tmp_path / "sent.brf"
    assert main([*COMMANDS["pad"], "--embosser", "juliet-120", "--printer", queue,
                 "--out", str(copy)]) == 0
    said = capsys.readouterr().out.splitlines()
    [delivered] = cups.wait_done(queue, 1)
    assert delivered == copy.read_bytes()
    assert delivered.startswith(b"\x1bDBT0,LS50,TD0,PN0,MC1,DP1,") and delivered.endswith(b"\x1a")
    assert said[-1] == f"wrote {copy}: a copy of the {len(delivered)} bytes sent"
