"""The arena harness (cardcore.agents.arena, answers, observation, textarena, kaggle): scripted
stand-ins for a model, on every game, in English and Russian; no model."""
from __future__ import annotations

import json
import random
import re
import sys

import pytest

from cardcore import ConfigError, new_game
from cardcore.agents.answers import AnswerRefused, move_label, read_answer
from cardcore.agents.arena import (ArenaSettings, SeatCounts, arena, as_agent, command_agent,
                                   play_episode)
from cardcore.agents.kaggle import (get_legal_moves, kaggle_observation, make_prompt,
                                    parse_response, run_episode, text_agent)
from cardcore.agents.observation import arena_prompt, observation
from cardcore.agents.text import legal_moves, parse_answer
from cardcore.agents.textarena import TextArenaEnv, render
from cardcore.bots import make_bot
from cardcore.i18n import use
from cardcore.registry import available_games, game_class
from cardcore.texts import words_module

GAMES = available_games()
LANGS = ("en", "ru")
# The games whose list adds a note to some moves (words.move_note): Durak's take, ...
NOTED = [name for name in GAMES
         if callable(getattr(words_module(game_class(name)), "move_note", None))]
LISTED = re.compile(r"^(\d+)\) (.+)$", re.MULTILINE)


def short(name: str, seed: int) -> object:
    match = game_class(name).short_match
    return new_game(name, players=match.players, seed=seed, **match.options)


def listed(prompt: str) -> list[tuple[int, str]]:
    """The numbered moves a prompt shows: a text prompt's list (the last one: a rethink
    repeats it), or a JSON observation's ``legal_moves``."""
    for line in reversed(prompt.splitlines()):
        if line.startswith("{"):
            return [(int(n), label) for n, label in json.loads(line)["legal_moves"].items()]
    found = [(int(n), label) for n, label in LISTED.findall(prompt)]
    start = max(i for i, (n, _) in enumerate(found) if n == 1)
    return found[start:]


class StandIn:
    """A scripted model: picks a move from the prompt's list (seeded) and writes it in one
    of the forms; remembers what it meant, to check the move played."""

    def __init__(self, form: str, seed: int = 0) -> None:
        self.form, self.rng, self.meant = form, random.Random(seed), []

    def __call__(self, prompt: str) -> str:
        moves = listed(prompt)
        number, label = moves[self.rng.randrange(len(moves))]
        self.meant.append(label)
        if self.form == "long":                        # 5,000+ characters, the move last
            return ("Let me think about the cards. " * 200) + f"\n\nMy move:\n{number}"
        if self.form == "label":                       # copied from the list, note and all
            return label
        if self.form == "json":
            return f'I considered several moves.\n```json\n{{"move": "{label}"}}\n```'
        if self.form == "final":
            return f"Reasoning...\nFinal Answer: {number}"
        raise AssertionError(self.form)


def _episode(name: str, lang: str, agent, seed: int = 5, **settings):
    game = short(name, seed)
    lines: list[dict] = []
    episode = play_episode(game, {0: agent},
                           {k: "random" for k in range(1, game.num_players)},
                           ArenaSettings(lang=lang, **settings), seed=seed,
                           on_line=lines.append)
    return game, episode, lines


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("form", ["long", "label", "json", "final"])
def test_valid_answers_in_every_form_are_played_as_meant(form, name, lang):
    """0 refusals, 0 rethinks, 0 forfeits, 0 default moves on valid answers; the move played
    is the one the stand-in meant."""
    agent = StandIn(form, seed=len(name))
    game, episode, lines = _episode(name, lang, agent)
    c = episode.counts[0]
    assert c.decisions > 0 and c.decisions == c.valid_first == len(agent.meant)
    assert (c.illegal, c.rethinks, c.errors, c.forfeits, c.default_moves) == (0, 0, 0, 0, 0)
    expected = {"long": "number", "label": "label", "json": "json", "final": "final"}[form]
    assert c.forms == {expected: c.decisions}
    played = [line["move"] for line in lines if line["type"] == "attempt"]
    meant = [re.sub(r" \(.*\)$", "", label) for label in agent.meant]
    assert played == meant
    assert episode.forfeit is None and episode.winners == list(game.winners)
    assert lines[-1]["type"] == "result" and lines[-1]["counts"]["0"] == c.to_dict()


