"""Speech: pyttsx3 with its espeak-ng driver, in a thread of its own behind a queue.

``say`` only puts text on a queue and returns at once, so speaking never delays the display.
Each utterance is rendered to a WAV file by espeak-ng and played with the first sound player
found (``aplay``, ``paplay``, sox's ``play``); with ``record_dir`` the WAV files are kept
there instead of played (tests, and users without a sound card who want the files). Before
the first utterance the player plays a blink of silence, so a machine without a sound device
is found out at once. If speech cannot start or cannot play, ``on_notice(code, detail)`` is
called once (from the speech thread) and the speaker falls silent: the game goes on in
braille. ``code`` names one short sentence for the reader (``speech_no_device``: "Speech off:
no sound device."); ``detail`` is what the system said, never shown on the display.

    speech = Speech("fr", on_notice=lambda code, detail: print(code, detail))
    speech.say("Bo joue r5.")
    speech.close()
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Callable
from pathlib import Path
from typing import Any

from brailledev.errors import SpeechUnavailable

# Sound players tried in order, with the arguments that keep them quiet.
PLAYERS = (("aplay", "-q"), ("paplay",), ("play", "-q"))
# espeak-ng voice identifiers per user language.
VOICES = {"en": "gmw/en", "fr": "roa/fr", "de": "gmw/de"}
# Longest wait for espeak-ng to wind down the last utterance before the next one starts.
SETTLE_SECONDS = 10.0
# A synthesis the driver cancelled is tried again this many times in all, then skipped.
SYNTH_ATTEMPTS = 3
# Longest a sound player may take over one utterance before it counts as no device.
PLAY_SECONDS = 60.0


class Speech:
    """A speaker for one language; see the module docstring for an example."""

    def __init__(self, lang: str, on_notice: Callable[[str, str], None] | None = None,
                 record_dir: Path | None = None) -> None:
        self.lang = lang
        self.on_notice = on_notice
        self.record_dir = record_dir
        self.spoken = 0
        self.failure: str | None = None
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._pending = 0
        self._done = threading.Condition()
        self._espeak: Any = None
        self._thread.start()

    def say(self, text: str) -> None:
        """Queue ``text`` to be spoken; never waits for the speaker."""
        with self._done:
            if self.failure is None and text.strip():
                self._pending += 1
                self._queue.put(text)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until everything queued was spoken (tests, and before exit); True if done."""
        with self._done:
            return self._done.wait_for(lambda: self._pending == 0, timeout)

    def close(self) -> None:
        """Stop after what is being spoken now; queued text is dropped."""
        self._drain()
        self._queue.put(None)
        self._thread.join(timeout=5)

    def _drain(self) -> None:
        with contextlib.suppress(queue.Empty):
            while True:
                self._queue.get_nowait()

    def _run(self) -> None:
        try:
            engine = self._start()
        except SpeechUnavailable as error:
            self._fail(error)
            return
        while True:
            text = self._queue.get()
            if text is None:
                return
            try:
                self._speak(engine, text)
            except SpeechUnavailable as error:
                self._fail(error)
                return
            self.spoken += 1
            with self._done:
                self._pending -= 1
                self._done.notify_all()

    def _start(self) -> Any:
        try:
            import pyttsx3
            from pyttsx3.drivers import _espeak
            from pyttsx3.drivers import espeak as espeak_driver

            # The driver prints a line after each saved file, from espeak's own thread: it
            # must never land on a terminal display, so that module's print is silenced.
            espeak_driver.print = _silent
            engine = pyttsx3.init("espeak")
            engine.setProperty("voice", VOICES.get(self.lang, VOICES["en"]))
            self._espeak = _espeak
        except Exception as error:  # pyttsx3 raises whatever its driver raised
            raise SpeechUnavailable("speech_no_engine", str(error)) from None
        if self.record_dir is None:
            player = self._player()
            if player is None:
                raise SpeechUnavailable("speech_no_player")
            _check_device(player)
        return engine

    def _speak(self, engine: Any, text: str) -> None:
        if self.record_dir is not None:
            self.record_dir.mkdir(parents=True, exist_ok=True)
            self._synthesize(engine, text, str(self.record_dir / f"{self.spoken:04d}.wav"))
            return
        handle, name = tempfile.mkstemp(suffix=".wav", prefix="brailledev-")
        os.close(handle)
        try:
            self._synthesize(engine, text, name)
            player = self._player()
            assert player is not None  # checked at start
            _play(player, name)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(name)

    def _synthesize(self, engine: Any, text: str, path: str) -> None:
        """Render ``text`` to the WAV file ``path``, trying again when espeak-ng's driver left
        a file without sound (a cancelled synthesis still writes its header)."""
        for _attempt in range(SYNTH_ATTEMPTS):
            self._settle()
            engine.save_to_file(text, path)
            engine.runAndWait()
            if _has_sound(path):
                return

    def _settle(self) -> None:
        """Wait until espeak-ng has finished the previous utterance: pyttsx3's runAndWait
        begins with the driver's stop(), which, while espeak-ng still reports playing,
        cancels the synthesis about to start and leaves a WAV with no samples."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while self._espeak.IsPlaying() and time.monotonic() < deadline:
            time.sleep(0.005)

    @staticmethod
    def _player() -> tuple[str, ...] | None:
        for player in PLAYERS:
            if shutil.which(player[0]):
                return player
        return None

    def _fail(self, error: SpeechUnavailable) -> None:
        with self._done:
            self.failure = str(error)
            self._drain()
            self._pending = 0
            self._done.notify_all()
        if self.on_notice is not None:
            self.on_notice(error.code, error.detail)


def _play(player: tuple[str, ...], path: str) -> None:
    """Play the WAV file ``path``; a player that fails (no sound device, no sound server) or
    hangs is :class:`SpeechUnavailable` ``speech_no_device``, what it said kept as detail."""
    try:
        done = subprocess.run([*player, path], capture_output=True, check=False,
                              timeout=PLAY_SECONDS)
    except subprocess.TimeoutExpired:
        raise SpeechUnavailable("speech_no_device", f"{player[0]}: no answer") from None
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise SpeechUnavailable("speech_no_device", f"{player[0]}: {said[-1] if said else ''}")


def _check_device(player: tuple[str, ...]) -> None:
    """Play a hundredth of a second of silence: fails as :func:`_play` does when no sound
    device answers, before anything is said."""
    handle, name = tempfile.mkstemp(suffix=".wav", prefix="brailledev-")
    os.close(handle)
    try:
        with wave.open(name, "wb") as sound:
            sound.setnchannels(1)
            sound.setsampwidth(2)
            sound.setframerate(22_050)
            sound.writeframes(bytes(2 * 220))
        _play(player, name)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(name)


def _has_sound(path: str) -> bool:
    """Whether ``path`` is a whole WAV file with at least one frame."""
    try:
        with wave.open(path) as sound:
            return sound.getnframes() > 0
    except (EOFError, OSError, wave.Error):
        return False


def _silent(*args: object, **kwargs: object) -> None:
    """Swallows what pyttsx3's espeak driver would print."""


class Silence:
    """The speaker of ``--no-speech``: says nothing, costs nothing."""

    failure: str | None = None

    def say(self, text: str) -> None:
        """Drop ``text``."""

    def wait(self, timeout: float | None = None) -> bool:
        return True

    def close(self) -> None:
        """Nothing to stop."""
