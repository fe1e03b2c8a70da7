"""A whole 3-player hand of Elements played by routing keys on a real BRLTTY.

BRLTTY runs with its Virtual braille driver; the test is the braille display: it reads the
cells BRLTTY shows and presses BRLTTY's keys (routing, panning, line moves). The game runs in
``brailledev.programs.play.Front`` on ``BrlapiDisplay``, as ``brailledev play elements`` does.
Where to press is read from the front's own layout of the screen, and the cells BRLTTY shows are
checked to be that layout before every key.
"""

from __future__ import annotations

import threading
import time

from brailledev.display.braille import translator
from brailledev.display.brlapi import BrlapiDisplay
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from games.elements.engine import KEEP, PLACE, Elements
from layouts.screen import MESSAGE_LINE, PlayMove
from tests.brltty.harness import VirtualBrltty
from tests.play_helpers import told

COLUMNS = 40


def settled(front: Front, handled: int, timeout: float = 20.0) -> None:
    """Wait until the front handled the key and waits for the player, bots done."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (front.handled >= handled and front.idle.is_set()
                and front.session.table.bot_due() is None):
            return
        time.sleep(0.01)
    raise AssertionError(f"the front never came back to the player after key {handled}: "
                         f"it shows {front.viewport.texts()}")


def wanted(session: Session) -> tuple[str, int]:
    """The line and region a player routes next: in phase 1 the first card, then the first
    element; in phase 2 the first card (two, then confirm, in round 3), or pass when no card
    can be laid; in phase 3 mark the first card for the stock, then confirm."""
    lines = {line.key: line for line in session.seat.lines()}
    hand = lines["hand"].regions
    cards = [index for index, region in enumerate(hand) if region.target is not None]
    unmarked = [index for index in cards if not hand[index].text.endswith("*")]
    choice = lines["choice"].regions if "choice" in lines else ()
    moves = [index for index, region in enumerate(choice) if isinstance(region.target, PlayMove)]
    if session.seat.view().phase == KEEP and len(unmarked) == len(cards) and cards:
        return "hand", cards[0]
    if moves:
        return "choice", moves[0]
    if not cards:
        return "commands", next(index for index, region in enumerate(lines["commands"].regions)
                                if isinstance(region.target, PlayMove))
    return "hand", unmarked[0]


def test_a_whole_three_player_hand_by_routing_keys_on_brltty():
    session = Session.start("elements", players=3, seed=11, lang="en", bots="random", pace=0)
    game = session.table.game
    assert isinstance(game, Elements)
    with VirtualBrltty(columns=COLUMNS) as brltty:
        display = BrlapiDisplay(host=brltty.host)
        front = Front(session, display, translator("en-ueb-g1.ctb"))
        runner = threading.Thread(target=front.run, daemon=True)
        runner.start()
        keys = 0
        routed: list[str] = []
        try:
            settled(front, 0)
            while game.hand_number == 0 and keys < 3000:
                viewport = front.viewport
                shown = front.written
                brltty.wait_for(shown.__eq__)     # BRLTTY shows what the front wrote
                if viewport.line_key == MESSAGE_LINE:
                    brltty.pan_right()                  # read on
                else:
                    key, region = wanted(session)
                    order = [line.line.key for line in viewport.lines]
                    here = order.index(str(viewport.line_key))
                    if order.index(key) > here:
                        brltty.line_down()
                    elif order.index(key) < here:
                        brltty.line_up()
                    else:
                        laid = viewport.lines[viewport.top]
                        window = laid.window_of(region)
                        if window > viewport.window:
                            brltty.pan_right()
                        elif window < viewport.window:
                            brltty.pan_left()
                        else:
                            piece = next(piece for piece in laid.windows[window].pieces
                                         if piece.region == region)
                            # the middle of the label, as a finger would (BRLTTY's
                            # Virtual driver never delivers a routing key on cell 0)
                            brltty.route(piece.column + (piece.stop - piece.start) // 2)
                            routed.append(laid.line.regions[region].text)
                keys += 1
                settled(front, keys)
        finally:
            front.stop()
            runner.join(10)
            display.close()
    assert not runner.is_alive()
    assert game.hand_number == 1 and game.view(0).phase == PLACE
    assert any(text.startswith("Hand over.") for text in told(session))
    # an element for the face-down card, two cards confirmed in round 3, the keep confirmed
    assert routed.count("confirm") >= 2 and any(text.startswith("e") for text in routed)
    assert any(text.startswith("You lay ") and len(text.split()) == 4
               for text in session.seat.history.texts)
