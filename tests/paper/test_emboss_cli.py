"""The emboss commands end to end: files, previews, one-sentence errors, nothing half-written."""

from __future__ import annotations

import os
import pty
import select
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

import layouts.uno
from brailledev.display.braille import translator
from brailledev.programs.cli import main
from emboss import brf
from emboss.deck import deck_document
from emboss.embossers import profile_named
from emboss.page import Geometry, paper
from layouts.registry import kit


def test_deck_to_brf_and_preview(tmp_path: Path, capsys):
    out, preview = tmp_path / "uno.brf", tmp_path / "uno.pdf"
    status = main(["emboss", "deck", "uno", "--lang", "fr", "--out", str(out),
                   "--preview", str(preview)])
    assert status == 0
    expected = deck_document(kit("uno").deck_faces("fr"), Geometry(paper("a4")),
                             kit("uno").card_size(), translator("fr-bfu-comp6.utb"),
                             "uno card labels", "fr")
    assert out.read_bytes() == brf.document_bytes(expected)
    assert preview.read_bytes().startswith(b"%PDF-")
    assert "108 étiquettes, 9 par feuille" in capsys.readouterr().out


def test_replacement_cards_to_pef_for_an_embosser_profile(tmp_path: Path):
    out = tmp_path / "labels.pef"
    assert main(["emboss", "deck", "uno", "--cards", "r7,r7,b+2,wi", "--out", str(out),
                 "--table", "en-ueb-g2.ctb"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("<page>") == 1 and 'xmlns="http://www.daisy.org/ns/2008/pef"' in text


def test_index_job_file_starts_with_its_header(tmp_path: Path):
    out = tmp_path / "pad.brf"
    assert main(["emboss", "scorepad", "domino", "--players", "2", "--embosser",
                 "index-everest-d", "--interpoint", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"\x1bDBT0,PN0,TD0,LS50,DP2,CH31,LP28,BI2,TM1;")
    assert data.endswith(b"\x1a") and data.count(b"\x0c") == 4


def test_unknown_card_one_sentence_and_no_file(tmp_path: Path, capsys):
    out = tmp_path / "x.brf"
    assert main(["emboss", "deck", "uno", "--cards", "r7,x9", "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("brailledev: unknown uno card 'x9'") and error.count("\n") == 1
    assert "Traceback" not in error and not out.exists()


def test_job_refused_by_the_embosser_writes_nothing(tmp_path: Path, capsys):
    out, preview = tmp_path / "x.brf", tmp_path / "x.svg"
    assert main(["emboss", "deck", "uno", "--embosser", "romeo", "--paper", "11x11.5in",
                 "--out", str(out), "--preview", str(preview)]) == 2
    assert "at most 40 cells" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_where_the_braille_goes_must_be_said(capsys):
    assert main(["emboss", "scorepad", "uno"]) == 2
    assert "--out FILE, --device PORT or --printer QUEUE" in capsys.readouterr().err
    assert main(["emboss", "scorepad", "uno", "--format", "pef", "--device", "/dev/null"]) == 2
    assert "PEF is a file format" in capsys.readouterr().err


@pytest.mark.parametrize(("command", "without"), [
    ("deck", replace(kit("uno"), deck=None)), ("scorepad", replace(kit("uno"), pad=None))])
def test_a_game_without_that_paper_is_refused_naming_those_that_have_it(monkeypatch, capsys,
                                                                        command, without):
    """The games a command offers are those whose kit has its paper (from the registry)."""
    monkeypatch.setattr(layouts.uno, "KIT", without)
    with pytest.raises(SystemExit) as refused:
        main(["emboss", command, "uno"])
    assert refused.value.code == 2
    assert "game cannot be 'uno'; choose one of 'domino', 'elements', 'elevens', " \
           "'rummikub'" in capsys.readouterr().err


def test_deck_to_a_serial_device_resumed_from_a_page():
    master, slave = pty.openpty()
    try:
        document = deck_document(kit("uno").deck_faces("en"), Geometry(paper("a4")),
                                 kit("uno").card_size(), translator("en-ueb-g1.ctb"),
                                 "uno card labels", "en")
        expected = profile_named("generic").job(document).data(from_page=11)
        received = bytearray()

        def read() -> None:
            while len(received) < len(expected):
                received.extend(os.read(master, 4096))

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        assert main(["emboss", "deck", "uno", "--device", os.ttyname(slave), "--baud",
                     "19200", "--flow", "xonxoff", "--from-page", "11"]) == 0
        reader.join(10)
        assert bytes(received) == expected
    finally:
        os.close(master)
        os.close(slave)


def test_embossers_lists_profiles_ports_and_queues(capsys):
    assert main(["embossers"]) == 0
    out = capsys.readouterr().out
    for name in ("generic", "index-basic-d", "index-everest-d", "romeo", "juliet",
                 "braillo-200"):
        assert f"  {name}: " in out
    assert "Serial ports (--device)" in out and "CUPS queues (--printer)" in out


def test_progress_bar_only_on_a_terminal(monkeypatch):
    import io
    import sys

    from emboss.cli import _progress_bar

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert _progress_bar("en") is None
    master, slave = pty.openpty()
    try:
        with os.fdopen(slave, "w", closefd=False) as terminal:
            monkeypatch.setattr(sys, "stderr", terminal)
            show = _progress_bar("en")
            assert show is not None
            show(3, 12)
            show(12, 12)
        # the pty may hand the bar over in pieces: read up to the final newline, however late
        seen, deadline = "", time.monotonic() + 30
        while not seen.endswith("\n") and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                seen += os.read(master, 4096).decode()
        assert "page 3/12 [#####...............]" in seen
        assert "page 12/12 [####################]" in seen
    finally:
        os.close(master)
        os.close(slave)


def test_unknown_table_and_resume_point_are_one_sentence(tmp_path: Path, capsys):
    out = tmp_path / "x.brf"
    assert main(["emboss", "deck", "uno", "--table", "nope.ctb", "--out", str(out)]) == 2
    assert "'nope.ctb' cannot be found" in capsys.readouterr().err
    assert main(["emboss", "deck", "uno", "--from-page", "13", "--out", str(out)]) == 2
    assert "outside this job of 12 pages" in capsys.readouterr().err
    assert not out.exists()


def test_the_document_title_is_in_the_chosen_language(tmp_path: Path):
    # the title a preview shows a sighted helper, and the PEF's dc:title
    for lang, title in (("fr", "étiquettes des cartes de Uno"), ("en", "Uno card labels")):
        out = tmp_path / f"labels-{lang}.pef"
        assert main(["emboss", "deck", "uno", "--cards", "r7", "--lang", lang,
                     "--out", str(out)]) == 0
        assert f"<dc:title>{title}</dc:title>" in out.read_text(encoding="utf-8")
    pad = tmp_path / "pad.pef"
    assert main(["emboss", "scorepad", "domino", "--lang", "fr", "--out", str(pad)]) == 0
    assert "<dc:title>feuille de marque de " in pad.read_text(encoding="utf-8")


def test_a_preview_is_never_written_when_the_braille_file_is_not(tmp_path: Path, capsys):
    preview = tmp_path / "pad.pdf"
    assert main(["emboss", "scorepad", "uno", "--out", str(tmp_path / "nowhere" / "pad.brf"),
                 "--preview", str(preview)]) == 2
    assert capsys.readouterr().err.startswith(
        f"brailledev: there is no folder {tmp_path / 'nowhere'}")
    (tmp_path / "taken.brf").mkdir()  # the rename of the braille file fails, after writing
    assert main(["emboss", "scorepad", "uno", "--out", str(tmp_path / "taken.brf"),
                 "--preview", str(preview)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"brailledev: cannot write {tmp_path / 'taken.brf'}: that name is "
                            "a folder") and error.count("\n") == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["taken.brf"]


def test_a_preview_that_cannot_be_written_takes_the_braille_file_with_it(tmp_path: Path,
                                                                        capsys):
    out = tmp_path / "pad.brf"
    out.write_bytes(b"old")
    assert main(["emboss", "scorepad", "uno", "--out", str(out), "--preview",
                 str(tmp_path / "nowhere" / "pad.svg"), "--lang", "fr"]) == 2
    assert capsys.readouterr().err == (
        f"brailledev: il n'y a pas de dossier {tmp_path / 'nowhere'} ; créez-le ou "
        "choisissez un autre --preview\n")
    assert out.read_bytes() == b"old"
    (tmp_path / "pad.svg").mkdir()
    assert main(["emboss", "scorepad", "uno", "--out", str(out), "--preview",
                 str(tmp_path / "pad.svg")]) == 2
    assert out.read_bytes() == b"old"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["pad.brf", "pad.svg"]


def test_braille_file_and_preview_are_written_together_for_everyone_to_read(tmp_path: Path):
    out, preview = tmp_path / "pad.brf", tmp_path / "pad.svg"
    assert main(["emboss", "scorepad", "domino", "--out", str(out), "--preview",
                 str(preview)]) == 0
    for path in (out, preview):
        assert os.stat(path).st_mode & 0o777 == 0o644
    assert sorted(path.name for path in tmp_path.iterdir()) == ["pad.brf", "pad.svg"]


def test_a_stopped_serial_job_writes_no_preview(tmp_path: Path, capsys):
    preview = tmp_path / "pad.pdf"
    assert main(["emboss", "scorepad", "uno", "--device", str(tmp_path / "ttyNone"),
                 "--preview", str(preview)]) == 2
    assert capsys.readouterr().err.startswith(f"brailledev: cannot open {tmp_path / 'ttyNone'}")
    assert not preview.exists()


def test_serial_numbers_and_sheets_out_of_range_are_one_sentence(tmp_path: Path, capsys):
    out = tmp_path / "pad.brf"
    cases = {
        ("--baud", "-1"): "--baud -1 is not a serial speed; give one from 50 to 4000000",
        ("--baud", "0"): "--baud 0 is not a serial speed",
        ("--write-timeout", "nan"): "--write-timeout nan is not 0.1 to 3600 seconds",
        ("--write-timeout", "inf"): "--write-timeout inf is not 0.1 to 3600 seconds",
        ("--write-timeout", "-1"): "--write-timeout -1.0 is not 0.1 to 3600 seconds",
        ("--sheets", "0"): "--sheets 0 is not 1 to 500",
        ("--sheets", "100000000"): "--sheets 100000000 is not 1 to 500",
    }
    for (option, value), said in cases.items():
        assert main(["emboss", "scorepad", "uno", "--out", str(out), option, value]) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"brailledev: {said}") and error.count("\n") == 1, error
    assert not out.exists() and list(tmp_path.iterdir()) == []
