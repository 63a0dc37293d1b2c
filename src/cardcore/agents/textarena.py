"""A cardcore game in TextArena's shape (``textarena.Env``), without depending on TextArena.

    env = TextArenaEnv(game_name, lang="en")
    env.reset(num_players=2, seed=0)
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, info = env.step(agent(observation))        # TextArena's agents take the list
    rewards, game_info = env.close()

``get_observation()`` returns ``(player_id, messages)``: TextArena's list of ``(from_id,
text, kind)`` messages, here state-complete like its ``-mdp`` variants: a refusal of the
previous answer (from ``GAME_ID``, kind ``"GAME_ADMIN"``) if there was one, then the arena
prompt (``cardcore.agents.observation.arena_prompt``, kind ``"PROMPT"``). ``render`` joins a
message list into one text for agents that take a string. ``step(action)`` reads the answer
with ``cardcore.agents.answers`` (any length; the last ``{"move": ...}``, ``Final Answer: X``,
a number, a label or notation). As in TextArena's ``set_invalid_move``, ``error_allowance``
refused answers in a row get the reason and another try; the next one ends the game, the
offender's side losing (reward -1) and every other seat winning (+1). At a normal end the
winners get +1 and the others -1 (0 to everybody when all win: a draw). ``close()`` returns
``(rewards, game_info)`` with ``game_info[pid]``: ``invalid_move``, ``reason``,
``turn_count`` and the seat's ``SeatCounts``.
"""
from __future__ import annotations

from typing import Any

from cardcore.agents.answers import AnswerRefused, read_answer
from cardcore.agents.arena import SeatCounts
from cardcore.agents.observation import arena_prompt
from cardcore.agents.text import legal_moves
from cardcore.errors import ConfigError, echo
from cardcore.game import Game, is_int
from cardcore.i18n import check_lang, use
from cardcore.records import forfeit_winners
from cardcore.registry import new_game

__all__ = ["GAME_ID", "TextArenaEnv", "render"]

GAME_ID = -1                            # TextArena's sender id of the game's own messages
Message = tuple[int, str, str]          # (from_id, text, kind)


def render(messages: list[Message]) -> str:
    """A message list as one text (what TextArena's ``LLMObservationWrapper`` gives)."""
    return "\n\n".join(text for _, text, _ in messages)


class TextArenaEnv:
    """``reset`` / ``get_observation`` / ``step`` / ``close`` over a cardcore game (module
    docstring). Every seat is played through ``step``; forced moves are asked too."""

    def __init__(self, game_name: str, lang: str = "en", style: str = "text",
                 error_allowance: int = 1, **options: Any) -> None:
        self.lang = check_lang(lang)
        if not is_int(error_allowance) or not 0 <= error_allowance <= 10:
            raise ConfigError(f"error_allowance must be an int 0..10, not "
                              f"{echo(error_allowance)}", "error_allowance")
        self.game_name, self.style, self.error_allowance = game_name, style, error_allowance
        self.options = options
        new_game(game_name, seed=0, **options)            # the options are checked now
        self.game: Game | None = None

    def reset(self, num_players: int | None = None, seed: int | None = None) -> None:
        """A new game of ``num_players`` (the game's default if None) dealt from ``seed``."""
        self.game = new_game(self.game_name, players=num_players,
                             seed=0 if seed is None else seed, **self.options)
        n = self.game.num_players
        self.counts = [SeatCounts() for _ in range(n)]
        self.turns = [0] * n
        self.invalid: int | None = None               # the seat eliminated by invalid moves
        self.reason = ""
        self._refusal: str | None = None
        self._strikes = 0

    def _live(self) -> Game:
        if self.game is None:
            raise ConfigError("call reset() first", "reset")
        return self.game

    @property
    def done(self) -> bool:
        return self._live().is_over or self.invalid is not None

    def get_observation(self) -> tuple[int, list[Message]]:
        """``(player_id, messages)`` for the seat to move (module docstring)."""
        game = self._live()
        if self.done:
            raise ConfigError("the game is over: close() it", "step")
        seat = game.current_player
        assert seat is not None
        messages: list[Message] = []
        if self._refusal is not None:
            messages.append((GAME_ID, self._refusal, "GAME_ADMIN"))
        messages.append((GAME_ID, arena_prompt(game, self.lang, self.style), "PROMPT"))
        return seat, messages

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """Read ``action`` for the seat to move and play it; ``(done, info)``."""
        game = self._live()
        if self.done:
            raise ConfigError("the game is over: close() it", "step")
        seat = game.current_player
        assert seat is not None
        counts = self.counts[seat]
        if self._strikes == 0:
            counts.decisions += 1
        try:
            with use(self.lang, game):
                reading = read_answer(game, action, legal_moves(game))
        except AnswerRefused as e:
            counts.illegal += 1
            counts.unparsable += e.outcome == "unparsable"
            self._strikes += 1
            if self._strikes > self.error_allowance:
                counts.forfeits += 1
                self.invalid, self.reason = seat, str(e)
                return True, {"reason": str(e), "invalid_move": True}
            counts.rethinks += 1
            self._refusal = str(e)
            return False, {"reason": str(e), "invalid_move": True}
        counts.valid_first += self._strikes == 0
        counts.forms[reading.form] = counts.forms.get(reading.form, 0) + 1
        self._strikes, self._refusal = 0, None
        game.apply(reading.action.id, player=seat)
        self.turns[seat] += 1
        return self.done, {"move": str(reading.action)}

    def close(self) -> tuple[dict[int, float], dict[int, dict[str, Any]]]:
        """``(rewards, game_info)`` of the finished game (module docstring)."""
        game = self._live()
        if not self.done:
            raise ConfigError("the game is not over yet", "close")
        n = game.num_players
        winners = set(forfeit_winners(game, self.invalid) if self.invalid is not None
                      else game.winners)
        draw = len(winners) == n
        rewards = {k: 0.0 if draw else 1.0 if k in winners else -1.0 for k in range(n)}
        info = {k: {"invalid_move": k == self.invalid,
                    "reason": self.reason if k == self.invalid else "",
                    "turn_count": self.turns[k], "counts": self.counts[k].to_dict()}
                for k in range(n)}
        return rewards, info
