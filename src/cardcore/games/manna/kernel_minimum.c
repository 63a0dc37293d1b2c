/* Manna from Heaven: the initial-meld minimum search (MH-4.8, MH-5.5), in C99.
 *
 * While a team has not opened, its melds of a turn must total the minimum; after taking the pile
 * the player must still be able to reach it. mh_reach_min answers "can some sequence of legal
 * melds this turn bring the counted points to the minimum" exactly, by a DP over meld groups.
 * _minimum.pyx wraps it for tests (py_reach_min); the rules (kernel.c) ask it.
 */
#include "cardcore/games/manna/kernel.h"

enum {
    CANASTA = MH_CANASTA,
    MIN_MELD = MH_MIN_MELD,
    MIN_NATURALS = MH_MIN_NATURALS,
    MAX_WILDS = MH_MAX_WILDS,
    K_JOKER = MH_K_JOKER,
    G_WILD = MH_G_WILD,
    NAT_GROUPS = MH_NAT_GROUPS,
    DP_WILDS = MH_DP_WILDS,
    DP_CARDS = MH_DP_CARDS,
    REACH_WORK = MH_REACH_WORK,
    MAX_GROUP_OPTIONS = 64      /* (naturals 0..7) x (wild cards 0..7) per group */
};

/* Counted points of `wilds` wild cards used as well as possible: jokers and twos are
 * interchangeable in every meld, so the counted jokers go first, then the counted twos. */
static inline int wild_points(const MHReachIn *q, int wilds) {
    int jokers = wilds < q->cred_jokers ? wilds : q->cred_jokers;
    int twos = wilds - jokers;
    return mh_rank_points(K_JOKER) * jokers
        + mh_rank_points(R_TWO) * (twos < q->cred_twos ? twos : q->cred_twos);
}

/* Wild cards one meld may add to a group (MH-4.2, 4.3, 4.6), at most those in hand. */
static inline int group_wild_room(const MHReachIn *q, int group, int wild_total) {
    int room;
    if (group == R_SEVEN && !q->wild_sevens)
        room = 0;
    else if (group == G_WILD)
        room = CANASTA;
    else
        room = MAX_WILDS - q->ex_wild[group];
    return room < wild_total ? room : wild_total;
}

/* Sort n chunks by points, highest first, each keeping its tag (an insertion sort: n is at
 * most a dozen). Stable, so equal chunks keep their order. */
static inline void richest_first(int *points, int *tag, int n) {
    int i, k, chunk_points, chunk_tag;
    for (i = 1; i < n; i++) {
        chunk_points = points[i];
        chunk_tag = tag[i];
        k = i - 1;
        while (k >= 0 && points[k] < chunk_points) {
            points[k + 1] = points[k];
            tag[k + 1] = tag[k];
            k -= 1;
        }
        points[k + 1] = chunk_points;
        tag[k + 1] = chunk_tag;
    }
}

/* An upper bound of the points any plan counts: every counted wild card, and per rank the
 * counted naturals of the largest meld the rank can take (none if it cannot start one: a new
 * meld needs two naturals, and a wild card with only two). */
static int points_bound(const MHReachIn *q) {
    int gi, rank, size, most;
    int bound = q->points + mh_rank_points(R_TWO) * q->cred_twos
        + mh_rank_points(K_JOKER) * q->cred_jokers;
    for (gi = 0; gi < NAT_GROUPS; gi++) {
        rank = mh_natural_group(gi);
        size = q->ex_size[rank];
        most = q->nat[rank] < CANASTA - size ? q->nat[rank] : CANASTA - size;
        if (size == 0 && (most < MIN_NATURALS
                          || (most < MIN_MELD && group_wild_room(q, rank, q->twos + q->jokers) < 1)))
            most = 0;
        bound += mh_rank_points(rank) * (most < q->cred[rank] ? most : q->cred[rank]);
    }
    return bound;
}

/* A quick sufficient test: one feasible plan without a canasta. Each rank gives a chunk (its
 * naturals up to 6 cards), the wild cards one more (into the wild meld); the richest chunks
 * are taken until the minimum is met, sparing two cards. 0 = don't know. */
