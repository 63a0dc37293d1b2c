"""The two errors of the public API. Both are ValueErrors, so `except ValueError` catches them.

``echo(value)`` is how every error message repeats a bad value: at most ``ECHO_LIMIT``
characters of it, so a message never carries megabytes of hostile input.

An error's words are data as well as text (``words``: a ``Words``, its message id and
fields), so that the terminal and the server put it in the reader's language by its id
(``cardcore.texts.words_text``) and never by reading the English back.
"""
from __future__ import annotations

import re
import reprlib
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

__all__ = ["IllegalActionError", "ConfigError", "Words", "echo", "ECHO_LIMIT"]

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


_FIELD = re.compile(r"\{(\w+)\}")

Field = Union[str, int, "Words"]


@dataclass(frozen=True)
class Words:
    """A message as data: ``message_id``, the English template that is its msgid in the
    message catalogs (``"it is seat {seat}'s turn, not seat {other}'s"``), and the values of
    its ``{name}`` fields (a text, a number, or a message of its own, put in words in turn).
    A message without fields is its own id."""

    message_id: str
    fields: Mapping[str, Field] = field(default_factory=dict)

    def english(self) -> str:
        """The message in English: the template filled with its fields."""
        if not self.fields:
            return self.message_id
        return _FIELD.sub(lambda m: _english(self.fields.get(m.group(1), m.group(0))),
                          self.message_id)

    def to_dict(self) -> dict[str, Any]:
        """``{"message_id", "fields"}`` as JSON (a field that is a message, the same)."""
        return {"message_id": self.message_id,
                "fields": {k: v.to_dict() if isinstance(v, Words) else v
                           for k, v in self.fields.items()}}


def _english(value: Field) -> str:
    return value.english() if isinstance(value, Words) else str(value)


class IllegalActionError(ValueError):
    """An action that is not legal now. The message names the rule that forbids it; the game
    is left exactly as it was. ``message`` is a text or a ``Words`` (kept as ``words``)."""

    def __init__(self, message: str | Words, rule: str | None = None) -> None:
        self.words = message if isinstance(message, Words) else Words(message)
        text = self.words.english()
        super().__init__(f"{text} [{rule}]" if rule else text)
        self.rule = rule


class ConfigError(ValueError):
    """A bad game name, player count, option or stacked deck. The message names the option;
    it is a text or a ``Words`` (kept as ``words``)."""

    def __init__(self, message: str | Words, option: str | None = None) -> None:
        self.words = message if isinstance(message, Words) else Words(message)
        super().__init__(self.words.english())
        self.option = option
