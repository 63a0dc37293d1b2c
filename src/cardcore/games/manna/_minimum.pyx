# cython: language_level=3, cdivision=True
"""Manna from Heaven: the initial-meld minimum search (MH-4.8, MH-5.5).

While a team has not opened, its melds of a turn must total the minimum; after taking the pile
the player must still be able to reach it. ``reach_min`` answers "can some sequence of legal
melds this turn bring the counted points to the minimum" exactly, by a DP over meld groups.
The search is the C kernel's (kernel_minimum.c, ``mh_reach_min``); this module is its Python
face for tests and tools.
"""
from libc.string cimport memset

from cardcore.games.manna._rules cimport NGROUPS, CANASTA

cdef extern from "cardcore/games/manna/kernel.h" nogil:
    ctypedef struct ReachIn "MHReachIn":
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
    enum:
        REACH_WORK "MH_REACH_WORK"      # ints of work space reach_min needs: one table
    ctypedef struct ReachWork "MHReachWork":
        int cells[REACH_WORK]
    # 1 = reachable, 0 = not; -1 if capacity (ints at work) is below REACH_WORK.
    int reach_min "mh_reach_min"(const ReachIn* q, int* work, int capacity) noexcept


def py_reach_min(nat, cred, int twos, int jokers, int cred_twos, int cred_jokers,
                 ex_size, ex_wild, int hand, int points, int need, bint foot,
                 bint wild_sevens=False) -> bool:
    """Python face of reach_min for tests: nat/cred per rank (13), ex_* per group (15)."""
    cdef ReachIn q
    cdef ReachWork work
    memset(&q, 0, sizeof(ReachIn))
    if len(nat) != 13 or len(cred) != 13 or len(ex_size) != NGROUPS or len(ex_wild) != NGROUPS:
        raise ValueError("nat/cred need 13 entries, ex_size/ex_wild 15")
    for r in range(13):
        if not 0 <= cred[r] <= nat[r] <= 64:
            raise ValueError("0 <= cred <= nat <= 64")
        q.nat[r] = nat[r]
        q.cred[r] = cred[r]
    for g in range(NGROUPS):
        if not 0 <= ex_size[g] < CANASTA or not 0 <= ex_wild[g] <= ex_size[g]:
            raise ValueError("an unfinished meld has 0..6 cards")
        q.ex_size[g] = ex_size[g]
        q.ex_wild[g] = ex_wild[g]
    if not (0 <= cred_twos <= twos <= 64 and 0 <= cred_jokers <= jokers <= 64 and 0 <= hand < 250):
        raise ValueError("counts out of range")
    q.twos = twos; q.jokers = jokers; q.cred_twos = cred_twos; q.cred_jokers = cred_jokers
    q.hand = hand; q.points = points; q.need = need; q.foot = foot; q.wild_sevens = wild_sevens
    return reach_min(&q, work.cells, REACH_WORK) == 1
