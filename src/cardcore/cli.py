"""The ``cardcore`` command: play against bots, simulate, print rulebooks, measure speed.

    cardcore play GAME [--players N] [--seat K] [--seed S] [--bots greedy,random]
                       [--save FILE | --load FILE] [--lang en|ru]
    cardcore simulate GAME -n 10000 [--players N] [--bots greedy,random] [--seed S]
                           [--workers W | --dask ADDRESS | --ray ADDRESS|auto] [--json]
                           [--records DIR]
    cardcore tournament GAME --bots greedy,random,random:seed=3 -n 1000
                             [--workers W | --dask ADDRESS | --ray ADDRESS|auto]
                             [--json] [--out DIR] [--records DIR]
    cardcore rules GAME [--spec] [--raw] [--lang en|ru]
    cardcore games                     # the games (GAME is one of their names)
    cardcore schema GAME view|action|event|save
    cardcore verify RECORD [--key K]  # check a match record of `cardcore serve`
    cardcore record export SAVE -o RECORD [--seat S] | import RECORD -o SAVE | schema
    cardcore review SAVE_OR_RECORD... [--seat S] [--reference SPEC] [--json] [--lang en|ru]
    cardcore agent GAME --command "CMD" [--bots greedy] [-n 10] [--seed S] [--lang en|ru]
    cardcore arena GAME --agent NAME=CMD [--callable NAME=module:function] [--bots LADDER]
                        [-n 10] [--on-failure forfeit|default] [--out DIR] [--json]
    cardcore bench [GAME]
    cardcore serve [--host 127.0.0.1] [--port 8000] [--db FILE] [--bot-delay 0.4]
                   [--max-tables N ...every limit] [--allow-origin O] [--allow-host H]
                   [--log-format text|json] [--bots mypolicy:path=model.npz,...]

Game options are given as ``-o name=value`` (the value is read as JSON when it parses,
e.g. ``-o rounds=8 -o teams=true -o refill=manual``).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable

from rich import box
from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from cardcore import __version__
from cardcore.bots import BOTS, make_bot, parse_bot_specs
from cardcore.bots.base import check_bot
from cardcore import cli_admin, cli_record
from cardcore.cards import with_suit_symbols
from cardcore.errors import ECHO_LIMIT, ConfigError, IllegalActionError, Words, echo
from cardcore.game import CONFIG_REFUSALS, NOTATION_RULE, Action, Game
from cardcore.registry import available_games, game_class, load_game, new_game
from cardcore.i18n import LANGUAGES, N_, _, check_lang, fill_template, ngettext, use
from cardcore.lineinput import line_reader
from cardcore.narrate import (breakdown_lines, describe, event_text, hand_order,
                              move_in_words, score_direction, slots_text)
# The refusals and how-to-play pages in the reader's language (the server shows them too).
from cardcore.texts import SHARED_REFUSALS, config_text, howto_text, refusal_text  # noqa: F401
from cardcore.texts import words_module as _words_module

__all__ = ["main"]

QUIT_WORDS = {"q", "quit", "exit"}
HELP_WORDS = {"h", "help"}
HINT_WORDS = {"?", "hint"}
HINT_LEVEL = 5            # hints come from the strongest level's search (within its budget)
SHOW_WORDS = {"s", "show", "view"}


# The built-in bots; installed plug-ins are not listed in --help (finding them reads every
# installed package's metadata, tens of ms at each start), only when a name is unknown.
BOT_NAMES = ", ".join(BOTS) + " or a plug-in's name (docs/bots.md)"
MAX_BENCH_SECONDS = 3600.0
COMMAND_FLAGS = {"players": "--players", "seed": "--seed", "deck": None}
# The command line's own refusals, read in the command's --lang (the games' are in
# CONFIG_REFUSALS and the option checks'); names, flags and values stay as typed.
CLI_REFUSALS = (
    N_("-o {name} is not an option of {game}; give it as {flag}"),
    N_("-o {name} is not an option of {game}"),
    N_("--seat must be 0..{last}, not {value}"),
    N_("--level must be 1..5, not {value}"),
    N_("give --bots or --level, not both"),
)


# ------------------------------------------------------------------ shared helpers
def _parse_options(pairs: Sequence[str], game: str) -> dict[str, Any]:
    """``-o name=value`` pairs as game options (values read as JSON when they parse). Only
    the game's own options: players and seed have their flags, and anything else would
    reach simulate's or tournament's own parameters."""
    known = game_class(game).options_spec
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"option {echo(pair)} must look like name=value", key or None)
        if key in COMMAND_FLAGS:
            flag = COMMAND_FLAGS[key]
            raise ConfigError(Words(CLI_REFUSALS[0], {"name": echo(key), "game": game,
                                                       "flag": flag}) if flag else
                              Words(CLI_REFUSALS[1], {"name": echo(key), "game": game}), key)
        if key not in known:                    # the game's own refusal (and its Russian)
            raise ConfigError(Words(CONFIG_REFUSALS[2], {
                "game": game, "named": key if len(key) <= 40 else echo(key),
                "known": ", ".join(sorted(known)) or "none"}), key)
        try:
            value: Any = json.loads(raw)
        except (json.JSONDecodeError, RecursionError):
            value = raw
        options[key] = value
    return options


def _echo_tokens(message: str) -> str:
    """A message with every word longer than ECHO_LIMIT cut short (argparse repeats the
    argument it refuses whole)."""
    return re.sub(r"\S{%d,}" % (ECHO_LIMIT + 1), lambda m: m.group()[:ECHO_LIMIT - 3] + "...",
                  message)


def cards_help(game: Game) -> str:
    """The help's line on card notation, for the game's deck: its ranks, and jokers only if
    it has them (a 36-card deck is 6 to ace)."""
    from cardcore.cards import card_str
    ranks = {card_str(c)[:-1] for c in game.deck_for(game.num_players, game.options)
             if card_str(c) != "JK"}
    if any(card_str(c) == "JK" for c in game.deck_for(game.num_players, game.options)):
        return _("Cards: rank then suit: 7H = seven of hearts, 10D = ten of diamonds, "
                 "JK = joker; suits C clubs, D diamonds, H hearts, S spades; ranks A 2-10 J Q "
                 "K.")
    order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    numbers = [r for r in order[:9] if r in ranks]
    return _("Cards: rank then suit: 7H = seven of hearts, 10D = ten of diamonds; suits C "
             "clubs, D diamonds, H hearts, S spades; ranks {low}-{high}, J jack, Q queen, K "
             "king, A ace.").format(low=numbers[0], high=numbers[-1])


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2), like every other refusal of the command."""

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: {_echo_tokens(message)} (see {self.prog} --help)\n")


def card_text(card: str) -> Text:
    """A card coloured like the card, its suit by its symbol (7♥): red suits red, the
    joker magenta."""
    if card == "JK":
        return Text(card, style="bold magenta")
    return Text(with_suit_symbols(card), style="bold red" if card[-1] in "DH" else "bold")


def cards_text(cards: Sequence[str]) -> Text:
    if not cards:
        return Text("—", style="dim")
    return Text(" ").join(card_text(c) for c in cards)


def _looks_like_cards(value: Any) -> bool:
    from cardcore.cards import card_id
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        return False
    try:
        for v in value:
            card_id(v)
    except ValueError:
        return False
    return True


def _value_text(value: Any) -> Text:
    if value == [] or value is None:
        return Text("—", style="dim")
    if _looks_like_cards(value):
        return cards_text(value)
    if isinstance(value, list) and value and all(_looks_like_cards(v) or v == [] for v in value):
        parts = [Text(f"{i}: ").append_text(cards_text(v)) for i, v in enumerate(value)]
        return Text("  ").join(parts)
    return Text(json.dumps(value) if isinstance(value, (dict, list)) else str(value))


COMMON_VIEW_KEYS = {"game", "player", "current_player", "phase", "hand", "hand_sizes", "scores",
                    "legal_actions"}


def table_lines(game: Game, player: int) -> list[Text]:
    """The public table for ``player``: the game's own ``table_lines`` when it gives any,
    otherwise every game-specific key of the view."""
    lines_of = getattr(game, "table_lines", None)
    own = lines_of(player) if callable(lines_of) else []
    if own:
        return [Text(with_suit_symbols(line)) for line in own]
    view = game.view(player)
    lines = []
    for key, value in view.items():
        if key in COMMON_VIEW_KEYS:
            continue
        if key == "slots":                  # zones laid out in pairs: each card, its cover
            for zone, slots in value.items():
                label = Text(f"{zone}: ", style="cyan")
                lines.append(label.append(slots_text(slots) or "—"))
            continue
        label = Text(f"{key.replace('_', ' ')}: ", style="cyan")
        lines.append(label.append_text(_value_text(value)))
    return lines


