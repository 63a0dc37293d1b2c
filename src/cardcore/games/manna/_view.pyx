# cython: language_level=3, cdivision=True
"""Manna from Heaven: what a seat may know. The per-seat projection (``mh_observe``: MH-11 as a
float tensor, laid out by OBSERVATION_PIECES and games/manna.md "Observation") and the redeal of
everything a seat cannot see (``mh_sample_hidden``), both hooks of the state machine, are the
C kernel's (kernel.c); this module names the layout for Python (the offsets of kernel.h)."""

# ---------------------------------------------------------------- the per-seat projection
# What view(seat) shows (MH-11), as floats; seats and teams absolute. One source for the layout:
# these offsets (kernel.h, MH_O_*) and OBSERVATION_PIECES (documented in games/manna.md,
# "Observation").
cdef extern from "cardcore/games/manna/kernel.h" nogil:
    enum:
        SEATS "MH_OBS_SEATS"
        NTEAMS "MH_NTEAMS"
        NUM_IDS "MH_OBS_IDS"
        MELD_SLOTS "MH_MELD_SLOTS"                     # A 4 5 6 7 8 9 10 J Q K, wild, black3
        NUM_CT "MH_NUM_CT"                             # natural, mixed, wild, sevens
        O_OBSERVER "MH_O_OBSERVER"                     # one-hot: the seat observing
        O_TO_MOVE "MH_O_TO_MOVE"                       # one-hot: the seat to move (none when over)
        O_PHASE "MH_O_PHASE"                           # one-hot: draw, meld, over
        O_TEAM "MH_O_TEAM"                             # one-hot: the observer's team
        O_HAND "MH_O_HAND"                             # the observer's hand, count per card id
        O_HAND_SIZES "MH_O_HAND_SIZES"
        O_FOOT_SIZES "MH_O_FOOT_SIZES"                 # 0 once picked up (MH-6)
        O_SCORES "MH_O_SCORES"                         # per seat: its team's total (MH-10.6)
        O_LAST_HAND "MH_O_LAST_HAND"                   # per team: the last hand's score
        O_MIN_MELD "MH_O_MIN_MELD"                     # per team (MH-4.8)
        O_OPENED "MH_O_OPENED"                         # per team
        O_TURN_POINTS "MH_O_TURN_POINTS"               # counted points of the current turn
        O_DEALER "MH_O_DEALER"                         # one-hot seat
        O_HAND_NUMBER "MH_O_HAND_NUMBER"               # the hand being played, 1-based
        O_STOCK_SIZE "MH_O_STOCK_SIZE"
        O_FROZEN "MH_O_FROZEN"                         # MH-5.2
        O_DISCARD "MH_O_DISCARD"                       # the discard pile, count per card id
        O_DISCARD_TOP "MH_O_DISCARD_TOP"               # one-hot: its top card
        O_RED_THREES "MH_O_RED_THREES"                 # per team: diamonds, hearts laid out
        O_CANASTA_TYPES "MH_O_CANASTA_TYPES"           # per team: natural, mixed, wild, sevens
        O_MELD_CARDS "MH_O_MELD_CARDS"                 # per team: count per card id in its melds
        O_OPEN_SIZE "MH_O_OPEN_SIZE"                   # per team per meld slot: cards in unfinished melds
        O_OPEN_WILDS "MH_O_OPEN_WILDS"                 # per team per slot: their wild cards
        O_CANASTAS "MH_O_CANASTAS"                     # per team per slot per type: canastas
        OBSERVATION_SIZE "MH_OBSERVATION_SIZE"

OBSERVATION_PIECES = tuple((name, offset, size) for name, offset, size in (
    ("observer", O_OBSERVER, SEATS), ("current_player", O_TO_MOVE, SEATS), ("phase", O_PHASE, 3),
    ("team", O_TEAM, NTEAMS), ("hand", O_HAND, NUM_IDS), ("hand_sizes", O_HAND_SIZES, SEATS),
    ("foot_sizes", O_FOOT_SIZES, SEATS), ("scores", O_SCORES, SEATS),
    ("last_hand_scores", O_LAST_HAND, NTEAMS), ("min_meld", O_MIN_MELD, NTEAMS),
    ("opened", O_OPENED, NTEAMS), ("turn_points", O_TURN_POINTS, 1), ("dealer", O_DEALER, SEATS),
    ("hand_number", O_HAND_NUMBER, 1), ("stock_size", O_STOCK_SIZE, 1), ("frozen", O_FROZEN, 1),
    ("discard", O_DISCARD, NUM_IDS), ("discard_top", O_DISCARD_TOP, NUM_IDS),
    ("red_threes", O_RED_THREES, NTEAMS * 2), ("canasta_types", O_CANASTA_TYPES, NTEAMS * NUM_CT),
    ("meld_cards", O_MELD_CARDS, NTEAMS * NUM_IDS),
    ("unfinished_size", O_OPEN_SIZE, NTEAMS * MELD_SLOTS),
    ("unfinished_wilds", O_OPEN_WILDS, NTEAMS * MELD_SLOTS),
    ("canastas", O_CANASTAS, NTEAMS * MELD_SLOTS * NUM_CT)))

if sum(size for _, _, size in OBSERVATION_PIECES) != OBSERVATION_SIZE:
    raise ImportError("Manna's observation pieces do not tile the C kernel's observation")
