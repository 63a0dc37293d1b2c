"""The table server's protocol (server.md): every endpoint, every error status, tokens, what
each seat is told (checked with stacked decks), bots, limits and persistence across apps."""
from __future__ import annotations

import json
import random
import time

import pytest

import cardcore

from cardcore import new_game
from cardcore.cards import card_str
from cardcore.server import create_app
from cardcore.server.app import MAX_BODY
from cardcore.server.cards_svg import card_svg
from cardcore.server.tables import NewTable

from invariants import composition
from server_helpers import FORBIDDEN_KEYS, TestClient, walk_keys

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAMES = cardcore.available_games()
SEED = 987654321987


def _fixed_start(name: str) -> dict[str, object]:
    """Who starts is drawn by lot from the seed unless fixed (the game's seat-or-lot option):
    fixed here, so that tables with different seeds and the same stacked deck are the same
    game until the next shuffle."""
    cls = cardcore.registry.game_class(name)
    return {k: 0 for k, o in cls.options_spec.items()
            if o.allowed_values().startswith("None (by lot)")}


JSON = {"Content-Type": "application/json"}


FIXED_START = {name: _fixed_start(name) for name in GAMES}


@pytest.fixture
def db(tmp_path):
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db):
    with TestClient(create_app(db)) as c:
        yield c


def hub(client):
    return client.app.state.tables


def create_direct(client, game, **kwargs):
    """A table made through the server object (stacked decks are not offered over HTTP)."""
    return client.portal.call(hub(client).create, NewTable(game, **kwargs))


def new_table(client, game="kings_stakes", **body):
    r = client.post("/api/tables", json={"game": game, **body})
    assert r.status_code == 201, r.text
    return r.json()


