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

A set descriptor (_kuzanasta_sets.pxd) is rank * 7 + shape, shape 0..2 = 3 cards
with 0..2 wild cards, 3..6 = 4 cards with 0..3 wild cards: a named declaration fixes the
rank, size and number of wild cards of each set and the engine picks the suits (which only
matter for the 2+2 four-card rows, where it takes the best). 39 three-card and 52 four-card
descriptors give 39 * 40 / 2 + 39 * 52 = 2808 named declarations.

Phases: draw -> (god_draw) -> discard -> declare (end_turn; go_out too when the 7-card hand
holds two sets) -> the next player's draw. A deal that ends starts the next one inside the
same action.
"""
from libc.stdint cimport uint8_t, int16_t, int32_t, int64_t, uint64_t
from libc.string cimport memset

from cardcore._fast cimport (
    GameState, Multiset, Pile, JOKER, NUM_KINDS, NUM_RANKS, R_JACK,
    card_rank, card_bit, lowest_card, ms_clear, ms_add, ms_remove, ms_count_rank,
    pile_push, pile_pop, pile_to_list, ms_to_list, load_cards, rng_below, shuffle_u8,
)
from cardcore.games._kuzanasta_sets cimport (
    KZ_NUM_DESCRIPTORS, KZ_NUM_SHAPES, KZ_NO_WILD, kz_best_two, kz_declaration_value,
    kz_descriptor_value, kz_desc_size,
)
from cardcore._fast import build_deck

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
    NUM_ACTIONS = 2970

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
    return NUM_ACTIONS


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

# ---------------------------------------------------------------- the state
cdef enum Phase:
    PH_DRAW = 0          # KZ-3.1, KZ-6.2
    PH_GOD_DRAW = 1      # KZ-6.2: the holder looked at the stocks and takes a card
    PH_DISCARD = 2       # KZ-3.2, KZ-6.3, KZ-6.4
    PH_DECLARE = 3       # KZ-3.3: end the turn, or go out with two sets
    PH_OVER = 4

PHASES = ("draw", "god_draw", "discard", "declare", "over")

cdef enum DealEnd:
    END_NONE = 0
    END_OUT = 1          # someone went out (KZ-7)
    END_NO_DRAW = 2      # KZ-3.4: the player to draw can draw nothing
    END_MAX_TURNS = 3    # KZ-3.5

DEAL_END_NAMES = (None, "went_out", "no_draw", "max_turns")

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


cdef int read_options(KZOptions* o, dict options) except -1:
    """Copy the wrapper's checked options (every key present) into the typed struct."""
    missing = {"dealer", "pile_pairing", "reshuffle", "max_turns", "target", "deals",
               "ante"} - options.keys()
    if missing:
        raise ValueError(f"missing Kuzanasta options: {sorted(missing)}")
    o.dealer = -1 if options["dealer"] is None else options["dealer"]
    o.adjacent_piles = options["pile_pairing"] == "adjacent"
    o.reshuffle = bool(options["reshuffle"])
    o.max_turns = options["max_turns"]
    o.deals = 0 if options["deals"] is None else options["deals"]
    o.target = options["target"]
    o.ante = options["ante"]
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
    cdef DealPlan plan
    make_deal_plan(players, (dealer + 1) % players, &plan)
    out = ["turn_up"]
    for i in range(1, DECK_SIZE):
        name = ZONE_NAMES[plan.zone[i]]
        out.append(name if plan.zone[i] == Z_SET_ASIDE else f"{name}:{plan.which[i]}")
    return out


ctypedef struct KZData:
    int32_t players
    KZOptions opt
    uint8_t deck[DECK_SIZE]            # the composition, id order (KZ-1.1)
    bint stacked_pending               # KZ-2.8: the first deal uses the stacked deck as is
    uint8_t stacked[DECK_SIZE]         # top card first

    int32_t round_index                # deals finished, scored or void
    int32_t deals_scored
    int32_t dealer, first, to_move, phase
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

    # The last finished deal (public once it ends).
    int32_t last_end, last_winner, last_d1, last_d2, last_v1, last_v2, last_wild
    int64_t last_hand_points, last_total, last_pot
    bint last_god_doubled, last_turn_up_doubled
    int32_t last_hand_size
    uint8_t last_hand[8]               # the winner's hand, shown when going out


