# cython: language_level=3, cdivision=True
"""Crazy Eights state machine (rules: games/crazy_eights.md, rule IDs CE-x.y), exactly as
OpenSpiel's ``crazy_eights`` plays it.

Cards inside this kernel are OpenSpiel's card indices, ``rank * 4 + suit`` with ranks 2..A as
0..12 and suits C D H S as 0..3, so that the action ids ARE the card indices and legality is
one mask: ``Multiset`` hands and ``Pile`` piles hold these indices. cardcore's own card ids
(``suit * 13 + rank``, A = 0, suits C S D H) appear only at the Python boundary, converted by
``to_card_id`` / ``to_os_index`` (the one mapping, CARD_ID_OF / OS_INDEX_OF below).

Action space (the same 58 ids for every configuration, OpenSpiel's):
    0..51   play the card with that index                               CE-3.1
    52      draw (one card; under a draw-two debt, the whole debt)      CE-5.1, CE-4.4
    53      pass                                                        CE-5.2, CE-5.3
    54..57  nominate C, D, H, S after an eight                          CE-3.3
"""
from libc.stdint cimport uint8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.string cimport memset, memmove

from cardcore._fast cimport (
    copy_breakdown,
    GameState, GameHooks, Header, Rng, Multiset, Pile, ZoneSpec, BreakdownRow, ZONE_SHARED,
    ZONE_SEAT, SEEN_BY_ALL, SEEN_BY_OWNER, SEEN_BY_NONE, NUM_KINDS, PILE_CAPACITY, MS_MAX_COPIES,
    MAX_BREAKDOWN_ROWS,
    card_bit, ms_clear, ms_add, ms_remove, pile_push, pile_pop, lowest_card, rng_below,
    rng_next32, shuffle_u8, game_hooks, init_header, deal_prologue, load_cards, best_by_value,
)
from cardcore._fast import build_deck, check_state_class

# ---------------------------------------------------------------- rule constants
cdef enum:
    MIN_PLAYERS = 2               # CE-1.1
    MAX_PLAYERS = 15              # CE-1.1
    ONE_DECK_MAX_PLAYERS = 5      # CE-1.2: two decks above 5 players
    NUM_CARDS = 52                # CE-1.2: one deck
    MAX_DECK = 104                # CE-1.2: two decks
    HAND_SIZE = 5                 # CE-2.2
    HAND_SIZE_TWO_PLAYERS = 7     # CE-2.2
    EIGHT_RANK = 6                # CE-3.3: the wild card (rank index of 8, ranks 2..A = 0..12)
    SKIP_RANK = 10                # CE-4.1: Q
    REVERSE_RANK = 12             # CE-4.2: A
    DRAW_TWO_RANK = 0             # CE-4.3: 2
    DRAW_TWO_CARDS = 2            # CE-4.3
    EIGHT_POINTS = 50             # CE-8.1
    COURT_RANK = 9                # CE-8.1: J Q K A (rank indexes 9..12) cost COURT_POINTS
    COURT_POINTS = 10
    NUM_RANKS = 13
    NUM_SUITS = 4

# ---------------------------------------------------------------- action table
cdef enum:
    A_DRAW = 52
    A_PASS = 53
    A_NOMINATE = 54               # + suit (C D H S)
    NUM_ACTIONS = 58
    MAX_LEGAL = 54                # every card index, draw and pass

# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
PLAY_FIRST = 0                    # play the card with OpenSpiel index i: PLAY_FIRST + i
DRAW = A_DRAW
PASS = A_PASS
NOMINATE_FIRST = A_NOMINATE       # nominate suit s (C D H S = 0..3): NOMINATE_FIRST + s

# The one mapping between OpenSpiel's card indices and cardcore's card ids.
cdef uint8_t CARD_ID_OF[NUM_CARDS]           # OpenSpiel index -> cardcore id
cdef uint8_t OS_INDEX_OF[NUM_CARDS]          # cardcore id -> OpenSpiel index
cdef uint8_t CC_SUIT_OF_OS[4]                # OpenSpiel suit (C D H S) -> cardcore suit (C S D H)
CC_SUIT_OF_OS[0] = 0
CC_SUIT_OF_OS[1] = 2
CC_SUIT_OF_OS[2] = 3
CC_SUIT_OF_OS[3] = 1
cdef uint64_t SUIT_CARDS[4]                  # the 13 indices of a suit, as a mask
cdef uint64_t RANK_CARDS[NUM_RANKS]          # the 4 indices of a rank, as a mask


cdef void build_tables():
    cdef int card, rank, suit
    for card in range(NUM_CARDS):
        rank = card // 4
        suit = card % 4
        # cardcore ranks: A = 0, 2..K = 1..12; OpenSpiel ranks: 2..K = 0..11, A = 12
        CARD_ID_OF[card] = CC_SUIT_OF_OS[suit] * 13 + (rank + 1) % 13
        OS_INDEX_OF[CARD_ID_OF[card]] = card
    for suit in range(4):
        SUIT_CARDS[suit] = 0
    for rank in range(NUM_RANKS):
        RANK_CARDS[rank] = (<uint64_t>0xF) << (4 * rank)
        for suit in range(4):
            SUIT_CARDS[suit] |= card_bit(rank * 4 + suit)

build_tables()

# The ranks that act, as cardcore rank indexes (A = 0, 2..K = 1..12), for the Python side.
WILD_RANK = (EIGHT_RANK + 1) % NUM_RANKS                                  # CE-3.1, CE-3.3
SPECIAL_RANKS = {"skip": (SKIP_RANK + 1) % NUM_RANKS,                    # CE-4.1
                 "reverse": (REVERSE_RANK + 1) % NUM_RANKS,              # CE-4.2
                 "draw_two": (DRAW_TWO_RANK + 1) % NUM_RANKS}            # CE-4.3


cdef inline int os_rank(int card) noexcept nogil:
    return card >> 2

cdef inline int os_suit(int card) noexcept nogil:
    return card & 3

cdef inline int eight_of(int suit) noexcept nogil:
    return EIGHT_RANK * 4 + suit


def to_card_id(int index) -> int:
    """cardcore's card id of an OpenSpiel card index (0..51)."""
    if not 0 <= index < NUM_CARDS:
        raise ValueError(f"card index out of range: {index}")
    return CARD_ID_OF[index]


def to_os_index(int card) -> int:
    """OpenSpiel's card index of a cardcore card id (0..51)."""
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id out of range: {card}")
    return OS_INDEX_OF[card]


SUIT_LETTERS = "CDHS"                         # OpenSpiel's suit order (nominations 54..57)


def action_table() -> list:
    """One tuple per id: (kind, cardcore card id or None, suit letter or None)."""
    table = [("play", CARD_ID_OF[i], None) for i in range(NUM_CARDS)]
    table += [("draw", None, None), ("pass", None, None)]
    table += [("nominate", None, SUIT_LETTERS[s]) for s in range(4)]
    assert len(table) == NUM_ACTIONS
    return table


def num_actions() -> int:
    return NUM_ACTIONS


cdef inline int decks_for(int players) noexcept nogil:
    return 2 if players > ONE_DECK_MAX_PLAYERS else 1          # CE-1.2


cdef inline int hand_size_for(int players) noexcept nogil:
    return HAND_SIZE_TWO_PLAYERS if players == 2 else HAND_SIZE  # CE-2.2


def cards_per_hand(int players) -> int:
    """CE-2.2: the cards dealt to each hand (7 with 2 players, else 5)."""
    return hand_size_for(players)