# ------------------------------------------------------------------ play
class _Quit(Exception):
    pass


def bots_sidecar(save_path: Path) -> Path:
    """Where ``cardcore play`` records who plays the other seats of a save: beside it, so the
    save itself (the engine's format, with its digest) stays what ``load_game`` reads."""
    return save_path.with_name(save_path.name + ".players.json")


# The bots' names in words, as the web table says them (static/words.js botName).
BOT_WORDS = {"greedy": N_("greedy"), "random": N_("random"), "ismcts": N_("search")}


def bot_word(spec: str) -> str:
    """A bot spec in the reader's words ("level:3" -> "level 3", "greedy"); other specs (with
    parameters, registered bots) as written."""
    if spec.startswith("level:"):
        return _("level {n}").format(n=spec[6:])
    return _(BOT_WORDS[spec]) if spec in BOT_WORDS else spec


class PlaySession:
    """One person at ``seat`` against bots, reading moves from ``read`` (input() by default)."""

    def __init__(self, game: Game, seat: int, bot_names: Sequence[str], seed: int,
                 console: Console, read: Callable[[str], str],
                 save_path: Path | None = None, lang: str = "en",
                 forced_moves: bool = True) -> None:
        """``bot_names`` are given to the other seats in seat order, repeated as needed.
        With ``save_path`` the game is saved (``to_json``) whenever it is the person's turn
        and when they leave, and the bots beside it (``bots_sidecar``). ``lang``: the language
        of every line (cardcore.i18n)."""
        self.game = game
        self.seat = seat
        self.console = console
        self.read = read
        self.save_path = save_path
        self.lang = check_lang(lang)
        self.forced_moves = forced_moves   # a lone move without cards: a prompt, Enter makes it
        from cardcore.simulation import bot_seed
        others = [k for k in range(game.num_players) if k != seat]
        self.bot_names = {k: bot_names[i % len(bot_names)] for i, k in enumerate(others)}
        resumed_at = len(game.history)                 # bots of a resumed game draw afresh
        self.bots = {k: make_bot(name, bot_seed(seed, resumed_at, k))
                     for k, name in self.bot_names.items()}
        self.advisor = make_bot(f"level:{HINT_LEVEL}", bot_seed(seed, resumed_at, seat))
        # A new game narrates its deal; a resumed one starts after what was already seen.
        self.events_seen = len(game.events(seat)) if resumed_at else 0
        self.words = _words_module(game)
        self.applying = False          # inside Game.apply: a save now could miss the move

    def who(self, seat: int) -> str:
        return _("you") if seat == self.seat else _("player {number} ({bot})").format(
            number=seat + 1, bot=bot_word(self.bot_names[seat]))

    def run(self) -> int:
        with use(self.lang, self.game):
            return self._run()

    def _run(self) -> int:
        self.save()                                    # a save exists before any move
        try:
            return self._play()
        except KeyboardInterrupt:                      # Ctrl-C: where the game is kept
            if not self.applying:                      # as it stands: between two moves
                self.save()
            self.console.print("\n" + _("Interrupted; leaving the game.") + self.resume_hint(),
                               soft_wrap=True)
            return 130

    def _play(self) -> int:
        game = self.game
        while not game.is_over:
            self.print_events()                        # the deal's narration before a prompt
            player = game.current_player
            assert player is not None                  # the game is not over
            only = self.forced_move() if player == self.seat else None
            if player == self.seat:
                if only is None:
                    self.save()
                    self.show()
                try:
                    if only is not None:
                        self.forced_turn(only)
                    else:
                        self.human_turn()
                except _Quit:
                    self.console.print(_("You left the game.") + self.resume_hint(),
                                       soft_wrap=True)
                    return 0
                except EOFError:
                    self.console.print("\n" + _("Input ended; leaving the game.")
                                       + self.resume_hint(), soft_wrap=True)
                    return 0
            else:
                action = self.bots[player].choose(game)
                self.applying = True                   # a Ctrl-C now keeps the last save
                game.apply(action, player=player)
                self.applying = False
        self.print_events()
        self.save()
        self.show_end()
        return 0

    def forced_move(self) -> Action | None:
        """The seat's forced move, when ``forced_moves`` is on: its only legal move, if it
        plays no card of the hand (a pass, a take, a draw: none of the cards it names is in
        the hand). A lone move that plays a card is a normal turn: the player plays their
        cards themselves."""
        if not self.forced_moves or len(self.game.legal_action_ids()) != 1:
            return None
        only = self.game.legal_actions()[0]
        hand = self.game.view(self.seat)["hand"] or []
        return None if any(card in hand for card in only.cards) else only

    def forced_turn(self, only: Action) -> None:
        """A forced move as a prompt whose default makes it: Enter (or its number, or the
        move) makes it; s, ?, h and q work as at any turn first, and anything else typed is
        taken as at a normal turn (``typed_move``: a move, or why it is not allowed). The
        wait is the player's alone, whatever the hand holds."""
        note = getattr(self.words, "forced_note", None)   # the game's words for it
        said = note(only) if note is not None else None
        self.console.print(Text(said or _("(your only move: {move})").format(
            move=self.move_text(only)), style="dim"))
        while True:
            text = self.read(_("Enter: {move} (s table, ? hint, h help, q quit): ").format(
                move=self.move_text(only))).strip()
            lowered = text.lower()
            if lowered in QUIT_WORDS:
                raise _Quit
            if lowered in HELP_WORDS:
                self.show_help([only])
            elif lowered in HINT_WORDS:
                self.show_hints([only])
            elif lowered in SHOW_WORDS:
                self.show()
            elif lowered in ("", self.move_text(only).lower()):
                break
            else:                  # anything else as at any turn: a move, or why it is not
                self.save()
                if self.typed_move(text, [only]):
                    return
        self.save()
        self.applying = True
        self.game.apply(only, player=self.seat)
        self.applying = False

    def move_text(self, action: Action) -> str:
        """A move in the reader's words (``narrate.move_in_words``: the game's captions)."""
        return move_in_words(str(action), self.words, self.game.phase)

    def save(self) -> None:
        if self.save_path is None:
            return
        record = {"format": 1, "game": self.game.name, "seat": self.seat,
                  "bots": {str(k): name for k, name in self.bot_names.items()}}
        for path, text in ((self.save_path, self.game.to_json()),
                           (bots_sidecar(self.save_path), json.dumps(record) + "\n")):
            partial = path.with_name(path.name + ".partial")
            try:
                partial.write_text(text, encoding="utf-8")
                partial.replace(path)                  # never a half-written save
            except OSError as e:
                raise ConfigError(f"cannot save to {echo(str(path))}: "
                                  f"{e.strerror or e}", "save") from None

    def resume_hint(self) -> str:
        if self.save_path is None:
            return ""
        path = escape(str(self.save_path))
        return " " + _("Saved to {path}; resume with: cardcore play {game} --seat {seat} "
                       "--load {path}").format(path=path, game=self.game.name, seat=self.seat)

    def who_or_table(self, seat: int) -> str:
        return self.who(seat) if 0 <= seat < self.game.num_players else _("the table")

    def print_events(self) -> None:
        """Narrate what this seat saw happen since the last call (``Game.events``): its own
        draws, the public cards others take, what a pile take melded, the end-of-round
        breakdowns with their rule IDs."""
        events = self.game.events(self.seat, since=self.events_seen)
        self.events_seen += len(events)
        for event in events:
            if event["kind"] == self.game.round_end_event:
                lines = breakdown_lines(event, self.who_or_table, self.game, lang=self.lang,
                                        seat=self.seat)
                for i, line in enumerate(lines):
                    self.console.print(Text(with_suit_symbols(line),
                                            style="bold yellow" if i == 0 else "yellow"))
                continue
            text = describe(event, self.seat, self.who_or_table, self.game, lang=self.lang)
            if text is not None:
                mine = event.get("player") == self.seat and not event.get("auto")
                self.console.print(Text(with_suit_symbols(text), style="" if mine else "dim"))

    def scores_table(self) -> Table:
        game = self.game
        view = game.view(self.seat)
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False,
                      caption=_("scores: {direction}").format(
                          direction=score_direction(game.score_direction)))
        for column in (_("no."), _("player"), _("cards in hand"), _("score")):   # from 1
            table.add_column(column, justify="right" if column != _("player") else "left")
        to_move = game.current_player
        sides = type(game).sides_of(game.num_players, game.options)
        partners = len(set(sides)) < game.num_players        # seats that share a side
        for k in range(game.num_players):
            marker = " ◀" if k == to_move else ""
            if partners and k != self.seat and sides[k] == sides[self.seat]:
                marker = " · " + _("partner") + marker
            table.add_row(str(k + 1), self.who(k) + marker, str(view["hand_sizes"][k]),
                          str(view["scores"][k]), style="bold" if k == self.seat else None)
        return table

    def show(self) -> None:
        game = self.game
        view = game.view(self.seat)
        self.console.rule(_("{game} · your turn (player {number}) · {phase}").format(
            game=_(game.title), number=self.seat + 1, phase=_(view["phase"])))   # the game's word
        body = Text("\n").join(table_lines(game, self.seat))
        self.console.print(Panel(body, title=_("table"), title_align="left", expand=False))
        self.console.print(self.scores_table())
        self.console.print(Text(_("Your hand: "), style="bold").append_text(
            cards_text(self.hand())))
        self.show_moves()

    def hand(self) -> list[str]:
        """The hand as shown: in the game's order of its cards (``Game.hand_order_key``)."""
        hand = list(self.game.view(self.seat)["hand"])
        key = self.game.hand_order_key(self.seat)
        return hand if key is None else sorted(hand, key=key)

    def moves(self) -> list[Action]:
        """The legal moves in the order they are numbered: the hand's order."""
        return hand_order(self.game.legal_actions(), self.hand())

    def move_label(self, action: Action, short: dict[int, str] | None = None) -> str:
        """A move as typed, with what its notation does not say (the game's ``move_note``)
        and, for a move that cannot be made alone (``short``), why."""
        note = getattr(self.words, "move_note", None)
        notes = [note(action) if callable(note) else None, (short or {}).get(action.id)]
        extra = "; ".join(n for n in notes if n)
        shown = self.move_text(action)
        return with_suit_symbols(f"{shown} ({extra})" if extra else shown)

    def short_moves(self) -> dict[int, str]:
        """The game's moves that are legal but cannot be made alone (its words module's
        ``not_alone``: e.g. a first meld below the initial-meld minimum), with the reason."""
        not_alone = getattr(self.words, "not_alone", None)
        return not_alone(self.game, self.seat) if callable(not_alone) else {}

    def show_moves(self) -> None:
        short = self.short_moves()
        labels = [self.move_label(a, short) for a in self.moves()]
        width = len(str(len(labels)))
        items = [Text(f"{i + 1:>{width}}) ", style="cyan").append(label)
                 for i, label in enumerate(labels)]
        self.console.print(Columns(items, padding=(0, 3)))

    def show_help(self, legal: Sequence[Action]) -> None:
        notation = getattr(self.words, "NOTATION", ())
        lines = [_("Type the number of a move, or the move itself (e.g. {example}).").format(
                     example=repr(with_suit_symbols(str(legal[0])))),
                 _("  ? or hint   suggest moves (the strongest bot's search, from what you see)"),
                 _("  s or show   show the table again"),
                 _("  h or help   this help"),
                 _("  q or quit   leave the game (a game played with --save can be resumed)"),
                 _("  ↑ and ↓     your earlier lines; ← and → move in the line")]
        own_help = getattr(self.words, "help_lines", None)     # the game's own words on it
        lines += own_help(self.game) if callable(own_help) else [cards_help(self.game)]
        if notation:
            lines.append(_("Moves of {game}:").format(game=_(self.game.title)))
            lines += [f"  {example:<22} {_(meaning)}" for example, meaning in notation]
        lines.append(_("The rules: cardcore rules {game} (--spec: the full specification).")
                     .format(game=self.game.name))
        self.console.print("\n".join(escape(line) for line in lines), highlight=False)

    def what_to_type(self, legal: Sequence[Action], kind: str | None = None) -> str:
        """"type 1-4, a move like 'play 7H', or h for help": the example a move of ``kind``
        when there is one, else a move that names its cards."""
        numbers = "1" if len(legal) == 1 else f"1-{len(legal)}"
        same = [a for a in legal if a.kind == kind or str(a).split()[0] == kind]
        named = [a for a in legal if " " in str(a)]
        example = with_suit_symbols(str((same or named or list(legal))[0]))
        return _("type {numbers}, a move like {example}, or h for help").format(
            numbers=numbers, example=repr(example))

    def refuse(self, message: str) -> None:
        self.console.print("[red]" + escape(message) + "[/]", soft_wrap=True, highlight=False)

    def human_turn(self) -> None:
        while True:
            legal = self.moves()
            numbers = "1" if len(legal) == 1 else f"1-{len(legal)}"
            raw = self.read(_("Your move [{numbers}, or write it out; ? for a hint, h for "
                              "help]: ").format(numbers=numbers))
            text = raw.strip()
            lowered = text.lower()
            if not text:
                continue
            if lowered in QUIT_WORDS:
                raise _Quit
            if lowered in HELP_WORDS:
                self.show_help(legal)
                continue
            if lowered in HINT_WORDS:
                self.show_hints(legal)
                continue
            if lowered in SHOW_WORDS:
                self.show()
                continue
            if self.typed_move(text, legal):
                return

    def typed_move(self, text: str, legal: list[Action]) -> bool:
        """A turn's typed ``text`` (not a command word): its move number among ``legal`` or
        the move written out, made if the game allows it (True); else the refusal, with the
        rule and what is missing where the game can say (False)."""
        game = self.game
        if re.fullmatch(r"[+-]?\d+", text):
            number = int(text)
            if not 1 <= number <= len(legal):
                self.refuse(_("There is no move {number}: {what}.").format(
                    number=echo(text), what=self.what_to_type(legal)))
                return False
            action: Action | str = legal[number - 1]
        else:
            action = self.move_alias(text)      # a move written out; game.apply checks it
        try:
            self.applying = True
            game.apply(action, player=self.seat)
        except IllegalActionError as e:
            self.applying = False
            # The notation rule: the text is no action of the game at all (not just
            # not now), so the game explains what is missing, or what to type instead.
            if isinstance(action, str) and e.rule in (None, NOTATION_RULE):
                plain = self.not_a_move(action, legal)
                reason = None if plain else self.why_not(action)
                if reason is None:                 # nothing to explain: what to type
                    self.refuse(plain or _("{move} is not a move: {what}.").format(
                        move=echo(action), what=self.what_to_type(legal)))
                    return False
            else:
                reason = None
            self.console.print("[red]" + escape(_("Not allowed:")) + "[/] "
                               + escape(reason or refusal_text(e, game)), soft_wrap=True,
                               highlight=False)
            return False
        self.applying = False
        return True

    def move_alias(self, text: str) -> str:
        """A move written in the game's own words (its words module's ``SPOKEN_MOVES``:
        «бито», «беру 7H»), as its notation; other text unchanged."""
        aliases = getattr(self.words, "SPOKEN_MOVES", {})
        words = text.split()
        kind = aliases.get(words[0].lower()) if words else None
        return text if kind is None else " ".join([kind, *words[1:]])

    def move_words(self) -> set[str]:
        """The first words of the game's moves: those the notation help shows, and now's."""
        notation = getattr(self.words, "NOTATION", ())
        words = {part.split()[0].lower() for example, _meaning in notation
                 for part in example.split(", ") if part.split()}
        return words | {str(a).split()[0].lower() for a in self.game.legal_actions()}

    def not_a_move(self, text: str, legal: Sequence[Action]) -> str | None:
        """What to type instead of text that names no move of the game (``foo``) or a move's
        word alone (``play``); None for a move the game can explain (``why_not``)."""
        words = text.split()
        first = words[0].lower()
        if first not in self.move_words():
            return _("{move} is not a move: {what}.").format(
                move=echo(text), what=self.what_to_type(legal))
        now = [a for a in legal if str(a).split()[0].lower() == first]
        if len(words) == 1 and now:
            return _("{move} is not a whole move: {what}.").format(
                move=echo(text), what=self.what_to_type(legal, str(now[0]).split()[0]))
        return None

    def why_not(self, text: str) -> str | None:
        """Why a written move is not one of the game's actions: a card not held, or the
        game's own explanation (its words module's ``explain_notation``) with the rule."""
        hand = self.game.view(self.seat)["hand"]
        words = text.split()
        kinds = {str(a).split()[0] for a in self.game.legal_actions()}
        from cardcore.cards import card_id
        named = []
        for word in words[1:]:
            card = word.split("=")[0].upper()
            try:
                card_id(card)
            except ValueError:
                continue
            named.append(card)
        for card in named:
            if named.count(card) > hand.count(card):
                return _("{move}: you do not hold {card}").format(move=echo(text), card=card)
        explain = getattr(self.words, "explain_notation", None)
        found = explain(words, hand) if callable(explain) else None
        if found is not None:
            message, rule = found
            return f"{echo(text)}: {_(message)} [{rule}]"
        if words and words[0].lower() not in kinds:
            return _("{move}: not a move now; moves now: {kinds}").format(
                move=echo(text), kinds=", ".join(sorted(kinds)))
        return None

    def show_hints(self, legal: Sequence[Action]) -> None:
        """The level-5 search's most explored moves for this seat, from its information only,
        with their move numbers, highest estimated win share first, and their visits."""
        hints = self.advisor.suggest(self.game, seat=self.seat, top=3)
        hints = sorted(hints, key=lambda h: -h["estimate"])
        number = {a.id: i + 1 for i, a in enumerate(legal)}
        self.console.print(_("Hint (highest estimated win share first):"), highlight=False)
        for hint in hints:
            action = hint["action"]
            self.console.print(Text(f"  {number[action.id]}) {self.move_text(action)}",
                                    style="cyan").append(
                "  " + _("win share {share:.0%}, {visits} visits").format(
                    share=hint["estimate"], visits=hint["visits"]), style="dim"))

    def show_end(self) -> None:
        game = self.game
        self.console.rule(_("match over"))
        self.console.print(self.scores_table())
        if "match_end" in game.phrases:           # the game words its end: its event's text
            end = [e for e in game.events(self.seat) if e["kind"] == "match_end"][-1:]
            if end:
                self.console.print(with_suit_symbols(
                    event_text(end[0], self.seat, game, self.lang, self.who)))
                return
        winners = game.winners
        names = ", ".join(self.who(k) for k in winners)
        verdict = _("You win!") if winners == [self.seat] else (
            _("You share the win.") if self.seat in winners else _("You lose."))
        self.console.print(ngettext("Winner: {names}.", "Winners: {names}.", len(winners))
                           .format(names=names) + " " + verdict)


