/* Crazy Eights' kernel (rules: games/crazy_eights.md, rule IDs CE-x.y), exactly as OpenSpiel's
 * ``crazy_eights`` plays it: the deal, legality, apply, scoring, the per-seat projection, the
 * zones, sample_hidden and GreedyBot's policy, over the core's kernel interface; the hook
 * table CE_HOOKS and the ABI's CE_KERNEL (options, init, action labels, composition).
 * C99, no global that changes, nothing from libc but memcpy/memset. kernel.h describes the
 * card indices and the action ids. */
#include "cardcore/games/crazy_eights/kernel.h"

/* The kernel's own short names for the header's constants. */
enum {
    MIN_PLAYERS = CE_MIN_PLAYERS,
    MAX_PLAYERS = CE_MAX_PLAYERS,
    ONE_DECK_MAX_PLAYERS = CE_ONE_DECK_MAX_PLAYERS,
    NUM_CARDS = CE_NUM_CARDS,
    MAX_DECK = CE_MAX_DECK,
    HAND_SIZE = CE_HAND_SIZE,
    HAND_SIZE_TWO_PLAYERS = CE_HAND_SIZE_TWO_PLAYERS,
    EIGHT_RANK = CE_EIGHT_RANK,
    SKIP_RANK = CE_SKIP_RANK,
    REVERSE_RANK = CE_REVERSE_RANK,
    DRAW_TWO_RANK = CE_DRAW_TWO_RANK,
    DRAW_TWO_CARDS = CE_DRAW_TWO_CARDS,
    EIGHT_POINTS = CE_EIGHT_POINTS,
    COURT_RANK = CE_COURT_RANK,
    COURT_POINTS = CE_COURT_POINTS,
    A_DRAW = CE_A_DRAW,
    A_PASS = CE_A_PASS,
    A_NOMINATE = CE_A_NOMINATE,
    NUM_ACTIONS = CE_NUM_ACTIONS,
    MAX_LEGAL = CE_MAX_LEGAL,
    ROW_EIGHTS = CE_ROW_EIGHTS,
    ROW_COURT = CE_ROW_COURT,
    ROW_NUMBERS = CE_ROW_NUMBERS,
    ROWS_PER_SEAT = CE_ROWS_PER_SEAT,
    R_CE_8_1 = CE_R_CE_8_1,
    R_CE_8_2 = CE_R_CE_8_2,
    PH_PLAY = CE_PH_PLAY,
    PH_NOMINATE = CE_PH_NOMINATE,
    PH_OVER = CE_PH_OVER,
    MAX_CLASSES = CE_MAX_CLASSES,
    E_LOG_CAP = CE_E_LOG_CAP,
    E_DRAW = CE_E_DRAW,
    E_PLAY = CE_E_PLAY,
    E_PLAY_EIGHT = CE_E_PLAY_EIGHT,
    MAX_DRAWN = CE_MAX_DRAWN,
    Z_HAND = CE_Z_HAND,
    Z_STOCK = CE_Z_STOCK,
    Z_DISCARD = CE_Z_DISCARD,
    NUM_ZONES = CE_NUM_ZONES,
    NUM_PIECES = CE_NUM_PIECES
};

/* The core must be large enough (a negative array size stops the build otherwise). */
typedef char ce_core_is_large_enough[
    ((int)MAX_DECK <= (int)PILE_CAPACITY && 2 <= (int)MS_MAX_COPIES
     && (int)MAX_PLAYERS * (int)ROWS_PER_SEAT <= (int)MAX_BREAKDOWN_ROWS
     && (int)NUM_PIECES + 1 <= (int)CE_MAX_OBS_PIECES) ? 1 : -1];

/* The 13 indices of an OpenSpiel suit, as a mask (bits suit, suit + 4, ..., suit + 48). */
static inline uint64_t suit_cards(int suit) { return (uint64_t)0x1111111111111ULL << suit; }
/* The 4 indices of an OpenSpiel rank, as a mask. */
static inline uint64_t rank_cards(int rank) { return (uint64_t)0xF << (4 * rank); }

static inline int os_rank(int card) { return ce_os_rank(card); }
static inline int os_suit(int card) { return ce_os_suit(card); }
static inline int eight_of(int suit) { return ce_eight_of(suit); }

int ce_decks_for(int players) {
    return players > ONE_DECK_MAX_PLAYERS ? 2 : 1;                    /* CE-1.2 */
}

int ce_hand_size_for(int players) {
    return players == 2 ? HAND_SIZE_TWO_PLAYERS : HAND_SIZE;          /* CE-2.2 */
}

/* ---------------------------------------------------------------- scoring (CE-8) */
/* CE-8.1 (face) / CE-8.2 (openspiel): the penalty of one card. */
int ce_card_points(int card, int face) {
    int rank = os_rank(card);
    if (rank == EIGHT_RANK) return EIGHT_POINTS;
    if (rank >= COURT_RANK) return COURT_POINTS;
    return face ? rank + 2 : card + 2;     /* CE-8.2: OpenSpiel's ScoreUp charges card + 2 */
}

/* ---------------------------------------------------------------- the zones: who sees what */
static const ZoneSpec ZONES[NUM_ZONES] = {
    {"hand", ZONE_SEAT, 0, SEEN_BY_OWNER},
    {"stock", ZONE_SHARED, 0, SEEN_BY_NONE},
    {"discard", ZONE_SHARED, 0, SEEN_BY_ALL},
};

/* The cards of a zone as cardcore ids (a hand in id order; piles bottom to top). */
int ce_zone_cards(const void *state, int zone, int instance, uint8_t *out) {
    const CEState *s = (const CEState *)state;
    int n = 0, c, k, i, copies;
    const Pile *pile;
    if (zone == Z_HAND) {
        for (c = 0; c < NUM_CARDS; c++) {
            copies = s->hand[instance].count[ce_os_index(c)];
            for (k = 0; k < copies; k++) {
                out[n] = (uint8_t)c;
                n += 1;
            }
        }
        return n;
    }
    pile = zone == Z_STOCK ? &s->stock : &s->discard;
    for (i = 0; i < pile->size; i++) out[i] = (uint8_t)ce_card_id(pile->cards[i]);
    return pile->size;
}

/* The cards of a hidden zone whose place every seat knows ("Hidden cards"): a stacked deal's
 * turned-up eights still at the stock bottom (CE-2.4), and those a seat drew from there
 * (CE-10.2). */
