"""Pictures of the web seat for the README: each game's table page at desktop and phone
width, taken in Debian's headless Chromium from a real ``brailledev serve`` process.

    .venv/bin/python tools/web_screenshots.py          # writes docs/screenshots/*.png
    .venv/bin/python tools/web_screenshots.py --langs en fr de --out /tmp/shots
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, sync_playwright

from layouts.translations import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES: dict[str, ViewportSize] = {"desktop": {"width": 1100, "height": 900},
                                  "phone": {"width": 360, "height": 740}}
# game: (players, seed, options, what is clicked before the picture: a turn under way)
TABLES = {"uno": (3, 4, {"match_target": 0}, ()),
          "domino": (2, 3, {}, ("button.square",) * 3),
          "rummikub": (2, 9, {"turn_times": 0}, ("#actions button[data-choices]",)),
          "elevens": (2, 5, {}, (".card.lifted button",) * 3),
          "elements": (3, 5, {}, ())}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def new_table(url: str, game: str) -> str:
    players, seed, options, _ = TABLES[game]
    data = {"game": game, "players": players, "people": 1, "seed": seed,
            "options": options, "pace": 0}
    request = urllib.request.Request(f"{url}/tables", data=json.dumps(data).encode())
    with urllib.request.urlopen(request, timeout=10) as answer:
        return str(json.loads(answer.read())["code"])


def play_some(page: Page, clicks: tuple[str, ...]) -> None:
    """Click the first control each selector finds (and the first answer of a question it
    asks), as a player would, so the picture shows a table under way."""
    for selector in clicks:
        number = page.evaluate("document.body.dataset.screen")
        page.wait_for_selector(selector, timeout=10_000)
        page.locator(selector).first.click()
        if page.locator("#question").count():
            page.locator("#question button").first.click()
        # Polled from here: the page's script policy refuses the eval wait_for_function uses.
        deadline = time.monotonic() + 10
        while page.evaluate("document.body.dataset.screen") == number:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the page did not move on after {selector}")
            page.wait_for_timeout(20)


def shot_name(game: str, size: str, lang: str) -> str:
    """A picture's file name: the README's English ones keep their names, ``uno-phone.png``;
    another language is named in it, ``uno-phone-de.png``."""
    return f"{game}-{size}.png" if lang == "en" else f"{game}-{size}-{lang}.png"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", nargs="+", default=["en"], choices=LANGUAGES)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "brailledev"), "serve", "--port", str(port),
             "--db", str(Path(folder) / "tables.db")], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env={**os.environ, "LANG": "C"})
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    time.sleep(0.05)
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path="/usr/bin/chromium",
                                                 args=FLAGS)
                for game, lang in itertools.product(TABLES, args.langs):
                    code = new_table(url, game)
                    context = browser.new_context(viewport=SIZES["desktop"], locale=lang)
                    page = context.new_page()
                    page.goto(f"{url}/t/{code}?lang={lang}")
                    page.fill("#name", "Ann")
                    page.locator("#join-form button[type=submit]").click()
                    page.wait_for_selector("#hand .card")
                    play_some(page, TABLES[game][3])
                    page.wait_for_timeout(300)
                    for size, viewport in SIZES.items():
                        page.set_viewport_size(viewport)
                        page.evaluate("window.scrollTo(0, 0)")
                        path = args.out / shot_name(game, size, lang)
                        page.screenshot(path=str(path), full_page=True)
                        print(path)
                    context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
