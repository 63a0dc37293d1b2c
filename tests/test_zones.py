"""Zones and moves (docs/api.md, "Zones and moves"), generic over every registered game and
player count: replaying the events' moves on a seat's zones gives its later views; an
action's moves are its event's; no hidden card shows; zone ids are stable and declared.

Piles are compared as multisets: a move puts its cards on top of its target in the order
listed, but a zone's order in the view is the kernel's (a hand in card order), so what must
hold is which cards (or how many) each zone holds."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import cardcore
from cardcore.cards import card_str
from cardcore.registry import game_class, new_game
from invariants import all_configs, composition, config_id, hidden_twin

QUICK_SEEDS = 3
SLOW_SEEDS = 8


def player_configs() -> list[tuple[str, dict[str, Any]]]:
    """Every game at every player count it takes (default options), then the conformance
    configurations, each once (a conformance configuration that is only a player count would
    replay the very same matches twice)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name in cardcore.available_games():
        cls = game_class(name)
        out += [(name, {"players": n}) for n in range(cls.min_players, cls.max_players + 1)]
    return out + [c for c in all_configs() if c not in out]


CONFIGS = player_configs()


class Replay:
    """A seat's zones as a UI keeps them: from one view, moved by the events' moves."""

    def __init__(self, game: Any, seat: int | None, zones: dict[str, Any]) -> None:
        self.game, self.seat = game, seat
        self.zones = {z: self.entry(v) for z, v in zones.items()}

    @staticmethod
    def entry(value: Any) -> tuple[Counter[str] | None, int]:
        if isinstance(value, dict):
            return None, value["count"]
        return Counter(value), len(value)

    def apply(self, move: dict[str, Any]) -> None:
        assert set(move) in ({"from", "to", "cards"}, {"from", "to", "count"}), move
        n = len(move["cards"]) if "cards" in move else move["count"]
        assert n > 0, move
        seen, count = self.zones.get(move["from"], (None, 0))
        assert count >= n, (self.seat, move)
        if seen is not None:
            assert "cards" in move, (self.seat, move)          # it sees the source: named
            missing = Counter(move["cards"]) - seen
            assert not missing, (self.seat, move, missing)
            seen = seen - Counter(move["cards"])
        self.zones[move["from"]] = (seen, count - n)
        target = move["to"]
        if target not in self.zones:
            visible = self.game._zone_table().sees(target, self.seat)
            self.zones[target] = (Counter() if visible else None, 0)
        seen, count = self.zones[target]
        if seen is not None:
            assert "cards" in move, (self.seat, move)          # it sees the target: named
            seen = seen + Counter(move["cards"])
        self.zones[target] = (seen, count + n)

    def check(self, zones: dict[str, Any]) -> None:
        now = {z: self.entry(v) for z, v in zones.items()}
        for zone in set(now) | set(self.zones):
            have = self.zones.get(zone, (None, 0))
            want = now.get(zone, (None, 0))
            if have[1] == 0 and want[1] == 0:
                continue                                   # an emptied zone made in play
            assert have[1] == want[1], (self.seat, zone, have, want)
            if want[0] is not None or have[0] is not None:
                assert same_cards(have[0], want[0]), (self.seat, zone, have, want)


def same_cards(a: Counter[str] | None, b: Counter[str] | None) -> bool:
    """``a == b``, at dict speed for two Counters: these hold no zero count (made from lists,
    or by Counter's + and -, which drop them), so their dict equality is Counter equality."""
    if a is None or b is None:
        return a is b
    return dict.__eq__(a, b)


def zone_ids(game: Any) -> set[str]:
    return {z["id"] for z in game.zones_of(game.num_players, **game.options)}


def check_cards(game: Any, view: dict[str, Any]) -> None:
    """The spectator's zones hold the whole deck; its named cards are public zones'."""
    total = sum(len(v) if isinstance(v, list) else v["count"] for v in view["zones"].values())
    assert total == len(composition(game))


