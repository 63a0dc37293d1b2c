/* Durak's rules kernel in C99 (rules: games/durak.md, rule IDs DU-x.y): the state machine
 * over the core framework (cardcore/core/kernel.h): the deal, legality, apply, the result,
 * the per-seat projection, the zones, sample_hidden, GreedyBot's policy, and the game as the
 * C ABI sees it (its options, setup, action labels and deck). kernel.h has the action ids,
 * the state struct and the observation layout.
 *
 * The bout is played one card at a time: after every attacking card the defender answers it
 * (beat, transfer or take) before anyone throws in again; the throwers are asked in a fixed
 * order (DU-5.2), each throwing in or passing.
 *
 * No global here changes: the tables are const data; the kernel runs in many threads.
 */
#include "cardcore/games/durak/kernel.h"

/* The core's containers must hold Durak's deck, hands and breakdown. */
typedef char du_fits_core[((int)DU_DECK_SIZE <= (int)PILE_CAPACITY && 1 <= (int)MS_MAX_COPIES &&
                           (int)DU_MAX_PLAYERS <= (int)MAX_BREAKDOWN_ROWS) ? 1 : -1];

/* DU-1.1: the 36 cards 6..A of each suit (card ids, id order). */
static const uint8_t DECK[DU_DECK_SIZE] = {
    0, 5, 6, 7, 8, 9, 10, 11, 12,
    13, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 31, 32, 33, 34, 35, 36, 37, 38,
    39, 44, 45, 46, 47, 48, 49, 50, 51
};

/* DU-1.3: 0 for a six up to 8 for an ace. */
static inline int power(int card) {
    int r = card_rank(card);
    return r == R_ACE ? DU_NUM_POWERS - 1 : r - DU_LOWEST_RANK;
}

int du_card_power(int card) { return power(card); }

/* DU-13.1: the subsets of suits (bit s for suit s: C S D H) a several-card attack plays, in
 * id order: the six pairs, the four threes, all four. */
static const uint8_t MANY_SUITS[DU_MANY_PER_RANK] = {
    0x3, 0x5, 0x6, 0x9, 0xA, 0xC, 0x7, 0xB, 0xD, 0xE, 0xF
};

/* The rank index of a power (DU-1.3): the ace is rank 0. */
static inline int rank_of_power(int p) { return p == DU_NUM_POWERS - 1 ? R_ACE : p + DU_LOWEST_RANK; }

/* The cards of a several-card attack id, in suit order; their count. */
static int many_cards(int action, uint8_t *out) {
    int k = action - DU_A_MANY, rank = rank_of_power(k / DU_MANY_PER_RANK), suit, n = 0;
    int bits = MANY_SUITS[k % DU_MANY_PER_RANK];
    for (suit = 0; suit < NUM_SUITS; suit++) {
        if ((bits >> suit) & 1) {
            out[n] = (uint8_t)(suit * 13 + rank);
            n += 1;
        }
    }
    return n;
}

int du_many_cards(int action, uint8_t *out) {
    if (action < DU_A_MANY || action >= DU_NUM_ACTIONS) return 0;
    return many_cards(action, out);
}

/* The card's slot in the 36-card pieces of the observation: suit * 9 + power. */
static inline int index36(int card) { return card_suit(card) * DU_NUM_POWERS + power(card); }

/* ---------------------------------------------------------------- the zones: who sees what */
enum {                      /* the zones, in ZONES order */
    Z_HAND = 0,             /* each seat's hand: its own (DU-11.1) */
    Z_STOCK = 1,            /* face down, but its bottom card is the trump card, face up (DU-2.3) */
    Z_TABLE = 2,            /* the bout's cards, face up (DU-4) */
    Z_DISCARD = 3,          /* beaten bouts: face down, but every card was seen on the table */
    NUM_ZONES = 4
};

static const ZoneSpec ZONES[NUM_ZONES] = {
    {"hand", ZONE_SEAT, 0, SEEN_BY_OWNER},
    {"stock", ZONE_SHARED, 0, SEEN_BY_NONE},
    {"table", ZONE_SHARED, 0, SEEN_BY_ALL},
    {"discard", ZONE_SHARED, 0, SEEN_BY_ALL}
};

/* The table in play order: each attacking card, then the card beating it. */
static int table_cards(const DUState *s, uint8_t *out) {
    int i, n = 0, stop = s->n_attack;
    for (i = 0; i < stop; i++) {
        out[n] = (uint8_t)s->attack[i];
        n += 1;
        if (s->cover[i] >= 0) {
            out[n] = (uint8_t)s->cover[i];
            n += 1;
        }
    }
    return n;
}

int du_table_cards(const DUState *s, uint8_t *out) { return table_cards(s, out); }

static int du_zone_cards(const void *state, int zone, int instance, uint8_t *out) {
    const DUState *s = (const DUState *)state;
    if (zone == Z_HAND) return ms_to_array(&s->hand[instance], out);
    if (zone == Z_STOCK) return pile_copy(&s->stock, out);
    if (zone == Z_TABLE) return table_cards(s, out);
    return pile_copy(&s->discard, out);
}

/* Cards of a hidden zone every seat knows: the trump card at the stock's bottom (DU-2.3)
 * and, in a hand, the cards it took from the table, the trump card it drew and the lowest
 * trump it showed (DU-11.2). */
static int du_known_cards(const void *state, int zone, int instance, uint8_t *out) {
    const DUState *s = (const DUState *)state;
    uint64_t m;
    int n = 0;
    if (zone == Z_STOCK) {
        if (s->stock.size > 0) {
            out[0] = s->stock.cards[0];
            return 1;
        }
        return 0;
    }
    if (zone == Z_HAND) {
        m = s->known[instance];
        while (m) {
            out[n] = (uint8_t)lowest_card(m);
            m &= m - 1;
            n += 1;
        }
    }
    return n;
}

/* ---------------------------------------------------------------- seats */
/* DU-10.1: partners sit alternately (sides 0 1 0 1...); without partners, any two seats. */
static inline int opponents(const DUState *s, int a, int b) {
    if (s->opt.partners) return (a & 1) != (b & 1);
    return a != b;
}

/* The first seat after `after` holding cards and an opponent of `versus` (-1: any); -1 if
 * none. */
static int next_holder(const DUState *s, int after, int versus) {
    int k, q, n = s->h.players;
    for (k = 1; k < n + 1; k++) {
        q = (after + k) % n;
        if (s->hand[q].total > 0 && (versus < 0 || opponents(s, q, versus))) return q;
    }
    return -1;
}

/* ---------------------------------------------------------------- the deal (DU-2) */
/* DU-2.2: one card at a time from the dealer's left; -1 past the hands (the stock). */
static inline int deal_seat(int players, int dealer, int position) {
    if (position < players * DU_HAND_SIZE) return (dealer + 1 + position) % players;
    return -1;
}

int du_deal_seat(int players, int dealer, int position) {
    return deal_seat(players, dealer, position);
}