static int ce_known_cards(const void *state, int zone, int instance, uint8_t *out) {
    const CEState *s = (const CEState *)state;
    int n = 0, k, i, copies;
    if (zone == Z_HAND) {
        for (k = 0; k < NUM_SUITS; k++) {
            copies = s->known_eights[instance][k];
            for (i = 0; i < copies; i++) {
                out[n] = (uint8_t)ce_card_id(eight_of(k));
                n += 1;
            }
        }
        return n;
    }
    if (zone == Z_STOCK) {
        for (i = 0; i < s->known_bottom; i++) out[i] = (uint8_t)ce_card_id(s->stock.cards[i]);
        return s->known_bottom;
    }
    return 0;
}

/* ---------------------------------------------------------------- the deal (CE-2) */
/* CE-2.2: the seat deck position `position` (0 = top) is dealt to, one card at a time from
 * the dealer's next seat (the dealer gets each round's last card); -1 past the hands. */
int ce_deal_seat(int players, int dealer, int hand_size, int position) {
    if (position < players * hand_size) return (dealer + 1 + position) % players;
    return -1;
}

/* Insert at `index` (0 = bottom, p->size = top): each card from there up moves one place up
 * (carried one at a time, so that no compiler makes a memmove of it: the kernel uses none). */
static void pile_insert(Pile *p, int index, int card) {
    uint8_t carry = (uint8_t)card, t;
    int i;
    for (i = index; i < p->size; i++) {
        t = p->cards[i];
        p->cards[i] = carry;
        carry = t;
    }
    p->cards[p->size] = carry;
    p->size += 1;
}

/* CE-2: shuffle (unless stacked), deal, turn up; CE-4.5 a special turn-up. */
static void ce_deal(CEState *s) {
    uint8_t order[MAX_DECK];
    int i, p, c, n = s->deck_size, players = s->h.players;
    s->stacked_deal = s->h.stacked_size > 0;
    deal_prologue(&s->h, s->deck, n, order);
    for (p = 0; p < players; p++) ms_clear(&s->hand[p]);
    s->stock.size = 0;
    s->discard.size = 0;
    i = n - 1;
    while (i >= 0) {                              /* bottom first, so that order[0] ends on top */
        c = ce_os_index(order[i]);
        p = ce_deal_seat(players, s->h.dealer, s->hand_size, i);
        if (p < 0)
            pile_push(&s->stock, c);
        else
            ms_add(&s->hand[p], c);
        i -= 1;
    }
    for (;;) {                                    /* CE-2.3, CE-2.4 */
        c = pile_pop(&s->stock);
        if (os_rank(c) != EIGHT_RANK) break;
        s->reburied[os_suit(c)] += 1;
        if (s->stacked_deal) {                    /* to the bottom, a place everybody knows */
            pile_insert(&s->stock, 0, c);
            s->known_bottom += 1;
        } else {                                  /* back into the deck at random, as OpenSpiel */
            pile_insert(&s->stock, (int)rng_below(&s->h.rng, (uint32_t)(s->stock.size + 1)), c);
            s->e_hidden[os_suit(c)] = 1;
        }
    }
    pile_push(&s->discard, c);
    s->last_card = c;
    s->last_suit = os_suit(c);
    s->e_active = s->decks == 1 && !s->stacked_deal
                  && (s->e_hidden[0] | s->e_hidden[1] | s->e_hidden[2] | s->e_hidden[3]) != 0;
    s->h.phase = PH_PLAY;
    s->h.to_move = (s->h.dealer + 1) % players;   /* CE-2.5 */
    if (s->opt.special) {                         /* CE-4.5: as if the dealer had played it */
        if (os_rank(c) == SKIP_RANK) {
            s->h.to_move = (s->h.dealer + 2) % players;
        } else if (os_rank(c) == REVERSE_RANK) {
            s->h.to_move = (s->h.dealer - 1 + players) % players;
            s->direction = -1;
        } else if (os_rank(c) == DRAW_TWO_RANK) {
            s->twos_owed += DRAW_TWO_CARDS;
        }
    }
}

/* CE-2.1: the dealer by option or by lot, then the deal. */
static void ce_start(void *state) {
    CEState *s = (CEState *)state;
    s->h.dealer = s->opt.dealer >= 0 ? s->opt.dealer
                                     : (int32_t)rng_below(&s->h.rng, (uint32_t)s->h.players);
    ce_deal(s);
}

/* ---------------------------------------------------------------- legality */
static int ce_legal(void *state, int32_t *out, int capacity) {
    CEState *s = (CEState *)state;
    int n = 0, k;
    uint64_t m;
    const Multiset *hand;
    if (capacity < MAX_LEGAL) return -1;
    if (s->h.phase == PH_NOMINATE) {              /* CE-3.3 */
        for (k = 0; k < NUM_SUITS; k++) out[k] = A_NOMINATE + k;
        return NUM_SUITS;
    }
    if (s->h.phase != PH_PLAY) return 0;
    hand = &s->hand[s->h.to_move];
    if (s->twos_owed > 0)                         /* CE-4.3: a 2 or the draw */
        m = hand->plane[0] & rank_cards(DRAW_TWO_RANK);
    else                                          /* CE-3.1: suit, rank or any eight */
        m = hand->plane[0] & (suit_cards(s->last_suit) | rank_cards(os_rank(s->last_card))
                              | rank_cards(EIGHT_RANK));
    while (m) {
        out[n] = lowest_card(m);
        m &= m - 1;
        n += 1;
    }
    if (s->stock.size > 0 && (s->twos_owed > 0 || s->draws != s->opt.max_draw_cards)) {
        out[n] = A_DRAW;                          /* CE-5.1, CE-4.4 */
        n += 1;
    }
    if (s->can_pass || s->stock.size == 0) {      /* CE-5.2, CE-5.3 */
        out[n] = A_PASS;
        n += 1;
    }
    return n;
}

/* ---------------------------------------------------------------- source classes of unseen cards */
static inline int known_count(const CEState *s, int p, int card) {
    return os_rank(card) == EIGHT_RANK ? s->known_eights[p][os_suit(card)] : 0;
}

/* Copies of `card` in p's hand whose place nobody else knows. */
static inline int unknown_count(const CEState *s, int p, int card) {
    return s->hand[p].count[card] - known_count(s, p, card);
}

int ce_unknown_count(const CEState *s, int p, int card) { return unknown_count(s, p, card); }

static inline void log_e(CEState *s, int p, int kind) {
    if (s->e_log_len >= E_LOG_CAP) {              /* cannot happen with one deck; stay sound */
        s->e_active = 0;
        return;
    }
    s->e_log[s->e_log_len] = (uint8_t)(p | (kind << 4));
    s->e_log_len += 1;
}

/* Forget the difference between classes a and b (b's cards become a's): what nobody can tell
 * apart any more. The reburied eights' accounting needs class 0 intact. */
