"""The table server's door: what every request goes through before a table is touched.

- Every answer carries the headers of a careful web app: a Content-Security-Policy with no
  inline script or style and no framing, ``nosniff``, ``no-referrer``, and a ``Server``
  that names no version.
- A browser's request from another site is refused: the ``Origin`` of every POST and of
  the WebSocket must be this server's (or one ``serve --allow-origin`` names); the form
  that makes a table carries a token tied to a cookie of this server's (CSRF). Under
  ``Referrer-Policy: no-referrer`` a browser sends the form with ``Origin: null``: the
  form alone takes it, its token saying where it was filled in.
- Who makes tables is the owner's choice (:class:`Doorkeeping`): anyone, or whoever gives
  the owner's key (``Authorization: Bearer KEY``, or the form's key field).
- Each client address is limited (:class:`brailledev.network.server.limits.Limits`):
  tables made an hour, unknown table codes or wrong keys tried a minute (past the limit
  every code it asks for is refused, the good ones too, so the answers tell it nothing),
  connections at once that are not at a seat (a seat's one connection is bounded by the
  seats; past the limit a connection must take its seat back with the seat's key by its
  first frame, :data:`PROBATION` seconds at most). Past a limit: HTTP 429, ``Retry-After``
  and one sentence.
- A store that fails is HTTP 503 with ``Retry-After`` and one sentence; a table whose row
  is damaged is HTTP 409 and one sentence, the other tables untouched. Never a 500.

JSON routes answer ``{"error": code, "params": {...}, "text": sentence}`` (``table new``
words the code in its own language); the pages answer a page with the sentence, in the
page's language.

    guard = Guard(Doorkeeping(), secret=store.secret())
    app = web.Application(middlewares=[guard.middleware])
    app.on_response_prepare.append(secure_headers)
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from brailledev.network.logs import QuietLog
from brailledev.network.server.limits import Counter, Limits, Window, address_key, retry_after
from brailledev.network.store import Lifetimes, StoreFailed, TableDamaged
from brailledev.network.web.page import FORM_TOKEN, OWNER_KEY, choose_lang, sentence_page
from layouts.errors import Problem

log = logging.getLogger("brailledev.network.server")

POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HEADERS = {"Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff",
           "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"}
FORM_COOKIE = "brailledev_form"
ADDRESS = web.RequestKey("address", str)  # the client's address, as it is counted
NEW_COOKIE = web.RequestKey("form_cookie", str)  # a form cookie to set on the answer
# Seconds a connection past its address's limit has to come back to its seat with the seat's
# key (its first frame): a client sends it at once, a starved server reads it late.
PROBATION = 10.0
# Connections of one address past its limit at once, each waiting to show a seat's key: the
# seats of 64 tables behind one address coming back together after a takeover; a flood holds
# no more sockets than this, each for PROBATION seconds at most.
MOST_ON_PROBATION = 256
# Routes by what they do: make a table (JSON, or the form), look a code up, the WebSocket;
# the others answer pages.
MAKE, LOOK, SOCKET, FORM = ("/tables", "/"), ("/tables/{code}", "/t/{code}"), "/ws", "/"
JSON = ("/tables", "/tables/{code}", SOCKET)
HOUR, MINUTE = 3_600.0, 60.0
BUSY_RETRY = 60.0  # seconds a server holding all the tables it can asks a maker to wait
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def hash_key(key: str) -> str:
    """What the server keeps of the owner's key: ``hash_key("s3cret-key...")``."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Doorkeeping:
    """Who comes in, decided by ``serve``'s command line: ``owner_key`` the hash of the
    owner's key (``None``: anyone makes tables), the limits per address, whether a proxy's
    ``X-Forwarded-For`` is believed, the origins allowed besides the server's own, the
    tables' lifetimes: ``Doorkeeping(owner_key=hash_key(key), trust_proxy=True)``."""

    owner_key: str | None = None
    limits: Limits = field(default_factory=Limits)
    trust_proxy: bool = False
    origins: tuple[str, ...] = ()
    lifetimes: Lifetimes = field(default_factory=Lifetimes)


@dataclass
class Held:
    """A connection's place in its address's counts: ``counted`` among the connections it
    holds, or on ``probation`` past its limit (it must come back to a seat with its key):
    ``guard.let_go(Held("203.0.113.7", counted=True))``."""

    address: str
    counted: bool = False
    probation: bool = False


