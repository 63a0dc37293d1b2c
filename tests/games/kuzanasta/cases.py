"""Kuzanasta's scenarios for the generic tests (read by tests/game_cases.py)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it.
END_RULES = {"went_out": "KZ-7", "no_draw": "KZ-3.4", "max_turns": "KZ-3.5",
             "target": "KZ-7.5", "deals": "KZ-7.5", "void_deals": "KZ-7.8"}
# ... and the words of the how-to pages that say each end, in each language (a player's
# page names no rule ID: issue 48).
END_WORDS = {
    "went_out": {"en": "only that player scores", "ru": "очки получает только он"},
    "no_draw": {"en": "can draw nothing at all", "ru": "когда игроку нечего взять"},
    "max_turns": {"en": "after the most turns a deal may last",
                  "ru": "после наибольшего числа ходов в сдаче"},
    "target": {"en": "in which someone reaches the target", "ru": "в которой кто-то набрал цель"},
    "deals": {"en": "the number of scored deals the table's option “deals” sets",
              "ru": "сколько задано в настройке стола «сдачи»"},
    "void_deals": {"en": "after its 10,000th void deal", "ru": "после 10 000-й пустой сдачи"},
}

# The browser tests' table: a start a player can make from the lobby (options, seed).
TABLE_START = ({"deals": "1"}, 2)
# examples/generic_table's browser test: (options typed into its lobby, seed); a short deal.
GENERIC_TABLE_START = ({"max_turns": "40"}, 7)

# tests/test_options_schema.py: refused (option, value, players); accepted (options, players);
# wider bounds of 0.3 that its saves may hold (a new game refuses them).
OPTIONS_OUT_OF_BOUNDS = [("max_turns", 10**9, 2), ("ante", 10**12, 2), ("ante", 1001, 2),
                         ("target", 999, 2), ("target", 10**15, 2), ("deals", 0, 2)]
OPTIONS_AT_THE_BOUNDS = [
    ({"max_turns": 10_000, "target": 1_000_000, "deals": 100, "ante": 1000}, 2),
    ({"target": 1000}, 3)]
OPTIONS_OF_0_3 = [{"target": 10**15, "ante": 10**12}]

# tests/test_saves_compat.py: the game has saves written by 0.2 in data/.
HAS_0_2_SAVES = True

# tests/test_server_option_words.py: (players, body fields, the option named, a Russian
# word the refusal must hold).
REFUSALS_IN_RUSSIAN = [
    (2, {"options": {"ante": 10**12}}, "ante", "целым числом 0..1000"),
    (2, {"options": {"deals": "many"}}, "deals", "None или целым числом"),
    (9, {}, "players", "игроков, а не 9"),
    (2, {"clock": {"per_move": -1}}, "clock.per_move", "числом секунд"),
]

# tests/test_move_words.py: the Russian captions the terminal lists this game's moves with.
RUSSIAN_MOVE_CAPTIONS = {"Взять из колоды", "Взять верхнюю из сброса",
                          "Посмотреть Бога", "Взять у Бога", "Сбросить",
                          "Сбросить в новую стопку", "Закончить ход", "Выйти"}
