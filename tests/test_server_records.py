"""Provably fair deals and match records (docs/server.md, "Records"): a table commits to its
seed at creation and publishes a record at the end that `cardcore.verify` and
`cardcore verify` accept; every kind of tampering is rejected, naming the failed check."""
from __future__ import annotations

import asyncio
import copy
import hashlib
import json

import jsonschema
import pytest

import cardcore
from cardcore.cli import main
from cardcore.records import RecordError, commitment_of, deal_seed, make_record, verify
from cardcore.registry import available_games, game_class
from cardcore.saves import canonical_bytes
from cardcore.server import create_app
from cardcore.server.limits import Limits
from cardcore.server.tables import NewTable, TableServer

from server_helpers import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

KEY = "the-server-record-key"
TABLES = 100
LIMITS = Limits(max_tables=100_000, max_tables_per_client=100_000)


async def _finished_records(db: str, game: str, n: int, key: str | None) -> list[dict]:
    server = TableServer(db, synchronous="normal", limits=LIMITS)
    server.record_key = key
    try:
        short = game_class(game).short_match      # the game's own short complete match
        players = short.players
        tables = []
        for i in range(n):
            table, _ = await server.create(NewTable(
                game, players, options=dict(short.options), client_seed=f"client {i}",
                bots={str(s): "random" for s in range(players)}))
            tables.append(table)
        for table in tables:
            while table.runner is not None:
                await table.runner
        return [await server.record(table) for table in tables]
    finally:
        await server.close()


def _records_of_every_game(root, n: int) -> dict[str, list[dict]]:
    return {game: asyncio.run(_finished_records(str(root / f"{game}.sqlite3"), game, n, KEY))
            for game in available_games()}


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict[str, list[dict]]:
    """A few finished tables of each game, to tamper with."""
    return _records_of_every_game(tmp_path_factory.mktemp("records"), 4)


def _resign(record: dict, key: str | None = None) -> dict:
    """What a forger does: recompute the save's and the record's digests (no key)."""
    forged = copy.deepcopy(record)
    forged.pop("hmac", None)
    forged["save"].pop("hmac", None)
    forged["save"]["digest"] = hashlib.sha256(canonical_bytes(forged["save"])).hexdigest()
    forged["digest"] = hashlib.sha256(canonical_bytes(forged)).hexdigest()
    return forged


def _rejects(record: dict, check: str, key: str | None = KEY) -> None:
    with pytest.raises(RecordError) as info:
        verify(record, key=key)
    assert info.value.check == check, str(info.value)


@pytest.mark.slow
def test_the_records_of_100_finished_tables_of_every_game_verify(tmp_path):
    for game, found in _records_of_every_game(tmp_path, TABLES).items():
        assert len(found) == TABLES
        _all_verify(found)
        assert len({r["save"]["seed"] for r in found}) == TABLES       # fresh seeds


def test_the_records_of_finished_tables_verify(records):
    for found in records.values():
        _all_verify(found)


def _all_verify(found: list[dict]) -> None:
    for record in found:
        report = verify(record, key=KEY)
        assert report["committed"] and report["keyed"] and report["ended"] == "over"
        assert report["moves"] == len(record["save"]["actions"]) > 0
        fair = record["fairness"]
        assert commitment_of(fair["server_seed"], fair["nonce"]) == fair["commitment"]
        assert record["save"]["seed"] == deal_seed(fair["server_seed"], fair["client_seed"])
        assert verify(json.dumps(record))["keyed"] is False            # text, no key


def test_the_record_matches_its_json_schema(records):
    for game in available_games():
        validator = jsonschema.Draft202012Validator(cardcore.schema(game, "record"))
        for record in records[game][:5]:
            validator.validate(record)


