"""The arena: language-model agents against the bot ladder, with the arenas' conventions.

An agent is a Python callable (prompt text -> answer text) or a shell command (the prompt on
its stdin, the answer on its stdout), wrapped as a ``TextAgent``. At each of its decisions
(a forced move asks nothing) the agent gets ``arena_prompt`` (``cardcore.agents.observation``)
and its answer is read by ``cardcore.agents.answers``. A refused answer is sent back with
the reason (a *rethink*) up to ``ArenaSettings.rethinks`` times; an agent that raises, fails,
answers something that is not text or takes longer than ``ArenaSettings.timeout`` is an
*agent error*, counted and handled the same way. When the attempts run out,
``ArenaSettings.on_failure`` decides: ``"forfeit"`` (the agent's side loses the game at once;
every other seat wins, ``cardcore.records.forfeit_winners``) or ``"default"`` (a random legal
move, seeded by the deal, is played for it). Every seat's counts (``SeatCounts``) are in the
result and in the transcript: nothing is hidden.

``play_episode`` plays one game; ``arena`` a league: the agents and the bots (default the
game's ladder, ``level:1`` .. ``level:5``) in every seating that holds an agent
(``cardcore.tournament.seatings``), each seating playing the same deals, rated by the
tournament's Bradley-Terry fit. A transcript is a JSON Lines file per episode: an ``episode``
line, a line per ``attempt`` (prompt, answer, outcome, reason, counts so far), per ``move``
and per ``failure``, and a ``result`` line.
"""
from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import IO, Any, Callable, Union

from cardcore.agents.answers import AgentError, AnswerRefused, read_answer
from cardcore.agents.observation import STYLES, arena_prompt
from cardcore.agents.text import HISTORY_LINES, legal_moves
from cardcore.bots import Bot, make_bot, parse_bot_specs
from cardcore.errors import ConfigError, echo
from cardcore.game import Game, is_int
from cardcore.i18n import _, check_lang, use
from cardcore.records import forfeit_winners
from cardcore.registry import new_game

__all__ = ["LADDER", "ON_FAILURE", "AgentError", "ArenaSettings", "Episode", "SeatCounts",
           "TextAgent", "arena", "as_agent", "command_agent", "play_episode"]

ON_FAILURE = ("forfeit", "default")       # what follows an agent's last refused attempt
LADDER = "level:1,level:2,level:3,level:4,level:5"    # the game's difficulty levels
MAX_ECHO = 200                            # characters of an error kept in a transcript

AgentLike = Union[Callable[[str], str], str, "TextAgent"]


@dataclass(frozen=True)
class ArenaSettings:
    """How agents are asked. ``rethinks``: refused answers sent back per decision (0..10);
    ``on_failure``: ``"forfeit"`` or ``"default"`` when they run out; ``timeout``: seconds an
    answer may take; ``lang``: ``"en"`` or ``"ru"``; ``style``: ``"text"`` or ``"json"``
    prompts; ``history``: narration lines a prompt keeps."""

    rethinks: int = 2
    on_failure: str = "forfeit"
    timeout: float = 120.0
    lang: str = "en"
    style: str = "text"
    history: int = HISTORY_LINES

    def __post_init__(self) -> None:
        if not is_int(self.rethinks) or not 0 <= self.rethinks <= 10:
            raise ConfigError(f"rethinks must be an int 0..10, not {echo(self.rethinks)}",
                              "rethinks")
        if self.on_failure not in ON_FAILURE:
            raise ConfigError(f"on_failure must be one of {', '.join(ON_FAILURE)}, not "
                              f"{echo(self.on_failure)}", "on_failure")
        if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)) or \
                not 0 < self.timeout < float("inf"):
            raise ConfigError(f"timeout must be a positive number of seconds, not "
                              f"{echo(self.timeout)}", "timeout")
        check_lang(self.lang)
        if self.style not in STYLES:
            raise ConfigError(f"style must be one of {', '.join(STYLES)}, not "
                              f"{echo(self.style)}", "style")
        if not is_int(self.history) or self.history < 0:
            raise ConfigError(f"history must be a non-negative int, not {echo(self.history)}",
                              "history")


