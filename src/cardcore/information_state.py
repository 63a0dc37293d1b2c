"""Information states: everything one seat has seen, in order (docs/api.md, "Information
states"); OpenSpiel's perfect-recall information state.

Both forms are read from the seat's own event stream (``Game.events(seat)``), which already
names exactly the cards the seat may see and counts the others, so neither can reveal more
than the events do; they are built incrementally beside the events (nothing on the fast path).

* ``information_state_string(seat)``: perfect recall, exact. One line per event as the seat saw
  it: who, which action (its id, or only its kind when the seat may not see its notation) or
  which automatic event, the cards the seat saw and how many it did not, and the event's other
  public facts. Two histories the seat can tell apart give different strings.
* ``information_state_tensor(seat)``: a fixed size per configuration, in pieces
  (``information_state_pieces``): the seat's observation now (``observation_tensor``), the
  cards it received privately this round as dealt and as drawn or taken (a count per distinct
  card), and the history of the last ``HISTORY_EVENTS`` events, three numbers each (the actor
  + 1, the event kind's index + 1, the action id + 1 when the seat may see it, else 0), oldest
  first, zeros after the last. A match with at most ``HISTORY_EVENTS`` events is held in full
  (so the tensor has perfect recall up to the order of cards drawn within a round); a longer
  one keeps its most recent events (a fixed size cannot hold a match whose length
  bound runs to millions of actions).
"""
from __future__ import annotations

from array import array
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from cardcore.cards import card_str
from cardcore.events import DEAL_EVENT, SharedLog

__all__ = ["HISTORY_EVENTS", "HISTORY_FIELDS", "Layout", "SeatRecord",
           "information_state_pieces_of", "event_kinds_of"]

HISTORY_EVENTS = 1024          # events held in the tensor's history (the most recent)
HISTORY_FIELDS = 3             # actor + 1, kind index + 1, action id + 1 (0: not seen)
# Keys of a rendered event that say nothing the rest of the event and the history do not:
# its index, its free text and moves (derived from the same facts), the automatic flag (the
# kind says it) and the rule ID (the kind and the game say it).
_LEFT_OUT = frozenset({"n", "kind", "player", "cards", "hidden", "id", "action", "auto",
                       "text", "moves", "rule"})


class Layout:
    """What a configuration's information states are made of: its distinct cards, its event
    kinds and the tensor's pieces (``Layout.of(game)``, kept per configuration)."""

    __slots__ = ("cards", "card_index", "kinds", "kind_index", "pieces", "size")
    _known: dict[Any, Layout] = {}

    def __init__(self, cards: list[int], kinds: list[str], observation_size: int) -> None:
        self.cards = cards
        self.card_index = {card_str(c): i for i, c in enumerate(cards)}
        self.kinds = kinds
        self.kind_index = {k: i for i, k in enumerate(kinds)}
        self.pieces = information_state_pieces_of(observation_size, len(cards))
        _, offset, size = self.pieces[-1]
        self.size = offset + size

    @classmethod
    def of(cls, game: Any) -> Layout:
        # kept on the game too (its configuration never changes; clones share it): the key
        # below costs more than the rest of a tensor's bookkeeping, asked twice per tensor
        known: Layout | None = game.__dict__.get("_information_layout")
        if known is not None:
            return known
        layout = cls._of(game)
        game.__dict__["_information_layout"] = layout
        return layout

    @classmethod
    def _of(cls, game: Any) -> Layout:
        key = (type(game), game.num_players, tuple(sorted(game.options.items())))
        try:
            return cls._known[key]
        except (KeyError, TypeError):
            pass
        layout = cls(sorted(set(game.deck_for(game.num_players, game.options))),
                     event_kinds_of(type(game), game._specs),
                     int(game.observation_shape[0]))
        if len(cls._known) >= 256:                      # a bound: configurations are few
            cls._known.clear()
        try:
            cls._known[key] = layout
        except TypeError:                               # an unhashable option value
            pass
        return layout


def event_kinds_of(cls: Any, specs: Sequence[Any]) -> list[str]:
    """Every event kind of a game, in a fixed order: its action kinds as the decode table
    first names them, then its automatic kinds as its narrator declares them."""
    kinds: list[str] = []
    for spec in specs:
        if spec.kind not in kinds:
            kinds.append(spec.kind)
    for kind in list(cls.narrator.kinds) + ["match_end"]:
        if kind not in kinds:
            kinds.append(kind)
    return kinds