def crazy_eights_deck(int players) -> list:
    """CE-1.2: one 52-card deck for 2..5 players, two above (cardcore ids, id order)."""
    return build_deck([range(NUM_RANKS)] * decks_for(players), 0)


_COMPOSITIONS = (tuple(crazy_eights_deck(2)), tuple(crazy_eights_deck(MAX_PLAYERS)))  # per deck count


# ---------------------------------------------------------------- scoring (CE-8)
# The hand-end breakdown: ce_score writes a row per seat and kind of card it holds (indexes
# into BREAKDOWN_WHAT and BREAKDOWN_RULES), so the hand-end event shows the engine's figures.
cdef enum:
    ROW_EIGHTS = 0
    ROW_COURT = 1
    ROW_NUMBERS = 2
    ROWS_PER_SEAT = 3
    R_CE_8_1 = 0
    R_CE_8_2 = 1

BREAKDOWN_WHAT = ("eights", "court cards (J Q K A)", "number cards (2-10)")
BREAKDOWN_RULES = ("CE-8.1", "CE-8.2")

cdef inline int card_points(int card, bint face) noexcept nogil:
    """CE-8.1 (face) / CE-8.2 (openspiel): the penalty of one card."""
    cdef int rank = os_rank(card)
    if rank == EIGHT_RANK:
        return EIGHT_POINTS
    if rank >= COURT_RANK:
        return COURT_POINTS
    return rank + 2 if face else card + 2     # CE-8.2: OpenSpiel's ScoreUp charges card + 2


def penalty_points(cards, scoring="face") -> int:
    """The penalty of a hand of cardcore card ids (the function the state machine uses)."""
    if scoring not in ("face", "openspiel"):
        raise ValueError("scoring must be 'face' or 'openspiel'")
    total = 0
    for c in cards:
        total += card_points(to_os_index(c), scoring == "face")
    return total


# ---------------------------------------------------------------- the state
cdef enum:
    PH_PLAY = 0          # play, draw or pass (CE-3, CE-5)
    PH_NOMINATE = 1      # CE-3.3: the player of an eight names a suit
    PH_OVER = 2

PHASES = ("play", "nominate", "over")

cdef enum:
    MAX_CLASSES = 8      # "Hidden cards": source classes of the unseen cards tracked at once
    E_LOG_CAP = 128      # events that bear on reburied eights (one deck: at most 41 draws + 52 plays)
    E_DRAW = 1           # e_log kinds (high nibble; the seat is the low nibble)
    E_PLAY = 2           # a class-0 card that is not a reburied eight was played
    E_PLAY_EIGHT = 3     # a reburied eight was played
    MAX_DRAWN = 16       # cards one action can draw: a debt is 2 per two (CE-4.3), 8 twos
    MAX_OBS_PIECES = 32  # room for the observation layout's offsets

ctypedef struct CEOptions:              # the resolved options (defaults: the wrapper's options_spec)
    int32_t max_draw_cards             # CE-5.1
    int32_t max_turns                  # CE-7.2
    bint special                       # use_special_cards (CE-4)
    bint reshuffle                     # CE-6.1
    bint face                          # scoring="face" (CE-8.1), else "openspiel" (CE-8.2)
    int32_t dealer                     # CE-2.1: a seat, or -1 to draw by lot

ctypedef struct CEState:
    Header h                           # players, phase, to_move, round_index, dealer, rng
    CEOptions opt
    int32_t decks, hand_size, deck_size
    uint8_t deck[MAX_DECK]             # the composition, cardcore ids in id order (CE-1.2)
    Multiset hand[MAX_PLAYERS]         # OpenSpiel indices
    Pile stock                         # top = last
    Pile discard                       # bottom -> top; the top is the card to match
    int32_t last_card, last_suit       # CE-3.1: the card and suit to match
    int32_t direction                  # +1 / -1 (CE-4.2)
    # OpenSpiel's turn counters, kept as its code keeps them
    bint can_pass                      # CE-5.2, CE-5.3
    int32_t passes                     # CE-7.3: consecutive passes with an empty stock
    int32_t draws                      # CE-5.1: draws before a play (num_draws_before_play_)
    int32_t twos_owed                  # CE-4.3: cards the player to move owes
    int32_t plays                      # CE-7.2: cards played (the turn-up is not one)
    int32_t reshuffles                 # CE-6.1
    int32_t reburied[NUM_SUITS]        # CE-2.4: eights turned up and put back, per suit
    bint stacked_deal                  # CE-2.4: the deal used a stacked deck
    # The last action's draws, in order (events and the OpenSpiel differential test)
    int32_t n_drawn
    uint8_t drawn[MAX_DRAWN]
    # Public knowledge that sample_hidden keeps (games/crazy_eights.md "Hidden cards")
    int32_t known_bottom               # stacked deal: the reburied eights at the stock bottom
    uint8_t known_eights[MAX_PLAYERS][NUM_SUITS]   # known eights a hand holds (drawn from there)
    uint8_t hand_cls[MAX_PLAYERS][NUM_CARDS][2]    # the source class of each unknown copy held
    int32_t stock_cls                  # the class of every unknown stock card
    int32_t cls_epoch[MAX_CLASSES]     # the reshuffle that made a class (0: the deal)
    bint e_active                      # shuffled deal, one deck: reburied eights are tracked
    uint8_t e_hidden[NUM_SUITS]        # ... the reburied eights not played yet
    int32_t e_log_len
    uint8_t e_log[E_LOG_CAP]           # ... and the draws and plays that bear on them
    # Scoring (CE-8), written once by ce_score
    int32_t penalty[MAX_PLAYERS]
    int32_t n_rows                     # the breakdown: the kinds of card each seat held
    BreakdownRow rows[MAX_PLAYERS * ROWS_PER_SEAT]
    # The observation layout of this configuration (offsets of OBS_NAMES' pieces)
    int32_t obs_offset[MAX_OBS_PIECES]
    int32_t obs_size

if <int>MAX_DECK > <int>PILE_CAPACITY or 2 > <int>MS_MAX_COPIES or (
        <int>MAX_PLAYERS * <int>ROWS_PER_SEAT > <int>MAX_BREAKDOWN_ROWS):
    raise ImportError("Crazy Eights needs a larger Pile, Multiset or breakdown than the core "
                      "provides")


# ---------------------------------------------------------------- the zones: who sees what
cdef enum:                  # the zones, in ZONES order
    Z_HAND = 0             # each seat's hand: its own (CE-9.2)
    Z_STOCK = 1            # face down (CE-9.2)
    Z_DISCARD = 2          # every card in it was played or turned up face up (CE-9.1)
    NUM_ZONES = 3

cdef ZoneSpec ZONES[NUM_ZONES]
ZONES[Z_HAND] = ZoneSpec(b"hand", ZONE_SEAT, 0, SEEN_BY_OWNER)
ZONES[Z_STOCK] = ZoneSpec(b"stock", ZONE_SHARED, 0, SEEN_BY_NONE)
ZONES[Z_DISCARD] = ZoneSpec(b"discard", ZONE_SHARED, 0, SEEN_BY_ALL)


cdef int ce_zone_cards(const void* state, int zone, int instance, uint8_t* out) noexcept nogil:
    """The cards of a zone as cardcore ids (a hand in id order; piles bottom to top)."""
    cdef const CEState* s = <const CEState*>state
    cdef int n = 0, c, k, i
    cdef const Pile* pile
    if zone == Z_HAND:
        for c in range(NUM_CARDS):
            for k in range(s.hand[instance].count[OS_INDEX_OF[c]]):
                out[n] = <uint8_t>c
                n += 1
        return n
    pile = &s.stock if zone == Z_STOCK else &s.discard
    for i in range(pile.size):
        out[i] = CARD_ID_OF[pile.cards[i]]
    return pile.size


