"""Events: what happened, as each seat saw it (docs/api.md, "Events").

``Game.events(seat=None, since=0)`` is computed lazily: the first call replays the action log
on a shadow state machine, and later calls only narrate the actions applied since. Nothing here
runs on the fast path (``legal_action_ids`` / ``apply(int)``).

Each game supplies a *narrator* (``cardcore.games.<game>.events``) that compares the shadow
state before and after every action and turns the difference into ``Raw`` events. A raw event
has one group of cards and the set of seats allowed to see them; rendering it for a seat names
the cards only when that seat may see them and otherwise counts them (``"hidden": k``). Fields
in ``private`` (e.g. the notation of a God draw, which names its card) are shown only to the
same seats; everyone else gets the ``public`` fields.

Every rendered event has ``n`` (its index in the full list, the same for every seat), ``kind``,
``player`` (a seat or None) and ``cards`` (card notations, possibly empty); ``hidden`` appears
when cards were left out. Action events also carry ``id`` and ``action`` (the notation);
automatic events carry ``auto: true``. The kinds of each game are listed in docs/api.md.
Every event carries ``moves`` (the cards that changed zone, cardcore.zones), derived here by
``Narration`` from the zones before and after each action, never by a game.
"""
from __future__ import annotations

import threading
from collections import Counter
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from cardcore._fast import GameState
from cardcore._log import SharedLog  # (in C: appended to at every action)
from cardcore._render import Raw, Teller, render_all  # in C: one Raw per event
from cardcore.cards import card_id
from cardcore.errors import echo
from cardcore.i18n import _, check_lang, enter, leave
from cardcore.narrate import COUNTED, phrases_of, reason_text, row_text, seat_name
from cardcore.narrate import _event_text as sentence_of
from cardcore.zones import (
    Move, ZoneTable, Zones, apply_moves, diff, multiset_minus,
)

__all__ = ["Raw", "Narrator", "Narration", "events_for", "multiset_minus", "public", "private",
           "DEAL_EVENT", "SharedLog"]

DEAL_EVENT = "deal"            # every game's round begins with an event of this kind
JSON = Any
# The game a narrator tells: a cardcore.game.Game (not imported: the protocol module imports
# this one). A narrator reads its ``_specs``, ``_spec_card_ids``, ``options`` and
# ``num_players``.
NarratedGame = Any


def public(kind: str, player: int | None, cards: Iterable[int] = (), *,
           into: str | None = None, **fields: JSON) -> Raw:
    """An automatic event everybody sees in full (its cards go ``into`` that zone, if
    given: the event claims those moves)."""
    return Raw(kind, player, tuple(cards), None, fields, None, True, None, into)


def private(kind: str, player: int | None, cards: Iterable[int], seen_by: Iterable[int],
            **fields: JSON) -> Raw:
    """An automatic event whose cards only ``seen_by`` see (the others get a count)."""
    return Raw(kind, player, tuple(cards), frozenset(seen_by), fields)


