# cython: language_level=3, cdivision=True
"""Durak state machine (rules: games/durak.md, rule IDs DU-x.y): podkidnoy durak for 2-6
players, with the transfer (perevodnoy), first-bout and partners variants as options.

Action space (the same 158 ids for every configuration; pinned by tests/games/durak/):
    0..51     attack with the card of that id: lead a bout, or throw in     DU-4.1, DU-5
    52..103   beat the first uncovered attacking card with card id - 52      DU-4.2, DU-4.3
    104..155  transfer the attack with card id - 104 (transfer=True)        DU-9.1
    156       take the table                                                 DU-6.1
    157       pass: throw in nothing more                                    DU-5.3
Card ids are cardcore's (``suit * 13 + rank``); only the 36 cards 6..A are ever in play.

The bout is played one card at a time: after every attacking card the defender answers it
(beat, transfer or take) before anyone throws in again; the throwers are asked in a fixed
order (DU-5.2), each throwing in or passing.
"""
from libc.stdint cimport uint8_t, int32_t, uint32_t, uint64_t
from libc.string cimport memset

from cardcore._fast cimport (
    copy_breakdown,
    GameState, GameHooks, Header, Rng, Multiset, Pile, ZoneSpec, BreakdownRow, ZONE_SHARED,
    ZONE_SEAT, SEEN_BY_ALL, SEEN_BY_OWNER, SEEN_BY_NONE, NUM_KINDS, PILE_CAPACITY,
    MS_MAX_COPIES, MAX_BREAKDOWN_ROWS, R_ACE,
    card_rank, card_suit, card_bit, ms_clear, ms_add, ms_remove, ms_to_array, ms_to_list,
    pile_push, pile_pop, pile_copy, pile_to_list, lowest_card, rng_below, shuffle_u8,
    check_hooks, init_header, deal_prologue, load_cards, best_by_value,
)
from cardcore._fast import build_deck, check_state_class

# ---------------------------------------------------------------- rule constants
cdef enum:
    MIN_PLAYERS = 2               # DU-1.2
    MAX_PLAYERS = 6               # DU-1.2
    DECK_SIZE = 36                # DU-1.1: 6..A of each suit
    LOWEST_RANK = 5               # DU-1.1: the six (rank index 5); the ace (0) ranks highest
    NUM_POWERS = 9                # DU-1.3: 6 7 8 9 10 J Q K A
    HAND_SIZE = 6                 # DU-2.2, DU-7.1: deal and refill up to six
    BOUT_LIMIT = 6                # DU-4.5: at most six attacking cards in a bout
    FIRST_BOUT_LIMIT = 5          # DU-4.6: first_bout_five=True
    MAX_TABLE = 6                 # attacking cards on the table at once
    MAX_BOUTS = 200               # DU-8.4: a match that reaches this many bouts is drawn
    NUM_SUITS = 4

# ---------------------------------------------------------------- action table
cdef enum:
    A_ATTACK = 0
    A_BEAT = 52
    A_TRANSFER = 104
    A_TAKE = 156
    A_PASS = 157
    NUM_ACTIONS = 158
    MAX_LEGAL = 64                # a hand's cards (<= 36) plus take or pass

# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
ATTACK_FIRST = A_ATTACK
BEAT_FIRST = A_BEAT
TRANSFER_FIRST = A_TRANSFER
TAKE = A_TAKE
PASS = A_PASS


cdef inline int power(int card) noexcept nogil:
    """DU-1.3: 0 for a six up to 8 for an ace."""
    cdef int r = card_rank(card)
    return NUM_POWERS - 1 if r == R_ACE else r - LOWEST_RANK


cdef inline int index36(int card) noexcept nogil:
    """The card's slot in the 36-card pieces of the observation: suit * 9 + power."""
    return card_suit(card) * NUM_POWERS + power(card)


def durak_deck() -> list:
    """DU-1.1: the 36 cards 6..A of each suit (card ids, id order)."""
    return build_deck([[R_ACE] + list(range(LOWEST_RANK, 13))], 0)


_DECK = tuple(durak_deck())


def action_table() -> list:
    """One tuple per id: (kind, card id or None)."""
    table = [("attack", c) for c in range(52)] + [("beat", c) for c in range(52)]
    table += [("transfer", c) for c in range(52)] + [("take", None), ("pass", None)]
    assert len(table) == NUM_ACTIONS
    return table


def num_actions() -> int:
    return NUM_ACTIONS


def card_power(int card) -> int:
    """DU-1.3: a card's place in its suit, 0 (six) to 8 (ace)."""
    return power(card)


# ---------------------------------------------------------------- the state
cdef enum:
    PH_ATTACK = 0        # DU-4.1: the attacker leads the bout's first card
    PH_DEFEND = 1        # DU-4.2: beat, transfer or take
    PH_THROW = 2         # DU-5: every attacking card is beaten; the throwers may add more
    PH_TAKE_THROW = 3    # DU-6.2: the defender takes; the throwers may add more first
    PH_OVER = 4

PHASES = ("attack", "defend", "throw_in", "take_throw_in", "over")

cdef enum:                      # how the last bout ended (for the events)
    END_NONE = 0
    END_BEATEN = 1              # DU-6.3
    END_TAKEN = 2               # DU-6.2

ctypedef struct DUOptions:              # the resolved options (defaults: the wrapper's options_spec)
    int32_t dealer                     # DU-2.1: a seat, or -1 to draw by lot
    bint lowest_trump                  # DU-3.1 (True) or DU-3.2 (first_attacker="random")
    bint transfer                      # DU-9
    bint first_five                    # DU-4.6
    bint partners                      # DU-10

