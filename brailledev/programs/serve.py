"""``brailledev serve``: the table server on this machine
(see :mod:`brailledev.network.server.app`). Its command line becomes the server's
:class:`brailledev.network.server.guard.Doorkeeping` here: who makes tables (anyone, the
default on loopback, or whoever has the owner's key: a server listening beyond this machine
or behind a proxy must be told which), the limits per client address, and how long tables
are kept.

    brailledev serve --host 127.0.0.1 --port 8765 --db ~/.local/state/brailledev/tables.db
    brailledev serve --key-file ~/owner.key --trust-proxy     # behind a TLS proxy
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import logging
import os
import re
import secrets
import signal
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from brailledev.errors import env_lang
from brailledev.files import private_folder, state_folder, write_atomically
from brailledev.helptext import say
from brailledev.network.server.limits import Limits
from brailledev.network.store import Census, Lifetimes, StoreFailed
from layouts.catalog import LANGUAGES, output_text
from layouts.errors import Problem, UserError, system_reason

if TYPE_CHECKING:
    from brailledev.network.server.app import TableServer
    from brailledev.network.server.guard import Doorkeeping

LEAST_KEY = 16  # characters of an owner's key
KEY_BYTES = 24  # random bytes of a key ``serve`` makes (32 characters)
UNITS = {"s": 1.0, "m": 60.0, "h": 3_600.0, "d": 86_400.0}
MOST_DURATION = 10 * 365 * 86_400.0
LIMITS = {"tables_per_hour": 20, "tries_per_minute": 10, "connections": 20}
MOST_LIMIT = 100_000
LIFETIMES = {"expire_unjoined": "1d", "keep_finished": "1h", "expire_idle": "30d",
             "keep_records": "365d"}


def default_db() -> Path:
    """Where the tables are kept unless ``--db`` says (XDG state folder)."""
    return state_folder() / "tables.db"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("serve", help=say("serve.command"), description=say("serve.command"))
    parser.add_argument("--host", default="127.0.0.1", metavar=say("metavar.host"),
                        help=say("serve.host"))
    parser.add_argument("--port", type=int, default=8765, metavar=say("metavar.port"),
                        help=say("serve.port"))
    parser.add_argument("--db", default=None, metavar=say("metavar.file"),
                        help=say("serve.db"))
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=say("paper.lang"))
    door = parser.add_argument_group(say("serve.door"))
    door.add_argument("--open", action="store_true", help=say("serve.open"))
    door.add_argument("--key-file", type=Path, default=None, metavar=say("metavar.file"),
                      help=say("serve.key_file"))
    door.add_argument("--trust-proxy", action="store_true", help=say("serve.trust_proxy"))
    door.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                      help=say("serve.allow_origin"))
    for name, most in LIMITS.items():
        door.add_argument(f"--{name.replace('_', '-')}", type=int, default=most,
                          metavar="N", help=say(f"serve.{name}", most=most))
    life = parser.add_argument_group(say("serve.lifetimes"))
    for name, duration in LIFETIMES.items():
        life.add_argument(f"--{name.replace('_', '-')}", default=duration,
                          metavar=say("metavar.duration"),
                          help=say(f"serve.{name}", duration=duration))
    parser.set_defaults(run=_serve)


def _serve(args: argparse.Namespace) -> int:
    from brailledev.network.server.app import TableServer
    from brailledev.network.store_postgres import shown
    from brailledev.network.stores import is_database, open_store

    lang = args.lang or env_lang()
    if not 0 < args.port < 65536:
        raise UserError("port_range", port=args.port)
    door = doorkeeping(args, lang)
    db: Path | str = args.db if is_database(args.db) else Path(args.db or default_db())
    if isinstance(db, Path):
        _private_store(db, ours=args.db is None)
    store = open_store(db)
    try:
        census = store.census()
    except StoreFailed as failure:
        store.close()
        raise UserError("store_unusable", path=db, detail=failure.detail) from None
    server = TableServer(store, door)
    # Ctrl-C, or SIGTERM from a service manager, ends it quietly (before the loop runs too).
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_run(server, args.host, args.port, lang,
                         shown(db) if isinstance(db, str) else str(db), census))
    return 0


def _private_store(db: Path, ours: bool) -> None:
    """Seat keys are in the file: a private folder (made if ``ours``), a new file only its
    owner reads; a file that cannot be, one sentence."""
    try:
        private_folder(db.parent, ours=ours)
        regular = _private_file(db)
    except OSError as error:
        raise UserError("store_unusable", path=db, detail=system_reason(error)) from None
    if not regular:
        raise UserError("store_unusable", path=db, detail=Problem("damage_not_file"))


def doorkeeping(args: argparse.Namespace, lang: str) -> Doorkeeping:
    """What ``serve``'s command line says of who comes in and how long tables stay;
    a mistake is one :class:`layouts.errors.UserError`."""
    from brailledev.network.server.guard import Doorkeeping  # aiohttp: only when serving
    if args.open and args.key_file is not None:
        raise UserError("serve_open_and_key")
    if not (args.open or args.key_file is not None):
        if not _loopback(args.host):
            raise UserError("serve_needs_door", host=args.host)
        if args.trust_proxy:  # on loopback, but whoever reaches the proxy comes in
            raise UserError("serve_needs_door_proxy")
    for name in LIMITS:
        value = getattr(args, name)
        if not 1 <= value <= MOST_LIMIT:
            raise UserError("serve_limit_range", option=f"--{name.replace('_', '-')}",
                            value=value, most=MOST_LIMIT)
    origins = []
    for origin in args.allow_origin:
        if not re.fullmatch(r"https?://[^/\s]+/?", origin.strip()):
            raise UserError("serve_origin", origin=origin)
        origins.append(origin.strip().rstrip("/").lower())
    lifetimes = {name: duration(getattr(args, name), f"--{name.replace('_', '-')}")
                 for name in LIFETIMES}
    return Doorkeeping(
        owner_key=None if args.key_file is None else owner_key(args.key_file, lang),
        limits=Limits(args.tables_per_hour, args.tries_per_minute, args.connections),
        trust_proxy=args.trust_proxy, origins=tuple(origins),
        lifetimes=Lifetimes(unjoined=lifetimes["expire_unjoined"],
                            finished=lifetimes["keep_finished"],
                            idle=lifetimes["expire_idle"],
                            records=lifetimes["keep_records"]))


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def duration(text: str, option: str) -> float:
    """Seconds of a duration such as ``90s``, ``30m``, ``12h``, ``1d`` (seconds without a
    unit): ``duration("12h", "--expire-unjoined") == 43200.0``."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text)
    seconds = float(found.group(1)) * UNITS.get(found.group(2), 1.0) if found else -1.0
    if not 0 < seconds <= MOST_DURATION:
        raise UserError("serve_duration", option=option, value=text)
    return seconds


