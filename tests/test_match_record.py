"""Match records with the actual cards (cardcore.match_record, docs/api.md "Match records"):
for seeded matches of every game, export -> import -> replay gives the same save and the same
events; a seat's redaction shows no card that seat did not see (checked against its views);
every record validates against the format's JSON Schema; import checks every step."""
from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import jsonschema_rs
import pytest

import cardcore
from cardcore.cards import CARD_NAMES
from cardcore.cli import main
from cardcore.game import Game
from cardcore.match_record import (
    HIDDEN, RECORD_SCHEMA, MatchRecordError, dumps, export_record, import_record,
    record_events, trajectories,
)
from cardcore.registry import game_class, load_game, new_game

GAMES = cardcore.available_games()
SEEDS = range(5)
VALIDATOR = jsonschema_rs.Draft202012Validator(RECORD_SCHEMA)   # fast on a long match's MBs
CARDS = frozenset(CARD_NAMES)


def fresh(name: str, seed: int, whole: bool = False) -> Game:
    """A new game of ``name``: the game's own short complete match (``short_match``: the
    quick loop's), or with ``whole`` its whole match at the default options."""
    short = game_class(name).short_match
    if whole:
        return new_game(name, seed=seed)
    return new_game(name, players=short.players, seed=seed, **short.options)


@lru_cache(maxsize=None)
def _save(name: str, seed: int, whole: bool) -> str:
    game = fresh(name, seed, whole)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_action_ids()))
    return game.to_json()


def played(name: str, seed: int, whole: bool = False) -> Game:
    """A seeded match of ``name`` played to its end by seeded random moves."""
    return load_game(_save(name, seed, whole))


def full_events(game: Game) -> list[dict[str, Any]]:
    """Every event with every card named, as the record keeps it (no words)."""
    return record_events(export_record(game))


def shown_cards(node: Any) -> Iterator[str]:
    """Every card notation a JSON value holds as a string of its own (not inside a label)."""
    if isinstance(node, str):
        if node in CARDS:
            yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from shown_cards(value)
    elif isinstance(node, list):
        for value in node:
            yield from shown_cards(value)


def round_trip(name: str, seed: int, whole: bool = False) -> None:
    game = played(name, seed, whole)
    record = export_record(game)
    VALIDATOR.validate(record)
    again = import_record(dumps(record))
    assert again.to_json() == game.to_json()
    for seat in [None, *range(game.num_players)]:
        assert again.events(seat) == game.events(seat)
    assert record_events(record) == full_events(again)
    # every card of the deck is named somewhere: the record carries the actual cards
    assert sorted(set(shown_cards(record["deals"][0]["zones"]))) == sorted(
        {CARD_NAMES[c] for c in game.all_cards()})


@pytest.mark.parametrize("name", GAMES)
def test_record_round_trip_gives_the_same_save_and_events(name):
    round_trip(name, 0)


@pytest.mark.parametrize("name", GAMES)
def test_each_action_holds_the_events_a_replay_tells_at_that_step(name):
    """The full record reads the events the game told already, cut at each action's first
    event: the same cut as a replay that counts the events after every action."""
    game = played(name, 1, whole=True)
    record = export_record(game)
    replay = fresh(name, 1, whole=True)
    bounds = [replay.event_count()]
    for action in json.loads(game.to_json())["actions"]:
        replay.apply(action)
        bounds.append(replay.event_count())
    dealt = {deal["after"]: [e["n"] for e in deal["events"]] for deal in record["deals"]}
    assert [e["n"] for e in record["deals"][0]["events"]] == list(range(bounds[0]))
    for n, step in enumerate(record["actions"]):
        told = [e["n"] for e in step["events"]] + dealt.get(n, [])
        assert told == list(range(bounds[n], bounds[n + 1])), (name, n)
    assert len(record["actions"]) == len(bounds) - 1


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS[1:])
def test_record_round_trip_five_seeds(name, seed):
    round_trip(name, seed, whole=True)
    if seed == SEEDS[1]:
        round_trip(name, 0, whole=True)


