"""``brailledev devices`` (is a BRLTTY answering, with what display) and ``brailledev tables``,
told in the reader's language (``[output]`` of ``layouts/common/{en,fr}.toml``).

    brailledev devices --brlapi-host 127.0.0.1:1
    brailledev tables --lang fr
"""

from __future__ import annotations

import argparse

from brailledev.display.braille import CONTRACTED_TABLES, DEFAULT_TABLES, available_tables
from brailledev.display.brlapi import probe
from brailledev.errors import error_lang
from brailledev.helptext import say
from layouts.catalog import LANGUAGES, output_text


def devices_report(host: str | None, lang: str = "en", auth: str | None = None) -> list[str]:
    """Lines telling whether a BRLTTY answers at ``host`` and what display it drives (a
    BRLTTY refusing our key ``auth`` is a UserError): ``devices_report("127.0.0.1:1", "fr")``."""
    where = host or output_text("devices.default_host", lang)
    info = probe(host, auth)
    if info is None:
        return [output_text("devices.none", lang, where=where),
                output_text("devices.none_hint", lang)]
    if info.columns * info.rows == 0:
        return [output_text("devices.no_display", lang, where=where, driver=info.driver),
                output_text("devices.no_display_hint", lang)]
    size = output_text("devices.cells" if info.rows == 1 else "devices.cells_grid", lang,
                       columns=info.columns, rows=info.rows)
    return [output_text("devices.found", lang, where=where, driver=info.driver, size=size)]


def tables_report(lang: str = "en") -> list[str]:
    """One line per offered braille table, the defaults of each language marked:
    ``tables_report("fr")[1]`` is ``" * fr-bfu-comp6.utb   fr  français, intégral, 6 points"``."""
    lines = [output_text("tables.title", lang)]
    for table in available_tables():
        mark = "*" if DEFAULT_TABLES.get(table.lang) == table.name else \
            "+" if CONTRACTED_TABLES.get(table.lang) == table.name else " "
        description = output_text(("tables", "names", table.name), lang)
        lines.append(f" {mark} {table.name:<18} {table.lang}  {description}")
    lines.append(output_text("tables.others", lang))
    return lines


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("devices", help=say("devices.command"),
                            description=say("devices.command"))
    parser.add_argument("--brlapi-host", default=None, metavar=say("metavar.host"),
                        help=say("devices.brlapi_host"))
    parser.add_argument("--brlapi-auth", default=None, metavar=say("metavar.auth"),
                        help=say("brlapi_auth"))
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=say("lang"))
    parser.set_defaults(run=_run_devices)
    parser = sub.add_parser("tables", help=say("tables.command"),
                            description=say("tables.command"))
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=say("lang"))
    parser.set_defaults(run=_run_tables)


def _run_devices(args: argparse.Namespace) -> int:
    print("\n".join(devices_report(args.brlapi_host, error_lang(args.lang), args.brlapi_auth)))
    return 0


def _run_tables(args: argparse.Namespace) -> int:
    print("\n".join(tables_report(error_lang(args.lang))))
    return 0