@pytest.mark.parametrize("name", GAMES)
def test_json_prompts_are_answered_like_text_ones(name):
    """style="json": the observation's JSON in place of the text; the same stand-ins, the
    same counts."""
    agent = StandIn("final", seed=2)
    game, episode, lines = _episode(name, "ru", agent, style="json")
    c = episode.counts[0]
    assert c.decisions == c.valid_first == len(agent.meant) > 0 and c.illegal == 0
    first = next(line for line in lines if line["type"] == "attempt")
    assert json.loads(first["prompt"].splitlines()[1])["seat"] == 0
    assert "Окончательный ответ: N" in first["prompt"]


def _with_note(name: str) -> tuple[object, object]:
    """A position where a legal move's label carries a note (Durak's take, Kuzanasta's
    draw_discard)."""
    for seed in range(200):
        game = new_game(name, seed=seed)
        bot = make_bot("random", seed)
        for _ in range(60):
            if game.is_over:
                break
            for action in legal_moves(game):
                if move_label(game, action) != str(action):
                    return game, action
            game.apply(bot.choose_id(game))
    raise AssertionError(f"no note in {name}")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NOTED)
def test_a_label_copied_with_its_note_is_read(name, lang):
    """The issue's measurement: ``take (picks up 6D)`` and ``draw_discard (takes 8D, ...)``
    copied from the list were refused."""
    game, action = _with_note(name)
    with use(lang, game):
        label = move_label(game, action)
        text = arena_prompt(game, lang)
        number = next(n for n, shown in listed(text) if shown == label)
        moves = legal_moves(game)
        for answer in (label, label.upper(), f"**{label}**", f"{number}) {label}",
                       str(action), f'{{"move": "{label}"}}', f"Final Answer: {label}",
                       "x" * 3000 + "\n" + label):
            assert read_answer(game, answer, moves).action == action, answer
    assert parse_answer(game, label, lang=lang) == action       # play_agent's parser too


def test_the_answers_last_block_decides_and_length_does_not_matter():
    game = short("crazy_eights", 3)
    while len(game.legal_action_ids()) < 3:
        game.apply(make_bot("random", 1).choose_id(game))
    moves = legal_moves(game)
    first, second, third = moves[:3]
    cases = {
        '{"move": 1} on second thought {"move": 2}': second,
        'Final Answer: 1\nno, rather\n{"move": "' + str(third) + '"}': third,
        '{"move": 3}\nFinal Answer: 2': second,
        "a" * 5000 + "\nFinal Answer: 3": third,
        "b" * 20_000 + "\n" + str(first): first,
        '{"move": 2, "why": "it is safe"}': second,
        "Окончательный ответ: 1": first,
        '{"reason": "x"}\n3': third,                  # a JSON object without "move" is prose
        "My choice:\n```\n3\n```\n": third,             # a code fence's line is no answer
        "**Move: 2**": second, "Answer: 1": first, "Ответ: 3": third, "ход 2": second,
    }
    for answer, action in cases.items():
        assert read_answer(game, answer, moves).action == action, answer[-60:]


@pytest.mark.parametrize("answer, outcome", [
    ("", "unparsable"), ("   \n ", "unparsable"), (None, "unparsable"), (42, "unparsable"),
    ('{"move": 0}', "illegal"), ('{"move": 99}', "illegal"), ("Final Answer: 99", "illegal"),
    ('{"move": true}', "unparsable"), ('{"move": [1]}', "unparsable"),
    ("I would like to win", "unparsable"), ("play 7X", "illegal"),
    ("Final Answer:", "unparsable"), ("y" * 5000, "unparsable"),
])
def test_malformed_answers_are_refused_with_a_reason_and_change_nothing(answer, outcome):
    game = short("crazy_eights", 3)
    before = game.to_json()
    with pytest.raises(AnswerRefused) as caught:
        read_answer(game, answer, legal_moves(game))
    assert caught.value.outcome == outcome
    assert str(caught.value) and len(str(caught.value)) < 700    # bad input echoed briefly
    assert game.to_json() == before


