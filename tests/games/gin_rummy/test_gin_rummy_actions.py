"""Gin Rummy' action ids by name (the kernel's constants, re-exported by the package)."""
from __future__ import annotations

from cardcore import new_game
from cardcore.cards import card_id
from cardcore.games import gin_rummy as ce
from cardcore.games.gin_rummy import _state

from gr_helpers import os_id


def test_the_named_action_ids_are_the_tables():
    specs = new_game("gin_rummy", seed=0)._specs
    assert (ce.PLAY_FIRST, ce.DRAW, ce.PASS, ce.NOMINATE_FIRST) == (0, 52, 53, 54)
    assert specs[ce.DRAW].label == "draw" and specs[ce.PASS].label == "pass"
    assert [specs[ce.NOMINATE_FIRST + s].label for s in range(4)] == [
        f"nominate {suit}" for suit in _state.SUIT_LETTERS] == [
        "nominate C", "nominate D", "nominate H", "nominate S"]
    assert specs[ce.PLAY_FIRST].label == "play 2C"                  # OpenSpiel's card 0
    assert all(specs[ce.PLAY_FIRST + os_id(c)].label == f"play {c}" for c in ("AS", "10H", "8D"))
    assert ce.DRAW is _state.DRAW and ce.NOMINATE_FIRST is _state.NOMINATE_FIRST
    assert {"PLAY_FIRST", "DRAW", "PASS", "NOMINATE_FIRST"} <= set(ce.__all__)


def test_the_named_ranks_are_the_rules():
    from cardcore._fast import rank_of
    assert _state.WILD_RANK == rank_of(card_id("8C"))
    assert _state.SPECIAL_RANKS == {"skip": rank_of(card_id("QC")),
                                    "reverse": rank_of(card_id("AC")),
                                    "draw_two": rank_of(card_id("2C"))}
