/* Kuzanasta's rules kernel (rules: games/kuzanasta.md, rule IDs KZ-x.y), in C99.
 *
 * The state struct, the constants the Python wrapper (_state.pyx, _sets.pyx) and the C ABI
 * need, the set-detection kernels (KZ-4, KZ-5, KZ-7.1) and the hook table; the rules
 * themselves are kernel.c. Every exported name carries the prefix KZ_ / kz_: the kernels of
 * all games are linked into one native library.
 */
#ifndef CARDCORE_GAMES_KUZANASTA_KERNEL_H
#define CARDCORE_GAMES_KUZANASTA_KERNEL_H

#include "cardcore/core/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ set detection (KZ-4, KZ-5)
 * A set (KZ-5.1) is 3 or 4 cards of one rank r: natural cards of rank r plus cards of the
 * deal's wild rank standing in; at least one natural card of r; the joker never belongs to a
 * set. A group is classified into a row of the KZ-5.3 table (0 = not a set).
 *
 * A set *descriptor* names a set by rank, size and number of wild cards standing in; suits
 * are left to the engine (they only matter for the 2+2 four-card rows). It is what a named
 * declaration (KZ-7.1) is made of:
 *     d = rank * KZ_NUM_SHAPES + shape
 *     shape 0, 1, 2     = 3 cards with 0, 1, 2 wild cards
 *     shape 3, 4, 5, 6  = 4 cards with 0, 1, 2, 3 wild cards
 * A set of the wild rank itself (KZ-4.2) is natural: its descriptor has 0 wild cards. */
enum {
    KZ_NOT_A_SET = 0,
    KZ_ROW_3_NATURAL_FACE = 1,      /* Q-Q-Q                    20000 */
    KZ_ROW_3_MIXED_FACE = 2,        /* J-J-W, J-W-W             10000 */
    KZ_ROW_3_NATURAL_NUMBER = 3,    /* 7-7-7                    10000 */
    KZ_ROW_3_MIXED_NUMBER = 4,      /* 9-9-W, 9-W-W             5000 */
    KZ_ROW_4_NATURAL_FACE = 5,      /* K-K-K-K                  2000 */
    KZ_ROW_4_RED_PAIRS = 6,         /* 5H 5H 5D 5D              1500 */
    KZ_ROW_4_BLACK_PAIRS = 7,       /* 8C 8C 8S 8S              1100 */
    KZ_ROW_4_MIXED_FACE = 8,        /* K-K-K-W ... K-W-W-W      1000 */
    KZ_ROW_4_NATURAL_NUMBER = 9,    /* 8-8-8-8, other suits     1000 */
    KZ_ROW_4_MIXED_NUMBER = 10,     /* 3-3-3-W ... 3-W-W-W      500 */
    KZ_NUM_ROWS = 11,
    KZ_NO_WILD = -1,                /* the deal's wild rank when the turn-up was the joker (KZ-2.3) */
    KZ_NUM_SHAPES = 7,
    KZ_NUM_DESCRIPTORS = 91         /* 13 ranks x 7 shapes */
};

int kz_row_value(int row);
int kz_classify(const Multiset *group, int wild_rank);
void kz_rank_counts(const Multiset *hand, int *counts);
int kz_best_two(const Multiset *hand, int wild_rank, int *d1, int *d2);
int kz_descriptor_value(const Multiset *hand, int wild_rank, int d);
int kz_declaration_value(const Multiset *hand, int wild_rank, int d1, int d2);
int kz_best_three_four(const Multiset *hand, int wild_rank, int *d1, int *d2);

static inline int kz_desc_rank(int d) { return d / KZ_NUM_SHAPES; }
static inline int kz_desc_size(int d) { return d % KZ_NUM_SHAPES < 3 ? 3 : 4; }
static inline int kz_desc_wilds(int d) {
    int shape = d % KZ_NUM_SHAPES;
    return shape < 3 ? shape : shape - 3;
}
static inline int kz_desc(int rank, int size, int wilds) {
    return rank * KZ_NUM_SHAPES + (size == 3 ? wilds : 3 + wilds);
}

