"""Hostile input (issue 8): every probe gets ValueError / ConfigError / IllegalActionError and
leaves the game byte-identical; saves are signed and capped; a shared Game stays consistent."""
from __future__ import annotations

import copy
import hashlib
import json
import pickle
import random
import sys
import threading
import time

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, IllegalActionError, load_game, new_game
from cardcore.game import Action
from cardcore.registry import game_class
from cardcore.saves import MAX_SAVE_CHARS, canonical_bytes

from invariants import random_steps, snapshot

GAMES = cardcore.available_games()


def started(name, seed=1, steps=25):
    game = new_game(name, seed=seed)
    for i, _ in enumerate(random_steps(game, random.Random(seed))):
        if i + 1 >= steps:
            break
    return game


def resign(data: dict) -> str:
    """What a forger without the key can do: recompute the unkeyed digest."""
    data = {k: v for k, v in data.items() if k not in ("digest", "hmac")}
    data["digest"] = hashlib.sha256(canonical_bytes(data)).hexdigest()
    return json.dumps(data)


# ------------------------------------------------------------------ apply(player=)
@pytest.mark.parametrize("name", GAMES)
def test_apply_with_player_checks_the_seat(name):
    game = started(name)
    before = snapshot(game)
    seat = game.current_player
    action = game.legal_actions()[0]
    for other in range(game.num_players):
        if other != seat:
            with pytest.raises(IllegalActionError, match=f"seat {seat}'s turn"):
                game.apply(action.id, player=other)
            with pytest.raises(IllegalActionError):
                game.apply(str(action), player=other)
    for bad in (-1, game.num_players, True, 1.0, "0", None.__class__):
        with pytest.raises(IllegalActionError):
            game.apply(action.id, player=bad)
    assert snapshot(game) == before
    game.apply(action, player=seat)
    assert snapshot(game) != before


# ------------------------------------------------------------------ action ids
@pytest.mark.parametrize("name", GAMES)
def test_action_ids_must_be_real_ints(name):
    game = started(name)
    before = snapshot(game)
    legal = game.legal_action_ids()[0]
    for bad in (True, False, float(legal), np.float64(legal), np.bool_(True), None, [legal],
                b"1", complex(legal)):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
        with pytest.raises(IllegalActionError):
            game.action_from_id(bad)
    for bad in (True, 1.0, np.float32(1)):
        with pytest.raises(IllegalActionError):
            Action(bad, 0, "x", (), "x")
    assert snapshot(game) == before
    action = Action(np.int64(legal), np.int32(game.current_player), "k", (),
                    game.action_from_id(legal).label)
    assert type(action.id) is int and type(action.player) is int
    game.apply(np.int64(legal)) if False else game.apply(action)
    assert json.loads(game.to_json())["actions"][-1] == legal
    assert type(json.loads(game.to_json())["actions"][-1]) is int
    load_game(game.to_json())
    other = started(name)
    other.apply(np.int16(other.legal_action_ids()[0]))
    load_game(other.to_json())


@pytest.mark.parametrize("name", GAMES)
def test_action_strings_are_capped_and_errors_truncated(name):
    game = started(name)
    before = snapshot(game)
    huge = "play " + "AS " * 2_000_000
    started_at = time.perf_counter()
    with pytest.raises(IllegalActionError) as info:
        game.apply(huge)
    assert time.perf_counter() - started_at < 0.5
    assert len(str(info.value)) < 200
    with pytest.raises(IllegalActionError) as info:
        game.apply("x" * 150)
    assert len(str(info.value)) < 1200 and "x" * 100 not in str(info.value)
    assert snapshot(game) == before


# ------------------------------------------------------------------ options and decks
def int_options() -> list[tuple[str, str]]:
    """(game, option) for every option whose schema admits an integer, from the games'
    own option schemas."""
    return [(name, option) for name in GAMES
            for option, schema in game_class(name).option_schema().items()
            if '"integer"' in json.dumps(schema)]


def test_the_games_have_int_options():
    assert int_options()          # else the bound below is tested on nothing


@pytest.mark.parametrize("name,option", int_options())
def test_int_options_are_bounded(name, option):
    for value in (2**63, 2**64 + 4, -2**63 - 1, 10**30, 2.0**40):
        with pytest.raises(ConfigError, match=option):
            new_game(name, **{option: value})


def test_ks_9_4_rounds_bound_names_the_rule():
    with pytest.raises(ConfigError, match="KS-9.4"):
        new_game("kings_stakes", rounds=2**31)
    assert new_game("kings_stakes", rounds=4 * 30).options["rounds"] == 120   # the bound


