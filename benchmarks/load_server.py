"""Load test of `cardcore serve` (not a timed unit test; see benchmarks/README.md).

N WebSocket clients on M tables of Kings' Stakes (4 seats, every seat a client) play random
legal moves against a local server (127.0.0.1, its own process) for a bounded time. A finished
table is replaced by a new one with the same clients. Reported: actions/s, the latency from
sending an action to receiving the pushed state that contains it (p50, p99, max), and the
check that nothing was lost or played twice: afterwards every table's stored save is replayed
(`load_game`) and its action log must equal, in order, the actions the clients had
acknowledged.

    python benchmarks/load_server.py --tables 50 --seconds 20           # 200 clients
    python benchmarks/load_server.py --tables 50 --synchronous normal   # commits without fsync
    python benchmarks/load_server.py --tables 50 --rate 1200            # paced: 1,200 offered/s
    python benchmarks/load_server.py --db postgresql://u@host/db --processes 2   # PostgreSQL

With ``--processes N`` (PostgreSQL only) N server processes share the database: table k is
created and played through process k % N, as the documented proxy would route it (a table is
served by one process: docs/operations.md, "One process per table").

Without ``--rate`` every client answers the moment its turn comes, so the server is saturated
and the latency is queueing (with 50 tables, about 50 / throughput). With ``--rate`` players
pace their moves (exponential think times) so that the tables together offer that many actions
per second: the latency a player sees at that load.

Two workloads (issue 46): the default (``--tables 50``) and ``--workload people-only``: 20
tables, every seat a person's WebSocket acting on its push, whole-state pushes, SQLite,
``--bot-delay 0``, the 80 sockets from one address with the per-address caps lifted.
``--default-limits`` keeps the server's per-address defaults (a NAT's load: refused sockets
are counted, and a seat told to retry comes back after the time it was given).

The servers run an installed cardcore of your choice, so two builds can be measured in the
same run, in alternating slices (the machine's load falls on both alike):

    python benchmarks/load_server.py --workload people-only \
        --build v03=/work/wt-v03/src --build new=src --slices 3 --seconds 15

A build is ``NAME=PATH``: PATH a directory to put first on the server's PYTHONPATH (a source
tree built in place, a site-packages) or a Python executable whose installed cardcore is
served (a venv's ``bin/python``). The figure that compares builds is the server process's CPU
time (user + system, /proc) per acknowledged action; ratios are printed against the first
build, slice by slice (each round's slices ran back to back).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path


try:                      # the load generator shares the machine: keep its own CPU small
    import orjson
    parse = orjson.loads
except ImportError:       # pragma: no cover
    parse = json.loads
try:
    import uvloop
    run_loop = uvloop.run
except ImportError:       # pragma: no cover
    run_loop = asyncio.run

GAME = "kings_stakes"
SEATS = 4


@dataclass
class TableRecord:
    table: str
    acked: list[tuple[int, int]] = field(default_factory=list)   # (after, action id)
    next_at: float = 0.0                # paced runs: the table's next move is not sent earlier
    pace: random.Random = field(default_factory=random.Random)   # its think times


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    tables: list[TableRecord] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refused_sockets: int = 0            # sockets refused with a retry_after, then tried again
    received_bytes: int = 0             # every message the server pushed to the clients


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def create_table(base: str, seed: int) -> dict:
    """A new table; refused with 503 or 429 (too many connections from this address, a NAT's
    load with --default-limits), tried again after its Retry-After (else 1 s)."""
    body = json.dumps({"game": GAME, "players": SEATS, "seed": seed}).encode()
    for _ in range(60):
        request = urllib.request.Request(base + "/api/tables", data=body,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as e:
            if e.code not in (429, 503):
                raise
            time.sleep(float(e.headers.get("Retry-After") or 1))
    raise RuntimeError(f"{base}: no table created in 60 tries")


async def seat_client(ws_base: str, table: str, token: str, rng: random.Random,
                      deadline: float, record: TableRecord, totals: Totals,
                      interval: float) -> None:
    """One player: act whenever it is our turn, until the match is over or time is up. A
    socket refused with a ``retry_after`` (too many from this address) comes back after it."""
    while time.perf_counter() < deadline:
        try:
            retry = await seat_socket(ws_base, table, token, rng, deadline, record, totals,
                                      interval)
        except Exception:       # noqa: BLE001 - refused before the handshake: the HTTP 503
            retry = 1.0         # with Retry-After: 1 (connections per address), any shape
        if retry is None:
            return
        totals.refused_sockets += 1
        await asyncio.sleep(retry)


async def seat_socket(ws_base: str, table: str, token: str, rng: random.Random,
                      deadline: float, record: TableRecord, totals: Totals,
                      interval: float) -> float | None:
    """One socket of a player; the seconds to wait before trying again if it was refused
    with a ``retry_after``, else None."""
    import websockets
    async with websockets.connect(f"{ws_base}/ws/tables/{table}",
                                  subprotocols=["cardcore", f"cardcore.token.{token}"],
                                  max_size=2 ** 22) as ws:
        sent_at: float | None = None
        sent: tuple[int, int] | None = None
        retry: float | None = None
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except asyncio.TimeoutError:
                if time.perf_counter() > deadline and sent is None:
                    return None                     # time is up and nothing is in flight
                continue
            except websockets.ConnectionClosed:
                return retry
            totals.received_bytes += len(raw)
            message = parse(raw)
            if message["type"] == "error":
                totals.errors.append(message["error"])
                if message.get("retry_after") is not None:
                    retry = float(message["retry_after"])
                if sent is None:
                    continue
                sent_at, sent = None, None          # refused: try again on the next state
                continue
            if message["type"] != "state":
                continue
            if sent is not None and message["event_count"] > sent[0]:
                assert sent_at is not None
                totals.latencies.append(time.perf_counter() - sent_at)
                record.acked.append(sent)
                sent_at, sent = None, None
            if message["over"] or (time.perf_counter() > deadline and sent is None):
                return None
            if message["legal"] and sent is None:
                if interval:                        # a player who thinks: the offered rate
                    wait = record.next_at - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    # Think times are exponential (moves arrive as a Poisson process), so the
                    # tables do not move in lockstep bursts.
                    record.next_at = (max(record.next_at, time.perf_counter())
                                      + record.pace.expovariate(1 / interval))
                choice = rng.choice(message["legal"])["id"]
                sent = (message["event_count"], choice)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": choice,
                                          "after": message["event_count"]}))


async def table_worker(index: int, bases: list[str], ws_bases: list[str], deadline: float,
                       totals: Totals, interval: float) -> None:
    rng = random.Random(index)
    seed = index * 1000
    n = len(bases)
    while time.perf_counter() < deadline:
        made = await asyncio.to_thread(create_table, bases[index % n], seed)
        seed += 1
        record = TableRecord(made["table"], pace=random.Random(rng.random()))
        totals.tables.append(record)
        await asyncio.gather(*(seat_client(ws_bases[index % n], made["table"],
                                           token, random.Random(rng.random()), deadline, record,
                                           totals, interval)
                               for seat, token in made["seats"].items()))


def verify(db: str, acked_by_table: dict[str, list[int]]) -> tuple[int, int, int]:
    """Replay every table's save; compare its log with the acknowledged actions.
    Returns (actions in logs, lost, duplicated or unexpected). Run by the served build
    (``--verify``): its store and its rules wrote the saves."""
    from cardcore import load_game
    from cardcore.server.storage import open_store
    store = open_store(db)
    logged = lost = extra = 0
    for table, acked in acked_by_table.items():
        stored = store.load(table)                  # the checkpoint and the rows after it
        assert stored is not None
        game = load_game(stored.save)               # replays the log through the rules
        log = game.action_log()
        logged += len(log)
        if log != acked:
            common = 0
            while common < min(len(log), len(acked)) and log[common] == acked[common]:
                common += 1
            lost += len(acked) - common
            extra += len(log) - common
    store.close()
    return logged, lost, extra


def is_postgres_url(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def new_database(url: str, label: str) -> str:
    """A new, empty database on the server of ``url`` (which may create databases), named
    after the slice: its URL. Several builds' schemas cannot share one database."""
    import psycopg
    from urllib.parse import urlsplit, urlunsplit
    name = f"load_{os.getpid()}_{label}".replace("-", "_").lower()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0.0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_ready(server: subprocess.Popen, base: str, log: Path,
               timeout: float = 60.0) -> str | None:
    """None once ``base`` answers; else why not (the server's exit and its log's end)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            tail = log.read_text(errors="replace").strip().splitlines()[-5:]
            return f"exit code {server.returncode}: " + " | ".join(tail)
        try:
            urllib.request.urlopen(base + "/api/games", timeout=1).close()
            return None
        except OSError:
            time.sleep(0.1)
    return f"no answer from {base} within {timeout:g} s"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class NotStarted(Exception):
    """A server did not start (its exit and its log's end): the run stops, exit code 2."""


@dataclass(frozen=True)
class Build:
    """A cardcore to serve: the interpreter and the environment its server runs with."""
    name: str
    python: str
    env: dict[str, str]
    flags: frozenset[str]               # the options its ``serve`` knows


def make_build(name: str, where: str) -> Build:
    """``where``: a directory put first on PYTHONPATH, or a Python executable (its venv's
    installed cardcore)."""
    path = Path(where).resolve()
    if path.is_file() and os.access(path, os.X_OK):
        python, env = str(path), dict(os.environ)
    elif path.is_dir():
        python = sys.executable
        env = {**os.environ, "PYTHONPATH": str(path) + os.pathsep
               + os.environ.get("PYTHONPATH", "")}
    else:
        raise SystemExit(f"load_server: --build {name}={where}: not a directory or a Python")
    shown = subprocess.run([python, "-m", "cardcore", "serve", "--help"], env=env,
                           capture_output=True, text=True, check=False)
    if shown.returncode != 0:
        raise SystemExit(f"load_server: {name}: `cardcore serve --help` failed: "
                         f"{shown.stderr.strip()[-300:]}")
    flags = frozenset(word.rstrip(",") for word in shown.stdout.split()
                      if word.startswith("--"))
    return Build(name, python, env, flags)


def this_build() -> Build:
    """The cardcore this script imports (installed, or a source tree on PYTHONPATH), never a
    checkout's src/ found beside the script, whose extensions may not be built."""
    import cardcore
    return make_build("this", str(Path(cardcore.__file__).resolve().parents[1]))


def serve_command(build: Build, port: int, db: str, args: argparse.Namespace) -> list[str]:
    tables = args.tables
    wanted = {"--max-tables": tables * 4,
              # One client address (127.0.0.1) creates every table: lift the per-address limits.
              "--max-tables-per-client": tables * 4, "--create-rate": 1000,
              "--create-burst": tables * 100}
    if not args.default_limits:
        # ... and every socket: 4 per table, from 127.0.0.1 too (unknown to 0.3, which had
        # no per-address socket caps).
        wanted |= {"--max-connections-per-address": tables * 8 + 100,
                   "--max-sockets-per-address": tables * 8 + 100}
    command = [build.python, "-m", "cardcore", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", db, "--bot-delay", "0",
               "--synchronous", args.synchronous]
    for flag, value in wanted.items():
        if flag in build.flags:
            command += [flag, str(value)]
    return command


def run_slice(build: Build, args: argparse.Namespace, label: str) -> dict:
    """Start ``build``'s servers, play for ``args.seconds``, stop them, check the saves."""
    workdir = Path(tempfile.mkdtemp(prefix="cardcore-load-"))
    db = args.db or str(workdir / "tables.sqlite3")
    if is_postgres_url(db) and (len(args.build) > 1 or args.slices > 1):
        db = new_database(db, label)        # each slice (and build's schema) starts empty
    ports = [free_port() for _ in range(args.processes)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    ws_bases = [f"ws://127.0.0.1:{port}" for port in ports]
    logs = [workdir / f"server-{port}.log" for port in ports]
    servers = [subprocess.Popen(serve_command(build, port, db, args), stdout=log.open("wb"),
                                stderr=subprocess.STDOUT, env=build.env)
               for port, log in zip(ports, logs)]
    profilers: list[subprocess.Popen] = []
    try:
        for server, base, log in zip(servers, bases, logs):
            failure = wait_ready(server, base, log)
            if failure is not None:
                raise NotStarted(failure)
        if args.profile:
            # py-spy's samples of the server while it serves (collapsed stacks, one file per
            # slice: `py-spy record --format raw`, readable by speedscope or flamegraph.pl).
            profilers = [subprocess.Popen(
                [shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(server.pid), "--format", "raw",
                 "--nonblocking", "--rate", "200", "--duration", str(int(args.seconds)),
                 "--output", f"{args.profile}-{label}-{k}.txt"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for k, server in enumerate(servers)]
        totals = Totals()
        started = time.perf_counter()
        deadline = started + args.seconds

        async def run() -> None:
            interval = args.tables / args.rate if args.rate > 0 else 0.0
            await asyncio.gather(*(table_worker(i, bases, ws_bases, deadline, totals,
                                                interval)
                                   for i in range(args.tables)))
        cpu_before = sum(cpu_seconds(server.pid) for server in servers)
        client_before = time.process_time()
        run_loop(run())
        elapsed = time.perf_counter() - started
        server_cpu = sum(cpu_seconds(server.pid) for server in servers) - cpu_before
        client_cpu = time.process_time() - client_before
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)
        for profiler in profilers:
            profiler.wait(timeout=60)
    acked_file = workdir / "acked.json"
    acked_file.write_text(json.dumps({r.table: [a for _, a in sorted(r.acked)]
                                      for r in totals.tables}))
    checked = subprocess.run([build.python, str(Path(__file__).resolve()), "--verify", db,
                              str(acked_file)], env=build.env, capture_output=True,
                             text=True, check=False)
    if checked.returncode != 0:
        raise SystemExit(f"load_server: the check of the saves failed: "
                         f"{checked.stderr.strip()[-500:]}")
    logged, lost, extra = json.loads(checked.stdout)
    lat = totals.latencies or [0.0]
    return {
        "build": build.name,
        "clients": args.tables * SEATS, "tables_concurrent": args.tables,
        "tables_played": len(totals.tables), "seconds": round(elapsed, 2),
        "actions": len(totals.latencies),
        "actions_per_second": round(len(totals.latencies) / elapsed, 1),
        "latency_ms_p50": round(percentile(lat, 0.50) * 1000, 2),
        "latency_ms_p99": round(percentile(lat, 0.99) * 1000, 2),
        "latency_ms_max": round(max(lat) * 1000, 2),
        "actions_in_stored_logs": logged, "lost": lost, "duplicated_or_unacknowledged": extra,
        "refusals": len(totals.errors), "sockets_refused_then_retried": totals.refused_sockets,
        "store": "postgresql" if is_postgres_url(db) else f"sqlite ({args.synchronous})",
        "processes": args.processes, "synchronous": args.synchronous,
        "offered_rate": args.rate or "saturating",
        # CPU per action does not depend on what else the machine runs: 1 / it is what one
        # core can serve. The load average says how contended the run was.
        "server_cpu_ms_per_action": round(server_cpu / max(len(totals.latencies), 1) * 1000, 3),
        # What the pushes carry: a release that sends more per action (0.4's moves, zones and
        # texts) spends more per action; CPU per pushed KB compares the work per content.
        "pushed_kb_per_action": round(totals.received_bytes / 1024
                                      / max(len(totals.latencies), 1), 2),
        "server_cpu_us_per_pushed_kb": round(server_cpu * 1e6 / max(totals.received_bytes / 1024,
                                                                    1), 2),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "load_average_1min": round(os.getloadavg()[0], 1),
    }


def print_comparison(results: list[dict], builds: list[Build]) -> None:
    """Per round, each build's CPU per action and actions/s as ratios to the first build's."""
    first = builds[0].name
    print(f"\n{'round':>5} " + " ".join(f"{b.name + ' ms/action':>18} {b.name + ' act/s':>14}"
                                         f" {b.name + ' KB/action':>14}" for b in builds)
          + "".join(f" {b.name + '/' + first + ' cpu':>16} {b.name + '/' + first + ' act/s':>18}"
                    f" {b.name + '/' + first + ' cpu/KB':>18}" for b in builds[1:]))
    rounds = [results[k:k + len(builds)] for k in range(0, len(results), len(builds))]
    for k, row in enumerate(rounds):
        line = f"{k + 1:>5} " + " ".join(f"{r['server_cpu_ms_per_action']:>18} "
                                         f"{r['actions_per_second']:>14} "
                                         f"{r['pushed_kb_per_action']:>14}" for r in row)
        for r in row[1:]:
            line += (f" {r['server_cpu_ms_per_action'] / row[0]['server_cpu_ms_per_action']:>16.2f}"
                     f" {r['actions_per_second'] / row[0]['actions_per_second']:>18.2f}"
                     f" {r['server_cpu_us_per_pushed_kb'] / row[0]['server_cpu_us_per_pushed_kb']:>18.2f}")
        print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workload", choices=("load", "people-only"), default="load",
                        help="load: --tables 50 unless given; people-only: the issue-46 "
                             "workload, --tables 20 unless given")
    parser.add_argument("--tables", type=int, default=None,
                        help="concurrent tables (4 clients each)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--synchronous", choices=("full", "normal"), default="full")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="offered actions/s over all tables (players pace their moves); "
                             "0: every move at once (the server's saturation point)")
    parser.add_argument("--db", default=None,
                        help="a postgresql:// URL (an empty database; with several builds or "
                             "slices, one its role may create databases with: a new database "
                             "per slice); default: a new SQLite "
                             "file per slice")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes on the database (more than 1: PostgreSQL)")
    parser.add_argument("--default-limits", action="store_true",
                        help="keep the server's per-address socket and connection limits "
                             "(a NAT's load); table creation stays lifted")
    parser.add_argument("--build", action="append", default=[], metavar="NAME=PATH",
                        help="a cardcore to serve: PATH a directory put first on PYTHONPATH "
                             "or a Python executable (repeat: alternating slices)")
    parser.add_argument("--slices", type=int, default=1,
                        help="rounds; each round runs every build once, in turn")
    parser.add_argument("--profile", default=None, metavar="PREFIX",
                        help="py-spy samples of each slice's server to PREFIX-<build>-<round>")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verify", nargs=2, metavar=("DB", "ACKED"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.verify:                         # run by the served build: see verify()
        db, acked_file = args.verify
        print(json.dumps(verify(db, json.loads(Path(acked_file).read_text()))))
        return 0
    if args.tables is None:
        args.tables = 20 if args.workload == "people-only" else 50
    if args.processes > 1 and not (args.db and is_postgres_url(args.db)):
        parser.error("--processes > 1 needs --db postgresql://...")
    if len(args.build) > 1 and args.db and not is_postgres_url(args.db):
        parser.error("several builds: each slice uses a new SQLite file or, with a "
                     "postgresql:// --db, a new database on its server")
    builds = [make_build(*spec.split("=", 1)) if "=" in spec else make_build(spec, spec)
              for spec in args.build] or [this_build()]

    results = []
    for k in range(args.slices):
        for build in builds:
            try:
                result = run_slice(build, args, f"{build.name}-{k + 1}")
            except NotStarted as e:
                print(f"load_server: a server failed to start: {e}", file=sys.stderr)
                return 2
            result["workload"] = args.workload
            results.append(result)
            if args.json:
                print(json.dumps(result), flush=True)
            else:
                print(f"-- {build.name}, round {k + 1}")
                for key, value in result.items():
                    print(f"{key:>30}: {value}")
    if len(builds) > 1 and not args.json:
        print_comparison(results, builds)
    return 0 if all(r["lost"] == 0 and r["duplicated_or_unacknowledged"] == 0
                    for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
