"""simulate and tournament on every executor: one process, local process and thread pools, a
Dask LocalCluster and a local Ray; lost workers and chunks; bad executors.

The summary and the tournament table must be bit-for-bit the same wherever the games ran
(only ``workers`` and the timings may differ)."""
from __future__ import annotations

import math
import multiprocessing
import operator
import os
import re
import signal
from collections import Counter
from concurrent.futures import (BrokenExecutor, Executor, Future, ProcessPoolExecutor,
                                ThreadPoolExecutor)

import pytest
import ray
from distributed import Client, LocalCluster
from rich.console import Console

from cardcore import ConfigError
from cardcore.cli import main
from cardcore.executors import MAX_RETRIES, _Futures, executor_kind, executor_workers, run_chunks
from cardcore.simulation import _run_chunk, simulate
from cardcore.tournament import TIMING as TOURNAMENT_TIMING
from cardcore.tournament import standings_table, tournament

pytestmark = pytest.mark.slow       # local Dask and Ray clusters: the quick loop leaves it out

SIMULATE_TIMING = ("seconds", "games_per_second", "actions_per_second", "workers")


def same_summary(a, b):
    return ({k: v for k, v in a.items() if k not in SIMULATE_TIMING}
            == {k: v for k, v in b.items() if k not in SIMULATE_TIMING})


def table_text(result):
    console = Console(width=160, record=True, file=open(os.devnull, "w"))
    console.print(standings_table(result))
    return console.export_text()


def local_cluster():
    return LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                        dashboard_address=":0")


@pytest.fixture(scope="module")
def dask_client():
    with local_cluster() as cluster, Client(cluster, set_as_default=False) as client:
        yield client


@pytest.fixture(scope="module")
def ray_session():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             object_store_memory=100 * 1024 * 1024)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def executors(dask_client, ray_session):
    """Every kind of executor, by name (the pools are module-wide, like the clusters)."""
    spawn = multiprocessing.get_context("spawn")       # this process has threads by now
    with ProcessPoolExecutor(2, mp_context=spawn) as processes, ThreadPoolExecutor(2) as threads:
        yield {"processes": processes, "threads": threads, "dask": dask_client, "ray": "ray"}


KINDS = ["processes", "threads", "dask", "ray"]


# ---------------------------------------------------------------- local processes first
# (before the module's Dask and Ray start threads in this process: pools fork it)
def test_local_workers_and_chunking_give_the_same_summary():
    one = simulate("kuzanasta", 60, bots="greedy,random", seed=4)
    for kwargs in ({"workers": 2}, {"workers": 2, "chunk_size": 1}, {"chunk_size": 60}):
        assert same_summary(one, simulate("kuzanasta", 60, bots="greedy,random", seed=4,
                                          **kwargs))


def test_a_killed_local_worker_process_is_replaced_and_its_chunks_rerun(monkeypatch):
    expected = simulate("kings_stakes", 300, bots="greedy,random", seed=9)
    pools = []
    new_pool = _Futures._new_pool
    monkeypatch.setattr(_Futures, "_new_pool", lambda self: pools.append(1) or new_pool(self))
    others = {p.pid for p in multiprocessing.active_children()}    # not the run's own pool
    killed = []

    def kill_one(n):
        if not killed:
            victim = next(p for p in multiprocessing.active_children() if p.pid not in others)
            os.kill(victim.pid, signal.SIGKILL)
            victim.join()
            killed.append(victim.pid)

    got = simulate("kings_stakes", 300, bots="greedy,random", seed=9, workers=2,
                   chunk_size=10, progress=kill_one)
    assert killed and len(pools) == 2                        # the broken pool was replaced
    assert same_summary(got, expected)