def test_record_schema_is_valid_and_printed(capsys):
    jsonschema.Draft202012Validator.check_schema(RECORD_SCHEMA)
    assert main(["record", "schema"]) == 0
    assert json.loads(capsys.readouterr().out) == RECORD_SCHEMA


def test_record_layout():
    game = played("durak", 0)
    record = export_record(game, names=["Ann", "Bob"])
    assert record["format"] == "cardcore-record" and record["version"] == 1
    assert record["names"] == ["Ann", "Bob"] and record["seed"] == 0 and record["seat"] is None
    assert len(record["actions"]) == len(game.action_log())
    for entry, action_id in zip(record["actions"], game.action_log()):
        assert entry["id"] == action_id
        assert entry["label"] == game._specs[action_id].label
    assert [r["scores"] for r in record["rounds"]][-1] == game.scores
    assert record["result"] == {"over": True, "winners": game.winners, "scores": game.scores,
                                "returns": list(game.returns())}
    dealt = record["deals"][0]["zones"]
    assert len(dealt["hand:0"]) == 6 and HIDDEN not in dealt["stock"]


# ------------------------------------------------------------------------------ import
def test_import_refuses_a_redacted_record():
    record = export_record(played("durak", 0), seat=1)
    with pytest.raises(MatchRecordError, match="seat 1's redaction.*no seed"):
        import_record(record)


def test_import_refuses_another_seat_or_action():
    record = export_record(played("durak", 0))
    wrong = copy.deepcopy(record)
    wrong["actions"][3]["seat"] = 1 - wrong["actions"][3]["seat"]
    with pytest.raises(MatchRecordError, match="^step 3: seat") as info:
        import_record(wrong)
    assert info.value.step == 3
    wrong = copy.deepcopy(record)
    wrong["actions"][5]["label"] = "attack JK"
    with pytest.raises(MatchRecordError, match="^step 5: 'attack JK'"):
        import_record(wrong)


def test_import_refuses_cards_the_rules_did_not_deal():
    record = export_record(played("crazy_eights", 0))
    wrong = copy.deepcopy(record)
    hand = wrong["deals"][0]["zones"]["hand:0"]
    hand[0], wrong["deals"][0]["zones"]["stock"][0] = wrong["deals"][0]["zones"]["stock"][0], \
        hand[0]
    with pytest.raises(MatchRecordError, match="deal 1"):
        import_record(wrong)
    wrong = copy.deepcopy(record)
    draw = next(a for a in wrong["actions"] if a["kind"] == "draw")
    draw["events"][0]["cards"] = ["JK"]
    with pytest.raises(MatchRecordError, match=f"^step {draw['n']}: its 'events'"):
        import_record(wrong)
    wrong = copy.deepcopy(record)
    wrong["seed"] = 1
    with pytest.raises(MatchRecordError):
        import_record(wrong)


@pytest.mark.parametrize("bad, message", [
    (b"\xff", "not UTF-8"), ("[1]", "a JSON object"), ("{", "not JSON"),
    ({"format": "cardcore-record", "version": 9}, "unknown version 9"),
    ({"format": "pgn"}, "format must be"),
])
def test_import_refuses_what_is_not_a_record(bad, message):
    with pytest.raises(MatchRecordError, match=message):
        import_record(bad)


# ------------------------------------------------------------------------------ the CLI
def test_cli_export_import_round_trip(tmp_path):
    game = played("kings_stakes", 1)
    save = tmp_path / "match.json"
    save.write_text(game.to_json())
    record, back, seat = tmp_path / "r.json", tmp_path / "back.json", tmp_path / "r1.json"
    assert main(["record", "export", str(save), "-o", str(record)]) == 0
    assert main(["record", "export", str(save), "-o", str(seat), "--seat", "1"]) == 0
    assert main(["record", "import", str(record), "-o", str(back)]) == 0
    assert back.read_text().strip() == game.to_json()
    VALIDATOR.validate(json.loads(seat.read_text()))
    assert json.loads(seat.read_text())["seed"] is None
    assert main(["record", "import", str(seat), "-o", str(back)]) == 2
    assert main(["record", "export", str(save), "-o", str(record), "--seat", "9"]) == 2


