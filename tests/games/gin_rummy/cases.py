"""Gin Rummy's scenarios for the generic tests (read by tests/game_cases.py; each field is
optional, and a test uses its default without it: tests/games/*/cases.py show them all)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it (keep it with
# the game's ``reasons`` and its how-to pages).
END_RULES = {"out": "GR-7.1", "max_turns": "GR-7.2", "passes": "GR-7.3",
             "one_hand": "GR-8.3"}