class Narrator:
    """Turns state changes of one game into raw events. Subclassed per game.

    ``kinds`` lists every automatic event kind the game emits, each with a line saying what
    it is (the event schema, the docs and the front ends' words read it); the action events'
    kinds are the action kinds of the decode table.

    Who may see the cards of an event follows from the kernel's zone table: an event moves
    cards from one zone to another (``"hand:2"``, ``"stock"``, ``"melds:1"``), and the seats
    that see either zone (``GameState.zone_sees``) see the cards; the others count them. The
    breakdown of a round's scoring is the kernel's own rows (``GameState.breakdown_rows``),
    by seat or by side (``breakdown_by``)."""

    kinds: ClassVar[dict[str, str]] = {}
    breakdown_by: ClassVar[str] = "seat"

    def __init__(self, game: NarratedGame) -> None:
        self.game = game
        self.players = game.num_players
        # Who sees a zone is fixed by the zone table and the seats, not by the position:
        # asked once per zone pair (narrating an action asked the core ~10 times).
        self._seers: dict[tuple[str, ...], frozenset[int] | None] = {}
        # The card ids of each action id's spec: parsed once per configuration, its games'
        # narrators sharing them (a short game meets most of its ids once).
        self._spec_ids: dict[int, tuple[int, ...]] = game._spec_card_ids

    def declared_moves(self, pre: GameState, action_id: int, player: int
                       ) -> list[Move] | None:
        """The moves of ``action_id`` in ``pre`` when the game can say them without applying
        it (an action kind whose moves follow from the position alone), exactly as
        ``action_moves_for`` would find them; None: apply it on a copy and narrate it."""
        return None

    def spec_ids(self, action_id: int) -> list[int]:
        """The card ids an action id's spec names (its ``cards``), parsed once per id."""
        found = self._spec_ids.get(action_id)
        if found is None:
            found = self._spec_ids[action_id] = tuple(
                card_id(c) for c in self.game._specs[action_id].cards)
        return list(found)

    def seers(self, state: GameState, *zones: str) -> frozenset[int] | None:
        """The seats that see the cards of any of ``zones`` ("name" or "name:instance");
        None when that is every seat."""
        try:
            return self._seers[zones]
        except KeyError:
            pass
        seats: set[int] = set()
        sight = self.game._zone_table().sight      # the kernel's answers, asked once
        for zone in zones:
            seen = sight.get(zone)
            if seen is None:
                name, _, instance = zone.partition(":")
                seen = {p for p in range(self.players)
                        if state.zone_sees(name, int(instance or 0), p)}
            seats.update(seen)
        seen = None if len(seats) == self.players else frozenset(seats)
        self._seers[zones] = seen
        return seen

    def moved(self, kind: str, player: int | None, cards: Iterable[int], state: GameState,
              source: str, target: str, **fields: JSON) -> Raw:
        """An automatic event of ``cards`` going from zone ``source`` to ``target``: the seats
        that see either zone see them."""
        return Raw(kind, player, tuple(cards), self.seers(state, source, target), fields, None,
                   True, source, target)

    def breakdown_of(self, state: GameState) -> dict[str, JSON]:
        """The scoring breakdown of the round ``state`` has just finished, from the kernel's
        rows; the totals are each owner's sum (the engine's figures: a test checks them
        against the scores). Where partners score together (``Game.sides_of`` joins seats)
        a breakdown by seat is given by team: each component keeps its ``seat`` and names
        its ``team``, and the totals are the teams' (docs/api.md, "Events")."""
        words = type(state).breakdown_what
        rules = type(state).breakdown_rules
        components: list[dict[str, JSON]] = []
        for owner, what, rule, detail, count, points in state.breakdown_rows():
            text, counted = self.row_words(words[what], detail)
            component: dict[str, JSON] = {self.breakdown_by: owner,
                                          "what": self.what(words[what], detail),
                                          "text": text, "points": points, "rule": rules[rule]}
            if count >= 0:
                component["count"] = count
            elif counted is not None:
                component["count"] = counted
            components.append(component)
        sides = self.game.sides_of(self.players, self.game.options)
        by = self.breakdown_by
        if by == "seat" and len(set(sides)) < self.players:       # partners: by team
            by = "team"
            for component in components:
                component["team"] = sides[int(component["seat"])]
        owners = self.players if by == "seat" else max(sides) + 1
        totals = [sum(c["points"] for c in components if c[by] == k) for k in range(owners)]
        return breakdown(by, components, totals)

    def what(self, words: str, detail: int) -> str:
        """The words of a row, its ``{detail}`` (a count, e.g. of red threes) filled in; a game
        whose details mean more than a number formats them itself."""
        return words.format(detail=detail) if detail >= 0 and "{detail}" in words else words

    def row_words(self, words: str, detail: int) -> tuple[str, int | None]:
        """A row's ``text`` (English; translated when rendered) and the count its detail is,
        if it is one: "red threes ({detail})" is the text "red threes" with a count, so a UI
        need not read numbers out of words."""
        if detail >= 0 and COUNTED in words:
            return words.replace(COUNTED, ""), detail
        return self.what(words, detail), None

    def deal(self, state: GameState) -> list[Raw]:
        """Events of a deal that just happened (``state`` is right after it)."""
        raise NotImplementedError

    def action(self, pre: GameState, action_id: int, player: int, post: GameState) -> list[Raw]:
        """The action event and the automatic events within the same round."""
        raise NotImplementedError

    def round_end(self, pre: GameState, action_id: int, player: int,
                  post: GameState) -> list[Raw]:
        """The end of a round/deal/hand with its scoring breakdown (``post`` is after the
        scoring, possibly already dealt anew)."""
        raise NotImplementedError

    def match_end(self, post: GameState) -> list[Raw]:
        """The end of the match: winners and final scores."""
        return [public("match_end", None, winners=list(post.winners()),
                       scores=list(post.scores()), **self.match_reason(post))]

    def match_reason(self, post: GameState) -> dict[str, JSON]:
        """Why the match ended: ``reason_code`` (a key of the game's ``reasons``), ``rule``
        and any field its words name."""
        return {}

    # helpers
    def action_event(self, action_id: int, player: int, cards: Iterable[int] = (),
                     state: GameState | None = None, source: str | None = None,
                     target: str | None = None, **fields: JSON) -> Raw:
        """The event of an applied action, whose ``cards`` go from zone ``source`` to
        ``target`` of ``state`` (omitted: everybody sees them). A seat that cannot see the
        cards cannot see a notation that names them either: it sees the action's kind and
        ``id`` None."""
        spec = self.game._specs[action_id]
        seen_by = None
        if state is not None and source is not None and target is not None:
            seen_by = self.seers(state, source, target)
        if seen_by is None or not spec.cards:
            shown: dict[str, JSON] = {"id": action_id, "action": spec.label, **fields}
            hidden = None
        else:
            shown = {"id": None, "action": spec.kind, **fields}
            hidden = {"id": action_id, "action": spec.label}
        # positional: every action makes one (keywords and the default public dict cost)
        return Raw(spec.kind, player, tuple(cards), seen_by, shown, hidden, False, source,
                   target)