/* ------------------------------------------------------------------ rule constants */
enum {
    KZ_MIN_PLAYERS = 2,             /* KZ-1.5 */
    KZ_MAX_PLAYERS = 4,
    KZ_DEFAULT_PLAYERS = 4,
    KZ_DECK_SIZE = 93,              /* KZ-1.1: 52 + 40 + the joker */
    KZ_HAND_SIZE = 7,               /* KZ-2.4 */
    KZ_NUM_STOCKS = 2,              /* KZ-2.5 */
    KZ_GOD_DOUBLING = 2,            /* KZ-7.2 (joker turn-up), KZ-7.3 (winner holds the joker) */
    KZ_MAX_VOID_DEALS = 10000       /* KZ-7.8: the termination guard */
};

/* ------------------------------------------------------------------ action table */
enum {
    KZ_A_DRAW_STOCK = 0,
    KZ_A_DRAW_DISCARD = 1,
    KZ_A_GOD_LOOK = 2,
    KZ_FIRST_GOD_DRAW = 3,          /* + card id (0..51) */
    KZ_FIRST_DISCARD = 55,          /* + card id (0..52) */
    KZ_FIRST_GOD_DISCARD = 108,     /* + card id (0..51) */
    KZ_A_END_TURN = 160,
    KZ_A_GO_OUT = 161,              /* the best declaration */
    KZ_FIRST_NAMED = 162,           /* + the named declaration's index */
    KZ_NUM_NAMED = 2808,
    KZ_NUM_ACTIONS = 2970,          /* every configuration but god_draw="position" */
    KZ_FIRST_GOD_PLACE = 2970,      /* god_draw="position": pile k, depth d -> 2970 + k * 93 + d */
    KZ_NUM_PLACE_ACTIONS = 2 * 93,  /* KZ_NUM_STOCKS * KZ_DECK_SIZE */
    KZ_NUM_ALL_ACTIONS = 3156       /* with god_draw="position" */
};

/* The action id naming sets d1 and d2 (either order); -1 if there is none. */
int kz_pair_id(int d1, int d2);
/* The two descriptors (d1 <= d2) of named declaration `index` (0..KZ_NUM_NAMED-1). */
void kz_named_pair(int index, int *d1, int *d2);

/* ------------------------------------------------------------------ phases and deal ends */
enum {
    KZ_PH_DRAW = 0,          /* KZ-3.1, KZ-6.2 */
    KZ_PH_GOD_DRAW = 1,      /* KZ-6.2: the holder looked at the stocks and takes a card */
    KZ_PH_DISCARD = 2,       /* KZ-3.2, KZ-6.3, KZ-6.4 */
    KZ_PH_DECLARE = 3,       /* KZ-3.3: end the turn, or go out with two sets */
    KZ_PH_OVER = 4,
    KZ_NUM_PHASES = 5
};

enum {
    KZ_END_NONE = 0,
    KZ_END_OUT = 1,          /* someone went out (KZ-7) */
    KZ_END_NO_DRAW = 2,      /* KZ-3.4: the player to draw can draw nothing */
    KZ_END_MAX_TURNS = 3,    /* KZ-3.5 */
    KZ_NUM_DEAL_ENDS = 4
};

/* ------------------------------------------------------------------ options */
typedef struct KZOptions {
    int32_t dealer;                    /* KZ-2.1: first dealer, -1 = by lot */
    int adjacent_piles;                /* KZ-2.6: pile_pairing == "adjacent" */
    int reshuffle;                     /* KZ-3.4 */
    int32_t max_turns;                 /* KZ-3.5 */
    int32_t deals;                     /* KZ-7.5: scored deals that end the match, 0 = play to target */
    int64_t target;                    /* KZ-7.5 */
    int64_t ante;                      /* KZ-7.6 */
    int immediate;                     /* KZ-3.3: going_out == "immediate" */
    int three_four;                    /* KZ-7.1: sets == "three_and_four" */
    int god_place;                     /* KZ-6.2: god_draw == "position" */
} KZOptions;