ctypedef struct DUState:
    Header h                           # players, phase, to_move, round_index, dealer, rng
    DUOptions opt
    uint8_t deck[DECK_SIZE]            # the composition, id order (DU-1.1)
    Multiset hand[MAX_PLAYERS]
    Pile stock                         # bottom -> top; the bottom card is the trump card
    Pile discard                       # beaten bouts, face down (DU-6.3)
    int32_t attack[MAX_TABLE]          # the bout's attacking cards, in play order
    int32_t cover[MAX_TABLE]           # the card beating each, -1 while uncovered
    int32_t n_attack
    int32_t trump_suit, trump_card     # DU-2.3
    int32_t attacker, defender         # DU-4.1: the principal attacker and the defender
    int32_t thrower                    # DU-5.2: the step (0 = the attacker) of the thrower asked
    bint taking                        # DU-6.1: the defender has said "take"
    int32_t bouts                      # bouts finished
    uint64_t known[MAX_PLAYERS]        # cards every seat knows a hand holds (DU-11.2)
    uint32_t out                       # seats out of the game (DU-8.1), a bit each
    int32_t shown_trump                # DU-3.1: the lowest trump shown, -1 if none
    int32_t loser                      # DU-8.2: the durak's seat, -1 for none (a draw)
    # What the last action did, for the events: the bout it ended, the draws, who went out
    int32_t bout_end, bout_defender, bout_n
    uint8_t bout_cards[2 * MAX_TABLE]
    int32_t n_drawn
    uint8_t drawn[DECK_SIZE]
    uint8_t drawn_seat[DECK_SIZE]
    uint32_t went_out
    # Scoring (DU-8): one row per seat, written once at the end
    int32_t n_rows
    BreakdownRow rows[MAX_PLAYERS]
    int32_t penalty[MAX_PLAYERS]       # 1 for the durak (and its side with partners), else 0

if <int>DECK_SIZE > <int>PILE_CAPACITY or 1 > <int>MS_MAX_COPIES or (
        <int>MAX_PLAYERS > <int>MAX_BREAKDOWN_ROWS):
    raise ImportError("Durak needs a larger Pile, Multiset or breakdown than the core provides")


# ---------------------------------------------------------------- the zones: who sees what
cdef enum:                  # the zones, in ZONES order
    Z_HAND = 0             # each seat's hand: its own (DU-11.1)
    Z_STOCK = 1            # face down, but its bottom card is the trump card, face up (DU-2.3)
    Z_TABLE = 2            # the bout's cards, face up (DU-4)
    Z_DISCARD = 3          # beaten bouts: face down, but every card was seen on the table
    NUM_ZONES = 4

cdef ZoneSpec ZONES[NUM_ZONES]
ZONES[Z_HAND] = ZoneSpec(b"hand", ZONE_SEAT, 0, SEEN_BY_OWNER)
ZONES[Z_STOCK] = ZoneSpec(b"stock", ZONE_SHARED, 0, SEEN_BY_NONE)
ZONES[Z_TABLE] = ZoneSpec(b"table", ZONE_SHARED, 0, SEEN_BY_ALL)
ZONES[Z_DISCARD] = ZoneSpec(b"discard", ZONE_SHARED, 0, SEEN_BY_ALL)


cdef int table_cards(const DUState* s, uint8_t* out) noexcept nogil:
    """The table in play order: each attacking card, then the card beating it."""
    cdef int i, n = 0
    for i in range(s.n_attack):
        out[n] = <uint8_t>s.attack[i]
        n += 1
        if s.cover[i] >= 0:
            out[n] = <uint8_t>s.cover[i]
            n += 1
    return n


cdef int du_zone_cards(const void* state, int zone, int instance, uint8_t* out) noexcept nogil:
    cdef const DUState* s = <const DUState*>state
    if zone == Z_HAND:
        return ms_to_array(&s.hand[instance], out)
    if zone == Z_STOCK:
        return pile_copy(&s.stock, out)
    if zone == Z_TABLE:
        return table_cards(s, out)
    return pile_copy(&s.discard, out)


cdef int du_known_cards(const void* state, int zone, int instance, uint8_t* out) noexcept nogil:
    """Cards of a hidden zone every seat knows: the trump card at the stock's bottom (DU-2.3)
    and, in a hand, the cards it took from the table, the trump card it drew and the lowest
    trump it showed (DU-11.2)."""
    cdef const DUState* s = <const DUState*>state
    cdef uint64_t m
    cdef int n = 0
    if zone == Z_STOCK:
        if s.stock.size > 0:
            out[0] = s.stock.cards[0]
            return 1
        return 0
    if zone == Z_HAND:
        m = s.known[instance]
        while m:
            out[n] = <uint8_t>lowest_card(m)
            m &= m - 1
            n += 1
    return n


# ---------------------------------------------------------------- seats
cdef inline bint opponents(const DUState* s, int a, int b) noexcept nogil:
    """DU-10.1: partners sit alternately (sides 0 1 0 1...); without partners, any two seats."""
    if s.opt.partners:
        return (a & 1) != (b & 1)
    return a != b


