"""Hints and difficulty levels at a table (docs/server.md, "HTTP" and "Bots"; issue 22)."""
from __future__ import annotations

import pytest

import cardcore

from cardcore.server import create_app
from cardcore.server.limits import Limits

from server_helpers import TestClient


@pytest.fixture
def client(tmp_path):
    limits = Limits(hint_rate=100.0, bot_think_ms=50.0)
    with TestClient(create_app(tmp_path / "t.sqlite3", limits=limits)) as c:
        yield c


def made(client, game="kings_stakes", **body):
    r = client.post("/api/tables", json={"game": game, "players": 2, **body})
    assert r.status_code == 201, r.text
    return r.json()


def mover(client, table):
    return client.get(f"/api/tables/{table['table']}").json()["current_player"]


@pytest.mark.parametrize("game", cardcore.available_games())
def test_the_seat_to_move_gets_hints_with_estimates(client, game):
    table = made(client, game, seed=3,
                 players=cardcore.registry.game_class(game).short_match.players)
    seat = mover(client, table)
    token = table["seats"][str(seat)]
    r = client.get(f"/api/tables/{table['table']}/hint",
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    body = r.json()
    legal = {a["id"] for a in client.get(f"/api/tables/{table['table']}",
                                         params={"token": token}).json()["legal"]}
    assert body["seat"] == seat and body["level"] == 5 and 1 <= len(body["hints"]) <= 3
    assert all(h["action"] in legal and 0 <= h["estimate"] <= 1 and h["label"]
               for h in body["hints"])
    assert [h["visits"] for h in body["hints"]] == sorted(
        (h["visits"] for h in body["hints"]), reverse=True)


def test_hints_are_refused_to_spectators_the_wrong_seat_and_past_the_rate(tmp_path):
    limits = Limits(hint_rate=0.01, bot_think_ms=20.0)
    with TestClient(create_app(tmp_path / "t.sqlite3", limits=limits)) as client:
        table = made(client, seed=5)
        seat = mover(client, table)
        url = f"/api/tables/{table['table']}/hint"
        assert client.get(url).status_code == 403                      # a spectator
        other = table["seats"][str(1 - seat)]
        r = client.get(url, headers={"Authorization": f"Bearer {other}"})
        assert r.status_code == 409 and "seat to move" in r.json()["error"]
        assert client.get(url, params={"token": "x" * 20}).status_code == 403
        mine = {"Authorization": f"Bearer {table['seats'][str(seat)]}"}
        assert client.get(url, headers=mine).status_code == 200         # a burst of two
        assert client.get(url, headers=mine).status_code == 200
        r = client.get(url, headers=mine)
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert client.get("/api/tables/nope/hint", headers=mine).status_code == 404


def test_a_level_seat_plays_and_the_lobby_offers_the_levels(client):
    games = {g["game"]: g for g in client.get("/api/games").json()["games"]}
    for game in games.values():
        assert [b for b in game["bots"] if b.startswith("level:")] == \
            [f"level:{n}" for n in range(1, 6)] and "level" not in game["bots"]
    table = made(client, seed=2, bots={"1": "level:4"})
    assert table["bots"] == {"1": "level:4"}
    token = table["seats"]["0"]
    for _ in range(6):                     # the level bot answers each move of seat 0
        state = client.get(f"/api/tables/{table['table']}", params={"token": token}).json()
        if state["over"]:
            break
        r = client.post(f"/api/tables/{table['table']}/actions",
                        json={"token": token, "action": state["legal"][0]["id"]})
        assert r.status_code == 200, r.text
    for bad in ("level", "level:9", "level:x"):
        r = client.post("/api/tables", json={"game": "kings_stakes", "players": 2,
                                             "bots": {"1": bad}})
        assert r.status_code == 422 and r.json()["option"] == "bots"