static void du_deal(DUState *s) {
    uint8_t order[DU_DECK_SIZE];
    int i, p, n = s->h.players;
    deal_prologue(&s->h, s->deck, DU_DECK_SIZE, order);
    s->stock.size = 0;
    s->discard.size = 0;
    for (p = 0; p < n; p++) {
        ms_clear(&s->hand[p]);
        s->known[p] = 0;
        s->drew[p] = 0;
        s->late_seen[p] = 0;
    }
    i = DU_DECK_SIZE - 1;
    while (i >= 0) {                           /* bottom first: order[0] ends on top */
        p = deal_seat(n, s->h.dealer, i);
        if (p < 0)
            pile_push(&s->stock, order[i]);
        else
            ms_add(&s->hand[p], order[i]);
        i -= 1;
    }
    s->trump_card = order[DU_DECK_SIZE - 1];   /* DU-2.3 */
    s->trump_suit = card_suit(s->trump_card);
    if (n * DU_HAND_SIZE == DU_DECK_SIZE)      /* DU-2.3: with 6 players the dealer's last card */
        s->known[s->h.dealer] |= card_bit(s->trump_card);
    s->n_attack = 0;
    s->out = 0;
    s->loser = -1;
    s->bouts = 0;
    s->shown_trump = -1;
}

/* DU-4.3: a higher card of the same suit, or any trump against a non-trump. */
static inline int beats(const DUState *s, int card, int target) {
    if (card_suit(card) == card_suit(target)) return power(card) > power(target);
    return card_suit(card) == s->trump_suit;
}

static void start_bout(DUState *s, int attacker) {
    s->attacker = attacker;
    s->defender = next_holder(s, attacker, attacker);
    s->n_attack = 0;
    s->taking = 0;
    s->thrower = 0;
    s->h.phase = DU_PH_ATTACK;
    s->h.to_move = attacker;
}

/* DU-11.3: the cards no hand held at the deal, so every hand that holds one drew it: the
 * face-up trump card when there is a stock (fewer than 6 players), and with DU-3.1 the trumps
 * below the one shown, or every trump when nobody showed one. */
static uint64_t late_cards(const DUState *s) {
    uint64_t late = 0;
    int i, c;
    if (s->h.players * DU_HAND_SIZE < DU_DECK_SIZE) late |= card_bit(s->trump_card);
    if (!s->opt.lowest_trump) return late;
    for (i = 0; i < DU_DECK_SIZE; i++) {
        c = DECK[i];
        if (card_suit(c) == s->trump_suit &&
            (s->shown_trump < 0 || power(c) < power(s->shown_trump)))
            late |= card_bit(c);
    }
    return late;
}

/* A hand: the deal (DU-2.2) by the header's dealer, DU-3 the first attacker. */
static void new_hand(DUState *s) {
    int p, c, best = -1, who = -1, stop;
    uint64_t m;
    du_deal(s);
    if (s->opt.lowest_trump) {                 /* DU-3.1: the lowest trump in a hand leads */
        stop = s->h.players;
        for (p = 0; p < stop; p++) {
            m = s->hand[p].plane[0];
            while (m) {
                c = lowest_card(m);
                m &= m - 1;
                if (card_suit(c) == s->trump_suit && (best < 0 || power(c) < power(best))) {
                    best = c;
                    who = p;
                }
            }
        }
        if (who >= 0) {
            s->shown_trump = best;
            s->known[who] |= card_bit(best);
        } else {                               /* DU-3.1 Decision: nobody holds a trump */
            who = (s->h.dealer + 1) % s->h.players;
        }
    } else {                                   /* DU-3.2: by lot */
        who = (int)rng_below(&s->h.rng, (uint32_t)s->h.players);
    }
    s->late = late_cards(s);
    start_bout(s, who);
}

/* DU-2.1 the first dealer, then the first hand. */
static void du_start(void *state) {
    DUState *s = (DUState *)state;
    int p;
    s->h.dealer = s->opt.dealer >= 0 ? s->opt.dealer
                                     : (int)rng_below(&s->h.rng, (uint32_t)s->h.players);
    for (p = 0; p < s->h.players; p++) s->fools[p] = 0;
    s->hand_loser = -1;
    new_hand(s);
}

/* ---------------------------------------------------------------- legality */
/* DU-4.5 / DU-4.6: the most attacking cards of this bout. */
static inline int bout_limit(const DUState *s) {
    return (s->opt.first_five && s->bouts == 0) ? DU_FIRST_BOUT_LIMIT : DU_BOUT_LIMIT;
}

int du_bout_limit(const DUState *s) { return bout_limit(s); }

static inline int uncovered(const DUState *s) {
    int i, n = 0, stop = s->n_attack;
    for (i = 0; i < stop; i++) n += s->cover[i] < 0;
    return n;
}

int du_uncovered(const DUState *s) { return uncovered(s); }

/* DU-4.4, DU-4.5: one more attacking card fits the bout and the defender's hand. */
static inline int room_to_attack(const DUState *s) {
    return s->n_attack < bout_limit(s) && uncovered(s) < s->hand[s->defender].total;
}

/* DU-5.1: the cards whose rank is on the table, as a mask. */
static uint64_t table_ranks(const DUState *s) {
    uint64_t m = 0;
    int i, stop = s->n_attack;
    for (i = 0; i < stop; i++) {
        m |= ((uint64_t)0x8004002001ULL) << card_rank(s->attack[i]);
        if (s->cover[i] >= 0) m |= ((uint64_t)0x8004002001ULL) << card_rank(s->cover[i]);
    }
    return m;
}

/* DU-5.2: the defender, a partner of the defender (DU-10.2) and empty hands never throw in. */
static inline int may_throw(const DUState *s, int seat) {
    return seat != s->defender && s->hand[seat].total > 0 && opponents(s, seat, s->defender);
}

/* DU-9.1: the seat a transfer would pass the attack to, or -1 if none may take it. */
static int transfer_target(const DUState *s) {
    int i, target, stop;
    if (!s->opt.transfer || s->taking || s->n_attack >= bout_limit(s)) return -1;
    stop = s->n_attack;
    for (i = 0; i < stop; i++)
        if (s->cover[i] >= 0) return -1;
    target = next_holder(s, s->defender, s->defender);
    if (target < 0 || s->hand[target].total < s->n_attack + 1)    /* DU-9.2 */
        return -1;
    return target;
}

/* DU-4.4-4.6 for `count` more attacking cards: the bout's limit and the defender's hand. */
static inline int room_for(const DUState *s, int count) {
    return s->n_attack + count <= bout_limit(s) &&
           uncovered(s) + count <= s->hand[s->defender].total;
}

/* DU-13.1: the several-card attacks of seat p among the cards `allowed` (the table's ranks
 * when throwing in), ascending ids; their count. */
static int legal_many(const DUState *s, int p, uint64_t allowed, int32_t *out) {
    int pw, k, suit, rank, held, bits, count, n = 0;
    uint64_t m = s->hand[p].plane[0] & allowed;
    for (pw = 0; pw < DU_NUM_POWERS; pw++) {
        rank = rank_of_power(pw);
        held = 0;
        for (suit = 0; suit < NUM_SUITS; suit++)
            if (m & card_bit(suit * 13 + rank)) held |= 1 << suit;
        for (k = 0; k < DU_MANY_PER_RANK; k++) {
            bits = MANY_SUITS[k];
            if ((held & bits) != bits) continue;
            count = popcount64((uint64_t)bits);
            if (!room_for(s, count)) continue;
            out[n] = DU_A_MANY + pw * DU_MANY_PER_RANK + k;
            n += 1;
        }
    }
    return n;
}

