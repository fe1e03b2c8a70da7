"""``brailledev serve``: the table server on this machine
(see :mod:`brailledev.network.server.app`).

    brailledev serve --host 127.0.0.1 --port 8765 --db ~/.local/state/brailledev/tables.db
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from brailledev.errors import env_lang
from brailledev.files import private_folder, state_folder
from brailledev.helptext import say
from layouts.catalog import LANGUAGES, output_text
from layouts.errors import Problem, UserError, system_reason

if TYPE_CHECKING:
    from brailledev.network.server.app import TableServer


def default_db() -> Path:
    """Where the tables are kept unless ``--db`` says (XDG state folder)."""
    return state_folder() / "tables.db"


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

    from brailledev.network.server.app import TableServer
    from brailledev.network.store import Store

    lang = args.lang or env_lang()
    if not 0 < args.port < 65536:
        raise UserError("port_range", port=args.port)
    db = args.db or default_db()
    try:  # seat keys are in it: a private folder, a new file only its owner reads
        private_folder(db.parent, ours=args.db is None)
        regular = _private_file(db)
    except OSError as error:
        raise UserError("store_unusable", path=db, detail=system_reason(error)) from None
    if not regular:
        raise UserError("store_unusable", path=db, detail=Problem("damage_not_file"))
    server = TableServer(Store(db))
    # Ctrl-C, or SIGTERM from a service manager, ends it quietly.
    with contextlib.suppress(web.GracefulExit, KeyboardInterrupt):
        asyncio.run(_run(server, args.host, args.port, lang, db))
    return 0


def _private_file(path: Path) -> bool:
    """Create ``path`` readable by its owner only if it is missing; whether it is a regular
    file (a pipe is never waited on). Raises ``OSError``: ``_private_file(Path("t.db"))``."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK, 0o600)
    try:
        return stat.S_ISREG(os.fstat(descriptor).st_mode)
    finally:
        os.close(descriptor)


async def _run(server: TableServer, host: str, port: int, lang: str, db: Path) -> None:
    """Bind, say so, then serve until a signal; nothing is said before the port is ours."""
    from aiohttp import web

    runner = web.AppRunner(server.app(), access_log=None, handle_signals=True)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as error:
        await runner.cleanup()
        raise UserError("port_in_use", host=host, port=port, detail=error) from None
    print(output_text("serve.listening", lang, url=f"http://{host}:{port}", db=db),
          flush=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("brailledev.network.server").info("%d unfinished tables loaded",
                                                len(server.rooms))
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
