"""Game options with their schema (issue 25): every option's JSON Schema fragment comes from
the same declaration as the constructor's check, so the two agree on every value tried;
values outside the bounds are ConfigErrors naming the option; the bounds chosen where the
rulebooks were silent hold (games/<game>.md, "Options")."""
from __future__ import annotations

import jsonschema
import pytest

import cardcore
from cardcore import ConfigError, new_game, option_schema
from cardcore.registry import game_class
from game_cases import declared, declared_params

GAMES = cardcore.available_games()

# Values to try on every option: each is accepted by both the check and the schema, or by
# neither (for every player count of the game).
PROBES = [None, True, False, 0, 1, 2, 3, 4, 5, 6, 8, 12, 100, 104, 105, 120, 124, 1000, 1001,
          10_000, 10_001, 1_000_000, 1_000_001, 10**9, 10**12, -1, -5, -100000, 1.5, "auto",
          "manual", "rank", "cards", "face", "openspiel", "opposite", "adjacent", "either",
          "mixed", "red_threes", "immediate", "optional", "any_two", "three_and_four",
          "look", "position", "", [1]]


@pytest.mark.parametrize("name", GAMES)
def test_the_schema_and_the_check_agree_on_every_value(name):
    cls = game_class(name)
    for players in range(cls.min_players, cls.max_players + 1):
        schemas = option_schema(name, players)
        assert set(schemas) == set(cls.options_spec)
        for key, schema in schemas.items():
            validator = jsonschema.Draft202012Validator(schema)
            for value in PROBES:
                accepted = cls.options_spec[key].check(value, players) is None
                assert validator.is_valid(value) == accepted, (name, players, key, value)


@pytest.mark.parametrize("name", GAMES)
def test_every_option_has_a_description_a_rule_and_an_allowed_default(name):
    cls = game_class(name)
    generic = cls.option_schema()
    for key, schema in generic.items():
        assert schema["description"] and "\n" not in schema["description"]
        assert len(schema["description"]) <= 100, key           # one line
        assert schema["x-rule"].startswith(cls.rule_prefix + "-")
        assert schema["default"] == cls.options_spec[key].default
        jsonschema.validate(schema["default"], schema)
    with pytest.raises(ConfigError):
        cls.option_schema(cls.max_players + 1)


@pytest.mark.parametrize("name,option,value,players",
                         declared_params("OPTIONS_OUT_OF_BOUNDS"))
def test_values_outside_the_bounds_are_config_errors_naming_the_option(name, option, value,
                                                                       players):
    with pytest.raises(ConfigError) as info:
        new_game(name, players=players, **{option: value})
    assert info.value.option == option and option in str(info.value)
    schema = option_schema(name, players)[option]
    assert schema["x-rule"] in str(info.value) or schema["x-rule"].split(",")[0] in str(
        info.value)


@pytest.mark.parametrize("name,options,players", declared_params("OPTIONS_AT_THE_BOUNDS"))
def test_the_bounds_themselves_are_accepted(name, options, players):
    game = new_game(name, players=players, seed=1, **options)
    assert all(game.options[k] == v for k, v in options.items())


def test_the_rounds_bound_follows_the_player_count():
    for players in range(2, 7):
        schema = option_schema("kings_stakes", players)["rounds"]
        assert schema["multipleOf"] == players and schema["minimum"] == players
        assert schema["maximum"] == 120                     # 120 is a multiple of 2..6
    assert option_schema("kings_stakes")["rounds"]["x-players"] == "multiple"
    assert option_schema("kings_stakes", 2)["teams"]["const"] is False
    assert "const" not in option_schema("kings_stakes", 4)["teams"]


def test_a_manna_match_of_one_hand():
    """MH-10.7 with ``hands``: the match ends after that many hands; the higher total wins,
    equal totals are a draw."""
    import random
    for seed in range(3):
        game = new_game("manna", seed=seed, hands=1)
        rng = random.Random(seed)
        while not game.is_over:
            ids = game.legal_action_ids()
            game.apply(ids[rng.randrange(len(ids))])
        ends = [e for e in game.events(None) if e["kind"] == "hand_end"]
        assert len(ends) == 1 and game.winners
        a, b = game.scores[0], game.scores[1]
        assert game.winners == ([0, 2, 4] if a > b else [1, 3, 5] if b > a else list(range(6)))


@pytest.mark.parametrize("name,options", [(name, options) for name, each in
                                          declared("OPTIONS_OF_0_3") for options in each])
def test_saves_with_the_wider_bounds_of_0_3_still_load(name, options):
    """A save keeps loading by the rules it was played with (``Option.saved``): the old
    bounds hold for load_game only; a new game with those values is refused."""
    import random

    from cardcore.saves import REPLAYING_SAVE
    with pytest.raises(ConfigError):
        new_game(name, seed=3, **options)
    token = REPLAYING_SAVE.set(True)             # as a 0.3 game was created
    try:
        old = new_game(name, seed=3, **options)
    finally:
        REPLAYING_SAVE.reset(token)
    rng = random.Random(3)
    for _ in range(30):
        ids = old.legal_action_ids()
        old.apply(ids[rng.randrange(len(ids))])
    loaded = cardcore.load_game(old.to_json())
    assert loaded.options == old.options and loaded.to_json() == old.to_json()
    assert loaded.clone().options == old.options
