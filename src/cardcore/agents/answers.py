"""Reading a language model's answer back into a legal move, whatever its length.

``read_answer(game, answer, moves)`` looks for the answer's last ``{"move": ...}`` JSON
object or its last ``Final Answer: X`` line (``Окончательный ответ: X`` too), whichever comes
later, and else takes its last non-empty line that is not a code fence (the whole answer
when it has one line). What it finds is then read as:

- a number (``3``, ``3)``, ``#3``, ``move 3``, ``Move: 3``, ``Answer: 3``, ``ход 3``, a JSON
  number): the move the prompt shows beside that number;
- a label copied from the prompt's list, with or without its note in brackets
  (``take (picks up 6D)`` or ``take``), with or without the number in front (``3) take``);
- the move written in the game's notation (``play 7H``), read by the game itself.

Anything else raises ``AnswerRefused`` with the reason in the current language
(``cardcore.i18n.use``) and its ``outcome``: ``"illegal"`` (a number beyond the list, or a
move of the game's kinds that is not legal now) or ``"unparsable"`` (nothing that names a
move). The game is never changed.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardcore.errors import IllegalActionError, echo
from cardcore.game import Action, Game
from cardcore.i18n import _
from cardcore.texts import refusal_text, words_module

__all__ = ["FORMS", "AgentError", "AnswerRefused", "Choice", "Reading", "move_label", "read_answer",
           "read_choice"]

# How an answer named its move (``Reading.form``), in the order they are looked for.
FORMS = ("json", "final", "number", "label", "notation")
_NUMBER = re.compile(r"(?:(?:move|answer|ход|ответ)\s*:?\s*|#|№\s*)?([+-]?\d+)\s*[.)\]]?",
                     re.IGNORECASE)
_FENCE = re.compile(r"\s*(?:```|~~~)\s*\w*\s*")                # a code fence's line
_NUMBERED = re.compile(r"([+-]?\d+)[.)]\s+(.+)")             # "3) take (picks up 6D)"
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")                      # flat objects: {"move": 3}
_FINAL = re.compile(r"(?:final\s+answer|окончательный\s+ответ|итоговый\s+ответ)\s*[:：]\s*(.*)",
                    re.IGNORECASE)
_NOTE = re.compile(r"\s*\([^()]*\)\s*$")                      # a label's note in brackets
_DECOR = "`'\"*_«»“”"                                          # quotes and emphasis around a move


class AnswerRefused(ValueError):
    """An answer that names no legal move; the message says why, in the prompt's language.
    ``outcome`` is ``"unparsable"`` (no move found in it) or ``"illegal"`` (a move or
    number that is not legal now)."""

    def __init__(self, message: str, outcome: str = "unparsable") -> None:
        super().__init__(message)
        self.outcome = outcome


class AgentError(RuntimeError):
    """An agent that gave no answer: it raised or failed (``kind`` "crash"), took too long
    ("timeout") or answered something that is not text ("type"). Counted as an agent error,
    never as a refused answer."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Reading:
    """A legal move read from an answer: the move, how it was named (one of ``FORMS``) and
    the piece of the answer that named it (at most 200 characters)."""

    action: Action
    form: str
    text: str


def move_label(game: Game, action: Action) -> str:
    """The move as the prompt's list shows it: its notation, then the game's note on it (in
    the current language) in brackets if it has one: ``take (picks up 6D)``."""
    note = getattr(words_module(game), "move_note", None)
    extra = note(action) if callable(note) else None
    return f"{action}" + (f" ({extra})" if extra else "")


def _clean(text: str) -> str:
    return " ".join(text.strip().strip(_DECOR).strip().rstrip(".!").strip(_DECOR).split())


def _unparsable(count: int) -> AnswerRefused:
    return AnswerRefused(_("Answer with the number of a move from 1 to {count}, or write the "
                           "move out.").format(count=count))


def _no_number(n: int, count: int) -> AnswerRefused:
    return AnswerRefused(_("There is no move {number}: choose a number from 1 to {count}, or "
                           "write the move out.").format(number=echo(n), count=count), "illegal")


def _last_move_object(text: str) -> tuple[int, Any, str] | None:
    """(where, the ``move``, its text) of the last flat JSON object in ``text`` with a
    ``move`` key."""
    for found in reversed(list(_JSON_OBJECT.finditer(text))):
        if "move" not in found.group(0):
            continue
        try:
            value = json.loads(found.group(0))
        except ValueError:
            continue
        if isinstance(value, dict) and "move" in value:
            return found.start(), value["move"], found.group(0)
    return None


