"""``brailledev serve``: the table server on this machine (see :mod:`brailledev.server.app`).

    brailledev serve --host 127.0.0.1 --port 8765 --db ~/.local/state/brailledev/tables.db
"""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path

from brailledev.errors import env_lang
from brailledev.helptext import say
from layouts.catalog import LANGUAGES, output_text
from layouts.errors import UserError


def default_db() -> Path:
    """Where the tables are kept unless ``--db`` says (XDG state folder)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "brailledev" / "tables.db"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("serve", help=say("serve.command"), description=say("serve.command"))
    parser.add_argument("--host", default="127.0.0.1", metavar=say("metavar.host"),
                        help=say("serve.host"))
    parser.add_argument("--port", type=int, default=8765, metavar=say("metavar.port"),
                        help=say("serve.port"))
    parser.add_argument("--db", type=Path, default=None, metavar=say("metavar.file"),
                        help=say("serve.db"))
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=say("paper.lang"))
    parser.set_defaults(run=_serve)


def _serve(args: argparse.Namespace) -> int:
    from aiohttp import web

    from brailledev.server.app import TableServer
    from brailledev.store import Store

    lang = args.lang or env_lang()
    if not 0 < args.port < 65536:
        raise UserError("port_range", port=args.port)
    db = args.db or default_db()
    db.parent.mkdir(parents=True, exist_ok=True)
    store = Store(db)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    print(output_text("serve.listening", lang, url=f"http://{args.host}:{args.port}",
                      db=db), flush=True)
    try:
        web.run_app(TableServer(store).app(), host=args.host, port=args.port, print=None,
                    access_log=None)
    except OSError as error:
        raise UserError("port_in_use", host=args.host, port=args.port, detail=error) from None
    return 0
