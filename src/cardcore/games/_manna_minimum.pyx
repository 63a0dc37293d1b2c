# cython: language_level=3, cdivision=True
"""Manna from Heaven: the initial-meld minimum search (MH-4.8, MH-5.5).

While a team has not opened, its melds of a turn must total the minimum; after taking the pile
the player must still be able to reach it. ``reach_min`` answers "can some sequence of legal
melds this turn bring the counted points to the minimum" exactly, by a DP over meld groups.
"""
from libc.string cimport memset

from cardcore.games._manna_rules cimport (
    CANASTA, MIN_MELD, MIN_NATURALS, MAX_WILDS, R_TWO, R_SEVEN, K_JOKER, G_WILD, NAT_GROUPS,
    natural_group, natural_rank, rank_points,
)

cdef enum:
    MAX_GROUP_OPTIONS = 64      # (naturals 0..7) x (wild cards 0..7) per group


cdef inline int wild_points(const ReachIn* q, int wilds) noexcept nogil:
    """Counted points of `wilds` wild cards used as well as possible: jokers and twos are
    interchangeable in every meld, so the counted jokers go first, then the counted twos."""
    cdef int jokers = wilds if wilds < q.cred_jokers else q.cred_jokers
    cdef int twos = wilds - jokers
    return rank_points(K_JOKER) * jokers + rank_points(R_TWO) * (twos if twos < q.cred_twos else q.cred_twos)


cdef bint greedy_reach(const ReachIn* q) noexcept nogil:
    """A quick sufficient test: one feasible plan without a canasta. Each rank gives a chunk
    (its naturals up to 6 cards), the wild cards one more (into the wild meld); the richest
    chunks are taken until the minimum is met, sparing two cards. False = don't know."""
    cdef int rank, gi, take, size, i, k, chunk_points, chunk_cards
    cdef int chunks = 0, points = q.points, cards_used = 0
    cdef int points_of[NAT_GROUPS + 1]
    cdef int cards_of[NAT_GROUPS + 1]
    for gi in range(NAT_GROUPS):
        rank = natural_group(gi)
        size = q.ex_size[rank]
        take = q.nat[rank] if q.nat[rank] < CANASTA - 1 - size else CANASTA - 1 - size
        if take <= 0 or (size == 0 and take < MIN_MELD):
            continue
        points_of[chunks] = rank_points(rank) * (take if take < q.cred[rank] else q.cred[rank])
        cards_of[chunks] = take
        chunks += 1
    size = q.ex_size[G_WILD]
    take = q.twos + q.jokers
    if take > CANASTA - 1 - size:
        take = CANASTA - 1 - size
    if take > 0 and (size > 0 or take >= MIN_MELD):
        points_of[chunks] = wild_points(q, take)
        cards_of[chunks] = take
        chunks += 1
    # Richest first (insertion sort of at most 12 chunks).
    for i in range(1, chunks):
        chunk_points = points_of[i]
        chunk_cards = cards_of[i]
        k = i - 1
        while k >= 0 and points_of[k] < chunk_points:
            points_of[k + 1] = points_of[k]
            cards_of[k + 1] = cards_of[k]
            k -= 1
        points_of[k + 1] = chunk_points
        cards_of[k + 1] = chunk_cards
    for i in range(chunks):
        if points_of[i] == 0:
            break
        points += points_of[i]
        cards_used += cards_of[i]
        if points >= q.need:
            return cards_used <= q.hand - 2
    return False


