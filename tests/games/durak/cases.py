"""Durak's scenarios for the generic tests (read by tests/game_cases.py)."""

# tests/test_howto_ends.py: the rule of each end reason, as events.py gives it.
END_RULES = {"durak": "DU-8.2", "draw": "DU-8.3", "bouts": "DU-8.4", "one_hand": "DU-8.2",
             "hands": "DU-12.1"}
# ... and the words of the how-to pages that say each end, in each language (a player's
# page names no rule ID: issue 48).
END_WORDS = {
    "durak": {"en": "the durak and scores 1", "ru": "дурак, ему 1 очко"},
    "draw": {"en": "together, nobody is the durak", "ru": "одновременно, дурака нет"},
    "bouts": {"en": "bouts is a draw too", "ru": "200 отбоев"},
    "one_hand": {"en": "the durak and scores 1", "ru": "дурак, ему 1 очко"},
    "hands": {"en": "ends after the last hand", "ru": "после последней партии игра кончается"},
}

# The browser tests' table: a start a player can make from the lobby (options, seed).
TABLE_START = ({}, 1)
