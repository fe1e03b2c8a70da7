"""Files written whole or not at all: content, mode, and nothing left behind on a failure."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from brailledev.files import write_atomically


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_file_holds_the_data_with_the_mode_asked(tmp_path: Path):
    target = tmp_path / "deck.brf"
    write_atomically(target, b"R5\r\n")
    assert target.read_bytes() == b"R5\r\n" and mode_of(target) == 0o644
    write_atomically(target, b"new", mode=0o600)
    assert target.read_bytes() == b"new" and mode_of(target) == 0o600
    assert [path.name for path in tmp_path.iterdir()] == ["deck.brf"]


def test_a_folder_that_is_a_file_is_refused_and_nothing_is_written(tmp_path: Path):
    folder = tmp_path / "saves"
    folder.write_text("not a folder")
    with pytest.raises(NotADirectoryError):
        write_atomically(folder / "uno.json", b"{}")
    assert [path.name for path in tmp_path.iterdir()] == ["saves"]
    assert folder.read_text() == "not a folder"


def test_a_failed_rename_removes_the_temporary_and_keeps_the_old_file(tmp_path: Path):
    (tmp_path / "uno.json").mkdir()           # the rename over a folder fails, after writing
    (tmp_path / "old.json").write_bytes(b"old")
    with pytest.raises(IsADirectoryError):
        write_atomically(tmp_path / "uno.json", b"{}")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["old.json", "uno.json"]
    assert (tmp_path / "uno.json").is_dir() and (tmp_path / "old.json").read_bytes() == b"old"


def test_a_relative_path_writes_in_the_working_folder(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_atomically(Path("pad.pef"), b"<pef/>")
    assert (tmp_path / "pad.pef").read_bytes() == b"<pef/>"


def test_a_temporary_carries_the_writers_pid(tmp_path: Path, monkeypatch):
    import os

    from brailledev import files

    seen: list[str] = []
    real = files.os.replace

    def replace(source, target):
        seen.append(Path(source).name)
        real(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    write_atomically(tmp_path / "uno.json", b"{}")
    assert len(seen) == 1 and seen[0].startswith(f".uno.json.{os.getpid()}.")
    assert seen[0].endswith(".tmp")


def test_files_written_together_are_all_replaced_or_none(tmp_path: Path):
    from brailledev.files import write_together

    brf, pdf = tmp_path / "deck.brf", tmp_path / "deck.pdf"
    write_together([(brf, b"old brf"), (pdf, b"old pdf")])
    (tmp_path / "missing").mkdir()
    (tmp_path / "missing").rmdir()
    with pytest.raises(FileNotFoundError):
        write_together([(brf, b"new brf"), (tmp_path / "missing" / "deck.pdf", b"new pdf")])
    assert brf.read_bytes() == b"old brf" and pdf.read_bytes() == b"old pdf"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deck.brf", "deck.pdf"]
    write_together([(brf, b"new brf"), (pdf, b"new pdf")])
    assert brf.read_bytes() == b"new brf" and mode_of(pdf) == 0o644


def test_leftovers_of_dead_writers_are_removed_and_others_left(tmp_path: Path):
    import os
    import subprocess

    from brailledev.files import clean_leftovers

    dead = subprocess.Popen(["true"])
    dead.wait()
    names = {f".uno.json.{dead.pid}.k2j4h5.tmp": False, f".uno.json.{os.getpid()}.a1b2.tmp": True,
             ".uno.json.tmp": True, "uno.json": True, f".x.{dead.pid}.tmp": True}
    for name in names:
        (tmp_path / name).write_text("x")
    assert clean_leftovers(tmp_path) == [tmp_path / f".uno.json.{dead.pid}.k2j4h5.tmp"]
    assert {path.name for path in tmp_path.iterdir()} == {name for name, kept in names.items()
                                                          if kept}
    assert clean_leftovers(tmp_path / "none") == []


def test_a_private_folder_is_made_0700_with_its_missing_parents(tmp_path: Path):
    from brailledev.files import private_folder

    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    private_folder(shared / "state" / "brailledev")
    assert mode_of(shared) == 0o755  # not ours: left as it was
    assert mode_of(shared / "state") == 0o700
    assert mode_of(shared / "state" / "brailledev") == 0o700
    (shared / "state" / "brailledev").chmod(0o755)
    private_folder(shared / "state" / "brailledev", ours=True)
    assert mode_of(shared / "state" / "brailledev") == 0o700


def test_reading_never_waits_on_a_pipe_and_refuses_folders_and_huge_files(tmp_path: Path):
    import os

    from brailledev.files import NotAFile, TooBig, read_file

    pipe = tmp_path / "deck.toml"
    os.mkfifo(pipe)
    with pytest.raises(NotAFile):
        read_file(pipe, 100)
    with pytest.raises(IsADirectoryError):
        read_file(tmp_path, 100)
    (tmp_path / "big").write_bytes(b"x" * 101)
    with pytest.raises(TooBig):
        read_file(tmp_path / "big", 100)
    assert read_file(tmp_path / "big", 101) == b"x" * 101


def test_a_rename_that_fails_halfway_puts_the_first_file_back(tmp_path: Path, monkeypatch):
    import errno

    from brailledev import files

    brf, pdf, new = tmp_path / "deck.brf", tmp_path / "deck.pdf", tmp_path / "new.svg"
    brf.write_bytes(b"old brf")
    pdf.write_bytes(b"old pdf")
    real = files.os.replace
    calls: list[str] = []

    def replace(source, target):
        calls.append(str(target))
        if Path(target) == pdf:
            raise OSError(errno.EXDEV, "refused")
        real(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(OSError) as failed:
        files.write_together([(new, b"new svg"), (brf, b"new brf"), (pdf, b"new pdf")])
    assert failed.value.filename == str(pdf)
    assert brf.read_bytes() == b"old brf" and pdf.read_bytes() == b"old pdf"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deck.brf", "deck.pdf"]