def play_and_replay(name: str, kwargs: dict[str, Any], seed: int, limit: int) -> Any:
    game = new_game(name, seed=seed, **kwargs)
    seats: list[int | None] = [*range(game.num_players), None]
    declared = zone_ids(game)
    announced: set[str] = set()
    table = game._zone_table()

    # The first deal: a full deck zone and the deal's moves give the first views.
    zones_now: dict[int | None, dict[str, Any]] = {}   # each seat's view's zones, read once
    for seat in seats:
        deck = {z: ([] if table.sees(z, seat) else {"count": 0}) for z in declared}
        full = len(composition(game))
        deck[game.deck_zone] = ({"count": full} if not table.sees(game.deck_zone, seat)
                                else [card_str(c) for c in composition(game)])
        replay = Replay(game, seat, deck)
        for event in game.events(seat):
            for move in event["moves"]:
                replay.apply(move)
        zones_now[seat] = game.view(seat)["zones"]
        replay.check(zones_now[seat])

    replays = {s: Replay(game, s, zones_now[s]) for s in seats}
    seen = len(game.events(None))
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over:
            break
        actor = game.current_player
        actions = game.legal_actions()
        action = actions[rng.randrange(len(actions))]
        promised = action.moves
        before = zones_now[actor]                      # read after the last move: the same
        game.apply(action)
        for seat in seats:
            events = game.events(seat, since=seen)
            for event in events:
                for zone in event.get("new_zones", []):
                    assert zone["id"] not in declared
                    announced.add(zone["id"])
                for move in event["moves"]:
                    assert move["from"] in declared | announced, move
                    assert move["to"] in declared | announced, move
                    replays[seat].apply(move)
            view = game.view(seat)
            zones_now[seat] = view["zones"]
            assert set(view["zones"]) <= declared | announced
            assert declared <= set(view["zones"])
            replays[seat].check(view["zones"])
            if seat == actor:
                check_promised(promised, events, before)
        # seats ends with None: view and events are the spectator's, read once per step
        check_cards(game, view)
        assert {z["id"] for z in game.zones} == set(view["zones"])
        seen += len(events)
    return game


def check_promised(promised: list[dict[str, Any]], events: list[dict[str, Any]],
                   before: dict[str, Any]) -> None:
    """An action's moves are its event's, then moves of the automatic events after it (the
    cards it carries on: a bout's cards to the discard pile), each as known before."""
    at = next(i for i, e in enumerate(events) if not e.get("auto"))
    own = [known_before(m, before) for m in events[at]["moves"]]
    assert promised[:len(own)] == own
    later = [known_before(m, before) for e in events[at + 1:] if e.get("auto")
             for m in e["moves"]]
    for move in promised[len(own):]:
        assert move in later, (move, later)
        later = later[later.index(move) + 1:]


def known_before(move: dict[str, Any], zones: dict[str, Any]) -> dict[str, Any]:
    """An event's move as the acting seat knew it before acting: cards from a zone it did
    not see are counted."""
    if "cards" in move and not isinstance(zones.get(move["from"], []), list):
        return {"from": move["from"], "to": move["to"], "count": len(move["cards"])}
    return move


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@pytest.mark.parametrize("seed", range(QUICK_SEEDS))
def test_moves_replay_every_seats_zones(config, seed):
    name, kwargs = config
    play_and_replay(name, kwargs, seed, limit=400)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@pytest.mark.parametrize("seed", range(QUICK_SEEDS, QUICK_SEEDS + SLOW_SEEDS))
def test_moves_replay_whole_matches(config, seed):
    name, kwargs = config
    play_and_replay(name, kwargs, seed, limit=3000)


