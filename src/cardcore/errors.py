"""The two errors of the public API. Both are ValueErrors, so `except ValueError` catches them.

``echo(value)`` is how every error message repeats a bad value: at most ``ECHO_LIMIT``
characters of it, so a message never carries megabytes of hostile input.
"""
from __future__ import annotations

import reprlib
from typing import Any

__all__ = ["IllegalActionError", "ConfigError", "echo", "ECHO_LIMIT"]

ECHO_LIMIT = 60                # how much of a bad input an error message repeats

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxlong = _REPR.maxother = ECHO_LIMIT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 6
_REPR.maxlevel = 2


def echo(value: Any) -> str:
    """``repr(value)`` cut to at most ECHO_LIMIT characters (reprlib: cheap for huge values,
    and ints too long for ``repr`` give their size)."""
    kind = type(value)
    if (kind is str and len(value) <= ECHO_LIMIT) or (kind is int and -2**63 <= value < 2**63):
        text = repr(value)                   # the common case, as cheap as repr
        return text if len(text) <= ECHO_LIMIT else text[:ECHO_LIMIT - 3] + "..."
    try:
        text = _REPR.repr(value)
    except ValueError:                       # an int past sys.get_int_max_str_digits()
        text = (f"<int of {value.bit_length()} bits>" if isinstance(value, int)
                else f"<{type(value).__name__}>")
    except Exception:                        # a hostile __repr__
        text = f"<{type(value).__name__}>"
    return text if len(text) <= ECHO_LIMIT else text[:ECHO_LIMIT - 3] + "..."


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
