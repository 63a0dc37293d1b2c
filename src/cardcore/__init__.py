"""cardcore: exact, fast card-game engines with one small protocol for apps, bots and RL.

>>> import cardcore
>>> game = cardcore.new_game(cardcore.available_games()[0], seed=7)
>>> action = game.legal_actions()[0]
>>> game.apply(action)
"""
from cardcore import _compat
from cardcore._version import __version__
from cardcore.cards import Card, parse_card
from cardcore.errors import ConfigError, IllegalActionError
from cardcore.game import Action, Game
from cardcore.records import verify
from cardcore.registry import available_games, load_game, new_game, option_schema
from cardcore.schemas import schema
from cardcore.simulation import simulate
from cardcore.vector import VectorGame

_compat.install()             # the 0.2 module names of the parts that moved (to 0.5.0)

__all__ = [
    "__version__", "Action", "Card", "ConfigError", "Game", "IllegalActionError", "VectorGame",
    "available_games", "load_game", "new_game", "option_schema", "parse_card", "schema",
    "simulate", "verify",
]

