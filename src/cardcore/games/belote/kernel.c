/* Belote Contrée's kernel (rules: games/belote.md, rule IDs BE-x.y), exactly as colver 0.11.1
 * plays it by default: the deal, the auction, legality, apply, scoring, the per-seat
 * projection, the zones, sample_hidden and GreedyBot's policy, over the core's kernel
 * interface; the hook table BE_HOOKS and the ABI's BE_KERNEL (options, init, action labels,
 * composition). C99, no global that changes, nothing from libc but memcpy/memset. kernel.h
 * describes the card indices and the action ids. */
#include "cardcore/games/belote/kernel.h"

enum {
    PLAYERS = BE_PLAYERS,
    NUM_CARDS = BE_NUM_CARDS,
    HAND_SIZE = BE_HAND_SIZE,
    TRICKS = BE_TRICKS,
    A_PASS = BE_A_PASS,
    A_BID = BE_A_BID,
    A_CAPOT = BE_A_CAPOT,
    A_CONTRE = BE_A_CONTRE,
    A_SURCONTRE = BE_A_SURCONTRE,
    NUM_ACTIONS = BE_NUM_ACTIONS,
    NUM_ALL_ACTIONS = BE_NUM_ALL_ACTIONS,
    A_BID_NTAT = BE_A_BID_NTAT,
    A_CAPOT_NTAT = BE_A_CAPOT_NTAT,
    NT = BE_NO_TRUMP,
    AT = BE_ALL_TRUMP,
    MAX_LEGAL = BE_MAX_LEGAL,
    PH_AUCTION = BE_PH_AUCTION,
    PH_PLAY = BE_PH_PLAY,
    PH_OVER = BE_PH_OVER,
    Z_HAND = BE_Z_HAND,
    Z_TRICK = BE_Z_TRICK,
    Z_WON = BE_Z_WON,
    Z_DECK = BE_Z_DECK,
    NUM_ZONES = BE_NUM_ZONES,
    NUM_PIECES = BE_NUM_PIECES
};

typedef char be_core_is_large_enough[
    ((int)BE_MAX_ROWS <= (int)MAX_BREAKDOWN_ROWS && (int)NUM_PIECES + 1 <= (int)BE_MAX_OBS_PIECES)
    ? 1 : -1];

/* The rank tables, by rank index (7 8 9 J Q K 10 A), as rows that the per-contract tables
 * below repeat. BE-4.1 / BE-4.2: points of a plain card and of a trump; BE-9.2: no-trump (the
 * FFB's values: the ace 19, every suit 38, 162 with the dix de der); BE-9.3: all-trump (every
 * suit 38 as well). BE-4.2: a trump's strength, J > 9 > A > 10 > K > Q > 8 > 7; BE-5.5: in
 * the suit led, a plain card's strength is its rank index. */
#define PLAIN_ROW 0, 0, 0, 2, 3, 4, 10, 11
#define TRUMP_ROW 0, 0, 14, 20, 3, 4, 10, 11
#define NT_ROW 0, 0, 0, 2, 3, 4, 10, 19
#define AT_ROW 0, 0, 9, 14, 1, 3, 5, 6
#define STRENGTH_ROW 0, 1, 6, 7, 2, 3, 4, 5
#define RANK_ROW 0, 1, 2, 3, 4, 5, 6, 7
#define TRUMP_STRENGTH_ROW 16, 17, 22, 23, 18, 19, 20, 21   /* TRUMP_OVER + STRENGTH_ROW */
static const uint8_t PLAIN_POINTS[8] = {PLAIN_ROW};
static const uint8_t TRUMP_POINTS[8] = {TRUMP_ROW};
static const uint8_t NT_POINTS[8] = {NT_ROW};
static const uint8_t AT_POINTS[8] = {AT_ROW};
/* What a contract (the trump suit S H D C, NT, AT) fixes for a whole deal, card by card: its
 * points, its strength when it is a trump or of the suit led, the trump suit's cards. The play
 * reads these instead of branching on the contract at every card. */
static const uint8_t POINTS_OF[6][NUM_CARDS] = {
    {TRUMP_ROW, PLAIN_ROW, PLAIN_ROW, PLAIN_ROW}, {PLAIN_ROW, TRUMP_ROW, PLAIN_ROW, PLAIN_ROW},
    {PLAIN_ROW, PLAIN_ROW, TRUMP_ROW, PLAIN_ROW}, {PLAIN_ROW, PLAIN_ROW, PLAIN_ROW, TRUMP_ROW},
    {NT_ROW, NT_ROW, NT_ROW, NT_ROW}, {AT_ROW, AT_ROW, AT_ROW, AT_ROW}};
static const uint8_t STRENGTH_OF[6][NUM_CARDS] = {
    {TRUMP_STRENGTH_ROW, RANK_ROW, RANK_ROW, RANK_ROW},
    {RANK_ROW, TRUMP_STRENGTH_ROW, RANK_ROW, RANK_ROW},
    {RANK_ROW, RANK_ROW, TRUMP_STRENGTH_ROW, RANK_ROW},
    {RANK_ROW, RANK_ROW, RANK_ROW, TRUMP_STRENGTH_ROW},
    {RANK_ROW, RANK_ROW, RANK_ROW, RANK_ROW},
    {STRENGTH_ROW, STRENGTH_ROW, STRENGTH_ROW, STRENGTH_ROW}};   /* BE-9.5: the trumps' order */
static const uint32_t TRUMP_BITS[6] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u, 0, 0};
enum { TRUMP_OVER = 16 };                         /* a trump's strength is above any plain card's */
/* The ranks of a suit stronger as trumps than a strength, as an 8-bit mask. */
static const uint8_t TRUMPS_ABOVE[9] = {
    /* strength -1 */ 0xFF, /* 0 */ 0xFE, /* 1 */ 0xFC, /* 2 */ 0xEC, /* 3 */ 0xCC, /* 4 */ 0x8C,
    /* 5 */ 0x0C, /* 6 */ 0x08, /* 7 */ 0x00};
enum { R_QUEEN_I = 4, R_KING_I = 5 };
/* The queens and kings of every suit: with TRUMP_BITS, the belote's cards (BE-6.4). */
static const uint32_t KINGS_QUEENS = 0x01010101u * ((1u << R_QUEEN_I) | (1u << R_KING_I));

static inline uint32_t suit_bits(int suit) { return (uint32_t)0xFF << (8 * suit); }
static inline int team_of(int seat) { return seat & 1; }

int be_card_points(int card, int trump) {
    return trump < 0 || trump > AT ? PLAIN_POINTS[be_rank(card)] : POINTS_OF[trump][card];
}

/* ---------------------------------------------------------------- the zones: who sees what */
static const ZoneSpec ZONES[NUM_ZONES] = {
    {"hand", ZONE_SEAT, 0, SEEN_BY_OWNER},
    {"trick", ZONE_SHARED, 0, SEEN_BY_ALL},
    {"won", ZONE_TEAM, 2, SEEN_BY_ALL},
    {"deck", ZONE_SHARED, 0, SEEN_BY_NONE},
};

