"""Game review (cardcore.review, `cardcore review`): planted blunders are flagged, the review
uses the seat's information only, saves and records both load, text in English and Russian."""
from __future__ import annotations

import functools
import json
import random

import pytest

from cardcore import ConfigError, new_game
from cardcore.bots import make_bot
from cardcore.cards import card_str
from cardcore.cli import main
from cardcore.match_record import dumps, export_record
from cardcore.records import make_record
from cardcore.review import (DEFAULT_SEARCHES, REFERENCE_FACTOR, Reference, ReferenceBot,
                             estimate_spec, load_for_review, reference_spec, review, review_batch,
                             review_lines, search_spec)
from cardcore.registry import available_games, game_class

ITERATIONS = 1000
STABILITY_RECORDS = 2           # records of every game the stability test reviews


def _blundering_match(seed: int, blunders: int = 3, name: str = "kings_stakes"):
    """``name``, 2 players, greedy at both seats, except that seat 0 plays the worst move of
    the reference's estimates (the review's searches, another seed than the review's) where
    their means rate it far below the best."""
    game = new_game(name, players=2, seed=seed)
    bots = [make_bot("greedy", seed), make_bot("greedy", seed + 1)]
    reference = Reference(reference_spec(name, iterations=ITERATIONS), DEFAULT_SEARCHES,
                          estimate_spec(name, iterations=ITERATIONS))
    planted = []
    while not game.is_over:
        seat = game.current_player
        ids = game.legal_action_ids()
        if seat == 0 and len(planted) < blunders and len(ids) > 1:
            moves = reference.estimate(game, 0, seed + 99, len(game.action_log()))
            tried = [m for m in moves.values() if len(m.tried) == reference.searches]
            best = max(tried, key=lambda m: m.mean)
            worst = min(tried, key=lambda m: m.mean)
            if best.mean - worst.mean > 0.2:
                planted.append(len(game.action_log()))
                game.apply(worst.id)
                continue
        game.apply(bots[seat].choose_id(game))
    return game, planted


@functools.lru_cache(maxsize=1)
def _planted_review():
    """Durak's planted blunders and their review (two tests read them)."""
    game, planted = _blundering_match(3, name="durak")
    return game, planted, review(game, 0, iterations=ITERATIONS)


def test_planted_blunders_are_flagged():
    game, planted, result = _planted_review()
    assert len(planted) >= 2
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

    import jsonschema
    from server_helpers import TestClient

    from cardcore.server import create_app
    from cardcore.server.openapi import openapi_spec
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
        assert body["level"] is None and body["searches"] == DEFAULT_SEARCHES
        jsonschema.validate(body, openapi_spec()["components"]["schemas"]["Review"])
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


def _greedy_match(name: str, seed: int, epsilon: float = 0.3):
    """The game's short match, seeded, every seat greedy with ``epsilon`` random moves."""
    short = game_class(name).short_match
    game = new_game(name, players=short.players, seed=seed, **short.options)
    bots = [make_bot(f"greedy:epsilon={epsilon}", seed * 10 + s) for s in range(short.players)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose_id(game))
    return game


