"""The zone diff in Python: the reference that cardcore._moves (C, card ids 0..255) is held
to, and what it calls for any other card ids. ``cardcore.zones.diff`` is the one to call."""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

# (from zone id, to zone id, card ids): tuples, which the collector stops walking once it
# has seen them (a narration keeps every event's moves).
Move = tuple[str, str, tuple[int, ...]]


def _diff(before: Mapping[str, Sequence[int]], after: Mapping[str, Sequence[int]]
          ) -> tuple[Move, ...]:
    """The moves that take ``before`` to ``after`` (zone id -> cards, as multisets): each
    card a zone gained is matched with a zone that lost that card, the zones in their
    order. Cards lost with no zone gaining them (or gained from nowhere) cannot happen while
    cards are conserved; they raise."""
    empty: Sequence[int] = b""
    lost: Sequence[int]
    added: Sequence[int]
    sources: dict[int, list[str]] = {}          # card -> a zone per copy it lost
    gained: list[tuple[str, Sequence[int]]] = []
    changed = [(zone, was, after.get(zone, empty)) for zone, was in before.items()
               if was != after.get(zone, empty)]  # most zones: untouched (a C compare)
    changed += [(zone, empty, now) for zone, now in after.items() if zone not in before]
    for zone, was, now in changed:
        if len(now) < len(was) and was[:len(now)] == now:      # taken off a pile's top
            lost, added = was[len(now):], empty
        elif len(now) > len(was) and now[:len(was)] == was:    # put on a pile's top
            lost, added = empty, now[len(was):]
        elif len(now) < len(was) and was[len(was) - len(now):] == now:   # off its bottom
            lost, added = was[:len(was) - len(now)], empty
        else:
            lost, added = _multiset_minus(was, now), _multiset_minus(now, was)
        for card in lost:
            sources.setdefault(card, []).append(zone)
        if added:
            gained.append((zone, added))
    moves: dict[tuple[str, str], list[int]] = {}
    for target, cards in gained:
        for card in sorted(cards):
            source = sources[card].pop(0)      # KeyError/IndexError: a card from nowhere
            moves.setdefault((source, target), []).append(card)
    if any(sources.values()):
        raise AssertionError("cards left a zone and reached none")
    # In the zones' order, never in the order the cards were matched: that order follows
    # the cards' ids, hidden ones too, and must not tell a seat anything.
    order = {zone: i for i, zone in enumerate(dict.fromkeys([*before, *after]))}
    return tuple((a, b, tuple(moves[a, b])) for a, b in sorted(
        moves, key=lambda m: (order[m[0]], order[m[1]])))


def _multiset_minus(a: Iterable[int], b: Iterable[int]) -> list[int]:
    """Cards of ``a`` not matched by a card of ``b`` (multisets), in ``a``'s order."""
    a, b = list(a), list(b)
    seen = set(b)
    if len(seen) == len(b) and len(set(a)) == len(a):
        # No copies on either side (one deck, or copies kept apart): a set test per card,
        # the hot path of every move's zone diff (legal actions' moves, narration).
        return [c for c in a if c not in seen]
    left: dict[int, int] = {}
    for c in b:
        left[c] = left.get(c, 0) + 1
    out = []
    for c in a:
        if left.get(c, 0):
            left[c] -= 1
        else:
            out.append(c)
    return out
