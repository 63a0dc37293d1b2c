"""Several `cardcore serve` processes on one PostgreSQL database behind the documented
HAProxy (docs/operations.md, "One process per table"): real server subprocesses (uvicorn)
and a throwaway cluster (tests/pg_cluster.py).

- the seats and spectators of a table, through the proxy, play complete matches of every
  game on one process, and every move reaches every socket;
- the same move sent through both processes at once is applied once;
- a move through the process that does not hold the table takes it over: the holder lets
  it go and closes its sockets with 1012;
- `kill -9` of one process mid-traffic loses no acknowledged action, and the survivor takes
  its tables over and plays them to their end;
- a read through either process shows every acknowledged move;
- every stored log, replayed, gives the games the clients saw.
"""
from __future__ import annotations

import asyncio
import http.client
import json
import random
import signal
import threading
import time
import urllib.error
import urllib.request

import pytest
import websockets

from cardcore import load_game
from cardcore.registry import available_games, game_class
from cardcore.server.pg_store import PgTableStore
from server_helpers import Proxy, ServerProcess

pytestmark = pytest.mark.slow       # server processes and a PostgreSQL cluster



def short(game: str) -> dict:
    """A complete match kept short: the game's ``short_match`` (players and options)."""
    match = game_class(game).short_match
    return {"players": match.players, "options": dict(match.options)}


def start_pair(url: str, tmp_path) -> list[ServerProcess]:
    return [ServerProcess(url, bot_delay=0, log=tmp_path / f"server{k}.log",
                          extra=("--create-burst", "100", "--create-rate", "50",
                                 "--message-rate", "1000"))   # clients move at full speed
            for k in range(2)]


def served(server: ServerProcess, table: str) -> int:
    """Requests for ``table`` in a server's access log."""
    return sum(1 for line in server.log_text().splitlines()
               if f"/tables/{table}" in line and '"' in line)


@pytest.fixture(scope="module")
def pair(pg_cluster, tmp_path_factory):
    url = pg_cluster.new_database()
    folder = tmp_path_factory.mktemp("pg-pair")
    servers = start_pair(url, folder)
    proxy = Proxy(servers, folder)
    yield url, servers, proxy
    proxy.stop()
    for server in servers:
        server.stop()
    for server in servers:
        assert "Traceback" not in server.log_path.read_text()


def stored_game(url: str, table: str):
    store = PgTableStore(url)
    try:
        stored = store.load(table)
        assert stored is not None
        return load_game(stored.save)
    finally:
        store.close()


def test_the_seats_of_a_table_through_the_proxy_play_every_game_on_one_process(pair):
    url, servers, proxy = pair

    async def play(game: str, seed: int) -> None:
        status, made = servers[seed % 2].request("POST", "/api/tables", {
            "game": game, "seed": seed, **short(game)})
        assert status == 201, made
        table, seats = made["table"], made["seats"]
        rng = random.Random(seed)
        # Every seat and two spectators through the proxy.
        clients = [(int(k), token, proxy) for k, token in seats.items()]
        clients += [(None, None, proxy), (None, None, proxy)]
        finals: list[dict] = []
        moves = [0]

        async def client(seat, token, server) -> None:
            protocols = ["cardcore"] + ([f"cardcore.token.{token}"] if token else [])
            uri = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
            events: list[dict] = []
            sent_at = -1
            async with websockets.connect(uri, subprotocols=protocols) as ws:
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    assert message["type"] == "state", message      # no error, ever
                    events += message["events"]
                    assert [e["n"] for e in events] == list(range(len(events)))
                    assert len(events) == message["event_count"]
                    if message["over"]:
                        finals.append({"seat": seat, "state": message, "events": events})
                        return
                    if seat is not None and message["current_player"] == seat \
                            and message["legal"] and message["event_count"] > sent_at:
                        sent_at = message["event_count"]
                        choice = rng.choice(message["legal"])["id"]
                        moves[0] += 1
                        await ws.send(json.dumps({"type": "action", "action": choice,
                                                  "after": message["event_count"]}))

        await asyncio.wait_for(asyncio.gather(*(client(*c) for c in clients)), 90)
        assert len(finals) == len(clients)
        # Its sockets were all on the one process the proxy routes it to (the table was
        # created through either: the creator let it go when the proxy's process asked).
        assert sorted(served(s, table) > 1 for s in servers) == [False, True]
        counts = {f["state"]["event_count"] for f in finals}
        assert len(counts) == 1                       # every socket saw every event
        replayed = stored_game(url, table)
        assert replayed.is_over and len(replayed.action_log()) == moves[0]
        for final in finals:
            state = final["state"]
            assert state["scores"] == replayed.scores and state["winners"] == replayed.winners
            if final["seat"] is not None:
                assert state["view"] == json.loads(json.dumps(replayed.view(final["seat"])))
                assert final["events"] == json.loads(json.dumps(
                    replayed.events(final["seat"], 0)))

    async def every_game() -> None:
        await asyncio.gather(*(play(game, seed) for seed, game in enumerate(available_games())))

    asyncio.run(every_game())


