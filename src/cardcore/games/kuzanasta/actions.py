"""Kuzanasta's action notation: set descriptors and God-draw places as text (the protocol
class, the narrator and the words share it)."""
from __future__ import annotations

from cardcore.cards import RANKS
from cardcore.games.kuzanasta._sets import kz_descriptor

__all__ = ["set_label", "place_label"]


def set_label(descriptor: int) -> str:
    """Notation of a set descriptor: ``7-7-W`` (rank per natural card, ``W`` per wild card)."""
    rank, size, wilds = kz_descriptor(descriptor)
    return "-".join([RANKS[rank]] * (size - wilds) + ["W"] * wilds)


def place_label(pile: int, depth: int) -> str:
    """Notation of a God draw at a place (god_draw="position"): ``god_draw 0:12``."""
    return f"god_draw {pile}:{depth}"