static int mask_ids(uint32_t m, uint8_t *out) {
    uint8_t ids[NUM_CARDS];
    int n = 0, i, j, t;
    while (m) {
        ids[n] = (uint8_t)be_card_id(cardcore_ctz64(m));
        m &= m - 1;
        n += 1;
    }
    for (i = 1; i < n; i++) {                     /* id order: insertion sort of <= 32 */
        t = ids[i];
        j = i - 1;
        while (j >= 0 && ids[j] > t) {
            ids[j + 1] = ids[j];
            j -= 1;
        }
        ids[j + 1] = (uint8_t)t;
    }
    for (i = 0; i < n; i++) out[i] = ids[i];
    return n;
}

int be_zone_cards(const void *state, int zone, int instance, uint8_t *out) {
    const BEState *s = (const BEState *)state;
    int i;
    if (zone == Z_HAND) return mask_ids(s->hand[instance], out);
    if (zone == Z_TRICK) {
        for (i = 0; i < s->n_trick; i++) out[i] = (uint8_t)be_card_id(s->trick[i]);
        return s->n_trick;
    }
    if (zone == Z_WON) return mask_ids(s->won_mask[instance], out);
    return 0;                                     /* Z_DECK: empty once dealt */
}

/* ---------------------------------------------------------------- the deal (BE-2) */
/* BE-2.2: packets of 3, then 2, then 3, from the dealer's next seat round to the dealer. */
int be_deal_seat(int dealer, int position) {
    int seat;
    if (position < 0 || position >= NUM_CARDS) return -1;
    if (position < 12) {
        seat = position / 3;
    } else if (position < 20) {
        seat = (position - 12) / 2;
    } else {
        seat = (position - 20) / 3;
    }
    return (dealer + 1 + seat) % PLAYERS;
}

/* A deal's table cleared: the auction, the play and its counters (the last deal's scoring,
 * `made`, `result` and the breakdown, stays until the next deal ends: BE-10). */
static void clear_deal(BEState *s) {
    int i;
    s->played = 0;
    for (i = 0; i < 2; i++) s->won_mask[i] = 0, s->points[i] = 0, s->tricks[i] = 0;
    for (i = 0; i < PLAYERS; i++) s->played_by[i] = 0, s->shown_out[i] = 0;
    s->bid_value = 0;
    s->bid_suit = -1;
    s->bid_seat = -1;
    s->contre = 0;
    s->contre_seat = -1;
    s->passes = 0;
    s->n_calls = 0;
    s->trump = -1;
    s->leader = 0;
    s->n_trick = 0;
    s->master = 0;
    s->master_strength = 0;
    s->best_trump = -1;
    s->tricks_done = 0;
    s->last_leader = -1;
    s->last_winner = -1;
    s->belote_seat = -1;
    s->belote_said = 0;
}

/* BE-2.2: the header's dealer deals; a stacked deck deals the first deal only, the later deals
 * of a match (BE-10.4) are shuffled with the game's generator. */
static void be_deal(BEState *s) {
    uint8_t order[NUM_CARDS], deck[NUM_CARDS];
    int i, c;
    clear_deal(s);
    for (i = 0; i < NUM_CARDS; i++) deck[i] = (uint8_t)be_card_id(i);
    deal_prologue(&s->h, deck, NUM_CARDS, order);
    for (i = 0; i < PLAYERS; i++) s->hand[i] = 0;
    for (i = 0; i < NUM_CARDS; i++) {
        c = be_index_of(order[i]);
        s->hand[be_deal_seat(s->h.dealer, i)] |= (uint32_t)1 << c;
    }
    for (i = 0; i < PLAYERS; i++) s->dealt[i] = s->hand[i];
    s->h.phase = PH_AUCTION;
    s->h.to_move = (s->h.dealer + 1) % PLAYERS;  /* BE-3.1 */
}

/* BE-2.1: the dealer by option or by lot, then the deal. */
static void be_start(void *state) {
    BEState *s = (BEState *)state;
    s->h.dealer = s->opt.dealer >= 0 ? s->opt.dealer : (int32_t)rng_below(&s->h.rng, PLAYERS);
    s->total[0] = s->total[1] = 0;
    s->reached = 0;
    be_deal(s);
}

/* ---------------------------------------------------------------- legality */
/* BE-5.2..BE-5.4: the cards the seat to move may play, as a mask. */
static uint32_t playable(const BEState *s) {
    int p = s->h.to_move, lead, t = s->trump;
    uint32_t hand = s->hand[p], follow, trumps, over;
    if (s->n_trick == 0) return hand;             /* BE-5.1: any lead */
    lead = be_suit(s->trick[0]);
    follow = hand & suit_bits(lead);
    if (t == NT) return follow ? follow : hand;   /* BE-9.4: follow suit, nothing more */
    if (t == AT) {                                 /* BE-9.5: follow suit, and climb */
        over = follow & ((uint32_t)TRUMPS_ABOVE[s->master_strength + 1] << (8 * lead));
        return over ? over : follow ? follow : hand;
    }
    trumps = hand & suit_bits(t);
    over = trumps & ((uint32_t)TRUMPS_ABOVE[s->best_trump + 1] << (8 * t));
    if (lead == t) {                               /* BE-5.2: trumps led: climb if you can */
        if (follow) return over ? over : follow;
        return hand;
    }
    if (follow) return follow;                     /* BE-5.2 */
    if (team_of(s->leader + s->master) == team_of(p)) return hand;   /* BE-5.3 */
    if (!trumps) return hand;                      /* BE-5.4 */
    if (over) return over;                         /* BE-5.4: trump, above any trump */
    if (s->opt.must_undertrump) return trumps;     /* BE-5.6: undertrump, no discard */
    return hand;                                   /* BE-5.4: cannot overtrump: undertrump or discard */
}

static int be_legal(void *state, int32_t *out, int capacity) {
    BEState *s = (BEState *)state;
    int n = 0, a, first, p;
    uint32_t m;
    if (capacity < MAX_LEGAL) return -1;
    if (s->h.phase == PH_PLAY) {
        m = playable(s);
        while (m) {
            out[n++] = cardcore_ctz64(m);
            m &= m - 1;
        }
        return n;
    }
    if (s->h.phase != PH_AUCTION) return 0;
    p = s->h.to_move;
    out[n++] = A_PASS;                             /* BE-3.2 */
    if (s->contre == 0) {
        first = s->bid_value == 0 ? 0 : (s->bid_value - BE_MIN_BID) / BE_BID_STEP + 1;
        for (a = A_BID + 4 * first; a < A_CAPOT; a++) out[n++] = a;          /* BE-3.3 */
        if (s->bid_value < BE_CAPOT_VALUE)
            for (a = A_CAPOT; a < A_CONTRE; a++) out[n++] = a;               /* BE-3.4 */
        /* contre (73) sits between the suit bids and the no-trump/all-trump ones: ids ascend */
        if (s->bid_seat >= 0 && team_of(s->bid_seat) != team_of(p)) out[n++] = A_CONTRE;
        if (s->opt.all_contracts) {                                          /* BE-9.1 */
            for (a = A_BID_NTAT + 2 * first; a < A_CAPOT_NTAT; a++) out[n++] = a;
            if (s->bid_value < BE_CAPOT_VALUE)
                for (a = A_CAPOT_NTAT; a < NUM_ALL_ACTIONS; a++) out[n++] = a;
        }
    } else if (team_of(s->bid_seat) == team_of(p)) {
        out[n++] = A_SURCONTRE;                    /* BE-3.6 */
    }
    return n;
}

