"""Bot plug-ins (cardcore.bots.plugins): register(), the entry-point group cardcore.bots, specs
with the factory's parameters, errors naming the bot, and the example package
examples/bot_plugin installed and played in every front end (the slow part)."""
from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, new_game
from cardcore.bots import (Bot, BotProtocol, PluginBot, available_bots, make_bot,
                           parse_bot_spec, parse_bot_specs, register, unregister)
from cardcore.bots import plugins
from cardcore.simulation import simulate
from cardcore.tournament import tournament

ROOT = Path(__file__).resolve().parent.parent
# The cardcore this run imports (the source tree built in place, or the installed wheel when
# the tests run from a venv), so that subprocesses see the same one.
SRC = str(Path(cardcore.__file__).resolve().parents[1])
EXAMPLE = ROOT / "examples" / "bot_plugin"


# ------------------------------------------------------------------ factories (top level: they pickle)
class FirstMove:
    """Plays the first legal move: a deterministic policy without choose_id or reseed."""

    def __init__(self, game_name, offset=0):
        self.game_name, self.offset = game_name, offset

    def choose_many(self, observations, masks):
        return np.argmax(masks, axis=1)                 # the lowest legal id of each row

    def choose(self, game):
        actions = game.legal_actions()
        return actions[min(self.offset, len(actions) - 1)]


def first_move(game_name, seed=None, offset=0):
    return FirstMove(game_name, offset)


def any_params(game_name, seed=None, **params):
    return FirstMove(game_name, int(params.get("offset", 0)))


def broken(game_name, seed=None):
    raise RuntimeError("weights file is corrupt " + "x" * 500)


def not_a_bot(game_name, seed=None):
    return 42


class Illegal:
    def choose(self, game):
        return 10**6


def illegal(game_name, seed=None):
    return Illegal()


class Crashing:
    def choose(self, game):
        raise KeyError("layer 3")


def crashing(game_name, seed=None):
    return Crashing()


def kings_only(game_name, seed=None):
    if game_name != "kings_stakes":
        raise ValueError(f"no weights for {game_name}")
    return FirstMove(game_name)


@pytest.fixture
def registered():
    names = {"firstmove": first_move, "anyparams": any_params, "broken": broken,
             "notabot": not_a_bot, "illegal": illegal, "kingsonly": kings_only,
             "crashing": crashing}
    for name, factory in names.items():
        register(name, factory, replace=True)
    yield names
    for name in names:
        unregister(name)


# ------------------------------------------------------------------ registering and specs
def test_a_registered_bot_is_made_by_name_and_plays(registered):
    assert set(registered) <= set(available_bots())
    assert available_bots()[:4] == ("random", "greedy", "ismcts", "level")
    bot = make_bot("firstmove", seed=3)
    assert isinstance(bot, PluginBot) and isinstance(bot, Bot)
    game = new_game("kings_stakes", seed=1)
    while not game.is_over:
        game.apply(bot.choose(game))
    assert isinstance(bot.policy, FirstMove) and bot.policy.game_name == "kings_stakes"
    assert isinstance(bot.policy, BotProtocol)
    # The optional batched method is reachable on the wrapper once it has met a game.
    assert not hasattr(make_bot("firstmove"), "choose_many")
    games = [new_game("kings_stakes", seed=s) for s in range(3)]
    masks = np.stack([g.legal_action_mask() for g in games])
    obs = np.stack([g.observation_tensor(g.current_player) for g in games])
    chosen = make_bot("firstmove", game="kings_stakes").choose_many(obs, masks)
    assert list(chosen) == [min(g.legal_action_ids()) for g in games]


def test_a_plug_in_spec_takes_the_factory_parameters(registered):
    spec = parse_bot_spec("FirstMove:offset=1")
    assert str(spec) == "firstmove:offset=1" and spec.params == (("offset", 1),)
    assert make_bot(spec, game="kings_stakes").policy.offset == 1
    assert str(parse_bot_spec("firstmove:seed=4")) == "firstmove:seed=4"
    with pytest.raises(ConfigError, match="firstmove has no parameter 'depth'.*offset"):
        parse_bot_spec("firstmove:depth=3")
    # A factory taking **params takes any name.
    assert make_bot("anyparams:offset=2,path=x.npz", game="crazy_eights").policy.offset == 2
    specs = parse_bot_specs("firstmove:offset=1,greedy,anyparams:a=1,b=two")
    assert [str(s) for s in specs] == ["firstmove:offset=1", "greedy", "anyparams:a=1,b=two"]


