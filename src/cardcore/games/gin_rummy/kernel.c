/* Gin Rummy's kernel (rules: games/gin_rummy.md, rule IDs GR-x.y), exactly as OpenSpiel's
 * ``gin_rummy`` plays it: the deal, legality, apply, the meld and deadwood arithmetic,
 * scoring, the per-seat projection, the zones, sample_hidden and GreedyBot's policy, over the
 * core's kernel interface; the hook table GR_HOOKS and the ABI's GR_KERNEL (options, init,
 * action labels, composition). C99, no global that changes, nothing from libc but
 * memcpy/memset. kernel.h describes the card indices and the action ids.
 *
 * The core has no meld detection a rummy can use (Kuzanasta's and Manna's kernels keep
 * theirs, for their own melds: sets of a rank with wild cards), so the melds are here: a hand
 * is a 64-bit mask of OpenSpiel indices, a meld a mask, and the best arrangement a
 * depth-first search over the hand's few melds. */
#include "cardcore/games/gin_rummy/kernel.h"

enum {
    PLAYERS = GR_PLAYERS,
    NUM_CARDS = GR_NUM_CARDS,
    WALL = GR_WALL,
    A_DRAW_UPCARD = GR_A_DRAW_UPCARD,
    A_DRAW_STOCK = GR_A_DRAW_STOCK,
    A_PASS = GR_A_PASS,
    A_KNOCK = GR_A_KNOCK,
    A_MELD = GR_A_MELD,
    NUM_MELDS = GR_NUM_MELDS,
    NUM_ACTIONS = GR_NUM_ACTIONS,
    MAX_LEGAL = GR_MAX_LEGAL,
    PH_FIRST_UPCARD = GR_PH_FIRST_UPCARD,
    PH_DRAW = GR_PH_DRAW,
    PH_DISCARD = GR_PH_DISCARD,
    PH_KNOCK = GR_PH_KNOCK,
    PH_LAYOFF = GR_PH_LAYOFF,
    PH_WALL = GR_PH_WALL,
    PH_OVER = GR_PH_OVER,
    Z_HAND = GR_Z_HAND,
    Z_STOCK = GR_Z_STOCK,
    Z_UPCARD = GR_Z_UPCARD,
    Z_DISCARD = GR_Z_DISCARD,
    Z_MELDS = GR_Z_MELDS,
    NUM_ZONES = GR_NUM_ZONES,
    NUM_PIECES = GR_NUM_PIECES,
    RANK_MELDS = 65,              /* meld ids 0..64: five per rank */
    RUN3 = 65, RUN4 = 109, RUN5 = 149,   /* the first id of the runs of 3, 4 and 5 */
    MAX_HAND_MELDS = 48           /* melds within 11 cards: at most 9 + 8 + 7 of one suit, ... */
};

typedef char gr_core_is_large_enough[
    ((int)NUM_CARDS <= (int)PILE_CAPACITY && (int)GR_MAX_ROWS <= (int)MAX_BREAKDOWN_ROWS) ? 1 : -1];

static inline uint64_t bit(int card) { return (uint64_t)1 << card; }
static inline int other(int p) { return 1 - p; }

/* The largest index in a non-empty mask. */
static inline int highest_card(uint64_t mask) {
    int c = 63;
    while (!(mask & bit(c))) c -= 1;
    return c;
}

/* ---------------------------------------------------------------- melds (GR-1.4) */
/* OpenSpiel's meld ids: rank r's four sets of three (by the suit left out, s c d h) and its
 * set of four are 5r..5r+4; then the runs of 3, 4 and 5 by suit and lowest rank. */
uint64_t gr_meld_mask(int meld) {
    int r, k, s;
    uint64_t m = 0;
    if (meld < RANK_MELDS) {
        r = meld / 5;
        k = meld % 5;
        for (s = 0; s < 4; s++)
            if (k == 4 || s != k) m |= bit(s * 13 + r);
        return m;
    }
    if (meld < RUN4) return (uint64_t)7 << ((meld - RUN3) / 11 * 13 + (meld - RUN3) % 11);
    if (meld < RUN5) return (uint64_t)15 << ((meld - RUN4) / 10 * 13 + (meld - RUN4) % 10);
    return (uint64_t)31 << ((meld - RUN5) / 9 * 13 + (meld - RUN5) % 9);
}

int gr_mask_value(uint64_t cards) {
    int total = 0;
    while (cards) {
        total += gr_card_value(lowest_card(cards));
        cards &= cards - 1;
    }
    return total;
}

/* The melds within a hand. */
typedef struct Melds {
    int n;
    int16_t id[MAX_HAND_MELDS];
    uint64_t mask[MAX_HAND_MELDS];
    int value[MAX_HAND_MELDS];
} Melds;

/* A meld's points: a set's rank value three or four times, a run's ranks added up. */
static inline int meld_value(int id) {
    int low, len, v = 0, r;
    if (id < RANK_MELDS) return gr_card_value(id / 5) * (id % 5 == 4 ? 4 : 3);
    if (id < RUN4) { low = (id - RUN3) % 11; len = 3; }
    else if (id < RUN5) { low = (id - RUN4) % 10; len = 4; }
    else { low = (id - RUN5) % 9; len = 5; }
    for (r = low; r < low + len; r++) v += r < 9 ? r + 1 : 10;
    return v;
}

static inline void add_meld(Melds *m, int id) {
    m->id[m->n] = (int16_t)id;
    m->mask[m->n] = gr_meld_mask(id);
    m->value[m->n] = meld_value(id);
    m->n += 1;
}

/* The lowest ranks a run of `len` may start at, in every suit (a run stays in its suit). */
static inline uint64_t run_starts(int len) {
    uint64_t row = ((uint64_t)1 << (14 - len)) - 1;
    return row | row << 13 | row << 26 | row << 39;
}

/* The hand's melds in OpenSpiel's AllMelds order (it decides which of two equally good
 * arrangements GR-5.1's deadwood of eleven cards keeps): sets of four with two of their sets
 * of three, then the other sets of three, rank by rank; then the runs of 5, 4 and 3. Bit
 * arithmetic finds them (a rank's four suits as four 13-bit rows, a run as shifted ANDs):
 * search and greedy rollouts call this for every draw and discard considered. */