static int du_legal(void *state, int32_t *out, int capacity) {
    DUState *s = (DUState *)state;
    int n = 0, c, first = -1, i, p = s->h.to_move, stop;
    uint64_t m;
    if (capacity < DU_MAX_LEGAL) return -1;
    if (s->h.phase == DU_PH_OVER || p < 0) return 0;
    m = s->hand[p].plane[0];
    if (s->h.phase == DU_PH_ATTACK) {                          /* DU-4.1: any card */
        while (m) {
            out[n] = DU_A_ATTACK + lowest_card(m);
            m &= m - 1;
            n += 1;
        }
        if (s->opt.attack_many) n += legal_many(s, p, ~(uint64_t)0, out + n);   /* DU-13.1 */
        return n;
    }
    if (s->h.phase == DU_PH_DEFEND) {
        stop = s->n_attack;
        for (i = 0; i < stop; i++) {
            if (s->cover[i] < 0) {
                first = s->attack[i];
                break;
            }
        }
        while (m) {                                            /* DU-4.2, DU-4.3 */
            c = lowest_card(m);
            m &= m - 1;
            if (beats(s, c, first)) {
                out[n] = DU_A_BEAT + c;
                n += 1;
            }
        }
        if (transfer_target(s) >= 0) {                         /* DU-9.1 */
            m = s->hand[p].plane[0] & (((uint64_t)0x8004002001ULL) << card_rank(first));
            while (m) {
                out[n] = DU_A_TRANSFER + lowest_card(m);
                m &= m - 1;
                n += 1;
            }
        }
        out[n] = DU_A_TAKE;                                    /* DU-6.1 */
        return n + 1;
    }
    /* PH_THROW / PH_TAKE_THROW: DU-5.1 ranks on the table, DU-4.4/4.5 room */
    if (room_to_attack(s)) {
        m &= table_ranks(s);
        while (m) {
            out[n] = DU_A_ATTACK + lowest_card(m);
            m &= m - 1;
            n += 1;
        }
    }
    out[n] = DU_A_PASS;                                        /* DU-5.3 */
    n += 1;
    if (s->opt.attack_many) n += legal_many(s, p, table_ranks(s), out + n);   /* DU-13.1 */
    return n;
}

/* ---------------------------------------------------------------- applying */
static inline void from_hand(DUState *s, int p, int card) {
    /* DU-11.3: a late card never on the table before came from this seat's own draws */
    if ((s->late & ~s->known[p]) & card_bit(card)) s->late_seen[p] += 1;
    ms_remove(&s->hand[p], card);
    s->known[p] &= ~card_bit(card);
}

/* DU-7.1: draw up to six while the stock lasts; the trump card, drawn last, is public. */
static void draw_to(DUState *s, int p) {
    int c;
    while (s->hand[p].total < DU_HAND_SIZE && s->stock.size > 0) {
        c = pile_pop(&s->stock);
        ms_add(&s->hand[p], c);
        s->drew[p] += 1;                       /* DU-11.3: everybody sees how many */
        if (s->stock.size == 0) {              /* DU-7.3: the face-up trump card */
            s->known[p] |= card_bit(c);
            if (s->late & card_bit(c)) s->late_seen[p] += 1;    /* DU-11.3: seen drawn */
        }
        s->drawn[s->n_drawn] = (uint8_t)c;
        s->drawn_seat[s->n_drawn] = (uint8_t)p;
        s->n_drawn += 1;
    }
}

/* DU-7.2: the attacker first, then the others in throw-in order, the defender last. */
static void refill(DUState *s) {
    int k, q, n = s->h.players;
    for (k = 0; k < n; k++) {
        q = (s->attacker + k) % n;
        if (q != s->defender) draw_to(s, q);
    }
    draw_to(s, s->defender);
}

/* The scoring rows (DU-8): indexes into BREAKDOWN_WHAT and BREAKDOWN_RULES (_state.pyx). */
enum { W_SAFE = 0, W_DURAK = 1 };
enum { R_DU_8_2 = 0, R_DU_8_3 = 1, R_DU_10_3 = 2 };

/* DU-8: the hand is over: the scoring rows (one per seat); DU-12: the fool's count, and the
 * next hand or the end of the match. */
static void finish(DUState *s) {
    int p, stop = s->h.players;
    s->n_rows = 0;
    for (p = 0; p < stop; p++) {
        if (s->loser < 0)
            s->penalty[p] = 0;
        else if (s->opt.partners)
            s->penalty[p] = opponents(s, p, s->loser) ? 0 : 1;
        else
            s->penalty[p] = p == s->loser ? 1 : 0;
        s->rows[p].owner = p;
        s->rows[p].what = s->penalty[p] ? W_DURAK : W_SAFE;
        s->rows[p].rule = s->loser < 0 ? R_DU_8_3 : (s->opt.partners ? R_DU_10_3 : R_DU_8_2);
        s->rows[p].detail = -1;
        s->rows[p].count = s->hand[p].total;
        s->rows[p].points = s->penalty[p];
        s->n_rows += 1;
        s->fools[p] += s->penalty[p];                          /* DU-12.1 */
        s->hand_left[p] = s->hand[p].total;
    }
    s->hand_loser = s->loser;
    s->hand_bouts = s->bouts;
    s->h.round_index += 1;
    if (s->h.round_index < s->opt.hands) {
        /* DU-12.2: the fool deals the next hand; Decision: after a draw the dealer again */
        if (s->loser >= 0) s->h.dealer = s->loser;
        new_hand(s);
        return;
    }
    s->h.phase = DU_PH_OVER;
    s->h.to_move = -1;
}

/* DU-8.1-8.4 (DU-10.3 with partners): whether the match ends here; sets the loser. */
static int check_over(DUState *s) {
    int p, holders = 0, last = -1, stop = s->h.players;
    int side_has[2];
    for (p = 0; p < stop; p++) {
        if (s->hand[p].total == 0 && s->stock.size == 0 && !((s->out >> p) & 1)) {
            s->out |= 1u << p;                                 /* DU-8.1 */
            s->went_out |= 1u << p;
        }
    }
    if (s->stock.size > 0) {
        if (s->bouts >= DU_MAX_BOUTS) {                        /* DU-8.4 */
            s->loser = -1;
            return 1;
        }
        return 0;
    }
    side_has[0] = side_has[1] = 0;
    for (p = 0; p < stop; p++) {
        if (s->hand[p].total > 0) {
            holders += 1;
            last = p;
            side_has[p & 1] = 1;
        }
    }
    if (s->opt.partners) {                                     /* DU-10.3 */
        if (side_has[0] && side_has[1]) {
            if (s->bouts >= DU_MAX_BOUTS) {
                s->loser = -1;
                return 1;
            }
            return 0;
        }
        s->loser = last;                                       /* -1 when both sides are out */
        return 1;
    }
    if (holders >= 2) {
        if (s->bouts >= DU_MAX_BOUTS) {
            s->loser = -1;
            return 1;
        }
        return 0;
    }
    s->loser = last;                                           /* DU-8.2, DU-8.3 */
    return 1;
}

/* DU-6.2 taken / DU-6.3 beaten; DU-7 refill; DU-4.7 the next bout. */
static void end_bout(DUState *s) {
    int i, next_attacker, stop;
    int took = s->taking;
    s->bout_n = table_cards(s, s->bout_cards);
    s->bout_defender = s->defender;
    s->bout_end = took ? DU_END_TAKEN : DU_END_BEATEN;
    stop = s->bout_n;
    for (i = 0; i < stop; i++) {
        if (took) {
            ms_add(&s->hand[s->defender], s->bout_cards[i]);
            s->known[s->defender] |= card_bit(s->bout_cards[i]);   /* DU-11.2 */
        } else {
            pile_push(&s->discard, s->bout_cards[i]);
        }
    }
    s->n_attack = 0;
    s->bouts += 1;
    s->h.turns += 1;
    refill(s);
    if (check_over(s)) {
        finish(s);
        return;
    }
    /* DU-4.7: a beaten defender attacks next; after a take, the player after the defender */
    if (!took && s->hand[s->defender].total > 0)
        next_attacker = s->defender;
    else
        next_attacker = next_holder(s, s->defender, -1);
    start_bout(s, next_attacker);
}