# ------------------------------------------------------------------------------ redaction
def seen_by_views(game: Game, seat: int) -> list[set[str]]:
    """Per point of the match (0: after the first deal, n + 1: after action n), every card
    ``view(seat)`` has shown by then."""
    replay = new_game(game.name, players=game.num_players, seed=game.seed, **game.options)
    chosen = game.chosen_cards()
    seen = set(shown_cards(replay.view(seat)))
    out = [set(seen)]
    for n, action_id in enumerate(game.action_log()):
        replay.apply(action_id, cards=chosen.get(n))
        seen |= set(shown_cards(replay.view(seat)))
        out.append(set(seen))
    return out


def unseen_shown(record: dict[str, Any], seen: list[set[str]]) -> list[tuple[int, str]]:
    """(point, card) for each card the record shows at a point of the match that the seat's
    views had not shown by then. A card the seat saw named by an action's notation counts as
    seen at that step: the action was made in the open (Kuzanasta's joker discarded to the
    face-down dead pile, KZ-6.4, names it; no view shows it afterwards)."""
    bad = []
    for deal in record["deals"]:
        at = 0 if deal["after"] is None else deal["after"] + 1
        bad += [(at, c) for c in shown_cards([deal["zones"], deal["events"]])
                if c not in seen[at]]
    for action in record["actions"]:
        at = action["n"] + 1
        named = {c for e in action["events"] if isinstance(e.get("action"), str)
                 for c in e["action"].split() if c in CARDS}
        bad += [(at, c) for c in shown_cards([action["events"], action["cards"],
                                              action["moves"]])
                if c not in seen[at] and c not in named]
    return bad


def check_redaction(name: str, seed: int, seats: int | None = None,
                    whole: bool = False) -> None:
    """The redaction of each seat (the first ``seats`` ones) against its views."""
    game = played(name, seed, whole)
    full = export_record(game)
    leaks_in_full = 0
    for seat in range(game.num_players if seats is None else seats):
        record = export_record(game, seat=seat)
        VALIDATOR.validate(record)
        assert record["seat"] == seat and record["seed"] is None and record["deck"] is None
        assert "rng" not in record and "digest" not in record
        seen = seen_by_views(game, seat)
        assert unseen_shown(record, seen) == []
        leaks_in_full += len(unseen_shown(full, seen))
        # the redaction only hides: each card it shows is the full record's at that place
        mine, every = record_events(record), record_events(full)
        assert len(mine) == len(every)
        for a, b in zip(mine, every):
            assert a["kind"] == b["kind"] and len(a["cards"]) == len(b["cards"])
            assert all(x in (HIDDEN, y) for x, y in zip(a["cards"], b["cards"]))
            for m, n in zip(a["moves"], b["moves"]):
                assert all(x in (HIDDEN, y) for x, y in zip(m["cards"], n["cards"]))
        for a, b in zip(record["actions"], full["actions"]):
            assert a["seat"] == b["seat"] and a["label"] in (None, b["label"])
    assert leaks_in_full, "the check sees nothing: the full record shows no hidden card"


@pytest.mark.parametrize("name", GAMES)
def test_redacted_record_shows_only_what_the_seat_saw(name):
    check_redaction(name, 0)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS[1:])
def test_redacted_record_shows_only_what_the_seat_saw_five_seeds(name, seed):
    check_redaction(name, seed, whole=True)
    if seed == SEEDS[1]:
        check_redaction(name, 0, whole=True)


