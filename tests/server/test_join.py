"""``brailledev join`` as a player meets it: two players, one reading French and one
English, at one table of a real server, each on a display in memory driven by the very key
loop of ``play`` (routing, panning, chords), with the seat client fed by the wire."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from brailledev.display.braille import cell_to_dots, translator
from brailledev.display.keys import (
    BACK,
    Chord,
    Key,
    LineDown,
    LineUp,
    Named,
    PanRight,
    Route,
    Top,
)
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.join import DOT_8, Joined, TableFront, connect, saved_seat
from brailledev.table.presence import TALK_LINE
from layouts.board import Size
from layouts.screen import MESSAGE_LINE, STATUS_LINE, Ask
from tests.play_helpers import wanted
from tests.screen_player import board_key, reading_key
from tests.server.helpers import ServerThread, new_table

TABLES = {"en": "en-ueb-g1.ctb", "fr": "fr-bfu-comp6.utb"}


class Player:
    """A person at the table: a joined seat on a 40-cell display in memory."""

    def __init__(self, url: str, code: str, name: str, lang: str, folder: Path,
                 resume: bool = False, rows: int = 1) -> None:
        self.save = folder / f"{name}.json"
        saved = saved_seat(self.save, url, code) if resume else None
        self.joined: Joined = connect(url, code, name, lang, saved, self.save, TABLES[lang])
        self.braille = translator(TABLES[lang])
        self.display = MemoryDisplay(40, rows)
        self.front = TableFront(self.joined, self.display, self.braille)
        self.front.redraw()

    @property
    def seat(self):
        return self.joined.seat

    def pump(self) -> None:
        if self.joined.step():
            self.front.redraw()

    def until(self, done: Callable[[], bool], timeout: float = 15, others=()) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self.pump()
            for other in others:
                other.pump()
            if done():
                return
            assert time.monotonic() < deadline, self.seat.history.texts[-5:]
            time.sleep(0.005)

    def heard(self, text: str) -> bool:
        return any(text in message for message in self.seat.history.texts)

    def press(self, key: Key) -> None:
        assert self.front.press(key)
        self.front.redraw()

    def shown(self) -> str:
        return self.braille.back(self.display.shown[0]).strip()

    def go_to(self, key: str) -> None:
        keys = [laid.line.key for laid in self.front.viewport.lines]
        while self.front.viewport.line_key != key:
            here = keys.index(str(self.front.viewport.line_key))
            self.press(LineDown() if keys.index(key) > here else LineUp())

    def route(self, key: str, region: int) -> None:
        """Go to line ``key``, pan to region ``region`` and press the routing key over it
        (on a board: the keys a reader presses there)."""
        if self.front.boards is not None:
            for _ in range(40):
                pressed, kind = board_key(self.front, key, region)
                self.press(pressed)
                if kind == "route":
                    return
            raise AssertionError(f"region {region} of {key} never showed on the board")
        self.go_to(key)
        for _ in range(40):
            viewport = self.front.viewport
            window = viewport.lines[viewport.top].windows[viewport.window]
            for piece in window.pieces:
                if piece.region == region:
                    self.press(Route(piece.column))
                    return
            self.press(PanRight())
        raise AssertionError(f"region {region} of {key} never showed")

    def read_on(self) -> None:
        if self.front.boards is not None:
            while (key := reading_key(self.front)) is not None:
                self.press(key)
            return
        while self.front.viewport.line_key == MESSAGE_LINE:
            self.press(PanRight())

    def type(self, text: str) -> None:
        """Type on the braille keyboard: each letter's cell in the player's table."""
        for letter in text:
            cell = self.braille.translate(letter).cells
            assert len(cell) == 1, letter
            self.press(Chord(cell_to_dots(cell)))

    def close(self) -> None:
        self.joined.close()


def players_line(player: Player) -> str:
    return next(line.text for line in player.seat.lines() if line.key == "players")


@pytest.fixture
def server(tmp_path):
    with ServerThread(tmp_path / "tables.db") as running:
        yield running


def seat_both(server: ServerThread, tmp_path: Path, ann_rows: int = 1,
              **settings) -> tuple[Player, Player]:
    """Ann (English, on ``ann_rows`` rows) and Bea (French) at a new Uno table, started."""
    code = new_table(server.url, **{"game": "uno", "players": 3, "people": 2, "seed": 3,
                                    "options": {"match_target": 0}, **settings})
    ann = Player(server.url, code, "Ann", "en", tmp_path, rows=ann_rows)
    bea = Player(server.url, code, "Bea", "fr", tmp_path)
    ann.until(lambda: ann.joined.link.started, others=[bea])
    bea.until(lambda: bea.joined.link.started, others=[ann])
    return ann, bea


def play_to_the_end(players: tuple[Player, ...]) -> int:
    """Each player reads the news and routes a sensible move in turn, until the game ends;
    the turns played."""
    turns = 0
    while not players[0].joined.link.over():
        for player in players:
            player.pump()
            if player.joined.link.waiting_for_me():
                player.read_on()
                lines = player.seat.lines()
                key, index = wanted(lines, player.joined.link.legal(), player.seat.pending)
                player.route(key, index)
                turns += 1
        assert turns < 400
        time.sleep(0.002)
    return turns


def test_a_french_and_an_english_player_play_a_whole_game_by_routing(server, tmp_path):
    ann, bea = seat_both(server, tmp_path)
    try:
        assert ann.heard("Bea sits down.") and bea.heard("Toutes les places sont prises")
        turns = play_to_the_end((ann, bea))
        bea.until(lambda: bea.joined.link.over())
        assert turns > 5
        assert ann.heard("Bea plays") or ann.heard("Bea draws")
        assert bea.heard("Ann joue") or bea.heard("Ann pioche")
        assert any("win" in text for text in ann.seat.history.texts[-3:])
        assert not any(" wins" in text or "You win" in text for text in bea.seat.history.texts)
    finally:
        ann.close()
        bea.close()


def test_a_player_at_a_multi_line_display_plays_a_whole_game_on_the_same_board(server,
                                                                             tmp_path):
    ann, bea = seat_both(server, tmp_path, ann_rows=9)
    try:
        assert ann.front.boards is not None
        board = ann.seat.board(Size(40, 9))
        assert board is not None and board.band_of("players") is None  # read, not shown
        assert [band.name for band in ann.front.boards.board.bands] == \
            ["messages", "status", "hand", "choice", "commands"]
        ann.seat.focus = STATUS_LINE
        ann.press(LineDown())  # the players line is read on the reading band
        assert ann.front.boards.page.row_lines()[0] == {"players"}
        texts = ann.display.writes[-1].text
        assert texts is not None and "Bea" in texts[0]
        ann.press(Named(BACK))
        assert play_to_the_end((ann, bea)) > 5
        assert bea.heard("Ann joue") or bea.heard("Ann pioche")
    finally:
        ann.close()
        bea.close()


def test_talk_typed_on_the_braille_keyboard_reaches_the_other_in_their_words(server,
                                                                             tmp_path):
    ann, bea = seat_both(server, tmp_path)
    try:
        ann.read_on()
        reading = ann.front.viewport.line_key
        ann.type("t")                                   # "talk": the only command with t
        assert ann.front.viewport.line_key == TALK_LINE
        ann.type("hi")
        assert "hi" in ann.shown()
        ann.press(Chord(DOT_8))
        assert ann.front.viewport.line_key == reading  # sent: Ann is where she was
        bea.until(lambda: bea.heard("Ann dit : hi."))
        ann.until(lambda: ann.heard("You say: hi."))
        bea.read_on()
        commands = next(line for line in bea.seat.lines() if line.key == "commands")
        others = [region.text for region in commands.regions
                  if region.text.startswith("p") and region.text != "parler"]
        bea.type("p")          # parler, or with piocher on the line: one more letter
        if others:
            assert bea.heard("p : parler")
            bea.type("a")
        assert bea.front.viewport.line_key == TALK_LINE
        bea.type("salut")
        bea.press(Chord(DOT_8))
        ann.until(lambda: ann.heard("Bea says: salut."))
    finally:
        ann.close()
        bea.close()


def test_a_player_away_is_played_by_a_bot_then_comes_back_to_the_same_story(server,
                                                                            tmp_path):
    ann, bea = seat_both(server, tmp_path, away=0.3)
    code = ann.joined.client.code
    try:
        bea.pump()
        told_before = list(bea.seat.history.sentences)
        assert players_line(ann) == "Bea, Di bot"
        bea.close()
        ann.until(lambda: ann.heard("Bea left the table."))
        assert players_line(ann) == "Bea offline, Di bot"
        ann.until(lambda: ann.heard("Bea is away: a bot plays in their place"))
        assert players_line(ann) == "Bea offline, a bot plays, Di bot"
        stood_in = server.call(lambda: server.room(code).table.seating.bots)
        assert 1 in stood_in or 0 in stood_in
        position = ann.joined.link.position
        for _ in range(3):  # the game goes on without Bea
            ann.until(lambda: ann.joined.link.waiting_for_me() or ann.joined.link.over())
            if ann.joined.link.over():
                break
            ann.read_on()
            key, index = wanted(ann.seat.lines(), ann.joined.link.legal(), ann.seat.pending)
            ann.route(key, index)
        assert ann.joined.link.position > position
        bea = Player(server.url, code, "Bea", "fr", tmp_path, resume=True)
        bea.until(lambda: bea.heard("Vous êtes de retour à la table."))
        ann.until(lambda: ann.heard("Bea is back."))
        assert players_line(ann) == "Bea, Di bot"
        assert players_line(bea) == "Ann, Di robot"
        assert bea.seat.history.sentences[:len(told_before)] == told_before
        assert bea.heard("Pendant votre absence, un robot a joué à votre place.")
        assert server.call(lambda: server.room(code).seat_states()[bea.seat.seat].connected)
    finally:
        ann.close()
        bea.close()


def test_a_server_restart_keeps_the_half_made_input_and_the_move_goes_through(server,
                                                                             tmp_path):
    ann, bea = seat_both(server, tmp_path, seed=0)
    try:
        players = (ann, bea)
        wild = None
        for _ in range(200):  # play until one of them holds a Wild on their turn
            for player in players:
                player.pump()
                if not player.joined.link.waiting_for_me():
                    continue
                player.read_on()
                lines = player.seat.lines()
                hand = next(line for line in lines if line.key == "hand")
                asks = [index for index, region in enumerate(hand.regions)
                        if isinstance(region.target, Ask)]
                if asks:
                    wild = player, asks[0]
                    break
                key, index = wanted(lines, player.joined.link.legal(), player.seat.pending)
                player.route(key, index)
            if wild:
                break
            time.sleep(0.002)
        assert wild is not None, "no Wild in 200 turns"
        player, index = wild
        player.route("hand", index)
        pending = player.seat.pending
        assert pending is not None
        position = player.joined.link.position
        server.restart()
        player.until(lambda: player.heard("The connection to the table is lost")
                     or player.heard("La connexion à la table est perdue"))
        player.until(lambda: player.heard("Connected to the table again.")
                     or player.heard("La connexion à la table est rétablie."))
        assert player.seat.pending == pending
        assert player.seat.shown_at_once() is not None  # shown at once (issue 32.7)
        player.press(Top())  # the reader read it; a key clears it
        key, index = wanted(player.seat.lines(), player.joined.link.legal(), pending)
        player.route(key, index)
        player.until(lambda: player.joined.link.position > position)
        assert not player.heard("lost the connection") and not player.heard("perdu la connexion")
    finally:
        ann.close()
        bea.close()


def test_the_turn_clock_runs_on_the_server_and_its_end_is_told(server, tmp_path):
    """Rummikub with a turn of 2 seconds (RUM-7): the status shows the time left, and when
    it runs out the server draws the penalty for the player, told to both in their words.
    """
    code = new_table(server.url, game="rummikub", players=2, people=2, seed=3,
                     options={"turn_times": 2})
    ann = Player(server.url, code, "Ann", "en", tmp_path)
    bea = Player(server.url, code, "Bea", "fr", tmp_path)
    try:
        ann.until(lambda: ann.joined.link.started, others=[bea])
        first = ann if ann.joined.link.waiting_for_me() else bea
        left = first.joined.link.time_left()
        assert left is not None and 0 < left <= 2
        status = next(line.text for line in first.seat.lines() if line.key == "status")
        assert status.endswith(("15 seconds left.", "Plus que 15 secondes."))
        ann.until(lambda: ann.heard("time is up: 3 tiles drawn."), others=[bea])
        bea.until(lambda: bea.heard("Temps écoulé pour"))
    finally:
        ann.close()
        bea.close()


def test_the_deal_names_the_players_as_they_sat_down_never_a_free_seat(server, tmp_path):
    """Issue 32.5: the dealer's seat was still free when Ann and Bea sat down; the deal is
    told once everyone is seated, with the name its player sat down with, in each language.
    """
    code = new_table(server.url, game="uno", players=3, people=3, seed=0,
                     options={"match_target": 0})
    ann = Player(server.url, code, "Ann", "en", tmp_path)
    bea = Player(server.url, code, "Bea", "fr", tmp_path)
    ann.until(lambda: ann.heard("Bea sits down."), others=[bea])
    cyd = Player(server.url, code, "Cyd", "en", tmp_path)
    try:
        everyone = (ann, bea, cyd)
        for player in everyone:
            player.until(lambda: all(each.joined.link.started for each in everyone),
                         others=everyone)
        ann.until(lambda: ann.heard("Round 1, Cyd deals."), others=[bea, cyd])
        bea.until(lambda: bea.heard("Manche 1, Cyd distribue."), others=[ann, cyd])
        for player, seated in ((ann, "Everyone is seated"), (bea, "Toutes les places")):
            texts = " ".join(player.seat.history.texts)
            assert "Di " not in texts and texts.index(seated) < texts.index("Cyd d"), texts
    finally:
        for player in (ann, bea, cyd):
            player.close()