static int greedy_reach(const MHReachIn *q) {
    int rank, gi, take, size, i;
    int chunks = 0, points = q->points, cards_used = 0;
    int points_of[NAT_GROUPS + 1];
    int cards_of[NAT_GROUPS + 1];
    for (gi = 0; gi < NAT_GROUPS; gi++) {
        rank = mh_natural_group(gi);
        size = q->ex_size[rank];
        take = q->nat[rank] < CANASTA - 1 - size ? q->nat[rank] : CANASTA - 1 - size;
        if (take <= 0 || (size == 0 && take < MIN_MELD)) continue;
        points_of[chunks] = mh_rank_points(rank) * (take < q->cred[rank] ? take : q->cred[rank]);
        cards_of[chunks] = take;
        chunks += 1;
    }
    size = q->ex_size[G_WILD];
    take = q->twos + q->jokers;
    if (take > CANASTA - 1 - size) take = CANASTA - 1 - size;
    if (take > 0 && (size > 0 || take >= MIN_MELD)) {
        points_of[chunks] = wild_points(q, take);
        cards_of[chunks] = take;
        chunks += 1;
    }
    richest_first(points_of, cards_of, chunks);
    for (i = 0; i < chunks; i++) {
        if (points_of[i] == 0) break;
        points += points_of[i];
        cards_used += cards_of[i];
        if (points >= q->need) return cards_used <= q->hand - 2;
    }
    return 0;
}

/* Wild cards a rank's meld can still take, no canasta made, once `taken` naturals joined it
 * (a pair's own wild card not counted); 0 if the rank has no meld. */
static inline int wild_room_after(const MHReachIn *q, int rank, int taken, int wilds) {
    int size = q->ex_size[rank] + taken, room;
    if (size == 0) return 0;
    room = group_wild_room(q, rank, wilds);
    if (room > CANASTA - 1 - size) room = CANASTA - 1 - size;
    if (q->ex_size[rank] == 0 && taken < MIN_MELD) room -= 1;   /* a pair's own wild card is reserved */
    return room > 0 ? room : 0;
}

/* A second sufficient test, for hands whose wild cards must go into melds. The richest natural
 * chunks first, as in greedy_reach, and also pairs that start a meld with one wild card
 * (MH-4.2); after each chunk, as few further wild cards as reach the minimum, placed where
 * melds have room (at most 3 wild cards in a natural meld, none in sevens without wild_sevens:
 * MH-4.2, 4.6) or in the wild meld (a new one takes 3 or more: MH-4.3). No meld reaches 7
 * cards; two cards are kept (MH-9.3). 0 = don't know. */
static int greedy_wild_reach(const MHReachIn *q) {
    int rank, gi, i, take, size, chunks = 0;
    int points = q->points, cards = 0, wilds = q->twos + q->jokers, natural_room, wild_size;
    int reserved = 0, most, fewest, w;
    int points_of[NAT_GROUPS];
    int rank_of[NAT_GROUPS];
    for (gi = 0; gi < NAT_GROUPS; gi++) {
        rank = mh_natural_group(gi);
        size = q->ex_size[rank];
        take = q->nat[rank] < CANASTA - 1 - size ? q->nat[rank] : CANASTA - 1 - size;
        if (take <= 0 || (size == 0 && take < MIN_NATURALS)) continue;
        if (size == 0 && take < MIN_MELD && group_wild_room(q, rank, wilds) < 1)
            continue;                               /* a pair no wild card can join */
        points_of[chunks] = mh_rank_points(rank) * (take < q->cred[rank] ? take : q->cred[rank]);
        rank_of[chunks] = rank;
        chunks += 1;
    }
    richest_first(points_of, rank_of, chunks);
    wild_size = q->ex_size[G_WILD];
    natural_room = 0;                               /* further wild cards the natural melds take */
    for (gi = 0; gi < NAT_GROUPS; gi++)
        natural_room += wild_room_after(q, mh_natural_group(gi), 0, wilds);
    for (i = 0; i < chunks + 1; i++) {
        if (i > 0) {                                /* the next chunk joins the plan */
            rank = rank_of[i - 1];
            size = q->ex_size[rank];
            take = q->nat[rank] < CANASTA - 1 - size ? q->nat[rank] : CANASTA - 1 - size;
            if (size == 0 && take < MIN_MELD) {
                if (reserved == wilds) continue;    /* no wild card left for this pair */
                reserved += 1;                      /* the pair's wild card */
            }
            natural_room -= wild_room_after(q, rank, 0, wilds);
            natural_room += wild_room_after(q, rank, take, wilds);
            points += points_of[i - 1];
            cards += take;
        }
        most = wilds - reserved < natural_room ? wilds - reserved : natural_room;
        for (w = 0; w < most + 1; w++) {
            if (cards + reserved + w > q->hand - 2) break;   /* more cards break the hand-keep rule */
            if (points + wild_points(q, reserved + w) >= q->need) return 1;
        }
        /* The rest into the wild meld: an addition, or a new meld of 3 or more. */
        fewest = natural_room + (wild_size > 0 ? 1 : MIN_MELD);
        most = natural_room + CANASTA - 1 - wild_size;
        if (most > wilds - reserved) most = wilds - reserved;
        for (w = fewest; w < most + 1; w++) {
            if (cards + reserved + w > q->hand - 2) break;
            if (points + wild_points(q, reserved + w) >= q->need) return 1;
        }
    }
    return 0;
}