/* DU-5.2: from the current step on, the first seat that may throw in moves (it throws in or
 * passes, even with nothing to throw in: whether it holds a card of the table's ranks is its
 * secret); when none is left, or the bout is full, the bout ends (DU-5.3, DU-6.2). */
static void ask_throwers(DUState *s) {
    int seat, k, n = s->h.players;
    if (room_to_attack(s)) {
        for (k = s->thrower; k < n; k++) {
            seat = (s->attacker + k) % n;
            if (may_throw(s, seat)) {
                s->thrower = k;
                s->h.to_move = seat;
                s->h.phase = s->taking ? DU_PH_TAKE_THROW : DU_PH_THROW;
                return;
            }
        }
    }
    end_bout(s);
}

static void du_apply(void *state, int action) {
    DUState *s = (DUState *)state;
    int p = s->h.to_move, c, i, old, stop;
    s->bout_end = DU_END_NONE;
    s->n_drawn = 0;
    s->went_out = 0;
    if (action == DU_A_PASS) {                                 /* DU-5.3 */
        s->thrower += 1;
        ask_throwers(s);
        return;
    }
    if (action == DU_A_TAKE) {                                 /* DU-6.1 */
        s->taking = 1;
        s->thrower = 0;
        ask_throwers(s);
        return;
    }
    if (action >= DU_A_MANY) {                                 /* DU-13.1 */
        uint8_t cards[NUM_SUITS];
        stop = many_cards(action, cards);
        for (i = 0; i < stop; i++) {
            from_hand(s, p, cards[i]);
            s->attack[s->n_attack] = cards[i];
            s->cover[s->n_attack] = -1;
            s->n_attack += 1;
        }
        if (s->taking) {                                       /* DU-6.2: the same thrower */
            ask_throwers(s);
            return;
        }
        s->h.phase = DU_PH_DEFEND;                             /* DU-13.2 */
        s->h.to_move = s->defender;
        return;
    }
    if (action >= DU_A_TRANSFER) {                             /* DU-9.1 */
        c = action - DU_A_TRANSFER;
        from_hand(s, p, c);
        s->attack[s->n_attack] = c;
        s->cover[s->n_attack] = -1;
        s->n_attack += 1;
        old = s->defender;
        s->defender = next_holder(s, old, old);    /* transfer_target(), checked by legal */
        s->attacker = old;
        s->thrower = 0;
        s->h.phase = DU_PH_DEFEND;
        s->h.to_move = s->defender;
        return;
    }
    if (action >= DU_A_BEAT) {                                 /* DU-4.2 */
        c = action - DU_A_BEAT;
        from_hand(s, p, c);
        stop = s->n_attack;
        for (i = 0; i < stop; i++) {
            if (s->cover[i] < 0) {
                s->cover[i] = c;
                break;
            }
        }
        if (uncovered(s) > 0) return;                          /* the defender again */
        s->thrower = 0;                                        /* DU-5.2: ask from the attacker */
        ask_throwers(s);
        return;
    }
    c = action - DU_A_ATTACK;                                  /* DU-4.1, DU-5.1 */
    from_hand(s, p, c);
    s->attack[s->n_attack] = c;
    s->cover[s->n_attack] = -1;
    s->n_attack += 1;
    if (s->taking) {                                           /* DU-6.2: no answer; same thrower */
        ask_throwers(s);
        return;
    }
    s->h.phase = DU_PH_DEFEND;
    s->h.to_move = s->defender;
}

/* ---------------------------------------------------------------- results (DU-8) */
static int du_breakdown(const void *state, BreakdownRow *out, int capacity) {
    const DUState *s = (const DUState *)state;
    return copy_breakdown(s->rows, s->n_rows, out, capacity);
}

/* Higher is better: minus the fool's count once over (DU-12.3): -1 for the durak of a
 * one-hand match (its side with partners), 0 for the others. */
static void du_returns(const void *state, double *out) {
    const DUState *s = (const DUState *)state;
    int p, stop = s->h.players;
    for (p = 0; p < stop; p++) out[p] = s->h.to_move < 0 ? -(double)s->fools[p] : 0.0;
}

/* DU-12.3: the running fool's count (the hands finished). */
static void du_scores(const void *state, int32_t *out) {
    const DUState *s = (const DUState *)state;
    int p, stop = s->h.players;
    for (p = 0; p < stop; p++) out[p] = s->fools[p];
}

/* ---------------------------------------------------------------- the per-seat projection */
static int du_observation_size(const void *state) {
    (void)state;
    return DU_OBSERVATION_SIZE;
}

/* What `seat` sees (DU-11): its hand, the table, the discard, the trump, what every seat
 * knows of each hand, the sizes and who attacks and defends. */
static void du_observe(const void *state, int seat, float *out) {
    const DUState *s = (const DUState *)state;
    int p, i, stop;
    uint64_t m;
    memset(out, 0, DU_OBSERVATION_SIZE * sizeof(float));
    out[DU_O_OBSERVER + seat] = 1.0f;
    if (s->h.to_move >= 0) out[DU_O_TO_MOVE + s->h.to_move] = 1.0f;
    out[DU_O_PHASE + s->h.phase] = 1.0f;
    m = s->hand[seat].plane[0];
    while (m) {
        out[DU_O_HAND + index36(lowest_card(m))] = 1.0f;
        m &= m - 1;
    }
    stop = s->n_attack;
    for (i = 0; i < stop; i++) {
        out[DU_O_ATTACK + index36(s->attack[i])] = 1.0f;
        if (s->cover[i] >= 0) out[DU_O_COVER + index36(s->cover[i])] = 1.0f;
    }
    stop = s->discard.size;
    for (i = 0; i < stop; i++) out[DU_O_DISCARD + index36(s->discard.cards[i])] = 1.0f;
    stop = s->h.players;
    for (p = 0; p < stop; p++) {
        m = s->known[p];
        while (m) {
            out[DU_O_KNOWN + p * DU_CARDS36 + index36(lowest_card(m))] = 1.0f;
            m &= m - 1;
        }
        out[DU_O_HAND_SIZES + p] = (float)s->hand[p].total;
        if ((s->out >> p) & 1) out[DU_O_OUT + p] = 1.0f;
        out[DU_O_SCORES + p] = (float)s->fools[p];           /* DU-12.3 */
    }
    out[DU_O_TRUMP_SUIT + s->trump_suit] = 1.0f;
    out[DU_O_TRUMP_CARD + index36(s->trump_card)] = 1.0f;
    out[DU_O_STOCK_SIZE] = (float)s->stock.size;
    if (s->h.to_move >= 0) {
        out[DU_O_ATTACKER + s->attacker] = 1.0f;
        out[DU_O_DEFENDER + s->defender] = 1.0f;
    }
    out[DU_O_BOUTS] = (float)s->bouts;
    out[DU_O_LIMIT] = (float)bout_limit(s);
    out[DU_O_TAKING] = s->taking ? 1.0f : 0.0f;
}

/* ---------------------------------------------------------------- determinization */
static inline int popcount_known(const DUState *s, int p) {
    uint64_t m = s->known[p] & s->hand[p].plane[0];
    int n = 0;
    while (m) {
        m &= m - 1;
        n += 1;
    }
    return n;
}

