"""The Elevens screen in a play session: rows, hand, places offered, commands, words."""

from __future__ import annotations

from typing import Any

import pytest

from brailledev.programs.session import Session
from games.elevens.engine import JOKER, Elevens, Step
from layouts.elevens.screen import Chosen
from layouts.screen import Ask, PlayMove
from tests.elevens_helpers import table
from tests.play_helpers import told
from tests.screen_player import choose, my_turn


def session_with(game: Elevens, lang: str = "en", **kwargs: Any) -> Session:
    """A session on a chosen table (``tests.elevens_helpers.table``), seat 0 at the display."""
    session = Session.start("elevens", players=len(game.hands), seed=1, lang=lang, pace=0,
                            **kwargs)
    session.table.game = game
    return session


def elevens(session: Session) -> Elevens:
    assert isinstance(session.table.game, Elevens)
    return session.table.game


def line(session: Session, key: str):
    return next(each for each in session.seat.lines() if each.key == key)


def texts(session: Session, key: str) -> list[str]:
    return [region.text for region in line(session, key).regions]


def route(session: Session, key: str, text: str) -> None:
    region = next(r for r in line(session, key).regions if r.text == text)
    session.seat.route(region.target)


def test_rows_are_compact_lines_with_jokers_marked():
    game = table([["r12"], ["b3"]], rows={"b": [3, 4, 8, 9, 10, 12, 13]},
                 jokers=[("b", 11)])
    session = session_with(game)
    keys = [each.key for each in session.seat.lines()]
    assert keys[:7] == ["messages", "status", "row_r", "row_y", "row_g", "row_b", "hand"]
    assert line(session, "row_r").text == "r 11"
    assert line(session, "row_b").text == "b 3-4 8-13 *11"


def test_french_rows_use_french_colour_letters():
    game = table([["y12"], ["b3"]], rows={"y": [9, 10]})
    session = session_with(game, lang="fr")
    assert line(session, "row_y").text == "j 9-11"
    assert texts(session, "hand") == ["main", "j12"]


def test_status_tells_turn_stock_and_other_hands_links_line_the_links_and_bonuses():
    game = table([["r12", "r13"], ["b3", "b4"]], stock=["g1", "g2"])
    session = session_with(game)
    assert line(session, "status").text == "you, stock 2 Bo 2"
    assert line(session, "links").text == "links: you 4, Bo 4; bonus cards: yours 0, 7 left"
    route(session, "hand", "r12")
    assert line(session, "turn").text == "this turn 1/4: r12"
    french = session_with(table([["r12"], ["b3", "b4"]], current=1), lang="fr")
    assert line(french, "status").text == "Bo, pioche 1 Bo 2"
    assert line(french, "links").text == \
        "liaisons : vous 4, Bo 4 ; cartes bonus : vous 0, reste 7"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_status_line_fits_one_40_cell_window_up_to_four_players(lang, players):
    from brailledev.display.braille import table_for, translator
    from brailledev.display.window import lay_out_line

    session = Session.start("elevens", players=players, seed=5, lang=lang, pace=0)
    braille = translator(table_for(lang))

    def fits() -> None:
        status = line(session, "status")
        assert len(lay_out_line(status, braille, 40).windows) == 1, status.text

    for _ in range(3 * players):  # the largest counts are those of the deal
        fits()
        session.table.run_bots()
        fits()
        while my_turn(session):
            key, index = choose(session)
            session.seat.route(line(session, key).regions[index].target)
            fits()
        if session.table.game.is_over():
            break


def test_the_beginner_game_has_no_links_line_and_its_help_no_link_cards():
    game = table([["r12"], ["b3"]], beginner=True)
    session = session_with(game)
    assert "links" not in [each.key for each in session.seat.lines()]
    assert "link" not in line(session, "help").text
    assert "link card" in line(session_with(table([["r12"], ["b3"]])), "help").text


