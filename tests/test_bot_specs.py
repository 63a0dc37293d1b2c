"""Bot specs ``name[:key=value,...]``: parsing, checking, making bots, and their use in simulate."""
from __future__ import annotations

import pytest

from cardcore import ConfigError, new_game
from cardcore.bots import (BotSpec, GreedyBot, RandomBot, available_bots, bot_parameters,
                           make_bot, parse_bot_spec, parse_bot_specs)
from cardcore.cli import main
from cardcore.simulation import bot_seed, game_seed, simulate


def test_available_bots_and_their_parameters():
    assert available_bots() == ("random", "greedy", "ismcts", "level")
    assert bot_parameters("random") == {"seed": None}
    assert bot_parameters("GREEDY") == {"seed": None, "epsilon": 0.0}
    assert bot_parameters("ismcts") == {"iterations": None, "think_ms": None, "seed": None,
                                        "exploration": 0.7, "horizon": None, "rollout": "game",
                                        "prior": 0.25, "reward": None, "solver": 0}
    assert bot_parameters("level") == {"level": 3, "seed": None}


@pytest.mark.parametrize("text, name, params, canonical", [
    ("random", "random", (), "random"),
    (" Greedy ", "greedy", (), "greedy"),
    ("random:seed=3", "random", (("seed", 3),), "random:seed=3"),
    ("RANDOM: Seed = 12 ", "random", (("seed", 12),), "random:seed=12"),
])
def test_a_spec_parses_to_its_canonical_form(text, name, params, canonical):
    spec = parse_bot_spec(text)
    assert spec == BotSpec(name, params)
    assert str(spec) == canonical and parse_bot_spec(canonical) == spec


def test_a_spec_makes_its_bot_and_its_own_seed_wins():
    bot = make_bot("random:seed=3", 99)
    assert isinstance(bot, RandomBot) and bot.seed == 3
    assert make_bot("random", 99).seed == 99 and isinstance(make_bot("greedy"), GreedyBot)
    game = new_game("kings_stakes", seed=5)
    assert make_bot("random:seed=3").choose_id(game) == RandomBot(3).choose_id(game)
    assert parse_bot_spec("random:seed=3").seed == 3 and parse_bot_spec("random").seed is None


def test_a_list_of_specs_keeps_parameters_with_their_bot():
    assert [str(s) for s in parse_bot_specs("greedy,random:seed=3,random")] == \
        ["greedy", "random:seed=3", "random"]
    assert [str(s) for s in parse_bot_specs(["random:seed=1", "greedy"])] == \
        ["random:seed=1", "greedy"]
    # a key=value item without a name continues the previous spec (bots with several params)
    with pytest.raises(ConfigError, match="'seed' is given twice"):
        parse_bot_specs("random:seed=1,seed=2,greedy")


@pytest.mark.parametrize("text, message", [
    ("minimax", "unknown bot 'minimax'"),
    ("alphazero:iterations=200", "unknown bot 'alphazero'"),
    ("random:sed=3", "random has no parameter 'sed' (parameters: seed)"),
    ("random:seed", "parameters look like key=value"),
    ("random:seed=-1", "non-negative"),
    ("random:seed=abc", "must be an int"),
    ("random:seed=1.5", "must be an int"),
    ("", "unknown bot"),
])
def test_bad_specs_are_config_errors(text, message):
    with pytest.raises(ConfigError) as info:
        parse_bot_spec(text)
    assert message in str(info.value) and info.value.option == "bots"


@pytest.mark.parametrize("bots", ["", ",greedy", ["random", " "], []])
def test_an_empty_list_of_bots_is_a_config_error(bots):
    with pytest.raises(ConfigError, match="at least one bot"):
        parse_bot_specs(bots)


def test_simulate_gives_a_seeded_spec_its_own_streams():
    plain = simulate("kings_stakes", 8, players=2, bots="greedy,random", seed=3)
    own = simulate("kings_stakes", 8, players=2, bots="greedy,random:seed=7", seed=3)
    assert own["bots"] == ["greedy", "random:seed=7"] and own["core"] is True
    assert own["actions"] != plain["actions"]
    actions, wins = 0, [0, 0]
    for i in range(8):                       # the documented seeds replay the run
        game = new_game("kings_stakes", players=2, seed=game_seed(3, i))
        bots = [make_bot("greedy", bot_seed(3, i, 0)), make_bot("random", bot_seed(7, i, 1))]
        while not game.is_over:
            game.apply(bots[game.current_player].choose_id(game))
            actions += 1
        for seat in game.winners:
            wins[seat] += 1
    assert own["actions"] == actions and own["wins"] == wins


def test_simulate_keeps_plain_names_and_their_results():
    s = simulate("kings_stakes", 20, bots=" Greedy ,RANDOM", seed=1)
    assert s["bots"] == ["greedy", "random"] * 2
    assert s["by_bot"]["greedy"]["seats"] == [0, 2]


def test_cli_accepts_specs(capsys):
    assert main(["simulate", "kings_stakes", "-n", "10", "--bots", "greedy,random:seed=2",
                 "--json"]) == 0
    assert '"random:seed=2"' in capsys.readouterr().out
    assert main(["simulate", "kings_stakes", "-n", "10", "--bots", "random:colour=red"]) == 2
    assert "no parameter 'colour'" in capsys.readouterr().err