def state(client, table, token=None, **params):
    if token is not None:
        params["token"] = token
    r = client.get(f"/api/tables/{table}", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def stored_save(client, table):
    return hub(client).store.load(table).save


def act(client, table, token, action, after=None):
    body = {"token": token, "action": action}
    if after is not None:
        body["after"] = after
    return client.post(f"/api/tables/{table}/actions", json=body)


def to_move(client, made):
    """(seat, token) of the seat to move at a table where every seat is a person."""
    s = state(client, made["table"])
    seat = s["current_player"]
    return seat, made["seats"][str(seat)]


# ---------------------------------------------------------------- GET /api/games
def test_games_lists_every_game_with_players_options_and_bots(client):
    r = client.get("/api/games")
    assert r.status_code == 200
    games = {g["game"]: g for g in r.json()["games"]}
    assert set(games) == set(cardcore.available_games())
    assert games["kings_stakes"]["min_players"] == 2 and games["kings_stakes"]["max_players"] == 6
    assert games["manna"]["default_players"] == 6
    assert "rounds" in games["kings_stakes"]["options"]
    assert "random" in games["kuzanasta"]["bots"] and "greedy" in games["kuzanasta"]["bots"]


# ---------------------------------------------------------------- POST /api/tables
def test_create_gives_a_secret_token_to_every_seat_that_is_not_a_bot(client):
    made = new_table(client, "kings_stakes", players=4, bots={"1": "greedy", "3": "random"})
    assert set(made["seats"]) == {"0", "2"}
    assert made["bots"] == {"1": "greedy", "3": "random"}
    tokens = list(made["seats"].values())
    assert len(set(tokens)) == 2
    for token in tokens:                          # >= 128 random bits, URL-safe
        assert len(token) >= 32 and all(c.isalnum() or c in "-_" for c in token)
    # Only hashes are stored: the database does not hold the tokens themselves.
    row = hub(client).store.db.execute("SELECT * FROM tables").fetchall()
    assert not any(token in json.dumps(row) for token in tokens)


@pytest.mark.parametrize("body, status, words", [
    ({"game": "chess"}, 422, "unknown game"),
    ({"game": "kings_stakes", "players": 99}, 422, "players"),
    ({"game": "kings_stakes", "players": "4"}, 400, "players must be an int"),
    ({"game": "kings_stakes", "players": True}, 400, "players must be an int"),
    ({"game": "kings_stakes", "seed": "x"}, 400, "seed"),
    ({"game": "kings_stakes", "seed": -1}, 422, "seed"),
    ({"game": "kings_stakes", "options": []}, 400, "options must be an object"),
    ({"game": "kings_stakes", "options": {"no_such": 1}}, 422, "has no option no_such"),
    ({"game": "kings_stakes", "options": {"rounds": 2 ** 70}}, 422, "rounds"),
    ({"game": "kings_stakes", "options": {"seed": 1}}, 422, "seed"),
    ({"game": "kings_stakes", "bots": ["greedy"]}, 400, "bots"),
    ({"game": "kings_stakes", "bots": {"7": "greedy"}}, 422, "seat"),
    ({"game": "kings_stakes", "bots": {"1": "genius"}}, 422, "unknown bot"),
    ({"game": 7}, 400, "game must be a string"),
    ({}, 400, "game is required"),
    ({"game": "kings_stakes", "deck": ["AS"]}, 400, "unknown field"),
    ([1, 2], 400, "JSON object"),
])
def test_create_refuses_bad_configurations_and_creates_nothing(client, body, status, words):
    r = client.post("/api/tables", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []


def test_create_refuses_what_is_not_json_or_too_big(client):
    r = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = client.post("/api/tables", content=b"[" * 8000 + b"]" * 8000, headers=JSON)
    assert r.status_code == 400                   # deep nesting: refused, not a crash
    big = json.dumps({"game": "kings_stakes", "options": {"x": "y" * MAX_BODY}})
    r = client.post("/api/tables", content=big.encode(), headers=JSON)
    assert r.status_code == 413 and "16384" in r.json()["error"]

    def chunks():                                 # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b" " * 1024
    r = client.post("/api/tables", content=chunks(), headers=JSON)
    assert r.status_code == 413
    assert client.get("/api/tables").json()["tables"] == []


def test_the_number_of_open_tables_is_limited(db):
    with TestClient(create_app(db, max_tables=2)) as client:
        new_table(client)
        new_table(client)
        r = client.post("/api/tables", json={"game": "kings_stakes"})
        assert r.status_code == 503 and "at most 2 open tables" in r.json()["error"]
        assert len(client.get("/api/tables").json()["tables"]) == 2


# ---------------------------------------------------------------- GET /api/tables/{id}
def test_a_seat_sees_its_own_state_by_query_or_bearer_token(client):
    made = new_table(client, "kuzanasta", seed=5)
    token = made["seats"]["1"]
    by_query = state(client, made["table"], token)
    r = client.get(f"/api/tables/{made['table']}", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json() == by_query
    assert set(by_query) >= {"table", "game", "seat", "view", "events", "legal", "over", "scores"}
    assert by_query["seat"] == 1 and by_query["game"] == "kuzanasta"
    assert len(by_query["view"]["hand"]) == 7
    assert by_query["event_count"] == len(by_query["events"]) > 0
    assert [e["n"] for e in by_query["events"]] == list(range(by_query["event_count"]))
    mover = by_query["current_player"]
    mine = state(client, made["table"], made["seats"][str(mover)])
    assert mine["legal"] and all(a["player"] == mover for a in mine["legal"])
    assert set(mine["legal"][0]) >= {"id", "player", "kind", "cards", "label"}
    assert (by_query["legal"] == []) == (mover != 1)
    later = state(client, made["table"], token, since=3)
    assert later["events"] == by_query["events"][3:]


def test_a_spectator_gets_the_public_version(client):
    made = new_table(client, "manna", seed=5)
    spectator = state(client, made["table"])
    assert spectator["seat"] is None and spectator["legal"] == []
    view = spectator["view"]
    assert view["hand"] is None and view["player"] is None and view["legal_actions"] == []
    assert view["team"] is None and view == cardcore.new_game("manna", seed=5).view(None)
    assert all(v == {"count": 13} for z, v in view["zones"].items() if z.startswith("hand:"))
    assert view["melds"] == state(client, made["table"], made["seats"]["0"])["view"]["melds"]
    assert all(e.get("cards") == [] for e in spectator["events"] if e["kind"] == "dealt")


@pytest.mark.parametrize("headers, params, status", [
    ({}, {"token": "not-a-token"}, 403),
    ({"Authorization": "Bearer not-a-token"}, {}, 403),
    ({"Authorization": "Basic abc"}, {}, 403),
    ({}, {"token": "x" * 5000}, 403),
    ({}, {"since": "-1"}, 400),
    ({}, {"since": "abc"}, 400),
    ({}, {"since": "100000"}, 400),
])
def test_get_refuses_bad_tokens_and_bad_queries(client, headers, params, status):
    made = new_table(client)
    r = client.get(f"/api/tables/{made['table']}", params=params, headers=headers)
    assert r.status_code == status and r.json()["error"]


def test_unknown_tables_and_routes_are_404_and_wrong_methods_405(client):
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/tables/nope").json() == {"error": "no such table", "code": "not_found",
                                                     "message_id": "no such table", "fields": {}}
    r = client.post("/api/tables/nope/actions", json={"token": "t", "action": 0})
    assert r.status_code == 404
    assert client.get("/api/nothing").status_code == 404
    assert client.delete("/api/tables").status_code == 405


def test_a_token_acts_only_for_its_own_table(client):
    one, two = new_table(client, seed=1), new_table(client, seed=2)
    r = client.get(f"/api/tables/{two['table']}", params={"token": one["seats"]["0"]})
    assert r.status_code == 403
    seat, _ = to_move(client, two)
    before = stored_save(client, two["table"])
    r = act(client, two["table"], one["seats"][str(seat)], "take")
    assert r.status_code == 403
    assert stored_save(client, two["table"]) == before


# ---------------------------------------------------------------- POST .../actions
def test_an_action_is_applied_committed_and_answered(client):
    made = new_table(client, seed=3)
    seat, token = to_move(client, made)
    s = state(client, made["table"], token)
    choice = s["legal"][0]
    r = act(client, made["table"], token, choice["id"], after=s["event_count"])
    assert r.status_code == 200
    body = r.json()
    assert body["seat"] == seat
    mine = [e for e in body["events"] if e.get("id") == choice["id"] and e["player"] == seat]
    assert mine and mine[0]["n"] == s["event_count"]      # events after `after` only
    assert body["event_count"] > s["event_count"]
    # Committed before the answer: the stored save already holds it.
    assert json.loads(stored_save(client, made["table"]))["actions"] == [choice["id"]]


def test_an_action_may_be_given_by_its_notation(client):
    made = new_table(client, seed=3)
    seat, token = to_move(client, made)
    label = state(client, made["table"], token)["legal"][-1]["label"]
    r = act(client, made["table"], token, label.lower())
    assert r.status_code == 200


def test_a_stale_after_is_refused_so_nothing_is_played_twice(client):
    made = new_table(client, "kuzanasta", seed=8)
    seat, token = to_move(client, made)
    s = state(client, made["table"], token)
    first = act(client, made["table"], token, s["legal"][0]["id"], after=s["event_count"])
    assert first.status_code == 200
    saved = stored_save(client, made["table"])
    seat2, token2 = to_move(client, made)
    again = act(client, made["table"], token2, 0, after=s["event_count"])    # a late retry
    assert again.status_code == 409 and "stale" in again.json()["error"]
    assert again.json()["event_count"] == first.json()["event_count"]
    ahead = act(client, made["table"], token2, 0, after=10 ** 6)
    assert ahead.status_code == 409
    assert stored_save(client, made["table"]) == saved


def test_refusals_change_nothing(client):
    made = new_table(client, "kings_stakes", seed=4)
    table = made["table"]
    seat, token = to_move(client, made)
    other = made["seats"][str((seat + 1) % 4)]
    s = state(client, table, token)
    legal = {a["id"] for a in s["legal"]}
    illegal = next(i for i in range(320) if i not in legal)
    before = (stored_save(client, table), [state(client, table, t) for t in made["seats"].values()])
    cases = [
        (act(client, table, other, s["legal"][0]["id"]), 409, "turn"),       # not its turn
        (act(client, table, "forged", s["legal"][0]["id"]), 403, "token"),
        (client.post(f"/api/tables/{table}/actions", json={"action": 0}), 403, "token"),
        (act(client, table, token, illegal), 422, ""),
        (act(client, table, token, 10 ** 30), 422, ""),
        (act(client, table, token, -1), 422, ""),
        (act(client, table, token, "fly away"), 422, "not an action"),
        (act(client, table, token, "x" * 300), 422, "at most"),
        (act(client, table, token, [0]), 400, "action must be"),
        (act(client, table, token, True), 400, "action must be"),
        (act(client, table, token, 1.5), 400, "action must be"),
        (act(client, table, token, None), 400, "action must be"),
        (act(client, table, token, 0, after="3"), 400, "after must be"),
        (client.post(f"/api/tables/{table}/actions", json={"token": token}), 400, "required"),
        (client.post(f"/api/tables/{table}/actions", content=b"nope", headers=JSON), 400, "not JSON"),
        (client.post(f"/api/tables/{table}/actions", json=[token]), 400, "object"),
        (client.post(f"/api/tables/{table}/actions",
                     content=json.dumps({"token": token, "action": "a" * MAX_BODY}),
                     headers=JSON), 413, ""),
    ]
    for response, status, words in cases:
        assert response.status_code == status, (response.status_code, response.text)
        assert words in response.json()["error"]
    after = (stored_save(client, table), [state(client, table, t) for t in made["seats"].values()])
    assert after == before


def test_an_illegal_action_names_the_rule(client):
    # Kings' Stakes: a card that does not beat the stake (KS-4.x) is refused with its rule.
    made = new_table(client, "kings_stakes", seed=4)
    for _ in range(80):
        seat, token = to_move(client, made)
        s = state(client, made["table"], token)
        legal = {a["label"] for a in s["legal"]}
        weak = [f"play {c}" for c in s["view"]["hand"] if c != "JK" and f"play {c}" not in legal]
        if weak:
            break
        act(client, made["table"], token, s["legal"][0]["id"])
    weak = weak[0]
    r = act(client, made["table"], token, weak)
    assert r.status_code == 422
    assert r.json()["rule"] and r.json()["rule"].startswith("KS-")


def test_the_match_over_is_409(client):
    made = new_table(client, "kings_stakes", players=2, seed=1, options={"rounds": 2},
                     bots={"1": "random"})
    token = made["seats"]["0"]
    while True:
        s = state(client, made["table"], token)
        if s["over"]:
            break
        assert act(client, made["table"], token, s["legal"][0]["id"]).status_code == 200
    r = act(client, made["table"], token, 0)
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert s["winners"] and s["events"][-1]["kind"] == "match_end"
    assert client.get("/api/tables").json()["tables"] == []          # the lobby lists open ones
    assert len(client.get("/api/tables", params={"over": "1"}).json()["tables"]) == 1


# ---------------------------------------------------------------- what leaves the server
def responses_for_all(client, made):
    """Every seat's and the spectator's GET, as they come (minus the table id)."""
    out = {}
    for seat, token in [*made["seats"].items(), (None, None)]:
        body = state(client, made["table"], token)
        body.pop("table")
        out[seat] = body
    return out


def check_no_secrets(client, made, responses):
    text = json.dumps(responses)
    assert str(SEED) not in text
    assert not walk_keys(responses) & FORBIDDEN_KEYS
    save = stored_save(client, made["table"])
    assert save not in text and '"rng"' not in text
    for seat, body in responses.items():
        others = [t for s, t in made["seats"].items() if s != seat]
        assert not any(t in json.dumps(body) for t in others)


def swapped_deck(game_name, positions_of, pick):
    """A shuffled deck and a copy with two cards swapped at positions hidden as given."""
    probe = new_game(game_name, seed=1)
    deck = [card_str(c) for c in random.Random(7).sample(composition(probe), len(composition(probe)))]
    game = new_game(game_name, seed=1, deck=deck, **FIXED_START[game_name])
    hidden = positions_of(game)
    other = list(deck)
    if hidden:
        i, j = pick([p for p in hidden], deck)
        other[i], other[j] = other[j], other[i]
    # else a game that deals every card to the seats (no stock): the same deck twice, so only
    # the seeds differ
    return deck, other


def hidden_from_everybody(game):
    sets = [set(game.hidden_deck_positions(s)) for s in range(game.num_players)]
    return sorted(set.intersection(*sets))


def deepest_pair(hidden, deck):
    """The two deepest hidden positions holding different cards (the bottom of the stock)."""
    last = hidden[-1]
    for p in reversed(hidden[:-1]):
        if deck[p] != deck[last]:
            return p, last
    raise AssertionError("no pair")


@pytest.mark.parametrize("game_name", GAMES)
def test_no_response_reveals_the_stock_or_the_seed_during_play(client, game_name):
    """Two tables whose decks differ only deep in the stock, with different seeds: every seat's
    and the spectator's responses are identical while play goes on, and name no secret."""
    deck_a, deck_b = swapped_deck(game_name, hidden_from_everybody, deepest_pair)
    tables = []
    for deck, seed in ((deck_a, SEED), (deck_b, SEED + 1)):
        t, tokens = create_direct(client, game_name, seed=seed, deck=deck,
                                       options=FIXED_START[game_name])
        tables.append({"table": t.id, "seats": {str(k): v for k, v in tokens.items()}})
    assert stored_save(client, tables[0]["table"]) != stored_save(client, tables[1]["table"])
    rng = random.Random(3)
    round_end = cardcore.registry.game_class(game_name).round_end_event
    for step in range(14):
        a, b = (responses_for_all(client, t) for t in tables)
        check_no_secrets(client, tables[0], a)
        if any(e["kind"] == round_end for e in a[None]["events"]):
            break                         # the next deal is a shuffle: different seeds
        assert a == b, f"responses differ at step {step}"
        if a[None]["over"]:
            break
        seat = a[None]["current_player"]
        choice = rng.choice(a[str(seat)]["legal"])["id"]
        for t in tables:
            assert act(client, t["table"], t["seats"][str(seat)], choice).status_code == 200


@pytest.mark.parametrize("game_name", GAMES)
def test_no_response_reveals_another_seats_hand(client, game_name):
    """Decks that differ only in cards seat 0 cannot see (other hands, the stock, feet): seat
    0's and the spectator's responses are identical; the other seats' differ."""
    probe = new_game(game_name, seed=1)
    deck = [card_str(c) for c in random.Random(9).sample(composition(probe), len(composition(probe)))]
    game = new_game(game_name, seed=1, deck=deck, **FIXED_START[game_name])
    candidates = set(game.hidden_deck_positions(0))
    if game_name == "manna":                  # other hands are hidden too, but red threes
        plan = type(game).deal_plan_of(game.num_players, game.options, game.state.dealer)
        hands = [p for p, zone in enumerate(plan) if zone.startswith("hand:")]   # are laid out
        candidates |= {p for p in hands if deck[p] not in ("3D", "3H")}          # in view
        candidates -= {p for p in candidates if deck[p] in ("3D", "3H")}
    candidates = sorted(candidates)
    rng = random.Random(4)
    pairs = []
    while len(pairs) < 3:
        i, j = rng.sample(candidates, 2)
        other = list(deck)
        other[i], other[j] = other[j], other[i]
        a = new_game(game_name, seed=1, deck=deck, **FIXED_START[game_name])
        b = new_game(game_name, seed=1, deck=other, **FIXED_START[game_name])
        if a.view(0)["hand"] == b.view(0)["hand"] and a.view(1)["hand"] != b.view(1)["hand"]:
            pairs.append(other)
    for other in pairs:
        views = []
        for d, seed in ((deck, SEED), (other, SEED + 5)):
            t, tokens = create_direct(client, game_name, seed=seed, deck=d,
                                           options=FIXED_START[game_name])
            made = {"table": t.id, "seats": {str(k): v for k, v in tokens.items()}}
            responses = responses_for_all(client, made)
            check_no_secrets(client, made, responses)
            views.append(responses)
        assert views[0]["0"] == views[1]["0"]
        assert views[0][None] == views[1][None]
        assert views[0]["1"] != views[1]["1"]       # the swap did reach seat 1's hand


def test_manna_feet_stay_hidden_from_everybody(client):
    probe = new_game("manna", seed=SEED, dealer=0)
    plan = type(probe).deal_plan_of(probe.num_players, probe.options, probe.state.dealer)
    feet = [p for p, zone in enumerate(plan) if zone.startswith("foot:")]

    def two_feet(hidden, deck):
        first = feet[0]                                   # a card of the first foot ...
        for p in feet[len(feet) // 2:]:                   # ... and one of a later foot
            if deck[p] != deck[first]:
                return first, p
        raise AssertionError("no pair")
    deck_a, deck_b = swapped_deck("manna", lambda g: feet, two_feet)
    made = []
    for deck in (deck_a, deck_b):
        t, tokens = create_direct(client, "manna", seed=SEED, deck=deck, options={"dealer": 0})
        made.append({"table": t.id, "seats": {str(k): v for k, v in tokens.items()}})
    a, b = (responses_for_all(client, m) for m in made)
    assert a == b
    assert all(e.get("hidden") == 11 and e["cards"] == []
               for body in a.values() for e in body["events"] if e["kind"] == "foot_dealt")


# ---------------------------------------------------------------- bots
def test_bots_move_at_once_without_a_delay(client):
    made = new_table(client, "kuzanasta", seed=2, bots={"1": "greedy", "2": "random", "3": "greedy"})
    token = made["seats"]["0"]
    s = state(client, made["table"], token)
    assert s["current_player"] == 0                 # the bots before seat 0 have moved
    for _ in range(30):
        if s["over"]:
            break
        r = act(client, made["table"], token, s["legal"][0]["id"], after=s["event_count"])
        assert r.status_code == 200
        s = r.json()
        assert s["over"] or s["current_player"] == 0
    bot_moves = [e for e in state(client, made["table"], token)["events"]
                 if e["player"] in (1, 2, 3) and not e.get("auto")]
    assert bot_moves


def test_bots_are_paced_by_the_delay(db):
    delay = 0.15
    with TestClient(create_app(db, bot_delay=delay)) as client:
        made = new_table(client, "kings_stakes", seed=6, players=3,
                         bots={"1": "greedy", "2": "greedy"})
        token = made["seats"]["0"]
        with client.websocket_connect(f"/ws/tables/{made['table']}?token={token}") as ws:
            times = []
            s = ws.receive_json()
            while s["current_player"] != 0 or not s["legal"]:
                s = ws.receive_json()
                times.append(time.monotonic())
            ws.send_json({"type": "action", "action": s["legal"][0]["id"],
                          "after": s["event_count"]})
            s = ws.receive_json()
            assert s["type"] == "state"
            if s["current_player"] in (1, 2):        # the answer comes before the bots move
                start = time.monotonic()
                while s["current_player"] != 0 and not s["over"]:
                    s = ws.receive_json()
                    times.append(time.monotonic())
                assert time.monotonic() - start >= delay * 0.8
            gaps = [b - a for a, b in zip(times, times[1:])]
            assert gaps and min(gaps) >= delay * 0.5


# ---------------------------------------------------------------- WebSocket
def test_websocket_pushes_each_seat_its_own_state(client):
    made = new_table(client, "kings_stakes", seed=12)
    table = made["table"]
    seat, token = to_move(client, made)
    other_seat = (seat + 1) % 4
    other = made["seats"][str(other_seat)]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as mine, \
            client.websocket_connect(f"/ws/tables/{table}?token={other}") as theirs, \
            client.websocket_connect(f"/ws/tables/{table}") as watcher:
        first = [ws.receive_json() for ws in (mine, theirs, watcher)]
        assert [m["type"] for m in first] == ["state"] * 3
        assert [m["seat"] for m in first] == [seat, other_seat, None]
        assert first[0]["legal"] and first[1]["legal"] == [] and first[2]["view"]["hand"] is None
        assert first[0]["view"]["hand"] != first[1]["view"]["hand"]
        count = first[0]["event_count"]
        assert len(first[0]["events"]) == count
        mine.send_json({"type": "action", "action": first[0]["legal"][0]["id"], "after": count})
        pushed = [ws.receive_json() for ws in (mine, theirs, watcher)]
        for message in pushed:
            assert message["type"] == "state" and message["event_count"] > count
            assert [e["n"] for e in message["events"]] == list(range(count, message["event_count"]))
            assert token not in json.dumps(message) or message["seat"] == seat
            assert not walk_keys(message) & FORBIDDEN_KEYS
        assert pushed[1]["view"]["hand"] == first[1]["view"]["hand"]
        assert token not in json.dumps(pushed[1]) and token not in json.dumps(pushed[2])
        assert pushed[1]["view"] == state(client, table, other)["view"]


def test_websocket_refusals_keep_the_connection_open(db):
    with TestClient(create_app(db, message_rate=1000)) as client:
        made = new_table(client, "kings_stakes", seed=12)
        table = made["table"]
        seat, token = to_move(client, made)
        not_mover = made["seats"][str((seat + 1) % 4)]
        with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws, \
                client.websocket_connect(f"/ws/tables/{table}?token={not_mover}") as idle, \
                client.websocket_connect(f"/ws/tables/{table}") as watcher:
            s = ws.receive_json()
            idle.receive_json()
            watcher.receive_json()
            legal = {a["id"] for a in s["legal"]}
            illegal = next(i for i in range(320) if i not in legal)
            for sock, message, status in [
                (ws, "not json", 400),
                (ws, [1], 400),
                (ws, {"type": "dance"}, 400),
                (ws, {"type": "action"}, 400),
                (ws, {"type": "action", "action": illegal}, 422),
                (ws, {"type": "action", "action": 0, "after": 0}, 409),
                (idle, {"type": "action", "action": 0}, 409),
                (watcher, {"type": "action", "action": 0}, 403),
            ]:
                sock.send_text(message if isinstance(message, str) else json.dumps(message))
                reply = sock.receive_json()
                assert reply["type"] == "error" and reply["status"] == status, reply
                assert reply["error"]
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "action", "action": s["legal"][0]["id"],
                          "after": s["event_count"]})
            assert ws.receive_json()["type"] == "state"          # still open, still playing
        assert json.loads(stored_save(client, table))["actions"] == [s["legal"][0]["id"]]


def test_websocket_messages_per_second_are_limited(db):
    with TestClient(create_app(db, message_rate=2)) as client:
        made = new_table(client)
        with client.websocket_connect(f"/ws/tables/{made['table']}") as ws:
            ws.receive_json()
            for _ in range(12):
                ws.send_json({"type": "ping"})
            replies = [ws.receive_json() for _ in range(12)]
            limited = [r for r in replies if r.get("status") == 429]
            assert limited and "per second" in limited[0]["error"]
            assert {"type": "pong"} in replies


@pytest.mark.parametrize("path, status", [("/ws/tables/nope", 404),
                                          ("/ws/tables/{table}?token=forged", 403),
                                          ("/ws/tables/{table}?since=999999", 400)])
def test_websocket_refuses_unknown_tables_and_bad_tokens(client, path, status):
    made = new_table(client)
    with client.websocket_connect(path.format(table=made["table"])) as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["status"] == status


# ---------------------------------------------------------------- persistence, pages, cards
def test_tables_resume_in_a_new_app_on_the_same_database(db):
    with TestClient(create_app(db)) as client:
        made = new_table(client, "manna", seed=21, bots={str(k): "greedy" for k in range(1, 6)})
        token = made["seats"]["0"]
        for _ in range(6):
            s = state(client, made["table"], token)
            act(client, made["table"], token, s["legal"][0]["id"], after=s["event_count"])
        before = state(client, made["table"], token)
        spectator = state(client, made["table"])
    with TestClient(create_app(db)) as client:
        assert state(client, made["table"], token) == before
        assert state(client, made["table"]) == spectator
        r = act(client, made["table"], token, before["legal"][0]["id"],
                after=before["event_count"])
        assert r.status_code == 200


def test_pages_and_card_pictures_are_served(client):
    for path in ("/", "/tables/abc", "/static/table.js", "/static/lobby.js", "/static/style.css",
                 "/static/cards.js", "/static/words.js", "/static/board.js"):
        r = client.get(path)
        assert r.status_code == 200, path
    # A game's layout hints come from its package (games/<game>/web/board.js).
    for name in cardcore.available_games():
        r = client.get(f"/games/{name}/board.js")
        assert r.status_code == 200 and "javascript" in r.headers["content-type"], name
        assert "export const layout" in r.text
    for bad in ("/games/no_such_game/board.js", f"/games/{cardcore.available_games()[0]}/x.js",
                f"/games/{cardcore.available_games()[0]}/..%2F__init__.py",
                f"/games/{cardcore.available_games()[0]}/schema.py"):
        assert client.get(bad).status_code == 404, bad
    page = client.get("/tables/abc")
    assert "Content-Security-Policy" in page.headers and page.headers["Referrer-Policy"] == "no-referrer"
    svg = client.get("/cards/10H.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and "10H" in svg.text
    assert client.get("/cards/back.svg").status_code == 200
    assert client.get("/cards/JK.svg").status_code == 200
    assert client.get("/cards/ZZ.svg").status_code == 404


def test_every_card_has_a_picture():
    from cardcore.cards import card_id
    names = {card_str(c) for g in GAMES for c in composition(new_game(g, seed=1))}
    for name in names:
        svg = card_svg(name)
        assert svg.startswith("<svg") and f"<title>{name}</title>" in svg or name == "JK"
        assert card_id(name) >= 0


def test_two_sends_at_once_with_the_same_after_play_once(db):
    """A double click: both requests are in flight together; one plays, one gets 409."""
    import asyncio

    import httpx

    app = create_app(db)

    async def run():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
            made = (await http.post("/api/tables", json={
                "game": "kuzanasta", "seed": 8, "bots": {"1": "random", "2": "random",
                                                         "3": "random"}})).json()
            token = made["seats"]["0"]
            s = (await http.get(f"/api/tables/{made['table']}", params={"token": token})).json()
            body = {"token": token, "action": s["legal"][0]["id"], "after": s["event_count"]}
            answers = await asyncio.gather(*(http.post(f"/api/tables/{made['table']}/actions",
                                                       json=body) for _ in range(2)))
            await app.state.tables.close()
            return made, sorted(a.status_code for a in answers), s
    made, statuses, s = asyncio.run(run())
    assert statuses == [200, 409]
    with TestClient(create_app(db)) as client:
        log = json.loads(stored_save(client, made["table"]))["actions"]
        assert log.count(s["legal"][0]["id"]) >= 1
        events = state(client, made["table"])["events"]
        mine = [e for e in events if e["player"] == 0 and not e.get("auto")]
        assert len(mine) == 1


def test_a_failed_commit_accepts_nothing(client, monkeypatch):
    made = new_table(client, "kings_stakes", seed=5)
    seat, token = to_move(client, made)
    before = state(client, made["table"], token)

    def broken(rows):
        raise OSError("disk full")
    monkeypatch.setattr(hub(client).writer, "save_many", broken)
    r = act(client, made["table"], token, before["legal"][0]["id"], after=before["event_count"])
    assert r.status_code == 503 and "not accepted" in r.json()["error"]
    monkeypatch.undo()
    assert state(client, made["table"], token) == before       # reloaded from the database
    r = act(client, made["table"], token, before["legal"][0]["id"], after=before["event_count"])
    assert r.status_code == 200


@pytest.mark.parametrize("game_name", GAMES)
def test_what_a_seat_is_sent_matches_the_packaged_json_schemas(client, game_name):
    import jsonschema

    from cardcore import schema
    validators = {kind: jsonschema.Draft202012Validator(schema(game_name, kind))
                  for kind in ("view", "event", "action")}
    made = new_table(client, game_name, seed=17)
    rng = random.Random(17)
    for _ in range(25):
        seat, token = to_move(client, made)
        body = state(client, made["table"], token)
        validators["view"].validate(body["view"])
        for event in body["events"]:
            validators["event"].validate(event)
        for action in body["legal"]:
            validators["action"].validate(action)
        act(client, made["table"], token, rng.choice(body["legal"])["id"])


def test_idle_tables_leave_memory_and_come_back_from_the_database(client, monkeypatch):
    import cardcore.server.tables as tables_module
    monkeypatch.setattr(tables_module, "MAX_CACHED", 2)
    made = [new_table(client, seed=k) for k in range(4)]
    assert len(hub(client).tables) == 2
    first = made[0]
    seat, token = to_move(client, first)
    s = state(client, first["table"], token)                  # reloaded, same state
    assert act(client, first["table"], token, s["legal"][0]["id"],
               after=s["event_count"]).status_code == 200
    assert len(hub(client).tables) == 2


# ---------------------------------------------------------------- incremental storage
def test_actions_are_stored_as_rows_and_checkpointed_into_the_save(client):
    """An action costs one row of ``actions``; every CHECKPOINT_EVERY actions and at the end
    of the match the save is rewritten and the rows go. ``load`` always gives the whole log."""
    from cardcore.server.store import CHECKPOINT_EVERY

    made = new_table(client, "kings_stakes", players=2, seed=31, options={"rounds": 2},
                     bots={"1": "random"})
    table, token = made["table"], made["seats"]["0"]
    db = hub(client).store.db
    seen_rows: set[int] = set()
    while True:
        s = state(client, table, token)
        game = hub(client).tables[table].game
        stored = json.loads(stored_save(client, table))["actions"]
        assert stored == game.action_log()            # every acknowledged action, in order
        rows = db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table,)).fetchone()
        seen_rows.add(rows[0])
        assert rows[0] < CHECKPOINT_EVERY + 8        # bots' moves may join a commit
        if s["over"]:
            break
        assert act(client, table, token, s["legal"][0]["id"]).status_code == 200
    assert len(game.action_log()) > CHECKPOINT_EVERY    # a checkpoint was crossed
    assert max(seen_rows) > 0 and rows[0] == 0        # rows were used; the end checkpointed
    checkpoint = db.execute("SELECT save FROM tables WHERE id = ?", (table,)).fetchone()[0]
    assert checkpoint == game.to_json()