static inline int max_of(const int *values, int n) {
    int i, most = values[0];
    for (i = 1; i < n; i++)
        if (values[i] > most) most = values[i];
    return most;
}

/* The options of one group (a rank, or the wild meld): every legal meld that takes it from its
 * current size to `final` cards (MH-4.1..4.3, 4.6); returns their number. When the cards
 * melded do not matter (cards_matter 0) only the best option per (wild cards, canasta) is
 * kept: more naturals never count for less. */
static int group_options(const MHReachIn *q, int group, int wild_total, int cards_matter,
                         int *option_wilds, int *option_cards, int *option_points,
                         int *option_canasta) {
    int held, size, wild_room, most_naturals, naturals, wilds, fewest_wilds, most_wilds;
    int natural_points, cards, canasta, options = 0, k;
    held = group == G_WILD ? 0 : q->nat[group];
    size = q->ex_size[group];
    wild_room = group_wild_room(q, group, wild_total);
    most_naturals = held < CANASTA - size ? held : CANASTA - size;
    for (naturals = most_naturals; naturals > -1; naturals--) {   /* most naturals first (see above) */
        if (size == 0 && group != G_WILD && naturals < MIN_NATURALS) break;
        natural_points = group == G_WILD ? 0
            : mh_rank_points(group) * (naturals < q->cred[group] ? naturals : q->cred[group]);
        fewest_wilds = 0;
        if (naturals == 0) fewest_wilds = 1;                  /* a meld takes at least one card */
        if (size == 0 && naturals < MIN_MELD)
            fewest_wilds = MIN_MELD - naturals;               /* a new meld has at least 3 cards */
        most_wilds = wild_room < CANASTA - size - naturals ? wild_room : CANASTA - size - naturals;
        for (wilds = fewest_wilds; wilds < most_wilds + 1; wilds++) {
            cards = naturals + wilds;
            canasta = size + cards == CANASTA ? 1 : 0;
            if (!cards_matter) {
                /* Dominated: the same wild cards and canasta flag with at least these points. */
                k = 0;
                while (k < options && !(option_wilds[k] == wilds && option_canasta[k] == canasta))
                    k += 1;
                if (k < options) continue;
            }
            option_wilds[options] = wilds;
            option_cards[options] = cards;
            option_points[options] = natural_points;
            option_canasta[options] = canasta;
            options += 1;
        }
    }
    return options;
}

/* Can a sequence of legal melds this turn bring the counted points to q->need?
 *
 * Quick answers first: no if even points_bound falls short, yes if greedy_reach or
 * greedy_wild_reach finds a plan; the DP below decides the rest.
 *
 * Exact for the engine's rules: every group (rank, or the wild meld) ends the search either
 * unchanged, or grown to 3..6 cards by one legal new meld or addition, or (in at most one group,
 * as the last meld) completed to a canasta, which is legal only if it reaches the minimum
 * (MH-4.8 Decision). Every meld but a foot-bringing canasta must leave 2 cards in hand (MH-9.3:
 * one to discard, one to keep). A DP over groups with state (canasta used, wild cards used,
 * cards melded) keeps the most natural points; the points of the wild cards depend only on how
 * many are used (wild_points), so they are added when a state is reached: the search stops at
 * the first state that reaches the minimum. */
