# cython: language_level=3
# Declarations of the Kuzanasta set-detection kernels (implemented in _sets.pyx),
# cimported by the state machine (_state.pyx).
#
# A set (KZ-5.1) is 3 or 4 cards of one rank r: natural cards of rank r plus cards of the deal's
# wild rank standing in; at least one natural card of r; the joker never belongs to a set.
# A group is classified into a row of the KZ-5.3 table (0 = not a set).
#
# A set *descriptor* names a set by rank, size and number of wild cards standing in; suits
# are left to the engine (they only matter for the 2+2 four-card rows). It is what a named
# declaration (KZ-7.1) is made of:
#     d = rank * KZ_NUM_SHAPES + shape
#     shape 0, 1, 2     = 3 cards with 0, 1, 2 wild cards
#     shape 3, 4, 5, 6  = 4 cards with 0, 1, 2, 3 wild cards
# A set of the wild rank itself (KZ-4.2) is natural: its descriptor has 0 wild cards.
from cardcore._fast cimport Multiset

cdef enum:
    KZ_NOT_A_SET = 0
    KZ_ROW_3_NATURAL_FACE = 1      # Q-Q-Q                    20000
    KZ_ROW_3_MIXED_FACE = 2        # J-J-W, J-W-W             10000
    KZ_ROW_3_NATURAL_NUMBER = 3    # 7-7-7                    10000
    KZ_ROW_3_MIXED_NUMBER = 4      # 9-9-W, 9-W-W             5000
    KZ_ROW_4_NATURAL_FACE = 5      # K-K-K-K                  2000
    KZ_ROW_4_RED_PAIRS = 6         # 5H 5H 5D 5D              1500
    KZ_ROW_4_BLACK_PAIRS = 7       # 8C 8C 8S 8S              1100
    KZ_ROW_4_MIXED_FACE = 8        # K-K-K-W ... K-W-W-W      1000
    KZ_ROW_4_NATURAL_NUMBER = 9    # 8-8-8-8, other suits     1000
    KZ_ROW_4_MIXED_NUMBER = 10     # 3-3-3-W ... 3-W-W-W      500
    KZ_NUM_ROWS = 11
    KZ_NO_WILD = -1                # the deal's wild rank when the turn-up was the joker (KZ-2.3)
    KZ_NUM_SHAPES = 7
    KZ_NUM_DESCRIPTORS = 91        # 13 ranks x 7 shapes

cdef int kz_row_value(int row) noexcept nogil
cdef int kz_classify(const Multiset* group, int wild_rank) noexcept nogil
cdef void kz_rank_counts(const Multiset* hand, int* counts) noexcept nogil
cdef int kz_best_two(const Multiset* hand, int wild_rank, int* d1, int* d2) noexcept nogil
cdef int kz_descriptor_value(const Multiset* hand, int wild_rank, int d) noexcept nogil
cdef int kz_declaration_value(const Multiset* hand, int wild_rank, int d1, int d2) noexcept nogil
cdef int kz_best_three_four(const Multiset* hand, int wild_rank, int* d1, int* d2) noexcept nogil

cdef inline int kz_desc_rank(int d) noexcept nogil:
    return d // KZ_NUM_SHAPES

cdef inline int kz_desc_size(int d) noexcept nogil:
    return 3 if d % KZ_NUM_SHAPES < 3 else 4

cdef inline int kz_desc_wilds(int d) noexcept nogil:
    cdef int shape = d % KZ_NUM_SHAPES
    return shape if shape < 3 else shape - 3

cdef inline int kz_desc(int rank, int size, int wilds) noexcept nogil:
    return rank * KZ_NUM_SHAPES + (wilds if size == 3 else 3 + wilds)
