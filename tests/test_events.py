"""Game.events (api.md "Additions in 0.2"): one event per action and automatic happening, per
seat, hidden cards counted never named, scoring breakdowns that add up to the engine's scores;
and stacked-deck pairs proving a seat's events never reveal more than its view."""
from __future__ import annotations

import collections
import json
import random

import pytest

from cardcore import new_game
from cardcore.cards import card_id, card_str
from cardcore.games.manna.events import card_points as manna_points

from invariants import all_configs, config_id, random_steps

CONFIGS = all_configs()


def played(config, seed, limit=4000):
    name, kwargs = config
    game = new_game(name, seed=seed, **kwargs)
    for i, _ in enumerate(random_steps(game, random.Random(seed))):
        if i >= limit:
            break
    return game


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_events_are_indexed_json_and_one_per_action(config):
    game = played(config, 1)
    log = json.loads(game.to_json())["actions"]
    for seat in [None] + list(range(game.num_players)):
        events = game.events(seat)
        json.dumps(events)
        assert [e["n"] for e in events] == list(range(len(events)))
        assert all({"n", "kind", "player", "cards"} <= set(e) for e in events)
        actions = [e for e in events if not e.get("auto")]
        assert len(actions) == len(log)                   # exactly one event per action
        assert [e["player"] for e in actions] == [e["player"] for e in game.events(None)
                                                 if not e.get("auto")]
        for e in actions:
            if e["id"] is not None:                       # None: a God draw seen by others
                assert e["action"] == game.action_from_id(e["id"]).label
        # since= is a suffix of the full list, with the same n
        assert game.events(seat, since=5) == events[5:]
    mine = [e["id"] for e in game.events(0) if not e.get("auto") and e["player"] == 0]
    assert mine == [a for a, e in zip(log, [e for e in game.events(None) if not e.get("auto")])
                    if e["player"] == 0]
    assert game.events(None)[-1]["kind"] == "match_end" if game.is_over else True


def test_events_arguments_are_checked():
    game = new_game("kings_stakes", seed=1)
    for bad in (-1, 4, "0", 1.0, True):
        with pytest.raises(ValueError):
            game.events(bad)
    for bad in (-1, "3", 2.5, None):
        with pytest.raises(ValueError):
            game.events(0, since=bad)


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_spectator_and_seats_see_only_their_own_cards(config):
    game = played(config, 2)
    spectator = game.events(None)
    for e in spectator:
        if e["kind"] in ("dealt", "foot_dealt", "set_aside", "draw", "foot"):
            assert e["cards"] == [] and e["hidden"] > 0
        if e["kind"] in ("draw_stock", "god_draw") and e["cards"] == []:
            assert e.get("hidden", 0) >= 0
    for seat in range(game.num_players):
        for e in game.events(seat):
            if e["kind"] in ("dealt", "draw", "foot", "draw_stock", "god_draw"):
                named = bool(e["cards"])
                assert named == (e["player"] == seat) or not (e["cards"] or e.get("hidden"))
            if e["kind"] in ("foot_dealt", "set_aside"):
                assert e["cards"] == []


def test_the_first_deal_events_are_the_view():
    for name in ("kings_stakes", "kuzanasta", "manna"):
        game = new_game(name, seed=5)
        for seat in range(game.num_players):
            dealt = [e for e in game.events(seat) if e["kind"] == "dealt" and e["player"] == seat]
            assert sorted(dealt[0]["cards"]) == sorted(game.view(seat)["hand"])
        assert game._narration is not None


def test_the_fast_path_never_narrates():
    game = new_game("manna", seed=3)
    ids, apply = game.legal_action_ids, game.apply
    for _ in range(300):
        apply(ids()[0])
    assert game._narration is None                       # events are computed lazily
    n = len(game.events())
    assert game._narration.done == 300 and n > 300