class Narration:
    """The raw event list of one game, extended as the game's log grows, and the public
    history (``Game.history``) read from the same replay.

    The moves of every event are derived here, once, from the zones before and after each
    action (cardcore.zones), never by a game: within a round, every card that changed zone
    is one card of a move, an automatic event that names the zone its cards go to
    (``Raw.target``) takes the moves of its cards into that zone, and the action's event
    the rest. A round's end is told as the action's own move (the one its narrator names),
    every card then gathered into the deck zone (``Game.deck_zone``) by the round-end event,
    and the new deal out of it by the deal's first event; the first deal too starts from a
    full deck zone."""

    def __init__(self, game: NarratedGame) -> None:
        self.lock = threading.Lock()
        self.game = game
        self.narrator: Narrator = game.narrator(game)
        self.table: ZoneTable = game._zone_table()
        self.state: GameState = game._fresh_state()
        # The state before each action, copied into this one object (``advance``): the
        # narrators only read it while the action is told, never keep it.
        self.before: GameState = self.state.clone()
        self.done = 0
        # A world made by sample_hidden starts where it was sampled: no deal to tell.
        self.raw = SharedLog()                    # of Raw
        if game._origin is None:
            zones = self.table.cards(self.state)
            deal = self.narrator.deal(self.state)
            share_moves(deal, diff(self.table.full_deck(zones), zones), 0)
            announce(self.table, deal, self.table.full_deck(zones))
            self.raw.extend(deal)
        # The public history: per action the index of its event in ``raw`` (rendered for a
        # spectator only when ``history`` is read: not a render per action), per round end
        # its summary.
        self._history = SharedLog()               # of int | dict[str, JSON]
        # Per action of the log, the index in ``raw`` of its first event: a step's events
        # are ``raw[starts[n]:starts[n + 1]]`` (a match record reads them without telling
        # the match again: cardcore.match_record).
        self.starts = SharedLog()                 # of int
        # Per-seat records read from ``raw`` (cardcore.information_state), built on demand.
        self.seat_records: dict[int, Any] = {}
        # The words of each event of ``raw`` as told to one reader (``words_key``: a seat and
        # a language), None where not told yet: the fields ``words_of`` adds, or only the
        # ``text`` when that is all. Made once, not at every ``events()`` call; a list per
        # reader, not a dict per event (which the collector would count by the thousand).
        self.words: dict[str, list[str | dict[str, JSON] | None]] = {}

    @property
    def history(self) -> list[dict[str, JSON]]:
        """``Game.history``: each action as a spectator saw it, and the round summaries."""
        out: list[dict[str, JSON]] = []
        for entry in self._history:
            if isinstance(entry, int):
                raw = self.raw[entry:entry + 1][0]
                shown = raw.render(0, None)
                out.append({"event": "action", "player": raw.player, "id": shown["id"],
                            "action": shown["action"]})
            else:
                out.append(entry)
        return out

    def copy_for(self, game: NarratedGame) -> Narration:
        """This narration for ``game``, a clone of its game at the same point of the log:
        the clone's events and information states go on from here instead of replaying the
        whole log (search over information states clones often)."""
        other = Narration.__new__(Narration)
        other.lock = threading.Lock()
        other.game = game
        other.narrator = self.narrator
        other.table = self.table
        with self.lock:
            other.state = self.state.clone()
            other.before = self.state.clone()
            other.done = self.done
            other.raw = self.raw.copy()           # Raw events are never changed once told
            other._history = self._history.copy()
            other.starts = self.starts.copy()
            other.seat_records = {seat: record.copy()
                                  for seat, record in self.seat_records.items()}
            other.words = {}                      # told again if the clone is ever read
        return other

    def catch_up(self) -> None:
        """Narrate the actions the game's log holds beyond those already narrated."""
        with self.lock:                          # one thread narrates each action once
            self.advance(*self.game._log_since(self.done))

    def advance(self, new_actions: list[int],
                chosen: Mapping[int, Sequence[int]] | None = None) -> None:
        """Narrate ``new_actions``: the log's actions from index ``done`` on, those applied
        with exact cards (``chosen``: log index -> card ids) with the same cards."""
        narrator = self.narrator
        table = self.table
        static = table.static_ids
        pre = self.before
        post = self.state                        # the state played on (never replaced)
        for action_id in new_actions:
            self.starts.append(len(self.raw))
            pre.copy_from(post)
            player = pre.current_player
            assert player is not None            # the log only holds legal actions
            cards = chosen.get(self.done) if chosen else None
            if cards is None:
                post.apply(action_id)
            else:
                post.apply_chosen(action_id, cards)
                pre.keep_chosen(cards)          # the narrator reads what the action took
            events = narrator.action(pre, action_id, player, post)
            primary = 0 if events and not events[0].auto else action_index(events)
            if post.round_index == pre.round_index:      # most actions: inline, no copies
                # only the zones the action changed, each side: their moves are all of it
                was, now = table.changes(pre, post)
                moves = diff(was, now)
                if len(events) == 1:
                    events[0].moves = moves
                else:
                    share_moves(events, moves, primary)
                self._history.append(self.raw.extend(events) + primary)
                for move in moves:        # a zone made in play: the event announces it
                    if move[1] not in static:
                        announce(table, events, was)
                        break
                self.done += 1
                continue
            pre_zones = table.cards(pre)
            post_zones = table.cards(post)
            told = list(events)
            action_moves(table, events, pre_zones, post_zones, not post.is_over, primary)
            self._history.append(len(self.raw) + primary)
            self.raw.extend(events)
            # the round ended: told with its end, the match's or the next deal
            ends = narrator.round_end(pre, action_id, player, post)
            told += ends
            self.raw.extend(ends)
            self._history.append({"event": "round_end", "round": pre.round_index + 1,
                                  **self.game._round_summary(post)})
            if post.is_over:
                last = narrator.match_end(post)
                told += last
                self.raw.extend(last)
            else:
                # every card back to the deck zone, then the new deal out of it
                mid = apply_moves(pre_zones, [m for e in events for m in e.moves])
                full = table.full_deck(mid)
                if ends:
                    ends[0].moves = diff(mid, full)
                deals = narrator.deal(post)
                share_moves(deals, diff(full, post_zones), 0)
                told += deals
                self.raw.extend(deals)
            announce(table, told, pre_zones)
            self.done += 1


