# cython: language_level=3, cdivision=True
"""Kings' Stakes state machine (rules: games/kings_stakes.md, rule IDs KS-x.y).

Action space (the same 320 ids for every configuration; pinned by tests/test_kings_stakes_actions.py):
    0..51     play one natural card (id = card id)                       KS-4.1, KS-5.1..5.4
    52..62    play a joker alone as value 1..11                          KS-4.4
    63..166   play two natural cards: same-rank numbers, same-suit       KS-4.2, KS-5.5, KS-5.6
              adjacent numbers, K+Q or Q+J of a suit; ordered by (lower id, higher id)
    167..294  play a natural card with a joker, one id per meaning of    KS-4.4
              the joker, ordered by the natural card's id
    295..315  play both jokers as a pair worth 2..22                     KS-4.4
    316       play four kings                                            KS-5.7
    317       take the table                                             KS-6
    318       refill (refill="manual")                                   KS-7.1
    319       end the turn without refilling (refill="manual")           KS-7.1
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint64_t, INT32_MAX
from libc.string cimport memset

from cardcore._fast cimport (
    pile_copy, copy_breakdown,
    GameState, GameHooks, Header, Rng, Multiset, Pile, ZoneSpec, BreakdownRow, ZONE_SHARED,
    ZONE_SEAT, SEEN_BY_ALL, SEEN_BY_OWNER, SEEN_BY_NONE, JOKER, NUM_KINDS, PILE_CAPACITY,
    MS_MAX_COPIES, R_JACK, R_QUEEN, R_KING, R_TEN, R_ACE, card_rank, card_suit, card_bit,
    make_card, rank_mask, ms_clear, ms_add, ms_remove, ms_count, ms_count_rank, ms_to_list,
    ms_to_array, pile_push, pile_pop, pile_to_list, load_cards, rng_below, shuffle_u8,
    lowest_card, game_hooks, init_header, deal_prologue, best_by_value,
)
from cardcore._fast import build_deck, check_state_class

# ---------------------------------------------------------------- rule constants
cdef enum:
    C_HAND_SIZE = 4           # KS-3.1, KS-4.5: deal and refill up to 4
    FULL_DECK = 54            # KS-1.1 (50 with 2 players, KS-1.2)
    MAX_PLAYERS = 6           # KS-1.4
    KING_ON_EMPTY_STAKE = 15  # KS-5.4
    QUEEN_JACK_RAISE = 10     # KS-5.6
    JACK_RAISE = 1            # KS-5.1
    JOKER_MIN_VALUE = 1       # KS-4.4: a lone joker names a value 1..11
    JOKER_MAX_VALUE = 11

cdef inline int card_value(int card) noexcept nogil:
    """KS-2.1: 2..10 at pip value, the ace 11; 0 for J, Q, K and the joker."""
    cdef int r = card_rank(card)
    if r == R_ACE:
        return 11
    if 1 <= r <= R_TEN:
        return r + 1
    return 0

# ---------------------------------------------------------------- action table
cdef enum:
    NUM_ACTIONS = 320
    FIRST_JOKER_SINGLE = 52
    FIRST_NATURAL_PAIR = 63
    FIRST_JOKER_PAIR = 167
    FIRST_TWO_JOKERS = 295
    A_FOUR_KINGS = 316
    A_TAKE = 317
    A_REFILL = 318
    A_END_TURN = 319

# What a play does (KS-4.3 for numbers, KS-5 for the specials).
cdef enum Effect:
    E_NONE = 0           # take / refill / end_turn
    E_NUMBER = 1         # KS-4.1, KS-4.2: amount against the stake
    E_JACK = 2           # KS-5.1
    E_QUEEN = 3          # KS-5.2
    E_KING = 4           # KS-5.3 / KS-5.4
    E_KING_QUEEN = 5     # KS-5.5
    E_QUEEN_JACK = 6     # KS-5.6
    E_FOUR_KINGS = 7     # KS-5.7

# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
PLAY_JOKER_FIRST = FIRST_JOKER_SINGLE    # a lone joker as 1..11
PLAY_PAIR_FIRST = FIRST_NATURAL_PAIR
PLAY_WITH_JOKER_FIRST = FIRST_JOKER_PAIR
PLAY_TWO_JOKERS_FIRST = FIRST_TWO_JOKERS
PLAY_FOUR_KINGS = A_FOUR_KINGS
TAKE = A_TAKE
REFILL = A_REFILL
END_TURN = A_END_TURN

cdef int8_t ACT_CARD1[NUM_ACTIONS]      # natural card played, or -1
cdef int8_t ACT_CARD2[NUM_ACTIONS]      # second natural card, or -1
cdef int8_t ACT_JOKERS[NUM_ACTIONS]     # jokers played (0..2)
cdef int8_t ACT_EFFECT[NUM_ACTIONS]
cdef int8_t ACT_AMOUNT[NUM_ACTIONS]
cdef bint ACT_JOKER_IS_QUEEN[NUM_ACTIONS]   # KS-4.4 Decision: impossible without queens
cdef int32_t STAKE_LIMIT[2][NUM_ACTIONS] # [2 players?][id]: the highest stake the play may meet
cdef int16_t PAIR_ID[52][52]            # natural pair -> id, -1 if not a play
cdef uint64_t PARTNERS[52]              # the cards b with PAIR_ID[a][b] >= 0, as a mask
cdef int16_t JOKER_PAIR_FIRST[52]       # first joker+card id for a card, count below
cdef int8_t JOKER_PAIR_COUNT[52]

_TABLE = []                             # Python copy: (kind, naturals, jokers, meaning, effect, amount)
_EFFECT_NAMES = ("none", "number", "jack", "queen", "king", "king_queen", "queen_jack", "four_kings")


cdef int natural_effect(int card):
    cdef int r = card_rank(card)
    return {R_JACK: E_JACK, R_QUEEN: E_QUEEN, R_KING: E_KING}.get(r, E_NUMBER)


cdef void add_action(list meaning, int c1, int c2, int jokers, int effect, int amount,
                     bint joker_is_queen=False):
    cdef int i = len(_TABLE)
    ACT_CARD1[i] = c1
    ACT_CARD2[i] = c2
    ACT_JOKERS[i] = jokers
    ACT_EFFECT[i] = effect
    ACT_AMOUNT[i] = amount
    ACT_JOKER_IS_QUEEN[i] = joker_is_queen
    naturals = tuple(c for c in (c1, c2) if c >= 0)
    _TABLE.append(("play" if effect != E_NONE else "", naturals, jokers, tuple(meaning),
                   _EFFECT_NAMES[effect], amount))


def _natural_pair_effect(int a, int b):
    """(effect, amount) of two natural cards played together, or None (KS-4.2, KS-5.5, KS-5.6)."""
    ra, rb, sa, sb = card_rank(a), card_rank(b), card_suit(a), card_suit(b)
    va, vb = card_value(a), card_value(b)
    if va and vb:
        if ra == rb or (sa == sb and abs(va - vb) == 1):
            return (E_NUMBER, va + vb)
        return None
    if sa == sb and {ra, rb} == {R_KING, R_QUEEN}:
        return (E_KING_QUEEN, 0)
    if sa == sb and {ra, rb} == {R_QUEEN, R_JACK}:
        return (E_QUEEN_JACK, 0)
    return None            # KS-4.2 Decision: no J-J, Q-Q, K-K, no face card with a number


cdef void build_table():
    cdef int c, a, b, v, s, r, w
    memset(PAIR_ID, -1, sizeof(PAIR_ID))
    memset(PARTNERS, 0, sizeof(PARTNERS))
    for c in range(52):                                        # singles
        add_action([], c, -1, 0, natural_effect(c), card_value(c))
    for v in range(JOKER_MIN_VALUE, JOKER_MAX_VALUE + 1):      # lone joker
        add_action([v], -1, -1, 1, E_NUMBER, v)
    assert len(_TABLE) == FIRST_NATURAL_PAIR
    for a in range(52):                                        # natural pairs
        for b in range(a + 1, 52):
            found = _natural_pair_effect(a, b)
            if found is not None:
                PAIR_ID[a][b] = PAIR_ID[b][a] = len(_TABLE)
                PARTNERS[a] |= card_bit(b)
                PARTNERS[b] |= card_bit(a)
                add_action([], a, b, 0, found[0], found[1])
    assert len(_TABLE) == FIRST_JOKER_PAIR, len(_TABLE)
    for c in range(52):                                        # a card with a joker
        JOKER_PAIR_FIRST[c] = len(_TABLE)
        s, r, w = card_suit(c), card_rank(c), card_value(c)
        if w:
            add_action(["same"], c, -1, 1, E_NUMBER, 2 * w)    # joker as the same rank
            for partner_rank in range(13):                     # joker as the adjacent card
                partner = make_card(s, partner_rank)
                pv = card_value(partner)
                if pv and abs(pv - w) == 1:
                    add_action([partner], c, -1, 1, E_NUMBER, w + pv)
        elif r == R_KING:
            add_action([make_card(s, R_QUEEN)], c, -1, 1, E_KING_QUEEN, 0, True)
        elif r == R_QUEEN:
            add_action([make_card(s, R_KING)], c, -1, 1, E_KING_QUEEN, 0)
            add_action([make_card(s, R_JACK)], c, -1, 1, E_QUEEN_JACK, 0)
        elif r == R_JACK:
            add_action([make_card(s, R_QUEEN)], c, -1, 1, E_QUEEN_JACK, 0, True)
        JOKER_PAIR_COUNT[c] = len(_TABLE) - JOKER_PAIR_FIRST[c]
    assert len(_TABLE) == FIRST_TWO_JOKERS, len(_TABLE)
    for v in range(2, 23):                                     # two jokers: values (v//2, v-v//2)
        add_action([v // 2, v - v // 2], -1, -1, 2, E_NUMBER, v)
    add_action([], -1, -1, 0, E_FOUR_KINGS, 0)
    assert len(_TABLE) == A_FOUR_KINGS + 1
    for kind in ("take", "refill", "end_turn"):
        add_action([], -1, -1, 0, E_NONE, 0)
        _TABLE[-1] = (kind,) + _TABLE[-1][1:]
    assert len(_TABLE) == NUM_ACTIONS
    # Whether a play is allowed is one comparison, stake <= STAKE_LIMIT[players == 2][id].
    for i in range(NUM_ACTIONS):
        for two in range(2):
            if ACT_JOKER_IS_QUEEN[i] and two:                  # KS-4.4 Decision
                STAKE_LIMIT[two][i] = -1                       # stakes are >= 0: never
            elif ACT_EFFECT[i] == E_NUMBER:                    # KS-4.3
                STAKE_LIMIT[two][i] = ACT_AMOUNT[i]
            else:                                              # KS-5: always allowed
                STAKE_LIMIT[two][i] = INT32_MAX
    # legal_play_phase starts the joker runs at the first allowed value: each run's amounts
    # must be its values, ascending.
    for v in range(JOKER_MIN_VALUE, JOKER_MAX_VALUE + 1):
        i = FIRST_JOKER_SINGLE + v - JOKER_MIN_VALUE
        assert ACT_EFFECT[i] == E_NUMBER and ACT_AMOUNT[i] == v and not ACT_JOKER_IS_QUEEN[i]
    for i in range(FIRST_TWO_JOKERS, A_FOUR_KINGS):
        assert ACT_EFFECT[i] == E_NUMBER and ACT_AMOUNT[i] == i - FIRST_TWO_JOKERS + 2

build_table()


def action_table() -> list:
    """One tuple per id: (kind, natural card ids, jokers, joker meaning, effect, amount).
    The joker meaning is () or a tuple: a value per joker, a card id it stands for, or "same"."""
    return list(_TABLE)


def num_actions() -> int:
    return NUM_ACTIONS


HAND_SIZE = C_HAND_SIZE

# ---------------------------------------------------------------- scoring (KS-9)
cdef void score_round(int players, const int* counts, int four_kings_player, bint by_cards,
                      int32_t* out) noexcept nogil:
    """Round points from the penalty-card counts; fewer is better."""
    cdef int p, q, worse, points
    for p in range(players):
        if p == four_kings_player:             # KS-9.3: the four-kings player scores 0
            out[p] = 0
            continue
        if by_cards:                           # KS-9.6: one card, one point
            points = counts[p]
        elif counts[p] == 0:                   # KS-9.1
            points = 0
        else:                                  # KS-9.2; ties share the lower rank. Decision:
            worse = 0                          # the four-kings player is not ranked (KS-9.3)
            for q in range(players):
                if q != four_kings_player and 0 < counts[q] < counts[p]:
                    worse += 1
            points = 1 + worse
        if four_kings_player >= 0:             # KS-9.3: everyone else one point more
            points += 1
        out[p] = points


def round_points(counts, four_kings_player=None, scoring="rank") -> list:
    """KS-9 round points for penalty-card counts (the function the state machine uses)."""
    cdef int n = len(counts), p
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"need 2..{MAX_PLAYERS} counts")
    if scoring not in ("rank", "cards"):
        raise ValueError("scoring must be 'rank' or 'cards'")
    fk = -1 if four_kings_player is None else int(four_kings_player)
    if not -1 <= fk < n:
        raise ValueError("four_kings_player out of range")
    cdef int c_counts[MAX_PLAYERS]
    cdef int32_t out[MAX_PLAYERS]
    for p in range(n):
        if counts[p] < 0:
            raise ValueError("counts must be >= 0")
        c_counts[p] = counts[p]
    score_round(n, c_counts, fk, scoring == "cards", out)
    return [out[p] for p in range(n)]


# ---------------------------------------------------------------- the state
cdef enum Phase:
    PH_PLAY = 0          # KS-4 / KS-6: play or take
    PH_REFILL = 1        # KS-7.1: refill or end the turn (refill="manual")
    PH_OVER = 2

PHASES = ("play", "refill", "over")

ctypedef struct KSOptions:             # the resolved options (defaults: the wrapper's options_spec)
    bint manual_refill                 # refill="manual" (KS-7.1)
    bint teams                         # KS-9.5
    bint score_cards                   # scoring="cards" (KS-9.6)
    int32_t rounds_total               # KS-9.4
    int32_t first_player               # KS-3.2: a seat, or -1 to draw by lot

ctypedef struct KSState:
    Header h                           # players, phase, to_move, round_index, dealer (KS-3.2), rng
    KSOptions opt
    int32_t deck_size
    uint8_t deck[FULL_DECK]            # the composition, id order (KS-1.1, KS-1.2)
    int32_t direction, stake
    Multiset hand[MAX_PLAYERS]
    Pile stock, table, discard
    Pile penalty[MAX_PLAYERS]          # KS-6.2
    int32_t out_player                 # KS-8.1: the first player out, -1 before
    int32_t final_owed                 # bitmask of players still owed their final turn
    int32_t four_kings_player          # KS-8.3, -1 if none
    int32_t chip_holder                # KS-7, -1 = in the box
    int32_t last_round[MAX_PLAYERS]    # points of the last finished round (KS-9)
    int32_t total[MAX_PLAYERS]         # per player, KS-7.3 included at the end
    int32_t last_player                # who made the last play or take (for the view)
    int32_t last_action
    int32_t breakdown_size             # the last finished round's scoring rows (KS-9)
    BreakdownRow breakdown[MAX_PLAYERS + 1]

if <int>FULL_DECK > <int>PILE_CAPACITY or 2 > <int>MS_MAX_COPIES:
    raise ImportError("Kings' Stakes needs a larger Pile or Multiset than the core provides")


# ---------------------------------------------------------------- the deal plan (KS-3.1)
cdef inline int deal_seat(int players, int first, int position) noexcept nogil:
    """Where deck position ``position`` (0 = top) goes: a seat's hand, or -1 for the stock.
    Four cards each, one at a time, starting with the round's first player."""
    if position < C_HAND_SIZE * players:
        return (first + position % players) % players
    return -1


