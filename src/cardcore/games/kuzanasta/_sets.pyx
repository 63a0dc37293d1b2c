# cython: language_level=3, cdivision=True
"""Kuzanasta set detection (KZ-4, KZ-5, KZ-7.1); declarations in _sets.pxd.

The kernels are cimported by the state machine (_state.pyx); the Python wrappers below
(``best_two_sets``, ``kz_set_row``, ...) serve the wrapper, the bots, tests and benchmarks.
"""
#
# Everything works on the core Multiset with masks and popcounts: a hand of the 93-card
# Kuzanasta deck holds up to two copies of a card id, so its multiset has at most two
# non-empty bit-planes and every count below is one or two popcounts.
#
# Why the best declaration is always two 3-card sets: every 4-card set contains a 3-card set
# (drop a wild card, or a natural one if there is no wild card: at least one natural card
# stays), and the cheapest 3-card row (5000) beats the dearest 4-card row (2000). Shrinking
# both sets of any valid pair keeps them disjoint, so if a hand holds two sets at all it holds
# two 3-card sets, and those are worth more (KZ-5.5). kz_best_two therefore searches pairs of
# 3-card sets only; the brute-force oracle in tests/ checks this over all 3- and 4-card groups.
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_SIMPLE
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint64_t

from cardcore._fast cimport (
    Multiset, NUM_RANKS, NUM_KINDS, JOKER, MS_MAX_COPIES, PILE_CAPACITY, R_JACK, CLUBS, SPADES,
    DIAMONDS, HEARTS, make_card, rank_mask, card_bit, lowest_card, ms_clear, ms_add,
    ms_count_mask, ms_count_rank,
)

# KZ-5.3, indexed by row (KZ_NOT_A_SET = 0 is worth nothing).
cdef int KZ_ROW_VALUE[KZ_NUM_ROWS]
KZ_ROW_VALUE[:] = [0, 20000, 10000, 10000, 5000, 2000, 1500, 1100, 1000, 1000, 500]

KZ_ROW_VALUES = tuple(KZ_ROW_VALUE[i] for i in range(KZ_NUM_ROWS))
KZ_ROW_NAMES = (
    "not a set", "3 natural face cards", "3 face cards with wild", "3 natural number cards",
    "3 number cards with wild", "4 natural face cards", "4 natural number cards, 2+2 red",
    "4 natural number cards, 2+2 black", "4 face cards with wild",
    "4 natural number cards", "4 number cards with wild",
)
KZ_NUM_DESCRIPTOR_IDS = KZ_NUM_DESCRIPTORS
KZ_ROW_COUNT = KZ_NUM_ROWS

cdef enum:
    KZ_RANK_LANE = 0x1FFF          # the 13 rank bits of one suit


cdef int kz_row_value(int row) noexcept nogil:
    if row < 0 or row >= KZ_NUM_ROWS:
        return 0
    return KZ_ROW_VALUE[row]


cdef inline uint64_t kz_wild_mask(int wild_rank) noexcept nogil:
    return rank_mask(wild_rank) if 0 <= wild_rank < NUM_RANKS else 0


cdef inline int kz_three_value(int rank, bint natural) noexcept nogil:
    """KZ-5.3 rows of a 3-card set."""
    if rank >= R_JACK:
        return KZ_ROW_VALUE[KZ_ROW_3_NATURAL_FACE if natural else KZ_ROW_3_MIXED_FACE]
    return KZ_ROW_VALUE[KZ_ROW_3_NATURAL_NUMBER if natural else KZ_ROW_3_MIXED_NUMBER]


cdef inline int kz_natural_four_number_row(const Multiset* m, int rank) noexcept nogil:
    """KZ-5.3/5.4: the best row four natural number cards of `rank` drawn from m can make."""
    if (m.count[make_card(HEARTS, rank)] >= 2 and m.count[make_card(DIAMONDS, rank)] >= 2):
        return KZ_ROW_4_RED_PAIRS
    if (m.count[make_card(CLUBS, rank)] >= 2 and m.count[make_card(SPADES, rank)] >= 2):
        return KZ_ROW_4_BLACK_PAIRS
    return KZ_ROW_4_NATURAL_NUMBER


