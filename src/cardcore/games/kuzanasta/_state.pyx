# cython: language_level=3, cdivision=True
"""Kuzanasta state machine (rules: games/kuzanasta.md, rule IDs KZ-x.y).

Action space (the same 2970 ids for every configuration; pinned by tests/test_kuzanasta_actions.py):
    0            draw_stock: the top card of your stock pile                    KZ-3.1
    1            draw_discard: the top card of your discard pile                KZ-3.1
    2            god_look: use the God card's draw (see the stock piles)        KZ-6.2
    3..54        god_draw card c (id 3 + c, c = 0..51): take c from a stock     KZ-6.2
    55..107      discard card c (id 55 + c, c = 0..52; 52 = the joker, KZ-6.4)  KZ-3.2, KZ-6.4
    108..159     god_discard card c (id 108 + c, c = 0..51): new discard pile   KZ-6.3
    160          end_turn: keep the hand, do not go out                         KZ-3.3
    161          go_out with the engine's best declaration                      KZ-7.1
    162..2969    go_out naming two sets: one id per unordered pair of set       KZ-7.1
                 descriptors (d1 <= d2, not both of 4 cards), ordered by (d1, d2)
Only with the option god_draw="position" (then 3156 ids; the ids above keep their meaning):
    2970..3155   god_draw at a place: pile k, depth d from the top (0 = top),   KZ-6.2
                 id 2970 + k * 93 + d, taken without looking

A set descriptor (_sets.pxd) is rank * 7 + shape, shape 0..2 = 3 cards
with 0..2 wild cards, 3..6 = 4 cards with 0..3 wild cards: a named declaration fixes the
rank, size and number of wild cards of each set and the engine picks the suits (which only
matter for the 2+2 four-card rows, where it takes the best). 39 three-card and 52 four-card
descriptors give 39 * 40 / 2 + 39 * 52 = 2808 named declarations.

Phases: draw -> (god_draw) -> discard -> declare (end_turn; go_out too when the 7-card hand
holds two sets) -> the next player's draw. With going_out="immediate" there is no declare
step: the discard ends the turn, and a hand holding two sets goes out with it (KZ-3.3). A deal
that ends starts the next one inside the same action.

The state is one C struct (KZState, the framework Header first); the rules are noexcept nogil
functions over a pointer to it, reached by the framework through KZ_HOOKS. Besides the game
itself the struct keeps the deal's public knowledge (cards everybody knows the place of), which
sample_hidden needs: see "Observation" and "Hidden cards" in games/kuzanasta.md.
"""
from libc.stdint cimport uint8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memset

from cardcore._fast cimport (
    pile_copy,
    GameState, GameHooks, Header, Rng, BestPick, best_pick_init, best_pick_offer, Multiset,
    ZoneSpec, BreakdownRow, ZONE_SHARED, ZONE_SEAT, ZONE_PILE, SEEN_BY_ALL, SEEN_BY_OWNER,
    SEEN_BY_NONE, ms_to_array,
    Pile, JOKER, NUM_KINDS, NUM_RANKS, R_JACK,
    PILE_CAPACITY, MS_MAX_COPIES, card_rank, card_bit, lowest_card, ms_clear, ms_add, ms_remove,
    ms_count_rank, pile_push, pile_pop, pile_to_list, ms_to_list, load_cards, rng_below,
    rng_next32, shuffle_u8, game_hooks, init_header, deal_prologue,
)
from cardcore.games.kuzanasta._sets cimport (
    KZ_NUM_DESCRIPTORS, KZ_NUM_SHAPES, KZ_NO_WILD, kz_best_two, kz_best_three_four,
    kz_declaration_value, kz_rank_counts,
    kz_descriptor_value, kz_desc_size,
)
from cardcore._fast import build_deck, check_state_class

# ---------------------------------------------------------------- rule constants
cdef enum:
    MIN_PLAYERS = 2             # KZ-1.5
    MAX_PLAYERS = 4
    DECK_SIZE = 93              # KZ-1.1: 52 + 40 + the joker
    HAND_SIZE = 7               # KZ-2.4
    TURN_UP_INSERT = 46         # KZ-2.3: len(R) // 2 with the 92 remaining cards
    NUM_STOCKS = 2              # KZ-2.5
    FOUR_PLAYER_PILES = 4       # KZ-2.6: both piles are used with 4 players
    GOD_DOUBLING = 2            # KZ-7.2 (joker turn-up), KZ-7.3 (winner holds the joker)
    KZ_MAX_VOID_DEALS = 10000   # KZ-7.8: the termination guard

MAX_VOID_DEALS = KZ_MAX_VOID_DEALS

# ---------------------------------------------------------------- action table
cdef enum:
    A_DRAW_STOCK = 0
    A_DRAW_DISCARD = 1
    A_GOD_LOOK = 2
    FIRST_GOD_DRAW = 3
    FIRST_DISCARD = 55
    FIRST_GOD_DISCARD = 108
    A_END_TURN = 160
    A_GO_OUT = 161
    FIRST_NAMED = 162
    NUM_NAMED = 2808
    NUM_ACTIONS = 2970          # every configuration but god_draw="position"
    FIRST_GOD_PLACE = 2970      # god_draw="position": pile k, depth d -> 2970 + k * 93 + d
    NUM_PLACE_ACTIONS = 2 * 93  # NUM_STOCKS * DECK_SIZE (checked at import)
    NUM_ALL_ACTIONS = 3156      # with god_draw="position"

# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
DRAW_STOCK = A_DRAW_STOCK
DRAW_DISCARD = A_DRAW_DISCARD
GOD_LOOK = A_GOD_LOOK
GOD_DRAW_FIRST = FIRST_GOD_DRAW          # + card id (0..51)
DISCARD_FIRST = FIRST_DISCARD            # + card id (0..52)
GOD_DISCARD_FIRST = FIRST_GOD_DISCARD    # + card id (0..51)
END_TURN = A_END_TURN
GO_OUT = A_GO_OUT                        # the best declaration
GO_OUT_NAMED_FIRST = FIRST_NAMED         # + the named declaration's index
GOD_PLACE_FIRST = FIRST_GOD_PLACE        # + pile * 93 + depth (god_draw="position")

cdef int16_t PAIR_ID[KZ_NUM_DESCRIPTORS][KZ_NUM_DESCRIPTORS]   # (d1 <= d2) -> id, -1 if none
cdef int16_t NAMED_D1[NUM_NAMED]
cdef int16_t NAMED_D2[NUM_NAMED]


cdef void build_table():
    cdef int d1, d2, i = FIRST_NAMED
    memset(PAIR_ID, -1, sizeof(PAIR_ID))
    for d1 in range(KZ_NUM_DESCRIPTORS):
        for d2 in range(d1, KZ_NUM_DESCRIPTORS):
            if kz_desc_size(d1) == 4 and kz_desc_size(d2) == 4:
                continue                  # 8 cards: a 7-card hand never shows two 4-card sets
            PAIR_ID[d1][d2] = i
            PAIR_ID[d2][d1] = i
            NAMED_D1[i - FIRST_NAMED] = d1
            NAMED_D2[i - FIRST_NAMED] = d2
            i += 1
    assert i == NUM_ACTIONS, i

build_table()


def num_actions() -> int:
    """The action space of the default configuration (every one but god_draw="position")."""
    return NUM_ACTIONS