def test_register_refuses_built_in_names_bad_names_and_silent_replacement(registered):
    with pytest.raises(ConfigError, match="built-in"):
        register("greedy", first_move)
    for bad in ("", "my bot", "a:b", "1st", "x" * 500, None):
        with pytest.raises(ConfigError) as caught:
            register(bad, first_move)
        assert caught.value.option == "bots" and len(str(caught.value)) < 160
    with pytest.raises(ConfigError, match="callable"):
        register("newbot", 3)
    with pytest.raises(ConfigError, match="replace=True"):
        register("firstmove", any_params)
    register("firstmove", any_params, replace=True)
    assert make_bot("firstmove:whatever=1", game="kings_stakes").policy.offset == 0


@pytest.mark.parametrize("spec, message", [
    ("nosuchbot", "unknown bot 'nosuchbot'; available: random, greedy"),
    ("broken", "bot 'broken' cannot play kings_stakes: RuntimeError: weights file is corrupt"),
    ("notabot", "bot 'notabot': its factory returned 42, not a bot"),
    ("kingsonly", "bot 'kingsonly' cannot play crazy_eights: ValueError: no weights for"),
])
def test_bad_plug_ins_are_config_errors_naming_the_bot(registered, spec, message):
    game = "crazy_eights" if spec == "kingsonly" else "kings_stakes"
    with pytest.raises(ConfigError) as caught:
        make_bot(spec, 0).check_game(game)
    assert message in str(caught.value) and caught.value.option == "bots"
    assert len(str(caught.value)) < 260                   # the plug-in's text is cut short
    with pytest.raises(ConfigError, match=message.split(":")[0]):
        tournament(game, 4, bots=[spec, "random"])


def test_an_illegal_choice_is_a_config_error_naming_the_bot(registered):
    game = new_game("kings_stakes", seed=2)
    before = game.to_json()
    with pytest.raises(ConfigError, match="bot 'illegal' chose 1000000, not a legal action"):
        game.apply(make_bot("illegal").choose_id(game))
    assert game.to_json() == before
    with pytest.raises(ConfigError, match="bot 'crashing' failed to choose a move in "
                       "kings_stakes: KeyError: 'layer 3'") as caught:
        make_bot("crashing").choose_id(game)
    assert isinstance(caught.value.__cause__, KeyError)


def _fake_entry_points(monkeypatch, **values):
    points = {name: [metadata.EntryPoint(name, value, plugins.ENTRY_POINT_GROUP)
                     for value in (v if isinstance(v, list) else [v])]
              for name, v in values.items()}
    monkeypatch.setattr(plugins, "_ENTRY_POINTS", points)
    monkeypatch.setattr(plugins, "_LOADED", {})
    cardcore.bots.clear_spec_cache()


def test_entry_points_are_found_by_name_and_loaded_on_first_use(monkeypatch):
    _fake_entry_points(monkeypatch, epbot="test_bot_plugins:first_move",
                       missing="no_such_module_xyz:factory",
                       twice=["test_bot_plugins:first_move", "test_bot_plugins:any_params"],
                       notcallable="test_bot_plugins:SRC")
    try:
        assert {"epbot", "missing", "twice"} <= set(available_bots())
        assert "epbot" not in plugins._LOADED                 # listing imports nothing
        assert make_bot("epbot:offset=1", game="kings_stakes").policy.offset == 1
        with pytest.raises(ConfigError, match="bot 'missing': its entry point "
                           "'no_such_module_xyz:factory' does not load: ModuleNotFoundError"):
            make_bot("missing")
        with pytest.raises(ConfigError, match="several installed packages"):
            make_bot("twice")
        with pytest.raises(ConfigError, match="not callable"):
            make_bot("notcallable")
    finally:
        cardcore.bots.clear_spec_cache()