def _load_for_play(args: argparse.Namespace) -> Game:
    from cardcore.saves import MAX_SAVE_CHARS
    if args.players is not None or args.option or args.seed is not None:
        raise ConfigError("--load restores players, options and seed from the file; "
                          "drop --players, -o and --seed", "load")
    path = Path(args.load)
    shown = echo(str(path))
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_SAVE_CHARS + 1)         # a save is ASCII: bytes are characters
    except OSError as e:
        raise ConfigError(f"cannot read {shown}: {e.strerror or e}", "load") from None
    if len(data) > MAX_SAVE_CHARS:
        raise ConfigError(f"{shown} is not a saved cardcore game: a save has at most "
                          f"{MAX_SAVE_CHARS:,} characters", "load")
    try:
        game = load_game(data)
    except ValueError as e:
        raise ConfigError(f"{shown} is not a saved cardcore game: {e}", "load") from None
    if game.name != game_class(args.game).name:
        raise ConfigError(f"{shown} holds a {game.name} game, not {args.game}", "load")
    if game.is_over:
        raise ConfigError(f"the game in {shown} is already over", "load")
    return game


def _save_path(name: str) -> Path:
    """--save FILE, checked before the game starts: not a directory, in one that exists."""
    path = Path(name)
    if path.is_dir():
        raise ConfigError(f"--save {echo(name)} is a directory; give a file name", "save")
    if not path.parent.is_dir():
        raise ConfigError(f"--save {echo(name)}: the directory {echo(str(path.parent))} does "
                          f"not exist", "save")
    return path


