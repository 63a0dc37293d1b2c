/* Gin Rummy' kernel in C (rules: games/gin_rummy.md, rule IDs GR-x.y), exactly as
 * OpenSpiel's ``crazy_eights`` plays it: the state struct, the rule constants and action ids,
 * and the hook table (GR_HOOKS) and ABI description (GR_KERNEL) that kernel.c defines.
 *
 * Cards inside this kernel are OpenSpiel's card indices, rank * 4 + suit with ranks 2..A as
 * 0..12 and suits C D H S as 0..3, so that the action ids ARE the card indices and legality is
 * one mask: Multiset hands and Pile piles hold these indices. cardcore's own card ids
 * (suit * 13 + rank, A = 0, suits C S D H) appear only at the boundary, converted by
 * gr_card_id / gr_os_index (the one mapping).
 *
 * Action space (the same 58 ids for every configuration, OpenSpiel's):
 *     0..51   play the card with that index                               GR-3.1
 *     52      draw (one card; under a draw-two debt, the whole debt)      GR-5.1, GR-4.4
 *     53      pass                                                        GR-5.2, GR-5.3
 *     54..57  nominate C, D, H, S after an eight                          GR-3.3
 *
 * Every name here carries the prefix GR_ / gr_: all the games' kernels link into one library.
 */
#ifndef CARDCORE_GR_KERNEL_H
#define CARDCORE_GR_KERNEL_H

#include "cardcore/core/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- rule constants */
enum {
    GR_MIN_PLAYERS = 2,               /* GR-1.1 */
    GR_MAX_PLAYERS = 15,              /* GR-1.1 */
    GR_ONE_DECK_MAX_PLAYERS = 5,      /* GR-1.2: two decks above 5 players */
    GR_NUM_CARDS = 52,                /* GR-1.2: one deck */
    GR_MAX_DECK = 104,                /* GR-1.2: two decks */
    GR_HAND_SIZE = 5,                 /* GR-2.2 */
    GR_HAND_SIZE_TWO_PLAYERS = 7,     /* GR-2.2 */
    GR_EIGHT_RANK = 6,                /* GR-3.3: the wild card (rank index of 8, ranks 2..A = 0..12) */
    GR_SKIP_RANK = 10,                /* GR-4.1: Q */
    GR_REVERSE_RANK = 12,             /* GR-4.2: A */
    GR_DRAW_TWO_RANK = 0,             /* GR-4.3: 2 */
    GR_DRAW_TWO_CARDS = 2,            /* GR-4.3 */
    GR_EIGHT_POINTS = 50,             /* GR-8.1 */
    GR_COURT_RANK = 9,                /* GR-8.1: J Q K A (rank indexes 9..12) cost COURT_POINTS */
    GR_COURT_POINTS = 10
};

/* ---------------------------------------------------------------- action table */
enum {
    GR_A_DRAW = 52,
    GR_A_PASS = 53,
    GR_A_NOMINATE = 54,               /* + suit (C D H S) */
    GR_NUM_ACTIONS = 58,
    GR_MAX_LEGAL = 54                 /* every card index, draw and pass */
};

/* The options' bounds the state accepts (the core's limits; Python's MAX_*_LIMIT). */
enum {
    GR_MAX_DRAW_CARDS_LIMIT = 10000,  /* GR-5.1: more than a deck's worth changes nothing */
    GR_MAX_TURNS_LIMIT = 1000000      /* GR-7.2: counters stay far inside 32 bits */
};

/* ---------------------------------------------------------------- scoring (GR-8) */
/* The hand-end breakdown: one row per seat and kind of card it holds (indexes into the
 * wrapper's BREAKDOWN_WHAT and BREAKDOWN_RULES). */
enum {
    GR_ROW_EIGHTS = 0,
    GR_ROW_COURT = 1,
    GR_ROW_NUMBERS = 2,
    GR_ROWS_PER_SEAT = 3,
    GR_R_GR_8_1 = 0,
    GR_R_GR_8_2 = 1
};

/* ---------------------------------------------------------------- the state */
enum {
    GR_PH_PLAY = 0,          /* play, draw or pass (GR-3, GR-5) */
    GR_PH_NOMINATE = 1,      /* GR-3.3: the player of an eight names a suit */
    GR_PH_OVER = 2
};

