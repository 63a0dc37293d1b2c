"""Executors: games/s of ``cardcore.simulate`` with 1 and 2 workers on each executor, the
scheduling overhead per chunk, and throughput against chunk size (which sets the default).

    python benchmarks/bench_executors.py [--quick]    # prints the table below
    python benchmarks/compare.py                      # the same rows, via compare_section
    pytest benchmarks/bench_executors.py --benchmark-enable

Workload: Kings' Stakes, 4 players, ``bots=("greedy", "random")`` — the Python-bot path, the
one that needs more machines (whole random games in the core run ~40× faster per game and
mostly do not). Executors: this process (``workers=1``, the baseline), a local process pool
(``workers=k``), a ``dask.distributed.LocalCluster`` with k single-threaded worker processes,
and a local Ray (``ray.init(num_cpus=2)``; a process holds one Ray, so its 1-worker figure is
the whole run sent as one chunk). Pools and clusters are started (and warmed up) outside the
timer, all of them at once, and measured in interleaved rounds; each figure is the best of
``REPEAT`` (the machine is shared: the best run is the one least disturbed, and interleaving
spreads the disturbance over every executor alike).

Overhead per chunk: ``run_chunks`` over 200 empty chunks (``_run_chunk`` with no games, so
the chunk's own fixed work — building one game to read the options — is included), divided
by 200, with 2 workers; best of ``REPEAT``.
"""
from __future__ import annotations

import argparse
import os
import time
from contextlib import ExitStack, contextmanager
from typing import Any, Iterator

from cardcore.executors import run_chunks
from cardcore.simulation import _run_chunk, simulate

GAME = "kings_stakes"
BOTS = ("greedy", "random")
EMPTY_CHUNKS = 200
NAMES = {"local": "local process pool", "dask": "Dask LocalCluster", "ray": "Ray local"}
REPEAT = 3
BASELINE = "this process, workers=1 (baseline)"


@contextmanager
def executor(kind: str, workers: int) -> Iterator[tuple[Any, int]]:
    """(executor, workers) arguments of ``simulate`` for ``kind`` with ``workers`` workers."""
    if kind == "serial":
        yield None, 1
    elif kind == "local":
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(workers) as pool:
            simulate(GAME, 40, bots=BOTS, executor=pool, chunk_size=1)  # start the processes
            yield pool, 1
    elif kind == "dask":
        from distributed import Client, LocalCluster
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, \
                Client(cluster, set_as_default=False) as client:
            simulate(GAME, 40, bots=BOTS, executor=client, chunk_size=1)   # warm the workers
            yield client, 1
    elif kind == "ray":
        import ray
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                 logging_level="ERROR")
        try:
            simulate(GAME, 40, bots=BOTS, executor="ray", chunk_size=1)   # start its workers
            yield "ray", 1
        finally:
            ray.shutdown()
    else:
        raise ValueError(kind)


def overhead_ms(where: Any) -> float:
    """Milliseconds per empty chunk, ``EMPTY_CHUNKS`` of them, on an open executor."""
    job = (GAME, 4, {}, BOTS, 1, 0, 0)
    best = float("inf")
    for _ in range(REPEAT):
        started = time.perf_counter()
        run_chunks(_run_chunk, [job] * EMPTY_CHUNKS, executor=where)
        best = min(best, time.perf_counter() - started)
    return best / EMPTY_CHUNKS * 1e3


def available_kinds() -> list[str]:
    kinds = ["local"]
    for kind, module in (("dask", "distributed"), ("ray", "ray")):
        try:
            __import__(module)
            kinds.append(kind)
        except ImportError:
            pass
    return kinds


