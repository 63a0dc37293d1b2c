"""Gin Rummy's scenarios for the generic tests (read by tests/game_cases.py; each field is
optional, and a test uses its default without it: tests/games/*/cases.py show them all)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it (keep it with
# the game's ``reasons`` and its how-to pages).
END_RULES = {"knock": "GR-8.1", "wall": "GR-5.2", "upcards": "GR-8.2", "repeated": "GR-8.3",
             "one_hand": "GR-8.1", "match_to": "GR-11.1", "hands": "GR-11.5"}
# ... and the words of the how-to pages that say each end, in each language (a player's
# page names no rule ID: issue 48).
END_WORDS = {
    "knock": {"en": "has laid off and melded", "ru": "соперник доложил и выложил свои"},
    "wall": {"en": "to move does not knock", "ru": "игрок, чей ход, не стучит"},
    "upcards": {"en": "time the upcard is drawn", "ru": "карту берут в пятидесятый раз"},
    "repeated": {"en": "upcard and discard it again", "ru": "карту и сбрасывают её же"},
    "one_hand": {"en": "has laid off and melded", "ru": "соперник доложил и выложил свои"},
    "match_to": {"en": "reaches the game's target", "ru": "набирает очки, до которых идёт игра"},
    "hands": {"en": "after the fiftieth hand", "ru": "после пятидесятой сдачи"},
}

# tests/test_options_schema.py: refused (option, value, players); accepted (options, players).
OPTIONS_OUT_OF_BOUNDS = [("knock_card", 11, 2), ("knock_card", -1, 2), ("hand_size", 11, 2),
                         ("hand_size", 1, 2), ("gin_bonus", 1001, 2),
                         ("big_gin_bonus", 1001, 2), ("layoff_limit", 0, 2),
                         ("layoff_limit", 11, 2), ("rediscard_upcard", "no", 2),
                         ("match_to", -1, 2), ("match_to", 1001, 2)]
OPTIONS_AT_THE_BOUNDS = [({"knock_card": 0, "hand_size": 2, "gin_bonus": 1000,
                           "undercut_bonus": 0}, 2),
                         ({"big_gin_bonus": 1000, "layoff_limit": 10}, 2),
                         ({"big_gin_bonus": 0, "layoff_limit": 1}, 2),
                         ({"match_to": 1000}, 2), ({"match_to": 1}, 2)]