cdef int next_holder(const DUState* s, int after, int versus) noexcept nogil:
    """The first seat after ``after`` holding cards and an opponent of ``versus`` (-1: any);
    -1 if none."""
    cdef int k, q, n = s.h.players
    for k in range(1, n + 1):
        q = (after + k) % n
        if s.hand[q].total > 0 and (versus < 0 or opponents(s, q, versus)):
            return q
    return -1


# ---------------------------------------------------------------- the deal (DU-2)
cdef inline int deal_seat(int players, int dealer, int position) noexcept nogil:
    """DU-2.2: one card at a time from the dealer's left; -1 past the hands (the stock)."""
    if position < players * HAND_SIZE:
        return (dealer + 1 + position) % players
    return -1


def deal_plan(int players, int dealer) -> list:
    """The zone of each deck position (top first): "hand:<seat>", "stock", and "trump" for
    the last card, turned face up (DU-2.3): at the stock's bottom, or with 6 players the
    dealer's last card. The deal below walks the same function."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS or not 0 <= dealer < players:
        raise ValueError("players must be 2..6 and dealer a seat")
    plan = [f"hand:{deal_seat(players, dealer, i)}" if deal_seat(players, dealer, i) >= 0
            else "stock" for i in range(DECK_SIZE)]
    plan[DECK_SIZE - 1] = "trump"
    return plan


cdef void du_deal(DUState* s) noexcept nogil:
    cdef uint8_t order[DECK_SIZE]
    cdef int i, p, n = s.h.players
    deal_prologue(&s.h, s.deck, DECK_SIZE, order)
    s.stock.size = 0
    s.discard.size = 0
    for p in range(n):
        ms_clear(&s.hand[p])
        s.known[p] = 0
    i = DECK_SIZE - 1
    while i >= 0:                          # bottom first: order[0] ends on top
        p = deal_seat(n, s.h.dealer, i)
        if p < 0:
            pile_push(&s.stock, order[i])
        else:
            ms_add(&s.hand[p], order[i])
        i -= 1
    s.trump_card = order[DECK_SIZE - 1]   # DU-2.3
    s.trump_suit = card_suit(s.trump_card)
    if n * HAND_SIZE == DECK_SIZE:        # DU-2.3: with 6 players the dealer's last card
        s.known[s.h.dealer] |= card_bit(s.trump_card)
    s.n_attack = 0
    s.out = 0
    s.loser = -1
    s.bouts = 0
    s.shown_trump = -1


cdef inline bint beats(const DUState* s, int card, int target) noexcept nogil:
    """DU-4.3: a higher card of the same suit, or any trump against a non-trump."""
    if card_suit(card) == card_suit(target):
        return power(card) > power(target)
    return card_suit(card) == s.trump_suit


cdef void start_bout(DUState* s, int attacker) noexcept nogil:
    s.attacker = attacker
    s.defender = next_holder(s, attacker, attacker)
    s.n_attack = 0
    s.taking = False
    s.thrower = 0
    s.h.phase = PH_ATTACK
    s.h.to_move = attacker


cdef void du_start(void* state) noexcept nogil:
    """DU-2.1 the dealer, the deal, DU-3 the first attacker."""
    cdef DUState* s = <DUState*>state
    cdef int p, c, best = -1, who = -1
    cdef uint64_t m
    s.h.dealer = s.opt.dealer if s.opt.dealer >= 0 else <int>rng_below(&s.h.rng, s.h.players)
    du_deal(s)
    if s.opt.lowest_trump:                 # DU-3.1: the lowest trump in a hand leads
        for p in range(s.h.players):
            m = s.hand[p].plane[0]
            while m:
                c = lowest_card(m)
                m &= m - 1
                if card_suit(c) == s.trump_suit and (best < 0 or power(c) < power(best)):
                    best = c
                    who = p
        if who >= 0:
            s.shown_trump = best
            s.known[who] |= card_bit(best)
        else:                              # DU-3.1 Decision: nobody holds a trump
            who = (s.h.dealer + 1) % s.h.players
    else:                                  # DU-3.2: by lot
        who = <int>rng_below(&s.h.rng, s.h.players)
    start_bout(s, who)


# ---------------------------------------------------------------- legality
cdef inline int bout_limit(const DUState* s) noexcept nogil:
    """DU-4.5 / DU-4.6: the most attacking cards of this bout."""
    return FIRST_BOUT_LIMIT if s.opt.first_five and s.bouts == 0 else BOUT_LIMIT


cdef inline int uncovered(const DUState* s) noexcept nogil:
    cdef int i, n = 0
    for i in range(s.n_attack):
        n += s.cover[i] < 0
    return n


cdef inline bint room_to_attack(const DUState* s) noexcept nogil:
    """DU-4.4, DU-4.5: one more attacking card fits the bout and the defender's hand."""
    return s.n_attack < bout_limit(s) and uncovered(s) < s.hand[s.defender].total


cdef uint64_t table_ranks(const DUState* s) noexcept nogil:
    """DU-5.1: the cards whose rank is on the table, as a mask."""
    cdef uint64_t m = 0
    cdef int i
    for i in range(s.n_attack):
        m |= (<uint64_t>0x8004002001) << card_rank(s.attack[i])
        if s.cover[i] >= 0:
            m |= (<uint64_t>0x8004002001) << card_rank(s.cover[i])
    return m


cdef inline bint may_throw(const DUState* s, int seat) noexcept nogil:
    """DU-5.2: the defender, a partner of the defender (DU-10.2) and empty hands never throw in."""
    return (seat != s.defender and s.hand[seat].total > 0 and opponents(s, seat, s.defender))


