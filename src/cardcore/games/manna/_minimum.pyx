# cython: language_level=3, cdivision=True
"""Manna from Heaven: the initial-meld minimum search (MH-4.8, MH-5.5).

While a team has not opened, its melds of a turn must total the minimum; after taking the pile
the player must still be able to reach it. ``reach_min`` answers "can some sequence of legal
melds this turn bring the counted points to the minimum" exactly, by a DP over meld groups.
"""
from libc.string cimport memset

from cardcore.games.manna._rules cimport (
    CANASTA, MIN_MELD, MIN_NATURALS, MAX_WILDS, R_TWO, R_SEVEN, K_JOKER, G_WILD, NAT_GROUPS,
    natural_group, rank_points,
)

cdef enum:
    MAX_GROUP_OPTIONS = 64      # (naturals 0..7) x (wild cards 0..7) per group


cdef inline int wild_points(const ReachIn* q, int wilds) noexcept nogil:
    """Counted points of `wilds` wild cards used as well as possible: jokers and twos are
    interchangeable in every meld, so the counted jokers go first, then the counted twos."""
    cdef int jokers = wilds if wilds < q.cred_jokers else q.cred_jokers
    cdef int twos = wilds - jokers
    return rank_points(K_JOKER) * jokers + rank_points(R_TWO) * (twos if twos < q.cred_twos else q.cred_twos)


cdef inline int group_wild_room(const ReachIn* q, int group, int wild_total) noexcept nogil:
    """Wild cards one meld may add to a group (MH-4.2, 4.3, 4.6), at most those in hand."""
    cdef int room
    if group == R_SEVEN and not q.wild_sevens:
        room = 0
    elif group == G_WILD:
        room = CANASTA
    else:
        room = MAX_WILDS - q.ex_wild[group]
    return room if room < wild_total else wild_total


cdef inline void richest_first(int* points, int* tag, int n) noexcept nogil:
    """Sort n chunks by points, highest first, each keeping its tag (an insertion sort:
    n is at most a dozen). Stable, so equal chunks keep their order."""
    cdef int i, k, chunk_points, chunk_tag
    for i in range(1, n):
        chunk_points = points[i]
        chunk_tag = tag[i]
        k = i - 1
        while k >= 0 and points[k] < chunk_points:
            points[k + 1] = points[k]
            tag[k + 1] = tag[k]
            k -= 1
        points[k + 1] = chunk_points
        tag[k + 1] = chunk_tag


cdef int points_bound(const ReachIn* q) noexcept nogil:
    """An upper bound of the points any plan counts: every counted wild card, and per rank the
    counted naturals of the largest meld the rank can take (none if it cannot start one: a new
    meld needs two naturals, and a wild card with only two)."""
    cdef int gi, rank, size, most
    cdef int bound = q.points + rank_points(R_TWO) * q.cred_twos \
        + rank_points(K_JOKER) * q.cred_jokers
    for gi in range(NAT_GROUPS):
        rank = natural_group(gi)
        size = q.ex_size[rank]
        most = q.nat[rank] if q.nat[rank] < CANASTA - size else CANASTA - size
        if size == 0 and (most < MIN_NATURALS or (most < MIN_MELD and
                                                  group_wild_room(q, rank, q.twos + q.jokers) < 1)):
            most = 0
        bound += rank_points(rank) * (most if most < q.cred[rank] else q.cred[rank])
    return bound


cdef bint greedy_reach(const ReachIn* q) noexcept nogil:
    """A quick sufficient test: one feasible plan without a canasta. Each rank gives a chunk
    (its naturals up to 6 cards), the wild cards one more (into the wild meld); the richest
    chunks are taken until the minimum is met, sparing two cards. False = don't know."""
    cdef int rank, gi, take, size, i
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
    richest_first(points_of, cards_of, chunks)
    for i in range(chunks):
        if points_of[i] == 0:
            break
        points += points_of[i]
        cards_used += cards_of[i]
        if points >= q.need:
            return cards_used <= q.hand - 2
    return False


cdef inline int wild_room_after(const ReachIn* q, int rank, int taken, int wilds) noexcept nogil:
    """Wild cards a rank's meld can still take, no canasta made, once `taken` naturals joined
    it (a pair's own wild card not counted); 0 if the rank has no meld."""
    cdef int size = q.ex_size[rank] + taken, room
    if size == 0:
        return 0
    room = group_wild_room(q, rank, wilds)
    if room > CANASTA - 1 - size:
        room = CANASTA - 1 - size
    if q.ex_size[rank] == 0 and taken < MIN_MELD:
        room -= 1                                   # a pair's own wild card is reserved
    return room if room > 0 else 0