def _recorded_players(load: str) -> dict[str, Any]:
    """What ``bots_sidecar`` recorded beside a save (its seat and bots), or {} if nothing."""
    path = bots_sidecar(Path(load))
    try:
        with open(path, "rb") as f:
            record = json.loads(f.read(64 * 1024))
    except (OSError, ValueError):
        return {}
    bots = record.get("bots") if isinstance(record, dict) else None
    if not isinstance(bots, dict) or not all(isinstance(v, str) for v in bots.values()):
        return {}
    seat = record.get("seat")
    return {"seat": seat if type(seat) is int else None, "bots": bots}


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    lang = check_lang(args.lang)
    save_path = _save_path(args.save) if args.save else None
    recorded: dict[str, Any] = {}
    if args.load:
        game = _load_for_play(args)
        seed = game.seed
        recorded = _recorded_players(args.load)           # the same seat and opponents
        if args.bots is not None or args.level is not None:
            recorded.pop("bots", None)                    # unless others are asked for
    else:
        options = _parse_options(args.option, args.game)
        seed = args.seed if args.seed is not None else int(time.time_ns() % (1 << 31))
        game = new_game(args.game, players=args.players, seed=seed, **options)
    seat = args.seat if args.seat is not None else recorded.get("seat") or 0
    if not 0 <= seat < game.num_players:
        raise ConfigError(Words(CLI_REFUSALS[2], {"last": game.num_players - 1,
                                                   "value": echo(seat)}), "seat")
    if args.level is not None:
        if args.bots is not None:
            raise ConfigError(CLI_REFUSALS[4], "level")
        if type(args.level) is not int or not 1 <= args.level <= 5:
            raise ConfigError(Words(CLI_REFUSALS[3], {"value": echo(args.level)}), "level")
    bots = f"level:{args.level}" if args.level is not None else args.bots or "greedy"
    names = [str(spec) for spec in parse_bot_specs(bots)]    # name[:key=value,...]
    saved_bots = recorded.get("bots", {})
    if saved_bots and seat == recorded.get("seat"):
        names = [saved_bots.get(str(k), "greedy") for k in range(game.num_players) if k != seat]
        names = [str(spec) for spec in parse_bot_specs(",".join(names))]
    for name in dict.fromkeys(names):
        check_bot(make_bot(name, 0), game.name, game.num_players, game.options)     # a bot that cannot play: say so now
    save = args.save or args.load
    session = PlaySession(game, seat, names, seed, console, line_reader(console.input),
                          save_path or (Path(args.load) if args.load else None), lang=lang,
                          forced_moves=args.forced_moves)
    with use(lang, game):
        opponents = ", ".join(_("player {number} ({bot})").format(number=k + 1,
                                                                 bot=bot_word(name))
                              for k, name in session.bot_names.items())
        settings = options_text(game)
        console.print(escape(_("{game}: {players} players, seed {seed}; you are player {number}; "
                               "bots: {bots}. Options: {options}").format(
            game=_(game.title), players=game.num_players, seed=seed, number=seat + 1,
            bots=opponents,
            options=settings or _("none"))), highlight=False)
        console.print(escape(_("How to play: cardcore rules {game}. Type h at your turn for "
                               "help.").format(game=game.name)
                             + (" " + _("Saving to {path}.").format(path=save) if save else "")),
                      style="dim")
    return session.run()


# ------------------------------------------------------------------ simulate, tournament
def _progress_bar(console: Console) -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=console, transient=False)


def _where(args: argparse.Namespace, workers: int) -> str:
    """Where a run's chunks went, for the closing line."""
    place = (f"Dask at {args.dask}" if args.dask else f"Ray at {args.ray}" if args.ray
             else "local processes" if workers > 1 else "one process")
    return f"{place}, {workers} worker{'s' if workers != 1 else ''}"


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    from cardcore.executors import open_executor
    from cardcore.simulation import simulate

    options = _parse_options(args.option, args.game)
    with open_executor(dask=args.dask, ray=args.ray) as executor:
        kwargs = dict(players=args.players, bots=args.bots, seed=args.seed,
                      workers=args.workers, executor=executor, chunk_size=args.chunk_size,
                      records=args.records, **options)
        if args.json:
            summary = simulate(args.game, args.games, **kwargs)
            print(json.dumps(summary, indent=2))
            return 0
        progress = _progress_bar(console)
        with progress:
            task = progress.add_task(f"simulating {args.game}", total=args.games)
            summary = simulate(args.game, args.games,
                               progress=lambda n: progress.advance(task, n), **kwargs)
    console.print(summary_table(summary))
    if len(summary["by_bot"]) > 1:
        console.print(bot_table(summary))
    console.print(
        f"{summary['games']:,} games in {summary['seconds']:.2f} s: "
        f"{summary['games_per_second']:,.0f} games/s, {summary['actions_per_second']:,.0f} "
        f"actions/s; mean {summary['mean_turns']:.1f} turns, {summary['mean_actions']:.1f} "
        f"actions per game" + (" (whole games in the core)" if summary["core"] else "")
        + f"; {_where(args, summary['workers'])}")
    return 0


