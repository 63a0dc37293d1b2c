"""The event loop never waits on the store (issue 46, item 2; docs/operations.md, "Health
checks"): `cardcore serve` processes reach PostgreSQL through a TCP proxy the test controls
(store_proxy.py). With a slow store (50 ms each way) `/livez` answers fast while moves commit
and tables change hands between the processes (lease polls, loads and replays), and no lease
is lost; with a silent store `/livez` keeps answering, `/readyz` turns 503 within its
timeout, nothing stored is corrupted, and once the store answers again (what it held goes on,
or every connection breaks) `/readyz` is 200 and a move at the table is acknowledged within
``RECOVERED_WITHIN``.

The bounds are generous (the machine is shared and loaded); the slow store's bound, 100 ms,
is one round trip to the store: a loop that waited on it even once would fail it."""
from __future__ import annotations

import http.client
import json
import statistics
import threading
import time

import pytest

from pg_cluster import Cluster
from server_helpers import ServerProcess
from store_proxy import StoreProxy
from test_server_pg import stored_game

pytestmark = pytest.mark.slow       # server processes and a PostgreSQL cluster of their own

DELAY = 0.05                        # each way: a 100 ms round trip
# A cheap request's p99 while tables change hands. The issue asks 20 ms; measured 6-23 ms at
# a load of 15-17 on two cores, where 20 ms failed in 2 of 9 runs (the probe's client and
# the server wait for the cores with the other tests' processes). 50 ms still fails a loop that
# waited on the store at 1 % of the probes: each such wait is a 100 ms round trip.
CHEAP_P99 = 0.050
READY_WITHIN = 2.0 + 0.5 + 2.5      # vitals.READY_TIMEOUT + CHECK_EVERY + slack
# Once the store answers again, docs/operations.md's bound: a call held through the silence
# ends when the store answers (what it held goes on) or fails at once (its connection broke;
# a real network's tcp_user_timeout, 10 s, breaks it at the latest), the lane reconnects
# (pg_store.RECONNECT_SECONDS, 1 s, then a connect bounded at 3 s), the lease is taken again
# (a round trip) and the next health check (every 0.5 s) answers: 4.5 s and a few round
# trips, 10 s with the slack a loaded machine needs. Calls whose callers gave up meanwhile
# never run (lanes.py): nothing queues behind the silence.
RECOVERED_WITHIN = 10.0


class Client:
    """Keep-alive HTTP, as a browser."""

    def __init__(self, server: ServerProcess) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)

    def call(self, method: str, path: str, body: object = None) -> tuple[int, dict]:
        self.conn.request(method, path, body=None if body is None else json.dumps(body),
                          headers={"Content-Type": "application/json"})
        response = self.conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")


class Probe(threading.Thread):
    """GET ``path`` every 20 ms until stopped: (start, seconds, status) of each."""

    def __init__(self, server: ServerProcess, path: str) -> None:
        super().__init__(daemon=True)
        self.client, self.path = Client(server), path
        self.seen: list[tuple[float, float, int]] = []
        self.stopping = threading.Event()
        self.start()

    def run(self) -> None:
        while not self.stopping.is_set():
            start = time.monotonic()
            status, _ = self.client.call("GET", self.path)
            self.seen.append((start, time.monotonic() - start, status))
            time.sleep(0.02)

    def stop(self) -> list[tuple[float, float, int]]:
        self.stopping.set()
        self.join(30)
        return self.seen


def p99(seconds: list[float]) -> float:
    return statistics.quantiles(seconds, n=100)[98]


class Player(threading.Thread):
    """People in both seats of a 2-player Kings' Stakes table, each move (and the read
    before it) through the next server in turn; every status kept, every action answered
    200 kept in ``acked`` with the time it was answered."""

    def __init__(self, servers: list[ServerProcess], table: str, seats: dict[str, str],
                 until: float, pace: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.clients = [Client(s) for s in servers]
        self.table, self.seats, self.until, self.pace = table, seats, until, pace
        self.acked: list[tuple[float, int]] = []
        self.move_seconds: list[float] = []         # each acknowledged move's answer time
        self.statuses: list[int] = []
        self.over_at: float | None = None           # when it saw the match over
        self.start()

    def run(self) -> None:
        k = 0
        while time.monotonic() < self.until:
            client = self.clients[k % len(self.clients)]
            k += 1
            status, public = client.call("GET", f"/api/tables/{self.table}")
            self.statuses.append(status)
            if status != 200:
                time.sleep(0.1)
                continue
            if public["over"]:
                self.over_at = time.monotonic()
                return
            token = self.seats[str(public["current_player"])]
            status, mine = client.call("GET", f"/api/tables/{self.table}?token={token}")
            self.statuses.append(status)
            if status != 200 or not mine["legal"]:
                time.sleep(0.1)
                continue
            choice = mine["legal"][0]["id"]
            start = time.monotonic()
            status, _ = client.call("POST", f"/api/tables/{self.table}/actions", {
                "token": token, "action": choice, "after": mine["event_count"]})
            self.statuses.append(status)
            if status == 200:
                self.acked.append((time.monotonic(), choice))
                self.move_seconds.append(time.monotonic() - start)
                time.sleep(self.pace)


def lost_leases(server: ServerProcess) -> float:
    conn = Client(server).conn
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith('cardcore_lease_changes_total{change="lost"}'))


def is_subsequence(short: list[int], long: list[int]) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


@pytest.fixture
def store(tmp_path):
    with Cluster() as cluster, StoreProxy(cluster.port) as proxy:
        url = cluster.new_database()
        yield url, url.replace(f":{cluster.port}/", f":{proxy.port}/"), proxy