def test_the_cli_says_one_line_for_a_bad_plug_in(monkeypatch, capsys):
    from cardcore.cli import main
    _fake_entry_points(monkeypatch, missing="no_such_module_xyz:factory")
    try:
        assert main(["tournament", "kings_stakes", "--bots", "missing,greedy", "-n", "4"]) == 2
        err = capsys.readouterr().err
        assert "missing" in err and "Traceback" not in err and err.count("\n") == 1
        assert main(["play", "kings_stakes", "--bots", "missing"]) == 2
        assert "does not load" in capsys.readouterr().err
    finally:
        cardcore.bots.clear_spec_cache()


# ------------------------------------------------------------------ runs
def test_a_registered_bot_plays_a_tournament_and_simulate_like_any_bot(registered):
    result = tournament("kings_stakes", 40, bots="firstmove,random,greedy", seed=5)
    assert [row["bot"] for row in result["standings"]] == ["firstmove", "random", "greedy"]
    assert sum(row["seat_games"] for row in result["standings"]) == \
        result["players"] * result["games"]
    again = tournament("kings_stakes", 40, bots="firstmove,random,greedy", seed=5, chunk_size=3)
    assert again["standings"] == result["standings"]
    summary = simulate("kings_stakes", 10, bots=("firstmove", "greedy"), seed=1)
    assert summary["games"] == 10 and summary["bots"][:2] == ["firstmove", "greedy"]


def test_spawned_workers_get_a_registered_factory_with_each_job(registered):
    serial = tournament("kings_stakes", 24, bots="firstmove,greedy", seed=9)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        spawned = tournament("kings_stakes", 24, bots="firstmove,greedy", seed=9,
                             executor=pool, chunk_size=4)
    assert spawned["standings"] == serial["standings"]


def test_a_factory_that_cannot_travel_to_workers_is_a_config_error():
    register("lambdabot", lambda game_name, seed=None: FirstMove(game_name), replace=True)
    try:
        with pytest.raises(ConfigError, match="lambdabot.*cannot be sent to worker"):
            tournament("kings_stakes", 8, bots="lambdabot,greedy", workers=2)
        assert tournament("kings_stakes", 8, bots="lambdabot,greedy")["games"] >= 8
    finally:
        unregister("lambdabot")


def test_the_server_offers_extra_bots_for_the_games_they_play(registered, tmp_path):
    from server_helpers import TestClient

    from cardcore.server import create_app
    with pytest.raises(ConfigError, match="broken"):
        create_app(tmp_path / "a.sqlite3", bots="broken")
    app = create_app(tmp_path / "t.sqlite3", bots="kingsonly,firstmove:offset=1")
    with TestClient(app) as client:
        games = {g["game"]: g["bots"] for g in client.get("/api/games").json()["games"]}
        assert games["kings_stakes"][-2:] == ["kingsonly", "firstmove:offset=1"]
        assert "kingsonly" not in games["crazy_eights"]
        assert "firstmove:offset=1" in games["crazy_eights"]
        assert '"kingsonly"' in client.get("/openapi.json").text      # the names it accepts
        made = client.post("/api/tables", json={
            "game": "kings_stakes", "seed": 3, "players": 2,
            "bots": {"0": "kingsonly", "1": "firstmove:offset=1"}}).json()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            state = client.get(f"/api/tables/{made['table']}").json()
            if state["over"]:
                break
            time.sleep(0.05)
        assert state["over"] and state["winners"]
        refused = client.post("/api/tables", json={"game": "crazy_eights",
                                                    "bots": {"1": "kingsonly"}})
        assert refused.status_code == 422 and "unknown bot" in refused.json()["error"]


# ------------------------------------------------------------------ the example package, installed
@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """examples/bot_plugin installed into a fresh directory (pip --target, no build isolation:
    offline), found by importlib.metadata through PYTHONPATH like any installed package."""
    target = tmp_path_factory.mktemp("site")
    # Built from a copy: setuptools builds in the source folder (build/, *.egg-info), and two
    # xdist workers running this module's tests would build in the same one at once.
    source = tmp_path_factory.mktemp("bot_plugin") / "bot_plugin"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-build-isolation", "--no-index", "--target", str(target),
                           str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), SRC])}
    return env


def _run(env, *args, input=None, timeout=300):
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          input=input, timeout=timeout, cwd=str(ROOT))


