"""One policy protocol (issue 47, item 5; cardcore.policy; docs/bots.md "The policy protocol",
docs/rl.md "VectorGame"): ``choose_many(decisions)`` plays VectorGame opponents, plug-ins in
play, serve, simulate and tournament; factories are told ``players=`` and ``options=`` and may
refuse; the old forms work through a deprecated adapter; VectorGame's calls per step counted
exactly."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, new_game
from cardcore.bots import PluginBot, make_bot, register, unregister
from cardcore.policy import BatchPolicy, Decisions, LegacyPolicy, batch_policy, decisions_of
from cardcore.registry import game_class
from cardcore.simulation import simulate
from cardcore.tournament import tournament
from cardcore.vector import VectorGame

TWO_PLAYER = [g for g in cardcore.available_games() if game_class(g).min_players <= 2]


class FirstLegal:
    """The protocol: the lowest legal id of each row; records each call's batch."""

    def __init__(self, read_observations: bool = False) -> None:
        self.read_observations = read_observations
        self.calls: list[Decisions] = []
        self.shown: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def choose_many(self, decisions: Decisions) -> np.ndarray:
        self.calls.append(decisions)
        obs = decisions.observations.copy() if self.read_observations else None
        self.shown.append((obs, decisions.masks.copy(), decisions.seats.copy()))
        return decisions.masks.argmax(axis=1)


def first_legal_callable(observations, masks, seats):
    return masks.argmax(axis=1)


class OldBatched:
    """The 0.4 plug-in form: choose_many(observations, masks)."""

    def choose_many(self, observations, masks):
        return masks.argmax(axis=1)


# ------------------------------------------------------------------ factories (top level: they pickle)
TOLD: list[tuple[str, object, object]] = []


def told(game_name, seed=None, players=None, options=None):
    """A current-form factory: records what it is told, returns a batched-only policy."""
    TOLD.append((game_name, players, dict(options or {})))
    return FirstLegal()


def two_only(game_name, seed=None, players=None, options=None):
    if players is not None and players != 2:
        raise ConfigError(f"twoonly: weights for 2 players, not {players}", "bots")
    return FirstLegal()


def old_factory(game_name, seed=None):
    return OldBatched()


@pytest.fixture
def factories():
    TOLD.clear()
    names = {"told": told, "twoonly": two_only}
    for name, factory in names.items():
        register(name, factory, replace=True)
    yield names
    for name in names:
        unregister(name)


# ------------------------------------------------------------------ the protocol itself
def test_batch_policy_takes_the_protocol_as_is_and_adapts_the_old_forms_with_a_warning():
    mine = FirstLegal()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert batch_policy(mine) is mine and isinstance(mine, BatchPolicy)
    with pytest.deprecated_call(match="plain callable"):
        adapted = batch_policy(first_legal_callable)
    assert isinstance(adapted, LegacyPolicy) and adapted.with_seats
    with pytest.deprecated_call(match=r"choose_many\(observations, masks\)"):
        old = batch_policy(OldBatched())
    assert isinstance(old, LegacyPolicy) and not old.with_seats
    assert batch_policy("greedy") is None and batch_policy(42) is None
    game = new_game("kings_stakes", seed=3)
    decisions = decisions_of([game])
    assert len(decisions) == 1 and decisions.game == "kings_stakes"
    assert decisions.seats.tolist() == [game.current_player]
    assert np.array_equal(decisions.observations[0], game.observation_tensor(game.current_player))
    assert np.array_equal(decisions.masks[0], game.legal_action_mask())
    expected = int(game.legal_action_mask().argmax())
    assert old.choose_many(decisions)[0] == adapted.choose_many(decisions)[0] == expected


# ------------------------------------------------------------------ VectorGame
@pytest.mark.parametrize("name", TWO_PLAYER)
def test_a_protocol_opponent_plays_as_the_deprecated_callable_did(name):
    new = VectorGame(name, 16, players=2, seed=4, opponents=FirstLegal())
    with pytest.deprecated_call():
        old = VectorGame(name, 16, players=2, seed=4, opponents=first_legal_callable)
    for _ in range(40):
        actions = new.random_actions()
        old.step(actions)
        new.step(actions)
        assert np.array_equal(new.observations(), old.observations())
    assert np.array_equal(new.episode_ids, old.episode_ids)
    assert all(new.game(i).action_log() == old.game(i).action_log() for i in range(16))