cdef inline int kz_row(int size, int rank, bint natural, const Multiset* cards) noexcept nogil:
    """KZ-5.2..5.4: the table row of a set of ``size`` (3 or 4) of ``rank``, natural or mixed;
    four natural number cards are scored by their suits, read from ``cards``."""
    if size == 3:
        if rank >= R_JACK:
            return KZ_ROW_3_NATURAL_FACE if natural else KZ_ROW_3_MIXED_FACE
        return KZ_ROW_3_NATURAL_NUMBER if natural else KZ_ROW_3_MIXED_NUMBER
    if rank >= R_JACK:
        return KZ_ROW_4_NATURAL_FACE if natural else KZ_ROW_4_MIXED_FACE
    if not natural:
        return KZ_ROW_4_MIXED_NUMBER
    return kz_natural_four_number_row(cards, rank)


cdef int kz_classify(const Multiset* group, int wild_rank) noexcept nogil:
    """KZ-5.1..5.4: the table row of a group of cards (0 if it is not a set).

    The cards that are not of the wild rank must all share one rank r (one bit after folding
    the four suit lanes of the support together); the wild-rank cards then stand in. A group
    made only of wild-rank cards is a natural set of the wild rank (KZ-4.2)."""
    cdef int total = group.total
    if total < 3 or total > 4 or group.count[JOKER] > 0:          # KZ-5.1, KZ-4.3
        return KZ_NOT_A_SET
    cdef uint64_t wild = kz_wild_mask(wild_rank)
    cdef int wilds = ms_count_mask(group, wild) if wild else 0
    cdef uint64_t others = group.plane[0] & ~wild
    cdef uint64_t lanes
    cdef int rank
    cdef bint natural
    if wilds == total:
        rank = wild_rank
        natural = True
    else:
        lanes = (others | (others >> 13) | (others >> 26) | (others >> 39)) & KZ_RANK_LANE
        if lanes & (lanes - 1):
            return KZ_NOT_A_SET                                   # two ranks besides the wild one
        rank = lowest_card(lanes)
        natural = wilds == 0
    return kz_row(total, rank, natural, group)


cdef uint8_t RANK_OF[JOKER]                   # a natural card's rank (c % 13, without a division)
for _c in range(JOKER):
    RANK_OF[_c] = _c % NUM_RANKS


cdef inline unsigned rank_counts(const Multiset* hand, int* counts) noexcept nogil:
    """counts[r] = cards of rank r (copies included, the joker left out), r = 0..12; returns
    the set of ranks present (bit r)."""
    cdef int k, r
    cdef unsigned present = 0
    cdef uint64_t x
    memset(counts, 0, NUM_RANKS * sizeof(int))
    for k in range(MS_MAX_COPIES):
        x = hand.plane[k] & ~card_bit(JOKER)
        if x == 0:
            break
        while x:
            r = RANK_OF[lowest_card(x)]
            x &= x - 1
            counts[r] += 1
            present |= 1u << r
    return present


cdef void kz_rank_counts(const Multiset* hand, int* counts) noexcept nogil:
    """counts[r] = cards of rank r (copies included, the joker left out), r = 0..12."""
    rank_counts(hand, counts)