def _by(breakdown, key, size):
    sums = [0] * size
    for c in breakdown["components"]:
        sums[c[key]] += c["points"]
        assert c["rule"].split("-")[0] in ("KS", "KZ", "MH")
    return sums


@pytest.mark.parametrize("name,kwargs", [
    ("kings_stakes", {}), ("kings_stakes", {"refill": "manual", "players": 3}),
    ("kings_stakes", {"scoring": "cards", "players": 5}), ("kings_stakes", {"teams": True}),
    ("kuzanasta", {"players": 2, "max_turns": 60}), ("kuzanasta", {"ante": 3}),
    ("manna", {"target": 5000}), ("manna", {"target": 3000, "wild_sevens": True}),
    ("manna", {"target": 3000, "foot_penalty": "cards"}),
    ("manna", {"target": 3000, "wild_sevens": True, "mixed_sevens": "mixed"}),
])
def test_breakdowns_add_up_to_the_scores(name, kwargs):
    """Every end-of-round breakdown's components add up to its totals, and the totals of all
    rounds add up to the final scores (the engine's own figures)."""
    ends = 0
    for seed in range(4):
        game = played((name, kwargs), seed, limit=20000)
        assert game.is_over
        size = 2 if name == "manna" else game.num_players
        summed = [0] * size
        for e in game.events(None):
            if "breakdown" in e:
                b = e["breakdown"]
                assert _by(b, b["by"], size) == b["totals"]
                summed = [x + y for x, y in zip(summed, b["totals"])]
                ends += 1
        if name == "manna":
            assert summed == game._state.team_scores()
        elif name == "kings_stakes":
            assert summed == game._state.player_totals()
        else:
            assert summed == game.scores
    assert ends >= 4


def test_ks_5_3_king_clearing_the_table_is_an_event():
    game = new_game("kings_stakes", seed=0)
    rng = random.Random(0)
    for _ in random_steps(game, rng):
        if any(e["kind"] == "table_cleared" for e in game.events(None)):
            break
    cleared = [e for e in game.events(None) if e["kind"] == "table_cleared"][0]
    before = game.events(None)[cleared["n"] - 1]
    assert before["kind"] == "play" and before["cards"][-1].startswith("K")
    assert cleared["rule"] == "KS-5.3" and before["cards"][-1] in cleared["cards"]


def test_kz_draws_name_the_card_for_the_drawer_only():
    game = new_game("kuzanasta", seed=4, players=3)
    rng = random.Random(4)
    for _ in random_steps(game, rng):
        if game.view(0)["deal"] > 1:
            break
    for e in game.events(1):
        if e["kind"] == "draw_stock" and e["player"] == 1 and e["cards"]:
            assert len(e["cards"]) == 1
        elif e["kind"] == "draw_stock":
            assert e["cards"] == [] and e["hidden"] == 1 or e["player"] == 1
        if e["kind"] == "god_draw" and e["player"] != 1:
            assert e["action"] == "god_draw" and e["id"] is None and e["cards"] == []
        if e["kind"] == "draw_discard":
            assert len(e["cards"]) == 1


def test_mh_6_1_foot_and_mh_2_4_red_threes_are_events():
    kinds = collections.Counter()
    for seed in range(6):
        game = played(("manna", {"target": 5000}), seed, limit=3000)
        for e in game.events(None):
            kinds[e["kind"]] += 1
            if e["kind"] == "red_three":
                assert all(c in ("3D", "3H") for c in e["cards"])
            if e["kind"] == "foot":
                assert e["cards"] == [] and 1 <= e["hidden"] <= 11 + 8   # red threes replaced
    assert kinds["foot"] and kinds["red_three"] and kinds["canasta"] and kinds["hand_end"]