def _candidate(answer: str) -> tuple[str, Any, str]:
    """(form, what names the move, the answer's piece that holds it): the later of the last
    ``{"move": ...}`` object and the last ``Final Answer:`` line, else the last line."""
    found = _last_move_object(answer)
    finals = list(_FINAL.finditer(answer))
    final = finals[-1] if finals else None
    if final is not None and (found is None or final.start() > found[0]):
        return "final", final.group(1).strip(), final.group(0)
    if found is not None:
        return "json", found[1], found[2]
    lines = [line for line in answer.splitlines()
             if line.strip() and not _FENCE.fullmatch(line)]
    return "line", lines[-1] if lines else "", lines[-1] if lines else ""


@dataclass(frozen=True)
class Choice:
    """What an answer chose from a list of labels: the move's index in the list (None: no
    label or number matched, ``text`` is left to read as notation), how it was named and the
    piece of the answer that named it."""

    index: int | None
    form: str
    piece: str
    text: str


def read_choice(answer: Any, labels: Sequence[str], notations: Sequence[str] = ()) -> Choice:
    """The move ``answer`` names in a list shown as ``labels`` (numbered from 1;
    ``notations``: the moves without their notes, if the labels have notes). A number is
    checked against the list, a label compared (case, spaces and quotes aside); any other
    text comes back with ``index`` None. AnswerRefused if nothing names a move."""
    count = len(labels)
    if not isinstance(answer, str) or not answer.strip():
        raise _unparsable(count)
    form, value, piece = _candidate(answer)
    piece = piece.strip()[:200]
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise _unparsable(count)
    if isinstance(value, int):
        if 1 <= value <= count:
            return Choice(value - 1, form, piece, str(value))
        raise _no_number(value, count)
    text = _clean(value)
    if not text:
        raise _unparsable(count)
    number = _NUMBER.fullmatch(text)
    if number:
        n = int(number.group(1))
        if 1 <= n <= count:
            return Choice(n - 1, "number" if form == "line" else form, piece, text)
        raise _no_number(n, count)
    full = {_clean(label).casefold(): i for i, label in enumerate(labels)}
    plain = {_clean(notation).casefold(): i for i, notation in enumerate(notations or labels)}
    numbered = _NUMBERED.fullmatch(text)
    for probe in ([numbered.group(2)] if numbered else []) + [text]:
        key = _clean(probe).casefold()
        for index in (full.get(key), plain.get(key), plain.get(_NOTE.sub("", key))):
            if index is not None:
                return Choice(index, "label" if form == "line" else form, piece, text)
    if numbered:                                          # "3) something": the number decides
        n = int(numbered.group(1))
        if 1 <= n <= count:
            return Choice(n - 1, "number" if form == "line" else form, piece, text)
    return Choice(None, "notation" if form == "line" else form, piece, _NOTE.sub("", text))


def read_answer(game: Game, answer: Any, moves: Sequence[Action]) -> Reading:
    """The legal move ``answer`` names, ``moves`` being the numbered list the prompt showed
    (the seat to move's legal moves): ``read_choice`` on their labels, then the game's
    notation. AnswerRefused otherwise (module docstring)."""
    choice = read_choice(answer, [move_label(game, a) for a in moves], [str(a) for a in moves])
    if choice.index is not None:
        return Reading(moves[choice.index], choice.form, choice.piece)
    return Reading(_by_notation(game, choice.text, moves, len(moves)), choice.form,
                   choice.piece)


def _by_notation(game: Game, text: str, moves: Sequence[Action], count: int) -> Action:
    """The move ``text`` writes in the game's notation; else the game's refusal (it names
    the legal moves when the words are no move at all)."""
    probe = game.clone()                                  # the game's own notation and refusals
    try:
        probe.apply(text, player=game.current_player)
    except IllegalActionError as e:
        head = text.split()[0].casefold()
        kinds = {spec.kind for spec in type(game).action_specs(game.num_players, game.options)}
        raise AnswerRefused(_("Not allowed:") + " " + refusal_text(e, game),
                            "illegal" if head in kinds else "unparsable") from None
    chosen = probe.action_log()[-1]
    for action in moves:
        if action.id == chosen:
            return action
    raise _unparsable(count)                              # pragma: no cover - apply checked it
