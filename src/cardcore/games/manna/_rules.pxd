# cython: language_level=3
"""Manna from Heaven: the rule constants, card predicates and action-id layout, declared from
the C kernel (kernel.h; the C names carry the MH_ / mh_ prefix) for the wrappers (_state,
_melds, _view, _testing). The rank indexes (R_ACE, R_TWO, R_THREE, R_SEVEN) are the core's
(cardcore._fast).

Compile-time only: there is no _rules module at run time.
Rules: games/manna.md (rule IDs MH-x.y). The action ids are listed in _state.pyx's docstring.
"""
from libc.stdint cimport int8_t

cdef extern from "cardcore/games/manna/kernel.h" nogil:
    # ------------------------------------------------------------ rule constants
    enum:
        NPLAYERS "MH_NPLAYERS"              # MH-1.4: two teams of three, team = seat % 2
        NTEAMS "MH_NTEAMS"
        NUM_DECKS "MH_NUM_DECKS"            # MH-1.1: four decks ...
        NUM_JOKERS "MH_NUM_JOKERS"          # ... and eight jokers
        DECK_SIZE "MH_DECK_SIZE"            # MH-1.1: 4 * 52 + 8
        MAX_ID_COPIES "MH_MAX_ID_COPIES"    # the most copies of one card id (the joker)
        HAND_DEAL "MH_HAND_DEAL"            # MH-2.2
        FOOT_DEAL "MH_FOOT_DEAL"            # MH-2.2
        DRAW_COUNT "MH_DRAW_COUNT"          # MH-3.1
        CANASTA "MH_CANASTA"                # MH-4.1: a canasta is exactly 7 cards and closed
        MIN_MELD "MH_MIN_MELD"              # MH-4.1
        MAX_WILDS "MH_MAX_WILDS"            # MH-4.2
        MIN_NATURALS "MH_MIN_NATURALS"      # MH-4.2
        GOING_OUT_BONUS "MH_GOING_OUT_BONUS"    # MH-10.4
        RED_THREE_EACH "MH_RED_THREE_EACH"  # MH-8.3
        RED_THREES_ALL "MH_RED_THREES_ALL"  # MH-8.3: all 8 to one team
        ALL_RED_THREES "MH_ALL_RED_THREES"
        FOOT_RED_THREE "MH_FOOT_RED_THREE"  # MH-8.4
        MAX_HANDS "MH_MAX_HANDS"            # MH-10.7 Decision (termination guard)

    # Per-kind indexes and meld groups.
    enum:
        K_JOKER "MH_K_JOKER"                # index of the joker in per-kind count arrays
        NRK "MH_NRK"                        # per-kind count arrays: ranks 0..12 and the joker
        G_WILD "MH_G_WILD"                  # meld group of the wild meld (MH-4.3)
        G_BLACK3 "MH_G_BLACK3"              # meld group of black threes when going out (MH-4.7)
        NGROUPS "MH_NGROUPS"
        NAT_GROUPS "MH_NAT_GROUPS"          # the natural-rank groups: A 4 5 6 7 8 9 10 J Q K
        MAX_TEAM_MELDS "MH_MAX_TEAM_MELDS"

    # Canasta types (MH-4.5) as bits of a team's ``types`` mask.
    enum:
        CT_NONE "MH_CT_NONE"
        CT_NATURAL "MH_CT_NATURAL"
        CT_MIXED "MH_CT_MIXED"
        CT_WILD "MH_CT_WILD"
        CT_SEVENS "MH_CT_SEVENS"
        CT_ALL "MH_CT_ALL"                  # MH-9.1: one of each type to go out
        CT_MIXED_SEVENS "MH_CT_MIXED_SEVENS"    # a mixed canasta of sevens (only with wild_sevens)
        CT_MIXED_OTHER "MH_CT_MIXED_OTHER"  # a mixed canasta of any other rank

    # Option values (MH-10.5 foot_penalty).
    enum:
        FOOT_RED_THREES "MH_FOOT_RED_THREES"    # an unopened foot costs only its red threes (MH-8.4)
        FOOT_CARDS "MH_FOOT_CARDS"          # ... and the points of its other cards too

    # ------------------------------------------------------------ action ids
    enum:
        A_DRAW "MH_A_DRAW"
        A_TAKE_ADD "MH_A_TAKE_ADD"
        A_TAKE_PAIR "MH_A_TAKE_PAIR"
        A_TAKE_TWO "MH_A_TAKE_TWO"
        A_TAKE_JOKER "MH_A_TAKE_JOKER"
        A_RETRACT "MH_A_RETRACT"
        A_DISCARD "MH_A_DISCARD"
        A_GO_OUT "MH_A_GO_OUT"
        A_MELD "MH_A_MELD"
        NAT_NEW "MH_NAT_NEW"                # NEW (n, t, j) triples of a natural-rank group
        NAT_ADD "MH_NAT_ADD"                # ADDITION triples of a natural-rank group
        NAT_GROUP "MH_NAT_GROUP"
        A_WILD "MH_A_WILD"                  # A_MELD + 11 * 68
        WILD_NEW "MH_WILD_NEW"
        WILD_ADD "MH_WILD_ADD"
        A_BLACK3 "MH_A_BLACK3"
        NUM_ACTIONS "MH_NUM_ACTIONS"
        MELD_IDS "MH_MELD_IDS"              # NUM_ACTIONS - A_MELD

    # One row of the meld table (ids A_MELD.. decoded).
    ctypedef struct MeldDef "MHMeldDef":
        int8_t group                        # 0..12 = rank, 13 = wild, 14 = black threes
        int8_t is_new                       # 1 = a new meld, 0 = an addition
        int8_t n                            # naturals, twos, jokers taken from hand
        int8_t t
        int8_t j
    const MeldDef* meld_table "mh_meld_table"() noexcept     # MELD_IDS rows in id order

    # ------------------------------------------------------------ card predicates
    int rank_points "mh_rank_points"(int kind) noexcept      # MH-1.3 (13 = the joker)
    int kind_of "mh_kind_of"(int card) noexcept              # rank 0..12, the joker 13
    int card_points "mh_card_points"(int card) noexcept
    bint is_wild "mh_is_wild"(int card) noexcept             # MH-1.2
    bint is_red_three "mh_is_red_three"(int card) noexcept   # MH-1.2: D, H
    bint is_black_three "mh_is_black_three"(int card) noexcept
    bint natural_rank "mh_natural_rank"(int r) noexcept      # MH-1.2: ranks 4..K and A
    int natural_group "mh_natural_group"(int index) noexcept # A 4 5 6 7 8 9 10 J Q K
    int canasta_bonus "mh_canasta_bonus"(int ctype) noexcept # MH-4.5
    int type_bits "mh_type_bits"(int group, int ctype) noexcept
    int min_meld_for "mh_min_meld_for"(int score) noexcept   # MH-4.8
    bint meld_shape_ok "mh_meld_shape_ok"(int group, int naturals, int wilds,
                                          bint wild_sevens) noexcept   # MH-4.1..4.3, 4.6, 4.7
    int canasta_type "mh_canasta_type"(int group, int naturals, int wilds) noexcept   # MH-4.5