def where_cards_go(name: str, kwargs: dict[str, Any], seed: int, limit: int,
                   per_step: int | None = None) -> int:
    """Random playouts: every legal action with cards says where they go (issue 48: the
    card that ended a Durak bout had no moves, so the web table greyed it out); its moves,
    applied to the acting seat's view with the step's other moves (draws), give the next
    view. `per_step` checks only that many of a step's actions (a seeded sample): a
    Kuzanasta or Manna turn offers hundreds of melds, and whole matches are for reaching the
    late phases, which a sample covers. Returns how many actions with cards were checked."""
    game = new_game(name, seed=seed, **kwargs)
    rng = random.Random(seed)
    checked = 0
    for _ in range(limit):
        if game.is_over:
            break
        actor = game.current_player
        view = game.view(actor)["zones"]
        hand = view[f"hand:{actor}"]              # a seat sees its own hand: a list
        actions = game.legal_actions()
        with_cards = [a for a in actions if a.cards]
        if per_step is not None and len(with_cards) > per_step:
            with_cards = rng.sample(with_cards, per_step)
        for action in with_cards:
            checked += 1
            if not action.moves:
                # Only an action whose cards stay put may move none now: Durak's take names
                # the table it takes when the bout ends (DU-6.2); a take that ends the bout,
                # or the hand, moves them.
                after = game.clone()
                after.apply(action)
                assert not any(c in hand for c in action.cards), action.to_dict()
                assert after.state.round_index == game.state.round_index, action.to_dict()
                assert (Counter(after.view(actor)["zones"]["table"])
                        >= Counter(action.cards)), (name, seed, action.to_dict())
        action = actions[rng.randrange(len(actions))]
        promised, round_index, seen = action.moves, game.state.round_index, game.event_count()
        game.apply(action)
        if game.state.round_index != round_index or game.is_over:
            continue                                   # the next view is a new deal's
        # the step's moves as the actor's events name them (a drawn card to its drawer),
        # each matched with the promise made before, as the actor then knew it
        rest = [m for e in game.events(actor, since=seen) for m in e["moves"]]
        replay = Replay(game, actor, view)
        for move in promised:
            told = next(m for m in rest if known_before(m, view) == move)
            replay.apply(told)
            rest.remove(told)
        for move in rest:
            replay.apply(move)
        replay.check(game.view(actor)["zones"])
    return checked


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_action_with_cards_says_where_they_go(config):
    name, kwargs = config
    assert sum(where_cards_go(name, kwargs, seed, limit=300) for seed in range(2))


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_action_with_cards_says_where_they_go_whole_matches(config):
    name, kwargs = config
    for seed in range(2, 8):
        assert where_cards_go(name, kwargs, seed, limit=3000, per_step=12)


@pytest.mark.parametrize("name", cardcore.available_games())
def test_zones_of_are_the_kernels_zones(name):
    cls = game_class(name)
    for players in range(cls.min_players, cls.max_players + 1):
        zones = cls.zones_of(players)
        ids = [z["id"] for z in zones]
        assert len(ids) == len(set(ids))
        assert cls.deck_zone in ids
        game = new_game(name, players=players, seed=1)
        kernel = {n: (scope, k) for n, scope, k, _ in game._state.zones()}
        for zone in zones:
            laid_out = zone["kind"] in cls.zone_layouts
            assert set(zone) == {"id", "kind", "owner", "team", "label"} | (
                {"layout"} if laid_out else set())
            assert zone.get("layout") == cls.zone_layouts.get(zone["kind"])
            assert zone["label"] == cls.zone_labels[zone["kind"]]
            scope, instances = kernel[zone["kind"]]
            if scope == "shared":
                assert zone["id"] == zone["kind"]
            else:
                kind, index = zone["id"].split(":")
                assert kind == zone["kind"] and 0 <= int(index) < instances
                if scope == "seat":
                    assert zone["owner"] == int(index)
        split = set(cls.split_zones)
        assert {z["kind"] for z in zones} == set(kernel) - split
        assert cls.zones_of(players) == zones                    # stable


@pytest.mark.parametrize("name", cardcore.available_games())
def test_views_give_the_slots_of_zones_laid_out_in_pairs(name):
    """A zone laid out in pairs (Game.zone_layouts): every view that sees it has its slots,
    whose cards, each followed by its cover, are the zone's cards; no layout, no slots."""
    cls = game_class(name)
    game = new_game(name, seed=5)
    rng = random.Random(5)
    laid_out = [z["id"] for z in game.zones if "layout" in z]
    assert bool(laid_out) == bool(cls.zone_layouts)
    for _ in range(300):
        if game.is_over:
            break
        for seat in (None, *range(game.num_players)):
            view = game.view(seat)
            if not laid_out:
                assert "slots" not in view
                continue
            for zone in laid_out:
                if not isinstance(view["zones"][zone], list):
                    assert zone not in view["slots"]
                    continue
                slots = view["slots"][zone]
                assert [c for s in slots for c in (s["card"], s["cover"]) if c] \
                    == view["zones"][zone]
                assert all(s["open"] == (s["cover"] is None) for s in slots)
        ids = game.legal_action_ids()
        game.apply(ids[rng.randrange(len(ids))])


