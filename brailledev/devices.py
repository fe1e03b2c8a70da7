"""``brailledev devices`` (is a BRLTTY answering, with what display) and ``brailledev tables``.

    brailledev devices --brlapi-host 127.0.0.1:1
    brailledev tables
"""

from __future__ import annotations

import argparse

from brailledev.braille import CONTRACTED_TABLES, DEFAULT_TABLES, available_tables
from brailledev.display.brlapi import probe
from brailledev.helptext import say


def devices_report(host: str | None) -> list[str]:
    """Lines telling whether a BRLTTY answers at ``host`` and what display it drives."""
    where = host or "the default BrlAPI address"
    info = probe(host)
    if info is None:
        return [f"No BRLTTY answers at {where}: games use the terminal display.",
                "Start BRLTTY with your braille display (systemctl start brltty) to play on it."]
    if info.columns * info.rows == 0:
        return [f"BRLTTY answers at {where} (driver {info.driver}) but no display is attached:",
                "games use the terminal display until one is connected."]
    size = f"{info.columns} cells" if info.rows == 1 else f"{info.columns} x {info.rows} cells"
    return [f"BRLTTY answers at {where}: driver {info.driver}, display of {size}."]


def tables_report() -> list[str]:
    """One line per offered braille table, the defaults of each language marked."""
    lines = ["Braille tables (--table NAME); * default, + default contracted:"]
    for table in available_tables():
        mark = "*" if DEFAULT_TABLES.get(table.lang) == table.name else \
            "+" if CONTRACTED_TABLES.get(table.lang) == table.name else " "
        lines.append(f" {mark} {table.name:<18} {table.lang}  {table.description}")
    lines.append("Any other table installed with liblouis may be named too.")
    return lines


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("devices", help=say("devices.command"),
                            description=say("devices.command"))
    parser.add_argument("--brlapi-host", default=None, metavar=say("metavar.host"),
                        help=say("devices.brlapi_host"))
    parser.set_defaults(run=_run_devices)
    parser = sub.add_parser("tables", help=say("tables.command"),
                            description=say("tables.command"))
    parser.set_defaults(run=_run_tables)


def _run_devices(args: argparse.Namespace) -> int:
    print("\n".join(devices_report(args.brlapi_host)))
    return 0


def _run_tables(args: argparse.Namespace) -> int:
    print("\n".join(tables_report()))
    return 0