def action_index(events: list[Raw]) -> int:
    """The index of the action's own event among an action's events."""
    for i, event in enumerate(events):
        if not event.auto:
            return i
    raise ValueError("no action event among the events of an action")


def action_moves(table: ZoneTable, events: list[Raw], pre_zones: Zones, post_zones: Zones,
                 redealt: bool, primary: int | None = None) -> None:
    """Share the moves of one action among its ``events`` (the action's own and the
    automatic ones of the same round). ``redealt``: the round ended and the next was dealt,
    so the zones after tell nothing of the action: its event gets the move its narrator
    names, then each automatic event that carries cards on from a zone the action names (a
    bout's cards to the taker's hand) gets its own, each when its cards are in that zone as
    the moves before left it; nothing else moves here (``carried`` reads the same zones)."""
    if primary is None:
        primary = action_index(events)
    if not redealt:
        share_moves(events, diff(pre_zones, post_zones), primary)
        return
    static = table.static_ids
    act = events[primary]
    zones = {z for z in (act.source, act.target) if z is not None}
    held = {z: Counter(pre_zones[z]) for z in zones if z in pre_zones}
    for event in (act, *(e for e in events[primary + 1:] if e.auto)):
        source, target = event.source, event.target
        if source in held and target in static and event.cards and \
                not Counter(event.cards) - held[source]:
            event.moves = ((source, target, event.cards),)
            held[source] -= Counter(event.cards)
            if target in held:
                held[target] += Counter(event.cards)


