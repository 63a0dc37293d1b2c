# cython: language_level=3, cdivision=True
"""Belote Contrée state machine (rules: games/belote.md, rule IDs BE-x.y), exactly as colver
0.11.1 plays it by default.

Cards inside this kernel are colver's card indices, ``suit * 8 + rank`` with suits S H D C as
0..3 and ranks 7 8 9 J Q K 10 A as 0..7, so that a hand is one 32-bit mask and the play ids
ARE the card indices. cardcore's own card ids (``suit * 13 + rank``, A = 0, suits C S D H)
appear only at the Python boundary, converted by ``to_card_id`` / ``to_index`` (the one
mapping, be_card_id / be_index_of in kernel.h).

Action space (75 ids, 32 + colver's bidding ids; contracts="all" adds 20 after them):
    0..31   play the card with that index                               BE-5
    32      pass                                                        BE-3.2
    33..68  bid 80 + 10 * ((a - 33) // 4) in suit (a - 33) % 4 (S H D C)  BE-3.3
    69..72  bid capot (250) in suit a - 69                              BE-3.4
    73      contre                                                      BE-3.5
    74      surcontre                                                   BE-3.6
    75..92  contracts="all": bid 80 + 10 * ((a - 75) // 2), no-trump (NT) if (a - 75) % 2
            == 0, else all-trump (AT)                                   BE-9.1
    93, 94  contracts="all": capot NT, capot AT                         BE-9.1

The rules themselves are C (``kernel.c`` / ``kernel.h`` beside this file: the same code the
native and WebAssembly libraries build); this module binds them to the framework and adds the
Python-side tables and getters.
"""
from libc.stdint cimport uint8_t, uint32_t, int8_t, int32_t, int64_t
from libc.string cimport memset

from cardcore._fast cimport OPTION_NONE   # the C ABI's view of a game (core/kernel.h)
from cardcore._fast cimport (
    GameState, GameHooks, Header, BreakdownRow, MAX_BREAKDOWN_ROWS, check_hooks, init_header,
)
from cardcore._fast import check_state_class
from cardcore.games.belote.words import REFUSALS as _REFUSALS
from cardcore.refusals import Refusals

# ---------------------------------------------------------------- the kernel (kernel.h)
cdef extern from "cardcore/games/belote/kernel.h" nogil:
    enum:
        BE_PLAYERS
        BE_NUM_CARDS
        BE_HAND_SIZE
        BE_MIN_BID
        BE_BID_STEP
        BE_BID_LEVELS
        BE_CAPOT_VALUE
        BE_CAPOT_FLAT
        BE_MAX_MATCH_TO
        BE_MAX_DEALS
        BE_NO_TRUMP
        BE_ALL_TRUMP
    enum:
        BE_A_PASS
        BE_A_BID
        BE_A_CAPOT
        BE_A_CONTRE
        BE_A_SURCONTRE
        BE_NUM_ACTIONS
        BE_A_BID_NTAT
        BE_A_CAPOT_NTAT
        BE_NUM_ALL_ACTIONS
        BE_MAX_AUCTION
    enum:
        BE_MAX_ROWS
    enum:
        BE_PH_AUCTION
        BE_PH_PLAY
        BE_PH_OVER
    enum:
        BE_Z_HAND
        BE_Z_TRICK
        BE_Z_WON
    enum:
        BE_NUM_PIECES
        BE_MAX_OBS_PIECES

    ctypedef struct BEOptions:
        int32_t dealer
        int32_t surcontre
        int32_t round10
        int32_t must_undertrump
        int32_t all_contracts
        int32_t match_to
        int32_t match_exceed

    ctypedef struct BEState:
        Header h
        BEOptions opt
        uint32_t hand[BE_PLAYERS]
        uint32_t dealt[BE_PLAYERS]
        uint32_t played
        uint32_t won_mask[2]
        uint32_t played_by[BE_PLAYERS]
        int32_t bid_value, bid_suit, bid_seat, contre, contre_seat, passes, n_calls
        uint8_t calls[BE_MAX_AUCTION]
        int32_t trump, leader, n_trick
        int8_t trick[BE_PLAYERS]
        int32_t master, master_strength, best_trump, tricks_done
        int8_t last_trick[BE_PLAYERS]
        int32_t last_leader, last_winner
        int32_t points[2]
        int32_t tricks[2]
        int32_t belote_seat, belote_said
        int32_t made
        int32_t result[2]
        int32_t n_rows
        int32_t deal_points[2]
        int32_t deal_tricks[2]
        int32_t total[2]
        int32_t reached

    int be_card_id(int index) noexcept
    int be_index_of(int card) noexcept

    const GameHooks BE_HOOKS

    int be_deal_seat(int dealer, int position) noexcept
    int be_card_points(int card, int trump) noexcept
    int be_obs_layout(int32_t* offset) noexcept
    int be_zone_cards(const void* state, int zone, int instance, uint8_t* out) noexcept
    int be_init(void* state, int players, const int64_t* values) noexcept

