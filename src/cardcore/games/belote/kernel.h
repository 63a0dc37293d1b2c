/* Belote Contrée's kernel in C (rules: games/belote.md, rule IDs BE-x.y), exactly as colver
 * 0.11.1 plays it by default: the state struct, the rule constants and action ids, and the
 * hook table (BE_HOOKS) and ABI description (BE_KERNEL) that kernel.c defines.
 *
 * Cards inside this kernel are colver's card indices, suit * 8 + rank with suits S H D C as
 * 0..3 and ranks 7 8 9 J Q K 10 A as 0..7 (the plain-suit order), so that a hand is one 32-bit
 * mask and the play ids ARE the card indices. cardcore's own card ids (suit * 13 + rank, A = 0,
 * suits C S D H) appear only at the boundary, converted by be_card_id / be_index_of (the one
 * mapping).
 *
 * Action space (75 ids, 32 + colver's bidding ids; contracts="all" adds 20 after them):
 *     0..31   play the card with that index                               BE-5
 *     32      pass                                                        BE-3.2
 *     33..68  bid 80 + 10 * ((a - 33) / 4) in suit (a - 33) % 4 (S H D C)   BE-3.3
 *     69..72  bid capot (250) in suit a - 69                              BE-3.4
 *     73      contre (the opponents double)                               BE-3.5
 *     74      surcontre (the takers redouble)                             BE-3.6
 *     75..92  contracts="all": bid 80 + 10 * ((a - 75) / 2), no-trump if (a - 75) % 2 == 0,
 *             else all-trump                                             BE-9.1
 *     93, 94  contracts="all": capot no-trump, capot all-trump            BE-9.1
 *
 * Every name here carries the prefix BE_ / be_: all the games' kernels link into one library.
 */
#ifndef CARDCORE_BE_KERNEL_H
#define CARDCORE_BE_KERNEL_H

#include "cardcore/core/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- rule constants */
enum {
    BE_PLAYERS = 4,                   /* BE-1.1: two partnerships, seats 0+2 and 1+3 */
    BE_NUM_CARDS = 32,                /* BE-1.2 */
    BE_HAND_SIZE = 8,                 /* BE-2.2 */
    BE_TRICKS = 8,                    /* BE-5.5 */
    BE_MIN_BID = 80,                  /* BE-3.3 */
    BE_BID_STEP = 10,                 /* BE-3.3 */
    BE_BID_LEVELS = 9,                /* BE-3.3: 80..160 */
    BE_CAPOT_VALUE = 250,             /* BE-3.4 */
    BE_DIX_DE_DER = 10,               /* BE-6.2 */
    BE_CAPOT_DER = 100,               /* BE-6.3: the last trick of a capot */
    BE_BELOTE_POINTS = 20,            /* BE-6.4 */
    BE_DEAL_TOTAL = 162,              /* BE-7.2 */
    BE_DEAL_TOTAL_160 = 160,          /* BE-7.7: fall="160+contract" */
    BE_CAPOT_FLAT = 500,              /* BE-7.9: capot="flat", times the multiplier */
    BE_MAX_MATCH_TO = 5000,           /* BE-10.1: the match_to option's bound */
    BE_MAX_DEALS = 200,               /* BE-10.5: a match ends after this many deals */
    BE_CAPOT_TOTAL = 252,             /* BE-7.3 */
    BE_NO_TRUMP = 4,                  /* BE-9: the contract's "suit" (and trump) of a no-trump */
    BE_ALL_TRUMP = 5                  /* ... and of an all-trump contract */
};

/* ---------------------------------------------------------------- action table */
enum {
    BE_A_PASS = 32,
    BE_A_BID = 33,                    /* + level * 4 + suit */
    BE_A_CAPOT = 69,                  /* + suit */
    BE_A_CONTRE = 73,
    BE_A_SURCONTRE = 74,
    BE_NUM_ACTIONS = 75,              /* contracts="suits" (colver's) */
    BE_A_BID_NTAT = 75,               /* + level * 2 + (0 no-trump, 1 all-trump) */
    BE_A_CAPOT_NTAT = 93,             /* + (0 no-trump, 1 all-trump) */
    BE_NUM_ALL_ACTIONS = 95,          /* contracts="all" */
    BE_MAX_LEGAL = 62,                /* pass, 36 + 18 bids, 4 + 2 capots, contre */
    BE_MAX_AUCTION = 64               /* auction calls kept (at most 10 raises, each with 3
                                       * passes, a contre, its 3 passes and a surcontre) */
};

/* ---------------------------------------------------------------- scoring (BE-7) */
/* The deal-end breakdown: one row per team and kind of points (indexes into the wrapper's
 * BREAKDOWN_WHAT and BREAKDOWN_RULES). */
