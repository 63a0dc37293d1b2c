"""The golden playthroughs (tests/playthroughs.py) are current: a change of behaviour shows as
a readable diff of tests/games/<game>/playthroughs/*.txt (regenerate with
``python tests/playthroughs.py`` and read the diff before committing it)."""
from __future__ import annotations

import pytest

import cardcore
import playthroughs


@pytest.mark.parametrize("name", cardcore.available_games())
def test_playthroughs_are_current(name, capsys):
    status = playthroughs.main([name, "--check"])
    assert status == 0, capsys.readouterr().out