cdef class KuzanastaState(GameState):
    cdef KZData d

    def __init__(self, int players, dict options, deck=None):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
        memset(&self.d, 0, sizeof(KZData))
        self.num_players = players
        self.d.players = players
        read_options(&self.d.opt, options)
        composition = kuzanasta_deck()
        load_cards(self.d.deck, composition, DECK_SIZE)
        if deck is not None:
            if sorted(deck) != composition:
                raise ValueError("stacked deck does not match the composition")
            load_cards(self.d.stacked, deck, DECK_SIZE)
            self.d.stacked_pending = True
        self.d.phase = PH_OVER
        self.d.to_move = -1
        self.d.last_end = END_NONE
        self.d.last_winner = -1

    def start(self) -> None:
        """KZ-2.1: the first dealer by option or by lot, then the first deal."""
        if self.d.opt.dealer >= 0:
            self.d.dealer = self.d.opt.dealer
        else:
            self.d.dealer = rng_below(&self.rng, self.d.players)
        self.deal()

    # ------------------------------------------------------------ the deal (KZ-2)
    cdef void deal(self) noexcept:
        cdef uint8_t order[DECK_SIZE]
        cdef DealPlan plan
        cdef int i, p, n = self.d.players, pile, card
        cdef Pile* stock
        if self.d.stacked_pending:
            for i in range(DECK_SIZE):
                order[i] = self.d.stacked[i]
            self.d.stacked_pending = False
        else:
            for i in range(DECK_SIZE):
                order[i] = self.d.deck[i]
            shuffle_u8(&self.rng, order, DECK_SIZE)
        # KZ-2.3: the turn-up (deck position 0) names the wild rank.
        self.d.turn_up = order[0]
        self.d.wild = KZ_NO_WILD if order[0] == JOKER else card_rank(order[0])
        for p in range(MAX_PLAYERS):
            ms_clear(&self.d.hand[p])
        ms_clear(&self.d.dead)
        self.d.first = (self.d.dealer + 1) % n                       # KZ-2.2
        make_deal_plan(n, self.d.first, &plan)                       # KZ-2.3..2.7
        for pile in range(NUM_STOCKS):
            self.d.stock[pile].size = plan.stock_size[pile]
            self.d.discard[pile].size = 0
        for i in range(DECK_SIZE):
            card = order[i]
            if plan.zone[i] == Z_HAND:
                ms_add(&self.d.hand[plan.which[i]], card)
            elif plan.zone[i] == Z_DISCARD:
                pile_push(&self.d.discard[plan.which[i]], card)
            elif plan.zone[i] == Z_STOCK:                            # cards[] is bottom -> top
                stock = &self.d.stock[plan.which[i]]
                stock.cards[stock.size - 1 - plan.depth[i]] = card
            else:
                ms_add(&self.d.dead, card)
        if n == FOUR_PLAYER_PILES:                                   # KZ-2.6
            self.d.piles_in_play = 2
            for i in range(n):
                p = (self.d.first + i) % n
                if self.d.opt.adjacent_piles:
                    self.d.pile_of[p] = 0 if i < 2 else 1
                else:
                    self.d.pile_of[p] = i % 2
        else:
            self.d.piles_in_play = 1
            for p in range(n):
                self.d.pile_of[p] = 0
        for p in range(n):                                           # KZ-7.6
            self.d.chips[p] -= self.d.opt.ante
            self.d.pot += self.d.opt.ante
        self.d.turns_in_deal = 0
        self.d.god_public = -1
        self.begin_turn(self.d.first)

    # ------------------------------------------------------------ turn flow
    cdef void begin_turn(self, int p) noexcept:
        """KZ-3.4: refill an empty stock from its discard pile; a player who can draw nothing
        ends the deal void."""
        cdef int pile = self.d.pile_of[p]
        cdef Pile* stock = &self.d.stock[pile]
        cdef Pile* discard = &self.d.discard[pile]
        cdef int keep, i
        self.d.to_move = p
        self.d.phase = PH_DRAW
        if stock.size == 0 and discard.size > 1:
            keep = pile_pop(discard)
            # Turning the face-up pile over: its top card (the last one pushed) becomes the
            # bottom of the stock, so the old bottom card is the new top.
            i = discard.size - 1
            while i >= 0:
                pile_push(stock, discard.cards[i])
                i -= 1
            discard.size = 0
            if self.d.opt.reshuffle:
                shuffle_u8(&self.rng, stock.cards, stock.size)
            pile_push(discard, keep)
        if not self.can_draw(p):
            self.end_deal(END_NO_DRAW, -1, -1, -1)

    cdef bint can_draw(self, int p) noexcept:
        cdef int pile = self.d.pile_of[p]
        if self.d.stock[pile].size > 0 or self.d.discard[pile].size > 0:
            return True
        return self.d.hand[p].count[JOKER] > 0 and self.stocks_in_play() > 0

    cdef int stocks_in_play(self) noexcept:
        cdef int pile, n = 0
        for pile in range(self.d.piles_in_play):
            n += self.d.stock[pile].size
        return n

    cdef void end_turn(self, int p) noexcept:
        self.turns += 1
        self.d.turns_in_deal += 1
        if self.d.turns_in_deal >= self.d.opt.max_turns:                 # KZ-3.5
            self.end_deal(END_MAX_TURNS, -1, -1, -1)
            return
        self.begin_turn((p + 1) % self.d.players)                    # KZ-2.2

    # ------------------------------------------------------------ legality (one function per phase)
    cdef int legal_draw(self, int* out) noexcept:
        cdef int p = self.d.to_move, pile = self.d.pile_of[p], n = 0
        if self.d.stock[pile].size > 0:                              # KZ-3.1
            out[n] = A_DRAW_STOCK
            n += 1
        if self.d.discard[pile].size > 0:
            out[n] = A_DRAW_DISCARD
            n += 1
        if self.d.hand[p].count[JOKER] > 0 and self.stocks_in_play() > 0:   # KZ-6.2
            out[n] = A_GOD_LOOK
            n += 1
        return n

    cdef uint64_t stock_cards(self) noexcept:
        """The distinct cards in the stock piles in play (KZ-6.2)."""
        cdef uint64_t m = 0
        cdef int pile, i
        for pile in range(self.d.piles_in_play):
            for i in range(self.d.stock[pile].size):
                m |= card_bit(self.d.stock[pile].cards[i])
        return m

    cdef int legal_god_draw(self, int* out) noexcept:
        cdef uint64_t m = self.stock_cards() & ~card_bit(JOKER)
        cdef int n = 0
        while m:
            out[n] = FIRST_GOD_DRAW + lowest_card(m)
            m &= m - 1
            n += 1
        return n

    cdef int legal_discard(self, int* out) noexcept:
        cdef int p = self.d.to_move, n = 0
        cdef Multiset* hand = &self.d.hand[p]
        cdef uint64_t m = hand.plane[0]
        cdef bint god = hand.count[JOKER] > 0
        while m:                                                     # KZ-3.2, KZ-6.4
            out[n] = FIRST_DISCARD + lowest_card(m)
            m &= m - 1
            n += 1
        # KZ-6.3: only when there is a pile to end (otherwise it is a plain discard).
        if god and self.d.discard[self.d.pile_of[p]].size > 0:
            m = hand.plane[0] & ~card_bit(JOKER)
            while m:
                out[n] = FIRST_GOD_DISCARD + lowest_card(m)
                m &= m - 1
                n += 1
        return n

    cdef int legal_declare(self, int* out) noexcept:
        """KZ-3.3, KZ-7.1: end the turn; with two sets also go out (best or named sets)."""
        cdef Multiset* hand = &self.d.hand[self.d.to_move]
        cdef int w = self.d.wild, n = 1, k = 0, i, j, r, d1, d2
        cdef int cand[KZ_NUM_DESCRIPTORS]
        out[0] = A_END_TURN
        if kz_best_two(hand, w, &d1, &d2) == 0:
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
                if PAIR_ID[cand[i]][cand[j]] >= 0 and kz_declaration_value(hand, w, cand[i], cand[j]) >= 0:
                    out[n] = PAIR_ID[cand[i]][cand[j]]
                    n += 1
        return n

    cdef int legal_into(self, int* out) noexcept:
        if self.d.phase == PH_DRAW:
            return self.legal_draw(out)
        if self.d.phase == PH_GOD_DRAW:
            return self.legal_god_draw(out)
        if self.d.phase == PH_DISCARD:
            return self.legal_discard(out)
        if self.d.phase == PH_DECLARE:
            return self.legal_declare(out)
        return 0

    cdef bint over(self) noexcept:
        return self.d.phase == PH_OVER

    cdef int to_move(self) noexcept:
        return -1 if self.d.phase == PH_OVER else self.d.to_move

    # ------------------------------------------------------------ applying
    cdef void apply_fast(self, int action) noexcept:
        cdef int p = self.d.to_move, pile = self.d.pile_of[p], card
        cdef int d1, d2
        cdef Multiset* hand = &self.d.hand[p]
        if action == A_DRAW_STOCK:                                   # KZ-3.1
            ms_add(hand, pile_pop(&self.d.stock[pile]))
            self.d.phase = PH_DISCARD
        elif action == A_DRAW_DISCARD:
            card = pile_pop(&self.d.discard[pile])
            ms_add(hand, card)
            if card == JOKER:                                        # taken face up: known
                self.d.god_public = p
            self.d.phase = PH_DISCARD
        elif action == A_GOD_LOOK:                                   # KZ-6.2
            self.d.god_public = p
            self.d.phase = PH_GOD_DRAW
        elif action < FIRST_DISCARD:
            self.god_take(p, action - FIRST_GOD_DRAW)
            self.d.phase = PH_DISCARD
        elif action < FIRST_GOD_DISCARD:
            card = action - FIRST_DISCARD
            ms_remove(hand, card)
            if card == JOKER:                                        # KZ-6.4
                self.kill_discard_pile(pile)
                ms_add(&self.d.dead, JOKER)
                self.d.god_public = -1
            else:                                                    # KZ-3.2
                pile_push(&self.d.discard[pile], card)
            self.after_discard(p)
        elif action < A_END_TURN:                                    # KZ-6.3
            card = action - FIRST_GOD_DISCARD
            ms_remove(hand, card)
            self.kill_discard_pile(pile)
            pile_push(&self.d.discard[pile], card)
            self.d.god_public = p
            self.after_discard(p)
        elif action == A_END_TURN:
            self.end_turn(p)
        elif action == A_GO_OUT:                                     # KZ-7.1
            kz_best_two(hand, self.d.wild, &d1, &d2)
            self.go_out(p, d1, d2)
        else:
            self.go_out(p, NAMED_D1[action - FIRST_NAMED], NAMED_D2[action - FIRST_NAMED])

    cdef void god_take(self, int p, int card) noexcept:
        """KZ-6.2 Decision: the card comes from the player's own stock pile if it is there,
        else from the other pile in play; the copy nearest the top of that pile."""
        cdef int pile = self.d.pile_of[p], k, i
        cdef Pile* stock
        for k in range(self.d.piles_in_play):
            stock = &self.d.stock[(pile + k) % self.d.piles_in_play]
            i = stock.size - 1
            while i >= 0:
                if stock.cards[i] == card:
                    while i < stock.size - 1:
                        stock.cards[i] = stock.cards[i + 1]
                        i += 1
                    stock.size -= 1
                    ms_add(&self.d.hand[p], card)
                    return
                i -= 1

    cdef void kill_discard_pile(self, int pile) noexcept:
        """KZ-6.3, KZ-6.4: the discard pile leaves play (dead for the rest of the deal, KZ-6.6)."""
        cdef Pile* discard = &self.d.discard[pile]
        while discard.size > 0:
            ms_add(&self.d.dead, pile_pop(discard))

    cdef void after_discard(self, int p) noexcept:
        """KZ-3.3: every turn ends with the declare step, whether or not the hand holds two
        sets, so that the public phase and history say nothing about the hand (KZ-8)."""
        self.d.phase = PH_DECLARE

    cdef void go_out(self, int p, int d1, int d2) noexcept:
        self.turns += 1
        self.end_deal(END_OUT, p, d1, d2)

    cdef void end_deal(self, int how, int winner, int d1, int d2) noexcept:
        """KZ-7.2..7.6 scoring of a deal someone went out of; a void deal scores nothing and
        its pot carries over. Then the next deal, or the end of the match (KZ-7.5)."""
        cdef int p, q, c, k
        cdef int64_t points = 0, total
        cdef Multiset* hand
        self.d.last_end = how
        self.d.last_winner = winner
        self.d.last_wild = self.d.wild
        self.d.round_index += 1
        if how == END_OUT:
            hand = &self.d.hand[winner]
            self.d.last_d1 = d1
            self.d.last_d2 = d2
            self.d.last_v1 = kz_descriptor_value(hand, self.d.wild, d1)
            self.d.last_v2 = kz_descriptor_value(hand, self.d.wild, d2)
            # The pair's value, suits chosen together (equal to v1 + v2 for a legal pair).
            total = kz_declaration_value(hand, self.d.wild, d1, d2)
            for q in range(self.d.players):                          # KZ-7.2
                if q == winner:
                    continue
                for c in range(NUM_KINDS):
                    points += <int64_t>card_points(c) * self.d.hand[q].count[c]
            self.d.last_turn_up_doubled = self.d.wild == KZ_NO_WILD
            if self.d.last_turn_up_doubled:
                points *= GOD_DOUBLING
            self.d.last_hand_points = points
            total += points
            self.d.last_god_doubled = hand.count[JOKER] > 0
            if self.d.last_god_doubled:                              # KZ-7.3
                total *= GOD_DOUBLING
                for q in range(self.d.players):                      # KZ-7.6: the pot doubles
                    if q != winner:
                        self.d.chips[q] -= self.d.opt.ante
                        self.d.pot += self.d.opt.ante
            self.d.last_total = total
            self.d.score[winner] += total                            # KZ-7.4
            self.d.chips[winner] += self.d.pot
            self.d.last_pot = self.d.pot
            self.d.pot = 0
            k = 0
            for c in range(NUM_KINDS):
                for q in range(hand.count[c]):
                    if k < 8:
                        self.d.last_hand[k] = c
                        k += 1
            self.d.last_hand_size = k
            self.d.deals_scored += 1
            if self.match_finished():
                self.d.phase = PH_OVER
                self.d.to_move = -1
                return
        else:
            self.d.last_d1 = -1
            self.d.last_d2 = -1
            self.d.last_total = 0
            self.d.last_hand_points = 0
            self.d.last_pot = 0
            self.d.last_hand_size = 0
        self.d.dealer = (self.d.dealer + 1) % self.d.players         # KZ-2.1
        self.deal()

    cdef bint match_finished(self) noexcept:
        """KZ-7.5: after N scored deals with `deals`, else once someone reaches the target."""
        cdef int p
        if self.d.opt.deals > 0:
            return self.d.deals_scored >= self.d.opt.deals
        for p in range(self.d.players):
            if self.d.score[p] >= self.d.opt.target:
                return True
        return False

    # ------------------------------------------------------------ Python-visible state
    def explain_illegal(self, action) -> tuple:
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            return (f"action id {action!r} is outside 0..{NUM_ACTIONS - 1}", None)
        from cardcore.cards import card_str
        cdef int a = action, p = self.d.to_move, ph = self.d.phase
        if ph == PH_OVER:
            return ("the match is over", "KZ-7.5")
        cdef int pile = self.d.pile_of[p]
        cdef bint god = self.d.hand[p].count[JOKER] > 0
        if ph == PH_DRAW:
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
            return ("your hand does not hold two sets", "KZ-7.1")
        if a >= FIRST_NAMED:
            return ("your hand cannot show those two sets", "KZ-7.1")
        return ("you have discarded: go out (go_out) or end the turn (end_turn)", "KZ-3.3")

    @property
    def phase(self) -> int:
        return self.d.phase

    @property
    def round_index(self) -> int:
        return self.d.round_index

    @property
    def deals_scored(self) -> int:
        return self.d.deals_scored

    def _check_seat(self, p):
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < self.d.players:
            raise ValueError(f"seat {p!r} out of range")

    def hand(self, p) -> list:
        self._check_seat(p)
        cdef int q = p
        return ms_to_list(&self.d.hand[q])

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(self.d.players)]

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

    def pile_of(self, p) -> int:
        self._check_seat(p)
        cdef int q = p
        return self.d.pile_of[q]

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
    def dealer(self) -> int:
        return self.d.dealer

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
        return [self.d.chips[p] for p in range(self.d.players)]

    def best_sets(self, p) -> tuple:
        """(total, d1, d2) of the best two sets in seat p's hand now (0, -1, -1 if none)."""
        self._check_seat(p)
        cdef int d1, d2, q = p
        cdef int v = kz_best_two(&self.d.hand[q], self.d.wild, &d1, &d2)
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

    def scores(self) -> list:
        return [self.d.score[p] for p in range(self.d.players)]

    def winners(self) -> list:
        """KZ-7.5: the highest score wins; ties share."""
        if self.d.phase != PH_OVER:
            return []
        cdef list s = self.scores()
        best = max(s)
        return [p for p in range(self.d.players) if s[p] == best]

    def all_cards(self) -> list:
        cards = []
        for p in range(self.d.players):
            cards += self.hand(p)
        for k in range(NUM_STOCKS):
            cards += pile_to_list(&self.d.stock[k])
            cards += pile_to_list(&self.d.discard[k])
        return cards + self.dead()

    def clone(self) -> KuzanastaState:
        cdef KuzanastaState other = KuzanastaState.__new__(KuzanastaState)
        other.d = self.d
        other.rng = self.rng
        other.num_players = self.num_players
        other.actions_applied = self.actions_applied
        other.turns = self.turns
        return other


def kuzanasta_deck() -> list:
    """KZ-1.1: deck A (52 cards), deck B without J, Q, K (40 cards), one joker."""
    return build_deck([range(13), range(R_JACK)], 1)


def card_points_of(int card) -> int:
    """KZ-1.4 card points."""
    if not 0 <= card < NUM_KINDS:
        raise ValueError(f"card id out of range: {card}")
    return card_points(card)
