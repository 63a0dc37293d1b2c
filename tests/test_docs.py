"""docs/api.md: the reference section is current and names every public name."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cardcore
from cardcore.game import Game

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api.md"


def test_reference_is_current():
    out = subprocess.run([sys.executable, str(ROOT / "docs" / "reference.py"), "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_every_public_name_is_documented():
    text = API.read_text(encoding="utf-8")
    for name in cardcore.__all__:
        assert f"cardcore.{name}" in text, name
    public = [n for n in dir(Game) if not n.startswith("_")]
    for name in public:
        assert f"`cardcore.Game.{name}`" in text or f"game.{name}" in text, name
        member = getattr(Game, name)
        if callable(member) or isinstance(getattr(type(Game), name, None), property):
            doc = getattr(member, "__doc__", None)
            assert doc and doc.strip(), f"Game.{name} has no docstring"


def test_the_readme_links_the_api_reference():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/api.md" in readme and "from cardcore.bots import" in readme