# ---------------------------------------------------------------- identical results
@pytest.mark.parametrize("bots", ["random", "greedy,random"])
@pytest.mark.parametrize("kind", KINDS)
def test_simulate_summary_is_identical_on_every_executor(kind, bots, executors):
    one = simulate("kings_stakes", 300, bots=bots, seed=8, workers=1)
    seen = []
    there = simulate("kings_stakes", 300, bots=bots, seed=8, executor=executors[kind],
                     progress=seen.append)
    assert same_summary(one, there) and there["workers"] == 2 and sum(seen) == 300
    seen.clear()
    small = simulate("kings_stakes", 300, bots=bots, seed=8, executor=executors[kind],
                     chunk_size=7, progress=seen.append)
    assert same_summary(one, small)
    assert sum(seen) == 300 and sorted(seen) == [6] + [7] * 42   # as each chunk completes


@pytest.mark.parametrize("kind", KINDS)
def test_tournament_table_is_identical_on_every_executor(kind, executors):
    one = tournament("kings_stakes", 60, bots="greedy,random,random:seed=3", seed=2)
    there = tournament("kings_stakes", 60, bots="greedy,random,random:seed=3", seed=2,
                       executor=executors[kind], chunk_size=3)
    assert {k: v for k, v in there.items() if k not in TOURNAMENT_TIMING} == \
        {k: v for k, v in one.items() if k not in TOURNAMENT_TIMING}
    assert table_text(there) == table_text(one)


# ---------------------------------------------------------------- lost workers
def test_a_dask_worker_retired_mid_run_still_gives_the_complete_result():
    expected = simulate("kings_stakes", 400, bots="greedy,random", seed=6)
    with local_cluster() as cluster, Client(cluster, set_as_default=False) as client:
        done = []

        def retire_one(n):
            done.append(n)
            if len(done) == 1:                          # the first chunk is back, 39 are not
                workers = list(client.scheduler_info()["workers"])
                assert len(workers) == 2
                client.retire_workers(workers[:1], close_workers=True)

        got = simulate("kings_stakes", 400, bots="greedy,random", seed=6, executor=client,
                       chunk_size=10, progress=retire_one)
        assert len(client.scheduler_info()["workers"]) == 1
    assert sum(done) == 400 and len(done) == 40
    assert same_summary(got, expected)


def test_a_dask_worker_killed_mid_run_still_gives_the_complete_result():
    expected = simulate("kings_stakes", 300, bots="greedy,random", seed=7)
    with local_cluster() as cluster, Client(cluster, set_as_default=False) as client:
        pids = client.run(os.getpid)
        killed = []

        def kill_one(n):
            if not killed:
                address, pid = next(iter(pids.items()))
                os.kill(pid, signal.SIGKILL)            # no goodbye: the nanny starts another
                killed.append(address)

        got = simulate("kings_stakes", 300, bots="greedy,random", seed=7, executor=client,
                       chunk_size=10, progress=kill_one)
    assert killed and same_summary(got, expected)


class LosingExecutor(Executor):
    """Loses the first ``losses`` attempts of every chunk, as if its worker had died."""

    def __init__(self, losses):
        self.losses = losses
        self.attempts = Counter()
        self.pool = ThreadPoolExecutor(2)

    def submit(self, fn, /, *args, **kwargs):
        key = repr(args)
        self.attempts[key] += 1
        if self.attempts[key] <= self.losses:
            lost = Future()
            lost.set_exception(BrokenExecutor("worker lost"))
            return lost
        return self.pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait=True, *, cancel_futures=False):
        self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def test_lost_chunks_are_submitted_again():
    expected = simulate("kings_stakes", 200, bots="greedy,random", seed=1)
    with LosingExecutor(losses=MAX_RETRIES) as losing:
        got = simulate("kings_stakes", 200, bots="greedy,random", seed=1, executor=losing,
                       chunk_size=20)
    assert same_summary(got, expected)
    assert len(losing.attempts) == 10 and set(losing.attempts.values()) == {MAX_RETRIES + 1}


def test_a_chunk_lost_too_often_is_an_error():
    with LosingExecutor(losses=MAX_RETRIES + 1) as losing, \
            pytest.raises(BrokenExecutor, match="worker lost"):
        simulate("kings_stakes", 40, seed=1, executor=losing, chunk_size=20)


def _fails_on_three(job):
    if job == 3:
        raise ValueError("chunk three is broken")
    return job * 10


