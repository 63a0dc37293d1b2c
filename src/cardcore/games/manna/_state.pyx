# cython: language_level=3, cdivision=True
"""Manna from Heaven (Pennies from Heaven canasta): the state machine.

Rules: games/manna.md (rule IDs MH-x.y). The modules of the game (this package):
    _rules.pxd      rule constants, card predicates, the action-id layout (compile time)
    _data.pxd       the state struct MannaData and its inline zone primitives (compile time)
    _melds          the meld table (meld ids decoded) and meld validity (MH-4)
    _minimum        the initial-minimum search ``reach_min`` (MH-4.8, MH-5.5)
    _state          this module: the rules as functions over a ``MannaData*``, the deal plan,
                    the framework's hooks and ``MannaState``, the Python-visible class
    _view           what a seat may know: the observation tensor and sample_hidden
    _rollout.pxd    the search's rollout policy (compile time)
    _greedy.pxd     GreedyBot's policy, the ``greedy`` hook (compile time)
    _testing        test-only position setters (through _state.pxd)

Action space (the same 909 ids for every configuration; pinned by tests/test_manna_actions.py):
    0           draw_stock: take the top two stock cards (MH-3.1); with an empty stock this
                declines the draw and ends the hand (MH-9.5)
    1           take_pile, (a): add the top card to the team's unfinished meld of its rank (MH-5.3)
    2           take_pile with a natural pair from hand, (b) or (c)                      (MH-5.3)
    3           take_pile with one natural and one two from hand, (b)                    (MH-5.3)
    4           take_pile with one natural and one joker from hand, (b)                  (MH-5.3)
    5           retract the provisional initial melds of this turn                     (MH-4.8)
    6..58       discard card id (id - 6)                                               (MH-3.3)
    59..111     go out: discard the last card, id (id - 59)                            (MH-9.2)
    112..908    melds: the meld table of _melds (its docstring lists the layout)
Naturals of a rank are interchangeable: the engine moves the lowest card ids (suit order C S D H),
or the cards ``Game.apply(..., cards=)`` chose (``pick_kind``, the framework's hand_cards hook).
"""
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize

from cardcore._fast cimport (
    pile_copy, copy_breakdown,
    GameState, GameHooks, Header, Multiset, Pile, Rng, ZoneSpec, BreakdownRow, ZONE_SHARED,
    ZONE_SEAT, ZONE_TEAM, SEEN_BY_ALL, SEEN_BY_OWNER, SEEN_BY_NONE, JOKER, NUM_KINDS,
    PILE_CAPACITY, DIAMONDS, HEARTS, make_card,
    MS_MAX_COPIES, ms_add, ms_clear, ms_support, lowest_card, rank_mask, cardcore_ctz64, ms_to_list,
    card_bit, chosen_card, HAND_CARDS_NAMED, HAND_CARDS_LACKING, CHOSEN_CAPACITY,
    ms_to_array, pile_push, pile_pop, pile_top, pile_to_list, rng_below, shuffle_u8, game_hooks,
    init_header, deal_prologue,
)
from cardcore.games.manna._rules cimport (
    NPLAYERS, NTEAMS, NUM_DECKS, NUM_JOKERS, DECK_SIZE, MAX_ID_COPIES, HAND_DEAL, FOOT_DEAL,
    MAX_HANDS, DRAW_COUNT, CANASTA, MIN_MELD, MAX_WILDS, GOING_OUT_BONUS, RED_THREE_EACH,
    RED_THREES_ALL, ALL_RED_THREES, FOOT_RED_THREE, R_TWO, R_THREE, R_SEVEN, K_JOKER, NRK,
    G_WILD, G_BLACK3, NGROUPS, NAT_GROUPS, CT_NONE, CT_NATURAL, CT_MIXED, CT_WILD, CT_SEVENS,
    CT_ALL, CT_MIXED_SEVENS, CT_MIXED_OTHER, FOOT_RED_THREES, FOOT_CARDS, type_bits,
    A_DRAW, A_TAKE_ADD, A_TAKE_PAIR, A_TAKE_TWO, A_TAKE_JOKER, A_RETRACT, A_DISCARD, A_GO_OUT,
    A_MELD, A_BLACK3, NAT_NEW, NAT_ADD, WILD_NEW, WILD_ADD, NUM_ACTIONS,
    rank_points, card_points, kind_of, is_wild, is_red_three, is_black_three, natural_rank,
    natural_group, canasta_bonus, min_meld_for,
)
from cardcore.games.manna._melds cimport (
    M_GROUP, M_NEW, M_N, M_T, M_J, GROUP_FIRST, ADD_MOST, NEW_MASK, ADD_MASK, WILD_MASK,
    meld_shape_ok, canasta_type,
)
from cardcore.games.manna._minimum cimport ReachIn, ReachWork, REACH_WORK, reach_min
from cardcore.games.manna._data cimport (
    ST_DRAW, ST_MELD, ST_OVER, MannaOptions, Meld, MannaData, hand_add, hand_remove, clear_hand,
)
from cardcore.games.manna._view cimport mh_observation_size, mh_observe, mh_sample_hidden
from cardcore.games.manna._rollout cimport mh_rollout
from cardcore.games.manna._greedy cimport mh_greedy

from cardcore._fast import build_deck, check_state_class
from cardcore.games.manna._melds import ACTION_LAYOUT, RANK_NAMES, meld_table  # re-exported

# The core's capacities must hold Manna's deck (checked once, at import).
if <int>DECK_SIZE > <int>PILE_CAPACITY or <int>MAX_ID_COPIES > <int>MS_MAX_COPIES \
        or <int>CANASTA > <int>CHOSEN_CAPACITY:
    raise ImportError(f"Manna needs piles of {DECK_SIZE} cards and {MAX_ID_COPIES} copies of an "
                      f"id; the core holds {PILE_CAPACITY} and {MS_MAX_COPIES}")

PHASES = ("draw", "meld", "over")

# ---------------------------------------------------------------- why an action is illegal
cdef enum:
    OK = 0
    W_RETRACTED = 1
    W_CARDS = 2
    W_UNFINISHED = 3
    W_NO_MELD = 4
    W_SIZE = 5
    W_SEVENS = 6
    W_SHAPE = 7
    W_SHORT_CANASTA = 8
    W_BLACK3 = 9
    W_KEEP = 10
    W_SEVEN_LAST = 11
    W_REACH = 12
    W_EMPTY = 13
    W_TOP = 14
    W_FROZEN = 15
    W_WAY = 16

# (message, rule) per code, for explain_illegal.
WHY = {
    W_RETRACTED: ("after a retract you may not meld again this turn", "MH-4.8"),
    W_CARDS: ("you do not hold the cards for that", "MH-3.2"),
    W_UNFINISHED: ("your team already has an unfinished meld of that rank: add to it", "MH-4.4"),
    W_NO_MELD: ("your team has no unfinished meld of that rank to add to", "MH-4.4"),
    W_SIZE: ("a meld has at most 7 cards", "MH-4.1"),
    W_SEVENS: ("sevens take no wild cards (option wild_sevens)", "MH-4.6"),
    W_SHAPE: ("a meld needs 3 to 7 cards, at least two naturals and at most three wild cards",
              "MH-4.2"),
    W_SHORT_CANASTA: ("while the initial meld is short, a canasta must reach the minimum",
                      "MH-4.8"),
    W_BLACK3: ("black threes are melded only as the last meld before going out", "MH-4.7"),
    W_KEEP: ("you must keep a card to discard and one to hold unless you can go out", "MH-9.3"),
    W_SEVEN_LAST: ("that would leave a seven as your going-out discard", "MH-7.2"),
    W_REACH: ("after taking the pile your melds must still be able to reach the minimum",
              "MH-5.5"),
    W_EMPTY: ("the discard pile is empty", "MH-5"),
    W_TOP: ("the pile cannot be taken when its top card is a wild card or a three", "MH-5.1"),
    W_FROZEN: ("the pile is frozen (a wild card or red three in it, or your team has not "
               "opened): take it only with a natural pair", "MH-5.2"),
    W_WAY: ("that way of taking the pile does not fit your team's melds of that rank", "MH-5.3"),
}

# ---------------------------------------------------------------- the deal plan (MH-2.2, 2.3)
# Where a deck position goes at the deal (the deal plan, MH-2.2..2.3).
cdef enum:
    Z_HAND = 0
    Z_FOOT = 1
    Z_DISCARD = 2
    Z_STOCK = 3

cdef enum:
    HAND_POSITIONS = NPLAYERS * HAND_DEAL           # the hands, one card each in turn
    FOOT_POSITIONS = NPLAYERS * FOOT_DEAL           # then the feet
    DISCARD_POSITION = HAND_POSITIONS + FOOT_POSITIONS   # then the first discard, the rest: stock