cdef bint greedy_wild_reach(const ReachIn* q) noexcept nogil:
    """A second sufficient test, for hands whose wild cards must go into melds. The richest
    natural chunks first, as in greedy_reach, and also pairs that start a meld with one wild
    card (MH-4.2); after each chunk, as few further wild cards as reach the minimum, placed where
    melds have room (at most 3 wild cards in a natural meld, none in sevens without wild_sevens:
    MH-4.2, 4.6) or in the wild meld (a new one takes 3 or more: MH-4.3). No meld reaches 7
    cards; two cards are kept (MH-9.3). False = don't know."""
    cdef int rank, gi, i, take, size, room, chunks = 0
    cdef int points = q.points, cards = 0, wilds = q.twos + q.jokers, natural_room, wild_size
    cdef int reserved = 0, most, fewest, w
    cdef int points_of[NAT_GROUPS]
    cdef int rank_of[NAT_GROUPS]
    for gi in range(NAT_GROUPS):
        rank = natural_group(gi)
        size = q.ex_size[rank]
        take = q.nat[rank] if q.nat[rank] < CANASTA - 1 - size else CANASTA - 1 - size
        if take <= 0 or (size == 0 and take < MIN_NATURALS):
            continue
        if size == 0 and take < MIN_MELD and group_wild_room(q, rank, wilds) < 1:
            continue                                # a pair no wild card can join
        points_of[chunks] = rank_points(rank) * (take if take < q.cred[rank] else q.cred[rank])
        rank_of[chunks] = rank
        chunks += 1
    richest_first(points_of, rank_of, chunks)
    wild_size = q.ex_size[G_WILD]
    natural_room = 0                                # further wild cards the natural melds take
    for gi in range(NAT_GROUPS):
        natural_room += wild_room_after(q, natural_group(gi), 0, wilds)
    for i in range(chunks + 1):
        if i > 0:                                   # the next chunk joins the plan
            rank = rank_of[i - 1]
            size = q.ex_size[rank]
            take = q.nat[rank] if q.nat[rank] < CANASTA - 1 - size else CANASTA - 1 - size
            if size == 0 and take < MIN_MELD:
                if reserved == wilds:
                    continue                        # no wild card left for this pair
                reserved += 1                       # the pair's wild card
            natural_room -= wild_room_after(q, rank, 0, wilds)
            natural_room += wild_room_after(q, rank, take, wilds)
            points += points_of[i - 1]
            cards += take
        most = wilds - reserved if wilds - reserved < natural_room else natural_room
        for w in range(most + 1):
            if cards + reserved + w > q.hand - 2:
                break                               # more cards break the hand-keep rule
            if points + wild_points(q, reserved + w) >= q.need:
                return True
        # The rest into the wild meld: an addition, or a new meld of 3 or more.
        fewest = natural_room + (1 if wild_size > 0 else MIN_MELD)
        most = natural_room + CANASTA - 1 - wild_size
        if most > wilds - reserved:
            most = wilds - reserved
        for w in range(fewest, most + 1):
            if cards + reserved + w > q.hand - 2:
                break
            if points + wild_points(q, reserved + w) >= q.need:
                return True
    return False


cdef inline int max_of(const int* values, int n) noexcept nogil:
    cdef int i, most = values[0]
    for i in range(1, n):
        if values[i] > most:
            most = values[i]
    return most


cdef int group_options(const ReachIn* q, int group, int wild_total, bint cards_matter,
                       int* option_wilds, int* option_cards, int* option_points,
                       int* option_canasta) noexcept nogil:
    """The options of one group (a rank, or the wild meld): every legal meld that takes it from
    its current size to `final` cards (MH-4.1..4.3, 4.6); returns their number. When the cards
    melded do not matter (cards_matter False) only the best option per (wild cards, canasta) is
    kept: more naturals never count for less."""
    cdef int held, size, wild_room, most_naturals, naturals, wilds, fewest_wilds, most_wilds
    cdef int natural_points, cards, canasta, options = 0, k
    held = 0 if group == G_WILD else q.nat[group]
    size = q.ex_size[group]
    wild_room = group_wild_room(q, group, wild_total)
    most_naturals = held if held < CANASTA - size else CANASTA - size
    for naturals in range(most_naturals, -1, -1):          # most naturals first (see above)
        if size == 0 and group != G_WILD and naturals < MIN_NATURALS:
            break
        natural_points = 0 if group == G_WILD else \
            rank_points(group) * (naturals if naturals < q.cred[group] else q.cred[group])
        fewest_wilds = 0
        if naturals == 0:
            fewest_wilds = 1                                # a meld takes at least one card
        if size == 0 and naturals < MIN_MELD:
            fewest_wilds = MIN_MELD - naturals              # a new meld has at least 3 cards
        most_wilds = min(wild_room, CANASTA - size - naturals)
        for wilds in range(fewest_wilds, most_wilds + 1):
            cards = naturals + wilds
            canasta = 1 if size + cards == CANASTA else 0
            if not cards_matter:
                # Dominated: the same wild cards and canasta flag with at least these points.
                k = 0
                while k < options and not (option_wilds[k] == wilds
                                           and option_canasta[k] == canasta):
                    k += 1
                if k < options:
                    continue
            option_wilds[options] = wilds
            option_cards[options] = cards
            option_points[options] = natural_points
            option_canasta[options] = canasta
            options += 1
    return options