def garbage(prompt: str) -> str:
    return "I am not sure what to do here."


def crash(prompt: str) -> str:
    raise RuntimeError("the model's server is down")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", GAMES)
def test_malformed_answers_are_rethought_then_forfeited(name, lang):
    asked: list[str] = []

    def agent(prompt: str) -> str:
        asked.append(prompt)
        return garbage(prompt)

    game, episode, lines = _episode(name, lang, agent)
    c = episode.counts[0]
    assert (c.decisions, c.illegal, c.unparsable, c.rethinks, c.forfeits) == (1, 3, 3, 2, 1)
    assert c.default_moves == c.errors == c.valid_first == 0
    assert episode.forfeit == 0 and 0 not in episode.winners
    sides = type(game).sides_of(game.num_players, game.options)
    assert episode.winners == [k for k in range(game.num_players) if sides[k] != sides[0]]
    attempts = [line for line in lines if line["type"] == "attempt"]
    assert [a["outcome"] for a in attempts] == ["unparsable"] * 3
    assert asked[1].startswith(attempts[0]["reason"]) and asked[1].endswith(asked[0])
    rethink = "Think again" if lang == "en" else "Подумайте ещё раз"
    assert rethink in asked[1] and rethink in asked[2] and rethink not in asked[0]
    assert lines[-2] == {"type": "failure", "seat": 0, "handling": "forfeit",
                         "counts": c.to_dict()}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", GAMES)
def test_a_crashing_agent_is_counted_and_given_seeded_default_moves(name, lang):
    game, episode, lines = _episode(name, lang, crash, on_failure="default", rethinks=1)
    c = episode.counts[0]
    assert c.decisions > 0 and c.errors == 2 * c.decisions and c.illegal == 0
    assert c.default_moves == c.decisions and c.rethinks == c.decisions and c.forfeits == 0
    assert episode.forfeit is None and game.is_over
    errors = [line for line in lines if line["type"] == "attempt"]
    assert {e["outcome"] for e in errors} == {"error"} and errors[0]["error"] == "crash"
    assert "RuntimeError: the model's server is down" in errors[0]["reason"]
    again = _episode(name, lang, crash, on_failure="default", rethinks=1)
    assert again[0].action_log() == game.action_log()           # seeded default moves


def test_a_crashing_command_and_a_timeout_are_errors_not_refusals(tmp_path):
    failing = command_agent(f"{sys.executable} -c \"import sys; sys.exit('no key')\"", 30, "f")
    game, episode, lines = _episode("durak", "en", failing)
    c = episode.counts[0]
    assert (c.errors, c.illegal, c.forfeits, c.timeouts) == (3, 0, 1, 0)
    first = next(line for line in lines if line["type"] == "attempt")
    assert first["error"] == "crash" and "exit status 1: no key" in first["reason"]
    slow = command_agent(f"{sys.executable} -c \"import time; time.sleep(5)\"", 0.2, "slow")
    game, episode, lines = _episode("durak", "en", slow, rethinks=0)
    assert (episode.counts[0].errors, episode.counts[0].timeouts) == (1, 1)
    echo = command_agent(f"{sys.executable} -c \"import sys; sys.stdin.read(); print(1)\"")
    game, episode, lines = _episode("crazy_eights", "ru", echo)
    assert episode.counts[0].valid_first == episode.counts[0].decisions > 0
    late = as_agent(lambda prompt: (__import__("time").sleep(0.05), "1")[1], "late", 0.01)
    with pytest.raises(Exception, match="no answer within"):
        late("x")