cdef void plan_deal(int dealer, int8_t* zone, int8_t* seat) noexcept nogil:
    """The one deal layout: for every deck position (top first) its zone and seat (-1 for the
    stock and the discard pile). Hands then feet go one card at a time clockwise from the
    dealer's left (MH-2.2); the next card starts the discard pile, the rest is the stock (MH-2.3)."""
    cdef int i, first = (dealer + 1) % NPLAYERS
    for i in range(DECK_SIZE):
        if i < HAND_POSITIONS:
            zone[i] = Z_HAND
            seat[i] = (first + i) % NPLAYERS
        elif i < DISCARD_POSITION:
            zone[i] = Z_FOOT
            seat[i] = (first + i - HAND_POSITIONS) % NPLAYERS
        else:
            zone[i] = Z_DISCARD if i == DISCARD_POSITION else Z_STOCK
            seat[i] = -1


# The plan of every dealer, made once at import: deal() reads it.
cdef int8_t PLAN_ZONE[NPLAYERS][DECK_SIZE]
cdef int8_t PLAN_SEAT[NPLAYERS][DECK_SIZE]


cdef void plan_every_deal() noexcept nogil:
    cdef int dealer
    for dealer in range(NPLAYERS):
        plan_deal(dealer, PLAN_ZONE[dealer], PLAN_SEAT[dealer])

plan_every_deal()


def deal_plan(int players, options, int dealer) -> list:
    """The zone of every deck position of a deal, top card first: "hand:<seat>", "foot:<seat>",
    "discard" (the first discard) or "stock" (the stock, its top first). Red threes found in the
    hands are replaced from the top of the stock (MH-2.4). ``options`` do not change the plan."""
    cdef int8_t zone[DECK_SIZE]
    cdef int8_t seat[DECK_SIZE]
    if players != NPLAYERS:
        raise ValueError("manna is for 6 players")
    if not 0 <= dealer < NPLAYERS:
        raise ValueError(f"dealer seat {dealer} out of range")
    plan_deal(dealer, zone, seat)
    names = {Z_DISCARD: "discard", Z_STOCK: "stock"}
    return [f"hand:{seat[i]}" if zone[i] == Z_HAND else
            f"foot:{seat[i]}" if zone[i] == Z_FOOT else names[zone[i]]
            for i in range(DECK_SIZE)]


cdef void fill_composition(uint8_t* deck) noexcept nogil:
    """MH-1.1 in id order: four copies of each natural id, then the jokers."""
    cdef int c, k, i = 0
    for c in range(JOKER):
        for k in range(NUM_DECKS):
            deck[i] = c
            i += 1
    for k in range(NUM_JOKERS):
        deck[i] = JOKER
        i += 1