/* The options in KZ_OPTIONS order (kz_init's values[i]). */
enum {
    KZ_OPT_DEALER = 0,
    KZ_OPT_PILE_PAIRING = 1,
    KZ_OPT_RESHUFFLE = 2,
    KZ_OPT_MAX_TURNS = 3,
    KZ_OPT_TARGET = 4,
    KZ_OPT_DEALS = 5,
    KZ_OPT_ANTE = 6,
    KZ_OPT_GOING_OUT = 7,
    KZ_OPT_SETS = 8,
    KZ_OPT_GOD_DRAW = 9,
    KZ_NUM_OPTIONS = 10
};

/* ------------------------------------------------------------------ the deal plan (KZ-2.3..2.7) */
enum {
    KZ_Z_HAND = 0,           /* which = seat (KZ-2.4) */
    KZ_Z_DISCARD = 1,        /* which = pile: the card turned up to start its discard pile (KZ-2.7) */
    KZ_Z_STOCK = 2,          /* which = pile, depth = place from the top of that stock (KZ-2.5) */
    KZ_Z_SET_ASIDE = 3       /* pile 1 of a 2-3 player deal: dead for the deal (KZ-2.6) */
};

typedef struct KZDealPlan {
    /* Where each deck position (top card first) goes. Position 0 is also the turn-up
     * (KZ-2.3): everybody sees it, then it lies in the zone given here. */
    uint8_t zone[KZ_DECK_SIZE];
    uint8_t which[KZ_DECK_SIZE];
    uint8_t depth[KZ_DECK_SIZE];
    int32_t stock_size[KZ_NUM_STOCKS];
} KZDealPlan;

void kz_make_deal_plan(int players, int first, KZDealPlan *plan);

/* ------------------------------------------------------------------ the state */
typedef struct KZState {
    Header h;                          /* players, phase, to_move, round_index (deals finished,
                                          scored or void), dealer (KZ-2.1), turns, rng */
    KZOptions opt;
    uint8_t deck[KZ_DECK_SIZE];        /* the composition, id order (KZ-1.1) */
    int32_t deals_scored;
    int32_t first;                     /* KZ-2.2: the deal's first player */
    int32_t wild;                      /* KZ-2.3: the wild rank, KZ_NO_WILD after a joker turn-up */
    int32_t turn_up;
    int32_t piles_in_play;             /* KZ-2.6: 1 or 2 */
    int32_t pile_of[KZ_MAX_PLAYERS];
    int32_t turns_in_deal;             /* KZ-3.5 */
    int32_t god_public;                /* seat known to hold the joker (KZ-8), -1 if none known */
    Multiset hand[KZ_MAX_PLAYERS];
    Pile stock[KZ_NUM_STOCKS];         /* bottom -> top */
    Pile discard[KZ_NUM_STOCKS];
    Multiset dead;                     /* KZ-6.6: out of play for the rest of the deal */
    int64_t score[KZ_MAX_PLAYERS];
    int64_t chips[KZ_MAX_PLAYERS];     /* KZ-7.6 */
    int64_t pot;

    /* The deal's public knowledge: what every seat knows of where cards are, besides the
     * face-up piles. Kept only for sample_hidden (games/kuzanasta.md, "Hidden cards"). */
    Multiset known[KZ_MAX_PLAYERS];    /* cards everybody knows to be in a hand */
    uint8_t stock_seen[KZ_NUM_STOCKS][KZ_DECK_SIZE];   /* parallel to stock[k].cards: 1 = publicly known */
    Multiset dead_seen;                /* dead cards that were face up (KZ-6.3, KZ-6.4) */
    Multiset dead_up;                  /* of those, the dead discard piles: the face-up "dead"
                                          zone (the rest of dead is the set-aside pile 1) */
    /* What the last God look showed its holder (KZ-6.2), while it still pins the stocks down:
     * until a card leaves a stock unseen by the holder, the stocks hold only ids of look_shown,
     * and all of them except those the holder itself has taken out since (look_gone). */
    int32_t look_seat;                 /* -1: no such knowledge */
    uint64_t look_shown;
    uint64_t look_gone;

    /* The last finished deal (public once it ends). */
    int32_t last_end, last_winner, last_d1, last_d2, last_v1, last_v2, last_wild;
    int64_t last_hand_points, last_total, last_pot;
    int last_god_doubled, last_turn_up_doubled;
    int32_t last_hand_size;
    uint8_t last_hand[KZ_HAND_SIZE + 1];   /* the winner's hand, shown when going out */
} KZState;