HELD = web.RequestKey("held", Held)  # the WebSocket's place in its address's counts


class Busy(Exception):
    """The server holds as many tables in memory as it may: a new one waits."""


async def secure_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer's headers (``on_response_prepare``)."""
    response.headers.update(HEADERS)
    response.headers["Server"] = "brailledev"


class Guard:
    """The limits of every address and the checks of every request; see the module
    docstring."""

    def __init__(self, door: Doorkeeping, secret: bytes,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.door = door
        self.secret = secret
        self.clock = clock
        self.made = Window(door.limits.tables, HOUR)
        self.tries = Window(door.limits.tries, MINUTE)
        self.held = Counter()
        self.probation = Counter()
        self.quiet = QuietLog(log)

    # ---- who is asking -------------------------------------------------------------------

    def address(self, request: web.Request) -> str:
        """The client's address as it is counted (its /64 for IPv6)."""
        forwarded = request.headers.get("X-Forwarded-For") if self.door.trust_proxy else None
        return address_key(request.remote, forwarded)

    def same_origin(self, request: web.Request, form: bool = False) -> bool:
        """Whether a browser sent this from a page of this server (or an allowed one); a
        request without ``Origin`` is not a browser's and cannot be forged by a page; the
        ``form``'s ``Origin: null`` is checked by its token instead."""
        origin = request.headers.get("Origin")
        if origin is None or (form and origin == "null"):
            return True
        origin = origin.strip().rstrip("/").lower()
        if origin in self.door.origins:
            return True
        host = request.headers.get("X-Forwarded-Host") if self.door.trust_proxy else None
        return bool(origin) and urlsplit(origin).netloc == (host or request.host).lower()

    def tried(self, address: str) -> float:
        """Seconds ``address`` must wait before trying a code or a key again (0: now)."""
        return self.tries.wait(address, self.clock())

    def missed(self, address: str, what: str) -> None:
        """``address`` tried an unknown code or a wrong key."""
        self.tries.add(address, self.clock())
        self.quiet.tell(f"client {address}", what)

    # ---- the form's token ----------------------------------------------------------------

    def _sign(self, cookie: str) -> str:
        return hmac.new(self.secret, cookie.encode("ascii"), hashlib.sha256).hexdigest()

    def _form_token(self, request: web.Request) -> str:
        """The token of the form this request's page shows, tied to the browser's cookie
        (made now when it has none, then set on the answer).
        """
        cookie = request.cookies.get(FORM_COOKIE, "")
        if not re.fullmatch(r"[0-9a-f]{32}", cookie):
            cookie = request[NEW_COOKIE] = secrets.token_hex(16)
        return self._sign(cookie)

    def _form_sent_here(self, request: web.Request, form: Any) -> bool:
        cookie = request.cookies.get(FORM_COOKIE, "")
        given = str(form.get("form_token", ""))
        return bool(re.fullmatch(r"[0-9a-f]{32}", cookie)) and hmac.compare_digest(
            given.encode("utf-8", "replace"), self._sign(cookie).encode("ascii"))

    def _key_given(self, key: str) -> bool:
        owner = self.door.owner_key
        return owner is None or hmac.compare_digest(hash_key(key), owner)

    # ---- the middleware ------------------------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every request: see the module docstring. Handlers find the client's address in
        ``request[ADDRESS]``; a page with the form, its token in ``request[FORM_TOKEN]``
        and whether it asks the owner's key in ``request[OWNER_KEY]``."""
        route = request.match_info.route.resource
        path = route.canonical if route is not None else ""
        page = path not in JSON
        address = request[ADDRESS] = self.address(request)
        try:
            if (request.method == "POST" or path == SOCKET) \
                    and not self.same_origin(request, form=path == FORM):
                self.quiet.tell(f"client {address}", "a request from another site's page")
                return self._refuse(request, page, 403, "origin_refused")
            if path == SOCKET:
                return await self._socket(request, handler, address)
            if path in LOOK:
                return await self._look(request, handler, address, page)
            if request.method == "POST" and path in MAKE:
                return await self._make(request, handler, address, page)
            if path == FORM and request.method == "GET":
                request[FORM_TOKEN] = self._form_token(request)
                request[OWNER_KEY] = self.door.owner_key is not None
            return self._with_cookie(request, await handler(request))
        except StoreFailed as failure:
            return self._refuse(request, page, 503, "store_busy", failure.retry,
                                seconds=retry_after(failure.retry))
        except TableDamaged as damage:
            self.quiet.tell(f"table {damage.code}",
                            f"damaged ({damage.detail}); left in the store as it is")
            return self._refuse(request, page, 409, "table_damaged", invitation=damage.code)
        except Busy:
            return self._refuse(request, page, 503, "server_busy", BUSY_RETRY)

    async def _socket(self, request: web.Request, handler: Handler,
                      address: str) -> web.StreamResponse:
        held = request[HELD] = Held(address)
        held.counted = self.held.take(address) <= self.door.limits.connections
        if not held.counted:
            self.held.give_back(address)
            held.probation = self.probation.take(address) <= MOST_ON_PROBATION
            if not held.probation:
                self.probation.give_back(address)
                self.quiet.tell(f"client {address}", "too many connections")
                return self._refuse(request, False, 429, "too_many_connections", MINUTE,
                                    most=self.door.limits.connections)
        try:
            return await handler(request)
        finally:
            self.let_go(held)

    def let_go(self, held: Held) -> None:
        """The connection of ``held`` counts no more: it is gone, or its seat's one
        connection (those are bounded by the seats)."""
        if held.counted:
            self.held.give_back(held.address)
        if held.probation:
            self.probation.give_back(held.address)
        held.counted = held.probation = False

    async def _look(self, request: web.Request, handler: Handler, address: str,
                    page: bool) -> web.StreamResponse:
        wait = self.tried(address)
        if wait:
            return self._refuse(request, page, 429, "too_many_tries", wait,
                                most=self.door.limits.tries, seconds=retry_after(wait))
        response = await handler(request)
        if response.status == 404:
            self.missed(address, "unknown table codes")
        return response

    async def _make(self, request: web.Request, handler: Handler, address: str,
                    page: bool) -> web.StreamResponse:
        if page:
            form = await request.post()  # kept by aiohttp for the handler
            request[FORM_TOKEN] = self._form_token(request)
            request[OWNER_KEY] = self.door.owner_key is not None
            if not self._form_sent_here(request, form):
                return self._refuse(request, page, 403, "form_expired")
            key = str(form.get("key", ""))
        else:
            key = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if self.door.owner_key is not None:
            wait = self.tried(address)
            if wait:
                return self._refuse(request, page, 429, "too_many_tries", wait,
                                    most=self.door.limits.tries, seconds=retry_after(wait))
            if not key:
                return self._refuse(request, page, 401, "owner_key_needed")
            if not self._key_given(key):
                self.missed(address, "wrong owner's keys")
                return self._refuse(request, page, 403, "owner_key_wrong")
        wait = self.made.wait(address, self.clock())
        if wait:
            self.quiet.tell(f"client {address}", "too many tables")
            return self._refuse(request, page, 429, "too_many_tables", wait,
                                most=self.door.limits.tables,
                                minutes=max(1, math.ceil(wait / 60)))
        response = await handler(request)
        if response.status == 201:
            self.made.add(address, self.clock())
        return self._with_cookie(request, response)

    # ---- answers -------------------------------------------------------------------------

    def _with_cookie(self, request: web.Request,
                     response: web.StreamResponse) -> web.StreamResponse:
        cookie = request.get(NEW_COOKIE)
        if cookie is not None:
            response.set_cookie(FORM_COOKIE, cookie, httponly=True, samesite="Strict",
                                path="/")
        return response

    def _refuse(self, request: web.Request, page: bool, status: int, why: str,
                retry: float | None = None, **params: Any) -> web.Response:
        """The one sentence of a refusal (``why``, its code in ``[errors]``), as a page or
        as JSON, with ``Retry-After``."""
        lang = choose_lang(request)
        text = Problem(why, **params).text(lang)
        headers = {"Retry-After": retry_after(retry)} if retry is not None else {}
        if page:
            return sentence_page(lang, text, status, headers)
        return web.json_response({"error": why, "params": {k: str(v) for k, v in
                                                           params.items()}, "text": text},
                                 status=status, headers=headers)
