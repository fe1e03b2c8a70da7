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