/* ------------------------------------------------------------------ what the wrapper calls */
/* KZ-7.1: the best declaration the option `sets` allows in a hand (0 if none). */
int kz_best_declaration(const KZState *s, const Multiset *hand, int *d1, int *d2);
/* KZ-1.4 card points. */
int kz_card_points(int card);

/* The observation's layout (the offsets the wrapper's OBSERVATION_PIECES names). */
enum {
    KZ_OBS_SEATS = KZ_MAX_PLAYERS,
    KZ_OBS_WILDS = NUM_RANKS + 1,                             /* a rank, or none (joker turn-up) */
    KZ_O_OBSERVER = 0,                                        /* one-hot: the seat observing */
    KZ_O_TO_MOVE = KZ_O_OBSERVER + KZ_OBS_SEATS,              /* one-hot: the seat to move (none when over) */
    KZ_O_PHASE = KZ_O_TO_MOVE + KZ_OBS_SEATS,                 /* one-hot: draw, god_draw, discard, declare, over */
    KZ_O_HAND = KZ_O_PHASE + KZ_NUM_PHASES,                   /* the observer's hand, counts */
    KZ_O_HAND_SIZES = KZ_O_HAND + NUM_KINDS,
    KZ_O_SCORES = KZ_O_HAND_SIZES + KZ_OBS_SEATS,             /* KZ-7.4 */
    KZ_O_WILD = KZ_O_SCORES + KZ_OBS_SEATS,                   /* one-hot rank, last = none (KZ-2.3) */
    KZ_O_TURN_UP = KZ_O_WILD + KZ_OBS_WILDS,                  /* one-hot card id */
    KZ_O_DISCARD_COUNTS = KZ_O_TURN_UP + NUM_KINDS,           /* per pile in play: counts */
    KZ_O_DISCARD_TOP = KZ_O_DISCARD_COUNTS + KZ_NUM_STOCKS * NUM_KINDS,    /* per pile: one-hot top card */
    KZ_O_DISCARD_ORDER = KZ_O_DISCARD_TOP + KZ_NUM_STOCKS * NUM_KINDS,     /* per pile: card id + 1, bottom first */
    KZ_O_PILES_IN_PLAY = KZ_O_DISCARD_ORDER + KZ_NUM_STOCKS * KZ_DECK_SIZE,
    KZ_O_MY_PILE = KZ_O_PILES_IN_PLAY + 1,                    /* one-hot pile */
    KZ_O_PILE_OF = KZ_O_MY_PILE + KZ_NUM_STOCKS,              /* per seat: one-hot pile */
    KZ_O_STOCK_SIZES = KZ_O_PILE_OF + KZ_OBS_SEATS * KZ_NUM_STOCKS,   /* per pile in play */
    KZ_O_DEALER = KZ_O_STOCK_SIZES + KZ_NUM_STOCKS,           /* one-hot seat */
    KZ_O_FIRST = KZ_O_DEALER + KZ_OBS_SEATS,                  /* one-hot seat */
    KZ_O_DEAL = KZ_O_FIRST + KZ_OBS_SEATS,                    /* the deal being played, 1-based */
    KZ_O_TURNS_IN_DEAL = KZ_O_DEAL + 1,
    KZ_O_GOD_HOLDER = KZ_O_TURNS_IN_DEAL + 1,                 /* one-hot seat, last = not known (KZ-8) */
    KZ_O_CHIPS = KZ_O_GOD_HOLDER + KZ_OBS_SEATS + 1,          /* KZ-7.6 */
    KZ_O_POT = KZ_O_CHIPS + KZ_OBS_SEATS,
    KZ_O_BEST_VALUE = KZ_O_POT + 1,                           /* best_sets: total, 0 if none */
    KZ_O_BEST_SETS = KZ_O_BEST_VALUE + 1,                     /* best_sets: count per set descriptor */
    KZ_O_LAST_END = KZ_O_BEST_SETS + KZ_NUM_DESCRIPTORS,      /* one-hot: none yet, went_out, no_draw, max_turns */
    KZ_O_LAST_WINNER = KZ_O_LAST_END + KZ_NUM_DEAL_ENDS,      /* one-hot seat */
    KZ_O_LAST_WILD = KZ_O_LAST_WINNER + KZ_OBS_SEATS,         /* one-hot rank, last = none (only once a deal ended) */
    KZ_O_LAST_SETS = KZ_O_LAST_WILD + KZ_OBS_WILDS,           /* count per set descriptor */
    KZ_O_LAST_SET_VALUES = KZ_O_LAST_SETS + KZ_NUM_DESCRIPTORS,   /* the two sets' values, ascending descriptor */
    KZ_O_LAST_HAND = KZ_O_LAST_SET_VALUES + 2,                /* the winner's hand, counts */
    KZ_O_LAST_HAND_POINTS = KZ_O_LAST_HAND + NUM_KINDS,
    KZ_O_LAST_TURN_UP_DOUBLED = KZ_O_LAST_HAND_POINTS + 1,
    KZ_O_LAST_GOD_DOUBLED = KZ_O_LAST_TURN_UP_DOUBLED + 1,
    KZ_O_LAST_TOTAL = KZ_O_LAST_GOD_DOUBLED + 1,
    KZ_O_LAST_POT = KZ_O_LAST_TOTAL + 1,
    KZ_OBSERVATION_SIZE = KZ_O_LAST_POT + 1
};