def through_target(act: Raw, moves: Sequence[Move]) -> Sequence[Move]:
    """``moves`` with the action's own cards taken through the zone its narrator names: a
    card the same step carries on (the card that ends a bout of beats, beaten or taken; a
    discard that a pile's end sweeps away) nets out of the zone diff as hand -> discard,
    which would leave the action's event without its card. Told as hand -> table, then
    table -> discard (merged into the move that carries the rest there), so the action
    shows where its cards go and the moves still give the same zones after."""
    source, target = act.source, act.target
    if source is None or target is None or not act.cards:
        return moves
    wanted = list(act.cards)
    for a, b, cards in moves:
        if a == source and b == target:
            wanted = multiset_minus(wanted, cards)
    if not wanted:
        return moves                     # most actions: the move is there as it is
    routed: list[int] = []
    onward: dict[str, list[int]] = {}   # zone -> the action's cards that went on there
    kept: list[Move] = []
    for a, b, cards in moves:
        if a == source and b != target:
            rest = list(cards)
            for card in list(wanted):
                if card in rest:
                    rest.remove(card)
                    wanted.remove(card)
                    routed.append(card)
                    onward.setdefault(b, []).append(card)
            if rest:
                kept.append((a, b, tuple(rest)))
        else:
            kept.append((a, b, cards))
    if not routed:
        return moves
    out: list[Move] = [(source, target, tuple(routed))]
    for a, b, cards in kept:
        if a == target and b in onward:
            out.append((a, b, (*cards, *onward.pop(b))))
        else:
            out.append((a, b, cards))
    out += [(target, b, tuple(cards)) for b, cards in onward.items()]
    return tuple(out)


