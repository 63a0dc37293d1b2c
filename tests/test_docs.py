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


def test_the_readmes_first_two_code_blocks_run_as_they_stand():
    """Issue 35: a reader pastes the README's examples; each runs without the text around it
    (the second one after the first, as they are read)."""
    import re
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    scope: dict = {}
    for block in blocks[:2]:
        exec(compile(block, "README.md", "exec"), scope)
    fresh: dict = {}
    exec(compile(blocks[1].replace("game = cardcore", "import cardcore\ngame = cardcore", 1),
                 "README.md", "exec"), fresh)                    # the second one on its own


def test_docs_speak_of_four_games_and_installs_that_work():
    for page in ("README.md", "docs/embedding.md", "docs/server.md", "docs/rl.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        assert "three games" not in text and "all three" not in text, page
        assert 'pip install "cardcore[' not in text, page          # not on the index
