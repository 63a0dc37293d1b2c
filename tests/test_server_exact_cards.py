"""The server takes exact cards (issue 31, item 3; docs/server.md): ``"cards"`` in the socket's
action message and in ``POST /api/tables/{id}/actions`` chooses which suits a Manna meld moves,
a refusal changes nothing, and a table reloaded from the store replays the choice."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from cardcore.cards import card_id, card_str
from cardcore.games.manna._state import deal_plan, manna_deck
from cardcore.server import create_app
from cardcore.server.tables import NewTable

from server_helpers import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HAND = ["KC", "KS", "KD", "KH", "KH", "2C", "2H", "JK", "9C", "9S", "9D", "5C", "5S"]
MELD = "meld K K K 2"
CHOSEN = ["KH", "KH", "KD", "2H"]


def stacked_deck() -> list[str]:
    """Dealer 0: seat 1 (to move first) holds HAND and draws 4C 4S; red threes and wild
    cards lie at the bottom of the stock, so no deal replacement reaches those cards."""
    plan = deal_plan(6, {}, 0)
    pool = Counter(manna_deck())
    deck: list[int | None] = [None] * len(plan)
    wishes = [(i, name) for i, name in zip([i for i, z in enumerate(plan) if z == "hand:1"], HAND)]
    wishes += list(zip([i for i, z in enumerate(plan) if z == "stock"], ["4C", "4S"]))
    for i, name in wishes:
        pool[card_id(name)] -= 1
        deck[i] = card_id(name)
    rest = iter(sorted(pool.elements(), key=lambda c: (c in (28, 41), c == 52 or c % 13 == 1)))
    return [card_str(c if c is not None else next(rest)) for c in deck]


@pytest.fixture
def db(tmp_path):
    return tmp_path / "tables.sqlite3"


def manna_table(client):
    hub = client.app.state.tables
    table, tokens = client.portal.call(hub.create, NewTable(
        "manna", seed=5, deck=stacked_deck(), options={"dealer": 0}))
    return table.id, tokens


def act(client, table, token, action, **body):
    return client.post(f"/api/tables/{table}/actions",
                       json={"token": token, "action": action, **body})


def state(client, table, token):
    r = client.get(f"/api/tables/{table}", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()


def test_server_post_action_takes_cards_and_a_reloaded_table_replays_them(db):
    with TestClient(create_app(db)) as client:
        table, tokens = manna_table(client)
        token = tokens[1]
        assert act(client, table, token, "draw").status_code == 200
        before = state(client, table, token)
        saved = client.app.state.tables.store.load(table).save
        for cards, status, words in [
            (["KH", "KH", "9C", "2H"], 422, "9C does not fit"),
            (["KH", "KH", "KD"], 422, "takes 4 cards"),
            (["KD", "KD", "KH", "2H"], 422, "you hold 1 KD"),
            ("KH KH KD 2H", 400, "cards must be"),
            ([1, 2, 3, 4], 400, "cards must be"),
            (["KH"] * 300, 400, "cards must be"),
        ]:
            r = act(client, table, token, MELD, cards=cards)
            assert r.status_code == status, r.text
            assert words in r.json()["error"]
            if status == 422:
                assert r.json()["rule"] == "MH-4"
        assert state(client, table, token) == before
        assert client.app.state.tables.store.load(table).save == saved
        r = act(client, table, token, MELD, cards=CHOSEN)
        assert r.status_code == 200, r.text
        meld = [e for e in r.json()["events"] if e["kind"] == "meld"][0]
        assert sorted(meld["cards"]) == sorted(CHOSEN)
        view = r.json()["view"]
        assert sorted(view["melds"][1][0]["cards"]) == sorted(CHOSEN)
        assert Counter(before["view"]["hand"]) - Counter(view["hand"]) == Counter(CHOSEN)
        stored = json.loads(client.app.state.tables.store.load(table).save)
        assert stored["format"] == 3 and stored["cards"] == {"1": "KD 2H KH KH"}
    with TestClient(create_app(db)) as client:                     # reloaded from the store
        again = state(client, table, token)
        assert again["view"]["melds"] == view["melds"]
        assert again["view"]["hand"] == view["hand"]
        assert act(client, table, token, "discard 9C", cards=["9C"]).status_code == 200


def answer(ws, rid):
    """The message that answers the action sent with id ``rid`` (a state or an error)."""
    while True:
        message = ws.receive_json()
        if message.get("id") == rid:
            return message


def test_server_websocket_action_takes_cards(db):
    with TestClient(create_app(db)) as client:
        table, tokens = manna_table(client)
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens[1]}") as ws:
            first = ws.receive_json()
            ws.send_json({"type": "action", "action": "draw", "after": first["event_count"],
                          "id": "a"})
            assert answer(ws, "a")["type"] == "state"
            ws.send_json({"type": "action", "action": MELD, "cards": ["KH", "KH", "9C", "2H"],
                          "id": "b"})
            reply = answer(ws, "b")
            assert reply["type"] == "error" and reply["status"] == 422
            assert reply["rule"] == "MH-4"
            ws.send_json({"type": "action", "action": MELD, "cards": CHOSEN, "id": "c"})
            reply = answer(ws, "c")
            assert reply["type"] == "state"
            assert sorted(reply["view"]["melds"][1][0]["cards"]) == sorted(CHOSEN)


def test_server_take_back_replays_the_chosen_cards(db):
    with TestClient(create_app(db)) as client:
        hub = client.app.state.tables
        bots = {str(seat): "random" for seat in (0, 2, 3, 4, 5)}
        made, tokens = client.portal.call(hub.create, NewTable(
            "manna", seed=5, deck=stacked_deck(), options={"dealer": 0}, bots=bots,
            takeback=True))
        table, token = made.id, tokens[1]
        assert act(client, table, token, "draw").status_code == 200
        assert act(client, table, token, MELD, cards=CHOSEN).status_code == 200
        melds = state(client, table, token)["view"]["melds"]
        assert act(client, table, token, "discard 9C").status_code == 200
        r = client.post(f"/api/tables/{table}/takeback", json={"token": token})
        assert r.status_code == 200, r.text
        assert r.json()["view"]["melds"] == melds                 # the discard undone only
        assert sorted(melds[1][0]["cards"]) == sorted(CHOSEN)
        saved = json.loads(hub.store.load(table).save)
        assert saved["cards"] == {"1": "KD 2H KH KH"}