enum {
    BE_W_CARDS = 0,                   /* card points won, dix de der included */
    BE_W_CONTRACT = 1,                /* the contract's value times the multiplier */
    BE_W_BELOTE = 2,
    BE_W_ALL_CARDS = 3,               /* a made contre, or a fall: the deal's whole total */
    BE_W_ROUNDING = 4,                /* rounding: to the nearest ten */
    BE_W_CAPOT_FLAT = 5,              /* capot="flat": a bid capot's flat score */
    BE_R_MADE = 0,                    /* BE-7.1 */
    BE_R_FALL = 1,                    /* BE-7.2 */
    BE_R_CONTRE = 2,                  /* BE-7.4 */
    BE_R_BELOTE = 3,                  /* BE-6.4 */
    BE_R_ROUNDING = 4,                /* BE-7.6 */
    BE_R_FALL_160 = 5,                /* BE-7.7 */
    BE_R_BELOTE_KEPT = 6,             /* BE-7.8 */
    BE_R_CAPOT_FLAT = 7,              /* BE-7.9 */
    BE_MAX_ROWS = 8
};

/* ---------------------------------------------------------------- the state */
enum {
    BE_PH_AUCTION = 0,                /* BE-3 */
    BE_PH_PLAY = 1,                   /* BE-5 */
    BE_PH_OVER = 2
};

/* The zones, in the zone table's order. */
enum {
    BE_Z_HAND = 0,                    /* each seat's hand: its own (BE-8.1) */
    BE_Z_TRICK = 1,                   /* the trick on the table, face up (BE-8.2) */
    BE_Z_WON = 2,                     /* each team's won tricks: every card was played face up */
    BE_Z_DECK = 3,                    /* the cards before the deal and after it (empty in play) */
    BE_NUM_ZONES = 4
};

/* The observation's pieces, in the wrapper's OBS_NAMES order. */
enum {
    BE_P_OBSERVER = 0,
    BE_P_TO_MOVE = 1,
    BE_P_PHASE = 2,
    BE_P_DEALER = 3,
    BE_P_HAND = 4,
    BE_P_TRICK = 5,                   /* 4 x 32: the trick's cards by seat, relative to the observer */
    BE_P_PLAYED = 6,                  /* cards of finished tricks */
    BE_P_BIDS = 7,                    /* 4 x 10: each seat's highest bid level (relative) */
    BE_P_CONTRACT_SUIT = 8,
    BE_P_CONTRACT_VALUE = 9,
    BE_P_TAKER = 10,                  /* relative seat of the contract's bidder */
    BE_P_CONTRE = 11,                 /* none, contre, surcontre */
    BE_P_BELOTE = 12,                 /* relative seat that said belote */
    BE_P_POINTS = 13,                 /* card points so far, the observer's team first */
    BE_P_TRICKS_WON = 14,
    BE_P_SCORES = 15,
    BE_NUM_PIECES = 16,
    BE_MAX_OBS_PIECES = 20
};

typedef struct BEOptions {
    int32_t dealer;                   /* BE-2.1: a seat, or -1 to draw by lot */
    int32_t surcontre;                /* BE-7.5: the surcontre's multiplier, 3 (colver) or 4 */
    int32_t round10;                  /* BE-7.6: 0 exact (colver), 1 nearest ten with 5 up,
                                       * 2 with 6 up (85 -> 80) */
    int32_t must_undertrump;          /* BE-5.6: undertrump when you cannot overtrump */
    int32_t all_contracts;            /* BE-9: no-trump and all-trump bids too */
    int32_t deal_total;               /* BE-7.7: what a side takes whole, 162 (colver) or 160 */
    int32_t belote_kept;              /* BE-7.8: the belote stays with its side on a fall */
    int32_t capot_flat;               /* BE-7.9: a bid capot scores 500 x the multiplier */
    int32_t match_to;                 /* BE-10.1: 0 = one deal (colver), else the target */
    int32_t match_exceed;             /* BE-10.2: 1 = a total must exceed match_to, 0 = reach it */
} BEOptions;

