"""Crazy Eights at the table server: its web parts are served, a table plays to the end over
HTTP, and no response shows a seat more than its view (tests/test_server.py does this for the
games it names)."""
from __future__ import annotations

import functools
import json
import random

import jsonschema
import pytest

import cardcore
from cardcore import new_game
from cardcore.cards import card_str
from cardcore.server import create_app
from cardcore.server.new_table import NewTable

from invariants import composition
from server_helpers import FORBIDDEN_KEYS, TestClient, walk_keys

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "tables.sqlite3")) as c:
        yield c


def state(client, table, token=None):
    r = client.get(f"/api/tables/{table}", params={} if token is None else {"token": token})
    assert r.status_code == 200, r.text
    body = r.json()
    body.pop("table")
    return body


def act(client, table, token, action):
    return client.post(f"/api/tables/{table}/actions", json={"token": token, "action": action})


def test_the_game_and_its_web_parts_are_served(client):
    games = {g["game"]: g for g in client.get("/api/games").json()["games"]}
    entry = games["crazy_eights"]
    assert (entry["title"], entry["round_name"], entry["round_end_event"]) == (
        "Crazy Eights", "hand", "hand_end")
    assert entry["min_players"] == 2 and entry["max_players"] == 15
    r = client.get("/games/crazy_eights/board.js")       # layout hints only (data)
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    assert "export const layout" in r.text
    assert client.get("/games/crazy_eights/words.js").status_code == 404


def test_a_table_plays_to_the_end_over_http(client):
    r = client.post("/api/tables", json={"game": "crazy_eights", "players": 3, "seed": 5,
                                         "options": {"use_special_cards": True},
                                         "bots": {"1": "greedy", "2": "random"}})
    assert r.status_code == 201, r.text
    made = r.json()
    table, token = made["table"], made["seats"]["0"]
    view_schema = jsonschema.Draft202012Validator(cardcore.schema("crazy_eights", "view"))
    rng = random.Random(5)
    for _ in range(500):
        s = state(client, table, token)
        view_schema.validate(s["view"])
        assert not walk_keys(s) & FORBIDDEN_KEYS
        if s["over"]:
            break
        assert s["current_player"] == 0 and s["view"]["final_hands"] is None
        assert act(client, table, token, rng.choice(s["legal"])["id"]).status_code == 200
    assert s["over"] and s["winners"] and len(s["view"]["final_hands"]) == 3
    end = next(e for e in s["events"] if e["kind"] == "hand_end")
    assert end["hands"] == s["view"]["final_hands"] and end["breakdown"]["totals"] == s["scores"]


def test_no_response_shows_a_seat_another_seats_hand_during_play(client):
    """Two tables whose decks differ only in cards seat 0 cannot see: seat 0's and the
    spectator's responses are the same while seat 0's view is, the other seats' are not."""
    probe = new_game("crazy_eights", players=3, seed=1)
    deck = [card_str(c) for c in random.Random(9).sample(composition(probe), 52)]
    game = new_game("crazy_eights", players=3, seed=1, deck=deck, dealer=0)
    plan = type(game).deal_plan_of(3, game.options, 0)
    hidden = game.hidden_deck_positions(0)
    i = next(p for p in hidden if plan[p] == "hand:1")           # a card of seat 1 and ...
    j = next(p for p in hidden if plan[p] == "hand:2" and deck[p] != deck[i])   # ... of seat 2
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    hub = client.app.state.tables
    tables = []
    for d, seed in ((deck, 11), (other, 12)):
        t, tokens = client.portal.call(functools.partial(
            hub.create, NewTable("crazy_eights", players=3, seed=seed, deck=d,
                                 options={"dealer": 0})))
        tables.append((t.id, {str(k): v for k, v in tokens.items()}))
    rng = random.Random(3)
    compared = 0
    for _ in range(40):
        a = {seat: state(client, tables[0][0], token) for seat, token in tables[0][1].items()}
        b = {seat: state(client, tables[1][0], token) for seat, token in tables[1][1].items()}
        if a["0"]["view"] != b["0"]["view"] or a["0"]["over"]:
            break
        assert a["0"] == b["0"] and state(client, tables[0][0]) == state(client, tables[1][0])
        assert a["1"]["view"]["hand"] != b["1"]["view"]["hand"]
        assert deck[i] not in json.dumps(a["0"]["view"])
        compared += 1
        seat = a["0"]["current_player"]
        legal = {x["id"] for x in a[str(seat)]["legal"]} & {x["id"] for x in b[str(seat)]["legal"]}
        choice = rng.choice(sorted(legal))
        for table, tokens in tables:
            assert act(client, table, tokens[str(seat)], choice).status_code == 200
    assert compared >= 3
