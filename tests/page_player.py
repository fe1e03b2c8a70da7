"""A sensible player of every game who knows only the web page: the controls it shows, their
words and their marks ("can be played", lit squares), never the game's state nor notation.

The same player reads the picture a server sends (``controls_of``: the bench counts its clicks
in-process) and a page in a real browser (``PAGE_CONTROLS``, run in the page: the tests
click what it picks). A control is a dict: ``area`` (hand, table, actions, below, or
``question`` for what the page asks before routing), ``text`` (the words shown on it),
``group`` (the name of the group it is in), ``marks``, ``lifted``, ``chosen``, ``pressed``,
``asks`` (a click opens a question), ``target``, ``points`` (a lit square's).

    player = PagePlayer("uno", "en")
    control = player.pick(controls_of(frame["table"]))     # the control to click, or None
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from brailledev.network.protocol import Hello, RouteFrame
from brailledev.network.server.room import Room, Settings
from brailledev.network.stores import open_store
from layouts.picture import Json, words_of
from layouts.registry import kit

Control = dict[str, Any]
AREAS = ("table", "hand", "actions", "below")
POINTS = re.compile(r"^\+(\d+)")
# What stands around a word in a sentence: stops, commas, brackets, quotes.
SENTENCE_MARKS = ".,;:!?()«»\"' "

# The page's controls as the player sees them, read in the page (the same dicts).
PAGE_CONTROLS = """() => [...document.querySelectorAll('#game button')]
  .map((node, index) => [node, index])
  .filter(([node]) => node.offsetParent !== null && (node.dataset.target || node.dataset.choices))
  .map(([node, index]) => {
    const card = node.closest('.card');
    const section = node.closest('#question') ? 'question'
      : (node.closest('section, #below')?.id || '').replace('-section', '');
    const name = card ? card.querySelector('.name').textContent : node.textContent;
    const points = /^\\+(\\d+)/.exec(node.textContent);
    const head = node.closest('.group')?.querySelector('.group-name');
    return { area: section, text: name.trim(), group: head?.firstChild?.textContent || '',
             marks: card ? [...card.querySelectorAll('.mark')].map((m) => m.textContent) : [],
             lifted: Boolean(card && card.classList.contains('lifted')),
             chosen: Boolean(card && card.classList.contains('chosen')),
             pressed: node.getAttribute('aria-pressed') === 'true',
             asks: Boolean(node.dataset.choices), target: node.dataset.target || null,
             points: points ? Number(points[1]) : null,
             square: node.classList.contains('square'), index };
  })"""


class Notation:
    """A game's notation, read by its own readers (:mod:`games.trial`) and moves' parser,
    and its cards' braille labels in ``lang``: ``Notation("uno").reads("r7")`` is True,
    ``reads("red 7")`` False; ``Notation("uno", "fr").in_sentence("Bo pose j7.")`` finds
    ``["j7"]``."""

    def __init__(self, game: str, lang: str = "en") -> None:
        game_kit = kit(game)
        self.game = game_kit.new_game(game_kit.default_players, seed=1)
        self.readers = importlib.import_module(f"games.{game}.trial").TRIAL.readers
        # A number alone is a print value too ("yellow 11"), never told as a label.
        self.labels = {label for face in game_kit.deck_faces(lang)
                       for label in face.lines if not label.isdigit()}

    def in_sentence(self, sentence: str) -> list[str]:
        """The words of ``sentence`` that are a card's braille label, or notation with a
        sign or a number in it (the moves' plain words, "draw", "pass", are English; a
        number alone is a print value): ``in_sentence("Cy plays b6.") == ["b6"]``."""
        found = []
        for word in sentence.split():
            word = word.strip(SENTENCE_MARKS)
            if word in self.labels or (not word.isalpha() and not word.isdigit()
                                       and self.reads(word)):
                found.append(word)
        return found

    def reads(self, text: str) -> bool:
        """Whether ``text``, or a part of it between commas, colons or semicolons, is the
        game's notation."""
        parts = {text.strip(), *(part.strip() for part in re.split(r"[,:;]", text))}
        return any(self._reads(part) for part in parts if part)

    def _reads(self, text: str) -> bool:
        for read in (*self.readers.values(), lambda game, said: game.parse_move(0, said)):
            try:
                read(self.game, text)
            except Exception:  # every way a reader says no: the text is not notation
                continue
            return True
        return False


