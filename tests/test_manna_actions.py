"""Golden tests pinning Manna's fixed action space (the encoding in _manna.pyx's docstring)."""
from __future__ import annotations

from cardcore.games._manna import ACTION_LAYOUT, meld_table, num_actions

from cardcore import new_game


def labels():
    g = new_game("manna", seed=0)
    return g, [g.action_from_id(i).label for i in range(g.num_distinct_actions)]


def test_action_space_size_and_layout_are_pinned():
    g, names = labels()
    assert g.num_distinct_actions == num_actions() == 909
    assert ACTION_LAYOUT == {
        "draw": 0, "take_add": 1, "take_pair": 2, "take_two": 3, "take_joker": 4, "retract": 5,
        "discard": 6, "go_out": 59, "meld": 112, "wild": 860, "black3": 904,
        "num_actions": 909, "nat_group": 68, "nat_new": 39}
    assert len(set(names)) == 909                      # every label names one id


def test_golden_labels():
    _, names = labels()
    golden = {
        0: "draw", 1: "take add", 2: "take pair", 3: "take natural+two",
        4: "take natural+joker", 5: "retract",
        6: "discard AC", 58: "discard JK", 59: "out AC", 111: "out JK",
        112: "new A n=2 two=0 jk=1",            # first NEW triple: 2 naturals need a wild
        121: "new A n=3 two=0 jk=0",
        150: "new A n=7 two=0 jk=0",
        151: "add A n=0 two=0 jk=1",
        179: "add A n=4 two=0 jk=0",
        180: "new 4 n=2 two=0 jk=1",
        112 + 68 * 10: "new K n=2 two=0 jk=1",
        859: "add K n=4 two=0 jk=0",
        860: "new wild two=3 jk=0", 863: "new wild two=0 jk=3",
        889: "new wild two=0 jk=7", 890: "add wild two=1 jk=0", 903: "add wild two=0 jk=4",
        904: "new black3 n=3", 908: "new black3 n=7",
    }
    for i, label in golden.items():
        assert names[i] == label, (i, names[i])


def test_meld_table_counts_and_kinds():
    table = meld_table()
    assert len(table) == 909 - 112
    for g in (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12):
        rows = [r for r in table if r[0] == g]
        assert len([r for r in rows if r[1]]) == 39 and len([r for r in rows if not r[1]]) == 29
    g = new_game("manna", seed=0)
    a = g.action_from_id(112 + 68 * 4 + 39)           # first addition to sevens
    assert a.kind == "meld" and dict(a.info) == {"group": "7", "new": False, "naturals": 0,
                                                 "twos": 0, "jokers": 1}


def test_notation_round_trips():
    g = new_game("manna", seed=0)
    for i in g.legal_action_ids():
        assert g.clone()._resolve(g.action_from_id(i).label.upper()) == i
