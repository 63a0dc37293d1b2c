"""Game review (cardcore.review, `cardcore review`): planted blunders are flagged, the review
uses the seat's information only, saves and records both load, text in English and Russian."""
from __future__ import annotations

import json
import random

import pytest

from cardcore import ConfigError, new_game
from cardcore.bots import make_bot
from cardcore.cards import card_str
from cardcore.cli import main
from cardcore.records import make_record
from cardcore.review import load_for_review, review, review_lines, search_spec
from cardcore.registry import available_games, game_class

ITERATIONS = 1000


def _blundering_match(seed: int, blunders: int = 3):
    """Kings' Stakes, 2 players, greedy at both seats, except that seat 0 plays the worst move
    of a search (another seed than the review's) where it rates it far below the best."""
    game = new_game("kings_stakes", players=2, seed=seed)
    bots = [make_bot("greedy", seed), make_bot("greedy", seed + 1)]
    planted = []
    while not game.is_over:
        seat = game.current_player
        ids = game.legal_action_ids()
        if seat == 0 and len(planted) < blunders and len(ids) > 1:
            hints = make_bot(f"ismcts:iterations={ITERATIONS},rollout=greedy,exploration=3",
                             seed + 99).suggest(game, top=len(ids))
            worst = min(hints, key=lambda h: h["estimate"])
            if hints[0]["estimate"] - worst["estimate"] > 0.25:
                planted.append(len(game.action_log()))
                game.apply(worst["action"].id)
                continue
        game.apply(bots[seat].choose_id(game))
    return game, planted


def test_planted_blunders_are_flagged():
    game, planted = _blundering_match(3)
    assert len(planted) == 3
    result = review(game, 0, iterations=ITERATIONS)
    flagged = {d["move"] for d in result["decisions"] if d["mistake"]}
    assert set(planted) <= flagged, (planted, flagged)
    assert result["summary"]["mistakes"] == len(flagged)
    assert result["summary"]["decisions"] == len(result["decisions"]) > len(flagged)
    for d in result["decisions"]:
        assert d["loss"] >= 0 and (d["loss"] == 0) == (d["chosen"] == d["best"])
    # The same review every time (iteration-bound, seeded per decision).
    assert review(game, 0, iterations=ITERATIONS) == result


def test_the_review_uses_the_seat_information_only():
    """Two deals that differ only in cards hidden from the seat: the same review of the seat's
    decisions over the same moves, for as long as the seat sees the same."""
    name = "kings_stakes"
    cls = game_class(name)
    probe = new_game(name, players=2, seed=1)
    composition = [card_str(c) for c in cls.deck_for(2, probe.options)]
    rng = random.Random(5)
    deck = rng.sample(composition, len(composition))
    game = new_game(name, players=2, seed=3, deck=deck)
    plan = cls.deal_plan_of(2, game.options, game.state.dealer)
    hidden = [i for i in game.hidden_deck_positions(0) if plan[i] == "hand:1"]
    stock = [i for i in game.hidden_deck_positions(0) if not plan[i].startswith("hand:")]
    i, j = hidden[0], (stock or hidden)[-1]
    swapped = list(deck)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    other = new_game(name, players=2, seed=3, deck=swapped)
    assert other.to_json() != game.to_json()
    chooser = random.Random(1)
    while not game.is_over and game.events(0) == other.events(0):
        ids = sorted(set(game.legal_action_ids()) & set(other.legal_action_ids()))
        if not ids:
            break
        action = ids[chooser.randrange(len(ids))]
        game.apply(action)
        other.apply(action)
    assert len(game.action_log()) > 6
    a, b = review(game, 0, iterations=200), review(other, 0, iterations=200)
    assert a["decisions"] and a == b


