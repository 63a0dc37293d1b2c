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


# The pages a reader of the current version reads (the changelogs and CONTRIBUTING's timings
# are history: "0.3 with four games" was so).
DOC_PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")
                                  if p.name not in ("changelog.md", "whats-new.md",
                                                    "contributing.md"))]


def test_docs_do_not_count_the_games_and_speak_of_installs_that_work():
    """A count of the games goes stale with the next game ("three games" outlived 0.3's
    fourth, "all four" 0.4's Durak): the docs say "every game". Read as a reader does, across
    line breaks and at the start of a sentence ("All four\ngames" in docs/rl.md)."""
    for page in DOC_PAGES:
        raw = (ROOT / page).read_text(encoding="utf-8")
        text = " ".join(raw.split()).lower()
        for count in ("three", "four", "five"):
            assert f"{count} games" not in text and f"all {count}" not in raw, (page, count)
            assert f"the {count} rulebooks" not in text, (page, count)
        assert 'pip install "cardcore[' not in raw, page          # not on the index


def test_the_docs_tables_of_games_and_zones_come_from_the_registry():
    """docs/index.md's table of games (the README's rows) and docs/api.md's zones are written
    by docs/hooks.py at build time (docs/registry_tables.py): every registered game is in
    both, none by hand."""
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import registry_tables as tables
    finally:
        sys.path.remove(str(ROOT / "docs"))
    games, zones = tables.games_table(), tables.zones_table()
    for name in cardcore.available_games():
        assert f"[`{name}`](rules/{name}.md)" in games and f"| {name} | `hand:S`" in zones
    assert "`red_threes:T`" in zones and "`stock:I`" in zones and "`meld:T:N`" in zones
    for page, marker in (("index.md", tables.GAMES_TABLE), ("api.md", tables.ZONES_TABLE)):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        assert marker in text and "| game |" not in text.split(marker)[1][:400], page