@pytest.mark.parametrize("foot_penalty", ["red_threes", "cards"])
def test_mh_10_hand_end_breakdown_names_every_rule(foot_penalty):
    """MH-10.5 follows the foot_penalty option: an unopened foot's other cards are a component
    (with their rule and the option) only with "cards"."""
    game = played(("manna", {"target": -100000, "foot_penalty": foot_penalty}), 3)
    end = [e for e in game.events(None) if e["kind"] == "hand_end"][0]
    parts = {c["rule"]: c for c in end["breakdown"]["components"] if c["team"] == 0}
    rules = {"MH-10.1, MH-4.5", "MH-10.2", "MH-10.3, MH-8.3", "MH-10.4", "MH-10.5",
             "MH-10.5, MH-8.4"}
    if foot_penalty == "cards":
        rules.add("MH-10.5 (foot_penalty=cards)")
        assert parts["MH-10.5 (foot_penalty=cards)"]["what"] == "other cards in unopened feet"
    assert set(parts) == rules
    assert parts["MH-10.5, MH-8.4"]["what"] == "red threes in unopened feet"
    assert end["breakdown"]["totals"] == end["hand_scores"]


# ------------------------------------------------------------ stacked-deck pairs
def _swap_pairs(game, seat, deck, rng, count, accept=lambda i, j: True):
    hidden = game.hidden_deck_positions(seat)
    pairs = []
    while len(pairs) < count:
        i, j = rng.sample(hidden, 2)
        if deck[i] != deck[j] and accept(i, j):
            pairs.append((i, j))
    return pairs


def _compare_pair(name, kwargs, deck, swapped, seed, policy_seed, steps):
    """Play both games with the same actions (legal in both); while a seat's view has been
    the same in both at every step so far, its events must be the same too. Returns the
    highest round index reached with seat 0's view still equal."""
    a = new_game(name, seed=seed, deck=deck, **kwargs)
    b = new_game(name, seed=seed, deck=swapped, **kwargs)
    seats = list(range(a.num_players))
    equal = {s: a.view(s) == b.view(s) for s in seats}
    assert equal[0]
    seen = {s: 0 for s in seats}
    rng = random.Random(policy_seed)
    reached = 0
    for _ in range(steps):
        for s in seats:
            if equal[s]:
                ea, eb = a.events(s, since=seen[s]), b.events(s, since=seen[s])
                assert ea == eb, (name, s)
                seen[s] += len(ea)
        if not equal[0] or a.is_over:
            break
        reached = max(reached, a._state.round_index)
        common = sorted(set(a.legal_action_ids()) & set(b.legal_action_ids()))
        if not common:
            break
        if name == "kuzanasta":                    # going out shows a hand: keep it for last
            quiet = [i for i in common if i < 161]
            common = quiet or common
        action = rng.choice(common)
        a.apply(action)
        b.apply(action)
        for s in seats:
            equal[s] = equal[s] and a.view(s) == b.view(s)
    return reached


@pytest.mark.parametrize("name,kwargs,steps", [
    ("kings_stakes", {"players": 4, "rounds": 8}, 600),
    ("kings_stakes", {"players": 3, "refill": "manual", "rounds": 6}, 600),
    ("kuzanasta", {"players": 2, "max_turns": 30, "deals": 5}, 500),
    ("kuzanasta", {"players": 4, "max_turns": 24, "deals": 5, "ante": 1}, 500),
    ("manna", {"target": 100000, "dealer": 5}, 700),
])
def test_stacked_deck_pairs_show_events_reveal_no_more_than_the_view(name, kwargs, steps):
    probe = new_game(name, seed=1, **kwargs)
    composition = [card_str(c) for c in probe.deck_for(probe.num_players, probe.options)]
    rng = random.Random(17)
    deck = rng.sample(composition, len(composition))
    game = new_game(name, seed=1, deck=deck, **kwargs)
    feet = range(78, 144)

    def accept(i: int, j: int) -> bool:
        if name != "manna":
            return True
        # Feet of seats 1-5 (seat 0 might pick its own up), cards of equal points: the hand
        # scores stay equal, so the only difference is one seat 0 cannot see.
        return bool(i in feet and j in feet and (i - 78) % 6 and (j - 78) % 6
                    and manna_points(card_id(deck[i])) == manna_points(card_id(deck[j]))
                    and deck[i] not in ("3D", "3H") and deck[j] not in ("3D", "3H"))
    past_first_deal = 0
    for k, (i, j) in enumerate(_swap_pairs(game, 0, deck, rng, 8, accept)):
        swapped = list(deck)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        if _compare_pair(name, kwargs, deck, swapped, 1, k, steps) >= 1:
            past_first_deal += 1
    assert past_first_deal >= 2