cdef int ce_known_cards(const void* state, int zone, int instance, uint8_t* out) noexcept nogil:
    """The cards of a hidden zone whose place every seat knows ("Hidden cards"): a stacked
    deal's turned-up eights still at the stock bottom (CE-2.4), and those a seat drew from
    there (CE-10.2)."""
    cdef const CEState* s = <const CEState*>state
    cdef int n = 0, k, i
    if zone == Z_HAND:
        for k in range(NUM_SUITS):
            for i in range(s.known_eights[instance][k]):
                out[n] = CARD_ID_OF[eight_of(k)]
                n += 1
        return n
    if zone == Z_STOCK:
        for i in range(s.known_bottom):
            out[i] = CARD_ID_OF[s.stock.cards[i]]
        return s.known_bottom
    return 0


cdef list zone_list(const CEState* s, int zone, int instance):
    cdef uint8_t buf[MAX_DECK]
    cdef int n = ce_zone_cards(s, zone, instance, buf)
    return [buf[i] for i in range(n)]


# ---------------------------------------------------------------- the deal (CE-2)
cdef inline int deal_seat(int players, int dealer, int hand_size, int position) noexcept nogil:
    """CE-2.2: the seat deck position ``position`` (0 = top) is dealt to, one card at a time
    from the dealer's next seat (the dealer gets each round's last card); -1 past the hands."""
    if position < players * hand_size:
        return (dealer + 1 + position) % players
    return -1


def deal_plan(int players, int dealer, deck=None) -> list:
    """The zone of each deck position (top first): "hand:<seat>", "reburied" (an eight turned
    up and put at the stock bottom, CE-2.4: seen by everybody), "discard" (the turn-up) or
    "stock". Without a stacked deck (cardcore ids, top first) the turn-up is taken to be the
    first card after the hands. The deal below walks the same rules."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS or not 0 <= dealer < players:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS} and dealer a seat")
    cdef int n = NUM_CARDS * decks_for(players), k = hand_size_for(players), i
    if deck is not None:
        deck = [int(c) for c in deck]
        if len(deck) != n or not all(0 <= c < NUM_CARDS for c in deck):
            raise ValueError(f"a deck of {players} players is {n} card ids 0..51")
    plan = []
    for i in range(players * k):
        plan.append(f"hand:{deal_seat(players, dealer, k, i)}")
    i = players * k
    while deck is not None and os_rank(OS_INDEX_OF[deck[i]]) == EIGHT_RANK:
        plan.append("reburied")
        i += 1
    plan.append("discard")
    plan += ["stock"] * (n - len(plan))
    return plan


cdef void pile_insert(Pile* p, int index, int card) noexcept nogil:
    """Insert at ``index`` (0 = bottom, p.size = top)."""
    memmove(&p.cards[index + 1], &p.cards[index], p.size - index)
    p.cards[index] = <uint8_t>card
    p.size += 1


cdef void ce_deal(CEState* s) noexcept nogil:
    """CE-2: shuffle (unless stacked), deal, turn up; CE-4.5 a special turn-up."""
    cdef uint8_t order[MAX_DECK]
    cdef int i, p, c, n = s.deck_size, players = s.h.players
    s.stacked_deal = s.h.stacked_size > 0
    deal_prologue(&s.h, s.deck, n, order)
    for p in range(players):
        ms_clear(&s.hand[p])
    s.stock.size = 0
    s.discard.size = 0
    i = n - 1
    while i >= 0:                                 # bottom first, so that order[0] ends on top
        c = OS_INDEX_OF[order[i]]
        p = deal_seat(players, s.h.dealer, s.hand_size, i)
        if p < 0:
            pile_push(&s.stock, c)
        else:
            ms_add(&s.hand[p], c)
        i -= 1
    while True:                                   # CE-2.3, CE-2.4
        c = pile_pop(&s.stock)
        if os_rank(c) != EIGHT_RANK:
            break
        s.reburied[os_suit(c)] += 1
        if s.stacked_deal:                        # to the bottom, a place everybody knows
            pile_insert(&s.stock, 0, c)
            s.known_bottom += 1
        else:                                     # back into the deck at random, as OpenSpiel
            pile_insert(&s.stock, rng_below(&s.h.rng, s.stock.size + 1), c)
            s.e_hidden[os_suit(c)] = 1
    pile_push(&s.discard, c)
    s.last_card = c
    s.last_suit = os_suit(c)
    s.e_active = s.decks == 1 and not s.stacked_deal and (
        s.e_hidden[0] | s.e_hidden[1] | s.e_hidden[2] | s.e_hidden[3])
    s.h.phase = PH_PLAY
    s.h.to_move = (s.h.dealer + 1) % players      # CE-2.5
    if s.opt.special:                             # CE-4.5: as if the dealer had played it
        if os_rank(c) == SKIP_RANK:
            s.h.to_move = (s.h.dealer + 2) % players
        elif os_rank(c) == REVERSE_RANK:
            s.h.to_move = (s.h.dealer - 1 + players) % players
            s.direction = -1
        elif os_rank(c) == DRAW_TWO_RANK:
            s.twos_owed += DRAW_TWO_CARDS


cdef void ce_start(void* state) noexcept nogil:
    """CE-2.1: the dealer by option or by lot, then the deal."""
    cdef CEState* s = <CEState*>state
    s.h.dealer = s.opt.dealer if s.opt.dealer >= 0 else rng_below(&s.h.rng, s.h.players)
    ce_deal(s)


# ---------------------------------------------------------------- legality
cdef int ce_legal(void* state, int32_t* out, int capacity) noexcept nogil:
    cdef CEState* s = <CEState*>state
    cdef int n = 0, k
    cdef uint64_t m
    if capacity < MAX_LEGAL:
        return -1
    if s.h.phase == PH_NOMINATE:                   # CE-3.3
        for k in range(NUM_SUITS):
            out[k] = A_NOMINATE + k
        return NUM_SUITS
    if s.h.phase != PH_PLAY:
        return 0
    cdef const Multiset* hand = &s.hand[s.h.to_move]
    if s.twos_owed > 0:                            # CE-4.3: a 2 or the draw
        m = hand.plane[0] & RANK_CARDS[DRAW_TWO_RANK]
    else:                                          # CE-3.1: suit, rank or any eight
        m = hand.plane[0] & (SUIT_CARDS[s.last_suit] | RANK_CARDS[os_rank(s.last_card)]
                             | RANK_CARDS[EIGHT_RANK])
    while m:
        out[n] = lowest_card(m)
        m &= m - 1
        n += 1
    if s.stock.size > 0 and (s.twos_owed > 0 or s.draws != s.opt.max_draw_cards):
        out[n] = A_DRAW                            # CE-5.1, CE-4.4
        n += 1
    if s.can_pass or s.stock.size == 0:            # CE-5.2, CE-5.3
        out[n] = A_PASS
        n += 1
    return n


# ---------------------------------------------------------------- source classes of unseen cards
cdef inline int known_count(const CEState* s, int p, int card) noexcept nogil:
    return s.known_eights[p][os_suit(card)] if os_rank(card) == EIGHT_RANK else 0


cdef inline int unknown_count(const CEState* s, int p, int card) noexcept nogil:
    """Copies of ``card`` in p's hand whose place nobody else knows."""
    return s.hand[p].count[card] - known_count(s, p, card)


cdef inline void log_e(CEState* s, int p, int kind) noexcept nogil:
    if s.e_log_len >= E_LOG_CAP:                   # cannot happen with one deck; stay sound
        s.e_active = False
        return
    s.e_log[s.e_log_len] = <uint8_t>(p | (kind << 4))
    s.e_log_len += 1