def information_state_pieces_of(observation_size: int, distinct_cards: int
                                ) -> list[tuple[str, int, int]]:
    """The tensor's layout: (name, offset, size) per piece, in order."""
    sizes = [("observation", observation_size), ("dealt", distinct_cards),
             ("received", distinct_cards), ("history", HISTORY_EVENTS * HISTORY_FIELDS)]
    pieces, offset = [], 0
    for name, size in sizes:
        pieces.append((name, offset, size))
        offset += size
    return pieces


class SeatRecord:
    """One seat's information state, extended event by event from the raw event list (a
    game's ``Narration``): its string lines, its private cards this round and its history
    codes. Copied with the narration when a game is cloned."""

    __slots__ = ("seat", "done", "lines", "dealt", "received", "history", "in_deal", "_text",
                 "_text_lines")

    def __init__(self, seat: int, distinct_cards: int) -> None:
        self.seat = seat
        self.done = 0                                   # raw events read so far
        self.lines = SharedLog()                        # of str
        self.dealt = np.zeros(distinct_cards, np.float32)
        self.received = np.zeros(distinct_cards, np.float32)
        # HISTORY_FIELDS float32 codes per event, flat (cheap to slice into a tensor)
        self.history = SharedLog(array("f"))
        self.in_deal = False                            # between a round's deal and its first action
        self._text = ""                                 # the string of the first _text_lines lines
        self._text_lines = 0

    def copy(self) -> SeatRecord:
        other = SeatRecord.__new__(SeatRecord)
        other.seat, other.done, other.in_deal = self.seat, self.done, self.in_deal
        other.lines = self.lines.copy()
        other.dealt, other.received = self.dealt.copy(), self.received.copy()
        other.history = self.history.copy()
        # Not the string: a copy kept while its original goes on would hold a whole string
        # of its own (clones kept at every step of a long match: quadratic memory).
        other._text, other._text_lines = "", 0
        return other

    def extend(self, raw: SharedLog, layout: Layout, round_end_kind: str) -> None:
        """Read the raw events from ``done`` on, as this seat sees them."""
        seat = self.seat
        kinds, card_index = layout.kind_index, layout.card_index
        for event in raw[self.done:]:
            mine = event.render(0, seat)
            if event.kind == DEAL_EVENT:
                self.dealt.fill(0.0)
                self.received.fill(0.0)
                self.in_deal = True
            elif not event.auto:
                self.in_deal = False
            if mine["cards"] and event.player == seat and event.seen_by is not None:
                # cards only this seat's side saw: what it was dealt, drew or took privately
                counts = self.dealt if self.in_deal else self.received
                for card in mine["cards"]:
                    counts[card_index[card]] += 1.0
            self.lines.append(_line(mine))
            action_id = mine.get("id") if not event.auto else None
            actor = -1 if event.player is None else event.player
            self.history.extend((actor + 1, kinds[event.kind] + 1,
                                 0 if action_id is None else action_id + 1))
            if event.kind == round_end_kind:
                self.in_deal = False
        self.done = len(raw)

    def string(self) -> str:
        """The lines joined, extended from the last string made (a search asks at every step,
        for every seat: joining every line each time was quadratic in the match)."""
        n = len(self.lines)
        if n != self._text_lines:
            new = "\n".join(self.lines[self._text_lines:n])
            self._text = new if not self._text_lines else self._text + "\n" + new
            self._text_lines = n
        return self._text

    def fill(self, out: npt.NDArray[np.float32], observation: npt.NDArray[np.float32]) -> None:
        """Write the tensor into ``out`` (its pieces in order)."""
        size = observation.shape[0]
        n = self.dealt.shape[0]
        out[:size] = observation
        out[size:size + n] = self.dealt
        out[size + n:size + 2 * n] = self.received
        history = out[size + 2 * n:]
        history.fill(0.0)
        recent = self.history[-HISTORY_EVENTS * HISTORY_FIELDS:]
        if recent:
            history[:len(recent)] = np.frombuffer(recent, np.float32)


def _line(event: dict[str, Any]) -> str:
    """An event as one compact line: ``actor kind[#id] cards [+hidden] key=value ...``."""
    actor = "-" if event["player"] is None else str(event["player"])
    what = event["kind"] if event.get("id") is None else f"{event['kind']}#{event['id']}"
    parts = [actor, what]
    if event["cards"]:
        parts.append(",".join(event["cards"]))
    if event.get("hidden"):
        parts.append(f"+{event['hidden']}")
    # The narrator writes an event's facts in a fixed order, so no sorting is needed.
    parts.extend(f"{k}={v}" for k, v in event.items() if k not in _LEFT_OUT)
    return " ".join(parts).replace("\n", " ")
