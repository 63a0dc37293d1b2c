"""Belote Contrée's scenarios for the generic tests (read by tests/game_cases.py; each field is
optional, and a test uses its default without it: tests/games/*/cases.py show them all)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it (keep it with
# the game's ``reasons`` and its how-to pages).
END_RULES = {"made": "BE-7.1", "fell": "BE-7.2", "passed_out": "BE-3.8", "one_deal": "BE-2.3",
             "match_to": "BE-10.1", "deals": "BE-10.5"}
# ... and the words of the how-to pages that say each end, in each language (a player's
# page names no rule ID: issue 48).
END_WORDS = {
    "made": {"en": "The contract is made", "ru": "Контракт выполнен"},
    "fell": {"en": "The contract fell", "ru": "Контракт не выполнен"},
    "passed_out": {"en": "All four passed", "ru": "Все четверо спасовали"},
    "one_deal": {"en": "match is that one deal", "ru": "Игра — одна раздача"},
    "match_to": {"en": "reaches the target with more points", "ru": "чья сумма достигла цели"},
    "deals": {"en": "after its 200th deal", "ru": "после двухсотой раздачи"},
}

# The browser tests' table: a start a player can make from the lobby (options, seed).
TABLE_START = ({}, 1)