/* C(n, k), exact: n <= 36 here and the sampler's k <= 9 (late cards are trumps, DU-11.3). */
static uint32_t choose(int n, int k) {
    uint64_t r = 1;
    int i;
    if (k < 0 || k > n) return 0;
    for (i = 1; i <= k; i++) r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return (uint32_t)r;
}

/* DU-11.3: lay the late cards of the pool out among the groups (the other hands' unknown
 * cards, in seat order, then the stock above its bottom card: `size[g]` places each, `room[g]`
 * the most late cards each may take), every arrangement that keeps to the rooms equally
 * likely. ways[g][m] counts the ways to place m late cards among groups g.. (the product of
 * C(size, taken) over the groups; at most C(35, 9) by Vandermonde, so a uint32 holds it); the
 * late count of each group is drawn in proportion to its ways, then the late and the other
 * cards are shuffled and dealt into the places, and the stock's part shuffled (its order is a
 * world too). -1 if no arrangement keeps to the rooms. */
static int arrange_late(Rng *rng, uint8_t *pool, int n, uint64_t late, const int32_t *size,
                        const int32_t *room, int groups) {
    uint8_t lates[DU_DECK_SIZE], others[DU_DECK_SIZE];
    uint32_t ways[DU_MAX_PLAYERS + 1][DU_NUM_POWERS + 1], r, t;
    int g, m, k, nl = 0, no = 0, at = 0, used_l = 0, used_o = 0, top;
    for (k = 0; k < n; k++) {
        if (late & card_bit(pool[k])) {
            lates[nl] = pool[k];
            nl += 1;
        } else {
            others[no] = pool[k];
            no += 1;
        }
    }
    if (nl > DU_NUM_POWERS) return -1;                 /* late cards are trumps: never */
    for (m = 0; m <= nl; m++) ways[groups][m] = m == 0;
    for (g = groups - 1; g >= 0; g--) {
        for (m = 0; m <= nl; m++) {
            ways[g][m] = 0;
            top = m < room[g] ? m : room[g];
            for (k = 0; k <= top; k++) ways[g][m] += choose(size[g], k) * ways[g + 1][m - k];
        }
    }
    if (ways[0][nl] == 0) return -1;
    shuffle_u8(rng, lates, nl);
    shuffle_u8(rng, others, no);
    m = nl;
    for (g = 0; g < groups; g++) {
        r = rng_below(rng, ways[g][m]);
        for (k = 0;; k++) {                             /* r < ways[g][m]: some k takes it */
            t = choose(size[g], k) * ways[g + 1][m - k];
            if (r < t) break;
            r -= t;
        }
        memcpy(pool + at, lates + used_l, (size_t)k);
        memcpy(pool + at + k, others + used_o, (size_t)(size[g] - k));
        used_l += k;
        used_o += size[g] - k;
        m -= k;
        if (g == groups - 1) shuffle_u8(rng, pool + at, size[g]);  /* the stock's order */
        at += size[g];
    }
    return 0;
}

/* Redeal what `seat` cannot see: the other hands' unknown cards and the stock above its
 * face-up bottom card, dealt back in their sizes; every card a hand is known to hold
 * (DU-11.2) stays, and no hand gets more unseen late cards than its draws leave room for
 * (DU-11.3), every world that allows equally likely. When no room is short, that is the plain
 * shuffle of the pool. The pool is laid out in id order first, so the world depends only on
 * what the seat knows and on rng. */