def cmd_tournament(args: argparse.Namespace, console: Console) -> int:
    from cardcore.executors import open_executor
    from cardcore.tournament import (pairwise_table, planned_games, plot_tournament,
                                     require_matplotlib, standings_table, tournament)

    options = _parse_options(args.option, args.game)
    if args.out:                                           # before the games, not after
        require_matplotlib()
        try:
            Path(args.out).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ConfigError(f"cannot write plots to {echo(args.out)}: {e.strerror or e}",
                              "out") from None
    common = dict(bots=args.bots, players=args.players, **options)
    total = planned_games(args.game, args.games, **common)  # checks the arguments first
    with open_executor(dask=args.dask, ray=args.ray) as executor:
        kwargs = dict(seed=args.seed, workers=args.workers, executor=executor,
                      chunk_size=args.chunk_size, records=args.records, **common)
        if args.json:
            result = tournament(args.game, args.games, **kwargs)
        else:
            progress = _progress_bar(console)
            with progress:
                task = progress.add_task(f"tournament {args.game}", total=total)
                result = tournament(args.game, args.games,
                                    progress=lambda n: progress.advance(task, n), **kwargs)
    written: list[Path] = []
    if args.out:
        written = plot_tournament(result, args.out)
        data = Path(args.out) / "tournament.json"
        data.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        written.append(data)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    console.print(standings_table(result))
    console.print(pairwise_table(result))
    console.print(f"{result['games']:,} games in {result['seconds']:.2f} s "
                  f"({result['games_per_second']:,.0f} games/s; {_where(args, result['workers'])})")
    if written:
        console.print("wrote " + ", ".join(escape(str(p)) for p in written))
    return 0


def summary_table(summary: dict[str, Any]) -> Table:
    table = Table(title=f"{summary['game']}, {summary['players']} players, seed {summary['seed']}",
                  caption="shared wins count for each winner; sole = won alone",
                  box=box.SIMPLE_HEAVY)
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("win rate", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("sole", justify="right")
    table.add_column("mean score", justify="right")
    for seat in range(summary["players"]):
        table.add_row(str(seat), summary["bots"][seat], f"{summary['win_rate'][seat]:.1%}",
                      f"{summary['wins'][seat]:,}", f"{summary['sole_wins'][seat]:,}",
                      f"{summary['mean_score'][seat]:.2f}")
    return table


def bot_table(summary: dict[str, Any]) -> Table:
    table = Table(title="per bot", box=box.SIMPLE_HEAVY)
    for column in ("bot", "seats", "win rate", "mean score"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for bot, row in summary["by_bot"].items():
        table.add_row(bot, " ".join(map(str, row["seats"])), f"{row['win_rate']:.1%}",
                      f"{row['mean_score']:.2f}")
    return table


# ------------------------------------------------------------------ rules, games, bench
def _page(text: str, console: Console, raw: bool) -> None:
    """Markdown to stdout: as it is when piped (or ``raw``), else rendered and, when longer
    than the screen, through a pager ($PAGER, else pydoc's choice)."""
    if raw or not console.is_terminal:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    with console.capture() as capture:
        console.print(Markdown(text))
    rendered = capture.get()
    if rendered.count("\n") < console.size.height - 1:
        sys.stdout.write(rendered)
        return
    import pydoc
    pydoc.pager(rendered)         # $PAGER (or $MANPAGER) when set, else less/more


def cmd_rules(args: argparse.Namespace, console: Console) -> int:
    if args.spec:
        text = game_class(args.game).rulebook_text()
    else:
        text = howto_text(args.game, args.lang)
    _page(text, console, args.raw)
    return 0


def cmd_schema(args: argparse.Namespace, console: Console) -> int:
    from cardcore.schemas import schema
    sys.stdout.write(json.dumps(schema(args.game, args.kind), indent=2) + "\n")
    return 0


# What None, True and False mean, as a player reads an option's value ("by lot", "yes").
_NONE_MEANS = re.compile(r"None \(([^)]*)\)")
_LITERALS = {"True": N_("yes"), "False": N_("no"), "None": N_("none")}


def option_value_text(option: Any, value: Any) -> str:
    """An option's value in words: None as the option says it (``seat_or_lot``: "by lot"),
    True and False as yes and no, a word as the game's catalog has it (the lobby's too)."""
    if value is None:
        m = _NONE_MEANS.search(option.allowed_values())
        return _(m.group(1)) if m else _("none")
    if type(value) is int and "a seat" in option.allowed_values():
        return _("player {number}").format(number=value + 1)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str):
        return _(value)
    return str(value)


# The phrases of Option.allowed_values() (cardcore.game's option checks), for translation.
ALLOWED_PHRASES = (N_("by lot"), N_("a seat 0..players-1"),
                   N_("a multiple of players up to {high}"), N_("{value} ({players} players)"))


def allowed_text(option: Any) -> str:
    """An option's allowed values in words: ``None (by lot) | a seat 0..players-1`` reads
    "by lot | a seat 0..players-1", ``True | False`` "yes | no", ``'auto'`` "auto"."""
    parts = []
    for part in option.allowed_values().split(" | "):
        part = fill_template(part, ALLOWED_PHRASES)
        part = _NONE_MEANS.sub(lambda m: _(m.group(1)), part)
        part = re.sub(r"\b(True|False|None)\b", lambda m: _(_LITERALS[m.group(1)]), part)
        parts.append(re.sub(r"'([^']*)'", lambda m: _(m.group(1)), part))
    return " | ".join(parts)


def options_text(game: Game) -> str:
    """A game's options as the banner says them: "first player: by lot, teams: no"."""
    spec = type(game).options_spec
    return ", ".join(f"{_(key.replace('_', ' '))}: {option_value_text(spec[key], value)}"
                     for key, value in game.options.items() if key in spec)


def players_text(cls: type[Game]) -> str:
    """"6 players", "2-4 players"."""
    if cls.min_players == cls.max_players:
        return ngettext("{n} player", "{n} players", cls.min_players).format(n=cls.min_players)
    return _("{low}-{high} players").format(low=cls.min_players, high=cls.max_players)
def cmd_verify(args: argparse.Namespace, console: Console) -> int:
    """Exit 0: the record verifies; 1: it does not (the failed check is named); 2: the file
    cannot be read."""
    from cardcore.records import RecordError, verify
    try:
        data = sys.stdin.buffer.read() if args.record == "-" else Path(args.record).read_bytes()
    except OSError as e:
        raise ConfigError(f"cannot read {echo(args.record)}: {e.strerror}", "record") from None
    keys: list[str | None] = [args.key]
    if args.key_file is not None:
        from cardcore.server.record_keys import read_ring
        try:
            keys = [*read_ring(args.key_file), *([args.key] if args.key else [])]
        except OSError as e:
            raise ConfigError(f"cannot read {echo(args.key_file)}: {e.strerror}",
                              "key-file") from None
        if not keys:
            raise ConfigError(f"{echo(args.key_file)} holds no key", "key-file")
    try:
        report = verify(data, keys=[k for k in keys if k]) if args.key_file is not None \
            else verify(data, key=args.key)
    except RecordError as e:
        Console(stderr=True, soft_wrap=True).print(
            f"[bold red]cardcore verify: rejected[/] ({e.check}): {escape(str(e))}",
            highlight=False)
        return 1
    if args.json:
        sys.stdout.write(json.dumps(report) + "\n")
        return 0
    deal = "the deal came from the committed seeds" if report["committed"] else \
        "no commitment (the creator chose the seed)"
    signed = f"hmac checked with key {report['key_id']}" if report["keyed"] else \
        "no key: digests checked, not who wrote the record"
    console.print(f"verified: {report['game']} table {report['table']}, {report['moves']} "
                  f"legal moves, ended {report['ended']}, winners {report['winners']}; "
                  f"{deal}; {signed}", highlight=False, soft_wrap=True)
    return 0


def cmd_agent(args: argparse.Namespace, console: Console) -> int:
    from cardcore.agents.arena import command_agent
    from cardcore.agents.text import play_agent
    if not (math.isfinite(args.timeout) and args.timeout > 0):
        raise ConfigError(f"--timeout must be a positive number of seconds, not "
                          f"{echo(args.timeout)}", "timeout")
    options = _parse_options(args.option, args.game)
    report = play_agent(args.game, command_agent(args.command, args.timeout),
                        opponents=args.bots, games=args.games, seed=args.seed,
                        lang=args.lang, players=args.players, retries=args.retries, **options)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    table = Table(title=f"{report['game']}: the agent against {', '.join(report['opponents'])}, "
                        f"{report['games']} games, {report['players']} players, seed "
                        f"{report['seed']}", box=box.SIMPLE_HEAVY)
    for column in ("player", "rating [95%]", "win rate [95%]", "seat-games"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for row in report["standings"]:
        lo, hi = row["rating_ci"]
        wlo, whi = row["win_rate_ci"]
        table.add_row(row["bot"], f"{row['rating']:.0f} [{lo:.0f}, {hi:.0f}]",
                      f"{row['win_rate']:.1%} [{wlo:.1%}, {whi:.1%}]", str(row["seat_games"]))
    console.print(table)
    a = report["answers"]
    console.print(f"{a['decisions']} decisions asked ({a['forced']} forced moves not asked): "
                  f"{a['valid_first']} answered validly at once, {a['refused']} answers "
                  f"refused, {a['errors']} agent errors, {a['fallbacks']} random moves after "
                  f"{args.retries} retries",
                  highlight=False, soft_wrap=True)
    return 0


def _named(pair: str, flag: str) -> tuple[str, str]:
    name, sep, value = pair.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise ConfigError(f"{flag} takes NAME=VALUE, not {echo(pair)}", "agents")
    return name.strip(), value.strip()


def cmd_arena(args: argparse.Namespace, console: Console) -> int:
    """``cardcore arena``: a league of text agents against bots (cardcore.agents.arena)."""
    import importlib

    from cardcore.agents.arena import ArenaSettings, arena, command_agent
    settings = ArenaSettings(rethinks=args.rethinks, on_failure=args.on_failure,
                             timeout=args.timeout, lang=check_lang(args.lang), style=args.style)
    agents: dict[str, Any] = {}
    for pair in args.agent:
        name, command = _named(pair, "--agent")
        agents[name] = command_agent(command, settings.timeout, name)
    for pair in args.callable:
        name, target = _named(pair, "--callable")
        module, _sep, attr = target.partition(":")
        try:
            agents[name] = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError, ValueError) as e:
            raise ConfigError(f"--callable {echo(target)} does not import: {e}", "agents") \
                from None
    report = arena(args.game, agents, bots=args.bots, games=args.games, seed=args.seed,
                   players=args.players, settings=settings, out=args.out,
                   **_parse_options(args.option, args.game))
    if args.json:
        sys.stdout.write(json.dumps({k: v for k, v in report.items() if k != "episodes"},
                                    ensure_ascii=False) + "\n")
        return 0
    from cardcore.tournament import standings_table
    console.print(standings_table(report))
    for name, c in report["agents"].items():
        console.print(f"{name}: {c['decisions']} decisions ({c['forced']} forced not asked), "
                      f"{c['valid_first']} valid at once, {c['illegal']} illegal answers, "
                      f"{c['rethinks']} rethinks, {c['errors']} agent errors, {c['forfeits']} "
                      f"forfeits, {c['default_moves']} default moves", highlight=False,
                      soft_wrap=True)
    if args.out:
        console.print(f"ratings and transcripts: {args.out}", highlight=False)
    return 0


def _review_paths(paths: list[str]) -> list[str]:
    """The files of a review: each path, a directory as its ``*.json`` files, sorted."""
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, n) for n in os.listdir(path)
                            if n.endswith(".json"))
        else:
            files.append(path)
    return files