int mh_reach_min(const MHReachIn *q, int *work, int capacity) {
    int rank, gi, group, wild_total, wild_states, card_states, meld_budget, states;
    int canasta_used, wilds_used, cards_melded, row, option, wilds_after, cards_after;
    int value, reached, goal, next_state, meldable = 0, options;
    int track_cards;
    int most_canastas, most_wilds, most_cards;
    int *best;
    int points_of_wilds[DP_WILDS];
    int option_wilds[MAX_GROUP_OPTIONS];
    int option_cards[MAX_GROUP_OPTIONS];
    int option_points[MAX_GROUP_OPTIONS];
    int option_canasta[MAX_GROUP_OPTIONS];
    if (capacity < REACH_WORK) return -1;
    if (q->points >= q->need) return 1;
    if (points_bound(q) < q->need) return 0;
    if (greedy_reach(q) || greedy_wild_reach(q)) return 1;
    wild_total = q->twos + q->jokers;
    if (wild_total > DP_WILDS - 1) wild_total = DP_WILDS - 1;
    wild_states = wild_total + 1;
    for (gi = 0; gi < NAT_GROUPS; gi++) {
        rank = mh_natural_group(gi);
        meldable += q->nat[rank] < CANASTA ? q->nat[rank] : CANASTA;
    }
    meldable += wild_total;
    meld_budget = q->hand - 2;      /* cards that may be melded before a foot-bringing canasta */
    track_cards = meldable > meld_budget;   /* needed only if the hand-keep rule can bind */
    card_states = track_cards ? (meld_budget >= 0 ? meld_budget + 1 : 1) : 1;
    if (card_states > DP_CARDS) card_states = DP_CARDS;
    states = 2 * wild_states * card_states;
    for (wilds_used = 0; wilds_used < wild_states; wilds_used++)
        points_of_wilds[wilds_used] = wild_points(q, wilds_used);
    goal = q->need - q->points;     /* natural points + wild points a state must reach */
    /* One table, updated in place: states are visited from the highest index down and every
     * option leads to an index at least as high, so no state is read after this group wrote it.
     * Only the box of states reached so far (most canastas, wild cards, cards) is visited. */
    best = work;
    for (next_state = 0; next_state < states; next_state++) best[next_state] = -1;
    best[0] = 0;
    most_canastas = most_wilds = most_cards = 0;
    for (gi = 0; gi < NAT_GROUPS + 1; gi++) {
        group = gi < NAT_GROUPS ? mh_natural_group(gi) : G_WILD;
        options = group_options(q, group, wild_total, track_cards, option_wilds, option_cards,
                                option_points, option_canasta);
        if (options == 0) continue;
        for (canasta_used = most_canastas; canasta_used > -1; canasta_used--) {
            for (wilds_used = most_wilds; wilds_used > -1; wilds_used--) {
                row = (canasta_used * wild_states + wilds_used) * card_states;
                for (cards_melded = most_cards; cards_melded > -1; cards_melded--) {
                    value = best[row + cards_melded];
                    if (value < 0) continue;
                    for (option = 0; option < options; option++) {
                        wilds_after = wilds_used + option_wilds[option];
                        if (wilds_after > wild_total || (canasta_used && option_canasta[option]))
                            continue;
                        cards_after = cards_melded;
                        if (!(option_canasta[option] && q->foot)) {
                            if (meld_budget < 0) continue;
                            if (track_cards) {
                                cards_after = cards_melded + option_cards[option];
                                if (cards_after >= card_states) continue;
                            }
                        }
                        reached = value + option_points[option];
                        if (reached + points_of_wilds[wilds_after] >= goal) return 1;
                        next_state = ((canasta_used | option_canasta[option]) * wild_states
                                      + wilds_after) * card_states + cards_after;
                        if (reached > best[next_state]) best[next_state] = reached;
                    }
                }
            }
        }
        most_canastas |= max_of(option_canasta, options);
        most_wilds += max_of(option_wilds, options);
        if (most_wilds > wild_total) most_wilds = wild_total;
        if (track_cards) {
            most_cards += max_of(option_cards, options);
            if (most_cards > card_states - 1) most_cards = card_states - 1;
        }
    }
    return 0;
}