cdef int reach_min(const ReachIn* q, int* work, int capacity) noexcept nogil:
    """Can a sequence of legal melds this turn bring the counted points to q.need?

    Exact for the engine's rules: every group (rank, or the wild meld) ends the search either
    unchanged, or grown to 3..6 cards by one legal new meld or addition, or (in at most one group,
    as the last meld) completed to a canasta, which is legal only if it reaches the minimum
    (MH-4.8 Decision). Every meld but a foot-bringing canasta must leave 2 cards in hand
    (MH-9.3: one to discard, one to keep). A DP over groups with state (canasta used, wild cards
    used, cards melded) keeps the most natural points; the points of the wild cards depend
    only on how many are used (wild_points), so they are added at the end.
    """
    cdef int rank, group, gi, naturals, wilds, held, size, final, wild_room, natural_points
    cdef int cards, most_naturals, upper_bound, option
    cdef int wild_total, wild_states, card_states, meld_budget, states, state, next_state
    cdef int wilds_used, cards_melded, canasta_used, cards_after, value
    cdef int meldable = 0, options
    cdef bint track_cards
    cdef int* best
    cdef int* next_best
    cdef int* swap
    cdef int option_wilds[MAX_GROUP_OPTIONS]
    cdef int option_cards[MAX_GROUP_OPTIONS]
    cdef int option_points[MAX_GROUP_OPTIONS]
    cdef int option_canasta[MAX_GROUP_OPTIONS]
    if capacity < REACH_WORK:
        return -1
    if q.points >= q.need:
        return 1
    # Upper bound: every counted card melded.
    upper_bound = q.points + rank_points(R_TWO) * q.cred_twos + rank_points(K_JOKER) * q.cred_jokers
    for rank in range(13):
        if natural_rank(rank):
            upper_bound += rank_points(rank) * q.cred[rank]
    if upper_bound < q.need:
        return 0
    if greedy_reach(q):
        return 1
    wild_total = q.twos + q.jokers
    if wild_total > DP_WILDS - 1:
        wild_total = DP_WILDS - 1
    wild_states = wild_total + 1
    for gi in range(NAT_GROUPS):
        rank = natural_group(gi)
        meldable += q.nat[rank] if q.nat[rank] < CANASTA else CANASTA
    meldable += wild_total
    meld_budget = q.hand - 2      # cards that may be melded before a foot-bringing canasta
    track_cards = meldable > meld_budget   # needed only if the hand-keep rule can bind
    card_states = (meld_budget + 1 if meld_budget >= 0 else 1) if track_cards else 1
    if card_states > DP_CARDS:
        card_states = DP_CARDS
    states = 2 * wild_states * card_states
    best = work
    next_best = work + DP_TABLE
    for state in range(states):
        best[state] = -1
    best[0] = 0
    for gi in range(NAT_GROUPS + 1):
        group = natural_group(gi) if gi < NAT_GROUPS else G_WILD
        held = 0 if group == G_WILD else q.nat[group]
        size = q.ex_size[group]
        if group == R_SEVEN and not q.wild_sevens:
            wild_room = 0
        elif group == G_WILD:
            wild_room = CANASTA
        else:
            wild_room = MAX_WILDS - q.ex_wild[group]
        if wild_room > wild_total:
            wild_room = wild_total
        # The group's options: one legal meld taking it from `size` to `final` cards.
        options = 0
        most_naturals = held if held < CANASTA else CANASTA
        for naturals in range(most_naturals + 1):
            natural_points = 0 if group == G_WILD else \
                rank_points(group) * (naturals if naturals < q.cred[group] else q.cred[group])
            for wilds in range(wild_room + 1):
                cards = naturals + wilds
                final = size + cards
                if cards == 0 or final > CANASTA:
                    continue
                if size == 0 and (final < MIN_MELD or (group != G_WILD and naturals < MIN_NATURALS)):
                    continue
                option_wilds[options] = wilds
                option_cards[options] = cards
                option_points[options] = natural_points
                option_canasta[options] = 1 if final == CANASTA else 0
                options += 1
        if options == 0:
            continue
        for state in range(states):
            next_best[state] = best[state]          # the group left alone
        for state in range(states):
            value = best[state]
            if value < 0:
                continue
            cards_melded = state % card_states
            wilds_used = (state // card_states) % wild_states
            canasta_used = state // (card_states * wild_states)
            for option in range(options):
                wilds = option_wilds[option]
                if wilds_used + wilds > wild_total or (canasta_used and option_canasta[option]):
                    continue
                cards_after = cards_melded
                if not (option_canasta[option] and q.foot):
                    if meld_budget < 0:
                        continue
                    if track_cards:
                        cards_after = cards_melded + option_cards[option]
                        if cards_after >= card_states:
                            continue
                next_state = ((canasta_used | option_canasta[option]) * wild_states
                              + wilds_used + wilds) * card_states + cards_after
                if value + option_points[option] > next_best[next_state]:
                    next_best[next_state] = value + option_points[option]
        swap = best
        best = next_best
        next_best = swap
        # Later groups may be left alone: stop as soon as a state reaches the minimum.
        for state in range(states):
            value = best[state]
            if value >= 0 and q.points + value + wild_points(q, (state // card_states) % wild_states) >= q.need:
                return 1
    return 0


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