cdef int transfer_target(const DUState* s) noexcept nogil:
    """DU-9.1: the seat a transfer would pass the attack to, or -1 if none may take it."""
    cdef int i, target
    if not s.opt.transfer or s.taking or s.n_attack >= bout_limit(s):
        return -1
    for i in range(s.n_attack):
        if s.cover[i] >= 0:
            return -1
    target = next_holder(s, s.defender, s.defender)
    if target < 0 or s.hand[target].total < s.n_attack + 1:    # DU-9.2
        return -1
    return target


cdef int du_legal(void* state, int32_t* out, int capacity) noexcept nogil:
    cdef DUState* s = <DUState*>state
    cdef int n = 0, c, first = -1, i, p = s.h.to_move
    cdef uint64_t m
    if capacity < MAX_LEGAL:
        return -1
    if s.h.phase == PH_OVER or p < 0:
        return 0
    m = s.hand[p].plane[0]
    if s.h.phase == PH_ATTACK:                                 # DU-4.1: any card
        while m:
            out[n] = A_ATTACK + lowest_card(m)
            m &= m - 1
            n += 1
        return n
    if s.h.phase == PH_DEFEND:
        for i in range(s.n_attack):
            if s.cover[i] < 0:
                first = s.attack[i]
                break
        while m:                                               # DU-4.2, DU-4.3
            c = lowest_card(m)
            m &= m - 1
            if beats(s, c, first):
                out[n] = A_BEAT + c
                n += 1
        if transfer_target(s) >= 0:                            # DU-9.1
            m = s.hand[p].plane[0] & ((<uint64_t>0x8004002001) << card_rank(first))
            while m:
                out[n] = A_TRANSFER + lowest_card(m)
                m &= m - 1
                n += 1
        out[n] = A_TAKE                                        # DU-6.1
        return n + 1
    # PH_THROW / PH_TAKE_THROW: DU-5.1 ranks on the table, DU-4.4/4.5 room
    if room_to_attack(s):
        m &= table_ranks(s)
        while m:
            out[n] = A_ATTACK + lowest_card(m)
            m &= m - 1
            n += 1
    out[n] = A_PASS                                            # DU-5.3
    return n + 1


# ---------------------------------------------------------------- applying
cdef inline void from_hand(DUState* s, int p, int card) noexcept nogil:
    ms_remove(&s.hand[p], card)
    s.known[p] &= ~card_bit(card)


cdef void draw_to(DUState* s, int p) noexcept nogil:
    """DU-7.1: draw up to six while the stock lasts; the trump card, drawn last, is public."""
    cdef int c
    while s.hand[p].total < HAND_SIZE and s.stock.size > 0:
        c = pile_pop(&s.stock)
        ms_add(&s.hand[p], c)
        if s.stock.size == 0:                  # DU-7.3: the face-up trump card
            s.known[p] |= card_bit(c)
        s.drawn[s.n_drawn] = <uint8_t>c
        s.drawn_seat[s.n_drawn] = <uint8_t>p
        s.n_drawn += 1


cdef void refill(DUState* s) noexcept nogil:
    """DU-7.2: the attacker first, then the others in throw-in order, the defender last."""
    cdef int k, q, n = s.h.players
    for k in range(n):
        q = (s.attacker + k) % n
        if q != s.defender:
            draw_to(s, q)
    draw_to(s, s.defender)


# The scoring rows (DU-8): indexes into BREAKDOWN_WHAT and BREAKDOWN_RULES.
cdef enum:
    W_SAFE = 0
    W_DURAK = 1
    R_DU_8_2 = 0
    R_DU_8_3 = 1
    R_DU_10_3 = 2

BREAKDOWN_WHAT = ("out of cards in time", "durak")
BREAKDOWN_RULES = ("DU-8.2", "DU-8.3", "DU-10.3")


cdef void finish(DUState* s) noexcept nogil:
    """DU-8: the match is over; the scoring rows (one per seat) and the end."""
    cdef int p
    s.n_rows = 0
    for p in range(s.h.players):
        if s.loser < 0:
            s.penalty[p] = 0
        elif s.opt.partners:
            s.penalty[p] = 0 if opponents(s, p, s.loser) else 1
        else:
            s.penalty[p] = 1 if p == s.loser else 0
        s.rows[p].owner = p
        s.rows[p].what = W_DURAK if s.penalty[p] else W_SAFE
        s.rows[p].rule = R_DU_8_3 if s.loser < 0 else (R_DU_10_3 if s.opt.partners else R_DU_8_2)
        s.rows[p].detail = -1
        s.rows[p].count = s.hand[p].total
        s.rows[p].points = s.penalty[p]
        s.n_rows += 1
    s.h.round_index += 1
    s.h.phase = PH_OVER
    s.h.to_move = -1


cdef bint check_over(DUState* s) noexcept nogil:
    """DU-8.1-8.4 (DU-10.3 with partners): whether the match ends here; sets the loser."""
    cdef int p, holders = 0, last = -1
    cdef bint side_has[2]
    for p in range(s.h.players):
        if s.hand[p].total == 0 and s.stock.size == 0 and not (s.out >> p) & 1:
            s.out |= 1u << p                                   # DU-8.1
            s.went_out |= 1u << p
    if s.stock.size > 0:
        if s.bouts >= MAX_BOUTS:                               # DU-8.4
            s.loser = -1
            return True
        return False
    side_has[0] = side_has[1] = False
    for p in range(s.h.players):
        if s.hand[p].total > 0:
            holders += 1
            last = p
            side_has[p & 1] = True
    if s.opt.partners:                                         # DU-10.3
        if side_has[0] and side_has[1]:
            if s.bouts >= MAX_BOUTS:
                s.loser = -1
                return True
            return False
        s.loser = last                                         # -1 when both sides are out
        return True
    if holders >= 2:
        if s.bouts >= MAX_BOUTS:
            s.loser = -1
            return True
        return False
    s.loser = last                                             # DU-8.2, DU-8.3
    return True