def place_actions() -> list:
    """(pile, depth) of the ids 2970.. that god_draw="position" adds (KZ-6.2)."""
    return [(i // DECK_SIZE, i % DECK_SIZE) for i in range(NUM_PLACE_ACTIONS)]


def action_table() -> list:
    """One tuple per id: (kind, card id or None, (descriptor, descriptor) or None)."""
    table = [("draw_stock", None, None), ("draw_discard", None, None), ("god_look", None, None)]
    table += [("god_draw", c, None) for c in range(52)]
    table += [("discard", c, None) for c in range(53)]
    table += [("god_discard", c, None) for c in range(52)]
    table += [("end_turn", None, None), ("go_out", None, None)]
    table += [("go_out", None, (NAMED_D1[i], NAMED_D2[i])) for i in range(NUM_NAMED)]
    assert len(table) == NUM_ACTIONS
    return table


def named_declaration_id(int d1, int d2) -> int:
    """The action id naming sets d1 and d2 (either order); ValueError if there is none."""
    if not (0 <= d1 < KZ_NUM_DESCRIPTORS and 0 <= d2 < KZ_NUM_DESCRIPTORS) or PAIR_ID[d1][d2] < 0:
        raise ValueError(f"no declaration id for descriptors {d1}, {d2}")
    return PAIR_ID[d1][d2]

# ---------------------------------------------------------------- phases and deal ends
cdef enum Phase:
    PH_DRAW = 0          # KZ-3.1, KZ-6.2
    PH_GOD_DRAW = 1      # KZ-6.2: the holder looked at the stocks and takes a card
    PH_DISCARD = 2       # KZ-3.2, KZ-6.3, KZ-6.4
    PH_DECLARE = 3       # KZ-3.3: end the turn, or go out with two sets
    PH_OVER = 4
    NUM_PHASES = 5

PHASES = ("draw", "god_draw", "discard", "declare", "over")

cdef enum DealEnd:
    END_NONE = 0
    END_OUT = 1          # someone went out (KZ-7)
    END_NO_DRAW = 2      # KZ-3.4: the player to draw can draw nothing
    END_MAX_TURNS = 3    # KZ-3.5
    NUM_DEAL_ENDS = 4

DEAL_END_NAMES = (None, "went_out", "no_draw", "max_turns")

# ---------------------------------------------------------------- options
ctypedef struct KZOptions:
    # The options as C values. Their defaults live in one place, the wrapper's options_spec
    # (cardcore.games.kuzanasta): read_options takes every value from the checked options dict.
    int32_t dealer                     # KZ-2.1: first dealer, -1 = by lot
    bint adjacent_piles                # KZ-2.6: pile_pairing == "adjacent"
    bint reshuffle                     # KZ-3.4
    int32_t max_turns                  # KZ-3.5
    int32_t deals                      # KZ-7.5: scored deals that end the match, 0 = play to target
    int64_t target                     # KZ-7.5
    int64_t ante                       # KZ-7.6
    bint immediate                     # KZ-3.3: going_out == "immediate"
    bint three_four                    # KZ-7.1: sets == "three_and_four"
    bint god_place                     # KZ-6.2: god_draw == "position"


cdef int read_options(KZOptions* o, dict options) except -1:
    """Copy the wrapper's checked options (every key present) into the typed struct."""
    missing = {"dealer", "pile_pairing", "reshuffle", "max_turns", "target", "deals",
               "ante", "going_out", "sets", "god_draw"} - options.keys()
    if missing:
        raise ValueError(f"missing Kuzanasta options: {sorted(missing)}")
    o.dealer = -1 if options["dealer"] is None else options["dealer"]
    o.adjacent_piles = options["pile_pairing"] == "adjacent"
    o.reshuffle = bool(options["reshuffle"])
    o.max_turns = options["max_turns"]
    o.deals = 0 if options["deals"] is None else options["deals"]
    o.target = options["target"]
    o.ante = options["ante"]
    o.immediate = options["going_out"] == "immediate"
    o.three_four = options["sets"] == "three_and_four"
    o.god_place = options["god_draw"] == "position"
    return 0

# ---------------------------------------------------------------- the deal plan (KZ-2.3..2.7)
cdef enum DealZone:
    Z_HAND = 0           # which = seat (KZ-2.4)
    Z_DISCARD = 1        # which = pile: the card turned up to start its discard pile (KZ-2.7)
    Z_STOCK = 2          # which = pile, depth = place from the top of that stock (KZ-2.5)
    Z_SET_ASIDE = 3      # pile 1 of a 2-3 player deal: dead for the deal (KZ-2.6)

ZONE_NAMES = ("hand", "discard", "stock", "set_aside")

ctypedef struct DealPlan:
    # Where each deck position (top card first) goes. Position 0 is also the turn-up
    # (KZ-2.3): everybody sees it, then it lies in the zone given here.
    uint8_t zone[DECK_SIZE]
    uint8_t which[DECK_SIZE]
    uint8_t depth[DECK_SIZE]
    int32_t stock_size[NUM_STOCKS]


cdef void make_deal_plan(int players, int first, DealPlan* plan) noexcept nogil:
    """The one description of the deal layout: the C deal, ``deal_plan`` and through it the
    wrapper's hidden positions and the tests' stacked decks all come from here.

    R is the deck after KZ-2.3 (the turn-up, deck position 0, reinserted at index 46 of the
    other 92): R[i] is deck position i + 1 below 46, 0 at 46, i above. R[:7n] is dealt one card
    at a time from the first player (KZ-2.4); the rest splits into pile 0 = the first
    ceil(len / 2) cards and pile 1 (KZ-2.5); each pile's top card starts its discard pile when
    the pile is in play (KZ-2.7), and pile 1 is set aside with 2-3 players (KZ-2.6)."""
    cdef int top = HAND_SIZE * players
    cdef int size0 = (DECK_SIZE - top + 1) // 2
    cdef int i, pos, k, pile
    plan.stock_size[0] = size0 - 1
    plan.stock_size[1] = DECK_SIZE - top - size0 - 1 if players == FOUR_PLAYER_PILES else 0
    for i in range(DECK_SIZE):
        pos = i + 1 if i < TURN_UP_INSERT else (0 if i == TURN_UP_INSERT else i)
        plan.depth[pos] = 0
        if i < top:
            plan.zone[pos] = Z_HAND
            plan.which[pos] = (first + i) % players
            continue
        pile = 0 if i < top + size0 else 1
        k = i - top - (0 if pile == 0 else size0)      # place in the pile before KZ-2.7
        plan.which[pos] = pile
        if pile == 1 and players != FOUR_PLAYER_PILES:
            plan.zone[pos] = Z_SET_ASIDE
            plan.which[pos] = 0
        elif k == 0:
            plan.zone[pos] = Z_DISCARD
        else:
            plan.zone[pos] = Z_STOCK
            plan.depth[pos] = k - 1


# Every plan, made once at import (read-only afterwards): the deal only looks its plan up.
cdef DealPlan PLANS[MAX_PLAYERS + 1][MAX_PLAYERS]


cdef void make_all_plans():
    cdef int players, first
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for first in range(players):
            make_deal_plan(players, first, &PLANS[players][first])

make_all_plans()


def deal_plan(int players, options, int dealer) -> list:
    """Where each deck position (top card first) goes in a deal with this dealer: "turn_up"
    (position 0: shown to everybody, KZ-2.3, then returned into stock 0), "hand:<seat>",
    "discard:<pile>" (the card that starts that discard pile), "stock:<pile>" (face down, the
    positions in deck order are the stock from its top down) or "set_aside" (KZ-2.6). No
    option changes the layout (pile_pairing decides who uses a pile, not where cards go)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer {dealer} is not a seat of {players} players")
    cdef const DealPlan* plan = &PLANS[players][(dealer + 1) % players]
    out = ["turn_up"]
    for i in range(1, DECK_SIZE):
        name = ZONE_NAMES[plan.zone[i]]
        out.append(name if plan.zone[i] == Z_SET_ASIDE else f"{name}:{plan.which[i]}")
    return out


# ---------------------------------------------------------------- the state
ctypedef struct KZState:
    Header h                           # players, phase, to_move, round_index (deals finished,
                                       # scored or void), dealer (KZ-2.1), turns, rng
    KZOptions opt
    uint8_t deck[DECK_SIZE]            # the composition, id order (KZ-1.1)
    int32_t deals_scored
    int32_t first                      # KZ-2.2: the deal's first player
    int32_t wild                       # KZ-2.3: the wild rank, KZ_NO_WILD after a joker turn-up
    int32_t turn_up
    int32_t piles_in_play              # KZ-2.6: 1 or 2
    int32_t pile_of[MAX_PLAYERS]
    int32_t turns_in_deal              # KZ-3.5
    int32_t god_public                 # seat known to hold the joker (KZ-8), -1 if none known
    Multiset hand[MAX_PLAYERS]
    Pile stock[NUM_STOCKS]             # bottom -> top
    Pile discard[NUM_STOCKS]
    Multiset dead                      # KZ-6.6: out of play for the rest of the deal
    int64_t score[MAX_PLAYERS]
    int64_t chips[MAX_PLAYERS]         # KZ-7.6
    int64_t pot

    # The deal's public knowledge: what every seat knows of where cards are, besides the
    # face-up piles. Kept only for sample_hidden (games/kuzanasta.md, "Hidden cards").
    Multiset known[MAX_PLAYERS]        # cards everybody knows to be in a hand
    uint8_t stock_seen[NUM_STOCKS][DECK_SIZE]   # parallel to stock[k].cards: 1 = publicly known
    Multiset dead_seen                 # dead cards that were face up (KZ-6.3, KZ-6.4)
    # What the last God look showed its holder (KZ-6.2), while it still pins the stocks down:
    # until a card leaves a stock unseen by the holder, the stocks hold only ids of look_shown,
    # and all of them except those the holder itself has taken out since (look_gone).
    int32_t look_seat                  # -1: no such knowledge
    uint64_t look_shown
    uint64_t look_gone

    # The last finished deal (public once it ends).
    int32_t last_end, last_winner, last_d1, last_d2, last_v1, last_v2, last_wild
    int64_t last_hand_points, last_total, last_pot
    bint last_god_doubled, last_turn_up_doubled
    int32_t last_hand_size
    uint8_t last_hand[HAND_SIZE + 1]   # the winner's hand, shown when going out

# Limits, checked at import: the deck fits the core's piles, a hand's copies its multisets.
if <int>DECK_SIZE > <int>PILE_CAPACITY or 2 > <int>MS_MAX_COPIES:
    raise ImportError("Kuzanasta needs a larger Pile or Multiset than the core provides")
if <int>NUM_PLACE_ACTIONS != NUM_STOCKS * DECK_SIZE or \
        <int>NUM_ALL_ACTIONS != <int>FIRST_GOD_PLACE + <int>NUM_PLACE_ACTIONS:
    raise ImportError("Kuzanasta: the god_draw='position' ids do not match the piles")


cdef inline int best_declaration(const KZState* s, const Multiset* hand, int* d1,
                                 int* d2) noexcept nogil:
    """KZ-7.1: the best declaration the option ``sets`` allows (0 if none): two sets of any
    sizes, or a 3-card and a 4-card set (all seven cards of a 7-card hand)."""
    if s.opt.three_four:
        return kz_best_three_four(hand, s.wild, d1, d2)
    return kz_best_two(hand, s.wild, d1, d2)


cdef inline int card_points(int card) noexcept nogil:
    """KZ-1.4: A-5 = 5, 6-10 = 10, J-K = 50, the joker 0."""
    if card == JOKER:
        return 0
    cdef int r = card_rank(card)
    if r <= 4:
        return 5
    if r <= 9:
        return 10
    return 50


# ---------------------------------------------------------------- the deal (KZ-2)
cdef void kz_deal(KZState* s) noexcept nogil:
    """Lay the deck (stacked on the first deal, else shuffled) out by the deal plan."""
    cdef uint8_t order[DECK_SIZE]
    cdef const DealPlan* plan
    cdef int i, p, n = s.h.players, pile, card
    cdef Pile* stock
    deal_prologue(&s.h, s.deck, DECK_SIZE, order)
    # KZ-2.3: the turn-up (deck position 0) names the wild rank.
    s.turn_up = order[0]
    s.wild = KZ_NO_WILD if order[0] == JOKER else card_rank(order[0])
    for p in range(MAX_PLAYERS):
        ms_clear(&s.hand[p])
        ms_clear(&s.known[p])
    ms_clear(&s.dead)
    ms_clear(&s.dead_seen)
    memset(s.stock_seen, 0, sizeof(s.stock_seen))
    s.look_seat = -1
    s.first = (s.h.dealer + 1) % n                                  # KZ-2.2
    plan = &PLANS[n][s.first]                                       # KZ-2.3..2.7
    for pile in range(NUM_STOCKS):
        s.stock[pile].size = plan.stock_size[pile]
        s.discard[pile].size = 0
    for i in range(DECK_SIZE):
        card = order[i]
        if plan.zone[i] == Z_HAND:
            ms_add(&s.hand[plan.which[i]], card)
        elif plan.zone[i] == Z_DISCARD:
            pile_push(&s.discard[plan.which[i]], card)
        elif plan.zone[i] == Z_STOCK:                               # cards[] is bottom -> top
            stock = &s.stock[plan.which[i]]
            stock.cards[stock.size - 1 - plan.depth[i]] = card
        else:
            ms_add(&s.dead, card)
    # Everybody saw the turn-up (position 0): its place is public knowledge.
    if plan.zone[0] == Z_HAND:
        ms_add(&s.known[plan.which[0]], order[0])
    elif plan.zone[0] == Z_STOCK:
        s.stock_seen[plan.which[0]][s.stock[plan.which[0]].size - 1 - plan.depth[0]] = 1
    elif plan.zone[0] == Z_SET_ASIDE:
        ms_add(&s.dead_seen, order[0])
    if n == FOUR_PLAYER_PILES:                                      # KZ-2.6
        s.piles_in_play = 2
        for i in range(n):
            p = (s.first + i) % n
            if s.opt.adjacent_piles:
                s.pile_of[p] = 0 if i < 2 else 1
            else:
                s.pile_of[p] = i % 2
    else:
        s.piles_in_play = 1
        for p in range(n):
            s.pile_of[p] = 0
    for p in range(n):                                              # KZ-7.6
        s.chips[p] -= s.opt.ante
        s.pot += s.opt.ante
    s.turns_in_deal = 0
    s.god_public = -1
    begin_turn(s, s.first)


cdef void kz_start(void* state) noexcept nogil:
    """KZ-2.1: the first dealer by option or by lot, then the first deal."""
    cdef KZState* s = <KZState*>state
    if s.opt.dealer >= 0:
        s.h.dealer = s.opt.dealer
    else:
        s.h.dealer = rng_below(&s.h.rng, s.h.players)
    kz_deal(s)


# ---------------------------------------------------------------- turn flow
cdef void begin_turn(KZState* s, int p) noexcept nogil:
    """KZ-3.4: refill an empty stock from its discard pile; a player who can draw nothing
    ends the deal void."""
    cdef int pile = s.pile_of[p]
    cdef Pile* stock = &s.stock[pile]
    cdef Pile* discard = &s.discard[pile]
    cdef int keep, i
    s.h.to_move = p
    s.h.phase = PH_DRAW
    if stock.size == 0 and discard.size > 1:
        s.look_seat = -1                     # the stocks take new cards: a past look is stale
        keep = pile_pop(discard)
        # Turning the face-up pile over: its top card (the last one pushed) becomes the
        # bottom of the stock, so the old bottom card is the new top. Everybody saw the pile,
        # so its order stays public, unless it is shuffled.
        i = discard.size - 1
        while i >= 0:
            s.stock_seen[pile][stock.size] = 0 if s.opt.reshuffle else 1
            pile_push(stock, discard.cards[i])
            i -= 1
        discard.size = 0
        if s.opt.reshuffle:
            shuffle_u8(&s.h.rng, stock.cards, stock.size)
        pile_push(discard, keep)
    if not can_draw(s, p):
        end_deal(s, END_NO_DRAW, -1, -1, -1)


cdef inline int stocks_in_play(const KZState* s) noexcept nogil:
    cdef int pile, n = 0
    for pile in range(s.piles_in_play):
        n += s.stock[pile].size
    return n


cdef inline bint can_draw(const KZState* s, int p) noexcept nogil:
    cdef int pile = s.pile_of[p]
    if s.stock[pile].size > 0 or s.discard[pile].size > 0:
        return True
    return s.hand[p].count[JOKER] > 0 and stocks_in_play(s) > 0


cdef void end_turn(KZState* s, int p) noexcept nogil:
    s.h.turns += 1
    s.turns_in_deal += 1
    if s.turns_in_deal >= s.opt.max_turns:                          # KZ-3.5
        end_deal(s, END_MAX_TURNS, -1, -1, -1)
        return
    begin_turn(s, (p + 1) % s.h.players)                            # KZ-2.2


# ---------------------------------------------------------------- legality (one function per phase)
cdef int legal_draw(const KZState* s, int32_t* out) noexcept nogil:
    cdef int p = s.h.to_move, pile = s.pile_of[p], n = 0, k, d
    if s.stock[pile].size > 0:                                      # KZ-3.1
        out[n] = A_DRAW_STOCK
        n += 1
    if s.discard[pile].size > 0:
        out[n] = A_DRAW_DISCARD
        n += 1
    if s.hand[p].count[JOKER] > 0 and stocks_in_play(s) > 0:        # KZ-6.2
        if not s.opt.god_place:
            out[n] = A_GOD_LOOK
            n += 1
        else:                                # every place of every stock pile in play
            for k in range(s.piles_in_play):
                for d in range(s.stock[k].size):
                    out[n] = FIRST_GOD_PLACE + k * DECK_SIZE + d
                    n += 1
    return n


cdef uint64_t stock_cards(const KZState* s) noexcept nogil:
    """The distinct cards in the stock piles in play (KZ-6.2)."""
    cdef uint64_t m = 0
    cdef int pile, i
    for pile in range(s.piles_in_play):
        for i in range(s.stock[pile].size):
            m |= card_bit(s.stock[pile].cards[i])
    return m


cdef int legal_god_draw(const KZState* s, int32_t* out) noexcept nogil:
    cdef uint64_t m = stock_cards(s) & ~card_bit(JOKER)
    cdef int n = 0
    while m:
        out[n] = FIRST_GOD_DRAW + lowest_card(m)
        m &= m - 1
        n += 1
    return n


cdef int legal_discard(const KZState* s, int32_t* out) noexcept nogil:
    cdef int p = s.h.to_move, n = 0
    cdef const Multiset* hand = &s.hand[p]
    cdef uint64_t m = hand.plane[0]
    cdef bint god = hand.count[JOKER] > 0
    while m:                                                        # KZ-3.2, KZ-6.4
        out[n] = FIRST_DISCARD + lowest_card(m)
        m &= m - 1
        n += 1
    # KZ-6.3: only when there is a pile to end (otherwise it is a plain discard).
    if god and s.discard[s.pile_of[p]].size > 0:
        m = hand.plane[0] & ~card_bit(JOKER)
        while m:
            out[n] = FIRST_GOD_DISCARD + lowest_card(m)
            m &= m - 1
            n += 1
    return n


cdef int legal_declare(const KZState* s, int32_t* out) noexcept nogil:
    """KZ-3.3, KZ-7.1: end the turn; with two sets also go out (best or named sets)."""
    cdef const Multiset* hand = &s.hand[s.h.to_move]
    cdef int w = s.wild, n = 1, k = 0, i, j, r, d1, d2
    cdef int cand[KZ_NUM_DESCRIPTORS]
    out[0] = A_END_TURN
    if best_declaration(s, hand, &d1, &d2) == 0:
        return n
    out[n] = A_GO_OUT
    n += 1
    # The descriptors the hand can show alone, ascending, then every compatible pair:
    # ids grow with (d1, d2), the order of this double loop.
    for r in range(NUM_RANKS):
        if ms_count_rank(hand, r) == 0:
            continue
        for i in range(r * KZ_NUM_SHAPES, (r + 1) * KZ_NUM_SHAPES):
            if kz_descriptor_value(hand, w, i) >= 0:
                cand[k] = i
                k += 1
    for i in range(k):
        for j in range(i, k):
            if s.opt.three_four and kz_desc_size(cand[i]) + kz_desc_size(cand[j]) != HAND_SIZE:
                continue                     # KZ-7.1: a 3-card and a 4-card set
            if PAIR_ID[cand[i]][cand[j]] >= 0 and kz_declaration_value(hand, w, cand[i], cand[j]) >= 0:
                out[n] = PAIR_ID[cand[i]][cand[j]]
                n += 1
    return n


cdef int kz_legal(void* state, int32_t* out, int capacity) noexcept nogil:
    cdef KZState* s = <KZState*>state
    if capacity < NUM_ALL_ACTIONS:                 # every id at once still fits
        return -1
    if s.h.phase == PH_DRAW:
        return legal_draw(s, out)
    if s.h.phase == PH_GOD_DRAW:
        return legal_god_draw(s, out)
    if s.h.phase == PH_DISCARD:
        return legal_discard(s, out)
    if s.h.phase == PH_DECLARE:
        return legal_declare(s, out)
    return 0


# ---------------------------------------------------------------- applying
cdef inline void reveal_god(KZState* s, int p) noexcept nogil:
    """Everybody now knows that p holds the joker (KZ-8)."""
    s.god_public = p
    if s.known[p].count[JOKER] == 0:
        ms_add(&s.known[p], JOKER)


cdef inline void forget_known(KZState* s, int p, int card) noexcept nogil:
    """p's card left the hand face up: if everybody knew p held a copy, that copy went (of two
    equal copies either may be thought to go; the hands that result are the same)."""
    if s.known[p].count[card] > 0:
        ms_remove(&s.known[p], card)


cdef void kz_apply(void* state, int action) noexcept nogil:
    cdef KZState* s = <KZState*>state
    cdef int p = s.h.to_move, pile = s.pile_of[p], card
    cdef int d1, d2
    cdef Multiset* hand = &s.hand[p]
    cdef Pile* stock = &s.stock[pile]
    if action >= FIRST_GOD_PLACE:                                   # KZ-6.2, god_draw="position"
        god_take_place(s, p, (action - FIRST_GOD_PLACE) // DECK_SIZE,
                       (action - FIRST_GOD_PLACE) % DECK_SIZE)
        s.h.phase = PH_DISCARD
    elif action == A_DRAW_STOCK:                                    # KZ-3.1
        card = stock.cards[stock.size - 1]
        if s.stock_seen[pile][stock.size - 1]:                      # a card everybody knows
            s.stock_seen[pile][stock.size - 1] = 0
            ms_add(&s.known[p], card)
        if p == s.look_seat:
            s.look_gone |= card_bit(card)
        else:
            s.look_seat = -1                 # a card left the stocks unseen by the looker
        ms_add(hand, pile_pop(stock))
        s.h.phase = PH_DISCARD
    elif action == A_DRAW_DISCARD:
        card = pile_pop(&s.discard[pile])
        ms_add(hand, card)
        ms_add(&s.known[p], card)                                   # taken face up
        if card == JOKER:
            s.god_public = p
        s.h.phase = PH_DISCARD
    elif action == A_GOD_LOOK:                                      # KZ-6.2
        reveal_god(s, p)
        s.look_seat = p
        s.look_shown = stock_cards(s)
        s.look_gone = 0
        s.h.phase = PH_GOD_DRAW
    elif action < FIRST_DISCARD:
        god_take(s, p, action - FIRST_GOD_DRAW)
        s.look_gone |= card_bit(action - FIRST_GOD_DRAW)           # p is the looker
        s.h.phase = PH_DISCARD
    elif action < FIRST_GOD_DISCARD:
        card = action - FIRST_DISCARD
        ms_remove(hand, card)
        forget_known(s, p, card)
        if card == JOKER:                                           # KZ-6.4
            kill_discard_pile(s, pile)
            ms_add(&s.dead, JOKER)
            ms_add(&s.dead_seen, JOKER)
            s.god_public = -1
        else:                                                       # KZ-3.2
            pile_push(&s.discard[pile], card)
        after_discard(s, p)
    elif action < A_END_TURN:                                       # KZ-6.3
        card = action - FIRST_GOD_DISCARD
        ms_remove(hand, card)
        forget_known(s, p, card)
        kill_discard_pile(s, pile)
        pile_push(&s.discard[pile], card)
        reveal_god(s, p)
        after_discard(s, p)
    elif action == A_END_TURN:
        end_turn(s, p)
    elif action == A_GO_OUT:                                        # KZ-7.1
        best_declaration(s, hand, &d1, &d2)
        go_out(s, p, d1, d2)
    else:
        go_out(s, p, NAMED_D1[action - FIRST_NAMED], NAMED_D2[action - FIRST_NAMED])


cdef void god_take(KZState* s, int p, int card) noexcept nogil:
    """KZ-6.2 Decision: the card comes from the player's own stock pile if it is there,
    else from the other pile in play; the copy nearest the top of that pile."""
    cdef int pile = s.pile_of[p], k, i, other
    cdef Pile* stock
    for k in range(s.piles_in_play):
        other = (pile + k) % s.piles_in_play
        stock = &s.stock[other]
        i = stock.size - 1
        while i >= 0:
            if stock.cards[i] == card:
                while i < stock.size - 1:
                    stock.cards[i] = stock.cards[i + 1]
                    i += 1
                stock.size -= 1
                ms_add(&s.hand[p], card)
                # The others do not see which card left the pile, so the places they knew in
                # it are no longer certain: forgotten (games/kuzanasta.md, "Hidden cards").
                memset(s.stock_seen[other], 0, sizeof(s.stock_seen[other]))
                return
            i -= 1


cdef void god_take_place(KZState* s, int p, int pile, int depth) noexcept nogil:
    """KZ-6.2 with god_draw="position": take the card at ``depth`` (0 = top) of stock ``pile``
    without looking. Everybody sees the place, so a card whose place everybody knew (the
    turn-up's, KZ-2.3) is known to be in the hand, and the other known places stay known."""
    cdef Pile* stock = &s.stock[pile]
    cdef int i = stock.size - 1 - depth
    cdef int card = stock.cards[i]
    if s.stock_seen[pile][i]:
        ms_add(&s.known[p], card)
    while i < stock.size - 1:
        stock.cards[i] = stock.cards[i + 1]
        s.stock_seen[pile][i] = s.stock_seen[pile][i + 1]
        i += 1
    s.stock_seen[pile][stock.size - 1] = 0
    stock.size -= 1
    ms_add(&s.hand[p], card)
    reveal_god(s, p)                          # the draw shows who holds the joker
    if p == s.look_seat:
        s.look_gone |= card_bit(card)
    else:
        s.look_seat = -1


cdef void kill_discard_pile(KZState* s, int pile) noexcept nogil:
    """KZ-6.3, KZ-6.4: the discard pile leaves play (dead for the rest of the deal, KZ-6.6)."""
    cdef Pile* discard = &s.discard[pile]
    cdef int card
    while discard.size > 0:
        card = pile_pop(discard)
        ms_add(&s.dead, card)
        ms_add(&s.dead_seen, card)


cdef inline void after_discard(KZState* s, int p) noexcept nogil:
    """KZ-3.3: every turn ends with the declare step, whether or not the hand holds two
    sets, so that the public phase and history say nothing about the hand (KZ-8). With
    going_out="immediate" there is no such step: a hand holding two sets goes out at once with
    the best declaration, any other ends the turn."""
    cdef int d1, d2
    if not s.opt.immediate:
        s.h.phase = PH_DECLARE
    elif best_declaration(s, &s.hand[p], &d1, &d2) > 0:
        go_out(s, p, d1, d2)
    else:
        end_turn(s, p)


cdef void go_out(KZState* s, int p, int d1, int d2) noexcept nogil:
    s.h.turns += 1
    end_deal(s, END_OUT, p, d1, d2)


cdef void end_deal(KZState* s, int how, int winner, int d1, int d2) noexcept nogil:
    """KZ-7.2..7.6 scoring of a deal someone went out of; a void deal scores nothing and
    its pot carries over. Then the next deal, or the end of the match (KZ-7.5)."""
    cdef int q, c, k
    cdef int64_t points = 0, total
    cdef Multiset* hand
    s.last_end = how
    s.last_winner = winner
    s.last_wild = s.wild
    s.h.round_index += 1
    if how == END_OUT:
        hand = &s.hand[winner]
        s.last_d1 = d1
        s.last_d2 = d2
        s.last_v1 = kz_descriptor_value(hand, s.wild, d1)
        s.last_v2 = kz_descriptor_value(hand, s.wild, d2)
        # The pair's value, suits chosen together (equal to v1 + v2 for a legal pair).
        total = kz_declaration_value(hand, s.wild, d1, d2)
        for q in range(s.h.players):                                # KZ-7.2
            if q == winner:
                continue
            for c in range(NUM_KINDS):
                points += <int64_t>card_points(c) * s.hand[q].count[c]
        s.last_turn_up_doubled = s.wild == KZ_NO_WILD
        if s.last_turn_up_doubled:
            points *= GOD_DOUBLING
        s.last_hand_points = points
        total += points
        s.last_god_doubled = hand.count[JOKER] > 0
        if s.last_god_doubled:                                      # KZ-7.3
            total *= GOD_DOUBLING
            for q in range(s.h.players):                            # KZ-7.6: the pot doubles
                if q != winner:
                    s.chips[q] -= s.opt.ante
                    s.pot += s.opt.ante
        s.last_total = total
        s.score[winner] += total                                    # KZ-7.4
        s.chips[winner] += s.pot
        s.last_pot = s.pot
        s.pot = 0
        k = 0
        for c in range(NUM_KINDS):
            for q in range(hand.count[c]):
                if k < HAND_SIZE + 1:
                    s.last_hand[k] = c
                    k += 1
        s.last_hand_size = k
        s.deals_scored += 1
        if match_finished(s):
            s.h.phase = PH_OVER
            s.h.to_move = -1
            return
    else:
        s.last_d1 = -1
        s.last_d2 = -1
        s.last_total = 0
        s.last_hand_points = 0
        s.last_pot = 0
        s.last_hand_size = 0
    if how != END_OUT and s.h.round_index - s.deals_scored >= KZ_MAX_VOID_DEALS:   # KZ-7.8
        s.h.phase = PH_OVER
        s.h.to_move = -1
        return
    s.h.dealer = (s.h.dealer + 1) % s.h.players                     # KZ-2.1
    kz_deal(s)


cdef bint match_finished(const KZState* s) noexcept nogil:
    """KZ-7.5: after N scored deals with `deals`, else once someone reaches the target."""
    cdef int p
    if s.opt.deals > 0:
        return s.deals_scored >= s.opt.deals
    for p in range(s.h.players):
        if s.score[p] >= s.opt.target:
            return True
    return False


# ---------------------------------------------------------------- results
cdef void kz_returns(const void* state, double* out) noexcept nogil:
    """KZ-7.4, KZ-7.5: each seat's match score (the highest wins, ties share)."""
    cdef const KZState* s = <const KZState*>state
    cdef int p
    for p in range(s.h.players):
        out[p] = <double>s.score[p]


# ---------------------------------------------------------------- the per-seat projection
# The observation: exactly what view(seat) shows (KZ-8), as floats. Seats are absolute and
# padded to 4, piles padded to 2; "counts" are copies per card id 0..52. One source for the
# layout: these offsets, and OBSERVATION_PIECES below (documented in games/kuzanasta.md).
cdef enum:
    NUM_IDS = NUM_KINDS
    SEATS = MAX_PLAYERS
    WILDS = NUM_RANKS + 1                               # a rank, or none (joker turn-up)
    O_OBSERVER = 0                                      # one-hot: the seat observing
    O_TO_MOVE = O_OBSERVER + SEATS                      # one-hot: the seat to move (none when over)
    O_PHASE = O_TO_MOVE + SEATS                         # one-hot: draw, god_draw, discard, declare, over
    O_HAND = O_PHASE + NUM_PHASES                       # the observer's hand, counts
    O_HAND_SIZES = O_HAND + NUM_IDS
    O_SCORES = O_HAND_SIZES + SEATS                     # KZ-7.4
    O_WILD = O_SCORES + SEATS                           # one-hot rank, last = none (KZ-2.3)
    O_TURN_UP = O_WILD + WILDS                          # one-hot card id
    O_DISCARD_COUNTS = O_TURN_UP + NUM_IDS              # per pile in play: counts
    O_DISCARD_TOP = O_DISCARD_COUNTS + NUM_STOCKS * NUM_IDS    # per pile: one-hot top card
    O_DISCARD_ORDER = O_DISCARD_TOP + NUM_STOCKS * NUM_IDS     # per pile: card id + 1, bottom first
    O_PILES_IN_PLAY = O_DISCARD_ORDER + NUM_STOCKS * DECK_SIZE
    O_MY_PILE = O_PILES_IN_PLAY + 1                     # one-hot pile
    O_PILE_OF = O_MY_PILE + NUM_STOCKS                  # per seat: one-hot pile
    O_STOCK_SIZES = O_PILE_OF + SEATS * NUM_STOCKS      # per pile in play
    O_DEALER = O_STOCK_SIZES + NUM_STOCKS               # one-hot seat
    O_FIRST = O_DEALER + SEATS                          # one-hot seat
    O_DEAL = O_FIRST + SEATS                            # the deal being played, 1-based
    O_TURNS_IN_DEAL = O_DEAL + 1
    O_GOD_HOLDER = O_TURNS_IN_DEAL + 1                  # one-hot seat, last = not known (KZ-8)
    O_CHIPS = O_GOD_HOLDER + SEATS + 1                  # KZ-7.6
    O_POT = O_CHIPS + SEATS
    O_BEST_VALUE = O_POT + 1                            # best_sets: total, 0 if none
    O_BEST_SETS = O_BEST_VALUE + 1                      # best_sets: count per set descriptor
    O_LAST_END = O_BEST_SETS + KZ_NUM_DESCRIPTORS       # one-hot: none yet, went_out, no_draw, max_turns
    O_LAST_WINNER = O_LAST_END + NUM_DEAL_ENDS          # one-hot seat
    O_LAST_WILD = O_LAST_WINNER + SEATS                 # one-hot rank, last = none (only once a deal ended)
    O_LAST_SETS = O_LAST_WILD + WILDS                   # count per set descriptor
    O_LAST_SET_VALUES = O_LAST_SETS + KZ_NUM_DESCRIPTORS    # the two sets' values, ascending descriptor
    O_LAST_HAND = O_LAST_SET_VALUES + 2                 # the winner's hand, counts
    O_LAST_HAND_POINTS = O_LAST_HAND + NUM_IDS
    O_LAST_TURN_UP_DOUBLED = O_LAST_HAND_POINTS + 1
    O_LAST_GOD_DOUBLED = O_LAST_TURN_UP_DOUBLED + 1
    O_LAST_TOTAL = O_LAST_GOD_DOUBLED + 1
    O_LAST_POT = O_LAST_TOTAL + 1
    OBSERVATION_SIZE = O_LAST_POT + 1

OBSERVATION_PIECES = (
    ("observer", O_OBSERVER, SEATS), ("current_player", O_TO_MOVE, SEATS),
    ("phase", O_PHASE, NUM_PHASES), ("hand", O_HAND, NUM_IDS), ("hand_sizes", O_HAND_SIZES, SEATS),
    ("scores", O_SCORES, SEATS), ("wild_rank", O_WILD, WILDS), ("turn_up", O_TURN_UP, NUM_IDS),
    ("discard_counts", O_DISCARD_COUNTS, NUM_STOCKS * NUM_IDS),
    ("discard_tops", O_DISCARD_TOP, NUM_STOCKS * NUM_IDS),
    ("discard_order", O_DISCARD_ORDER, NUM_STOCKS * DECK_SIZE),
    ("piles_in_play", O_PILES_IN_PLAY, 1), ("my_pile", O_MY_PILE, NUM_STOCKS),
    ("pile_of", O_PILE_OF, SEATS * NUM_STOCKS), ("stock_sizes", O_STOCK_SIZES, NUM_STOCKS),
    ("dealer", O_DEALER, SEATS), ("first_player", O_FIRST, SEATS), ("deal", O_DEAL, 1),
    ("turns_in_deal", O_TURNS_IN_DEAL, 1), ("god_holder", O_GOD_HOLDER, SEATS + 1),
    ("chips", O_CHIPS, SEATS), ("pot", O_POT, 1), ("best_value", O_BEST_VALUE, 1),
    ("best_sets", O_BEST_SETS, KZ_NUM_DESCRIPTORS),
    ("last_end", O_LAST_END, NUM_DEAL_ENDS), ("last_winner", O_LAST_WINNER, SEATS),
    ("last_wild_rank", O_LAST_WILD, WILDS), ("last_sets", O_LAST_SETS, KZ_NUM_DESCRIPTORS),
    ("last_set_values", O_LAST_SET_VALUES, 2), ("last_hand", O_LAST_HAND, NUM_IDS),
    ("last_hand_points", O_LAST_HAND_POINTS, 1),
    ("last_turn_up_doubled", O_LAST_TURN_UP_DOUBLED, 1),
    ("last_god_doubled", O_LAST_GOD_DOUBLED, 1), ("last_total", O_LAST_TOTAL, 1),
    ("last_pot", O_LAST_POT, 1),
)


cdef int kz_observation_size(const void* state) noexcept nogil:
    return OBSERVATION_SIZE


cdef inline int wild_index(int wild) noexcept nogil:
    return NUM_RANKS if wild == KZ_NO_WILD else wild


cdef void kz_observe(const void* state, int seat, float* out) noexcept nogil:
    """What ``seat`` sees (KZ-8) except its legal actions (left to the legal-action mask; they
    include the cards a God look shows, KZ-6.2): its own hand, the public table, the sizes of
    the hidden zones, the scores and the last deal."""
    cdef const KZState* s = <const KZState*>state
    cdef int p, c, k, i, d1, d2, value
    cdef const Pile* pile
    memset(out, 0, OBSERVATION_SIZE * sizeof(float))
    out[O_OBSERVER + seat] = 1.0
    if s.h.to_move >= 0:
        out[O_TO_MOVE + s.h.to_move] = 1.0
    out[O_PHASE + s.h.phase] = 1.0
    for c in range(NUM_IDS):
        out[O_HAND + c] = s.hand[seat].count[c]
    for p in range(s.h.players):
        out[O_HAND_SIZES + p] = s.hand[p].total
        out[O_SCORES + p] = s.score[p]
        out[O_PILE_OF + p * NUM_STOCKS + s.pile_of[p]] = 1.0
        out[O_CHIPS + p] = s.chips[p]
    out[O_WILD + wild_index(s.wild)] = 1.0
    out[O_TURN_UP + s.turn_up] = 1.0
    for k in range(s.piles_in_play):
        pile = &s.discard[k]
        for i in range(pile.size):
            out[O_DISCARD_COUNTS + k * NUM_IDS + pile.cards[i]] += 1.0
            out[O_DISCARD_ORDER + k * DECK_SIZE + i] = pile.cards[i] + 1
        if pile.size > 0:
            out[O_DISCARD_TOP + k * NUM_IDS + pile.cards[pile.size - 1]] = 1.0
        out[O_STOCK_SIZES + k] = s.stock[k].size
    out[O_PILES_IN_PLAY] = s.piles_in_play
    out[O_MY_PILE + s.pile_of[seat]] = 1.0
    out[O_DEALER + s.h.dealer] = 1.0
    out[O_FIRST + s.first] = 1.0
    out[O_DEAL] = s.h.round_index + (0 if s.h.to_move < 0 else 1)
    out[O_TURNS_IN_DEAL] = s.turns_in_deal
    out[O_GOD_HOLDER + (s.god_public if s.god_public >= 0 else SEATS)] = 1.0
    out[O_POT] = s.pot
    value = best_declaration(s, &s.hand[seat], &d1, &d2)
    if value > 0:
        out[O_BEST_VALUE] = value
        out[O_BEST_SETS + d1] += 1.0
        out[O_BEST_SETS + d2] += 1.0
    out[O_LAST_END + s.last_end] = 1.0
    if s.last_end != END_NONE:
        out[O_LAST_WILD + wild_index(s.last_wild)] = 1.0
    if s.last_end == END_OUT:
        out[O_LAST_WINNER + s.last_winner] = 1.0
        out[O_LAST_SETS + s.last_d1] += 1.0
        out[O_LAST_SETS + s.last_d2] += 1.0
        out[O_LAST_SET_VALUES] = s.last_v1
        out[O_LAST_SET_VALUES + 1] = s.last_v2
        for i in range(s.last_hand_size):
            out[O_LAST_HAND + s.last_hand[i]] += 1.0
        out[O_LAST_HAND_POINTS] = s.last_hand_points
        out[O_LAST_TURN_UP_DOUBLED] = 1.0 if s.last_turn_up_doubled else 0.0
        out[O_LAST_GOD_DOUBLED] = 1.0 if s.last_god_doubled else 0.0
        out[O_LAST_TOTAL] = s.last_total
        out[O_LAST_POT] = s.last_pot


# ---------------------------------------------------------------- determinization
cdef inline double uniform01(Rng* rng) noexcept nogil:
    """A uniform double in [0, 1) from 53 random bits."""
    cdef uint64_t high = rng_next32(rng) >> 5, low = rng_next32(rng) >> 6
    return (high * 67108864.0 + low) / 9007199254740992.0


cdef int choose_god_look_stock(const uint8_t* pool, int n, int m, uint64_t required,
                               uint64_t allowed, uint8_t* chosen, Rng* rng) noexcept nogil:
    """Pick the cards of the stocks' m unknown places, uniformly among the m-card
    sub-multisets of the pool's (labelled) cards that hold at least one copy of every id in
    ``required`` and nothing outside ``required | allowed``; write them to chosen. Returns 0,
    or -1 if there is none. ways[i][j] counts the labelled choices of j cards among the ids
    i.. and is sampled backwards."""
    cdef double ways[NUM_KINDS + 1][DECK_SIZE + 1]
    cdef int copies[NUM_KINDS]
    cdef int lo[NUM_KINDS]
    cdef int c, j, k, i, pick, taken = 0
    cdef double total, u, binom
    memset(copies, 0, sizeof(copies))
    for i in range(n):
        copies[pool[i]] += 1
    for c in range(NUM_KINDS):
        if (required >> c) & 1:
            lo[c] = 1
        elif (allowed >> c) & 1:
            lo[c] = 0
        else:
            lo[c] = -1                                  # excluded
    for j in range(m + 1):
        ways[NUM_KINDS][j] = 1.0 if j == 0 else 0.0
    c = NUM_KINDS - 1
    while c >= 0:
        for j in range(m + 1):
            total = 0.0
            if lo[c] < 0:
                total = ways[c + 1][j]
            else:
                binom = 1.0
                for k in range(copies[c] + 1):          # C(copies, k), built up as k grows
                    if k > 0:
                        binom = binom * (copies[c] - k + 1) / k
                    if k >= lo[c] and k <= j:
                        total += binom * ways[c + 1][j - k]
            ways[c][j] = total
        c -= 1
    if ways[0][m] <= 0.0:
        return -1
    j = m
    for c in range(NUM_KINDS):
        if lo[c] < 0:
            continue
        u = uniform01(rng) * ways[c][j]
        pick = -1
        binom = 1.0
        for k in range(copies[c] + 1):
            if k > 0:
                binom = binom * (copies[c] - k + 1) / k
            if k < lo[c] or k > j or binom * ways[c + 1][j - k] <= 0.0:
                continue
            pick = k                                    # the last feasible count absorbs rounding
            u -= binom * ways[c + 1][j - k]
            if u < 0.0:
                break
        if pick < 0:
            return -1
        for i in range(pick):
            chosen[taken] = c
            taken += 1
        j -= pick
    return 0 if j == 0 else -1


cdef int kz_sample_hidden(void* state, int seat, Rng* rng) noexcept nogil:
    """Redeal, in place, every card ``seat`` cannot place: the unknown part of each other hand,
    the stock places nobody knows and the set-aside pile. Known places stay: the seat's hand,
    the face-up piles and dead discards, the cards everybody knows a hand holds, the stock
    places everybody knows; during the seat's own God draw the stocks keep exactly the cards
    the look shows (games/kuzanasta.md, "Hidden cards")."""
    cdef KZState* s = <KZState*>state
    cdef uint8_t pool[DECK_SIZE]
    cdef uint8_t chosen[DECK_SIZE]
    cdef int count[NUM_KINDS]
    cdef int hidden[MAX_PLAYERS]
    cdef int p, c, k, i, n = 0, m = 0, a, b
    cdef uint64_t known_in_stock = 0, required
    # The pool is built from counts in id order: the world depends only on what the seat
    # knows and on rng, never on where the hidden cards really lie.
    memset(count, 0, sizeof(count))
    for p in range(s.h.players):
        hidden[p] = 0
        if p == seat:
            continue
        for c in range(NUM_KINDS):
            hidden[p] += s.hand[p].count[c] - s.known[p].count[c]
            count[c] += s.hand[p].count[c] - s.known[p].count[c]
    for k in range(NUM_STOCKS):
        for i in range(s.stock[k].size):
            if s.stock_seen[k][i]:
                known_in_stock |= card_bit(s.stock[k].cards[i])
            else:
                count[s.stock[k].cards[i]] += 1
                m += 1
    for c in range(NUM_KINDS):
        count[c] += s.dead.count[c] - s.dead_seen.count[c]
    for c in range(NUM_KINDS):
        for k in range(count[c]):
            pool[n] = <uint8_t>c
            n += 1
    if s.look_seat == seat:
        # The seat's own God look showed the stocks in play (then the only stocks with cards),
        # and no card left them unseen by the seat since: the unknown places get a uniform
        # choice of cards that shows the same, less what the seat itself took out since.
        required = s.look_shown & ~s.look_gone & ~known_in_stock
        if choose_god_look_stock(pool, n, m, required, s.look_shown & ~required, chosen,
                                 rng) < 0:
            return -1
        for i in range(m):
            count[chosen[i]] -= 1
        shuffle_u8(rng, chosen, m)
        for i in range(m):
            pool[i] = chosen[i]                  # the stocks' unknown places come first below
        a = m
        for c in range(NUM_KINDS):
            for k in range(count[c]):
                pool[a] = <uint8_t>c
                a += 1
        shuffle_u8(rng, pool + m, n - m)
    else:
        shuffle_u8(rng, pool, n)
    # Lay the pool back out: stocks' unknown places first, then the hands, then set-aside.
    a = 0
    for k in range(NUM_STOCKS):
        for i in range(s.stock[k].size):
            if not s.stock_seen[k][i]:
                s.stock[k].cards[i] = pool[a]
                a += 1
    for p in range(s.h.players):
        if p == seat:
            continue
        s.hand[p] = s.known[p]
        for b in range(hidden[p]):
            ms_add(&s.hand[p], pool[a])
            a += 1
    s.dead = s.dead_seen
    while a < n:
        ms_add(&s.dead, pool[a])
        a += 1
    return 0


cdef void kz_scores(const void* state, int32_t* out) noexcept nogil:
    """KZ-7.4 match scores, as the view shows them (held as int64: the hook's int32 saturates,
    far beyond any reachable score)."""
    cdef const KZState* s = <const KZState*>state
    cdef int p
    for p in range(s.h.players):
        out[p] = <int32_t>(s.score[p] if s.score[p] < 2147483647 else 2147483647)


# ---------------------------------------------------------------- the search's rollout policy
# Uniformly random play almost never builds two sets (KZ-5), so a search's random rollouts
# rarely see a deal won. This cheap policy collects ranks: it is what ISMCTS rollouts play
# (cardcore._search), never a player's move. It reads only the sampled world it is given.
cdef inline int keep_value(const KZState* s, const Multiset* hand, const int* stock_ranks,
                           int card) noexcept nogil:
    """How much the hand wants ``card``: the joker (KZ-7.3) and wild cards (KZ-4) most, then
    by how many natural cards of its rank the hand holds (sets are one rank, KZ-5.1), then by
    how many more of the rank the stock still holds (``stock_ranks``: a rank still to come
    is worth waiting for), a card's points (KZ-1.4, counted against the hand, KZ-7.2) last."""
    if card == JOKER:
        return 1000
    if card_rank(card) == s.wild:
        return 500
    return 100 * ms_count_rank(hand, card_rank(card)) + 8 * stock_ranks[card_rank(card)] \
        - card_points(card) // 10


cdef int kz_rollout(const void* state, const int32_t* legal, int n, Rng* rng) noexcept nogil:
    """Draw: the God look (KZ-6.2) if offered, the discard top if it matches a held rank or
    is wild or the joker, else the stock. God draw: the card the hand wants most. Discard:
    the plain discard of the card the hand wants least, least of all one that gives the next
    seat (sharing the pile) a third card of a rank (ties at random). Declare: go out with the
    best sets (KZ-7.1) whenever the hand can. It reads the whole world it is given (a
    sampled one, in a search). Returns an index into legal, or -1 (no preference: the search
    plays at random)."""
    cdef const KZState* s = <const KZState*>state
    cdef int p = s.h.to_move, k, card, value, top
    cdef BestPick pick
    cdef int pile = s.pile_of[p], nxt = (p + 1) % s.h.players
    cdef int stock_ranks[NUM_RANKS]
    cdef const Multiset* hand = &s.hand[p]
    best_pick_init(&pick)
    if s.h.phase == PH_DRAW:
        for k in range(n):
            if legal[k] == A_GOD_LOOK:
                return k
        for k in range(n):
            if legal[k] == A_DRAW_DISCARD:
                top = s.discard[pile].cards[s.discard[pile].size - 1]
                if top == JOKER or card_rank(top) == s.wild or ms_count_rank(hand, card_rank(top)) > 0:
                    return k
        for k in range(n):
            if legal[k] == A_DRAW_STOCK:
                return k
        return -1
    if s.h.phase == PH_DECLARE:
        for k in range(n):
            if legal[k] == A_GO_OUT:
                return k
        return 0                                    # A_END_TURN comes first
    if s.h.phase != PH_GOD_DRAW and s.h.phase != PH_DISCARD:
        return -1
    for k in range(NUM_RANKS):
        stock_ranks[k] = 0
    for k in range(s.stock[pile].size):
        if s.stock[pile].cards[k] != JOKER:
            stock_ranks[card_rank(s.stock[pile].cards[k])] += 1
    for k in range(n):
        if s.h.phase == PH_GOD_DRAW and FIRST_GOD_DRAW <= legal[k] < FIRST_DISCARD:
            value = keep_value(s, hand, stock_ranks, legal[k] - FIRST_GOD_DRAW)
        elif s.h.phase == PH_DISCARD and FIRST_DISCARD <= legal[k] < FIRST_GOD_DISCARD:
            card = legal[k] - FIRST_DISCARD
            value = -keep_value(s, hand, stock_ranks, card)
            # The next seat draws from this pile too (KZ-2.6): do not hand it a set's card.
            if s.pile_of[nxt] == pile and card != JOKER and card_rank(card) != s.wild \
                    and ms_count_rank(&s.hand[nxt], card_rank(card)) >= 2:
                value -= 60
        else:
            continue
        best_pick_offer(&pick, k, value, rng)
    return pick.index


# ---------------------------------------------------------------- GreedyBot's policy
# GreedyBot's Kuzanasta heuristic (cardcore.games.kuzanasta.greedy documents it), played
# inside the core. Unlike the rollout policy above it reads only what the seat to move may
# know: its own hand, the wild rank, its discard pile, the turn counter, and in the God draw
# the cards the God look shows (the legal ids, KZ-6.2). These weights are the heuristic's one
# source (the 0.2-0.3 Python heuristic is the tests' oracle, tests/games/kuzanasta/).
cdef enum:
    GREEDY_PAIR = 1                   # potential of two natural cards of a rank (not the wild one)
    GREEDY_TRIPLE = 3                 # ... of three or more
    GREEDY_FACE = 2                   # a face rank's (J-K, KZ-5.3) potential counts double
    GREEDY_PER_POTENTIAL = 400        # evaluation points per unit of potential
    GREEDY_PER_WILD = 600             # per wild card held (KZ-4)
    GREEDY_PER_JOKER = 900            # per joker held (it doubles the deal, KZ-7.3)
    G_WAIT_BELOW = 15000              # declarations worth less may wait ...
    G_WAIT_TURNS_PER_PLAYER = 2       # ... while the deal is younger than this many turns a seat

WAIT_BELOW = G_WAIT_BELOW
WAIT_TURNS_PER_PLAYER = G_WAIT_TURNS_PER_PLAYER


cdef int greedy_evaluate(const KZState* s, const Multiset* cards) noexcept nogil:
    """The value of the best declaration the option ``sets`` allows (KZ-7.1) plus the hand's
    potential (pairs and triples of a natural rank, wild cards, the joker), minus its card
    points (KZ-1.4: they go to the winner if someone else goes out, KZ-7.2)."""
    cdef int n[NUM_RANKS]
    cdef int d1, d2, r, c, potential = 0, points = 0, wilds = 0
    cdef int value = best_declaration(s, cards, &d1, &d2)
    kz_rank_counts(cards, n)
    for c in range(JOKER):
        points += card_points(c) * cards.count[c]
    for r in range(NUM_RANKS):
        if r == s.wild:
            wilds = n[r]
        elif n[r] >= 2:
            potential += (GREEDY_TRIPLE if n[r] >= 3 else GREEDY_PAIR) * \
                (GREEDY_FACE if r >= R_JACK else 1)
    return value + GREEDY_PER_POTENTIAL * potential + GREEDY_PER_WILD * wilds \
        + GREEDY_PER_JOKER * cards.count[JOKER] - points


cdef int greedy_best_discard(const KZState* s, const Multiset* hand, int* value) noexcept nogil:
    """The card whose loss leaves the best evaluation (the lowest id among equals), and that
    evaluation in ``value``; -1 for an empty hand."""
    cdef Multiset rest
    cdef uint64_t m = hand.plane[0]                  # the distinct ids, the joker's included
    cdef int card, v, best = -1
    while m:
        card = lowest_card(m)
        m &= m - 1
        rest = hand[0]
        ms_remove(&rest, card)
        v = greedy_evaluate(s, &rest)
        if best < 0 or v > value[0]:
            best = card
            value[0] = v
    return best


cdef inline int index_of(const int32_t* legal, int n, int action) noexcept nogil:
    cdef int k
    for k in range(n):
        if legal[k] == action:
            return k
    return -1


cdef int kz_greedy(const void* state, const int32_t* legal, int n, Rng* rng) noexcept nogil:
    """Draw: the God look if offered (KZ-6.2), else the discard top if it is the joker, wild,
    or worth keeping (the best discard afterwards is another card and the hand evaluates
    higher than now), else the stock (KZ-3.1). God draw: the card that makes the best 8-card
    evaluation (the lowest id among equals). Discard: greedy_best_discard's card, a plain
    discard (KZ-3.2; never a God discard, KZ-6.3). Declare: go out with the best declaration
    (KZ-7.1) unless it is worth less than G_WAIT_BELOW while the deal is young, end the turn
    without one (KZ-3.3). A choice that is not legal becomes a uniform legal id, the one draw
    the policy makes (as the heuristic's; no position the rules reach needs it: a God holder's
    own discard pile is never empty at its draw, so one of the plain draws is legal)."""
    cdef const KZState* s = <const KZState*>state
    cdef int p = s.h.to_move, k, card, top, value = 0, best_value = 0, choice = -1
    cdef const Multiset* hand = &s.hand[p]
    cdef const Pile* pile
    cdef Multiset more
    if s.h.phase == PH_DRAW:
        if index_of(legal, n, A_GOD_LOOK) >= 0:
            choice = A_GOD_LOOK
        else:
            pile = &s.discard[s.pile_of[p]]
            choice = A_DRAW_STOCK if index_of(legal, n, A_DRAW_STOCK) >= 0 else A_DRAW_DISCARD
            if pile.size > 0 and index_of(legal, n, A_DRAW_DISCARD) >= 0:
                top = pile.cards[pile.size - 1]
                if top == JOKER or card_rank(top) == s.wild:
                    choice = A_DRAW_DISCARD
                else:
                    more = hand[0]
                    ms_add(&more, top)
                    if greedy_best_discard(s, &more, &value) != top and \
                            value > greedy_evaluate(s, hand):
                        choice = A_DRAW_DISCARD
    elif s.h.phase == PH_GOD_DRAW:
        for k in range(n):
            more = hand[0]
            ms_add(&more, legal[k] - FIRST_GOD_DRAW)
            value = greedy_evaluate(s, &more)
            if choice < 0 or value > best_value or (value == best_value and legal[k] < choice):
                choice = legal[k]
                best_value = value
    elif s.h.phase == PH_DISCARD:
        choice = FIRST_DISCARD + greedy_best_discard(s, hand, &value)
    elif s.h.phase == PH_DECLARE:
        value = best_declaration(s, hand, &k, &card)
        if value == 0 or (value < G_WAIT_BELOW
                          and s.turns_in_deal < G_WAIT_TURNS_PER_PLAYER * s.h.players):
            choice = A_END_TURN
        else:
            choice = A_GO_OUT
    k = index_of(legal, n, choice)
    if k < 0:
        k = <int>rng_below(rng, <uint32_t>n)
    return k


# ---------------------------------------------------------------- the zones: who sees what (KZ-8)
cdef enum:                  # the zones, in ZONES order
    ZN_HAND = 0             # each seat's hand: its own (KZ-2.4); cards taken face up are known
    ZN_STOCK = 1            # the stock piles, face down (KZ-2.5); places seen by all are known
    ZN_DISCARD = 2          # the discard piles, face up (KZ-2.7, KZ-3.2)
    ZN_DEAD = 3             # out of play for the deal (KZ-2.6, KZ-6.6): set aside face down,
                            # dead discard piles known
    NUM_ZONES = 4

cdef ZoneSpec ZONES[NUM_ZONES]
ZONES[ZN_HAND] = ZoneSpec(b"hand", ZONE_SEAT, 0, SEEN_BY_OWNER)
ZONES[ZN_STOCK] = ZoneSpec(b"stock", ZONE_PILE, NUM_STOCKS, SEEN_BY_NONE)
ZONES[ZN_DISCARD] = ZoneSpec(b"discard", ZONE_PILE, NUM_STOCKS, SEEN_BY_ALL)
ZONES[ZN_DEAD] = ZoneSpec(b"dead", ZONE_SHARED, 0, SEEN_BY_NONE)



cdef int kz_zone_cards(const void* state, int zone, int instance, uint8_t* out) noexcept nogil:
    cdef const KZState* s = <const KZState*>state
    if zone == ZN_HAND:
        return ms_to_array(&s.hand[instance], out)
    if zone == ZN_STOCK:
        return pile_copy(&s.stock[instance], out)
    if zone == ZN_DISCARD:
        return pile_copy(&s.discard[instance], out)
    return ms_to_array(&s.dead, out)


cdef int kz_known_cards(const void* state, int zone, int instance, uint8_t* out) noexcept nogil:
    """The cards of a hidden zone whose place every seat knows ("Hidden cards" in the rulebook):
    a hand's cards taken face up, the stock places turned over face up, the dead discards."""
    cdef const KZState* s = <const KZState*>state
    cdef int i, n = 0
    if zone == ZN_HAND:
        return ms_to_array(&s.known[instance], out)
    if zone == ZN_STOCK:
        for i in range(s.stock[instance].size):
            if s.stock_seen[instance][i]:
                out[n] = s.stock[instance].cards[i]
                n += 1
        return n
    if zone == ZN_DEAD:
        return ms_to_array(&s.dead_seen, out)
    return 0


# ---------------------------------------------------------------- the scoring breakdown (KZ-7)
cdef enum:                  # indexes into BREAKDOWN_WHAT and BREAKDOWN_RULES
    W_SET = 0
    W_HAND_POINTS = 1
    W_HAND_POINTS_DOUBLED = 2
    W_GOD_DOUBLED = 3
    R_KZ_7_4 = 0
    R_KZ_7_2 = 1
    R_KZ_7_2_2_3 = 2
    R_KZ_7_3 = 3

BREAKDOWN_WHAT = ("set {detail}", "card points left in the other hands",
                  "card points left in the other hands (doubled: joker turn-up)",
                  "doubled: went out holding the joker")
BREAKDOWN_RULES = ("KZ-7.4", "KZ-7.2", "KZ-7.2, KZ-2.3", "KZ-7.3")


cdef inline void set_row(BreakdownRow* row, int seat, int what, int rule, int detail,
                         int64_t points) noexcept nogil:
    row.owner = seat
    row.what = what
    row.rule = rule
    row.detail = detail
    row.count = -1
    row.points = points


cdef int kz_breakdown(const void* state, BreakdownRow* out, int capacity) noexcept nogil:
    """The last deal's scoring as end_deal recorded it: the two sets (detail: the set's
    descriptor), the points left in the other hands, the God card's doubling (the rest of the
    total). A void deal scores nothing (KZ-3.4, KZ-3.5)."""
    cdef const KZState* s = <const KZState*>state
    cdef int w = s.last_winner
    if s.last_end != END_OUT:
        return 0
    if capacity < 4:
        return -1
    set_row(&out[0], w, W_SET, R_KZ_7_4, s.last_d1, s.last_v1)
    set_row(&out[1], w, W_SET, R_KZ_7_4, s.last_d2, s.last_v2)
    if s.last_turn_up_doubled:
        set_row(&out[2], w, W_HAND_POINTS_DOUBLED, R_KZ_7_2_2_3, -1, s.last_hand_points)
    else:
        set_row(&out[2], w, W_HAND_POINTS, R_KZ_7_2, -1, s.last_hand_points)
    if not s.last_god_doubled:
        return 3
    set_row(&out[3], w, W_GOD_DOUBLED, R_KZ_7_3, -1,
            s.last_total - s.last_v1 - s.last_v2 - s.last_hand_points)
    return 4


cdef GameHooks KZ_HOOKS = game_hooks(
    name="kuzanasta",
    state_size=sizeof(KZState),
    num_actions=NUM_ALL_ACTIONS,  # the widest configuration (god_draw="position")
    max_legal=NUM_ALL_ACTIONS,
    start=kz_start,
    legal=kz_legal,
    apply=kz_apply,
    observation_size=kz_observation_size,
    observe=kz_observe,
    returns=kz_returns,
    scores=kz_scores,
    sample_hidden=kz_sample_hidden,
    zones=ZONES,
    num_zones=NUM_ZONES,
    zone_cards=kz_zone_cards,
    breakdown=kz_breakdown,
    greedy=kz_greedy,
    rollout=kz_rollout,
    known_cards=kz_known_cards,
    hand_cards=NULL)


# ---------------------------------------------------------------- the Python-visible state
cdef class KuzanastaState(GameState):
    """Kuzanasta: the struct above, bound to the framework; getters for the view."""
    cdef KZState d

    match_end_rule = "KZ-7.5"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(KZState))
        self.bind(&KZ_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
        composition = kuzanasta_deck()
        init_header(&self.d.h, players, deck, composition)
        read_options(&self.d.opt, options)
        load_cards(self.d.deck, composition, DECK_SIZE)
        self.d.h.phase = PH_OVER
        self.d.last_end = END_NONE
        self.d.last_winner = -1
        self.d.god_public = -1
        self.d.look_seat = -1

    def explain_rule(self, int action) -> tuple:
        """(message, rule id) for an id that is not legal while the match is on."""
        from cardcore.cards import card_str
        cdef int a = action, p = self.d.h.to_move, ph = self.d.h.phase
        cdef int pile = self.d.pile_of[p]
        cdef bint god = self.d.hand[p].count[JOKER] > 0
        if a >= FIRST_GOD_PLACE and not self.d.opt.god_place:
            return ("taking a card from a chosen place of a stock is the option god_draw='position'", "KZ-6.2")
        if a == A_GOD_LOOK and self.d.opt.god_place:
            return ("with god_draw='position' the God card's draw takes a chosen place without looking", "KZ-6.2")
        if ph == PH_DRAW:
            if a >= FIRST_GOD_PLACE:
                if not god:
                    return ("only the holder of the God card (the joker) may draw from the stocks at will", "KZ-6.2")
                return ("that place is not in a stock pile in play", "KZ-6.2")
            if a == A_DRAW_STOCK:
                return ("your stock pile is empty", "KZ-3.4")
            if a == A_DRAW_DISCARD:
                return ("your discard pile is empty", "KZ-3.1")
            if a == A_GOD_LOOK:
                if not god:
                    return ("only the holder of the God card (the joker) may draw from the stocks at will", "KZ-6.2")
                return ("the stock piles are empty", "KZ-6.2")
            return ("first draw: draw_stock or draw_discard", "KZ-3.1")
        if ph == PH_GOD_DRAW:
            if FIRST_GOD_DRAW <= a < FIRST_DISCARD:
                return (f"{card_str(a - FIRST_GOD_DRAW)} is not in a stock pile in play", "KZ-6.2")
            return ("you chose the God card's draw: take a card from the stock piles (god_draw)", "KZ-6.2")
        if ph == PH_DISCARD:
            if FIRST_DISCARD <= a < FIRST_GOD_DISCARD:
                return (f"you do not hold {card_str(a - FIRST_DISCARD)}", "KZ-3.2")
            if FIRST_GOD_DISCARD <= a < A_END_TURN:
                if not god:
                    return ("only the holder of the God card (the joker) may start a new discard pile", "KZ-6.3")
                if self.d.discard[pile].size == 0:
                    return ("your discard pile is empty: there is no pile to end, discard normally", "KZ-6.3")
                return (f"you do not hold {card_str(a - FIRST_GOD_DISCARD)}", "KZ-3.2")
            return ("you have drawn: now discard a card", "KZ-3.2")
        # PH_DECLARE
        if a == A_GO_OUT:
            if self.d.opt.three_four:
                return ("your hand does not make a 3-card and a 4-card set of all seven cards", "KZ-7.1")
            return ("your hand does not hold two sets", "KZ-7.1")
        if FIRST_NAMED <= a < FIRST_GOD_PLACE:
            if self.d.opt.three_four:
                return ("your hand cannot show those sets as a 3-card and a 4-card set of all seven cards", "KZ-7.1")
            return ("your hand cannot show those two sets", "KZ-7.1")
        return ("you have discarded: go out (go_out) or end the turn (end_turn)", "KZ-3.3")

    @property
    def deals_scored(self) -> int:
        return self.d.deals_scored

    def hand(self, p) -> list:
        return ms_to_list(&self.d.hand[self.check_seat(p)])

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(self.d.h.players)]

    def discards(self) -> list:
        """The discard piles in play, each bottom -> top."""
        return [pile_to_list(&self.d.discard[k]) for k in range(self.d.piles_in_play)]

    def stock(self, int pile) -> list:
        """A stock pile top-first (hidden information: for tests and tools only)."""
        if not 0 <= pile < NUM_STOCKS:
            raise ValueError(f"stock pile {pile} out of range")
        return pile_to_list(&self.d.stock[pile])[::-1]

    def stock_sizes(self) -> list:
        return [self.d.stock[k].size for k in range(self.d.piles_in_play)]

    def dead(self) -> list:
        return ms_to_list(&self.d.dead)

    def known_cards(self, p) -> list:
        """The cards everybody knows seat p holds (taken face up, or drawn from a stock place
        everybody knew; the joker once revealed), for sample_hidden and its tests."""
        return ms_to_list(&self.d.known[self.check_seat(p)])

    def pile_of(self, p) -> int:
        return self.d.pile_of[self.check_seat(p)]

    @property
    def piles_in_play(self) -> int:
        return self.d.piles_in_play

    @property
    def wild_rank(self):
        return None if self.d.wild == KZ_NO_WILD else self.d.wild

    @property
    def turn_up(self) -> int:
        return self.d.turn_up

    @property
    def first_player(self) -> int:
        return self.d.first

    @property
    def turns_in_deal(self) -> int:
        return self.d.turns_in_deal

    @property
    def god_public(self):
        """The seat known to hold the joker (KZ-8), or None."""
        return None if self.d.god_public < 0 else self.d.god_public

    @property
    def pot(self) -> int:
        return self.d.pot

    def chips(self) -> list:
        return [self.d.chips[p] for p in range(self.d.h.players)]

    def best_sets(self, p) -> tuple:
        """(total, d1, d2) of the best declaration the option ``sets`` allows in seat p's hand
        now (0, -1, -1 if none)."""
        cdef int d1, d2, q = self.check_seat(p)
        cdef int v = best_declaration(&self.d, &self.d.hand[q], &d1, &d2)
        return (v, d1, d2)

    def last_deal(self):
        """The last finished deal, or None before the first one ends."""
        if self.d.last_end == END_NONE:
            return None
        out = {"end": DEAL_END_NAMES[self.d.last_end], "winner": None,
               "wild_rank": None if self.d.last_wild == KZ_NO_WILD else self.d.last_wild}
        if self.d.last_end == END_OUT:
            out.update({
                "winner": self.d.last_winner,
                "sets": [(self.d.last_d1, self.d.last_v1), (self.d.last_d2, self.d.last_v2)],
                "hand": [self.d.last_hand[i] for i in range(self.d.last_hand_size)],
                "hand_points": self.d.last_hand_points,
                "turn_up_doubled": bool(self.d.last_turn_up_doubled),
                "god_doubled": bool(self.d.last_god_doubled),
                "total": self.d.last_total,
                "pot": self.d.last_pot,
            })
        return out

    def all_cards(self) -> list:
        cards = []
        for p in range(self.d.h.players):
            cards += self.hand(p)
        for k in range(NUM_STOCKS):
            cards += pile_to_list(&self.d.stock[k])
            cards += pile_to_list(&self.d.discard[k])
        return cards + self.dead()


check_state_class(KuzanastaState)


def kuzanasta_deck() -> list:
    """KZ-1.1: deck A (52 cards), deck B without J, Q, K (40 cards), one joker."""
    return build_deck([range(13), range(R_JACK)], 1)


def card_points_of(int card) -> int:
    """KZ-1.4 card points."""
    if not 0 <= card < NUM_KINDS:
        raise ValueError(f"card id out of range: {card}")
    return card_points(card)


def max_deal_total(int players) -> int:
    """The most one deal can score (KZ-7.2..7.4): two sets of the dearest row, every other
    hand of 7 cards at the highest card points, doubled after a joker turn-up, and the whole
    doubled when the winner holds the joker. A bound, not always reachable."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
    from cardcore.games.kuzanasta._sets import KZ_ROW_VALUES
    best_card = max(card_points(c) for c in range(NUM_KINDS))
    hands = (players - 1) * HAND_SIZE * best_card
    return (2 * max(KZ_ROW_VALUES) + GOD_DOUBLING * hands) * GOD_DOUBLING


def min_deal_total() -> int:
    """The least a scored deal adds to its winner (KZ-7.1, KZ-7.4): a 7-card hand cannot
    show two 4-card sets, so the cheapest declaration is the cheapest 3-card row plus the
    cheapest row of all; counted hands and doubling only add. It bounds the scored deals of
    a match played to a target (KZ-7.8)."""
    from cardcore.games.kuzanasta._sets import KZ_ROW_VALUES
    three_card_rows = KZ_ROW_VALUES[1:5]              # KZ-5.3 rows 1-4
    return min(three_card_rows) + min(KZ_ROW_VALUES[1:])


def actions_per_turn() -> int:
    """At most 4 actions make a turn (KZ-3.1..3.3, KZ-6.2): god_look, god_draw, a discard and
    the declare step (end_turn or go_out); a plain draw is one action instead of two. (Fewer
    with going_out="immediate", no declare step, or god_draw="position", one draw action.)"""
    return 4
