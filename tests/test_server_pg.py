"""Several `cardcore serve` processes on one PostgreSQL database (docs/server.md, "Several
processes"): real server subprocesses (uvicorn) and a throwaway cluster (tests/pg_cluster.py).

- the seats of one table connected to different processes play complete matches of every
  game, and every move reaches every socket (seats and spectators, on both processes);
- the same move sent through both processes at once is applied once;
- `kill -9` of one process mid-traffic loses no acknowledged action, and the survivor plays
  the tables on to their end;
- every stored log, replayed, gives the games the clients saw.
"""
from __future__ import annotations

import asyncio
import http.client
import json
import random
import threading
import time
import urllib.error
import urllib.request

import pytest
import websockets

from cardcore import load_game
from cardcore.registry import available_games, game_class
from cardcore.server.pg_store import PgTableStore
from server_helpers import ServerProcess

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


@pytest.fixture(scope="module")
def pair(pg_cluster, tmp_path_factory):
    url = pg_cluster.new_database()
    servers = start_pair(url, tmp_path_factory.mktemp("pg-pair"))
    yield url, servers
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


def test_the_seats_of_one_table_on_two_processes_play_every_game(pair):
    url, servers = pair

    async def play(game: str, seed: int) -> None:
        status, made = servers[0].request("POST", "/api/tables", {
            "game": game, "seed": seed, **short(game)})
        assert status == 201, made
        table, seats = made["table"], made["seats"]
        rng = random.Random(seed)
        # Seat k on process k % 2, and a spectator on each process.
        clients = [(int(k), token, servers[int(k) % 2]) for k, token in seats.items()]
        clients += [(None, None, servers[0]), (None, None, servers[1])]
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
    url, servers = pair
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
            answers.append(server.request("POST", f"/api/tables/{table}/actions", body)[0])

        threads = [threading.Thread(target=send, args=(s,)) for s in servers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(answers) == [200, 409], answers
    assert len(stored_game(url, table).action_log()) == rounds
    for server in servers:                          # both processes agree on the table
        _, public = server.request("GET", f"/api/tables/{table}")
        assert public["event_count"] == len(stored_game(url, table).events(None, 0))


def play_http(servers: list[ServerProcess], table: str, seats: dict[str, str],
              acked: list[int], stop: threading.Event, rng: random.Random) -> None:
    """Random legal moves over HTTP, alternating between the live processes; every action
    answered 200 is appended to ``acked``."""
    k = 0
    while not stop.is_set():
        live = [s for s in servers if s.process.poll() is None]
        server = live[k % len(live)]
        k += 1
        try:
            _, public = server.request("GET", f"/api/tables/{table}")
            if public["over"]:
                return
            token = seats[str(public["current_player"])]
            _, mine = server.request("GET", f"/api/tables/{table}?token={token}")
            if not mine["legal"]:
                continue
            choice = rng.choice(mine["legal"])["id"]
            status, _ = server.request("POST", f"/api/tables/{table}/actions", {
                "token": token, "action": choice, "after": mine["event_count"]})
        except (OSError, urllib.error.URLError, http.client.HTTPException):
            continue          # the process was killed under us (mid-answer: IncompleteRead)
        if status == 200:
            acked.append(choice)
        else:
            assert status == 409, status             # the other process moved first


def test_kill_9_of_one_process_loses_nothing_and_the_survivor_carries_on(pg_cluster,
                                                                         tmp_path):
    url = pg_cluster.new_database()
    servers = start_pair(url, tmp_path)
    try:
        tables = []
        for seed in range(3):
            status, made = servers[seed % 2].request("POST", "/api/tables", {
                "game": "crazy_eights", "seed": seed, "players": 2})
            assert status == 201
            tables.append((made["table"], made["seats"], []))
        stop = threading.Event()
        threads = [threading.Thread(target=play_http,
                                    args=(servers, t, s, acked, stop, random.Random(i)))
                   for i, (t, s, acked) in enumerate(tables)]
        for t in threads:
            t.start()
        time.sleep(1.5)
        before_kill = [len(acked) for _, _, acked in tables]
        servers[0].kill()                            # kill -9, mid-traffic
        for t in threads:                            # the survivor plays on, to the end
            t.join(60)
        assert not any(t.is_alive() for t in threads)
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
        for server in servers:
            server.stop()


def test_a_table_deleted_through_one_process_closes_the_sockets_of_the_other(pair):
    url, servers = pair
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