check_hooks(&BE_HOOKS)

if <int>BE_MAX_ROWS > <int>MAX_BREAKDOWN_ROWS:
    raise ImportError("Belote Contrée needs a larger breakdown than the core provides")

# ---------------------------------------------------------------- action table
# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
PLAY_FIRST = 0                    # play the card with colver index i: PLAY_FIRST + i
PASS = BE_A_PASS
BID_FIRST = BE_A_BID              # bid level l (80 + 10 l) in suit s: BID_FIRST + 4 l + s
CAPOT_FIRST = BE_A_CAPOT          # capot in suit s: CAPOT_FIRST + s
CONTRE = BE_A_CONTRE
SURCONTRE = BE_A_SURCONTRE
BID_NTAT_FIRST = BE_A_BID_NTAT    # contracts="all": bid level l in NT / AT: BID_NTAT_FIRST + 2 l + k
CAPOT_NTAT_FIRST = BE_A_CAPOT_NTAT   # capot NT, capot AT: CAPOT_NTAT_FIRST + k
PLAYERS = BE_PLAYERS
SUIT_LETTERS = "SHDC"             # colver's suit order (bids and trumps)
# a contract's "suit": the four suits, then no-trump and all-trump (BE-9)
CONTRACT_LETTERS = ("S", "H", "D", "C", "NT", "AT")
# colver's suit index -> cardcore's (C S D H = 0..3)
CC_SUIT = (1, 3, 2, 0)
BID_VALUES = tuple(BE_MIN_BID + BE_BID_STEP * k for k in range(BE_BID_LEVELS))
CAPOT_VALUE = BE_CAPOT_VALUE
CAPOT_FLAT = BE_CAPOT_FLAT      # capot="flat": a bid capot's score, times the multiplier
MAX_MATCH_TO = BE_MAX_MATCH_TO  # BE-10.1: match_to's bound
MAX_DEALS = BE_MAX_DEALS        # BE-10.5: a match ends after this many deals


def to_card_id(int index) -> int:
    """cardcore's card id of a colver card index (0..31)."""
    if not 0 <= index < BE_NUM_CARDS:
        raise ValueError(f"card index out of range: {index}")
    return be_card_id(index)


def to_index(int card) -> int:
    """colver's card index of a cardcore card id of the 32-card deck."""
    cdef int i = be_index_of(card)
    if i < 0:
        raise ValueError(f"not a card of the 32-card deck: {card}")
    return i