def deal_plan(int players, int first) -> list:
    """The zone of each deck position (top first): "hand:<seat>" or "stock". The deal below
    walks this same function, so tests and the wrapper derive stacked decks from it."""
    if not 2 <= players <= MAX_PLAYERS or not 0 <= first < players:
        raise ValueError("players must be 2..6 and first a seat")
    cdef int n = len(kings_stakes_deck(players))
    return [f"hand:{deal_seat(players, first, i)}" if deal_seat(players, first, i) >= 0
            else "stock" for i in range(n)]


cdef void ks_deal(KSState* s) noexcept nogil:
    """KS-3.1: shuffle (unless stacked), 4 cards each one at a time from the first player."""
    cdef uint8_t order[FULL_DECK]
    cdef int i, p, n = s.deck_size
    deal_prologue(&s.h, s.deck, n, order)
    s.stock.size = 0
    s.table.size = 0
    s.discard.size = 0
    for p in range(s.h.players):
        ms_clear(&s.hand[p])
        s.penalty[p].size = 0
    i = n - 1
    while i >= 0:                          # bottom first, so that order[0] ends on top
        p = deal_seat(s.h.players, s.h.dealer, i)
        if p < 0:
            pile_push(&s.stock, order[i])
        else:
            ms_add(&s.hand[p], order[i])
        i -= 1
    s.h.phase = PH_PLAY
    s.direction = 1                        # KS-3.3
    s.stake = 0                            # KS-3.4
    s.h.to_move = s.h.dealer
    s.out_player = -1
    s.final_owed = 0
    s.four_kings_player = -1
    s.last_player = -1
    s.last_action = -1