static void hand_melds(uint64_t hand, Melds *m) {
    uint64_t a = hand & 0x1FFF, b = hand >> 13 & 0x1FFF, c = hand >> 26 & 0x1FFF,
             d = hand >> 39 & 0x1FFF, four = a & b & c & d,
             three = ((a & b & (c | d)) | (c & d & (a | b))) & ~four, rest, runs;
    int r, k;
    m->n = 0;
    for (rest = four; rest; rest &= rest - 1) {
        r = lowest_card(rest);
        add_meld(m, r * 5 + 4);
        add_meld(m, r * 5 + 2);           /* cards 0 1 3 of the rank: suit 2 left out */
        add_meld(m, r * 5 + 1);
    }
    for (rest = four | three; rest; rest &= rest - 1) {
        r = lowest_card(rest);
        if (four & bit(r)) {
            add_meld(m, r * 5 + 3);
            add_meld(m, r * 5 + 0);
        } else {
            for (k = 0; k < 4; k++)
                if (!(hand & bit(k * 13 + r))) add_meld(m, r * 5 + k);
        }
    }
    runs = hand & hand >> 1 & hand >> 2;
    for (rest = runs & hand >> 3 & hand >> 4 & run_starts(5); rest; rest &= rest - 1)
        add_meld(m, RUN5 + lowest_card(rest) / 13 * 9 + lowest_card(rest) % 13);
    for (rest = runs & hand >> 3 & run_starts(4); rest; rest &= rest - 1)
        add_meld(m, RUN4 + lowest_card(rest) / 13 * 10 + lowest_card(rest) % 13);
    for (rest = runs & run_starts(3); rest; rest &= rest - 1)
        add_meld(m, RUN3 + lowest_card(rest) / 13 * 11 + lowest_card(rest) % 13);
}

/* The most value melds can take out of the cards, and the first arrangement (in OpenSpiel's
 * order: its depth-first search visits arrangements in this order) that does. */
typedef struct Best {
    int value;
    uint64_t used;
} Best;

static void best_from(const Melds *m, int start, uint64_t used, int value, Best *best) {
    int i;
    if (value > best->value) {
        best->value = value;
        best->used = used;
    }
    for (i = start; i < m->n; i++)
        if (!(m->mask[i] & used)) best_from(m, i + 1, used | m->mask[i], value + m->value[i], best);
}

static Best best_melds(uint64_t cards) {
    Melds m;
    Best best;
    hand_melds(cards, &m);
    best.value = 0;
    best.used = 0;
    best_from(&m, 0, 0, 0, &best);
    return best;
}

/* The most value the melds of `m` that avoid the cards `without` can take: the melds of a
 * hand less some cards are the hand's melds that avoid them (greedy finds the hand's once). */
static int best_value_without(const Melds *m, uint64_t without) {
    Best best;
    best.value = 0;
    best.used = 0;
    best_from(m, 0, without, 0, &best);
    return best.value;
}

/* GR-5.1: OpenSpiel's MinDeadwood. With hand_size + 1 cards the dearest card left out of the
 * first best arrangement is the discard to come and does not count. */
int gr_min_deadwood(uint64_t cards, int hand_size) {
    Best best = best_melds(cards);
    uint64_t dead = cards & ~best.used;
    int total = gr_mask_value(dead), top = 0, c;
    if (popcount64(cards) == hand_size + 1 && dead) {
        for (; dead; dead &= dead - 1)            /* the highest rank (its value is the most) */
            if (gr_card_value(c = lowest_card(dead)) > top) top = gr_card_value(c);
        total -= top;
    }
    return total;
}

/* GR-6.3, GR-7.2: the melds that some arrangement leaving at most `limit` points of
 * deadwood uses (OpenSpiel's LegalMelds), as a mask over meld ids (three words). */
static void legal_melds(uint64_t hand, int limit, uint64_t *ids) {
    Melds m;
    int i, total = gr_mask_value(hand);
    ids[0] = ids[1] = ids[2] = ids[3] = 0;
    hand_melds(hand, &m);
    for (i = 0; i < m.n; i++)
        if (total - m.value[i] - best_value_without(&m, m.mask[i]) <= limit)
            ids[m.id[i] >> 6] |= bit(m.id[i] & 63);
}

/* GR-6.2: the discards after which the ten cards can be melded down to the knock card. */
static uint64_t legal_knock_discards(uint64_t hand, int hand_size, int limit) {
    uint64_t out = 0, rest = hand, c1;
    int c;
    while (rest) {
        c = lowest_card(rest);
        rest &= rest - 1;
        c1 = hand & ~bit(c);
        if (gr_min_deadwood(c1, hand_size) <= limit) out |= bit(c);
    }
    return out;
}

/* GR-7.1: the cards that may be laid off on the knocker's melds now (OpenSpiel's
 * AllLayoffs: a set of three takes its fourth card; a run its next card at either end, past
 * the cards laid off there, at most layoff_limit of them at each end: GR-7.4). */
static uint64_t run_end(uint64_t laid, int card, int step, int limit) {
    int n;
    for (n = 0; n < limit; n++) {
        if ((step < 0 && card % 13 == 0) || (step > 0 && card % 13 == 12)) return 0;
        card += step;
        if (!(laid & bit(card))) return bit(card);
    }
    return 0;
}

static uint64_t all_layoffs(const GRState *s, int knocker) {
    uint64_t out = 0, m, laid = 0;
    int i, id, limit = s->opt.layoff_limit;
    for (i = 0; i < s->n_layoffs; i++) laid |= bit(s->layoffs[i]);
    for (i = 0; i < s->n_melds[knocker]; i++) {
        id = s->melds[knocker][i];
        m = gr_meld_mask(id);
        if (id < RANK_MELDS) {
            if (id % 5 != 4) out |= bit(id % 5 * 13 + id / 5);
            continue;
        }
        out |= run_end(laid, lowest_card(m), -1, limit) | run_end(laid, highest_card(m), 1, limit);
    }
    return out;
}

/* ---------------------------------------------------------------- the zones: who sees what */
static const ZoneSpec ZONES[NUM_ZONES] = {
    {"hand", ZONE_SEAT, 0, SEEN_BY_OWNER},
    {"stock", ZONE_SHARED, 0, SEEN_BY_NONE},
    {"upcard", ZONE_SHARED, 0, SEEN_BY_ALL},
    {"discard", ZONE_SHARED, 0, SEEN_BY_ALL},
    {"melds", ZONE_SEAT, 0, SEEN_BY_ALL},
};

static int mask_ids(uint64_t cards, uint8_t *out) {
    int n = 0, c;
    for (c = 0; c < NUM_CARDS; c++)              /* cardcore id order */
        if (cards & bit(gr_os_index(c))) out[n++] = (uint8_t)c;
    return n;
}

