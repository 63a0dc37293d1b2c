"""Nothing outside the games' folders lists the games (issue 34): no dict keyed by two or more
registered game names, no list, tuple or set of two or more of them, in any tracked source
file (tests, benchmarks, examples, clients, the shared package), nor in Python code kept in a
string (a benchmark's subprocess script). What differs per game is declared by the game in
its own package (docs/adding-a-game.md); a test that names one game as an example is fine."""
from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import cardcore

ROOT = Path(__file__).resolve().parents[1]
GAMES = frozenset(cardcore.available_games())
# The games' own folders, where naming the game is the point.
GAME_FOLDERS = ("src/cardcore/games/", "tests/games/", "games/")
SOURCE_SUFFIXES = (".py", ".pyx", ".pxd", ".pxi", ".ts", ".js", ".mjs")
# Tables not yet replaced (each entry: path -> how many tables it still holds). The list may
# only shrink: a new table anywhere else fails, and so does an entry whose tables are gone.
# A generic test reads what it needs per game from tests/games/<game>/cases.py
# (tests/game_cases.py).
KNOWN: dict[str, int] = {}


def _named(node: ast.AST) -> str | None:
    """The game a table entry names: ``"manna"`` or ``("manna", ...)``."""
    if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
        node = node.elts[0]
    if isinstance(node, ast.Constant) and node.value in GAMES:
        return node.value
    return None


def python_tables(source: str) -> list[tuple[int, list[str]]]:
    """(line, games) of each dict/list/tuple/set literal naming two or more games, looking
    into string constants that are Python code too."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            entries: list = list(node.keys)
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            entries = list(node.elts)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value:
            found += [(node.lineno + line - 1, games)
                      for line, games in python_tables(node.value)]
            continue
        else:
            continue
        games = sorted({g for g in map(_named, entries) if g})
        if len(games) >= 2:
            found.append((node.lineno, games))
    return found


def text_tables(source: str) -> list[tuple[int, list[str]]]:
    """(line, games) of each line of a non-Python source naming two or more games in quotes."""
    quoted = re.compile(r"""["'`](%s)["'`]""" % "|".join(map(re.escape, sorted(GAMES))))
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        games = sorted(set(quoted.findall(line)))
        if len(games) >= 2:
            found.append((number, games))
    return found


def tables_in_repository() -> dict[str, list[tuple[int, list[str]]]]:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split("\n")
    tables = {}
    for path in files:
        if not path.endswith(SOURCE_SUFFIXES) or path.startswith(GAME_FOLDERS):
            continue
        full = ROOT / path
        if not full.is_file():
            continue
        source = full.read_text(encoding="utf-8", errors="replace")
        found = python_tables(source) if path.endswith(".py") else text_tables(source)
        if found:
            tables[path] = found
    return tables


def test_the_detector_finds_a_table_and_passes_an_example():
    one, two = sorted(GAMES)[:2]
    assert python_tables(f"X = {{{one!r}: 1, {two!r}: 2}}") == [(1, sorted([one, two]))]
    assert python_tables(f"for g in ({one!r}, {two!r}): pass") == [(1, sorted([one, two]))]
    assert python_tables(f"W = '''\nimport x\nY = [({one!r}, 1), ({two!r}, 2)]\n'''")
    assert python_tables(f"new_game({one!r}); new_game({two!r})") == []
    assert text_tables(f'const t = {{ "{one}": 1, "{two}": 2 }};') == [(1, sorted([one, two]))]
    assert text_tables(f'createTable({{ game: "{one}" }});') == []


def test_no_per_game_table_outside_the_games_folders():
    tables = tables_in_repository()
    new = {path: found for path, found in tables.items() if path not in KNOWN}
    assert not new, ("per-game tables outside the games' folders (declare it in the game's "
                     f"package, or derive it from the registry): {new}")
    grown = {path: found for path, found in tables.items()
             if path in KNOWN and len(found) > KNOWN[path]}
    assert not grown, f"more per-game tables than known: {grown}"
    stale = {path: n for path, n in KNOWN.items() if len(tables.get(path, [])) < n}
    assert not stale, f"tables gone: lower KNOWN in this test to {stale}"
