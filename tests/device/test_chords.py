"""Commands typed on the braille keyboard: chords read as letters through the player's
table pick the screen's commands by their names in the player's language."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.display.braille import numbers_to_dots, translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.display.chords import NoCommand, Ran, Several, Typist, chord_letter, command_name
from brailledev.display.keys import Chord, Key, Named, PanRight
from brailledev.display.memory import MemoryDisplay
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from layouts.screen import MESSAGE_LINE, Line, PlayMove, Region, Show, Ui
from tests.brltty.harness import VirtualBrltty
from tests.play_helpers import ONE_ROUND

TABLES = {"en": "en-ueb-g1.ctb", "fr": "fr-bfu-comp6.utb"}


def chord(numbers: str) -> Chord:
    return Chord(numbers_to_dots(numbers))


class Playing:
    """A front running its loop on a memory display, as ``brailledev play`` runs it."""

    def __init__(self, session: Session, table: str) -> None:
        self.session = session
        self.display = MemoryDisplay(columns=40)
        self.front = Front(session, self.display, translator(table))
        self.thread = threading.Thread(target=self.front.run, daemon=True)
        self.keys = 0

    def settle(self) -> None:
        """Wait until every key is handled and the bots are done."""
        deadline = time.monotonic() + 20
        while not (self.front.handled >= self.keys and self.front.idle.is_set()):
            assert time.monotonic() < deadline, "the front never settled"
            time.sleep(0.005)

    def press(self, *keys: Key) -> None:
        for key in keys:
            self.display.press(key)
            self.keys += 1
        self.settle()

    @property
    def last_message(self) -> str:
        return self.session.seat.history.texts[-1]

    @property
    def shown_at_once(self) -> str | None:
        """What covers the top row now (the seat's flash), as the display shows it."""
        flash = self.session.seat.flash
        if flash is not None:
            texts = self.display.writes[-1].text
            # the print under the cells, spaced as the cells are
            assert texts is not None and " ".join(texts[0].strip("<> ").split()) in flash
        return flash


@contextmanager
def playing(game: str, lang: str, seed: int,
            options: Mapping[str, object] | None = None) -> Iterator[Playing]:
    session = Session.start(game, players=2, seed=seed, lang=lang, options=options, pace=0)
    play = Playing(session, TABLES[lang])
    play.thread.start()
    try:
        play.settle()
        yield play
    finally:
        play.front.stop()
        play.thread.join(10)
    assert not play.thread.is_alive()


def test_d_draws_in_english_uno():
    with playing("uno", "en", seed=3, options=ONE_ROUND) as play:
        game = play.session.table.game
        assert game.must_act() == [0] and game.view(0).phase == "play"
        cards = len(game.view(0).hand)
        play.press(chord("145"))  # d
        assert "Typed: draw." in play.session.seat.history.texts
        assert len(game.view(0).hand) > cards
        assert play.session.table.moves >= 1


def test_p_draws_in_french_uno_where_draw_is_piocher():
    with playing("uno", "fr", seed=3, options=ONE_ROUND) as play:
        game = play.session.table.game
        cards = len(game.view(0).hand)
        before = game.to_dict()
        play.press(chord("145"))  # d: "draw" is an English word, not a French command
        assert game.to_dict() == before
        assert play.shown_at_once == ("Aucune commande ne commence par d ici : "
                                      "piocher, aide, quitter.")
        play.press(chord("1234"))  # p
        assert "Tapé : piocher." in play.session.seat.history.texts
        assert len(game.view(0).hand) > cards


def test_unknown_letter_changes_nothing_and_lists_the_commands():
    with playing("uno", "en", seed=3, options=ONE_ROUND) as play:
        session = play.session
        before, pending, told = session.table.game.to_dict(), session.seat.pending, len(
            session.seat.history.texts)
        play.press(chord("1356"))  # z
        assert session.table.game.to_dict() == before and session.seat.pending == pending
        assert play.shown_at_once == "No command starts with z here: draw, help, quit."
        assert len(session.seat.history.texts) == told  # what typing says is not news
        assert play.front.viewport.line_key == MESSAGE_LINE  # the reader has not moved
        play.press(Named("repeat"))  # speaks it again; the flash stays
        assert play.shown_at_once is not None
        for _ in range(2):  # two windows: panning reads it to its end, then clears it
            assert play.shown_at_once is not None
            play.press(PanRight())
        assert play.shown_at_once is None


def test_a_chord_that_is_no_letter_gives_one_message_and_changes_nothing():
    with playing("uno", "en", seed=3, options=ONE_ROUND) as play:
        session = play.session
        before, told = session.table.game.to_dict(), len(session.seat.history.texts)
        play.press(chord("3456"))  # the number sign
        assert session.table.game.to_dict() == before
        assert play.shown_at_once == "Dots 3456 type no command; type the first letter of one."
        assert len(session.seat.history.texts) == told


def test_french_letters_come_from_the_french_table():
    # Dots 1-2-3-4-5-6 are é in French braille and no letter in UEB.
    assert chord_letter(chord("123456"), translator("fr-bfu-comp6.utb")) == "é"
    assert chord_letter(chord("123456"), translator("en-ueb-g1.ctb")) is None
    # A contracted table reads a lone x as "it": the chord still types x.
    assert chord_letter(chord("1346"), translator("en-ueb-g2.ctb")) == "x"
    assert chord_letter(chord("1346"), translator("fr-bfu-g2.ctb")) == "x"
    assert chord_letter(Chord(numbers_to_dots("1346"), space=True), translator("en-ueb-g1.ctb")) \
        is None


def test_a_shared_initial_waits_for_the_next_letter_in_french():
    # Seed 8: the bot's first +4 is to be challenged or accepted; "accepter" and "aide"
    # both start with a.
    with playing("uno", "fr", seed=8, options=ONE_ROUND) as play:
        session, game = play.session, play.session.table.game
        assert game.view(0).phase == "challenge"
        before = game.to_dict()
        play.press(chord("1"))  # a
        assert game.to_dict() == before
        assert play.shown_at_once == "a : accepter, aide ; tapez la lettre suivante."
        play.press(chord("14"))  # c: "ac" is accepter
        assert "Tapé : accepter." in session.seat.history.texts
        assert game.view(0).phase != "challenge"


def test_a_second_letter_after_a_shared_initial_in_english_rummikub():
    with playing("rummikub", "en", seed=3) as play:
        session = play.session
        rack = len(session.seat.view().hand)
        play.press(chord("145"))  # d: done or draw
        assert play.shown_at_once == "d: done, draw; type the next letter."
        assert len(session.seat.view().hand) == rack
        play.press(chord("1235"))  # r: "dr" is draw
        assert "Typed: draw." in session.seat.history.texts
        assert session.table.moves >= 1


def test_another_key_forgets_the_letters_typed():
    with playing("rummikub", "en", seed=3) as play:
        play.press(chord("145"), Named("repeat"), chord("1235"))  # d, a key, r
        assert play.last_message == "Typed: reset."


def test_h_shows_help_and_space_with_dot_1_goes_a_line_up():
    with playing("uno", "en", seed=3, options=ONE_ROUND) as play:
        play.press(chord("125"))  # h
        assert play.front.viewport.line_key == "help"
        play.press(Chord(numbers_to_dots("1"), space=True))
        assert play.front.viewport.line_key == "commands"


def line(key: str, *texts: str) -> Line:
    return Line(key, tuple(Region(text, target=Show(text)) for text in texts))


LINES = (line("hand", "r5", "wi"), line("choice", "red", "rose", "cancel"),
         line("commands", "draw", "uno?", "catch Bo", "help", "quit"))


def test_command_names_are_words_never_card_labels():
    assert command_name(Region("r5", target=PlayMove("r5"))) is None
    assert command_name(Region("x j7", target=PlayMove("x"))) is None
    assert command_name(Region("your turn")) is None
    assert command_name(Region("uno?", target=Ui("uno"))) == "uno"
    assert command_name(Region("Écarter", target=Ui("x"))) == "ecarter"


def test_typist_picks_by_the_letters_typed_in_screen_order():
    typist = Typist()
    assert typist.type("w", LINES) == NoCommand(("red", "rose", "cancel", "draw", "uno?",
                                                 "catch Bo", "help", "quit"), "w")
    assert typist.type("r", LINES) == Several(("red", "rose"), "r")
    assert typist.type("o", LINES) == Ran(LINES[1].regions[1], "ro")
    assert typist.type("C", LINES) == Several(("cancel", "catch Bo"), "c")
    assert typist.type("a", LINES) == Several(("cancel", "catch Bo"), "ca")
    assert typist.type("t", LINES) == Ran(LINES[2].regions[2], "cat")
    assert typist.typed == ""


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("abcdeghnopqrstuwyz"), max_size=6))
def test_typing_runs_only_a_shown_command_and_only_when_one_is_left(letters):
    typist = Typist()
    shown = [region for each in LINES[1:] for region in each.regions]
    for letter in letters:
        typed = typist.type(letter, LINES)
        if isinstance(typed, Ran):
            assert typed.region in shown
            assert str(command_name(typed.region)).startswith(typed.typed)
        elif isinstance(typed, Several):
            assert len(set(typed.names)) >= 2
            assert typist.typed == typed.typed
        else:
            assert typist.typed == ""