static void merge_classes(CEState *s, int a, int b) {
    int p, c, k, t, copies;
    if (a == b) return;
    if (a > b) {
        t = a;
        a = b;
        b = t;
    }
    for (p = 0; p < s->h.players; p++)
        for (c = 0; c < NUM_CARDS; c++) {
            copies = unknown_count(s, p, c);
            for (k = 0; k < copies; k++)
                if (s->hand_cls[p][c][k] == b) s->hand_cls[p][c][k] = (uint8_t)a;
        }
    if (s->stock_cls == b) s->stock_cls = a;
    if (s->cls_epoch[b] < s->cls_epoch[a]) s->cls_epoch[a] = s->cls_epoch[b];
    if (a == 0) s->e_active = 0;
}

static int holds_class(const CEState *s, int p, int cls) {
    int c, k, copies;
    for (c = 0; c < NUM_CARDS; c++) {
        copies = unknown_count(s, p, c);
        for (k = 0; k < copies; k++)
            if (s->hand_cls[p][c][k] == cls) return 1;
    }
    return 0;
}

/* Two decks: p plays a copy of `card`; if another unseen copy has another class that p may
 * hold, nobody else can tell which class left p's hand: merge them. */
static void merge_if_ambiguous(CEState *s, int p, int card, int cls) {
    int q, k, i, other, copies, end;
    for (q = 0; q < s->h.players; q++) {
        copies = unknown_count(s, q, card);
        for (k = 0; k < copies; k++) {
            if (q == p && k == unknown_count(s, p, card) - 1) continue;   /* the copy being played */
            other = s->hand_cls[q][card][k];
            if (other != cls && holds_class(s, p, other)) {
                merge_classes(s, cls, other);
                return;
            }
        }
    }
    end = s->stock.size;
    for (i = s->known_bottom; i < end; i++) {
        if (s->stock.cards[i] == card && s->stock_cls != cls && holds_class(s, p, s->stock_cls)) {
            merge_classes(s, cls, s->stock_cls);
            return;
        }
    }
}

/* Move a card from p's hand (the public bookkeeping first, then the hand). */
static void take_card(CEState *s, int p, int card) {
    int k, cls;
    if (known_count(s, p, card) > 0) {
        s->known_eights[p][os_suit(card)] -= 1;   /* the known copy goes: the same hand either way */
    } else {
        k = unknown_count(s, p, card) - 1;
        cls = s->hand_cls[p][card][k];
        if (s->decks == 2 && s->opt.reshuffle) {
            merge_if_ambiguous(s, p, card, cls);
            cls = s->hand_cls[p][card][k];
        }
        if (s->e_active) {
            if (os_rank(card) == EIGHT_RANK && s->e_hidden[os_suit(card)]) {
                s->e_hidden[os_suit(card)] = 0;
                log_e(s, p, E_PLAY_EIGHT);
            } else if (cls == 0) {
                log_e(s, p, E_PLAY);
            }
        }
    }
    ms_remove(&s->hand[p], card);
}

/* p draws the stock's top card (seen by p alone, unless it is a known place). */
static void give_top(CEState *s, int p) {
    int card = pile_pop(&s->stock);
    if (s->stock.size < s->known_bottom) {        /* a known place: everybody knows who has it */
        s->known_bottom -= 1;
        s->known_eights[p][os_suit(card)] += 1;
    } else {
        s->hand_cls[p][card][unknown_count(s, p, card)] = (uint8_t)s->stock_cls;
        if (s->e_active && s->stock_cls == 0) log_e(s, p, E_DRAW);
    }
    ms_add(&s->hand[p], card);
    if (s->n_drawn < MAX_DRAWN) {
        s->drawn[s->n_drawn] = (uint8_t)card;
        s->n_drawn += 1;
    }
}

/* A class no unseen card has (merging the two oldest when all are taken). */
static int free_class(CEState *s) {
    int used[MAX_CLASSES];
    int p, c, k, a, b, copies;
    memset(used, 0, sizeof(used));
    for (p = 0; p < s->h.players; p++)
        for (c = 0; c < NUM_CARDS; c++) {
            copies = unknown_count(s, p, c);
            for (k = 0; k < copies; k++) used[s->hand_cls[p][c][k]] = 1;
        }
    for (k = 0; k < MAX_CLASSES; k++)
        if (!used[k]) return k;
    a = 0;
    for (k = 0; k < MAX_CLASSES; k++)
        if (s->cls_epoch[k] < s->cls_epoch[a]) a = k;
    b = a == 0 ? 1 : 0;
    for (k = 0; k < MAX_CLASSES; k++)
        if (k != a && s->cls_epoch[k] < s->cls_epoch[b]) b = k;
    merge_classes(s, a, b);
    return a < b ? b : a;                         /* merge_classes keeps the lower index */
}

/* CE-6.1: the discard pile but its top card, shuffled, becomes the stock (OpenSpiel's
 * Reshuffle: its deck becomes every card out of the hands but one copy of the top card). */
static void ce_reshuffle(CEState *s) {
    int i, n, top = pile_pop(&s->discard);
    n = s->discard.size;
    for (i = 0; i < n; i++) pile_push(&s->stock, s->discard.cards[i]);
    s->discard.size = 0;
    pile_push(&s->discard, top);
    shuffle_u8(&s->h.rng, s->stock.cards, s->stock.size);
    s->reshuffles += 1;
    s->stock_cls = free_class(s);                 /* a new class: these cards were seen face up */
    s->cls_epoch[s->stock_cls] = s->reshuffles;
}

/* ---------------------------------------------------------------- applying */
static inline void pass_turn(CEState *s, int p, int steps) {
    s->h.to_move = (p + steps * s->direction + 2 * s->h.players) % s->h.players;
    s->h.turns += 1;
}

static void do_pass(CEState *s, int p);
static void draw_one(CEState *s, int p);
static void draw_debt(CEState *s, int p);
static void play(CEState *s, int p, int card);
static void end_game(CEState *s);

static void ce_apply(void *state, int action) {
    CEState *s = (CEState *)state;
    int p = s->h.to_move;
    s->n_drawn = 0;
    if (action == A_PASS) {
        do_pass(s, p);
        return;
    }
    s->passes = 0;                                /* CE-7.3: any other action breaks a run */
    if (action == A_DRAW) {
        if (s->twos_owed > 0)
            draw_debt(s, p);
        else
            draw_one(s, p);
    } else if (action >= A_NOMINATE) {            /* CE-3.3 */
        s->last_suit = action - A_NOMINATE;
        s->h.phase = PH_PLAY;
        pass_turn(s, p, 1);
    } else {
        play(s, p, action);
    }
}

static void do_pass(CEState *s, int p) {
    if (s->stock.size == 0)                       /* CE-7.3 */
        s->passes += 1;
    else
        s->passes = 0;
    if (s->passes == s->h.players + 1) {
        end_game(s);
        return;
    }
    if (s->draws == s->opt.max_draw_cards) s->draws = 0;
    pass_turn(s, p, 1);
    if (s->stock.size > 0) s->can_pass = 0;
}