cdef void merge_classes(CEState* s, int a, int b) noexcept nogil:
    """Forget the difference between classes a and b (b's cards become a's): what nobody can
    tell apart any more. The reburied eights' accounting needs class 0 intact."""
    cdef int p, c, k
    if a == b:
        return
    if a > b:
        a, b = b, a
    for p in range(s.h.players):
        for c in range(NUM_CARDS):
            for k in range(unknown_count(s, p, c)):
                if s.hand_cls[p][c][k] == b:
                    s.hand_cls[p][c][k] = <uint8_t>a
    if s.stock_cls == b:
        s.stock_cls = a
    if s.cls_epoch[b] < s.cls_epoch[a]:
        s.cls_epoch[a] = s.cls_epoch[b]
    if a == 0:
        s.e_active = False


cdef bint holds_class(const CEState* s, int p, int cls) noexcept nogil:
    cdef int c, k
    for c in range(NUM_CARDS):
        for k in range(unknown_count(s, p, c)):
            if s.hand_cls[p][c][k] == cls:
                return True
    return False


cdef void merge_if_ambiguous(CEState* s, int p, int card, int cls) noexcept nogil:
    """Two decks: p plays a copy of ``card``; if another unseen copy has another class that p
    may hold, nobody else can tell which class left p's hand: merge them."""
    cdef int q, k, i, other
    for q in range(s.h.players):
        for k in range(unknown_count(s, q, card)):
            if q == p and k == unknown_count(s, p, card) - 1:
                continue                           # the copy being played
            other = s.hand_cls[q][card][k]
            if other != cls and holds_class(s, p, other):
                merge_classes(s, cls, other)
                return
    for i in range(s.known_bottom, s.stock.size):
        if s.stock.cards[i] == card and s.stock_cls != cls and holds_class(s, p, s.stock_cls):
            merge_classes(s, cls, s.stock_cls)
            return


cdef void take_card(CEState* s, int p, int card) noexcept nogil:
    """Move a card from p's hand (the public bookkeeping first, then the hand)."""
    cdef int k, cls
    if known_count(s, p, card) > 0:
        s.known_eights[p][os_suit(card)] -= 1      # the known copy goes: the same hand either way
    else:
        k = unknown_count(s, p, card) - 1
        cls = s.hand_cls[p][card][k]
        if s.decks == 2 and s.opt.reshuffle:
            merge_if_ambiguous(s, p, card, cls)
            cls = s.hand_cls[p][card][k]
        if s.e_active:
            if os_rank(card) == EIGHT_RANK and s.e_hidden[os_suit(card)]:
                s.e_hidden[os_suit(card)] = 0
                log_e(s, p, E_PLAY_EIGHT)
            elif cls == 0:
                log_e(s, p, E_PLAY)
    ms_remove(&s.hand[p], card)


cdef void give_top(CEState* s, int p) noexcept nogil:
    """p draws the stock's top card (seen by p alone, unless it is a known place)."""
    cdef int card = pile_pop(&s.stock)
    if s.stock.size < s.known_bottom:              # a known place: everybody knows who has it
        s.known_bottom -= 1
        s.known_eights[p][os_suit(card)] += 1
    else:
        s.hand_cls[p][card][unknown_count(s, p, card)] = <uint8_t>s.stock_cls
        if s.e_active and s.stock_cls == 0:
            log_e(s, p, E_DRAW)
    ms_add(&s.hand[p], card)
    if s.n_drawn < MAX_DRAWN:
        s.drawn[s.n_drawn] = <uint8_t>card
        s.n_drawn += 1


cdef int free_class(CEState* s) noexcept nogil:
    """A class no unseen card has (merging the two oldest when all are taken)."""
    cdef bint used[MAX_CLASSES]
    cdef int p, c, k, a, b
    memset(used, 0, sizeof(used))
    for p in range(s.h.players):
        for c in range(NUM_CARDS):
            for k in range(unknown_count(s, p, c)):
                used[s.hand_cls[p][c][k]] = True
    for k in range(MAX_CLASSES):
        if not used[k]:
            return k
    a = 0
    for k in range(MAX_CLASSES):
        if s.cls_epoch[k] < s.cls_epoch[a]:
            a = k
    b = 1 if a == 0 else 0
    for k in range(MAX_CLASSES):
        if k != a and s.cls_epoch[k] < s.cls_epoch[b]:
            b = k
    merge_classes(s, a, b)
    return b if a < b else a                       # merge_classes keeps the lower index


cdef void ce_reshuffle(CEState* s) noexcept nogil:
    """CE-6.1: the discard pile but its top card, shuffled, becomes the stock (OpenSpiel's
    Reshuffle: its deck becomes every card out of the hands but one copy of the top card)."""
    cdef int i, top = pile_pop(&s.discard)
    for i in range(s.discard.size):
        pile_push(&s.stock, s.discard.cards[i])
    s.discard.size = 0
    pile_push(&s.discard, top)
    shuffle_u8(&s.h.rng, s.stock.cards, s.stock.size)
    s.reshuffles += 1
    s.stock_cls = free_class(s)                    # a new class: these cards were seen face up
    s.cls_epoch[s.stock_cls] = s.reshuffles


# ---------------------------------------------------------------- applying
cdef inline void pass_turn(CEState* s, int p, int steps) noexcept nogil:
    s.h.to_move = (p + steps * s.direction + 2 * s.h.players) % s.h.players
    s.h.turns += 1


cdef void ce_apply(void* state, int action) noexcept nogil:
    cdef CEState* s = <CEState*>state
    cdef int p = s.h.to_move
    s.n_drawn = 0
    if action == A_PASS:
        do_pass(s, p)
        return
    s.passes = 0                                   # CE-7.3: any other action breaks a run
    if action == A_DRAW:
        if s.twos_owed > 0:
            draw_debt(s, p)
        else:
            draw_one(s, p)
    elif action >= A_NOMINATE:                     # CE-3.3
        s.last_suit = action - A_NOMINATE
        s.h.phase = PH_PLAY
        pass_turn(s, p, 1)
    else:
        play(s, p, action)


cdef void do_pass(CEState* s, int p) noexcept nogil:
    if s.stock.size == 0:                          # CE-7.3
        s.passes += 1
    else:
        s.passes = 0
    if s.passes == s.h.players + 1:
        end_game(s)
        return
    if s.draws == s.opt.max_draw_cards:
        s.draws = 0
    pass_turn(s, p, 1)
    if s.stock.size > 0:
        s.can_pass = False


cdef void draw_one(CEState* s, int p) noexcept nogil:
    """CE-5.1: one card; CE-5.2 the limit; CE-5.3 the last card counts as reaching it."""
    give_top(s, p)
    if s.stock.size == 0 and s.opt.reshuffle:
        ce_reshuffle(s)
    if s.stock.size == 0:
        s.can_pass = True
    s.draws += 1
    if s.stock.size == 0:
        s.draws = s.opt.max_draw_cards
    if s.draws == s.opt.max_draw_cards:
        s.can_pass = True


cdef void draw_debt(CEState* s, int p) noexcept nogil:
    """CE-4.4: draw every owed card, then the turn passes; CE-5.4 an empty stock ends the
    debt (a Decision: exactly at its last card, that counts as a pass, CE-7.3)."""
    while True:
        give_top(s, p)
        if s.stock.size == 0 and s.opt.reshuffle:
            ce_reshuffle(s)
        if s.stock.size == 0:
            s.can_pass = True
        s.twos_owed -= 1
        if s.stock.size == 0:
            if s.twos_owed == 0:
                s.passes += 1
            s.twos_owed = 0
        if s.twos_owed == 0:
            pass_turn(s, p, 1)
            return