@pytest.mark.brltty
def test_a_letter_typed_on_a_real_brltty_draws(tmp_path):
    """The Virtual driver sends braille keyboard dots as ``passdots N`` (N the dots bitmask);
    it cannot add the space bar (BRLTTY refuses numbers above 255)."""
    session = Session.start("uno", players=2, seed=3, lang="en", options=ONE_ROUND, pace=0,
                            save=tmp_path / "uno.json")
    with VirtualBrltty(columns=40) as brltty:
        display = BrlapiDisplay(host=brltty.host)
        front = Front(session, display, translator(TABLES["en"]))
        thread = threading.Thread(target=front.run, daemon=True)
        thread.start()
        try:
            assert front.idle.wait(20)
            cards = len(session.seat.view().hand)
            brltty.send(f"passdots {numbers_to_dots('145')}")  # d
            deadline = time.monotonic() + 20
            while not (front.handled >= 1 and front.idle.is_set()):
                assert time.monotonic() < deadline, brltty.log
                time.sleep(0.01)
            assert "Typed: draw." in session.seat.history.texts
            assert session.table.moves >= 1
            assert len(session.table.game.view(0).hand) > cards
        finally:
            front.stop()
            thread.join(10)
            display.close()


def test_accented_letters_match_plain_ones_and_are_told_as_typed():
    typist = Typist()
    lines = (line("commands", "écarter", "aide"),)
    assert typist.type("E", lines) == Ran(lines[0].regions[0], "e")
    assert typist.type("é", lines) == Ran(lines[0].regions[0], "é")
    assert typist.type("à", lines) == Ran(lines[0].regions[1], "à")
    assert typist.type("ù", lines) == NoCommand(("écarter", "aide"), "ù")


def test_a_command_shown_on_two_lines_is_listed_once_and_runs_the_first():
    typist = Typist()
    lines = (line("choice", "discard *", "cancel"), line("commands", "draw", "discard *"))
    assert typist.type("d", lines) == Several(("discard *", "draw"), "d")
    assert typist.type("i", lines) == Ran(lines[0].regions[0], "di")



def test_the_help_line_tells_how_to_type_commands_in_both_languages():
    from layouts.catalog import Catalog
    from layouts.screen import help_line
    for lang, words in (("en", ("braille keyboard", "dot 1 or 4")),
                        ("fr", ("clavier braille", "point 1 ou 4"))):
        line = help_line(Catalog.load("uno", lang), "")
        text = " ".join(region.text for region in line.regions)
        assert all(word in text for word in words), (lang, text)