/* CE-5.1: one card; CE-5.2 the limit; CE-5.3 the last card counts as reaching it. */
static void draw_one(CEState *s, int p) {
    give_top(s, p);
    if (s->stock.size == 0 && s->opt.reshuffle) ce_reshuffle(s);
    if (s->stock.size == 0) s->can_pass = 1;
    s->draws += 1;
    if (s->stock.size == 0) s->draws = s->opt.max_draw_cards;
    if (s->draws == s->opt.max_draw_cards) s->can_pass = 1;
}

/* CE-4.4: draw every owed card, then the turn passes; CE-5.4 an empty stock ends the debt
 * (a Decision: exactly at its last card, that counts as a pass, CE-7.3). */
static void draw_debt(CEState *s, int p) {
    for (;;) {
        give_top(s, p);
        if (s->stock.size == 0 && s->opt.reshuffle) ce_reshuffle(s);
        if (s->stock.size == 0) s->can_pass = 1;
        s->twos_owed -= 1;
        if (s->stock.size == 0) {
            if (s->twos_owed == 0) s->passes += 1;
            s->twos_owed = 0;
        }
        if (s->twos_owed == 0) {
            pass_turn(s, p, 1);
            return;
        }
    }
}

static void play(CEState *s, int p, int card) {
    int rank = os_rank(card), over;
    s->plays += 1;
    s->can_pass = 0;
    s->draws = 0;
    take_card(s, p, card);
    pile_push(&s->discard, card);
    s->last_card = card;
    s->last_suit = os_suit(card);
    over = s->hand[p].total == 0 || s->plays >= s->opt.max_turns;   /* CE-7.1, CE-7.2 */
    if (s->stock.size == 0 && s->opt.reshuffle)   /* CE-6.1 (OpenSpiel reshuffles here even */
        ce_reshuffle(s);                          /* after the last play) */
    if (over) {
        end_game(s);
        return;
    }
    if (rank == EIGHT_RANK) {                     /* CE-3.3 */
        s->h.phase = PH_NOMINATE;
        return;
    }
    if (s->opt.special) {
        if (rank == SKIP_RANK) {                  /* CE-4.1 */
            pass_turn(s, p, 2);
            return;
        }
        if (rank == REVERSE_RANK)                 /* CE-4.2 */
            s->direction = -s->direction;
        else if (rank == DRAW_TWO_RANK && s->stock.size > 0)   /* CE-4.3, CE-4.6 */
            s->twos_owed += DRAW_TWO_CARDS;
    }
    pass_turn(s, p, 1);
}

/* ---------------------------------------------------------------- the end and scoring (CE-7, CE-8) */
/* CE-8: each seat's penalty, and the breakdown rows the events show (no one else computes a
 * score): per seat, one row for each kind of card it still holds. */
static void ce_score(CEState *s) {
    int p, c, k, points;
    BreakdownRow seat_rows[ROWS_PER_SEAT];
    s->n_rows = 0;
    for (p = 0; p < s->h.players; p++) {
        s->penalty[p] = 0;
        for (k = 0; k < ROWS_PER_SEAT; k++) {
            seat_rows[k].owner = p;
            seat_rows[k].what = k;
            seat_rows[k].rule = (k == ROW_NUMBERS && !s->opt.face) ? R_CE_8_2 : R_CE_8_1;
            seat_rows[k].detail = -1;
            seat_rows[k].count = 0;
            seat_rows[k].points = 0;
        }
        for (c = 0; c < NUM_CARDS; c++) {
            if (s->hand[p].count[c] == 0) continue;
            points = ce_card_points(c, s->opt.face) * s->hand[p].count[c];
            k = os_rank(c) == EIGHT_RANK ? ROW_EIGHTS
                : (os_rank(c) >= COURT_RANK ? ROW_COURT : ROW_NUMBERS);
            seat_rows[k].count += s->hand[p].count[c];
            seat_rows[k].points += points;
            s->penalty[p] += points;
        }
        for (k = 0; k < ROWS_PER_SEAT; k++) {
            if (seat_rows[k].count > 0) {
                s->rows[s->n_rows] = seat_rows[k];
                s->n_rows += 1;
            }
        }
    }
}

static int ce_breakdown(const void *state, BreakdownRow *out, int capacity) {
    const CEState *s = (const CEState *)state;
    return copy_breakdown(s->rows, s->n_rows, out, capacity);
}

static void end_game(CEState *s) {
    ce_score(s);
    s->h.round_index = 1;
    s->h.phase = PH_OVER;
    s->h.to_move = -1;
}

/* CE-8.3: minus the penalty points (higher is better). The seat that went out gets -0.0:
 * the Cython's `0.0 - penalty` meant +0.0, but gcc folds it to -(double)penalty (clang does
 * not), so every release so far has given -0.0; the negation says so for every compiler. */
static void ce_returns(const void *state, double *out) {
    const CEState *s = (const CEState *)state;
    int p;
    for (p = 0; p < s->h.players; p++) out[p] = -(double)s->penalty[p];
}

/* CE-8.3: the penalty points (0 for everybody until the game is over). */
static void ce_scores(const void *state, int32_t *out) {
    const CEState *s = (const CEState *)state;
    int p;
    for (p = 0; p < s->h.players; p++) out[p] = s->penalty[p];
}

/* ---------------------------------------------------------------- the per-seat projection */
/* The tensor opens with OpenSpiel's own observation, piece for piece; then what else the view
 * shows. Every card piece uses OpenSpiel's card indices. The wrapper's OBS_NAMES is the one
 * list of pieces; obs_layout gives their sizes for a configuration. */
int ce_obs_layout(int players, int special, int32_t *offset) {
    int32_t size[NUM_PIECES];
    int d = ce_decks_for(players), i, at = 0;
    size[CE_P_OS_HAND] = (d + 1) * NUM_CARDS;
    size[CE_P_OS_LAST_CARD] = NUM_CARDS;
    size[CE_P_OS_LAST_SUIT] = NUM_SUITS;
    size[CE_P_OS_HAND_SIZES] = (d * NUM_CARDS + 1) * (players - 1);
    size[CE_P_OS_DIRECTION] = special ? 1 : 0;
    size[CE_P_OBSERVER] = players;
    size[CE_P_TO_MOVE] = players;
    size[CE_P_PHASE] = 3;
    size[CE_P_DEALER] = players;
    size[CE_P_DIRECTION] = 1;
    size[CE_P_STOCK_SIZE] = 1;
    size[CE_P_DISCARD] = NUM_CARDS;
    size[CE_P_DRAWS] = 1;
    size[CE_P_MAX_DRAWS] = 1;
    size[CE_P_TWOS_OWED] = 1;
    size[CE_P_PASSES] = 1;
    size[CE_P_PLAYS] = 1;
    size[CE_P_MAX_TURNS] = 1;
    size[CE_P_REBURIED] = NUM_SUITS;
    size[CE_P_KNOWN_BOTTOM] = NUM_SUITS;
    size[CE_P_KNOWN_EIGHTS] = players * NUM_SUITS;
    size[CE_P_SCORES] = players;
    for (i = 0; i < NUM_PIECES; i++) {
        offset[i] = at;
        at += size[i];
    }
    offset[NUM_PIECES] = at;
    return at;
}