cdef void end_bout(DUState* s) noexcept nogil:
    """DU-6.2 taken / DU-6.3 beaten; DU-7 refill; DU-4.7 the next bout."""
    cdef int i, next_attacker
    cdef bint took = s.taking
    s.bout_n = table_cards(s, s.bout_cards)
    s.bout_defender = s.defender
    s.bout_end = END_TAKEN if took else END_BEATEN
    for i in range(s.bout_n):
        if took:
            ms_add(&s.hand[s.defender], s.bout_cards[i])
            s.known[s.defender] |= card_bit(s.bout_cards[i])       # DU-11.2
        else:
            pile_push(&s.discard, s.bout_cards[i])
    s.n_attack = 0
    s.bouts += 1
    s.h.turns += 1
    refill(s)
    if check_over(s):
        finish(s)
        return
    # DU-4.7: a beaten defender attacks next; after a take, the player after the defender
    if not took and s.hand[s.defender].total > 0:
        next_attacker = s.defender
    else:
        next_attacker = next_holder(s, s.defender, -1)
    start_bout(s, next_attacker)


cdef void ask_throwers(DUState* s) noexcept nogil:
    """DU-5.2: from the current step on, the first seat that may throw in moves (it throws in
    or passes, even with nothing to throw in: whether it holds a card of the table's ranks
    is its secret); when none is left, or the bout is full, the bout ends (DU-5.3, DU-6.2)."""
    cdef int seat, k, n = s.h.players
    if room_to_attack(s):
        for k in range(s.thrower, n):
            seat = (s.attacker + k) % n
            if may_throw(s, seat):
                s.thrower = k
                s.h.to_move = seat
                s.h.phase = PH_TAKE_THROW if s.taking else PH_THROW
                return
    end_bout(s)


cdef void du_apply(void* state, int action) noexcept nogil:
    cdef DUState* s = <DUState*>state
    cdef int p = s.h.to_move, c, i, old
    s.bout_end = END_NONE
    s.n_drawn = 0
    s.went_out = 0
    if action == A_PASS:                                       # DU-5.3
        s.thrower += 1
        ask_throwers(s)
        return
    if action == A_TAKE:                                       # DU-6.1
        s.taking = True
        s.thrower = 0
        ask_throwers(s)
        return
    if action >= A_TRANSFER:                                   # DU-9.1
        c = action - A_TRANSFER
        from_hand(s, p, c)
        s.attack[s.n_attack] = c
        s.cover[s.n_attack] = -1
        s.n_attack += 1
        old = s.defender
        s.defender = next_holder(s, old, old)      # transfer_target(), checked by legal
        s.attacker = old
        s.thrower = 0
        s.h.phase = PH_DEFEND
        s.h.to_move = s.defender
        return
    if action >= A_BEAT:                                       # DU-4.2
        c = action - A_BEAT
        from_hand(s, p, c)
        for i in range(s.n_attack):
            if s.cover[i] < 0:
                s.cover[i] = c
                break
        if uncovered(s) > 0:
            return                                             # the defender again
        s.thrower = 0                                          # DU-5.2: ask from the attacker
        ask_throwers(s)
        return
    c = action - A_ATTACK                                      # DU-4.1, DU-5.1
    from_hand(s, p, c)
    s.attack[s.n_attack] = c
    s.cover[s.n_attack] = -1
    s.n_attack += 1
    if s.taking:                                               # DU-6.2: no answer; same thrower
        ask_throwers(s)
        return
    s.h.phase = PH_DEFEND
    s.h.to_move = s.defender


# ---------------------------------------------------------------- results (DU-8)

cdef int du_breakdown(const void* state, BreakdownRow* out, int capacity) noexcept nogil:
    cdef const DUState* s = <const DUState*>state
    return copy_breakdown(s.rows, s.n_rows, out, capacity)


cdef void du_returns(const void* state, double* out) noexcept nogil:
    """Higher is better: -1 for the durak (its side with partners), 0 for the others."""
    cdef const DUState* s = <const DUState*>state
    cdef int p
    for p in range(s.h.players):
        out[p] = -<double>s.penalty[p] if s.h.to_move < 0 else 0.0


cdef void du_scores(const void* state, int32_t* out) noexcept nogil:
    cdef const DUState* s = <const DUState*>state
    cdef int p
    for p in range(s.h.players):
        out[p] = s.penalty[p] if s.h.to_move < 0 else 0