def test_manna_melds_are_zones_announced_by_their_events():
    game = new_game("manna", seed=3, hands=1)
    rng = random.Random(3)
    while not any(z["kind"] == "meld" for z in game.zones):
        ids = game.legal_action_ids()
        game.apply(ids[rng.randrange(len(ids))])
    meld = next(z for z in game.zones if z["kind"] == "meld")
    team, number = map(int, meld["id"].split(":")[1:])
    assert meld == {"id": f"meld:{team}:{number}", "kind": "meld", "owner": None,
                    "team": team, "label": "meld"}
    melds = game.state.melds(team)
    assert game.view(None)["zones"][meld["id"]] == [card_str(c) for c in melds[number][1]]
    announcing = [e for e in game.events(None) if meld in e.get("new_zones", [])]
    assert announcing and {"to": meld["id"]}.items() <= announcing[-1]["moves"][0].items() \
        or any(m["to"] == meld["id"] for m in announcing[-1]["moves"])


@pytest.mark.parametrize("name", cardcore.available_games())
def test_spectator_view_names_only_public_cards(name):
    game = new_game(name, seed=5)
    view = game.view(None)
    assert view["player"] is None and view["hand"] is None and view["legal_actions"] == []
    table = game._zone_table()
    for zone, cards in view["zones"].items():
        assert isinstance(cards, list) == table.sees(zone, None)
    check_cards(game, view)


def test_draw_from_the_stock_is_a_count():
    game = new_game("crazy_eights", seed=1, players=2)
    draw = next(a for a in game.legal_actions() if a.kind == "draw")
    seat = game.current_player
    assert draw.moves == [{"from": "stock", "to": f"hand:{seat}", "count": 1}]
    assert draw.to_dict()["moves"] == draw.moves


@pytest.mark.parametrize("name", cardcore.available_games())
@pytest.mark.parametrize("trial", range(3))
def test_moves_show_no_hidden_card(name, trial):
    """Two deals that differ only in cards the seat to move cannot see: while its view is
    the same in both, so are its actions' moves and its events' moves."""
    game, twin, seat = hidden_twin(name, seed=trial, trial=trial)
    rng = random.Random(trial)
    for _ in range(60):
        if game.view(seat) != twin.view(seat) or game.is_over:
            break
        if game.current_player == seat:
            assert [a.moves for a in game.legal_actions()] == \
                [a.moves for a in twin.legal_actions()]
        assert game.events(seat) == twin.events(seat)
        common = sorted(set(game.legal_action_ids()) & set(twin.legal_action_ids()))
        if not common:
            break
        action = rng.choice(common)
        game.apply(action)
        twin.apply(action)


def test_actions_read_moves_of_their_own_position():
    game = new_game("kings_stakes", seed=2)
    actions = game.legal_actions()
    game.apply(actions[0])
    assert actions[0].moves                     # read after the game moved on: its position's
    assert actions[-1].moves == new_game("kings_stakes", seed=2).legal_actions()[-1].moves


def test_moves_of_a_position_are_made_once_for_every_read(monkeypatch):
    """Issue 46, item 3: the legal actions' moves are made once per position; another
    legal_actions() there (a seat's second socket, a GET) reads them, equal and unshared."""
    import cardcore.game as game_module
    made = []
    moves_for = game_module.action_moves_for
    monkeypatch.setattr(game_module, "action_moves_for",
                        lambda *a, **k: made.append(a[2]) or moves_for(*a, **k))
    game = new_game("kings_stakes", seed=2)
    first = [a.moves for a in game.legal_actions()]
    assert len(made) == len(first) > 1
    again = game.legal_actions()
    assert [a.moves for a in again] == first and len(made) == len(first)
    again[0].moves[0]["from"] = "changed"           # a reader's copy: the next is intact
    assert game.legal_actions()[0].moves == first[0]
    game.apply(again[0])
    assert [a.moves for a in game.legal_actions()] and len(made) > len(first)


def test_a_pickled_action_keeps_its_moves():
    import pickle
    game = new_game("manna", seed=4)
    action = game.legal_actions()[0]
    copy = pickle.loads(pickle.dumps(action))       # before its moves were read
    assert copy == action and copy.moves == action.moves
    assert copy.moves == [{"from": "stock", "to": f"hand:{action.player}", "count": 2}]


def test_a_clone_reads_moves_of_its_own_position():
    game = new_game("kings_stakes", seed=6)
    first = game.legal_actions()
    assert first[0].moves
    twin = game.clone()
    game.apply(first[0])
    mine = twin.legal_actions()
    assert [a.moves for a in mine] == [a.moves for a in first]


