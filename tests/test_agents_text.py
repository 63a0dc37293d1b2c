"""Language-model players (cardcore.agents.text): the prompt, the answer parser, the harness;
scripted agents only (no model)."""
from __future__ import annotations

import random
import re

import pytest

from cardcore import ConfigError, new_game
from cardcore.agents.text import (AnswerRefused, legal_moves, parse_answer, play_agent, prompt,
                                  seat_text)
from cardcore.bots import make_bot
from cardcore.cards import card_str
from cardcore.registry import available_games, game_class


def first_number(text: str) -> str:
    return "1"


def _to_move(name: str, seed: int, moves: int = 6, **options):
    """A game after a few greedy moves, at a decision with at least two moves."""
    game = new_game(name, seed=seed, **options)
    bot = make_bot("greedy", seed)
    for _ in range(moves):
        game.apply(bot.choose_id(game))
    while len(game.legal_action_ids()) < 2:
        game.apply(bot.choose_id(game))
    return game


def test_the_prompt_numbers_the_legal_moves_and_the_parser_reads_them_back():
    game = _to_move("crazy_eights", 3, players=2)
    text = prompt(game)
    moves = legal_moves(game)
    assert sorted(a.id for a in moves) == sorted(game.legal_action_ids())
    listed = re.findall(r"^(\d+)\) (.+)$", text, re.MULTILINE)
    assert [int(n) for n, _ in listed] == list(range(1, len(moves) + 1))
    assert [m for _, m in listed] == [str(a) for a in moves]
    assert f"as seat {game.current_player}" in text and "Your hand: " in text
    hand = game.view(game.current_player)["hand"]
    assert " ".join(hand) in text
    for i, action in enumerate(moves, 1):
        for answer in (str(i), f"{i}.", f"#{i}", f"Move {i}", f" {i}) ", f"I think so.\n{i}"):
            assert parse_answer(game, answer) == action, answer
        assert parse_answer(game, str(action)) == action
        assert parse_answer(game, str(action).upper()) == action
        assert parse_answer(game, f"`{action}`") == action
        spaced = "  " + str(action).replace(" ", "   ").upper()   # the game's own reading
        assert parse_answer(game, spaced) == action


@pytest.mark.parametrize("answer, message", [
    ("", "Answer with the number of a move from 1 to"),
    (None, "Answer with the number of a move from 1 to"),
    ("0", "There is no move 0: choose a number from 1 to"),
    ("99", "There is no move 99: choose a number from 1 to"),
    ("play 7X", "Not allowed:"),
    ("I would like to win", "Not allowed:"),
    ("x" * 10_000, "Not allowed:"),
])
def test_an_answer_naming_no_legal_move_is_refused_with_a_reason(answer, message):
    game = _to_move("crazy_eights", 3, players=2)
    before = game.to_json()
    with pytest.raises(AnswerRefused) as caught:
        parse_answer(game, answer)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 700                   # bad input echoed at most 60 chars
    assert game.to_json() == before


def test_russian_prompt_and_refusals():
    game = _to_move("kings_stakes", 5)
    text = prompt(game, lang="ru")
    assert "Ваша рука: " in text and "Your hand" not in text
    assert "Ваши ходы:" in text
    with pytest.raises(AnswerRefused, match="Хода 99 нет"):
        parse_answer(game, "99", lang="ru")
    with pytest.raises(ConfigError, match="lang"):
        prompt(game, lang="de")


def test_a_prompt_is_for_the_seat_to_move_and_seat_text_for_any_seat():
    game = _to_move("kings_stakes", 5)
    other = 1 - game.current_player if game.num_players == 2 else (game.current_player + 1) % \
        game.num_players
    with pytest.raises(ConfigError, match="seat"):
        prompt(game, seat=other)
    text = seat_text(game, other)
    assert f"as seat {other}" in text and "turn" in text
    with pytest.raises(ConfigError, match="seat"):
        seat_text(game, 99)


@pytest.mark.parametrize("name", available_games())
def test_the_prompt_holds_no_hidden_information(name):
    """Two deals that differ only in other seats' hidden cards give the seat the same prompts,
    move after move, while the same moves stay legal in both and until the round ends (its
    breakdown may show the hands)."""
    cls = game_class(name)
    probe = new_game(name, seed=1)
    composition = [card_str(c) for c in cls.deck_for(probe.num_players, probe.options)]
    checked = 0
    for trial in range(3):
        rng = random.Random(trial)
        deck = rng.sample(composition, len(composition))
        seat = trial % probe.num_players
        game = new_game(name, seed=7, deck=deck)
        plan = cls.deal_plan_of(game.num_players, game.options, game.state.dealer)
        hidden = [i for i in game.hidden_deck_positions(seat)
                  if plan[i].startswith("hand:") and plan[i] != f"hand:{seat}"]
        i, j = rng.sample(hidden, 2)
        while deck[i] == deck[j]:
            i, j = rng.sample(hidden, 2)
        swapped = list(deck)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        other = new_game(name, seed=7, deck=swapped)
        assert game.to_json() != other.to_json()              # the deals differ
        chooser = random.Random(trial)
        for _ in range(150):
            if game.is_over or other.is_over or any(
                    e["kind"] == game.round_end_event for e in game.events(seat)):
                break
            assert seat_text(game, seat, history=1000) == seat_text(other, seat, history=1000)
            if game.current_player == seat:
                assert prompt(game, lang="ru") == prompt(other, lang="ru")
                checked += 1
            ids = game.legal_action_ids()
            if ids != other.legal_action_ids():
                break
            action = ids[chooser.randrange(len(ids))]
            game.apply(action)
            other.apply(action)
    assert checked >= 3, checked