def test_the_reference_is_configurable_and_checked(capsys, tmp_path):
    from cardcore.bots import parse_bot_spec

    spec = reference_spec("durak")          # the default: the game's declared search
    params = dict(spec.params)
    assert spec.name == "ismcts" and "think_ms" not in params
    assert params == dict(parse_bot_spec(game_class("durak").review_reference).params)
    assert str(reference_spec("durak", "level:4")) == str(search_spec("durak", 4))
    given = reference_spec("durak", "ismcts:iterations=50,rollout=random")
    assert dict(given.params) == {"iterations": 50, "rollout": "random", "exploration": 3.0}
    assert dict(reference_spec("durak", "ismcts:exploration=1", iterations=7).params) == \
        {"exploration": 1, "iterations": 7}
    for bad, words in [("greedy", "ismcts spec or level:N"),
                       ("ismcts:think_ms=100", "bound by iterations")]:
        with pytest.raises(ConfigError, match=words) as refused:
            reference_spec("durak", bad)
        assert refused.value.option == "reference"
    game = _greedy_match("durak", 1)
    with pytest.raises(ConfigError, match="not both"):
        review(game, 0, level=5, reference="level:5")
    for kwargs, option in [({"searches": 1}, "searches"), ({"top": 0}, "top")]:
        with pytest.raises(ConfigError) as refused:
            review(game, 0, **kwargs)
        assert refused.value.option == option
    result = review(game, 0, reference="ismcts:iterations=40,rollout=greedy", searches=2)
    assert result["reference"] == result["search"] == \
        "ismcts:exploration=3.0,iterations=40,rollout=greedy"
    assert result["level"] is None and result["searches"] == 2
    save = tmp_path / "durak.json"
    save.write_text(game.to_json())
    assert main(["review", str(save), "--seat", "0", "--reference",
                 "ismcts:iterations=40,rollout=greedy", "--searches", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == result
    assert main(["review", str(save), "--seat", "0", "--reference", "random"]) == 2
    assert "reference" in capsys.readouterr().err


def test_a_mistake_is_a_significant_loss_shown_with_the_top_candidates():
    """Flagged only when the loss's 95% interval across the searches lies above the
    threshold; every decision lists its top candidates, best first, each with its interval."""
    game, _, result = _planted_review()
    assert review(game, 0, iterations=ITERATIONS, top=2)["decisions"] == [
        d | {"candidates": d["candidates"][:2]} for d in result["decisions"]]
    noisy = 0
    for d in result["decisions"]:
        low, high = d["loss_interval"]
        assert low <= d["loss"] <= high
        assert d["mistake"] == (low > result["threshold"])
        noisy += d["loss"] > result["threshold"] and not d["mistake"]
        assert 1 <= len(d["candidates"]) <= 3
        assert d["candidates"][0]["move"] == d["best"]
        estimates = [c["estimate"] for c in d["candidates"][1:]]     # the others by mean
        assert estimates == sorted(estimates, reverse=True)
        for c in d["candidates"]:
            assert c["interval"][0] <= c["estimate"] <= c["interval"][1] and c["visits"] > 0
    assert noisy > 0      # a loss above the threshold within the noise is not flagged
    lines = review_lines(result)
    flagged = [i for i, line in enumerate(lines) if line.startswith("✗")]
    assert flagged and all(lines[i + 1].strip().startswith("candidates:") for i in flagged)
    assert any("кандидаты:" in line for line in review_lines(result, "ru"))


def test_the_default_reference_is_the_game_declared_one(monkeypatch):
    """Each game declares its review reference with its levels (measured against them in
    docs/bots.md); the default is that spec as given, bound by iterations; a game that
    declares none reviews with level 5's search; a bad declaration fails at import."""
    from cardcore.bots import parse_bot_spec
    from cardcore.game import Game

    # Every built-in game declares one; a game that declares none (a scaffolded one) is
    # played here by Kings' Stakes with its declarations taken away.
    undeclared = game_class("kings_stakes")
    level5 = dict(search_spec("kings_stakes", 5).params)
    with monkeypatch.context() as patch:
        patch.setattr(undeclared, "review_reference", None)
        patch.setattr(undeclared, "review_exploration", None)
        spec = reference_spec("kings_stakes")
        assert dict(spec.params) == \
            level5 | {"iterations": REFERENCE_FACTOR * level5["iterations"]}
        assert Reference.of("kings_stakes").spec == spec
        assert Reference.of("kings_stakes").estimates is None
    for name in available_games():
        declared = game_class(name).review_reference
        if declared is None:
            level5 = dict(search_spec(name, 5).params)
            assert dict(reference_spec(name).params) == \
                level5 | {"iterations": REFERENCE_FACTOR * level5["iterations"]}
            continue
        spec = reference_spec(name)
        assert spec.name == "ismcts" and "think_ms" not in dict(spec.params)
        assert dict(spec.params) == dict(parse_bot_spec(declared).params)
        assert dict(reference_spec(name, iterations=7).params)["iterations"] == 7
        assert ReferenceBot(name).reference.spec == spec
        # a declared review_exploration: the same search at that exploration estimates
        exploration = game_class(name).review_exploration
        estimates = ReferenceBot(name).reference.estimates
        assert (estimates is None) == (exploration is None)
        if estimates is not None:
            assert dict(estimates.params) == dict(spec.params) | {"exploration": exploration}
    assert sum(game_class(n).review_reference is not None for n in available_games()) >= 6
    bads = [("review_reference", bad)
            for bad in ("greedy", "ismcts:iterations=10,think_ms=5", 3)]
    bads += [("review_exploration", bad) for bad in (0, True, "3")]
    for field, bad in bads:
        with pytest.raises(TypeError, match=field):
            type("Bad", (Game,), {field: bad, "name": "bad", "title": "Bad",
                                  "default_players": 2, "min_players": 2, "max_players": 2,
                                  "rule_prefix": "BA", "narrator": object,
                                  "schema_parts": None, "zone_labels": {}})


def test_the_review_names_the_search_that_estimates_every_move():
    """A game whose reference splits its searches (Durak: ``review_exploration``) has the
    estimating search named in the result and in the review's first line, in both languages;
    a reference given, or a level, has none."""
    game = _greedy_match("durak", 1)
    result = review(game, 0, iterations=20, searches=2)
    assert result["estimates"] == str(estimate_spec("durak", iterations=20))
    assert "exploration=3.0" in result["estimates"] and "exploration=0.7" in result["search"]
    header = review_lines(result)[0]
    assert result["search"] in header and f"Every move's estimate by {result['estimates']}" \
        in header
    russian = review_lines(result, "ru")[0]
    assert result["estimates"] in russian and "Every move" not in russian
    for kwargs in ({"reference": "ismcts:iterations=20"}, {"level": 4}):
        other = review(game, 0, iterations=20, searches=2, **kwargs)
        assert other["estimates"] is None and "estimate by" not in review_lines(other)[0]


def test_the_reference_plays_the_most_visited_move_over_its_searches():
    """The reference's move pools the searches' visits (a root-parallel ensemble), not the
    highest mean: a move seldom tried with a lucky mean is not the best."""
    from cardcore.review import _Move

    moves = {1: _Move(1, (0.9, None, None), 2), 2: _Move(2, (0.6, 0.62, 0.58), 2900),
             3: _Move(3, (0.7, 0.4, 0.5), 100)}
    assert Reference.best(moves) == 2
    tied = {4: _Move(4, (0.5, 0.5), 10), 5: _Move(5, (0.6, 0.6), 10)}
    assert Reference.best(tied) == 5


def test_the_reference_bot_plays_the_review_best_move():
    game = _greedy_match("durak", 4)
    position = new_game("durak", players=2, seed=4)
    while len(position.legal_action_ids()) < 2:
        position.apply(game.action_log()[len(position.action_log())])
    bot = ReferenceBot("durak", seed=9, iterations=60)
    reference = Reference(reference_spec("durak", iterations=60), DEFAULT_SEARCHES,
                          estimate_spec("durak", iterations=60))
    expected = reference.best(reference.estimate(position, position.current_player, 9, 1))
    assert bot.choose_id(position) == expected
    assert expected in position.legal_action_ids()


def test_load_for_review_reads_cardcore_records_but_not_redactions():
    game = _greedy_match("crazy_eights", 2)
    loaded = load_for_review(dumps(export_record(game)))
    assert loaded.to_json() == game.to_json()
    with pytest.raises(ConfigError, match="redaction") as refused:
        load_for_review(dumps(export_record(game, seat=0)))
    assert refused.value.option == "review"


def test_a_batch_review_gives_mistakes_per_decision_with_its_interval(tmp_path, capsys):
    games = [_greedy_match("durak", seed, epsilon=0.6) for seed in (1, 2, 3)]
    folder = tmp_path / "matches"
    folder.mkdir()
    (folder / "a.json").write_text(games[0].to_json())
    (folder / "b.json").write_text(dumps(export_record(games[1])))
    (folder / "c.json").write_text(json.dumps(make_record(games[2], table="t", fairness=None)))
    (folder / "notes.txt").write_text("not a match")
    options = {"iterations": 60, "searches": 3}
    result = review_batch([(name, g) for name, g in zip("abc", games)], **options)
    s = result["summary"]
    assert s["records"] == 3 and s["reviews"] == 6          # every seat of every match
    singles = [review(g, seat, **options) for g in games for seat in (0, 1)]
    assert s["decisions"] == sum(r["summary"]["decisions"] for r in singles)
    assert s["mistakes"] == sum(r["summary"]["mistakes"] for r in singles) > 0
    assert s["mistakes_per_decision"] == s["mistakes"] / s["decisions"]
    low, high = s["interval"]
    assert 0 <= low < s["mistakes_per_decision"] < high <= 1
    one_seat = review_batch([(name, g) for name, g in zip("abc", games)], seat=1, **options)
    assert [r["seat"] for r in one_seat["reviews"]] == [1, 1, 1]
    with pytest.raises(ConfigError, match="at least one"):
        review_batch([], **options)
    assert main(["review", str(folder), "--iterations", "60", "--searches", "3",
                 "--json"]) == 0
    by_cli = json.loads(capsys.readouterr().out)
    assert by_cli["summary"] == s
    assert [r["name"] for r in by_cli["reviews"]] == \
        [str(folder / f"{n}.json") for n in "abc" for _ in (0, 1)]
    assert main(["review", str(folder / "a.json"), str(folder / "b.json"), "--seat", "0",
                 "--iterations", "60", "--searches", "3"]) == 0
    out = capsys.readouterr().out
    assert "2 records" in out and "mistakes per decision" in out
    assert main(["review", str(folder / "a.json"), "--batch", "--iterations", "60",
                 "--searches", "3", "--lang", "ru"]) == 0
    assert "ошибки на решение" in capsys.readouterr().out
    assert main(["review", str(folder / "a.json")]) == 2
    assert "--seat" in capsys.readouterr().err


def _stability_record(name: str, index: int):
    """Record ``index`` of the stability test: the game's short match dealt from seed
    10 + index, every seat greedy with 30% random moves."""
    short = game_class(name).short_match
    game = new_game(name, players=short.players, seed=10 + index, **short.options)
    bots = [make_bot("greedy:epsilon=0.3", seat + index) for seat in range(short.players)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose_id(game))
    return game


@pytest.mark.slow
def test_flags_are_stable_under_three_seeds_pooled_over_every_game():
    """Stability: the decisions flagged under all three seeds over those flagged under any,
    pooled over two seeded records of every game (the default reference, seat 0): >= 80%.
    Measured: 19 of 23 (0.83) with each game's reference, Durak's picking its move at a
    playing exploration and estimating at 3 (12 of Durak's 15; 19 of 22 when first
    measured, with its earlier reference; 20 of 24, 0.83, with level 5's search at
    exploration 3 everywhere); one search a decision, a mistake any loss above the threshold
    (the earlier review), gave 0.38 on such records."""
    under_all = under_any = 0
    for name in available_games():
        for index in range(STABILITY_RECORDS):
            game = _stability_record(name, index)
            flags = [{d["move"] for d in review(game, 0, seed=s)["decisions"] if d["mistake"]}
                     for s in (0, 1, 2)]
            under_all += len(set.intersection(*flags))
            under_any += len(set.union(*flags))
    assert under_any >= 20, under_any            # enough flags to measure
    assert under_all / under_any >= 0.8, (under_all, under_any)