cdef int kz_best_two(const Multiset* hand, int wild_rank, int* d1, int* d2) noexcept nogil:
    """KZ-7.1: the highest total of two disjoint sets in the hand; 0 (and d1 = d2 = -1) if
    there are none. d1 <= d2 receive the descriptors of the two 3-card sets (see the top of
    this file for why 3-card sets suffice). Among equal totals the first found is kept:
    the same-rank pairs by rank, then the pairs of different ranks by (rank, rank)."""
    cdef int n[NUM_RANKS]
    cdef int opt_value[NUM_RANKS + 1]
    cdef int opt_cost[NUM_RANKS + 1]           # wild cards the option needs
    cdef int opt_desc[NUM_RANKS + 1]
    cdef int options = 0, r, i = -1, j = -1, v, wilds = 0
    cdef int best = 0, best1 = -1, best2 = -1
    cdef bint has_wild = 0 <= wild_rank < NUM_RANKS
    cdef unsigned ranks
    if hand.total - hand.count[JOKER] < 6:     # two sets take six cards, none the joker (KZ-4.3)
        d1[0] = d2[0] = -1
        return 0
    ranks = rank_counts(hand, n)
    if has_wild:
        wilds = n[wild_rank]
        ranks &= ~(1u << wild_rank)
    while ranks:                               # the ranks present, ascending
        r = lowest_card(ranks)
        ranks &= ranks - 1
        # The single cheapest and best 3-card set of rank r: as many naturals as possible.
        if n[r] >= 3:
            opt_value[options] = kz_three_value(r, True)
            opt_cost[options] = 0
            opt_desc[options] = kz_desc(r, 3, 0)
            options += 1
        elif 3 - n[r] <= wilds:
            opt_value[options] = kz_three_value(r, False)
            opt_cost[options] = 3 - n[r]
            opt_desc[options] = kz_desc(r, 3, 3 - n[r])
            options += 1
        # Two sets of the same rank r share its natural cards and the wild cards.
        v = 0
        if n[r] >= 6:
            v = 2 * kz_three_value(r, True)
            i = kz_desc(r, 3, 0)
            j = i
        elif n[r] >= 4 and n[r] + wilds >= 6:
            v = kz_three_value(r, True) + kz_three_value(r, False)
            i = kz_desc(r, 3, 0)
            j = kz_desc(r, 3, 6 - n[r])
        elif n[r] >= 2 and n[r] + wilds >= 6:
            v = 2 * kz_three_value(r, False)
            i = kz_desc(r, 3, 4 - n[r])       # naturals split 1+1 (n = 2) or 2+1 (n = 3)
            j = kz_desc(r, 3, 2)
        if v > best:
            best = v
            best1 = i
            best2 = j
    if has_wild and wilds >= 3:                # KZ-4.2: natural sets of the wild rank
        opt_value[options] = kz_three_value(wild_rank, True)
        opt_cost[options] = 3
        opt_desc[options] = kz_desc(wild_rank, 3, 0)
        options += 1
        if wilds >= 6 and 2 * kz_three_value(wild_rank, True) > best:
            best = 2 * kz_three_value(wild_rank, True)
            best1 = best2 = kz_desc(wild_rank, 3, 0)
    for i in range(options):                   # two sets of different ranks share the wild cards
        for j in range(i + 1, options):
            if opt_cost[i] + opt_cost[j] <= wilds:
                v = opt_value[i] + opt_value[j]
                if v > best:
                    best = v
                    best1 = opt_desc[i]
                    best2 = opt_desc[j]
    if best1 > best2:
        best1, best2 = best2, best1
    d1[0] = best1
    d2[0] = best2
    return best


cdef inline int kz_desc_needs(int d, int wild_rank, int* naturals, int* pool) noexcept nogil:
    """Cards a descriptor takes: `naturals` of its own rank and `pool` cards of the wild rank.
    Returns -1 if the descriptor cannot be a set in this deal (wild cards without a wild rank,
    or wild cards standing in a set of the wild rank itself, KZ-4.2)."""
    cdef int r = kz_desc_rank(d), s = kz_desc_size(d), m = kz_desc_wilds(d)
    if m > 0 and (wild_rank < 0 or r == wild_rank):
        return -1
    if r == wild_rank:
        naturals[0] = 0
        pool[0] = s
    else:
        naturals[0] = s - m
        pool[0] = m
    return 0


cdef inline int kz_desc_row(const Multiset* hand, int wild_rank, int d) noexcept nogil:
    """The row of a realisable descriptor; for four natural number cards the best suits the
    hand offers (the other set of a declaration never cares about suits)."""
    return kz_row(kz_desc_size(d), kz_desc_rank(d), kz_desc_wilds(d) == 0, hand)


cdef int kz_descriptor_value(const Multiset* hand, int wild_rank, int d) noexcept nogil:
    """Value of one set named by descriptor d if the hand can show it, else -1."""
    cdef int naturals, pool
    if d < 0 or d >= KZ_NUM_DESCRIPTORS or kz_desc_needs(d, wild_rank, &naturals, &pool) < 0:
        return -1
    cdef int r = kz_desc_rank(d)
    if ms_count_rank(hand, r) < naturals:
        return -1
    if pool and ms_count_rank(hand, wild_rank) < pool:
        return -1
    return KZ_ROW_VALUE[kz_desc_row(hand, wild_rank, d)]


cdef int kz_declaration_value(const Multiset* hand, int wild_rank, int d1, int d2) noexcept nogil:
    """KZ-7.1: total value of two disjoint sets named by descriptors, or -1 if the hand cannot
    show both at once. Two 4-card sets (8 cards) are never a declaration: -1."""
    cdef int nat1, pool1, nat2, pool2, r1, r2
    if d1 < 0 or d1 >= KZ_NUM_DESCRIPTORS or d2 < 0 or d2 >= KZ_NUM_DESCRIPTORS:
        return -1
    if kz_desc_size(d1) == 4 and kz_desc_size(d2) == 4:
        return -1
    if kz_desc_needs(d1, wild_rank, &nat1, &pool1) < 0 or kz_desc_needs(d2, wild_rank, &nat2, &pool2) < 0:
        return -1
    r1 = kz_desc_rank(d1)
    r2 = kz_desc_rank(d2)
    if r1 == r2:
        if ms_count_rank(hand, r1) < nat1 + nat2:
            return -1
    elif ms_count_rank(hand, r1) < nat1 or ms_count_rank(hand, r2) < nat2:
        return -1
    if pool1 + pool2 and ms_count_rank(hand, wild_rank) < pool1 + pool2:
        return -1
    return KZ_ROW_VALUE[kz_desc_row(hand, wild_rank, d1)] + KZ_ROW_VALUE[kz_desc_row(hand, wild_rank, d2)]


