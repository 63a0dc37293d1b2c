"""A seat's observation for a language-model arena, as JSON and as a prompt.

``observation(game, seat, lang)`` is what the seat may know, as JSON values: the game, the
seat, its partners (``Game.sides_of``), the options, the rules summary (the game's
how-to-play page in ``lang``), the seat's view (``Game.view``), the table and what it saw
happen (narration in ``lang``), and, at its turn, the legal moves as ``{"1": label, ...}``:
the numbers and labels the prompt shows (``cardcore.agents.text.prompt``'s list).

``arena_prompt(game, lang, style)`` is the question at the seat's turn: in ``style="text"``
the rules summary, partners and options, then ``cardcore.agents.text.prompt``'s text; in
``style="json"`` the observation as JSON. Both end by saying how to answer: the move's
number, last, as ``{"move": 3}`` or ``Final Answer: 3``.
"""
from __future__ import annotations

import json
from cardcore.agents.answers import move_label
from cardcore.agents.text import HISTORY_LINES, history_lines, legal_moves, prompt
from cardcore.errors import ConfigError, echo
from cardcore.game import Game, JSONValue, is_int
from cardcore.i18n import _, check_lang, use
from cardcore.texts import howto_text

__all__ = ["STYLES", "answer_instructions", "arena_prompt", "observation", "partners"]

STYLES = ("text", "json")               # how arena_prompt shows the observation


def partners(game: Game, seat: int) -> list[int]:
    """The seats on ``seat``'s side besides itself (``Game.sides_of``): they win together."""
    sides = type(game).sides_of(game.num_players, game.options)
    return [k for k in range(game.num_players) if k != seat and sides[k] == sides[seat]]


def _seat_name(game: Game, seat: int) -> int:
    if not is_int(seat) or not 0 <= seat < game.num_players:
        raise ConfigError(f"seat must be 0..{game.num_players - 1}, not {echo(seat)}", "seat")
    return int(seat)


def observation(game: Game, seat: int, lang: str = "en",
                history: int = HISTORY_LINES) -> dict[str, JSONValue]:
    """The seat's observation as JSON values (module docstring); ``legal_moves`` is empty
    when the seat is not to move."""
    lang = check_lang(lang)
    seat = _seat_name(game, seat)
    moves = legal_moves(game) if game.current_player == seat else []
    with use(lang, game):
        labels = {str(i): move_label(game, a) for i, a in enumerate(moves, 1)}
        table = game.table_lines(seat)
        past = history_lines(game, seat, history, lang)
    return {
        "game": game.name, "title": game.title, "lang": lang, "seat": seat,
        "players": game.num_players, "partners": partners(game, seat),
        "options": json.loads(json.dumps(dict(game.options))),
        "rules": howto_text(game.name, lang),
        "view": game.view(seat), "table": table,
        "history": past,
        "to_move": game.current_player, "is_over": game.is_over,
        "legal_moves": labels,
    }


def answer_instructions(count: int) -> str:
    """How to answer, in the current language (``cardcore.i18n.use``)."""
    return _("Think as long as you like, then end your answer with your move's number from "
             "the list (1-{count}), written as {example} or as Final Answer: N. A move copied "
             "from the list is read too.").format(count=count, example='{"move": N}')


def arena_prompt(game: Game, lang: str = "en", style: str = "text",
                 history: int = HISTORY_LINES) -> str:
    """The question for the seat to move (module docstring)."""
    lang = check_lang(lang)
    if style not in STYLES:
        raise ConfigError(f"style must be one of {', '.join(STYLES)}, not {echo(style)}",
                          "style")
    seat = game.current_player
    if seat is None:
        raise ConfigError("the game is over: there is no move to ask for", "seat")
    count = len(legal_moves(game))
    if style == "json":
        seen = observation(game, seat, lang, history)
        with use(lang, game):
            head = _("You play {game} as seat {seat}. Your observation (JSON; legal_moves "
                     "numbers your moves):").format(game=game.title, seat=seat)
            return head + "\n" + json.dumps(seen, ensure_ascii=False) + "\n\n" + \
                answer_instructions(count)
    asked = prompt(game, lang=lang, history=history)
    with use(lang, game):
        mates = partners(game, seat)
        team = (_("Your partners: {seats}; you win or lose together.").format(
            seats=", ".join(_("seat {seat}").format(seat=k) for k in mates)) if mates
            else _("You play for yourself: no partners."))
        options = _("Options: {options}.").format(options=", ".join(
            f"{k}={json.dumps(v)}" for k, v in game.options.items()) or "—")
        intro = [_("How to play (a summary of the rules):"),
                 howto_text(game.name, lang).strip(), "", team, options, ""]
        # the text prompt's last line asks for the move alone: the arena reads reasoning too
        tail = asked.rsplit("\n", 1)[0] + "\n" + answer_instructions(count)
    return "\n".join(intro) + "\n" + tail