cdef void ks_start(void* state) noexcept nogil:
    """KS-3.2: the first player by option or by lot, then deal the first round."""
    cdef KSState* s = <KSState*>state
    if s.opt.first_player >= 0:
        s.h.dealer = s.opt.first_player
    else:
        s.h.dealer = rng_below(&s.h.rng, s.h.players)
    ks_deal(s)


# ---------------------------------------------------------------- legality (one function per phase)
cdef int legal_play_phase(const KSState* s, int32_t* out) noexcept nogil:
    cdef const Multiset* hand = &s.hand[s.h.to_move]
    # KS-4.3 stake rule; specials (KS-5) always; KS-4.4 Decision on queens (STAKE_LIMIT).
    cdef const int32_t* limit = STAKE_LIMIT[s.h.players == 2]
    cdef int stake = s.stake
    cdef uint64_t naturals = hand.plane[0] & ~card_bit(JOKER)
    cdef uint64_t rest
    cdef int jokers = hand.count[JOKER]
    cdef int n = 0, a, b, i, first
    cdef uint64_t m = naturals
    # Each candidate is written, then kept (n grows) only if the stake allows it: whether it
    # does is unpredictable, and a branch on it costs more than the write (out has room for
    # every id, ks_legal's capacity check).
    while m:                                           # singles, ascending ids
        a = lowest_card(m)
        m &= m - 1
        out[n] = a
        n += stake <= limit[a]
    if jokers:                     # values 1..11 ascending: from the first the stake allows
        for i in range(FIRST_JOKER_SINGLE + max(stake - JOKER_MIN_VALUE, 0), FIRST_NATURAL_PAIR):
            out[n] = i
            n += 1
    # Natural pairs: ids grow with (lower card, higher card), the order of this scan (over
    # the higher cards that make a play with the lower one).
    m = naturals
    while m:
        a = lowest_card(m)
        m &= m - 1
        rest = m & PARTNERS[a]
        while rest:
            b = lowest_card(rest)
            rest &= rest - 1
            i = PAIR_ID[a][b]
            out[n] = i
            n += stake <= limit[i]
    if jokers:
        m = naturals
        while m:
            a = lowest_card(m)
            m &= m - 1
            first = JOKER_PAIR_FIRST[a]
            for i in range(first, first + JOKER_PAIR_COUNT[a]):
                out[n] = i
                n += stake <= limit[i]
    if jokers >= 2:                # pairs worth 2..22 ascending: from the first the stake allows
        for i in range(FIRST_TWO_JOKERS + max(stake - 2, 0), A_FOUR_KINGS):
            out[n] = i
            n += 1
    if naturals & rank_mask(R_KING) and ms_count_rank(hand, R_KING) == 4:   # KS-5.7
        out[n] = A_FOUR_KINGS
        n += 1
    if s.table.size > 0:                               # KS-6.1
        out[n] = A_TAKE
        n += 1
    return n