static int ce_observation_size(const void *state) {
    return ((const CEState *)state)->obs_size;
}

/* What `seat` sees: its hand, the public piles and counters, others' hand sizes. */
static void ce_observe(const void *state, int seat, float *out) {
    const CEState *s = (const CEState *)state;
    const int32_t *o = &s->obs_offset[0];
    int players = s->h.players, d = s->decks, c, i, k, q, size;
    memset(out, 0, (size_t)s->obs_size * sizeof(float));
    /* OpenSpiel's WriteObservationTensor, piece for piece */
    for (c = 0; c < NUM_CARDS; c++) out[o[CE_P_OS_HAND] + c * (d + 1) + s->hand[seat].count[c]] = 1.0;
    out[o[CE_P_OS_LAST_CARD] + s->last_card] = 1.0;
    out[o[CE_P_OS_LAST_SUIT] + s->last_suit] = 1.0;
    for (i = 1; i < players; i++) {
        size = s->hand[(seat + i) % players].total;
        out[o[CE_P_OS_HAND_SIZES] + (i - 1) * (d * NUM_CARDS + 1) + size] = 1.0;
    }
    if (s->opt.special) out[o[CE_P_OS_DIRECTION]] = s->direction == 1 ? 1.0 : 0.0;
    /* the rest of the view */
    out[o[CE_P_OBSERVER] + seat] = 1.0;
    if (s->h.to_move >= 0) out[o[CE_P_TO_MOVE] + s->h.to_move] = 1.0;
    out[o[CE_P_PHASE] + s->h.phase] = 1.0;
    out[o[CE_P_DEALER] + s->h.dealer] = 1.0;
    out[o[CE_P_DIRECTION]] = (float)s->direction;
    out[o[CE_P_STOCK_SIZE]] = (float)s->stock.size;
    for (i = 0; i < s->discard.size; i++) out[o[CE_P_DISCARD] + s->discard.cards[i]] += 1.0;
    out[o[CE_P_DRAWS]] = (float)s->draws;
    out[o[CE_P_MAX_DRAWS]] = (float)s->opt.max_draw_cards;
    out[o[CE_P_TWOS_OWED]] = (float)s->twos_owed;
    out[o[CE_P_PASSES]] = (float)s->passes;
    out[o[CE_P_PLAYS]] = (float)s->plays;
    out[o[CE_P_MAX_TURNS]] = (float)s->opt.max_turns;
    for (k = 0; k < NUM_SUITS; k++) out[o[CE_P_REBURIED] + k] = (float)s->reburied[k];
    for (i = 0; i < s->known_bottom; i++) out[o[CE_P_KNOWN_BOTTOM] + os_suit(s->stock.cards[i])] += 1.0;
    for (q = 0; q < players; q++) {
        for (k = 0; k < NUM_SUITS; k++)
            out[o[CE_P_KNOWN_EIGHTS] + q * NUM_SUITS + k] = (float)s->known_eights[q][k];
        out[o[CE_P_SCORES] + q] = (float)s->penalty[q];
    }
}

/* ---------------------------------------------------------------- determinization */
/* Zones in sample_hidden: seats 0..players-1, then the stock. */
enum {
    MAX_ZONES = MAX_PLAYERS + 1,
    MAX_DRAWN_SLOTS = 64          /* one deck: at most 41 cards are drawn before a reshuffle */
};

/* Zones for the `eights` reburied eights the seat does not hold, drawn from their exact
 * posterior (games/crazy_eights.md "Hidden cards"): such an eight is in the stock if the deal's
 * stock is still in play, or among the cards a seat drew from it and still holds. How many a
 * seat still holds of its draws follows from its draws and plays (weights w[q][D]: the ways
 * its played cards can have come from its dealt and drawn cards, leaving D drawn ones); then
 * the eights take distinct places among the eligible ones uniformly. 0 on success. */