typedef struct BEState {
    Header h;                         /* players, phase, to_move, round_index, dealer, rng */
    BEOptions opt;
    uint32_t hand[BE_PLAYERS];        /* colver indices as bits */
    uint32_t dealt[BE_PLAYERS];       /* the hands as dealt */
    uint32_t played;                  /* the cards of finished tricks */
    uint32_t won_mask[2];             /* ... by the team that won them */
    uint32_t played_by[BE_PLAYERS];   /* the cards each seat played (the trick's too) */
    uint32_t shown_out[BE_PLAYERS];   /* cards a seat's plays showed it did not hold (BE-5.2..
                                       * BE-5.4, BE-5.6, BE-9.5): sample_hidden's worlds keep to it */
    /* the auction (BE-3) */
    int32_t bid_value;                /* 0 before any bid; 250 for capot */
    int32_t bid_suit;                 /* the trump of the contract (0..3, BE_NO_TRUMP,
                                       * BE_ALL_TRUMP), or -1 */
    int32_t bid_seat;                 /* the contract's bidder, or -1 */
    int32_t contre;                   /* 0, 1 contre, 2 surcontre */
    int32_t contre_seat;              /* who said contre, or -1 */
    int32_t passes;                   /* passes in a row */
    int32_t n_calls;
    uint8_t calls[BE_MAX_AUCTION];    /* the auction's actions (seat = (dealer + 1 + i) % 4) */
    /* the play (BE-5) */
    int32_t trump;                    /* the trump suit (or BE_NO_TRUMP, BE_ALL_TRUMP), -1
                                       * until the play */
    int32_t leader;                   /* the seat that led the trick on the table */
    int32_t n_trick;                  /* cards on the table */
    int8_t trick[BE_PLAYERS];         /* by order of play */
    int32_t master;                   /* the position in the trick that holds it */
    int32_t master_strength;
    int32_t best_trump;               /* the highest trump strength on the table, -1 if none */
    int32_t tricks_done;
    int8_t last_trick[BE_PLAYERS];    /* the last finished trick, by order of play */
    int32_t last_leader, last_winner;
    int32_t points[2];                /* card points won by team, dix de der included */
    int32_t tricks[2];
    int32_t belote_seat;              /* the seat holding trump K and Q (BE-6.4), or -1 */
    int32_t belote_said;              /* 0, 1 belote, 2 rebelote */
    /* scoring (BE-7), written once by be_score */
    int32_t made;                     /* 1 the contract was made, 0 it fell, -1 passed out */
    int32_t result[2];                /* the teams' scores for the deal */
    int32_t n_rows;
    BreakdownRow rows[BE_MAX_ROWS];
    /* the match (BE-10): the last deal as it ended (the next is dealt at once) and the totals */
    int32_t deal_points[2];           /* the last deal's card points, dix de der included */
    int32_t deal_tricks[2];
    int32_t total[2];                 /* the sides' points over the match's deals */
    int32_t reached;                  /* BE-10.1: the match ended on its target (not BE-10.5) */
} BEState;

/* ---------------------------------------------------------------- the one card mapping */
static inline int be_suit(int card) { return card >> 3; }
static inline int be_rank(int card) { return card & 7; }

/* cardcore's card id of a colver index: suits S H D C are cardcore's 1 3 2 0; ranks
 * 7 8 9 J Q K 10 A are cardcore's 6 7 8 10 11 12 9 0. */
static inline int be_card_id(int index) {
    static const uint8_t cc_suit[4] = {1, 3, 2, 0};
    static const uint8_t cc_rank[8] = {6, 7, 8, 10, 11, 12, 9, 0};
    return cc_suit[index >> 3] * 13 + cc_rank[index & 7];
}

/* colver's index of a cardcore card id; -1 for a card the 32-card deck has not. */
static inline int be_index_of(int card) {
    static const int8_t suit_of[4] = {3, 0, 2, 1};
    static const int8_t rank_of[13] = {7, -1, -1, -1, -1, -1, 0, 1, 2, 6, 3, 4, 5};
    if (card < 0 || card >= 52 || rank_of[card % 13] < 0) return -1;
    return suit_of[card / 13] * 8 + rank_of[card % 13];
}

/* ---------------------------------------------------------------- exported */
extern const GameHooks BE_HOOKS;
extern const GameKernel BE_KERNEL;

/* BE-2.2: the seat deck position `position` (0 = top) is dealt to: packets of 3, 2, 3. */
int be_deal_seat(int dealer, int position);
/* BE-4.1, BE-4.2, BE-9.2, BE-9.3: a card's points with `trump` the trump suit, BE_NO_TRUMP,
 * BE_ALL_TRUMP (-1: none, plain values). */
int be_card_points(int card, int trump);
/* Offsets of the observation's pieces (offset[BE_NUM_PIECES] = the size); the size. */
int be_obs_layout(int32_t *offset);
/* A zone's cards as cardcore ids (a hand in id order; the trick in order of play). */
int be_zone_cards(const void *state, int zone, int instance, uint8_t *out);

/* The C ABI: setup from resolved option values (BE_KERNEL's option order: dealer,
 * surcontre, rounding, undertrump, contracts, fall, belote, capot, match_to, match_end), an
 * action's notation, the deck's composition. */
int be_init(void *state, int players, const int64_t *values);
int be_action_label(const void *state, int action, char *buf, size_t len);
int be_composition(const void *state, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_BE_KERNEL_H */
