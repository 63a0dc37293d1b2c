# cython: language_level=3
"""Manna from Heaven: the meld table and meld validity (MH-4).

The meld ids A_MELD..NUM_ACTIONS-1 are count-based actions: a group (a natural rank, the wild
meld, black threes), new meld or addition, and the (naturals, twos, jokers) it takes from hand.
    natural-rank melds: 11 groups of 68 ids, ranks in id order A 4 5 6 7 8 9 10 J Q K;
                in a group, ids 0..38 are NEW melds and 39..67 ADDITIONS, each an (n, t, j)
    wild melds: 30 NEW (t + j = 3..7) then 14 ADDITIONS (t + j = 1..4)            (MH-4.3)
    a meld of n = 3..7 black threes when going out                                 (MH-4.7)
NEW natural triples: n = 2..7, t = 0..3, j = 0..3 - t, 3 <= n+t+j <= 7, at least one wild when n = 2.
ADD natural triples: n = 0..4, t = 0..3, j = 0..3 - t, 1 <= n+t+j <= 4.
Wild triples: k = t + j ascending, t = k..0 descending (most twos first).

The table is the C kernel's (kernel.c, with the masks legal-action generation reads); this
module builds it again from the definition above and checks the two agree at import.
"""
from cardcore.games.manna._rules cimport (
    NGROUPS, NAT_GROUPS, G_WILD, G_BLACK3, CANASTA, MIN_MELD, NUM_ACTIONS, A_DRAW, A_TAKE_ADD,
    A_TAKE_PAIR, A_TAKE_TWO, A_TAKE_JOKER, A_RETRACT, A_DISCARD, A_GO_OUT, A_MELD, A_WILD,
    A_BLACK3, NAT_GROUP, NAT_NEW, NAT_ADD, WILD_NEW, WILD_ADD, MELD_IDS, MeldDef, meld_table as c_meld_table,
    natural_group, min_meld_for, meld_shape_ok, canasta_type, CT_NONE, CT_NATURAL, CT_MIXED,
    CT_WILD, CT_SEVENS,
)

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _build_table() -> list:
    """(group, new, n, t, j) per meld id, in id order, by the definition in the docstring."""
    table = []
    for gi in range(NAT_GROUPS):
        g = natural_group(gi)
        if len(table) != gi * NAT_GROUP:
            raise ImportError("Manna's meld-id layout constants do not match its meld table")
        for n in range(2, CANASTA + 1):                  # NEW
            for t in range(4):
                for j in range(4 - t):
                    if MIN_MELD <= n + t + j <= CANASTA:
                        table.append((g, True, n, t, j))
        for n in range(5):                               # ADD
            for t in range(4):
                for j in range(4 - t):
                    if 1 <= n + t + j <= CANASTA - MIN_MELD:
                        table.append((g, False, n, t, j))
    wild_first = len(table)
    for size in range(MIN_MELD, CANASTA + 1):
        for t in range(size, -1, -1):
            table.append((G_WILD, True, 0, t, size - t))
    for size in range(1, CANASTA - MIN_MELD + 1):
        for t in range(size, -1, -1):
            table.append((G_WILD, False, 0, t, size - t))
    black3_first = len(table)
    for n in range(MIN_MELD, CANASTA + 1):
        table.append((G_BLACK3, True, n, 0, 0))
    # The layout constants in kernel.h must agree with the table built here ...
    if (len(table) != MELD_IDS or A_MELD + len(table) != NUM_ACTIONS
            or A_MELD + wild_first != A_WILD or A_MELD + black3_first != A_BLACK3
            or NAT_NEW + NAT_ADD != NAT_GROUP or A_BLACK3 - A_WILD != WILD_NEW + WILD_ADD):
        raise ImportError("Manna's meld-id layout constants do not match its meld table")
    # ... and so must the C kernel's table.
    cdef const MeldDef* rows = c_meld_table()
    cdef int i
    for i in range(MELD_IDS):
        if (rows[i].group, bool(rows[i].is_new), rows[i].n, rows[i].t, rows[i].j) != table[i]:
            raise ImportError(f"Manna: the C kernel's meld table differs at id {A_MELD + i}")
    return table


_MELD_TABLE = _build_table()     # (group, new, n, t, j) per meld id, in id order


def meld_table() -> list:
    """(group, new, naturals, twos, jokers) for ids A_MELD.. in order; group 0..12 = rank,
    13 = wild, 14 = black threes."""
    return list(_MELD_TABLE)


ACTION_LAYOUT = {
    "draw": A_DRAW, "take_add": A_TAKE_ADD, "take_pair": A_TAKE_PAIR, "take_two": A_TAKE_TWO,
    "take_joker": A_TAKE_JOKER, "retract": A_RETRACT, "discard": A_DISCARD, "go_out": A_GO_OUT,
    "meld": A_MELD, "wild": A_WILD, "black3": A_BLACK3, "num_actions": NUM_ACTIONS,
    "nat_group": NAT_GROUP, "nat_new": NAT_NEW,
}


def py_min_meld(int score) -> int:
    """MH-4.8 for tests and tools."""
    return min_meld_for(score)


def py_meld_shape_ok(int group, int naturals, int wilds, bint wild_sevens=False) -> bool:
    if not 0 <= group < NGROUPS or naturals < 0 or wilds < 0:
        raise ValueError("group 0..14, counts >= 0")
    return bool(meld_shape_ok(group, naturals, wilds, wild_sevens))


def py_canasta_type(int group, int naturals, int wilds) -> str:
    if not 0 <= group < NGROUPS or naturals < 0 or wilds < 0:
        raise ValueError("group 0..14, counts >= 0")
    return {CT_NONE: "", CT_NATURAL: "natural", CT_MIXED: "mixed", CT_WILD: "wild",
            CT_SEVENS: "sevens"}[canasta_type(group, naturals, wilds)]