static int place_reburied(const CEState *s, int seat, const int32_t *class0_places, int eights,
                          Rng *rng, int32_t *chosen) {
    double w[MAX_PLAYERS][MAX_DRAWN_SLOTS + 1];
    double total[MAX_PLAYERS + 1][MAX_DRAWN_SLOTS + 1];
    double fresh[MAX_DRAWN_SLOTS + 1];
    int32_t free0[MAX_PLAYERS];                   /* class-0 cards held (dealt or drawn) */
    int32_t drawn[MAX_PLAYERS];                   /* draws from the deal's stock */
    int32_t keep[MAX_ZONES];
    int players = s->h.players, q, i, d, kind, f, top, sigma, left, z;
    double best, u, acc, weight, carry, moved;
    int stock_places, reach, j, dmax;
    for (q = 0; q < players; q++) {
        w[q][0] = 1.0;
        free0[q] = s->hand_size;
        drawn[q] = 0;
    }
    for (i = 0; i < s->e_log_len; i++) {
        q = s->e_log[i] & 15;
        kind = s->e_log[i] >> 4;
        if (q == seat) continue;
        f = free0[q];
        top = drawn[q] < f ? drawn[q] : f;
        if (kind == E_DRAW) {
            if (drawn[q] >= MAX_DRAWN_SLOTS) return 1;
            drawn[q] += 1;
            carry = w[q][0];                      /* w[q][d] = w[q][d - 1] for d = drawn[q]..1 */
            for (d = 1; d < drawn[q]; d++) {      /* (carried: no memmove) */
                moved = w[q][d];
                w[q][d] = carry;
                carry = moved;
            }
            w[q][drawn[q]] = carry;
            w[q][0] = 0.0;
            free0[q] = f + 1;
            continue;
        }
        for (d = 0; d < top + 1; d++)             /* before: d drawn cards among f held */
            fresh[d] = 0.0;
        for (d = 0; d < top + 1; d++) {
            if (kind == E_PLAY && d <= f - 1)     /* the card was a dealt one */
                fresh[d] += w[q][d] * (f - d);
            if (d >= 1)                           /* ... or a drawn one */
                fresh[d - 1] += w[q][d] * d;
        }
        free0[q] = f - 1;
        best = 0.0;
        for (d = 0; d < top + 1; d++) {
            w[q][d] = d <= free0[q] ? fresh[d] : 0.0;
            if (w[q][d] > best) best = w[q][d];
        }
        if (best <= 0.0) return 1;
        for (d = 0; d < top + 1; d++) w[q][d] /= best;
        for (d = top + 1; d < drawn[q] + 1; d++) w[q][d] = 0.0;
    }
    stock_places = s->stock_cls == 0 ? s->stock.size - s->known_bottom : 0;
    /* total[j][sigma]: the seats before the j-th, sigma drawn cards held among them */
    for (sigma = 0; sigma < MAX_DRAWN_SLOTS + 1; sigma++) total[0][sigma] = 0.0;
    total[0][0] = 1.0;
    reach = 0;
    j = 0;
    for (q = 0; q < players; q++) {
        for (sigma = 0; sigma < MAX_DRAWN_SLOTS + 1; sigma++) total[j + 1][sigma] = 0.0;
        if (q != seat) {
            if (free0[q] != class0_places[q]) return 1;   /* the log and the hands disagree */
            dmax = drawn[q] < free0[q] ? drawn[q] : free0[q];
            for (sigma = 0; sigma < reach + 1; sigma++)
                for (d = 0; d < dmax + 1; d++)
                    if (sigma + d <= MAX_DRAWN_SLOTS)
                        total[j + 1][sigma + d] += total[j][sigma] * w[q][d];
            reach = reach + dmax <= MAX_DRAWN_SLOTS ? reach + dmax : MAX_DRAWN_SLOTS;
        } else {
            for (sigma = 0; sigma < reach + 1; sigma++) total[j + 1][sigma] = total[j][sigma];
        }
        j += 1;
    }
    /* the eights' places: the stock's and the drawn cards still held */
    acc = 0.0;
    for (sigma = 0; sigma < reach + 1; sigma++) {
        weight = total[players][sigma];
        for (i = 0; i < eights; i++)
            weight *= stock_places + sigma - i > 0 ? stock_places + sigma - i : 0;
        fresh[sigma] = weight;
        acc += weight;
    }
    if (acc <= 0.0) return 1;
    u = acc * (rng_next32(rng) / 4294967296.0);
    sigma = 0;
    while (sigma < reach && u >= fresh[sigma]) {
        u -= fresh[sigma];
        sigma += 1;
    }
    for (z = 0; z < MAX_ZONES; z++) keep[z] = 0;
    keep[players] = stock_places;
    for (q = players - 1; q > -1; q--) {          /* each seat's share, last seat first */
        if (q == seat) continue;
        dmax = drawn[q] < free0[q] ? drawn[q] : free0[q];
        acc = 0.0;
        for (d = 0; d < dmax + 1; d++)
            if (d <= sigma) acc += total[q][sigma - d] * w[q][d];
        u = acc * (rng_next32(rng) / 4294967296.0);
        d = 0;
        while (d < dmax && d < sigma && u >= total[q][sigma - d] * w[q][d]) {
            u -= total[q][sigma - d] * w[q][d];
            d += 1;
        }
        keep[q] = d;
        sigma -= d;
    }
    left = 0;
    for (z = 0; z < players + 1; z++) left += keep[z];
    for (i = 0; i < eights; i++) {                /* distinct places, uniformly */
        u = rng_below(rng, (uint32_t)left);
        z = 0;
        while (u >= keep[z]) {
            u -= keep[z];
            z += 1;
        }
        chosen[i] = z;
        keep[z] -= 1;
        left -= 1;
    }
    return 0;
}

/* Redeal what `seat` cannot see: the unknown cards of the other hands and the stock's unknown
 * places, within each source class, uniformly (games/crazy_eights.md "Hidden cards"); the
 * reburied eights of a shuffled deal from their exact posterior. The pools are laid out in
 * card order before shuffling: the world depends only on what the seat knows. */
static int ce_sample_hidden(void *state, int seat, Rng *rng) {
    CEState *s = (CEState *)state;
    uint8_t pool[MAX_CLASSES][NUM_CARDS];         /* counts of unknown cards per class */
    int32_t places[MAX_ZONES][MAX_CLASSES];
    uint8_t cards[MAX_DECK];
    int32_t chosen[NUM_SUITS];
    int32_t class0[MAX_PLAYERS];
    uint8_t eight_cards[NUM_SUITS];
    int players = s->h.players, q, c, k, i, n, z, cls, m, eights = 0, copies, end;
    int stock_zone = players, stock_at;
    memset(pool, 0, sizeof(pool));
    memset(places, 0, sizeof(places));
    for (q = 0; q < players; q++) {
        if (q == seat) continue;
        for (c = 0; c < NUM_CARDS; c++) {
            copies = unknown_count(s, q, c);
            for (k = 0; k < copies; k++) {
                pool[s->hand_cls[q][c][k]][c] += 1;
                places[q][s->hand_cls[q][c][k]] += 1;
            }
        }
    }
    end = s->stock.size;
    for (i = s->known_bottom; i < end; i++) {
        pool[s->stock_cls][s->stock.cards[i]] += 1;
        places[stock_zone][s->stock_cls] += 1;
    }
    /* The reburied eights first (they take their places out of class 0's). */
    if (s->e_active) {
        for (k = 0; k < NUM_SUITS; k++) {
            c = eight_of(k);
            if (s->e_hidden[k] && s->hand[seat].count[c] == 0) {
                eight_cards[eights] = (uint8_t)c;
                eights += 1;
            }
        }
        if (eights) {
            for (q = 0; q < players; q++) class0[q] = places[q][0];
            if (place_reburied(s, seat, class0, eights, rng, chosen) != 0) return 1;
            for (i = 0; i < eights; i++) {
                pool[0][eight_cards[i]] -= 1;
                places[chosen[i]][0] -= 1;
            }
        }
    }
    /* Each class's pool, in card order, shuffled and laid out over its places. */
    for (q = 0; q < players; q++) {
        if (q == seat) continue;
        ms_clear(&s->hand[q]);
        for (k = 0; k < NUM_SUITS; k++) {
            copies = s->known_eights[q][k];
            for (i = 0; i < copies; i++) ms_add(&s->hand[q], eight_of(k));
        }
    }
    for (i = 0; i < eights; i++) {
        z = chosen[i];
        if (z == stock_zone) continue;
        c = eight_cards[i];
        s->hand_cls[z][c][unknown_count(s, z, c)] = 0;
        ms_add(&s->hand[z], c);
    }
    stock_at = s->known_bottom;
    for (cls = 0; cls < MAX_CLASSES; cls++) {
        n = 0;
        for (c = 0; c < NUM_CARDS; c++) {
            copies = pool[cls][c];
            for (k = 0; k < copies; k++) {
                cards[n] = (uint8_t)c;
                n += 1;
            }
        }
        if (n == 0) continue;
        shuffle_u8(rng, cards, n);
        i = 0;
        for (z = 0; z < players + 1; z++) {
            copies = places[z][cls];
            for (m = 0; m < copies; m++) {
                c = cards[i];
                i += 1;
                if (z == stock_zone) {
                    s->stock.cards[stock_at] = (uint8_t)c;
                    stock_at += 1;
                } else {
                    s->hand_cls[z][c][unknown_count(s, z, c)] = (uint8_t)cls;
                    ms_add(&s->hand[z], c);
                }
            }
        }
    }
    for (i = 0; i < eights; i++) {
        if (chosen[i] == stock_zone) {
            s->stock.cards[stock_at] = eight_cards[i];
            stock_at += 1;
        }
    }
    /* The stock's unknown places in a uniform order (the eights were put last). */
    shuffle_u8(rng, &s->stock.cards[s->known_bottom], s->stock.size - s->known_bottom);
    return 0;
}

