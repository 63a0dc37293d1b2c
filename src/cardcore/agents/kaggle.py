"""A cardcore game in Kaggle Game Arena's shape, without depending on kaggle-environments.

Kaggle's agents are functions ``agent(obs, config) -> action``: ``obs`` holds the seat's
``observationString`` (here the JSON of ``cardcore.agents.observation.observation``),
``legalActions`` (the game's action ids), ``legalActionStrings`` (their labels, the list the
prompt numbers 1..N), ``currentPlayer``, ``playerId``, ``isTerminal`` and ``step``. (Kaggle's
``serializedGameAndState`` is left out: cardcore's save holds every hidden card.) The
harness's pieces keep its names and signatures: ``get_legal_moves(obs)`` (``{id: label}``),
``make_prompt(obs, move_history, previous_response, previous_action)`` (a rethink starts with
the refusal's reason) and ``parse_response(text, legal_action_strings, observation)`` (a
``ParseResult``: the legal label or None, and what the answer held). ``text_agent(ask,
max_retries=2)`` turns a text agent (prompt -> answer) into a Kaggle agent returning
``{"submission": id, "actionString", "thoughts", "status"}``: ``max_retries`` attempts in all,
then ``{"submission": -1, ...}`` (a forfeit) if ``config["illegalMoveForfeit"]``, else
ValueError.

``run_episode(game_name, agents, configuration)`` plays one game with Kaggle agents (or bot
specs) in the seats and returns a replay in Kaggle's shape: ``configuration``, ``steps`` (per
step, per seat: ``action``, ``reward``, ``observation``, ``status``; the acting agent's
observation in full, the other seats' only who is to move), ``rewards`` and ``statuses``. An
agent that raises (``"ERROR"``) or submits no legal action (-1 among them: ``"INVALID"``) is
handled as ``configuration["illegalMoveForfeit"]`` says (default true, as Kaggle's): it
forfeits (that status, its side loses: -1, the others +1) or a random legal move, seeded by
the deal, is played for it (``defaultMoves`` counts them).
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable, Union

from cardcore.agents.answers import AnswerRefused, read_choice
from cardcore.agents.observation import answer_instructions, observation
from cardcore.agents.text import legal_moves
from cardcore.bots import make_bot
from cardcore.errors import ConfigError, echo
from cardcore.game import Game
from cardcore.i18n import _, check_lang, use
from cardcore.records import forfeit_winners
from cardcore.registry import new_game

__all__ = ["ParseResult", "get_legal_moves", "kaggle_observation", "make_prompt",
           "parse_response", "run_episode", "text_agent"]

KaggleAgent = Callable[[Mapping[str, Any], Mapping[str, Any]], Any]


def kaggle_observation(game: Game, seat: int, lang: str = "en", step: int = 0
                       ) -> dict[str, Any]:
    """The seat's observation in Kaggle's keys (module docstring)."""
    seen = observation(game, seat, lang)
    moves = legal_moves(game) if game.current_player == seat else []
    labels = seen["legal_moves"]
    assert isinstance(labels, dict)
    return {"observationString": json.dumps(seen, ensure_ascii=False),
            "legalActions": [a.id for a in moves],
            "legalActionStrings": [labels[str(i)] for i in range(1, len(moves) + 1)],
            "currentPlayer": game.current_player if not game.is_over else -1,
            "playerId": seat, "isTerminal": game.is_over, "step": step, "lang": lang}


def get_legal_moves(obs: Mapping[str, Any]) -> dict[int, str]:
    """``{action id: label}`` of the legal moves, in the prompt's order."""
    return dict(zip(obs["legalActions"], obs["legalActionStrings"]))


@dataclass(frozen=True)
class ParseResult:
    """Kaggle's parse result: ``legal_action``, the label (one of ``legalActionStrings``) the
    answer named, or None; ``raw_action``, the piece of the answer that named a move (None if
    nothing did: unparsable); ``thoughts``, the answer; ``reason``, why it was refused ("" if
    not), in the observation's language."""

    legal_action: str | None
    raw_action: str | None
    thoughts: str | None = None
    reason: str = ""


def _lang(obs: Mapping[str, Any] | None) -> str:
    return check_lang((obs or {}).get("lang", "en"))


def parse_response(text: Any, legal_action_strings: Sequence[str],
                   observation: Mapping[str, Any] | None = None) -> ParseResult:
    """The legal move ``text`` names among ``legal_action_strings`` (the harness's
    ``parse_response``; ``cardcore.agents.answers``: the last ``{"move": ...}``, ``Final
    Answer: X``, a number or a label from the list; notation that is not a label is not read
    here, the agent has no engine)."""
    labels = list(legal_action_strings)
    thoughts = text if isinstance(text, str) else None
    with use(_lang(observation)):
        try:
            choice = read_choice(text, labels)
        except AnswerRefused as e:
            return ParseResult(None, None if e.outcome == "unparsable" else str(text)[-200:],
                               thoughts, str(e))
        if choice.index is None:
            return ParseResult(None, choice.piece, thoughts, _("Not a legal move: {answer}")
                               .format(answer=echo(choice.text)))
    return ParseResult(labels[choice.index], choice.piece, thoughts)


def make_prompt(obs: Mapping[str, Any], move_history: Sequence[str] | None = None,
                previous_response: str | None = None, previous_action: str | None = None
                ) -> str:
    """The question (the harness's ``make_prompt``): the observation's JSON and how to answer;
    after a refused ``previous_response``, a rethink that starts with the refusal's reason.
    ``move_history`` and ``previous_action`` are taken for the harness's signature: the
    observation's ``history`` already tells what happened."""
    lang = _lang(obs)
    count = len(obs["legalActions"])
    with use(lang):
        text = _("Your observation (JSON; legal_moves numbers your moves):") + "\n" + \
            str(obs["observationString"]) + "\n\n" + answer_instructions(count)
        if previous_response is not None:
            reason = parse_response(previous_response, obs["legalActionStrings"], obs).reason
            text = reason + "\n" + _("Think again and choose one of the legal moves "
                                     "(1-{count}).").format(count=count) + "\n\n" + text
    return text