cdef int ks_legal(void* state, int32_t* out, int capacity) noexcept nogil:
    cdef KSState* s = <KSState*>state
    if capacity < NUM_ACTIONS:                         # every id at once still fits
        return -1
    if s.h.phase == PH_PLAY:
        return legal_play_phase(s, out)
    if s.h.phase == PH_REFILL:
        out[0] = A_REFILL
        out[1] = A_END_TURN
        return 2
    return 0


# ---------------------------------------------------------------- applying
cdef void ks_apply(void* state, int action) noexcept nogil:
    cdef KSState* s = <KSState*>state
    cdef int p = s.h.to_move
    if action != A_REFILL and action != A_END_TURN:
        s.last_player = p                  # the last play or take, for the view
        s.last_action = action
    if action == A_TAKE:
        take(s, p)
    elif action == A_REFILL:
        refill(s, p)
        end_turn(s, p)
    elif action == A_END_TURN:
        s.chip_holder = p                  # KS-7.1: forgot to refill
        end_turn(s, p)
    else:
        play(s, p, action)


cdef void play(KSState* s, int p, int action) noexcept nogil:
    cdef int c1 = ACT_CARD1[action], c2 = ACT_CARD2[action], k
    cdef int effect = ACT_EFFECT[action], amount = ACT_AMOUNT[action]
    cdef bint table_was_empty = s.table.size == 0
    cdef Multiset* hand = &s.hand[p]
    if effect == E_FOUR_KINGS:
        for k in range(4):
            ms_remove(hand, make_card(k, R_KING))
            pile_push(&s.table, make_card(k, R_KING))
        s.four_kings_player = p            # KS-8.3: the round ends at once
        end_round(s)
        return
    if c1 >= 0:
        ms_remove(hand, c1)
        pile_push(&s.table, c1)
    if c2 >= 0:
        ms_remove(hand, c2)
        pile_push(&s.table, c2)
    for k in range(ACT_JOKERS[action]):
        ms_remove(hand, JOKER)
        pile_push(&s.table, JOKER)
    if effect == E_NUMBER:                 # KS-4.3
        if amount > s.stake:
            s.stake = amount
        elif amount == s.stake and s.stake > 0:
            s.stake *= 2
    elif effect == E_JACK:                 # KS-5.1
        s.stake += JACK_RAISE
    elif effect == E_QUEEN:                # KS-5.2
        s.direction = -s.direction
    elif effect == E_KING:
        if table_was_empty:                # KS-5.4
            s.stake = KING_ON_EMPTY_STAKE
        else:                              # KS-5.3: the table goes out of play
            move_table_to(s, &s.discard)
            s.stake = 0
    elif effect == E_KING_QUEEN:           # KS-5.5
        s.stake = 0
        s.direction = -s.direction
    elif effect == E_QUEEN_JACK:           # KS-5.6
        s.direction = -s.direction
        s.stake += QUEEN_JACK_RAISE
    if s.opt.manual_refill:                # KS-7.1: the player chooses
        if hand.total < C_HAND_SIZE and s.stock.size > 0:
            s.h.phase = PH_REFILL
            return
    else:                                  # KS-4.5
        refill(s, p)
    end_turn(s, p)


cdef void move_table_to(KSState* s, Pile* pile) noexcept nogil:
    """Move the whole table onto pile, keeping the cards in play order."""
    cdef int i
    for i in range(s.table.size):
        pile_push(pile, s.table.cards[i])
    s.table.size = 0


cdef void refill(KSState* s, int p) noexcept nogil:
    while s.hand[p].total < C_HAND_SIZE and s.stock.size > 0:
        ms_add(&s.hand[p], pile_pop(&s.stock))


cdef void take(KSState* s, int p) noexcept nogil:
    """KS-6.2: the table goes to the taker's penalty pile; KS-6.3 / KS-8.2 what follows."""
    move_table_to(s, &s.penalty[p])
    s.stake = 0
    if s.out_player >= 0:                  # KS-8.2: a take in the final turns ends the round
        end_round(s)
    # else KS-6.3: the same player now leads onto the empty table (phase stays "play")


cdef void end_turn(KSState* s, int p) noexcept nogil:
    """Close p's turn, start the final turns when someone is out (KS-8.1), pass the turn."""
    s.h.phase = PH_PLAY
    if s.out_player >= 0:
        s.final_owed &= ~(1 << p)
    elif s.hand[p].total == 0 and s.stock.size == 0:
        go_out(s, p)
    advance(s, p)


