"""A BRLTTY that asks its BrlAPI clients for a key (issue 13.6): refused, brailledev says so
and how to fix it (the brlapi group, ``--brlapi-auth``), in the reader's language, never "no
BRLTTY"; with the key it plays."""

from __future__ import annotations

import base64
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from brailledev.display import open_display
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.programs.cli import main
from layouts.errors import UserError
from tests.brltty.harness import VirtualBrltty


@pytest.fixture
def locked(virtual_brltty: Callable[..., VirtualBrltty],
           tmp_path: Path) -> tuple[VirtualBrltty, Path]:
    """A BRLTTY whose clients must give the key in a file, and that file."""
    key = tmp_path / "brlapi.key"
    key.write_bytes(base64.b64encode(os.urandom(24)))
    return virtual_brltty(40, 1, auth=f"keyfile:{key}"), key


def test_a_refused_key_is_told_with_its_remedies(locked, capsys):
    brltty, _ = locked
    assert main(["devices", "--brlapi-host", brltty.host]) == 2
    assert capsys.readouterr().err == (
        f"brailledev: BRLTTY answers at {brltty.host} but refuses brailledev (its key was not "
        "accepted); add yourself to the brlapi group (sudo adduser $USER brlapi, then log in "
        "again), or give a key it accepts with --brlapi-auth keyfile:/etc/brlapi.key.\n")
    assert main(["devices", "--brlapi-host", brltty.host, "--lang", "fr", "--brlapi-auth",
                 f"keyfile:{brltty.directory}/none.key"]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"brailledev: BRLTTY répond à {brltty.host} mais refuse brailledev "
                           f"(la clé keyfile:{brltty.directory}/none.key ne peut pas être lue : "
                           "fichier ou dossier introuvable)")


@pytest.mark.parametrize("kind", ["brlapi", "auto"])
def test_play_says_the_key_was_refused_before_any_game_is_saved(locked, capsys, tmp_path,
                                                               kind):
    brltty, _ = locked
    save = tmp_path / "uno.json"
    assert main(["play", "uno", "--display", kind, "--brlapi-host", brltty.host,
                 "--no-speech", "--save", str(save)]) == 2
    said = capsys.readouterr().err
    assert "refuses brailledev (its key was not accepted)" in said and said.count("\n") == 1
    assert "No braille display answers" not in said
    assert not save.exists()


def test_with_its_key_the_display_is_ours(locked, capsys):
    brltty, key = locked
    assert main(["devices", "--brlapi-host", brltty.host, "--brlapi-auth",
                 f"keyfile:{key}"]) == 0
    assert "driver Virtual, display of 40 cells" in capsys.readouterr().out
    display = open_display("brlapi", brltty.host, auth=f"keyfile:{key}")
    assert isinstance(display, BrlapiDisplay)
    display.write(["⠗⠼⠑"])
    assert brltty.wait_for(lambda rows: rows[0].startswith("⠗⠼⠑"))
    display.close()
    with pytest.raises(UserError, match="refuses brailledev"):
        BrlapiDisplay(brltty.host)


def test_pad_and_join_give_the_key_too(locked, capsys, tmp_path):
    from tests.server.helpers import ServerThread, new_table

    brltty, _ = locked
    wrong = f"keyfile:{brltty.directory}/none.key"
    assert main(["pad", "elevens", "--display", "brlapi", "--brlapi-host", brltty.host,
                 "--no-speech", "--save", str(tmp_path / "pad.json")]) == 2
    assert "refuses brailledev (its key was not accepted)" in capsys.readouterr().err
    with ServerThread() as server:
        code = new_table(server.url, game="uno", players=2, people=1, seed=3)
        for command in (["pad", "elevens", "--save", str(tmp_path / "pad.json")],
                        ["join", server.url, code, "--save", str(tmp_path / "seat.json")]):
            assert main([*command, "--display", "brlapi", "--brlapi-host", brltty.host,
                         "--no-speech", "--brlapi-auth", wrong, "--lang", "fr"]) == 2
            said = capsys.readouterr().err
            assert said.startswith(f"brailledev: BRLTTY répond à {brltty.host} mais refuse "
                                   f"brailledev (la clé {wrong} ne peut pas être lue"), said
            assert said.count("\n") == 1