def test_a_changed_move_is_rejected(records):
    record = records["crazy_eights"][0]
    changed = copy.deepcopy(record)
    actions = changed["save"]["actions"]
    game = cardcore.new_game("crazy_eights", seed=record["save"]["seed"],
                             players=record["save"]["players"], **record["save"]["options"])
    middle = len(actions) // 2
    for action in actions[:middle]:
        game.apply(action)
    legal = set(game.legal_action_ids())
    actions[middle] = next(a for a in range(game.num_distinct_actions) if a not in legal)
    _rejects(changed, "signature", key=None)                   # the digests no longer match
    forged = _resign(changed)
    _rejects(forged, "signature")                              # with the key: the hmac
    _rejects(forged, "moves", key=None)                        # without: the replay


def test_every_legal_but_different_move_is_caught_by_the_key(records):
    record = records["kings_stakes"][0]
    game = cardcore.new_game("kings_stakes", seed=record["save"]["seed"],
                             players=record["save"]["players"], **record["save"]["options"])
    first = game.legal_action_ids()
    forged = copy.deepcopy(record)
    assert len(first) > 1
    forged["save"]["actions"][0] = next(a for a in first if a != forged["save"]["actions"][0])
    _rejects(_resign(forged), "signature")


def test_a_changed_seed_is_rejected(records):
    record = records["manna"][0]
    changed = copy.deepcopy(record)
    changed["save"]["seed"] += 1
    _rejects(changed, "signature", key=None)
    _rejects(_resign(changed), "seed", key=None)               # not the committed deal
    swapped = copy.deepcopy(record)                            # other seeds, same commitment
    swapped["fairness"]["server_seed"] = "00" * 32
    _rejects(_resign(swapped), "commitment", key=None)
    client = copy.deepcopy(record)                             # another client contribution
    client["fairness"]["client_seed"] = "someone else"
    _rejects(_resign(client), "seed", key=None)


def test_a_record_signed_with_another_key_is_rejected(records):
    record = records["kuzanasta"][0]
    with pytest.raises(RecordError) as info:
        verify(record, key="another key")
    assert info.value.check == "signature" and "another key" in str(info.value)
    unsigned = _resign(record)
    with pytest.raises(RecordError, match="no hmac"):
        verify(unsigned, key=KEY)


