"""A cardcore game in Kaggle Game Arena's shape, without depending on kaggle-environments.

Kaggle's agents are functions ``agent(obs, config) -> action``: ``obs`` holds the seat's
``observationString`` (here the JSON of ``cardcore.agents.observation.observation``),
``legalActions`` (the game's action ids), ``legalActionStrings`` (their labels, the list the
prompt numbers 1..N), ``currentPlayer``, ``playerId``, ``isTerminal`` and ``step``; the
action is one of ``legalActions``. (Kaggle's ``serializedGameAndState`` is left out: cardcore's
save holds every hidden card.) The harness's pieces are here under its names:
``get_legal_moves(obs)`` (``{id: label}``), ``make_prompt(obs, previous_response,
previous_reason)`` and ``parse_response(text, obs)`` (a ``ParseResult``: the legal action or
None, and what the answer held), and ``text_agent(ask, max_retries=2)`` turns a text agent
(prompt -> answer) into a Kaggle agent that sends a rethink with the reason after a refused
answer, ``max_retries`` attempts in all, then returns None.

``run_episode(game_name, agents, configuration)`` plays one game with Kaggle agents (or bot
specs) in the seats and returns a replay in Kaggle's shape: ``configuration``, ``steps`` (per
step, per seat: ``action``, ``reward``, ``observation``, ``status``; the acting agent's
observation in full, the other seats' only who is to move), ``rewards`` and ``statuses``. An agent that raises, returns None or an action that is not legal is handled
as ``configuration["illegalMoveForfeit"]`` says (default true, as Kaggle's): it forfeits
(status ``"INVALID"`` or ``"ERROR"``, its side loses) or a random legal move, seeded by the
deal, is played for it (status stays ``"ACTIVE"``; ``defaultMoves`` counts them).
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
    """``legal_action``: the legal action id the answer named, or None; ``raw_action``: the
    piece of the answer that named it (or None); ``reason``: why it was refused ("" if
    not)."""

    legal_action: int | None
    raw_action: str | None
    reason: str = ""


def make_prompt(obs: Mapping[str, Any], previous_response: str | None = None,
                previous_reason: str | None = None) -> str:
    """The question: the observation's JSON and how to answer, after the refusal of the
    previous response (a rethink) if there was one."""
    lang = check_lang(obs.get("lang", "en"))
    with use(lang):
        head = _("Your observation (JSON; legal_moves numbers your moves):")
        text = head + "\n" + str(obs["observationString"]) + "\n\n" + answer_instructions(
            len(obs["legalActions"]))
        if previous_reason:
            text = previous_reason + "\n" + _(
                "Think again and choose one of the legal moves (1-{count}).").format(
                count=len(obs["legalActions"])) + "\n\n" + text
    return text


def parse_response(text: Any, obs: Mapping[str, Any]) -> ParseResult:
    """The legal action ``text`` names among ``obs``'s (``cardcore.agents.answers``: the
    last ``{"move": ...}``, ``Final Answer: X``, a number or a label from the list; notation
    that is not a label is not read here, the agent has no engine)."""
    lang = check_lang(obs.get("lang", "en"))
    ids, labels = list(obs["legalActions"]), list(obs["legalActionStrings"])
    with use(lang):
        try:
            choice = read_choice(text, labels)
        except AnswerRefused as e:
            return ParseResult(None, None, str(e))
        if choice.index is None:
            return ParseResult(None, choice.piece, _("Not a legal move: {answer}").format(
                answer=echo(choice.text)))
    return ParseResult(ids[choice.index], choice.piece)


def text_agent(ask: Callable[[str], str], max_retries: int = 2) -> KaggleAgent:
    """A Kaggle agent from a text agent: ``max_retries`` attempts in all (Kaggle's
    convention), the later ones with the refusal's reason; None when they run out."""
    if not isinstance(max_retries, int) or not 1 <= max_retries <= 10:
        raise ConfigError(f"max_retries must be an int 1..10, not {echo(max_retries)}",
                          "max_retries")

    def agent(obs: Mapping[str, Any], config: Mapping[str, Any]) -> int | None:
        response: str | None = None
        reason: str | None = None
        for _attempt in range(max_retries):
            response = ask(make_prompt(obs, response, reason))
            parsed = parse_response(response, obs)
            if parsed.legal_action is not None:
                return parsed.legal_action
            reason = parsed.reason
        return None
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
        if seat in bots:
            move: Any = bots[seat].choose_id(game)
        else:
            agent = agents[seat]
            assert callable(agent)
            seen = kaggle_observation(game, seat, lang, step)
            try:
                move = agent(dict(seen), config)
                bad = "INVALID" if move not in game.legal_action_ids() else None
            except Exception:                    # the agent's own failure: Kaggle's ERROR
                move, bad = None, "ERROR"
            if bad is not None and config["illegalMoveForfeit"]:
                statuses[seat], loser = bad, seat
                steps.append([_entry(game, k, step, statuses[k], move if k == seat else None,
                                     seen if k == seat else None) for k in range(n)])
                break
            if bad is not None:
                default_moves[seat] += 1
                move = defaults[seat].choose_id(game)
        game.apply(move, player=seat)
        steps.append([_entry(game, k, step, statuses[k], move if k == seat else None,
                             seen if k == seat else None) for k in range(n)])
    winners = set(forfeit_winners(game, loser) if loser is not None else game.winners)
    draw = len(winners) == n
    rewards = [0.0 if draw else 1.0 if k in winners else -1.0 for k in range(n)]
    statuses = [s if s != "ACTIVE" else "DONE" for s in statuses]
    for k in range(n):
        steps[-1][k]["reward"], steps[-1][k]["status"] = rewards[k], statuses[k]
    return {"name": game_name, "configuration": config, "steps": steps, "rewards": rewards,
            "statuses": statuses, "defaultMoves": default_moves}
