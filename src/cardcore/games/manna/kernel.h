/* Manna from Heaven's rules kernel (rules: games/manna.md, rule IDs MH-x.y), in C99.
 *
 * The rule constants, card predicates and action-id layout; the state struct and its zone
 * primitives; the minimum search's input (kernel_minimum.c); the observation's layout; and
 * the functions the Python wrappers (_state, _melds, _minimum, _view, _testing) call. The
 * rules themselves are kernel.c. Every exported name carries the prefix MH_ / mh_: the
 * kernels of all games are linked into one native library.
 */
#ifndef CARDCORE_GAMES_MANNA_KERNEL_H
#define CARDCORE_GAMES_MANNA_KERNEL_H

#include "cardcore/core/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ rule constants */
enum {
    MH_NPLAYERS = 6,            /* MH-1.4: two teams of three, team = seat % 2 */
    MH_NTEAMS = 2,
    MH_NUM_DECKS = 4,           /* MH-1.1: four decks ... */
    MH_NUM_JOKERS = 8,          /* ... and eight jokers */
    MH_DECK_SIZE = 216,         /* MH-1.1: 4 * 52 + 8 */
    MH_MAX_ID_COPIES = 8,       /* the most copies of one card id (the joker) */
    MH_HAND_DEAL = 13,          /* MH-2.2 */
    MH_FOOT_DEAL = 11,          /* MH-2.2 */
    MH_DRAW_COUNT = 2,          /* MH-3.1 */
    MH_CANASTA = 7,             /* MH-4.1: a canasta is exactly 7 cards and closed */
    MH_MIN_MELD = 3,            /* MH-4.1 */
    MH_MAX_WILDS = 3,           /* MH-4.2 */
    MH_MIN_NATURALS = 2,        /* MH-4.2 */
    MH_GOING_OUT_BONUS = 100,   /* MH-10.4 */
    MH_RED_THREE_EACH = 100,    /* MH-8.3 */
    MH_RED_THREES_ALL = 1000,   /* MH-8.3: all 8 to one team */
    MH_ALL_RED_THREES = 8,
    MH_FOOT_RED_THREE = 100,    /* MH-8.4 */
    MH_MAX_HANDS = 1000         /* MH-10.7 Decision (termination guard): the match ends after 1000 hands */
};

/* Per-kind indexes and meld groups (rank indexes are the core's R_ACE .. R_KING). */
enum {
    MH_K_JOKER = 13,            /* index of the joker in per-kind count arrays */
    MH_NRK = 14,                /* per-kind count arrays: ranks 0..12 and the joker */
    MH_G_WILD = 13,             /* meld group of the wild meld (MH-4.3) */
    MH_G_BLACK3 = 14,           /* meld group of black threes when going out (MH-4.7) */
    MH_NGROUPS = 15,
    MH_NAT_GROUPS = 11,         /* the natural-rank groups: A 4 5 6 7 8 9 10 J Q K */
    MH_MAX_TEAM_MELDS = 80
};

/* Canasta types (MH-4.5) as bits of a team's `types` mask. */
enum {
    MH_CT_NONE = 0,
    MH_CT_NATURAL = 1,
    MH_CT_MIXED = 2,
    MH_CT_WILD = 4,
    MH_CT_SEVENS = 8,
    MH_CT_ALL = 15,             /* MH-9.1: one of each type to go out */
    /* Not canasta types: extra bits of a team's mask saying which rank a mixed canasta has, so
     * that MH-9.1 can let a mixed canasta of sevens serve as the sevens one (MH-4.6 Decision). */
    MH_CT_MIXED_SEVENS = 16,    /* a mixed canasta of sevens (only with wild_sevens) */
    MH_CT_MIXED_OTHER = 32      /* a mixed canasta of any other rank */
};

/* Option values (MH-10.5 foot_penalty). */
enum {
    MH_FOOT_RED_THREES = 0,     /* an unopened foot costs only its red threes (MH-8.4) */
    MH_FOOT_CARDS = 1           /* ... and the points of its other cards too (0.1, Hand-and-Foot) */
};

/* ------------------------------------------------------------------ action ids
 * (the layout is listed in kernel.c's opening comment and _state.pyx's docstring) */