cdef void go_out(KSState* s, int p) noexcept nogil:
    cdef int q
    s.out_player = p
    s.final_owed = 0
    for q in range(s.h.players):
        if q != p and s.hand[q].total > 0:
            s.final_owed |= 1 << q


cdef void advance(KSState* s, int p) noexcept nogil:
    """Pass the turn in the current direction to the next seat that may move."""
    cdef int q = p, steps
    s.h.turns += 1
    while True:
        if s.out_player >= 0 and s.final_owed == 0:
            end_round(s)                   # KS-8.1: everyone had a final turn
            return
        for steps in range(s.h.players):
            q = (q + s.direction + s.h.players) % s.h.players
            if s.out_player < 0 or (s.final_owed >> q) & 1:
                break
        if s.opt.manual_refill:
            refill(s, q)                   # KS-7.2: a short hand is topped up first
        if s.hand[q].total > 0:
            s.h.to_move = q
            return
        # Decision (KS-7.2): an empty hand with an empty stock at the start of a turn is out.
        if s.out_player < 0:
            go_out(s, q)
        else:
            s.final_owed &= ~(1 << q)


# ---------------------------------------------------------------- the scoring breakdown (KS-9)
# The rows end_round writes as it scores, so that the round-end event shows the engine's own
# figures. Indexes into BREAKDOWN_WHAT and BREAKDOWN_RULES below.
cdef enum:
    W_PENALTY_CARDS = 0
    W_CHIP = 1
    R_KS_9_1 = 0
    R_KS_9_2 = 1
    R_KS_9_3 = 2
    R_KS_9_6 = 3
    R_KS_7_3 = 4

BREAKDOWN_WHAT = ("penalty cards", "forget-me chip")
BREAKDOWN_RULES = ("KS-9.1", "KS-9.2", "KS-9.3", "KS-9.6", "KS-7.3")


cdef inline int penalty_rule(const KSState* s, int count) noexcept nogil:
    """The rule that scored a seat's penalty cards this round."""
    if s.four_kings_player >= 0:
        return R_KS_9_6 if s.opt.score_cards else R_KS_9_3
    if s.opt.score_cards:
        return R_KS_9_6
    return R_KS_9_1 if count == 0 else R_KS_9_2


cdef inline void add_row(KSState* s, int seat, int what, int rule, int count,
                         int points) noexcept nogil:
    cdef BreakdownRow* row = &s.breakdown[s.breakdown_size]
    row.owner = seat
    row.what = what
    row.rule = rule
    row.detail = -1
    row.count = count
    row.points = points
    s.breakdown_size += 1


cdef int ks_breakdown(const void* state, BreakdownRow* out, int capacity) noexcept nogil:
    cdef const KSState* s = <const KSState*>state
    return copy_breakdown(s.breakdown, s.breakdown_size, out, capacity)


cdef void end_round(KSState* s) noexcept nogil:
    """KS-8.4 leftovers to the discard, KS-9 scoring, then the next round or the end."""
    cdef int p, q
    cdef int counts[MAX_PLAYERS]
    for p in range(s.h.players):
        while s.hand[p].total > 0:
            q = lowest_card(s.hand[p].plane[0])
            ms_remove(&s.hand[p], q)
            pile_push(&s.discard, q)
    move_table_to(s, &s.discard)
    for p in range(s.h.players):
        counts[p] = s.penalty[p].size
    score_round(s.h.players, counts, s.four_kings_player, s.opt.score_cards, s.last_round)
    s.breakdown_size = 0
    for p in range(s.h.players):
        s.total[p] += s.last_round[p]
        add_row(s, p, W_PENALTY_CARDS, penalty_rule(s, counts[p]), counts[p], s.last_round[p])
    s.h.round_index += 1
    if s.h.round_index >= s.opt.rounds_total:
        if s.chip_holder >= 0:             # KS-7.3
            s.total[s.chip_holder] += 1
            add_row(s, s.chip_holder, W_CHIP, R_KS_7_3, 1, 1)
        s.h.phase = PH_OVER
        s.h.to_move = -1
        return
    s.h.dealer = (s.h.dealer + 1) % s.h.players       # KS-3.2 Decision
    ks_deal(s)


# ---------------------------------------------------------------- results (KS-9.4, KS-9.5)
cdef inline int32_t seat_score(const KSState* s, int p) noexcept nogil:
    """Penalty points shown for a seat: its own, or its team's with teams (KS-9.5)."""
    if s.opt.teams:
        return s.total[p] + s.total[(p + 2) % 4]
    return s.total[p]


cdef void ks_returns(const void* state, double* out) noexcept nogil:
    """Higher is better: minus the penalty points (a player's, or the team's)."""
    cdef const KSState* s = <const KSState*>state
    cdef int p
    for p in range(s.h.players):
        out[p] = -<double>seat_score(s, p)


cdef void ks_scores(const void* state, int32_t* out) noexcept nogil:
    cdef const KSState* s = <const KSState*>state
    cdef int p
    for p in range(s.h.players):
        out[p] = seat_score(s, p)


# ---------------------------------------------------------------- the per-seat projection
# The observation: what view(seat) shows, as floats. Seats are absolute, padded to 6; counts
# per card id (0..52). One source for the layout: these offsets, and OBSERVATION_PIECES below.
cdef enum:
    NUM_IDS = NUM_KINDS
    SEATS = MAX_PLAYERS
    O_OBSERVER = 0                                  # one-hot: the seat observing
    O_TO_MOVE = O_OBSERVER + SEATS                  # one-hot: the seat to move (none when over)
    O_PHASE = O_TO_MOVE + SEATS                     # one-hot: play, refill, over
    O_HAND = O_PHASE + 3                            # the observer's hand, count per card id
    O_TABLE = O_HAND + NUM_IDS                      # the table, count per card id
    O_DISCARD = O_TABLE + NUM_IDS                   # out of play (KS-5.3, KS-8.4)
    O_PENALTY_COUNTS = O_DISCARD + NUM_IDS          # penalty cards per seat (KS-6.2)
    O_HAND_SIZES = O_PENALTY_COUNTS + SEATS
    O_SCORES = O_HAND_SIZES + SEATS                 # penalty points shown per seat (KS-9.4/9.5)
    O_STAKE = O_SCORES + SEATS
    O_DIRECTION = O_STAKE + 1                       # +1 clockwise, -1 counter-clockwise
    O_STOCK_SIZE = O_DIRECTION + 1
    O_CHIP_HOLDER = O_STOCK_SIZE + 1                # one-hot seat, last = in the box (KS-7)
    O_ROUND = O_CHIP_HOLDER + SEATS + 1             # the round being played, 1-based
    O_ROUNDS = O_ROUND + 1
    O_ROUND_FIRST = O_ROUNDS + 1                    # one-hot: the round's first player
    O_OUT_PLAYER = O_ROUND_FIRST + SEATS            # one-hot seat, last = nobody out yet
    O_FINAL_OWED = O_OUT_PLAYER + SEATS + 1         # 1 for each seat owed a final turn (KS-8.1)
    O_LAST_PLAYER = O_FINAL_OWED + SEATS            # one-hot seat, last = none this round
    O_LAST_ACTION = O_LAST_PLAYER + SEATS + 1       # one-hot action id of the last play or take
    O_TEAMS = O_LAST_ACTION + NUM_ACTIONS           # 1 when partners sit opposite (KS-9.5)
    OBSERVATION_SIZE = O_TEAMS + 1

