"""Refusals: why an action id is not legal now. The C kernel decides (its ``refuse`` hook:
a reason, a rule ID and the fields as ints); the words stay in Python, in each game's
``words.REFUSALS`` (templates, translated by the message catalogs).

A field's int is shown by the field's name, one convention for every game (and the same in
``@cardcore/engine``'s ``fillRefusal``): ``card``, ``target`` and ``top`` are card ids shown
in notation (``card_str``: ``10H``), ``suit`` is a suit index 0..3 shown as its letter
(C S D H), and every other field is a plain number.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

from cardcore.cards import SUITS, card_str
from cardcore.errors import IllegalActionError, Words
from cardcore.i18n import fields_of, fill

__all__ = ["Refusal", "Refusals", "CARD_FIELDS", "SUIT_FIELDS", "field_text", "refusal_text"]

CARD_FIELDS = frozenset({"card", "target", "top"})
SUIT_FIELDS = frozenset({"suit"})


class Refusal(NamedTuple):
    """Why an action id is not legal now (``GameState.refusal``): ``reason`` indexes the
    game's ``words.REFUSALS``, ``rule`` is the rule ID it cites, ``args`` are the template's
    fields in the order they appear in its English text."""
    reason: int
    rule: str
    args: tuple[int, ...]


def field_text(name: str, value: int) -> str:
    """A refusal field's int as the message shows it (the module's convention)."""
    if name in CARD_FIELDS:
        return card_str(value)
    if name in SUIT_FIELDS:
        return SUITS[value]
    return str(value)


def refusal_text(template: str, args: Sequence[int], text: str | None = None) -> str:
    """A refusal's message: ``text`` (the template translated; by default the English
    ``template`` itself) filled with ``args``, which follow the fields of the English
    template in order (each name once: its first place)."""
    if not args and "{" not in template:           # most refusals: no field to fill
        return template if text is None else text
    names = tuple(dict.fromkeys(fields_of(template)))
    if len(names) != len(args):
        raise ValueError(f"the refusal {template!r} has {len(names)} fields, not {len(args)}")
    values = {name: field_text(name, value) for name, value in zip(names, args)}
    return fill(template if text is None else text, values)


class Refusals(tuple[str, ...]):
    """A game's refusal templates (its ``words.REFUSALS``) as its state class holds them
    (``refusals = Refusals(REFUSALS)``): the base ``GameState``, which sits below the cards
    and cannot import this module, fills them and names the kernel's refusals through it."""

    def text(self, reason: int, args: Sequence[int]) -> str:
        """The English message of refusal ``reason`` with its fields ``args``."""
        return refusal_text(self[reason], args)

    def record(self, reason: int, rule: str, args: tuple[int, ...]) -> Refusal:
        return Refusal(reason, rule, args)

    def words(self, reason: int, args: Sequence[int]) -> Words:
        """Refusal ``reason`` as data: its template (the msgid) and its fields as the
        message shows them (a card in notation, a suit by its letter)."""
        template = self[reason]
        names = tuple(dict.fromkeys(fields_of(template)))
        if len(names) != len(args):
            raise ValueError(f"the refusal {template!r} has {len(names)} fields, not {len(args)}")
        return Words(template, {name: field_text(name, value)
                                for name, value in zip(names, args)})

    def error(self, refusal: Refusal) -> IllegalActionError:
        """The IllegalActionError of a refusal: its words as data, its rule ID."""
        return IllegalActionError(self.words(refusal.reason, refusal.args), refusal.rule)
