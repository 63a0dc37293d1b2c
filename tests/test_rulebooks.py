"""Every rule ID of every rulebook (games/<game>.md) has a test named after it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardcore
from cardcore.contract import MIN_RULE_IDS
from cardcore.registry import game_class

TESTS = Path(__file__).resolve().parent


def rule_ids(name: str) -> list[str]:
    cls = game_class(name)
    return sorted(set(re.findall(rf"\b{cls.rule_prefix}-\d+(?:\.\d+)?\b", cls.rulebook_text())))


def all_test_names() -> set[str]:
    names: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        names.update(re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8")))
    return names


@pytest.mark.parametrize("game", cardcore.available_games())
def test_every_rule_id_has_a_named_test(game):
    ids = rule_ids(game)
    assert len(ids) >= MIN_RULE_IDS
    names = all_test_names()
    missing = [rid for rid in ids
               if not any(re.search(rf"_{rid.lower().replace('-', '_').replace('.', '_')}(_|$)", n)
                          for n in names)]
    assert missing == []


def test_rule_prefixes_are_distinct():
    prefixes = [game_class(name).rule_prefix for name in cardcore.available_games()]
    assert len(set(prefixes)) == len(prefixes)
    assert all(re.fullmatch(r"[A-Z]{2}", p) for p in prefixes)
