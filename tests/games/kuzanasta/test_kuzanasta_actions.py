"""Kuzanasta's fixed action space (the layout documented at the top of kuzanasta/_state.pyx)."""
from __future__ import annotations

import pytest

from cardcore import IllegalActionError
from cardcore.games.kuzanasta._sets import kz_descriptor_id
from cardcore.registry import new_game
from cardcore.games.kuzanasta._state import action_table, named_declaration_id, num_actions

GOLDEN = {
    0: "draw_stock", 1: "draw_discard", 2: "god_look", 3: "god_draw AC", 54: "god_draw KH",
    55: "discard AC", 106: "discard KH", 107: "discard JK", 108: "god_discard AC",
    159: "god_discard KH", 160: "end_turn", 161: "go_out", 162: "go_out A-A-A A-A-A",
    163: "go_out A-A-A A-A-W", 168: "go_out A-A-A A-W-W-W", 1000: "go_out 3-3-3 9-9-W",
    2969: "go_out K-W-W K-W-W-W",
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_action_layout_is_pinned(players):
    g = new_game("kuzanasta", players=players, seed=1)
    assert g.num_distinct_actions == num_actions() == 2970
    for i, label in GOLDEN.items():
        assert g.action_from_id(i).label == label
    kinds = [g.action_from_id(i).kind for i in range(2970)]
    assert kinds[3:55] == ["god_draw"] * 52 and kinds[55:108] == ["discard"] * 53
    assert kinds[108:160] == ["god_discard"] * 52 and kinds[161:] == ["go_out"] * 2809
    labels = [g.action_from_id(i).label for i in range(2970)]
    assert len(set(labels)) == 2970


def test_named_declarations_cover_every_pair_but_two_four_card_sets():
    table = action_table()
    pairs = [entry[2] for entry in table[162:]]
    assert pairs == sorted(pairs)
    assert len(pairs) == 39 * 40 // 2 + 39 * 52 == 2808
    three = kz_descriptor_id(6, 3, 0)
    four = kz_descriptor_id(11, 4, 2)
    assert named_declaration_id(three, four) == named_declaration_id(four, three)
    with pytest.raises(ValueError):
        named_declaration_id(four, kz_descriptor_id(2, 4, 0))
    assert table[named_declaration_id(three, four)][2] == (three, four)


def test_action_cards_and_info():
    g = new_game("kuzanasta", players=2, seed=1)
    assert g.action_from_id(3 + 13).cards == ("AS",)
    assert g.action_from_id(107).cards == ("JK",)
    assert g.action_from_id(161).info == {"best": True}
    a = g.action_from_id(1000)
    assert a.info["sets"] == ["3-3-3", "9-9-W"] and a.cards == ()


def test_out_of_range_ids_are_refused():
    g = new_game("kuzanasta", players=2, seed=1)
    before = g.to_json()
    for bad in (-1, 2970, 10**9):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
    for bad in (1.5, None, True, "fly away"):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
    assert g.to_json() == before


def test_the_named_action_ids_are_the_tables():
    from cardcore.games import kuzanasta as kz
    specs = new_game("kuzanasta", seed=0, god_draw="position")._specs
    assert [specs[i].kind for i in (kz.DRAW_STOCK, kz.DRAW_DISCARD, kz.GOD_LOOK, kz.END_TURN,
                                    kz.GO_OUT)] == ["draw_stock", "draw_discard", "god_look",
                                                    "end_turn", "go_out"]
    assert specs[kz.GOD_DRAW_FIRST].label == "god_draw AC"
    assert specs[kz.DISCARD_FIRST + 52].label == "discard JK"
    assert specs[kz.GOD_DISCARD_FIRST].label == "god_discard AC"
    assert specs[kz.GO_OUT_NAMED_FIRST].kind == "go_out" and "sets" in specs[kz.GO_OUT_NAMED_FIRST].info
    assert specs[kz.GOD_PLACE_FIRST].label == "god_draw 0:0"