# ---------------------------------------------------------------- the per-seat projection
# The observation: what view(seat) shows, as floats. Seats absolute, padded to 6; cards in
# 36 slots (suit * 9 + power, DU-1.3). One source for the layout: these offsets.
cdef enum:
    SEATS = MAX_PLAYERS
    CARDS36 = DECK_SIZE
    O_OBSERVER = 0
    O_TO_MOVE = O_OBSERVER + SEATS
    O_PHASE = O_TO_MOVE + SEATS
    O_HAND = O_PHASE + 5
    O_ATTACK = O_HAND + CARDS36
    O_COVER = O_ATTACK + CARDS36
    O_DISCARD = O_COVER + CARDS36
    O_KNOWN = O_DISCARD + CARDS36
    O_TRUMP_SUIT = O_KNOWN + SEATS * CARDS36
    O_TRUMP_CARD = O_TRUMP_SUIT + NUM_SUITS
    O_HAND_SIZES = O_TRUMP_CARD + CARDS36
    O_STOCK_SIZE = O_HAND_SIZES + SEATS
    O_ATTACKER = O_STOCK_SIZE + 1
    O_DEFENDER = O_ATTACKER + SEATS
    O_OUT = O_DEFENDER + SEATS
    O_BOUTS = O_OUT + SEATS
    O_LIMIT = O_BOUTS + 1
    O_TAKING = O_LIMIT + 1
    O_SCORES = O_TAKING + 1
    OBSERVATION_SIZE = O_SCORES + SEATS

OBSERVATION_PIECES = (
    ("observer", O_OBSERVER, SEATS), ("current_player", O_TO_MOVE, SEATS), ("phase", O_PHASE, 5),
    ("hand", O_HAND, CARDS36), ("attack", O_ATTACK, CARDS36), ("cover", O_COVER, CARDS36),
    ("discard", O_DISCARD, CARDS36), ("known_hands", O_KNOWN, SEATS * CARDS36),
    ("trump_suit", O_TRUMP_SUIT, NUM_SUITS), ("trump_card", O_TRUMP_CARD, CARDS36),
    ("hand_sizes", O_HAND_SIZES, SEATS), ("stock_size", O_STOCK_SIZE, 1),
    ("attacker", O_ATTACKER, SEATS), ("defender", O_DEFENDER, SEATS), ("out", O_OUT, SEATS),
    ("bouts", O_BOUTS, 1), ("bout_limit", O_LIMIT, 1), ("taking", O_TAKING, 1),
    ("scores", O_SCORES, SEATS))


cdef int du_observation_size(const void* state) noexcept nogil:
    return OBSERVATION_SIZE


cdef void du_observe(const void* state, int seat, float* out) noexcept nogil:
    """What ``seat`` sees (DU-11): its hand, the table, the discard, the trump, what every
    seat knows of each hand, the sizes and who attacks and defends."""
    cdef const DUState* s = <const DUState*>state
    cdef int p, i, c
    cdef uint64_t m
    memset(out, 0, OBSERVATION_SIZE * sizeof(float))
    out[O_OBSERVER + seat] = 1.0
    if s.h.to_move >= 0:
        out[O_TO_MOVE + s.h.to_move] = 1.0
    out[O_PHASE + s.h.phase] = 1.0
    m = s.hand[seat].plane[0]
    while m:
        out[O_HAND + index36(lowest_card(m))] = 1.0
        m &= m - 1
    for i in range(s.n_attack):
        out[O_ATTACK + index36(s.attack[i])] = 1.0
        if s.cover[i] >= 0:
            out[O_COVER + index36(s.cover[i])] = 1.0
    for i in range(s.discard.size):
        out[O_DISCARD + index36(s.discard.cards[i])] = 1.0
    for p in range(s.h.players):
        m = s.known[p]
        while m:
            out[O_KNOWN + p * CARDS36 + index36(lowest_card(m))] = 1.0
            m &= m - 1
        out[O_HAND_SIZES + p] = s.hand[p].total
        if (s.out >> p) & 1:
            out[O_OUT + p] = 1.0
        out[O_SCORES + p] = s.penalty[p] if s.h.to_move < 0 else 0
    out[O_TRUMP_SUIT + s.trump_suit] = 1.0
    out[O_TRUMP_CARD + index36(s.trump_card)] = 1.0
    out[O_STOCK_SIZE] = s.stock.size
    if s.h.to_move >= 0:
        out[O_ATTACKER + s.attacker] = 1.0
        out[O_DEFENDER + s.defender] = 1.0
    out[O_BOUTS] = s.bouts
    out[O_LIMIT] = bout_limit(s)
    out[O_TAKING] = 1.0 if s.taking else 0.0


# ---------------------------------------------------------------- determinization
cdef inline int popcount_known(const DUState* s, int p) noexcept nogil:
    cdef uint64_t m = s.known[p] & s.hand[p].plane[0]
    cdef int n = 0
    while m:
        m &= m - 1
        n += 1
    return n


cdef int du_sample_hidden(void* state, int seat, Rng* rng) noexcept nogil:
    """Redeal what ``seat`` cannot see: the other hands' unknown cards and the stock above
    its face-up bottom card, shuffled together and dealt back in their sizes; every card a
    hand is known to hold (DU-11.2) stays. The pool is laid out in id order before the
    shuffle, so the world depends only on what the seat knows and on ``rng``."""
    cdef DUState* s = <DUState*>state
    cdef uint8_t pool[DECK_SIZE]
    cdef int32_t unknown[MAX_PLAYERS]
    cdef uint64_t hidden = 0, m
    cdef int p, k, c, n = 0
    for p in range(s.h.players):
        unknown[p] = 0
        if p != seat:
            hidden |= s.hand[p].plane[0] & ~s.known[p]
            unknown[p] = s.hand[p].total - popcount_known(s, p)
    for k in range(1, s.stock.size):
        hidden |= card_bit(s.stock.cards[k])
    m = hidden
    while m:
        pool[n] = <uint8_t>lowest_card(m)
        m &= m - 1
        n += 1
    shuffle_u8(rng, pool, n)
    n = 0
    for p in range(s.h.players):
        if p == seat:
            continue
        ms_clear(&s.hand[p])
        m = s.known[p]
        while m:
            ms_add(&s.hand[p], lowest_card(m))
            m &= m - 1
        for k in range(unknown[p]):
            ms_add(&s.hand[p], pool[n])
            n += 1
    for k in range(1, s.stock.size):
        s.stock.cards[k] = pool[n]
        n += 1
    return 0


