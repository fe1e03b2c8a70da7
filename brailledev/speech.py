"""Speech: pyttsx3 with its espeak-ng driver, in a thread of its own behind a queue.

``say`` only puts text on a queue and returns at once, so speaking never delays the display.
Each utterance is rendered to a WAV file by espeak-ng and played with the first sound player
found (``aplay``, ``paplay``, sox's ``play``); with ``record_dir`` the WAV files are kept
there instead of played (tests, and users without a sound card who want the files). If
speech cannot start or cannot play, ``on_notice(code, detail)`` is called once (from the
speech thread) and the speaker falls silent: the game goes on in braille.

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
VOICES = {"en": "gmw/en", "fr": "roa/fr"}
# Longest wait for espeak-ng to wind down the last utterance before the next one starts.
SETTLE_SECONDS = 10.0
# A synthesis the driver cancelled is tried again this many times in all, then skipped.
SYNTH_ATTEMPTS = 3


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
        if self.record_dir is None and self._player() is None:
            raise SpeechUnavailable("speech_no_player")
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
            done = subprocess.run([*player, name], capture_output=True, check=False)
            if done.returncode != 0:
                detail = done.stderr.decode(errors="replace").strip().splitlines()
                raise SpeechUnavailable("speech_cannot_play",
                                        f"{player[0]}: {detail[-1] if detail else 'no device'}")
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