cdef int kz_best_three_four(const Multiset* hand, int wild_rank, int* d1, int* d2) noexcept nogil:
    """KZ-7.1 with ``sets="three_and_four"``: the highest total of a 3-card set and a disjoint
    4-card set in the hand (with a 7-card hand: all seven cards), suits chosen as
    kz_declaration_value does; 0 (and d1 = d2 = -1) if there is none. d1 <= d2 as
    descriptors; among equal totals the first pair in (d1, d2) order is kept."""
    cdef int cand[KZ_NUM_DESCRIPTORS]
    cdef int n[NUM_RANKS]
    cdef int k = 0, r, i, j, v, best = 0, best1 = -1, best2 = -1, wilds = 0
    kz_rank_counts(hand, n)
    if 0 <= wild_rank < NUM_RANKS:
        wilds = n[wild_rank]
    for r in range(NUM_RANKS):
        # Only ranks that can make a set at all (most hands have none or one): the playout
        # calls this after every discard with going_out="immediate".
        if n[r] == 0 or (n[r] + wilds < 3 if r != wild_rank else n[r] < 3):
            continue
        for i in range(r * KZ_NUM_SHAPES, (r + 1) * KZ_NUM_SHAPES):
            if kz_descriptor_value(hand, wild_rank, i) >= 0:
                cand[k] = i
                k += 1
    for i in range(k):
        for j in range(i + 1, k):
            if kz_desc_size(cand[i]) + kz_desc_size(cand[j]) != 7:
                continue
            v = kz_declaration_value(hand, wild_rank, cand[i], cand[j])
            if v > best:
                best = v
                best1 = cand[i]
                best2 = cand[j]
    d1[0] = best1
    d2[0] = best2
    return best


# ---------------------------------------------------------------- Python-visible wrappers
from cardcore.errors import echo


cdef int kz_wild_arg(object wild_rank) except -2:
    if wild_rank is None:
        return KZ_NO_WILD
    if isinstance(wild_rank, bool) or not isinstance(wild_rank, int) or not 0 <= wild_rank < NUM_RANKS:
        raise ValueError(f"wild_rank must be None or a rank index 0..12, not {echo(wild_rank)}")
    return wild_rank


cdef int kz_fill(Multiset* m, object cards) except -1:
    cdef long c
    ms_clear(m)
    for card in cards:
        if type(card) is not int:                       # bool is not int here; other ints
            if isinstance(card, bool) or not hasattr(card, "__index__"):
                raise ValueError(f"card ids must be ints, not {echo(card)}")
            card = card.__index__()
        try:
            c = card
        except OverflowError:
            raise ValueError(f"card id out of range: {echo(card)}") from None
        if c < 0 or c >= NUM_KINDS:
            raise ValueError(f"card id out of range: {c}")
        if not ms_add(m, <int>c):
            raise ValueError(f"more than {MS_MAX_COPIES} copies of card {c}")
    return 0


cdef int kz_desc_arg(object d) except -1:
    if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < KZ_NUM_DESCRIPTORS:
        raise ValueError(f"a set descriptor is an int 0..{KZ_NUM_DESCRIPTORS - 1}, not {echo(d)}")
    return d


def best_two_sets(cards, wild_rank=None) -> tuple:
    """KZ-7.1: (total, d1, d2) for the best two disjoint sets among card ids, given the deal's
    wild rank (None after a joker turn-up). d1 <= d2 are set descriptors (``kz_descriptor``);
    (0, -1, -1) if the cards hold no two sets."""
    cdef Multiset m
    cdef int w = kz_wild_arg(wild_rank), d1, d2, value
    kz_fill(&m, cards)
    value = kz_best_two(&m, w, &d1, &d2)
    return (value, d1, d2)


def best_three_four_sets(cards, wild_rank=None) -> tuple:
    """KZ-7.1 with ``sets="three_and_four"``: (total, d1, d2) for the best 3-card set plus a
    disjoint 4-card set among card ids (a 7-card hand: all seven cards); (0, -1, -1) if none."""
    cdef Multiset m
    cdef int w = kz_wild_arg(wild_rank), d1, d2, value
    kz_fill(&m, cards)
    value = kz_best_three_four(&m, w, &d1, &d2)
    return (value, d1, d2)


