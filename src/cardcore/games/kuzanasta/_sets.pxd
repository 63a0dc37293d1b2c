# cython: language_level=3
# Declarations of the Kuzanasta set-detection kernels (implemented in C, kernel.c beside this
# file; declared in kernel.h), cimported by _sets.pyx and the state machine (_state.pyx).
#
# A set (KZ-5.1) is 3 or 4 cards of one rank r: natural cards of rank r plus cards of the
# deal's wild rank standing in; at least one natural card of r; the joker never belongs to a set.
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

cdef extern from "cardcore/games/kuzanasta/kernel.h" nogil:
    enum:
        KZ_NOT_A_SET
        KZ_ROW_3_NATURAL_FACE      # Q-Q-Q                    20000
        KZ_ROW_3_MIXED_FACE        # J-J-W, J-W-W             10000
        KZ_ROW_3_NATURAL_NUMBER    # 7-7-7                    10000
        KZ_ROW_3_MIXED_NUMBER      # 9-9-W, 9-W-W             5000
        KZ_ROW_4_NATURAL_FACE      # K-K-K-K                  2000
        KZ_ROW_4_RED_PAIRS         # 5H 5H 5D 5D              1500
        KZ_ROW_4_BLACK_PAIRS       # 8C 8C 8S 8S              1100
        KZ_ROW_4_MIXED_FACE        # K-K-K-W ... K-W-W-W      1000
        KZ_ROW_4_NATURAL_NUMBER    # 8-8-8-8, other suits     1000
        KZ_ROW_4_MIXED_NUMBER      # 3-3-3-W ... 3-W-W-W      500
        KZ_NUM_ROWS
        KZ_NO_WILD                 # the deal's wild rank when the turn-up was the joker (KZ-2.3)
        KZ_NUM_SHAPES
        KZ_NUM_DESCRIPTORS         # 13 ranks x 7 shapes

    int kz_row_value(int row) noexcept
    int kz_classify(const Multiset* group, int wild_rank) noexcept
    void kz_rank_counts(const Multiset* hand, int* counts) noexcept
    int kz_best_two(const Multiset* hand, int wild_rank, int* d1, int* d2) noexcept
    int kz_descriptor_value(const Multiset* hand, int wild_rank, int d) noexcept
    int kz_declaration_value(const Multiset* hand, int wild_rank, int d1, int d2) noexcept
    int kz_best_three_four(const Multiset* hand, int wild_rank, int* d1, int* d2) noexcept

    int kz_desc_rank(int d) noexcept
    int kz_desc_size(int d) noexcept
    int kz_desc_wilds(int d) noexcept
    int kz_desc(int rank, int size, int wilds) noexcept