def test_a_truncated_log_is_rejected(records):
    record = records["kings_stakes"][1]
    cut = copy.deepcopy(record)
    del cut["save"]["actions"][-1]
    _rejects(cut, "signature", key=None)
    with pytest.raises(RecordError) as info:
        verify(_resign(cut))
    assert info.value.check in ("moves", "complete")           # rng state, or not over
    game = cardcore.load_game(record["save"])
    short = cardcore.new_game(game.name, players=game.num_players, seed=game.seed,
                              **game.options)
    for action in game.action_log()[:len(game.action_log()) // 2]:
        short.apply(action)
    made = make_record(short, table=record["table"], fairness=None)
    _rejects(made, "complete", key=None)


def test_the_cli_verifies_and_rejects_with_exit_codes(records, tmp_path, capsys):
    record = records["crazy_eights"][2]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert main(["verify", str(good), "--key", KEY]) == 0
    assert "verified" in capsys.readouterr().out
    assert main(["verify", str(good), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["keyed"] is False
    assert main(["verify", str(good), "--key", "wrong"]) == 1
    assert "rejected (signature)" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["verify", str(bad)]) == 1
    assert "rejected (format)" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2


# ---------------------------------------------------------------- over HTTP and WebSocket
@pytest.fixture()
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDCORE_RECORD_KEY", KEY)
    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        yield c


def test_http_commitment_then_record_with_the_revealed_seeds(client):
    r = client.post("/api/tables", json={"game": "crazy_eights", "players": 2,
                                         "client_seed": "my dice", "bots": {"1": "random"},
                                         "options": {"max_turns": 30}})
    assert r.status_code == 201, r.text
    made = r.json()
    table, token = made["table"], made["seats"]["0"]
    assert made["fairness"] == {"scheme": "sha256-v1", "commitment": made["commitment"],
                                "client_seed": "my dice"}
    early = client.get(f"/api/tables/{table}/record")
    assert early.status_code == 409 and "match ends" in early.json()["error"]
    headers = {"Authorization": f"Bearer {token}"}
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
        state = ws.receive_json()
        assert state["fairness"]["commitment"] == made["commitment"]
        assert "server_seed" not in json.dumps(state)
        pushed = None
        while pushed is None:
            if state["legal"]:
                ws.send_json({"type": "action", "action": state["legal"][0]["id"],
                              "after": state["event_count"]})
            message = ws.receive_json()
            if message["type"] == "record":                 # right after the final state
                assert state["over"]
                pushed = message["record"]
            else:
                assert message["type"] == "state"
                state = message
    final = state
    record = client.get(f"/api/tables/{table}/record", headers=headers).json()
    assert record == pushed
    assert record["fairness"]["commitment"] == made["commitment"]
    assert record["fairness"]["client_seed"] == "my dice"
    assert verify(record, key=KEY)["winners"] == final["winners"]
    with client.websocket_connect(f"/ws/tables/{table}") as late:   # connects after the end
        assert late.receive_json()["type"] == "state"
        assert late.receive_json()["record"] == record


@pytest.mark.parametrize("body, option", [
    ({"client_seed": 5}, "client_seed"),
    ({"client_seed": ""}, "client_seed"),
    ({"client_seed": "x" * 65}, "client_seed"),
    ({"client_seed": "caf\u00e9"}, "client_seed"),
    ({"client_seed": "abc", "seed": 4}, "client_seed"),
])
def test_bad_client_seeds_are_refused_naming_the_option(client, body, option):
    r = client.post("/api/tables", json={"game": "manna", **body})
    assert r.status_code == 422 and r.json()["option"] == option, r.text
    assert len(r.text) < 400


def test_a_table_given_a_seed_has_no_commitment(client):
    made = client.post("/api/tables", json={"game": "manna", "seed": 3}).json()
    assert made["commitment"] is None and made["fairness"] is None


def test_no_record_for_an_unknown_or_abandoned_table(client):
    assert client.get("/api/tables/nope/record").status_code == 404
    made = client.post("/api/tables", json={"game": "manna"}).json()
    server = client.app.state.tables
    server.tables[made["table"]].ended = "abandoned"
    r = client.get(f"/api/tables/{made['table']}/record")
    assert r.status_code == 409 and "match ends" in r.json()["error"]


def test_a_record_names_its_key_and_a_ring_checks_it_with_that_key(records):
    from cardcore.records import key_id
    record = records["durak"][0]
    assert record["key_id"] == key_id(KEY) and KEY not in json.dumps(record)
    assert verify(record, keys=["old key", KEY, "newer key"])["key_id"] == key_id(KEY)
    with pytest.raises(RecordError) as info:          # the key was taken out of the ring
        verify(record, keys=["old key", "newer key"])
    assert info.value.check == "signature" and key_id(KEY) in str(info.value)
    with pytest.raises(RecordError) as info:
        verify(record, key="another key")
    assert key_id(KEY) in str(info.value) and key_id("another key") in str(info.value)
    renamed = copy.deepcopy(record)                    # the id is signed over too
    renamed["key_id"] = key_id("another key")
    _rejects(renamed, "signature", key="another key")
    old = copy.deepcopy(record)                        # a record of 0.4 names no key
    del old["key_id"]
    old["hmac"] = hmac_of(old)
    old["digest"] = hashlib.sha256(canonical_bytes(old)).hexdigest()
    assert verify(old, keys=["old key", KEY])["keyed"] is True
    with pytest.raises(RecordError, match="no key given matches"):
        verify(old, keys=["old key"])


def hmac_of(record: dict) -> str:
    import hmac as hmac_module
    return hmac_module.new(KEY.encode(), canonical_bytes(record), hashlib.sha256).hexdigest()