/* The laid melds of a seat and the cards laid off on them, as a mask. */
static uint64_t table_of(const GRState *s, int p) {
    uint64_t m = 0;
    int i;
    for (i = 0; i < s->n_melds[p]; i++) m |= gr_meld_mask(s->melds[p][i]);
    if (s->knocked[p])
        for (i = 0; i < s->n_layoffs; i++) m |= bit(s->layoffs[i]);
    return m;
}

int gr_zone_cards(const void *state, int zone, int instance, uint8_t *out) {
    const GRState *s = (const GRState *)state;
    int i;
    if (zone == Z_HAND) return mask_ids(s->hand[instance], out);
    if (zone == Z_MELDS) return mask_ids(table_of(s, instance), out);
    if (zone == Z_UPCARD) {
        if (s->upcard < 0) return 0;
        out[0] = (uint8_t)gr_card_id(s->upcard);
        return 1;
    }
    if (zone == Z_STOCK) {
        for (i = 0; i < s->stock.size; i++) out[i] = (uint8_t)gr_card_id(s->stock.cards[i]);
        return s->stock.size;
    }
    for (i = 0; i < s->discard.size; i++) out[i] = (uint8_t)gr_card_id(s->discard.cards[i]);
    return s->discard.size;
}

/* The cards of a hand every seat knows: taken face up from the upcard (GR-9.2). */
static int gr_known_cards(const void *state, int zone, int instance, uint8_t *out) {
    const GRState *s = (const GRState *)state;
    if (zone == Z_HAND) return mask_ids(s->known[instance], out);
    return 0;
}

/* ---------------------------------------------------------------- the deal (GR-2) */
/* A hand: the header's dealer deals the other seat's cards first, then its own, then the
 * upcard (GR-2.1, GR-2.3); the other seat acts first (GR-2.2, GR-11.4). A stacked deck deals
 * the first hand only; the later hands are shuffled with the game's generator. */
static void new_hand(GRState *s) {
    uint8_t order[NUM_CARDS];
    int i, p, hs = s->opt.hand_size, first = other(s->h.dealer);
    deal_prologue(&s->h, s->deck, NUM_CARDS, order);
    s->hand[first] = s->hand[s->h.dealer] = 0;
    for (i = 0; i < hs; i++) s->hand[first] |= bit(gr_os_index(order[i]));
    for (i = hs; i < 2 * hs; i++) s->hand[s->h.dealer] |= bit(gr_os_index(order[i]));
    s->upcard = gr_os_index(order[2 * hs]);       /* GR-2.3 */
    s->prev_upcard = -1;
    s->stock.size = 0;
    for (i = NUM_CARDS - 1; i > 2 * hs; i--) pile_push(&s->stock, gr_os_index(order[i]));
    s->discard.size = 0;
    s->knock_card = s->opt.knock_card;
    if (s->opt.oklahoma) {                        /* GR-3.3 */
        s->knock_card = gr_card_value(s->upcard);
        if (s->knock_card == 1) s->knock_card = 0;
    }
    for (p = 0; p < PLAYERS; p++) {               /* the last hand's table is cleared */
        s->known[p] = 0;
        s->deadwood[p] = 0;
        s->knocked[p] = 0;
        s->passed_first[p] = 0;
        s->n_melds[p] = 0;
    }
    s->finished_layoffs = 0;
    s->repeated_move = 0;
    s->draw_upcards = 0;
    s->n_layoffs = 0;
    s->drawn = -1;
    s->taken = -1;
    s->big_gin = 0;
    s->h.phase = PH_FIRST_UPCARD;
    s->h.to_move = first;
}

/* GR-2.2: seat 1 deals the first hand (and every hand without match_to). */
static void gr_start(void *state) {
    GRState *s = (GRState *)state;
    s->h.dealer = 1;
    s->total[0] = s->total[1] = 0;
    s->hands_won[0] = s->hands_won[1] = 0;
    s->last_knocker = -1;
    new_hand(s);
}

/* ---------------------------------------------------------------- legality */
static int push_mask(int32_t *out, int n, uint64_t cards) {
    while (cards) {
        out[n++] = lowest_card(cards);
        cards &= cards - 1;
    }
    return n;
}

static int push_melds(int32_t *out, int n, const uint64_t *ids) {
    int w;
    uint64_t m;
    for (w = 0; w < 3; w++) {
        m = ids[w];
        while (m) {
            out[n++] = A_MELD + w * 64 + lowest_card(m);
            m &= m - 1;
        }
    }
    return n;
}

/* GR-4.2: the discard the rule forbids now (the upcard taken this turn), as a mask. */
static inline uint64_t banned_discard(const GRState *s) {
    return s->opt.rediscard_upcard || s->taken < 0 ? 0 : bit(s->taken);
}

/* GR-5.1: a knock needs the deadwood at most the knock card and a discard that keeps it so
 * (GR-6.2). The second holds whenever the first does, but with a hand of 3, 6 or 9 cards all
 * in sets of three and a knock card under 2 (hand_size 2, 5, 8): there OpenSpiel's knock
 * leaves no legal move, and ours is not offered (a Decision); or when that discard is the
 * upcard just taken and GR-4.2 forbids it (`banned`). */
static int can_knock(const GRState *s, uint64_t hand, int deadwood, uint64_t banned) {
    if (deadwood > s->knock_card) return 0;
    if (!banned && (deadwood > 0 || s->opt.hand_size == 10 || s->opt.hand_size % 3 != 2)) return 1;
    return (legal_knock_discards(hand, s->opt.hand_size, s->knock_card) & ~banned) != 0;
}

/* GR-6.4: big gin, when the option is on: the knocker's eleven cards all meld. */
static int big_gin_possible(const GRState *s, uint64_t hand) {
    return s->opt.big_gin_bonus > 0 && best_melds(hand).value == gr_mask_value(hand);
}

