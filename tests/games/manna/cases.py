"""Manna from Heaven's scenarios for the generic tests (read by tests/game_cases.py)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it.
END_RULES = {"went_out": "MH-9.4", "stock_out": "MH-9.5", "target": "MH-10.6",
             "hands": "MH-10.7"}
# ... and the words of the how-to pages that say each end, in each language (a player's
# page names no rule ID: issue 48).
END_WORDS = {
    "went_out": {"en": "Going out ends the hand", "ru": "Выход заканчивает кон"},
    "stock_out": {"en": "draw from an empty stock", "ru": "должен брать из пустой колоды"},
    "target": {"en": "in which a team reaches the target",
               "ru": "в котором команда набрала цель"},
    "hands": {"en": "hands the table's option “hands” sets, 1000 at most",
              "ru": "сколько задано в настройке стола «коны», но не больше 1000"},
}

# The browser tests' table: a start a player can make from the lobby (options, seed).
TABLE_START = ({"dealer": "5"}, 0)
# ... and a start played to the match's end (its match panel in the late-page test):
# this game's TABLE_START panel is a round's.
MATCH_START = ({"dealer": "5", "hands": "1"}, 0)
# examples/generic_table's browser test: (options typed into its lobby, seed).
GENERIC_TABLE_START = ({}, 11)
# examples/generic_table: melds name their cards by rank, so the player chooses the suits
# (the page must send a move with cards of the player's choosing).
MOVES_NAME_RANKS = True

# tests/test_options_schema.py: refused (option, value, players); accepted (options, players);
# wider bounds of 0.3 that its saves may hold (a new game refuses them).
OPTIONS_OUT_OF_BOUNDS = [("target", 0, 6), ("target", -5, 6), ("target", -100000, 6),
                         ("target", 1_000_001, 6), ("hands", 0, 6), ("hands", 1001, 6)]
OPTIONS_AT_THE_BOUNDS = [({"target": 1, "hands": 1000}, 6), ({"target": 1_000_000}, 6)]
OPTIONS_OF_0_3 = [{"target": -100000}]

# tests/test_saves_compat.py: the game has saves written by 0.2 in data/.
HAS_0_2_SAVES = True

# tests/test_server_option_words.py: (players, body fields, the option named, a Russian
# word the refusal must hold).
REFUSALS_IN_RUSSIAN = [
    (6, {"options": {"target": -5}}, "target", "целым числом"),
    (6, {"options": {"no_such": 1}}, "no_such", "нет параметра no_such"),
    (6, {"clock": {"per_move": 5, "on_timeout": "nap"}}, "clock.on_timeout", "одним из"),
]

# tests/test_vector_opponents.py: options under which the win reward is checked.
WIN_REWARD_OPTIONS = [{}]

# tests/test_move_words.py: the Russian captions the terminal lists this game's moves with.
RUSSIAN_MOVE_CAPTIONS = {"Взять из колоды", "Сбросить", "Выйти", "Взять сброс",
                          "Выложить", "Забрать выкладки", "Добавить к дикой комбинации:",
                          "Добавить в комбинацию"}
