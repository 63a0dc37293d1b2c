"""``cardcore new-game``: the scaffold writes a game that passes the contract and the generic
suite as written (issue 34, docs/adding-a-game.md "Start from the scaffold").

The slow test copies the source tree into a temporary folder, generates a game there with the
public command, compiles its kernel alone and runs, in a fresh interpreter (the registry
discovers the game as it discovers every game), the game's own tests and every case of the
suite parametrized over the games (contract, rule IDs named by tests, zones and moves, random
playouts with invariants, JSON round trips and schemas, texts and catalogs in English and
Russian, bot levels, vector opponents, server, adapters), then the checks across all games.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore

from cardcore.cli import main
from cardcore.errors import ConfigError
from cardcore.scaffold import new_game, plan, Scaffold

ROOT = Path(__file__).resolve().parents[1]
NAME, TITLE, PREFIX = "sample_game", "Sample Game", "SG"

# The whole suite runs on the generated game, selected by -k NAME (its own tests and every case
# the generic tests parametrize over the games), but for the suites that need a browser or a
# PostgreSQL cluster (CI runs those for the real games).
LEFT_OUT = ["--ignore-glob=tests/test_*browser*.py", "--ignore-glob=tests/test_server_pg*.py",
            "--ignore=tests/test_scaffold.py"]


def test_the_scaffold_plans_the_three_places_with_every_name_put_in(tmp_path):
    files = plan(Scaffold(NAME, TITLE, PREFIX, "Игра Sample Game"), tmp_path)
    rel = {p.relative_to(tmp_path).as_posix() for p in files}
    assert f"games/{NAME}.md" in rel
    for piece in ("__init__.py", "_state.pyx", "_state.pyi", "words.py", "howto.en.md",
                  "howto.ru.md", "levels.md", "locale/ru/LC_MESSAGES/messages.po",
                  "web/board.js"):
        assert f"src/cardcore/games/{NAME}/{piece}" in rel, piece
    assert f"tests/games/{NAME}/test_{NAME}_rules.py" in rel
    assert f"tests/games/{NAME}/sg_helpers.py" in rel
    assert f"tests/games/{NAME}/cases.py" in rel          # its scenarios for the generic tests
    for path, text in files.items():
        assert "{{" not in text and "games.crazy_eights" not in text, path
        assert not re.search(r"\bCE-\d", text), path
    book = files[tmp_path / "games" / f"{NAME}.md"]
    assert len(set(re.findall(r"\bSG-\d+(?:\.\d+)?\b", book))) >= 21


@pytest.mark.parametrize("args, bad", [
    (["Bad"], "NAME"), (["1game"], "NAME"), (["class"], "NAME"),
    ([NAME, "--prefix", "sg"], "--prefix"), ([NAME, "--prefix", "SGX"], "--prefix"),
    ([NAME, "--title", 'a "b"'], "--title"),
    ([NAME, "--title", "Same", "--title-ru", "Same"], "--title-ru"),
])
def test_new_game_refuses_bad_names_and_writes_nothing(tmp_path, args, bad, capsys):
    assert main(["new-game", *args, "--dest", str(tmp_path)]) == 2
    assert bad in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_new_game_refuses_a_place_that_exists(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / f"{NAME}.md").write_text("mine", encoding="utf-8")
    with pytest.raises(ConfigError, match="already exists"):
        new_game(NAME, dest=tmp_path)
    assert (tmp_path / "games" / f"{NAME}.md").read_text(encoding="utf-8") == "mine"
    assert not (tmp_path / "src").exists()


def _copy_tree(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.c", "build", ".pytest_cache")
    for part in ("src", "tests", "games", "docs"):
        shutil.copytree(ROOT / part, dest / part, ignore=ignore)
    for part in ("setup.py", "pyproject.toml"):
        shutil.copy2(ROOT / part, dest / part)
    # The compiled modules and catalogs of the cardcore this run imports (an installed wheel in
    # CI, whose checkout has none; this tree's own in place), so that only the new game's
    # kernel needs building.
    built = Path(cardcore.__file__).resolve().parent
    for path in [*built.rglob("*.so"), *built.rglob("*.pyd"), *built.rglob("*.mo")]:
        target = dest / "src" / "cardcore" / path.relative_to(built)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


@pytest.mark.slow
def test_the_generated_game_passes_the_generic_suite_untouched(tmp_path):
    tree = tmp_path / "tree"
    _copy_tree(tree)
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}

    def run(*cmd: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, cwd=tree, env={**env, **extra}, capture_output=True,
                              text=True, timeout=1800)

    made = run(sys.executable, "-m", "cardcore", "new-game", NAME, "--title", TITLE,
               "--prefix", PREFIX)
    assert made.returncode == 0, made.stderr
    built = run(sys.executable, "setup.py", "-q", "build_ext", "--inplace",
                CARDCORE_ONLY=f"cardcore.games.{NAME}._state")
    assert built.returncode == 0, built.stderr[-3000:]
    # The golden playthroughs are recorded, not shipped (they are the game's own output).
    recorded = run(sys.executable, "tests/playthroughs.py", NAME)
    assert recorded.returncode == 0 and "wrote" in recorded.stdout, recorded.stderr[-3000:]
    listed = run(sys.executable, "-m", "cardcore", "games")
    assert listed.returncode == 0 and NAME in listed.stdout, listed.stderr
    suite = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", NAME,
                *LEFT_OUT, "tests")
    tail = suite.stdout[-4000:]
    assert suite.returncode == 0, tail
    passed = int(re.search(r"(\d+) passed", tail).group(1))
    assert passed >= 600, tail          # the game's own tests and the generic cases ran
    # The checks across all games (distinct prefixes, the recipe names every requirement).
    whole = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                "tests/test_contract.py", "tests/test_rulebooks.py")
    assert whole.returncode == 0, whole.stdout[-4000:]