@dataclass
class SeatCounts:
    """How a seat's agent answered. ``decisions``: asked (forced moves are not); ``forced``:
    played without asking; ``valid_first``: a legal move at the first answer; ``illegal``:
    refused answers (``unparsable`` of them named no move); ``rethinks``: refusals sent back;
    ``errors``: attempts with no answer (crash, failure, timeout, not text; ``timeouts`` of
    them timed out); ``forfeits`` and ``default_moves``: decisions the attempts ran out on;
    ``forms``: how the accepted answers named their move (``cardcore.agents.answers.FORMS``)."""

    decisions: int = 0
    forced: int = 0
    valid_first: int = 0
    illegal: int = 0
    unparsable: int = 0
    rethinks: int = 0
    errors: int = 0
    timeouts: int = 0
    forfeits: int = 0
    default_moves: int = 0
    forms: dict[str, int] = field(default_factory=dict)

    def add(self, other: SeatCounts) -> None:
        for f in fields(self):
            if f.name == "forms":
                for form, n in other.forms.items():
                    self.forms[form] = self.forms.get(form, 0) + n
            else:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class TextAgent:
    """An agent: ``ask(prompt) -> answer`` under a ``name``; ``__call__`` turns every way it
    can fail into ``AgentError``. ``timeout`` (seconds) bounds a command's run; a callable
    runs to its end and an answer later than ``timeout`` is discarded as a timeout."""

    name: str
    ask: Callable[[str], str]
    timeout: float | None = None
    command: str | None = None

    def __call__(self, prompt: str, timeout: float | None = None) -> str:
        limit = timeout if timeout is not None else self.timeout
        started = time.monotonic()
        try:
            answer = self.ask(prompt)
        except AgentError:
            raise
        except Exception as e:               # any failure of the agent's own code is its error
            raise AgentError("crash", f"{type(e).__name__}: {e}"[:MAX_ECHO]) from e
        if limit is not None and time.monotonic() - started > limit:
            raise AgentError("timeout", f"no answer within {limit:g} s")
        if not isinstance(answer, str):
            raise AgentError("type", f"the answer is not text: {echo(answer)}")
        return answer


def command_agent(command: str, timeout: float = 120.0, name: str | None = None) -> TextAgent:
    """An agent that runs ``command`` in a shell per question: the prompt on its stdin, its
    stdout (UTF-8) the answer. A non-zero exit is a crash (its stderr's end is kept), a run
    longer than ``timeout`` is killed and is a timeout."""
    if not isinstance(command, str) or not command.strip():
        raise ConfigError(f"an agent command must be a non-empty string, not {echo(command)}",
                          "agent")

    def ask(prompt: str) -> str:
        try:
            done = subprocess.run(command, shell=True, input=prompt.encode("utf-8"),
                                  capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AgentError("timeout", f"no answer within {timeout:g} s") from None
        if done.returncode != 0:
            tail = done.stderr.decode("utf-8", errors="replace").strip()[-MAX_ECHO:]
            raise AgentError("crash", f"exit status {done.returncode}" +
                             (f": {tail}" if tail else ""))
        return done.stdout.decode("utf-8", errors="replace")
    return TextAgent(name or command, ask, None, command)


def as_agent(agent: AgentLike, name: str | None = None, timeout: float = 120.0) -> TextAgent:
    """A ``TextAgent`` from a callable (prompt -> answer), a shell command or a TextAgent."""
    if isinstance(agent, TextAgent):
        return agent
    if isinstance(agent, str):
        return command_agent(agent, timeout, name)
    if callable(agent):
        return TextAgent(name or str(getattr(agent, "__name__", "agent")), agent, timeout)
    raise ConfigError(f"an agent is a callable (prompt -> answer) or a shell command, not "
                      f"{echo(agent)}", "agent")


# ------------------------------------------------------------------ one episode
@dataclass
class Episode:
    """One game's outcome: ``winners`` (after a forfeit, every seat not on the forfeiting
    seat's side), ``scores`` (when it ended), ``forfeit`` (the seat that forfeited, or None),
    ``counts`` per agent seat, ``moves`` played and the ``transcript`` file (or None)."""

    winners: list[int]
    scores: list[int]
    forfeit: int | None
    counts: dict[int, SeatCounts]
    moves: int
    transcript: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"winners": self.winners, "scores": self.scores, "forfeit": self.forfeit,
                "counts": {str(k): c.to_dict() for k, c in self.counts.items()},
                "moves": self.moves, "transcript": self.transcript}


