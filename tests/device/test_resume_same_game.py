"""A game quit and resumed is the same game (issue 13.2): for random seeds, bots, seats and
quitting points, a session saved to its file and resumed from it, as often as asked, plays on
to exactly the table the uninterrupted session reaches, byte for byte: the game, the bots'
random states and memories, whether the bots were already asked to act in the position
(Uno's catch), the turn clock.

The person's moves are chosen by a random bot made afresh for every move from the seed and
the move number, so they depend on the position alone, as a person replaying would.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brailledev.programs.session import Session
from games.uno.notation import PLAY
from layouts.registry import GAMES, kit

# Variants that keep a game short enough to play a few dozen times.
OPTIONS = {"uno": {"match_target": 0}}
PLAYERS = {"elements": (3, 4), "uno": (2, 3, 4), "rummikub": (2, 3), "elevens": (2, 3),
           "domino": (2, 3)}
MOST_STEPS = 160


def still(_: float = 0.0) -> float:
    """A clock that never moves: the turn clock saves the same seconds in every run."""
    return 0.0


def person_move(session: Session, seed: int) -> None:
    """The person's move: what a random bot made for this position alone would choose."""
    table, seat = session.table, session.seat.seat
    bot = kit(table.name).make_bot("random", seed * 1_000_003 + table.moves)
    move = bot.choose(table.view(seat), table.legal(seat))
    assert move is not None
    assert session.seat.play(move), f"the person's move {move} was refused"


def run(game: str, players: int, seed: int, bots: str, seat: int, path: Path,
        stops: frozenset[int] = frozenset()) -> tuple[str, int]:
    """Play ``MOST_STEPS`` steps (a bot's move or the person's); before each step in
    ``stops`` the session is saved, dropped and resumed from its file. Returns the table as
    saved at the end and how many resumptions happened."""
    session = Session.start(game, players=players, seed=seed, lang="en", seat=seat,
                            bots=bots, options=OPTIONS.get(game), save=path, pace=0,
                            clock=still)
    resumed = 0
    for step in range(MOST_STEPS):
        if session.table.game.is_over():
            break
        if step in stops:
            session.save()
            session = Session.resume(path, pace=0, clock=still)
            resumed += 1
        session.table.tick()  # as the key loop does between keys
        if session.table.bot_move():
            continue
        assert session.table.game.must_act() == [seat], "nobody to move"
        person_move(session, seed)
    session.table.tick()
    session.save()
    saved = json.loads(path.read_text(encoding="utf-8"))["table"]
    return json.dumps(saved, sort_keys=True), resumed


def _case(game: str) -> st.SearchStrategy[tuple[int, int, str, int, frozenset[int]]]:
    names = sorted(kit(game).bots)
    return st.integers(0, 10**6).flatmap(lambda seed: st.tuples(
        st.sampled_from(PLAYERS[game]), st.just(seed),
        st.lists(st.sampled_from(names), min_size=1, max_size=3).map(",".join),
        st.integers(0, 5), st.frozensets(st.integers(0, MOST_STEPS - 1), min_size=1,
                                          max_size=4)))


def _check(game: str, case: tuple[int, int, str, int, frozenset[int]], folder: Path) -> None:
    players, seed, bots, seat, stops = case
    seat %= players
    whole, _ = run(game, players, seed, bots, seat, folder / "whole.json")
    again, resumed = run(game, players, seed, bots, seat, folder / "again.json", stops)
    assert again == whole, f"{game} {case}: resumed {resumed} time(s), another game"


def _property(game: str):  # one test per game, so a failure names its game
    @settings(max_examples=int(os.environ.get("RESUME_EXAMPLES", "4")), deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(case=_case(game))
    def test(tmp_path, case):
        _check(game, case, tmp_path)
    test.__name__ = f"test_{game}_quit_and_resumed_is_the_same_game"
    return test


test_uno_quit_and_resumed_is_the_same_game = _property("uno")
test_rummikub_quit_and_resumed_is_the_same_game = _property("rummikub")
test_elevens_quit_and_resumed_is_the_same_game = _property("elevens")
test_elements_quit_and_resumed_is_the_same_game = _property("elements")
test_domino_quit_and_resumed_is_the_same_game = _property("domino")


def test_every_game_has_its_property():
    assert {name.split("_")[1] for name in globals()
            if name.endswith("_is_the_same_game") and name.startswith("test_")} == set(GAMES)


def test_uno_bots_asked_to_catch_are_not_asked_again_after_a_resume(tmp_path):
    """Quitting right after the bots declined to catch: resumed, they are not asked again
    (their random state would move on a second time). The person forgets UNO on purpose and
    keeps the turn (a Skip between two players), so the bot is asked and the person acts."""
    path = tmp_path / "uno.json"
    for seed in range(300):
        session = Session.start("uno", players=2, seed=seed, lang="en", bots="random",
                                options=OPTIONS["uno"], save=path, pace=0)
        for _ in range(300):
            if session.table.game.is_over():
                break
            if session.table.bot_move():
                continue
            if session.table.to_dict()["optional_asked"]:
                session.save()
                bots = session.table.to_dict()["bot_states"]
                again = Session.resume(path, pace=0)
                assert again.table.to_dict()["optional_asked"]
                assert again.table.bot_due() is None  # nobody left to ask: the person's turn
                assert not again.table.bot_move()
                assert again.table.to_dict()["bot_states"] == bots
                return
            legal = session.table.game.legal_moves(0)
            forgetful = [move for move in legal if move.kind == PLAY and not move.uno]
            session.seat.play((forgetful or legal)[seed % len(forgetful or legal)])
    raise AssertionError("no position where bots were asked and the person must act")
