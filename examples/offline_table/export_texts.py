"""Writes texts.json beside this script: the words the offline table shows, taken from
cardcore's gettext catalogs so that the page speaks the same English and Russian as the
terminal and the web table.

For every registered game and language: the game's title, its zone kinds' labels
(``zone_labels``), its action kinds' words (the ``actions`` of its ``web/board.js``) and its
refusal templates (``REFUSALS`` of its words module, in order: the engine's refusal reasons
index them), each translated by the game's catalog over the shared one. Per game also the data the page needs
to place zones without knowing the game: each zone kind's scope (``seat``, ``team``,
``pile`` or ``shared``, from the kernel's zone table), each action id's kind (from the
decode table) and the player counts. Then the
page's own few words, from the shared catalog.

    PYTHONPATH=src python examples/offline_table/export_texts.py           # writes texts.json
    PYTHONPATH=src python examples/offline_table/export_texts.py --check   # 1 if out of date
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import cardcore
from cardcore.i18n import LANGUAGES, messages, plural_messages
from cardcore.registry import available_games, game_class
from cardcore.texts import words_module

OUT = Path(__file__).resolve().with_name("texts.json")

# The page's words: key -> the shared catalog's msgid. Texts keep their {fields}.
PAGE = {
    "your_turn": "your turn",
    "turn_of": "It is {name}'s turn.",
    "over": "The match is over",
    "you": "You",
    "player": "player",                  # "Player {n}" is made of it (seats counted from 1)
    "team": "team {n}",
    "moves": "your moves",
    "log": "What happened",
    "ranking": "Final ranking",
    "score": "score",
    "winner": "winner",
    "game": "Game",
    "players": "Players",
    "seed": "Seed",
    "new_game": "New game",
    "bot": "{name} bot",
    "greedy": "greedy",
    "search": "search",
    "empty": "empty",
    "joker": "joker",
    "joker_as": "joker as {card}",
}
# Plural texts: key -> singular msgid (the English plural beside it).
PLURALS = {
    "cards": ("{count} card", "{count} cards"),
    "winners": ("Winner: {names}.", "Winners: {names}."),
}

ACTIONS = re.compile(r"\bactions\s*:\s*\{(?P<body>.*?)\}", re.DOTALL)
WORD = re.compile(r"(?P<kind>\w+)\s*:\s*N_\(\s*\"(?P<text>(?:[^\"\\]|\\.)*)\"\s*\)")


def action_words(cls: type) -> dict[str, str]:
    """The action kinds' msgids of a game's web/board.js (``actions: { kind: N_("Word") }``)."""
    package = cls.__module__
    try:
        source = resources.files(package).joinpath("web", "board.js").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    found = ACTIONS.search(source)
    if found is None:
        return {}
    return {m["kind"]: json.loads(f'"{m["text"]}"') for m in WORD.finditer(found["body"])}


def scopes(name: str) -> dict[str, str]:
    """Each zone kind's scope in the kernel's zone table: whose zone an id ``kind:i`` is. A
    kernel zone the Python game splits into parts (``split_zones``) is one zone in the
    engine's view: both names are given."""
    game = cardcore.new_game(name, seed=0)
    cls = type(game)
    out: dict[str, str] = {}
    for kernel_name, scope, _instances, _sight in game._state.zones():
        out[kernel_name] = scope
        if kernel_name in cls.split_zones:
            out[cls.split_zones[kernel_name]] = scope
    return out


def kind_runs(name: str, players: int) -> list[list[Any]]:
    """The action kinds by id (default options): ``[[first id, kind], ...]``, each kind's
    ids running up to the next first id. An action's notation need not begin with its kind
    ("take pair" is one way to take the pile), so the page looks kinds up by id."""
    game = cardcore.new_game(name, players=players, seed=0)
    runs: list[list[Any]] = []
    for i, spec in enumerate(type(game).action_specs(game.num_players, game.options)):
        if not runs or runs[-1][1] != spec.kind:
            runs.append([i, spec.kind])
    return runs


def kinds(cls: type, name: str) -> dict[str, Any]:
    """``kinds``: the runs of the default player count; ``kinds_by_players``: those of the
    counts whose runs differ from it."""
    common = kind_runs(name, cls.default_players)
    other = {str(n): runs for n in range(cls.min_players, cls.max_players + 1)
             if (runs := kind_runs(name, n)) != common}
    return {"kinds": common, "kinds_by_players": other}


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def translate(catalog: dict[str, str], msgid: str, what: str, lang: str) -> str:
    text = catalog.get(msgid)
    if text is None:
        if lang != "en":
            print(f"export_texts: no {lang} text for {what} {msgid!r}; English kept",
                  file=sys.stderr)
        return msgid
    return text


def page_words(lang: str) -> dict[str, Any]:
    catalog = messages(lang)
    words: dict[str, Any] = {key: translate(catalog, msgid, "page word", lang)
                             for key, msgid in PAGE.items()}
    words["player"] = capitalized(words["player"]) + " {n}"
    words["your_turn"] = capitalized(words["your_turn"])
    words["moves"] = capitalized(words["moves"])
    forms = plural_messages(lang)
    for key, (one, many) in PLURALS.items():
        words[key] = forms.get(one, [one, many])
        if lang != "en" and one not in forms:
            print(f"export_texts: no {lang} forms for {one!r}; English kept", file=sys.stderr)
    return words


def game_words(name: str, lang: str) -> dict[str, Any]:
    cls = game_class(name)
    catalog = messages(lang, cls)
    zones = {kind: translate(catalog, msgid, "zone label", lang)
             for kind, msgid in cls.zone_labels.items()}
    for kernel_name, part in cls.split_zones.items():      # one zone in the engine's view
        if part in zones:
            zones.setdefault(kernel_name, zones[part])
    return {
        "title": translate(catalog, cls.title, "title", lang),
        "zones": zones,
        "actions": {kind: translate(catalog, msgid, "action word", lang)
                    for kind, msgid in action_words(cls).items()},
        "refusals": [translate(catalog, msgid, "refusal", lang)
                     for msgid in getattr(words_module(cls), "REFUSALS", ())],
    }


def texts() -> dict[str, Any]:
    games: dict[str, Any] = {}
    for name in sorted(available_games()):
        cls = game_class(name)
        games[name] = {
            "players": {"min": cls.min_players, "max": cls.max_players,
                        "default": cls.default_players},
            "scopes": scopes(name),
            **kinds(cls, name),
            **{lang: game_words(name, lang) for lang in LANGUAGES},
        }
    return {"generated_by": "examples/offline_table/export_texts.py",
            "languages": list(LANGUAGES),
            "page": {lang: page_words(lang) for lang in LANGUAGES},
            "games": games}


def render() -> str:
    text = json.dumps(texts(), ensure_ascii=False, indent=1)
    # A run [id, kind] on one line: the file stays short enough to read.
    return re.sub(r"\[\n\s*(\d+),\n\s*(\"\w+\")\n\s*\]", r"[\1, \2]", text) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with texts.json instead of writing it (exit 1 if stale)")
    args = parser.parse_args()
    text = render()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT} is out of date: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
