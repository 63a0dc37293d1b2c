"""The web table's screenshots in the docs: every game at a phone's and a laptop's size, in
English and Russian, at the player's first turn against bots.

    python docs/screenshots.py                       # every game into docs/assets/screenshots
    python docs/screenshots.py --games manna --out /tmp/shots

It starts a `cardcore serve` of this checkout (bots move at once) and drives Chromium through
Playwright (``pip install playwright``; Debian's ``/usr/bin/chromium`` by default, else
``--chromium PATH``). Each picture is ``<game>-<size>-<lang>.jpg``; the docs' how-to page of
a game shows the ones of its language that exist (docs/hooks.py), so a new game's pages need
nothing but this command run again.
"""
from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "assets" / "screenshots"
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
LANGS = {"en": "en-US", "ru": "ru-RU"}
SEED = 1                      # the same deal every time the command runs
QUALITY = 75                  # JPEG: a fifth of a PNG's bytes for a table of card pictures


def screenshot_name(game: str, size: str, lang: str) -> str:
    return f"{game}-{size}-{lang}.jpg"


TABLE_WORDS = {"en": ("The table in a browser", "on a phone", "on a laptop"),
               "ru": ("Стол в браузере", "на телефоне", "на ноутбуке")}


def table_pictures(cls: type, lang: str) -> str:
    """The game's screenshots in ``lang`` (phone, laptop) that this command made, as a
    section of its how-to page; nothing for a game without them yet."""
    heading, *captions = TABLE_WORDS[lang]
    shown = [f"![{cls.title}, {caption}](../assets/screenshots/{name}){{ width=\"{width}\" }}"
             for caption, size, width in zip(captions, ("phone", "laptop"), ("30%", "68%"))
             if (OUT / (name := f"{cls.name}-{size}-{lang}.jpg")).exists()]
    return f"\n## {heading}\n\n" + "\n".join(shown) + "\n" if shown else ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    import cardcore                    # the server runs the cardcore this command imported
    where = str(Path(cardcore.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": where + os.pathsep + os.environ.get("PYTHONPATH", "")}
    server = subprocess.Popen(
        [sys.executable, "-m", "cardcore", "serve", "--port", str(port), "--db", str(db),
         "--bot-delay", "0", "--create-rate", "100", "--create-burst", "200",
         "--max-tables-per-client", "1000", "--log-level", "warning"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        if server.poll() is not None:
            raise SystemExit("cardcore serve exited at its start")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1):
                return server, base
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("cardcore serve did not start in 30 s")


def _first_turn(page: Any, base: str, game: str) -> None:
    """A table of ``game`` from the lobby (bots at the other seats, seed SEED), at the first
    moment the player is to move with nothing pending (a round panel closed on the way)."""
    page.goto(base + "/")
    page.select_option("#game", game)
    if not page.is_visible("#seed"):
        page.click("details summary")
    page.fill("#seed", str(SEED))
    page.click("#create")
    page.wait_for_url("**/tables/*#token=*")
    ready = ("() => document.body.dataset.over === 'true' || document.body.dataset.panel || "
             "(document.body.dataset.myTurn === 'true' && document.body.dataset.pending === 'false')")
    page.wait_for_function(ready)
    if page.evaluate("document.body.dataset.panel") == "round":
        page.click("#continue")
        page.wait_for_function(ready)
    page.wait_for_load_state("networkidle")        # the card pictures drawn


def take(games: list[str], out: Path, chromium: str, sizes: list[str], langs: list[str]) -> list[Path]:
    """The screenshots of ``games`` into ``out``; the paths written."""
    from playwright.sync_api import sync_playwright
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        server, base = _serve(Path(tmp) / "tables.sqlite3")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium,
                                            args=["--headless", "--no-sandbox", "--disable-gpu"])
                for game in games:
                    for size in sizes:
                        for lang in langs:
                            context = browser.new_context(viewport=SIZES[size], locale=LANGS[lang])
                            page = context.new_page()
                            page.set_default_timeout(30_000)
                            _first_turn(page, base, game)
                            path = out / screenshot_name(game, size, lang)
                            page.screenshot(path=str(path), type="jpeg", quality=QUALITY)
                            written.append(path)
                            context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    return written


def main(argv: list[str] | None = None) -> int:
    try:                               # the installed cardcore, else this checkout's build
        import cardcore
    except ImportError:
        sys.path.insert(0, str(ROOT / "src"))
        import cardcore
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(cardcore.available_games()))
    parser.add_argument("--sizes", nargs="+", default=list(SIZES), choices=list(SIZES))
    parser.add_argument("--langs", nargs="+", default=list(LANGS), choices=list(LANGS))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    for path in take(args.games, args.out, args.chromium, args.sizes, args.langs):
        print("wrote", path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