# ---------------------------------------------------------------- GreedyBot's policy
# One move ahead from what the seat to move may know: its own hand, the table, the trump and
# the stock's size. Every legal action gets a value; the highest wins, ties (within 1e-9)
# broken with one draw (best_by_value). These weights are the policy's one source;
# greedy.py's docstring documents them.
cdef double G_TRUMP = 9.0             # DU-4.3: a trump is worth more than any plain card
cdef double G_PAIR = 1.5              # a lead whose rank the hand holds again (DU-5.1)
cdef double G_THROW = 6.5             # throw in a card cheaper than this (DU-5)
cdef double G_TAKE_BASE = 4.0         # DU-6: taking costs ...
cdef double G_TAKE_PER_CARD = 1.5     # ... and more per card on the table
cdef double G_TRANSFER = 3.0          # DU-9: passing the bout on saves a cover
cdef double G_ENDGAME = 3.0           # stock empty: every card shed counts this much more


cdef inline double card_cost(const DUState* s, int card) noexcept nogil:
    """What keeping a card is worth: its power, a trump more."""
    return power(card) + (G_TRUMP if card_suit(card) == s.trump_suit else 0.0)


cdef int du_greedy(const void* state, const int32_t* legal, int n, Rng* rng) noexcept nogil:
    """GreedyBot's move (the index into legal[0:n]): reads the seat's own hand, the table,
    the trump and the stock's size, nothing hidden."""
    cdef const DUState* s = <const DUState*>state
    cdef double values[MAX_LEGAL]
    cdef int32_t ties[MAX_LEGAL]
    cdef int k, a, c, p = s.h.to_move
    cdef bint endgame = s.stock.size == 0
    cdef double shed = G_ENDGAME if endgame else 0.0
    if n == 1:
        return 0
    for k in range(n):
        a = legal[k]
        if a == A_PASS:
            values[k] = 0.0
        elif a == A_TAKE:
            values[k] = -(G_TAKE_BASE + G_TAKE_PER_CARD * (s.n_attack + uncovered(s)))
            if endgame:
                values[k] -= G_TAKE_BASE
        elif a >= A_TRANSFER:
            c = a - A_TRANSFER
            values[k] = G_TRANSFER - card_cost(s, c) + shed
        elif a >= A_BEAT:
            c = a - A_BEAT
            values[k] = -card_cost(s, c) + shed
        else:
            c = a - A_ATTACK
            if s.h.phase == PH_ATTACK:
                values[k] = 20.0 - card_cost(s, c)
                if s.hand[p].plane[0] & ((<uint64_t>0x8004002001) << card_rank(c)) & ~card_bit(c):
                    values[k] += G_PAIR
            else:
                values[k] = G_THROW - card_cost(s, c) + shed
    return best_by_value(values, n, rng, ties)


cdef GameHooks DU_HOOKS
DU_HOOKS.name = "durak"
DU_HOOKS.state_size = sizeof(DUState)
DU_HOOKS.num_actions = NUM_ACTIONS
DU_HOOKS.max_legal = MAX_LEGAL
DU_HOOKS.start = du_start
DU_HOOKS.legal = du_legal
DU_HOOKS.apply = du_apply
DU_HOOKS.observation_size = du_observation_size
DU_HOOKS.observe = du_observe
DU_HOOKS.returns = du_returns
DU_HOOKS.scores = du_scores
DU_HOOKS.sample_hidden = du_sample_hidden
DU_HOOKS.zones = ZONES
DU_HOOKS.num_zones = NUM_ZONES
DU_HOOKS.zone_cards = du_zone_cards
DU_HOOKS.known_cards = du_known_cards
DU_HOOKS.breakdown = du_breakdown
DU_HOOKS.greedy = du_greedy
check_hooks(&DU_HOOKS)


SUIT_LETTERS = "CSDH"                  # cardcore's suit order (card_suit)


