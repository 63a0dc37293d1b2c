"""Golden tests pinning Manna's fixed action space (the encoding in _manna.pyx's docstring)."""
from __future__ import annotations

from cardcore.games.manna._state import ACTION_LAYOUT, meld_table, num_actions

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
    g, names = labels()
    golden = {
        0: "draw", 1: "take add", 2: "take pair", 3: "take natural+two",
        4: "take natural+joker", 5: "retract",
        6: "discard AC", 58: "discard JK", 59: "out AC", 111: "out JK",
    }
    # Melds: the readable notation of 0.2 and the compact one of 0.1 (still accepted).
    melds = {
        112: ("meld A A JK", "new A n=2 two=0 jk=1"),   # first NEW triple: 2 naturals need a wild
        121: ("meld A A A", "new A n=3 two=0 jk=0"),
        150: ("meld A A A A A A A", "new A n=7 two=0 jk=0"),
        151: ("add to A: JK", "add A n=0 two=0 jk=1"),
        179: ("add to A: A A A A", "add A n=4 two=0 jk=0"),
        180: ("meld 4 4 JK", "new 4 n=2 two=0 jk=1"),
        112 + 68 * 10: ("meld K K JK", "new K n=2 two=0 jk=1"),
        859: ("add to K: K K K K", "add K n=4 two=0 jk=0"),
        860: ("meld 2 2 2", "new wild two=3 jk=0"), 863: ("meld JK JK JK", "new wild two=0 jk=3"),
        889: ("meld JK JK JK JK JK JK JK", "new wild two=0 jk=7"),
        890: ("add to wild: 2", "add wild two=1 jk=0"),
        903: ("add to wild: JK JK JK JK", "add wild two=0 jk=4"),
        904: ("meld 3 3 3", "new black3 n=3"), 908: ("meld 3 3 3 3 3 3 3", "new black3 n=7"),
    }
    for i, label in golden.items():
        assert names[i] == label, (i, names[i])
    for i, (label, compact) in melds.items():
        assert names[i] == label, (i, names[i])
        assert g.action_from_id(i).info["compact"] == compact
        assert g._resolve(compact) == i and g._resolve(compact.upper()) == i
        assert g._resolve(label) == i


def test_meld_table_counts_and_kinds():
    table = meld_table()
    assert len(table) == 909 - 112
    for g in (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12):
        rows = [r for r in table if r[0] == g]
        assert len([r for r in rows if r[1]]) == 39 and len([r for r in rows if not r[1]]) == 29
    g = new_game("manna", seed=0)
    a = g.action_from_id(112 + 68 * 4 + 39)           # first addition to sevens
    assert a.kind == "meld" and dict(a.info) == {"group": "7", "new": False, "naturals": 0,
                                                 "twos": 0, "jokers": 1,
                                                 "compact": "add 7 n=0 two=0 jk=1"}


def test_notation_round_trips():
    g = new_game("manna", seed=0)
    for i in g.legal_action_ids():
        assert g.clone()._resolve(g.action_from_id(i).label.upper()) == i