# ------------------------------------------------------------------------------ trajectories
@pytest.mark.parametrize("name", GAMES)
def test_trajectories_yield_observations_masks_actions_and_rewards(name):
    game = played(name, 2)
    record = export_record(game)
    steps = list(trajectories(dumps(record)))
    assert [s.action for s in steps] == game.action_log()
    assert [s.seat for s in steps] == [a["seat"] for a in record["actions"]]
    replay = fresh(name, 2)
    for step in steps:
        assert step.observation.shape == game.observation_shape
        assert (step.observation == replay.observation_tensor(step.seat)).all()
        assert step.mask[step.action] and step.mask.sum() == len(replay.legal_action_ids())
        replay.apply(step.action)
    returns = [0.0] * game.num_players
    for step in steps:
        returns[step.seat] += step.reward
    assert returns == list(game.returns())
    assert sum(s.done for s in steps) == len({s.seat for s in steps})
    mine = list(trajectories(record, seat=1))
    assert [s.n for s in mine] == [s.n for s in steps if s.seat == 1]
    redacted = export_record(game, seat=0)
    with pytest.raises(MatchRecordError, match="redaction"):
        next(trajectories(redacted))


# ------------------------------------------------------------------------------ simulate
TIMING_KEYS = ("seconds", "games_per_second", "actions_per_second", "workers", "core")


def untimed(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k not in TIMING_KEYS}


@pytest.mark.parametrize("bots", ["random", "greedy,random", "random:seed=4"])
def test_simulate_writes_a_record_of_each_game_it_played(tmp_path, bots):
    from cardcore.simulation import game_seed, simulate
    plain = simulate("durak", 6, bots=bots, seed=3)
    recorded = simulate("durak", 6, bots=bots, seed=3, records=tmp_path, chunk_size=4)
    assert untimed(recorded) == untimed(plain)          # the same games, recorded
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [f"durak-{i:06d}.record.json" for i in range(6)]
    scores = [0, 0]
    for i, path in enumerate(files):
        record = json.loads(path.read_text())
        VALIDATOR.validate(record)
        assert record["seed"] == game_seed(3, i) and record["result"]["over"]
        assert record["names"] == [s for s in (bots.split(",") * 2)[:2]]
        scores = [a + b for a, b in zip(scores, record["result"]["scores"])]
        import_record(record)
    assert [s / 6 for s in scores] == plain["mean_score"]


def test_tournament_writes_a_record_of_each_game_it_played(tmp_path):
    from cardcore.tournament import tournament
    plain = tournament("crazy_eights", 4, bots="greedy,random", players=2, seed=1)
    recorded = tournament("crazy_eights", 4, bots="greedy,random", players=2, seed=1,
                          records=str(tmp_path))
    assert untimed(recorded) == untimed(plain)
    names = sorted(f.name for f in tmp_path.iterdir())
    assert names == [f"crazy_eights-s{k}-{i:06d}.record.json" for k in (0, 1) for i in (0, 1)]
    seated = {tuple(json.loads((tmp_path / n).read_text())["names"]) for n in names}
    assert seated == {("greedy", "random"), ("random", "greedy")}


def test_simulate_refuses_a_records_folder_it_cannot_write(tmp_path):
    from cardcore.errors import ConfigError
    from cardcore.simulation import simulate
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ConfigError, match="records must be a folder") as info:
        simulate("durak", 1, records=blocker / "sub")
    assert info.value.option == "records"


def test_cli_simulate_records(tmp_path):
    assert main(["simulate", "durak", "-n", "2", "--json", "--records", str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("durak-*.record.json"))) == 2