# ------------------------------------------------------------ Manna hand ends, by scenario
def _hand_end_breakdown(game, player, action):
    """The narrator's hand-end event for ``action`` applied to the position now (set with
    ``_set_position``, which the action log cannot replay, so the narrator is called directly)."""
    from cardcore.games.manna.events import MannaNarrator
    pre = game._state.clone()
    game.apply(action)
    raw = MannaNarrator(game).round_end(pre, action, player, game._state)[0]
    return raw.public, game._state.last_hand_scores()


@pytest.mark.parametrize("case", ["meld", "out", "take", "draw_then_meld"])
def test_mh_9_2_mh_10_breakdowns_of_every_way_a_hand_ends(case):
    from manna_helpers import DRAW, TAKE_PAIR, game_with, go_out, meld, position
    four_types = ([["4C"] * 7, ["5C"] * 5 + ["JK", "JK"], ["JK"] * 7, ["7C"] * 7])
    g = game_with(dealer=0)
    if case == "meld":                                # MH-9.2: melding every card
        position(g, 1, ["9C", "9D", "9S"], melds1=four_types, opened1=True, foot_taken=True)
        action = meld("9", True, 3)
    elif case == "out":                               # MH-9.2: the last card discarded
        position(g, 1, ["5H"], melds1=four_types, opened1=True, foot_taken=True,
                 melds0=[["KC", "KD", "KH"]])
        action = go_out("5H")
    elif case == "take":                              # MH-9.2: a take melds the last cards
        position(g, 1, ["9C", "9D"], stage=0, pile=["3H", "9H"], melds1=four_types,
                 opened1=True, foot_taken=True)
        action = TAKE_PAIR
    else:                                             # red threes drawn, the last seven melded
        position(g, 1, ["7S"], stage=0, opened1=True, stock=["3H", "3D"], foot_taken=True,
                 melds1=four_types + [["7D", "7D", "7H"]])
        g.apply(DRAW)
        action = meld("7", False, 1)
    assert action in g.legal_action_ids(), case
    event, totals = _hand_end_breakdown(g, 1, action)
    b = event["breakdown"]
    assert b["totals"] == totals and event["went_out"] == 1
    for team in range(2):
        parts = {c["rule"]: c["points"] for c in b["components"] if c["team"] == team}
        assert sum(parts.values()) == totals[team]
    going_out = {c["team"]: c["points"] for c in b["components"] if c["rule"] == "MH-10.4"}
    assert going_out == {0: 0, 1: 100}
    ones = {c["rule"]: c["points"] for c in b["components"] if c["team"] == 1}
    assert ones["MH-10.1, MH-4.5"] == 500 + 300 + 1000 + 1500


def test_action_log_is_the_saved_log_and_checks_since():
    game = new_game("kuzanasta", seed=12)
    for _ in range(25):
        game.apply(game.legal_action_ids()[-1])
    log = game.action_log()
    assert log == json.loads(game.to_json())["actions"] and len(log) == 25
    assert game.action_log(20) == log[20:] and game.action_log(99) == []
    log.append(0)                                     # a copy: the game's log is untouched
    assert len(game.action_log()) == 25
    for bad in (-1, "3", 1.0, None):
        with pytest.raises(ValueError, match="since"):
            game.action_log(bad)
