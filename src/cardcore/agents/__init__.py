"""Players that are not bots of the engine: language-model agents.

``cardcore.agents.text``: the prompt, the answer parser and ``play_agent``;
``cardcore.agents.arena``: the arena harness (``arena``, ``play_episode``: rethinks, forfeits
or default moves, per-seat counts, transcripts); ``cardcore.agents.observation``: the per-seat
JSON observation and the arena prompt; ``cardcore.agents.answers``: reading an answer;
``cardcore.agents.textarena`` and ``cardcore.agents.kaggle``: TextArena's and Kaggle Game
Arena's shapes.
"""
from cardcore.agents.arena import ArenaSettings, SeatCounts, TextAgent, arena, play_episode
from cardcore.agents.observation import arena_prompt, observation
from cardcore.agents.text import AnswerRefused, parse_answer, play_agent, prompt, seat_text

__all__ = ["AnswerRefused", "ArenaSettings", "SeatCounts", "TextAgent", "arena", "arena_prompt",
           "observation", "parse_answer", "play_agent", "play_episode", "prompt", "seat_text"]
