# cython: language_level=3
"""Test-only position setters for Manna from Heaven: install an arbitrary position into a
MannaState through _state.pxd (the struct and the meld primitives are the C kernel's, declared
in _data.pxd). Used by the meld-engine tests; breaks card conservation."""
from cardcore._fast cimport NUM_KINDS, MS_MAX_COPIES, ms_clear, pile_push
from cardcore.games.manna._state cimport MannaState
from cardcore.games.manna._data cimport (
    MannaData, ST_DRAW, ST_MELD, hand_add, clear_hand, new_meld, meld_card, finish_meld,
)
from cardcore.games.manna._rules cimport (
    NPLAYERS, NTEAMS, DECK_SIZE, NRK, NGROUPS, G_WILD, G_BLACK3, CANASTA, MIN_MELD,
    MAX_TEAM_MELDS, is_wild, is_red_three, is_black_three, natural_rank, meld_shape_ok,
)

from collections import Counter


def set_position(MannaState state, int player, hand, melds0, melds1, bint opened0=False,
                 bint opened1=False, int stage=ST_MELD, pile=(), bint frozen=False,
                 int turn_points=0, bint committed=False, bint retracted=False,
                 credit=None, bint foot_taken=False, need=None, stock=None) -> None:
    """Install a position for ``player`` to move (at the draw or meld stage).
    melds*: lists of card-id lists (a list with 7 cards is a canasta); other hands are emptied."""
    cdef MannaData* s = &state.d
    hand = list(hand)
    pile = list(pile)
    if not 0 <= player < NPLAYERS:
        raise ValueError(f"seat {player} out of range")
    if stage not in (ST_DRAW, ST_MELD):
        raise ValueError("stage 0 (draw) or 1 (meld)")
    for c in hand + pile:
        if not isinstance(c, int) or not 0 <= c < NUM_KINDS:
            raise ValueError("card id out of range")
    if len(hand) > 200 or len(pile) > DECK_SIZE:
        raise ValueError("too many cards")
    if hand and max(Counter(hand).values()) > MS_MAX_COPIES:
        raise ValueError(f"a hand holds at most {MS_MAX_COPIES} copies of a card")
    if credit is not None and (len(credit) != NRK or any(not 0 <= k <= 250 for k in credit)):
        raise ValueError(f"credit has {NRK} counts")
    if stock is not None:
        stock = list(stock)
        if len(stock) > DECK_SIZE or any(not isinstance(c, int) or not 0 <= c < NUM_KINDS
                                         for c in stock):
            raise ValueError("bad stock")
    for ms in (melds0, melds1):
        if len(ms) > MAX_TEAM_MELDS:
            raise ValueError("too many melds")
        for cards in ms:
            if any(not isinstance(c, int) or not 0 <= c < NUM_KINDS for c in cards):
                raise ValueError("card id out of range")
            if not MIN_MELD <= len(cards) <= CANASTA:
                raise ValueError("a meld has 3..7 cards")
    s.legal_count = -1
    for p in range(NPLAYERS):
        clear_hand(s, p)
        ms_clear(&s.known[p])
    for c in hand:
        hand_add(s, player, c)
    if stock is not None:
        s.stock.size = 0
        for c in reversed(stock):                       # given top first
            pile_push(&s.stock, c)
    s.pile.size = 0
    s.pile_red3 = 0
    for c in pile:
        pile_push(&s.pile, c)
        if is_red_three(c):
            s.pile_red3 += 1
    s.pile_frozen = frozen
    for tm, ms in ((0, melds0), (1, melds1)):
        s.nmelds[tm] = 0
        s.types[tm] = 0
        for k in range(NGROUPS):
            s.unf[tm][k] = -1
            s.canastas[tm][k] = 0
        for cards in ms:
            cards = list(cards)
            nat = [c for c in cards if not is_wild(c)]
            g = G_WILD if not nat else (G_BLACK3 if is_black_three(nat[0]) else nat[0] % 13)
            if g < 13 and not natural_rank(g):
                raise ValueError("not a meldable rank")
            if any(c % 13 != nat[0] % 13 for c in nat) or \
                    not meld_shape_ok(g, len(nat), len(cards) - len(nat), s.opt.wild_sevens):
                raise ValueError(f"invalid meld {cards}")
            if len(cards) < CANASTA and g != G_BLACK3 and s.unf[tm][g] >= 0:
                raise ValueError("one unfinished meld per group")
            prev = s.unf[tm][g] if g < NGROUPS - 1 else -1
            m = new_meld(s, tm, g)
            for c in cards:
                meld_card(s, tm, m, c)
            if finish_meld(s, tm, m) and g != G_BLACK3:
                s.unf[tm][g] = prev
    s.opened[0] = opened0
    s.opened[1] = opened1
    if need is not None:
        s.need[0], s.need[1] = need
    s.h.to_move = player
    s.h.phase = stage
    s.turn_points = turn_points
    s.committed = committed
    s.retracted = retracted
    for k in range(NRK):
        s.credit[k] = s.hand_kind[player][k] if credit is None else credit[k]
    s.foot_taken[player] = foot_taken
    if foot_taken:
        ms_clear(&s.foot[player])