def test_multiset_minus_matches_copies_one_for_one() -> None:
    """Both paths of multiset_minus (no copies: a set test; copies: counted) remove one
    card of ``a`` per matching card of ``b``, in ``a``'s order, whatever the input type."""
    from cardcore.zones import multiset_minus

    def counted(a: list[int], b: list[int]) -> list[int]:
        left, out = Counter(b), []
        for card in a:
            if left[card]:
                left[card] -= 1
            else:
                out.append(card)
        return out

    rng = random.Random(3)
    for _ in range(3000):
        a = [rng.randrange(10) for _ in range(rng.randrange(9))]
        b = [rng.randrange(10) for _ in range(rng.randrange(9))]
        assert multiset_minus(a, b) == counted(a, b)
        assert multiset_minus(bytes(a), iter(b)) == counted(a, b)
    assert multiset_minus([5, 5, 7], [5]) == [5, 7]
    assert multiset_minus([1, 2, 3], [2]) == [1, 3]


def declared_and_narrated(name, narrator, options, seeds, monkeypatch, kind_of):
    """Every position of ``seeds`` random matches of ``name``: each legal action's declared
    moves (``Narrator.declared_moves``) against applying it on a copy and narrating it (the
    game's ``narrator`` class told to declare nothing). Returns (declared, narrated, the
    kinds ``kind_of(game, action_id, said)`` named)."""
    from cardcore import events as ev
    declared = fallback = 0
    said_kinds: set[str] = set()
    for seed in range(seeds):
        game = new_game(name, seed=seed, **options)
        rng = random.Random(seed)
        while not game.is_over:
            state = game._state
            for action_id in game.legal_action_ids():
                said = game._action_narrator().declared_moves(state, action_id,
                                                              state.current_player)
                if said is None:
                    fallback += 1
                    continue
                declared += 1
                said_kinds.update(kind_of(game, action_id, said))
                with monkeypatch.context() as m:
                    m.setattr(narrator, "declared_moves", lambda *a: None)
                    assert said == ev.action_moves_for(game, state, action_id), \
                        (seed, game._specs[action_id].label)
            game.apply(rng.choice(game.legal_action_ids()))
    return declared, fallback, said_kinds


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3}, {"players": 4},
                                     {"players": 4, "teams": True}, {"players": 5},
                                     {"players": 6}, {"players": 3, "refill": "manual"}],
                         ids=str)
def test_declared_moves_equal_the_narrated_ones(options, monkeypatch):
    """A game that says an action's moves from the position (``Narrator.declared_moves``,
    Kings' Stakes: takes, plain plays, jokers and lone kings before anyone is out, KS-5.3's
    clearing included) says exactly what applying it on a copy and narrating it finds, at
    every position of whole random matches."""
    from cardcore.games.kings_stakes.events import KingsStakesNarrator

    def kinds(game, action_id, said):
        return ((["joker"] if "JK" in game._specs[action_id].cards else [])
                + (["cleared"] if any(m[1] == "discard" for m in said) else []))
    declared, fallback, said_kinds = declared_and_narrated(
        "kings_stakes", KingsStakesNarrator, options, 4, monkeypatch, kinds)
    assert declared > 2 * fallback            # most actions are said, not narrated
    assert said_kinds == {"joker", "cleared"}    # jokers' plays and KS-5.3's clearing said


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 5},
                                     {"players": 4, "use_special_cards": True},
                                     {"players": 3, "use_special_cards": True, "reshuffle": True},
                                     {"players": 2, "reshuffle": True, "max_draw_cards": 1},
                                     {"players": 4, "max_turns": 12}], ids=str)
def test_crazy_eights_declared_moves_equal_the_narrated_ones(options, monkeypatch):
    """Crazy Eights says the moves of its plays, draws, passes and nominations from the
    position (``Narrator.declared_moves``) exactly as applying each on a copy and narrating
    it finds, at every position of whole random matches; what may end the hand or reshuffle
    (CE-6.1, CE-7) is narrated."""
    from cardcore.games.crazy_eights.events import CrazyEightsNarrator
    declared, fallback, said_kinds = declared_and_narrated(
        "crazy_eights", CrazyEightsNarrator, options, 6, monkeypatch,
        lambda game, action_id, said: [game._specs[action_id].kind])
    assert declared > fallback                # most actions are said, not narrated
    assert {"play", "draw"} <= said_kinds