def owner_key(path: Path, lang: str) -> str:
    """The hash of the owner's key kept in ``path``; a missing file is made with a new key,
    readable by its owner only, and ``serve`` says so."""
    try:
        if not path.exists():
            write_atomically(path, (secrets.token_urlsafe(KEY_BYTES) + "\n").encode("ascii"),
                             mode=0o600)
            print(output_text("serve.key_made", lang, path=path), flush=True)
        key = path.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise UserError("key_file_unusable", path=path, detail=system_reason(error)) from None
    except UnicodeDecodeError:
        raise UserError("key_file_unusable", path=path,
                        detail=Problem("damage_not_text")) from None
    if len(key) < LEAST_KEY:
        raise UserError("key_too_short", path=path, least=LEAST_KEY)
    from brailledev.network.server.guard import hash_key  # aiohttp: only when serving
    return hash_key(key)


def _private_file(path: Path) -> bool:
    """Create ``path`` readable by its owner only if it is missing; whether it is a regular
    file (a pipe is never waited on). Raises ``OSError``: ``_private_file(Path("t.db"))``."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK, 0o600)
    try:
        return stat.S_ISREG(os.fstat(descriptor).st_mode)
    finally:
        os.close(descriptor)


async def _run(server: TableServer, host: str, port: int, lang: str, db: str,
               census: Census) -> None:
    """Bind, say so, then serve until SIGTERM or SIGINT; nothing is said before the port is
    ours. Stopping, a process behind a balancer first lets it see so and move its players
    (:meth:`TableServer.drain`), then the port is closed, every client told to go (1001)
    and the tables saved. (aiohttp's own signal handling cancelled every connection's task
    first, and each seat's leaving was committed: 128 seats took 0.6 s before any client
    was told, on PostgreSQL at a load of 5.)"""
    from aiohttp import web

    from brailledev.network.server.app import BACKLOG

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    runner = web.AppRunner(server.app(), access_log=None, handle_signals=False)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port, backlog=BACKLOG).start()
    except OSError as error:
        await runner.cleanup()
        raise UserError("port_in_use", host=host, port=port, detail=error) from None
    print(output_text("serve.listening", lang, url=f"http://{host}:{port}", db=db),
          flush=True)
    print(output_text("serve.holds", lang, tables=census.tables, waiting=census.waiting,
                      playing=census.playing, finished=census.finished,
                      records=census.records), flush=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("brailledev.network.server").info("%d tables in play loaded",
                                                        len(server.rooms))
    try:
        await stop.wait()
        await server.drain()
    finally:
        await runner.cleanup()