def test_an_error_in_a_chunk_is_raised_not_retried():
    calls = Counter()

    def counting(job):
        calls[job] += 1
        return _fails_on_three(job)

    assert run_chunks(_fails_on_three, [1, 2], executor=None) == [10, 20]
    with ThreadPoolExecutor(2) as pool, pytest.raises(ValueError, match="chunk three"):
        run_chunks(counting, [1, 2, 3, 4], executor=pool)
    assert calls[3] == 1


@pytest.mark.parametrize("kind", KINDS)
def test_an_error_in_a_chunk_comes_back_from_the_workers(kind, executors):
    # Workers import the function by name: it must live in an installed module.
    bad_job = ("no_such_game", None, {}, ("random",), 0, 0, 1)
    with pytest.raises(ConfigError, match="no_such_game"):
        run_chunks(_run_chunk, [bad_job], executor=executors[kind])
    with pytest.raises(ValueError, match="negative"):
        run_chunks(math.factorial, [3, 2, -1], executor=executors[kind])


@pytest.mark.parametrize("kind", KINDS)
def test_results_come_back_in_job_order_whatever_the_completion_order(kind, executors):
    seen = []
    got = run_chunks(operator.neg, list(range(4, 30)), executor=executors[kind],
                     on_result=lambda i, r: seen.append((i, r)))
    assert got == [-j for j in range(4, 30)]
    assert sorted(seen) == [(i, -j) for i, j in enumerate(range(4, 30))]


# ---------------------------------------------------------------- bad executors
def test_executor_kinds_and_workers(executors):
    assert executor_kind(None) == "local" and executor_kind("Ray") == "ray"
    assert executor_kind(executors["dask"]) == "dask"
    assert executor_kind(executors["processes"]) == "futures"
    assert executor_workers(executors["dask"]) == 2 and executor_workers("ray") == 2
    assert executor_workers(executors["threads"]) == 2


@pytest.mark.parametrize("executor, option, message", [
    (42, "executor", "executor must be None, a concurrent.futures.Executor"),
    ("spark", "executor", "executor must be"),
    (ProcessPoolExecutor, "executor", "executor must be"),        # the class, not a pool
])
def test_bad_executors_are_config_errors(executor, option, message):
    with pytest.raises(ConfigError) as info:
        simulate("kings_stakes", 10, executor=executor)
    assert info.value.option == option and message in str(info.value)


def test_executor_and_workers_together_is_a_config_error(executors):
    with pytest.raises(ConfigError, match="workers or executor, not both") as info:
        simulate("kings_stakes", 10, workers=2, executor=executors["threads"])
    assert info.value.option == "workers"


def test_ray_before_ray_init_is_a_config_error(monkeypatch):
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    with pytest.raises(ConfigError, match=r"ray.init\(\)") as info:
        simulate("kings_stakes", 10, executor="ray")
    assert info.value.option == "executor"


def test_a_closed_dask_client_or_shut_down_pool_is_a_config_error():
    with local_cluster() as cluster:
        client = Client(cluster, set_as_default=False)
        client.close()
        with pytest.raises(ConfigError, match="Dask client is closed"):
            simulate("kings_stakes", 10, executor=client)
    pool = ThreadPoolExecutor(1)
    pool.shutdown()
    with pytest.raises(ConfigError, match="takes no more work"):
        simulate("kings_stakes", 10, executor=pool)


@pytest.mark.parametrize("chunk_size", [0, -3, 2.5, True, "10"])
def test_bad_chunk_sizes_are_config_errors(chunk_size):
    with pytest.raises(ConfigError) as info:
        simulate("kings_stakes", 10, chunk_size=chunk_size)
    assert info.value.option == "chunk_size"


# ---------------------------------------------------------------- the command line
def test_cli_simulate_on_dask_and_ray(dask_client, ray_session, capsys):
    args = ["simulate", "kings_stakes", "-n", "200", "--bots", "greedy,random", "--seed", "3"]
    expected = simulate("kings_stakes", 200, bots="greedy,random", seed=3)
    import json
    address = dask_client.scheduler.address
    for where in (["--dask", address], ["--ray", "auto"]):
        assert main([*args, *where, "--json"]) == 0
        assert same_summary(json.loads(capsys.readouterr().out), expected)
    assert main([*args, "--dask", address, "--chunk-size", "50"]) == 0
    out = " ".join(capsys.readouterr().out.split())         # the console wraps lines
    assert f"Dask at {address}, 2 workers" in out and "200/200" in out
    assert ray.is_initialized()                   # --ray left the caller's Ray connected