/* ---------------------------------------------------------------- applying */
static void be_score(BEState *s);

static void add_row(BEState *s, int team, int what, int rule, int64_t points) {
    BreakdownRow *r;
    if (s->n_rows >= BE_MAX_ROWS) return;
    r = &s->rows[s->n_rows++];
    r->owner = team;
    r->what = what;
    r->rule = rule;
    r->detail = -1;
    r->count = -1;
    r->points = points;
}

/* BE-10.1, BE-10.2: a side's total has reached (or exceeded) the target. */
static int over_target(const BEState *s, int side) {
    return s->opt.match_exceed ? s->total[side] > s->opt.match_to
                             : s->total[side] >= s->opt.match_to;
}

/* A deal is over (scored, or passed out: BE-3.8). One deal is the match (BE-2.3); in a match
 * (BE-10) the deal's scores add to the totals, and the match ends when a side is over the
 * target with more than the other (BE-10.3: on equal totals another deal is played), or after
 * BE_MAX_DEALS deals (BE-10.5); else the next seat deals (BE-10.4). */
static void end_deal(BEState *s) {
    int k, done = 1;
    for (k = 0; k < 2; k++) {
        s->deal_points[k] = s->points[k];
        s->deal_tricks[k] = s->tricks[k];
    }
    s->h.round_index += 1;
    if (s->opt.match_to > 0) {
        for (k = 0; k < 2; k++) s->total[k] += s->result[k];
        s->reached = (over_target(s, 0) || over_target(s, 1)) && s->total[0] != s->total[1];
        done = s->reached || s->h.round_index >= BE_MAX_DEALS;
        if (!done) {
            s->h.dealer = (s->h.dealer + 1) % PLAYERS;
            be_deal(s);
            return;
        }
    }
    s->h.phase = PH_OVER;
    s->h.to_move = -1;
}

/* BE-3.9: the play begins: the trump, the belote's holder (BE-6.4), the first lead (BE-5.1). */
static void start_play(BEState *s) {
    int p, t = s->bid_suit;
    uint32_t kq;
    s->h.phase = PH_PLAY;
    s->trump = t;
    s->belote_seat = -1;
    if (t < NT) {                                  /* BE-9.6: no belote in NT and AT */
        kq = ((uint32_t)1 << (8 * t + R_QUEEN_I)) | ((uint32_t)1 << (8 * t + R_KING_I));
        for (p = 0; p < PLAYERS; p++)
            if ((s->hand[p] & kq) == kq) s->belote_seat = p;
    }
    s->leader = (s->h.dealer + 1) % PLAYERS;
    s->h.to_move = s->leader;
    s->best_trump = -1;
}

static void bid_call(BEState *s, int p, int action) {
    if (s->n_calls < BE_MAX_AUCTION) s->calls[s->n_calls++] = (uint8_t)(action - A_PASS);
    if (action == A_PASS) {
        s->passes += 1;
        if (s->bid_value == 0 && s->passes == PLAYERS) {   /* BE-3.8: passed out */
            s->made = -1;
            s->result[0] = s->result[1] = 0;
            s->n_rows = 0;
            end_deal(s);
            return;
        }
        if (s->bid_value > 0 && s->passes == PLAYERS - 1) {  /* BE-3.7 */
            start_play(s);
            return;
        }
    } else if (action >= A_BID_NTAT && action < A_CAPOT_NTAT) {    /* BE-9.1 */
        s->bid_value = BE_MIN_BID + BE_BID_STEP * ((action - A_BID_NTAT) / 2);
        s->bid_suit = NT + (action - A_BID_NTAT) % 2;
        s->bid_seat = p;
        s->passes = 0;
    } else if (action >= A_CAPOT_NTAT) {           /* BE-9.1: capot no-trump or all-trump */
        s->bid_value = BE_CAPOT_VALUE;
        s->bid_suit = NT + action - A_CAPOT_NTAT;
        s->bid_seat = p;
        s->passes = 0;
    } else if (action < A_CAPOT) {                 /* BE-3.3 */
        s->bid_value = BE_MIN_BID + BE_BID_STEP * ((action - A_BID) / 4);
        s->bid_suit = (action - A_BID) % 4;
        s->bid_seat = p;
        s->passes = 0;
    } else if (action < A_CONTRE) {                /* BE-3.4 */
        s->bid_value = BE_CAPOT_VALUE;
        s->bid_suit = action - A_CAPOT;
        s->bid_seat = p;
        s->passes = 0;
    } else if (action == A_CONTRE) {               /* BE-3.5 */
        s->contre = 1;
        s->contre_seat = p;
        s->passes = 0;
    } else {                                       /* BE-3.6: the auction ends */
        s->contre = 2;
        start_play(s);
        return;
    }
    s->h.to_move = (p + 1) % PLAYERS;
    s->h.turns += 1;
}

/* BE-5.5: a card's strength in the trick (-1: neither trump nor the suit led); BE-9.4,
 * BE-9.5: in no-trump and all-trump, the suit led's order only (all-trump: the trumps'). */
static inline int strength(const BEState *s, int card) {
    uint32_t counts = TRUMP_BITS[s->trump] | suit_bits(be_suit(s->trick[0]));
    return counts & ((uint32_t)1 << card) ? STRENGTH_OF[s->trump][card] : -1;
}

/* What a card played shows its seat did not hold, read off playable()'s obligations: the suit
 * led when it did not follow; in a trump contract the trumps above the table's best when it
 * followed trumps lower, or trumped lower, or discarded against the other team's trick (and
 * every trump, where BE-5.6 makes undertrumping compulsory); in all-trump the cards of the
 * suit led above the trick's master when it followed lower. */
static void note_shown_out(BEState *s, int p, int card) {
    int lead, t = s->trump;
    uint32_t bit = (uint32_t)1 << card, out = 0, over;
    if (s->n_trick == 0) return;                   /* BE-5.1: any lead */
    lead = be_suit(s->trick[0]);
    if (be_suit(card) != lead) out |= suit_bits(lead);
    if (t == AT) {                                 /* BE-9.5 */
        over = (uint32_t)TRUMPS_ABOVE[s->master_strength + 1] << (8 * lead);
        if (be_suit(card) == lead && !(bit & over)) out |= over;
    } else if (t < NT) {
        over = (uint32_t)TRUMPS_ABOVE[s->best_trump + 1] << (8 * t);
        if (lead == t) {                           /* BE-5.2: climb if you can */
            if (be_suit(card) == t && !(bit & over)) out |= over;
        } else if (be_suit(card) != lead
                   && team_of(s->leader + s->master) != team_of(p)) {   /* BE-5.3, BE-5.4 */
            if (!(bit & over)) out |= over;
            if (be_suit(card) != t && s->opt.must_undertrump) out |= suit_bits(t);   /* BE-5.6 */
        }
    }
    s->shown_out[p] |= out;
}