def cmd_review(args: argparse.Namespace, console: Console) -> int:
    from cardcore.review import (MAX_REVIEW_BYTES, batch_lines, load_for_review, review,
                                 review_batch, review_lines)
    lang = check_lang(args.lang)
    files = _review_paths(args.path)
    batch = args.batch or len(files) != 1 or os.path.isdir(args.path[0])

    def load(path: str) -> Any:
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_REVIEW_BYTES + 1)
        except OSError as e:
            raise ConfigError(f"cannot read {echo(path)}: {e.strerror or e}",
                              "review") from None
        return load_for_review(data)

    options: dict[str, Any] = {"level": args.level, "reference": args.reference,
                               "threshold": args.threshold, "seed": args.seed,
                               "iterations": args.iterations}
    # the review's own defaults (DEFAULT_SEARCHES, DEFAULT_TOP) unless given
    options.update({k: v for k, v in (("searches", args.searches), ("top", args.top))
                    if v is not None})
    if batch:
        result = review_batch(((path, load(path)) for path in files), args.seat, **options)
        lines = batch_lines(result, lang)
    else:
        if args.seat is None:
            raise ConfigError("give the seat to review: --seat S (a batch reviews every "
                              "seat without one)", "seat")
        result = review(load(files[0]), args.seat, **options)
        lines = review_lines(result, lang)
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    for line in lines:
        console.print(Text(line, style="bold red" if line.startswith("✗") else ""),
                      soft_wrap=True)
    return 0


def cmd_new_game(args: argparse.Namespace, console: Console) -> int:
    from cardcore.scaffold import new_game          # only this command needs it
    files = new_game(args.name, dest=args.dest, title=args.title, prefix=args.prefix,
                     title_ru=args.title_ru)
    for path in files:
        console.print(escape(str(path)), highlight=False)
    console.print(f"{len(files)} files written; next: python setup.py build_ext --inplace, "
                  f"python tests/playthroughs.py {args.name} (records its golden "
                  f"playthroughs), then pytest tests/games/{args.name} (docs/adding-a-game.md)",
                  highlight=False)
    return 0


def cmd_games(args: argparse.Namespace, console: Console) -> int:
    with use(check_lang(args.lang)):
        table = Table(box=box.SIMPLE_HEAVY, caption=_(
            "Give an option as -o name=value: -o rounds=8, -o refill=manual, -o first_player=0."))
        for column in (_("game"), _("players"), _("default"), _("options")):
            table.add_column(column)
        for name in available_games():
            cls = game_class(name)
            options = []
            with use(args.lang, cls):                  # the meanings: the game's words
                for key, option in cls.options_spec.items():
                    meaning = f"\n    {escape(_(option.doc))}" if option.doc else ""
                    options.append(escape(_("{name} (default: {default}; allowed: {allowed})")
                                          .format(name=key,
                                                  default=option_value_text(option,
                                                                            option.default),
                                                  allowed=allowed_text(option))) + meaning)
                title = _(cls.title)
            default = ngettext("{n} player", "{n} players", cls.default_players).format(
                n=cls.default_players)
            table.add_row(f"{name}\n{escape(title)}", players_text(cls), default,
                          "\n".join(options) or "—")
        console.print(table)
    return 0


def _bench_core(name: str, seconds: float, seed: int) -> tuple[float, float]:
    """Whole random games in the core for about ``seconds``: (actions/s, games/s)."""
    from cardcore.simulation import simulate

    games = actions = 0
    elapsed = 0.0
    batch = 1
    while elapsed < seconds:
        summary = simulate(name, batch, seed=seed + games)
        games += summary["games"]
        actions += summary["actions"]
        elapsed += summary["seconds"]
        batch *= 2
    return actions / elapsed, games / elapsed


def _bench_fast_path(name: str, seconds: float, seed: int) -> float:
    """Random games through the Python fast path for about ``seconds``: µs per action."""
    from cardcore._fast import Random

    below = Random(seed).below
    actions = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        game = new_game(name, seed=seed + games)
        ids_of, apply = game.legal_action_ids, game.apply
        ids = ids_of()
        while ids:                                 # empty exactly when the game is over
            apply(ids[below(len(ids))])
            actions += 1
            ids = ids_of()
        games += 1
    return (time.perf_counter() - started) / max(actions, 1) * 1e6