def test_a_card_with_one_place_is_played_at_once():
    game = table([["r12", "b20"], ["b3"]])
    session = session_with(game)
    hand = line(session, "hand")
    assert hand.regions[1].target == PlayMove(Step("place", "r12", "r", 12))
    session.seat.route(hand.regions[1].target)
    assert elevens(session).rows["r"][12] == "r12"
    assert line(session, "turn").text == "this turn 1/4: r12"
    assert "You play r12." in session.seat.history.texts  # kept, not queued
    assert not session.seat.history.fresh


def test_elv_6_link_placement_offered_as_routable_choices():
    game = table([["y5", "b20"], ["b3"]], rows={"r": range(5, 11), "g": range(5, 11)})
    session = session_with(game)
    route(session, "hand", "y5")
    assert session.seat.pending == Chosen("y5") and session.seat.focus == "choice"
    assert texts(session, "choice") == ["y5 to", "by link from r5", "by link from g5", "cancel"]
    route(session, "choice", "by link from g5")
    assert elevens(session).rows["y"][5] == "y5" and elevens(session).table_links == [("g", 5, "y")]
    assert session.seat.pending is None
    assert "You link from g5 and play y5." in session.seat.history.texts


def test_elv_8_routing_a_joker_in_a_row_exchanges_it():
    game = table([["r12", "y12", "b20"], ["b3"]], jokers=[("y", 12)])
    session = session_with(game)
    assert line(session, "row_y").regions[-1].target == PlayMove(Step("exchange", "y12", "y", 12))
    route(session, "hand", "r12")
    joker = line(session, "row_y").regions[-1]
    assert joker.text == "*12" and joker.target == PlayMove(Step("exchange", "y12", "y", 12))
    session.seat.route(joker.target)
    assert elevens(session).rows["y"][12] == "y12" and JOKER in elevens(session).hands[0]
    assert "You exchange the joker at y12." in session.seat.history.texts


def test_joker_offers_every_place_and_discard_and_cancel_keeps_the_turn():
    game = table([[JOKER, "b20"], ["b3"]], rows={"r": [12]}, links=[0, 0])
    session = session_with(game)
    route(session, "hand", "*")
    assert texts(session, "choice") == [
        "* to", "r10", "r13", "y10", "y12", "g10", "g12", "b10", "b12", "discard joker",
        "cancel"]
    route(session, "choice", "cancel")
    assert session.seat.pending is None
    assert [each.key for each in session.seat.lines()].count("choice") == 0


def test_commands_draw_first_then_end_and_undo():
    game = table([["r12", "r13"], ["b3"]], stock=["g1"])
    session = session_with(game)
    assert texts(session, "commands")[:1] == ["draw"]
    route(session, "hand", "r12")
    assert texts(session, "commands")[:2] == ["end turn", "undo"]
    route(session, "commands", "undo")
    assert 12 not in elevens(session).rows["r"]
    route(session, "hand", "r12")
    route(session, "commands", "end turn")
    assert elevens(session).actors() == [1]


def test_elv_7_pass_offered_when_the_stock_is_empty():
    game = table([["r14"], ["b3"]], stock=[])
    session = session_with(game, lang="fr")
    assert texts(session, "commands")[0] == "passer"


def test_refusal_is_told_in_words():
    game = table([["y9", "r12"], ["b3"]])
    session = session_with(game)
    route(session, "hand", "y9")
    assert session.seat.history.texts[-1].endswith(
        "y9 is not next to a card of its row; play next to a placed card or use a link.")


def test_refusal_in_french_names_the_french_card():
    game = table([["y9", "r12"], ["b3"]])
    session = session_with(game, lang="fr")
    route(session, "hand", "j9")
    assert "j9 n'est à côté d'aucune carte de sa rangée" in session.seat.history.texts[-1]


def test_opponents_turn_is_told_step_by_step():
    game = table([["b20", "g20"], ["r12", "r13", "b5"]], current=1)
    session = session_with(game)
    session.table.run_bots()
    told = " ".join(session.seat.history.texts)
    assert "Bo plays r12." in told and "Bo plays r13." in told
    assert elevens(session).actors() == [0]


