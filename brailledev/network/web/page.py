"""The web seat's pages, served by the table server: ``/`` makes a table with a form (no
script needed) and gives the invitation link; ``/t/CODE`` is the table itself, a page that
sits down, plays through the WebSocket and draws what the server words for it. The pages'
fixed words come from ``common|web.*`` of the catalogs, in the language of
``?lang=`` or else the browser's (``Accept-Language``).

    WebPages(server).add_routes(app)      # server: any Tables (the TableServer)
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from brailledev.network.server.room import Room
from brailledev.network.store import Record
from brailledev.table.presence import SEAT_BOT, SEAT_FREE, SeatState
from layouts.catalog import HERE as LAYOUTS
from layouts.catalog import LANGUAGES
from layouts.errors import Problem
from layouts.registry import GAMES, kit
from layouts.translations import words as entries

STATIC = Path(__file__).resolve().parent / "static"
# Sentences of [messages] the page says itself, as a braille client says them.
PAGE_MESSAGES = ("connection_lost", "connection_back", "table_says")
CACHE = "no-cache"  # pages and their files are small; a new version is taken at once
FIELD = re.compile(r"\{\{(\w+)\}\}")
RAW = ("body", "script", "seats", "head")  # fields that are HTML made here, not text
# A game's own look, in its folder: its card colours beyond the page's palette.
GAME_CSS = "picture.css"
# What the server's guard gives a page that shows the form: its token, and whether it asks
# for the owner's key.
FORM_TOKEN = web.RequestKey("form_token", str)
OWNER_KEY = web.RequestKey("owner_key", bool)
LINKS = "languages"  # the field of the links to the page in the other languages


def choose_lang(request: web.Request) -> str:
    """``?lang=`` if it is one we have, else the first of the browser's languages we have,
    else English: ``choose_lang(request)``."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("Accept-Language", "").split(","):
        lang = part.split(";")[0].strip().lower()[:2]
        if lang in LANGUAGES:
            return lang
    return "en"


@cache
def page_words(lang: str) -> dict[str, str]:
    """The page's words in ``lang``: ``common|web.*`` and the few table sentences it says
    itself: ``page_words("fr")["join"] == "S'asseoir"``."""
    found = entries(lang).under("common|web.")
    found.update({key: entries(lang).under("common|messages.")[key] for key in PAGE_MESSAGES})
    return found


def error_text(code: str, params: Mapping[str, Any], lang: str) -> str:
    """A refusal the server sends a web page, worded as a braille client words it:
    ``error_text("screen_stale", {}, "en")``."""
    messages = entries(lang if lang in LANGUAGES else "en").under("common|messages.")
    template = messages.get(code)
    why = template.format(**params) if template is not None else code
    return messages["table_says"].format(why=why)


