"""``brailledev table new`` and ``brailledev join``: a seat at a table a server holds, shown
on a braille display (or the terminal) with the very screens, routing, panning, chords,
speech and message history of ``play``.

The network runs in a thread of its own (:class:`brailledev.network.remote.Background`, around
a :class:`brailledev.network.client.TableClient`); the key loop (:class:`TableFront`) applies
what the server sent between two keys (:meth:`Joined.step`), so the display never waits for
the network. The seat's key, the message history and the place in it, and the half-made
input (a Rummikub turn being built, with its undo) with the table's position it was built
on, are saved after every change (``--save``), so ``join`` again takes the same seat back
where it was, the input too while the table has not moved on.

    brailledev table new uno --players 4 --people 2 --server http://127.0.0.1:8765
    brailledev join http://127.0.0.1:8765 tkrzvm --name Ann --lang fr
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import getpass
import os
import queue
from collections.abc import Hashable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from brailledev.display.braille import BLANK, Translator, dots_to_cell, table_for, translator
from brailledev.display.chords import SPACE_MOVES
from brailledev.display.keys import Chord, Key, Named
from brailledev.errors import env_lang
from brailledev.files import clean_leftovers, held, private_folder, state_folder
from brailledev.helptext import say
from brailledev.network.client import TableClient, http_url
from brailledev.network.remote import Background, RemoteLink
from brailledev.network.wire import codec_for
from brailledev.programs import options as game_options
from brailledev.programs.launch import SeatProgram, add_reader_options, launch
from brailledev.programs.savefile import SaveFile, Unreadable, damage, read_json
from brailledev.table.history import History
from brailledev.table.keyloop import Front
from brailledev.table.presence import TALK, TableSeat
from brailledev.table.seat import SeatClient
from games import saved as check
from games.core import BadState
from layouts.catalog import LANGUAGES, output_text
from layouts.errors import Problem, UserError, system_reason
from layouts.registry import GAMES
from layouts.screen import Ui

SEAT_FORMAT, SEAT_VERSION = "brailledev-seat", 1
MOST_SEQ = 2**62  # the most changes a saved seat may say it has seen
JOIN_WAIT = 10.0  # seconds the first connection may take before join gives up
NEWS_POLL = 0.05  # seconds between two looks for news while the player does nothing
DOT_7, DOT_8 = 0x40, 0x80  # backspace and enter on a braille keyboard
# The server's refusals of a hello, as the sentences ``join`` ends with.
JOIN_REFUSED = {"table_unknown": "join_table_unknown", "wrong_token": "join_wrong_token",
                "table_full": "join_table_full", "table_over": "join_table_over",
                "frame_invalid": "join_frame_invalid", "too_many_tries": "too_many_tries",
                "table_damaged": "table_damaged"}
KEY_VARIABLE = "BRAILLEDEV_KEY"  # the owner's key, when neither --key nor --key-file gives it


class Joined(SeatProgram):
    """A seat at a server's table, as the key loop drives it: news applied between two
    keys; the seat's key and the reader's state saved after each."""

    seat: TableSeat

    def __init__(self, client: TableClient, background: Background, inbox: queue.SimpleQueue[
            Any], seat: TableSeat, link: RemoteLink, server: str,
                 save_path: Path | None = None,
                 running: concurrent.futures.Future[None] | None = None) -> None:
        self.client = client
        self.running = running
        self.background = background
        self.inbox = inbox
        self.seat = seat
        self.link = link
        self.server = server
        self.saving = SaveFile(save_path)
        self._lost = False
        self._input_saved: Hashable = seat.pending

    def step(self) -> bool:
        """Apply what the server sent since the last step; True when anything came."""
        changed = self.seat.take_notices()
        news = False
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            changed = True
            news = self._take(item) or news
        if news or self.seat.pending != self._input_saved:
            self.save()  # a half-made input is saved as soon as it changes, as news is
        return changed

    def next_due(self) -> float | None:
        """Now when news waits; else soon: the others may move at any moment, and their
        move shows within ``NEWS_POLL`` seconds."""
        return 0.0 if not self.inbox.empty() else NEWS_POLL

    def _take(self, item: Any) -> bool:
        seat, catalog = self.seat, self.seat.catalog
        if isinstance(item, bool):
            if not item:
                self._lost = True
                seat.alert(catalog.text("connection_lost"))
            elif self._lost:
                self._lost = False
                seat.alert(catalog.text("connection_back"))  # the news missed follows
            return False
        kind = item.get("type")
        if kind == "news":
            if "state" in item:
                self.link.apply(item["state"])
                seat.refresh_names()
            events = list(self.link.codec.decode(item["events"]))
            if events or "state" in item:
                seat.hear(events)
            return True
        if kind == "error":
            params = item.get("params") or {}
            try:
                why = catalog.text(str(item.get("code")), **params)
            except (KeyError, IndexError, ValueError):  # a code this client does not know
                why = str(item.get("code"))
            seat.tell(catalog.text("table_says", why=why))
        return False

    def to_dict(self) -> dict[str, Any]:
        """The seat's key, where it is at the table (the last change told, the position of
        the game the half-made input is built on), and the reader's state (the input with
        it)."""
        return {"format": SEAT_FORMAT, "version": SEAT_VERSION, "server": self.server,
                "code": self.client.code, "seat": self.seat.seat, "token": self.client.token,
                "seq": self.client.seq, "position": self.link.position,
                "reader": self.seat.to_dict()}

    def save(self) -> None:
        """Save once the server gave the seat its key (before, there is nothing to keep)."""
        if self.client.token is not None:
            self._input_saved = self.seat.pending
            super().save()

    def close(self) -> None:
        """Leave the table (the others are told so; the seat stays ours for its key) and
        stop the network (once: a second close finds it stopped)."""
        if not self.background.loop.is_running():
            return
        self.save()
        with contextlib.suppress(TimeoutError):
            self.background.run(self.client.leave(), 5)
            if self.running is not None:
                self.running.result(5)
        self.background.close()


class TableFront(Front[Joined]):
    """The key loop of ``play`` with table talk: while the talk entry is open, braille
    keyboard chords type into it (space a space, dot 7 erases, dot 8 sends) and the
    terminal reads the line whole."""

    def __init__(self, session: Joined, display: Any, braille: Translator) -> None:
        super().__init__(session, display, braille)
        self.table_seat: TableSeat = session.seat
        self.typed_cells = ""

    def _press(self, key: Key) -> bool:
        """Act on one key as ``play`` does; chords type into an open talk entry, and a
        terminal reads the line whole: ``front.press(Named(TALK))``."""
        seat = self.table_seat
        if seat.talk_open() and isinstance(key, Chord) \
                and not (key.space and key.dots in SPACE_MOVES):
            self._type(key)
            return True
        if key == Named(TALK):
            seat.activate(Ui(TALK))
        else:
            going_on = super()._press(key)
            if not going_on:
                return False
        if not seat.talk_open():
            self.typed_cells = ""
        elif hasattr(self.display, "read_line"):
            self.redraw()
            seat.type_text(self.display.read_line(seat.catalog.text("talk_prompt") + " "))
            seat.send_talk()
        return True

    def _type(self, chord: Chord) -> None:
        """One chord into the talk entry: cells back-translated with the player's table,
        so contracted braille is typed as it is read."""
        seat = self.table_seat
        if chord == Chord(DOT_8):
            seat.send_talk()
            self.typed_cells = ""
            return
        if chord == Chord(DOT_7):
            self.typed_cells = self.typed_cells[:-1]
        elif chord.space and not chord.dots:
            self.typed_cells += BLANK
        else:
            self.typed_cells += dots_to_cell(chord.dots & 0x3F)
        seat.retype(self.braille.back(self.typed_cells) if self.typed_cells.strip(BLANK)
                    else " " * len(self.typed_cells))


# ---- the commands ------------------------------------------------------------------------

def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    table = sub.add_parser("table", help=say("table.command"),
                           description=say("table.command"))
    actions = table.add_subparsers(dest="action", required=True,
                                   metavar=say("metavar.what"))
    new = actions.add_parser("new", help=say("table.new"), description=say("table.new"),
                             add_help=False)
    new.add_argument("-h", "--help", action=game_options.GameHelp, help=say("help_game"))
    new.add_argument("game", choices=GAMES, help=say("table.game"))
    new.add_argument("--players", type=int, default=2, metavar="N",
                     help=say("table.players"))
    new.add_argument("--people", type=int, default=None, metavar="N",
                     help=say("table.people"))
    new.add_argument("--bots", default="heuristic", metavar=say("metavar.bots"),
                     help=say("table.bots"))
    new.add_argument("--seed", type=int, default=None, metavar="N", help=say("play.seed"))
    new.add_argument("--away", type=float, default=120.0, metavar=say("metavar.seconds"),
                     help=say("table.away"))
    new.add_argument("--pace", type=float, default=1.5, metavar=say("metavar.seconds"),
                     help=say("play.pace"))
    new.add_argument("--server", default="http://127.0.0.1:8765", metavar="URL",
                     help=say("table.server"))
    new.add_argument("--key", default=None, metavar=say("metavar.key"), help=say("table.key"))
    new.add_argument("--key-file", type=Path, default=None, metavar=say("metavar.file"),
                     help=say("table.key_file"))
    new.add_argument("--lang", choices=LANGUAGES, default=None, help=say("paper.lang"))
    game_options.add_arguments(new)
    new.set_defaults(run=_new_table)

    join = sub.add_parser("join", help=say("join.command"), description=say("join.command"))
    join.add_argument("server", metavar="URL", help=say("join.server"))
    join.add_argument("code", metavar=say("metavar.code"), help=say("join.code"))
    join.add_argument("--name", default=None, metavar=say("metavar.name"),
                      help=say("join.name"))
    add_reader_options(join)
    join.add_argument("--save", type=Path, default=None, metavar=say("metavar.file"),
                      help=say("join.save", file=say("metavar.file")))
    join.add_argument("--new", action="store_true", help=say("join.new"))
    join.set_defaults(run=_join)


def _server(url: str) -> str:
    try:
        return http_url(url)
    except ValueError:
        raise UserError("server_url", url=url) from None


def _new_table(args: argparse.Namespace) -> int:
    server = _server(args.server)
    lang = args.lang or env_lang()
    options = game_options.chosen(args, args.game, args.players)
    request: dict[str, Any] = {
        "game": args.game, "players": args.players,
        "people": args.people if args.people is not None else min(2, args.players),
        "bots": args.bots, "options": options, "away": args.away, "pace": args.pace}
    if args.seed is not None:
        request["seed"] = args.seed
    answer = asyncio.run(_post(server, request, _owner_key(args)))
    code = str(answer["code"])
    print(output_text("table.created", lang, invitation=code, game=args.game))
    print(output_text("table.invite", lang, command=f"brailledev join {server} {code}"))
    print(output_text("table.web", lang, link=f"{server.rstrip('/')}/t/{code}"))
    return 0


def _owner_key(args: argparse.Namespace) -> str | None:
    """The owner's key ``table new`` gives the server: ``--key``, else the first line of
    ``--key-file``, else ``BRAILLEDEV_KEY``; ``None`` when there is none."""
    if args.key is not None and args.key_file is not None:
        raise UserError("argument_conflict", name="--key", other="--key-file")
    if args.key_file is not None:
        try:
            return args.key_file.read_text(encoding="utf-8").strip() or None
        except OSError as error:
            raise UserError("key_file_unusable", path=args.key_file,
                            detail=system_reason(error)) from None
        except UnicodeDecodeError:
            raise UserError("key_file_unusable", path=args.key_file,
                            detail=Problem("damage_not_text")) from None
    return args.key or os.environ.get(KEY_VARIABLE) or None


async def _post(server: str, request: dict[str, Any], key: str | None) -> dict[str, Any]:
    import aiohttp  # here: the command line starts without loading it

    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        async with aiohttp.ClientSession() as session, \
                session.post(f"{server}/tables", json=request, headers=headers,
                             timeout=aiohttp.ClientTimeout(total=JOIN_WAIT)) as response:
            answer = await response.json(content_type=None)
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
        raise UserError("server_unreachable", url=server, detail=error) from None
    if not isinstance(answer, dict):
        raise UserError("server_unreachable", url=server, detail=answer)
    if "error" in answer:
        raise UserError(str(answer["error"]), **dict(answer.get("params") or {}))
    return answer


def default_seat_file(server: str, code: str) -> Path:
    """Where a seat is saved unless ``--save`` says: one file per server and table."""
    where = urlsplit(server).netloc.replace(":", "_") or "server"
    return state_folder() / "tables" / f"{where}-{code}.json"


def saved_seat(path: Path, server: str, code: str) -> dict[str, Any] | None:
    """The seat saved in ``path`` for this table, ``None`` if none; a file that cannot be
    read, or whose fields do not make a seat, is one sentence naming it (UserError)."""
    try:
        data = read_json(path)
    except FileNotFoundError:
        return None
    except Unreadable as error:
        raise UserError("saved_seat_damaged", path=path, detail=error.detail) from None
    if not isinstance(data, dict) or data.get("format") != SEAT_FORMAT:
        raise UserError("saved_seat_damaged", path=path, detail=Problem("damage_not_a_seat"))
    try:
        check.text(check.field(data, "token"), "token")
        check.integer(check.field(data, "seq"), "seq", 0, MOST_SEQ)
        if "position" in data:  # seat files of brailledev 0.2 have none
            check.integer(data["position"], "position", 0, MOST_SEQ)
        SeatClient.saved(check.field(data, "reader"))
    except BadState as error:
        raise UserError("saved_seat_damaged", path=path, detail=damage(error)) from None
    if data.get("server") != server or data.get("code") != code:
        return None
    return data


def connect(server: str, code: str, name: str, lang: str, saved: dict[str, Any] | None,
            save_path: Path | None, braille_table: str | None) -> Joined:
    """Sit down at the table (or take the saved seat back) and make the seat client; a
    refusal or a server that does not answer is one sentence (UserError)."""
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    client = TableClient(server, code, name=name, lang=lang,
                         token=saved["token"] if saved else None,
                         since=int(saved["seq"]) if saved else 0,
                         on_frame=inbox.put, on_connection=inbox.put)
    background = Background()
    running = background.submit(client.run())
    try:
        background.run(_first_state(client), JOIN_WAIT)
    except TimeoutError:
        client.unreachable = client.unreachable or "no answer"
    if client.refused is not None:
        running.result(5)
        background.close()
        raise UserError(JOIN_REFUSED.get(client.refused, "join_frame_invalid"),
                        **{**client.refused_params, "invitation": code, "url": server,
                           "path": save_path or ""})
    state = client.state
    if state is None:
        background.run(client.stop(), 5)
        running.result(5)
        background.close()
        raise UserError("server_unreachable", url=server, detail=client.unreachable)
    link = RemoteLink(client, background, codec_for(client.game))
    link.apply(state)
    history = History.from_dict(saved["reader"]["history"]) if saved else None
    seat = TableSeat(link, client.game, lang, braille_table, history)
    if saved is None:
        seat.tell(seat.catalog.text("joined_table", invitation=code, server=server))
    else:
        take_back_input(seat, saved)
    return Joined(client, background, inbox, seat, link, server, save_path, running)


def take_back_input(seat: TableSeat, saved: dict[str, Any]) -> None:
    """The half-made input of the seat file ``saved``, back at ``seat`` when the table is
    still at the position it was built on; else dropped, and the news says so:
    ``take_back_input(seat, saved_seat(path, server, code))``."""
    kept = saved["reader"].get("pending")
    if kept is None:
        return
    if saved.get("position") != seat.link.position:
        seat.tell(seat.catalog.text("input_dropped"))
        return
    try:
        seat.restore_input(kept)
    except BadState:  # the position is the same: only a file changed by hand gets here
        seat.tell(seat.catalog.text("input_unfit"))


async def _first_state(client: TableClient) -> None:
    """Wait until the table seated the client and sent where it is, refused it, or could
    not be reached at all."""
    while client.refused is None and client.state is None and client.unreachable is None:
        await asyncio.sleep(0.01)


def _user_name() -> str:
    try:
        return getpass.getuser().capitalize()
    except (KeyError, OSError):  # no login name in this environment
        return ""


def _join(args: argparse.Namespace) -> int:
    server = _server(args.server)
    code = args.code.strip().lower()
    save_path = args.save or default_seat_file(server, code)
    with contextlib.suppress(OSError):  # a folder that cannot be made is told at saving
        private_folder(save_path.parent)
    clean_leftovers(save_path.parent)
    with held(save_path, "seat_in_use"):  # one join plays from a seat file at a time
        return _join_seat(args, server, code, save_path)


def _join_seat(args: argparse.Namespace, server: str, code: str, save_path: Path) -> int:
    """Join from ``save_path``, held by this program."""
    saved = None if args.new else saved_seat(save_path, server, code)
    lang = args.lang or (saved["reader"].get("lang") if saved else None) or env_lang()
    braille_table = args.table or (saved["reader"].get("braille_table") if saved else None) \
        or table_for(lang)
    braille = translator(braille_table)
    name = args.name or _user_name()
    launch(args, lang, braille,
           lambda: connect(server, code, name, lang, saved, save_path, braille_table),
           TableFront, gone=lambda error: UserError("display_gone_table", detail=error,
                                                    invitation=code))
    print(output_text("table.left", lang, invitation=code,
                      command=f"brailledev join {server} {code}"))
    return 0
