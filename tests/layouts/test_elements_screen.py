"""Elements on the play session: the lines a player reads and a whole hand by routing alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.programs.session import Session
from games.core import Reason
from games.elements.cards import Card
from games.elements.engine import BID, KEEP, PLACE, Elements, HandScored, Place
from layouts.elements.screen import SCREEN, ElementsInput, sort_hand
from layouts.elements.words import Words, label
from layouts.screen import Ask, Context, Line, PlayMove
from tests.elements_helpers import cards, play, rig
from tests.play_helpers import told


def start(lang="en", seed=5, bots="random") -> Session:
    return Session.start("elements", players=3, seed=seed, lang=lang, bots=bots, pace=0)


def line(session: Session, key: str) -> Line:
    return next(each for each in session.seat.lines() if each.key == key)


def targets(session: Session, key: str) -> list:
    return [(region.text, region.target) for region in line(session, key).regions
            if region.target is not None]


def game_of(session: Session) -> Elements:
    game = session.table.game
    assert isinstance(game, Elements)
    return game


def rigged(lang="en") -> Session:
    """Seat 0 (the display) first, element row r y g b k, known hands."""
    session = start(lang)
    game = game_of(session)
    game.row = ["r", "y", "g", "b", "k"]
    rig(game, {0: "r5 y1 y2 y3 y4 y5 y6 y7 y8 y9 y10",
               1: "b5 g1 g2 g3 g4 g5 g6 g7 g8 g9 g10",
               2: "k9 k1 k2 k3 k4 k5 k6 k7 k8 k10 r10"})
    return session


def route_text(session: Session, key: str, text: str) -> None:
    found = [target for shown, target in targets(session, key) if shown == text]
    assert found, (text, line(session, key).text)
    session.seat.route(found[0])


def test_phase_1_route_a_card_then_an_element_face_down():
    session = rigged()
    assert session.seat.home() == "hand"
    assert line(session, "order").text == \
        "elements: er free, ey free, eg free, eb free, ek free"
    route_text(session, "hand", "r5")
    assert session.seat.pending == ElementsInput(place=Card("r", 5))
    assert session.seat.focus == "choice"
    assert line(session, "choice").text == "put r5 before er ey eg eb ek cancel"
    assert "r5*" in line(session, "hand").text
    route_text(session, "choice", "eg")
    assert session.seat.pending is None
    assert line(session, "order").text == \
        "elements: er free, ey free, eg you r5, eb free, ek free"
    play(game_of(session), "place b5@Er")
    # the bot's card is face down on the display: only a question mark
    assert line(session, "order").text == \
        "elements: er Bo ?, ey free, eg you r5, eb free, ek free"


def test_refusals_name_cards_and_elements_by_their_labels():
    session = rigged("fr")
    session.seat.route(PlayMove(Place(Card("g", 7), "r")))
    assert session.seat.history.texts[-1] == \
        "Refusé : vous n'avez pas v7 : choisissez une carte de votre main."
    assert game_of(session).placements == {}
    taken = Reason.of("element_taken", element="Ey")
    assert session.seat.screen.explain(taken, session.seat.context()) == \
        "l'élément éj a déjà une carte : choisissez un élément libre."  # told after a colon


def test_phase_2_lines_order_points_bids_combinations_and_scores():
    session = rigged()
    play(game_of(session), "place r5@Eg", "place b5@Er", "place k9@Eb")
    assert line(session, "order").text == "order: eb er eg ey ek"
    assert line(session, "points").text == "points to win: 9 5 5"  # the current one last
    route_text(session, "hand", "y10")           # one card due: laid at once
    play(game_of(session), "lay g1", "lay k1")
    assert line(session, "bids").text == (
        "for r5: you: y10 single card, leads; Bo: g1 single card; Cy: k1 single card")
    assert [text for text, _ in targets(session, "commands")] == ["pass", "help", "quit"]
    route_text(session, "hand", "y9")
    play(game_of(session), "lay g2", "lay k2")
    assert "Bo: g1 g2 two of a colour" in line(session, "bids").text
    # round 3: two cards are selected, then confirmed
    route_text(session, "hand", "y1")
    assert game_of(session).laid[0] == cards("y10 y9")
    assert line(session, "choice").text == "y1 chosen, choose one more cancel"
    route_text(session, "hand", "y2")
    assert line(session, "choice").text == "lay y1 y2 confirm cancel"
    route_text(session, "choice", "confirm")
    assert game_of(session).laid[0] == cards("y10 y9 y1 y2")
    assert "you: y10 y9 y1 y2 four of a colour, leads;" in line(session, "bids").text
    play(game_of(session), "pass", "pass")
    session.seat.hear([])
    assert line(session, "scores").text == "scores: you 5, Bo 0, Cy 0"


def test_french_lines():
    session = rigged("fr")
    play(game_of(session), "place r5@Eg", "place b5@Er", "place k9@Eb")
    assert line(session, "order").text == "ordre : éb ér év éj én"
    assert line(session, "points").text == "points à gagner : 9 5 5"
    assert line(session, "hand").text.startswith("main : ")
    assert [text for text, _ in targets(session, "commands")] == ["passer", "aide", "quitter"]


def test_speech_and_history_tell_reveals_bids_and_winners():
    session = rigged()
    session.seat.route(PlayMove(session.table.game.parse_move(0, "place r5@Eg")))
    session.table.run_bots()
    texts = told(session)
    assert "You put r5 face down before eg." in texts
    assert any(text.startswith("Revealed: ") and "Colour order, strongest first:" in text
               for text in texts)
    assert any(text.startswith("Now playing for point card") for text in texts)


def choose(session: Session) -> None:
    """What a player routes next, from the screen alone: the first card, then the first
    element; lay the first card(s), confirming two; discard the first card, then confirm."""
    view = session.seat.view()
    hand = targets(session, "hand")
    if view.phase == PLACE:
        if session.seat.pending is None:
            session.seat.route(hand[0][1])
        session.seat.route(targets(session, "choice")[0][1])
    elif view.phase == BID:
        if not hand:
            session.seat.route(targets(session, "commands")[0][1])   # pass
            return
        session.seat.route(hand[0][1])
        if isinstance(hand[0][1], Ask):
            session.seat.route(targets(session, "hand")[1][1])
            session.seat.route(targets(session, "choice")[0][1])    # confirm
    else:
        assert view.phase == KEEP
        session.seat.route(hand[0][1])
        session.seat.route(targets(session, "choice")[0][1])        # confirm


def test_a_whole_hand_by_routing_targets_alone():
    session = start(seed=11)
    seen_two = False
    for _ in range(400):
        session.table.run_bots()
        if session.table.game.is_over() or game_of(session).hand_number == 1:
            break
        view = session.seat.view()
        seen_two |= view.phase == BID and view.need == 2
        moves = session.table.moves
        choose(session)
        assert session.table.moves == moves + 1
    assert game_of(session).hand_number == 1 and session.seat.view().phase == PLACE
    assert any(text.startswith("Hand over.") for text in told(session))
    assert seen_two


def test_screen_never_shows_a_hidden_card():
    session = rigged()
    play(game_of(session), "place r5@Eg", "place b5@Er")
    context = Context(2, ("Bo", "Cy", "you"), session.seat.history.messages_shown(), None,
                      session.seat.catalog)
    shown = " ".join(each.text for each in SCREEN.screen(session.table.game.view(2), context))
    assert "r5" not in shown and "b5" not in shown and "?" in shown


def test_speech_says_the_reveal_the_bids_and_the_winner(tmp_path):
    from brailledev.display.speech import Speech

    session = rigged("fr")
    speech = Speech("fr", record_dir=tmp_path)
    session.seat.attach_speech(speech)
    before = len(told(session))
    session.seat.route(PlayMove(game_of(session).parse_move(0, "place r5@Eg")))
    session.table.run_bots()                                  # the others place: the reveal
    route_text(session, "hand", "j10")                  # a bid
    session.table.run_bots()
    route_text(session, "commands", "passer")
    session.table.run_bots()
    said = told(session)[before:]
    assert any(text.startswith("Cartes révélées") for text in said)
    assert "Vous posez j10." in said
    assert any(" gagne la carte points " in text or text.startswith("Vous gagnez")
               for text in said)
    assert speech.wait(60)
    speech.close()
    # every sentence told (and the spoken prompts) recorded by espeak-ng, each a real WAV
    recordings = sorted(tmp_path.glob("*.wav"))
    assert speech.failure is None and len(recordings) == speech.spoken >= len(said)

    assert all(path.read_bytes()[:4] == b"RIFF" and path.stat().st_size > 2000
               for path in recordings)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_the_screen_never_shows_a_card_the_seat_may_not_know(seed, steps):
    import random

    session = start(seed=seed)
    game = game_of(session)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over():
            break
        seat = game.actors()[0]
        game.play(seat, rng.choice(game.legal_moves(seat)))
    hidden = [card for seat in (1, 2) for card in game.hands[seat]] + list(game.stock)
    hidden += [card for seat, card in game.placements.values() if seat != 0]
    shown = {region.text.rstrip("*,;") for line in session.seat.lines() for region in line.regions}
    assert not shown & {label(card, session.seat.catalog) for card in hidden}


def at_keep(lang: str) -> Session:
    """A session whose player has to keep or discard (phase 3), by routing alone."""
    session = start(lang, seed=11)
    for _ in range(400):
        session.table.run_bots()
        if session.seat.view().phase == KEEP and session.seat.view().turn == 0:
            return session
        choose(session)
    raise AssertionError("phase 3 never came")


@pytest.mark.parametrize(("lang", "kept"), [("en", "You keep {} cards."),
                                             ("fr", "Vous gardez {} cartes.")])
def test_ele_7_the_keep_line_routes_its_cards_between_keep_and_discard(lang, kept):
    session = at_keep(lang)
    words = session.seat.catalog.text
    hand = [label(card, session.seat.catalog) for card in sort_hand(session.seat.view())]
    assert [region.text for region in line(session, "choice").regions] == \
        [words("keep_label"), *hand, words("discard_label"), words("nothing"),
         words("confirm"), words("keep_all")]
    route_text(session, "choice", hand[0])      # on the keep line itself: discarded
    route_text(session, "choice", hand[2])
    assert [region.text for region in line(session, "choice").regions] == \
        [words("keep_label"), hand[1], *hand[3:], words("discard_label"), hand[0], hand[2],
         words("confirm"), words("keep_all")]
    assert f"{hand[0]}*" in line(session, "hand").text   # marked on the hand line too
    route_text(session, "choice", hand[2])      # routed again on the discard side: kept
    route_text(session, "choice", words("confirm"))
    assert kept.format(len(hand) - 1) in told(session)


def test_hand_scores_say_whose_they_are():
    for lang, said in (("en", "Hand over. Points: you 7, Bo 0, Cy 18. "
                              "Totals: you 12, Bo 3, Cy 18."),
                       ("fr", "Fin de la manche. Points : vous 7, Bo 0, Cy 18. "
                              "Totaux : vous 12, Bo 3, Cy 18.")):
        words = Words.load(lang)
        names = (words.text("you"), "Bo", "Cy")
        assert words.event(HandScored((7, 0, 18), (12, 3, 18)), 0, names) == said
