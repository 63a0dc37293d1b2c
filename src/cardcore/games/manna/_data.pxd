# cython: language_level=3
"""Manna from Heaven's state struct and its inline zone primitives: shared at compile time by the
state machine (_state), the per-seat projection and sampling (_view) and the test-only
position setter (_testing). There is no _data module at run time."""
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t
from libc.string cimport memset

from cardcore._fast cimport Header, Multiset, Pile, BreakdownRow, JOKER, ms_add, ms_remove, ms_clear
from cardcore.games.manna._rules cimport (
    NPLAYERS, NTEAMS, DECK_SIZE, NRK, NGROUPS, CANASTA, MAX_TEAM_MELDS, NUM_ACTIONS, kind_of,
)

cdef enum:
    ST_DRAW = 0
    ST_MELD = 1
    ST_OVER = 2

ctypedef struct MannaOptions:
    int32_t target          # MH-10.6
    int32_t hands           # MH-10.7: hands that end the match at the latest (MAX_HANDS: no option)
    int32_t dealer          # MH-2.1: seat of the first dealer, -1 = by lot
    bint wild_sevens        # MH-4.6
    bint sevens_either      # MH-4.6 Decision: a mixed sevens canasta is a canasta of sevens
                            # (wild_sevens and mixed_sevens="either"; MH-7.1, 8.3, 9.1)
    int32_t foot_penalty    # MH-10.5: FOOT_RED_THREES or FOOT_CARDS

ctypedef struct Meld:
    uint8_t cards[CANASTA]
    int8_t group
    int8_t size
    int8_t wilds
    int8_t ctype            # CT_NONE while unfinished

ctypedef struct MannaData:
    Header h                            # players, phase (ST_*), to_move, hands finished,
                                        # dealer (MH-2.1), turns, generator, stacked deck
    MannaOptions opt
    # match
    int32_t first                       # the first player of the hand (the dealer's left)
    int32_t score[NTEAMS]
    int32_t last_hand[NTEAMS]
    int32_t last_out                    # seat that went out in the last hand, -1
    int32_t breakdown_size              # the last hand's scoring rows (MH-10), per team
    BreakdownRow breakdown[NTEAMS * 7]
    # zones
    Multiset hand[NPLAYERS]
    uint8_t hand_kind[NPLAYERS][NRK]    # per kind (rank, joker) of the hand: the meld engine's view
    Multiset known[NPLAYERS]            # cards every seat knows to be in that hand (taken
                                        # piles, retracted melds), until they leave it
    Multiset foot[NPLAYERS]             # emptied when picked up
    bint foot_taken[NPLAYERS]
    Pile stock                          # bottom -> top
    Pile pile
    bint pile_frozen                    # MH-5.2: a wild card or red three is in it
    int32_t pile_red3
    int32_t red3[NTEAMS][2]             # laid-out red threes per team, [diamonds, hearts]
    Meld melds[NTEAMS][MAX_TEAM_MELDS]
    int32_t nmelds[NTEAMS]
    int32_t unf[NTEAMS][NGROUPS]        # index of the team's unfinished meld per group, -1
    int32_t types[NTEAMS]               # canasta types completed (CT_ bits)
    int32_t canastas[NTEAMS][NGROUPS]   # completed canastas per group
    bint opened[NTEAMS]
    int32_t need[NTEAMS]
    # turn
    int32_t turn_points, committed, retracted
    int32_t credit[NRK]                 # cards per kind whose points count toward the minimum
    # legal actions of this position (a pure function of the rest: valid while legal_count >= 0)
    int32_t legal_count
    int32_t legal[NUM_ACTIONS]


cdef inline void hand_add(MannaData* s, int p, int c) noexcept nogil:
    ms_add(&s.hand[p], c)
    s.hand_kind[p][kind_of(c)] += 1

cdef inline void hand_remove(MannaData* s, int p, int c) noexcept nogil:
    ms_remove(&s.hand[p], c)
    s.hand_kind[p][kind_of(c)] -= 1
    ms_remove(&s.known[p], c)           # a known copy left (or, if none was known, nothing)

cdef inline void clear_hand(MannaData* s, int p) noexcept nogil:
    ms_clear(&s.hand[p])
    memset(s.hand_kind[p], 0, sizeof(s.hand_kind[p]))