def test_pending_choice_survives_nothing_else():
    game = table([["y5", "b20"], ["b3"]], rows={"r": range(5, 11), "g": range(5, 11)})
    session = session_with(game)
    session.seat.route(Ask(Chosen("y5")))
    assert session.seat.home() == "choice"
    route(session, "choice", "by link from r5")
    assert session.seat.home() == "hand"


def test_opponents_turn_is_spoken_by_espeak(tmp_path):
    from brailledev.display.speech import Speech

    speech = Speech("fr", record_dir=tmp_path)
    game = table([["b20", "g20"], ["r12", "r13", "b5"]], current=1)
    session = session_with(game, lang="fr", speech=speech)
    start = len(told(session))
    session.table.run_bots()
    said = told(session)[start:]
    assert "Bo pose r12." in said
    assert speech.wait(timeout=60)
    speech.close()
    assert len(list(tmp_path.glob("*.wav"))) == speech.spoken >= len(said)


def test_many_places_of_a_joker_are_offered_row_by_row():
    game = table([[JOKER, "b20"], ["b3"]], rows={"r": [12, 13], "y": [12]})
    session = session_with(game)
    route(session, "hand", "*")
    assert texts(session, "choice") == [
        "* to", "row r: 2", "row y: 3", "row g: 3", "row b: 2", "discard joker", "cancel"]
    route(session, "choice", "row y: 3")
    assert texts(session, "choice") == ["* to", "y10", "y13", "y13 by link from r13", "back",
                                        "cancel"]
    route(session, "choice", "back")
    assert texts(session, "choice")[1] == "row r: 2"
    route(session, "choice", "row y: 3")
    route(session, "choice", "y13")
    assert elevens(session).rows["y"][13] == JOKER and session.seat.pending is None


def test_elv_6_row_lines_show_laid_link_cards_on_both_rows():
    game = table([["y5", "b20"], ["b3"]], rows={"r": range(5, 11), "g": range(5, 11)})
    session = session_with(game)
    route(session, "hand", "y5")
    route(session, "choice", "by link from g5")
    assert line(session, "row_y").text == "y 5 lig5 11"
    assert line(session, "row_g").text == "g 5-11 liy5"
    assert line(session, "row_r").text == "r 5-11"
    assert all(region.target is None for region in line(session, "row_y").regions)
    route(session, "commands", "undo")
    assert line(session, "row_y").text == "y 11" and line(session, "row_g").text == "g 5-11"


def test_elv_6_row_lines_show_laid_link_cards_in_french():
    game = table([["y5", "b20"], ["b3"]], rows={"r": range(5, 11), "g": range(5, 11)})
    session = session_with(game, lang="fr")
    route(session, "hand", "j5")
    route(session, "choice", "par liaison depuis v5")
    assert line(session, "row_y").text == "j 5 liv5 11"
    assert line(session, "row_g").text == "v 5-11 lij5"


def test_elv_6_elv_8_joker_laid_through_a_link_is_still_exchanged_by_routing():
    game = table([[JOKER, "b12", "r12", "b20"], ["b3"]], rows={"g": [12, 13]})
    session = session_with(game)
    elevens(session).play(0, elevens(session).parse_move(0, "L g12>b *"))
    assert line(session, "row_b").text == "b 11-12 *12 lig12"
    assert line(session, "row_g").text == "g 11-13 lib12"
    joker, link = line(session, "row_b").regions[-2:]
    assert joker.target == PlayMove(Step("exchange", "b12", "b", 12)) and link.target is None
    session.seat.route(joker.target)
    assert elevens(session).rows["b"][12] == "b12"
    assert line(session, "row_b").text == "b 11-12 lig12"


def test_elv_6_a_middle_row_shows_links_to_both_neighbours_in_order():
    game = table([["g9", "r9", "y12", "y13", "b20"], ["b3"]], rows={"y": [9, 10]})
    session = session_with(game)
    for step in ("L y9>g", "L y9>r", "y12", "y13"):
        elevens(session).play(0, elevens(session).parse_move(0, step))
    assert line(session, "row_y").text == "y 9-13 lir9 lig9"
    assert line(session, "row_r").text == "r 9 liy9 11"
    assert len(line(session, "row_y").text) <= 40
