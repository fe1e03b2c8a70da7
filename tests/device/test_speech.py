"""Speech with the real espeak-ng through pyttsx3, rendered to WAV files (no sound card)."""

from __future__ import annotations

import time
import wave
from pathlib import Path

import pytest

from brailledev.display.braille import table_for, translator
from brailledev.display.memory import MemoryDisplay
from brailledev.display.speech import Silence, Speech
from brailledev.programs.session import Session
from brailledev.table.keyloop import Front
from layouts.screen import MESSAGE_LINE


def duration(path: Path) -> float:
    with wave.open(str(path)) as sound:
        return sound.getnframes() / sound.getframerate()


def test_speech_renders_each_utterance_to_a_real_wav(tmp_path, capsys):
    speech = Speech("fr", record_dir=tmp_path)
    speech.say("Bo joue r5.")
    speech.say("À vous, sur r5 rouge.")
    assert speech.wait(timeout=60)
    speech.close()
    files = sorted(tmp_path.glob("*.wav"))
    assert [file.name for file in files] == ["0000.wav", "0001.wav"]
    assert all(duration(file) > 0.3 for file in files)
    assert speech.failure is None
    assert capsys.readouterr().out == ""  # pyttsx3's own chatter never reaches the screen


def test_every_utterance_has_sound_while_the_game_keeps_the_processor_busy(tmp_path):
    # The game thread holding the processor once made espeak-ng finish late, and pyttsx3
    # then cancelled the next utterance: a WAV with no samples, now and then.
    speech = Speech("en", record_dir=tmp_path)
    for number in range(40):
        speech.say(f"Card {number}.")
        busy_until = time.monotonic() + 0.03
        while time.monotonic() < busy_until:
            sum(range(1000))
    assert speech.wait(timeout=60)
    speech.close()
    files = sorted(tmp_path.glob("*.wav"))
    assert len(files) == speech.spoken == 40
    assert all(duration(file) > 0.2 for file in files)


def test_voice_follows_the_language(tmp_path):
    lengths = {}
    for lang in ("en", "fr"):
        speech = Speech(lang, record_dir=tmp_path / lang)
        speech.say("Bonjour, vous jouez le rouge.")
        assert speech.wait(timeout=60)
        speech.close()
        with wave.open(str(tmp_path / lang / "0000.wav")) as sound:
            lengths[lang] = sound.readframes(sound.getnframes())
    assert lengths["en"] != lengths["fr"]


def test_say_never_waits_for_the_speaker(tmp_path):
    speech = Speech("en", record_dir=tmp_path)
    for number in range(40):
        speech.say(f"Message number {number}: Bo plays red seven, then draws two cards.")
    # Forty syntheses take seconds; every say returned while most were still queued.
    assert speech.spoken < 40
    speech.close()


def test_speech_that_cannot_start_gives_one_notice_then_silence(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no sound player anywhere
    notices: list[tuple[str, str]] = []
    speech = Speech("en", on_notice=lambda code, detail: notices.append((code, detail)))
    deadline = time.monotonic() + 30
    while speech.failure is None and time.monotonic() < deadline:
        time.sleep(0.01)
    speech.say("Nobody hears this.")
    speech.say("Nor this.")
    assert speech.wait(timeout=5)
    speech.close()
    assert notices == [("speech_no_player", "")]
    assert speech.spoken == 0


def test_no_speech_is_silence():
    silence = Silence()
    silence.say("anything")
    assert silence.wait() and silence.failure is None


def no_sound_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ALSA's default device is a card that does not exist: aplay (the first player tried,
    installed with alsa-utils) finds no sound device, on any machine."""
    config = tmp_path / "asound.conf"
    config.write_text("pcm.!default { type hw card 99 }\nctl.!default { type hw card 99 }\n")
    monkeypatch.setenv("ALSA_CONFIG_PATH", str(config))
    assert Speech._player() == ("aplay", "-q")


def test_no_sound_device_gives_one_short_notice_then_silence(tmp_path, monkeypatch):
    no_sound_device(tmp_path, monkeypatch)
    notices: list[tuple[str, str]] = []
    speech = Speech("en", on_notice=lambda code, detail: notices.append((code, detail)))
    speech.say("Nobody hears this.")
    deadline = time.monotonic() + 30
    while speech.failure is None and time.monotonic() < deadline:
        time.sleep(0.01)
    speech.say("Nor this.")
    assert speech.wait(timeout=5)
    speech.close()
    assert [code for code, _ in notices] == ["speech_no_device"]
    assert notices[0][1].startswith("aplay: ")  # what ALSA said stays out of the sentence
    assert speech.spoken == 0


@pytest.mark.parametrize(("lang", "sentence"), [("en", "Speech off: no sound device."),
                                                ("fr", "Parole coupée : aucune sortie son.")])
def test_a_game_without_sound_device_tells_one_short_sentence_on_the_display(
        tmp_path, monkeypatch, lang, sentence):
    no_sound_device(tmp_path, monkeypatch)
    session = Session.start("uno", players=2, seed=3, lang=lang, options={"match_target": 0},
                            pace=0)
    display = MemoryDisplay(columns=40)
    front = Front(session, display, translator(table_for(lang)))
    session.seat.attach_speech(Speech(lang, on_notice=session.seat.notice))
    deadline = time.monotonic() + 30
    while sentence not in " ".join(session.seat.history.texts) and time.monotonic() < deadline:
        if session.step():
            front.redraw()
        time.sleep(0.01)
    session.seat.speech.close()
    parts = [part for message in session.seat.history.messages for part in message.parts]
    assert parts.count(sentence) == 1  # one short sentence, in the news, then silence
    told = " ".join(session.seat.history.texts)
    assert not any(word in told for word in ("aplay", "ALSA", "audio open", "error"))
    message_line = next(line for line in session.seat.lines() if line.key == MESSAGE_LINE)
    assert message_line.text.endswith(sentence)  # on the message line, once
