"""The game contract: everything a game must provide, declared once and checked in one place.

``cardcore.registry`` checks every game here when it registers it (a package under
``cardcore.games`` or ``register(cls)``): a missing piece is a ``GameContractError`` naming
the piece and the section of docs/adding-a-game.md that says how to provide it. What can only
be seen by playing (every rule ID tested, the match end moving ``round_index``, the greedy
bot playing only what its seat may know ...) is the generic test suites' part; the checklist in
docs/adding-a-game.md names, for each item, this check or the test that enforces it.
"""
from __future__ import annotations

import importlib
import re
import sys
from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Mapping, Sequence

from cardcore._fast import GameState
from cardcore.cards import card_id
from cardcore.errors import echo
from cardcore.game import Game, ShortMatch
from cardcore.i18n import DEFAULT_LANG, LANGUAGES

__all__ = ["GameContractError", "Requirement", "REQUIREMENTS", "MIN_RULE_IDS", "DOC",
           "check_game", "problems", "rule_ids", "state_class", "words_of"]

DOC = "docs/adding-a-game.md"
MIN_RULE_IDS = 21            # a rulebook states at least this many rule IDs (tests name each)
RULE_PREFIX = re.compile(r"[A-Z]{2,3}")
# The figures a game may give a speed target for (Game.benchmark_targets).
BENCHMARK_FIGURES = ("vector_steps_per_s", "bots_ratio_0_2", "bots_goal_factor")
STATE_SUFFIX = "State"       # the kernel's state class: <Game>State (the stubtest allowlist)
# The words module's optional attributes (read with getattr by the terminal, the text agents
# and the refusals' translation): name -> (what it must be, the check).
WORDS_OPTIONAL: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "NOTATION": ("a sequence of (notation, meaning) string pairs",
                 lambda v: isinstance(v, (tuple, list)) and all(
                     isinstance(p, (tuple, list)) and len(p) == 2
                     and all(isinstance(x, str) for x in p) for p in v)),
    "REFUSALS": ("a sequence of refusal templates (strings)",
                 lambda v: isinstance(v, (tuple, list)) and all(isinstance(x, str) for x in v)),
    "move_note": ("a function (action) -> str | None", callable),
    "explain_notation": ("a function (words, hand) -> (message, rule) | None", callable),
    "count_words": ("a function (what, count) -> str", callable),
    "move_words": ("a function (notation) -> str | None", callable),
}


class GameContractError(ImportError):
    """A game lacks a piece of the contract: the message names it and the doc section."""


@dataclass(frozen=True)
class Requirement:
    """One item of the contract: what it is, the section of docs/adding-a-game.md, and the
    check (the problem in words, or None)."""

    key: str
    what: str
    section: str
    check: Callable[[type[Game]], "str | None"]


def _package(cls: type[Game]) -> str:
    """The game's package: its class's module, or for a class made from a game (a subclass
    defined elsewhere), the nearest base's package holding the game's files."""
    for klass in cls.__mro__:
        if klass is Game:
            break
        module = sys.modules.get(klass.__module__)
        if module is not None and hasattr(module, "__path__"):
            return klass.__module__
    return cls.__module__


def state_class(cls: type[Game]) -> type[GameState] | None:
    """The kernel's state class of the game (``<package>._state.<Name>State``), or None."""
    try:
        module = importlib.import_module(_package(cls) + "._state")
    except ImportError:
        return None
    found = [v for v in vars(module).values() if isinstance(v, type)
             and issubclass(v, GameState) and v is not GameState
             and v.__module__ == module.__name__]
    return found[0] if len(found) == 1 else None


def words_of(cls: type[Game]) -> Any:
    """The game's words module (``<package>.words``), or None."""
    try:
        return importlib.import_module(_package(cls) + ".words")
    except ImportError:
        return None


def rule_ids(cls: type[Game]) -> list[str]:
    """The rule IDs the game's rulebook states (``<PREFIX>-n`` or ``<PREFIX>-n.m``)."""
    return sorted(set(re.findall(rf"\b{cls.rule_prefix}-\d+(?:\.\d+)?\b", cls.rulebook_text())))


def _sample(cls: type[Game]) -> Game:
    short = cls.short_match
    return cls(players=short.players, seed=0, **dict(short.options))


def _declarations(cls: type[Game]) -> str | None:
    found = []
    if not RULE_PREFIX.fullmatch(str(getattr(cls, "rule_prefix", ""))):
        found.append(f"rule_prefix {getattr(cls, 'rule_prefix', None)!r} is not 2-3 capitals")
    if not 1 <= cls.min_players <= cls.default_players <= cls.max_players:
        found.append("min_players <= default_players <= max_players does not hold")
    short = cls.short_match
    if not isinstance(short, ShortMatch) or not cls.min_players <= short.players <= cls.max_players:
        found.append("short_match is not a ShortMatch within the player counts")
    if cls.greedy is None:
        found.append("greedy (the documented heuristic, greedy.py) is not set")
    targets = cls.benchmark_targets
    if not isinstance(targets, Mapping) or not all(
            isinstance(k, str) and k in BENCHMARK_FIGURES and isinstance(v, (int, float)) and v > 0
            for k, v in targets.items()):
        found.append(f"benchmark_targets is not a mapping of {'/'.join(BENCHMARK_FIGURES)} "
                     "to positive numbers")
    wild = _unknown_wild(cls)
    if wild:
        found.append(f"wild names {wild}, not cards of the short match's deck")
    return ", ".join(found) or None


