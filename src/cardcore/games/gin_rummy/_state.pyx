# cython: language_level=3, cdivision=True
"""Gin Rummy state machine (rules: games/gin_rummy.md, rule IDs GR-x.y), exactly as
OpenSpiel's ``gin_rummy`` plays it.

Cards inside this kernel are OpenSpiel's card indices, ``suit * 13 + rank`` with ranks A..K as
0..12 and suits s c d h as 0..3, so that the action ids ARE the card indices and a hand is one
64-bit mask. cardcore's own card ids (``suit * 13 + rank``, suits C S D H) differ only in the
order of the first two suits: ``to_card_id`` / ``to_os_index`` (the one mapping,
gr_card_id / gr_os_index in kernel.h).

Action space (OpenSpiel's 241 ids in every configuration):
    0..51    the card with that index: discard it, or lay it off   GR-4.1, GR-6.2, GR-7.1
    52       draw the upcard                                       GR-3.1, GR-4.1
    53       draw from the stock                                   GR-3.2, GR-4.1
    54       pass                                                  GR-3.1, GR-5.2, GR-6.3, GR-7
    55       knock                                                 GR-5.1, GR-5.2
    56..240  lay OpenSpiel's meld (action - 56)                    GR-6.3, GR-7.2

The rules themselves are C (``kernel.c`` / ``kernel.h`` beside this file: the same code the
native and WebAssembly libraries build); this module binds them to the framework and adds the
Python-side tables and getters.
"""
from libc.stdint cimport uint8_t, int32_t, int64_t, uint64_t
from libc.string cimport memset

from cardcore._fast cimport (
    GameState, GameHooks, Header, Pile, PILE_CAPACITY, MAX_BREAKDOWN_ROWS, check_hooks,
    init_header,
)
from cardcore._fast import check_state_class
from cardcore.games.gin_rummy.words import REFUSALS as _REFUSALS
from cardcore.refusals import Refusals

# ---------------------------------------------------------------- the kernel (kernel.h)
cdef extern from "cardcore/games/gin_rummy/kernel.h" nogil:
    enum:
        GR_PLAYERS
        GR_NUM_CARDS
        GR_MAX_KNOCK_CARD
        GR_MAX_HAND_SIZE
        GR_MIN_HAND_SIZE
        GR_MAX_BONUS
        GR_MAX_LAYOFF_LIMIT
        GR_MAX_MATCH_TO
        GR_GAME_BONUS
        GR_BOX_BONUS
        GR_MAX_HANDS
    enum:
        GR_A_DRAW_UPCARD
        GR_A_DRAW_STOCK
        GR_A_PASS
        GR_A_KNOCK
        GR_A_MELD
        GR_NUM_MELDS
        GR_NUM_ACTIONS
    enum:
        GR_PH_FIRST_UPCARD
        GR_PH_DISCARD
        GR_PH_KNOCK
        GR_PH_OVER
        GR_NUM_PHASES
    enum:
        GR_Z_HAND
        GR_Z_STOCK
        GR_Z_UPCARD
        GR_Z_DISCARD
        GR_Z_MELDS
    enum:
        GR_NUM_PIECES
    enum:
        GR_MAX_ROWS

    ctypedef struct GROptions:
        int32_t knock_card
        int32_t gin_bonus
        int32_t undercut_bonus
        int32_t hand_size
        bint oklahoma
        bint rediscard_upcard
        int32_t big_gin_bonus
        int32_t layoff_limit
        bint undercut_on_equal
        bint wall_knock
        int32_t match_to

    ctypedef struct GRState:
        Header h
        GROptions opt
        int32_t knock_card
        uint8_t deck[GR_NUM_CARDS]
        uint64_t hand[GR_PLAYERS]
        uint64_t known[GR_PLAYERS]
        Pile stock
        Pile discard
        int32_t upcard, prev_upcard
        int32_t deadwood[GR_PLAYERS]
        bint knocked[GR_PLAYERS]
        bint passed_first[GR_PLAYERS]
        bint finished_layoffs
        bint repeated_move
        int32_t draw_upcards
        int32_t n_melds[GR_PLAYERS]
        uint8_t melds[GR_PLAYERS][GR_MAX_HAND_SIZE + 1]
        int32_t n_layoffs
        uint8_t layoffs[GR_MAX_HAND_SIZE + 1]
        int32_t drawn
        int32_t taken
        bint big_gin
        int32_t end_reason
        int32_t result[GR_PLAYERS]
        int32_t total[GR_PLAYERS]
        int32_t hands_won[GR_PLAYERS]
        uint64_t final_hand[GR_PLAYERS]
        int32_t last_knocker
        bint reached
        int32_t n_rows
        int32_t obs_offset[GR_NUM_PIECES + 1]
        int32_t obs_size

    int gr_card_id(int index) noexcept
    int gr_os_index(int card) noexcept
    int gr_card_value(int card) noexcept

    const GameHooks GR_HOOKS

    uint64_t gr_meld_mask(int meld) noexcept
    int gr_mask_value(uint64_t cards) noexcept
    int gr_min_deadwood(uint64_t cards, int hand_size) noexcept
    int gr_obs_layout(int32_t* offset) noexcept
    int gr_zone_cards(const void* state, int zone, int instance, uint8_t* out) noexcept
    int gr_init(void* state, int players, const int64_t* values) noexcept