@cache
def _template(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def render(name: str, language: str, /, **values: str) -> str:
    """A page template with ``{{field}}`` filled, HTML-escaped, from ``values`` then the
    page's words: ``render("page.html", "fr", title=..., body=..., script=...)`` (``body``,
    ``script``, ``seats`` and ``head`` are HTML made here, kept as they are)."""
    words = page_words(language)

    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        if key in RAW:
            return values.get(key, "")
        if key == LINKS:
            return language_links(language)
        return html.escape(values[key] if key in values else words[key])

    return FIELD.sub(fill, _template(name))


def language_links(lang: str) -> str:
    """Links to this page in every other language, each named in its own words:
    ``language_links("en")`` links "Deutsch" (``?lang=de``) and "Français"."""
    return " ".join(f'<a class="lang" href="?lang={code}" lang="{code}" hreflang="{code}">'
                    f'{html.escape(page_words(code)["language_name"])}</a>'
                    for code in LANGUAGES if code != lang)


def _html(text: str, status: int = 200, headers: Mapping[str, str] | None = None
          ) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": CACHE, **(headers or {})})


def sentence_page(lang: str, text: str, status: int,
                  headers: Mapping[str, str] | None = None) -> web.Response:
    """A page saying one sentence (why a request is refused), with the way back to the
    form: ``sentence_page("fr", problem.text("fr"), 429, {"Retry-After": "60"})``."""
    words = page_words(lang)
    e = html.escape
    body = (f'<p role="alert" class="problem">{e(text)}</p>'
            f'<p><a href="/?lang={lang}">{e(words["new_title"])}</a></p>')
    return _html(render("page.html", lang, lang=lang, title=words["refused_title"],
                        body=body, script=""), status, headers)


def game_name(game: str, lang: str) -> str:
    """A game's name as its box prints it: ``game_name("domino", "en")``."""
    return str(kit(game).catalog(lang).section("names")["game"])


def _form_problem(form: Mapping[str, Any], data: dict[str, Any], words: Mapping[str, str],
                  lang: str) -> str | None:
    """The seat counts of the form read into ``data``, or the one sentence, in the page's
    words (not the command line's), that says what to give instead."""
    for name in ("players", "people"):
        text = str(form.get(name, "")).strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 3:
            return words["form_number"].format(field=words[name])
        data[name] = int(text)
    if data["game"] in GAMES:
        game = kit(data["game"]).game
        if not game.min_players <= data["players"] <= game.max_players:
            return words["form_players"].format(game=game_name(data["game"], lang),
                                                low=game.min_players, high=game.max_players)
    if not 1 <= data["people"] <= data["players"]:
        return words["form_people"].format(players=data["players"])
    return None


@cache
def game_style(game: str) -> str | None:
    """A game's own style sheet (``layouts/<game>/picture.css``), ``None`` when it has none
    or is no game: ``game_style("rummikub")``."""
    if game not in GAMES:
        return None
    path = LAYOUTS / game / GAME_CSS
    return path.read_text(encoding="utf-8") if path.exists() else None


def seat_choice(seats: Sequence[SeatState], words: Mapping[str, str]) -> str:
    """The seats a player may pick at ``/t/CODE``: a radio button per free seat (the first
    one checked), the others shown with who sits there; nothing when no seat is free."""
    free = [seat for seat, state in enumerate(seats) if state.kind == SEAT_FREE]
    if not free:
        return ""
    e = html.escape
    items = []
    for seat, state in enumerate(seats):
        number = seat + 1
        if state.kind == SEAT_FREE:
            checked = " checked" if seat == free[0] else ""
            items.append(f'<li><input type="radio" name="seat" id="seat-{number}" '
                         f'value="{seat}"{checked}><label for="seat-{number}">'
                         f'{e(words["seat_free"].format(number=number))}</label></li>')
        else:
            who = words["seat_bot"] if state.kind == SEAT_BOT else state.name
            taken = words["seat_taken"].format(number=number, name=who)
            items.append(f'<li class="taken">{e(taken)}</li>')
    return (f'<fieldset class="seats"><legend>{e(words["seat_legend"])}</legend>'
            f'<ul>{"".join(items)}</ul></fieldset>')


class Tables(Protocol):
    """What the pages ask of the table server (the app's ``TableServer``): make a table,
    find one."""

    def create(self, data: Any) -> Room:
        """A new table from its settings; a mistake is a :class:`layouts.errors.Problem`."""

    def table_room(self, code: str) -> Room | None:
        """The table ``code``, ``None`` when there is none."""

    def table_record(self, code: str) -> Record | None:
        """The record of table ``code`` once retired, ``None`` if there is none."""


class WebPages:
    """The pages of the web seat around the tables a server holds."""

    def __init__(self, server: Tables) -> None:
        self.server = server

    def add_routes(self, app: web.Application) -> None:
        """``/``, ``/t/CODE``, the page's two files under ``/web/`` and a game's own style
        sheet under ``/web/game/``."""
        app.router.add_get("/", self.new_page)
        app.router.add_post("/", self.new_table)
        app.router.add_get("/t/{code}", self.table_page)
        app.router.add_get("/web/{name}", self.static)
        app.router.add_get("/web/game/{game}.css", self.game_style)

    def _form(self, request: web.Request, lang: str, problem: str = "") -> str:
        """The form that makes a table, with its token (CSRF) and, when the server makes
        tables for its owner only, the owner's key (both given by the server's guard)."""
        words = page_words(lang)
        options = "".join(f'<option value="{game}">{html.escape(game_name(game, lang))}'
                          f"</option>" for game in GAMES)
        alert = f'<p role="alert" class="problem">{html.escape(problem)}</p>' if problem else ""
        e = html.escape
        key = (f'<label for="key">{e(words["owner_key"])}</label>'
               f'<input id="key" name="key" type="password" autocomplete="current-password" '
               f'required>') if request.get(OWNER_KEY) else ""
        return (f"{alert}<p>{e(words['new_intro'])}</p>"
                f'<form method="post" action="/?lang={lang}" class="new">'
                f'<input type="hidden" name="form_token" value="{e(request[FORM_TOKEN])}">'
                f'<label for="game">{e(words["game"])}</label>'
                f'<select id="game" name="game">{options}</select>'
                f'<label for="players">{e(words["players"])}</label>'
                f'<input id="players" name="players" type="number" min="1" max="8" value="2" '
                f'inputmode="numeric">'
                f'<label for="people">{e(words["people"])}</label>'
                f'<input id="people" name="people" type="number" min="1" max="8" value="2" '
                f'inputmode="numeric">'
                f'{key}<button type="submit">{e(words["create"])}</button></form>')

    async def new_page(self, request: web.Request) -> web.Response:
        """``GET /``: the form that makes a table."""
        lang = choose_lang(request)
        return _html(render("page.html", lang, lang=lang, title=page_words(lang)["new_title"],
                            body=self._form(request, lang), script=""))

    async def new_table(self, request: web.Request) -> web.Response:
        """``POST /``: the table made, with its invitation link; or the form again with the
        one sentence that says what is wrong."""
        lang = choose_lang(request)
        form = await request.post()
        words = page_words(lang)
        data: dict[str, Any] = {"game": str(form.get("game", ""))}
        problem_text = _form_problem(form, data, words, lang)
        if problem_text is None:
            try:
                room = self.server.create(data)
            except Problem as problem:
                problem_text = problem.text(lang)
        if problem_text is not None:
            return _html(render("page.html", lang, lang=lang, title=words["new_title"],
                                body=self._form(request, lang, problem_text), script=""), 400)
        link = f"{request.scheme}://{request.host}/t/{room.code}"
        e = html.escape
        body = (f"<p>{e(words['invite'])}</p>"
                f'<p><input class="link" readonly value="{e(link)}" aria-label="'
                f'{e(words["invite"])}"></p>'
                f'<p><a class="button" href="/t/{room.code}?lang={lang}">'
                f"{e(words['sit_here'])}</a></p>")
        title = words["created_title"].format(code=room.code)
        return _html(render("page.html", lang, lang=lang, title=title, body=body, script=""),
                     201)

    async def table_page(self, request: web.Request) -> web.Response:
        """``GET /t/CODE``: the table's page (the script sits down and plays)."""
        lang = choose_lang(request)
        code = request.match_info["code"].lower()[:16]
        words = page_words(lang)
        room = self.server.table_room(code)
        if room is None:
            record = self.server.table_record(code)
            known = record is not None
            said = words["table_retired"].format(code=code, game=game_name(
                record.game, lang)) if record is not None else words["table_unknown"].format(
                code=code)
            return _html(render("page.html", lang, lang=lang, title=words["table_title"]
                                .format(code=code), body=f'<p role="alert">'
                                f"{html.escape(said)}</p>", script=""), 200 if known else 404)
        game = room.settings.game
        config = {"code": code, "lang": lang, "game": game, "words": words}
        # In an attribute, not a script block: the page's policy allows no inline script.
        script = (f'<div id="config" hidden data-config="'
                  f'{html.escape(json.dumps(config, ensure_ascii=False))}"></div>'
                  '<script type="module" src="/web/page.js"></script>')
        body = render("table.html", lang, join_intro=words["join_intro"].format(
            game=game_name(game, lang)), seats=seat_choice(room.seat_states(), words))
        head = (f'<link rel="stylesheet" href="/web/game/{game}.css">'
                if game_style(game) is not None else "")
        return _html(render("page.html", lang, lang=lang, title=words["game_title"]
                            .format(game=game_name(game, lang), code=code), body=body,
                            script=script, head=head))

    async def game_style(self, request: web.Request) -> web.StreamResponse:
        """``/web/game/GAME.css``: a game's own look, ``layouts/GAME/picture.css``."""
        found = game_style(request.match_info["game"])
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(text=found, content_type="text/css", charset="utf-8",
                            headers={"Cache-Control": CACHE})

    async def static(self, request: web.Request) -> web.StreamResponse:
        """``/web/page.js`` and ``/web/page.css``, nothing else."""
        name = request.match_info["name"]
        types = {"page.js": "text/javascript", "page.css": "text/css"}
        if name not in types:
            raise web.HTTPNotFound()
        return web.Response(text=_template(name), content_type=types[name], charset="utf-8",
                            headers={"Cache-Control": CACHE})