enum {
    MH_A_DRAW = 0,
    MH_A_TAKE_ADD = 1,
    MH_A_TAKE_PAIR = 2,
    MH_A_TAKE_TWO = 3,
    MH_A_TAKE_JOKER = 4,
    MH_A_RETRACT = 5,
    MH_A_DISCARD = 6,
    MH_A_GO_OUT = 59,
    MH_A_MELD = 112,
    MH_NAT_NEW = 39,            /* NEW (n, t, j) triples of a natural-rank group */
    MH_NAT_ADD = 29,            /* ADDITION triples of a natural-rank group */
    MH_NAT_GROUP = 68,
    MH_A_WILD = 860,            /* A_MELD + 11 * 68 */
    MH_WILD_NEW = 30,
    MH_WILD_ADD = 14,
    MH_A_BLACK3 = 904,
    MH_NUM_ACTIONS = 909,
    MH_MELD_IDS = 797           /* NUM_ACTIONS - A_MELD */
};

/* One row of the meld table (ids A_MELD.. decoded): group 0..12 = rank, 13 = wild, 14 =
 * black threes; 1 = a new meld (0 = an addition); naturals, twos, jokers taken from hand. */
typedef struct MHMeldDef {
    int8_t group;
    int8_t is_new;
    int8_t n;
    int8_t t;
    int8_t j;
} MHMeldDef;

/* The meld table, MH_MELD_IDS rows in id order (index = id - MH_A_MELD). */
const MHMeldDef *mh_meld_table(void);

/* ------------------------------------------------------------------ card predicates */
/* MH-1.3: points of a card kind (rank 0..12 = A 2 3 .. K, 13 = the joker). */
static inline int mh_rank_points(int kind) {
    if (kind == MH_K_JOKER) return 50;
    if (kind <= R_TWO) return 20;           /* ace, two */
    if (kind <= R_SEVEN) return 5;          /* 3..7 */
    return 10;                              /* 8..K */
}

/* Index into per-kind arrays: rank 0..12, the joker 13. */
static inline int mh_kind_of(int card) { return card == JOKER ? MH_K_JOKER : card % 13; }

static inline int mh_card_points(int card) { return mh_rank_points(mh_kind_of(card)); }

static inline int mh_is_wild(int card) { return card == JOKER || card % 13 == R_TWO; }   /* MH-1.2 */

/* MH-1.2: D, H */
static inline int mh_is_red_three(int card) {
    return card != JOKER && card % 13 == R_THREE && card / 13 >= 2;
}

static inline int mh_is_black_three(int card) {
    return card != JOKER && card % 13 == R_THREE && card / 13 < 2;
}

/* MH-1.2: ranks 4..K and A can be melded as natural-rank melds. */
static inline int mh_natural_rank(int r) { return r == R_ACE || r > R_THREE; }

/* The index-th natural-rank group (0..10) in id order: A 4 5 6 7 8 9 10 J Q K. */
static inline int mh_natural_group(int index) { return index == 0 ? R_ACE : index + R_THREE; }

/* MH-4.5. */
static inline int mh_canasta_bonus(int ctype) {
    if (ctype == MH_CT_NATURAL) return 500;
    if (ctype == MH_CT_MIXED) return 300;
    if (ctype == MH_CT_WILD) return 1000;
    if (ctype == MH_CT_SEVENS) return 1500;
    return 0;
}

/* The bits a completed canasta adds to its team's mask: its type and, if mixed, its rank kind. */
static inline int mh_type_bits(int group, int ctype) {
    if (ctype == MH_CT_MIXED)
        return MH_CT_MIXED | (group == R_SEVEN ? MH_CT_MIXED_SEVENS : MH_CT_MIXED_OTHER);
    return ctype;
}

/* MH-4.8: the initial-meld minimum by the team's cumulative score. */
static inline int mh_min_meld_for(int score) {
    if (score < 0) return 15;
    if (score < 500) return 50;
    if (score < 1000) return 90;
    if (score < 1500) return 120;
    return 150;
}

/* A meld's composition is valid (MH-4.1..4.3, 4.6, 4.7). */
static inline int mh_meld_shape_ok(int group, int naturals, int wilds, int wild_sevens) {
    int size = naturals + wilds;
    if (size < MH_MIN_MELD || size > MH_CANASTA) return 0;
    if (group == MH_G_WILD) return naturals == 0;
    if (group == MH_G_BLACK3) return wilds == 0;
    if (!mh_natural_rank(group)) return 0;
    if (group == R_SEVEN && !wild_sevens && wilds > 0) return 0;
    return naturals >= MH_MIN_NATURALS && wilds <= MH_MAX_WILDS;
}