static int du_sample_hidden(void *state, int seat, Rng *rng) {
    DUState *s = (DUState *)state;
    uint8_t pool[DU_DECK_SIZE];
    int32_t unknown[DU_MAX_PLAYERS], size[DU_MAX_PLAYERS + 1], room[DU_MAX_PLAYERS + 1];
    uint64_t hidden = 0, m;
    int p, k, n = 0, players = s->h.players, stock = s->stock.size, stop, groups = 0;
    int n_late, short_room = 0;
    for (p = 0; p < players; p++) {
        unknown[p] = 0;
        if (p != seat) {
            hidden |= s->hand[p].plane[0] & ~s->known[p];
            unknown[p] = s->hand[p].total - popcount_known(s, p);
        }
    }
    for (k = 1; k < stock; k++) hidden |= card_bit(s->stock.cards[k]);
    m = hidden;
    while (m) {
        pool[n] = (uint8_t)lowest_card(m);
        m &= m - 1;
        n += 1;
    }
    n_late = popcount64(hidden & s->late);
    for (p = 0; p < players; p++) {                    /* the groups, in the deal-back order */
        if (p == seat) continue;
        size[groups] = unknown[p];
        room[groups] = s->drew[p] - s->late_seen[p];
        if (room[groups] < 0) return -1;               /* not a state play can reach */
        if (room[groups] < unknown[p] && room[groups] < n_late) short_room = 1;
        groups += 1;
    }
    size[groups] = stock > 1 ? stock - 1 : 0;
    room[groups] = size[groups];
    groups += 1;
    if (!short_room)
        shuffle_u8(rng, pool, n);
    else if (arrange_late(rng, pool, n, s->late, size, room, groups) != 0)
        return -1;
    n = 0;
    for (p = 0; p < players; p++) {
        if (p == seat) continue;
        ms_clear(&s->hand[p]);
        m = s->known[p];
        while (m) {
            ms_add(&s->hand[p], lowest_card(m));
            m &= m - 1;
        }
        stop = unknown[p];
        for (k = 0; k < stop; k++) {
            ms_add(&s->hand[p], pool[n]);
            n += 1;
        }
    }
    for (k = 1; k < stock; k++) {
        s->stock.cards[k] = pool[n];
        n += 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- GreedyBot's policy */
/* One move ahead from what the seat to move may know: its own hand, the table, the trump and
 * the stock's size. Every legal action gets a value; the highest wins, ties (within 1e-9)
 * broken with one draw (best_by_value). These weights are the policy's one source;
 * greedy.py's docstring documents them. */
static const double G_TRUMP = 9.0;             /* DU-4.3: a trump is worth more than any plain card */
static const double G_PAIR = 1.5;              /* a lead whose rank the hand holds again (DU-5.1) */
static const double G_THROW = 6.5;             /* throw in a card cheaper than this (DU-5) */
static const double G_TAKE_BASE = 4.0;         /* DU-6: taking costs ... */
static const double G_TAKE_PER_CARD = 1.5;     /* ... and more per card on the table */
static const double G_TRANSFER = 3.0;          /* DU-9: passing the bout on saves a cover */
static const double G_ENDGAME = 3.0;           /* stock empty: every card shed counts this much more */

/* What keeping a card is worth: its power, a trump more. */
static inline double card_cost(const DUState *s, int card) {
    return power(card) + (card_suit(card) == s->trump_suit ? G_TRUMP : 0.0);
}

/* GreedyBot's value of each of legal[0:n] (higher is better): reads the seat's own hand, the
 * table, the trump and the stock's size, nothing hidden. */
static void greedy_values(const DUState *s, const int32_t *legal, int n, double *values) {
    int k, a, c, p = s->h.to_move;
    int endgame = s->stock.size == 0;
    double shed = endgame ? G_ENDGAME : 0.0;
    for (k = 0; k < n; k++) {
        a = legal[k];
        if (a >= DU_A_MANY) {                                  /* DU-13.1 */
            uint8_t cards[NUM_SUITS];
            int i, count = many_cards(a, cards);
            double sum = 0.0;
            for (i = 0; i < count; i++) sum += card_cost(s, cards[i]);
            if (s->h.phase == DU_PH_ATTACK)    /* a lead: its mean cost, a pair bonus a card */
                values[k] = 20.0 - sum / count + G_PAIR * (count - 1);
            else                               /* thrown in: each card as one thrown alone */
                values[k] = count * (G_THROW + shed) - sum;
            continue;
        }
        if (a == DU_A_PASS) {
            values[k] = 0.0;
        } else if (a == DU_A_TAKE) {
            values[k] = -(G_TAKE_BASE + G_TAKE_PER_CARD * (s->n_attack + uncovered(s)));
            if (endgame) values[k] -= G_TAKE_BASE;
        } else if (a >= DU_A_TRANSFER) {
            c = a - DU_A_TRANSFER;
            values[k] = G_TRANSFER - card_cost(s, c) + shed;
        } else if (a >= DU_A_BEAT) {
            c = a - DU_A_BEAT;
            values[k] = -card_cost(s, c) + shed;
        } else {
            c = a - DU_A_ATTACK;
            if (s->h.phase == DU_PH_ATTACK) {
                values[k] = 20.0 - card_cost(s, c);
                if (s->hand[p].plane[0] & (((uint64_t)0x8004002001ULL) << card_rank(c)) &
                    ~card_bit(c))
                    values[k] += G_PAIR;
            } else {
                values[k] = G_THROW - card_cost(s, c) + shed;
            }
        }
    }
}

/* GreedyBot's move (the index into legal[0:n]): the highest value, ties (within 1e-9)
 * broken with one draw (best_by_value). */
static int du_greedy(const void *state, const int32_t *legal, int n, Rng *rng) {
    double values[DU_MAX_LEGAL];
    int32_t ties[DU_MAX_LEGAL];
    if (n == 1) return 0;
    greedy_values((const DUState *)state, legal, n, values);
    return best_by_value(values, n, rng, ties);
}

/* ---------------------------------------------------------------- the endgame solver */
/* With two players and at most the face-up trump card left in the stock (DU-7.3) every card
 * is known to both: the unseen cards are the other hand. What is left is a game of perfect
 * information, which alpha-beta solves exactly (the result of the hand: the durak, DU-8.2,
 * or a draw, DU-8.3). Values are seat 0's (1: seat 1 is the durak), seat 0 maximizing; a
 * transposition table in the caller's scratch keeps each position's bounds. The position
 * graph has no cycles: between two beaten bouts cards only pass one way, from the attacker
 * to the taker, and a beaten bout shrinks the hands. */
typedef struct SolveEntry {
    uint64_t key[4];               /* the position (solve_key); all zero: an empty slot */
    int8_t lower, upper;           /* seat 0's value lies in [lower, upper] */
} SolveEntry;

typedef struct Solver {
    SolveEntry *table;
    uint64_t mask;                 /* table size - 1 (a power of two), or no table when 0 */
    int64_t nodes, budget;
    int round;                     /* the hand being solved: its end is the leaf */
    int aborted;
} Solver;

/* Everything the rest of the hand depends on (the stock holds at most its known last card). */
static void solve_key(const DUState *s, uint64_t *key) {
    uint64_t a = 0, c = 0;
    int i, stop = s->n_attack;
    for (i = 0; i < stop; i++) {
        a |= (uint64_t)(index36(s->attack[i]) + 1) << (6 * i);
        c |= (uint64_t)(s->cover[i] < 0 ? 0 : index36(s->cover[i]) + 1) << (6 * i);
    }
    key[0] = s->hand[0].plane[0] | ((uint64_t)s->h.phase << 52) | ((uint64_t)s->h.to_move << 55)
             | ((uint64_t)s->attacker << 56) | ((uint64_t)s->defender << 57)
             | ((uint64_t)s->taking << 58) | ((uint64_t)s->thrower << 59)
             | ((uint64_t)(s->stock.size > 0) << 61) | ((uint64_t)(bout_limit(s) == 6) << 62)
             | ((uint64_t)1 << 63);   /* never all zero */
    key[1] = s->hand[1].plane[0];
    key[2] = a;
    key[3] = c;
}

static SolveEntry *solve_slot(Solver *sv, const uint64_t *key) {
    uint64_t h = key[0] * 0x9E3779B97F4A7C15ULL ^ key[1] * 0xC2B2AE3D27D4EB4FULL
                 ^ key[2] * 0x165667B19E3779F9ULL ^ key[3] * 0x27D4EB2F165667C5ULL;
    h ^= h >> 29;
    return &sv->table[h & sv->mask];
}

/* Seat 0's value of the hand's end: 1 when seat 1 is its durak, -1 when seat 0 is, 0 drawn. */
static int solve_leaf(const DUState *s) {
    return s->hand_loser == 1 ? 1 : s->hand_loser == 0 ? -1 : 0;
}

/* The legal moves of s, best first by GreedyBot's values (good moves first: more cut-offs). */
static int solve_moves(const DUState *s, int32_t *moves) {
    double values[DU_MAX_LEGAL], v;
    int n = du_legal((void *)s, moves, DU_MAX_LEGAL), i, j;
    int32_t m;
    greedy_values(s, moves, n, values);
    for (i = 1; i < n; i++) {                  /* insertion sort, stable: a few dozen moves */
        v = values[i];
        m = moves[i];
        for (j = i; j > 0 && values[j - 1] < v; j--) {
            values[j] = values[j - 1];
            moves[j] = moves[j - 1];
        }
        values[j] = v;
        moves[j] = m;
    }
    return n;
}

static int solve_value(Solver *sv, const DUState *s, int alpha, int beta);

/* Seat 0's value after `action` in s. */
static int solve_child(Solver *sv, const DUState *s, int action, int alpha, int beta) {
    DUState child;
    memcpy(&child, s, sizeof(DUState));
    du_apply(&child, action);
    if (child.h.to_move < 0 || child.h.round_index != sv->round) return solve_leaf(&child);
    return solve_value(sv, &child, alpha, beta);
}

static int solve_value(Solver *sv, const DUState *s, int alpha, int beta) {
    int32_t moves[DU_MAX_LEGAL];
    uint64_t key[4];
    SolveEntry *e = NULL;
    int n, k, v, best, alpha0, beta0, maximize = s->h.to_move == 0;
    sv->nodes += 1;
    if (sv->nodes > sv->budget) sv->aborted = 1;
    if (sv->aborted) return 0;
    if (sv->mask) {
        solve_key(s, key);
        e = solve_slot(sv, key);
        if (e->key[0] == key[0] && e->key[1] == key[1] && e->key[2] == key[2]
            && e->key[3] == key[3]) {                     /* (no memcmp: the kernel's libc) */
            if (e->lower >= beta || e->lower == e->upper) return e->lower;
            if (e->upper <= alpha) return e->upper;
            if (e->lower > alpha) alpha = e->lower;
            if (e->upper < beta) beta = e->upper;
        }
    }
    alpha0 = alpha;                            /* the bounds stored are the narrowed window's */
    beta0 = beta;
    n = solve_moves(s, moves);
    best = maximize ? -2 : 2;
    for (k = 0; k < n; k++) {
        v = solve_child(sv, s, moves[k], alpha, beta);
        if (sv->aborted) return 0;
        if (maximize ? v > best : v < best) best = v;
        if (maximize && best > alpha) alpha = best;
        if (!maximize && best < beta) beta = best;
        if (alpha >= beta) break;
    }
    if (e != NULL) {                           /* always replace: the newest is the likeliest */
        memcpy(e->key, key, sizeof(key));
        e->lower = best > alpha0 ? (int8_t)best : -1;      /* failed low: only an upper bound */
        e->upper = best < beta0 ? (int8_t)best : 1;        /* failed high: only a lower bound */
    }
    return best;
}

/* The solve hook (kernel.h): two players, the stock at most its face-up last card. The other
 * hand is rebuilt from what the mover knows (every card not in its hand, the table, the
 * discard or the stock), so the solver reads nothing hidden. */
static int du_solve(const void *state, const int32_t *legal, int n, int every, int64_t budget,
                    void *scratch, size_t scratch_bytes, int8_t *values) {
    const DUState *s = (const DUState *)state;
    DUState world;
    Solver sv;
    uint64_t seen = 0, entries = 0;
    double order_value[DU_MAX_LEGAL];
    int32_t order[DU_MAX_LEGAL];
    int j, k, o, v, i, p = s->h.to_move, other, best = -2, sign, alpha, beta;
    if (s->h.players != 2 || p < 0 || s->stock.size > 1 || n > DU_MAX_LEGAL)
        return SOLVE_NOT_PERFECT;
    other = 1 - p;
    memcpy(&world, s, sizeof(DUState));
    seen = s->hand[p].plane[0];
    for (i = 0; i < s->discard.size; i++) seen |= card_bit(s->discard.cards[i]);
    for (i = 0; i < s->stock.size; i++) seen |= card_bit(s->stock.cards[i]);
    for (i = 0; i < s->n_attack; i++) {
        seen |= card_bit(s->attack[i]);
        if (s->cover[i] >= 0) seen |= card_bit(s->cover[i]);
    }
    ms_clear(&world.hand[other]);
    for (i = 0; i < DU_DECK_SIZE; i++)
        if (!(seen & card_bit(DECK[i]))) ms_add(&world.hand[other], DECK[i]);
    if (world.hand[other].total != s->hand[other].total) return SOLVE_NOT_PERFECT;
    sv.table = (SolveEntry *)scratch;
    while (entries * 2 * sizeof(SolveEntry) <= scratch_bytes && entries < ((uint64_t)1 << 40))
        entries = entries ? entries * 2 : 1;
    sv.mask = entries > 1 && scratch != NULL ? entries - 1 : 0;
    if (sv.mask) memset(scratch, 0, (size_t)entries * sizeof(SolveEntry));
    sv.nodes = 0;
    sv.budget = budget;
    sv.round = s->h.round_index;
    sv.aborted = 0;
    sign = p == 0 ? 1 : -1;                    /* seat 0's values to the mover's */
    for (k = 0; k < n; k++) values[k] = SOLVE_UNKNOWN;
    greedy_values(&world, legal, n, order_value);
    for (k = 0; k < n; k++) order[k] = k;
    for (k = 1; k < n; k++) {                  /* GreedyBot's best first, ties in legal order */
        o = order[k];
        for (i = k; i > 0 && order_value[order[i - 1]] < order_value[o]; i--) order[i] = order[i - 1];
        order[i] = o;
    }
    for (j = 0; j < n; j++) {
        k = order[j];
        /* every: each move's exact value (the full window); else only whether it is better
         * than the best so far (a window above it, in seat 0's terms), and stop at a win */
        alpha = -2;
        beta = 2;
        if (!every && best > -2) {
            if (sign > 0)
                alpha = best;
            else
                beta = -best;
        }
        v = sign * solve_child(&sv, &world, legal[k], alpha, beta);
        if (sv.aborted) return SOLVE_OVER_BUDGET;
        if (every || v > best) values[k] = (int8_t)v;
        if (v > best) best = v;
        if (!every && best == SOLVE_WIN) break;
    }
    return 0;
}

/* Random play with this game's hooks called directly (kernel.h, play_loop). */
static long long du_play(void *s, Rng *chooser, int32_t *scratch, long long max_actions) {
    return play_loop(s, &DU_HOOKS, chooser, scratch, max_actions);
}

/* ---------------------------------------------------------------- refusals */
/* Why an id is not legal now: reasons index words.REFUSALS (the texts stay in Python). */
enum {
    R_LEAD = 0, R_PASS_THROWER, R_TAKE_DEFENDER, R_NOT_HELD, R_TRANSFER_DEFENDER, R_TRANSFER_OFF,
    R_BOUT_FULL, R_TRANSFER_BEATEN, R_TRANSFER_RANK, R_TRANSFER_NEXT_SHORT, R_BEAT_DEFENDER,
    R_NO_BEAT, R_DEFENDER_MOVES, R_DEFENDER_SHORT, R_RANK_NOT_ON_TABLE, R_MANY_OFF,
    R_MANY_LIMIT, R_MANY_DEFENDER, NUM_REFUSALS
};

static int du_refuse(const void *state, int32_t action, Refusal *out) {
    const DUState *s = (const DUState *)state;
    int p = s->h.to_move, c, i, first = -1;
    if (action == DU_A_PASS) {
        if (s->h.phase == DU_PH_ATTACK) return refuse0(out, R_LEAD, "DU-4.1");
        return refuse0(out, R_PASS_THROWER, "DU-5.3");
    }
    if (action == DU_A_TAKE) return refuse0(out, R_TAKE_DEFENDER, "DU-6.1");
    if (action >= DU_A_MANY) {                                 /* DU-13.1 */
        uint8_t cards[NUM_SUITS];
        int count = many_cards(action, cards);
        if (!s->opt.attack_many) return refuse0(out, R_MANY_OFF, "DU-13.1");
        if (s->h.phase == DU_PH_DEFEND) return refuse0(out, R_DEFENDER_MOVES, "DU-4.2");
        for (i = 0; i < count; i++)
            if (s->hand[p].count[cards[i]] == 0) return refuse1(out, R_NOT_HELD, "DU-4.1", cards[i]);
        if (s->h.phase != DU_PH_ATTACK && !(table_ranks(s) & card_bit(cards[0])))
            return refuse1(out, R_RANK_NOT_ON_TABLE, "DU-5.1", cards[0]);
        if (s->n_attack + count > bout_limit(s))
            return refuse1(out, R_MANY_LIMIT, "DU-4.5", bout_limit(s) - s->n_attack);
        return refuse1(out, R_MANY_DEFENDER, "DU-4.4", s->hand[s->defender].total - uncovered(s));
    }
    c = action < DU_A_TAKE ? action % 52 : -1;
    if (c >= 0 && s->hand[p].count[c] == 0) return refuse1(out, R_NOT_HELD, "DU-4.1", c);
    if (action >= DU_A_TRANSFER) {
        if (s->h.phase != DU_PH_DEFEND) return refuse0(out, R_TRANSFER_DEFENDER, "DU-9.1");
        if (!s->opt.transfer) return refuse0(out, R_TRANSFER_OFF, "DU-9.1");
        if (s->n_attack >= bout_limit(s)) return refuse1(out, R_BOUT_FULL, "DU-4.5", s->n_attack);
        for (i = 0; i < s->n_attack; i++)
            if (s->cover[i] >= 0) return refuse0(out, R_TRANSFER_BEATEN, "DU-9.1");
        if (card_rank(c) != card_rank(s->attack[0]))
            return refuse1(out, R_TRANSFER_RANK, "DU-9.1", c);
        return refuse0(out, R_TRANSFER_NEXT_SHORT, "DU-9.2");
    }
    if (action >= DU_A_BEAT) {
        if (s->h.phase != DU_PH_DEFEND) return refuse0(out, R_BEAT_DEFENDER, "DU-4.2");
        for (i = 0; i < s->n_attack; i++)
            if (s->cover[i] < 0) {
                first = s->attack[i];
                break;
            }
        return refuse2(out, R_NO_BEAT, "DU-4.3", c, first);
    }
    if (s->h.phase == DU_PH_DEFEND) return refuse0(out, R_DEFENDER_MOVES, "DU-4.2");
    if (s->n_attack >= bout_limit(s)) return refuse1(out, R_BOUT_FULL, "DU-4.5", s->n_attack);
    if (uncovered(s) >= s->hand[s->defender].total) return refuse0(out, R_DEFENDER_SHORT, "DU-4.4");
    return refuse1(out, R_RANK_NOT_ON_TABLE, "DU-5.1", c);
}

const GameHooks DU_HOOKS = {
    GAME_HOOKS_HEAD,
    .name = "durak",
    .state_size = sizeof(DUState),
    .num_actions = DU_NUM_ACTIONS,
    .max_legal = DU_MAX_LEGAL,
    .start = du_start,
    .legal = du_legal,
    .apply = du_apply,
    .observation_size = du_observation_size,
    .observe = du_observe,
    .returns = du_returns,
    .scores = du_scores,
    .sample_hidden = du_sample_hidden,
    .rollout = NULL,
    .zones = ZONES,
    .num_zones = NUM_ZONES,
    .zone_cards = du_zone_cards,
    .known_cards = du_known_cards,
    .breakdown = du_breakdown,
    .greedy = du_greedy,
    .hand_cards = NULL,
    .play = du_play,
    .refuse = du_refuse,
    .num_refusals = NUM_REFUSALS,
    .solve = du_solve
};

/* ---------------------------------------------------------------- the game for the C ABI */
/* The options, as the Python Option table in __init__.py (same names, order, defaults). */
enum { OPT_DEALER = 0, OPT_FIRST_ATTACKER = 1, OPT_TRANSFER = 2, OPT_FIRST_BOUT_FIVE = 3,
       OPT_PARTNERS = 4, OPT_HANDS = 5, OPT_ATTACK_MANY = 6, NUM_OPTIONS = 7 };

static const char *const FIRST_ATTACKER_CHOICES[2] = {"lowest_trump", "random"};

static const OptionSpec DU_OPTIONS[NUM_OPTIONS] = {
    /* the dealer's seat; None draws it by lot */
    {"dealer", OPT_SEAT_OR_LOT, "DU-2.1", OPTION_NONE, 0, 0, 0, NULL, 0, 0},
    /* who attacks first: the lowest trump in hand, or by lot */
    {"first_attacker", OPT_CHOICE, "DU-3.1, DU-3.2", 0, 0, 0, 0, FIRST_ATTACKER_CHOICES, 2, 0},
    /* perevodnoy: the defender may pass the attack on with a card of its rank */
    {"transfer", OPT_FLAG, "DU-9", 0, 0, 0, 0, NULL, 0, 0},
    /* at most 5 attacking cards in the first bout */
    {"first_bout_five", OPT_FLAG, "DU-4.6", 0, 0, 0, 0, NULL, 0, 0},
    /* partners sit alternately (4 or 6 players); a side loses together */
    {"partners", OPT_FLAG, "DU-10", 0, 0, 0, 0, NULL, 0, (1u << 4) | (1u << 6)},
    /* the hands of the match; each hand's durak scores a fool */
    {"hands", OPT_INT, "DU-12.1", 1, 1, DU_MAX_HANDS, 0, NULL, 0, 0},
    /* several cards of one rank at once: a lead or a throw-in */
    {"attack_many", OPT_FLAG, "DU-13.1", 0, 0, 0, 0, NULL, 0, 0}
};

/* A zeroed state made a game of `players` seats with the resolved options (GameKernel.init):
 * what DurakState.__init__ does after init_header. 0, or -1 for values it cannot take. */
int du_init(void *state, int players, const int64_t *values) {
    DUState *s = (DUState *)state;
    int64_t dealer = values[OPT_DEALER];
    int i;
    if (players < DU_MIN_PLAYERS || players > DU_MAX_PLAYERS) return -1;
    if (dealer != OPTION_NONE && (dealer < 0 || dealer >= players)) return -1;
    if (values[OPT_FIRST_ATTACKER] < 0 || values[OPT_FIRST_ATTACKER] > 1) return -1;
    for (i = OPT_TRANSFER; i <= OPT_PARTNERS; i++)
        if (values[i] != 0 && values[i] != 1) return -1;
    if (values[OPT_PARTNERS] && players != 4 && players != 6) return -1;     /* DU-10 */
    if (values[OPT_HANDS] < 1 || values[OPT_HANDS] > DU_MAX_HANDS) return -1; /* DU-12.1 */
    if (values[OPT_ATTACK_MANY] != 0 && values[OPT_ATTACK_MANY] != 1) return -1;
    s->h.players = players;
    s->h.to_move = -1;
    s->opt.dealer = dealer == OPTION_NONE ? -1 : (int32_t)dealer;
    s->opt.lowest_trump = values[OPT_FIRST_ATTACKER] == 0;
    s->opt.transfer = (int)values[OPT_TRANSFER];
    s->opt.first_five = (int)values[OPT_FIRST_BOUT_FIVE];
    s->opt.partners = (int)values[OPT_PARTNERS];
    s->opt.hands = (int32_t)values[OPT_HANDS];
    s->opt.attack_many = (int)values[OPT_ATTACK_MANY];
    memcpy(s->deck, DECK, DU_DECK_SIZE);
    s->h.phase = DU_PH_OVER;
    s->loser = -1;
    return 0;
}

/* str(action): "attack 7H", "beat 9H", "transfer 7S", "take", "pass" (the same for every
 * state); -1 (and an empty string) for an id out of range. */
int du_action_label(const void *state, int action, char *buf, size_t len) {
    Label b = label_start(buf, len);
    (void)state;
    if (action < 0 || action >= DU_NUM_ACTIONS) {
        label_end(&b);
        return -1;
    }
    if (action >= DU_A_MANY) {                                 /* "attack 7C 7S" */
        uint8_t cards[NUM_SUITS];
        int i, count = many_cards(action, cards);
        label_put(&b, "attack");
        for (i = 0; i < count; i++) {
            label_put(&b, " ");
            label_card(&b, cards[i]);
        }
    } else if (action == DU_A_TAKE) {
        label_put(&b, "take");
    } else if (action == DU_A_PASS) {
        label_put(&b, "pass");
    } else {
        label_put(&b, action >= DU_A_TRANSFER ? "transfer " : action >= DU_A_BEAT ? "beat "
                                                                                  : "attack ");
        label_card(&b, action % 52);
    }
    return label_end(&b);
}

/* DU-1.1: the deck's ids in id order, as the Python composition (durak_deck()). */
int du_composition(const void *state, uint8_t *out) {
    (void)state;
    memcpy(out, DECK, DU_DECK_SIZE);
    return DU_DECK_SIZE;
}

const GameKernel DU_KERNEL = {
    &DU_HOOKS, DU_OPTIONS, NUM_OPTIONS, DU_MIN_PLAYERS, DU_MAX_PLAYERS, 2,
    du_init, du_action_label, DU_DECK_SIZE, du_composition
};