/* The scoring breakdown's words: indexes into the wrapper's BREAKDOWN_WHAT and BREAKDOWN_RULES. */
enum {
    KZ_W_SET = 0,
    KZ_W_HAND_POINTS = 1,
    KZ_W_HAND_POINTS_DOUBLED = 2,
    KZ_W_GOD_DOUBLED = 3,
    KZ_R_KZ_7_4 = 0,
    KZ_R_KZ_7_2 = 1,
    KZ_R_KZ_7_2_2_3 = 2,
    KZ_R_KZ_7_3 = 3
};

/* GreedyBot's declaration wait (the wrapper's WAIT_BELOW, WAIT_TURNS_PER_PLAYER). */
enum {
    KZ_G_WAIT_BELOW = 15000,              /* declarations worth less may wait ... */
    KZ_G_WAIT_TURNS_PER_PLAYER = 2        /* ... while the deal is younger than this many turns a seat */
};

/* ------------------------------------------------------------------ the game, for the framework and the ABI */
extern const GameHooks KZ_HOOKS;
extern const GameKernel KZ_KERNEL;

int kz_init(void *state, int players, const int64_t *values);
int kz_action_label(const void *state, int action, char *buf, size_t len);
int kz_composition(const void *state, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_GAMES_KUZANASTA_KERNEL_H */
