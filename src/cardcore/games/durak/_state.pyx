# cython: language_level=3, cdivision=True
"""Durak state machine (rules: games/durak.md, rule IDs DU-x.y): podkidnoy durak for 2-6
players, with the transfer (perevodnoy), first-bout and partners variants as options.

Action space (158 ids, 257 with attack_many; pinned by tests/games/durak/):
    0..51     attack with the card of that id: lead a bout, or throw in     DU-4.1, DU-5
    52..103   beat the first uncovered attacking card with card id - 52      DU-4.2, DU-4.3
    104..155  transfer the attack with card id - 104 (transfer=True)        DU-9.1
    156       take the table                                                 DU-6.1
    157       pass: throw in nothing more                                    DU-5.3
    158..256  attack with several cards of one rank (attack_many=True)         DU-13.1
Card ids are cardcore's (``suit * 13 + rank``); only the 36 cards 6..A are ever in play.

The bout is played one card at a time: after every attacking card the defender answers it
(beat, transfer or take) before anyone throws in again; the throwers are asked in a fixed
order (DU-5.2), each throwing in or passing.
"""
# The rules are C: kernel.c beside this file (the same C the native library and WebAssembly
# build); this module binds its hook table to the framework and adds the Python getters.
from libc.stdint cimport uint8_t, int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memset

from cardcore._fast cimport OPTION_NONE   # the C ABI's view of a game (core/kernel.h)
from cardcore._fast cimport (
    GameState, GameHooks, Header, Multiset, Pile, NUM_SUITS, R_ACE, card_rank, lowest_card,
    ms_to_list, pile_to_list, check_hooks, init_header,
)
from cardcore._fast import build_deck, check_state_class
from cardcore.games.durak.words import REFUSALS as _REFUSALS
from cardcore.refusals import Refusals

