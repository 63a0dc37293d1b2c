"""An example cardcore bot plug-in (the entry point ``linear`` in pyproject.toml)."""
from cardcore_linear_bot.policy import LinearPolicy, load_weights, make_bot

__all__ = ["LinearPolicy", "load_weights", "make_bot"]
