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
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import websockets

import cardcore
from cardcore import load_game
from cardcore.server.storage import is_postgres_url, open_store

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def create_table(base: str, seed: int) -> dict:
    body = json.dumps({"game": GAME, "players": SEATS, "seed": seed}).encode()
    request = urllib.request.Request(base + "/api/tables", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


async def seat_client(ws_base: str, table: str, token: str, rng: random.Random,
                      deadline: float, record: TableRecord, totals: Totals,
                      interval: float) -> None:
    """One player: act whenever it is our turn, until the match is over or time is up."""
    async with websockets.connect(f"{ws_base}/ws/tables/{table}",
                                  subprotocols=["cardcore", f"cardcore.token.{token}"],
                                  max_size=2 ** 22) as ws:
        sent_at: float | None = None
        sent: tuple[int, int] | None = None
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except asyncio.TimeoutError:
                if time.perf_counter() > deadline and sent is None:
                    return                          # time is up and nothing is in flight
                continue
            message = parse(raw)
            if message["type"] == "error":
                totals.errors.append(message["error"])
                if sent is None:
                    continue
                sent_at, sent = None, None          # refused: try again on the next state
                continue
            if sent is not None and message["event_count"] > sent[0]:
                assert sent_at is not None
                totals.latencies.append(time.perf_counter() - sent_at)
                record.acked.append(sent)
                sent_at, sent = None, None
            if message["over"] or (time.perf_counter() > deadline and sent is None):
                return
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


def verify(db: str, totals: Totals) -> tuple[int, int, int]:
    """Replay every table's save; compare its log with the acknowledged actions.
    Returns (actions in logs, lost, duplicated or unexpected)."""
    store = open_store(db)
    logged = lost = extra = 0
    for record in totals.tables:
        stored = store.load(record.table)           # the checkpoint and the rows after it
        assert stored is not None
        game = load_game(stored.save)               # replays the log through the rules
        log = game.action_log()
        acked = [action for _, action in sorted(record.acked)]
        logged += len(log)
        if log != acked:
            common = 0
            while common < min(len(log), len(acked)) and log[common] == acked[common]:
                common += 1
            lost += len(acked) - common
            extra += len(log) - common
    store.close()
    return logged, lost, extra


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="concurrent tables (4 clients each)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--synchronous", choices=("full", "normal"), default="full")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="offered actions/s over all tables (players pace their moves); "
                             "0: every move at once (the server's saturation point)")
    parser.add_argument("--db", default=None,
                        help="a postgresql:// URL (an empty database); default: a new SQLite "
                             "file")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes on the database (more than 1: PostgreSQL)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.processes > 1 and not (args.db and is_postgres_url(args.db)):
        parser.error("--processes > 1 needs --db postgresql://...")

    workdir = Path(tempfile.mkdtemp(prefix="cardcore-load-"))
    db = args.db or str(workdir / "tables.sqlite3")
    ports = [free_port() for _ in range(args.processes)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    ws_bases = [f"ws://127.0.0.1:{port}" for port in ports]
    # The servers run the cardcore this script imported (installed, or a source tree on
    # PYTHONPATH), never a checkout's src/ found beside the script, whose extensions may not
    # be built.
    here = str(Path(cardcore.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": here + os.pathsep + os.environ.get("PYTHONPATH", "")}
    logs = [workdir / f"server-{port}.log" for port in ports]
    servers = [subprocess.Popen(
        [sys.executable, "-m", "cardcore", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", db, "--bot-delay", "0", "--synchronous", args.synchronous,
         "--max-tables", str(args.tables * 4),
         # One client address (127.0.0.1) creates every table: lift the per-address limits.
         "--max-tables-per-client", str(args.tables * 4), "--create-rate", "1000",
         "--create-burst", str(args.tables * 100),
         # ... and every socket: 4 per table, from 127.0.0.1 too.
         "--max-connections-per-address", str(args.tables * 8 + 100),
         "--max-sockets-per-address", str(args.tables * 8 + 100)],
        stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env)
        for port, log in zip(ports, logs)]
    try:
        for server, base, log in zip(servers, bases, logs):
            failure = wait_ready(server, base, log)
            if failure is not None:
                print(f"load_server: a server failed to start: {failure}", file=sys.stderr)
                return 2
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
    logged, lost, extra = verify(db, totals)
    lat = totals.latencies
    result = {
        "clients": args.tables * SEATS, "tables_concurrent": args.tables,
        "tables_played": len(totals.tables), "seconds": round(elapsed, 2),
        "actions": len(lat), "actions_per_second": round(len(lat) / elapsed, 1),
        "latency_ms_p50": round(percentile(lat, 0.50) * 1000, 2),
        "latency_ms_p99": round(percentile(lat, 0.99) * 1000, 2),
        "latency_ms_max": round(max(lat) * 1000, 2),
        "actions_in_stored_logs": logged, "lost": lost, "duplicated_or_unacknowledged": extra,
        "refusals": len(totals.errors),
        "store": "postgresql" if is_postgres_url(db) else f"sqlite ({args.synchronous})",
        "processes": args.processes, "synchronous": args.synchronous,
        "offered_rate": args.rate or "saturating",
        # CPU per action does not depend on what else the machine runs: 1 / it is what one
        # core can serve. The load average says how contended the run was.
        "server_cpu_ms_per_action": round(server_cpu / max(len(lat), 1) * 1000, 3),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "load_average_1min": round(os.getloadavg()[0], 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")
    return 0 if lost == 0 and extra == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
