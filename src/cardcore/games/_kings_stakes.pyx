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
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from libc.string cimport memset

from cardcore._fast cimport (
    GameState, Multiset, Pile, JOKER, NUM_KINDS, R_JACK, R_QUEEN, R_KING, R_TEN, R_ACE,
    card_rank, card_suit, card_bit, make_card, rank_mask, ms_clear, ms_add, ms_remove,
    ms_count, ms_count_rank, ms_to_list, pile_push, pile_pop, pile_to_list, load_cards, rng_below,
    shuffle_u8, lowest_card,
)
from cardcore._fast import build_deck

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

cdef int8_t ACT_CARD1[NUM_ACTIONS]      # natural card played, or -1
cdef int8_t ACT_CARD2[NUM_ACTIONS]      # second natural card, or -1
cdef int8_t ACT_JOKERS[NUM_ACTIONS]     # jokers played (0..2)
cdef int8_t ACT_EFFECT[NUM_ACTIONS]
cdef int8_t ACT_AMOUNT[NUM_ACTIONS]
cdef bint ACT_JOKER_IS_QUEEN[NUM_ACTIONS]   # KS-4.4 Decision: impossible without queens
cdef int16_t PAIR_ID[52][52]            # natural pair -> id, -1 if not a play
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
                      int32_t* out) noexcept:
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

ctypedef struct KSData:
    int32_t players
    bint manual_refill, teams, score_cards
    int32_t rounds_total, first_player_option
    int32_t deck_size
    uint8_t deck[FULL_DECK]            # the composition, id order (KS-1.1, KS-1.2)
    bint stacked_pending               # the first deal uses the stacked deck as is (KS-3.1)
    uint8_t stacked[FULL_DECK]         # top card first

    int32_t round_index                # rounds finished
    int32_t round_first                # KS-3.2
    int32_t phase, to_move, direction, stake
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