static int gr_legal(void *state, int32_t *out, int capacity) {
    GRState *s = (GRState *)state;
    int p = s->h.to_move, n = 0, hs = s->opt.hand_size, limit;
    uint64_t hand, ids[4];
    if (capacity < MAX_LEGAL) return -1;
    if (p < 0) return 0;
    hand = s->hand[p];
    switch (s->h.phase) {
    case PH_FIRST_UPCARD:                         /* GR-3.1, GR-3.2 */
        if (s->passed_first[0] && s->passed_first[1]) {
            out[n++] = A_DRAW_STOCK;
        } else {
            out[n++] = A_DRAW_UPCARD;
            out[n++] = A_PASS;
        }
        return n;
    case PH_DRAW:                                 /* GR-4.1 */
        out[n++] = A_DRAW_UPCARD;
        out[n++] = A_DRAW_STOCK;
        return n;
    case PH_DISCARD:                              /* GR-4.1, GR-4.2, GR-5.1 */
        n = push_mask(out, 0, hand & ~banned_discard(s));
        if (can_knock(s, hand, s->deadwood[p], banned_discard(s))) out[n++] = A_KNOCK;
        return n;
    case PH_KNOCK:                                /* GR-6 */
        if (popcount64(hand) == hs + 1 && !s->big_gin) {
            n = push_mask(out, 0, legal_knock_discards(hand, hs, s->knock_card) & ~banned_discard(s));
            if (big_gin_possible(s, hand)) out[n++] = A_PASS;          /* GR-6.4 */
            return n;
        }
        limit = s->big_gin ? 0 : s->knock_card;  /* GR-6.4: big gin lays every card */
        if (gr_mask_value(hand) <= limit) out[n++] = A_PASS;
        legal_melds(hand, limit, ids);
        return push_melds(out, n, ids);
    case PH_LAYOFF:                               /* GR-7 */
        if (!s->finished_layoffs) {
            n = push_mask(out, 0, hand & all_layoffs(s, other(p)));
            out[n++] = A_PASS;
            return n;
        }
        out[n++] = A_PASS;
        legal_melds(hand, GR_MAX_DEADWOOD, ids);
        return push_melds(out, n, ids);
    case PH_WALL:                                 /* GR-5.2 (GR-4.2: the knock takes the upcard) */
        out[n++] = A_PASS;
        if (can_knock(s, hand | bit(s->upcard), gr_min_deadwood(hand | bit(s->upcard), hs),
                      s->opt.rediscard_upcard ? 0 : bit(s->upcard)))
            out[n++] = A_KNOCK;
        return n;
    default:
        return 0;
    }
}

/* ---------------------------------------------------------------- applying */
static void end_game(GRState *s, int reason);

static void take_upcard(GRState *s, int p) {
    s->taken = s->upcard;                         /* GR-4.2 */
    s->hand[p] |= bit(s->upcard);
    s->known[p] |= bit(s->upcard);
    s->upcard = -1;
}

static void take_stock(GRState *s, int p) {
    int card = pile_pop(&s->stock);
    s->hand[p] |= bit(card);
    s->drawn = card;
    s->taken = -1;
    s->deadwood[p] = gr_min_deadwood(s->hand[p], s->opt.hand_size);
    s->h.phase = PH_DISCARD;
}

static void remove_card(GRState *s, int p, int card) {
    s->hand[p] &= ~bit(card);
    s->known[p] &= ~bit(card);
}

static void lay_meld(GRState *s, int p, int meld) {
    uint64_t m = gr_meld_mask(meld);
    s->melds[p][s->n_melds[p]++] = (uint8_t)meld;
    s->hand[p] &= ~m;
    s->known[p] &= ~m;
}

static void gr_apply(void *state, int action) {
    GRState *s = (GRState *)state;
    int p = s->h.to_move, hs = s->opt.hand_size;
    s->drawn = -1;
    switch (s->h.phase) {
    case PH_FIRST_UPCARD:
        if (action == A_DRAW_UPCARD) {            /* GR-3.1 */
            s->prev_upcard = s->upcard;
            take_upcard(s, p);
            s->deadwood[p] = gr_min_deadwood(s->hand[p], hs);
            s->h.phase = PH_DISCARD;
        } else if (action == A_DRAW_STOCK) {      /* GR-3.2 */
            s->prev_upcard = s->upcard;
            pile_push(&s->discard, s->upcard);
            s->upcard = -1;
            take_stock(s, p);
        } else {                                  /* GR-3.1: pass */
            s->passed_first[p] = 1;
            s->h.to_move = other(p);
            s->h.turns += 1;
        }
        return;
    case PH_DRAW:
        if (action == A_DRAW_UPCARD) {            /* GR-4.1, GR-8.2 */
            if (++s->draw_upcards == GR_MAX_DRAW_UPCARD) {
                end_game(s, GR_END_UPCARDS);
                return;
            }
            s->prev_upcard = s->upcard;
            take_upcard(s, p);
            s->deadwood[p] = gr_min_deadwood(s->hand[p], hs);
            s->h.phase = PH_DISCARD;
        } else {
            s->prev_upcard = s->upcard;
            if (s->upcard >= 0) pile_push(&s->discard, s->upcard);
            s->upcard = -1;
            take_stock(s, p);
        }
        return;
    case PH_DISCARD:
        if (action == A_KNOCK) {                  /* GR-5.1 */
            s->knocked[p] = 1;
            s->h.phase = PH_KNOCK;
            return;
        }
        remove_card(s, p, action);                /* GR-4.1: the discard is the new upcard */
        s->upcard = action;
        s->h.to_move = other(p);
        s->h.turns += 1;
        if (s->upcard == s->prev_upcard) {        /* GR-8.3 */
            if (s->repeated_move) {
                end_game(s, GR_END_REPEATED);
                return;
            }
            s->repeated_move = 1;
        } else {
            s->repeated_move = 0;
        }
        if (s->stock.size == WALL && !s->opt.wall_knock) {   /* GR-5.3: pagat's wall */
            end_game(s, GR_END_WALL);
            return;
        }
        s->h.phase = s->stock.size == WALL ? PH_WALL : PH_DRAW;   /* GR-5.2 */
        return;
    case PH_KNOCK:
        if (popcount64(s->hand[p]) == hs + 1 && !s->big_gin) {
            if (action == A_PASS) {               /* GR-6.4: big gin, no discard */
                s->big_gin = 1;
                return;
            }
            remove_card(s, p, action);            /* GR-6.2 */
            pile_push(&s->discard, action);
        } else if (action == A_PASS) {            /* GR-6.3, GR-7.3 */
            if (gr_mask_value(s->hand[p]) == 0) s->finished_layoffs = 1;
            s->h.to_move = other(p);
            s->h.turns += 1;
            s->h.phase = PH_LAYOFF;
        } else {
            lay_meld(s, p, action - A_MELD);
        }
        return;
    case PH_LAYOFF:
        if (action == A_PASS) {                   /* GR-7.1, GR-7.2 */
            if (s->finished_layoffs) {
                end_game(s, GR_END_KNOCK);
                return;
            }
            s->finished_layoffs = 1;
        } else if (action < NUM_CARDS) {
            remove_card(s, p, action);
            s->layoffs[s->n_layoffs++] = (uint8_t)action;
        } else {
            lay_meld(s, p, action - A_MELD);
        }
        return;
    case PH_WALL:
        if (action == A_KNOCK) {                  /* GR-5.2 */
            take_upcard(s, p);
            s->deadwood[p] = gr_min_deadwood(s->hand[p], hs);
            s->knocked[p] = 1;
            s->h.phase = PH_KNOCK;
        } else {
            end_game(s, GR_END_WALL);
        }
        return;
    default:
        return;
    }
}

