"""PostgreSQL latency and capacity of `cardcore serve` (docs/operations.md, "PostgreSQL:
latency and capacity"; not a timed unit test).

A throwaway PostgreSQL cluster (tests/pg_cluster.py), a TCP proxy written here with asyncio
in front of it that holds every chunk DELAY ms in each direction (a round trip of 2 x
DELAY, the bandwidth untouched), and one `cardcore serve` process whose `--db` goes through
the proxy. For each delay:

- **a move's latency**: people in both seats of a 2-player Kings' Stakes table, one move at
  a time (each seat reads its state, then posts its move): the time from sending the POST to
  its answer, which comes after the commit (p50, p90, max);
- **throughput**: CLIENTS threads, each playing its own table as fast as it is answered, for
  SECONDS: actions/s (a finished table is replaced by a new one);
- **connections**: the server's connections to PostgreSQL (``pg_stat_activity``,
  application_name ``cardcore serve``).

    python benchmarks/pg_latency.py                          # delays 0, 10 and 50 ms
    python benchmarks/pg_latency.py --delays 0 25 --moves 60 --seconds 15 --clients 16
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from pg_cluster import Cluster  # noqa: E402  (the test suite's throwaway cluster)

GAME = "kings_stakes"
SERVE = ("--bot-delay", "0", "--create-burst", "10000", "--create-rate", "10000",
         "--max-tables-per-client", "100000", "--max-tables", "100000",
         "--message-rate", "10000", "--quiet-health-checks", "--log-level", "warning")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ------------------------------------------------------------------ the delaying proxy
class DelayProxy(threading.Thread):
    """127.0.0.1:port -> target, every chunk delivered ``delay`` seconds after it arrived, in
    order, in each direction."""

    def __init__(self, target: int, delay: float) -> None:
        super().__init__(daemon=True)
        self.target, self.delay = target, delay
        self.port = free_port()
        self.ready = threading.Event()

    def run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        server = await asyncio.start_server(self._client, "127.0.0.1", self.port)
        self.ready.set()
        async with server:
            await server.serve_forever()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer),
                             return_exceptions=True)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:
                    writer.close()
                    return
                writer.write(data)
                await writer.drain()
        delivering = asyncio.create_task(deliver())
        try:
            while True:
                data = await reader.read(65536)
                queue.put_nowait((loop.time() + self.delay, data))
                if not data:
                    break
            await delivering
        except (ConnectionError, OSError):
            delivering.cancel()
            writer.close()


# ------------------------------------------------------------------ the players
class Client:
    """Keep-alive HTTP to the server, as a browser."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body: object = None) -> tuple[int, dict]:
        self.conn.request(method, path, body=None if body is None else json.dumps(body),
                          headers={"Content-Type": "application/json"})
        response = self.conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")


@dataclass
class Table:
    client: Client
    table: str = ""
    seats: dict[str, str] = field(default_factory=dict)

    def new(self) -> None:
        status, made = self.client.call("POST", "/api/tables", {"game": GAME, "players": 2})
        assert status == 201, made
        self.table, self.seats = made["table"], made["seats"]

    def move(self) -> float | None:
        """One move of the seat to move: the POST's seconds (None: the match ended)."""
        status, public = self.client.call("GET", f"/api/tables/{self.table}")
        assert status == 200, public
        if public["over"]:
            return None
        token = self.seats[str(public["current_player"])]
        status, mine = self.client.call("GET", f"/api/tables/{self.table}?token={token}")
        assert status == 200, mine
        start = time.perf_counter()
        status, answer = self.client.call("POST", f"/api/tables/{self.table}/actions", {
            "token": token, "action": mine["legal"][0]["id"], "after": mine["event_count"]})
        took = time.perf_counter() - start
        assert status == 200, answer
        return took


def latency(port: int, moves: int) -> list[float]:
    table = Table(Client(port))
    table.new()
    times: list[float] = []
    while len(times) < moves:
        took = table.move()
        if took is None:
            table.new()
        else:
            times.append(took)
    return times


def throughput(port: int, clients: int, seconds: float) -> float:
    counts = [0] * clients
    stop = time.monotonic() + seconds

    def play(k: int) -> None:
        table = Table(Client(port))
        table.new()
        while time.monotonic() < stop:
            if table.move() is None:
                table.new()
            else:
                counts[k] += 1
    threads = [threading.Thread(target=play, args=(k,)) for k in range(clients)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - start)


def server_connections(cluster: Cluster, database: str) -> int:
    import psycopg
    with psycopg.connect(cluster.url(database), autocommit=True) as conn:
        return int(conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name LIKE 'cardcore serve%'").fetchone()[0])


def measure(cluster: Cluster, delay_ms: float, args: argparse.Namespace,
            folder: Path) -> dict[str, float]:
    url = cluster.new_database()
    database = url.rsplit("/", 1)[1]
    proxy = DelayProxy(cluster.port, delay_ms / 1000)
    proxy.start()
    proxy.ready.wait(10)
    port = free_port()
    log = open(folder / f"serve-{delay_ms:g}.log", "wb")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    db = f"postgresql://postgres@127.0.0.1:{proxy.port}/{database}"
    server = subprocess.Popen([sys.executable, "-m", "cardcore", "serve", "--port", str(port),
                               "--db", db, *SERVE], stdout=log, stderr=subprocess.STDOUT,
                              env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if Client(port).call("GET", "/readyz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"the server did not start: {folder}")
            time.sleep(0.2)
        times = latency(port, args.moves)
        rate = throughput(port, args.clients, args.seconds)
        connections = server_connections(cluster, database)
    finally:
        server.terminate()
        server.wait(30)
        log.close()
    ms = sorted(t * 1000 for t in times)
    return {"delay_ms": delay_ms, "rtt_ms": 2 * delay_ms, "p50": statistics.median(ms),
            "p90": ms[int(0.9 * (len(ms) - 1))], "max": ms[-1], "actions_s": rate,
            "connections": connections}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delays", type=float, nargs="+", default=[0, 10, 50],
                        help="ms added in each direction (default 0 10 50)")
    parser.add_argument("--moves", type=int, default=40, help="moves timed one at a time")
    parser.add_argument("--clients", type=int, default=8, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=10.0, help="of the throughput run")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="cardcore-pg-latency-"))
    rows = []
    with Cluster(fsync=True) as cluster:
        for delay in args.delays:
            rows.append(measure(cluster, delay, args, folder))
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{'delay ms':>8} {'rtt ms':>6} {'move p50':>9} {'p90':>7} {'max':>7} "
          f"{'actions/s':>9} {'conns':>5}  ({args.clients} tables at once)")
    for r in rows:
        print(f"{r['delay_ms']:>8g} {r['rtt_ms']:>6g} {r['p50']:>9.1f} {r['p90']:>7.1f} "
              f"{r['max']:>7.1f} {r['actions_s']:>9.1f} {r['connections']:>5}")


if __name__ == "__main__":
    main()