def test_the_observation_is_per_seat_json_with_rules_partners_options_and_moves():
    game = new_game("durak", players=4, seed=2, partners=True)
    seat = game.current_player
    seen = observation(game, seat, "ru")
    json.dumps(seen)                                             # JSON values only
    assert seen["partners"] == [(seat + 2) % 4] and seen["options"]["partners"] is True
    assert seen["rules"].startswith("# ") and "Дурак" in seen["rules"] or "durak" in seen["rules"]
    with use("ru", game):
        labels = [move_label(game, a) for a in legal_moves(game)]
    assert seen["legal_moves"] == {str(i): label for i, label in enumerate(labels, 1)}
    assert seen["view"] == game.view(seat)
    other = observation(game, (seat + 1) % 4, "en")
    assert other["legal_moves"] == {} and other["view"]["hand"] != seen["view"]["hand"]
    text = arena_prompt(game, "en")
    assert "Your partners: seat" in text and "partners=true" in text and "How to play" in text
    assert '{"move": N}' in text and "Final Answer: N" in text
    as_json = arena_prompt(game, "ru", style="json")
    body = json.loads(as_json.split("\n", 2)[1])
    assert body["legal_moves"] == seen["legal_moves"] and "Окончательный ответ" in as_json
    with pytest.raises(ConfigError, match="style"):
        arena_prompt(game, "en", style="yaml")
    with pytest.raises(ConfigError, match="seat"):
        observation(game, 9)


@pytest.mark.parametrize("name", GAMES)
def test_the_observation_holds_no_hidden_information(name):
    """Two deals that differ only in cards hidden from the seat give it the same observation
    and the same JSON prompt, move after move (as the text prompt's test does)."""
    from cardcore.cards import card_str
    cls = game_class(name)
    probe = new_game(name, seed=1)
    composition = [card_str(c) for c in cls.deck_for(probe.num_players, probe.options)]
    rng = random.Random(2)
    deck = rng.sample(composition, len(composition))
    game = new_game(name, seed=7, deck=deck)
    seat = game.current_player
    plan = cls.deal_plan_of(game.num_players, game.options, game.state.dealer)
    hidden = [i for i in game.hidden_deck_positions(seat)
              if plan[i].startswith("hand:") and plan[i] != f"hand:{seat}"]
    i, j = rng.sample(hidden, 2)
    while deck[i] == deck[j]:
        i, j = rng.sample(hidden, 2)
    swapped = list(deck)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    other = new_game(name, seed=7, deck=swapped)
    checked = 0
    for _ in range(40):
        if game.is_over or any(e["kind"] == game.round_end_event for e in game.events(seat)):
            break
        assert observation(game, seat, "ru") == observation(other, seat, "ru")
        if game.current_player == seat:
            assert arena_prompt(game, "en", "json") == arena_prompt(other, "en", "json")
            checked += 1
        ids = game.legal_action_ids()
        if ids != other.legal_action_ids():
            break
        game.apply(ids[rng.randrange(len(ids))])
        other.apply(game.action_log()[-1])
    assert checked >= 1


def test_settings_and_arguments_are_checked():
    for kwargs, option in [({"rethinks": 11}, "rethinks"), ({"on_failure": "random"},
                           "on_failure"), ({"timeout": 0}, "timeout"), ({"lang": "de"}, "lang"),
                           ({"style": "xml"}, "style"), ({"history": -1}, "history")]:
        with pytest.raises(ConfigError) as caught:
            ArenaSettings(**kwargs)
        assert caught.value.option == option
    with pytest.raises(ConfigError, match="agent"):
        as_agent(3)
    with pytest.raises(ConfigError) as caught:
        arena("durak", {}, bots="random")
    assert caught.value.option == "agents"
    with pytest.raises(ConfigError) as caught:
        arena("durak", {"random": garbage}, bots="random")
    assert caught.value.option == "bots"
    with pytest.raises(ConfigError) as caught:
        play_episode(new_game("durak"), {0: garbage}, {}, seed=1)
    assert caught.value.option == "agents"