/* MH-4.5: the type of a 7-card meld (MH_CT_NONE if not a canasta). */
static inline int mh_canasta_type(int group, int naturals, int wilds) {
    if (naturals + wilds != MH_CANASTA || group == MH_G_BLACK3) return MH_CT_NONE;
    if (group == MH_G_WILD) return MH_CT_WILD;
    if (wilds > 0) return MH_CT_MIXED;     /* MH-4.6: wild sevens make a mixed canasta */
    if (group == R_SEVEN) return MH_CT_SEVENS;
    return MH_CT_NATURAL;
}

/* ------------------------------------------------------------------ the state */
enum {
    MH_ST_DRAW = 0,
    MH_ST_MELD = 1,
    MH_ST_OVER = 2
};

typedef struct MHOptions {
    int32_t target;             /* MH-10.6 */
    int32_t hands;              /* MH-10.7: hands that end the match at the latest (MAX_HANDS: no option) */
    int32_t dealer;             /* MH-2.1: seat of the first dealer, -1 = by lot */
    int wild_sevens;            /* MH-4.6 */
    int sevens_either;          /* MH-4.6 Decision: a mixed sevens canasta is a canasta of sevens
                                   (wild_sevens and mixed_sevens="either"; MH-7.1, 8.3, 9.1) */
    int32_t foot_penalty;       /* MH-10.5: MH_FOOT_RED_THREES or MH_FOOT_CARDS */
} MHOptions;

typedef struct MHMeld {
    uint8_t cards[MH_CANASTA];
    int8_t group;
    int8_t size;
    int8_t wilds;
    int8_t ctype;               /* MH_CT_NONE while unfinished */
} MHMeld;

typedef struct MHState {
    Header h;                           /* players, phase (ST_*), to_move, hands finished,
                                           dealer (MH-2.1), turns, generator, stacked deck */
    MHOptions opt;
    /* match */
    int32_t first;                      /* the first player of the hand (the dealer's left) */
    int32_t score[MH_NTEAMS];
    int32_t last_hand[MH_NTEAMS];
    int32_t last_out;                   /* seat that went out in the last hand, -1 */
    int32_t breakdown_size;             /* the last hand's scoring rows (MH-10), per team */
    BreakdownRow breakdown[MH_NTEAMS * 7];
    /* zones */
    Multiset hand[MH_NPLAYERS];
    uint8_t hand_kind[MH_NPLAYERS][MH_NRK];  /* per kind (rank, joker) of the hand: the meld engine's view */
    Multiset known[MH_NPLAYERS];        /* cards every seat knows to be in that hand (taken
                                           piles, retracted melds), until they leave it */
    Multiset foot[MH_NPLAYERS];         /* emptied when picked up */
    int foot_taken[MH_NPLAYERS];
    Pile stock;                         /* bottom -> top */
    Pile pile;
    int pile_frozen;                    /* MH-5.2: a wild card or red three is in it */
    int32_t pile_red3;
    int32_t red3[MH_NTEAMS][2];         /* laid-out red threes per team, [diamonds, hearts] */
    MHMeld melds[MH_NTEAMS][MH_MAX_TEAM_MELDS];
    int32_t nmelds[MH_NTEAMS];
    int32_t unf[MH_NTEAMS][MH_NGROUPS]; /* index of the team's unfinished meld per group, -1 */
    int32_t types[MH_NTEAMS];           /* canasta types completed (CT_ bits) */
    int32_t canastas[MH_NTEAMS][MH_NGROUPS];  /* completed canastas per group */
    int opened[MH_NTEAMS];
    int32_t need[MH_NTEAMS];
    /* turn */
    int32_t turn_points, committed, retracted;
    int32_t credit[MH_NRK];             /* cards per kind whose points count toward the minimum */
    /* legal actions of this position (a pure function of the rest: valid while legal_count >= 0) */
    int32_t legal_count;
    int32_t legal[MH_NUM_ACTIONS];
} MHState;

/* The hand's zone primitives (the hand and its per-kind counts move together). */
static inline void mh_hand_add(MHState *s, int p, int c) {
    ms_add(&s->hand[p], c);
    s->hand_kind[p][mh_kind_of(c)] += 1;
}

static inline void mh_hand_remove(MHState *s, int p, int c) {
    ms_remove(&s->hand[p], c);
    s->hand_kind[p][mh_kind_of(c)] -= 1;
    ms_remove(&s->known[p], c);         /* a known copy left (or, if none was known, nothing) */
}

