"""The message history's rules: news gathers into one summary until the player's next step,
own steps and refusals are kept but never queued, nothing is ever skipped or lost."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from brailledev.table.history import NEWS, REFUSAL, STEP, History

ACTIONS = st.lists(st.sampled_from(["news", "step", "refusal", "on", "back", "newest"]),
                   max_size=50)


def run(actions: list[str], most: int | None = None) -> History:
    history = History(most=most)
    for number, action in enumerate(actions):
        if action in ("news", "step", "refusal"):
            getattr(history, action)(f"{action} {number}.")
        elif action == "on":
            history.read_on()
        elif action == "back":
            history.read_back()
        else:
            history.to_newest()
    return history


def test_news_gathers_into_one_summary_until_the_players_step():
    history = History()
    history.news("Bo plays r5.")
    history.news("Cy draws a card.")
    assert history.shown() == ("Bo plays r5. Cy draws a card.", 0)
    assert history.fresh
    history.step("You play r7.")
    assert not history.fresh  # the player's own step is never queued
    history.news("Bo plays r9.")
    assert [message.kind for message in history.messages] == [NEWS, STEP, NEWS]
    assert history.texts == ["Bo plays r5. Cy draws a card.", "You play r7.", "Bo plays r9."]


def test_the_players_move_closes_the_summary_even_when_it_brings_only_news():
    history = History()
    history.news("Bo plays r5.")
    history.read_on()
    history.close()  # the player draws: told as news, it starts the next summary
    history.news("You draw b8.")
    assert history.texts == ["Bo plays r5.", "You draw b8."] and history.fresh


def test_a_refusal_closes_the_summary_and_is_never_unread():
    history = History()
    history.news("Bo plays r5.")
    history.refusal("Refused: r7 does not match.")
    assert not history.fresh and history.newest is not None
    assert history.newest.kind == REFUSAL
    history.news("Bo plays r9.")
    assert history.texts[-1] == "Bo plays r9."


def test_reading_the_summary_to_its_end_reads_it_and_news_after_makes_it_fresh_again():
    history = History()
    history.news("Bo plays r5.")
    assert history.read_on() is False  # nothing after the newest
    assert not history.fresh
    history.news("Cy plays r6.")  # the summary is still open: it grows, and is news again
    assert history.fresh and history.texts == ["Bo plays r5. Cy plays r6."]


def test_reading_back_shows_older_messages_with_the_count_of_newer_ones():
    history = History()
    for text in ("a.", "b.", "c."):
        history.step(text)
    assert history.shown() == ("c.", 0)
    assert history.read_back() and history.shown() == ("b.", 1)
    assert history.read_back() and history.shown() == ("a.", 2)
    assert not history.read_back()
    assert history.read_on() and history.shown() == ("b.", 1)
    history.to_newest()
    assert history.shown() == ("c.", 0)


@settings(max_examples=120, deadline=None)
@given(ACTIONS)
def test_from_anywhere_reading_back_then_on_visits_every_message_once(actions):
    history = run(actions)
    history.to_newest()
    backwards = [history.index]
    while history.read_back():
        backwards.append(history.index)
    forwards = [history.index]
    while history.read_on():
        forwards.append(history.index)
    count = len(history.messages)
    assert backwards == list(range(count - 1, -1, -1)) or count == 0
    assert forwards == list(range(count)) or count == 0
    assert history.cursor is None and not history.fresh  # read to the newest's end


@settings(max_examples=120, deadline=None)
@given(ACTIONS)
def test_nothing_told_is_ever_lost_and_the_history_saves_whole(actions):
    history = run(actions)
    told = [f"{action} {number}." for number, action in enumerate(actions)
            if action in ("news", "step", "refusal")]
    assert [part for message in history.messages for part in message.parts] == told
    again = History.from_dict(history.to_dict())
    assert again.to_dict() == history.to_dict()
    assert again.fresh == history.fresh and again.shown() == history.shown()


def test_a_history_saved_by_brailledev_0_1_is_read_as_messages():
    history = History.from_dict({"texts": ["Uno for 2 players.", "You play r5."],
                                 "cursor": 1, "read": 2})
    assert history.texts == ["Uno for 2 players.", "You play r5."]
    assert not history.fresh and history.shown() == ("You play r5.", 0)


@settings(max_examples=300, deadline=None)
@given(actions=ACTIONS, most=st.integers(1, 12))
def test_a_bounded_history_keeps_the_newest_sentences_and_counts_them_all(actions, most):
    whole, kept = run(actions), run(actions, most)
    assert kept.sentences == whole.sentences[-most:] if whole.sentences else kept.sentences == []
    assert kept.told == len(whole.sentences) and kept.dropped == kept.told - len(kept.sentences)
    assert kept.messages[-1:] == whole.messages[-1:] or len(whole.messages[-1].parts) > most
    assert kept.cursor is None or 0 <= kept.cursor < len(kept.messages) - 1
    assert 0 <= kept.read <= (len(kept.messages[-1].parts) if kept.messages else 0)
    if kept.messages:  # what the message line shows is the newest, as read so far
        assert kept.fresh == (whole.fresh and kept.read < len(kept.messages[-1].parts))
