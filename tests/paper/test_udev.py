"""The udev rules parse, and give access and /dev/embosser0 to the devices meant, no others."""

from __future__ import annotations

import fnmatch
import re
import stat
from pathlib import Path

import pytest

from brailledev.programs.cli import main
from emboss.udev import RULES_FILE, RULES_NAME, install, rules_text, untouched
from layouts.errors import UserError

TOKEN = re.compile(r'([A-Z]+(?:\{[A-Za-z_]+\})?)(==|!=|\+=|:=|=)"([^"]*)"')
MATCH_KEYS = {"ACTION", "SUBSYSTEM", "KERNEL", "ATTRS{idVendor}", "ATTRS{idProduct}",
              "ATTRS{manufacturer}"}
ASSIGN_KEYS = {"TAG", "SYMLINK", "GOTO", "LABEL"}


def parse(text: str) -> list[list[tuple[str, str, str]]]:
    """Each rule as (key, operator, value) triples; a malformed line fails the test."""
    rules = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [part.strip() for part in line.split(", ")]
        tokens = []
        for part in parts:
            found = TOKEN.fullmatch(part)
            assert found, f"line {number}: cannot parse {part!r}"
            key, op, value = found.groups()
            assert (op in ("==", "!=") and key in MATCH_KEYS) or (
                op in ("=", "+=") and key in ASSIGN_KEYS), f"line {number}: {part}"
            tokens.append((key, op, value))
        rules.append(tokens)
    return rules


def apply(rules, device: dict[str, str]) -> tuple[set[str], set[str]]:
    """udev's evaluation, for the keys we use: tags and symlinks given to ``device``."""
    tags: set[str] = set()
    links: set[str] = set()
    skip_to = None
    for rule in rules:
        label = [value for key, _, value in rule if key == "LABEL"]
        if skip_to is not None:
            if label == [skip_to]:
                skip_to = None
            continue
        matches = [(key, op, value) for key, op, value in rule if op in ("==", "!=")]
        if not all((op == "==") == any(fnmatch.fnmatchcase(device.get(key, ""), pattern)
                                       for pattern in value.split("|"))
                   for key, op, value in matches):
            continue
        for key, _, value in rule:
            if key == "TAG":
                tags.add(value)
            elif key == "SYMLINK":
                links.add("/dev/" + value.replace("%n", re.sub(r"\D", "", device["KERNEL"])))
            elif key == "GOTO":
                skip_to = value
    return tags, links


def usb_serial(vendor: str, product: str, kernel: str = "ttyUSB0") -> dict[str, str]:
    return {"ACTION": "add", "SUBSYSTEM": "tty", "KERNEL": kernel,
            "ATTRS{idVendor}": vendor, "ATTRS{idProduct}": product}


RULES = parse(rules_text())
WITH_ADAPTERS = parse(rules_text(adapters=True))
ADAPTERS = [("0403", "6001"), ("0403", "6015"), ("067b", "2303"), ("1a86", "7523"),
            ("10c4", "ea60")]


@pytest.mark.parametrize(("vendor", "product"), ADAPTERS)
def test_usb_serial_adapters_are_claimed_only_when_asked(vendor, product):
    assert apply(RULES, usb_serial(vendor, product)) == (set(), set())
    assert apply(WITH_ADAPTERS, usb_serial(vendor, product)) == ({"uaccess"},
                                                                 {"/dev/embosser0"})
    assert apply(WITH_ADAPTERS, usb_serial(vendor, product, "ttyUSB3"))[1] == \
        {"/dev/embosser3"}


def test_usb_printer_class_embossers_by_maker():
    for rules in (RULES, WITH_ADAPTERS):
        for maker in ("Index Braille", "Braillo Norway", "Enabling Technologies"):
            device = {"ACTION": "add", "SUBSYSTEM": "usbmisc", "KERNEL": "lp0",
                      "ATTRS{manufacturer}": maker}
            assert apply(rules, device) == ({"uaccess"}, {"/dev/embosser-lp0"})


def test_an_embossers_own_usb_serial_chip_is_found_by_its_maker():
    device = usb_serial("0403", "6001") | {"ATTRS{manufacturer}": "Index Braille AB"}
    assert apply(RULES, device) == ({"uaccess"}, {"/dev/embosser0"})
    acm = usb_serial("1234", "5678", "ttyACM1") | {"ATTRS{manufacturer}": "ViewPlus"}
    assert apply(RULES, acm) == ({"uaccess"}, {"/dev/embosser1"})