/* ---------------------------------------------------------------- the end and scoring (GR-8) */
static void add_row(GRState *s, int owner, int what, int count, int points) {
    BreakdownRow *r = &s->rows[s->n_rows++];
    r->owner = owner;
    r->what = what;
    r->rule = what;
    r->detail = -1;
    r->count = count;
    r->points = points;
}

/* GR-8.1: the knocker scores the difference of the deadwood, and the gin bonus; undercut,
 * the other player scores it and the undercut bonus (GR-8.5: on equal deadwood too). The rows say so, for both seats (each
 * seat's rows add up to its score); GR-8.4 a hand without a knock scores nothing. */
static void gr_score(GRState *s) {
    int k, o, r, gin, bonus, row;
    s->n_rows = 0;
    s->result[0] = s->result[1] = 0;
    if (!s->knocked[0] && !s->knocked[1]) {
        add_row(s, 0, GR_ROW_NO_KNOCK, -1, 0);
        add_row(s, 1, GR_ROW_NO_KNOCK, -1, 0);
        return;
    }
    k = s->knocked[0] ? 0 : 1;
    o = other(k);
    r = gr_mask_value(s->hand[o]) - gr_mask_value(s->hand[k]);
    add_row(s, k, GR_ROW_DIFFERENCE, -1, r);
    add_row(s, o, GR_ROW_DIFFERENCE, -1, -r);
    gin = gr_mask_value(s->hand[k]) == 0;
    if (gin) {                                    /* GR-6.4: big gin's bonus instead */
        bonus = s->big_gin ? s->opt.big_gin_bonus : s->opt.gin_bonus;
        row = s->big_gin ? GR_ROW_BIG_GIN : GR_ROW_GIN;
        r += bonus;
        add_row(s, k, row, -1, bonus);
        add_row(s, o, row, -1, -bonus);
    }
    if (r < 0 || (r == 0 && !gin && s->opt.undercut_on_equal)) {   /* GR-8.5 */
        r -= s->opt.undercut_bonus;
        add_row(s, k, GR_ROW_UNDERCUT, -1, -s->opt.undercut_bonus);
        add_row(s, o, GR_ROW_UNDERCUT, -1, s->opt.undercut_bonus);
    }
    s->result[k] = r;
    s->result[o] = -r;
}

static int gr_breakdown(const void *state, BreakdownRow *out, int capacity) {
    const GRState *s = (const GRState *)state;
    return copy_breakdown(s->rows, s->n_rows, out, capacity);
}

/* GR-11.3: the match's end: the game bonus to the player ahead (the one who reached
 * match_to; GR-11.5: none on equal totals), each player's box bonus, and the shutout doubles
 * the winner's total when the other won no hand. */
static void end_match(GRState *s) {
    int p, w = s->total[0] > s->total[1] ? 0 : s->total[1] > s->total[0] ? 1 : -1;
    if (w >= 0) {
        s->total[w] += GR_GAME_BONUS;
        add_row(s, w, GR_ROW_GAME, -1, GR_GAME_BONUS);
    }
    for (p = 0; p < PLAYERS; p++)
        if (s->hands_won[p] > 0) {
            s->total[p] += GR_BOX_BONUS * s->hands_won[p];
            add_row(s, p, GR_ROW_BOX, s->hands_won[p], GR_BOX_BONUS * s->hands_won[p]);
        }
    if (w >= 0 && s->hands_won[other(w)] == 0) {
        add_row(s, w, GR_ROW_SHUTOUT, -1, s->total[w]);
        s->total[w] *= 2;
    }
}

/* GR-11.2: in a match only the hand's winner scores (its rows are kept, the other's are its
 * opposite); the winner deals the next hand (GR-11.4) until a total reaches match_to. */
static int match_hand(GRState *s) {
    int w = s->result[0] > 0 ? 0 : s->result[1] > 0 ? 1 : -1, i, n = 0;
    if (w < 0) return 0;
    for (i = 0; i < s->n_rows; i++)
        if (s->rows[i].owner == w) s->rows[n++] = s->rows[i];
    s->n_rows = n;
    s->total[w] += s->result[w];
    s->hands_won[w] += 1;
    s->h.dealer = w;
    return s->total[w] >= s->opt.match_to;
}

static void end_game(GRState *s, int reason) {
    int p, done = 1;
    s->end_reason = reason;
    s->last_knocker = s->knocked[0] ? 0 : s->knocked[1] ? 1 : -1;
    for (p = 0; p < PLAYERS; p++) s->final_hand[p] = s->hand[p];
    gr_score(s);
    s->h.round_index += 1;
    if (s->opt.match_to > 0) {
        s->reached = match_hand(s);
        done = s->reached || s->h.round_index >= GR_MAX_HANDS;
        if (!done) {
            new_hand(s);
            return;
        }
        end_match(s);
    }
    s->h.phase = PH_OVER;
    s->h.to_move = -1;
}

/* One hand: the hand's points (GR-8.1); a match: the difference of the totals (GR-11.2). */
static void gr_returns(const void *state, double *out) {
    const GRState *s = (const GRState *)state;
    if (s->opt.match_to > 0) {
        out[0] = (double)(s->total[0] - s->total[1]);
        out[1] = -out[0];
        return;
    }
    out[0] = (double)s->result[0];
    out[1] = (double)s->result[1];
}

/* One hand: the hand's points; a match: the totals (GR-11.2, with GR-11.3's bonuses). */
static void gr_scores(const void *state, int32_t *out) {
    const GRState *s = (const GRState *)state;
    const int32_t *points = s->opt.match_to > 0 ? s->total : s->result;
    out[0] = points[0];
    out[1] = points[1];
}

/* ---------------------------------------------------------------- the per-seat projection */
int gr_obs_layout(int32_t *offset) {
    static const int32_t SIZE[NUM_PIECES] = {
        PLAYERS, PLAYERS * NUM_CARDS, PLAYERS, GR_MAX_KNOCK_CARD, NUM_CARDS, NUM_CARDS,
        NUM_CARDS, PLAYERS * NUM_MELDS,
        GR_NUM_PHASES, NUM_CARDS, NUM_CARDS, PLAYERS, PLAYERS, PLAYERS,
        NUM_CARDS, 1, 1, PLAYERS, PLAYERS};
    int i, at = 0;
    for (i = 0; i < NUM_PIECES; i++) {
        offset[i] = at;
        at += SIZE[i];
    }
    offset[NUM_PIECES] = at;
    return at;
}