/* ---------------------------------------------------------------- GreedyBot's policy */
/* One move ahead from what the seat to move may know: its own hand and public counters (the
 * hand sizes of the players after and before it in the direction of play, the cards played so
 * far against max_turns, the options). Every legal action gets a value; the highest wins, ties
 * (within 1e-9) broken with one draw (best_by_value). These weights are the policy's one
 * source; greedy.py's docstring documents them. */
#define G_DRAW (-1000.0)          /* CE-5.1: only when nothing plays */
#define G_PASS (-2000.0)          /* CE-5.2, CE-5.3: only when no draw is left */
#define G_EIGHT_COST 100.0        /* CE-3.1: an eight kept answers any card: spend it last */
#define G_SAME_SUIT 4.0           /* per card of the played card's suit left in the hand */
#define G_TWO_BONUS 24.0          /* CE-4.3: the next player draws two (or answers with a 2) */
#define G_SKIP_BONUS 12.0         /* CE-4.1: the next player misses the turn */
#define G_REVERSE_BONUS 12.0      /* CE-4.2: when the player before has more cards */
enum {
    G_CLOSE = 2,                  /* the specials' bonuses: the next player holds at most this */
    G_ENDGAME_PLAYS = 3           /* CE-7.2: plays left at which only the points count */
};

/* GreedyBot's move (the index into legal[0:n]): reads the seat's own hand, the public hand
 * sizes, the direction, the plays so far and the options, nothing hidden. */
static int ce_greedy(const void *state, const int32_t *legal, int n, Rng *rng) {
    const CEState *s = (const CEState *)state;
    double values[MAX_LEGAL];
    int32_t ties[MAX_LEGAL];
    int seat = s->h.to_move, players = s->h.players, k, a, c, rank;
    const Multiset *hand = &s->hand[seat];
    int next_size = s->hand[(seat + s->direction + players) % players].total;
    int previous_size = s->hand[(seat - s->direction + players) % players].total;
    int plays_left = s->opt.max_turns - s->plays;
    int suit_count[NUM_SUITS];                    /* the hand's cards per suit, eights left out */
    double value;
    if (n == 1) return 0;
    for (k = 0; k < NUM_SUITS; k++) suit_count[k] = 0;
    for (c = 0; c < NUM_CARDS; c++)
        if (os_rank(c) != EIGHT_RANK) suit_count[os_suit(c)] += hand->count[c];
    for (k = 0; k < n; k++) {
        a = legal[k];
        if (a == A_DRAW) {
            values[k] = G_DRAW;
            continue;
        }
        if (a == A_PASS) {
            values[k] = G_PASS;
            continue;
        }
        if (a >= A_NOMINATE) {                    /* CE-3.3: the suit held most */
            values[k] = (double)suit_count[a - A_NOMINATE];
            continue;
        }
        rank = os_rank(a);
        value = (double)ce_card_points(a, s->opt.face);   /* CE-8: what is left is penalty points */
        if (plays_left <= G_ENDGAME_PLAYS) {      /* CE-7.2: the hand ends soon, shed points */
            values[k] = value;
            continue;
        }
        if (rank == EIGHT_RANK) {
            values[k] = value - G_EIGHT_COST;
            continue;
        }
        /* the other cards of its suit (every copy of the card itself left out) */
        value += G_SAME_SUIT * (suit_count[os_suit(a)] - hand->count[a]);
        if (s->opt.special && next_size <= G_CLOSE) {
            if (rank == DRAW_TWO_RANK)
                value += G_TWO_BONUS;
            else if (rank == SKIP_RANK)
                value += G_SKIP_BONUS;
            else if (rank == REVERSE_RANK && next_size < previous_size)
                value += G_REVERSE_BONUS;
        }
        values[k] = value;
    }
    return best_by_value(values, n, rng, ties);
}

/* Random play with this game's hooks called directly (kernel.h, play_loop). */
static long long ce_play(void *s, Rng *chooser, int32_t *scratch, long long max_actions) {
    return play_loop(s, &CE_HOOKS, chooser, scratch, max_actions);
}

/* ---------------------------------------------------------------- refusals */
/* Why an id is not legal now: reasons index words.REFUSALS (the texts stay in Python);
 * cards as cardcore ids, the suit as cardcore's suit index (C S D H). */
enum {
    R_NOMINATE_FIRST = 0, R_NOMINATE_AFTER_EIGHT, R_OWE_PASS, R_PASS_AFTER_DRAWS, R_STOCK_EMPTY,
    R_DRAWN_ENOUGH, R_NOT_HELD, R_OWE_PLAY, R_NO_MATCH, NUM_REFUSALS
};

static int ce_refuse(const void *state, int32_t action, Refusal *out) {
    const CEState *s = (const CEState *)state;
    int p = s->h.to_move;
    if (s->h.phase == PH_NOMINATE) return refuse0(out, R_NOMINATE_FIRST, "CE-3.3");
    if (action >= A_NOMINATE) return refuse0(out, R_NOMINATE_AFTER_EIGHT, "CE-3.3");
    if (action == A_PASS) {
        if (s->twos_owed > 0) return refuse1(out, R_OWE_PASS, "CE-4.4", s->twos_owed);
        return refuse1(out, R_PASS_AFTER_DRAWS, "CE-5.2", s->opt.max_draw_cards);
    }
    if (action == A_DRAW) {
        if (s->stock.size == 0) return refuse0(out, R_STOCK_EMPTY, "CE-5.3");
        return refuse1(out, R_DRAWN_ENOUGH, "CE-5.1", s->opt.max_draw_cards);
    }
    if (s->hand[p].count[action] == 0) return refuse1(out, R_NOT_HELD, "CE-3.1", ce_card_id(action));
    if (s->twos_owed > 0) return refuse1(out, R_OWE_PLAY, "CE-4.3", s->twos_owed);
    return refuse3(out, R_NO_MATCH, "CE-3.1", ce_card_id(action),
                   card_suit(ce_card_id(s->last_suit)),    /* an OpenSpiel suit's cardcore suit */
                   ce_card_id(s->last_card));
}