def carried(events: list[Raw], primary: int) -> list[Move]:
    """An action's moves: its event's, then those of the automatic events of the same step
    that carry cards on from a zone it touched or its narrator names (``source``,
    ``target``): the card that ends a bout goes hand -> table, then the bout's cards
    table -> discard or -> the taker's hand. Draws and other happenings from elsewhere
    (the stock) are left to the events: they are not the cards the action moves."""
    act = events[primary]
    out = list(act.moves)
    zones = {zone for move in out for zone in move[:2]}
    zones.update(z for z in (act.source, act.target) if z is not None)
    for event in events[primary + 1:]:
        if event.auto:
            out += [move for move in event.moves if move[0] in zones]
    return out


def share_moves(events: list[Raw], moves: Sequence[Move], primary: int) -> None:
    """Give each automatic event that names its target zone the moves of its cards into
    that zone; ``events[primary]`` gets the rest (its own cards first, through the zone its
    narrator names: ``through_target``). The moves of one step all start from the zones
    before it, so any order of them gives the same zones after, but for the action's own
    cards, which its event (before the automatic ones) puts where the others take them."""
    moves = through_target(events[primary], moves)
    for i, event in enumerate(events):
        if i != primary and event.target is not None:
            break
    else:
        events[primary].moves = moves          # most steps: one event takes them all
        return
    pool = [(source, target, list(cards)) for source, target, cards in moves]
    into: dict[str, list[tuple[str, str, list[int]]]] = {}   # target -> its moves, in order
    for move in pool:
        into.setdefault(move[1], []).append(move)
    for i, event in enumerate(events):
        if i == primary or event.target is None:
            continue
        claimed: dict[tuple[str, str], list[int]] = {}
        candidates = into.get(event.target, ())
        if len(candidates) == 1 and sorted(event.cards) == sorted(candidates[0][2]):
            source, target, cards = candidates[0]     # a deal: one move, all its cards
            event.moves = ((source, target, event.cards),)
            cards.clear()
            continue
        for card in event.cards:
            for source, target, cards in candidates:
                if card in cards:
                    cards.remove(card)
                    claimed.setdefault((source, target), []).append(card)
                    break
        event.moves = tuple((a, b, tuple(c)) for (a, b), c in claimed.items())
    events[primary].moves = tuple((a, b, tuple(c)) for a, b, c in pool if c)


def announce(table: ZoneTable, events: list[Raw], zones: Zones) -> None:
    """Mark on each event the zones made in play (not in ``zones_of``) that its moves fill
    while empty: the event announces them (``new_zones``)."""
    static = table.static_ids
    for e in events:                             # most steps: no zone made in play
        for move in e.moves:
            if move[1] not in static:
                break
        else:
            continue
        break
    else:
        return
    held: dict[str, int] = {}                    # a zone made in play -> its cards now
    for event in events:
        for source, target, cards in event.moves:
            if source not in static:
                held[source] = held.get(source, len(zones.get(source, ()))) - len(cards)
            if target not in static:
                now = held.get(target)
                if now is None:
                    now = len(zones.get(target, ()))
                if not now:
                    event.new_zones = [*event.new_zones, table.part_descriptor(target)]
                held[target] = now + len(cards)


# Per state class, states kept to play a legal action on for its moves (``action_moves_for``
# copies the position into one: no allocation per action). A few: taken by one ``pop`` (one
# per thread at a time), none held by a game, so a finished game keeps nothing here.
_SCRATCH: dict[type, list[GameState]] = {}
SCRATCH_KEPT = 4