static int gr_observation_size(const void *state) {
    return ((const GRState *)state)->obs_size;
}

static void put_mask(float *out, uint64_t cards) {
    while (cards) {
        out[lowest_card(cards)] = 1.0f;
        cards &= cards - 1;
    }
}

/* GR-9.1: the card taken face up this turn (everybody saw it taken), while it is that
 * player's turn; -1 otherwise. */
static int taken_now(const GRState *s) {
    return s->h.phase == PH_DISCARD || s->h.phase == PH_KNOCK ? s->taken : -1;
}

/* What `seat` sees: OpenSpiel's observation tensor piece for piece, then the phase, the
 * layoffs, the cards it saw the other take face up, the passes, the knock, the scores (a
 * match's totals), the card taken this turn, big gin, and the match: the hand's number, the
 * dealer and the hands won. */
static void gr_observe(const void *state, int seat, float *out) {
    const GRState *s = (const GRState *)state;
    const int32_t *o = s->obs_offset;
    int i, p;
    memset(out, 0, (size_t)s->obs_size * sizeof(float));
    out[o[GR_P_OS_PLAYER] + seat] = 1.0f;
    put_mask(out + o[GR_P_OS_HAND] + seat * NUM_CARDS, s->hand[seat]);
    if (s->h.to_move >= 0) out[o[GR_P_OS_TO_MOVE] + s->h.to_move] = 1.0f;
    for (i = 0; i < s->knock_card; i++) out[o[GR_P_OS_KNOCK_CARD] + i] = 1.0f;
    if (s->upcard >= 0) out[o[GR_P_OS_UPCARD] + s->upcard] = 1.0f;
    for (i = 0; i < s->discard.size; i++) out[o[GR_P_OS_DISCARD] + s->discard.cards[i]] = 1.0f;
    for (i = 0; i < s->stock.size; i++) out[o[GR_P_OS_STOCK_SIZE] + i] = 1.0f;
    for (p = 0; p < PLAYERS; p++)
        for (i = 0; i < s->n_melds[p]; i++) out[o[GR_P_OS_MELDS] + p * NUM_MELDS + s->melds[p][i]] = 1.0f;
    out[o[GR_P_PHASE] + s->h.phase] = 1.0f;
    for (i = 0; i < s->n_layoffs; i++) out[o[GR_P_LAYOFFS] + s->layoffs[i]] = 1.0f;
    put_mask(out + o[GR_P_KNOWN], s->known[other(seat)]);
    for (p = 0; p < PLAYERS; p++) {
        out[o[GR_P_PASSED] + p] = (float)s->passed_first[p];
        out[o[GR_P_KNOCKED] + p] = (float)s->knocked[p];
        out[o[GR_P_SCORES] + p] = (float)(s->opt.match_to > 0 ? s->total[p] : s->result[p]);
        out[o[GR_P_HANDS_WON] + p] = (float)s->hands_won[p];
    }
    if (taken_now(s) >= 0) out[o[GR_P_TAKEN] + taken_now(s)] = 1.0f;
    out[o[GR_P_BIG_GIN]] = (float)s->big_gin;
    out[o[GR_P_HAND_NUMBER]] = (float)(s->h.round_index + (s->h.to_move < 0 ? 0 : 1));
    out[o[GR_P_DEALER] + s->h.dealer] = 1.0f;
}

/* ---------------------------------------------------------------- determinization */
/* Redeal what `seat` cannot see: the other hand's cards it did not take face up and the
 * stock, together, uniformly; the pool in card order first, so the world depends only on
 * what the seat knows. */
static int gr_sample_hidden(void *state, int seat, Rng *rng) {
    GRState *s = (GRState *)state;
    int o = other(seat), n = 0, i, keep;
    uint8_t pool[NUM_CARDS];
    uint64_t unknown = s->hand[o] & ~s->known[o], rest;
    keep = popcount64(unknown);
    for (i = 0; i < s->stock.size; i++) unknown |= bit(s->stock.cards[i]);
    rest = unknown;
    while (rest) {
        pool[n++] = (uint8_t)lowest_card(rest);
        rest &= rest - 1;
    }
    shuffle_u8(rng, pool, n);
    s->hand[o] = s->known[o];
    for (i = 0; i < keep; i++) s->hand[o] |= bit(pool[i]);
    for (i = keep; i < n; i++) s->stock.cards[i - keep] = pool[i];
    return 0;
}

/* ---------------------------------------------------------------- GreedyBot's policy */
/* One move ahead from the seat's own hand and the table: take the upcard when it joins a
 * meld; knock as soon as allowed, and keep all eleven cards for big gin when offered; discard
 * so that the deadwood left is least (the dearer card on a tie); lay the melds of the best
 * arrangement; lay off every card that no meld of the hand needs. greedy.py's docstring
 * documents it. */
static int gr_greedy(const void *state, const int32_t *legal, int n, Rng *rng) {
    const GRState *s = (const GRState *)state;
    double values[MAX_LEGAL];
    int32_t ties[MAX_LEGAL];
    int p = s->h.to_move, k, a, best, joins = 0, total, without;
    uint64_t hand = s->hand[p], rest, melded = 0;
    Melds melds;
    if (n == 1) return 0;
    hand_melds(hand, &melds);
    for (k = 0; k < melds.n; k++) melded |= melds.mask[k];
    best = best_value_without(&melds, 0);
    total = gr_mask_value(hand);
    if (s->upcard >= 0 && (s->h.phase == PH_FIRST_UPCARD || s->h.phase == PH_DRAW))
        joins = best_melds(hand | bit(s->upcard)).value > best;
    for (k = 0; k < n; k++) {
        a = legal[k];
        if (a == A_KNOCK) {
            values[k] = 1e6;
        } else if (a == A_DRAW_UPCARD) {
            values[k] = joins ? 1.0 : -1.0;
        } else if (a == A_DRAW_STOCK) {
            values[k] = 0.0;
        } else if (a == A_PASS) {
            if (s->h.phase == PH_KNOCK && !s->big_gin && popcount64(hand) == s->opt.hand_size + 1)
                values[k] = 1e6;                  /* GR-6.4: big gin, when offered */
            else if (s->h.phase == PH_FIRST_UPCARD) values[k] = 0.0;
            else if (s->h.phase == PH_WALL) values[k] = 0.0;
            else values[k] = -0.5;                /* after every meld and layoff worth laying */
        } else if (a < NUM_CARDS) {               /* (a card in no meld leaves the best) */
            without = melded & bit(a) ? best_value_without(&melds, bit(a)) : best;
            if (s->h.phase == PH_LAYOFF)          /* lay off what no meld of the hand needs */
                values[k] = without == best ? gr_card_value(a) : -1.0;
            else                                  /* the least deadwood left, dearer on a tie */
                values[k] = -(double)(total - gr_card_value(a) - without)
                            + gr_card_value(a) / 100.0;
        } else {                                  /* a meld of the best arrangement */
            rest = gr_meld_mask(a - A_MELD);
            values[k] = gr_mask_value(rest) + best_value_without(&melds, rest) == best
                        ? 1.0 + gr_mask_value(rest) / 100.0 : -1.0;
        }
    }
    return best_by_value(values, n, rng, ties);
}