OBSERVATION_PIECES = tuple((name, offset, size) for name, offset, size in (
    ("observer", O_OBSERVER, SEATS), ("current_player", O_TO_MOVE, SEATS), ("phase", O_PHASE, 3),
    ("hand", O_HAND, NUM_IDS), ("table", O_TABLE, NUM_IDS), ("discard", O_DISCARD, NUM_IDS),
    ("penalty_counts", O_PENALTY_COUNTS, SEATS), ("hand_sizes", O_HAND_SIZES, SEATS),
    ("scores", O_SCORES, SEATS), ("stake", O_STAKE, 1), ("direction", O_DIRECTION, 1),
    ("stock_size", O_STOCK_SIZE, 1), ("chip_holder", O_CHIP_HOLDER, SEATS + 1),
    ("round", O_ROUND, 1), ("rounds", O_ROUNDS, 1), ("round_first_player", O_ROUND_FIRST, SEATS),
    ("out_player", O_OUT_PLAYER, SEATS + 1), ("final_turns_owed", O_FINAL_OWED, SEATS),
    ("last_play_player", O_LAST_PLAYER, SEATS + 1), ("last_play_action", O_LAST_ACTION, NUM_ACTIONS),
    ("teams", O_TEAMS, 1)))


cdef int ks_observation_size(const void* state) noexcept nogil:
    return OBSERVATION_SIZE


cdef inline void one_hot(float* out, int offset, int index, int none_index) noexcept nogil:
    out[offset + (index if index >= 0 else none_index)] = 1.0


cdef void add_pile(float* out, int offset, const Pile* pile) noexcept nogil:
    cdef int i
    for i in range(pile.size):
        out[offset + pile.cards[i]] += 1.0


cdef void ks_observe(const void* state, int seat, float* out) noexcept nogil:
    """What ``seat`` sees: its own hand, every public zone, sizes of the hidden ones."""
    cdef const KSState* s = <const KSState*>state
    cdef int p, c
    memset(out, 0, OBSERVATION_SIZE * sizeof(float))
    out[O_OBSERVER + seat] = 1.0
    if s.h.to_move >= 0:
        out[O_TO_MOVE + s.h.to_move] = 1.0
    out[O_PHASE + s.h.phase] = 1.0
    for c in range(NUM_IDS):
        out[O_HAND + c] = s.hand[seat].count[c]
    add_pile(out, O_TABLE, &s.table)
    add_pile(out, O_DISCARD, &s.discard)
    for p in range(s.h.players):
        out[O_PENALTY_COUNTS + p] = s.penalty[p].size
        out[O_HAND_SIZES + p] = s.hand[p].total
        out[O_SCORES + p] = seat_score(s, p)
        if (s.final_owed >> p) & 1:
            out[O_FINAL_OWED + p] = 1.0
    out[O_STAKE] = s.stake
    out[O_DIRECTION] = s.direction
    out[O_STOCK_SIZE] = s.stock.size
    one_hot(out, O_CHIP_HOLDER, s.chip_holder, SEATS)
    out[O_ROUND] = s.h.round_index + (0 if s.h.to_move < 0 else 1)
    out[O_ROUNDS] = s.opt.rounds_total
    out[O_ROUND_FIRST + s.h.dealer] = 1.0
    one_hot(out, O_OUT_PLAYER, s.out_player, SEATS)
    one_hot(out, O_LAST_PLAYER, s.last_player, SEATS)
    if s.last_action >= 0:
        out[O_LAST_ACTION + s.last_action] = 1.0
    out[O_TEAMS] = 1.0 if s.opt.teams else 0.0


# ---------------------------------------------------------------- the zones: who sees what
cdef enum:                  # the zones, in ZONES order
    Z_HAND = 0             # each seat's hand: its own (KS-3.1)
    Z_STOCK = 1            # face down (KS-3.1)
    Z_TABLE = 2            # the plays of the trick, face up (KS-4)
    Z_DISCARD = 3          # out of play, face up (KS-5.3, KS-8.4)
    Z_PENALTY = 4          # taken tables (KS-6.2): face down, but every card was on the table
    NUM_ZONES = 5

cdef ZoneSpec ZONES[NUM_ZONES]
ZONES[Z_HAND] = ZoneSpec(b"hand", ZONE_SEAT, 0, SEEN_BY_OWNER)
ZONES[Z_STOCK] = ZoneSpec(b"stock", ZONE_SHARED, 0, SEEN_BY_NONE)
ZONES[Z_TABLE] = ZoneSpec(b"table", ZONE_SHARED, 0, SEEN_BY_ALL)
ZONES[Z_DISCARD] = ZoneSpec(b"discard", ZONE_SHARED, 0, SEEN_BY_ALL)
ZONES[Z_PENALTY] = ZoneSpec(b"penalty", ZONE_SEAT, 0, SEEN_BY_ALL)



