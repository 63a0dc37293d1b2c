"""Kings' Stakes' scenarios for the generic tests (read by tests/game_cases.py)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it.
END_RULES = {"final_turns": "KS-8.1", "final_take": "KS-8.2", "four_kings": "KS-8.3",
             "rounds": "KS-9.4"}
# ... and the words of the how-to pages that say each end, in each language (a player's
# page names no rule ID: issue 48).
END_WORDS = {
    "final_turns": {"en": "turn, then the round ends", "ru": "один ход, затем раунд кончается"},
    "final_take": {"en": "turn do not get it", "ru": "не наступил, его не получают"},
    "four_kings": {"en": "end the round at once", "ru": "сыгранные разом, сразу заканчивают раунд"},
    "rounds": {"en": "ends after its last round", "ru": "Партия кончается после последнего раунда"},
}

# The browser tests' table: a start a player can make from the lobby (options, seed).
TABLE_START = ({}, 21)
# ... and a start played to the match's end (its match panel in the late-page test):
# this game's TABLE_START panel is a round's.
MATCH_START = ({}, 21)
# examples/generic_table's browser test: (options typed into its lobby, seed).
GENERIC_TABLE_START = ({}, 5)

# tests/test_options_schema.py: refused (option, value, players); accepted (options, players);
# wider bounds of 0.3 that its saves may hold (a new game refuses them).
OPTIONS_OUT_OF_BOUNDS = [("rounds", 6, 4), ("rounds", 0, 2), ("rounds", 121, 2),
                         ("teams", True, 3), ("first_player", 4, 4)]
OPTIONS_AT_THE_BOUNDS = [({"rounds": 120}, 6), ({"rounds": 120}, 5), ({"teams": True}, 4)]
OPTIONS_OF_0_3 = [{"rounds": 2000}]

# tests/test_saves_compat.py: the game has saves written by 0.2 in data/.
HAS_0_2_SAVES = True

# tests/test_server_option_words.py: (players, body fields, the option named, a Russian
# word the refusal must hold).
REFUSALS_IN_RUSSIAN = [
    (2, {"options": {"rounds": 3}}, "rounds", "None (по одному на игрока)"),
    (2, {"options": {"teams": True}}, "teams", "только при 4 игроках"),
    (2, {"options": {"refill": "fast"}}, "refill", "одним из"),
    (2, {"clock": []}, "clock", "объектом вида"),
]

# tests/test_cli_terminal.py: a refusal with a count, its rule, and what it reads as for 1
# and for 2 in each language (the plural from the catalog).
REFUSAL_WITH_A_COUNT = {"template": "you do not hold {n} joker(s)", "rule": "KS-4.4",
                        "en": ("you do not hold 1 joker", "you do not hold 2 jokers"),
                        "ru": ("у вас нет 1 джокера", "у вас нет 2 джокеров")}

# tests/test_vector_opponents.py: against greedy at two players, many episodes end on the
# greedy seat's move.
GREEDY_OFTEN_ENDS_EPISODES = True
# tests/test_vector_opponents.py: options under which the win reward is checked.
WIN_REWARD_OPTIONS = [{"players": 3}, {"players": 4, "teams": True}]
# tests/test_vector_policies.py: a table of policies, a greedy seat and learners mixed.
MIXED_POLICY_OPTIONS = {"players": 4}
