# cython: language_level=3
"""Manna from Heaven's state struct and its inline zone primitives, declared from the C kernel
(kernel.h: MHState; the C names carry the MH_ / mh_ prefix) for the state class (_state) and
the test-only position setter (_testing). There is no _data module at run time."""
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t

from cardcore._fast cimport Header, Multiset, Pile, BreakdownRow
from cardcore.games.manna._rules cimport NPLAYERS, NTEAMS, NRK, NGROUPS, CANASTA, MAX_TEAM_MELDS, NUM_ACTIONS

cdef extern from "cardcore/games/manna/kernel.h" nogil:
    enum:
        ST_DRAW "MH_ST_DRAW"
        ST_MELD "MH_ST_MELD"
        ST_OVER "MH_ST_OVER"

    ctypedef struct MannaOptions "MHOptions":
        int32_t target          # MH-10.6
        int32_t hands           # MH-10.7: hands that end the match at the latest (MAX_HANDS: no option)
        int32_t dealer          # MH-2.1: seat of the first dealer, -1 = by lot
        bint wild_sevens        # MH-4.6
        bint sevens_either      # MH-4.6 Decision: a mixed sevens canasta is a canasta of sevens
        int32_t foot_penalty    # MH-10.5: FOOT_RED_THREES or FOOT_CARDS

    ctypedef struct Meld "MHMeld":
        uint8_t cards[CANASTA]
        int8_t group
        int8_t size
        int8_t wilds
        int8_t ctype            # CT_NONE while unfinished

    ctypedef struct MannaData "MHState":    # kernel.h documents the fields
        Header h
        MannaOptions opt
        int32_t first
        int32_t score[NTEAMS]
        int32_t last_hand[NTEAMS]
        int32_t last_out
        int32_t breakdown_size
        BreakdownRow breakdown[NTEAMS * 7]
        Multiset hand[NPLAYERS]
        uint8_t hand_kind[NPLAYERS][NRK]
        Multiset known[NPLAYERS]
        Multiset foot[NPLAYERS]
        bint foot_taken[NPLAYERS]
        Pile stock
        Pile pile
        bint pile_frozen
        int32_t pile_red3
        int32_t red3[NTEAMS][2]
        Meld melds[NTEAMS][MAX_TEAM_MELDS]
        int32_t nmelds[NTEAMS]
        int32_t unf[NTEAMS][NGROUPS]
        int32_t types[NTEAMS]
        int32_t canastas[NTEAMS][NGROUPS]
        bint opened[NTEAMS]
        int32_t need[NTEAMS]
        int32_t turn_points, committed, retracted
        int32_t credit[NRK]
        int32_t legal_count
        int32_t legal[NUM_ACTIONS]

    # the hand's zone primitives
    void hand_add "mh_hand_add"(MannaData* s, int p, int c) noexcept
    void hand_remove "mh_hand_remove"(MannaData* s, int p, int c) noexcept
    void clear_hand "mh_clear_hand"(MannaData* s, int p) noexcept
    # the meld primitives the test-only position setter shares with the rules
    int new_meld "mh_new_meld"(MannaData* s, int tm, int g) noexcept
    void meld_card "mh_meld_card"(MannaData* s, int tm, int m, int c) noexcept
    bint finish_meld "mh_finish_meld"(MannaData* s, int tm, int m) noexcept