def test_the_league_rates_agents_against_the_ladder_and_writes_transcripts(tmp_path):
    long_ = StandIn("long", 1)
    result = arena("kings_stakes", {"long": long_, "bad": garbage, "crash": crash},
                   bots="level:1,level:2", games=18, seed=3, players=2, out=tmp_path)
    assert [row["bot"] for row in result["standings"]] == ["long", "bad", "crash", "level:1",
                                                           "level:2"]
    assert all(any(e in ("long", "bad", "crash") for e in s) for s in result["seatings"])
    lo, hi = result["standings"][0]["rating_ci"]
    assert lo < result["standings"][0]["rating"] < hi
    agents = result["agents"]
    assert agents["long"]["decisions"] == agents["long"]["valid_first"] > 0
    assert agents["long"]["forfeits"] == agents["long"]["default_moves"] == 0
    assert agents["bad"]["forfeits"] > 0 and agents["bad"]["illegal"] == 3 * \
        agents["bad"]["forfeits"]
    assert agents["crash"]["errors"] == 3 * agents["crash"]["forfeits"] > 0
    files = sorted(tmp_path.glob("kings_stakes-*.jsonl"))
    assert len(files) == 18 and (tmp_path / "ratings.json").is_file()
    saved = json.loads((tmp_path / "ratings.json").read_text(encoding="utf-8"))
    assert saved["agents"] == agents and saved["standings"] == result["standings"]
    for path, episode in zip(files, result["episodes"]):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert lines[0]["type"] == "episode" and lines[0]["entrants"] == episode["seats"]
        assert lines[-1]["type"] == "result" and lines[-1]["counts"] == episode["counts"]
        for seat, counts in episode["counts"].items():           # per seat, summed per agent
            assert SeatCounts(**counts).decisions >= 0
    again = arena("kings_stakes", {"long": StandIn("long", 1), "bad": garbage, "crash": crash},
                  bots="level:1,level:2", games=18, seed=3, players=2)
    assert again["standings"] == result["standings"]