class Exploding:
    def __str__(self):            # pragma: no cover - must never be called
        raise AssertionError("parsed")

    def strip(self):              # pragma: no cover
        raise AssertionError("parsed")


@pytest.mark.parametrize("name", GAMES)
def test_deck_length_is_checked_before_parsing(name):
    huge = [Exploding()] * 5_000_000
    started_at = time.perf_counter()
    with pytest.raises(ConfigError, match="deck has 5000000 cards"):
        new_game(name, deck=huge)
    assert time.perf_counter() - started_at < 0.5


# ------------------------------------------------------------------ copies
@pytest.mark.parametrize("name", GAMES)
def test_clone_copy_and_pickle_are_independent_and_correct(name):
    game = started(name)
    before = snapshot(game)
    for twin in (game.clone(), copy.copy(game), copy.deepcopy(game),
                 pickle.loads(pickle.dumps(game))):
        assert snapshot(twin) == before
        assert twin.options == game.options and twin.options is not game.options
        twin.options["extra"] = 1
        assert "extra" not in game.options
        list(random_steps(twin, random.Random(5)))
        assert snapshot(game) == before
    a, b = game.clone(), pickle.loads(pickle.dumps(game))
    list(random_steps(a, random.Random(9)))
    list(random_steps(b, random.Random(9)))
    assert snapshot(a) == snapshot(b)


# ------------------------------------------------------------------ saves
@pytest.mark.parametrize("name", GAMES)
def test_saves_with_a_key_carry_an_hmac_that_load_game_checks(name):
    game = started(name)
    key = b"server secret"
    signed = game.to_json(key=key)
    assert load_game(signed, key=key).to_json(key=key) == signed
    assert load_game(signed, key="server secret").to_json() == game.to_json()
    data = json.loads(signed)
    with pytest.raises(ValueError, match="hmac"):
        load_game(signed, key=b"another key")
    with pytest.raises(ValueError, match="no hmac"):
        load_game(game.to_json(), key=key)
    # A forger who recomputes the digest still cannot produce the hmac.
    forged = json.loads(resign({**data, "actions": data["actions"][:-3]}))
    forged["hmac"] = data["hmac"]
    with pytest.raises(ValueError, match="hmac"):
        load_game(json.dumps(forged), key=key)
    with pytest.raises(TypeError):
        game.to_json(key=123)


@pytest.mark.parametrize("name", GAMES)
def test_tampering_without_a_key_is_detected_as_documented(name):
    game = started(name, steps=40)
    data = json.loads(game.to_json())
    # Detected through the digest: a truncated log, changed options, a corrupted byte.
    changed = [{**data, "options": {**data["options"], option: 1}}
               for option in list(data["options"])[:1]]     # a game may have no options
    for bad in ({**data, "actions": data["actions"][:-1]},
                {**data, "actions": data["actions"][:5]},
                *changed,
                {**data, "seed": data["seed"] + 1}):
        with pytest.raises(ValueError, match="digest"):
            load_game(json.dumps(bad))
    no_digest = {k: v for k, v in data.items() if k != "digest"}
    with pytest.raises(ValueError, match="digest"):
        load_game(json.dumps(no_digest))
    # With the digest recomputed, the replay still refuses what the rules refuse ...
    with pytest.raises(ValueError, match="illegal"):
        load_game(resign({**data, "actions": data["actions"] + [10**6]}))
    with pytest.raises(ValueError, match="generator state"):
        load_game(resign({**data, "rng": [1, 3]}))
    with pytest.raises(ValueError, match="generator state|illegal"):
        load_game(resign({**data, "seed": data["seed"] + 1}))


@pytest.mark.parametrize("name", GAMES)
def test_hostile_save_shapes_raise_value_error(name):
    game = started(name)
    data = json.loads(game.to_json())
    probes = [
        "[" * 100_000 + "]" * 100_000,                         # RecursionError before
        '{"a":' * 50_000 + "1" + "}" * 50_000,
        "[]" * 10_000,
        " " * (MAX_SAVE_CHARS + 1),
        b"\xff\xfe",
        resign({**data, "format": "1"}), resign({**data, "format": 1.0}),
        resign({**data, "format": True}), resign({**data, "format": 3}),
        resign({**data, "options": {**data["options"], "players": 3}}),
        resign({**data, "options": {**data["options"], "seed": 3}}),
        resign({**data, "options": {**data["options"], "deck": None}}),
        resign({**data, "deck": "AS"}), resign({**data, "players": True}),
        resign({**data, "actions": [True]}), resign({**data, "actions": [1.0]}),
        json.dumps([data]), "null", "1",
    ]
    for probe in probes:
        with pytest.raises(ValueError):
            load_game(probe)
    nested: dict = {}
    inner = nested
    for _ in range(100_000):                                    # a dict given directly
        inner["x"] = {}
        inner = inner["x"]
    with pytest.raises(ValueError, match="nested"):
        load_game(nested)
    for odd in ({**data, 1: 2}, {**data, "extra": object()}, {**data, "options": {1: 2}}):
        with pytest.raises(ValueError):
            load_game(odd)
    assert load_game(data).to_json() == game.to_json()