cdef int ks_zone_cards(const void* state, int zone, int instance, uint8_t* out) noexcept nogil:
    cdef const KSState* s = <const KSState*>state
    if zone == Z_HAND:
        return ms_to_array(&s.hand[instance], out)
    if zone == Z_STOCK:
        return pile_copy(&s.stock, out)
    if zone == Z_TABLE:
        return pile_copy(&s.table, out)
    if zone == Z_DISCARD:
        return pile_copy(&s.discard, out)
    return pile_copy(&s.penalty[instance], out)


# ---------------------------------------------------------------- determinization
cdef int ks_sample_hidden(void* state, int seat, Rng* rng) noexcept nogil:
    """Redeal the zones ZONES hides from ``seat``: the other hands and the stock. Everything
    played is public and taken cards go to penalty piles (public), so no card of a hidden
    zone is known: any arrangement of those cards with the same zone sizes is consistent,
    and a shuffle draws one uniformly.
    The pool is shuffled from id order, so the world depends only on what ``seat`` knows
    and on ``rng``, never on where the hidden cards really are."""
    cdef KSState* s = <KSState*>state
    cdef uint8_t pool[FULL_DECK]
    cdef uint8_t count[NUM_KINDS]
    cdef int32_t sizes[MAX_PLAYERS]
    cdef int p, k, c, n = 0
    memset(count, 0, sizeof(count))
    for p in range(s.h.players):
        sizes[p] = s.hand[p].total
        if p != seat:
            for c in range(NUM_KINDS):
                count[c] += s.hand[p].count[c]
    for k in range(s.stock.size):
        count[s.stock.cards[k]] += 1
    for c in range(NUM_KINDS):
        for k in range(count[c]):
            pool[n] = <uint8_t>c
            n += 1
    shuffle_u8(rng, pool, n)
    n = 0
    for p in range(s.h.players):
        if p != seat:
            ms_clear(&s.hand[p])
            for k in range(sizes[p]):
                ms_add(&s.hand[p], pool[n])
                n += 1
    for k in range(s.stock.size):
        s.stock.cards[k] = pool[n]
        n += 1
    return 0


# ---------------------------------------------------------------- GreedyBot's policy
# One move ahead on what the seat to move knows: the stake, the sizes of the table and the
# stock, and the cards each legal play spends from its own hand. Every legal action gets a
# value; the highest wins, ties (within 1e-9) broken with one draw (best_by_value). These
# weights are the policy's one source; greedy.py's docstring documents them. Tuned by
# self-play (2,000-game matches, a variant against the previous weights in alternate seats):
# keeping jokers, kings, aces and tens mattered most.
cdef double G_TAKE_BASE = 6.0             # KS-6: the first penalty card turns a 0-point round into >= 1
cdef double G_TAKE_PER_CARD = 3.0         # ... and every card taken costs
cdef double G_REFILL = 1.0                # KS-7.3: forgetting to refill costs a penalty point
cdef double G_END_TURN = -1.0
cdef double G_FOUR_KINGS = 1000.0         # KS-5.7: always
cdef double G_PRESSURE_PER_POINT = 0.25   # KS-4.3: stake points the next player has to meet
cdef int G_UNANSWERABLE = 22              # no number play is worth more (A+A or two jokers)
cdef double G_UNANSWERABLE_BONUS = 4.0    # KS-5: above it only specials answer
cdef double G_CLEAR_PER_CARD = 2.0        # KS-5.3: a king sends the table out of play
cdef double G_SHED_PER_CARD = 2.5         # KS-8.1: stock empty, every card played brings going out closer
cdef double G_KEEP[NUM_KINDS]             # what keeping a card is worth, per card id


cdef void build_greedy_keep():
    cdef int c, r
    for c in range(NUM_KINDS):
        if c == JOKER:
            G_KEEP[c] = 14.0                  # the emergency exit
            continue
        r = card_rank(c)
        if r == R_KING:
            G_KEEP[c] = 10.0                  # a king clears a full table (KS-5.3)
        elif r == R_QUEEN:
            G_KEEP[c] = 3.5
        elif r == R_JACK:
            G_KEEP[c] = 2.0
        elif r == R_ACE:
            G_KEEP[c] = 5.0                   # aces and tens answer high stakes
        elif r == R_TEN:
            G_KEEP[c] = 3.5
        else:                                 # 2..9: a tenth of the pip value
            G_KEEP[c] = 0.1 * (r + 1)

build_greedy_keep()


cdef inline double greedy_pressure(int stake) noexcept nogil:
    """The pressure a stake puts on the next player (KS-4.3, KS-5)."""
    return G_PRESSURE_PER_POINT * min(stake, G_UNANSWERABLE) + (
        G_UNANSWERABLE_BONUS if stake > G_UNANSWERABLE else 0.0)


cdef double greedy_value(int action, int stake, int table_size, int stock_size) noexcept nogil:
    """The value of one legal action (higher is better), from public counters and the cards
    the action spends."""
    cdef int effect = ACT_EFFECT[action], amount = ACT_AMOUNT[action], after, k, cards = 0
    cdef double value, cost = 0.0
    if action == A_TAKE:                                      # KS-6
        return -(G_TAKE_BASE + G_TAKE_PER_CARD * table_size)
    if action == A_REFILL:                                    # KS-7.1
        return G_REFILL
    if action == A_END_TURN:
        return G_END_TURN
    if effect == E_FOUR_KINGS:                                # KS-5.7
        return G_FOUR_KINGS
    if effect == E_NUMBER:                                    # KS-4.3
        if amount > stake:
            after = amount
        elif amount == stake and stake > 0:
            after = 2 * stake
        else:
            after = stake
        value = greedy_pressure(after)
    elif effect == E_JACK:                                    # KS-5.1
        value = greedy_pressure(stake + JACK_RAISE)
    elif effect == E_QUEEN:                                   # KS-5.2
        value = greedy_pressure(stake)
    elif effect == E_QUEEN_JACK:                              # KS-5.6
        value = greedy_pressure(stake + QUEEN_JACK_RAISE)
    elif effect == E_KING:                                    # KS-5.4 / KS-5.3
        value = (greedy_pressure(KING_ON_EMPTY_STAKE) if table_size == 0
                 else G_CLEAR_PER_CARD * table_size)
    else:                                                     # KS-5.5: stake 0, the table stays
        value = 0.0
    # the cards spent, naturals first, then the jokers (the order of the action's cards)
    if ACT_CARD1[action] >= 0:
        cost += G_KEEP[ACT_CARD1[action]]
        cards += 1
    if ACT_CARD2[action] >= 0:
        cost += G_KEEP[ACT_CARD2[action]]
        cards += 1
    for k in range(ACT_JOKERS[action]):
        cost += G_KEEP[JOKER]
        cards += 1
    value -= cost
    if stock_size == 0:                                       # KS-8.1
        value += G_SHED_PER_CARD * cards
    return value