static inline void mh_clear_hand(MHState *s, int p) {
    ms_clear(&s->hand[p]);
    memset(s->hand_kind[p], 0, sizeof(s->hand_kind[p]));
}

/* The meld primitives the test-only position setter (_testing) shares with the rules. */
int mh_new_meld(MHState *s, int tm, int g);
void mh_meld_card(MHState *s, int tm, int m, int c);
/* A meld that reached 7 cards becomes a closed canasta (MH-4.1, 4.5); 1 then. */
int mh_finish_meld(MHState *s, int tm, int m);

/* ------------------------------------------------------------------ why an action is illegal */
enum {
    MH_OK = 0,
    MH_W_RETRACTED = 1,
    MH_W_CARDS = 2,
    MH_W_UNFINISHED = 3,
    MH_W_NO_MELD = 4,
    MH_W_SIZE = 5,
    MH_W_SEVENS = 6,
    MH_W_SHAPE = 7,
    MH_W_SHORT_CANASTA = 8,
    MH_W_BLACK3 = 9,
    MH_W_KEEP = 10,
    MH_W_SEVEN_LAST = 11,
    MH_W_REACH = 12,
    MH_W_EMPTY = 13,
    MH_W_TOP = 14,
    MH_W_FROZEN = 15,
    MH_W_WAY = 16
};

/* What the wrapper's hand_cards_of asks (p: the seat to move); why an action is illegal is
 * the refuse hook's (the codes above are its reasons past R_CHECK). */
/* The cards meld mi / pile take `kind` takes from p's hand (in the order they join the
 * meld); -1 if the hand lacks them (or, a take, if the pile is empty). */
int mh_meld_cards_of(const MHState *s, int p, int mi, uint8_t *out);
int mh_take_cards_of(const MHState *s, int p, int kind, uint8_t *out);

/* ------------------------------------------------------------------ the deal plan (MH-2.2, 2.3) */
enum {
    MH_Z_HAND = 0,
    MH_Z_FOOT = 1,
    MH_Z_DISCARD = 2,
    MH_Z_STOCK = 3,
    MH_HAND_POSITIONS = MH_NPLAYERS * MH_HAND_DEAL,       /* the hands, one card each in turn */
    MH_FOOT_POSITIONS = MH_NPLAYERS * MH_FOOT_DEAL,       /* then the feet */
    MH_DISCARD_POSITION = MH_HAND_POSITIONS + MH_FOOT_POSITIONS   /* then the first discard, the rest: stock */
};

/* For every deck position (top first) its zone and seat (-1 for the stock and the discard pile). */
void mh_plan_deal(int dealer, int8_t *zone, int8_t *seat);

/* ------------------------------------------------------------------ the minimum search (kernel_minimum.c) */
typedef struct MHReachIn {
    int nat[13];                /* naturals in hand per rank (all of them) */
    int cred[13];               /* of those, how many count toward the minimum */
    int twos, jokers, cred_twos, cred_jokers;
    int ex_size[MH_NGROUPS];    /* the team's unfinished meld per group: size (0 = none) */
    int ex_wild[MH_NGROUPS];    /* and its wild cards */
    int hand;                   /* cards in hand */
    int points;                 /* points already counted this turn */
    int need;                   /* the minimum */
    int foot;                   /* the player still has the foot (a canasta would bring it: hand >= 3) */
    int wild_sevens;
} MHReachIn;

/* The DP's tables: best[canasta_used][wilds_used][cards_melded] = most natural points. */
enum {
    MH_DP_WILDS = 25,           /* wild cards used: at most 16 twos + 8 jokers, plus zero */
    MH_DP_CARDS = 104,          /* cards melded (tracked only when the hand-keep rule can bind) */
    MH_DP_TABLE = 2 * MH_DP_WILDS * MH_DP_CARDS,
    MH_REACH_WORK = MH_DP_TABLE /* ints of work space mh_reach_min needs: one table */
};

typedef struct MHReachWork {
    int cells[MH_REACH_WORK];
} MHReachWork;

/* Can a sequence of legal melds this turn bring the counted points to q->need? 1 = reachable,
 * 0 = not; -1 if capacity (ints at work) is below MH_REACH_WORK. */
int mh_reach_min(const MHReachIn *q, int *work, int capacity);

/* ------------------------------------------------------------------ the per-seat projection (MH-11)
 * What view(seat) shows, as floats; seats and teams absolute. One source for the layout: these
 * offsets and the wrapper's OBSERVATION_PIECES (documented in games/manna.md, "Observation"). */
