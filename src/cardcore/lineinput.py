"""Reading a player's lines in ``cardcore play``: on a terminal through prompt_toolkit (the
arrow keys edit the line, up and down recall earlier moves, Ctrl-R searches them), from a pipe
or a file one plain line at a time.

Ctrl-C raises KeyboardInterrupt and Ctrl-D on an empty line EOFError, as ``input()`` does, so
the caller says the same thing whichever way the line is read.
"""
from __future__ import annotations

import sys
from typing import Callable, TextIO

__all__ = ["line_reader", "is_terminal"]


def is_terminal(stdin: TextIO | None = None, stdout: TextIO | None = None) -> bool:
    """Both ends are a terminal (a person types and reads); a pipe or a file on either is not."""
    streams = (stdin or sys.stdin, stdout or sys.stdout)
    try:
        return all(s.isatty() for s in streams)
    except (AttributeError, ValueError):            # a closed or replaced stream
        return False


def line_reader(fallback: Callable[[str], str]) -> Callable[[str], str]:
    """A function that shows a prompt and returns the line typed: prompt_toolkit's, with an
    in-memory history of this game's lines, when stdin and stdout are a terminal; else
    ``fallback`` (rich's ``Console.input``: piped input is read as it comes)."""
    if not is_terminal():
        return fallback
    try:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory
    except ImportError:                            # a trimmed install: plain lines still work
        return fallback
    session: PromptSession[str] = PromptSession(history=InMemoryHistory())

    def read(prompt: str) -> str:
        return session.prompt(prompt)
    return read