class _Log:
    """The transcript: JSON Lines to a file (or nowhere), and to ``on_line`` if given."""

    def __init__(self, out: IO[str] | None, on_line: Callable[[dict[str, Any]], None] | None
                 ) -> None:
        self.out, self.on_line = out, on_line

    def __call__(self, line: dict[str, Any]) -> None:
        if self.out is not None:
            self.out.write(json.dumps(line, ensure_ascii=False) + "\n")
        if self.on_line is not None:
            self.on_line(line)


def _rethink(reason: str, count: int) -> str:
    return reason + "\n" + _("Think again and choose one of the legal moves (1-{count}).").format(
        count=count)


def _decide(game: Game, agent: TextAgent, settings: ArenaSettings, counts: SeatCounts,
            log: _Log) -> int | None:
    """The agent's move at its decision, or None when its attempts ran out."""
    seat = game.current_player
    moves = legal_moves(game)
    counts.decisions += 1
    question = arena_prompt(game, settings.lang, settings.style, settings.history)
    asked = question
    for attempt in range(settings.rethinks + 1):
        line: dict[str, Any] = {"type": "attempt", "move_number": len(game.action_log()),
                                "seat": seat, "agent": agent.name, "attempt": attempt,
                                "prompt": asked}
        try:
            answer = agent(asked, settings.timeout)
            reading = read_answer(game, answer, moves)
        except AgentError as e:
            counts.errors += 1
            counts.timeouts += e.kind == "timeout"
            with use(settings.lang, game):
                reason = _("No answer came: {error}").format(error=str(e))
            line.update(answer=None, outcome="error", error=e.kind, reason=reason)
        except AnswerRefused as e:
            counts.illegal += 1
            counts.unparsable += e.outcome == "unparsable"
            reason = str(e)
            line.update(answer=answer, outcome=e.outcome, reason=reason)
        else:
            counts.valid_first += attempt == 0
            counts.forms[reading.form] = counts.forms.get(reading.form, 0) + 1
            line.update(answer=answer, outcome="ok", form=reading.form,
                        move=str(reading.action), counts=counts.to_dict())
            log(line)
            return reading.action.id
        if attempt < settings.rethinks:
            counts.rethinks += 1
            with use(settings.lang, game):
                asked = _rethink(reason, len(moves)) + "\n\n" + question
        line["counts"] = counts.to_dict()
        log(line)
    return None