enum {
    MH_OBS_SEATS = MH_NPLAYERS,
    MH_OBS_IDS = NUM_KINDS,
    MH_MELD_SLOTS = MH_NAT_GROUPS + 2,                      /* A 4 5 6 7 8 9 10 J Q K, wild, black3 */
    MH_NUM_CT = 4,                                          /* natural, mixed, wild, sevens */
    MH_O_OBSERVER = 0,                                      /* one-hot: the seat observing */
    MH_O_TO_MOVE = MH_O_OBSERVER + MH_OBS_SEATS,            /* one-hot: the seat to move (none when over) */
    MH_O_PHASE = MH_O_TO_MOVE + MH_OBS_SEATS,               /* one-hot: draw, meld, over */
    MH_O_TEAM = MH_O_PHASE + 3,                             /* one-hot: the observer's team */
    MH_O_HAND = MH_O_TEAM + MH_NTEAMS,                      /* the observer's hand, count per card id */
    MH_O_HAND_SIZES = MH_O_HAND + MH_OBS_IDS,
    MH_O_FOOT_SIZES = MH_O_HAND_SIZES + MH_OBS_SEATS,       /* 0 once picked up (MH-6) */
    MH_O_SCORES = MH_O_FOOT_SIZES + MH_OBS_SEATS,           /* per seat: its team's total (MH-10.6) */
    MH_O_LAST_HAND = MH_O_SCORES + MH_OBS_SEATS,            /* per team: the last hand's score */
    MH_O_MIN_MELD = MH_O_LAST_HAND + MH_NTEAMS,             /* per team (MH-4.8) */
    MH_O_OPENED = MH_O_MIN_MELD + MH_NTEAMS,                /* per team */
    MH_O_TURN_POINTS = MH_O_OPENED + MH_NTEAMS,             /* counted points of the current turn */
    MH_O_DEALER = MH_O_TURN_POINTS + 1,                     /* one-hot seat */
    MH_O_HAND_NUMBER = MH_O_DEALER + MH_OBS_SEATS,          /* the hand being played, 1-based */
    MH_O_STOCK_SIZE = MH_O_HAND_NUMBER + 1,
    MH_O_FROZEN = MH_O_STOCK_SIZE + 1,                      /* MH-5.2 */
    MH_O_DISCARD = MH_O_FROZEN + 1,                         /* the discard pile, count per card id */
    MH_O_DISCARD_TOP = MH_O_DISCARD + MH_OBS_IDS,           /* one-hot: its top card */
    MH_O_RED_THREES = MH_O_DISCARD_TOP + MH_OBS_IDS,        /* per team: diamonds, hearts laid out */
    MH_O_CANASTA_TYPES = MH_O_RED_THREES + MH_NTEAMS * 2,   /* per team: natural, mixed, wild, sevens */
    MH_O_MELD_CARDS = MH_O_CANASTA_TYPES + MH_NTEAMS * MH_NUM_CT,   /* per team: count per card id in its melds */
    MH_O_OPEN_SIZE = MH_O_MELD_CARDS + MH_NTEAMS * MH_OBS_IDS,      /* per team per meld slot: cards in unfinished melds */
    MH_O_OPEN_WILDS = MH_O_OPEN_SIZE + MH_NTEAMS * MH_MELD_SLOTS,   /* per team per slot: their wild cards */
    MH_O_CANASTAS = MH_O_OPEN_WILDS + MH_NTEAMS * MH_MELD_SLOTS,    /* per team per slot per type: canastas */
    MH_OBSERVATION_SIZE = MH_O_CANASTAS + MH_NTEAMS * MH_MELD_SLOTS * MH_NUM_CT
};

/* ------------------------------------------------------------------ options (MH_OPTIONS order) */
enum {
    MH_OPT_DEALER = 0,
    MH_OPT_TARGET = 1,
    MH_OPT_HANDS = 2,
    MH_OPT_WILD_SEVENS = 3,
    MH_OPT_MIXED_SEVENS = 4,
    MH_OPT_FOOT_PENALTY = 5,
    MH_NUM_OPTIONS = 6
};

/* ------------------------------------------------------------------ the game, for the framework and the ABI */
extern const GameHooks MH_HOOKS;
extern const GameKernel MH_KERNEL;

int mh_init(void *state, int players, const int64_t *values);
int mh_action_label(const void *state, int action, char *buf, size_t len);
int mh_composition(const void *state, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_GAMES_MANNA_KERNEL_H */
