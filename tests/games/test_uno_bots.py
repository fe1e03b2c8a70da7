"""Uno's computer opponents and self-play through the real CLI."""

import json

import pytest

from brailledev.programs.cli import main
from brailledev.programs.selfplay import selfplay
from games.core import BadState, events_for
from games.play import play_out
from games.uno import BOTS, SELFPLAY_OPTIONS, HeuristicBot, Move, Uno
from games.uno.bots import BLUFF_CHANCE, CHALLENGE_ABOVE, FORGET_UNO
from games.uno.engine import FirstCard, RoundStarted
from layouts.catalog import rules_data

DATA = rules_data("uno")


def rigged(line: str) -> Uno:
    """A table in one line (the colour is the top card's, seat 0 to play, the rest of the
    deck in the stock): ``rigged("players=2 hands=r5,g1;b1,b2 discard=r9")``."""
    return Uno.from_position(f"uno {line}")


def test_bots_finish_whole_matches_of_every_size():
    for players in range(2, 7):
        game = Uno.new(players=players, seed=players, data=DATA, match_target=200)
        bots = {seat: BOTS[("heuristic", "random")[seat % 2]](seat) for seat in range(players)}
        play_out(game, bots)
        assert game.is_over() and max(game.scores()) >= 200


def test_heuristic_keeps_wilds_and_picks_its_strongest_colour():
    game = rigged("players=2 hands=wi,r5,g1,g2,g7;b1,b2,b3,b4,b5 discard=r9")
    bot = BOTS["heuristic"](1)
    assert bot.choose(game.view(0), game.legal_moves(0)) == Move("play", "r5")
    game = rigged("players=2 hands=wi,y5,g1,g2,g7;b1,b2,b3,b4,b5 discard=r9")
    assert bot.choose(game.view(0), game.legal_moves(0)) == Move("play", "wi", "g")


def seen(bots, events, players):
    """Hand each bot its seat's share of a move's events, as every table does."""
    for seat, bot in bots.items():
        if seat < players:
            bot.see(events_for(events, seat))


def test_uno_7_bots_mostly_say_uno_and_sometimes_forget_and_the_heuristic_catches():
    said = {"heuristic": 0, "random": 0}
    for name in said:
        for seed in range(400):
            game = rigged("players=3 hands=r5,g1;b1,b2;y1,y2 discard=r9")
            move = BOTS[name](seed).choose(game.view(0), game.legal_moves(0))
            assert move is not None and move.kind == "play"
            said[name] += move.uno
    # FORGET_UNO of the plays leaving one card forget it: a seeded share, not never
    for count in said.values():
        assert 400 * (1 - 2 * FORGET_UNO) < count < 400 * (1 - FORGET_UNO / 2)
    game = rigged("players=3 hands=r5,g1;b1,b2;y1,y2 discard=r9")
    game.play(0, Move("play", "r5"))
    bot = BOTS["heuristic"](1)
    assert bot.choose(game.view(2), game.legal_moves(2)) == Move("catch", target=0)
    assert bot.choose(game.view(2), []) is None


def a_draw_four(line: str, bot: HeuristicBot, colour: str = "g"):
    """Seat 0 plays its Wild Draw Four on seat 1, whose bot saw the round from its start."""
    game = rigged(line)
    bot.see(events_for([RoundStarted(1, 1), FirstCard(game.discard[-1])], 1))
    bot.see(events_for(game.play(0, Move("play", "wi+4", colour)), 1))
    return game


def test_uno_6_heuristic_challenges_when_it_saw_a_playable_card_in_that_hand():
    # Bo's hand was shown to the bot after a challenge: r3 among it, never played since
    for seed in range(40):
        bot = HeuristicBot(seed)
        game = a_draw_four("players=2 hands=r3,y4,wi+4,wi+4;b1,r2,r7 discard=r9", bot)
        bot.see(events_for(game.play(1, Move("challenge")), 1))
        assert sorted(bot.held[0]) == ["r3", "wi+4", "wi+4", "y4"] and game.colour == "r"
        bot.see(events_for(game.play(1, Move("play", "r2")), 1))  # red stays in play
        bot.see(events_for(game.play(0, Move("play", "wi+4", "g")), 1))
        assert bot.had_another(game.view(1)) == 1.0
        assert bot.choose(game.view(1), game.legal_moves(1)) == Move("challenge")


def test_uno_6_heuristic_accepts_after_the_player_drew_on_the_colour():
    # Bo keeps a Wild Draw Four and draws on red instead (UNO-4 allows it); every card that
    # matches lies under the discard, so the card drawn cannot match: Bo holds no red, no Wild
    under = [card for card in Uno.new(seed=1).deck if card[0] in "rw" or card[1:] == "9"]
    for card in ("r3", "r4", "r5", "wi+4", "r9"):  # in the hands, and the top card last
        under.remove(card)
    line = (f"players=2 hands=b5,b6,b7,y1,wi+4;r3,r4,r5,g6,g7 "
            f"discard={','.join(under)},r9")
    for seed in range(40):
        bot = HeuristicBot(seed)
        game = rigged(line)
        bot.see(events_for([RoundStarted(1, 1), FirstCard("r9")], 1))
        bot.see(events_for(game.play(0, Move("draw")), 1))
        assert bot.lacks[0] == {"r": 0} and game.current == 1
        bot.see(events_for(game.play(1, Move("play", "r3")), 1))
        bot.see(events_for(game.play(0, Move("play", "wi+4", "b")), 1))
        assert not game.wd4_guilty
        assert bot.had_another(game.view(1)) < 0.5  # only a 3 of another colour could
        assert bot.choose(game.view(1), game.legal_moves(1)) == Move("accept")


