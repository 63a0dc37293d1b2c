"""The games: one package per game (``cardcore.registry`` finds them; nothing lists them).

Adding a game: see "Adding a game" in CONTRIBUTING.md.
"""