# ------------------------------------------------------------------------------ the server's
def _resign(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its digest recomputed (a forger without the key can do this)."""
    import hashlib
    from cardcore.saves import canonical_bytes
    out = {k: v for k, v in record.items() if k not in ("digest", "hmac")}
    out["digest"] = hashlib.sha256(canonical_bytes(out)).hexdigest()
    return out


def test_the_server_record_is_a_match_record_that_verify_checks():
    from cardcore.records import Fairness, RecordError, make_record, verify
    fairness = Fairness.fresh("dice")
    game = new_game("kings_stakes", seed=fairness.seed)
    rng = random.Random(0)
    while not game.is_over:
        game.apply(rng.choice(game.legal_action_ids()))
    names = [f"player {k}" for k in range(game.num_players)]
    record = make_record(game, table="t1", fairness=fairness, key="k", names=names)
    assert record["record"] == 2 and record["format"] == "cardcore-record"
    VALIDATOR.validate(record)
    jsonschema_rs.Draft202012Validator(cardcore.schema("kings_stakes", "record")).validate(record)
    assert verify(record, key="k")["moves"] == len(game.action_log())
    assert import_record(record).to_json() == game.to_json()      # `cardcore record import`
    # a card changed and the digest recomputed: caught by the cards check without the key
    forged = copy.deepcopy(record)
    deal = forged["deals"][0]["zones"]
    hand = next(z for z in deal if z.startswith("hand:"))
    other = next(z for z in deal if z.startswith("hand:") and z != hand)
    deal[hand][0], deal[other][0] = deal[other][0], deal[hand][0]
    with pytest.raises(RecordError, match="^cards: deal 1") as info:
        verify(_resign(forged))
    assert info.value.check == "cards"
    with pytest.raises(RecordError) as info:
        verify(_resign(forged), key="k")
    assert info.value.check == "signature"


def test_a_format_1_server_record_still_verifies():
    from cardcore.records import make_record, verify
    game = played("durak", 0)
    record = make_record(game, table="t0", fairness=None)
    kept = ("cardcore", "table", "game", "ended", "forfeit", "timeouts", "fairness", "save")
    old = _resign({"record": 1, **{k: record[k] for k in kept}})     # as cardcore 0.4 wrote
    assert "deals" not in old and "format" not in old
    jsonschema_rs.Draft202012Validator(cardcore.schema("durak", "record")).validate(old)
    assert verify(old)["moves"] == len(game.action_log())


# ------------------------------------------------------------------------------ the viewer
VIEWER = Path(__file__).resolve().parent.parent / "examples" / "record_viewer"
NODE_FRAMES = """
const {frames} = require(process.argv[1]);
const record = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(frames(record).map((f) => f.zones)));
"""


def viewer_frames(record: dict[str, Any]) -> list[dict[str, list[str]]]:
    """The zones of each frame of the static viewer's model (examples/record_viewer), in Node."""
    node = shutil.which("node")
    assert node, "the viewer's test needs Node.js 20+ (as the TypeScript client's)"
    out = subprocess.run([node, "-e", NODE_FRAMES, str(VIEWER / "replay.js")],
                         input=dumps(record), capture_output=True, text=True, check=True,
                         timeout=120)
    frames: list[dict[str, list[str]]] = json.loads(out.stdout)
    return frames


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_the_viewer_steps_through_a_record_with_the_zones_model(name):
    game = played(name, 1, whole=True)
    replay = fresh(name, 1, whole=True)
    points = [replay.clone()]
    for action_id in game.action_log():
        replay.apply(action_id)
        points.append(replay.clone())
    full = viewer_frames(export_record(game))
    assert len(full) == len(points)
    for frame, point in zip(full, points):          # every card where the engine has it
        table = point._zone_table().cards(point._state)
        assert {z: sorted(c) for z, c in frame.items() if c} == {
            z: sorted(CARD_NAMES[x] for x in c) for z, c in table.items() if c}
    mine = viewer_frames(export_record(game, seat=0))
    for frame, point in zip(mine, points):          # what seat 0 saw: counts, and its zones
        for zone, cards in point.view(0)["zones"].items():
            shown = frame.get(zone, [])
            if isinstance(cards, list):
                assert sorted(shown) == sorted(cards), zone
            else:
                assert len(shown) == cards["count"], zone


@pytest.mark.slow
def test_the_viewer_page_opens_a_record_from_a_file_and_steps(browser, tmp_path):
    game = played("durak", 0)
    path = tmp_path / "match.record.json"
    path.write_text(dumps(export_record(game, seat=0, names=["Ann", "Bob"])))
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto((VIEWER / "index.html").as_uri())              # no server: a file
        page.set_input_files("#file", str(path))
        page.wait_for_selector("nav:not([hidden])")
        assert "what Ann saw" in page.inner_text("#title")
        assert "deal 1" in page.inner_text("#where")
        hand = game.events(0)[1]["cards"]                       # Ann's first six cards
        assert sorted(page.locator(".zone").first.locator(".card").all_inner_texts()) == \
            sorted(hand)
        page.click("#next")
        first = export_record(game, seat=0)["actions"][0]
        assert page.inner_text("#where").startswith(f"step 1 of {len(game.action_log())}")
        assert (first["label"] or first["kind"]) in page.inner_text("#where")
        page.keyboard.press("End")
        assert "winners" in page.inner_text("#title") and page.locator("#round table").count()
    finally:
        page.close()
    assert errors == []


