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
"""
from libc.string cimport memset

from cardcore.games.manna._rules cimport (
    NGROUPS, NAT_GROUPS, G_WILD, G_BLACK3, CANASTA, MIN_MELD, NUM_ACTIONS, A_DRAW, A_TAKE_ADD,
    A_TAKE_PAIR, A_TAKE_TWO, A_TAKE_JOKER, A_RETRACT, A_DISCARD, A_GO_OUT, A_MELD, A_WILD,
    A_BLACK3, NAT_GROUP, NAT_NEW, NAT_ADD, WILD_NEW, WILD_ADD, MELD_IDS, natural_group,
    min_meld_for,
)

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_MELD_TABLE = []     # (group, new, n, t, j) per meld id, in id order


cdef void add_meld_id(int index, int group, bint new, int naturals, int twos, int jokers):
    cdef int offset = A_MELD + index - GROUP_FIRST[group], held, t, j, room, wild_room
    # The masks: this id in every entry whose counts allow it.
    if group == G_WILD:
        for t in range(twos, CANASTA + 1):
            for j in range(jokers, CANASTA + 1):
                for room in range(twos + jokers, CANASTA + 1):
                    WILD_MASK[new][t][j][room] |= (<uint64_t>1) << offset
    elif group == natural_group(0):          # every natural-rank group has the same layout
        for t in range(twos, MAX_WILDS + 1):
            for j in range(jokers, MAX_WILDS + 1):
                if new:
                    for held in range(naturals, CANASTA + 1):
                        NEW_MASK[held][t][j] |= (<uint64_t>1) << offset
                    continue
                for held in range(naturals, ADD_MOST + 1):
                    for room in range(naturals + twos + jokers, ADD_MOST + 1):
                        for wild_room in range(twos + jokers, MAX_WILDS + 1):
                            ADD_MASK[held][t][j][room][wild_room] |= \
                                (<uint32_t>1) << (offset - NAT_NEW)
    M_GROUP[index] = group
    M_NEW[index] = new
    M_N[index] = naturals
    M_T[index] = twos
    M_J[index] = jokers
    _MELD_TABLE.append((group, bool(new), naturals, twos, jokers))


cdef void build_table():
    cdef int index = 0, g, n, t, j, size
    for g in range(NGROUPS):
        GROUP_FIRST[g] = -1
    memset(NEW_MASK, 0, sizeof(NEW_MASK))
    memset(ADD_MASK, 0, sizeof(ADD_MASK))
    memset(WILD_MASK, 0, sizeof(WILD_MASK))
    for gi in range(NAT_GROUPS):
        g = natural_group(gi)
        GROUP_FIRST[g] = A_MELD + index
        for n in range(2, CANASTA + 1):                  # NEW
            for t in range(4):
                for j in range(4 - t):
                    size = n + t + j
                    if MIN_MELD <= size <= CANASTA:
                        add_meld_id(index, g, True, n, t, j)
                        index += 1
        for n in range(5):                               # ADD
            for t in range(4):
                for j in range(4 - t):
                    size = n + t + j
                    if 1 <= size <= CANASTA - MIN_MELD:
                        add_meld_id(index, g, False, n, t, j)
                        index += 1
    GROUP_FIRST[G_WILD] = A_MELD + index
    for size in range(MIN_MELD, CANASTA + 1):
        for t in range(size, -1, -1):
            add_meld_id(index, G_WILD, True, 0, t, size - t)
            index += 1
    for size in range(1, CANASTA - MIN_MELD + 1):
        for t in range(size, -1, -1):
            add_meld_id(index, G_WILD, False, 0, t, size - t)
            index += 1
    GROUP_FIRST[G_BLACK3] = A_MELD + index
    for n in range(MIN_MELD, CANASTA + 1):
        add_meld_id(index, G_BLACK3, True, n, 0, 0)
        index += 1
    # The layout constants in _rules.pxd must agree with the table built here.
    if (index != MELD_IDS or A_MELD + index != NUM_ACTIONS or GROUP_FIRST[G_WILD] != A_WILD
            or GROUP_FIRST[G_BLACK3] != A_BLACK3
            or GROUP_FIRST[natural_group(1)] - GROUP_FIRST[natural_group(0)] != NAT_GROUP
            or NAT_NEW + NAT_ADD != NAT_GROUP or A_BLACK3 - A_WILD != WILD_NEW + WILD_ADD):
        raise ImportError("Manna's meld-id layout constants do not match its meld table")

build_table()


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