def play_episode(game: Game, agents: Mapping[int, AgentLike], bots: Mapping[int, Bot | str],
                 settings: ArenaSettings | None = None, seed: int = 0,
                 transcript: str | Path | None = None,
                 on_line: Callable[[dict[str, Any]], None] | None = None,
                 header: Mapping[str, Any] | None = None) -> Episode:
    """Play ``game`` to its end (or an agent's forfeit): ``agents`` and ``bots`` by seat
    (every seat one or the other; a bot as a ``Bot`` or a spec, made with ``seed``). The
    default moves are a random bot's, seeded by ``seed`` and the seat. ``transcript``: a
    JSON Lines file to write; ``on_line`` sees each line as well."""
    settings = settings or ArenaSettings()
    from cardcore.simulation import bot_seed
    n = game.num_players
    seated = {k: as_agent(a, timeout=settings.timeout) for k, a in agents.items()}
    players = {k: make_bot(b, bot_seed(seed, 0, k)) if isinstance(b, str) else b
               for k, b in bots.items()}
    names = {**{k: b if isinstance(b, str) else type(b).__name__ for k, b in bots.items()},
             **{k: a.name for k, a in seated.items()}}
    if sorted([*seated, *players]) != list(range(n)):
        raise ConfigError(f"every seat 0..{n - 1} needs one agent or bot, not agents "
                          f"{echo(sorted(seated))} and bots {echo(sorted(players))}", "agents")
    counts = {k: SeatCounts() for k in seated}
    defaults = {k: make_bot("random", bot_seed(seed, 1, k)) for k in seated}
    forfeit: int | None = None
    out = open(transcript, "w", encoding="utf-8") if transcript is not None else None
    try:
        log = _Log(out, on_line)
        log({"type": "episode", "game": game.name, "players": n,
             "options": json.loads(json.dumps(dict(game.options))), "seed": seed,
             "seats": [names[k] for k in range(n)],
             "agents": sorted(seated), "settings": asdict(settings), **dict(header or {})})
        while not game.is_over:
            seat = game.current_player
            assert seat is not None                       # the game is not over
            if seat in players:
                move = players[seat].choose_id(game)
            elif len(game.legal_action_ids()) == 1:       # a forced move asks nothing
                counts[seat].forced += 1
                move = game.legal_action_ids()[0]
            else:
                chosen = _decide(game, seated[seat], settings, counts[seat], log)
                if chosen is None and settings.on_failure == "forfeit":
                    counts[seat].forfeits += 1
                    forfeit = seat
                    log({"type": "failure", "seat": seat, "handling": "forfeit",
                         "counts": counts[seat].to_dict()})
                    break
                if chosen is None:
                    counts[seat].default_moves += 1
                    chosen = defaults[seat].choose_id(game)
                    log({"type": "failure", "seat": seat, "handling": "default",
                         "move": str(game.action_from_id(chosen)),
                         "counts": counts[seat].to_dict()})
                move = chosen
            log({"type": "move", "seat": seat, "move": str(game.action_from_id(move))})
            game.apply(move, player=seat)
        winners = forfeit_winners(game, forfeit) if forfeit is not None else list(game.winners)
        episode = Episode(winners, list(game.scores), forfeit, counts, len(game.action_log()),
                          str(transcript) if transcript is not None else None)
        log({"type": "result", **episode.to_dict()})
    finally:
        if out is not None:
            out.close()
    return episode


# ------------------------------------------------------------------ the league
def _part(specs: list[str], winners: list[int], scores: list[int]) -> dict[str, Any]:
    """One game as a tournament chunk's sums (``cardcore.tournament``)."""
    won = set(winners)
    n = len(specs)
    pairs = [[k, m, int(k in won and m not in won), int(m in won and k not in won),
              int((k in won) == (m in won))]
             for k in range(n) for m in range(k + 1, n) if specs[k] != specs[m]]
    return {"specs": specs, "games": 1, "wins": [int(k in won) for k in range(n)],
            "sole": [int(won == {k}) for k in range(n)],
            "scores": [{score: 1} for score in scores], "pairs": pairs}


def _agents(agents: Mapping[str, AgentLike] | Sequence[AgentLike], timeout: float
            ) -> dict[str, TextAgent]:
    items = list(agents.items()) if isinstance(agents, Mapping) else [
        (None, a) for a in agents]
    named: dict[str, TextAgent] = {}
    for name, agent in items:
        made = as_agent(agent, name, timeout)
        if made.name in named:
            raise ConfigError(f"two agents are named {echo(made.name)}; name them apart",
                              "agents")
        named[made.name] = made
    if not named:
        raise ConfigError("an arena needs at least one agent", "agents")
    return named