def compare_section(quick: bool = False) -> list[dict[str, Any]]:
    """All executors open at once, measured in interleaved rounds (best of ``REPEAT``), so
    load from other processes falls on all of them alike."""
    games = 1_000 if quick else 3_000
    section = f"executors: {GAME} greedy+random, {games:,} games"
    sweep = f"chunk size, 2 workers, {games:,} games"
    kinds = available_kinds()
    with ExitStack() as stack:
        open_ = {(kind, k): stack.enter_context(executor(kind, k))[0]
                 for kind in ["serial", *kinds] for k in ((1,) if kind == "serial" else (1, 2))
                 if not (kind == "ray" and k == 1)}        # one Ray per process: see below
        runs: dict[str, tuple[Any, int | None]] = {BASELINE: (open_[("serial", 1)], None)}
        for kind in kinds:
            if kind == "ray":
                # 1 worker on Ray: the whole run as one chunk, so one worker plays it all.
                runs["Ray local, 1 worker (one chunk)"] = (open_[("ray", 2)], games)
            else:
                runs[f"{NAMES[kind]}, 1 worker"] = (open_[(kind, 1)], None)
            runs[f"{NAMES[kind]}, 2 workers"] = (open_[(kind, 2)], None)
        sizes = [(kind, chunk) for kind in kinds if kind in ("dask", "ray")
                 for chunk in (5, 25, 100, 400)]
        best: dict[Any, float] = {}
        for _ in range(REPEAT):
            for label, (where, chunk) in runs.items():
                best[label] = max(best.get(label, 0.0), once(where, games, chunk))
            for kind, chunk in sizes:
                key = (kind, chunk)
                best[key] = max(best.get(key, 0.0), once(open_[(kind, 2)], games, chunk))
        overheads = {kind: overhead_ms(open_[(kind, 2)]) for kind in kinds}
        core = max(simulate(GAME, 20 * games, seed=1)["games_per_second"]
                   for _ in range(REPEAT))
    baseline = best[BASELINE]
    rows: list[dict[str, Any]] = []
    for label in runs:
        note = f"{best[label] / baseline:.2f}× the baseline"
        if label.endswith("2 workers"):
            one = next(v for k, v in best.items() if isinstance(k, str)
                       and k.startswith(label[:-len("2 workers")]) and "1 worker" in k)
            note += f", {best[label] / one:.2f}× its 1 worker"
        rows.append({"section": section, "figure": label, "value": best[label],
                     "unit": "games/s", "note": note if label != BASELINE else
                     f"best of {REPEAT} interleaved rounds"})
    for kind in kinds:
        rows.append({"section": section, "figure": f"{NAMES[kind]}: overhead per chunk",
                     "value": overheads[kind], "unit": "ms",
                     "note": f"{EMPTY_CHUNKS} empty chunks, 2 workers"})
    basis = "the default chunk size's basis (simulation.GAME_MS)"
    rows.append({"section": basis, "figure": "a game with greedy+random bots, this process",
                 "value": 1e3 / baseline, "unit": "ms"})
    rows.append({"section": basis, "figure": "a random game in the core, this process",
                 "value": 1e3 / core, "unit": "ms"})
    for kind, chunk in sizes:
        rows.append({"section": sweep, "figure": f"{NAMES[kind]}, chunk_size={chunk}",
                     "value": best[(kind, chunk)], "unit": "games/s"})
    return rows


def once(where: Any, games: int, chunk_size: int | None) -> float:
    summary = simulate(GAME, games, bots=BOTS, seed=1, executor=where, chunk_size=chunk_size)
    return float(summary["games_per_second"])


def test_simulate_two_local_processes(benchmark: Any) -> None:
    benchmark.pedantic(simulate, args=(GAME, 1_000), kwargs={"bots": BOTS, "workers": 2},
                       rounds=3)


def test_simulate_on_dask_two_workers(benchmark: Any) -> None:
    with executor("dask", 2) as (client, _):
        benchmark.pedantic(simulate, args=(GAME, 1_000),
                           kwargs={"bots": BOTS, "executor": client}, rounds=3)


def test_simulate_on_ray_two_workers(benchmark: Any) -> None:
    with executor("ray", 2) as (where, _):
        benchmark.pedantic(simulate, args=(GAME, 1_000),
                           kwargs={"bots": BOTS, "executor": where}, rounds=3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    for row in compare_section(args.quick):
        note = f"  ({row['note']})" if row.get("note") else ""
        print(f"{row['section']:<55} {row['figure']:<38} {row['value']:>10,.2f} "
              f"{row['unit']}{note}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
