# cython: language_level=3
"""Manna's rollout policy: what a search's rollouts play (cardcore._search, the ``rollout``
hook), never a player's move. Uniformly random play almost never opens (MH-4.8) or makes a
canasta, so random rollouts say little about a hand's score; this cheap policy plays like
GreedyBot (greedy.py) on the counts the state already keeps. Compile time only
(included by _state); it reads the whole world it is given, a sampled one in a search."""
from libc.stdint cimport int32_t

from cardcore._fast cimport BestPick, Rng, best_pick_init, best_pick_offer
from cardcore.games.manna._rules cimport (
    R_THREE, CANASTA, G_WILD, G_BLACK3, A_DRAW, A_TAKE_ADD, A_TAKE_JOKER, A_RETRACT, A_DISCARD,
    A_GO_OUT, A_MELD, rank_points, kind_of, is_wild, is_black_three,
)
from cardcore.games.manna._melds cimport M_GROUP, M_NEW, M_N, M_T, M_J
from cardcore.games.manna._data cimport ST_DRAW, MannaData


cdef inline int rollout_meld_value(const MannaData* s, int team, int meld) noexcept nogil:
    """How good a meld (its index in the meld table) is: naturals laid, a canasta completed
    (MH-4.5) far more; wild cards spent outside the wild meld cost once the team has opened."""
    cdef int group = M_GROUP[meld], n = M_N[meld], wilds = M_T[meld] + M_J[meld]
    cdef int size = n + wilds, value = 12 * n
    if group == G_BLACK3:
        return 1000                             # MH-4.7: only offered when it goes out
    if M_NEW[meld] == 0 and s.unf[team][group] >= 0:
        size += s.melds[team][s.unf[team][group]].size
    if size == CANASTA:
        value += 400
    if group == G_WILD:
        value += 30 * wilds
    elif s.opened[team] and size != CANASTA:
        value -= 15 * wilds
    return value


cdef inline int rollout_discard_value(const MannaData* s, int p, int card) noexcept nogil:
    """Lower is a better discard: a black three first (it stops the next player, MH-5.1),
    then cheap lone cards (MH-1.3); wild cards, and ranks the opponents are melding, last."""
    cdef int kind = kind_of(card), value
    if is_black_three(card):
        return -100
    value = rank_points(kind) + 8 * (s.hand_kind[p][kind] - 1)
    if is_wild(card):
        value += 80
    elif kind != R_THREE and s.unf[1 - (p & 1)][kind] >= 0:
        value += 120                            # it would join their meld with the pile
    return value


cdef inline int mh_rollout(const void* state, const int32_t* legal, int n, Rng* rng) noexcept nogil:
    """Draw: take the pile when offered (MH-5), else the stock. Meld stage: go out when
    offered (MH-9), else the best meld worth laying, else the best discard (ties at random),
    else retract (MH-4.8). Returns an index into legal, or -1 (no preference)."""
    cdef const MannaData* s = <const MannaData*>state
    cdef int p = s.h.to_move, team = p & 1, k, a, value
    cdef BestPick pick
    best_pick_init(&pick)
    if s.h.phase == ST_DRAW:
        for k in range(n):
            if A_TAKE_ADD <= legal[k] <= A_TAKE_JOKER:
                return k                        # ids ascending: take_add first
        for k in range(n):
            if legal[k] == A_DRAW:
                return k
        return -1
    for k in range(n):
        a = legal[k]
        if A_GO_OUT <= a < A_MELD:
            return k
        if a >= A_MELD:
            value = rollout_meld_value(s, team, a - A_MELD)
        elif A_DISCARD <= a < A_GO_OUT:
            value = -1000 - rollout_discard_value(s, p, a - A_DISCARD)   # below any meld
        else:
            continue
        if a >= A_MELD and value <= 0:
            continue                            # a meld not worth laying
        best_pick_offer(&pick, k, value, rng)
    if pick.index >= 0:
        return pick.index
    for k in range(n):
        if legal[k] == A_RETRACT:
            return k
    return -1
