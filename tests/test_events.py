"""Game.events (api.md "Additions in 0.2"): one event per action and automatic happening, per
seat, hidden cards counted never named, scoring breakdowns that add up to the engine's scores;
and stacked-deck pairs proving a seat's events never reveal more than its view."""
from __future__ import annotations

import collections
import json

import pytest

import cardcore
from cardcore import new_game

from invariants import all_configs, config_id, played

CONFIGS = all_configs()


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
        # until= ends a page: since..until-1, the same events (a server's bounded read)
        assert game.events(seat, since=2, until=7) == events[2:7]
        assert game.events(seat, since=3, until=3) == []
    mine = [e["id"] for e in game.events(0) if not e.get("auto") and e["player"] == 0]
    assert mine == [a for a, e in zip(log, [e for e in game.events(None) if not e.get("auto")])
                    if e["player"] == 0]
    assert game.events(None)[-1]["kind"] == "match_end" if game.is_over else True


def test_events_arguments_are_checked():
    game = new_game(cardcore.available_games()[0], seed=1, players=4)
    for bad in (-1, 4, "0", 1.0, True):
        with pytest.raises(ValueError):
            game.events(bad)
    for bad in (-1, "3", 2.5, None):
        with pytest.raises(ValueError):
            game.events(0, since=bad)
    for bad in (-1, 1, "3", 2.5):
        with pytest.raises(ValueError, match="until"):
            game.events(0, since=2, until=bad)


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_spectator_and_seats_see_only_their_own_cards(config):
    """Every seat is told how many cards an event moved; the spectator is named only the
    public ones, which every seat is named too; a seat that is named more than the spectator
    is one the kernel's zones let see them (the event's player, for the cards it drew)."""
    game = played(config, 2)
    spectator = game.events(None)
    views = [game.events(seat) for seat in range(game.num_players)]
    for n, public in enumerate(spectator):
        size = len(public["cards"]) + public.get("hidden", 0)
        for seat, events in enumerate(views):
            e = events[n]
            assert len(e["cards"]) + e.get("hidden", 0) == size, (n, seat)
            assert collections.Counter(public["cards"]) <= collections.Counter(e["cards"])
            if e["cards"] != public["cards"] and e["kind"] != "match_end":
                assert e["player"] == seat, (e, seat)
        if public.get("id") is None and not public.get("auto"):
            assert public["action"] == public["kind"]          # a private notation


def test_the_first_deal_events_are_the_view():
    for name in cardcore.available_games():
        game = new_game(name, seed=5)
        for seat in range(game.num_players):
            dealt = [e for e in game.events(seat) if e["kind"] == "dealt" and e["player"] == seat]
            assert sorted(dealt[0]["cards"]) == sorted(game.view(seat)["hand"])
        assert game._narration is not None


@pytest.mark.parametrize("name", cardcore.available_games())
def test_the_fast_path_never_narrates(name):
    game = new_game(name, seed=3)
    ids, apply = game.legal_action_ids, game.apply
    applied = 0
    while applied < 60 and not game.is_over:
        apply(ids()[0])
        applied += 1
    assert game._narration is None                       # events are computed lazily
    n = len(game.events())
    assert game._narration.done == applied and n > applied


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_breakdowns_are_the_kernels_rows_and_add_up(config):
    """Every round-end event has a breakdown whose components (the kernel's own scoring rows)
    add up to its totals, cite the game's rules, and whose totals equal the round's change of
    the game's standing (``returns`` for a seat game, its side's for a team game)."""
    name, kwargs = config
    cls = cardcore.registry.game_class(name)
    game = played(config, 3, limit=3000)
    ends = [e for e in game.events(None) if e["kind"] == cls.round_end_event]
    assert ends or not game._state.round_index
    for e in ends:
        b = e["breakdown"]
        teams = len(set(cls.sides_of(game.num_players, game.options))) < game.num_players
        assert b["by"] == ("team" if teams else cls.narrator.breakdown_by)
        sums = [0] * len(b["totals"])
        for c in b["components"]:
            sums[c[b["by"]]] += c["points"]
            assert c["rule"].startswith(f"{cls.rule_prefix}-") and c["what"]
        assert sums == b["totals"]


def test_action_log_is_the_saved_log_and_checks_since():
    game = new_game(cardcore.available_games()[0], seed=12)
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


@pytest.mark.parametrize("name", cardcore.available_games())
def test_event_count_is_the_length_of_every_seats_events(name: str) -> None:
    """Game.event_count: what a host counts events with (the server, after each move)
    without rendering any; the same number as each seat's and a spectator's stream."""
    import random
    game = new_game(name, seed=7)
    rng = random.Random(7)
    counts = [game.event_count()]
    for _ in range(40):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        counts.append(game.event_count())
        for seat in (None, *range(game.num_players)):
            assert game.event_count() == len(game.events(seat))
    assert counts == sorted(counts) and counts[-1] > counts[0]