def visible_strings(piece: Any) -> Iterator[str]:
    """Every string a picture shows (what the page writes of it), pieces within pieces."""
    shown = ("name", "text", "note", "big", "detail", "caption", "prompt", "help")
    if isinstance(piece, dict):
        for key, value in piece.items():
            if key in shown and isinstance(value, str):
                yield value
            elif key in ("marks", "head", "columns", "status"):
                yield from (str(each) for each in value)
            elif key in ("rows", "foot") and value and isinstance(value[0], list):
                yield from (str(cell) for row in value for cell in row)
            elif key not in ("label", "braille", "target"):
                yield from visible_strings(value)
    elif isinstance(piece, list):
        for each in piece:
            yield from visible_strings(each)


def _controls(piece: Json, area: str, group: str) -> Iterator[Control]:
    kind = piece.get("kind")
    if kind == "group":
        for item in piece["items"]:
            yield from _controls(item, area, piece["name"])
    elif kind == "board":
        for row in piece["rows"]:
            for square in row["squares"]:
                if square.get("target") or square.get("choices"):
                    found = POINTS.match(square["text"])
                    yield _control(area, square["text"], group, square, square=True,
                                   points=int(found.group(1)) if found else None)
    elif kind in ("card", "button") and (piece.get("target") or piece.get("choices")):
        yield _control(area, piece["name"] if kind == "card" else piece["text"], group, piece)


def _control(area: str, words: str, group: str, piece: Json, square: bool = False,
             points: int | None = None) -> Control:
    return {"area": area, "text": words, "group": group, "marks": piece.get("marks", []),
            "lifted": piece.get("lifted", False), "chosen": piece.get("chosen", False),
            "pressed": bool(piece.get("pressed")), "asks": bool(piece.get("choices")),
            "target": piece.get("target"), "points": points, "square": square,
            "choices": piece.get("choices")}


def controls_of(picture: Json) -> list[Control]:
    """Every control of a picture the server sent, in the page's order."""
    return [control for area in AREAS for piece in picture.get(area) or []
            for control in _controls(piece, area, "")]


def question_of(control: Control) -> list[Control]:
    """The controls of the question a control asks (what the page shows once it is clicked)."""
    return [_control("question", item["text"], control["choices"]["prompt"], item)
            for item in control["choices"]["items"]]


def _first(controls: Sequence[Control], fits: Callable[[Control], bool]) -> Control | None:
    return next((control for control in controls if fits(control)), None)


class PagePlayer:
    """Picks the next click from the page's controls, in the page's words of ``lang``."""

    def __init__(self, game: str, lang: str = "en") -> None:
        self.game = game
        self.words = words_of(kit(game).catalog(lang))

    def pick(self, controls: Sequence[Control]) -> Control | None:
        """The control to click now, ``None`` when the page offers nothing to do."""
        if not controls:
            return None
        asked = [control for control in controls if control["area"] == "question"]
        if asked:
            return asked[0]
        chooser: Callable[[Sequence[Control]], Control | None] = getattr(self, f"_{self.game}")
        return chooser(controls)

    def _is(self, control: Control, *keys: str) -> bool:
        return any(control["text"] == self.words[key] for key in keys)

    def _uno(self, controls: Sequence[Control]) -> Control | None:
        words = self.words
        actions = [control for control in controls if control["area"] == "actions"]
        asked = _first(actions, lambda c: bool(c["group"]) and not self._is(c, "cancel"))
        if asked is not None:  # a colour, or a +4 to challenge: accept it
            return _first(actions, lambda c: self._is(c, "accept")) or asked
        drawn = _first(controls, lambda c: self._is(c, "play_drawn", "keep_drawn"))
        if drawn is not None:
            return drawn
        uno = _first(actions, lambda c: self._is(c, "say_uno") and not c["pressed"])
        hand = [control for control in controls if control["area"] == "hand"]
        playable = [control for control in hand if words["can_play"] in control["marks"]]
        if uno is not None and playable:
            return uno
        if playable:
            return playable[0]
        return _first(actions, lambda c: self._is(c, "draw")) or _first(
            actions, lambda c: c["text"].startswith(words["catch"].split("{")[0]))

    def _domino(self, controls: Sequence[Control]) -> Control | None:
        squares = [control for control in controls if control["square"]]
        if squares:  # the lit square that earns the most, first met on ties
            return max(squares, key=lambda square: square["points"] or 0)
        return _first(controls, lambda c: c["area"] == "actions")

    def _rummikub(self, controls: Sequence[Control]) -> Control | None:
        hint = _first(controls, lambda c: self._is(c, "hint"))
        done = _first(controls, lambda c: self._is(c, "done"))
        laid = any(self.words["new_tile"] in control["marks"] for control in controls)
        if laid and done is not None:
            return done
        return hint or _first(controls, lambda c: self._is(c, "draw"))

    def _elevens(self, controls: Sequence[Control]) -> Control | None:
        actions = [control for control in controls if control["area"] == "actions"]
        places = [control for control in actions if control["group"]
                  and not self._is(control, "cancel", "all_rows")]
        if places:
            return places[0]
        playable = [control for control in controls
                    if control["area"] == "hand" and control["lifted"]]
        if playable:
            return playable[0]
        for key in ("do_end", "do_pass", "do_draw", "do_discard"):
            for control in actions:
                if self._is(control, key):
                    return control
        return None

    def _elements(self, controls: Sequence[Control]) -> Control | None:
        actions = [control for control in controls if control["area"] == "actions"]
        answer = _first(actions, lambda c: bool(c["group"]) and not self._is(c, "cancel"))
        if answer is not None:
            return answer
        hand = _first(controls, lambda c: c["area"] == "hand" and not c["chosen"])
        return hand or _first(actions, lambda c: self._is(c, "pass"))