@pytest.mark.parametrize("name", GAMES)
def test_a_stacked_deck_and_exact_cards_round_trip(name):
    """A stacked deal carries its deck; actions applied with cards= carry them (``chosen``);
    an unfinished match round-trips too."""
    from collections import Counter

    from cardcore.cards import card_str
    cls = game_class(name)
    probe = new_game(name, seed=0)
    deck = [card_str(c) for c in cls.deck_for(probe.num_players, probe.options)]
    random.Random(5).shuffle(deck)
    game = new_game(name, seed=9, deck=deck)
    rng = random.Random(9)
    for _ in range(60):
        if game.is_over:
            break
        action = rng.choice(game.legal_action_ids())
        default = game.state.hand_cards(action)
        if default is None:
            game.apply(action)
            continue
        left = Counter(game.state.hand(game.current_player))
        chosen = []
        for card in default:                         # a card of the same kind, at random
            kind = game.interchangeable_as(card)
            pick = rng.choice(sorted(c for c in left.elements()
                                     if game.interchangeable_as(c) == kind))
            left[pick] -= 1
            chosen.append(card_str(pick))
        game.apply(action, cards=chosen)
    record = export_record(game)
    VALIDATOR.validate(record)
    assert record["deck"] == deck and record["result"]["over"] is game.is_over
    again = import_record(dumps(record))
    assert again.to_json() == game.to_json()
    assert again.events(0) == game.events(0)
    if game.state.chooses_hand_cards:                 # a choice the engine would not make
        assert game.chosen_cards(), "no action took other cards than the engine's"
        assert {a["n"]: a["chosen"] for a in record["actions"] if "chosen" in a} == \
            {n: c for n, c in game.chosen_cards().items()}
        mine = export_record(game, seat=0)
        assert all(a["seat"] == 0 for a in mine["actions"] if "chosen" in a)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*path, i))


def test_import_refuses_any_changed_value_with_a_clear_error():
    """Hostile records: any field set to another JSON value is a MatchRecordError naming
    what is wrong (never another exception), or, when it changes nothing the rules make
    (a name, a time), the same save."""
    game = played("durak", 0)
    record = export_record(game)
    paths = list(_paths(record))[1:]
    rng = random.Random(47)
    values = [None, True, -1, 10**30, 1.5, "", "JK", "x" * 1000, [], {}, ["JK"], {"count": 1}]
    for _ in range(60):
        path = rng.choice(paths)
        changed = copy.deepcopy(record)
        node = changed
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = rng.choice(values)
        try:
            again = import_record(changed)
        except MatchRecordError as e:
            assert len(str(e)) < 400
            continue
        assert again.to_json() == game.to_json(), path
    for option in ("players", "seed", "deck"):
        changed = copy.deepcopy(record)
        changed["options"][option] = 2
        with pytest.raises(MatchRecordError, match=f"options may not repeat .*{option}"):
            import_record(changed)


def test_cli_exports_a_server_record_of_either_format(tmp_path):
    from cardcore.records import make_record
    game = played("durak", 0)
    record = make_record(game, table="t0", fairness=None)
    old = {"record": 1, **{k: record[k] for k in ("cardcore", "table", "game", "ended",
                                                   "forfeit", "timeouts", "fairness", "save")}}
    for i, served in enumerate((record, old)):
        source, out = tmp_path / f"served{i}.json", tmp_path / f"match{i}.json"
        source.write_text(json.dumps(served))
        assert main(["record", "export", str(source), "-o", str(out)]) == 0
        assert json.loads(out.read_text()) == export_record(game)