/* Random play with this game's hooks called directly (kernel.h, play_loop). */
static long long gr_play(void *s, Rng *chooser, int32_t *scratch, long long max_actions) {
    return play_loop(s, &GR_HOOKS, chooser, scratch, max_actions);
}

/* ---------------------------------------------------------------- refusals */
/* Why an id is not legal now: reasons index words.REFUSALS (the texts stay in Python); cards
 * as cardcore ids. */
enum {
    R_FIRST_UPCARD = 0, R_BOTH_PASSED, R_DRAW_FIRST, R_DISCARD_OR_KNOCK, R_NOT_HELD,
    R_KNOCK_OVER, R_KNOCK_DISCARD, R_MELD, R_PASS_DEADWOOD, R_LAYOFF, R_GIN, R_WALL,
    R_REDISCARD, R_KNOCK_REDISCARD, R_BIG_GIN, NUM_REFUSALS
};

static int gr_refuse(const void *state, int32_t action, Refusal *out) {
    const GRState *s = (const GRState *)state;
    int32_t legal[MAX_LEGAL];
    int n = gr_legal((void *)state, legal, MAX_LEGAL), i, p = s->h.to_move;
    int card = action < NUM_CARDS;
    for (i = 0; i < n; i++)
        if (legal[i] == action) return -1;
    if (card && !(s->hand[p] & bit(action)))
        return refuse1(out, R_NOT_HELD, "GR-4.1", gr_card_id(action));
    if (card && (banned_discard(s) & bit(action)) && !s->big_gin
        && (s->h.phase == PH_DISCARD || s->h.phase == PH_KNOCK)
        && popcount64(s->hand[p]) == s->opt.hand_size + 1)
        return refuse1(out, R_REDISCARD, "GR-4.2", gr_card_id(action));
    switch (s->h.phase) {
    case PH_FIRST_UPCARD:
        if (s->passed_first[0] && s->passed_first[1]) return refuse0(out, R_BOTH_PASSED, "GR-3.2");
        return refuse0(out, R_FIRST_UPCARD, "GR-3.1");
    case PH_DRAW:
        return refuse0(out, R_DRAW_FIRST, "GR-4.1");
    case PH_DISCARD:
        if (action == A_KNOCK && s->deadwood[p] <= s->knock_card && banned_discard(s))
            return refuse1(out, R_KNOCK_REDISCARD, "GR-4.2", gr_card_id(s->taken));
        if (action == A_KNOCK) return refuse1(out, R_KNOCK_OVER, "GR-5.1", s->knock_card);
        return refuse0(out, R_DISCARD_OR_KNOCK, "GR-4.1");
    case PH_KNOCK:
        if (popcount64(s->hand[p]) == s->opt.hand_size + 1 && !s->big_gin) {
            if (action == A_PASS && s->opt.big_gin_bonus > 0)
                return refuse0(out, R_BIG_GIN, "GR-6.4");
            return refuse1(out, R_KNOCK_DISCARD, "GR-6.2", s->knock_card);
        }
        if (action == A_PASS)
            return refuse1(out, R_PASS_DEADWOOD, s->big_gin ? "GR-6.4" : "GR-6.3",
                           s->big_gin ? 0 : s->knock_card);
        return refuse0(out, R_MELD, s->big_gin ? "GR-6.4" : "GR-6.3");
    case PH_LAYOFF:
        if (!s->finished_layoffs && card) return refuse1(out, R_LAYOFF, "GR-7.1", gr_card_id(action));
        if (card && s->n_layoffs == 0 && gr_mask_value(s->hand[other(p)]) == 0)
            return refuse0(out, R_GIN, "GR-7.3");
        if (card) return refuse1(out, R_LAYOFF, "GR-7.1", gr_card_id(action));
        return refuse0(out, R_MELD, "GR-7.2");
    default:                                      /* the wall */
        if (action == A_KNOCK && !s->opt.rediscard_upcard
            && gr_min_deadwood(s->hand[p] | bit(s->upcard), s->opt.hand_size) <= s->knock_card)
            return refuse1(out, R_KNOCK_REDISCARD, "GR-4.2", gr_card_id(s->upcard));
        if (action == A_KNOCK) return refuse1(out, R_KNOCK_OVER, "GR-5.1", s->knock_card);
        return refuse0(out, R_WALL, "GR-5.2");
    }
}

const GameHooks GR_HOOKS = {
    GAME_HOOKS_HEAD,
    .name = "gin_rummy",
    .state_size = sizeof(GRState),
    .num_actions = NUM_ACTIONS,
    .max_legal = MAX_LEGAL,
    .start = gr_start,
    .legal = gr_legal,
    .apply = gr_apply,
    .observation_size = gr_observation_size,
    .observe = gr_observe,
    .returns = gr_returns,
    .scores = gr_scores,
    .sample_hidden = gr_sample_hidden,
    .rollout = NULL,
    .zones = ZONES,
    .num_zones = NUM_ZONES,
    .zone_cards = gr_zone_cards,
    .known_cards = gr_known_cards,
    .breakdown = gr_breakdown,
    .greedy = gr_greedy,
    .hand_cards = NULL,
    .play = gr_play,
    .refuse = gr_refuse,
    .num_refusals = NUM_REFUSALS,
};

/* ---------------------------------------------------------------- the game, as the C ABI sees it */
enum {
    O_KNOCK_CARD = 0, O_GIN_BONUS, O_UNDERCUT_BONUS, O_OKLAHOMA, O_HAND_SIZE,
    O_REDISCARD_UPCARD, O_BIG_GIN_BONUS, O_LAYOFF_LIMIT, O_UNDERCUT_ON_EQUAL, O_WALL_KNOCK,
    O_MATCH_TO, NUM_OPTIONS
};