def test_an_update_that_does_not_continue_the_stored_log_is_refused(tmp_path):
    from cardcore.server.store import TableStore, TableUpdate

    store = TableStore(tmp_path / "t.sqlite3")
    game = new_game("kings_stakes", seed=2)
    store.insert("t1", game.name, game.num_players, game.to_json(), 0, 0, False, {}, 1, {})
    game.apply(game.legal_action_ids()[0])
    store.save_many([TableUpdate("t1", 0, game.action_log(), game.current_player, False, None)])
    before = store.load("t1")
    for first in (0, 2):                              # an overlap and a gap: stale
        assert store.save_many([TableUpdate("t1", first, [5], 0, False, None)]) == ["t1"]
    assert store.load("t1") == before
    assert json.loads(before.save)["actions"] == game.action_log()
    store.close()


@pytest.mark.parametrize("game", ["manna"])   # its melds are zones made in play
def test_state_zones_follow_the_position_and_the_language(client, game):
    """The zones of a state are built once per position and language (not per seat): after
    each move, every seat and a spectator, in English and in Russian, get exactly the zones
    the stored game has then, melds made in play included."""
    from cardcore import load_game
    from cardcore.server.tables import zone_descriptors
    made = new_table(client, game)
    rng = random.Random(4)
    grew = False
    first = len(state(client, made["table"])["zones"])
    for _ in range(60):
        s = state(client, made["table"])
        if s["over"]:
            break
        seat, token = to_move(client, made)
        legal = state(client, made["table"], token)["legal"]
        assert act(client, made["table"], token, rng.choice(legal)["id"]).status_code == 200
        stored = load_game(stored_save(client, made["table"]))
        for lang in ("en", "ru"):
            want = zone_descriptors(stored, lang)
            for token_or_none in (None, *made["seats"].values()):
                got = state(client, made["table"], token_or_none, lang=lang)["zones"]
                assert got == want
        grew = grew or len(want) > first
    assert grew, "no zone was made in play: the test did not reach a meld"
    assert state(client, made["table"], lang="ru")["zones"] != \
        state(client, made["table"], lang="en")["zones"]


@pytest.mark.parametrize("game", cardcore.available_games())
def test_state_names_the_wild_cards_of_the_position(client, game):
    """Every state says which cards are wild now (``Game.wild_cards``: a table marks them),
    the same to every seat and a spectator, as the stored game has them after each move."""
    from cardcore import load_game
    made = new_table(client, game)
    rng = random.Random(2)
    for _ in range(12):
        stored = load_game(stored_save(client, made["table"]))
        for token in (None, *made["seats"].values()):
            assert state(client, made["table"], token)["wild_cards"] == stored.wild_cards
        if stored.is_over:
            break
        seat, token = to_move(client, made)
        legal = state(client, made["table"], token)["legal"]
        assert act(client, made["table"], token, rng.choice(legal)["id"]).status_code == 200
