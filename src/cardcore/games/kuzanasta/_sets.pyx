# cython: language_level=3, cdivision=True
"""Kuzanasta set detection (KZ-4, KZ-5, KZ-7.1); declarations in _sets.pxd.

The kernels are cimported by the state machine (_state.pyx); the Python wrappers below
(``best_two_sets``, ``kz_set_row``, ...) serve the wrapper, the bots, tests and benchmarks.
"""
#
# The kernels themselves are C (kernel.c beside this file, declared in kernel.h and
# _sets.pxd): the same code the native and WebAssembly libraries build. kernel.c explains
# why the best declaration is always two 3-card sets.
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_SIMPLE
from libc.stdint cimport uint8_t

from cardcore._fast cimport Multiset, NUM_RANKS, NUM_KINDS, MS_MAX_COPIES, PILE_CAPACITY, ms_clear, ms_add

# KZ-5.3, indexed by row (KZ_NOT_A_SET = 0 is worth nothing).
KZ_ROW_VALUES = tuple(kz_row_value(i) for i in range(KZ_NUM_ROWS))
KZ_ROW_NAMES = (
    "not a set", "3 natural face cards", "3 face cards with wild", "3 natural number cards",
    "3 number cards with wild", "4 natural face cards", "4 natural number cards, 2+2 red",
    "4 natural number cards, 2+2 black", "4 face cards with wild",
    "4 natural number cards", "4 number cards with wild",
)
KZ_NUM_DESCRIPTOR_IDS = KZ_NUM_DESCRIPTORS
KZ_ROW_COUNT = KZ_NUM_ROWS


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
    return kz_row_value(kz_classify(&m, w))


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