# ------------------------------------------------------------------ threads
def run_switching_often(target, n: int) -> None:
    """``target(k)`` on ``n`` threads at once, switching every microsecond (a torn step would
    show), until all have ended."""
    threads = [threading.Thread(target=target, args=(k,)) for k in range(n)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_shared_by_two_threads_stays_consistent(name):
    game = new_game(name, seed=3)
    errors: list[BaseException] = []
    saves: list[str] = []

    def play(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(3000):
                ids = game.legal_action_ids()
                if not len(ids):
                    return
                try:
                    game.apply(ids[rng.randrange(len(ids))])
                except IllegalActionError:
                    pass                     # the other thread moved first
                if rng.random() < 0.05:
                    saves.append(game.to_json())
                if rng.random() < 0.01:          # readers share the game too
                    game.events(seed % game.num_players)
                    game.history
                    game.clone()
        except BaseException as e:          # pragma: no cover - reported below
            errors.append(e)

    run_switching_often(play, 2)
    assert not errors
    copy_ = load_game(game.to_json())
    assert snapshot(copy_) == snapshot(game)
    assert copy_.events(0) == game.events(0) and copy_.history == game.history
    for save in saves:
        load_game(save)


@pytest.mark.parametrize("name", GAMES)
def test_threads_reading_one_positions_moves_get_each_actions_own(name):
    """Legal actions' moves are played on kept state copies (``events.action_moves_for``,
    one per thread at a time): threads reading one position's at once, switching often, get
    what one thread reads alone."""
    game = new_game(name, seed=4)
    rng = random.Random(4)
    for _ in range(12):
        game.apply(rng.choice(game.legal_action_ids()))
    alone = [a.moves for a in game.legal_actions()]
    seen: list[list] = [[] for _ in range(4)]
    errors: list[BaseException] = []

    def read(k: int) -> None:
        try:
            for _ in range(5):              # new actions (their moves not yet read), one position
                actions = game.legal_actions()
                seen[k].append([a.moves for a in (actions if k % 2 else actions[::-1])])
        except BaseException as e:          # pragma: no cover - reported below
            errors.append(e)

    run_switching_often(read, 4)
    assert not errors
    for k, reads in enumerate(seen):
        for moves in reads:
            assert (moves if k % 2 else moves[::-1]) == alone


def test_schema_names_and_kinds_are_checked():
    with pytest.raises(ConfigError):
        cardcore.schema("chess", "view")
    with pytest.raises(ConfigError):
        cardcore.schema("manna", "nonsense")


# ------------------------------------------------------------------ issue 20: echoes and others
BIG = "x" * (30 << 20)                     # a 30 MB option value
HUGE = 10 ** 5000                          # an int too long for repr (4300 digits)


def _probes(name):
    """(what, call) pairs that must each raise ValueError (or IndexError for a slot index)
    with a short message."""
    from cardcore.bots import ISMCTSBot, make_bot
    from cardcore.tournament import tournament
    cls = cardcore.registry.game_class(name)
    game = started(name)
    vg = cardcore.VectorGame(name, 2)
    probes = [(f"option {opt}", lambda opt=opt: new_game(name, **{opt: value}))
              for opt in cls.options_spec for value in (BIG, HUGE, [BIG])]
    probes += [
        ("game name", lambda: new_game(BIG)),
        ("option name", lambda: new_game(name, **{BIG: 1})),
        ("players", lambda: new_game(name, players=HUGE)),
        ("players str", lambda: new_game(name, players=BIG)),
        ("seed", lambda: new_game(name, seed=BIG)),
        ("deck", lambda: new_game(name, deck=[BIG] * len(cls.deck_for(
            cls.default_players, game.options)))),
        ("apply huge id", lambda: game.apply(HUGE)),
        ("apply text", lambda: game.apply(BIG[:150])),
        ("apply player", lambda: game.apply(game.legal_action_ids()[0], player=HUGE)),
        ("apply player str", lambda: game.apply(game.legal_action_ids()[0], player=BIG)),
        ("action_from_id", lambda: game.action_from_id(HUGE)),
        ("view", lambda: game.view(HUGE)),
        ("view str", lambda: game.view(BIG)),
        ("observation_tensor", lambda: game.observation_tensor(HUGE)),
        ("sample_hidden seat", lambda: game.sample_hidden(HUGE, 1)),
        ("sample_hidden seed", lambda: game.sample_hidden(0, BIG)),
        ("hidden_deck_positions", lambda: game.hidden_deck_positions(HUGE)),
        ("events seat", lambda: game.events(HUGE)),
        ("events since", lambda: game.events(0, since=BIG)),
        ("action_log", lambda: game.action_log(BIG)),
        ("bot name", lambda: make_bot(BIG)),
        ("bot spec 1 MB", lambda: make_bot("random:seed=" + "9" * (1 << 20))),
        ("bot spec key", lambda: make_bot("ismcts:" + "k" * (1 << 20) + "=1")),
        ("ismcts iterations", lambda: ISMCTSBot(iterations=HUGE)),
        ("ismcts think_ms", lambda: ISMCTSBot(think_ms=BIG)),
        ("simulate games", lambda: cardcore.simulate(name, HUGE)),
        ("simulate bots", lambda: cardcore.simulate(name, 1, bots=BIG)),
        ("simulate chunk_size", lambda: cardcore.simulate(name, 1, chunk_size=BIG)),
        ("simulate workers", lambda: cardcore.simulate(name, 1, workers=BIG)),
        ("simulate executor", lambda: cardcore.simulate(name, 1, executor=BIG)),
        ("tournament games", lambda: tournament(name, HUGE, bots="greedy,random")),
        ("tournament bots", lambda: tournament(name, 1, bots=f"random,{BIG}")),
        ("VectorGame size", lambda: cardcore.VectorGame(name, HUGE)),
        ("VectorGame threads", lambda: cardcore.VectorGame(name, 2, threads=BIG)),
        ("VectorGame seed", lambda: cardcore.VectorGame(name, 2, seed=BIG)),
        ("VectorGame slot", lambda: vg.game(HUGE)),
        ("schema game", lambda: cardcore.schema(BIG, "view")),
        ("schema kind", lambda: cardcore.schema(name, BIG)),
        ("load_game", lambda: load_game({"format": 2, "game": name, "players": 2, "seed": 0,
                                          "options": {BIG: 1}, "actions": [], "rng": [0, 1]})),
    ]
    return game, probes


@pytest.mark.parametrize("name", cardcore.available_games())
def test_every_error_echoes_at_most_60_characters_of_a_bad_value(name):
    game, probes = _probes(name)
    before = snapshot(game)
    for what, call in probes:
        with pytest.raises((ValueError, IndexError)) as refused:
            call()
        text = str(refused.value)
        assert len(text) < 600, (what, text[:300])
        for run in ("x" * 61, "9" * 61, "0" * 61, "k" * 61):
            assert run not in text, (what, text[:300])
    assert snapshot(game) == before


@pytest.mark.parametrize("name", cardcore.available_games())
def test_hidden_deck_positions_checks_the_seat(name):
    game = new_game(name, seed=1)
    for bad in (99, -1, game.num_players, True, 0.0, "0", None):
        with pytest.raises(ValueError):
            game.hidden_deck_positions(bad)
    assert game.hidden_deck_positions(np.int64(0)) == game.hidden_deck_positions(0)


@pytest.mark.parametrize("name", cardcore.available_games())
def test_a_numpy_seat_is_a_seat_for_apply(name):
    game = started(name)
    seat = game.current_player
    action = game.legal_action_ids()[0]
    for bad in (np.bool_(True), np.float64(seat), np.int64(game.num_players)):
        with pytest.raises(IllegalActionError):
            game.apply(action, player=bad)
    game.apply(np.int64(action), player=np.int32(seat))
    assert game.action_log()[-1] == action


@pytest.mark.parametrize("name", cardcore.available_games())
def test_a_format_1_save_with_a_non_string_option_key_is_refused(name):
    save = json.loads(started(name).to_json())
    save.update(format=1)
    save.pop("digest")
    for key in (1, None, (1, 2), 2.5):
        data = dict(save, options={**save["options"], key: 3})
        with pytest.raises(ValueError, match="option"):
            load_game(data)


def test_an_empty_hmac_key_is_refused():
    game = started("kings_stakes")
    for key in (b"", ""):
        with pytest.raises(ValueError, match="empty"):
            game.to_json(key=key)
        with pytest.raises(ValueError, match="empty"):
            load_game(game.to_json(key=b"k"), key=key)
    assert load_game(game.to_json(key=b"k"), key=b"k").action_log() == game.action_log()