# ---------------------------------------------------------------- the Python-visible state
cdef class DurakState(GameState):
    """Durak: the struct above, bound to the framework; getters for the view."""
    cdef DUState d

    match_end_rule = "DU-8"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(DUState))
        self.bind(&DU_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
        init_header(&self.d.h, players, deck, _DECK)
        dealer = options["dealer"]
        self.d.opt.dealer = -1 if dealer is None else dealer
        self.d.opt.lowest_trump = options["first_attacker"] == "lowest_trump"
        self.d.opt.transfer = bool(options["transfer"])
        self.d.opt.first_five = bool(options["first_bout_five"])
        self.d.opt.partners = bool(options["partners"])
        load_cards(self.d.deck, _DECK, DECK_SIZE)
        self.d.h.phase = PH_OVER
        self.d.loser = -1

    def explain_rule(self, int action) -> tuple:
        cdef DUState* s = &self.d
        cdef int p = s.h.to_move, c, i, first = -1
        from cardcore.cards import card_str
        if action == A_PASS:
            if s.h.phase == PH_ATTACK:
                return ("the attacker must lead a card", "DU-4.1")
            return ("only a thrower may pass", "DU-5.3")
        if action == A_TAKE:
            return ("only the defender may take", "DU-6.1")
        c = action % 52 if action < A_TAKE else -1
        if c >= 0 and s.hand[p].count[c] == 0:
            return (f"you do not hold {card_str(c)}", "DU-4.1")
        if action >= A_TRANSFER:
            if s.h.phase != PH_DEFEND:
                return ("only the defender may transfer", "DU-9.1")
            if not s.opt.transfer:
                return ("transfers are off (transfer=False)", "DU-9.1")
            if s.n_attack >= bout_limit(s):
                return (f"the bout already has {s.n_attack} attacking cards", "DU-4.5")
            for i in range(s.n_attack):
                if s.cover[i] >= 0:
                    return ("a transfer comes before any card is beaten", "DU-9.1")
            if card_rank(c) != card_rank(s.attack[0]):
                return (f"{card_str(c)} is not of the attacking rank", "DU-9.1")
            return ("the next player holds too few cards to defend", "DU-9.2")
        if action >= A_BEAT:
            if s.h.phase != PH_DEFEND:
                return ("only the defender beats cards", "DU-4.2")
            for i in range(s.n_attack):
                if s.cover[i] < 0:
                    first = s.attack[i]
                    break
            return (f"{card_str(c)} does not beat {card_str(first)}", "DU-4.3")
        if s.h.phase == PH_DEFEND:
            return ("the defender beats, transfers or takes", "DU-4.2")
        if s.n_attack >= bout_limit(s):
            return (f"the bout already has {s.n_attack} attacking cards", "DU-4.5")
        if uncovered(s) >= s.hand[s.defender].total:
            return ("the defender holds no more cards to beat it", "DU-4.4")
        return (f"the rank of {card_str(c)} is not on the table", "DU-5.1")

    # --- the zones (cardcore ids)
    def hand(self, p) -> list:
        return ms_to_list(&self.d.hand[self.check_seat(p)])

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(self.d.h.players)]

    def stock(self) -> list:
        """The stock top-first (hidden information: for tests and tools only)."""
        return pile_to_list(&self.d.stock)[::-1]

    def discard(self) -> list:
        return pile_to_list(&self.d.discard)

    def table(self) -> list:
        """The bout's cards in play order: each attacking card, then the card beating it."""
        cdef uint8_t buf[2 * MAX_TABLE]
        cdef int n = table_cards(&self.d, buf)
        return [buf[i] for i in range(n)]

    def bout(self) -> list:
        """The bout as pairs: (attacking card, the card beating it or None)."""
        return [(self.d.attack[i], None if self.d.cover[i] < 0 else self.d.cover[i])
                for i in range(self.d.n_attack)]

    def all_cards(self) -> list:
        cards = []
        for p in range(self.d.h.players):
            cards += self.hand(p)
        return cards + self.table() + self.discard() + self.stock()

    def known(self, p) -> list:
        """The cards every seat knows seat p holds (DU-11.2)."""
        cdef uint64_t m = self.d.known[self.check_seat(p)]
        out = []
        while m:
            out.append(lowest_card(m))
            m &= m - 1
        return out

    # --- the public counters
    @property
    def trump_suit(self) -> str:
        return SUIT_LETTERS[self.d.trump_suit]

    @property
    def trump_card(self) -> int:
        return self.d.trump_card

    @property
    def stock_size(self) -> int:
        return self.d.stock.size

    @property
    def attacker(self):
        return None if self.d.h.to_move < 0 else self.d.attacker

    @property
    def defender(self):
        return None if self.d.h.to_move < 0 else self.d.defender

    @property
    def taking(self) -> bool:
        return bool(self.d.taking)

    @property
    def bouts(self) -> int:
        return self.d.bouts

    @property
    def bout_limit(self) -> int:
        return bout_limit(&self.d)

    @property
    def shown_trump(self):
        """DU-3.1: the lowest trump the first attacker showed, or None."""
        return None if self.d.shown_trump < 0 else self.d.shown_trump

    @property
    def loser(self):
        """DU-8.2: the durak's seat once the match is over, None before or for a draw."""
        return None if self.d.h.to_move >= 0 or self.d.loser < 0 else self.d.loser

    def out_seats(self) -> list:
        return [p for p in range(self.d.h.players) if (self.d.out >> p) & 1]

    def last_bout(self):
        """How the last action ended a bout: None, or (result, defender, cards) with result
        "beaten" or "taken"."""
        if self.d.bout_end == END_NONE:
            return None
        return ("taken" if self.d.bout_end == END_TAKEN else "beaten", self.d.bout_defender,
                [self.d.bout_cards[i] for i in range(self.d.bout_n)])

    def last_draws(self) -> list:
        """The last action's refill, in order: [seat, [cards]] per seat that drew."""
        out = []
        for i in range(self.d.n_drawn):
            if out and out[-1][0] == self.d.drawn_seat[i]:
                out[-1][1].append(self.d.drawn[i])
            else:
                out.append([self.d.drawn_seat[i], [self.d.drawn[i]]])
        return out

    def went_out(self) -> list:
        return [p for p in range(self.d.h.players) if (self.d.went_out >> p) & 1]

    def penalties(self) -> list:
        return [self.d.penalty[p] for p in range(self.d.h.players)]


check_state_class(DurakState)
