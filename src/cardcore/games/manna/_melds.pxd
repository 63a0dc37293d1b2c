# cython: language_level=3
"""Manna's meld table (action ids A_MELD.. decoded to group, new/addition and counts) and meld
validity (MH-4.1..4.7). The tables are filled once at import of _melds and read-only after."""
from libc.stdint cimport int8_t, int16_t, uint32_t, uint64_t

from cardcore.games.manna._rules cimport (
    CANASTA, MIN_MELD, MAX_WILDS, MIN_NATURALS, R_SEVEN, G_WILD, G_BLACK3, NGROUPS, MELD_IDS,
    CT_NONE, CT_NATURAL, CT_MIXED, CT_WILD, CT_SEVENS, natural_rank,
)

# Decoded meld ids (index = id - A_MELD): group, 1 = a new meld, naturals, twos, jokers.
cdef int8_t M_GROUP[MELD_IDS]
cdef int8_t M_NEW[MELD_IDS]
cdef int8_t M_N[MELD_IDS]
cdef int8_t M_T[MELD_IDS]
cdef int8_t M_J[MELD_IDS]
cdef int16_t GROUP_FIRST[NGROUPS]      # first meld id of a group (natural groups by rank), -1
# The same table as bit masks by what a group's melds may take, so that legal-action generation
# visits only the melds a hand can make: bit i = the section's i-th id. Counts are capped at the
# table's largest use.
cdef enum:
    ADD_MOST = CANASTA - MIN_MELD   # an addition takes at most 4 cards
# natural-rank NEW melds (the group's ids 0..38) by [naturals held][twos][jokers]
cdef uint64_t NEW_MASK[CANASTA + 1][MAX_WILDS + 1][MAX_WILDS + 1]
# natural-rank ADDITIONS (ids 39..67, bit 0 = id 39) by [naturals held][twos][jokers]
# [cards the meld has room for][wild cards it has room for]
cdef uint32_t ADD_MASK[ADD_MOST + 1][MAX_WILDS + 1][MAX_WILDS + 1][ADD_MOST + 1][MAX_WILDS + 1]
# the wild meld (its section's ids: 0..29 NEW, 30..43 ADDITIONS) by [new][twos][jokers][room]
cdef uint64_t WILD_MASK[2][CANASTA + 1][CANASTA + 1][CANASTA + 1]


cdef inline bint meld_shape_ok(int group, int naturals, int wilds, bint wild_sevens) noexcept nogil:
    """A meld's composition is valid (MH-4.1..4.3, 4.6, 4.7)."""
    cdef int size = naturals + wilds
    if size < MIN_MELD or size > CANASTA:
        return False
    if group == G_WILD:
        return naturals == 0
    if group == G_BLACK3:
        return wilds == 0
    if not natural_rank(group):
        return False
    if group == R_SEVEN and not wild_sevens and wilds > 0:
        return False
    return naturals >= MIN_NATURALS and wilds <= MAX_WILDS


cdef inline int canasta_type(int group, int naturals, int wilds) noexcept nogil:
    """MH-4.5: the type of a 7-card meld (CT_NONE if not a canasta)."""
    if naturals + wilds != CANASTA or group == G_BLACK3:
        return CT_NONE
    if group == G_WILD:
        return CT_WILD
    if wilds > 0:
        return CT_MIXED                 # MH-4.6: wild sevens make a mixed canasta
    if group == R_SEVEN:
        return CT_SEVENS
    return CT_NATURAL
