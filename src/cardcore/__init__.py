"""cardcore: exact, fast card-game engines with one small protocol for apps, bots and RL.

>>> import cardcore
>>> game = cardcore.new_game("kings_stakes", players=4, seed=7)
>>> action = game.legal_actions()[0]
>>> game.apply(action)
"""
__version__ = "0.1.0"

from cardcore.cards import Card, parse_card
from cardcore.errors import ConfigError, IllegalActionError
from cardcore.game import Action, Game, available_games, load_game, new_game

__all__ = [
    "__version__", "Action", "Card", "ConfigError", "Game", "IllegalActionError",
    "available_games", "load_game", "new_game", "parse_card", "simulate",
]


def __getattr__(name: str):  # type: ignore[no-untyped-def]
    # simulate pulls in multiprocessing and the bots: load it on first use only.
    if name == "simulate":
        from cardcore.simulate import simulate
        return simulate
    raise AttributeError(f"module 'cardcore' has no attribute {name!r}")