def action_moves_for(game: NarratedGame, state: GameState, action_id: int,
                     pre_zones: Zones | None = None) -> list[Move]:
    """The moves that applying ``action_id`` in ``state`` would make (the state is not
    changed; ``pre_zones``: its zones, when already read): its event's and those the same
    step carries on from there (``carried``), what ``Action.moves`` shows, before the
    acting seat's view."""
    narrator = game._action_narrator()
    declared: list[Move] | None = narrator.declared_moves(state, action_id,
                                                          state.current_player)
    if declared is not None:          # said from the position: no copy, no narration
        return declared
    table: ZoneTable = game._zone_table()
    pre = state                       # only read: the narrators never change it
    pool = _SCRATCH.setdefault(type(state), [])
    try:
        post = pool.pop()
        post.copy_from(state)
    except IndexError:
        post = state.clone()
    try:
        player = pre.current_player
        post.apply(action_id)
        events: list[Raw] = narrator.action(pre, action_id, player, post)
        redealt = post.round_index != pre.round_index and not post.is_over
        before = table.cards(pre) if pre_zones is None else pre_zones
        action_moves(table, events, before, table.cards(post), redealt)
        return carried(events, action_index(events))
    finally:
        if len(pool) < SCRATCH_KEPT:
            pool.append(post)


def events_for(game: NarratedGame, seat: int | None, since: int,
               lang: str = "en", until: int | None = None) -> list[dict[str, JSON]]:
    """``Game.events``: check the arguments, bring the narration up to date, render, with the
    words in ``lang`` (``text``; a round or match end's ``reason``; its breakdown rows'
    ``text``), the events ``since`` up to (not including) ``until`` (None: the last)."""
    lang = check_lang(lang)
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.num_players):
        raise ValueError(f"seat must be None or a seat 0..{game.num_players - 1}, "
                         f"not {echo(seat)}")
    if type(since) is not int or since < 0:
        raise ValueError(f"since must be an int >= 0, not {echo(since)}")
    if until is not None and (type(until) is not int or until < since):
        raise ValueError(f"until must be None or an int >= since, not {echo(until)}")
    narration = game._narrate()
    key = words_key(seat, lang)
    with narration.lock:
        raw = narration.raw[since:until]
        told = narration.words.get(key)
        if told is None:
            told = narration.words[key] = []
        if len(told) < len(narration.raw):        # a place for each event's words
            told.extend([None] * (len(narration.raw) - len(told)))
    table = narration.table
    sight = table.sight_of(seat)
    token = enter(lang, game)        # one language context for the call, not one per event
    try:
        # in C (cardcore._render): each Raw's ``rendered`` and its words, kept per seat and
        # language (``Narration.words``), told on the first reading
        teller = Teller(seat, seat_name(seat), game, phrases_of(game), _("the table"),
                        sentence_of, words_of)
        return render_all(raw, since, seat, table, sight, told, teller)
    finally:
        leave(token)


_WORDS_KEYS: dict[tuple[int | None, str], str] = {}


def words_key(seat: int | None, lang: str) -> str:
    """The key of ``Narration.words`` for a seat and language, made once per pair."""
    try:
        return _WORDS_KEYS[seat, lang]
    except KeyError:
        key = _WORDS_KEYS[seat, lang] = f"{lang}:{'' if seat is None else seat}"
        return key


def words_of(event: dict[str, JSON], seat: int | None, who: Any,
             game: NarratedGame) -> dict[str, JSON]:
    """The words of an event rendered for ``seat`` (so they name only cards it saw), in the
    current language (cardcore.narrate: the terminal's sentences): ``text``; at a round or
    match end ``reason``; with a breakdown, the breakdown again with each row's ``text``."""
    words: dict[str, JSON] = {"text": sentence_of(event, seat, who, game)}
    if "reason_code" in event:
        words["reason"] = reason_text(event, seat, who, game)
    scored = event.get("breakdown")
    if isinstance(scored, dict):
        rows = [{**c, "text": row_text(c, game)} for c in scored["components"]]
        words["breakdown"] = {**scored, "components": rows}
    return words


def breakdown(by: str, components: Sequence[Mapping[str, JSON]], totals: Sequence[int]
              ) -> dict[str, JSON]:
    """A scoring breakdown: ``by`` "seat" or "team", the components (each names its seat or
    team, what it counts, its points and its rule ID) and the totals per seat or team, which
    are the engine's figures and equal the components' sums."""
    return {"by": by, "components": [dict(c) for c in components], "totals": list(totals)}
