"""The docs' screenshots: one command makes them (docs/screenshots.py: a live `cardcore serve`,
Chromium), and each game's how-to page in the docs shows those of its language
(docs/hooks.py, which reads ``table_pictures``)."""
from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))
import screenshots  # noqa: E402
sys.path.remove(str(ROOT / "docs"))


def jpeg_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a JPEG's start-of-frame segment."""
    assert data[:2] == b"\xff\xd8", "not a JPEG"
    at = 2
    while at < len(data):
        marker, length = data[at + 1], struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        at += 2 + length
    raise AssertionError("no frame in the JPEG")


@pytest.mark.slow                       # a server and a browser
def test_one_command_makes_a_games_screenshots_at_the_size_asked(tmp_path):
    game = cardcore.available_games()[0]
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "screenshots.py"), "--games", game,
                           "--sizes", "phone", "--langs", "ru", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    path = tmp_path / screenshots.screenshot_name(game, "phone", "ru")
    assert f"wrote {path}" in done.stdout
    size = screenshots.SIZES["phone"]
    assert jpeg_size(path.read_bytes()) == (size["width"], size["height"])
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_the_docs_show_every_screenshot_made_on_its_games_how_to_page():
    """Every game at both sizes in both languages (issue 35), each on its how-to page."""
    made = sorted(p.name for p in screenshots.OUT.glob("*.jpg"))
    assert made, "python docs/screenshots.py: the docs have no screenshots"
    assert made == sorted(screenshots.screenshot_name(game, size, lang)
                          for game in cardcore.available_games()
                          for size in screenshots.SIZES for lang in screenshots.LANGS)
    shown = []
    for name in cardcore.available_games():
        cls = cardcore.registry.game_class(name)
        for lang in screenshots.LANGS:
            section = screenshots.table_pictures(cls, lang)
            shown += [p.split("/")[-1] for p in section.split("](../assets/screenshots/")[1:]]
            shown = [s.split(")")[0] for s in shown]
            if section:
                assert screenshots.TABLE_WORDS[lang][0] in section
    assert sorted(shown) == made
