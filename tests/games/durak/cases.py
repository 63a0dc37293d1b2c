"""Durak's scenarios for the generic tests (read by tests/game_cases.py)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it.
END_RULES = {"durak": "DU-8.2", "draw": "DU-8.3", "bouts": "DU-8.4", "one_hand": "DU-8.2",
             "hands": "DU-12.1"}

# The browser tests' table: a start a player can make from the lobby (options, seed).
TABLE_START = ({}, 1)