/* The Python options_spec, option for option (cardcore.games.gin_rummy.GinRummy). */
static const OptionSpec GR_OPTIONS[NUM_OPTIONS] = {
    {"knock_card", OPT_INT, "GR-5.1", 10, 0, GR_MAX_KNOCK_CARD, 0, NULL, 0, 0},
    {"gin_bonus", OPT_INT, "GR-8.1", 25, 0, GR_MAX_BONUS, 0, NULL, 0, 0},
    {"undercut_bonus", OPT_INT, "GR-8.1", 25, 0, GR_MAX_BONUS, 0, NULL, 0, 0},
    {"oklahoma", OPT_FLAG, "GR-3.3", 0, 0, 0, 0, NULL, 0, 0},
    {"hand_size", OPT_INT, "GR-2.1", 10, GR_MIN_HAND_SIZE, GR_MAX_HAND_SIZE, 0, NULL, 0, 0},
    {"rediscard_upcard", OPT_FLAG, "GR-4.2", 1, 0, 0, 0, NULL, 0, 0},
    {"big_gin_bonus", OPT_INT, "GR-6.4", 0, 0, GR_MAX_BONUS, 0, NULL, 0, 0},
    {"layoff_limit", OPT_INT, "GR-7.4", 2, 1, GR_MAX_LAYOFF_LIMIT, 0, NULL, 0, 0},
    {"undercut_on_equal", OPT_FLAG, "GR-8.5", 0, 0, 0, 0, NULL, 0, 0},
    {"wall_knock", OPT_FLAG, "GR-5.3", 1, 0, 0, 0, NULL, 0, 0},
    {"match_to", OPT_INT, "GR-11.1", 0, 0, GR_MAX_MATCH_TO, 0, NULL, 0, 0},
};

int gr_init(void *state, int players, const int64_t *values) {
    GRState *s = (GRState *)state;
    int k;
    if (players != PLAYERS) return -1;
    if (values[O_KNOCK_CARD] < 0 || values[O_KNOCK_CARD] > GR_MAX_KNOCK_CARD) return -1;
    if (values[O_GIN_BONUS] < 0 || values[O_GIN_BONUS] > GR_MAX_BONUS) return -1;
    if (values[O_UNDERCUT_BONUS] < 0 || values[O_UNDERCUT_BONUS] > GR_MAX_BONUS) return -1;
    if (values[O_OKLAHOMA] < 0 || values[O_OKLAHOMA] > 1) return -1;
    if (values[O_HAND_SIZE] < GR_MIN_HAND_SIZE || values[O_HAND_SIZE] > GR_MAX_HAND_SIZE) return -1;
    if (values[O_REDISCARD_UPCARD] < 0 || values[O_REDISCARD_UPCARD] > 1) return -1;
    if (values[O_BIG_GIN_BONUS] < 0 || values[O_BIG_GIN_BONUS] > GR_MAX_BONUS) return -1;
    if (values[O_LAYOFF_LIMIT] < 1 || values[O_LAYOFF_LIMIT] > GR_MAX_LAYOFF_LIMIT) return -1;
    if (values[O_UNDERCUT_ON_EQUAL] < 0 || values[O_UNDERCUT_ON_EQUAL] > 1) return -1;
    if (values[O_WALL_KNOCK] < 0 || values[O_WALL_KNOCK] > 1) return -1;
    if (values[O_MATCH_TO] < 0 || values[O_MATCH_TO] > GR_MAX_MATCH_TO) return -1;
    s->h.players = players;
    s->h.to_move = -1;
    s->opt.knock_card = (int32_t)values[O_KNOCK_CARD];
    s->opt.gin_bonus = (int32_t)values[O_GIN_BONUS];
    s->opt.undercut_bonus = (int32_t)values[O_UNDERCUT_BONUS];
    s->opt.oklahoma = (int)values[O_OKLAHOMA];
    s->opt.hand_size = (int32_t)values[O_HAND_SIZE];
    s->opt.rediscard_upcard = (int)values[O_REDISCARD_UPCARD];
    s->opt.big_gin_bonus = (int32_t)values[O_BIG_GIN_BONUS];
    s->opt.layoff_limit = (int32_t)values[O_LAYOFF_LIMIT];
    s->opt.undercut_on_equal = (int)values[O_UNDERCUT_ON_EQUAL];
    s->opt.wall_knock = (int)values[O_WALL_KNOCK];
    s->opt.match_to = (int32_t)values[O_MATCH_TO];
    for (k = 0; k < NUM_CARDS; k++) s->deck[k] = (uint8_t)k;
    s->upcard = s->prev_upcard = -1;
    s->drawn = s->taken = -1;
    s->obs_size = gr_obs_layout(s->obs_offset);
    s->h.phase = PH_OVER;
    return 0;
}

/* str(action): "card 7H" (cardcore's notation: A 2-10 J Q K, suits C S D H), "draw upcard",
 * "draw stock", "pass", "knock", "meld 7H 8H 9H"; the same in every state. */
int gr_action_label(const void *state, int action, char *buf, size_t len) {
    Label t = label_start(buf, len);
    uint64_t m;
    int c;
    (void)state;
    if (action >= 0 && action < NUM_CARDS) {
        label_put(&t, "card ");
        label_card(&t, gr_card_id(action));
    } else if (action == A_DRAW_UPCARD) {
        label_put(&t, "draw upcard");
    } else if (action == A_DRAW_STOCK) {
        label_put(&t, "draw stock");
    } else if (action == A_PASS) {
        label_put(&t, "pass");
    } else if (action == A_KNOCK) {
        label_put(&t, "knock");
    } else if (action >= A_MELD && action < NUM_ACTIONS) {
        label_put(&t, "meld");
        m = gr_meld_mask(action - A_MELD);
        for (c = 0; c < NUM_CARDS; c++)           /* OpenSpiel's order: by suit, then rank */
            if (m & bit(c)) {
                label_char(&t, ' ');
                label_card(&t, gr_card_id(c));
            }
    } else {
        return -1;
    }
    return label_end(&t);
}

int gr_composition(const void *state, uint8_t *out) {
    const GRState *s = (const GRState *)state;
    memcpy(out, s->deck, NUM_CARDS);
    return NUM_CARDS;
}

const GameKernel GR_KERNEL = {
    &GR_HOOKS, GR_OPTIONS, NUM_OPTIONS, PLAYERS, PLAYERS,
    2,                                            /* default players */
    gr_init, gr_action_label,
    NUM_CARDS,
    gr_composition,
};