cdef int ks_greedy(const void* state, const int32_t* legal, int n, Rng* rng) noexcept nogil:
    """GreedyBot's move (the index into legal[0:n]): reads the stake, the table's and the
    stock's sizes and the legal actions (which spend the seat's own cards), nothing hidden."""
    cdef const KSState* s = <const KSState*>state
    cdef double values[NUM_ACTIONS]
    cdef int32_t ties[NUM_ACTIONS]
    cdef int k
    if n == 1:
        return 0
    for k in range(n):
        values[k] = greedy_value(legal[k], s.stake, s.table.size, s.stock.size)
    return best_by_value(values, n, rng, ties)


cdef GameHooks KS_HOOKS = game_hooks(
    name="kings_stakes",
    state_size=sizeof(KSState),
    num_actions=NUM_ACTIONS,
    max_legal=NUM_ACTIONS,
    start=ks_start,
    legal=ks_legal,
    apply=ks_apply,
    observation_size=ks_observation_size,
    observe=ks_observe,
    returns=ks_returns,
    scores=ks_scores,
    sample_hidden=ks_sample_hidden,
    zones=ZONES,
    num_zones=NUM_ZONES,
    zone_cards=ks_zone_cards,
    breakdown=ks_breakdown,
    greedy=ks_greedy,
    rollout=NULL,
    known_cards=NULL,
    hand_cards=NULL)


# ---------------------------------------------------------------- the Python-visible state
cdef class KingsStakesState(GameState):
    """Kings' Stakes: the struct above, bound to the framework; getters for the view."""
    cdef KSState d

    match_end_rule = "KS-9.4"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(KSState))
        self.bind(&KS_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be 2..{MAX_PLAYERS}")
        composition = kings_stakes_deck(players)
        init_header(&self.d.h, players, deck, composition)
        self.d.opt.manual_refill = options["refill"] == "manual"
        self.d.opt.teams = bool(options["teams"])
        self.d.opt.score_cards = options["scoring"] == "cards"
        self.d.opt.rounds_total = options["rounds"]
        fp = options["first_player"]
        self.d.opt.first_player = -1 if fp is None else fp
        self.d.deck_size = load_cards(self.d.deck, composition, FULL_DECK)
        self.d.h.phase = PH_OVER
        self.d.chip_holder = -1                # KS-1.3: the chip starts in the box

    def explain_rule(self, int action) -> tuple:
        if self.d.h.phase == PH_REFILL:
            return ("after a play choose refill or end_turn", "KS-7.1")
        if action in (A_REFILL, A_END_TURN):
            return ("refill and end_turn follow a play when refill='manual' and the hand is short",
                    "KS-7.1")
        if action == A_TAKE:
            return ("there is nothing on the table to take", "KS-6.1")
        cdef Multiset* hand = &self.d.hand[self.d.h.to_move]
        if action == A_FOUR_KINGS:
            return ("four kings needs all four kings in hand", "KS-5.7")
        for c in (ACT_CARD1[action], ACT_CARD2[action]):
            if c >= 0 and ms_count(hand, c) == 0:
                from cardcore.cards import card_str
                return (f"you do not hold {card_str(c)}", "KS-4")
        if ms_count(hand, JOKER) < ACT_JOKERS[action]:
            return (f"you do not hold {ACT_JOKERS[action]} joker(s)", "KS-4.4")
        if ACT_JOKER_IS_QUEEN[action] and self.d.h.players == 2:
            return ("with 2 players there are no queens for a joker to stand for", "KS-4.4")
        return (f"amount {ACT_AMOUNT[action]} is below the stake {self.d.stake}", "KS-4.3")

    def hand(self, p) -> list:
        return ms_to_list(&self.d.hand[self.check_seat(p)])

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(self.d.h.players)]

    def table(self) -> list:
        return pile_to_list(&self.d.table)

    def discard(self) -> list:
        return pile_to_list(&self.d.discard)

    def stock(self) -> list:
        """The stock top-first (hidden information: for tests and tools only)."""
        return pile_to_list(&self.d.stock)[::-1]

    def penalty(self, p) -> list:
        return pile_to_list(&self.d.penalty[self.check_seat(p)])

    def penalty_counts(self) -> list:
        return [self.d.penalty[p].size for p in range(self.d.h.players)]

    @property
    def stake(self) -> int:
        return self.d.stake

    @property
    def direction(self) -> int:
        return self.d.direction

    @property
    def stock_size(self) -> int:
        return self.d.stock.size

    @property
    def chip_holder(self):
        return None if self.d.chip_holder < 0 else self.d.chip_holder

    @property
    def round_first_player(self) -> int:
        return self.d.h.dealer

    @property
    def out_player(self):
        return None if self.d.out_player < 0 else self.d.out_player

    @property
    def final_turns_owed(self) -> list:
        return [p for p in range(self.d.h.players) if (self.d.final_owed >> p) & 1]

    @property
    def last_play(self):
        """(seat, action id) of the last play or take this round, or None."""
        return None if self.d.last_player < 0 else (self.d.last_player, self.d.last_action)

    @property
    def four_kings_player(self):
        return None if self.d.four_kings_player < 0 else self.d.four_kings_player

    def last_round_scores(self) -> list:
        return [self.d.last_round[p] for p in range(self.d.h.players)]

    def player_totals(self) -> list:
        return [self.d.total[p] for p in range(self.d.h.players)]

    def all_cards(self) -> list:
        cards = []
        for p in range(self.d.h.players):
            cards += self.hand(p) + self.penalty(p)
        return cards + self.table() + self.discard() + self.stock()


check_state_class(KingsStakesState)


def kings_stakes_deck(int players) -> list:
    """KS-1.1 one deck and two jokers; KS-1.2 without the queens for 2 players."""
    ranks = [r for r in range(13) if not (players == 2 and r == R_QUEEN)]
    return build_deck([ranks], 2)
