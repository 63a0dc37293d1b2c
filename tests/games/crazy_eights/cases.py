"""Crazy Eights' scenarios for the generic tests (read by tests/game_cases.py)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it.
END_RULES = {"out": "CE-7.1", "max_turns": "CE-7.2", "passes": "CE-7.3", "one_hand": "CE-8.3"}
# ... and the words of the how-to pages that say each end, in each language (a player's
# page names no rule ID: issue 48).
END_WORDS = {
    "out": {"en": "player plays their last card", "ru": "игрок сыграл свою последнюю карту"},
    "max_turns": {"en": "counting the cards played by all players together",
                  "ru": "считая карты всех игроков вместе"},
    "passes": {"en": "more pass in a row", "ru": "и ещё один пасуют подряд"},
    "one_hand": {"en": "hand is the whole match", "ru": "один кон — вся партия"},
}

# The browser tests' table: a start a player can make from the lobby (options, seed).
TABLE_START = ({}, 4)
# examples/generic_table's browser test: (options typed into its lobby, seed).
GENERIC_TABLE_START = ({}, 3)

# tests/test_options_schema.py: refused (option, value, players); accepted (options, players);
# wider bounds of 0.3 that its saves may hold (a new game refuses them).
OPTIONS_OUT_OF_BOUNDS = [("max_turns", 10**9, 2), ("max_turns", 10_001, 2),
                         ("max_draw_cards", 105, 2), ("max_draw_cards", 0, 2)]
OPTIONS_AT_THE_BOUNDS = [({"max_turns": 10_000, "max_draw_cards": 104}, 15)]
OPTIONS_OF_0_3 = [{"max_turns": 1_000_000, "max_draw_cards": 10_000}]

# tests/test_server_option_words.py: (players, body fields, the option named, a Russian
# word the refusal must hold).
REFUSALS_IN_RUSSIAN = [(2, {"options": {"dealer": 7}}, "dealer", "по жребию")]

# tests/test_cli_terminal.py: a refusal with a count, its rule, and what it reads as for 1
# and for 2 in each language (the plural from the catalog).
REFUSAL_WITH_A_COUNT = {
    "template": "you have drawn {n} card(s) this turn (max_draw_cards)", "rule": "CE-4",
    "en": ("you have drawn 1 card this turn (max_draw_cards)",
           "you have drawn 2 cards this turn (max_draw_cards)"),
    "ru": ("вы уже взяли 1 карту за этот ход (max_draw_cards)",
           "вы уже взяли 2 карты за этот ход (max_draw_cards)")}

# tests/test_vector_opponents.py: against greedy at two players, many episodes end on the
# greedy seat's move.
GREEDY_OFTEN_ENDS_EPISODES = True
# tests/test_vector_opponents.py: options under which the win reward is checked.
WIN_REWARD_OPTIONS = [{"players": 2}]
# tests/test_vector_policies.py: a table of policies, a greedy seat and learners mixed.
MIXED_POLICY_OPTIONS = {"players": 3}