cdef extern from "cardcore/games/durak/kernel.h" nogil:
    # ------------------------------------------------------------ rule constants
    enum:
        MIN_PLAYERS "DU_MIN_PLAYERS"        # DU-1.2
        MAX_PLAYERS "DU_MAX_PLAYERS"        # DU-1.2
        DECK_SIZE "DU_DECK_SIZE"            # DU-1.1: 6..A of each suit
        LOWEST_RANK "DU_LOWEST_RANK"        # DU-1.1: the six (rank index 5)
        MAX_TABLE "DU_MAX_TABLE"            # attacking cards on the table at once
        DU_MAX_HANDS                        # DU-12.1: the most hands of a match
    # ------------------------------------------------------------ action table
    enum:
        A_ATTACK "DU_A_ATTACK"
        A_BEAT "DU_A_BEAT"
        A_TRANSFER "DU_A_TRANSFER"
        A_TAKE "DU_A_TAKE"
        A_PASS "DU_A_PASS"
        A_MANY "DU_A_MANY"
        NUM_SINGLE_ACTIONS "DU_NUM_SINGLE_ACTIONS"
        NUM_ACTIONS "DU_NUM_ACTIONS"
    enum:
        PH_ATTACK "DU_PH_ATTACK"            # DU-4.1
        PH_DEFEND "DU_PH_DEFEND"            # DU-4.2
        PH_THROW "DU_PH_THROW"              # DU-5
        PH_TAKE_THROW "DU_PH_TAKE_THROW"    # DU-6.2
        PH_OVER "DU_PH_OVER"
    enum:                                   # how the last bout ended (for the events)
        END_NONE "DU_END_NONE"
        END_BEATEN "DU_END_BEATEN"          # DU-6.3
        END_TAKEN "DU_END_TAKEN"            # DU-6.2
    # ------------------------------------------------------------ the observation layout
    enum:
        SEATS "DU_SEATS"
        CARDS36 "DU_CARDS36"
        O_OBSERVER "DU_O_OBSERVER"
        O_TO_MOVE "DU_O_TO_MOVE"
        O_PHASE "DU_O_PHASE"
        O_HAND "DU_O_HAND"
        O_ATTACK "DU_O_ATTACK"
        O_COVER "DU_O_COVER"
        O_DISCARD "DU_O_DISCARD"
        O_KNOWN "DU_O_KNOWN"
        O_TRUMP_SUIT "DU_O_TRUMP_SUIT"
        O_TRUMP_CARD "DU_O_TRUMP_CARD"
        O_HAND_SIZES "DU_O_HAND_SIZES"
        O_STOCK_SIZE "DU_O_STOCK_SIZE"
        O_ATTACKER "DU_O_ATTACKER"
        O_DEFENDER "DU_O_DEFENDER"
        O_OUT "DU_O_OUT"
        O_BOUTS "DU_O_BOUTS"
        O_LIMIT "DU_O_LIMIT"
        O_TAKING "DU_O_TAKING"
        O_SCORES "DU_O_SCORES"

    # ------------------------------------------------------------ the state (the fields read here)
    ctypedef struct DUOptions:
        int32_t dealer
        bint lowest_trump
        bint transfer
        bint first_five
        bint partners
        int32_t hands
        bint attack_many

    ctypedef struct DUState:
        Header h
        DUOptions opt
        Multiset hand[MAX_PLAYERS]
        Pile stock
        Pile discard
        int32_t attack[MAX_TABLE]
        int32_t cover[MAX_TABLE]
        int32_t n_attack
        int32_t trump_suit, trump_card
        int32_t attacker, defender
        bint taking
        int32_t bouts
        uint64_t known[MAX_PLAYERS]
        uint32_t out
        int32_t shown_trump
        int32_t loser
        int32_t bout_end, bout_defender, bout_n
        uint8_t bout_cards[2 * MAX_TABLE]
        int32_t n_drawn
        uint8_t drawn[DECK_SIZE]
        uint8_t drawn_seat[DECK_SIZE]
        uint32_t went_out
        int32_t penalty[MAX_PLAYERS]
        int32_t fools[MAX_PLAYERS]
        int32_t hand_loser, hand_bouts
        int32_t hand_left[MAX_PLAYERS]

    const GameHooks DU_HOOKS
    int du_card_power(int card) noexcept
    int du_deal_seat(int players, int dealer, int position) noexcept
    int du_table_cards(const DUState* s, uint8_t* out) noexcept
    int du_bout_limit(const DUState* s) noexcept
    int du_uncovered(const DUState* s) noexcept
    int du_init(void* state, int players, const int64_t* values) noexcept
    int du_many_cards(int action, uint8_t* out) noexcept

cdef enum:
    NUM_OPTIONS = 7               # the options, in __init__.py's (and DU_OPTIONS') order

# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
ATTACK_FIRST = A_ATTACK
BEAT_FIRST = A_BEAT
TRANSFER_FIRST = A_TRANSFER
TAKE = A_TAKE
PASS = A_PASS
MANY_FIRST = A_MANY            # DU-13.1: the first several-card attack

MAX_HANDS = DU_MAX_HANDS       # DU-12.1 (the option's bound)


def durak_deck() -> list:
    """DU-1.1: the 36 cards 6..A of each suit (card ids, id order)."""
    return build_deck([[R_ACE] + list(range(LOWEST_RANK, 13))], 0)


_DECK = tuple(durak_deck())


def action_table(bint attack_many=False) -> list:
    """One tuple per id: (kind, card ids); the several-card attacks (DU-13.1) only with
    ``attack_many``."""
    cdef uint8_t buf[4]
    table = [("attack", (c,)) for c in range(52)] + [("beat", (c,)) for c in range(52)]
    table += [("transfer", (c,)) for c in range(52)] + [("take", ()), ("pass", ())]
    assert len(table) == NUM_SINGLE_ACTIONS
    if attack_many:
        for a in range(A_MANY, NUM_ACTIONS):
            n = du_many_cards(a, buf)
            table.append(("attack", tuple(buf[i] for i in range(n))))
    return table


def num_actions() -> int:
    return NUM_ACTIONS


def card_power(int card) -> int:
    """DU-1.3: a card's place in its suit, 0 (six) to 8 (ace)."""
    return du_card_power(card)