static void play_card(BEState *s, int p, int card) {
    int k, win, team, pts, st, t = s->trump;
    uint32_t bit = (uint32_t)1 << card, cards = 0;
    note_shown_out(s, p, card);
    s->hand[p] &= ~bit;
    s->played_by[p] |= bit;
    s->trick[s->n_trick] = (int8_t)card;
    st = strength(s, card);
    if (s->n_trick == 0 || st > s->master_strength) {
        s->master = s->n_trick;
        s->master_strength = st;
    }
    if (bit & TRUMP_BITS[t]) {
        if (st - TRUMP_OVER > s->best_trump) s->best_trump = st - TRUMP_OVER;
        if (p == s->belote_seat && (bit & KINGS_QUEENS))
            s->belote_said += 1;                   /* BE-6.4: belote, then rebelote */
    }
    s->n_trick += 1;
    s->h.turns += 1;
    if (s->n_trick < PLAYERS) {
        s->h.to_move = (p + 1) & (PLAYERS - 1);
        return;
    }
    win = (s->leader + s->master) & (PLAYERS - 1);   /* BE-5.5 */
    team = team_of(win);
    pts = 0;
    for (k = 0; k < PLAYERS; k++) {
        pts += POINTS_OF[t][s->trick[k]];          /* BE-6.1 */
        cards |= (uint32_t)1 << s->trick[k];
        s->last_trick[k] = s->trick[k];
    }
    s->played |= cards;
    s->won_mask[team] |= cards;
    s->points[team] += pts;
    s->tricks[team] += 1;
    s->tricks_done += 1;
    s->last_leader = s->leader;
    s->last_winner = win;
    s->n_trick = 0;
    s->best_trump = -1;
    s->leader = win;
    s->h.to_move = win;
    if (s->tricks_done == TRICKS) {                /* BE-6.2, BE-6.3 */
        s->points[team] += s->tricks[team] == TRICKS ? BE_CAPOT_DER : BE_DIX_DE_DER;
        be_score(s);
        end_deal(s);
    }
}

static void be_apply(void *state, int action) {
    BEState *s = (BEState *)state;
    if (action < NUM_CARDS)
        play_card(s, s->h.to_move, action);
    else
        bid_call(s, s->h.to_move, action);
}

/* ---------------------------------------------------------------- scoring (BE-7) */
/* The belote's 20 when one side takes the whole deal (a fall, a made contre, a flat capot):
 * all of it to that side (BE-6.4, colver), or each side keeps its own (belote="kept", BE-7.8). */
static void score_belote_taken(BEState *s, const int *belote, int side) {
    int k;
    if (!s->opt.belote_kept) {
        if (belote[0] + belote[1] == 0) return;
        s->result[side] += belote[0] + belote[1];
        add_row(s, side, BE_W_BELOTE, BE_R_BELOTE, belote[0] + belote[1]);
        return;
    }
    for (k = 0; k < 2; k++)
        if (belote[k]) {
            s->result[k] += belote[k];
            add_row(s, k, BE_W_BELOTE, BE_R_BELOTE_KEPT, belote[k]);
        }
}

static void be_score(BEState *s) {
    int t = team_of(s->bid_seat), d = 1 - t, v = s->bid_value;
    int mult = s->contre == 0 ? 1 : s->contre == 1 ? 2 : s->opt.surcontre;
    int total = s->opt.deal_total;                 /* BE-7.2, BE-7.7 */
    int belote[2] = {0, 0}, made, base, k, rounded, side;
    if (s->belote_seat >= 0) belote[team_of(s->belote_seat)] = BE_BELOTE_POINTS;   /* BE-6.4 */
    if (v == BE_CAPOT_VALUE)
        made = s->tricks[t] == TRICKS;             /* BE-7.3 */
    else
        made = s->points[t] + belote[t] >= v;      /* BE-7.1 */
    base = s->tricks[t] == TRICKS ? BE_CAPOT_TOTAL : total;
    s->made = made;
    s->result[0] = s->result[1] = 0;
    s->n_rows = 0;
    if (v == BE_CAPOT_VALUE && s->opt.capot_flat) {    /* BE-7.9: 500 x mult, cards and all */
        side = made ? t : d;
        s->result[side] = BE_CAPOT_FLAT * mult;
        add_row(s, side, BE_W_CAPOT_FLAT, BE_R_CAPOT_FLAT, BE_CAPOT_FLAT * mult);
        if (made && s->contre == 0) {              /* as BE-7.1: each side its own belote */
            for (k = 0; k < 2; k++)
                if (belote[k]) {
                    s->result[k] += belote[k];
                    add_row(s, k, BE_W_BELOTE, BE_R_BELOTE, belote[k]);
                }
        } else {
            score_belote_taken(s, belote, side);
        }
    } else if (made && s->contre == 0) {           /* BE-7.1 */
        s->result[t] = s->points[t] + v + belote[t];
        s->result[d] = s->points[d] + belote[d];
        add_row(s, t, BE_W_CARDS, BE_R_MADE, s->points[t]);
        add_row(s, t, BE_W_CONTRACT, BE_R_MADE, v);
        if (belote[t]) add_row(s, t, BE_W_BELOTE, BE_R_BELOTE, belote[t]);
        add_row(s, d, BE_W_CARDS, BE_R_MADE, s->points[d]);
        if (belote[d]) add_row(s, d, BE_W_BELOTE, BE_R_BELOTE, belote[d]);
    } else if (made) {                             /* BE-7.4: a made contre takes all */
        s->result[t] = base + v * mult;
        add_row(s, t, BE_W_ALL_CARDS, base == BE_DEAL_TOTAL_160 ? BE_R_FALL_160 : BE_R_CONTRE,
                base);
        add_row(s, t, BE_W_CONTRACT, BE_R_CONTRE, v * mult);
        score_belote_taken(s, belote, t);
    } else {                                       /* BE-7.2: the fall */
        s->result[d] = total + v * mult;
        add_row(s, d, BE_W_ALL_CARDS, total == BE_DEAL_TOTAL ? BE_R_FALL : BE_R_FALL_160, total);
        add_row(s, d, BE_W_CONTRACT, BE_R_FALL, v * mult);
        score_belote_taken(s, belote, d);
    }
    if (s->opt.round10) {                          /* BE-7.6: to the nearest ten, 5 or 6 up */
        for (k = 0; k < 2; k++) {
            rounded = (s->result[k] + (s->opt.round10 == 1 ? 5 : 4)) / 10 * 10;
            if (rounded != s->result[k]) add_row(s, k, BE_W_ROUNDING, BE_R_ROUNDING,
                                                 rounded - s->result[k]);
            s->result[k] = rounded;
        }
    }
}