cdef void play(CEState* s, int p, int card) noexcept nogil:
    cdef int rank = os_rank(card)
    s.plays += 1
    s.can_pass = False
    s.draws = 0
    take_card(s, p, card)
    pile_push(&s.discard, card)
    s.last_card = card
    s.last_suit = os_suit(card)
    cdef bint over = s.hand[p].total == 0 or s.plays >= s.opt.max_turns   # CE-7.1, CE-7.2
    if s.stock.size == 0 and s.opt.reshuffle:      # CE-6.1 (OpenSpiel reshuffles here even
        ce_reshuffle(s)                            # after the last play)
    if over:
        end_game(s)
        return
    if rank == EIGHT_RANK:                         # CE-3.3
        s.h.phase = PH_NOMINATE
        return
    if s.opt.special:
        if rank == SKIP_RANK:                      # CE-4.1
            pass_turn(s, p, 2)
            return
        if rank == REVERSE_RANK:                   # CE-4.2
            s.direction = -s.direction
        elif rank == DRAW_TWO_RANK and s.stock.size > 0:   # CE-4.3, CE-4.6
            s.twos_owed += DRAW_TWO_CARDS
    pass_turn(s, p, 1)


# ---------------------------------------------------------------- the end and scoring (CE-7, CE-8)
cdef void ce_score(CEState* s) noexcept nogil:
    """CE-8: each seat's penalty, and the breakdown rows the events show (no one else
    computes a score): per seat, one row for each kind of card it still holds."""
    cdef int p, c, k, points
    cdef BreakdownRow seat_rows[ROWS_PER_SEAT]
    s.n_rows = 0
    for p in range(s.h.players):
        s.penalty[p] = 0
        for k in range(ROWS_PER_SEAT):
            seat_rows[k].owner = p
            seat_rows[k].what = k
            seat_rows[k].rule = R_CE_8_2 if k == ROW_NUMBERS and not s.opt.face else R_CE_8_1
            seat_rows[k].detail = -1
            seat_rows[k].count = 0
            seat_rows[k].points = 0
        for c in range(NUM_CARDS):
            if s.hand[p].count[c] == 0:
                continue
            points = card_points(c, s.opt.face) * s.hand[p].count[c]
            k = ROW_EIGHTS if os_rank(c) == EIGHT_RANK else (
                ROW_COURT if os_rank(c) >= COURT_RANK else ROW_NUMBERS)
            seat_rows[k].count += s.hand[p].count[c]
            seat_rows[k].points += points
            s.penalty[p] += points
        for k in range(ROWS_PER_SEAT):
            if seat_rows[k].count > 0:
                s.rows[s.n_rows] = seat_rows[k]
                s.n_rows += 1


cdef int ce_breakdown(const void* state, BreakdownRow* out, int capacity) noexcept nogil:
    cdef const CEState* s = <const CEState*>state
    return copy_breakdown(s.rows, s.n_rows, out, capacity)


cdef void end_game(CEState* s) noexcept nogil:
    ce_score(s)
    s.h.round_index = 1
    s.h.phase = PH_OVER
    s.h.to_move = -1


cdef void ce_returns(const void* state, double* out) noexcept nogil:
    """CE-8.3: minus the penalty points (higher is better)."""
    cdef const CEState* s = <const CEState*>state
    cdef int p
    for p in range(s.h.players):
        out[p] = 0.0 - s.penalty[p]        # 0.0, not -0.0, for the seat that went out


cdef void ce_scores(const void* state, int32_t* out) noexcept nogil:
    """CE-8.3: the penalty points (0 for everybody until the game is over)."""
    cdef const CEState* s = <const CEState*>state
    cdef int p
    for p in range(s.h.players):
        out[p] = s.penalty[p]


# ---------------------------------------------------------------- the per-seat projection
# The tensor opens with OpenSpiel's own observation, piece for piece; then what else the
# view shows. Every card piece uses OpenSpiel's card indices. OBS_NAMES is the one list of
# pieces; obs_layout gives their sizes for a configuration.
OBS_NAMES = (
    "openspiel_hand", "openspiel_last_card", "openspiel_last_suit", "openspiel_hand_sizes",
    "openspiel_direction", "observer", "current_player", "phase", "dealer", "direction",
    "stock_size", "discard", "draws_this_turn", "max_draw_cards", "draw_two_owed", "passes",
    "plays", "max_turns", "reburied", "stock_bottom_known", "known_eights", "scores")

cdef enum:                      # the pieces, in OBS_NAMES' order
    P_OS_HAND = 0
    P_OS_LAST_CARD = 1
    P_OS_LAST_SUIT = 2
    P_OS_HAND_SIZES = 3
    P_OS_DIRECTION = 4
    P_OBSERVER = 5
    P_TO_MOVE = 6
    P_PHASE = 7
    P_DEALER = 8
    P_DIRECTION = 9
    P_STOCK_SIZE = 10
    P_DISCARD = 11
    P_DRAWS = 12
    P_MAX_DRAWS = 13
    P_TWOS_OWED = 14
    P_PASSES = 15
    P_PLAYS = 16
    P_MAX_TURNS = 17
    P_REBURIED = 18
    P_KNOWN_BOTTOM = 19
    P_KNOWN_EIGHTS = 20
    P_SCORES = 21
    NUM_PIECES = 22


cdef int obs_layout(int players, bint special, int32_t* offset) noexcept nogil:
    """Offsets of the pieces for a configuration (offset[NUM_PIECES] = the size)."""
    cdef int32_t size[NUM_PIECES]
    cdef int d = decks_for(players), i, at = 0
    size[P_OS_HAND] = (d + 1) * NUM_CARDS
    size[P_OS_LAST_CARD] = NUM_CARDS
    size[P_OS_LAST_SUIT] = NUM_SUITS
    size[P_OS_HAND_SIZES] = (d * NUM_CARDS + 1) * (players - 1)
    size[P_OS_DIRECTION] = 1 if special else 0
    size[P_OBSERVER] = players
    size[P_TO_MOVE] = players
    size[P_PHASE] = 3
    size[P_DEALER] = players
    size[P_DIRECTION] = 1
    size[P_STOCK_SIZE] = 1
    size[P_DISCARD] = NUM_CARDS
    size[P_DRAWS] = 1
    size[P_MAX_DRAWS] = 1
    size[P_TWOS_OWED] = 1
    size[P_PASSES] = 1
    size[P_PLAYS] = 1
    size[P_MAX_TURNS] = 1
    size[P_REBURIED] = NUM_SUITS
    size[P_KNOWN_BOTTOM] = NUM_SUITS
    size[P_KNOWN_EIGHTS] = players * NUM_SUITS
    size[P_SCORES] = players
    for i in range(NUM_PIECES):
        offset[i] = at
        at += size[i]
    offset[NUM_PIECES] = at
    return at


if NUM_PIECES + 1 > MAX_OBS_PIECES:
    raise ImportError("the observation layout needs a larger MAX_OBS_PIECES")


def observation_pieces(int players, bint special) -> tuple:
    """(name, offset, size) of each piece of this configuration's tensor (the empty
    openspiel_direction piece is left out without special cards, as OpenSpiel leaves it)."""
    cdef int32_t offset[NUM_PIECES + 1]
    obs_layout(players, special, offset)
    return tuple((OBS_NAMES[i], offset[i], offset[i + 1] - offset[i]) for i in range(NUM_PIECES)
                 if offset[i + 1] > offset[i])