def test_one_move_sent_through_both_processes_at_once_is_applied_once(pair):
    url, servers, _ = pair
    status, made = servers[0].request("POST", "/api/tables", {"game": "kings_stakes",
                                                              "seed": 9})
    assert status == 201
    table, seats = made["table"], made["seats"]
    rounds = 12
    for r in range(rounds):
        _, public = servers[r % 2].request("GET", f"/api/tables/{table}")
        token = seats[str(public["current_player"])]
        _, mine = servers[r % 2].request("GET", f"/api/tables/{table}?token={token}")
        body = {"token": token, "action": mine["legal"][0]["id"],
                "after": mine["event_count"]}
        barrier = threading.Barrier(2)
        answers: list[int] = []

        def send(server: ServerProcess) -> None:
            barrier.wait()
            answer = server.request("POST", f"/api/tables/{table}/actions", body)
            for _ in range(5):              # sent as the table moved between them: again
                if answer[0] != 503:
                    break
                answers.append(answer)
                answer = server.request("POST", f"/api/tables/{table}/actions", body)
            answers.append(answer)

        threads = [threading.Thread(target=send, args=(s,)) for s in servers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        retried = [a for a in answers if a[0] == 503]
        assert all("moved to another server process" in a[1]["error"]
                   or "moving between server processes" in a[1]["error"] for a in retried), \
            answers
        assert sorted(a[0] for a in answers if a[0] != 503) == [200, 409], (r, answers)
    assert len(stored_game(url, table).action_log()) == rounds
    for server in servers:                          # both processes agree on the table
        _, public = server.request("GET", f"/api/tables/{table}")
        assert public["event_count"] == len(stored_game(url, table).events(None, 0))


def play_http(proxy: Proxy, servers: list[ServerProcess], table: str, seats: dict[str, str],
              acked: list[int], stop: threading.Event, rng: random.Random) -> None:
    """Random legal moves over HTTP through the proxy; every action answered 200 is appended
    to ``acked``, and read back at once through a live process chosen at random (a read
    after an acknowledged write shows it, through any process)."""
    while not stop.is_set():
        try:
            status, public = proxy.request("GET", f"/api/tables/{table}")
            if status != 200:
                assert status in (502, 503), (status, public)   # the killed process's turn
                time.sleep(0.05)
                continue
            if public["over"]:
                return
            token = seats[str(public["current_player"])]
            _, mine = proxy.request("GET", f"/api/tables/{table}?token={token}")
            if not mine.get("legal"):
                continue
            choice = rng.choice(mine["legal"])["id"]
            status, _ = proxy.request("POST", f"/api/tables/{table}/actions", {
                "token": token, "action": choice, "after": mine["event_count"]})
        except (OSError, urllib.error.URLError, http.client.HTTPException):
            continue          # the process was killed under us (mid-answer: IncompleteRead)
        if status == 200:
            acked.append(choice)
            live = [s for s in servers if s.process.poll() is None]
            reader = rng.choice(live)
            try:
                _, seen = reader.request("GET", f"/api/tables/{table}")
            except (OSError, urllib.error.URLError, http.client.HTTPException):
                continue
            assert seen["event_count"] > mine["event_count"], (reader.port, seen)
        else:
            assert status in (409, 502, 503), status     # moved meanwhile; a kill under us


def test_kill_9_of_one_process_loses_nothing_and_the_survivor_carries_on(pg_cluster,
                                                                         tmp_path):
    url = pg_cluster.new_database()
    servers = start_pair(url, tmp_path)
    proxy = Proxy(servers, tmp_path)
    try:
        tables = []
        for seed in range(4):
            status, made = proxy.request("POST", "/api/tables", {
                "game": "crazy_eights", "seed": seed, "players": 2})
            assert status == 201
            tables.append((made["table"], made["seats"], []))
        stop = threading.Event()
        failures: list[BaseException] = []

        def player(*args) -> None:
            try:
                play_http(*args)
            except BaseException as e:      # a thread's failure fails the test
                failures.append(e)
        threads = [threading.Thread(target=player,
                                    args=(proxy, servers, t, s, acked, stop, random.Random(i)))
                   for i, (t, s, acked) in enumerate(tables)]
        for t in threads:
            t.start()
        time.sleep(1.5)
        before_kill = [len(acked) for _, _, acked in tables]
        servers[0].kill()                            # kill -9, mid-traffic
        for t in threads:                            # the survivor plays on, to the end
            t.join(90)
        assert not any(t.is_alive() for t in threads)
        assert not failures, failures
        assert sum(before_kill) > 0
        for table, seats, acked in tables:
            game = stored_game(url, table)
            assert game.is_over
            # Every acknowledged action is stored; at most one more (sent to the killed
            # process and committed, its answer lost).
            log = game.action_log()
            assert log == acked or any(log[:i] + log[i + 1:] == acked
                                       for i in range(len(log)))
            for seat, token in seats.items():
                status, state = servers[1].request("GET", f"/api/tables/{table}?token={token}")
                assert status == 200 and state["over"]
                assert state["view"] == json.loads(json.dumps(game.view(int(seat))))
                assert state["scores"] == game.scores
    finally:
        stop.set()
        proxy.stop()
        for server in servers:
            server.stop()
    assert "Traceback" not in servers[1].log_path.read_text(errors="replace")


def test_a_move_through_the_other_process_takes_the_table_over(pair):
    url, servers, _ = pair
    status, made = servers[0].request("POST", "/api/tables", {"game": "kings_stakes",
                                                              "seed": 5, "players": 2})
    assert status == 201
    table, seats = made["table"], made["seats"]

    async def run() -> None:
        uri = f"ws://127.0.0.1:{servers[0].port}/ws/tables/{table}"
        async with websockets.connect(uri, subprotocols=["cardcore"]) as ws:
            first = json.loads(await ws.recv())
            token = seats[str(first["current_player"])]
            _, mine = await asyncio.to_thread(
                servers[1].request, "GET", f"/api/tables/{table}?token={token}")
            status, answer = await asyncio.to_thread(
                servers[1].request, "POST", f"/api/tables/{table}/actions",
                {"token": token, "action": mine["legal"][0]["id"],
                 "after": mine["event_count"]})
            assert status == 200, answer
            error = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert error["type"] == "error" and error["status"] == 503
            assert "moved to another server process" in error["error"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd.code == 1012           # reconnect: the TS client does
        # Read through the process that let it go: the move is there (read from the store).
        _, seen = servers[0].request("GET", f"/api/tables/{table}")
        assert seen["event_count"] > first["event_count"]
        assert len(stored_game(url, table).action_log()) == 1
    asyncio.run(run())


def test_a_table_deleted_through_one_process_closes_the_sockets_of_the_other(pair):
    url, servers, _ = pair
    status, made = servers[0].request("POST", "/api/tables", {"game": "crazy_eights",
                                                              "seed": 4})
    assert status == 201
    table = made["table"]
    token = made["seats"]["0"]

    async def run() -> None:
        uri = f"ws://127.0.0.1:{servers[1].port}/ws/tables/{table}"
        async with websockets.connect(uri, subprotocols=["cardcore",
                                                         f"cardcore.token.{token}"]) as ws:
            assert json.loads(await ws.recv())["type"] == "state"
            request = urllib.request.Request(
                f"{servers[0].base}/api/tables/{table}", method="DELETE",
                headers={"Authorization": f"Bearer {made['creator_token']}"})
            answer = await asyncio.to_thread(urllib.request.urlopen, request, timeout=30)
            assert answer.status == 204
            error = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert error["type"] == "error" and error["status"] == 410
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd.code == 4000
    asyncio.run(run())
    for server in servers:
        assert server.request("GET", f"/api/tables/{table}")[0] == 404
    listed = servers[1].request("GET", "/api/tables?over=1")[1]["tables"]
    assert table not in {t["table"] for t in listed}


def test_a_process_paused_past_its_lease_stores_nothing_more_and_lets_the_table_go(
        pg_cluster, tmp_path):
    """SIGSTOP of the process serving a table with a bot to move, longer than a lease: the
    other takes the table over when a request reaches it and plays the bot; once resumed,
    the paused process finds its lease gone and drops the table; nothing it held is stored
    over the other's moves, and both processes read the same table."""
    url = pg_cluster.new_database()
    a, b = [ServerProcess(url, bot_delay=0.5, log=tmp_path / f"server{k}.log",
                          extra=("--message-rate", "1000")) for k in range(2)]
    try:
        status, made = a.request("POST", "/api/tables", {
            "game": "kings_stakes", "players": 2, "seed": 4, "bots": {"1": "greedy"}})
        assert status == 201
        table, token = made["table"], made["seats"]["0"]
        _, mine = a.request("GET", f"/api/tables/{table}?token={token}")
        if mine["current_player"] != 0:                 # the bot leads: let it move
            deadline = time.monotonic() + 10
            while mine["current_player"] != 0:
                assert time.monotonic() < deadline
                time.sleep(0.1)
                _, mine = a.request("GET", f"/api/tables/{table}?token={token}")
        status, moved = a.request("POST", f"/api/tables/{table}/actions", {
            "token": token, "action": mine["legal"][0]["id"], "after": mine["event_count"]})
        assert status == 200 and moved["current_player"] == 1      # the bot's turn, at A
        a.process.send_signal(signal.SIGSTOP)            # paused before its bot moves
        paused = time.monotonic()
        try:
            # A move through B takes the table over once A's lease has expired (it is
            # not A's turn to answer the want): refused as out of turn, but B holds it now.
            status, answer = b.request("POST", f"/api/tables/{table}/actions", {
                "token": token, "action": mine["legal"][0]["id"],
                "after": moved["event_count"]})
            took = time.monotonic() - paused
            assert status == 409, answer
            assert took < 7.0, took
            time.sleep(1.0)                              # B's bot moves meanwhile
        finally:
            a.process.send_signal(signal.SIGCONT)
        deadline = time.monotonic() + 10
        while "lease was lost" not in a.log_text() and "commit was refused" not in a.log_text():
            assert time.monotonic() < deadline, a.log_text()[-2000:]
            time.sleep(0.1)
        time.sleep(1.0)                                  # anything A still had in flight
        game = stored_game(url, table)
        for server in (a, b):                            # both read the stored table
            _, seen = server.request("GET", f"/api/tables/{table}?token={token}")
            assert seen["event_count"] == len(game.events(0, 0))
        assert game.current_player == 0 or game.is_over  # the bot's turn was played, once
        metrics = urllib.request.urlopen(f"{a.base}/metrics", timeout=10).read().decode()
        assert 'cardcore_lease_changes_total{change="lost"} 1.0' in metrics \
            or "commit was refused" in a.log_text()
    finally:
        for server in (a, b):
            if server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)
            server.stop()
    for server in (a, b):
        assert "Traceback" not in server.log_path.read_text(errors="replace")
