"""Speech with the real espeak-ng through pyttsx3, rendered to WAV files (no sound card)."""

from __future__ import annotations

import time
import wave
from pathlib import Path

from brailledev.speech import Silence, Speech


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