cdef int reach_min(const ReachIn* q, int* work, int capacity) noexcept nogil:
    """Can a sequence of legal melds this turn bring the counted points to q.need?

    Quick answers first: no if even points_bound falls short, yes if greedy_reach or
    greedy_wild_reach finds a plan; the DP below decides the rest.

    Exact for the engine's rules: every group (rank, or the wild meld) ends the search either
    unchanged, or grown to 3..6 cards by one legal new meld or addition, or (in at most one group,
    as the last meld) completed to a canasta, which is legal only if it reaches the minimum
    (MH-4.8 Decision). Every meld but a foot-bringing canasta must leave 2 cards in hand
    (MH-9.3: one to discard, one to keep). A DP over groups with state (canasta used, wild cards
    used, cards melded) keeps the most natural points; the points of the wild cards depend
    only on how many are used (wild_points), so they are added when a state is reached: the
    search stops at the first state that reaches the minimum.
    """
    cdef int rank, gi, group, wild_total, wild_states, card_states, meld_budget, states
    cdef int canasta_used, wilds_used, cards_melded, row, option, wilds_after, cards_after
    cdef int value, reached, goal, next_state, meldable = 0, options
    cdef bint track_cards
    cdef int most_canastas, most_wilds, most_cards
    cdef int* best
    cdef int points_of_wilds[DP_WILDS]
    cdef int option_wilds[MAX_GROUP_OPTIONS]
    cdef int option_cards[MAX_GROUP_OPTIONS]
    cdef int option_points[MAX_GROUP_OPTIONS]
    cdef int option_canasta[MAX_GROUP_OPTIONS]
    if capacity < REACH_WORK:
        return -1
    if q.points >= q.need:
        return 1
    if points_bound(q) < q.need:
        return 0
    if greedy_reach(q) or greedy_wild_reach(q):
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
    for wilds_used in range(wild_states):
        points_of_wilds[wilds_used] = wild_points(q, wilds_used)
    goal = q.need - q.points      # natural points + wild points a state must reach
    # One table, updated in place: states are visited from the highest index down and every
    # option leads to an index at least as high, so no state is read after this group wrote it.
    # Only the box of states reached so far (most canastas, wild cards, cards) is visited.
    best = work
    for next_state in range(states):
        best[next_state] = -1
    best[0] = 0
    most_canastas = most_wilds = most_cards = 0
    for gi in range(NAT_GROUPS + 1):
        group = natural_group(gi) if gi < NAT_GROUPS else G_WILD
        options = group_options(q, group, wild_total, track_cards, option_wilds, option_cards,
                                option_points, option_canasta)
        if options == 0:
            continue
        for canasta_used in range(most_canastas, -1, -1):
            for wilds_used in range(most_wilds, -1, -1):
                row = (canasta_used * wild_states + wilds_used) * card_states
                for cards_melded in range(most_cards, -1, -1):
                    value = best[row + cards_melded]
                    if value < 0:
                        continue
                    for option in range(options):
                        wilds_after = wilds_used + option_wilds[option]
                        if wilds_after > wild_total or (canasta_used and option_canasta[option]):
                            continue
                        cards_after = cards_melded
                        if not (option_canasta[option] and q.foot):
                            if meld_budget < 0:
                                continue
                            if track_cards:
                                cards_after = cards_melded + option_cards[option]
                                if cards_after >= card_states:
                                    continue
                        reached = value + option_points[option]
                        if reached + points_of_wilds[wilds_after] >= goal:
                            return 1
                        next_state = ((canasta_used | option_canasta[option]) * wild_states
                                      + wilds_after) * card_states + cards_after
                        if reached > best[next_state]:
                            best[next_state] = reached
        most_canastas |= max_of(option_canasta, options)
        most_wilds += max_of(option_wilds, options)
        if most_wilds > wild_total:
            most_wilds = wild_total
        if track_cards:
            most_cards += max_of(option_cards, options)
            if most_cards > card_states - 1:
                most_cards = card_states - 1
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