def arena(game_name: str, agents: Mapping[str, AgentLike] | Sequence[AgentLike],
          bots: str | Sequence[str] = LADDER, games: int = 10, seed: int = 0,
          players: int | None = None, settings: ArenaSettings | None = None,
          out: str | Path | None = None,
          on_line: Callable[[dict[str, Any]], None] | None = None,
          **options: Any) -> dict[str, Any]:
    """A league of text ``agents`` (name -> agent, or a list) against ``bots`` (bot specs,
    default the ladder): every seating of the entrants holding an agent, in turn, each
    seating playing the deals ``game_seed(seed, j)`` in order, ``games`` games in all. With
    ``out``, a transcript per game (``<game>-<i>.jsonl``) and ``ratings.json`` are written
    there. Returns the tournament's standings and ratings (Elo scale, 95% intervals) of
    every entrant, ``agents``: each agent's summed ``SeatCounts``, and ``episodes``: per
    game its seats, winners, forfeit and per-seat counts."""
    from cardcore.simulation import bot_seed, check_games, game_seed
    from cardcore.tournament import _Tally, seatings

    settings = settings or ArenaSettings()
    check_games(games, 1)
    if not is_int(seed) or seed < 0:
        raise ConfigError(f"seed must be a non-negative int, not {echo(seed)}", "seed")
    named = _agents(agents, settings.timeout)
    template = new_game(game_name, players=players, seed=0, **options)
    n = template.num_players
    specs = [str(s) for s in parse_bot_specs(bots)]
    clash = sorted(set(specs) & set(named))
    if clash or len(set(specs)) != len(specs):
        raise ConfigError(f"entrant {echo((clash or specs)[0])} is given twice; give each "
                          f"bot once and name agents apart from bots", "bots")
    for spec in specs:
        make_bot(spec, 0).check_game(template.name)
    entrants = list(named) + specs
    plan = [s for s in seatings(len(entrants), n) if any(e < len(named) for e in s)]
    folder = Path(out) if out is not None else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    tally = _Tally(entrants)
    totals = {name: SeatCounts() for name in named}
    episodes = []
    started = time.perf_counter()
    for i in range(games):
        seating = [entrants[e] for e in plan[i % len(plan)]]
        deal = i // len(plan)
        game = new_game(template.name, players=n, seed=game_seed(seed, deal), **options)
        seat_agents = {k: named[e] for k, e in enumerate(seating) if e in named}
        seat_bots = {k: make_bot(e, bot_seed(seed, deal, k)) for k, e in enumerate(seating)
                     if e not in named}
        path = folder / f"{template.name}-{i:04d}.jsonl" if folder is not None else None
        episode = play_episode(game, seat_agents, seat_bots, settings,
                               seed=game_seed(seed, deal), transcript=path, on_line=on_line,
                               header={"index": i, "deal": deal, "entrants": seating})
        tally.add(_part(seating, episode.winners, episode.scores))
        for k, c in episode.counts.items():
            totals[seating[k]].add(c)
        episodes.append({"index": i, "deal": deal, "seats": seating, **episode.to_dict()})
    result = tally.result()
    result.update({
        "game": template.name, "players": n, "options": dict(template.options), "seed": seed,
        "games": games, "entrants": entrants,
        "seatings": [[entrants[e] for e in seating] for seating in plan],
        "games_per_seating": -(-games // len(plan)), "agents": {k: c.to_dict() for k, c in
                                                        totals.items()},
        "settings": asdict(settings), "episodes": episodes,
        "seconds": time.perf_counter() - started,
    })
    if folder is not None:
        (folder / "ratings.json").write_text(json.dumps(result, indent=1, ensure_ascii=False),
                                             encoding="utf-8")
    return result