PHASES = ("attack", "defend", "throw_in", "take_throw_in", "over")


def deal_plan(int players, int dealer) -> list:
    """The zone of each deck position (top first): "hand:<seat>", "stock", and "trump" for
    the last card, turned face up (DU-2.3): at the stock's bottom, or with 6 players the
    dealer's last card. The deal (kernel.c) walks the same function."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS or not 0 <= dealer < players:
        raise ValueError("players must be 2..6 and dealer a seat")
    plan = [f"hand:{du_deal_seat(players, dealer, i)}" if du_deal_seat(players, dealer, i) >= 0
            else "stock" for i in range(DECK_SIZE)]
    plan[DECK_SIZE - 1] = "trump"
    return plan


# The scoring rows (DU-8) name these (kernel.c's W_ and R_ indexes).
BREAKDOWN_WHAT = ("out of cards in time", "durak")
BREAKDOWN_RULES = ("DU-8.2", "DU-8.3", "DU-10.3")

OBSERVATION_PIECES = (
    ("observer", O_OBSERVER, SEATS), ("current_player", O_TO_MOVE, SEATS), ("phase", O_PHASE, 5),
    ("hand", O_HAND, CARDS36), ("attack", O_ATTACK, CARDS36), ("cover", O_COVER, CARDS36),
    ("discard", O_DISCARD, CARDS36), ("known_hands", O_KNOWN, SEATS * CARDS36),
    ("trump_suit", O_TRUMP_SUIT, NUM_SUITS), ("trump_card", O_TRUMP_CARD, CARDS36),
    ("hand_sizes", O_HAND_SIZES, SEATS), ("stock_size", O_STOCK_SIZE, 1),
    ("attacker", O_ATTACKER, SEATS), ("defender", O_DEFENDER, SEATS), ("out", O_OUT, SEATS),
    ("bouts", O_BOUTS, 1), ("bout_limit", O_LIMIT, 1), ("taking", O_TAKING, 1),
    ("scores", O_SCORES, SEATS))

check_hooks(&DU_HOOKS)


SUIT_LETTERS = "CSDH"                  # cardcore's suit order (card_suit)


# ---------------------------------------------------------------- the Python-visible state
cdef class DurakState(GameState):
    """Durak: the struct of kernel.h, bound to the framework; getters for the view."""
    cdef DUState d

    match_end_rule = "DU-8"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES
    refusals = Refusals(_REFUSALS)  # the templates of the kernel's refusals (du_refuse)

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(DUState))
        self.bind(&DU_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        cdef int64_t values[NUM_OPTIONS]
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
        init_header(&self.d.h, players, deck, _DECK)
        # The options resolved as the C ABI's (DU_OPTIONS in kernel.c): one setup, du_init.
        dealer = options["dealer"]
        values[0] = OPTION_NONE if dealer is None else dealer
        values[1] = 0 if options["first_attacker"] == "lowest_trump" else 1
        values[2] = bool(options["transfer"])
        values[3] = bool(options["first_bout_five"])
        values[4] = bool(options["partners"])
        values[5] = options["hands"]
        values[6] = bool(options["attack_many"])
        if du_init(&self.d, players, values) != 0:
            raise ValueError(f"options the Durak kernel cannot take: {options!r}")

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
        cdef int n = du_table_cards(&self.d, buf)
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
        return du_bout_limit(&self.d)

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
        """The last finished hand's points: 1 for its durak (its side with partners)."""
        return [self.d.penalty[p] for p in range(self.d.h.players)]

    def last_hand(self):
        """DU-12: the last finished hand, or None before the first ends: (durak's seat or
        None, bouts played, the cards each seat held at its end)."""
        if self.d.h.round_index == 0:
            return None
        return (None if self.d.hand_loser < 0 else self.d.hand_loser, self.d.hand_bouts,
                [self.d.hand_left[p] for p in range(self.d.h.players)])

    @property
    def hands(self) -> int:
        """DU-12.1: the hands of the match."""
        return self.d.opt.hands


check_state_class(DurakState)