@pytest.mark.slow
def test_the_installed_example_plays_tournaments_on_spawned_processes_dask_and_ray(
        installed):
    script = textwrap.dedent("""
        import json, multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from distributed import Client, LocalCluster
        from cardcore.bots import available_bots
        from cardcore.tournament import tournament

        assert "linear" in available_bots()
        serial = tournament("crazy_eights", 120, bots="linear,random", seed=4, players=2)
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(2, mp_context=ctx) as pool:
            spawned = tournament("crazy_eights", 120, bots="linear,random", seed=4,
                                 players=2, executor=pool, chunk_size=10)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, \\
                Client(cluster, set_as_default=False) as client:
            dask = tournament("crazy_eights", 120, bots="linear,random", seed=4, players=2,
                              executor=client, chunk_size=10)
        import ray
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 object_store_memory=100 * 1024 * 1024)
        try:
            on_ray = tournament("crazy_eights", 120, bots="linear,random", seed=4, players=2,
                                executor="ray", chunk_size=10)
        finally:
            ray.shutdown()
        print(json.dumps([serial["standings"], spawned["standings"], dask["standings"],
                          on_ray["standings"]]))
    """)
    done = _run(installed, "-c", script)
    assert done.returncode == 0, done.stderr[-3000:]
    serial, spawned, dask, on_ray = json.loads(done.stdout.strip().splitlines()[-1])
    assert serial == spawned == dask == on_ray
    linear, random = serial
    assert linear["bot"] == "linear" and linear["seat_games"] == 120
    # Trained to imitate greedy: it beats random clearly.
    assert linear["win_rate_ci"][0] > 0.5 and linear["rating"] > random["rating"] + 100


@pytest.mark.slow
def test_the_installed_example_in_the_command_line(installed):
    done = _run(installed, "-m", "cardcore", "tournament", "crazy_eights", "--players", "2",
                "--bots", "linear,greedy,linear:temperature=0.5", "-n", "60", "--workers", "2",
                "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert [r["bot"] for r in result["standings"]] == ["linear", "greedy",
                                                       "linear:temperature=0.5"]
    bad = _run(installed, "-m", "cardcore", "tournament", "crazy_eights", "--bots",
               "linear:path=/no/such/weights.npz,greedy", "-n", "4")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "bot 'linear:path=/no/such/weights.npz' cannot play crazy_eights: " \
           "FileNotFoundError" in bad.stderr
    other = _run(installed, "-m", "cardcore", "tournament", "kings_stakes", "--bots",
                 "linear,greedy", "-n", "4")
    assert other.returncode == 2 and "no weights shipped for kings_stakes" in other.stderr
    # cardcore play: the person's moves piped in (always the first), linear at the other seat.
    played = _run(installed, "-m", "cardcore", "play", "crazy_eights", "--players", "2",
                  "--seed", "5", "--bots", "linear", input="1\n" * 400)
    assert played.returncode == 0, played.stderr[-3000:]
    assert "bots: player 2 (linear)" in played.stdout          # seats are named from 1
    assert "match over" in played.stdout


@pytest.mark.slow
def test_the_installed_example_at_a_served_table(installed, tmp_path, monkeypatch):
    from server_helpers import ServerProcess
    monkeypatch.setenv("PYTHONPATH", installed["PYTHONPATH"])
    server = ServerProcess(tmp_path / "t.sqlite3", extra=("--bots", "linear"))
    try:
        status, body = server.request("GET", "/api/games")
        bots = {g["game"]: g["bots"] for g in body["games"]}
        assert "linear" in bots["crazy_eights"] and "linear" not in bots["kings_stakes"]
        status, made = server.request("POST", "/api/tables", {
            "game": "crazy_eights", "players": 2, "seed": 11,
            "bots": {"0": "linear", "1": "greedy"}})
        assert status == 201, made
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            status, state = server.request("GET", f"/api/tables/{made['table']}")
            if state["over"]:
                break
            time.sleep(0.1)
        assert state["over"], state
        assert [s["bot"] for s in state["seats"]] == ["linear", "greedy"]
    finally:
        server.stop()
    failing = subprocess.run([sys.executable, "-m", "cardcore", "serve", "--port", "1",
                              "--db", str(tmp_path / "u.sqlite3"), "--bots",
                              "linear:path=nowhere.npz"], env=installed, capture_output=True,
                             text=True, timeout=60)
    assert failing.returncode == 2 and "Traceback" not in failing.stderr
    assert "linear:path=nowhere.npz" in failing.stderr