@pytest.mark.slow
def test_the_arena_command(tmp_path, capsys):
    from cardcore.cli import main
    good = "cat > /dev/null; echo 'Final Answer: 1'"
    assert main(["arena", "crazy_eights", "--agent", f"good={good}", "--agent",
                 "down=exit 3", "--callable", "garbage=test_arena:garbage", "--bots",
                 "random", "-n", "6", "--out", str(tmp_path), "--json",
                 "--on-failure", "default", "--lang", "ru"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["settings"]["on_failure"] == "default" and report["settings"]["lang"] == "ru"
    assert report["agents"]["good"]["forms"] == {"final": report["agents"]["good"]["decisions"]}
    assert report["agents"]["down"]["errors"] == 3 * report["agents"]["down"]["default_moves"]
    assert len(list(tmp_path.glob("*.jsonl"))) == 6
    assert main(["arena", "crazy_eights", "--agent", "noname"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err
    assert main(["arena", "crazy_eights", "--callable", "x=nosuchmodule:f"]) == 2
    assert "does not import" in capsys.readouterr().err


# ------------------------------------------------------------------ the adapters
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", GAMES)
def test_textarena_shape_plays_every_game(name, lang):
    env = TextArenaEnv(name, lang=lang, **game_class(name).short_match.options)
    env.reset(num_players=game_class(name).short_match.players, seed=7)
    agents = {k: StandIn(form, k) for k, form in enumerate(["json", "label", "final", "long",
                                                             "json", "label"])}
    done, steps = False, 0
    while not done:
        player_id, messages = env.get_observation()
        assert messages[-1][0] == -1 and messages[-1][2] == "PROMPT"
        done, info = env.step(agents[player_id](render(messages)))
        assert info.get("invalid_move") is None
        steps += 1
    rewards, game_info = env.close()
    game = env.game
    assert steps == len(game.action_log())
    assert set(rewards.values()) <= {-1.0, 0.0, 1.0}
    assert [k for k, r in rewards.items() if r > 0] == list(game.winners) or \
        len(game.winners) == game.num_players
    assert all(not i["invalid_move"] and i["counts"]["illegal"] == 0 for i in game_info.values())


def test_textarena_invalid_moves_get_one_retry_then_lose():
    env = TextArenaEnv("durak", lang="ru", error_allowance=1)
    env.reset(num_players=2, seed=1)
    player, _ = env.get_observation()
    done, info = env.step("банан")
    assert not done and info["invalid_move"]
    again, messages = env.get_observation()
    assert again == player and messages[0][2] == "GAME_ADMIN" and "банан" in messages[0][1]
    done, info = env.step('{"move": 99}')
    assert done and "Хода 99 нет" in info["reason"]
    rewards, game_info = env.close()
    assert rewards[player] == -1.0 and rewards[1 - player] == 1.0
    assert game_info[player]["invalid_move"] and game_info[player]["counts"]["forfeits"] == 1
    with pytest.raises(ConfigError):
        env.step("1")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", GAMES)
def test_kaggle_shape_plays_every_game(name, lang):
    match = game_class(name).short_match
    stand_in = StandIn("json", 3)
    agent = text_agent(stand_in)
    replay = run_episode(name, [agent] + ["random"] * (match.players - 1),
                         {"seed": 4, "lang": lang, "options": dict(match.options)})
    assert replay["statuses"] == ["DONE"] * match.players
    assert replay["defaultMoves"] == [0] * match.players
    assert sum(replay["rewards"]) <= match.players and set(replay["rewards"]) <= {-1.0, 0.0, 1.0}
    mine = [step[0] for step in replay["steps"] if step[0]["action"] is not None]
    assert len(mine) > 0
    for entry in mine:
        obs = entry["observation"]
        assert entry["action"]["submission"] in obs["legalActions"]
        label = get_legal_moves(obs)[entry["action"]["submission"]]
        assert entry["action"]["actionString"] == label
        assert json.loads(obs["observationString"])["seat"] == 0
        assert label in obs["legalActionStrings"]
    json.dumps(replay)


def test_kaggle_parse_rethink_and_forfeit():
    game = new_game("durak", seed=3)
    obs = kaggle_observation(game, game.current_player, "en")
    legal = get_legal_moves(obs)
    labels = obs["legalActionStrings"]
    first = obs["legalActions"][0]
    assert list(legal) == obs["legalActions"] and list(legal.values()) == labels
    assert parse_response('thinking...\n{"move": 1}', labels, obs).legal_action == labels[0]
    assert parse_response(f"Final Answer: {labels[0]}", labels).legal_action == labels[0]
    refused = parse_response("banana", labels, obs)
    assert refused.legal_action is None and refused.raw_action == "banana"
    assert "banana" in refused.reason
    unparsable = parse_response("", labels, obs)
    assert unparsable.raw_action is None and unparsable.reason
    rethink = make_prompt(obs, [], "banana", "banana")
    assert rethink.startswith(refused.reason) and "Think again" in rethink
    assert "Think again" not in make_prompt(obs)
    answers = iter(["banana", "1"])
    chosen = text_agent(lambda p: next(answers))(obs, {})
    assert chosen == {"submission": first, "actionString": labels[0], "thoughts": "1",
                      "status": "OK"}
    gave_up = text_agent(garbage)(obs, {"illegalMoveForfeit": True})
    assert gave_up["submission"] == -1 and "forfeiting" in gave_up["status"]
    with pytest.raises(ValueError, match="Failed to parse a legal move after 2 attempts"):
        text_agent(garbage)(obs, {})
    with pytest.raises(RuntimeError, match="server is down"):
        text_agent(crash)(obs, {})
    replay = run_episode("durak", [text_agent(garbage), "random"], {"seed": 1})
    assert replay["statuses"][0] == "INVALID" and replay["rewards"] == [-1.0, 1.0]
    assert replay["steps"][-1][0]["action"]["submission"] == -1
    replay = run_episode("durak", [text_agent(crash), "random"],
                         {"seed": 1, "illegalMoveForfeit": False})
    assert replay["statuses"] == ["DONE", "DONE"] and replay["defaultMoves"][0] > 0
    replay = run_episode("durak", [lambda obs, config: 1 / 0, "random"], {"seed": 1})
    assert replay["statuses"][0] == "ERROR" and replay["rewards"] == [-1.0, 1.0]
    with pytest.raises(ConfigError):
        text_agent(garbage, max_retries=0)