cdef class KingsStakesState(GameState):
    cdef KSData d

    def __init__(self, int players, dict options, deck=None):
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be 2..{MAX_PLAYERS}")
        memset(&self.d, 0, sizeof(KSData))
        self.num_players = players
        self.d.players = players
        self.d.manual_refill = options["refill"] == "manual"
        self.d.teams = bool(options["teams"])
        self.d.score_cards = options["scoring"] == "cards"
        self.d.rounds_total = options["rounds"]
        fp = options["first_player"]
        self.d.first_player_option = -1 if fp is None else fp
        composition = kings_stakes_deck(players)
        self.d.deck_size = load_cards(self.d.deck, composition, FULL_DECK)
        if deck is not None:
            if sorted(deck) != composition:
                raise ValueError("stacked deck does not match the composition")
            load_cards(self.d.stacked, deck, FULL_DECK)
            self.d.stacked_pending = True
        self.d.phase = PH_OVER
        self.d.to_move = -1
        self.d.chip_holder = -1                # KS-1.3: the chip starts in the box

    def start(self) -> None:
        """KS-3.2: the first player by option or by lot, then deal the first round."""
        if self.d.first_player_option >= 0:
            self.d.round_first = self.d.first_player_option
        else:
            self.d.round_first = rng_below(&self.rng, self.d.players)
        self.deal()

    cdef void deal(self) noexcept:
        """KS-3.1: shuffle (unless stacked), 4 cards each one at a time from the first player."""
        cdef uint8_t order[FULL_DECK]
        cdef int i, p, k, n = self.d.deck_size
        if self.d.stacked_pending:
            for i in range(n):
                order[i] = self.d.stacked[i]
            self.d.stacked_pending = False
        else:
            for i in range(n):
                order[i] = self.d.deck[i]
            shuffle_u8(&self.rng, order, n)
        self.d.stock.size = 0
        self.d.table.size = 0
        self.d.discard.size = 0
        for p in range(self.d.players):
            ms_clear(&self.d.hand[p])
            self.d.penalty[p].size = 0
        i = n - 1
        while i >= 0:                          # order[0] is the top: it ends last on the pile
            pile_push(&self.d.stock, order[i])
            i -= 1
        for k in range(C_HAND_SIZE):
            for i in range(self.d.players):
                p = (self.d.round_first + i) % self.d.players
                ms_add(&self.d.hand[p], pile_pop(&self.d.stock))
        self.d.phase = PH_PLAY
        self.d.direction = 1                   # KS-3.3
        self.d.stake = 0                       # KS-3.4
        self.d.to_move = self.d.round_first
        self.d.out_player = -1
        self.d.final_owed = 0
        self.d.four_kings_player = -1
        self.d.last_player = -1
        self.d.last_action = -1

    # ------------------------------------------------------------ legality (one function per phase)
    cdef inline bint play_allowed(self, int action) noexcept:
        """KS-4.3 stake rule; specials (KS-5) are always allowed; KS-4.4 Decision on queens."""
        if ACT_JOKER_IS_QUEEN[action] and self.d.players == 2:
            return False
        if ACT_EFFECT[action] == E_NUMBER:
            return ACT_AMOUNT[action] >= self.d.stake
        return True

    cdef int legal_play_phase(self, int* out) noexcept:
        cdef Multiset* hand = &self.d.hand[self.d.to_move]
        cdef uint64_t naturals = hand.plane[0] & ~card_bit(JOKER)
        cdef uint64_t rest
        cdef int jokers = hand.count[JOKER]
        cdef int n = 0, a, b, i, first, v
        cdef uint64_t m = naturals
        while m:                                           # singles, ascending ids
            a = lowest_card(m)
            m &= m - 1
            if self.play_allowed(a):
                out[n] = a
                n += 1
        if jokers:
            for v in range(JOKER_MAX_VALUE):
                if self.play_allowed(FIRST_JOKER_SINGLE + v):
                    out[n] = FIRST_JOKER_SINGLE + v
                    n += 1
        # Natural pairs: ids grow with (lower card, higher card), the order of this scan.
        m = naturals
        while m:
            a = lowest_card(m)
            m &= m - 1
            rest = m
            while rest:
                b = lowest_card(rest)
                rest &= rest - 1
                i = PAIR_ID[a][b]
                if i >= 0 and self.play_allowed(i):
                    out[n] = i
                    n += 1
        if jokers:
            m = naturals
            while m:
                a = lowest_card(m)
                m &= m - 1
                first = JOKER_PAIR_FIRST[a]
                for i in range(first, first + JOKER_PAIR_COUNT[a]):
                    if self.play_allowed(i):
                        out[n] = i
                        n += 1
        if jokers >= 2:
            for i in range(FIRST_TWO_JOKERS, A_FOUR_KINGS):
                if self.play_allowed(i):
                    out[n] = i
                    n += 1
        if ms_count_rank(hand, R_KING) == 4:              # KS-5.7
            out[n] = A_FOUR_KINGS
            n += 1
        if self.d.table.size > 0:                          # KS-6.1
            out[n] = A_TAKE
            n += 1
        return n

    cdef int legal_into(self, int* out) noexcept:
        if self.d.phase == PH_PLAY:
            return self.legal_play_phase(out)
        if self.d.phase == PH_REFILL:
            out[0] = A_REFILL
            out[1] = A_END_TURN
            return 2
        return 0

    cdef bint over(self) noexcept:
        return self.d.phase == PH_OVER

    cdef int to_move(self) noexcept:
        return -1 if self.d.phase == PH_OVER else self.d.to_move

    # ------------------------------------------------------------ applying
    cdef void apply_fast(self, int action) noexcept:
        cdef int p = self.d.to_move
        if action != A_REFILL and action != A_END_TURN:
            self.d.last_player = p             # the last play or take, for the view
            self.d.last_action = action
        if action == A_TAKE:
            self.take(p)
        elif action == A_REFILL:
            self.refill(p)
            self.end_turn(p)
        elif action == A_END_TURN:
            self.d.chip_holder = p                 # KS-7.1: forgot to refill
            self.end_turn(p)
        else:
            self.play(p, action)

    cdef void play(self, int p, int action) noexcept:
        cdef int c1 = ACT_CARD1[action], c2 = ACT_CARD2[action], k
        cdef int effect = ACT_EFFECT[action], amount = ACT_AMOUNT[action]
        cdef bint table_was_empty = self.d.table.size == 0
        cdef Multiset* hand = &self.d.hand[p]
        if effect == E_FOUR_KINGS:
            for k in range(4):
                ms_remove(hand, make_card(k, R_KING))
                pile_push(&self.d.table, make_card(k, R_KING))
            self.d.four_kings_player = p           # KS-8.3: the round ends at once
            self.end_round()
            return
        if c1 >= 0:
            ms_remove(hand, c1)
            pile_push(&self.d.table, c1)
        if c2 >= 0:
            ms_remove(hand, c2)
            pile_push(&self.d.table, c2)
        for k in range(ACT_JOKERS[action]):
            ms_remove(hand, JOKER)
            pile_push(&self.d.table, JOKER)
        if effect == E_NUMBER:                     # KS-4.3
            if amount > self.d.stake:
                self.d.stake = amount
            elif amount == self.d.stake and self.d.stake > 0:
                self.d.stake *= 2
        elif effect == E_JACK:                     # KS-5.1
            self.d.stake += JACK_RAISE
        elif effect == E_QUEEN:                    # KS-5.2
            self.d.direction = -self.d.direction
        elif effect == E_KING:
            if table_was_empty:                    # KS-5.4
                self.d.stake = KING_ON_EMPTY_STAKE
            else:                                  # KS-5.3: the table goes out of play
                self.move_table_to(&self.d.discard)
                self.d.stake = 0
        elif effect == E_KING_QUEEN:               # KS-5.5
            self.d.stake = 0
            self.d.direction = -self.d.direction
        elif effect == E_QUEEN_JACK:               # KS-5.6
            self.d.direction = -self.d.direction
            self.d.stake += QUEEN_JACK_RAISE
        if self.d.manual_refill:                   # KS-7.1: the player chooses
            if hand.total < C_HAND_SIZE and self.d.stock.size > 0:
                self.d.phase = PH_REFILL
                return
        else:                                      # KS-4.5
            self.refill(p)
        self.end_turn(p)

    cdef void move_table_to(self, Pile* pile) noexcept:
        """Move the whole table onto pile, keeping the cards in play order."""
        cdef int i
        for i in range(self.d.table.size):
            pile_push(pile, self.d.table.cards[i])
        self.d.table.size = 0

    cdef void refill(self, int p) noexcept:
        while self.d.hand[p].total < C_HAND_SIZE and self.d.stock.size > 0:
            ms_add(&self.d.hand[p], pile_pop(&self.d.stock))

    cdef void take(self, int p) noexcept:
        """KS-6.2: the table goes to the taker's penalty pile; KS-6.3 / KS-8.2 what follows."""
        self.move_table_to(&self.d.penalty[p])
        self.d.stake = 0
        if self.d.out_player >= 0:                 # KS-8.2: a take in the final turns ends the round
            self.end_round()
        # else KS-6.3: the same player now leads onto the empty table (phase stays "play")

    cdef void end_turn(self, int p) noexcept:
        """Close p's turn, start the final turns when someone is out (KS-8.1), pass the turn."""
        self.d.phase = PH_PLAY
        if self.d.out_player >= 0:
            self.d.final_owed &= ~(1 << p)
        elif self.d.hand[p].total == 0 and self.d.stock.size == 0:
            self.go_out(p)
        self.advance(p)

    cdef void go_out(self, int p) noexcept:
        cdef int q
        self.d.out_player = p
        self.d.final_owed = 0
        for q in range(self.d.players):
            if q != p and self.d.hand[q].total > 0:
                self.d.final_owed |= 1 << q

    cdef void advance(self, int p) noexcept:
        """Pass the turn in the current direction to the next seat that may move."""
        cdef int q = p, steps
        self.turns += 1
        while True:
            if self.d.out_player >= 0 and self.d.final_owed == 0:
                self.end_round()                   # KS-8.1: everyone had a final turn
                return
            for steps in range(self.d.players):
                q = (q + self.d.direction + self.d.players) % self.d.players
                if self.d.out_player < 0 or (self.d.final_owed >> q) & 1:
                    break
            if self.d.manual_refill:
                self.refill(q)                     # KS-7.2: a short hand is topped up first
            if self.d.hand[q].total > 0:
                self.d.to_move = q
                return
            # Decision (KS-7.2): an empty hand with an empty stock at the start of a turn is out.
            if self.d.out_player < 0:
                self.go_out(q)
            else:
                self.d.final_owed &= ~(1 << q)

    cdef void end_round(self) noexcept:
        """KS-8.4 leftovers to the discard, KS-9 scoring, then the next round or the end."""
        cdef int p, q
        cdef int counts[MAX_PLAYERS]
        for p in range(self.d.players):
            while self.d.hand[p].total > 0:
                q = lowest_card(self.d.hand[p].plane[0])
                ms_remove(&self.d.hand[p], q)
                pile_push(&self.d.discard, q)
        self.move_table_to(&self.d.discard)
        for p in range(self.d.players):
            counts[p] = self.d.penalty[p].size
        score_round(self.d.players, counts, self.d.four_kings_player, self.d.score_cards,
                    self.d.last_round)
        for p in range(self.d.players):
            self.d.total[p] += self.d.last_round[p]
        self.d.round_index += 1
        if self.d.round_index >= self.d.rounds_total:
            if self.d.chip_holder >= 0:            # KS-7.3
                self.d.total[self.d.chip_holder] += 1
            self.d.phase = PH_OVER
            self.d.to_move = -1
            return
        self.d.round_first = (self.d.round_first + 1) % self.d.players   # KS-3.2 Decision
        self.deal()

    # ------------------------------------------------------------ Python-visible state
    def explain_illegal(self, action) -> tuple:
        if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            return (f"action id {action!r} is outside 0..{NUM_ACTIONS - 1}", None)
        if self.d.phase == PH_OVER:
            return ("the match is over", "KS-9.4")
        if self.d.phase == PH_REFILL:
            return ("after a play choose refill or end_turn", "KS-7.1")
        if action in (A_REFILL, A_END_TURN):
            return ("refill and end_turn follow a play when refill='manual' and the hand is short",
                    "KS-7.1")
        if action == A_TAKE:
            return ("there is nothing on the table to take", "KS-6.1")
        cdef Multiset* hand = &self.d.hand[self.d.to_move]
        if action == A_FOUR_KINGS:
            return ("four kings needs all four kings in hand", "KS-5.7")
        for c in (ACT_CARD1[action], ACT_CARD2[action]):
            if c >= 0 and ms_count(hand, c) == 0:
                from cardcore.cards import card_str
                return (f"you do not hold {card_str(c)}", "KS-4")
        if ms_count(hand, JOKER) < ACT_JOKERS[action]:
            return (f"you do not hold {ACT_JOKERS[action]} joker(s)", "KS-4.4")
        if ACT_JOKER_IS_QUEEN[action] and self.d.players == 2:
            return ("with 2 players there are no queens for a joker to stand for", "KS-4.4")
        return (f"amount {ACT_AMOUNT[action]} is below the stake {self.d.stake}", "KS-4.3")

    @property
    def phase(self) -> int:
        return self.d.phase

    @property
    def round_index(self) -> int:
        return self.d.round_index

    def hand(self, int p) -> list:
        self._check_seat(p)
        return ms_to_list(&self.d.hand[p])

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(self.d.players)]

    def _check_seat(self, int p):
        if not 0 <= p < self.d.players:
            raise ValueError(f"seat {p} out of range")

    def table(self) -> list:
        return pile_to_list(&self.d.table)

    def discard(self) -> list:
        return pile_to_list(&self.d.discard)

    def stock(self) -> list:
        """The stock top-first (hidden information: for tests and tools only)."""
        return pile_to_list(&self.d.stock)[::-1]

    def penalty(self, int p) -> list:
        self._check_seat(p)
        return pile_to_list(&self.d.penalty[p])

    def penalty_counts(self) -> list:
        return [self.d.penalty[p].size for p in range(self.d.players)]

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
        return self.d.round_first

    @property
    def out_player(self):
        return None if self.d.out_player < 0 else self.d.out_player

    @property
    def final_turns_owed(self) -> list:
        return [p for p in range(self.d.players) if (self.d.final_owed >> p) & 1]

    @property
    def last_play(self):
        """(seat, action id) of the last play or take this round, or None."""
        return None if self.d.last_player < 0 else (self.d.last_player, self.d.last_action)

    @property
    def four_kings_player(self):
        return None if self.d.four_kings_player < 0 else self.d.four_kings_player

    def last_round_scores(self) -> list:
        return [self.d.last_round[p] for p in range(self.d.players)]

    def player_totals(self) -> list:
        return [self.d.total[p] for p in range(self.d.players)]

    def scores(self) -> list:
        """KS-9.4 per player; with teams (KS-9.5) each seat shows its team's total."""
        cdef list totals = self.player_totals()
        if self.d.teams:
            return [totals[p] + totals[(p + 2) % 4] for p in range(4)]
        return totals

    def winners(self) -> list:
        if self.d.phase != PH_OVER:
            return []
        cdef list s = self.scores()
        best = min(s)
        return [p for p in range(self.d.players) if s[p] == best]

    def all_cards(self) -> list:
        cards = []
        for p in range(self.d.players):
            cards += self.hand(p) + self.penalty(p)
        return cards + self.table() + self.discard() + self.stock()

    def clone(self) -> KingsStakesState:
        cdef KingsStakesState other = KingsStakesState.__new__(KingsStakesState)
        other.d = self.d
        other.rng = self.rng
        other.num_players = self.num_players
        other.actions_applied = self.actions_applied
        other.turns = self.turns
        return other


def kings_stakes_deck(int players) -> list:
    """KS-1.1 one deck and two jokers; KS-1.2 without the queens for 2 players."""
    ranks = [r for r in range(13) if not (players == 2 and r == R_QUEEN)]
    return build_deck([ranks], 2)
