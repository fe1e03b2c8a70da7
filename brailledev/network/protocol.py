"""The table server's protocol: the JSON messages of its WebSocket, checked field by field.

Every message is one JSON object with a ``type``. A client (a braille seat, a web page, a
bot) sends:

    {"type": "hello", "protocol": 2, "code": "tkrzvm", "name": "Ann", "lang": "fr"}
        sit down at the next free seat (``"seat": 2``: at that one); the answer gives the
        seat's secret ``token`` once (``"key": "..."``, 32 to 64 characters the client drew:
        that is the token, and the same hello sent again after a lost connection is given
        the seat it took)
    {"type": "hello", "protocol": 2, "code": "tkrzvm", "token": "...", "since": 41}
        take the seat back; the changes after number 41 follow
        (``"web": true`` in either: the server words the seat's screen for a web page)
    {"type": "move", "id": "c7-12", "move": {"$": "Move", "kind": "draw", ...}}
        a move in the wire's codec (:mod:`brailledev.network.wire`); the same ``id`` sent
        again after a lost connection is answered again, never played twice
    {"type": "say", "text": "well played"}
        a line of table talk
    {"type": "route", "target": "3.1", "screen": 17}
        a web page routed region 1 of line 3 of the screen it was sent as number 17

and the server answers:

    {"type": "welcome", "seat": 1, "token": "...", "game": "uno", "players": 4, ...}
    {"type": "news", "seq": 42, "events": [...], "state": {...}}
        change number ``seq`` as this seat may learn it; ``state`` (the seat's view, legal
        moves, position, ...) comes with the last of a run of news
    {"type": "answer", "id": "c7-12", "reason": null}     (or the refusal: code and args)
    {"type": "screen", "seq": 42, "number": 17, "lines": [...], "messages": [...], ...}
        web seats only: the seat's screen and new messages, worded by the server
    {"type": "messages", "seq": 43, "first": 120, "messages": [...]}
        web seats only: new sentences alone (numbered from ``first``), the screen unchanged
    {"type": "error", "code": "frame_not_json", "params": {}}

Protocol 2 (this client's) differs from 1 in two ways, which take a Uno news frame from
about 1,640 bytes to 400 and a tenth off the server's processor a move. The news of a
change tells its seat's view as what changed since the view this connection was last told
(``"view_changes": {"hand": [...], "top": "b3"}``, laid over that view: :func:`lay_over`)
instead of whole (``"view"``, which the first state after a hello brings), and leaves the
``"seats"`` out when they are as the connection was last told them; and the news of
a move played carries its answer (``"answer": "c7-12"``), for the connection that sent it,
instead of an answer frame after it. A client saying protocol 1 is sent whole views and
answer frames; this package's client, refused by a server that knows only protocol 1
(``frame_invalid``, field ``protocol``), says its hello again in 1.

A message that breaks these rules is a :class:`BadFrame`: the server tells its code to
that client and nothing else happens.

    frame = read_frame('{"type": "say", "text": "hi"}')      # Say(text='hi')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from brailledev.table.presence import TALK_MAX
from layouts.catalog import LANGUAGES

PROTOCOL = 2  # what this package's client speaks
PROTOCOLS = (1, 2)  # what the server answers
# Characters of one message a client may send: a Rummikub table move is about 2,000.
MAX_FRAME = 16_384
MAX_CODE, MAX_TOKEN, MAX_ID, MAX_NAME, MAX_TARGET = 16, 64, 40, 24, 16
MIN_KEY = 32  # a key the client draws is as hard to guess as one the server draws


class BadFrame(ValueError):
    """A message the protocol refuses: ``code`` (a sentence of ``[messages]``, worded by
    the sender's own client) and its values: ``BadFrame("frame_invalid", field="since")``."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Hello:
    """Sit down (``token`` None: at ``seat`` if given, else the next free seat, as
    ``name``, ``key`` its token if the client drew one) or take a seat back with its key,
    told what happened after change ``since``: ``Hello("tkrzvm", name="Ann", lang="fr")``."""

    code: str
    name: str = ""
    lang: str = "en"
    token: str | None = None
    since: int = 0
    web: bool = False
    seat: int | None = None
    key: str | None = None
    protocol: int = PROTOCOL


@dataclass(frozen=True)
class MoveFrame:
    """A move in the wire's codec, with the client's id for it (and, if the client says,
    the seat it thinks it plays): ``MoveFrame("c7-12", {"$": "Move", ...})``."""

    id: str
    move: Any
    seat: int | None = None


@dataclass(frozen=True)
class Say:
    """A line of table talk: ``Say("well played")``."""

    text: str


@dataclass(frozen=True)
class RouteFrame:
    """A web page routed region ``target`` ("line.region") of its screen number ``screen``:
    ``RouteFrame("3.1", 17)``."""

    target: str
    screen: int


@dataclass(frozen=True)
class Leave:
    """The person leaves the table on purpose (``join`` quit): the others read that they
    left, not that the connection was lost; the seat stays theirs for its key."""


Frame = Hello | MoveFrame | Say | RouteFrame | Leave


def _text(data: dict[str, Any], field: str, most: int, required: bool = True,
          default: str = "") -> str:
    value = data.get(field, None if required else default)
    if not isinstance(value, str) or len(value) > most or (required and not value):
        raise BadFrame("frame_invalid", field=field)
    return value


def _number(data: dict[str, Any], field: str, default: int | None = None) -> int:
    value = data.get(field, default)
    if type(value) is not int or not 0 <= value < 2**53:
        raise BadFrame("frame_invalid", field=field)
    return value


def _hello(data: dict[str, Any]) -> Hello:
    protocol = data.get("protocol")
    if type(protocol) is not int or protocol not in PROTOCOLS:
        raise BadFrame("frame_invalid", field="protocol")
    lang = data.get("lang", "en")
    if lang not in LANGUAGES:
        raise BadFrame("frame_invalid", field="lang")
    token = data.get("token")
    if token is not None:
        token = _text(data, "token", MAX_TOKEN)
    web = data.get("web", False)
    if not isinstance(web, bool):
        raise BadFrame("frame_invalid", field="web")
    seat = data.get("seat")
    if seat is not None:
        seat = _number(data, "seat")
    key = data.get("key")
    if key is not None and len(key := _text(data, "key", MAX_TOKEN)) < MIN_KEY:
        raise BadFrame("frame_invalid", field="key")
    return Hello(_text(data, "code", MAX_CODE).lower(), _text(data, "name", MAX_NAME, False),
                 lang, token, _number(data, "since", 0), web, seat, key, protocol)


def _move(data: dict[str, Any]) -> MoveFrame:
    if "move" not in data:
        raise BadFrame("frame_invalid", field="move")
    seat = data.get("seat")
    if seat is not None:
        seat = _number(data, "seat")
    return MoveFrame(_text(data, "id", MAX_ID), data["move"], seat)


def _say(data: dict[str, Any]) -> Say:
    # Room for a line typed with accents and spaces the cleaning drops.
    return Say(_text(data, "text", TALK_MAX * 4))


def _route(data: dict[str, Any]) -> RouteFrame:
    return RouteFrame(_text(data, "target", MAX_TARGET), _number(data, "screen"))


def _leave(data: dict[str, Any]) -> Leave:
    return Leave()


_READERS: dict[str, Callable[[dict[str, Any]], Frame]] = {
    "hello": _hello, "move": _move, "say": _say, "route": _route, "leave": _leave}


def read_frame(text: str) -> Frame:
    """A client's message checked against the protocol, or :class:`BadFrame`."""
    if len(text) > MAX_FRAME:
        raise BadFrame("frame_too_big", most=MAX_FRAME)
    try:
        data = from_json(text)
    except (ValueError, RecursionError):
        raise BadFrame("frame_not_json") from None
    if not isinstance(data, dict):
        raise BadFrame("frame_invalid", field="type")
    kind = data.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise BadFrame("frame_unknown_type", kind=str(kind)[:20])
    return reader(data)


def write_news(seq: int, events: str, state: Mapping[str, Any], seats: str | None,
               answer: str | None = None) -> str:
    """A seat's news frame, as :func:`write_frame` writes it, from the parts every seat of a
    change shares already in JSON (its events, when they are the same for several seats, and
    the seats' states, ``None`` to leave them out: protocol 2, unchanged), encoded once for
    all; with the ``answer`` to a move of the connection's, if it brought one (protocol 2):
    ``write_news(8, "[]", {"view": {}}, "[]", answer="c7-12")``."""
    own = to_json(state)
    told = "" if answer is None else f'"answer":{to_json(answer)},'
    if seats is None:
        return f'{{"type":"news","seq":{seq},{told}"events":{events},"state":{own}}}'
    return (f'{{"type":"news","seq":{seq},{told}"events":{events},"state":{own[:-1]}'
            f'{"," if len(own) > 2 else ""}"seats":{seats}}}}}')


def lay_over(whole: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """A record as the wire's codec writes it, from the one before (``whole``, as written)
    and what :meth:`brailledev.network.wire.Codec.encode_changes` wrote of it since:
    ``lay_over({"$": "V", "a": 1, "b": 2}, {"b": 3}) == {"$": "V", "a": 1, "b": 3}``."""
    return {**whole, **changes}


def whole_state(state: Mapping[str, Any], last: Mapping[str, Any] | None) -> dict[str, Any]:
    """A news frame's state whole, as protocol 1 tells it, from protocol 2's (its view's
    changes laid over the view of ``last``, the connection's last state whole, and the
    seats of ``last`` if it left them out); a state told whole comes back as it is:
    ``whole_state({"view_changes": {"b": 3}}, {"view": {"a": 1, "b": 2}, "seats": []})
    == {"view": {"a": 1, "b": 3}, "seats": []}``."""
    whole = {name: value for name, value in state.items() if name != "view_changes"}
    if "view_changes" not in state:
        return whole
    last = last or {}
    before, changes = last.get("view"), state["view_changes"]
    if isinstance(before, dict) and isinstance(changes, dict):
        whole["view"] = lay_over(before, changes)
    if "seats" not in whole and "seats" in last:  # as they were
        whole["seats"] = last["seats"]
    return whole


def write_frame(kind: str, **fields: Any) -> str:
    """A message as the wire carries it: ``write_frame("error", code="too_fast", params={})``.
    """
    return to_json({"type": kind, **fields})


def from_json(text: str) -> Any:
    """The value of a JSON text, as ``json.loads`` reads it (orjson: a braille client reads
    four news frames of about 2 KB a move at a busy table, which took json 12% of a bench
    client's processor): ``from_json('{"a":[1,"é"]}') == {"a": [1, "é"]}``; a ValueError
    for what is not JSON."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # what only json reads (NaN, a lone surrogate), or not JSON
        return json.loads(text)


def to_json(data: Any) -> str:
    """``data`` as compact JSON, letters as they are (what the wire and the stores write;
    orjson: the server's encodes took a fifth of the time json's took, byte for byte the
    same): ``to_json({"a": (1, "é")}) == '{"a":[1,"é"]}'``."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # an integer past 64 bits, which only json writes
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