static int be_breakdown(const void *state, BreakdownRow *out, int capacity) {
    const BEState *s = (const BEState *)state;
    return copy_breakdown(s->rows, s->n_rows, out, capacity);
}

/* The side's points: one deal, its score once over (BE-7, colver's rewards()); a match, its
 * total so far (BE-10.1), so that a search's round horizon credits each deal's points. */
static int32_t side_points(const BEState *s, int side) {
    if (s->opt.match_to > 0) return s->total[side];
    return s->h.phase == PH_OVER ? s->result[side] : 0;
}

static void be_returns(const void *state, double *out) {
    const BEState *s = (const BEState *)state;
    int p;
    for (p = 0; p < PLAYERS; p++) out[p] = (double)side_points(s, p & 1);
}

static void be_scores(const void *state, int32_t *out) {
    const BEState *s = (const BEState *)state;
    int p;
    for (p = 0; p < PLAYERS; p++) out[p] = side_points(s, p & 1);
}

/* ---------------------------------------------------------------- the per-seat projection */
static const int32_t PIECE_SIZE[NUM_PIECES] = {
    PLAYERS, PLAYERS, 3, PLAYERS, NUM_CARDS, PLAYERS * NUM_CARDS, NUM_CARDS,
    PLAYERS * (BE_BID_LEVELS + 1), 4, 1, PLAYERS, 3, PLAYERS, 2, 2, 2};

int be_obs_layout(int32_t *offset) {
    int i, at = 0;
    for (i = 0; i < NUM_PIECES; i++) {
        offset[i] = at;
        at += PIECE_SIZE[i];
    }
    offset[NUM_PIECES] = at;
    return at;
}

static int be_observation_size(const void *state) {
    int32_t offset[NUM_PIECES + 1];
    (void)state;
    return be_obs_layout(offset);
}

static void put_mask(float *out, uint32_t m) {
    while (m) {
        out[cardcore_ctz64(m)] = 1.0f;
        m &= m - 1;
    }
}

/* What `seat` sees (BE-8): its hand, the auction, the trick, the finished tricks, the score.
 * Seats are absolute (seat k is colver's seat k). */
static void be_observe(const void *state, int seat, float *out) {
    const BEState *s = (const BEState *)state;
    int32_t o[NUM_PIECES + 1];
    int size = be_obs_layout(o), i, p, level, a;
    memset(out, 0, sizeof(float) * (size_t)size);
    out[o[BE_P_OBSERVER] + seat] = 1.0f;
    if (s->h.to_move >= 0) out[o[BE_P_TO_MOVE] + s->h.to_move] = 1.0f;
    out[o[BE_P_PHASE] + s->h.phase] = 1.0f;
    out[o[BE_P_DEALER] + s->h.dealer] = 1.0f;
    put_mask(out + o[BE_P_HAND], s->hand[seat]);
    for (i = 0; i < s->n_trick; i++)
        out[o[BE_P_TRICK] + ((s->leader + i) % PLAYERS) * NUM_CARDS + s->trick[i]] = 1.0f;
    put_mask(out + o[BE_P_PLAYED], s->played);
    for (i = 0; i < s->n_calls; i++) {             /* each seat's highest bid */
        a = s->calls[i] + A_PASS;
        if (a <= A_PASS || a == A_CONTRE || a == A_SURCONTRE) continue;
        p = (s->h.dealer + 1 + i) % PLAYERS;
        if (a >= NUM_ACTIONS)
            level = a < A_CAPOT_NTAT ? (a - A_BID_NTAT) / 2 : BE_BID_LEVELS;
        else
            level = a < A_CAPOT ? (a - A_BID) / 4 : BE_BID_LEVELS;
        memset(out + o[BE_P_BIDS] + p * (BE_BID_LEVELS + 1), 0, sizeof(float) * (BE_BID_LEVELS + 1));
        out[o[BE_P_BIDS] + p * (BE_BID_LEVELS + 1) + level] = 1.0f;
    }
    if (s->bid_seat >= 0) {
        if (s->bid_suit < NT)                      /* BE-9.7: no-trump none, all-trump all four */
            out[o[BE_P_CONTRACT_SUIT] + s->bid_suit] = 1.0f;
        else if (s->bid_suit == AT)
            for (i = 0; i < 4; i++) out[o[BE_P_CONTRACT_SUIT] + i] = 1.0f;
        out[o[BE_P_CONTRACT_VALUE]] = (float)s->bid_value / (float)BE_CAPOT_VALUE;
        out[o[BE_P_TAKER] + s->bid_seat] = 1.0f;
    }
    out[o[BE_P_CONTRE] + s->contre] = 1.0f;
    if (s->belote_said > 0) out[o[BE_P_BELOTE] + s->belote_seat] = 1.0f;
    for (i = 0; i < 2; i++) {
        out[o[BE_P_POINTS] + i] = (float)s->points[i];
        out[o[BE_P_TRICKS_WON] + i] = (float)s->tricks[i];
        out[o[BE_P_SCORES] + i] = (float)side_points(s, i);
    }
}

/* ---------------------------------------------------------------- determinization */
enum { SAMPLE_TRIES = 32 };    /* constrained deals tried before the plain one (see below) */

/* Deal the pool (`unseen`) to the other seats, need[q] cards each, no seat a card it has shown
 * it did not hold (shown_out): the seat that may hold the fewest of the pool's cards first,
 * each taking its cards at random among those it may hold, the last seat what is left; 0 if
 * that fits, else -1 (the caller tries again). */
static int deal_kept(BEState *s, int seat, uint32_t unseen, const int *need, uint32_t *got,
                     Rng *rng) {
    uint8_t cand[NUM_CARDS], tmp;
    int order[PLAYERS], n = 0, q, i, j, k, c;
    uint32_t left = unseen, m;
    for (q = 0; q < PLAYERS; q++) {
        if (q == seat) continue;
        for (i = n; i > 0 && popcount64(unseen & ~s->shown_out[order[i - 1]])
                             > popcount64(unseen & ~s->shown_out[q]); i--)
            order[i] = order[i - 1];
        order[i] = q;
        n += 1;
    }
    for (j = 0; j < n; j++) {
        q = order[j];
        k = 0;
        for (m = left & ~s->shown_out[q]; m; m &= m - 1) cand[k++] = (uint8_t)lowest_card(m);
        if (k < need[q]) return -1;
        got[q] = 0;
        for (i = 0; i < need[q]; i++) {            /* a partial Fisher-Yates: need[q] of k */
            c = i + (int)rng_below(rng, (uint32_t)(k - i));
            tmp = cand[i];
            cand[i] = cand[c];
            cand[c] = tmp;
            got[q] |= (uint32_t)1 << cand[i];
        }
        left &= ~got[q];
    }
    return 0;
}