enum {
    GR_MAX_CLASSES = 8,      /* "Hidden cards": source classes of the unseen cards tracked at once */
    GR_E_LOG_CAP = 128,      /* events that bear on reburied eights (one deck: at most 41 draws + 52 plays) */
    GR_E_DRAW = 1,           /* e_log kinds (high nibble; the seat is the low nibble) */
    GR_E_PLAY = 2,           /* a class-0 card that is not a reburied eight was played */
    GR_E_PLAY_EIGHT = 3,     /* a reburied eight was played */
    GR_MAX_DRAWN = 16,       /* cards one action can draw: a debt is 2 per two (GR-4.3), 8 twos */
    GR_MAX_OBS_PIECES = 32   /* room for the observation layout's offsets */
};

/* The zones, in the zone table's order. */
enum {
    GR_Z_HAND = 0,           /* each seat's hand: its own (GR-9.2) */
    GR_Z_STOCK = 1,          /* face down (GR-9.2) */
    GR_Z_DISCARD = 2,        /* every card in it was played or turned up face up (GR-9.1) */
    GR_NUM_ZONES = 3
};

/* The observation's pieces, in the wrapper's OBS_NAMES order. */
enum {
    GR_P_OS_HAND = 0,
    GR_P_OS_LAST_CARD = 1,
    GR_P_OS_LAST_SUIT = 2,
    GR_P_OS_HAND_SIZES = 3,
    GR_P_OS_DIRECTION = 4,
    GR_P_OBSERVER = 5,
    GR_P_TO_MOVE = 6,
    GR_P_PHASE = 7,
    GR_P_DEALER = 8,
    GR_P_DIRECTION = 9,
    GR_P_STOCK_SIZE = 10,
    GR_P_DISCARD = 11,
    GR_P_DRAWS = 12,
    GR_P_MAX_DRAWS = 13,
    GR_P_TWOS_OWED = 14,
    GR_P_PASSES = 15,
    GR_P_PLAYS = 16,
    GR_P_MAX_TURNS = 17,
    GR_P_REBURIED = 18,
    GR_P_KNOWN_BOTTOM = 19,
    GR_P_KNOWN_EIGHTS = 20,
    GR_P_SCORES = 21,
    GR_NUM_PIECES = 22
};

/* The resolved options (defaults: the Python options_spec / GR_KERNEL's option table). */
typedef struct GROptions {
    int32_t max_draw_cards;            /* GR-5.1 */
    int32_t max_turns;                 /* GR-7.2 */
    int special;                       /* use_special_cards (GR-4) */
    int reshuffle;                     /* GR-6.1 */
    int face;                          /* scoring="face" (GR-8.1), else "openspiel" (GR-8.2) */
    int32_t dealer;                    /* GR-2.1: a seat, or -1 to draw by lot */
} GROptions;