def test_the_review_command_reads_saves_and_records_in_english_and_russian(tmp_path, capsys):
    game, _ = _blundering_match(3, blunders=0)
    save = tmp_path / "match.json"
    save.write_text(game.to_json())
    record = tmp_path / "record.json"
    record.write_text(json.dumps(make_record(game, table="t1", fairness=None)))
    assert main(["review", str(save), "--seat", "1", "--iterations", "60"]) == 0
    out = capsys.readouterr().out
    assert "Review of seat 1 in Kings' Stakes" in out and "decisions reviewed" in out
    assert main(["review", str(record), "--seat", "1", "--iterations", "60", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result == review(load_for_review(save.read_bytes()), 1, iterations=60)
    assert main(["review", str(record), "--seat", "1", "--iterations", "60", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "Разбор места 1" in out and "разобрано" in out and "Review" not in out
    lines = review_lines(result, "ru")
    assert lines[-1].startswith("разобрано")
    for argv, option in [(["--seat", "5"], "seat"), (["--seat", "0", "--level", "9"], "level"),
                         (["--seat", "0", "--threshold", "2"], "threshold")]:
        assert main(["review", str(save), *argv]) == 2
        err = capsys.readouterr().err
        assert option in err and "Traceback" not in err
    (tmp_path / "bad.json").write_text('{"nope": 1}')
    assert main(["review", str(tmp_path / "bad.json"), "--seat", "0"]) == 2
    assert "not a saved game or match record" in capsys.readouterr().err


def test_the_search_of_a_level_has_no_time_cap():
    assert "think_ms" not in str(search_spec("kings_stakes", 5))
    assert str(search_spec("crazy_eights", 1)) == str(search_spec("crazy_eights", 5))
    assert "iterations=300" in str(search_spec("kings_stakes", 4))
    with pytest.raises(ConfigError, match="iterations"):
        search_spec("kings_stakes", 5, iterations=0)


def test_the_server_reviews_a_finished_table(tmp_path):
    import time

    from server_helpers import TestClient

    from cardcore.server import create_app
    with TestClient(create_app(tmp_path / "t.sqlite3")) as client:
        made = client.post("/api/tables", json={"game": "crazy_eights", "players": 2,
                                                "seed": 5,
                                                "bots": {"0": "greedy", "1": "random"}}).json()
        table = made["table"]
        deadline = time.monotonic() + 60
        while not client.get(f"/api/tables/{table}").json()["over"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        got = client.get(f"/api/tables/{table}/review", params={"seat": 1})
        assert got.status_code == 200, got.text
        body = got.json()
        assert body["table"] == table and body["seat"] == 1 and body["decisions"]
        assert "iterations=300" in body["search"] and "think_ms" not in body["search"]
        game = load_for_review(json.dumps(client.get(f"/api/tables/{table}/record").json()))
        expected = review(game, 1, iterations=300)
        assert {k: v for k, v in body.items() if k != "table"} == expected
        assert client.get(f"/api/tables/{table}/review", params={"seat": 1}).json() == body
        for params, status in [({}, 400), ({"seat": 2}, 400), ({"seat": "x"}, 400)]:
            assert client.get(f"/api/tables/{table}/review", params=params).status_code \
                == status
        open_table = client.post("/api/tables", json={"game": "crazy_eights",
                                                      "players": 2}).json()
        refused = client.get(f"/api/tables/{open_table['table']}/review", params={"seat": 0})
        assert refused.status_code == 409 and "when the match ends" in refused.json()["error"]


@pytest.mark.parametrize("name", available_games())
def test_the_round_of_a_decision_is_its_round_number_in_every_game(name):
    """``round`` is the number of the round, deal or hand the decision falls in (it held the
    seat's hand in the games whose view names its hand after the round), checked against
    the number each deal event carries under the game's ``round_name``."""
    cls = game_class(name)
    game = new_game(name, seed=2)
    bots = [make_bot("greedy", seed) for seed in range(game.num_players)]
    while not game.is_over and len(game.action_log()) < 400:
        game.apply(bots[game.current_player].choose_id(game))
    result = review(game, 0, iterations=2)
    replay = new_game(name, seed=2)
    expected, number_of_round, seen = {}, None, 0
    for move, action in enumerate(game.action_log()):
        for event in replay.events(0, seen):
            if event["kind"] == "deal":
                number_of_round = event[cls.round_name]
        seen = replay.event_count()
        expected[move] = number_of_round
        replay.apply(action)
    rounds = [d["round"] for d in result["decisions"]]
    assert rounds and all(type(r) is int for r in rounds), rounds[:3]
    assert rounds == [expected[d["move"]] for d in result["decisions"]]