check_hooks(&GR_HOOKS)

if <int>GR_MAX_ROWS > <int>MAX_BREAKDOWN_ROWS or <int>GR_NUM_CARDS > <int>PILE_CAPACITY:
    raise ImportError("Gin Rummy needs a larger Pile or breakdown than the core provides")

# ---------------------------------------------------------------- action table
# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
CARD_FIRST = 0                    # the card with OpenSpiel index i: CARD_FIRST + i
DRAW_UPCARD = GR_A_DRAW_UPCARD
DRAW_STOCK = GR_A_DRAW_STOCK
PASS = GR_A_PASS
KNOCK = GR_A_KNOCK
MELD_FIRST = GR_A_MELD            # OpenSpiel's meld m: MELD_FIRST + m
NUM_MELDS = GR_NUM_MELDS
NUM_CARDS = GR_NUM_CARDS
MAX_KNOCK_CARD = GR_MAX_KNOCK_CARD
MIN_HAND_SIZE = GR_MIN_HAND_SIZE
MAX_HAND_SIZE = GR_MAX_HAND_SIZE
MAX_BONUS = GR_MAX_BONUS
MAX_LAYOFF_LIMIT = GR_MAX_LAYOFF_LIMIT
MAX_MATCH_TO = GR_MAX_MATCH_TO
GAME_BONUS = GR_GAME_BONUS        # GR-11.3
BOX_BONUS = GR_BOX_BONUS          # GR-11.3, per hand won
MAX_HANDS = GR_MAX_HANDS          # GR-11.5


def to_card_id(int index) -> int:
    """cardcore's card id of an OpenSpiel card index (0..51)."""
    if not 0 <= index < GR_NUM_CARDS:
        raise ValueError(f"card index out of range: {index}")
    return gr_card_id(index)


def to_os_index(int card) -> int:
    """OpenSpiel's card index of a cardcore card id (0..51)."""
    if not 0 <= card < GR_NUM_CARDS:
        raise ValueError(f"card id out of range: {card}")
    return gr_os_index(card)


cdef list mask_cards(uint64_t mask):
    """cardcore ids of a mask of OpenSpiel indices, in id order."""
    return sorted(gr_card_id(c) for c in range(GR_NUM_CARDS) if (mask >> c) & 1)


cdef uint64_t ids_mask(cards) except? 0:
    cdef uint64_t m = 0
    for c in cards:
        m |= (<uint64_t>1) << gr_os_index(int(c))
    return m


def meld_cards(int meld) -> list:
    """The cards (cardcore ids, OpenSpiel's order: by suit s c d h, then rank) of meld id 0..184."""
    if not 0 <= meld < GR_NUM_MELDS:
        raise ValueError(f"meld id out of range: {meld}")
    cdef uint64_t m = gr_meld_mask(meld)
    return [gr_card_id(c) for c in range(GR_NUM_CARDS) if (m >> c) & 1]


def card_value(int card) -> int:
    """GR-1.3: a card's value (cardcore id): A 1, 2-10 their number, J Q K 10."""
    return gr_card_value(to_os_index(card))


def deadwood(cards, int hand_size=10) -> int:
    """GR-5.1: OpenSpiel's least deadwood of the cards (cardcore ids); with hand_size + 1
    cards the dearest unmelded card does not count (it is the discard to come)."""
    return gr_min_deadwood(ids_mask(cards), hand_size)


def action_table() -> list:
    """One tuple per id: (kind, cardcore card ids)."""
    table = [("play_card", [gr_card_id(i)]) for i in range(GR_NUM_CARDS)]
    table += [("draw_upcard", []), ("draw_stock", []), ("pass", []), ("knock", [])]
    table += [("meld", meld_cards(m)) for m in range(GR_NUM_MELDS)]
    assert len(table) == GR_NUM_ACTIONS
    return table


def num_actions() -> int:
    return GR_NUM_ACTIONS


def gin_rummy_deck() -> list:
    """GR-1.2: one 52-card deck (cardcore ids, id order)."""
    return list(range(GR_NUM_CARDS))