def test_play_agent_reports_win_shares_and_ratings_with_intervals():
    report = play_agent("kings_stakes", first_number, opponents="random", games=12, seed=3)
    assert report["games"] == 12 and report["opponents"] == ["random"]
    assert [row["bot"] for row in report["standings"]] == ["agent", "random"]
    lo, hi = report["win_rate_ci"]
    assert 0 <= lo <= report["win_rate"] <= hi <= 1
    lo, hi = report["rating_ci"]
    assert lo < report["rating"] < hi
    answers = report["answers"]
    assert answers["decisions"] > 0 and answers["valid_first"] == answers["decisions"]
    assert answers["refused"] == answers["fallbacks"] == 0
    again = play_agent("kings_stakes", first_number, opponents="random", games=12, seed=3)
    assert again["standings"] == report["standings"]


def test_a_refused_answer_is_sent_back_and_retried_within_a_bound():
    asked: list[str] = []

    def garbage_then_number(text: str) -> str:
        asked.append(text)
        return "1" if text.startswith(("There is no move", "Not allowed")) else "banana"

    records = []
    report = play_agent("crazy_eights", garbage_then_number, opponents="greedy", games=2,
                        seed=1, players=2, on_turn=records.append)
    answers = report["answers"]
    assert answers["valid_first"] == 0 and answers["fallbacks"] == 0
    assert answers["refused"] == answers["decisions"] == len(records) > 0
    assert records[0]["answers"] == ["banana", "1"] and records[0]["refusals"]
    assert asked[1].startswith(records[0]["refusals"][0]) and asked[1].endswith(asked[0])

    def never(text: str) -> str:
        return "no"

    report = play_agent("crazy_eights", never, games=1, seed=1, players=2, retries=1)
    answers = report["answers"]
    assert answers["fallbacks"] == answers["decisions"] > 0
    assert answers["refused"] == 2 * answers["decisions"]


def test_play_agent_against_several_bots_and_bad_arguments():
    report = play_agent("kings_stakes", first_number, opponents="greedy,random", games=4,
                        seed=0, players=3, lang="ru")
    assert [row["bot"] for row in report["standings"]] == ["agent", "greedy", "random"]
    for kwargs, option in [({"agent": 3}, "agent"), ({"games": 0}, "games"),
                           ({"retries": -1}, "retries"), ({"opponents": "nosuch"}, "bots"),
                           ({"opponents": "agent"}, "bots"), ({"lang": "xx"}, "lang"),
                           ({"seed": -1}, "seed")]:
        args = {"agent": first_number, **kwargs}
        with pytest.raises(ConfigError) as caught:
            play_agent("kings_stakes", args.pop("agent"), **args)
        assert caught.value.option == option, (kwargs, caught.value)


def test_a_failing_command_is_counted_as_an_agent_error_not_a_refusal():
    from cardcore.agents.arena import command_agent
    records = []
    report = play_agent("crazy_eights", command_agent("echo no key >&2; exit 3", 30), games=1,
                        seed=1, players=2, retries=1, on_turn=records.append)
    answers = report["answers"]
    assert answers["errors"] == 2 * answers["decisions"] > 0 and answers["refused"] == 0
    assert answers["fallbacks"] == answers["decisions"]
    assert records[0]["answers"] == [None, None]
    assert records[0]["refusals"][0] == "No answer came: exit status 3: no key"


@pytest.mark.slow
def test_the_agent_command_rates_a_command_line_agent(capsys):
    import json
    import sys

    from cardcore.cli import main
    command = f"{sys.executable} -c \"import sys; sys.stdin.read(); print('1')\""
    assert main(["agent", "crazy_eights", "--players", "2", "--command", command, "-n", "2",
                 "--bots", "random", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["answers"]["valid_first"] == \
        report["answers"]["decisions"] > 0
    assert main(["agent", "crazy_eights", "--command", "true", "--timeout", "0"]) == 2
    assert "--timeout" in capsys.readouterr().err
