"""Zones and moves: where every card is, and how cards go from one zone to another
(docs/api.md, "Zones and moves").

A game's zones come from its kernel's zone table (``GameState.zones()``): a shared zone is
one id (``"stock"``), a seat's zone one per seat (``"hand:2"``), a team's zone one per side
(``"red_threes:1"``), numbered piles one per pile (``"stock:0"``). A kernel zone that holds
several piles of its own, made in play (a team's melds), is split by the game
(``Game.split_zones`` and ``Game._zone_parts``) into one zone per part (``"meld:0:3"``):
those zones are not in ``zones_of``; the event whose moves first fill one announces it.
A zone the game lays out (``Game.zone_layouts``: ``"pairs"``) says so in its descriptor
(``"layout"``), and the view gives its slots (``view["slots"]``: each a card and its cover).

Moves are derived here, never by a game: the cards of every zone before and after a step
are compared, and each card that changed zone is one card of a move ``(from, to, cards)``.
Nothing here runs on the fast path.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable, Mapping, Sequence

from cardcore._moves import add_parts, diff, multiset_minus, snapshot
from cardcore._render import seen_moves  # moves as a seat sees them (every event's, in C)
from cardcore.zone_diff import Move, _diff, _multiset_minus  # noqa: F401 (the reference)
from cardcore._fast import GameState
from cardcore.cards import CARD_NAMES

__all__ = ["ZoneTable", "LAYOUTS", "Move", "diff", "apply_moves", "render_moves", "seen_moves",
           "multiset_minus"]

JSON = Any
# zone id -> card ids (kernel order): bytes of ids as the kernel gives them (one call for
# every zone, compared in C), a list for a split zone's piles or after moves are applied.
Zones = dict[str, Sequence[int]]
_TABLES: dict[tuple[Any, ...], ZoneTable] = {}    # ZoneTable.of: one per configuration
# The layouts a zone may declare (Game.zone_layouts) besides a plain pile.
LAYOUTS = ("pairs",)


class ZoneTable:
    """The zones of one game configuration: the kernel's table made into zone ids, who sees
    each, and the cards of each in a state. ``game`` is a cardcore.game.Game (its class
    declares labels, split zones and the deck zone)."""

    def __init__(self, game: Any) -> None:
        cls = type(game)
        self.game = game
        self.players: int = game.num_players
        sides = cls.sides_of(self.players, game.options)
        partners = len(set(sides)) < self.players
        state: GameState = game._state
        self.static: list[dict[str, JSON]] = []       # the declared zones, in kernel order
        self.kernel: dict[str, tuple[str, int]] = {}  # zone id -> (kernel name, instance)
        self.splits: list[tuple[str, int, str, str]] = []  # (kernel name, instance,
        #                                                   part kind, kernel scope)
        self.sight: dict[str, set[int]] = {}          # zone id -> the seats that see it
        # The zone id of each entry of GameState.zone_bytes() (None: a split zone's), and
        # the split zone instance of each None there.
        self.flat: list[str | None] = []
        self.split_at: dict[int, tuple[str, int, str, str]] = {}
        for name, scope, instances, _sight in state.zones():
            seers_of = [{p for p in range(self.players) if state.zone_sees(name, i, p)}
                        for i in range(instances)]
            if name in cls.split_zones:
                for i in range(instances):
                    self.splits.append((name, i, cls.split_zones[name], scope))
                    self.sight[f"{name}:{i}"] = seers_of[i]
                    self.split_at[len(self.flat)] = self.splits[-1]
                    self.flat.append(None)
                continue
            for i in range(instances):
                zone_id = name if scope == "shared" else f"{name}:{i}"
                owner = i if scope == "seat" else None
                team = i if scope == "team" else (sides[i] if scope == "seat" and partners
                                                  else None)
                self.static.append(self.descriptor(zone_id, name, owner, team))
                self.kernel[zone_id] = (name, i)
                self.sight[zone_id] = seers_of[i]
                self.flat.append(zone_id)
        self.static_ids = frozenset(self.kernel)
        # zone id -> (kernel name, instance, layout) of the zones laid out in slots
        self.layouts: dict[str, tuple[str, int, str]] = {
            zone_id: (name, i, cls.zone_layouts[name])
            for zone_id, (name, i) in self.kernel.items() if name in cls.zone_layouts}
        unknown = set(cls.zone_layouts) - {name for name, _ in self.kernel.values()}
        if unknown or set(cls.zone_layouts.values()) - set(LAYOUTS):
            raise TypeError(f"{cls.__qualname__}.zone_layouts: {cls.zone_layouts!r} needs "
                            f"declared (not split) zones and layouts of {LAYOUTS}")
        self._sight_of: dict[int | None, dict[str, bool]] = {}
        self.part_ids: dict[tuple[str, int, int], str] = {}
        # The ids of each split kernel zone's parts by index, made once.
        self._part_ids_of: dict[tuple[str, int], tuple[str, ...]] = {
            (name, i): () for name, i, _part, _scope in self.splits}
        deck = cls.deck_zone
        if deck not in self.kernel:
            raise TypeError(f"{cls.__qualname__}.deck_zone {deck!r} is not one of its zones")
        self.deck_zone: str = deck

    @classmethod
    def of(cls, game: Any) -> ZoneTable:
        """The table of ``game``: made once per configuration (class, players, options; the
        kernel's zone table and who sees each zone follow from them) and shared, with
        ``game`` its own. Its caches only ever gain what the configuration implies."""
        key = (type(game), game.num_players, repr(sorted(game.options.items())))
        table = _TABLES.get(key)
        if table is None:
            table = cls(game)
            if len(_TABLES) >= 1024:                # configurations: few in practice
                return table
            _TABLES[key] = table
        own = copy.copy(table)
        own.game = game
        table.game = None                           # the shared one keeps no game alive
        return own

    def descriptor(self, zone_id: str, kind: str, owner: int | None, team: int | None
                   ) -> dict[str, JSON]:
        """A zone's descriptor: id, kind (the kernel's zone name, or a split zone's part
        kind), owner seat, team, label (an English noun, a msgid of the game's catalog)."""
        labels = type(self.game).zone_labels
        if kind not in labels:
            raise TypeError(f"{type(self.game).__qualname__}.zone_labels has no label for "
                            f"zone kind {kind!r}")
        out: dict[str, JSON] = {"id": zone_id, "kind": kind, "owner": owner, "team": team,
                                "label": labels[kind]}
        layout = type(self.game).zone_layouts.get(kind)
        if layout is not None and kind not in type(self.game).split_zones.values():
            out["layout"] = layout
        return out

    def part_id(self, kind: str, instance: int, index: int) -> str:
        key = (kind, instance, index)
        found = self.part_ids.get(key)
        if found is None:
            found = self.part_ids[key] = f"{kind}:{instance}:{index}"
        return found

    def part_descriptor(self, zone_id: str) -> dict[str, JSON]:
        """The descriptor of a zone made in play (``"meld:0:3"``): its team or owner is the
        split kernel zone's instance."""
        kind, instance, _ = zone_id.split(":")
        for _name, i, part, scope in self.splits:
            if part == kind and i == int(instance):
                return self.descriptor(zone_id, kind, i if scope == "seat" else None,
                                       i if scope == "team" else None)
        raise KeyError(zone_id)

    def full_deck(self, zones: Mapping[str, Sequence[int]]) -> Zones:
        """Every card of ``zones`` in the deck zone: before a deal, after a round."""
        return {self.deck_zone: [c for cards in zones.values() for c in cards]}

    def cards(self, state: GameState) -> Zones:
        """Every zone's cards in ``state``: the declared zones (empty ones too) and the zones
        of the split kernel zones that hold cards (in the kernel's order: a pile bottom to
        top)."""
        # in C: a dict of the declared zones, then each split zone's parts that hold cards
        out: Zones = snapshot(self.flat, state.zone_bytes())
        for name, i, part, _scope in self.splits:
            self._add_parts(out, state, name, i, part)
        return out

    def changes(self, before: GameState, after: GameState) -> tuple[Zones, Zones]:
        """The zones whose cards differ between two states of the game (``before`` and
        ``after`` an action), as ``cards`` gives them (in its order; a split zone: every
        part of the instance that holds cards) on each side: what ``diff`` needs for the
        action's moves, without a snapshot of the zones it did not touch (the narration
        asks at every action)."""
        was: Zones = {}
        now: Zones = {}
        split = []
        for k, old, new in after.zone_changes(before):
            zone_id = self.flat[k]
            if zone_id is None:
                split.append(self.split_at[k])
            else:
                was[zone_id] = old
                now[zone_id] = new
        for name, i, part, _scope in split:              # after the declared zones
            self._add_parts(was, before, name, i, part)
            self._add_parts(now, after, name, i, part)
        return was, now

    def _add_parts(self, out: Zones, state: GameState, name: str, i: int, part: str) -> None:
        parts = self.game._zone_parts(state, name, i)
        ids = self._part_ids_of[name, i]
        if len(parts) > len(ids):                      # replaced whole: tables share it
            ids = self._part_ids_of[name, i] = tuple(
                self.part_id(part, i, k) for k in range(len(parts)))
        add_parts(out, ids, parts)

    def sees(self, zone_id: str, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) sees the cards of ``zone_id``."""
        if seat is None:
            return len(self.seers(zone_id)) == self.players
        return seat in self.seers(zone_id)

    def sight_of(self, seat: int | None) -> dict[str, bool]:
        """Zone id -> whether ``seat`` sees its cards, filled as zones are asked about
        (``render_moves`` asks at every move of every event)."""
        found = self._sight_of.get(seat)
        if found is None:
            found = self._sight_of[seat] = {}
        return found

    def seers(self, zone_id: str) -> set[int]:
        found = self.sight.get(zone_id)
        if found is None:                              # a split zone: its kernel zone's
            kind, instance, _ = zone_id.split(":")
            name = next(n for n, i, part, _ in self.splits
                        if part == kind and i == int(instance))
            found = self.sight[zone_id] = self.sight[f"{name}:{instance}"]
        return found

    def view(self, state: GameState, seat: int | None) -> dict[str, JSON]:
        """``view(seat)["zones"]``: the cards of each zone the seat sees, a count else."""
        sight = self.sight_of(seat)
        out: dict[str, JSON] = {}
        for zone_id, cards in self.cards(state).items():
            sees = sight.get(zone_id)
            if sees is None:
                sees = sight[zone_id] = self.sees(zone_id, seat)
            # the kernel's ids: the name table needs no range check (card_str's)
            out[zone_id] = [CARD_NAMES[c] for c in cards] if sees else {"count": len(cards)}
        return out

    def slots(self, state: GameState, seat: int | None) -> dict[str, JSON]:
        """``view(seat)["slots"]``: the slots of each laid-out zone the seat sees, in the
        zone's order: ``{"card", "cover", "open"}`` (``cover`` null and ``open`` true while
        nothing covers the card)."""
        out: dict[str, JSON] = {}
        for zone_id, (name, i, _layout) in self.layouts.items():
            if self.sees(zone_id, seat):
                out[zone_id] = [
                    {"card": CARD_NAMES[card], "cover": None if cover is None
                     else CARD_NAMES[cover], "open": cover is None}
                    for card, cover in self.game._zone_slots(state, name, i)]
        return out

    def descriptors(self, state: GameState) -> list[dict[str, JSON]]:
        """The declared zones, then the zones made in play that exist in ``state``."""
        if not self.splits:                 # no zone is made in play: the position is not read
            return [dict(z) for z in self.static]
        made = [z for z in self.cards(state) if z not in self.static_ids]
        return [dict(z) for z in self.static] + [self.part_descriptor(z) for z in made]


# diff and multiset_minus, what the narration calls, are imported above from C
# (cardcore._moves) for card ids 0..255: the Python versions (cardcore.zone_diff) define them
# and are called for any other ids.


def apply_moves(zones: Mapping[str, Sequence[int]], moves: Iterable[Move]) -> Zones:
    """``zones`` after ``moves`` (a move's cards go on top of its target, in order)."""
    out = {z: list(cards) for z, cards in zones.items()}
    for source, target, cards in moves:
        left = out.setdefault(source, [])
        for card in cards:
            left.remove(card)
        out.setdefault(target, []).extend(cards)
    return dict(out)


def render_moves(table: ZoneTable, moves: Iterable[Move], seat: int | None,
                 known: str = "either") -> list[dict[str, JSON]]:
    """Moves as ``seat`` sees them: the cards when it sees the source or the target zone
    (``known="source"``: only the source, for an action not made yet), a count else."""
    return seen_moves(table, table.sight_of(seat), moves, seat, known)
