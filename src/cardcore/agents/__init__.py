"""Players that are not bots of the engine: language-model agents (``cardcore.agents.text``)."""
from cardcore.agents.text import AnswerRefused, parse_answer, play_agent, prompt, seat_text

__all__ = ["AnswerRefused", "parse_answer", "play_agent", "prompt", "seat_text"]