# ---------------------------------------------------------------- scoring (GR-8)
# The hand-end breakdown, per seat: the difference of the deadwood and the bonuses, or no
# score without a knock (indexes into BREAKDOWN_WHAT and BREAKDOWN_RULES, kernel.c's GR_ROW_*).
BREAKDOWN_WHAT = ("no knock", "deadwood difference", "gin bonus", "undercut bonus",
                  "big gin bonus", "game bonus", "box bonus", "shutout")
BREAKDOWN_RULES = ("GR-8.4", "GR-8.1", "GR-8.1", "GR-8.1", "GR-6.4", "GR-11.3", "GR-11.3",
                   "GR-11.3")

PHASES = ("first_upcard", "draw", "discard", "knock", "layoff", "wall", "over")
END_REASONS = ("", "knock", "wall", "upcards", "repeated")


cdef list zone_list(const GRState* s, int zone, int instance):
    cdef uint8_t buf[GR_NUM_CARDS]
    cdef int n = gr_zone_cards(s, zone, instance, buf)
    return [buf[i] for i in range(n)]


# ---------------------------------------------------------------- the deal (GR-2)
def deal_plan(int hand_size) -> list:
    """The zone of each deck position (top first): seat 0's hand, seat 1's, the upcard, the
    stock (its top is the next position)."""
    if not GR_MIN_HAND_SIZE <= hand_size <= GR_MAX_HAND_SIZE:
        raise ValueError(f"hand_size must be {GR_MIN_HAND_SIZE}..{GR_MAX_HAND_SIZE}")
    return (["hand:0"] * hand_size + ["hand:1"] * hand_size + ["upcard"]
            + ["stock"] * (GR_NUM_CARDS - 2 * hand_size - 1))


# ---------------------------------------------------------------- the per-seat projection
# OpenSpiel's observation tensor piece for piece, then what else the view shows; every card
# piece in OpenSpiel's card indices. OBS_NAMES is the one list of pieces.
OBS_NAMES = (
    "openspiel_player", "openspiel_private_hand", "openspiel_current_player",
    "openspiel_knock_card", "openspiel_upcard", "openspiel_discard_pile",
    "openspiel_stock_size", "openspiel_layed_melds", "phase", "layoffs", "known_cards",
    "passed_first_upcard", "knocked", "scores", "taken", "big_gin", "hand_number", "dealer",
    "hands_won")

if len(OBS_NAMES) != GR_NUM_PIECES:
    raise ImportError("the observation layout and OBS_NAMES disagree")


def observation_pieces() -> tuple:
    """(name, offset, size) of each piece of the tensor."""
    cdef int32_t offset[GR_NUM_PIECES + 1]
    gr_obs_layout(offset)
    return tuple((OBS_NAMES[i], offset[i], offset[i + 1] - offset[i]) for i in range(GR_NUM_PIECES))


