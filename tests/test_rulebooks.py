"""Every rule ID of every rulebook (games/<game>.md) has a test named after it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardcore

REPO = Path(__file__).resolve().parent.parent
PREFIX = {"kings_stakes": "KS", "kuzanasta": "KZ", "manna": "MH"}


def rule_ids(game: str) -> list[str]:
    text = (REPO / "games" / f"{game}.md").read_text(encoding="utf-8")
    return sorted(set(re.findall(rf"\b{PREFIX[game]}-\d+(?:\.\d+)?\b", text)))


def all_test_names() -> set[str]:
    names: set[str] = set()
    for path in (REPO / "tests").glob("test_*.py"):
        names.update(re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8")))
    return names


@pytest.mark.parametrize("game", cardcore.available_games())
def test_every_rule_id_has_a_named_test(game):
    if not (REPO / "games" / f"{game}.md").exists():
        pytest.skip("the rulebooks are not beside these tests")
    ids = rule_ids(game)
    assert len(ids) > 20
    names = all_test_names()
    missing = [rid for rid in ids
               if not any(re.search(rf"_{rid.lower().replace('-', '_').replace('.', '_')}(_|$)", n)
                          for n in names)]
    assert missing == []