def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    if not (math.isfinite(args.seconds) and 0 < args.seconds <= MAX_BENCH_SECONDS):
        raise ConfigError(f"--seconds must be a number of seconds in (0, "
                          f"{MAX_BENCH_SECONDS:g}], not {echo(args.seconds)}", "seconds")
    names = [args.game] if args.game else list(available_games())
    for name in names:
        game_class(name)                           # unknown name: ConfigError before timing
    table = Table(title=f"cardcore bench: random playouts, one process, ~{args.seconds:g} s each",
                  caption="full side-by-side comparison: python benchmarks/compare.py",
                  box=box.SIMPLE_HEAVY)
    for column in ("game", "in the core: actions/s", "games/s", "Python fast path: µs/action"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for name in names:
        per_second, games_per_second = _bench_core(name, args.seconds, args.seed)
        per_action = _bench_fast_path(name, args.seconds, args.seed)
        table.add_row(name, f"{per_second:,.0f}", f"{games_per_second:,.1f}", f"{per_action:.2f}")
    console.print(table)
    return 0


# ------------------------------------------------------------------ serve
def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    try:
        from cardcore.server import serve
    except ImportError as e:
        from cardcore.extras import install_hint
        raise ConfigError(f"the server needs the server extra: {install_hint('server')} "
                          f"({e})", "serve") from None
    from cardcore.server.limits import Limits
    if args.bot_delay < 0 or args.drain < 0 or not 0 < args.port < 65536:
        raise ConfigError("--bot-delay and --drain must be >= 0, --port 1..65535", "serve")
    try:
        limits = Limits(**{name: getattr(args, name) for name in SERVE_LIMITS})
    except ValueError as e:
        raise ConfigError(f"--{str(e).replace('_', '-')}", "serve") from None
    from cardcore.server.storage import redact_url
    where = redact_url(args.db)                                                 # a password
    console.print(f"cardcore serve: http://{args.host}:{args.port}/ (tables in {where})",
                  highlight=False, soft_wrap=True, markup=False)
    serve(args.host, args.port, args.db, args.bot_delay, synchronous=args.synchronous,
          limits=limits, allow_origins=args.allow_origin, allow_hosts=args.allow_host,
          log_format=args.log_format, log_level=args.log_level,
          forwarded_allow_ips=args.forwarded_allow_ips, bots=args.bots or (),
          drain=args.drain, quiet_health_checks=args.quiet_health_checks or None)
    return 0


def _plain(number: float) -> str:
    """A default as people write it: 1048576, 0.2, 604800 (``:g`` gave 1.04858e+06)."""
    return str(int(number)) if float(number).is_integer() else repr(float(number))


# Every field of cardcore.server.limits.Limits is an option of `cardcore serve`.
SERVE_LIMITS = {
    "max_tables": (int, 1000, "open (unfinished) tables in total"),
    "max_tables_per_client": (int, 20, "open tables created by one client address"),
    "create_rate": (float, 0.2, "table creations per second per client address"),
    "create_burst": (int, 10, "bursts of table creations per address"),
    "max_spectators": (int, 64, "spectator sockets per table"),
    "max_seat_connections": (int, 4, "sockets per seat of a table"),
    "max_header_bytes": (int, 16384, "bytes of a request line and headers"),
    "max_body": (int, 16384, "bytes of an HTTP request body"),
    "max_message": (int, 16384, "bytes of a WebSocket message"),
    "message_rate": (float, 20.0, "WebSocket messages per second per socket (bursts of 2x)"),
    "max_outbox": (int, 256, "messages queued for a socket before it is dropped"),
    "max_outbox_bytes": (int, 1048576, "bytes waiting to be sent to a socket (queued, being "
                                       "sent or buffered) before it is dropped"),
    "send_timeout": (float, 30.0, "seconds a send may block before the socket is dropped"),
    "abandon_after": (float, 3600.0, "seconds without a person's move before a table ends "
                                     "as abandoned (all-bot tables: after creation)"),
    "retention": (float, 604800.0, "seconds an ended table is kept before it is deleted"),
    "stall_after": (float, 120.0, "seconds a table whose seat to move is there (a bot, or a "
                                  "connected person) may not advance before the watchdog "
                                  "logs and counts it"),
    "bot_think_ms": (float, 200.0, "milliseconds a search bot (ismcts) thinks per move"),
    "bot_workers": (int, 2, "worker threads in which search bots think"),
    "bot_timeout": (float, 10.0, "seconds a plug-in bot may take for one move before its "
                                 "seat falls back to the greedy bot"),
    "hint_rate": (float, 0.5, "hints per second per seat (bursts of 2)"),
    "max_connections": (int, 4096, "open connections in all: past it, HTTP requests are "
                                   "answered 503 (uvicorn's limit_concurrency)"),
    "max_connections_per_address": (int, 256, "open connections (WebSockets included) from one "
                                             "peer address; proxies named by "
                                             "--forwarded-allow-ips are exempt"),
    "max_sockets_per_address": (int, 200, "open WebSockets from one client address, over all "
                                         "tables"),
    "max_spectators_per_address": (int, 8, "spectator sockets per table from one client "
                                           "address"),
    "head_timeout": (float, 10.0, "seconds a connection has to send a whole request head "
                                  "(slow senders are closed)"),
    "auth_timeout": (float, 10.0, "seconds in which a socket opened without a token may send "
                                  "its auth message"),
    "guess_rate": (float, 0.2, "wrong tokens and invites per second per address before 429"),
    "guess_burst": (int, 20, "bursts of wrong tokens and invites per address"),
}


# ------------------------------------------------------------------ entry point
def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cardcore", description="cardcore card-game engines: "
                     "play against bots, simulate, read the rules.")
    parser.add_argument("--version", action="version", version=f"cardcore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def game_command(name: str, help_text: str,
                     game_required: bool = True) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        if game_required:
            p.add_argument("game", help="game name (see `cardcore games`)")
        return p

    def option_flags(p: argparse.ArgumentParser) -> None:
        p.add_argument("--players", type=int, default=None, help="number of players")
        p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a game option, e.g. -o rounds=8 (repeatable)")

    def lang_flag(p: argparse.ArgumentParser) -> None:
        p.add_argument("--lang", default="en", metavar="LANG",
                       help=f"language of the text: {', '.join(LANGUAGES)} (default en)")

    def executor_flags(p: argparse.ArgumentParser) -> None:
        where = p.add_mutually_exclusive_group()
        where.add_argument("--workers", type=int, default=1,
                           help="local processes (0 = one per CPU; default 1)")
        where.add_argument("--dask", metavar="ADDRESS", default=None,
                           help="run on the Dask cluster whose scheduler is at ADDRESS "
                                "(needs the dask extra)")
        where.add_argument("--ray", metavar="ADDRESS", default=None,
                           help="run on the Ray cluster at ADDRESS, or 'auto' for the one "
                                "`ray start` began here (needs the ray extra)")
        p.add_argument("--chunk-size", type=int, default=None, metavar="GAMES",
                       help="games per task sent to a worker (default: from the run's size)")

    p = game_command("play", "play a game in the terminal against bots")
    option_flags(p)
    p.add_argument("--seat", type=int, default=None,
                   help="your seat (default 0, or the seat a loaded game was played from)")
    p.add_argument("--seed", type=int, default=None, help="seed (default: fresh)")
    p.add_argument("--save", metavar="FILE", default=None,
                   help="save the game to FILE at each of your turns and when you leave")
    p.add_argument("--load", metavar="FILE", default=None,
                   help="resume a game saved with --save, against the same bots (and keep "
                        "saving to FILE)")
    p.add_argument("--bots", default=None,
                   help="the opponents' bots, given to the other seats in order and repeated "
                        f"(default greedy); names: {BOT_NAMES}")
    p.add_argument("--level", type=int, default=None,
                   help="opponents of difficulty 1 (beginner) to 5 (strongest), instead of "
                        "--bots")
    p.add_argument("--forced-moves", action=argparse.BooleanOptionalAction, default=True,
                   help="offer a lone move that plays no card (a pass, a take, a draw) as a "
                        "prompt that Enter answers (default); --no-forced-moves: a turn like "
                        "any other")
    lang_flag(p)
    p.set_defaults(func=cmd_play)

    p = game_command("simulate", "play many seeded games between bots and summarise them")
    option_flags(p)
    p.add_argument("-n", "--games", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument("--bots", default="random",
                   help="bots per seat, repeated round the table (default random); "
                        f"names: {BOT_NAMES}")
    p.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    executor_flags(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON only")
    cli_record.records_flag(p)
    p.set_defaults(func=cmd_simulate)

    p = game_command("tournament", "a round-robin tournament between bots: every bot in every "
                     "seat equally; win rates, ratings, a table and plots")
    option_flags(p)
    p.add_argument("-n", "--games", type=int, default=1000,
                   help="games at least (rounded up to fill every seating equally; default 1000)")
    p.add_argument("--bots", required=True,
                   help="two or more bots, comma-separated, each name[:key=value,...], e.g. "
                        f"greedy,random,random:seed=3; names: {BOT_NAMES}")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    executor_flags(p)
    p.add_argument("--json", action="store_true", help="print the result as JSON only")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write tournament.png, tournament.svg and tournament.json to DIR "
                        "(plots need matplotlib: the plot extra)")
    cli_record.records_flag(p)
    p.set_defaults(func=cmd_tournament)

    p = game_command("rules", "how to play a game (--spec: its full rulebook, the "
                     "specification); paged in a terminal")
    p.add_argument("--spec", action="store_true",
                   help="the specification: every rule with its ID, decisions and tests")
    p.add_argument("--raw", action="store_true", help="print the Markdown source")
    lang_flag(p)
    p.set_defaults(func=cmd_rules)

    p = game_command("schema", "print the JSON Schema of a game's view, action, event, save "
                     "or match record")
    p.add_argument("kind", choices=("view", "action", "event", "save", "record"))
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("verify", help="check a match record of `cardcore serve`: the "
                       "commitment, the deal, every move, the end, the signature",
                       description="Check a match record (docs/server.md, \"Records\"). Exit "
                       "0: verified; 1: rejected (the failed check is named); 2: unreadable.")
    p.add_argument("record", help="the record's JSON file (GET /api/tables/ID/record), or -")
    p.add_argument("--key", default=None,
                   help="the server's record key: also check the record's HMAC")
    p.add_argument("--key-file", default=None, metavar="RING",
                   help="a key ring (CARDCORE_RECORD_KEY_FILE, `cardcore admin rotate-key`): "
                        "the record must be signed by one of its keys")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("review", help="review a seat's moves in saved games or match "
                       "records: each decision against the best move a search finds",
                       description="Review a seat's decisions (docs/bots.md, \"Game review\"): "
                       "each move's estimated share against the best move's, from the "
                       "seat's information only, by the reference's searches; a mistake "
                       "loses more than --threshold with 95%% confidence. Several files (or "
                       "a directory, or --batch): mistakes per decision over all of them, "
                       "with its interval.")
    p.add_argument("path", nargs="+", help="saves (cardcore play --save, Game.to_json), "
                   "server records (GET /api/tables/ID/record) or cardcore-record files "
                   "(cardcore record export); a directory: its *.json files")
    p.add_argument("--seat", type=int, default=None,
                   help="the seat to review (required for one file; a batch without it "
                        "reviews every seat)")
    p.add_argument("--reference", default=None, metavar="SPEC",
                   help="the reference search: an ismcts spec (ismcts:iterations=4000,"
                        "rollout=greedy) or level:N (default: level 5's search, "
                        "without its time cap)")
    p.add_argument("--level", type=int, default=None,
                   help="review with this level's search instead (levels without one: "
                        "level 5's)")
    p.add_argument("--searches", type=int, default=None,
                   help="seeded searches per decision, 2..10: their spread is the interval "
                        "(default 5)")
    p.add_argument("--top", type=int, default=None,
                   help="candidates listed per decision (default 3)")
    p.add_argument("--iterations", type=int, default=None,
                   help="search iterations per search (default: the reference's)")
    p.add_argument("--threshold", type=float, default=0.10,
                   help="a mistake loses more than this share, with 95%% confidence "
                        "(default 0.10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the searches (default 0)")
    p.add_argument("--batch", action="store_true",
                   help="the batch summary even for one file")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    lang_flag(p)
    p.set_defaults(func=cmd_review)

    p = game_command("agent", "rate a language-model agent (any command that reads a prompt "
                     "on stdin and answers on stdout) against bots")
    option_flags(p)
    p.add_argument("--command", required=True, metavar="CMD",
                   help="the agent: a shell command run once per question, the prompt on "
                        "its stdin, its stdout the answer (e.g. \"llm -m MODEL\")")
    p.add_argument("--bots", default="greedy",
                   help=f"the opponents, given to the other seats in order (default greedy); "
                        f"names: {BOT_NAMES}")
    p.add_argument("-n", "--games", type=int, default=10, help="games (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    p.add_argument("--retries", type=int, default=2,
                   help="refused answers sent back per decision (default 2)")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds an answer may take (default 120)")
    p.add_argument("--json", action="store_true", help="print the report as JSON only")
    lang_flag(p)
    p.set_defaults(func=cmd_agent)

    p = game_command("arena", "a league of language-model agents (commands or Python "
                     "callables) against the bot ladder: ratings and transcripts "
                     "(docs/bots.md, \"The arena\")")
    option_flags(p)
    p.add_argument("--agent", action="append", default=[], metavar="NAME=CMD",
                   help="an agent: a shell command run per question, the prompt on stdin, "
                        "the answer on stdout (repeatable)")
    p.add_argument("--callable", action="append", default=[], metavar="NAME=MODULE:FUNC",
                   help="an agent: a Python function prompt -> answer (repeatable)")
    p.add_argument("--bots", default="level:1,level:2,level:3,level:4,level:5",
                   help="the opponents (default the ladder, level:1 .. level:5)")
    p.add_argument("-n", "--games", type=int, default=10, help="games (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    p.add_argument("--rethinks", type=int, default=2,
                   help="refused answers sent back per decision (default 2)")
    p.add_argument("--on-failure", choices=("forfeit", "default"), default="forfeit",
                   help="when the rethinks run out: forfeit the game or play a seeded random "
                        "move (default forfeit)")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds an answer may take (default 120)")
    p.add_argument("--style", choices=("text", "json"), default="text",
                   help="the prompt: text, or the observation as JSON (default text)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="write ratings.json and a transcript per game (JSON Lines) here")
    p.add_argument("--json", action="store_true", help="print the result as JSON only")
    lang_flag(p)
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("games", help="list the games and their options")
    lang_flag(p)
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("bench", help="quick speed check of random playouts")
    p.add_argument("game", nargs="?", default=None, help="one game (default: all)")
    p.add_argument("--seconds", type=float, default=1.0,
                   help="time per measurement (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("new-game", help="write a new game's package, rulebook and tests from "
                       "the template (docs/adding-a-game.md)")
    p.add_argument("name", help="the package name, lower_snake_case")
    p.add_argument("--dest", default=".", help="the source tree's root (default: .)")
    p.add_argument("--title", default=None, help="the title players see")
    p.add_argument("--title-ru", default=None, help="the title in Russian (default: «Игра TITLE»)")
    p.add_argument("--prefix", default=None, help="the rule-ID prefix, two capital letters")
    p.set_defaults(func=cmd_new_game)

    cli_admin.add_parser(sub)
    cli_record.add_parser(sub)

    p = sub.add_parser("serve", help="run the table server and the web table (needs the "
                       "server extra)", description="Run the table server (docs/server.md).")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="cardcore-tables.sqlite3",
                   help="SQLite file of the tables, or a postgresql:// URL (several "
                        "server processes on one database); they resume after a restart "
                        "(default ./cardcore-tables.sqlite3)")
    p.add_argument("--bot-delay", type=float, default=0.4,
                   help="seconds between bot moves (default 0.4)")
    for name, (kind, default, text) in SERVE_LIMITS.items():
        p.add_argument("--" + name.replace("_", "-"), type=kind, default=default,
                       help=f"{text} (default {_plain(default)})")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="an origin allowed besides the server's own and loopback (repeat; "
                        "'*': any)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a Host name served besides IP addresses and localhost (repeat; "
                        "'*': any)")
    p.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                   help="proxies whose X-Forwarded-For gives the client address "
                        "(default: none, the peer address counts)")
    p.add_argument("--log-format", choices=("text", "json"), default="text",
                   help="log lines as text or JSON lines (default text)")
    p.add_argument("--log-level", choices=("debug", "info", "warning", "error"),
                   default="info", help="(default info)")
    p.add_argument("--quiet-health-checks", action="store_true",
                   help="leave /livez, /readyz and /healthz out of the access log (also "
                        "CARDCORE_QUIET_HEALTH_CHECKS=1)")
    p.add_argument("--bots", default=None, metavar="SPECS",
                   help="plug-in bots the tables offer besides the built-in ones, "
                        "comma-separated specs, e.g. mypolicy:path=model.npz (the lobby "
                        "lists them for every game they play)")
    p.add_argument("--synchronous", choices=("full", "normal"), default="full",
                   help="SQLite durability: full survives a power cut, normal a killed "
                        "process (default full)")
    p.add_argument("--drain", type=float, default=0.0, metavar="SECONDS",
                   help="on SIGTERM, answer /readyz with 503 for this long (the proxy stops "
                        "sending) before shutting down; sockets then close with 1012 "
                        "(default 0: at once)")
    p.set_defaults(func=cmd_serve)
    return parser


def _tolerate_narrow_encodings() -> None:
    """Cards, arrows and rules text are not all in cp1252 (a Windows pipe): print '?' there
    rather than fail."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding not in ("utf8", "utf16", "utf32") and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad usage or configuration)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _tolerate_narrow_encodings()
    console = Console()
    errors = Console(stderr=True, soft_wrap=True)          # one line per message: greppable
    try:
        return int(args.func(args, console))
    except ConfigError as e:
        text = str(e)
        lang = getattr(args, "lang", None)
        if lang in LANGUAGES:                   # a command with --lang: its refusals too
            with use(lang):
                text = config_text(e)
        errors.print(f"[bold red]cardcore {args.command}:[/] {escape(text)}", highlight=False)
        return 2
    except KeyboardInterrupt:
        errors.print("\ninterrupted")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