def action_table(bint all_contracts=False) -> list:
    """One tuple per id: (kind, cardcore card id or None, bid value or None, suit letter or
    None); with ``all_contracts`` (contracts="all", BE-9.1) the no-trump and all-trump bids
    ("NT", "AT") after the 75 ids."""
    table = [("play", be_card_id(i), None, None) for i in range(BE_NUM_CARDS)]
    table.append(("pass", None, None, None))
    table += [("bid", None, BID_VALUES[k // 4], SUIT_LETTERS[k % 4])
              for k in range(4 * BE_BID_LEVELS)]
    table += [("capot", None, CAPOT_VALUE, SUIT_LETTERS[s]) for s in range(4)]
    table += [("contre", None, None, None), ("surcontre", None, None, None)]
    assert len(table) == BE_NUM_ACTIONS
    if all_contracts:
        table += [("bid", None, BID_VALUES[k // 2], CONTRACT_LETTERS[4 + k % 2])
                  for k in range(2 * BE_BID_LEVELS)]
        table += [("capot", None, CAPOT_VALUE, CONTRACT_LETTERS[4 + k]) for k in range(2)]
        assert len(table) == BE_NUM_ALL_ACTIONS
    return table


def num_actions(bint all_contracts=False) -> int:
    return BE_NUM_ALL_ACTIONS if all_contracts else BE_NUM_ACTIONS


def belote_deck() -> list:
    """BE-1.2: the 32 cards 7 8 9 10 J Q K A of each suit (cardcore ids, id order)."""
    return sorted(be_card_id(i) for i in range(BE_NUM_CARDS))


def card_points(card, trump) -> int:
    """BE-4.1, BE-4.2, BE-9.2, BE-9.3: a card's points (cardcore id) with ``trump`` a suit
    letter, "NT", "AT" or None."""
    return be_card_points(to_index(card), -1 if trump is None else CONTRACT_LETTERS.index(trump))


# ---------------------------------------------------------------- scoring (BE-7)
BREAKDOWN_WHAT = ("card points", "contract", "belote", "all the deal's card points",
                  "rounding to the nearest ten", "capot, a flat score")
BREAKDOWN_RULES = ("BE-7.1", "BE-7.2", "BE-7.4", "BE-6.4", "BE-7.6", "BE-7.7", "BE-7.8",
                   "BE-7.9")

# ---------------------------------------------------------------- the state
PHASES = ("auction", "play", "over")


cdef list zone_list(const BEState* s, int zone, int instance):
    cdef uint8_t buf[BE_NUM_CARDS]
    cdef int n = be_zone_cards(s, zone, instance, buf)
    return [buf[i] for i in range(n)]


cdef list mask_list(uint32_t m):
    return sorted(be_card_id(i) for i in range(BE_NUM_CARDS) if m & (<uint32_t>1 << i))


def deal_plan(int dealer) -> list:
    """BE-2.2: the zone of each deck position (top first): "hand:<seat>", packets of 3, 2 and
    3 cards from the dealer's next seat."""
    if not 0 <= dealer < BE_PLAYERS:
        raise ValueError("dealer must be a seat 0..3")
    return [f"hand:{be_deal_seat(dealer, i)}" for i in range(BE_NUM_CARDS)]


def deck_for_hands(int dealer, hands) -> list:
    """The stacked deck (cardcore ids, top first) that deals ``hands`` (4 lists of 8 cardcore
    ids) with ``dealer`` dealing (BE-2.2): how a colver deal becomes a cardcore one."""
    queues = [list(h) for h in hands]
    return [queues[be_deal_seat(dealer, i)].pop(0) for i in range(BE_NUM_CARDS)]


# ---------------------------------------------------------------- the per-seat projection
OBS_NAMES = ("observer", "current_player", "phase", "dealer", "hand", "trick", "played",
             "bids", "contract_suit", "contract_value", "taker", "contre", "belote",
             "points", "tricks_won", "scores")

if len(OBS_NAMES) != BE_NUM_PIECES or BE_NUM_PIECES + 1 > BE_MAX_OBS_PIECES:
    raise ImportError("the observation layout needs a larger MAX_OBS_PIECES")


def observation_pieces() -> tuple:
    """(name, offset, size) of each piece of the tensor."""
    cdef int32_t offset[BE_NUM_PIECES + 1]
    be_obs_layout(offset)
    return tuple((OBS_NAMES[i], offset[i], offset[i + 1] - offset[i]) for i in range(BE_NUM_PIECES))


# ---------------------------------------------------------------- the Python-visible state
cdef class BeloteState(GameState):
    """Belote Contrée: the struct above, bound to the framework; getters for the view (card
    lists in cardcore ids)."""
    cdef BEState d

    match_end_rule = "BE-2.3"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES
    refusals = Refusals(_REFUSALS)  # the templates of the kernel's refusals (be_refuse)

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(BEState))
        self.bind(&BE_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if players != BE_PLAYERS:
            raise ValueError(f"players must be {BE_PLAYERS}")
        init_header(&self.d.h, players, deck, belote_deck())
        cdef int64_t values[10]
        dealer = options["dealer"]
        values[0] = OPTION_NONE if dealer is None else dealer
        values[1] = 0 if options["surcontre"] == "x3" else 1
        values[2] = ("none", "nearest_ten", "nearest_ten_6_up").index(options["rounding"])
        values[3] = 0 if options["undertrump"] == "free" else 1
        values[4] = 0 if options["contracts"] == "suits" else 1
        values[5] = 0 if options["fall"] == "162+contract" else 1
        values[6] = 0 if options["belote"] == "taken" else 1
        values[7] = 0 if options["capot"] == "contract" else 1
        values[8] = options["match_to"]
        values[9] = 0 if options["match_end"] == "reach" else 1     # "exceed"
        if be_init(&self.d, players, values) != 0:
            raise ValueError(f"dealer must be None or a seat 0..{players - 1}")

    # --- the zones (cardcore ids)
    def hand(self, p) -> list:
        return zone_list(&self.d, BE_Z_HAND, self.check_seat(p))

    def hand_sizes(self) -> list:
        return [bin(self.d.hand[p]).count("1") for p in range(BE_PLAYERS)]

    def dealt(self, p) -> list:
        """The hand as dealt (hidden information: tests and tools)."""
        return mask_list(self.d.dealt[self.check_seat(p)])

    def trick(self) -> list:
        """The trick on the table, in order of play."""
        return zone_list(&self.d, BE_Z_TRICK, 0)

    def won(self, team) -> list:
        return zone_list(&self.d, BE_Z_WON, int(team))

    def all_cards(self) -> list:
        cards = []
        for p in range(BE_PLAYERS):
            cards += zone_list(&self.d, BE_Z_HAND, p)
        return cards + self.trick() + self.won(0) + self.won(1)

    # --- the auction (BE-3)
    def auction(self) -> list:
        """(seat, action id) of every call so far."""
        return [((self.d.h.dealer + 1 + i) % BE_PLAYERS, self.d.calls[i] + BE_A_PASS)
                for i in range(self.d.n_calls)]

    @property
    def contract_value(self) -> int:
        return self.d.bid_value

    @property
    def contract_suit(self):
        return CONTRACT_LETTERS[self.d.bid_suit] if self.d.bid_seat >= 0 else None

    @property
    def taker(self):
        return self.d.bid_seat if self.d.bid_seat >= 0 else None

    @property
    def contre(self) -> int:
        """0, 1 contre, 2 surcontre."""
        return self.d.contre

    @property
    def contre_seat(self):
        return self.d.contre_seat if self.d.contre_seat >= 0 else None

    @property
    def multiplier(self) -> int:
        return (1, 2, self.d.opt.surcontre)[self.d.contre]

    # --- the play (BE-5, BE-6)
    @property
    def trump(self):
        return CONTRACT_LETTERS[self.d.trump] if self.d.trump >= 0 else None

    @property
    def leader(self) -> int:
        return self.d.leader

    @property
    def trick_master(self):
        """The seat that holds the trick on the table, or None."""
        return (self.d.leader + self.d.master) % BE_PLAYERS if self.d.n_trick else None

    @property
    def tricks_done(self) -> int:
        return self.d.tricks_done

    def last_trick(self) -> list:
        return ([be_card_id(self.d.last_trick[i]) for i in range(BE_PLAYERS)]
                if self.d.tricks_done else [])

    @property
    def last_leader(self):
        return self.d.last_leader if self.d.tricks_done else None

    @property
    def last_winner(self):
        return self.d.last_winner if self.d.tricks_done else None

    def points(self) -> list:
        return [self.d.points[0], self.d.points[1]]

    def tricks_won(self) -> list:
        return [self.d.tricks[0], self.d.tricks[1]]

    @property
    def belote_said(self) -> int:
        """0, 1 belote said, 2 rebelote said (BE-6.4)."""
        return self.d.belote_said

    @property
    def belote_seat(self):
        """The seat that said belote, once it has (BE-6.4)."""
        return self.d.belote_seat if self.d.belote_said else None

    # --- the end (BE-7)
    @property
    def made(self):
        """True the contract was made, False it fell, None passed out or not over."""
        if self.d.h.phase != BE_PH_OVER or self.d.made < 0:
            return None
        return bool(self.d.made)

    @property
    def passed_out(self) -> bool:
        return self.d.h.phase == BE_PH_OVER and self.d.made < 0

    def team_scores(self) -> list:
        return [self.d.result[0], self.d.result[1]] if self.d.h.phase == BE_PH_OVER else [0, 0]

    # --- the last deal as it ended (in a match the next deal is dealt at once: BE-10.4)
    @property
    def deal_made(self):
        """The last deal: True made, False fell, None passed out (or no deal over yet)."""
        return bool(self.d.made) if self.d.h.round_index and self.d.made >= 0 else None

    @property
    def deal_passed_out(self) -> bool:
        return bool(self.d.h.round_index) and self.d.made < 0

    def deal_points(self) -> list:
        """The last deal's card points per side, dix de der included."""
        return [self.d.deal_points[0], self.d.deal_points[1]]

    def deal_tricks(self) -> list:
        return [self.d.deal_tricks[0], self.d.deal_tricks[1]]

    # --- the match (BE-10)
    @property
    def match_to(self) -> int:
        return self.d.opt.match_to

    @property
    def deal_number(self) -> int:
        """The deal being played, from 1 (once over: the deals played)."""
        return self.d.h.round_index + (0 if self.d.h.phase == BE_PH_OVER else 1)

    @property
    def target_reached(self) -> bool:
        """The match ended on its target (BE-10.1), not after its last deal (BE-10.5)."""
        return bool(self.d.reached)


check_state_class(BeloteState)