/* Redeal what `seat` cannot see: the other hands' cards, each hand keeping its size and none
 * getting a card its plays showed it did not hold (a suit it did not follow, a trump it would
 * have had to play: shown_out); a belote said (BE-6.4) pins the other of trump K and Q in its
 * holder's hand (everybody heard it). Such a deal is found by deal_kept within SAMPLE_TRIES
 * tries (the true deal is one, so one exists; a miss is rare and takes the plain redeal of the
 * pool instead). The candidates are listed in card order: the world depends only on what the seat
 * knows. games/belote.md "Hidden cards" has the Decision. */
static int be_sample_hidden(void *state, int seat, Rng *rng) {
    BEState *s = (BEState *)state;
    uint8_t pool[NUM_CARDS];
    int need[PLAYERS], q, n = 0, i, c, t = s->trump, tries;
    uint32_t pinned = 0, unseen = 0, kq, got[PLAYERS];
    if (s->h.phase == PH_PLAY && s->belote_said == 1 && t < NT) {
        kq = ((uint32_t)1 << (8 * t + R_QUEEN_I)) | ((uint32_t)1 << (8 * t + R_KING_I));
        pinned = s->hand[s->belote_seat] & kq;
        if (s->belote_seat == seat) pinned = 0;
    }
    for (q = 0; q < PLAYERS; q++) {
        if (q == seat) continue;
        unseen |= s->hand[q] & ~pinned;
        need[q] = popcount64(s->hand[q] & ~pinned);
    }
    for (tries = 0; tries < SAMPLE_TRIES; tries++)
        if (deal_kept(s, seat, unseen, need, got, rng) == 0) break;
    if (tries == SAMPLE_TRIES) {                   /* the plain redeal */
        for (c = 0; c < NUM_CARDS; c++)
            if (unseen & ((uint32_t)1 << c)) pool[n++] = (uint8_t)c;
        shuffle_u8(rng, pool, n);
        i = 0;
        for (q = 0; q < PLAYERS; q++) {
            if (q == seat) continue;
            got[q] = 0;
            for (c = 0; c < need[q]; c++) got[q] |= (uint32_t)1 << pool[i++];
        }
    }
    for (q = 0; q < PLAYERS; q++) {
        if (q == seat) continue;
        s->hand[q] = (s->hand[q] & pinned) | got[q];
        s->dealt[q] = s->hand[q] | s->played_by[q];
    }
    /* BE-6.4: in this world, the belote is whoever holds both (if nobody has said it yet and
     * neither card has been played: a seat that played one without a word did not hold both) */
    if (s->h.phase == PH_PLAY && s->belote_said == 0 && t < NT) {
        kq = ((uint32_t)1 << (8 * t + R_QUEEN_I)) | ((uint32_t)1 << (8 * t + R_KING_I));
        s->belote_seat = -1;
        for (q = 0; q < PLAYERS; q++)
            if ((s->hand[q] & kq) == kq) s->belote_seat = q;
    }
    return 0;
}

/* ---------------------------------------------------------------- GreedyBot's policy */
/* One move ahead from what the seat to move may know (its hand, the auction, the trick).
 * Auction: a suit's worth is its cards' trump points plus G_LENGTH per card and G_SIDE_ACE per
 * ace outside it; open 80 in the best suit when worth reaches G_OPEN (the dealer, last to
 * speak, always: a greedy table never passes a deal out), raise an opponent's
 * contract by one step when worth reaches its value + G_RAISE_MARGIN, never over the partner,
 * never contre. Play: when the partner holds the trick, give it the most points; else take the
 * trick with the cheapest card that does, or throw the cheapest card. These weights are the
 * policy's one source; greedy.py's docstring documents them. */
#define G_LENGTH 6.0
#define G_SIDE_ACE 10.0
#define G_OPEN 70.0
#define G_RAISE_MARGIN 0.0

static double suit_worth(uint32_t hand, int suit) {
    double w = 0.0;
    int c;
    for (c = 0; c < NUM_CARDS; c++) {
        if (!(hand & ((uint32_t)1 << c))) continue;
        if (be_suit(c) == suit)
            w += TRUMP_POINTS[be_rank(c)] + G_LENGTH;
        else if (be_rank(c) == 7)
            w += G_SIDE_ACE;
    }
    return w;
}

/* contracts="all" (BE-9): no-trump's worth is its card points (BE-9.2) plus G_NT_ACE per ace,
 * all-trump's its card points (BE-9.3) plus G_AT_JACK per jack; bid like a suit. */
#define G_NT_ACE 4.0
#define G_AT_JACK 6.0

static double ntat_worth(uint32_t hand, int kind) {
    double w = 0.0;
    int c;
    for (c = 0; c < NUM_CARDS; c++) {
        if (!(hand & ((uint32_t)1 << c))) continue;
        if (kind == NT)
            w += NT_POINTS[be_rank(c)] + (be_rank(c) == 7 ? G_NT_ACE : 0.0);
        else
            w += AT_POINTS[be_rank(c)] + (be_rank(c) == 3 ? G_AT_JACK : 0.0);
    }
    return w;
}

/* The bid id of `value` (80..160) in `suit` (0..3, NT, AT). */
static int bid_id(int value, int suit) {
    int level = (value - BE_MIN_BID) / BE_BID_STEP;
    return suit < NT ? A_BID + 4 * level + suit : A_BID_NTAT + 2 * level + (suit - NT);
}

static int be_greedy(const void *state, const int32_t *legal, int n, Rng *rng) {
    const BEState *s = (const BEState *)state;
    double values[MAX_LEGAL];
    int32_t ties[MAX_LEGAL];
    int p = s->h.to_move, k, a, best_suit = 0, st, win_now, kinds = s->opt.all_contracts ? 6 : 4;
    double worth[6], best = -1.0, want;
    if (n == 1) return 0;
    if (s->h.phase == PH_AUCTION) {
        for (k = 0; k < kinds; k++) {
            worth[k] = k < NT ? suit_worth(s->hand[p], k) : ntat_worth(s->hand[p], k);
            if (worth[k] > best) {
                best = worth[k];
                best_suit = k;
            }
        }
        want = -1.0;                               /* the bid wanted, or none */
        if (s->contre == 0) {
            if (s->bid_value == 0 && (best >= G_OPEN || p == s->h.dealer))
                want = BE_MIN_BID;
            else if (s->bid_value > 0 && s->bid_value < 160 && team_of(s->bid_seat) != team_of(p)
                     && best >= s->bid_value + BE_BID_STEP + G_RAISE_MARGIN)
                want = s->bid_value + BE_BID_STEP;
        }
        for (k = 0; k < n; k++) {
            a = legal[k];
            values[k] = a == A_PASS ? 0.0 : -1.0;
            if (want > 0 && a == bid_id((int)want, best_suit)) values[k] = 1.0;
        }
        return best_by_value(values, n, rng, ties);
    }
    win_now = s->n_trick > 0 && team_of((s->leader + s->master) % PLAYERS) == team_of(p);
    for (k = 0; k < n; k++) {
        a = legal[k];
        if (s->n_trick == 0) {                     /* lead: the strongest card, points first */
            values[k] = STRENGTH_OF[s->trump][a] + 0.01 * be_card_points(a, s->trump);
            continue;
        }
        if (win_now) {                             /* feed the partner */
            values[k] = be_card_points(a, s->trump) + (be_suit(a) == s->trump ? -30.0 : 0.0);
            continue;
        }
        st = strength(s, a);
        if (st > s->master_strength)               /* takes the trick: cheapest taker */
            values[k] = 100.0 - be_card_points(a, s->trump) - 0.1 * st;
        else                                       /* cannot take: cheapest card */
            values[k] = -be_card_points(a, s->trump) - 0.1 * st;
    }
    return best_by_value(values, n, rng, ties);
}

