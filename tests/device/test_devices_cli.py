"""``brailledev devices`` against a real BRLTTY, and ``brailledev tables``."""

from __future__ import annotations

import pytest

from brailledev.programs.cli import main
from tests.brltty.harness import VirtualBrltty


def test_devices_names_the_driver_and_size(brltty: VirtualBrltty,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["devices", "--brlapi-host", brltty.host]) == 0
    out = capsys.readouterr().out
    assert f"BRLTTY answers at {brltty.host}: driver Virtual" in out
    assert "display of 40 cells" in out


def test_devices_without_brltty_says_the_terminal_is_used(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["devices", "--brlapi-host", "127.0.0.1:29998"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("No BRLTTY answers at 127.0.0.1:29998")
    assert "terminal display" in out


def test_tables_lists_defaults_by_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith(" * fr-bfu-comp6.utb") and " fr " in line for line in lines)
    assert any(line.startswith(" * en-ueb-g1.ctb") for line in lines)
    assert any(line.startswith(" + fr-bfu-g2.ctb") for line in lines)
    assert any(line.startswith(" + en-ueb-g2.ctb") for line in lines)