class _Page:
    """A web page as a room sees it (a :class:`brailledev.network.server.room.Peer`): it
    keeps the last screen it was sent, and every sentence its log and news were given
    (``read``: the sentences, the news said at once, what was shown at once)."""

    def __init__(self) -> None:
        self.seat = -1
        self.web = True
        self.screen: Any = None
        self.drawn: Any = None
        self.said: tuple[int, int | None] | None = None
        self.told = 0
        self.protocol = 1
        self.view: Any = None
        self.seats = ""
        self.answered = ""
        self.frame: Json = {}
        self.read: list[str] = []

    def send(self, text: str) -> None:
        found = json.loads(text)
        self.read += found.get("messages", [])
        if found["type"] == "screen":
            self.frame = found
            self.read += [found["newest"]] + ([found["flash"]["text"]] if found["flash"] else [])

    def drop(self) -> None:
        raise AssertionError("a room of one process let a page go")


class RoomPage:
    """A web seat at a room held in this process, against bots playing at once: what the
    page is sent and where its clicks go, without a browser or a socket (the bench's).

        page = RoomPage("uno", players=2, seed=1, options={"match_target": 0})
        page.click(PagePlayer("uno").pick(page.controls()))
    """

    def __init__(self, game: str, players: int, seed: int, options: Json,
                 lang: str = "en") -> None:
        settings = Settings(game, players, 1, "heuristic", dict(options), seed,
                            away=86_400.0, pace=0.0)
        self.room = Room.create("page", settings, open_store(":memory:"))
        self.page = _Page()
        self.room.sit(Hello("page", name="Ann", lang=lang, web=True), self.page)

    @property
    def game(self) -> Any:
        return self.room.table.game

    def my_turn(self) -> bool:
        """Whether the game waits for the page's seat."""
        return not self.game.is_over() and self.page.seat in self.game.must_act()

    def controls(self) -> list[Control]:
        """The controls of the page's last screen."""
        return controls_of(self.page.frame["table"])

    def click(self, control: Control) -> list[Control]:
        """Click ``control``: its target routed (what the page sends), or, for a control
        that asks first, the question's controls returned."""
        if control["asks"]:
            return question_of(control)
        self.room.route(self.page, RouteFrame(control["target"], self.page.frame["number"]))
        return []

    def run_bots(self) -> None:
        """Let the bots play until the page's seat must act or the game is over."""
        while not self.game.is_over() and not self.my_turn():
            self.room.act()

    def play_turn(self, player: PagePlayer, most: int = 60) -> int:
        """Play the seat's turn to its end as ``player`` picks; the clicks it took."""
        clicks = 0
        while self.my_turn():
            assert clicks < most, f"the turn did not end in {most} clicks"
            control = player.pick(self.controls())
            assert control is not None, [c["text"] for c in self.controls()]
            clicks += 1
            asked = self.click(control)
            if asked:
                answer = player.pick(asked)
                assert answer is not None
                clicks += 1
                self.click(answer)
        return clicks
