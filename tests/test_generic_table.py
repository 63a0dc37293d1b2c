"""examples/generic_table/ has no per-game code (issue 31, item 8): its source names no
registered game (its name or title), none of any game's action or event kinds, and no rule ID
prefix. What it shows of a game comes from the server: zones and their descriptors, moves,
texts, breakdown rows, option schemas.

The lists come from the registry and each game's JSON Schemas, so a new game or a new kind is
checked without touching this test. Words are matched whole (``\\b``; ``_`` is a word
character, so ``end_turn`` is one word) and case-insensitively: a comment saying "Play" names
the kind ``play`` as much as a string does."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cardcore import schemas
from cardcore.registry import available_games, game_class

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "generic_table"
SKIP_DIRS = {"node_modules", "dist"}
SKIP_FILES = {"package-lock.json"}            # npm's, not ours: package names and hashes


def source_files() -> list[Path]:
    return sorted(p for p in EXAMPLE.rglob("*") if p.is_file()
                  and not SKIP_DIRS & set(p.relative_to(EXAMPLE).parts)
                  and p.name not in SKIP_FILES)


def kinds_in(schema: Any) -> set[str]:
    """Every value a ``kind`` property may take anywhere in a JSON Schema (an enum, or the
    const of each member of a union discriminated by kind)."""
    found: set[str] = set()
    if isinstance(schema, dict):
        kind = schema.get("properties", {}).get("kind")
        if isinstance(kind, dict):
            found.update(v for v in kind.get("enum", []) if isinstance(v, str))
            if isinstance(kind.get("const"), str):
                found.add(kind["const"])
        for value in schema.values():
            found |= kinds_in(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= kinds_in(value)
    return found


def forbidden() -> dict[str, re.Pattern[str]]:
    """What may not appear, each with the pattern that finds it."""
    words: dict[str, re.Pattern[str]] = {}

    def word(text: str, flags: int = re.IGNORECASE) -> None:
        words.setdefault(text, re.compile(rf"(?<![\w]){re.escape(text)}(?![\w])", flags))

    for name in available_games():
        cls = game_class(name)
        word(name)
        word(name.replace("_", " "))
        word(name.replace("_", "-"))
        word(cls.title)
        # A rule ID is PREFIX-n (KS-4.3); the prefix alone, in capitals, is a word too.
        words.setdefault(cls.rule_prefix + "-",
                         re.compile(rf"(?<![\w]){re.escape(cls.rule_prefix)}(?![a-z0-9_])"))
        for part in ("action", "event"):
            for kind in kinds_in(schemas.schema(name, part)):
                word(kind)
    return words


def hits(text: str, patterns: dict[str, re.Pattern[str]]) -> list[str]:
    out = []
    for what, pattern in patterns.items():
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append(f"{what!r} at line {line}")
    return out


def test_the_lists_are_not_empty():
    """The check checks something: every game brings kinds, and a planted name is found."""
    patterns = forbidden()
    for name in available_games():
        assert name in patterns
        assert kinds_in(schemas.schema(name, "action")), name
        assert kinds_in(schemas.schema(name, "event")), name
    planted = f'if (a.kind === "{sorted(kinds_in(schemas.schema(available_games()[0], "action")))[0]}")'
    assert hits(planted, patterns)
    assert hits(f"see {game_class(available_games()[-1]).rule_prefix}-4.2", patterns)
    assert hits(game_class(available_games()[0]).title.upper(), patterns)
    assert not hits("layout, without, display, endTurn, player, dealer, playing", patterns)


def test_the_example_has_its_sources():
    names = {p.relative_to(EXAMPLE).as_posix() for p in source_files()}
    assert {"package.json", "tsconfig.json", "index.html", "style.css", "src/main.ts",
            "src/table.ts", "src/zones.ts", "src/lobby.ts", "src/words.ts"} <= names
    assert (EXAMPLE / "package-lock.json").is_file()      # npm ci works from it


@pytest.mark.parametrize("path", source_files(), ids=lambda p: p.relative_to(EXAMPLE).as_posix())
def test_no_game_name_kind_or_rule_in_the_example(path):
    found = hits(path.read_text(encoding="utf-8"), forbidden())
    assert not found, f"{path.relative_to(EXAMPLE)} names a game's own things: {', '.join(found)}"