const GameHooks CE_HOOKS = {
    GAME_HOOKS_HEAD,
    .name = "crazy_eights",
    .state_size = sizeof(CEState),
    .num_actions = NUM_ACTIONS,
    .max_legal = MAX_LEGAL,
    .start = ce_start,
    .legal = ce_legal,
    .apply = ce_apply,
    .observation_size = ce_observation_size,
    .observe = ce_observe,
    .returns = ce_returns,
    .scores = ce_scores,
    .sample_hidden = ce_sample_hidden,
    .rollout = NULL,
    .zones = ZONES,
    .num_zones = NUM_ZONES,
    .zone_cards = ce_zone_cards,
    .known_cards = ce_known_cards,
    .breakdown = ce_breakdown,
    .greedy = ce_greedy,
    .hand_cards = NULL,
    .play = ce_play,
    .refuse = ce_refuse,
    .num_refusals = NUM_REFUSALS,
};

/* ---------------------------------------------------------------- the game, as the C ABI sees it */
/* CE-5.1, CE-7.2 Decisions (the bounds a new table accepts; the Python Option's ``check``):
 * at most 104 draws in a turn and 10,000 cards played. */
enum { MAX_DRAW_CARDS = 104, MAX_TURNS = 10000 };

/* The option values, in the options' order. */
enum { O_DEALER = 0, O_MAX_DRAW_CARDS, O_MAX_TURNS, O_USE_SPECIAL_CARDS, O_RESHUFFLE, O_SCORING,
       NUM_OPTIONS };

static const char *const SCORING_CHOICES[] = {"face", "openspiel"};

/* The Python options_spec, option for option (cardcore.games.crazy_eights.CrazyEights). */
static const OptionSpec CE_OPTIONS[NUM_OPTIONS] = {
    {"dealer", OPT_SEAT_OR_LOT, "CE-2.1", OPTION_NONE, 0, 0, 0, NULL, 0, 0},
    {"max_draw_cards", OPT_INT, "CE-5.1", 5, 1, MAX_DRAW_CARDS, 0, NULL, 0, 0},
    {"max_turns", OPT_INT, "CE-7.2", 100, 1, MAX_TURNS, 0, NULL, 0, 0},
    {"use_special_cards", OPT_FLAG, "CE-4", 0, 0, 0, 0, NULL, 0, 0},
    {"reshuffle", OPT_FLAG, "CE-6.1", 0, 0, 0, 0, NULL, 0, 0},
    {"scoring", OPT_CHOICE, "CE-8.1, CE-8.2", 0, 0, 0, 0, SCORING_CHOICES, 2, 0},
};

/* The state's setup (the Python state's __init__, less the header's stacked deck): the options,
 * the composition (CE-1.2), the hand size (CE-2.2), the observation layout; -1 for values the
 * state cannot take. The struct comes zeroed (or with only its header's stacked deck set). */
int ce_init(void *state, int players, const int64_t *values) {
    CEState *s = (CEState *)state;
    int i, k, decks;
    if (players < MIN_PLAYERS || players > MAX_PLAYERS) return -1;
    if (values[O_MAX_DRAW_CARDS] < 1 || values[O_MAX_DRAW_CARDS] > CE_MAX_DRAW_CARDS_LIMIT) return -1;
    if (values[O_MAX_TURNS] < 1 || values[O_MAX_TURNS] > CE_MAX_TURNS_LIMIT) return -1;
    if (values[O_DEALER] != OPTION_NONE && (values[O_DEALER] < 0 || values[O_DEALER] >= players))
        return -1;
    if (values[O_USE_SPECIAL_CARDS] < 0 || values[O_USE_SPECIAL_CARDS] > 1) return -1;
    if (values[O_RESHUFFLE] < 0 || values[O_RESHUFFLE] > 1) return -1;
    if (values[O_SCORING] < 0 || values[O_SCORING] > 1) return -1;
    s->h.players = players;
    s->h.to_move = -1;
    s->opt.max_draw_cards = (int32_t)values[O_MAX_DRAW_CARDS];
    s->opt.max_turns = (int32_t)values[O_MAX_TURNS];
    s->opt.special = (int)values[O_USE_SPECIAL_CARDS];
    s->opt.reshuffle = (int)values[O_RESHUFFLE];
    s->opt.face = values[O_SCORING] == 0;
    s->opt.dealer = values[O_DEALER] == OPTION_NONE ? -1 : (int32_t)values[O_DEALER];
    decks = ce_decks_for(players);
    s->decks = decks;
    s->hand_size = ce_hand_size_for(players);
    s->deck_size = 0;
    for (k = 0; k < NUM_CARDS; k++)                /* CE-1.2: id order, the copies together */
        for (i = 0; i < decks; i++) s->deck[s->deck_size++] = (uint8_t)k;
    s->direction = 1;
    s->obs_size = ce_obs_layout(players, s->opt.special, s->obs_offset);
    s->h.phase = PH_OVER;
    return 0;
}

/* str(action): "play 7H" (cardcore's card notation: A 2-10 J Q K, suits C S D H), "draw",
 * "pass", "nominate H" (OpenSpiel's suit letters C D H S); the same in every state. */
static const char *const OS_SUIT_LETTERS[4] = {"C", "D", "H", "S"};

int ce_action_label(const void *state, int action, char *buf, size_t len) {
    Label t = label_start(buf, len);
    (void)state;
    if (action >= 0 && action < NUM_CARDS) {
        label_put(&t, "play ");
        label_card(&t, ce_card_id(action));
    } else if (action == A_DRAW) {
        label_put(&t, "draw");
    } else if (action == A_PASS) {
        label_put(&t, "pass");
    } else if (action >= A_NOMINATE && action < NUM_ACTIONS) {
        label_put(&t, "nominate ");
        label_put(&t, OS_SUIT_LETTERS[action - A_NOMINATE]);
    } else {
        return -1;
    }
    return label_end(&t);
}

/* The deck's ids in id order (the Python composition). */
int ce_composition(const void *state, uint8_t *out) {
    const CEState *s = (const CEState *)state;
    memcpy(out, s->deck, (size_t)s->deck_size);
    return s->deck_size;
}

const GameKernel CE_KERNEL = {
    &CE_HOOKS, CE_OPTIONS, NUM_OPTIONS, MIN_PLAYERS, MAX_PLAYERS,
    5,                                            /* default players (CrazyEights.default_players) */
    ce_init, ce_action_label,
    MAX_DECK,                                     /* the largest composition: two decks (CE-1.2) */
    ce_composition,
};