def test_observations_are_made_when_read_and_equal_the_movers_view():
    reader, skipper = FirstLegal(read_observations=True), FirstLegal()
    vgs = [VectorGame("durak", 8, players=2, seed=2, opponents=p) for p in (reader, skipper)]
    for _ in range(10):
        actions = vgs[0].random_actions()
        for vg in vgs:
            vg.step(actions)
    for (obs, masks, seats), call in zip(reader.shown, reader.calls):
        assert obs.shape == (len(call), vgs[0].observation_shape[0]) and masks.any(axis=1).all()
    with pytest.raises(RuntimeError, match="during the choose_many call"):
        skipper.calls[-1].observations           # the games have moved on since
    assert [len(c) for c in reader.calls] == [len(c) for c in skipper.calls]
    # a row is the single game's view by its mover: replay the call's games
    policy = FirstLegal(read_observations=True)
    vg = VectorGame("durak", 4, players=2, seed=2, opponents=policy)
    before = [vg.game(i) for i in range(4)]
    policy.shown.clear()
    vg.step(vg.random_actions())
    obs, masks, seats = policy.shown[0]
    assert seats.tolist() == [1] * len(seats)
    rows = {tuple(row) for row in obs}
    assert len(rows) >= 1 and all(len(r) == vg.observation_shape[0] for r in rows)
    assert before and masks.shape[1] == vg.num_distinct_actions


def _policy_runs(vg: VectorGame, before: list[list[int]], policy_seats: set[int]) -> list[int]:
    """Per slot, the policy's decisions in the step just made (from the games' logs)."""
    runs = []
    for i in range(vg.num_games):
        game = vg.game(i)
        log = game.action_log()
        assert log[:len(before[i])] == before[i]
        replay = new_game(vg.name, players=vg.num_players, seed=game.seed, **vg.options)
        count = 0
        for k, action in enumerate(log):
            if k >= len(before[i]) and replay.current_player in policy_seats:
                count += 1
            replay.apply(action)
        runs.append(count)
    return runs


@pytest.mark.parametrize("name", TWO_PLAYER)
def test_the_policy_is_called_once_per_round_exactly(name):
    """Calls per learner step = the longest run of policy decisions in one game of the batch
    (each needs the one before it played), and round r holds every game with r or more:
    counted from the games' own logs, steps that end no episode."""
    policy = FirstLegal()
    vg = VectorGame(name, 12, players=2, seed=7, opponents=policy)
    checked = 0
    for _ in range(60):
        before = [vg.game(i).action_log() for i in range(vg.num_games)]
        ids = vg.episode_ids
        policy.calls.clear()
        vg.step(vg.random_actions())
        if not np.array_equal(vg.episode_ids, ids):
            continue
        runs = _policy_runs(vg, before, {1})
        assert len(policy.calls) == max(runs)
        assert [len(c) for c in policy.calls] == [sum(r > k for r in runs)
                                                  for k in range(max(runs))]
        checked += 1
    assert checked >= 10


def test_kings_stakes_calls_a_policy_at_most_twice_per_step():
    policy = FirstLegal()
    vg = VectorGame("kings_stakes", 256, players=2, seed=1, opponents=policy)
    counts = []
    for _ in range(100):
        policy.calls.clear()
        vg.step(vg.random_actions())
        counts.append(len(policy.calls))
    assert max(counts) == 2


# ------------------------------------------------------------------ plug-ins everywhere
def test_a_batched_only_plug_in_plays_a_game_and_a_vector_game_in_batches(factories):
    bot = make_bot("told", seed=1)
    assert isinstance(bot, PluginBot)
    game = new_game("crazy_eights", players=3, seed=2)
    while not game.is_over:
        choice = bot.choose_id(game)
        assert type(choice) is int and choice == int(game.legal_action_mask().argmax())
        game.apply(choice)
    assert TOLD == [("crazy_eights", 3, dict(game.options))]     # one factory call
    TOLD.clear()
    bot = make_bot("told")
    vg = VectorGame("durak", 32, players=2, seed=3, opponents=bot)
    made = bot.policy
    assert len(TOLD) == 1 and isinstance(made, FirstLegal) and bot.batched is made
    for _ in range(5):
        made.calls.clear()
        vg.step(vg.random_actions())
        assert max(len(c) for c in made.calls) > 1     # a batch per round, not a game a call
    assert len(TOLD) == 1                          # no factory call per step or per game


def test_factories_are_told_players_and_options_in_every_front_end(factories):
    simulate("kings_stakes", 2, players=3, bots=("told", "greedy", "greedy"), seed=1)
    assert ("kings_stakes", 3) in {t[:2] for t in TOLD}
    TOLD.clear()
    tournament("durak", 2, bots="told,greedy", seed=1)
    assert {t[:2] for t in TOLD} == {("durak", 2)}
    TOLD.clear()
    VectorGame("gin_rummy", 4, players=2, opponents="told")
    assert {t[:2] for t in TOLD} == {("gin_rummy", 2)}
    assert TOLD[0][2] == dict(new_game("gin_rummy", players=2, seed=0).options)


