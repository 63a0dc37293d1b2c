"""The two errors of the public API. Both are ValueErrors, so `except ValueError` catches them."""
from __future__ import annotations

__all__ = ["IllegalActionError", "ConfigError"]


class IllegalActionError(ValueError):
    """An action that is not legal now. The message names the rule that forbids it; the game
    is left exactly as it was."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(f"{message} [{rule}]" if rule else message)
        self.rule = rule


class ConfigError(ValueError):
    """A bad game name, player count, option or stacked deck. The message names the option."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option
