# cython: language_level=3
"""Manna's initial-minimum search (MH-4.8, MH-5.5): can the melds of this turn still bring the
counted points to the minimum?"""
from cardcore.games.manna._rules cimport NGROUPS

ctypedef struct ReachIn:
    int nat[13]            # naturals in hand per rank (all of them)
    int cred[13]           # of those, how many count toward the minimum
    int twos, jokers, cred_twos, cred_jokers
    int ex_size[NGROUPS]   # the team's unfinished meld per group: size (0 = none)
    int ex_wild[NGROUPS]   # and its wild cards
    int hand               # cards in hand
    int points             # points already counted this turn
    int need               # the minimum
    bint foot              # the player still has the foot (a canasta would bring it: hand >= 3)
    bint wild_sevens

# The DP's tables: best[canasta_used][wilds_used][cards_melded] = most natural points.
cdef enum:
    DP_WILDS = 25           # wild cards used: at most 16 twos + 8 jokers, plus zero
    DP_CARDS = 104          # cards melded (tracked only when the hand-keep rule can bind)
    DP_TABLE = 2 * DP_WILDS * DP_CARDS
    REACH_WORK = DP_TABLE       # ints of work space reach_min needs: one table

ctypedef struct ReachWork:
    int cells[REACH_WORK]

# 1 = reachable, 0 = not; -1 if capacity (ints at work) is below REACH_WORK.
cdef int reach_min(const ReachIn* q, int* work, int capacity) noexcept nogil