@pytest.mark.parametrize("front", ["simulate", "tournament", "vector", "play"])
def test_a_factory_may_refuse_a_configuration_with_a_config_error(factories, front, capsys):
    with pytest.raises(ConfigError, match="weights for 2 players, not 3"):
        if front == "simulate":
            simulate("kings_stakes", 2, players=3, bots=("twoonly", "greedy", "greedy"))
        elif front == "tournament":
            tournament("kings_stakes", 2, players=3, bots="twoonly,greedy")
        elif front == "vector":
            VectorGame("kings_stakes", 4, players=3, opponents="twoonly")
        else:
            from cardcore.cli import main
            code = main(["play", "kings_stakes", "--players", "3", "--bots", "twoonly"])
            err = capsys.readouterr().err
            assert code == 2 and "weights for 2 players, not 3" in err
            raise ConfigError("weights for 2 players, not 3 (said in one line)", "bots")
    assert simulate("kings_stakes", 2, players=2, bots=("twoonly", "greedy"))["games"] == 2


def test_the_server_tells_the_factory_and_refuses_what_it_refuses(factories):
    from cardcore.server.api_errors import ApiError
    from cardcore.server.table_bots import parse_bots
    with pytest.raises(ApiError, match="weights for 2 players, not 3"):
        parse_bots({"1": "twoonly"}, 3, "kings_stakes", ("twoonly",))
    assert parse_bots({"1": "twoonly"}, 2, "kings_stakes", ("twoonly",)) == {1: "twoonly"}
    parse_bots({"1": "told"}, 2, "durak", ("told",), {"trump_card": "bottom"})
    assert TOLD[-1][:2] == ("durak", 2)


def test_an_old_factory_and_an_old_choose_many_still_play_with_warnings():
    with pytest.deprecated_call(match="players= and options="):
        register("oldbatched", old_factory, replace=True)
        bot = make_bot("oldbatched")
    try:
        game = new_game("kings_stakes", seed=5)
        with pytest.deprecated_call(match=r"choose_many\(observations, masks\)"):
            assert bot.choose_id(game) == int(game.legal_action_mask().argmax())
        with pytest.deprecated_call():
            vg = VectorGame("kings_stakes", 8, players=2, opponents="oldbatched")
        vg.step(vg.random_actions())
    finally:
        unregister("oldbatched")


class OldCheck(cardcore.bots.RandomBot):
    """A Bot subclass written for 0.4: ``check_game(self, name)`` without the configuration."""

    checked: list[str] = []

    def check_game(self, name):
        OldCheck.checked.append(name)


def test_a_bot_whose_check_game_takes_only_the_name_is_asked_with_the_name():
    from cardcore.bots.base import check_bot
    OldCheck.checked.clear()
    check_bot(OldCheck(1), "durak", 2, {})
    assert OldCheck.checked == ["durak"]
    with pytest.raises(ConfigError, match="weights for 2 players, not 3"):
        register("twoonly", two_only, replace=True)
        try:
            check_bot(make_bot("twoonly"), "kings_stakes", 3, {})
        finally:
            unregister("twoonly")
    vg = VectorGame("durak", 4, players=2, opponents={1: OldCheck()})
    vg.step(vg.random_actions())
    assert OldCheck.checked[-1] == "durak"


def test_a_batched_only_plug_in_plays_a_served_table_and_is_told_its_configuration(
        factories, tmp_path):
    import time

    from server_helpers import TestClient

    from cardcore.server import create_app
    app = create_app(tmp_path / "t.sqlite3", bots="told,twoonly")
    with TestClient(app) as client:
        refused = client.post("/api/tables", json={"game": "kings_stakes", "players": 3,
                                                   "bots": {"1": "twoonly"}})
        assert refused.status_code == 422 and "weights for 2 players" in refused.json()["error"]
        made = client.post("/api/tables", json={"game": "durak", "seed": 3, "players": 2,
                                                "bots": {"0": "told", "1": "told"}}).json()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            state = client.get(f"/api/tables/{made['table']}").json()
            if state["over"]:
                break
            time.sleep(0.05)
    assert state["over"]
    assert [seat["fallback"] for seat in state["seats"]] == [None, None]    # played by it
    assert ("durak", 2) in {t[:2] for t in TOLD}