def new_table(server: ServerProcess, seed: int) -> tuple[str, dict[str, str]]:
    status, made = server.request("POST", "/api/tables", {
        "game": "kings_stakes", "players": 2, "seed": seed})
    assert status == 201, made
    return made["table"], made["seats"]


def test_a_slow_store_never_stalls_the_loop_while_tables_change_hands(store, tmp_path):
    direct, url, proxy = store
    servers = [ServerProcess(url, log=tmp_path / f"server{k}.log",
                             extra=("--message-rate", "1000")) for k in range(2)]
    try:
        tables = [new_table(servers[k % 2], k) for k in range(3)]
        proxy.delay = DELAY
        probes = [Probe(s, "/livez") for s in servers]
        until = time.monotonic() + 15
        # Two tables take every move through the other process than the one before: each
        # move takes the table over (the lease asked for, handed over, taken, the table
        # loaded and replayed), each read elsewhere is a copy loaded from the store. The
        # third stays on its process: its moves commit one after another.
        players = [Player(servers[k:] + servers[:k], t, s, until)
                   for k, (t, s) in enumerate(tables[:2])]
        players.append(Player(servers[:1], *tables[2], until))
        for player in players:
            player.join(60)
        seen = [probe.stop() for probe in probes]
        proxy.delay = 0.0
        figures = []
        for server, probed in zip(servers, seen):
            assert {status for _, _, status in probed} == {200}
            took = [s for _, s, _ in probed]
            assert len(took) > 50
            assert p99(took) < CHEAP_P99, (p99(took), max(took))
            assert lost_leases(server) == 0            # nothing was down
            figures.append(f"livez p99 {p99(took) * 1000:.1f} ms max {max(took) * 1000:.1f} ms")
        # A move at the table served where it is asked: its commit is one round trip, and
        # the request a few local steps; the bound is 3 round trips at the p50.
        moves = statistics.median(players[2].move_seconds)
        assert moves <= 3 * 2 * DELAY, moves
        print(f"slow store: {'; '.join(figures)}; a move's p50 {moves * 1000:.0f} ms "
              f"({moves / (2 * DELAY):.2f} round trips), moves {[len(p.acked) for p in players]}")
        for player, (table, _) in zip(players, tables):
            assert 500 not in player.statuses
            log = stored_game(direct, table).action_log()
            assert is_subsequence([a for _, a in player.acked], log)
        assert min(len(p.acked) for p in players[:2]) >= 2       # taken over each time
        assert len(players[2].acked) >= 20, players[2].statuses  # ~1 round trip a commit
    finally:
        proxy.delay = 0.0
        for server in servers:
            server.kill()


@pytest.mark.parametrize("afterwards", ["held bytes go on", "connections break"])
def test_a_silent_store_keeps_livez_answering_readyz_turns_503_and_play_resumes(
        store, tmp_path, afterwards):
    direct, url, proxy = store
    server = ServerProcess(url, log=tmp_path / "server.log", extra=("--message-rate", "1000"))
    try:
        table, seats = new_table(server, 3)
        live, ready = Probe(server, "/livez"), Probe(server, "/readyz")
        silent_at = time.monotonic() + 2
        until = silent_at + 8 + 15
        # A move every 0.1 s: the match (about 130 moves) lasts through the silence and
        # after it (unpaced, a fast machine finished it before the silence began).
        player = Player([server], table, seats, until, pace=0.1)
        time.sleep(max(0.0, silent_at - time.monotonic()))
        proxy.silent = True                             # packets held: no answer, no close
        time.sleep(8)
        if afterwards == "connections break":
            proxy.reset()
        else:
            proxy.silent = False
        spoke_at = time.monotonic()
        player.join(60)
        lived, readiness = live.stop(), ready.stop()

        # /livez answered all along, fast.
        assert {status for _, _, status in lived} == {200}
        during = [s for at, s, _ in lived if silent_at <= at < spoke_at]
        assert len(during) > 20 and max(during) < 1.0 and p99(during) < 0.25, during
        # /readyz turned 503 within its timeout, answering fast all the while, and 200 again
        # once the store spoke; play resumed at the same table as soon.
        failing = [at for at, _, status in readiness if status == 503 and at >= silent_at]
        assert failing and failing[0] - silent_at < READY_WITHIN, readiness
        assert all(s < 1.0 for at, s, _ in readiness if silent_at <= at < spoke_at)
        back = [at for at, _, status in readiness if status == 200 and at > spoke_at]
        assert back and back[0] - spoke_at < RECOVERED_WITHIN, readiness
        moved = [at for at, _ in player.acked if at > spoke_at]
        assert moved and moved[0] - spoke_at < RECOVERED_WITHIN, (player.over_at, spoke_at,
                                                                  player.statuses)
        assert len(moved) >= 5
        print(f"silent store ({afterwards}): readyz 503 after {failing[0] - silent_at:.2f} s, "
              f"200 again {back[0] - spoke_at:.2f} s and a move acknowledged "
              f"{moved[0] - spoke_at:.2f} s after the store spoke; livez p99 "
              f"{p99(during) * 1000:.1f} ms, max {max(during) * 1000:.1f} ms")
        # No 500, nothing acknowledged lost.
        assert 500 not in player.statuses
        assert any(at < silent_at for at, _ in player.acked)
        log = stored_game(direct, table).action_log()
        assert is_subsequence([a for _, a in player.acked], log)
        status, public = server.request("GET", f"/api/tables/{table}")
        assert status == 200 and public["current_player"] == stored_game(
            direct, table).current_player
    finally:
        proxy.silent = False
        server.kill()