def _unknown_wild(cls: type[Game]) -> str | None:
    """``wild``'s entries that are not a tuple of card notations in the game's deck (the
    short match's), echoed; None when they all are (a table marks those cards)."""
    wild = cls.wild
    if not isinstance(wild, tuple):
        return echo(wild)
    deck: set[int] | None
    try:
        game = _sample(cls)
        deck = set(game.deck_for(game.num_players, game.options))
    except Exception:                           # noqa: BLE001 - _kernel reports it
        deck = None
    bad = []
    for card in wild:
        try:
            known = card_id(card)
        except ValueError:
            known = None
        if known is None or (deck is not None and known not in deck):
            bad.append(card)
    return echo(bad) if bad else None


def _state(cls: type[Game]) -> str | None:
    state = state_class(cls)
    if state is None:
        return f"{_package(cls)}._state defines no single GameState subclass"
    if not state.__name__.endswith(STATE_SUFFIX):
        return f"the state class {state.__name__} does not end in {STATE_SUFFIX!r}"
    return None


def _kernel(cls: type[Game]) -> str | None:
    try:
        game = _sample(cls)
    except Exception as e:                      # noqa: BLE001 - any failure is the report
        return f"the short match cannot start: {type(e).__name__}: {str(e)[:120]}"
    if not game.state.has_greedy:
        return "the kernel has no in-core greedy policy (GameHooks.greedy is NULL)"
    return None


def _zones(cls: type[Game]) -> str | None:
    try:
        game = _sample(cls)
    except Exception:                           # noqa: BLE001 - reported by _kernel
        return None
    players = game.num_players
    sides = list(cls.sides_of(players, game.options))
    if len(sides) != players or not all(isinstance(s, int) and 0 <= s < players for s in sides):
        return f"sides_of gives {sides!r}: one side in 0..{players - 1} per seat"
    kinds = {name for name, *_ in game.state.zones()} - set(cls.split_zones)
    kinds |= set(cls.split_zones.values())
    missing = sorted(kinds - set(cls.zone_labels))
    if missing:
        return f"zone_labels has no label for {', '.join(missing)}"
    for name, scope, instances, _sight in game.state.zones():
        if scope == "team" and instances != len(set(sides)):
            return f"team zone {name!r} has {instances} instances for {len(set(sides))} sides"
    return None


def _rulebook(cls: type[Game]) -> str | None:
    try:
        ids = rule_ids(cls)
    except Exception as e:                      # noqa: BLE001 - a missing rulebook
        return str(e)[:160]
    if len(ids) < MIN_RULE_IDS:
        return f"the rulebook states {len(ids)} rule IDs, fewer than {MIN_RULE_IDS}"
    return None


def _words(cls: type[Game]) -> str | None:
    words = words_of(cls)
    if words is None:
        return f"{_package(cls)}.words is missing"
    if not isinstance(getattr(words, "PHRASES", None), Mapping):
        return "words.PHRASES (the phrases of the game's own event kinds) is missing"
    for name, (what, ok) in WORDS_OPTIONAL.items():
        if hasattr(words, name) and not ok(getattr(words, name)):
            return f"words.{name} must be {what}"
    return None


def _has(cls: type[Game], path: Sequence[str]) -> bool:
    node = resources.files(_package(cls))
    for part in path:
        node = node.joinpath(part)
    return node.is_file()


def _catalogs(cls: type[Game]) -> str | None:
    missing = [lang for lang in LANGUAGES if lang != DEFAULT_LANG and not any(
        _has(cls, ("locale", lang, "LC_MESSAGES", f"messages.{ext}")) for ext in ("po", "mo"))]
    return f"no message catalog for {', '.join(missing)}" if missing else None


def _howto(cls: type[Game]) -> str | None:
    missing = [lang for lang in LANGUAGES if not _has(cls, (f"howto.{lang}.md",))]
    return f"no how-to page for {', '.join(missing)}" if missing else None


REQUIREMENTS: tuple[Requirement, ...] = (
    Requirement("declarations", "the Game subclass's declarations", "the-game-class",
                _declarations),
    Requirement("state", "the kernel's state class", "the-kernel", _state),
    Requirement("kernel", "the kernel's hooks, the in-core greedy policy among them",
                "the-kernel", _kernel),
    Requirement("zones", "the zones and sides", "zones-and-sides", _zones),
    Requirement("rulebook", "the rulebook and its rule IDs", "the-rulebook", _rulebook),
    Requirement("words", "the words module", "words", _words),
    Requirement("catalogs", "the message catalogs of every language", "catalogs-and-how-to-pages",
                _catalogs),
    Requirement("howto", "the how-to pages of every language", "catalogs-and-how-to-pages",
                _howto),
)


def problems(cls: type[Game]) -> list[str]:
    """Every missing piece of ``cls``'s contract, in words with its doc section; [] if none."""
    found = []
    for req in REQUIREMENTS:
        problem = req.check(cls)
        if problem:
            found.append(f"{req.what}: {problem} ({DOC}#{req.section})")
    return found


def check_game(cls: type[Game]) -> None:
    """GameContractError naming every missing piece of the game's contract."""
    found = problems(cls)
    if found:
        raise GameContractError(f"game {getattr(cls, 'name', cls.__qualname__)!r} breaks the "
                                "game contract: " + "; ".join(found))