/* Random play, choice for choice play_loop's (the same draw picks the same id of the same
 * legal list), with the phase tested once an action and play_card / bid_call called directly.
 * Choosing the k-th card off the playable mask without writing the list made the same games
 * but ran slower (the k-th bit is a loop of unpredictable length, the k-th id one load). */
static long long be_play(void *state, Rng *chooser, int32_t *scratch, long long max_actions) {
    BEState *s = (BEState *)state;
    long long done = 0;
    uint32_t m;
    int n;
    while (s->h.to_move >= 0 && done < max_actions) {
        if (s->h.phase == PH_PLAY) {
            m = playable(s);
            for (n = 0; m; m &= m - 1) scratch[n++] = cardcore_ctz64(m);   /* be_legal's list */
            if (n == 0) break;
            play_card(s, s->h.to_move, scratch[rng_below(chooser, (uint32_t)n)]);
        } else {
            n = be_legal(s, scratch, MAX_LEGAL);
            if (n <= 0) break;
            bid_call(s, s->h.to_move, scratch[rng_below(chooser, (uint32_t)n)]);
        }
        done += 1;
    }
    s->h.actions_applied += done;
    return s->h.to_move >= 0 && done < max_actions ? -1 : done;   /* -1: no legal action */
}

/* ---------------------------------------------------------------- refusals */
/* Why an id is not legal now: reasons index words.REFUSALS (the texts stay in Python); cards
 * as cardcore ids, suits as cardcore's suit index (C S D H). */
enum {
    R_AUCTION_FIRST = 0, R_AUCTION_OVER, R_BID_TOO_LOW, R_CAPOT_TOP, R_BID_AFTER_CONTRE,
    R_CONTRE_NOTHING, R_CONTRE_OWN, R_CONTRE_TWICE, R_SURCONTRE_WHO, R_NOT_HELD, R_FOLLOW,
    R_OVERTRUMP, R_TRUMP, R_NOT_OFFERED, R_OVERTAKE, NUM_REFUSALS
};

static const uint8_t CC_SUIT[4] = {1, 3, 2, 0};   /* colver suit -> cardcore suit */

static int be_refuse(const void *state, int32_t action, Refusal *out) {
    const BEState *s = (const BEState *)state;
    int p = s->h.to_move, lead, t = s->trump;
    uint32_t hand = s->hand[p];
    if (s->h.phase == PH_AUCTION) {
        if (action < NUM_CARDS) return refuse0(out, R_AUCTION_FIRST, "BE-3.1");
        if (action >= NUM_ACTIONS && !s->opt.all_contracts)
            return refuse0(out, R_NOT_OFFERED, "BE-9.1");
        if (action == A_SURCONTRE) {
            return refuse0(out, R_SURCONTRE_WHO, "BE-3.6");
        }
        if (action == A_CONTRE) {
            if (s->contre > 0) return refuse0(out, R_CONTRE_TWICE, "BE-3.5");
            if (s->bid_seat < 0) return refuse0(out, R_CONTRE_NOTHING, "BE-3.5");
            return refuse0(out, R_CONTRE_OWN, "BE-3.5");
        }
        if (s->contre > 0) return refuse0(out, R_BID_AFTER_CONTRE, "BE-3.5");
        if (s->bid_value == BE_CAPOT_VALUE) return refuse0(out, R_CAPOT_TOP, "BE-3.4");
        return refuse1(out, R_BID_TOO_LOW, "BE-3.3", s->bid_value);
    }
    if (action >= NUM_CARDS) return refuse0(out, R_AUCTION_OVER, "BE-3.7");
    if (!(hand & ((uint32_t)1 << action))) return refuse1(out, R_NOT_HELD, "BE-5.1", be_card_id(action));
    lead = be_suit(s->trick[0]);
    if (t == NT) return refuse2(out, R_FOLLOW, "BE-9.4", be_card_id(action), CC_SUIT[lead]);
    if (t == AT) {                                 /* BE-9.5 */
        if (be_suit(action) == lead) return refuse1(out, R_OVERTAKE, "BE-9.5", be_card_id(action));
        return refuse2(out, R_FOLLOW, "BE-9.5", be_card_id(action), CC_SUIT[lead]);
    }
    if (hand & suit_bits(lead)) {
        if (lead == t && be_suit(action) == t) return refuse1(out, R_OVERTRUMP, "BE-5.2", be_card_id(action));
        return refuse2(out, R_FOLLOW, "BE-5.2", be_card_id(action), CC_SUIT[lead]);
    }
    if (be_suit(action) == t) return refuse1(out, R_OVERTRUMP, "BE-5.4", be_card_id(action));
    if (s->opt.must_undertrump && !(playable(s) & ((uint32_t)TRUMPS_ABOVE[s->best_trump + 1]
                                                   << (8 * t))))
        return refuse2(out, R_TRUMP, "BE-5.6", be_card_id(action), CC_SUIT[t]);
    return refuse2(out, R_TRUMP, "BE-5.4", be_card_id(action), CC_SUIT[t]);
}

const GameHooks BE_HOOKS = {
    GAME_HOOKS_HEAD,
    .name = "belote",
    .state_size = sizeof(BEState),
    .num_actions = NUM_ALL_ACTIONS,               /* the widest configuration (contracts="all") */
    .max_legal = MAX_LEGAL,
    .start = be_start,
    .legal = be_legal,
    .apply = be_apply,
    .observation_size = be_observation_size,
    .observe = be_observe,
    .returns = be_returns,
    .scores = be_scores,
    .sample_hidden = be_sample_hidden,
    .rollout = NULL,
    .zones = ZONES,
    .num_zones = NUM_ZONES,
    .zone_cards = be_zone_cards,
    .known_cards = NULL,
    .breakdown = be_breakdown,
    .greedy = be_greedy,
    .hand_cards = NULL,
    .play = be_play,
    .refuse = be_refuse,
    .num_refusals = NUM_REFUSALS,
};

/* ---------------------------------------------------------------- the game, as the C ABI sees it */
enum {
    O_DEALER = 0, O_SURCONTRE, O_ROUNDING, O_UNDERTRUMP, O_CONTRACTS, O_FALL, O_BELOTE, O_CAPOT,
    O_MATCH_TO, O_MATCH_END, NUM_OPTIONS
};