# ---------------------------------------------------------------- the Python-visible state
cdef class GinRummyState(GameState):
    """Gin Rummy: the struct above, bound to the framework; getters for the view (card
    lists in cardcore ids)."""
    cdef GRState d

    match_end_rule = "GR-8"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES
    refusals = Refusals(_REFUSALS)  # the templates of the kernel's refusals (gr_refuse)

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(GRState))
        self.bind(&GR_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if players != GR_PLAYERS:
            raise ValueError(f"players must be {GR_PLAYERS}")
        init_header(&self.d.h, players, deck, gin_rummy_deck())
        # The options resolved as the C ABI gives them (GR_KERNEL's option order): one setup.
        cdef int64_t values[11]
        values[0] = options["knock_card"]
        values[1] = options["gin_bonus"]
        values[2] = options["undercut_bonus"]
        values[3] = bool(options["oklahoma"])
        values[4] = options["hand_size"]
        values[5] = bool(options["rediscard_upcard"])
        values[6] = options["big_gin_bonus"]
        values[7] = options["layoff_limit"]
        values[8] = bool(options["undercut_on_equal"])
        values[9] = bool(options["wall_knock"])
        values[10] = options["match_to"]
        if gr_init(&self.d, players, values) != 0:
            raise ValueError("an option is out of range")

    # --- the zones (cardcore ids)
    def hand(self, p) -> list:
        return zone_list(&self.d, GR_Z_HAND, self.check_seat(p))

    def hand_sizes(self) -> list:
        return [len(self.hand(p)) for p in range(GR_PLAYERS)]

    def stock(self) -> list:
        """The stock top-first (hidden information: for tests and tools only)."""
        return zone_list(&self.d, GR_Z_STOCK, 0)[::-1]

    def discard(self) -> list:
        """The cards out of play, bottom to top."""
        return zone_list(&self.d, GR_Z_DISCARD, 0)

    def table(self, p) -> list:
        """Seat p's laid melds and the cards laid off on them (cardcore ids, id order)."""
        return zone_list(&self.d, GR_Z_MELDS, self.check_seat(p))

    def all_cards(self) -> list:
        cards = []
        for p in range(GR_PLAYERS):
            cards += zone_list(&self.d, GR_Z_HAND, p) + zone_list(&self.d, GR_Z_MELDS, p)
        return (cards + zone_list(&self.d, GR_Z_STOCK, 0) + zone_list(&self.d, GR_Z_UPCARD, 0)
                + zone_list(&self.d, GR_Z_DISCARD, 0))

    @property
    def upcard(self):
        """The upcard (a cardcore id), or None."""
        return None if self.d.upcard < 0 else gr_card_id(self.d.upcard)

    @property
    def stock_size(self) -> int:
        return self.d.stock.size

    @property
    def knock_card(self) -> int:
        """The most deadwood a knock may leave (GR-5.1; GR-3.3 under Oklahoma)."""
        return self.d.knock_card

    def melds(self, p) -> list:
        """The meld ids seat p laid, in order (OpenSpiel's ids 0..184)."""
        cdef int q = self.check_seat(p)
        return [self.d.melds[q][i] for i in range(self.d.n_melds[q])]

    def layoffs(self) -> list:
        """The cards laid off on the knocker's melds, in order (cardcore ids)."""
        return [gr_card_id(self.d.layoffs[i]) for i in range(self.d.n_layoffs)]

    def known(self, p) -> list:
        """The cards seat p took face up and still holds (everybody saw them; GR-9.2)."""
        return mask_cards(self.d.known[self.check_seat(p)])

    def deadwood(self, p) -> int:
        """GR-5.1: the least deadwood of seat p's hand (OpenSpiel's MinDeadwood)."""
        cdef int q = self.check_seat(p)
        return gr_min_deadwood(self.d.hand[q], self.d.opt.hand_size)

    def hand_value(self, p) -> int:
        """GR-8.1: the value of every card seat p still holds."""
        return gr_mask_value(self.d.hand[self.check_seat(p)])

    def knocked(self) -> list:
        return [bool(self.d.knocked[p]) for p in range(GR_PLAYERS)]

    def passed_first_upcard(self) -> list:
        return [bool(self.d.passed_first[p]) for p in range(GR_PLAYERS)]

    @property
    def finished_layoffs(self) -> bool:
        return bool(self.d.finished_layoffs)

    @property
    def upcard_draws(self) -> int:
        return self.d.draw_upcards

    @property
    def repeated_move(self) -> bool:
        return bool(self.d.repeated_move)

    @property
    def big_gin(self) -> bool:
        """GR-6.4: the knocker kept its eleven cards (big gin)."""
        return bool(self.d.big_gin)

    def last_drawn(self) -> list:
        """The card the last action took from the stock (hidden: tests and events)."""
        return [] if self.d.drawn < 0 else [gr_card_id(self.d.drawn)]

    @property
    def end_reason(self) -> str:
        return END_REASONS[self.d.end_reason]

    def results(self) -> list:
        """GR-8.1: the last hand's points (zero-sum)."""
        return [self.d.result[p] for p in range(GR_PLAYERS)]

    @property
    def taken(self):
        """GR-9.1: the card (a cardcore id) taken face up this turn, while it is that
        player's turn (everybody saw it taken); None otherwise."""
        if self.d.h.phase != GR_PH_DISCARD and self.d.h.phase != GR_PH_KNOCK:
            return None
        return None if self.d.taken < 0 else gr_card_id(self.d.taken)

    def totals(self) -> list:
        """GR-11.2: the match's points so far (0 without match_to)."""
        return [self.d.total[p] for p in range(GR_PLAYERS)]

    def hands_won(self) -> list:
        """GR-11.3: the hands each seat won (scored points in)."""
        return [self.d.hands_won[p] for p in range(GR_PLAYERS)]

    def final_hand(self, p) -> list:
        """The cards seat p held when the last hand ended (laid down to be counted, GR-8.1);
        in a match the next hand is already dealt."""
        return mask_cards(self.d.final_hand[self.check_seat(p)])

    @property
    def target_reached(self) -> bool:
        """GR-11.1: a total reached match_to (else GR-11.5's last hand ended the match)."""
        return bool(self.d.reached)

    @property
    def last_knocker(self):
        """The seat that knocked in the last hand ended, or None."""
        return None if self.d.last_knocker < 0 else self.d.last_knocker


check_state_class(GinRummyState)