cdef int ce_observation_size(const void* state) noexcept nogil:
    return (<const CEState*>state).obs_size


cdef void ce_observe(const void* state, int seat, float* out) noexcept nogil:
    """What ``seat`` sees: its hand, the public piles and counters, others' hand sizes."""
    cdef const CEState* s = <const CEState*>state
    cdef const int32_t* o = &s.obs_offset[0]
    cdef int players = s.h.players, d = s.decks, c, i, k, q, size
    memset(out, 0, s.obs_size * sizeof(float))
    # OpenSpiel's WriteObservationTensor, piece for piece
    for c in range(NUM_CARDS):
        out[o[P_OS_HAND] + c * (d + 1) + s.hand[seat].count[c]] = 1.0
    out[o[P_OS_LAST_CARD] + s.last_card] = 1.0
    out[o[P_OS_LAST_SUIT] + s.last_suit] = 1.0
    for i in range(1, players):
        size = s.hand[(seat + i) % players].total
        out[o[P_OS_HAND_SIZES] + (i - 1) * (d * NUM_CARDS + 1) + size] = 1.0
    if s.opt.special:
        out[o[P_OS_DIRECTION]] = 1.0 if s.direction == 1 else 0.0
    # the rest of the view
    out[o[P_OBSERVER] + seat] = 1.0
    if s.h.to_move >= 0:
        out[o[P_TO_MOVE] + s.h.to_move] = 1.0
    out[o[P_PHASE] + s.h.phase] = 1.0
    out[o[P_DEALER] + s.h.dealer] = 1.0
    out[o[P_DIRECTION]] = s.direction
    out[o[P_STOCK_SIZE]] = s.stock.size
    for i in range(s.discard.size):
        out[o[P_DISCARD] + s.discard.cards[i]] += 1.0
    out[o[P_DRAWS]] = s.draws
    out[o[P_MAX_DRAWS]] = s.opt.max_draw_cards
    out[o[P_TWOS_OWED]] = s.twos_owed
    out[o[P_PASSES]] = s.passes
    out[o[P_PLAYS]] = s.plays
    out[o[P_MAX_TURNS]] = s.opt.max_turns
    for k in range(NUM_SUITS):
        out[o[P_REBURIED] + k] = s.reburied[k]
    for i in range(s.known_bottom):
        out[o[P_KNOWN_BOTTOM] + os_suit(s.stock.cards[i])] += 1.0
    for q in range(players):
        for k in range(NUM_SUITS):
            out[o[P_KNOWN_EIGHTS] + q * NUM_SUITS + k] = s.known_eights[q][k]
        out[o[P_SCORES] + q] = s.penalty[q]


# ---------------------------------------------------------------- determinization
# Zones in sample_hidden: seats 0..players-1, then the stock.
cdef enum:
    MAX_ZONES = MAX_PLAYERS + 1
    MAX_DRAWN_SLOTS = 64          # one deck: at most 41 cards are drawn before a reshuffle


cdef int place_reburied(const CEState* s, int seat, const int32_t* class0_places,
                        int eights, Rng* rng, int32_t* chosen) noexcept nogil:
    """Zones for the ``eights`` reburied eights the seat does not hold, drawn from their exact
    posterior (games/crazy_eights.md "Hidden cards"): such an eight is in the stock if the
    deal's stock is still in play, or among the cards a seat drew from it and still holds.
    How many a seat still holds of its draws follows from its draws and plays (weights w[q][D]:
    the ways its played cards can have come from its dealt and drawn cards, leaving D drawn
    ones); then the eights take distinct places among the eligible ones uniformly. 0 on
    success."""
    cdef double w[MAX_PLAYERS][MAX_DRAWN_SLOTS + 1]
    cdef double total[MAX_PLAYERS + 1][MAX_DRAWN_SLOTS + 1]
    cdef double fresh[MAX_DRAWN_SLOTS + 1]
    cdef int32_t free0[MAX_PLAYERS]                # class-0 cards held (dealt or drawn)
    cdef int32_t drawn[MAX_PLAYERS]                # draws from the deal's stock
    cdef int32_t keep[MAX_ZONES]
    cdef int players = s.h.players, q, i, d, kind, f, top, sigma, left, z
    cdef double best, u, acc, weight
    for q in range(players):
        w[q][0] = 1.0
        free0[q] = s.hand_size
        drawn[q] = 0
    for i in range(s.e_log_len):
        q = s.e_log[i] & 15
        kind = s.e_log[i] >> 4
        if q == seat:
            continue
        f = free0[q]
        top = drawn[q] if drawn[q] < f else f
        if kind == E_DRAW:
            if drawn[q] >= MAX_DRAWN_SLOTS:
                return 1
            drawn[q] += 1
            for d in range(drawn[q], 0, -1):
                w[q][d] = w[q][d - 1]
            w[q][0] = 0.0
            free0[q] = f + 1
            continue
        for d in range(top + 1):                   # before: d drawn cards among f held
            fresh[d] = 0.0
        for d in range(top + 1):
            if kind == E_PLAY and d <= f - 1:      # the card was a dealt one
                fresh[d] += w[q][d] * (f - d)
            if d >= 1:                             # ... or a drawn one
                fresh[d - 1] += w[q][d] * d
        free0[q] = f - 1
        best = 0.0
        for d in range(top + 1):
            w[q][d] = fresh[d] if d <= free0[q] else 0.0
            if w[q][d] > best:
                best = w[q][d]
        if best <= 0.0:
            return 1
        for d in range(top + 1):
            w[q][d] /= best
        for d in range(top + 1, drawn[q] + 1):
            w[q][d] = 0.0
    cdef int stock_places = s.stock.size - s.known_bottom if s.stock_cls == 0 else 0
    # total[j][sigma]: the seats before the j-th, sigma drawn cards held among them
    for sigma in range(MAX_DRAWN_SLOTS + 1):
        total[0][sigma] = 0.0
    total[0][0] = 1.0
    cdef int reach = 0, j = 0, dmax
    for q in range(players):
        for sigma in range(MAX_DRAWN_SLOTS + 1):
            total[j + 1][sigma] = 0.0
        if q != seat:
            if free0[q] != class0_places[q]:
                return 1                           # the log and the hands disagree
            dmax = drawn[q] if drawn[q] < free0[q] else free0[q]
            for sigma in range(reach + 1):
                for d in range(dmax + 1):
                    if sigma + d <= MAX_DRAWN_SLOTS:
                        total[j + 1][sigma + d] += total[j][sigma] * w[q][d]
            reach = reach + dmax if reach + dmax <= MAX_DRAWN_SLOTS else MAX_DRAWN_SLOTS
        else:
            for sigma in range(reach + 1):
                total[j + 1][sigma] = total[j][sigma]
        j += 1
    # the eights' places: the stock's and the drawn cards still held
    acc = 0.0
    for sigma in range(reach + 1):
        weight = total[players][sigma]
        for i in range(eights):
            weight *= stock_places + sigma - i if stock_places + sigma - i > 0 else 0
        fresh[sigma] = weight
        acc += weight
    if acc <= 0.0:
        return 1
    u = acc * (rng_next32(rng) / 4294967296.0)
    sigma = 0
    while sigma < reach and u >= fresh[sigma]:
        u -= fresh[sigma]
        sigma += 1
    for z in range(MAX_ZONES):
        keep[z] = 0
    keep[players] = stock_places
    for q in range(players - 1, -1, -1):           # each seat's share, last seat first
        if q == seat:
            continue
        dmax = drawn[q] if drawn[q] < free0[q] else free0[q]
        acc = 0.0
        for d in range(dmax + 1):
            if d <= sigma:
                acc += total[q][sigma - d] * w[q][d]
        u = acc * (rng_next32(rng) / 4294967296.0)
        d = 0
        while d < dmax and d < sigma and u >= total[q][sigma - d] * w[q][d]:
            u -= total[q][sigma - d] * w[q][d]
            d += 1
        keep[q] = d
        sigma -= d
    left = 0
    for z in range(players + 1):
        left += keep[z]
    for i in range(eights):                        # distinct places, uniformly
        u = rng_below(rng, left)
        z = 0
        while u >= keep[z]:
            u -= keep[z]
            z += 1
        chosen[i] = z
        keep[z] -= 1
        left -= 1
    return 0


