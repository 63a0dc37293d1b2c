"""Belote Contrée's scenarios for the generic tests (read by tests/game_cases.py; each field is
optional, and a test uses its default without it: tests/games/*/cases.py show them all)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it (keep it with
# the game's ``reasons`` and its how-to pages).
END_RULES = {"made": "BE-7.1", "fell": "BE-7.2", "passed_out": "BE-3.8", "one_deal": "BE-2.3"}

# The browser tests' table: a start a player can make from the lobby (options, seed).
TABLE_START = ({}, 1)
