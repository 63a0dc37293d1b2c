"""The layout (CONTRIBUTING.md, "Adding a game"): one package per game, shared code that asks
the game instead of naming it, and no import circle among cardcore's modules."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import cardcore
from cardcore import registry
from cardcore.registry import game_class, game_classes

# The source tree, not the installed package: CI also runs the suite against a wheel, which
# holds no .pyx sources.
REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "cardcore"
GAMES = PACKAGE / "games"
SHARED_SUFFIXES = {".py", ".pyx", ".pxd", ".pyi", ".js", ".html", ".css", ".c", ".h"}


def shared_files() -> list[Path]:
    """Every source file of the package outside the game packages."""
    return sorted(p for p in PACKAGE.rglob("*")
                  if p.suffix in SHARED_SUFFIXES and p.is_file()
                  and not (p.suffix == ".c" and p.name.startswith("_"))   # Cython's output
                  and not (p.parent != GAMES and GAMES in p.parents))


def words_of(cls: type) -> list[str]:
    """What would name a game: its name, title, class name, rule IDs and module paths."""
    words = [cls.name, cls.title, cls.__name__, rf"{cls.rule_prefix}-\d"]
    words.append(cls.name.replace("_", " ").title())
    return words


def test_shared_modules_name_no_game():
    named = []
    for path in shared_files():
        text = path.read_text(encoding="utf-8")
        for cls in game_classes():
            for word in words_of(cls):
                pattern = word if word.endswith(r"\d") else re.escape(word)
                for match in re.finditer(rf"(?<![A-Za-z0-9_]){pattern}(?![A-Za-z0-9_])", text):
                    line = text.count("\n", 0, match.start()) + 1
                    named.append(f"{path.relative_to(PACKAGE)}:{line} {match.group(0)!r}")
    assert named == []


def test_every_game_is_a_package_with_its_parts():
    packages = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file())
    assert packages == list(cardcore.available_games())
    for cls in game_classes():
        home = GAMES / cls.name
        assert cls.__module__ == f"cardcore.games.{cls.name}"
        for part in ("kernel.c", "kernel.h", "_state.pyx", "_state.pyi", "events.py",
                     "greedy.py", "schema.py", "words.py", "web/board.js"):
            assert (home / part).is_file(), (cls.name, part)
        for kind in cardcore.schemas.KINDS:            # record.json too
            assert (home / "schemas" / f"{kind}.json").is_file(), (cls.name, kind)
        assert (REPO / "games" / cls.rulebook).is_file() or not (REPO / "games").is_dir()
        assert (REPO / "tests" / "games" / cls.name).is_dir() or not (REPO / "tests").is_dir()
        assert cls.narrator.kinds and cls.round_end_event in cls.narrator.kinds


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


PYX_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\b(?!.*\bcimport\b)|import\s+([\w.]+))",
                        re.MULTILINE)


def import_graph() -> dict[str, set[str]]:
    """Every import of every module (at the top, inside functions and under TYPE_CHECKING
    alike: a circle held together by a late import is still a circle)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules.update({_module_name(p): p for p in PACKAGE.rglob("*.pyx")})
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        targets: list[str] = []
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".pyx":
            targets = [a or b for a, b in PYX_IMPORT.findall(text)]
        else:
            package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Import):
                    targets += [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    if node.level:
                        up = package.split(".")[: len(package.split(".")) - node.level + 1]
                        base = ".".join(up + ([base] if base else []))
                    targets += [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                                for a in node.names]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def test_no_import_circle():
    graph = import_graph()
    assert "cardcore.registry" in graph and graph["cardcore.game"]
    state: dict[str, int] = {}
    circles = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert circles == []


def test_the_protocol_imports_nothing_above_it():
    graph = import_graph()
    above = {"cardcore.registry", "cardcore.schemas", "cardcore.bots", "cardcore.simulation",
             "cardcore.vector", "cardcore.cli", "cardcore.server", "cardcore", "cardcore.games"}
    seen, todo = set(), ["cardcore.game"]
    while todo:
        node = todo.pop()
        for nxt in graph[node]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert not seen & above


def test_every_event_kind_has_words_in_the_terminal_and_on_the_web():
    """Every automatic event kind has the terminal's words, which are also each event's
    ``text`` on the wire; the web table says those texts and has no narration of its own (no
    shared SENTENCES, no per-game words module)."""
    from cardcore.narrate import COMMON
    assert "const SENTENCES" not in (PACKAGE / "server" / "static" / "words.js").read_text()
    for cls in game_classes():
        assert not (GAMES / cls.name / "web" / "words.js").exists(), cls.name
        automatic = set(cls.narrator.kinds) - {"deal", "dealt", "match_end", cls.round_end_event}
        assert automatic <= set(cls.phrases) | set(COMMON), (cls.name, "terminal")


@pytest.fixture
def copied_game(monkeypatch):
    """A copy of the first game under a new name, registered as a game of its own would be."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    base = game_classes()[0]
    copy = type("CopiedGame", (base,), {"name": "copied_game", "title": "Copied Game",
                                        "__module__": __name__})
    registry.register(copy)
    return copy


def test_a_copied_game_works_everywhere_without_naming_it(copied_game):
    """What shared code needs, it asks the game: a copy registered under a new name plays,
    narrates, validates, is searched and simulated like the original."""
    from cardcore import schemas, simulate
    from cardcore.bots import make_bot
    from cardcore.narrate import breakdown_lines, describe
    game = cardcore.new_game("copied_game", seed=3)
    bot = make_bot("greedy", 1)
    while not game.is_over:
        game.apply(bot.choose(game))
    for event in game.events(0):
        if event["kind"] == game.round_end_event:
            lines = breakdown_lines(event, str, game)      # a heading, then the rows
            assert lines[0][:1].isupper() and len(lines) > len(event["breakdown"]["components"])
        else:
            describe(event, 0, str, game)
    for kind in schemas.KINDS:
        assert schemas.build("copied_game", kind)["title"] == f"cardcore copied_game {kind}"
    assert simulate("copied_game", 4, bots=("random",))["games"] == 4
    assert game_class("copied_game") is copied_game
    with pytest.raises(cardcore.ConfigError, match="already registered"):
        registry.register(type("Other", (copied_game,), {"__module__": __name__}))


def test_the_0_2_module_names_still_import_with_a_warning():
    for cls in game_classes():
        with pytest.warns(DeprecationWarning, match=f"cardcore.games.{cls.name}.events"):
            old = __import__(f"cardcore.games.{cls.name}_events", fromlist=["x"])
        assert getattr(old, cls.narrator.__name__) is cls.narrator
        with pytest.warns(DeprecationWarning, match=f"cardcore.games.{cls.name}.greedy"):
            old = __import__(f"cardcore.bots.greedy_{cls.name}", fromlist=["x"])
        assert old.choose is cls.greedy
    with pytest.raises(ModuleNotFoundError):
        __import__("cardcore.bots.greedy_no_such_game")


# The server's size limits (issue 46): a module a reader can hold, a function a screen shows.
SERVER = PACKAGE / "server"
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 80


def server_sizes() -> dict[str, int]:
    """Every server module's lines ("path") and every function's ("path:name"), by ast."""
    sizes = {}
    for path in sorted(SERVER.rglob("*.py")):
        name = path.relative_to(SERVER).as_posix()
        text = path.read_text(encoding="utf-8")
        sizes[name] = len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                key = f"{name}:{node.name}"
                sizes[key] = max(sizes.get(key, 0), node.end_lineno - node.lineno + 1)
    return sizes


def test_server_modules_and_functions_stay_small():
    sizes = server_sizes()
    assert "tables.py" in sizes and "room.py" in sizes
    over = {key for key, lines in sizes.items()
            if lines > (MAX_FUNCTION_LINES if ":" in key else MAX_MODULE_LINES)}
    assert over == set(), {k: sizes[k] for k in over}


def test_the_server_seams_are_typed():
    """No reference typed Any stands for the server or a table where clocks, leases and
    metrics call back into them: each names the Protocol it needs."""
    for module in ("clocks.py", "leases.py", "metrics.py", "room.py", "deployment.py"):
        text = (SERVER / module).read_text(encoding="utf-8")
        assert not re.search(r"^(TableServer|Table|Server)\s*=\s*Any\b", text, re.MULTILINE), \
            module
        assert not re.search(r"\b(server|table|host|room): Any\b", text), module