def text_agent(ask: Callable[[str], str], max_retries: int = 2) -> KaggleAgent:
    """A Kaggle agent from a text agent (prompt -> answer), as the harness's agent function
    does: ``max_retries`` attempts in all, the later ones rethinks; it returns ``{"submission":
    id, "actionString": label, "thoughts": answer, "status": "OK"}``, and when the attempts
    run out ``{"submission": -1, ...}`` if ``config["illegalMoveForfeit"]``, else it raises
    ValueError. An exception of ``ask`` is an attempt lost; raised again at the last one."""
    if not isinstance(max_retries, int) or not 1 <= max_retries <= 10:
        raise ConfigError(f"max_retries must be an int 1..10, not {echo(max_retries)}",
                          "max_retries")

    def agent(obs: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, Any]:
        response: str | None = None
        previous: str | None = None
        failure: Exception | None = None
        legal = get_legal_moves(obs)
        for _attempt in range(max_retries):
            try:
                answer = ask(make_prompt(obs, None, response, previous))
                parsed = parse_response(answer, obs["legalActionStrings"], obs)
                failure = None
            except Exception as e:                # the model's client failed: try again
                failure = e
                continue
            if parsed.legal_action is not None:
                move = next(k for k, label in legal.items() if label == parsed.legal_action)
                return {"submission": move, "actionString": parsed.legal_action,
                        "thoughts": answer, "status": "OK"}
            response, previous = answer, parsed.raw_action
        if failure is not None:
            raise failure
        if (config or {}).get("illegalMoveForfeit", False):
            return {"submission": -1, "actionString": previous, "thoughts": response,
                    "status": f"Failed to parse a legal move after {max_retries} attempts; "
                              f"forfeiting."}
        raise ValueError(f"Failed to parse a legal move after {max_retries} attempts. End of "
                         f"last response: {(response or '')[-200:]}")
    return agent


def _entry(game: Game, seat: int, step: int, status: str, action: Any,
           seen: Mapping[str, Any] | None) -> dict[str, Any]:
    """A replay entry: the acting seat's observation as its agent got it; the others' only
    who is to move (a full observation per seat per step would grow the replay quadratically
    with the narration)."""
    return {"action": action, "reward": None, "status": status,
            "observation": dict(seen) if seen is not None else {
                "playerId": seat, "currentPlayer": game.current_player
                if not game.is_over else -1, "isTerminal": game.is_over, "step": step}}


def run_episode(game_name: str, agents: Sequence[Union[KaggleAgent, str]],
                configuration: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One game with ``agents`` by seat (Kaggle agents or bot specs); a replay in Kaggle's
    shape (module docstring). ``configuration``: ``seed`` (default 0), ``lang`` ("en"),
    ``illegalMoveForfeit`` (True), ``options`` (the game's)."""
    from cardcore.simulation import bot_seed
    config = {"seed": 0, "lang": "en", "illegalMoveForfeit": True, "options": {},
              **dict(configuration or {})}
    lang = check_lang(config["lang"])
    game = new_game(game_name, players=len(agents), seed=config["seed"], **config["options"])
    n = game.num_players
    bots = {k: make_bot(a, bot_seed(config["seed"], 0, k)) for k, a in enumerate(agents)
            if isinstance(a, str)}
    defaults = {k: make_bot("random", bot_seed(config["seed"], 1, k)) for k in range(n)}
    statuses = ["ACTIVE"] * n
    default_moves = [0] * n
    steps: list[list[dict[str, Any]]] = []
    loser: int | None = None
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        step = len(steps)
        seen: dict[str, Any] | None = None
        answer: Any = None
        if seat in bots:
            move: Any = bots[seat].choose_id(game)
        else:
            agent = agents[seat]
            assert callable(agent)
            seen = kaggle_observation(game, seat, lang, step)
            try:
                answer = agent(dict(seen), config)
                move = answer.get("submission") if isinstance(answer, Mapping) else answer
                bad = None if type(move) is int and move in game.legal_action_ids() \
                    else "INVALID"
            except Exception as e:               # the agent's own failure: Kaggle's ERROR
                answer, move, bad = {"submission": None, "status": repr(e)[:200]}, None, "ERROR"
            if bad is not None and config["illegalMoveForfeit"]:
                statuses[seat], loser = bad, seat
                steps.append([_entry(game, k, step, statuses[k], answer if k == seat else None,
                                     seen if k == seat else None) for k in range(n)])
                break
            if bad is not None:
                default_moves[seat] += 1
                move = defaults[seat].choose_id(game)
        game.apply(move, player=seat)
        steps.append([_entry(game, k, step, statuses[k],
                             (answer if seen is not None else move) if k == seat else None,
                             seen if k == seat else None) for k in range(n)])
    winners = set(forfeit_winners(game, loser) if loser is not None else game.winners)
    draw = len(winners) == n
    rewards = [0.0 if draw else 1.0 if k in winners else -1.0 for k in range(n)]
    statuses = [s if s != "ACTIVE" else "DONE" for s in statuses]
    for k in range(n):
        steps[-1][k]["reward"], steps[-1][k]["status"] = rewards[k], statuses[k]
    return {"name": game_name, "configuration": config, "steps": steps, "rewards": rewards,
            "statuses": statuses, "defaultMoves": default_moves}