@pytest.mark.parametrize("device", [
    usb_serial("2341", "0043", "ttyACM0"),                        # an Arduino
    usb_serial("0403", "6001") | {"ACTION": "remove"},
    usb_serial("0403", "6001") | {"SUBSYSTEM": "usb"},
    usb_serial("0403", "6001") | {"ATTRS{manufacturer}": "FTDI"},  # a bare adapter
    {"ACTION": "add", "SUBSYSTEM": "usbmisc", "KERNEL": "lp0",
     "ATTRS{manufacturer}": "Brother"},                          # an ink printer
    {"ACTION": "add", "SUBSYSTEM": "input", "KERNEL": "event3"},
])
def test_other_devices_are_left_alone(device):
    assert apply(RULES, device) == (set(), set())


def test_rules_file_ships_beside_the_code():
    assert RULES_FILE.name == RULES_NAME and RULES_FILE.parent.name == "udev"
    assert 'TAG+="uaccess"' in rules_text()
    assert rules_text().startswith("# brailledev udev rules, sha256 ")
    assert untouched(rules_text()) and untouched(rules_text(adapters=True))


def test_show_prints_the_rules(capsys):
    assert main(["udev", "show"]) == 0
    assert capsys.readouterr().out == rules_text()
    assert main(["udev", "show", "--adapters"]) == 0
    assert capsys.readouterr().out == rules_text(adapters=True)


def test_install_needs_root_and_says_so(tmp_path: Path):
    with pytest.raises(UserError, match="sudo brailledev udev install"):
        install(tmp_path, is_root=False)
    assert list(tmp_path.iterdir()) == []


def test_install_writes_the_rules_readable_by_all_and_reports(tmp_path: Path):
    message = install(tmp_path, is_root=True, udevadm=None)
    assert (tmp_path / RULES_NAME).read_text(encoding="utf-8") == rules_text()
    assert stat.S_IMODE((tmp_path / RULES_NAME).stat().st_mode) == 0o644
    assert message.startswith(f"installed {tmp_path / RULES_NAME}; udevadm is not here")
    assert install(tmp_path, is_root=True, udevadm=None).startswith(
        f"{tmp_path / RULES_NAME} already holds these rules;")
    assert install(tmp_path, is_root=True, udevadm=None, adapters=True).startswith(
        f"updated {tmp_path / RULES_NAME}, which held earlier rules of brailledev;")
    assert (tmp_path / RULES_NAME).read_text(encoding="utf-8") == rules_text(adapters=True)


def test_the_rules_brailledev_installed_before_the_stamp_are_updated(tmp_path: Path):
    earlier = Path(__file__).with_name("udev-rules-0.1.rules").read_text(encoding="utf-8")
    (tmp_path / RULES_NAME).write_text(earlier, encoding="utf-8")
    assert install(tmp_path, is_root=True, udevadm=None).startswith("updated ")


def test_a_rules_file_edited_by_hand_is_left_alone_unless_forced(tmp_path: Path, capsys):
    install(tmp_path, is_root=True, udevadm=None)
    path = tmp_path / RULES_NAME
    # a maker's name typed in Latin-1 by an old editor: kept byte for byte
    edited = path.read_bytes().replace(b"Index*|", b"Index*|Cr\xe9ation*|")
    path.write_bytes(edited)
    before = path.stat().st_mtime_ns
    with pytest.raises(UserError) as refused:
        install(tmp_path, is_root=True, udevadm=None)
    assert refused.value.text("en") == (
        f"{path} was edited by hand, so it is left as it is; merge your changes yourself, or "
        "run: sudo brailledev udev install --force (your file is kept beside it)")
    assert path.read_bytes() == edited and path.stat().st_mtime_ns == before
    message = install(tmp_path, is_root=True, udevadm=None, force=True, lang="fr")
    kept = [each for each in tmp_path.iterdir() if each.name != RULES_NAME]
    assert len(kept) == 1 and kept[0].name.startswith(f"{RULES_NAME}.edited-")
    assert not kept[0].name.endswith(".rules")  # udev reads *.rules only
    assert kept[0].read_bytes() == edited
    assert path.read_text(encoding="utf-8") == rules_text()
    assert message.startswith(f"{path} remplacé, il avait été modifié à la main ; le fichier "
                              f"modifié est gardé sous le nom {kept[0]}")


def test_a_file_someone_else_wrote_there_is_never_replaced_unasked(tmp_path: Path):
    (tmp_path / RULES_NAME).write_text('SUBSYSTEM=="tty", TAG+="uaccess"\n', encoding="utf-8")
    with pytest.raises(UserError, match="edited by hand"):
        install(tmp_path, is_root=True, udevadm=None)
