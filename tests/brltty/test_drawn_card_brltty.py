"""A card just drawn is played by routing it in the hand (issue 32.2), on a real BRLTTY
(Virtual driver) at a server's table: while "drew g+2: play keep" waits, the hand's g+2 is
the same choice as the question's "play", for the English and the French seat."""

from __future__ import annotations

import time

from layouts.uno.screen import label
from tests.brltty.test_table_brltty import seated, short_uno_deal


def test_the_drawn_card_routed_in_the_hand_is_played(tmp_path):
    with seated(tmp_path, game="uno", players=3, people=2, seed=short_uno_deal(),
                options={"match_target": 0}) as (players, table):
        by_seat = {fingers.joined.seat.seat: fingers for fingers in players}
        played: dict[str, int] = {"en": 0, "fr": 0}
        for _ in range(400):
            position, waiting, over = table.now()
            if over or min(played.values()):
                break
            fingers = by_seat.get(waiting) if waiting is not None else None
            if fingers is None:
                time.sleep(0.01)
                continue
            fingers.caught_up(position)
            seat = fingers.joined.seat
            words, view = seat.catalog, seat.view()
            if view.phase == "play":
                fingers.route_on("commands", words.text("uno_draw"))
                continue
            choice = next(line for line in seat.lines() if line.key == "choice")
            offered = [region.text for region in choice.regions]
            if view.phase != "drawn" or words.text("uno_play") not in offered \
                    or "wi" in view.drawn:
                target = next(region for region in choice.regions if region.target is not None)
                fingers.route_on("choice", target.text.split()[0])
                continue
            card = label(view.drawn, words)
            fingers.route_on("hand", card)
            assert seat.flash is None, seat.flash
            deadline = time.monotonic() + 10
            while table.now()[0] == position:
                assert time.monotonic() < deadline, seat.history.texts[-3:]
                time.sleep(0.01)
            played[seat.lang] += 1
            fingers.caught_up(table.now()[0])
            assert words.text("uno_played_you", card=card) in " ".join(seat.history.texts)
        assert min(played.values()) >= 1, played