typedef struct GRState {
    Header h;                          /* players, phase, to_move, round_index, dealer, rng */
    GROptions opt;
    int32_t decks, hand_size, deck_size;
    uint8_t deck[GR_MAX_DECK];         /* the composition, cardcore ids in id order (GR-1.2) */
    Multiset hand[GR_MAX_PLAYERS];     /* OpenSpiel indices */
    Pile stock;                        /* top = last */
    Pile discard;                      /* bottom -> top; the top is the card to match */
    int32_t last_card, last_suit;      /* GR-3.1: the card and suit to match */
    int32_t direction;                 /* +1 / -1 (GR-4.2) */
    /* OpenSpiel's turn counters, kept as its code keeps them */
    int can_pass;                      /* GR-5.2, GR-5.3 */
    int32_t passes;                    /* GR-7.3: consecutive passes with an empty stock */
    int32_t draws;                     /* GR-5.1: draws before a play (num_draws_before_play_) */
    int32_t twos_owed;                 /* GR-4.3: cards the player to move owes */
    int32_t plays;                     /* GR-7.2: cards played (the turn-up is not one) */
    int32_t reshuffles;                /* GR-6.1 */
    int32_t reburied[NUM_SUITS];       /* GR-2.4: eights turned up and put back, per suit */
    int stacked_deal;                  /* GR-2.4: the deal used a stacked deck */
    /* The last action's draws, in order (events and the OpenSpiel differential test) */
    int32_t n_drawn;
    uint8_t drawn[GR_MAX_DRAWN];
    /* Public knowledge that sample_hidden keeps (games/gin_rummy.md "Hidden cards") */
    int32_t known_bottom;              /* stacked deal: the reburied eights at the stock bottom */
    uint8_t known_eights[GR_MAX_PLAYERS][NUM_SUITS];    /* known eights a hand holds (drawn from there) */
    uint8_t hand_cls[GR_MAX_PLAYERS][GR_NUM_CARDS][2];  /* the source class of each unknown copy held */
    int32_t stock_cls;                 /* the class of every unknown stock card */
    int32_t cls_epoch[GR_MAX_CLASSES]; /* the reshuffle that made a class (0: the deal) */
    int e_active;                      /* shuffled deal, one deck: reburied eights are tracked */
    uint8_t e_hidden[NUM_SUITS];       /* ... the reburied eights not played yet */
    int32_t e_log_len;
    uint8_t e_log[GR_E_LOG_CAP];       /* ... and the draws and plays that bear on them */
    /* Scoring (GR-8), written once by gr_score */
    int32_t penalty[GR_MAX_PLAYERS];
    int32_t n_rows;                    /* the breakdown: the kinds of card each seat held */
    BreakdownRow rows[GR_MAX_PLAYERS * GR_ROWS_PER_SEAT];
    /* The observation layout of this configuration (offsets of the pieces) */
    int32_t obs_offset[GR_MAX_OBS_PIECES];
    int32_t obs_size;
} GRState;

/* ---------------------------------------------------------------- the one card mapping */
/* OpenSpiel's rank (2..A = 0..12) and suit (C D H S = 0..3) of a card index. */
static inline int gr_os_rank(int card) { return card >> 2; }
static inline int gr_os_suit(int card) { return card & 3; }
/* The eight of an OpenSpiel suit, as an index. */
static inline int gr_eight_of(int suit) { return GR_EIGHT_RANK * 4 + suit; }

/* cardcore's card id of an OpenSpiel card index (0..51): OpenSpiel suits C D H S are
 * cardcore's 0 2 3 1; cardcore ranks: A = 0, 2..K = 1..12; OpenSpiel's: 2..K = 0..11, A = 12. */
static inline int gr_card_id(int index) {
    static const uint8_t cc_suit_of_os[4] = {0, 2, 3, 1};
    return cc_suit_of_os[index & 3] * 13 + ((index >> 2) + 1) % 13;
}

/* OpenSpiel's card index of a cardcore card id (0..51). */
static inline int gr_os_index(int card) {
    static const uint8_t os_suit_of_cc[4] = {0, 3, 1, 2};
    return ((card % 13 + 12) % 13) * 4 + os_suit_of_cc[card / 13];
}

/* ---------------------------------------------------------------- exported */
extern const GameHooks GR_HOOKS;
extern const GameKernel GR_KERNEL;

/* GR-1.2: 2 decks above 5 players, else 1. */
int gr_decks_for(int players);
/* GR-2.2: the cards dealt to each hand (7 with 2 players, else 5). */
int gr_hand_size_for(int players);
/* GR-2.2: the seat deck position `position` (0 = top) is dealt to; -1 past the hands. */
int gr_deal_seat(int players, int dealer, int hand_size, int position);
/* GR-8.1 (face) / GR-8.2 (openspiel): the penalty of one card (an OpenSpiel index). */
int gr_card_points(int card, int face);
/* Offsets of the observation's pieces (offset[GR_NUM_PIECES] = the size); the size. */
int gr_obs_layout(int players, int special, int32_t *offset);
/* Copies of `card` (an index) in p's hand whose place nobody else knows. */
int gr_unknown_count(const GRState *s, int p, int card);
/* A zone's cards as cardcore ids (a hand in id order; piles bottom to top); the count. */
int gr_zone_cards(const void *state, int zone, int instance, uint8_t *out);

/* The C ABI: setup from resolved option values (GR_KERNEL's option order: dealer,
 * max_draw_cards, max_turns, use_special_cards, reshuffle, scoring), an action's notation,
 * the deck's composition. */
int gr_init(void *state, int players, const int64_t *values);
int gr_action_label(const void *state, int action, char *buf, size_t len);
int gr_composition(const void *state, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_GR_KERNEL_H */
