"""Language-model players: a seat's position as text, its legal moves as a numbered list, an
answer parser, and a harness that rates an agent against bots.

``prompt(game, seat, lang="en")`` is what ``seat`` may know, in English or Russian: the game
and the seat, the scores, the public table (``Game.table_lines``), its own hand, what it saw
happen (the game's narration, ``cardcore.narrate``, of ``game.events(seat)``: its own draws,
others' public moves, round breakdowns) and the legal moves numbered in the order of the hand
(as ``cardcore play`` numbers them). Everything comes from the seat's view and events, so the
text holds nothing the seat may not know.

``parse_answer(game, answer)`` reads an answer of any length (``cardcore.agents.answers``):
its last ``{"move": ...}`` object, its ``Final Answer: X`` line or its last line, holding a
move's number ("3", "3)", "#3"), a label copied from the list (its note in brackets or not) or
the move in the game's notation ("play 7H"); anything else raises ``AnswerRefused`` whose
message (in the prompt's language) says what was wrong and can be sent back.

``play_agent(game_name, agent, opponents="greedy", games=N, seed=0, lang="en")`` plays
``agent`` (a callable: prompt text -> answer text) against bots for N games, the agent taking
each seat in turn, every game dealt from ``game_seed(seed, i)``. A refused answer is sent back
(the refusal, then the prompt again) up to ``retries`` times; after that a uniformly random
legal move is played for the agent and counted as a fallback. The report: the agent's win
share with a 95% Wilson interval, ratings on the Elo scale with 95% intervals (the
tournament's Bradley-Terry fit, ``cardcore.tournament``) and how the answers went.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Callable

from cardcore.bots import Bot, make_bot, parse_bot_specs
from cardcore.agents.answers import AgentError, AnswerRefused, move_label, read_answer
from cardcore.errors import ConfigError, echo
from cardcore.game import Action, Game, is_int
from cardcore.i18n import _, check_lang, use
from cardcore.narrate import breakdown_lines, describe, hand_order, score_direction
from cardcore.registry import new_game

__all__ = ["AGENT", "AnswerRefused", "history_lines", "legal_moves", "moves_text",
           "parse_answer", "play_agent", "prompt", "seat_text"]

AGENT = "agent"                  # the agent's name in the standings
HISTORY_LINES = 60               # narration lines a prompt keeps (the latest)


def _who(seat: int) -> Callable[[int], str]:
    def who(k: int) -> str:
        return _("you") if k == seat else _("seat {seat}").format(seat=k)
    return who


def legal_moves(game: Game) -> list[Action]:
    """The legal moves in the order they are numbered: the hand's order (``cardcore play``'s)."""
    seat = game.current_player
    if seat is None:
        return []
    return hand_order(game.legal_actions(), game.view(seat)["hand"])


def moves_text(game: Game, moves: Sequence[Action]) -> list[str]:
    """``1) play 7H`` lines (the game's note on a move, if it has one, in brackets), in the
    current language (``cardcore.i18n.use``)."""
    return [f"{i}) {move_label(game, action)}" for i, action in enumerate(moves, 1)]


def history_lines(game: Game, seat: int, limit: int = HISTORY_LINES, lang: str = "en"
                  ) -> list[str]:
    """The last ``limit`` lines of what ``seat`` saw happen, narrated in ``lang`` (the game's
    narration of ``game.events(seat)``, round breakdowns included), latest last."""
    who = _who(seat)
    lines: list[str] = []
    for event in game.events(seat):
        if event["kind"] == game.round_end_event:
            lines += breakdown_lines(event, who, game, lang=lang)
            continue
        text = describe(event, seat, who, game, lang=lang)
        if text is not None:
            lines.append(text)
    return lines[-limit:] if limit else []


def seat_text(game: Game, seat: int, lang: str = "en", history: int = HISTORY_LINES) -> str:
    """What ``seat`` may know, as text in ``lang`` (no moves list): the game, the scores, the
    table, the seat's hand and the last ``history`` lines of what it saw happen."""
    lang = check_lang(lang)
    if not is_int(seat) or not 0 <= seat < game.num_players:
        raise ConfigError(f"seat must be 0..{game.num_players - 1}, not {echo(seat)}", "seat")
    if not is_int(history) or history < 0:
        raise ConfigError(f"history must be a non-negative int, not {echo(history)}",
                          "history")
    with use(lang, game):
        return "\n".join(_seat_lines(game, seat, history, lang))


def _seat_lines(game: Game, seat: int, history: int, lang: str) -> list[str]:
    view = game.view(seat)
    who = _who(seat)
    lines = [_("You play {game} ({players} players) as seat {seat}.").format(
        game=game.title, players=game.num_players, seat=seat),
        _("Cards: rank then suit: 7H = seven of hearts, 10D = ten of diamonds, JK = joker; "
          "suits C clubs, D diamonds, H hearts, S spades; ranks A 2-10 J Q K."),
        _("The rules: cardcore rules {game} (--spec: the full specification).").format(
            game=game.name), ""]
    past = history_lines(game, seat, history, lang)
    if past:
        lines += [_("What you saw happen (latest last):")] + [f"  {line}" for line in past] + [""]
    lines.append(_("scores: {direction}").format(
        direction=score_direction(game.score_direction)) + " — " + ", ".join(
        f"{who(k)} {score}" for k, score in enumerate(view["scores"])))
    lines += game.table_lines(seat)
    hand = view["hand"]
    lines.append(_("Your hand: ") + (" ".join(hand) if hand else "—"))
    if game.is_over:
        winners = ", ".join(who(k) for k in game.winners)
        lines.append(_("The match is over; winners: {names}.").format(names=winners))
    elif game.current_player != seat:
        lines.append(_("It is {name}'s turn.").format(name=who(game.current_player or 0)))
    return lines


def prompt(game: Game, seat: int | None = None, lang: str = "en",
           history: int = HISTORY_LINES) -> str:
    """The text an agent is asked at its turn: ``seat_text`` and the legal moves numbered,
    with how to answer. ``seat`` defaults to the seat to move (it must be that seat)."""
    seat = game.current_player if seat is None else seat
    if seat is None or seat != game.current_player:
        raise ConfigError(f"prompt asks the seat to move ({game.current_player}), not "
                          f"{echo(seat)}", "seat")
    text = seat_text(game, seat, lang, history)
    moves = legal_moves(game)
    with use(check_lang(lang), game):
        tail = [_("Your legal moves:")] + moves_text(game, moves) + [
            _("Answer with the number of your move (1-{count}) or the move written out, "
              "nothing else.").format(count=len(moves))]
    return text + "\n\n" + "\n".join(tail)


def parse_answer(game: Game, answer: Any, lang: str = "en") -> Action:
    """The legal move an answer names (for the seat to move): its number in ``prompt``'s list
    or its notation, on its own or on the answer's last non-empty line. AnswerRefused (its
    message in ``lang``, for the agent) otherwise; the game is not changed."""
    moves = legal_moves(game)
    if not moves:
        raise ConfigError("the game is over: there is no move to answer", "answer")
    with use(check_lang(lang), game):
        return _parse(game, answer, moves)


def _parse(game: Game, answer: Any, moves: list[Action]) -> Action:
    return read_answer(game, answer, moves).action


# ------------------------------------------------------------------ the harness
def play_agent(game_name: str, agent: Callable[[str], str], opponents: str | Sequence[str] =
               "greedy", games: int = 10, seed: int = 0, lang: str = "en",
               players: int | None = None, retries: int = 2, history: int = HISTORY_LINES,
               on_turn: Callable[[dict[str, Any]], None] | None = None,
               **options: Any) -> dict[str, Any]:
    """Play ``agent`` (prompt text -> answer text) against ``opponents`` (bot specs, given to
    the other seats in order and repeated) for ``games`` games; the agent sits at seat
    ``i % players`` in game ``i``. ``retries``: refused answers sent back per decision before
    a random legal move is played for the agent (counted as a fallback). ``on_turn`` gets
    each decision's record (prompt, answers, refusals, move). Returns a JSON-serializable
    report: the agent's ``win_rate`` with ``win_rate_ci`` (95% Wilson), ``rating`` with
    ``rating_ci`` (Bradley-Terry, Elo scale, 95%), ``standings`` of every entrant as in
    ``tournament``, and ``answers`` (decisions asked, valid first time, refused answers,
    ``errors``: attempts where the agent raised ``AgentError`` (a command that failed or
    timed out, ``cardcore.agents.arena.command_agent``), fallbacks)."""
    from cardcore.simulation import bot_seed, check_games, game_seed
    from cardcore.tournament import _Tally

    lang = check_lang(lang)
    if not callable(agent):
        raise ConfigError(f"agent must be a callable (prompt text -> answer), not "
                          f"{echo(agent)}", "agent")
    check_games(games, 1)
    if not is_int(retries) or not 0 <= retries <= 10:
        raise ConfigError(f"retries must be an int 0..10, not {echo(retries)}", "retries")
    if not is_int(seed) or seed < 0:
        raise ConfigError(f"seed must be a non-negative int, not {echo(seed)}", "seed")
    template = new_game(game_name, players=players, seed=0, **options)
    n = template.num_players
    specs = [str(s) for s in parse_bot_specs(opponents)]
    if AGENT in specs:
        raise ConfigError(f"{AGENT!r} names the agent; opponents are bots", "opponents")
    for spec in dict.fromkeys(specs):
        make_bot(spec, 0).check_game(template.name)
    tally = _Tally([AGENT] + list(dict.fromkeys(specs)))
    answers = {"decisions": 0, "forced": 0, "valid_first": 0, "refused": 0, "errors": 0,
               "fallbacks": 0}
    started = time.perf_counter()
    for index in range(games):
        game = new_game(template.name, players=n, seed=game_seed(seed, index), **options)
        agent_seat = index % n
        others = [k for k in range(n) if k != agent_seat]
        seat_specs = {k: specs[j % len(specs)] for j, k in enumerate(others)}
        bots: dict[int, Bot] = {k: make_bot(spec, bot_seed(seed, index, k))
                                for k, spec in seat_specs.items()}
        fallback = make_bot("random", bot_seed(seed, index, agent_seat))
        while not game.is_over:
            seat = game.current_player
            assert seat is not None                       # the game is not over
            if seat != agent_seat:
                game.apply(bots[seat].choose_id(game))
                continue
            if len(game.legal_action_ids()) == 1:         # a forced move asks nothing
                answers["forced"] += 1
                game.apply(game.legal_action_ids()[0])
                continue
            game.apply(_ask(game, agent, lang, retries, history, answers, fallback, on_turn),
                       player=seat)
        tally.add(_game_part(game, [AGENT if k == agent_seat else seat_specs[k]
                                    for k in range(n)]))
    result = tally.result()
    mine = result["standings"][0]
    result.update({
        "game": template.name, "players": n, "options": dict(template.options), "seed": seed,
        "lang": lang, "games": games, "opponents": specs, "answers": answers,
        "win_rate": mine["win_rate"], "win_rate_ci": mine["win_rate_ci"],
        "rating": mine["rating"], "rating_ci": mine["rating_ci"],
        "seconds": time.perf_counter() - started,
    })
    return result


def _ask(game: Game, agent: Callable[[str], str], lang: str, retries: int, history: int,
         answers: dict[str, int], fallback: Bot, on_turn: Callable[[dict[str, Any]], None] | None
         ) -> int:
    """One decision of the agent: the move's id (a fallback's after too many refusals)."""
    answers["decisions"] += 1
    text = prompt(game, lang=lang, history=history)
    record: dict[str, Any] = {"prompt": text, "answers": [], "refusals": [], "move": None,
                              "fallback": False}
    asked = text
    for attempt in range(retries + 1):
        try:
            answer = agent(asked)
        except AgentError as e:          # a command that failed or timed out: no answer
            answers["errors"] += 1
            with use(lang, game):
                reason = _("No answer came: {error}").format(error=str(e))
            record["answers"].append(None)
            record["refusals"].append(reason)
            asked = reason + "\n\n" + text
            continue
        record["answers"].append(answer if isinstance(answer, str) else repr(answer)[:200])
        try:
            action = parse_answer(game, answer, lang=lang)
        except AnswerRefused as e:
            answers["refused"] += 1
            record["refusals"].append(str(e))
            asked = str(e) + "\n\n" + text
            continue
        if attempt == 0:
            answers["valid_first"] += 1
        record["move"] = str(action)
        if on_turn is not None:
            on_turn(record)
        return action.id
    answers["fallbacks"] += 1
    move = fallback.choose_id(game)
    record["move"], record["fallback"] = str(game.action_from_id(move)), True
    if on_turn is not None:
        on_turn(record)
    return move


def _game_part(game: Game, seat_specs: list[str]) -> dict[str, Any]:
    """One finished game as a tournament chunk's sums (``cardcore.tournament``)."""
    winners = set(game.winners)
    n = game.num_players
    pairs = []
    for k in range(n):
        for m in range(k + 1, n):
            if seat_specs[k] == seat_specs[m]:
                continue
            k_won, m_won = k in winners, m in winners
            pairs.append([k, m, int(k_won and not m_won), int(m_won and not k_won),
                          int(k_won == m_won)])
    return {"specs": seat_specs, "games": 1, "wins": [int(k in winners) for k in range(n)],
            "sole": [int(winners == {k}) for k in range(n)],
            "scores": [{score: 1} for score in game.scores], "pairs": pairs}
