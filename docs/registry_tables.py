"""Tables of the docs written from the registry at build time (docs/hooks.py replaces each
marker line with one), so that no page keeps a list of the games by hand. No MkDocs import:
tests/test_docs.py checks them in the test venv."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def registered_games() -> list[type]:
    from cardcore.registry import game_classes
    return list(game_classes())


GAMES_TABLE = "<!-- games: the README's table of games"
ZONES_TABLE = "<!-- zones: each game's zones"
README_GAME_ROW = re.compile(r"^\| `([a-z_][a-z0-9_]*)` — (.*)$")


def games_table() -> str:
    """The README's table of games (its one hand-kept list of them), each game linked to its
    rulebook page; a registered game missing from it fails the build."""
    rows = {m.group(1): m.group(2) for line in
            (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
            if (m := README_GAME_ROW.match(line))}
    missing = [cls.name for cls in registered_games() if cls.name not in rows]
    if missing:
        raise ValueError(f"README.md's table of games lacks {missing}")
    return "\n".join(["| game | players | what it is |", "|---|---|---|"]
                     + [f"| [`{cls.name}`](rules/{cls.name}.md) — {rows[cls.name]}"
                        for cls in registered_games()])


def zone_patterns(cls: type) -> list[str]:
    """A game's zone ids as patterns (``hand:S`` per seat, ``red_threes:T`` per team,
    ``stock:I`` numbered), from the zones of a new game, then the piles made in play."""
    import cardcore
    patterns: list[str] = []
    for zone in cardcore.new_game(cls.name, seed=0).zones:
        kind = zone["kind"]
        if ":" not in zone["id"]:
            pattern = zone["id"]
        elif zone["owner"] is not None:
            pattern = f"{kind}:S"
        elif zone["team"] is not None:
            pattern = f"{kind}:T"
        else:
            pattern = f"{kind}:I"
        if pattern not in patterns:
            patterns.append(pattern)
    return patterns


def zones_table() -> str:
    """Every game's zones (docs/api.md), from the registry."""
    rows = ["| game | zones |", "|---|---|"]
    for cls in registered_games():
        made = [f"and in play `{kind}:T:N`" for kind in dict.fromkeys(cls.split_zones.values())]
        rows.append(f"| {cls.name} | " + ", ".join(
            [f"`{p}`" for p in zone_patterns(cls)] + made) + " |")
    return "\n".join(rows)
