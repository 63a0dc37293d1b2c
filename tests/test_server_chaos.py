"""Chaos under the documented deployment (docs/operations.md): two `cardcore serve` processes
behind HAProxy (the minimal configuration, and the production one over TLS) on one
PostgreSQL cluster, people playing 12 tables over HTTP through the
proxy, then mid-traffic a `kill -9` of one process, its restart (its tables move back to it,
handed over by the survivor), and a PostgreSQL restart. It must hold that:

- no acknowledged action is lost or stored twice (each stored log, replayed, has every
  acknowledged action in order, and no more actions than were sent);
- every table plays to its end;
- every read after an acknowledged move shows it, through either process;
- no traceback in any process's log.
"""
from __future__ import annotations

import http.client
import random
import threading
import time
import urllib.error
from pathlib import Path

import pytest

from cardcore.registry import available_games, game_class
from pg_cluster import Cluster
from server_helpers import Proxy, ServerProcess
from test_server_pg import stored_game
from test_server_pg_restart import is_subsequence

pytestmark = pytest.mark.slow       # server processes and a PostgreSQL cluster of its own

TABLES = 12
EXTRA = ("--create-burst", "100", "--create-rate", "50", "--message-rate", "1000",
         "--stall-after", "1")
# The registry's games whose short match has two people (each table's seats are played).
GAMES = [g for g in available_games() if game_class(g).short_match.players == 2]
PAUSE = 0.03                        # between a client's moves: the tables outlast the chaos
IO_ERRORS = (OSError, urllib.error.URLError, http.client.HTTPException)


class Player(threading.Thread):
    """One table's people: random legal moves through the proxy until the match ends."""

    def __init__(self, proxy: Proxy, processes: list[ServerProcess], table: str,
                 seats: dict[str, str], seed: int, deadline: float) -> None:
        super().__init__(daemon=True)
        self.proxy, self.processes, self.table, self.seats = proxy, processes, table, seats
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.acked: list[int] = []
        self.sent = 0
        self.reads_checked = 0
        self.statuses: dict[int, int] = {}
        self.over = False
        self.failure: BaseException | None = None

    def count(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1

    def run(self) -> None:
        try:
            self.play()
        except BaseException as e:                  # the test reports it
            self.failure = e

    def play(self) -> None:
        path = f"/api/tables/{self.table}"
        while time.monotonic() < self.deadline:
            try:
                status, public = self.proxy.request("GET", path)
                self.count(status)
                if status != 200:
                    assert status in (502, 503), (status, public)
                    time.sleep(0.05)
                    continue
                if public["over"]:
                    self.over = True
                    return
                token = self.seats[str(public["current_player"])]
                status, mine = self.proxy.request("GET", f"{path}?token={token}")
                self.count(status)
                if status != 200 or not mine["legal"]:
                    continue
                choice = self.rng.choice(mine["legal"])["id"]
                self.sent += 1
                status, after = self.proxy.request("POST", f"{path}/actions", {
                    "token": token, "action": choice, "after": mine["event_count"]})
                self.count(status)
            except IO_ERRORS:
                continue                  # a process killed under the request
            if status != 200:
                # 409: the store had moved on (a retried commit that had gone through);
                # 502/503: a process down, the store down, or the table moving.
                assert status in (409, 502, 503), (status, after)
                time.sleep(0.05)
                continue
            self.acked.append(choice)
            self.check_read(after["event_count"])
            time.sleep(PAUSE)

    def check_read(self, acknowledged: int) -> None:
        """A read through a live process, at random, shows the acknowledged move."""
        live = [p for p in self.processes if p.process.poll() is None]
        try:
            status, seen = self.rng.choice(live).request("GET", f"/api/tables/{self.table}")
        except IO_ERRORS:
            return
        if status == 200:                           # (503 while PostgreSQL restarts)
            assert seen["event_count"] >= acknowledged, (seen["event_count"], acknowledged)
            self.reads_checked += 1


def start(url: str, log: Path, port: int | None = None) -> ServerProcess:
    return ServerProcess(url, bot_delay=0, port=port, log=log, extra=EXTRA)


# Behind docs/operations.md's minimal configuration, and its production one (TLS, the
# per-address limit, shutdown-sessions, redispatch: examples/deploy/haproxy.cfg).
@pytest.mark.parametrize("production", [False, True], ids=["minimal", "production"])
def test_kill_9_restart_and_a_postgresql_restart_lose_nothing(tmp_path, production):
    with Cluster() as cluster:
        url = cluster.new_database()
        a, b = start(url, tmp_path / "a.log"), start(url, tmp_path / "b.log")
        processes = [a, b]
        proxy = Proxy(processes, tmp_path, production=production)
        players: list[Player] = []
        try:
            deadline = time.monotonic() + 150
            for k in range(TABLES):
                game = GAMES[k % len(GAMES)]
                status, made = proxy.request("POST", "/api/tables", {
                    "game": game, "players": 2, "seed": k,
                    "options": dict(game_class(game).short_match.options)})
                assert status == 201, made
                players.append(Player(proxy, processes, made["table"], made["seats"], k,
                                      deadline))
            for player in players:
                player.start()
            time.sleep(2.0)
            acked_before_kill = sum(len(p.acked) for p in players)
            a.kill()                                 # kill -9, mid-traffic
            time.sleep(2.0)
            restarted = start(url, tmp_path / "a2.log", port=a.port)
            processes.append(restarted)              # the players read through it too
            time.sleep(2.0)
            cluster.pause()                          # PostgreSQL restarts, mid-traffic
            time.sleep(1.0)
            cluster.resume()
            acked_before_restart = sum(len(p.acked) for p in players)
            for player in players:
                player.join(max(1.0, deadline - time.monotonic()))
            assert not [p for p in players if p.is_alive()], "a table did not finish in time"
            failures = [p.failure for p in players if p.failure is not None]
            assert not failures, failures
            assert acked_before_kill > 0
            # The traffic spans the chaos: moves were acknowledged after the restarts too.
            assert sum(len(p.acked) for p in players) > acked_before_restart
            for player in players:
                assert player.over
                game = stored_game(url, player.table)
                assert game.is_over
                log = game.action_log()
                assert is_subsequence(player.acked, log), player.table    # nothing lost
                assert len(log) <= player.sent, player.table              # nothing twice
            statuses: dict[int, int] = {}
            for player in players:
                for status, n in player.statuses.items():
                    statuses[status] = statuses.get(status, 0) + n
            print(f"acknowledged {sum(len(p.acked) for p in players)} moves, "
                  f"{sum(p.reads_checked for p in players)} reads checked; "
                  f"statuses {sorted(statuses.items())}")
        finally:
            for player in players:
                player.deadline = 0.0
            proxy.stop()
            for process in processes:
                process.stop()
        for log_file in (tmp_path / "a.log", tmp_path / "b.log", tmp_path / "a2.log"):
            text = log_file.read_text(errors="replace")
            assert "Traceback" not in text, text[-3000:]