def test_cli_tournament_on_dask_and_ray(dask_client, ray_session, capsys):
    import json
    args = ["tournament", "kings_stakes", "--bots", "greedy,random", "-n", "24", "--json"]
    assert main(args) == 0
    expected = json.loads(capsys.readouterr().out)
    for where in (["--dask", dask_client.scheduler.address], ["--ray", "auto"]):
        assert main([*args, *where]) == 0
        got = json.loads(capsys.readouterr().out)
        assert {k: v for k, v in got.items() if k not in TOURNAMENT_TIMING} == \
            {k: v for k, v in expected.items() if k not in TOURNAMENT_TIMING}


def test_cli_unreachable_dask_scheduler_exits_2(capsys):
    assert main(["simulate", "kings_stakes", "-n", "5", "--dask", "nonsense://x"]) == 2
    assert "cannot connect to the Dask scheduler at 'nonsense://x'" in capsys.readouterr().err


def test_default_chunks_balance_workers_and_pay_for_scheduling():
    from cardcore.simulation import MAX_CHUNK, chunk_place, default_chunk_size
    assert default_chunk_size(1000, 1) == 25                   # 40 chunks: a moving bar
    assert default_chunk_size(10, 1) == 1 and default_chunk_size(0, 1) == 1
    assert default_chunk_size(100_000, 8) == 1563              # 8 chunks per worker
    assert default_chunk_size(10_000_000, 2) == MAX_CHUNK
    # scheduling at most 5% of a chunk: Python-bot games ~0.8 ms, in-core games ~0.02 ms
    assert default_chunk_size(1000, 2, where="processes") == 25
    assert default_chunk_size(1000, 2, where="ray") == 25
    assert default_chunk_size(1000, 2, where="dask") == 113
    assert default_chunk_size(1000, 2, where="processes", core=True) == 150
    assert default_chunk_size(1000, 2, where="ray", core=True) == 750
    assert default_chunk_size(1000, 2, where="dask", core=True) == MAX_CHUNK
    assert chunk_place(None, 1) == "serial" and chunk_place(None, 2) == "processes"
    assert chunk_place("ray", 1) == "ray"


def test_cli_connects_to_a_ray_cluster_by_address(ray_session):
    # A new driver process joins the running Ray, plays there, and disconnects.
    import json
    import subprocess
    import sys
    address = ray.get_runtime_context().gcs_address
    out = subprocess.run([sys.executable, "-m", "cardcore", "simulate", "kings_stakes", "-n",
                          "60", "--bots", "greedy,random", "--ray", address, "--json"],
                         capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert same_summary(json.loads(out.stdout),
                        simulate("kings_stakes", 60, bots="greedy,random"))


@pytest.mark.parametrize("flag, package, extra", [
    ("--dask", "distributed", "dask"),
    ("--ray", "ray", "ray"),
])
def test_cli_without_the_cluster_package_says_what_to_install(flag, package, extra,
                                                              monkeypatch, capsys):
    """The hint is the one for where this cardcore came from (a checkout's tree, or the
    installed package's requirements: tests/test_extras.py tests both)."""
    import sys
    from cardcore.extras import install_hint
    monkeypatch.setitem(sys.modules, package, None)            # as if not installed
    assert main(["simulate", "kings_stakes", "-n", "5", flag, "somewhere"]) == 2
    assert install_hint(extra) in capsys.readouterr().err


def test_ray_executor_without_ray_installed_is_a_config_error(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "ray", None)
    from cardcore.extras import install_hint
    with pytest.raises(ConfigError, match="needs Ray: " + re.escape(install_hint("ray"))):
        simulate("kings_stakes", 5, executor="ray")