static const char *const SURCONTRE_CHOICES[] = {"x3", "x4"};
static const char *const ROUNDING_CHOICES[] = {"none", "nearest_ten", "nearest_ten_6_up"};
static const char *const UNDERTRUMP_CHOICES[] = {"free", "required"};
static const char *const CONTRACTS_CHOICES[] = {"suits", "all"};
static const char *const FALL_CHOICES[] = {"162+contract", "160+contract"};
static const char *const BELOTE_CHOICES[] = {"taken", "kept"};
static const char *const CAPOT_CHOICES[] = {"contract", "flat"};
static const char *const MATCH_END_CHOICES[] = {"reach", "exceed"};

/* The Python options_spec, option for option (cardcore.games.belote.Belote). */
static const OptionSpec BE_OPTIONS[NUM_OPTIONS] = {
    {"dealer", OPT_SEAT_OR_LOT, "BE-2.1", OPTION_NONE, 0, 0, 0, NULL, 0, 0},
    {"surcontre", OPT_CHOICE, "BE-7.5", 0, 0, 0, 0, SURCONTRE_CHOICES, 2, 0},
    {"rounding", OPT_CHOICE, "BE-7.6", 0, 0, 0, 0, ROUNDING_CHOICES, 3, 0},
    {"undertrump", OPT_CHOICE, "BE-5.6", 0, 0, 0, 0, UNDERTRUMP_CHOICES, 2, 0},
    {"contracts", OPT_CHOICE, "BE-9.1", 0, 0, 0, 0, CONTRACTS_CHOICES, 2, 0},
    {"fall", OPT_CHOICE, "BE-7.7", 0, 0, 0, 0, FALL_CHOICES, 2, 0},
    {"belote", OPT_CHOICE, "BE-7.8", 0, 0, 0, 0, BELOTE_CHOICES, 2, 0},
    {"capot", OPT_CHOICE, "BE-7.9", 0, 0, 0, 0, CAPOT_CHOICES, 2, 0},
    {"match_to", OPT_INT, "BE-10.1", 0, 0, BE_MAX_MATCH_TO, 0, NULL, 0, 0},
    {"match_end", OPT_CHOICE, "BE-10.2", 0, 0, 0, 0, MATCH_END_CHOICES, 2, 0},
};

int be_init(void *state, int players, const int64_t *values) {
    BEState *s = (BEState *)state;
    if (players != PLAYERS) return -1;
    if (values[O_DEALER] != OPTION_NONE && (values[O_DEALER] < 0 || values[O_DEALER] >= players))
        return -1;
    if (values[O_SURCONTRE] < 0 || values[O_SURCONTRE] > 1) return -1;
    if (values[O_ROUNDING] < 0 || values[O_ROUNDING] > 2) return -1;
    if (values[O_UNDERTRUMP] < 0 || values[O_UNDERTRUMP] > 1) return -1;
    if (values[O_CONTRACTS] < 0 || values[O_CONTRACTS] > 1) return -1;
    if (values[O_FALL] < 0 || values[O_FALL] > 1) return -1;
    if (values[O_BELOTE] < 0 || values[O_BELOTE] > 1) return -1;
    if (values[O_CAPOT] < 0 || values[O_CAPOT] > 1) return -1;
    if (values[O_MATCH_TO] < 0 || values[O_MATCH_TO] > BE_MAX_MATCH_TO) return -1;
    if (values[O_MATCH_END] < 0 || values[O_MATCH_END] > 1) return -1;
    s->h.players = players;
    s->h.to_move = -1;
    s->opt.dealer = values[O_DEALER] == OPTION_NONE ? -1 : (int32_t)values[O_DEALER];
    s->opt.surcontre = values[O_SURCONTRE] == 0 ? 3 : 4;
    s->opt.round10 = (int32_t)values[O_ROUNDING];
    s->opt.must_undertrump = (int32_t)values[O_UNDERTRUMP];
    s->opt.all_contracts = (int32_t)values[O_CONTRACTS];
    s->opt.deal_total = values[O_FALL] == 0 ? BE_DEAL_TOTAL : BE_DEAL_TOTAL_160;
    s->opt.belote_kept = (int32_t)values[O_BELOTE];
    s->opt.capot_flat = (int32_t)values[O_CAPOT];
    s->opt.match_to = (int32_t)values[O_MATCH_TO];
    s->opt.match_exceed = (int32_t)values[O_MATCH_END];
    s->bid_suit = -1;
    s->bid_seat = -1;
    s->contre_seat = -1;
    s->trump = -1;
    s->belote_seat = -1;
    s->last_leader = -1;
    s->last_winner = -1;
    s->h.phase = PH_OVER;
    return 0;
}

/* str(action): "play 10H" (cardcore's card notation), "pass", "bid 80S", "capot H",
 * "contre", "surcontre" (suit letters S H D C); the same in every state. */
static const char *const SUIT_LETTERS[6] = {"S", "H", "D", "C", "NT", "AT"};
static const char *const LEVELS[BE_BID_LEVELS] = {"80", "90", "100", "110", "120", "130", "140",
                                                  "150", "160"};

int be_action_label(const void *state, int action, char *buf, size_t len) {
    Label t = label_start(buf, len);
    (void)state;
    if (action >= 0 && action < NUM_CARDS) {
        label_put(&t, "play ");
        label_card(&t, be_card_id(action));
    } else if (action == A_PASS) {
        label_put(&t, "pass");
    } else if (action >= A_BID && action < A_CAPOT) {
        label_put(&t, "bid ");
        label_put(&t, LEVELS[(action - A_BID) / 4]);
        label_put(&t, SUIT_LETTERS[(action - A_BID) % 4]);
    } else if (action >= A_CAPOT && action < A_CONTRE) {
        label_put(&t, "capot ");
        label_put(&t, SUIT_LETTERS[action - A_CAPOT]);
    } else if (action == A_CONTRE) {
        label_put(&t, "contre");
    } else if (action == A_SURCONTRE) {
        label_put(&t, "surcontre");
    } else if (action >= A_BID_NTAT && action < A_CAPOT_NTAT
               && state != NULL && ((const BEState *)state)->opt.all_contracts) {
        label_put(&t, "bid ");
        label_put(&t, LEVELS[(action - A_BID_NTAT) / 2]);
        label_put(&t, SUIT_LETTERS[NT + (action - A_BID_NTAT) % 2]);
    } else if (action >= A_CAPOT_NTAT && action < NUM_ALL_ACTIONS
               && state != NULL && ((const BEState *)state)->opt.all_contracts) {
        label_put(&t, "capot ");
        label_put(&t, SUIT_LETTERS[NT + action - A_CAPOT_NTAT]);
    } else {
        return -1;
    }
    return label_end(&t);
}

/* The deck's ids in id order (the Python composition). */
int be_composition(const void *state, uint8_t *out) {
    (void)state;
    return mask_ids(0xFFFFFFFFu, out);
}

const GameKernel BE_KERNEL = {
    &BE_HOOKS, BE_OPTIONS, NUM_OPTIONS, PLAYERS, PLAYERS,
    PLAYERS,                                      /* default players (Belote.default_players) */
    be_init, be_action_label,
    NUM_CARDS,
    be_composition,
};