cdef int ce_sample_hidden(void* state, int seat, Rng* rng) noexcept nogil:
    """Redeal what ``seat`` cannot see: the unknown cards of the other hands and the stock's
    unknown places, within each source class, uniformly (games/crazy_eights.md "Hidden
    cards"); the reburied eights of a shuffled deal from their exact posterior. The pools are
    laid out in card order before shuffling: the world depends only on what the seat knows."""
    cdef CEState* s = <CEState*>state
    cdef uint8_t pool[MAX_CLASSES][NUM_CARDS]      # counts of unknown cards per class
    cdef int32_t places[MAX_ZONES][MAX_CLASSES]
    cdef uint8_t cards[MAX_DECK]
    cdef uint8_t zone_of[MAX_DECK]
    cdef int32_t chosen[NUM_SUITS]
    cdef int32_t class0[MAX_PLAYERS]
    cdef int players = s.h.players, q, c, k, i, n, z, cls, m, eights = 0
    cdef int stock_zone = players
    memset(pool, 0, sizeof(pool))
    memset(places, 0, sizeof(places))
    for q in range(players):
        if q == seat:
            continue
        for c in range(NUM_CARDS):
            for k in range(unknown_count(s, q, c)):
                pool[s.hand_cls[q][c][k]][c] += 1
                places[q][s.hand_cls[q][c][k]] += 1
    for i in range(s.known_bottom, s.stock.size):
        pool[s.stock_cls][s.stock.cards[i]] += 1
        places[stock_zone][s.stock_cls] += 1
    # The reburied eights first (they take their places out of class 0's).
    cdef uint8_t eight_cards[NUM_SUITS]
    if s.e_active:
        for k in range(NUM_SUITS):
            c = eight_of(k)
            if s.e_hidden[k] and s.hand[seat].count[c] == 0:
                eight_cards[eights] = <uint8_t>c
                eights += 1
        if eights:
            for q in range(players):
                class0[q] = places[q][0]
            if place_reburied(s, seat, class0, eights, rng, chosen) != 0:
                return 1
            for i in range(eights):
                pool[0][eight_cards[i]] -= 1
                places[chosen[i]][0] -= 1
    # Each class's pool, in card order, shuffled and laid out over its places.
    for q in range(players):
        if q == seat:
            continue
        ms_clear(&s.hand[q])
        for k in range(NUM_SUITS):
            for i in range(s.known_eights[q][k]):
                ms_add(&s.hand[q], eight_of(k))
    for i in range(eights):
        z = chosen[i]
        if z == stock_zone:
            continue
        c = eight_cards[i]
        s.hand_cls[z][c][unknown_count(s, z, c)] = 0
        ms_add(&s.hand[z], c)
    cdef int stock_at = s.known_bottom
    for cls in range(MAX_CLASSES):
        n = 0
        for c in range(NUM_CARDS):
            for k in range(pool[cls][c]):
                cards[n] = <uint8_t>c
                n += 1
        if n == 0:
            continue
        shuffle_u8(rng, cards, n)
        i = 0
        for z in range(players + 1):
            for m in range(places[z][cls]):
                c = cards[i]
                i += 1
                if z == stock_zone:
                    s.stock.cards[stock_at] = <uint8_t>c
                    stock_at += 1
                else:
                    s.hand_cls[z][c][unknown_count(s, z, c)] = <uint8_t>cls
                    ms_add(&s.hand[z], c)
    for i in range(eights):
        if chosen[i] == stock_zone:
            s.stock.cards[stock_at] = eight_cards[i]
            stock_at += 1
    # The stock's unknown places in a uniform order (the eights were put last).
    shuffle_u8(rng, &s.stock.cards[s.known_bottom], s.stock.size - s.known_bottom)
    return 0


# ---------------------------------------------------------------- GreedyBot's policy
# One move ahead from what the seat to move may know: its own hand and public counters (the
# hand sizes of the players after and before it in the direction of play, the cards played so
# far against max_turns, the options). Every legal action gets a value; the highest wins, ties
# (within 1e-9) broken with one draw (best_by_value). These weights are the policy's one
# source; greedy.py's docstring documents them.
cdef double G_DRAW = -1000.0          # CE-5.1: only when nothing plays
cdef double G_PASS = -2000.0          # CE-5.2, CE-5.3: only when no draw is left
cdef double G_EIGHT_COST = 100.0      # CE-3.1: an eight kept answers any card: spend it last
cdef double G_SAME_SUIT = 4.0         # per card of the played card's suit left in the hand
cdef double G_TWO_BONUS = 24.0        # CE-4.3: the next player draws two (or answers with a 2)
cdef double G_SKIP_BONUS = 12.0       # CE-4.1: the next player misses the turn
cdef double G_REVERSE_BONUS = 12.0    # CE-4.2: when the player before has more cards
cdef int G_CLOSE = 2                  # the specials' bonuses: the next player holds at most this
cdef int G_ENDGAME_PLAYS = 3          # CE-7.2: plays left at which only the points count


cdef int ce_greedy(const void* state, const int32_t* legal, int n, Rng* rng) noexcept nogil:
    """GreedyBot's move (the index into legal[0:n]): reads the seat's own hand, the public hand
    sizes, the direction, the plays so far and the options, nothing hidden."""
    cdef const CEState* s = <const CEState*>state
    cdef double values[MAX_LEGAL]
    cdef int32_t ties[MAX_LEGAL]
    cdef int seat = s.h.to_move, players = s.h.players, k, a, c, rank
    cdef const Multiset* hand = &s.hand[seat]
    cdef int next_size = s.hand[(seat + s.direction + players) % players].total
    cdef int previous_size = s.hand[(seat - s.direction + players) % players].total
    cdef int plays_left = s.opt.max_turns - s.plays
    cdef int suit_count[NUM_SUITS]            # the hand's cards per suit, eights left out
    cdef double value
    if n == 1:
        return 0
    for k in range(NUM_SUITS):
        suit_count[k] = 0
    for c in range(NUM_CARDS):
        if os_rank(c) != EIGHT_RANK:
            suit_count[os_suit(c)] += hand.count[c]
    for k in range(n):
        a = legal[k]
        if a == A_DRAW:
            values[k] = G_DRAW
            continue
        if a == A_PASS:
            values[k] = G_PASS
            continue
        if a >= A_NOMINATE:                   # CE-3.3: the suit held most
            values[k] = <double>suit_count[a - A_NOMINATE]
            continue
        rank = os_rank(a)
        value = <double>card_points(a, s.opt.face)     # CE-8: what is left is penalty points
        if plays_left <= G_ENDGAME_PLAYS:     # CE-7.2: the hand ends soon, shed points
            values[k] = value
            continue
        if rank == EIGHT_RANK:
            values[k] = value - G_EIGHT_COST
            continue
        # the other cards of its suit (every copy of the card itself left out)
        value += G_SAME_SUIT * (suit_count[os_suit(a)] - hand.count[a])
        if s.opt.special and next_size <= G_CLOSE:
            if rank == DRAW_TWO_RANK:
                value += G_TWO_BONUS
            elif rank == SKIP_RANK:
                value += G_SKIP_BONUS
            elif rank == REVERSE_RANK and next_size < previous_size:
                value += G_REVERSE_BONUS
        values[k] = value
    return best_by_value(values, n, rng, ties)