def test_uno_6_without_evidence_the_heuristic_mostly_accepts():
    """A newcomer's Wild Draw Four from three cards, nothing known of them: the hunch says
    challenge now and then, mostly not; the same hand once seen bluffing gets challenged."""
    line = "players=2 hands=b1,y2,g3,wi+4;r2,r6,b7 discard=r9"
    challenged = 0
    for seed in range(300):
        bot = HeuristicBot(seed)
        game = a_draw_four(line, bot)
        assert 0 < bot.guilt(game.view(1)) < CHALLENGE_ABOVE * 1.5
        challenged += bot.choose(game.view(1), game.legal_moves(1)) == Move("challenge")
    assert 0 < challenged < 300 * 0.5
    caught = 0
    for seed in range(300):
        bot = HeuristicBot(seed)
        bot.bluffs = {0: [3, 3]}  # the table saw Bo's last three Wild Draw Fours were bluffs
        game = a_draw_four(line, bot)
        caught += bot.choose(game.view(1), game.legal_moves(1)) == Move("challenge")
    assert caught == 300


def test_heuristic_learns_bluffs_from_every_challenge_it_sees():
    bot = HeuristicBot(1)
    game = rigged("players=3 hands=r3,wi+4,y4;b1,b2;g1,g2 discard=r9")
    bot.see(events_for(game.play(0, Move("play", "wi+4", "g")), 2))
    bot.see(events_for(game.play(1, Move("challenge")), 2))  # seat 1 challenges, seat 2 sees
    assert bot.bluffs == {0: [1, 1]}
    assert bot.held == {0: ["wi+4"]}  # the +4 taken back is known; the hand went to seat 1


def test_heuristic_sometimes_bluffs_a_draw_four_against_a_near_winner():
    # a Wild Draw Four beside a playable r3, Bo down to one card: a bluff worth trying
    line = "players=2 hands=r3,b5,b6,wi+4;g1 discard=r9"
    bluffs = 0
    for seed in range(400):
        game = rigged(line)
        move = HeuristicBot(seed).choose(game.view(0), game.legal_moves(0))
        assert move is not None and move.kind == "play"
        bluffs += move.card == "wi+4"
    assert 400 * BLUFF_CHANCE / 2 < bluffs < 400 * BLUFF_CHANCE * 1.5
    # with nothing else playable it is no bluff, and it is always played against a near winner
    game = rigged("players=2 hands=b3,b5,b6,wi+4;g1 discard=r9")
    for seed in range(20):
        move = HeuristicBot(seed).choose(game.view(0), game.legal_moves(0))
        assert move is not None and move.card == "wi+4"


def test_heuristic_memory_is_saved_and_damage_refused():
    bot = HeuristicBot(4)
    game = a_draw_four("players=2 hands=r3,y4,wi+4,wi+4;b1,r2,r7 discard=r9", bot)
    bot.see(events_for(game.play(1, Move("challenge")), 1))
    again = HeuristicBot.from_dict(json.loads(json.dumps(bot.to_dict())))
    assert again.to_dict() == bot.to_dict() and again.held == bot.held
    assert again.had_another(game.view(1)) == bot.had_another(game.view(1))
    for key, junk in (("held", {"9": ["r3"]}), ("discard", ["zz"]), ("bluffs", {"0": [3, 1]}),
                      ("lacks", {"0": {"red": 0}}), ("drawer", 7)):
        with pytest.raises(BadState):
            HeuristicBot.from_dict({**bot.to_dict(), key: junk})


def test_heuristic_attacks_when_an_opponent_is_near_out():
    game = rigged("players=3 hands=r5,r+2,g9,g8;b1;y1,y2,y3 discard=r9")
    bot = BOTS["heuristic"](1)
    assert bot.choose(game.view(0), game.legal_moves(0)) == Move("play", "r+2")


def test_heuristic_beats_random_in_two_player_rounds():
    result = selfplay("uno", 200, 5, 2, ["heuristic", "random"])
    assert result["wins"][0] >= 0.6 * 200


def test_selfplay_plays_single_rounds_and_is_deterministic():
    assert SELFPLAY_OPTIONS == {"match_target": 0}
    first = selfplay("uno", 30, 9, 3, ["heuristic", "random"])
    second = selfplay("uno", 30, 9, 3, ["heuristic", "random"])
    for result in (first, second):
        del result["seconds"], result["games_per_second"]
    assert first == second and sum(first["wins"]) >= 30


def test_selfplay_command_prints_one_json_object(capsys):
    assert main(["selfplay", "uno", "--games", "5", "--seed", "3", "--players", "4",
                 "--bots", "heuristic,random"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 5 and result["bots"] == ["heuristic", "random"] * 2
    assert sum(result["wins"]) >= 5