def kz_set_row(cards, wild_rank=None) -> int:
    """KZ-5.3 row index (1..10, see KZ_ROW_NAMES) of a group of card ids; 0 if not a set."""
    cdef Multiset m
    cdef int w = kz_wild_arg(wild_rank)
    kz_fill(&m, cards)
    return kz_classify(&m, w)


def kz_set_value(cards, wild_rank=None) -> int:
    """KZ-5.3/5.4 value of a group of card ids; 0 if it is not a set."""
    cdef Multiset m
    cdef int w = kz_wild_arg(wild_rank)
    kz_fill(&m, cards)
    return KZ_ROW_VALUE[kz_classify(&m, w)]


def kz_desc_value(cards, wild_rank, d) -> int:
    """Value of the set named by descriptor d if the cards can show it, else -1."""
    cdef Multiset m
    cdef int w = kz_wild_arg(wild_rank), dd = kz_desc_arg(d)
    kz_fill(&m, cards)
    return kz_descriptor_value(&m, w, dd)


def kz_decl_value(cards, wild_rank, d1, d2) -> int:
    """Total value of two disjoint sets named by descriptors, or -1 if the cards cannot show them."""
    cdef Multiset m
    cdef int w = kz_wild_arg(wild_rank), a = kz_desc_arg(d1), b = kz_desc_arg(d2)
    kz_fill(&m, cards)
    return kz_declaration_value(&m, w, a, b)


def kz_descriptor(d) -> tuple:
    """(rank, size, wild cards) of a set descriptor."""
    cdef int dd = kz_desc_arg(d)
    return (kz_desc_rank(dd), kz_desc_size(dd), kz_desc_wilds(dd))


def kz_descriptor_id(int rank, int size, int wilds) -> int:
    """The descriptor of a set of `size` cards of `rank` with `wilds` wild cards standing in."""
    if not 0 <= rank < NUM_RANKS or size not in (3, 4) or not 0 <= wilds < size:
        raise ValueError(f"no set descriptor for rank {rank}, size {size}, {wilds} wild cards")
    return kz_desc(rank, size, wilds)


def best_two_sets_bulk(cards, int hand_size, wild_ranks, out) -> int:
    """Run the best-two-sets kernel over many hands inside the core (benchmarks, bulk tests).

    ``cards``: a bytes-like buffer of n * hand_size card ids (hand after hand); ``wild_ranks``:
    n bytes, a rank index 0..12 or 255 for none; ``out``: a writable buffer of n int32
    (``array('i')``, numpy int32) that receives each hand's best total. Returns n."""
    cdef Py_buffer cb, wb, ob
    cdef Multiset m
    cdef int i, k, n, w, d1, d2
    cdef const uint8_t* c
    cdef const uint8_t* wr
    cdef int* o
    if hand_size < 0 or hand_size > PILE_CAPACITY:
        raise ValueError(f"hand_size must be 0..{PILE_CAPACITY}")
    PyObject_GetBuffer(cards, &cb, PyBUF_SIMPLE)
    try:
        PyObject_GetBuffer(wild_ranks, &wb, PyBUF_SIMPLE)
        try:
            PyObject_GetBuffer(out, &ob, PyBUF_WRITABLE | PyBUF_SIMPLE)
            try:
                n = <int>wb.len
                if cb.len != <Py_ssize_t>n * hand_size:
                    raise ValueError("cards must hold len(wild_ranks) * hand_size ids")
                if ob.len != <Py_ssize_t>n * <Py_ssize_t>sizeof(int):
                    raise ValueError("out must hold one int32 per hand")
                c = <const uint8_t*>cb.buf
                wr = <const uint8_t*>wb.buf
                o = <int*>ob.buf
                for i in range(<Py_ssize_t>n * hand_size):
                    if c[i] >= NUM_KINDS:
                        raise ValueError(f"card id out of range: {c[i]}")
                for i in range(n):
                    if wr[i] >= NUM_RANKS and wr[i] != 255:
                        raise ValueError(f"wild rank out of range: {wr[i]}")
                with nogil:
                    for i in range(n):
                        ms_clear(&m)
                        for k in range(hand_size):
                            ms_add(&m, c[i * hand_size + k])
                        w = KZ_NO_WILD if wr[i] == 255 else wr[i]
                        o[i] = kz_best_two(&m, w, &d1, &d2)
            finally:
                PyBuffer_Release(&ob)
        finally:
            PyBuffer_Release(&wb)
    finally:
        PyBuffer_Release(&cb)
    return n