cdef GameHooks CE_HOOKS = game_hooks(
    name="crazy_eights",
    state_size=sizeof(CEState),
    num_actions=NUM_ACTIONS,
    max_legal=MAX_LEGAL,
    start=ce_start,
    legal=ce_legal,
    apply=ce_apply,
    observation_size=ce_observation_size,
    observe=ce_observe,
    returns=ce_returns,
    scores=ce_scores,
    sample_hidden=ce_sample_hidden,
    zones=ZONES,
    num_zones=NUM_ZONES,
    zone_cards=ce_zone_cards,
    breakdown=ce_breakdown,
    greedy=ce_greedy,
    known_cards=ce_known_cards,
    rollout=NULL,
    hand_cards=NULL)

MAX_DRAW_CARDS_LIMIT = 10_000        # CE-5.1: more than a deck's worth changes nothing
MAX_TURNS_LIMIT = 1_000_000          # CE-7.2: counters stay far inside 32 bits


# ---------------------------------------------------------------- the Python-visible state
cdef class CrazyEightsState(GameState):
    """Crazy Eights: the struct above, bound to the framework; getters for the view (card
    lists in cardcore ids)."""
    cdef CEState d

    match_end_rule = "CE-7"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(CEState))
        self.bind(&CE_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
        if not 1 <= options["max_draw_cards"] <= MAX_DRAW_CARDS_LIMIT:
            raise ValueError("max_draw_cards out of range")
        if not 1 <= options["max_turns"] <= MAX_TURNS_LIMIT:
            raise ValueError("max_turns out of range")
        composition = _COMPOSITIONS[decks_for(players) - 1]
        init_header(&self.d.h, players, deck, composition)
        self.d.opt.max_draw_cards = options["max_draw_cards"]
        self.d.opt.max_turns = options["max_turns"]
        self.d.opt.special = bool(options["use_special_cards"])
        self.d.opt.reshuffle = bool(options["reshuffle"])
        self.d.opt.face = options["scoring"] == "face"
        dealer = options["dealer"]
        self.d.opt.dealer = -1 if dealer is None else dealer
        self.d.decks = decks_for(players)
        self.d.hand_size = hand_size_for(players)
        self.d.deck_size = load_cards(self.d.deck, composition, MAX_DECK)
        self.d.direction = 1
        self.d.obs_size = obs_layout(players, self.d.opt.special, self.d.obs_offset)
        self.d.h.phase = PH_OVER

    def explain_rule(self, int action) -> tuple:
        cdef CEState* s = &self.d
        cdef int p = s.h.to_move
        from cardcore.cards import card_str
        if s.h.phase == PH_NOMINATE:
            return ("after an eight, nominate a suit first", "CE-3.3")
        if action >= A_NOMINATE:
            return ("a suit is nominated only right after playing an eight", "CE-3.3")
        if action == A_PASS:
            if s.twos_owed > 0:
                return (f"you owe {s.twos_owed} cards: play a 2 or draw them", "CE-4.4")
            return (f"you may pass only after drawing {s.opt.max_draw_cards} card(s) this turn "
                    f"or with the stock empty", "CE-5.2")
        if action == A_DRAW:
            if s.stock.size == 0:
                return ("the stock is empty", "CE-5.3")
            return (f"you have drawn {s.opt.max_draw_cards} card(s) this turn (max_draw_cards)",
                    "CE-5.1")
        name = card_str(CARD_ID_OF[action])
        if s.hand[p].count[action] == 0:
            return (f"you do not hold {name}", "CE-3.1")
        if s.twos_owed > 0:
            return (f"you owe {s.twos_owed} cards: only a 2 may be played", "CE-4.3")
        return (f"{name} matches neither the suit {SUIT_LETTERS[s.last_suit]} nor the rank of "
                f"{card_str(CARD_ID_OF[s.last_card])}", "CE-3.1")

    # --- the zones (cardcore ids)
    def hand(self, p) -> list:
        return zone_list(&self.d, Z_HAND, self.check_seat(p))

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(self.d.h.players)]

    def stock(self) -> list:
        """The stock top-first (hidden information: for tests and tools only)."""
        return zone_list(&self.d, Z_STOCK, 0)[::-1]

    def discard(self) -> list:
        """The discard pile, bottom to top."""
        return zone_list(&self.d, Z_DISCARD, 0)

    def last_drawn(self) -> list:
        """The cards the last action drew, in order (hidden information: tests and events)."""
        return [CARD_ID_OF[self.d.drawn[i]] for i in range(self.d.n_drawn)]

    def all_cards(self) -> list:
        cards = []
        for p in range(self.d.h.players):
            cards += zone_list(&self.d, Z_HAND, p)
        return cards + zone_list(&self.d, Z_STOCK, 0) + zone_list(&self.d, Z_DISCARD, 0)

    # --- the public counters
    @property
    def top_card(self) -> int:
        return CARD_ID_OF[self.d.last_card]

    @property
    def suit(self) -> str:
        """The suit to follow (CE-3.1; an eight's nominated suit, CE-3.3)."""
        return SUIT_LETTERS[self.d.last_suit]

    @property
    def direction(self) -> int:
        return self.d.direction

    @property
    def stock_size(self) -> int:
        return self.d.stock.size

    @property
    def draws_this_turn(self) -> int:
        return self.d.draws

    @property
    def draw_two_owed(self) -> int:
        return self.d.twos_owed

    @property
    def passes(self) -> int:
        return self.d.passes

    @property
    def plays(self) -> int:
        return self.d.plays

    @property
    def reshuffles(self) -> int:
        return self.d.reshuffles

    def reburied(self) -> list:
        """CE-2.4: the eights turned up at the deal and put back (cardcore ids, with repeats)."""
        return [CARD_ID_OF[eight_of(k)] for k in range(NUM_SUITS) for _ in range(self.d.reburied[k])]

    def stock_bottom_known(self) -> list:
        """A stacked deal's reburied eights still at the stock bottom (bottom first)."""
        return [CARD_ID_OF[self.d.stock.cards[i]] for i in range(self.d.known_bottom)]

    def known_eights(self, p) -> list:
        """Eights everybody knows seat p holds (drawn from the known stock bottom)."""
        cdef int q = self.check_seat(p)
        return [CARD_ID_OF[eight_of(k)] for k in range(NUM_SUITS) for _ in range(self.d.known_eights[q][k])]

    def penalties(self) -> list:
        return [self.d.penalty[p] for p in range(self.d.h.players)]

    def source_classes(self, p) -> list:
        """(card id, class) of each unknown copy in p's hand (tests of sample_hidden)."""
        cdef int q = self.check_seat(p), c, k
        return sorted((CARD_ID_OF[c], self.d.hand_cls[q][c][k]) for c in range(NUM_CARDS)
                      for k in range(unknown_count(&self.d, q, c)))

    @property
    def stock_class(self) -> int:
        return self.d.stock_cls

    @property
    def reburied_tracked(self) -> list:
        """The reburied eights whose place sample_hidden draws from their posterior."""
        if not self.d.e_active:
            return []
        return [CARD_ID_OF[eight_of(k)] for k in range(NUM_SUITS) if self.d.e_hidden[k]]


check_state_class(CrazyEightsState)