# ---------------------------------------------------------------- zones
cdef inline void lay_red_three(MannaData* s, int p, int c) noexcept nogil:
    s.red3[p & 1][c // 13 - 2] += 1


cdef int draw_one(MannaData* s, int p) noexcept nogil:
    """MH-8.1: draw the stock's top card; a red three is laid out and replaced. Returns the
    number of cards that reached the hand (0 if the stock ran out)."""
    cdef int c
    while s.stock.size > 0:
        c = pile_pop(&s.stock)
        if is_red_three(c):
            lay_red_three(s, p, c)
            continue
        hand_add(s, p, c)
        return 1
    return 0


cdef void lay_out_red_threes(MannaData* s, int p) noexcept nogil:
    """MH-2.4, MH-6.2: every red three in hand goes out, replaced from the stock."""
    cdef int c, suit
    for suit in range(2, 4):
        c = suit * 13 + R_THREE
        while s.hand[p].count[c] > 0:
            hand_remove(s, p, c)
            lay_red_three(s, p, c)
            draw_one(s, p)


cdef void begin_turn(MannaData* s) noexcept nogil:
    s.h.phase = ST_DRAW
    s.turn_points = 0
    s.committed = 0
    s.retracted = 0
    memset(s.credit, 0, sizeof(s.credit))


cdef void deal(MannaData* s) noexcept nogil:
    """MH-2.2..2.5: lay the deck (stacked on the first deal, else shuffled) out by the deal plan."""
    cdef uint8_t composition[DECK_SIZE]
    cdef uint8_t order[DECK_SIZE]
    cdef const int8_t* zone = PLAN_ZONE[s.h.dealer]
    cdef const int8_t* seat = PLAN_SEAT[s.h.dealer]
    cdef int i, p, t, k, c
    fill_composition(composition)
    deal_prologue(&s.h, composition, DECK_SIZE, order)
    for p in range(NPLAYERS):
        clear_hand(s, p)
        ms_clear(&s.known[p])
        ms_clear(&s.foot[p])
        s.foot_taken[p] = False
    memset(s.melds, 0, sizeof(s.melds))
    memset(s.red3, 0, sizeof(s.red3))
    memset(s.canastas, 0, sizeof(s.canastas))
    for t in range(NTEAMS):
        s.nmelds[t] = 0
        s.types[t] = 0
        s.opened[t] = False
        s.need[t] = min_meld_for(s.score[t])       # MH-4.8
        for k in range(NGROUPS):
            s.unf[t][k] = -1
    s.first = (s.h.dealer + 1) % NPLAYERS
    s.stock.size = 0
    s.pile.size = 0
    for i in range(DECK_SIZE - 1, -1, -1):        # bottom up, so the stock ends top first
        if zone[i] == Z_HAND:
            hand_add(s, seat[i], order[i])
        elif zone[i] == Z_FOOT:
            ms_add(&s.foot[seat[i]], order[i])
        elif zone[i] == Z_STOCK:
            pile_push(&s.stock, order[i])
        else:
            pile_push(&s.pile, order[i])
    c = pile_top(&s.pile)                          # MH-2.3: the first discard
    s.pile_frozen = is_wild(c) or is_red_three(c)
    s.pile_red3 = 1 if is_red_three(c) else 0
    for i in range(NPLAYERS):                      # MH-2.4
        lay_out_red_threes(s, (s.first + i) % NPLAYERS)
    s.h.to_move = s.first
    begin_turn(s)

# ---------------------------------------------------------------- rule predicates
cdef inline bint has_sevens(const MannaData* s, int types) noexcept nogil:
    """A team with this mask has its canasta of sevens (MH-7.1, MH-8.3): natural, or with
    wild_sevens a mixed one too (MH-4.6 Decision: "a canasta of sevens (either natural or mixed)")."""
    return (types & CT_SEVENS) or (s.opt.sevens_either and (types & CT_MIXED_SEVENS))


cdef inline bint sevens_free(const MannaData* s) noexcept nogil:
    """MH-7.1: sevens may be discarded once both teams have a sevens canasta."""
    return has_sevens(s, s.types[0]) and has_sevens(s, s.types[1])


cdef inline bint types_ready(const MannaData* s, int types, int sevens) noexcept nogil:
    """MH-9.1: four distinct canastas, one natural, one mixed, one wild, one of sevens, given the
    team's mask and its number of sevens canastas. A mixed canasta of sevens (MH-4.6 Decision)
    may fill the mixed or the sevens place, not both."""
    if (types & (CT_NATURAL | CT_WILD)) != (CT_NATURAL | CT_WILD):
        return False
    if not s.opt.sevens_either:
        return (types & CT_MIXED) and (types & CT_SEVENS)
    if types & CT_MIXED_OTHER:
        return sevens > 0
    return (types & CT_MIXED_SEVENS) and sevens >= 2


cdef inline int ex_size(const MannaData* s, int tm, int g) noexcept nogil:
    cdef int u = s.unf[tm][g]
    return 0 if u < 0 else s.melds[tm][u].size


cdef inline int ex_wild(const MannaData* s, int tm, int g) noexcept nogil:
    cdef int u = s.unf[tm][g]
    return 0 if u < 0 else s.melds[tm][u].wilds


cdef inline int black_threes_in_hand(const MannaData* s, int p) noexcept nogil:
    return s.hand[p].count[R_THREE] + s.hand[p].count[13 + R_THREE]


cdef int foot_cards(const MannaData* s, int p) noexcept nogil:
    """Cards the foot would add to the hand (its red threes go out; replacements ignored)."""
    if s.foot_taken[p]:
        return 0
    return s.foot[p].total - s.foot[p].count[2 * 13 + R_THREE] - s.foot[p].count[3 * 13 + R_THREE]


cdef void fill_reach(const MannaData* s, int p, ReachIn* q) noexcept nogil:
    """The reach_min input for the player to move as things stand."""
    cdef int r, g, tm = p & 1
    for r in range(13):
        q.nat[r] = s.hand_kind[p][r]
        q.cred[r] = s.credit[r] if s.credit[r] < q.nat[r] else q.nat[r]
    q.twos = s.hand_kind[p][R_TWO]
    q.cred_twos = q.cred[R_TWO]
    q.jokers = s.hand_kind[p][K_JOKER]
    q.cred_jokers = s.credit[K_JOKER] if s.credit[K_JOKER] < q.jokers else q.jokers
    for g in range(NGROUPS):
        q.ex_size[g] = ex_size(s, tm, g)
        q.ex_wild[g] = ex_wild(s, tm, g)
    q.hand = s.hand[p].total
    q.points = s.turn_points
    q.need = s.need[tm]
    q.foot = not s.foot_taken[p]
    q.wild_sevens = s.opt.wild_sevens


cdef bint reachable(const ReachIn* q) noexcept nogil:
    """reach_min with its work space on this (separate) stack frame."""
    cdef ReachWork work
    return reach_min(q, work.cells, REACH_WORK) == 1


cdef inline int credited(const MannaData* s, int k, int used) noexcept nogil:
    """Points of `used` cards of kind k that count toward the minimum (MH-4.8)."""
    cdef int c = s.credit[k]
    return rank_points(k) * (used if used < c else c)


cdef inline bint hand_after_ok(int newhand, bint ready_after, bint opened_after,
                               int sevens_left) noexcept nogil:
    """MH-9.2/9.3: after a meld the player can still discard and keep a card, or go out."""
    if newhand >= 2:
        return True
    if not (opened_after and ready_after):
        return False
    return newhand == 0 or sevens_left == 0          # MH-7.2: never go out on a seven


# ---------------------------------------------------------------- the reach memo
# While a team that took the pile has not opened, a meld is legal only if the minimum stays
# reachable after it (MH-4.8, MH-5.5), and every candidate meld costs a reach_min search.
# Within one group those answers are downward closed: if melding (n, t, j) keeps the minimum
# reachable, so does melding any (n', t', j') <= (n, t, j) of the same group, because the rest,
# (n - n', t - t', j - j'), can be added to that meld as part of its one later addition, at the
# same points, within the same wild and hand-keep limits. legal_melds visits a group's
# candidates from the largest down and remembers the reachable ones: a smaller one needs no
# search. (The argument needs each kind's credit <= its count in hand, true in play, and the
# search's card cap far away: known_reach_ok.)
cdef enum:
    MEMO_SIZE = 64                  # more than the compositions of one group

ctypedef struct ReachMemo:          # compositions of one group known to keep the minimum reachable
    int count
    int8_t naturals[MEMO_SIZE]
    int8_t twos[MEMO_SIZE]
    int8_t jokers[MEMO_SIZE]


cdef inline bint memo_knows(const ReachMemo* memo, int n, int t, int j) noexcept nogil:
    cdef int i
    for i in range(memo.count):
        if n <= memo.naturals[i] and t <= memo.twos[i] and j <= memo.jokers[i]:
            return True
    return False


cdef inline void memo_add(ReachMemo* memo, int n, int t, int j) noexcept nogil:
    if memo.count < MEMO_SIZE:
        memo.naturals[memo.count] = n
        memo.twos[memo.count] = t
        memo.jokers[memo.count] = j
        memo.count += 1


cdef bint known_reach_ok(const MannaData* s, int p) noexcept nogil:
    """The memo's argument holds here: credits within the hand, and a hand far below the
    search's card cap (DP_CARDS)."""
    cdef int k
    if s.hand[p].total >= 100:
        return False
    for k in range(NRK):
        if s.credit[k] > s.hand_kind[p][k]:
            return False
    return True


ctypedef struct MeldGroup:          # the position as every meld of one group sees it
    int p, tm, g
    int held                        # naturals of the group in hand (black threes for G_BLACK3)
    int twos, jokers                # wild cards in hand
    int u, size0, wild0             # the team's unfinished meld of the group: index (-1 if none),
                                    # its cards and its wild cards


cdef inline void meld_group(const MannaData* s, int p, int g, MeldGroup* c) noexcept nogil:
    c.p = p
    c.tm = p & 1
    c.g = g
    c.held = black_threes_in_hand(s, p) if g == G_BLACK3 else (s.hand_kind[p][g] if g < 13 else 0)
    c.twos = s.hand_kind[p][R_TWO]
    c.jokers = s.hand_kind[p][K_JOKER]
    c.u = s.unf[c.tm][g]
    c.size0 = 0 if c.u < 0 else s.melds[c.tm][c.u].size
    c.wild0 = 0 if c.u < 0 else s.melds[c.tm][c.u].wilds


cdef int meld_check(const MannaData* s, int p, int mi, ReachMemo* memo) noexcept nogil:
    """The one legality function for melds (MH-4, 4.8, 5.5, 6, 9.3): OK or why not. ``memo``
    (or NULL) holds this group's compositions known to keep the minimum reachable."""
    cdef MeldGroup c
    meld_group(s, p, M_GROUP[mi], &c)
    return meld_rules(s, &c, M_NEW[mi], M_N[mi], M_T[mi], M_J[mi], memo)


cdef inline int meld_rules(const MannaData* s, const MeldGroup* c, bint new, int n, int t, int j,
                           ReachMemo* memo) noexcept nogil:
    """meld_check for a meld of c's group: new or an addition, n naturals, t twos, j jokers.
    The card and shape rules; the rest (meld_rules_rest) only where it can fail."""
    cdef int g = c.g, k = n + t + j
    if s.retracted:
        return W_RETRACTED                            # MH-4.8: no melding after a retract
    if (g != G_WILD and c.held < n) or c.twos < t or c.jokers < j:
        return W_CARDS
    if new:
        if c.u >= 0:
            return W_UNFINISHED                       # MH-4.4
    elif c.u < 0:
        return W_NO_MELD
    if c.size0 + k > CANASTA:
        return W_SIZE                                 # MH-4.1
    if g == R_SEVEN and t + j > 0 and not s.opt.wild_sevens:
        return W_SEVENS                               # MH-4.6
    if g == G_WILD:
        if not meld_shape_ok(g, 0, c.size0 + k, s.opt.wild_sevens):
            return W_SHAPE
    elif not meld_shape_ok(g, c.size0 - c.wild0 + n, c.wild0 + t + j, s.opt.wild_sevens):
        return W_SHAPE
    if s.opened[c.tm] and s.hand[c.p].total - k >= 2 and g != G_BLACK3:
        return OK           # opened, and two cards kept (MH-9.3): nothing below can fail
    return meld_rules_rest(s, c, n, t, j, memo)


cdef int meld_rules_rest(const MannaData* s, const MeldGroup* c, int n, int t, int j,
                         ReachMemo* memo) noexcept nogil:
    """meld_rules after the card and shape rules: the minimum (MH-4.8, 5.5), going out (MH-4.7,
    7.2, 9.1..9.3)."""
    cdef int p = c.p, tm = c.tm, g = c.g, size0 = c.size0, wild0 = c.wild0
    cdef int k = n + t + j, final, ctype = CT_NONE, pts, total, newhand, sevens_left
    cdef bint opened_after, ready_after
    cdef ReachIn q
    final = size0 + k
    if g != G_BLACK3 and final == CANASTA:
        ctype = canasta_type(g, final - wild0 - t - j, wild0 + t + j)
    opened_after = s.opened[tm]
    total = 0
    if not opened_after:
        pts = credited(s, g if g < 13 else R_THREE, n) + credited(s, R_TWO, t) \
            + credited(s, K_JOKER, j)
        total = s.turn_points + pts
        if total >= s.need[tm]:
            opened_after = True
        elif ctype != CT_NONE:
            return W_SHORT_CANASTA                    # MH-4.8 Decision: no canasta while short
    newhand = s.hand[p].total - k
    if ctype != CT_NONE:
        newhand += foot_cards(s, p)                   # MH-6.1
    sevens_left = s.hand_kind[p][R_SEVEN] - (n if g == R_SEVEN else 0)
    ready_after = False                               # read only when at most one card is left
    if g == G_BLACK3 or newhand < 2:
        ready_after = types_ready(s, s.types[tm] | type_bits(g, ctype), s.canastas[tm][R_SEVEN]
                                  + (1 if g == R_SEVEN and ctype != CT_NONE else 0))
    if g == G_BLACK3:
        # MH-4.7 Decision: black threes are the last meld of a going-out turn.
        if not (opened_after and ready_after) or newhand > 1:
            return W_BLACK3
    if not hand_after_ok(newhand, ready_after, opened_after, sevens_left):
        return W_SEVEN_LAST if newhand == 1 and opened_after and ready_after else W_KEEP
    if not opened_after and s.committed:
        # MH-4.8/5.5: after taking the pile the minimum must stay reachable.
        if memo != NULL and memo_knows(memo, n, t, j):
            return OK
        fill_reach(s, p, &q)
        if g < 13:
            q.nat[g] -= n
            q.cred[g] = q.cred[g] - n if q.cred[g] > n else 0
        q.twos -= t
        q.cred_twos = q.cred_twos - t if q.cred_twos > t else 0
        q.jokers -= j
        q.cred_jokers = q.cred_jokers - j if q.cred_jokers > j else 0
        q.ex_size[g] = final
        q.ex_wild[g] = wild0 + t + j
        q.hand = newhand
        q.points = total
        if not reachable(&q):
            return W_REACH
        if memo != NULL:
            memo_add(memo, n, t, j)
    return OK


cdef int pile_count_rank(const MannaData* s, int r, bint below_top) noexcept nogil:
    cdef int i, n = 0, last = s.pile.size - (1 if below_top else 0)
    for i in range(last):
        if s.pile.cards[i] != JOKER and s.pile.cards[i] % 13 == r:
            n += 1
    return n


cdef int take_check(const MannaData* s, int p, int kind) noexcept nogil:
    """MH-5: the one legality function for the four ways of taking the pile."""
    cdef int tm = p & 1, top = pile_top(&s.pile), r, u, h, used_n = 0, used_t = 0
    cdef int used_j = 0, final, wild0 = 0, newhand, types_after, ctype = CT_NONE, pts, i, c
    cdef bint frozen, has_can, opened_after, ready_after
    cdef ReachIn q
    if top < 0:
        return W_EMPTY
    if is_wild(top) or top % 13 == R_THREE:
        return W_TOP                                   # MH-5.1
    r = top % 13
    frozen = s.pile_frozen or not s.opened[tm]         # MH-5.2
    u = s.unf[tm][r]
    has_can = s.canastas[tm][r] > 0
    h = s.hand_kind[p][r]
    if kind == A_TAKE_ADD:                             # (a)
        if frozen:
            return W_FROZEN
        if u < 0:
            return W_WAY
    elif kind == A_TAKE_PAIR:
        if h < 2:
            return W_CARDS
        if not frozen and not has_can:                 # (b): a new meld
            if u >= 0:
                return W_WAY
        elif u >= 0 and s.melds[tm][u].size + 3 > CANASTA:   # (c)
            return W_SIZE
        used_n = 2
    else:                                              # (b) with one wild card
        if frozen:
            return W_FROZEN
        if has_can or u >= 0:
            return W_WAY
        if r == R_SEVEN and not s.opt.wild_sevens:     # MH-4.6
            return W_SEVENS
        if h < 1:
            return W_CARDS
        if kind == A_TAKE_TWO:
            if s.hand_kind[p][R_TWO] < 1:
                return W_CARDS
            used_t = 1
        else:
            if s.hand_kind[p][K_JOKER] < 1:
                return W_CARDS
            used_j = 1
        used_n = 1
    final = 1 + used_n + used_t + used_j
    if u >= 0:
        final += s.melds[tm][u].size
        wild0 = s.melds[tm][u].wilds
    if final == CANASTA:
        ctype = canasta_type(r, final - wild0, wild0)
    newhand = s.hand[p].total - used_n - used_t - used_j + s.pile.size - 1 - s.pile_red3
    if ctype != CT_NONE:
        newhand += foot_cards(s, p)
    ready_after = False                                # read only when at most one card is left
    if newhand < 2:
        types_after = s.types[tm] | type_bits(r, ctype)
        ready_after = types_ready(s, types_after, s.canastas[tm][R_SEVEN]
                                  + (1 if r == R_SEVEN and ctype != CT_NONE else 0))
    opened_after = s.opened[tm]
    pts = 0
    if not opened_after:
        # MH-4.8: the top card and the cards from hand count.
        pts = rank_points(r) * (1 + used_n) + rank_points(R_TWO) * used_t \
            + rank_points(K_JOKER) * used_j
        if pts >= s.need[tm]:
            opened_after = True
    if not hand_after_ok(newhand, ready_after, opened_after,
                         s.hand_kind[p][R_SEVEN] - (used_n if r == R_SEVEN else 0)
                         + pile_count_rank(s, R_SEVEN, True)):
        return W_KEEP
    if not opened_after:
        # MH-5.5: the rest of the pile joins the hand but does not count.
        fill_reach(s, p, &q)
        for i in range(13):
            q.cred[i] = s.hand_kind[p][i]
        q.cred_twos = s.hand_kind[p][R_TWO]
        q.cred_jokers = s.hand_kind[p][K_JOKER]
        q.nat[r] -= used_n
        q.cred[r] -= used_n
        for i in range(s.pile.size - 1):
            c = s.pile.cards[i]
            if c == JOKER:
                q.jokers += 1
            elif c % 13 == R_TWO:
                q.twos += 1
            elif not is_red_three(c):
                q.nat[c % 13] += 1
        q.ex_size[r] = final
        q.ex_wild[r] = wild0
        q.hand = newhand
        q.points = pts
        if not reachable(&q):
            return W_REACH
    return OK


cdef uint64_t legal_discards(const MannaData* s, int p) noexcept nogil:
    """The card ids p may discard, as a mask (MH-3.3, MH-7.1, MH-9.3, MH-4.8)."""
    cdef uint64_t held = ms_support(&s.hand[p])       # MH-3.3: a card in hand
    if s.hand[p].total < 2:
        return 0                                       # MH-9.3: one card is kept
    if not s.opened[p & 1] and s.turn_points > 0:
        return 0                                       # MH-4.8: provisional melds fall short
    if not sevens_free(s) and s.hand_kind[p][R_SEVEN] != s.hand[p].total:
        # MH-7.1; Decision: a hand of nothing but sevens may discard one.
        held &= ~rank_mask(R_SEVEN)
    return held


cdef bint go_out_legal(const MannaData* s, int p, int c) noexcept nogil:
    """MH-9.1, MH-9.2, MH-7.2."""
    cdef int tm = p & 1
    return (s.hand[p].count[c] > 0 and s.hand[p].total == 1 and s.opened[tm]
            and types_ready(s, s.types[tm], s.canastas[tm][R_SEVEN])
            and (c == JOKER or c % 13 != R_SEVEN))

# ---------------------------------------------------------------- legal actions
cdef inline int group_melds(const MannaData* s, const MeldGroup* c, uint64_t candidates, int base,
                            int32_t* out, int n, ReachMemo* memo) noexcept nogil:
    """Append the legal ones of the ids base + (each bit of candidates), ascending; meld_rules
    decides each. With a reach memo they are decided from the largest down (the memo's order)."""
    cdef int id, mi
    if memo == NULL:
        while candidates:
            id = base + cardcore_ctz64(candidates)
            candidates &= candidates - 1
            mi = id - A_MELD
            if meld_rules(s, c, M_NEW[mi], M_N[mi], M_T[mi], M_J[mi], NULL) == OK:
                out[n] = id
                n += 1
        return n
    return group_melds_memo(s, c, candidates, base, out, n, memo)


cdef int group_melds_memo(const MannaData* s, const MeldGroup* c, uint64_t candidates, int base,
                          int32_t* out, int n, ReachMemo* memo) noexcept nogil:
    """group_melds from the largest candidate down, for the reach memo."""
    cdef int32_t ids[MEMO_SIZE]
    cdef int count = 0, found = 0, i, mi
    while candidates:
        ids[count] = base + cardcore_ctz64(candidates)
        candidates &= candidates - 1
        count += 1
    memo.count = 0
    for i in range(count - 1, -1, -1):
        mi = ids[i] - A_MELD
        if meld_rules(s, c, M_NEW[mi], M_N[mi], M_T[mi], M_J[mi], memo) == OK:
            ids[count - 1 - found] = ids[i]     # legal ones gather at the top, in id order
            found += 1
    for i in range(count - found, count):
        out[n] = ids[i]
        n += 1
    return n


cdef int legal_melds(const MannaData* s, int p, int32_t* out, int n) noexcept nogil:
    """Append the legal meld ids, ascending (MH-4). Only the compositions the hand holds and the
    meld has room for are candidates (NEW_MASK, ADD_MASK, WILD_MASK: the meld table as masks);
    meld_rules decides each. Returns the new count."""
    cdef int tm = p & 1, gi, g, wild_cap, twos, jokers, naturals
    cdef int hand_twos = s.hand_kind[p][R_TWO], hand_jokers = s.hand_kind[p][K_JOKER]
    cdef uint64_t candidates
    cdef MeldGroup c
    cdef ReachMemo memo
    cdef ReachMemo* use_memo = NULL
    if not s.opened[tm] and s.committed and known_reach_ok(s, p):
        use_memo = &memo                               # the minimum search will be asked
    for gi in range(NAT_GROUPS):                       # natural-rank groups, in id order
        g = natural_group(gi)
        if s.hand_kind[p][g] == 0 and s.unf[tm][g] < 0:
            continue
        meld_group(s, p, g, &c)
        # At most 3 wild cards in a meld, none in sevens without wild_sevens (MH-4.2, 4.6).
        wild_cap = 0 if g == R_SEVEN and not s.opt.wild_sevens else max(0, MAX_WILDS - c.wild0)
        twos = min(hand_twos, wild_cap)
        jokers = min(hand_jokers, wild_cap)
        if c.u < 0:
            candidates = NEW_MASK[min(c.held, CANASTA)][twos][jokers]
            n = group_melds(s, &c, candidates, GROUP_FIRST[g], out, n, use_memo)
        else:
            candidates = ADD_MASK[min(c.held, ADD_MOST)][twos][jokers][
                max(0, min(CANASTA - c.size0, ADD_MOST))][wild_cap]
            n = group_melds(s, &c, candidates, GROUP_FIRST[g] + NAT_NEW, out, n, use_memo)
    if hand_twos + hand_jokers > 0:                    # the wild meld (MH-4.3)
        meld_group(s, p, G_WILD, &c)
        candidates = WILD_MASK[c.u < 0][min(hand_twos, CANASTA)][min(hand_jokers, CANASTA)][
            max(0, CANASTA - c.size0)]
        n = group_melds(s, &c, candidates, GROUP_FIRST[G_WILD], out, n, use_memo)
    meld_group(s, p, G_BLACK3, &c)                     # black threes (MH-4.7)
    for naturals in range(MIN_MELD, min(c.held, CANASTA) + 1):
        if meld_rules(s, &c, True, naturals, 0, 0, NULL) == OK:
            out[n] = A_BLACK3 + naturals - MIN_MELD
            n += 1
    return n


cdef int legal_uncached(const MannaData* s, int32_t* out) noexcept nogil:
    """Every legal id, ascending, into out (room for NUM_ACTIONS ids)."""
    cdef int n = 0, p = s.h.to_move, tm, c, i
    cdef uint64_t held
    if s.h.phase == ST_OVER:
        return 0
    tm = p & 1
    if s.h.phase == ST_DRAW:
        out[n] = A_DRAW
        n += 1
        for i in range(A_TAKE_ADD, A_TAKE_JOKER + 1):
            if take_check(s, p, i) == OK:
                out[n] = i
                n += 1
        return n
    if not s.opened[tm] and s.turn_points > 0 and not s.committed and not s.retracted:
        out[n] = A_RETRACT
        n += 1
    held = legal_discards(s, p)
    while held:                                        # ascending ids
        out[n] = A_DISCARD + lowest_card(held)
        held &= held - 1
        n += 1
    if s.hand[p].total == 1:
        held = ms_support(&s.hand[p])
        while held:
            c = lowest_card(held)
            held &= held - 1
            if go_out_legal(s, p, c):
                out[n] = A_GO_OUT + c
                n += 1
    if s.retracted:
        return n
    return legal_melds(s, p, out, n)


cdef int legal_cached(MannaData* s) noexcept nogil:
    """The legal ids of the position in s.legal (computed once per position); their count."""
    if s.legal_count < 0:
        s.legal_count = legal_uncached(s, s.legal)
    return s.legal_count

# ---------------------------------------------------------------- applying actions
cdef void start_meld_stage(MannaData* s, int p) noexcept nogil:
    cdef int k
    s.h.phase = ST_MELD
    for k in range(NRK):
        s.credit[k] = s.hand_kind[p][k]                # MH-4.8: cards from hand count


cdef void pick_up_foot(MannaData* s, int p) noexcept nogil:
    """MH-6.1..6.3."""
    cdef int c, k
    if s.foot_taken[p]:
        return
    s.foot_taken[p] = True
    for c in range(NUM_KINDS):
        for k in range(s.foot[p].count[c]):
            hand_add(s, p, c)
    ms_clear(&s.foot[p])
    lay_out_red_threes(s, p)


cdef int new_meld(MannaData* s, int tm, int g) noexcept nogil:
    cdef int m = s.nmelds[tm]
    s.nmelds[tm] += 1
    s.melds[tm][m].group = g
    s.melds[tm][m].size = 0
    s.melds[tm][m].wilds = 0
    s.melds[tm][m].ctype = CT_NONE
    if g != G_BLACK3:
        s.unf[tm][g] = m
    return m


cdef void meld_card(MannaData* s, int tm, int m, int c) noexcept nogil:
    cdef Meld* x = &s.melds[tm][m]
    x.cards[x.size] = c
    x.size += 1
    if is_wild(c):
        x.wilds += 1


cdef bint finish_meld(MannaData* s, int tm, int m) noexcept nogil:
    """A meld that reached 7 cards becomes a closed canasta (MH-4.1, 4.5); returns True then."""
    cdef Meld* x = &s.melds[tm][m]
    if x.size != CANASTA or x.group == G_BLACK3:
        return False
    x.ctype = canasta_type(x.group, x.size - x.wilds, x.wilds)
    s.types[tm] |= type_bits(x.group, x.ctype)
    s.canastas[tm][x.group] += 1
    s.unf[tm][x.group] = -1
    return True


cdef void count_points(MannaData* s, int p, int k, int used) noexcept nogil:
    """MH-4.8: add counted points while the team's initial meld is short."""
    cdef int tm = p & 1, c = s.credit[k], cnt = used if used < c else c
    s.credit[k] = c - cnt
    if not s.opened[tm]:
        s.turn_points += rank_points(k) * cnt


cdef void check_opened(MannaData* s, int p) noexcept nogil:
    cdef int tm = p & 1
    if not s.opened[tm] and s.turn_points >= s.need[tm]:
        s.opened[tm] = True
        s.committed = 0


# The scoring breakdown rows (MH-10): team_hand_score writes one per component as it scores.
cdef enum:                  # indexes into BREAKDOWN_WHAT and BREAKDOWN_RULES
    W_CANASTA_BONUSES = 0
    W_MELD_CARDS = 1
    W_RED_THREES = 2
    W_GOING_OUT = 3
    W_HAND_CARDS = 4
    W_FOOT_RED_THREES = 5
    W_FOOT_CARDS = 6
    R_MH_10_1 = 0
    R_MH_10_2 = 1
    R_MH_10_3 = 2
    R_MH_10_4 = 3
    R_MH_10_5 = 4
    R_MH_10_5_8_4 = 5
    R_MH_10_5_FOOT = 6

BREAKDOWN_WHAT = ("canasta bonuses", "cards in melds", "red threes ({detail})", "going out",
                  "cards left in hands", "red threes in unopened feet",
                  "other cards in unopened feet")
BREAKDOWN_RULES = ("MH-10.1, MH-4.5", "MH-10.2", "MH-10.3, MH-8.3", "MH-10.4", "MH-10.5",
                   "MH-10.5, MH-8.4", "MH-10.5 (foot_penalty=cards)")


cdef inline int add_row(MannaData* s, int tm, int what, int detail, int points) noexcept nogil:
    """One breakdown row of team ``tm`` (its rule is its component's own); returns points."""
    cdef BreakdownRow* row = &s.breakdown[s.breakdown_size]
    row.owner = tm
    row.what = what
    row.rule = what                     # each component has its own rule (same index)
    row.detail = detail
    row.count = -1
    row.points = points
    s.breakdown_size += 1
    return points


cdef int team_hand_score(MannaData* s, int tm, int out_seat) noexcept nogil:
    """MH-10.1..10.5 (MH-10.5 by the foot_penalty option), each component a breakdown row."""
    cdef int bonus = 0, in_melds = 0, m, i, p, c, nred, red, total
    cdef int in_hands = 0, foot_threes = 0, foot_cards = 0
    cdef const Meld* x
    for m in range(s.nmelds[tm]):
        x = &s.melds[tm][m]
        bonus += canasta_bonus(x.ctype)
        for i in range(x.size):
            in_melds += card_points(x.cards[i])
    nred = s.red3[tm][0] + s.red3[tm][1]
    red = RED_THREES_ALL if nred == ALL_RED_THREES else RED_THREE_EACH * nred
    if not has_sevens(s, s.types[tm]):                 # MH-8.3
        red = -red
    for p in range(tm, NPLAYERS, 2):
        for c in range(NUM_KINDS):
            in_hands -= card_points(c) * s.hand[p].count[c]
            if not s.foot_taken[p]:
                if is_red_three(c):
                    foot_threes -= FOOT_RED_THREE * s.foot[p].count[c]   # MH-8.4
                else:
                    foot_cards -= card_points(c) * s.foot[p].count[c]
    total = (add_row(s, tm, W_CANASTA_BONUSES, -1, bonus)
             + add_row(s, tm, W_MELD_CARDS, -1, in_melds)
             + add_row(s, tm, W_RED_THREES, nred, red)
             + add_row(s, tm, W_GOING_OUT, -1,
                       GOING_OUT_BONUS if out_seat >= 0 and (out_seat & 1) == tm else 0)
             + add_row(s, tm, W_HAND_CARDS, -1, in_hands)
             + add_row(s, tm, W_FOOT_RED_THREES, -1, foot_threes))
    if s.opt.foot_penalty == FOOT_CARDS:               # MH-10.5 foot_penalty="cards"
        total += add_row(s, tm, W_FOOT_CARDS, -1, foot_cards)
    return total


cdef int mh_breakdown(const void* state, BreakdownRow* out, int capacity) noexcept nogil:
    cdef const MannaData* s = <const MannaData*>state
    return copy_breakdown(s.breakdown, s.breakdown_size, out, capacity)


cdef void end_hand(MannaData* s, int out_seat) noexcept nogil:
    """MH-9.4/9.5 end of the hand, MH-10 scoring, MH-10.6 the match, MH-10.7 the hand limit."""
    cdef int tm
    cdef bint decided
    s.breakdown_size = 0
    for tm in range(NTEAMS):
        s.last_hand[tm] = team_hand_score(s, tm, out_seat)
        s.score[tm] += s.last_hand[tm]
    s.last_out = out_seat
    s.h.round_index += 1
    s.h.turns += 1
    decided = (s.score[0] >= s.opt.target or s.score[1] >= s.opt.target) \
        and s.score[0] != s.score[1]
    if decided or s.h.round_index >= s.opt.hands:
        s.h.phase = ST_OVER                            # equal at the hand limit: a draw
        s.h.to_move = -1
        return
    s.h.dealer = (s.h.dealer + 1) % NPLAYERS           # MH-2.1
    deal(s)


cdef void draw_stock(MannaData* s, int p) noexcept nogil:
    cdef int i
    cdef int32_t scratch[NUM_ACTIONS]
    if s.stock.size == 0:
        end_hand(s, -1)                           # MH-9.5
        return
    for i in range(DRAW_COUNT):                        # MH-3.1; one card if one is left
        draw_one(s, p)
    start_meld_stage(s, p)
    if s.hand[p].total < 2 and legal_uncached(s, scratch) == 0:
        # MH-9.5 Decision: the stock ran out (red threes) and the player's single card can
        # neither be discarded nor go out (by `out` or by melding it): the hand ends.
        end_hand(s, -1)


cdef int pick_kind(const Header* h, const Multiset* hand, int k, int n, uint8_t* picked,
                   uint8_t* out) noexcept nogil:
    """Choose ``n`` cards of kind ``k`` (a rank 0..12 or the joker) from ``hand``: the cards
    ``Game.apply(..., cards=)`` chose first (the header's, where they are of that kind), else
    each the lowest card id not yet ``picked`` (suits C S D H): the one rule for which cards a
    meld or a pile take uses (games/manna.md, "Actions"). Returns how many it found."""
    cdef int found = 0, suit, c
    cdef uint64_t kind = card_bit(JOKER) if k == K_JOKER else rank_mask(k)
    while found < n:
        c = -1
        if h.chosen_size > 0:
            c = chosen_card(h, kind, hand.count, picked)
        if c < 0 and k == K_JOKER:
            if hand.count[JOKER] > picked[JOKER]:
                c = JOKER
        elif c < 0:
            for suit in range(4):
                if hand.count[suit * 13 + k] > picked[suit * 13 + k]:
                    c = suit * 13 + k
                    break
        if c < 0:
            break
        picked[c] += 1
        out[found] = c
        found += 1
    return found


cdef int meld_cards_of(const MannaData* s, int p, int mi, uint8_t* out) noexcept nogil:
    """The cards meld ``mi`` takes from p's hand, in the order they join the meld (naturals,
    twos, jokers); -1 if the hand lacks them."""
    cdef uint8_t picked[NUM_KINDS]
    cdef int g = M_GROUP[mi], n = 0
    memset(picked, 0, sizeof(picked))
    n += pick_kind(&s.h, &s.hand[p], g if g < 13 else R_THREE, M_N[mi], picked, out + n)
    n += pick_kind(&s.h, &s.hand[p], R_TWO, M_T[mi], picked, out + n)
    n += pick_kind(&s.h, &s.hand[p], K_JOKER, M_J[mi], picked, out + n)
    return n if n == M_N[mi] + M_T[mi] + M_J[mi] else -1


cdef int take_cards_of(const MannaData* s, int p, int kind, uint8_t* out) noexcept nogil:
    """The cards of p's hand a pile take ``kind`` melds with the top card (MH-5.3); -1 if the
    pile is empty or the hand lacks them."""
    cdef uint8_t picked[NUM_KINDS]
    cdef int r, need, n
    if s.pile.size == 0:
        return -1
    r = pile_top(&s.pile) % 13
    memset(picked, 0, sizeof(picked))
    need = 2 if kind == A_TAKE_PAIR else (0 if kind == A_TAKE_ADD else 1)
    n = pick_kind(&s.h, &s.hand[p], r, need, picked, out)
    if kind == A_TAKE_TWO:
        need += 1
        n += pick_kind(&s.h, &s.hand[p], R_TWO, 1, picked, out + n)
    elif kind == A_TAKE_JOKER:
        need += 1
        n += pick_kind(&s.h, &s.hand[p], K_JOKER, 1, picked, out + n)
    return n if n == need else -1


cdef void meld(MannaData* s, int p, int mi) noexcept nogil:
    cdef int tm = p & 1, g = M_GROUP[mi], n = M_N[mi], t = M_T[mi], j = M_J[mi], m, i
    cdef uint8_t cards[CANASTA]        # a meld never takes more than a canasta holds (MH-4.1)
    cdef int count = meld_cards_of(s, p, mi, cards)
    m = new_meld(s, tm, g) if M_NEW[mi] else s.unf[tm][g]
    for i in range(count):
        hand_remove(s, p, cards[i])
        meld_card(s, tm, m, cards[i])
    count_points(s, p, g if g < 13 else R_THREE, n)
    count_points(s, p, R_TWO, t)
    count_points(s, p, K_JOKER, j)
    check_opened(s, p)
    if finish_meld(s, tm, m):
        pick_up_foot(s, p)                             # MH-6.1
    if s.hand[p].total == 0:
        end_hand(s, p)                            # MH-9.2: melded every card


cdef void take_pile(MannaData* s, int p, int kind) noexcept nogil:
    """MH-5.3, MH-5.4."""
    cdef int tm = p & 1, top = pile_pop(&s.pile), r = top % 13, m, i, c, k, x
    cdef int u = s.unf[tm][r]
    cdef uint8_t from_hand[3]
    m = u if u >= 0 else new_meld(s, tm, r)
    meld_card(s, tm, m, top)
    if not s.opened[tm]:
        s.turn_points = rank_points(r)
        s.committed = 1                                # MH-4.8: no retract after a take
    for k in range(NRK):
        s.credit[k] = s.hand_kind[p][k]                # the hand before the pile joins it
    pile_push(&s.pile, top)                            # take_cards_of reads the top card
    x = take_cards_of(s, p, kind, from_hand)
    pile_pop(&s.pile)
    for i in range(x):
        hand_remove(s, p, from_hand[i])
        meld_card(s, tm, m, from_hand[i])
    i = 2 if kind == A_TAKE_PAIR else (0 if kind == A_TAKE_ADD else 1)
    count_points(s, p, r, i)
    if kind == A_TAKE_TWO:
        count_points(s, p, R_TWO, 1)
    elif kind == A_TAKE_JOKER:
        count_points(s, p, K_JOKER, 1)
    for i in range(s.pile.size):
        c = s.pile.cards[i]
        if is_red_three(c):
            lay_red_three(s, p, c)                     # MH-5.4, MH-8.1: not replaced
        else:
            hand_add(s, p, c)
            ms_add(&s.known[p], c)                     # everyone saw the pile join this hand
    s.pile.size = 0
    s.pile_frozen = False
    s.pile_red3 = 0
    s.h.phase = ST_MELD
    check_opened(s, p)
    if finish_meld(s, tm, m):
        pick_up_foot(s, p)
    if s.hand[p].total == 0:
        end_hand(s, p)


cdef void retract(MannaData* s, int p) noexcept nogil:
    """MH-4.8: every provisional meld of the team goes back to the hand."""
    cdef int tm = p & 1, m, i, k
    for m in range(s.nmelds[tm]):
        for i in range(s.melds[tm][m].size):
            hand_add(s, p, s.melds[tm][m].cards[i])
            ms_add(&s.known[p], s.melds[tm][m].cards[i])   # they were on the table
    s.nmelds[tm] = 0
    for k in range(NGROUPS):
        s.unf[tm][k] = -1
    s.turn_points = 0
    s.retracted = 1
    for k in range(NRK):
        s.credit[k] = s.hand_kind[p][k]


cdef void discard(MannaData* s, int p, int c) noexcept nogil:
    hand_remove(s, p, c)
    pile_push(&s.pile, c)
    if is_wild(c):
        s.pile_frozen = True                           # MH-5.2
    s.h.to_move = (p + 1) % NPLAYERS                     # MH-1.4: clockwise
    s.h.turns += 1
    begin_turn(s)


cdef void apply_action(MannaData* s, int action) noexcept nogil:
    """Apply an id known to be legal."""
    cdef int p = s.h.to_move
    s.legal_count = -1
    if action == A_DRAW:
        draw_stock(s, p)
    elif action <= A_TAKE_JOKER:
        take_pile(s, p, action)
    elif action == A_RETRACT:
        retract(s, p)
    elif action < A_GO_OUT:
        discard(s, p, action - A_DISCARD)
    elif action < A_MELD:
        hand_remove(s, p, action - A_GO_OUT)
        pile_push(&s.pile, action - A_GO_OUT)
        end_hand(s, p)                            # MH-9.2, MH-9.4
    else:
        meld(s, p, action - A_MELD)

# ---------------------------------------------------------------- the framework's hooks
cdef void mh_start(void* state) noexcept nogil:
    """MH-2.1: the first dealer by option or by lot, then the first deal."""
    cdef MannaData* s = <MannaData*>state
    s.h.dealer = s.opt.dealer if s.opt.dealer >= 0 else <int>rng_below(&s.h.rng, NPLAYERS)
    deal(s)


cdef int mh_legal(void* state, int32_t* out, int capacity) noexcept nogil:
    cdef MannaData* s = <MannaData*>state
    cdef int n
    if capacity < NUM_ACTIONS:                         # every id at once still fits
        return -1
    n = legal_cached(s)
    memcpy(out, s.legal, n * sizeof(int32_t))
    return n


cdef void mh_apply(void* state, int action) noexcept nogil:
    apply_action(<MannaData*>state, action)


cdef int mh_hand_cards(const void* state, int action, uint8_t* out) noexcept nogil:
    """The framework's hand_cards hook: a meld's cards and a pile take's cards from hand
    are named by count and rank (the header's chosen cards first, then pick_kind's)."""
    cdef const MannaData* s = <const MannaData*>state
    cdef int p = s.h.to_move, n
    if p < 0:
        return HAND_CARDS_LACKING
    if action >= A_MELD:
        n = meld_cards_of(s, p, action - A_MELD, out)
    elif A_TAKE_ADD <= action <= A_TAKE_JOKER:
        n = take_cards_of(s, p, action, out)
    else:
        return HAND_CARDS_NAMED
    return HAND_CARDS_LACKING if n < 0 else n


cdef void mh_scores(const void* state, int32_t* out) noexcept nogil:
    """MH-10.6: every seat shows its team's cumulative score."""
    cdef const MannaData* s = <const MannaData*>state
    cdef int p
    for p in range(NPLAYERS):
        out[p] = s.score[p & 1]


cdef void mh_returns(const void* state, double* out) noexcept nogil:
    """Higher is better: each seat gets its team's final score."""
    cdef const MannaData* s = <const MannaData*>state
    cdef int p
    for p in range(NPLAYERS):
        out[p] = s.score[p & 1]

# ---------------------------------------------------------------- the zones: who sees what (MH-11)
cdef enum:                  # the zones, in ZONES order
    ZN_HAND = 0             # each seat's hand: its own (MH-2.2); taken piles are known
    ZN_FOOT = 1             # face down until picked up (MH-2.2, MH-6.1)
    ZN_STOCK = 2            # face down (MH-2.3)
    ZN_PILE = 3             # the discard pile, face up (MH-3.2, MH-5)
    ZN_MELDS = 4            # each team's melds, face up (MH-4)
    ZN_RED_THREES = 5       # each team's red threes, face up (MH-8)
    NUM_ZONES = 6

cdef ZoneSpec ZONES[NUM_ZONES]
ZONES[ZN_HAND] = ZoneSpec(b"hand", ZONE_SEAT, 0, SEEN_BY_OWNER)
ZONES[ZN_FOOT] = ZoneSpec(b"foot", ZONE_SEAT, 0, SEEN_BY_NONE)
ZONES[ZN_STOCK] = ZoneSpec(b"stock", ZONE_SHARED, 0, SEEN_BY_NONE)
ZONES[ZN_PILE] = ZoneSpec(b"discard", ZONE_SHARED, 0, SEEN_BY_ALL)
ZONES[ZN_MELDS] = ZoneSpec(b"melds", ZONE_TEAM, NTEAMS, SEEN_BY_ALL)
ZONES[ZN_RED_THREES] = ZoneSpec(b"red_threes", ZONE_TEAM, NTEAMS, SEEN_BY_ALL)



cdef int mh_zone_cards(const void* state, int zone, int instance, uint8_t* out) noexcept nogil:
    cdef const MannaData* s = <const MannaData*>state
    cdef int m, i, n = 0
    if zone == ZN_HAND:
        return ms_to_array(&s.hand[instance], out)
    if zone == ZN_FOOT:
        return ms_to_array(&s.foot[instance], out)
    if zone == ZN_STOCK:
        return pile_copy(&s.stock, out)
    if zone == ZN_PILE:
        return pile_copy(&s.pile, out)
    if zone == ZN_MELDS:
        for m in range(s.nmelds[instance]):
            for i in range(s.melds[instance][m].size):
                out[n] = s.melds[instance][m].cards[i]
                n += 1
        return n
    for i in range(s.red3[instance][0]):
        out[n] = make_card(DIAMONDS, R_THREE)
        n += 1
    for i in range(s.red3[instance][1]):
        out[n] = make_card(HEARTS, R_THREE)
        n += 1
    return n


cdef int mh_known_cards(const void* state, int zone, int instance, uint8_t* out) noexcept nogil:
    """Cards of a hand every seat knows are there: taken piles, retracted melds."""
    cdef const MannaData* s = <const MannaData*>state
    if zone == ZN_HAND:
        return ms_to_array(&s.known[instance], out)
    return 0


cdef GameHooks MH_HOOKS = game_hooks(
    name="manna",
    state_size=sizeof(MannaData),
    num_actions=NUM_ACTIONS,
    max_legal=NUM_ACTIONS,
    start=mh_start,
    legal=mh_legal,
    apply=mh_apply,
    observation_size=mh_observation_size,
    observe=mh_observe,
    returns=mh_returns,
    scores=mh_scores,
    sample_hidden=mh_sample_hidden,
    zones=ZONES,
    num_zones=NUM_ZONES,
    zone_cards=mh_zone_cards,
    breakdown=mh_breakdown,
    greedy=mh_greedy,
    rollout=mh_rollout,
    known_cards=mh_known_cards,
    hand_cards=mh_hand_cards)

# ---------------------------------------------------------------- the Python-visible state
def manna_deck() -> list:
    """MH-1.1: four full decks and eight jokers (216 cards), id order."""
    return build_deck([list(range(13))] * NUM_DECKS, NUM_JOKERS)


def card_points_of(int card) -> int:
    """MH-1.3: what a card counts (the kernel's table)."""
    if not 0 <= card < NUM_KINDS:
        raise ValueError(f"card id out of range: {card!r}")
    return card_points(card)


def num_actions() -> int:
    return NUM_ACTIONS


def hand_score_bounds() -> tuple:
    """(lowest, highest) score a team can make in one hand (MH-10), from the rule constants.
    Highest: every card but the red threes melded (they are never melded), as many canastas as
    those cards make, each with the largest bonus (MH-4.5), all red threes counting for the team
    (MH-8.3) and going out (MH-10.4). Lowest: every such card left in the team's hands and feet,
    every red three in a foot (MH-8.4), and all red threes counting against it (MH-8.3)."""
    deck = manna_deck()
    red = [c for c in deck if is_red_three(c)]
    meldable_points = sum(card_points(c) for c in deck) - sum(card_points(c) for c in red)
    canastas = (len(deck) - len(red)) // CANASTA
    best_bonus = max(canasta_bonus(t) for t in (CT_NATURAL, CT_MIXED, CT_WILD, CT_SEVENS))
    high = meldable_points + canastas * best_bonus + RED_THREES_ALL + GOING_OUT_BONUS
    low = -(meldable_points + FOOT_RED_THREE * len(red)) - RED_THREES_ALL
    return (low, high)


def hand_action_bound() -> int:
    """An upper bound on the actions of one hand, from the rule constants. Draws: each takes at
    least one stock card, plus the draw that finds it empty (MH-9.5). Takes and lasting melds:
    each leaves at least one card on the table for good (no retract after a take, MH-4.8), and the
    table holds at most the non-red-three cards. Turns begin with a draw or a take and end with
    one discard (or `out`). Retracts: at most one per draw turn, each undoing at most one meld per
    card in hand (at most the non-red-three cards)."""
    cdef int draws = DECK_SIZE - DISCARD_POSITION - 1 + 1
    cdef int table = DECK_SIZE - ALL_RED_THREES
    cdef int turns = draws + table
    return draws + table + turns + draws + draws * table


MAX_HANDS_PER_MATCH = MAX_HANDS          # MH-10.7 Decision (termination guard)
FOOT_PENALTIES = ("red_threes", "cards")    # MH-10.5: the values of option foot_penalty
MIXED_SEVENS = ("either", "mixed")          # MH-4.6: the values of option mixed_sevens


cdef MannaOptions read_options(dict options) except *:
    """The typed options; every key must be there (the wrapper resolves the Option defaults)."""
    cdef MannaOptions opt
    for key in ("target", "hands", "dealer", "wild_sevens", "foot_penalty", "mixed_sevens"):
        if key not in options:
            raise ValueError(f"manna option {key!r} missing (the wrapper supplies defaults)")
    opt.target = options["target"]
    hands = options["hands"]
    opt.hands = MAX_HANDS if hands is None else hands
    if not 1 <= opt.hands <= MAX_HANDS:
        raise ValueError(f"hands must be 1..{MAX_HANDS}, not {hands}")
    dealer = options["dealer"]
    opt.dealer = -1 if dealer is None else dealer
    if not -1 <= opt.dealer < NPLAYERS:
        raise ValueError(f"dealer seat {dealer} out of range")
    opt.wild_sevens = bool(options["wild_sevens"])
    if options["foot_penalty"] not in FOOT_PENALTIES or options["mixed_sevens"] not in MIXED_SEVENS:
        raise ValueError(f"foot_penalty one of {FOOT_PENALTIES}, mixed_sevens one of {MIXED_SEVENS}")
    opt.foot_penalty = FOOT_CARDS if options["foot_penalty"] == "cards" else FOOT_RED_THREES
    opt.sevens_either = opt.wild_sevens and options["mixed_sevens"] == "either"
    return opt


cdef class MannaState(GameState):
    """Manna from Heaven: MannaData bound to the framework; getters for the view."""

    match_end_rule = "MH-10.6"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(MannaData))
        self.bind(&MH_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if players != NPLAYERS:
            raise ValueError("manna is for 6 players")
        init_header(&self.d.h, players, deck, manna_deck())
        self.d.opt = read_options(options)
        self.d.h.phase = ST_OVER
        self.d.last_out = -1
        self.d.legal_count = -1

    def explain_rule(self, int action) -> tuple:
        """Why a valid id is not legal now (the base answers for bad ids and a finished match)."""
        from cardcore.cards import card_str
        cdef int p, tm, c
        p = self.d.h.to_move
        tm = p & 1
        if self.d.h.phase == ST_DRAW:
            if action == A_DRAW:
                return ("draw is always legal at the draw stage", "MH-3.1")
            if A_TAKE_ADD <= action <= A_TAKE_JOKER:
                return WHY.get(take_check(&self.d, p, action), ("that take is not legal now", "MH-5"))
            return ("draw first: draw_stock or take the pile", "MH-3.1")
        if action <= A_TAKE_JOKER:
            return ("you have already drawn this turn", "MH-3")
        if action == A_RETRACT:
            return ("there are no provisional initial melds to take back", "MH-4.8")
        if action < A_MELD:
            c = (action - A_DISCARD) if action < A_GO_OUT else (action - A_GO_OUT)
            if self.d.hand[p].count[c] == 0:
                return (f"you do not hold {card_str(c)}", "MH-3.3")
            if not self.d.opened[tm] and self.d.turn_points > 0:
                return (f"your melds this turn total {self.d.turn_points}, below the minimum "
                        f"{self.d.need[tm]}: meld more or retract", "MH-4.8")
            if action >= A_GO_OUT:
                if not types_ready(&self.d, self.d.types[tm], self.d.canastas[tm][R_SEVEN]):
                    return ("going out needs a natural, a mixed, a wild and a sevens canasta",
                            "MH-9.1")
                if c % 13 == R_SEVEN and c != JOKER:
                    return ("a seven may never be the going-out discard", "MH-7.2")
                return ("go out by discarding your last card: you hold more than one", "MH-9.2")
            if c % 13 == R_SEVEN and c != JOKER:
                return ("sevens may not be discarded until both teams have a canasta of sevens",
                        "MH-7.1")
            return ("you must keep at least one card unless you go out", "MH-9.3")
        return WHY.get(meld_check(&self.d, p, action - A_MELD, NULL),
                       ("that meld is not legal now", "MH-4"))

    def hand_cards_of(self, int action, p=None) -> list:
        """The cards of seat p's hand (the player to move by default) that action ``action``
        uses — a meld's cards, or the cards a pile take melds with the top card — in the order
        they join the meld, chosen as the action chooses them (``pick_kind``: the lowest card
        id first); [] for the other kinds; None if the hand lacks them."""
        cdef int seat = self.d.h.to_move if p is None else self.check_seat(p)
        cdef uint8_t out[CANASTA]
        cdef int n
        if seat < 0 or not 0 <= action < NUM_ACTIONS:
            return None
        if action >= A_MELD:
            n = meld_cards_of(&self.d, seat, action - A_MELD, out)
        elif A_TAKE_ADD <= action <= A_TAKE_JOKER:
            n = take_cards_of(&self.d, seat, action, out)
        else:
            return []
        return None if n < 0 else [out[i] for i in range(n)]

    def legal_ids_uncached(self) -> list:
        """legal_ids() recomputed from scratch (the per-state cache dropped): for benchmarks."""
        self.d.legal_count = -1
        return self.legal_ids()

    def hand(self, p) -> list:
        return ms_to_list(&self.d.hand[self.check_seat(p)])

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(NPLAYERS)]

    def known_cards(self, p) -> list:
        """Cards every seat knows to be in seat p's hand: picked up with a pile or returned by a
        retract, and not since melded or discarded (the evidence sample_hidden keeps)."""
        return ms_to_list(&self.d.known[self.check_seat(p)])

    def foot(self, p) -> list:
        """A player's unopened foot (hidden information: tests and tools only)."""
        return ms_to_list(&self.d.foot[self.check_seat(p)])

    def foot_sizes(self) -> list:
        return [self.d.foot[p].total for p in range(NPLAYERS)]

    def feet_taken(self) -> list:
        return [bool(self.d.foot_taken[p]) for p in range(NPLAYERS)]

    def melds(self, int team) -> list:
        """[(group, cards, ctype name or None)] of a team, in the order they were started."""
        if not 0 <= team < NTEAMS:
            raise ValueError("team 0 or 1")
        names = {CT_NATURAL: "natural", CT_MIXED: "mixed", CT_WILD: "wild", CT_SEVENS: "sevens"}
        out = []
        cdef Meld x
        for m in range(self.d.nmelds[team]):
            x = self.d.melds[team][m]
            out.append((x.group, [x.cards[i] for i in range(x.size)], names.get(x.ctype)))
        return out

    def meld_bytes(self, int team) -> list:
        """The cards of each meld of a team as bytes of card ids, in the order they were
        started: the zones of events' moves (``melds`` without the words, for every action)."""
        if not 0 <= team < NTEAMS:
            raise ValueError("team 0 or 1")
        cdef list out = []
        cdef int m
        for m in range(self.d.nmelds[team]):
            out.append(PyBytes_FromStringAndSize(<char*>self.d.melds[team][m].cards,
                                                 self.d.melds[team][m].size))
        return out

    def red_threes(self, int team) -> list:
        if not 0 <= team < NTEAMS:
            raise ValueError("team 0 or 1")
        return [2 * 13 + R_THREE] * self.d.red3[team][0] + [3 * 13 + R_THREE] * self.d.red3[team][1]

    def discard_pile(self) -> list:
        return pile_to_list(&self.d.pile)

    def stock(self) -> list:
        """The stock top-first (hidden: tests and tools only)."""
        return pile_to_list(&self.d.stock)[::-1]

    @property
    def stock_size(self) -> int:
        return self.d.stock.size

    @property
    def frozen(self) -> bool:
        return bool(self.d.pile_frozen)

    def min_meld(self) -> list:
        return [self.d.need[0], self.d.need[1]]

    def opened(self) -> list:
        return [bool(self.d.opened[0]), bool(self.d.opened[1])]

    def canasta_types(self, int team) -> list:
        if not 0 <= team < NTEAMS:
            raise ValueError("team 0 or 1")
        return [name for bit, name in ((CT_NATURAL, "natural"), (CT_MIXED, "mixed"),
                                       (CT_WILD, "wild"), (CT_SEVENS, "sevens"))
                if self.d.types[team] & bit]

    @property
    def turn_points(self) -> int:
        return self.d.turn_points

    def credits(self) -> list:
        """Per rank (and the joker last): hand cards whose points count toward the minimum."""
        return [self.d.credit[k] for k in range(NRK)]

    @property
    def committed(self) -> bool:
        return bool(self.d.committed)

    @property
    def retracted(self) -> bool:
        return bool(self.d.retracted)

    def team_scores(self) -> list:
        return [self.d.score[0], self.d.score[1]]

    def last_hand_scores(self) -> list:
        return [self.d.last_hand[0], self.d.last_hand[1]]

    @property
    def last_out(self):
        return None if self.d.last_out < 0 else self.d.last_out

    def all_cards(self) -> list:
        cards = []
        for p in range(NPLAYERS):
            cards += self.hand(p) + self.foot(p)
        for tm in range(NTEAMS):
            cards += self.red_threes(tm)
            for m in self.melds(tm):
                cards += m[1]
        return cards + self.discard_pile() + self.stock()


check_state_class(MannaState)
