"""MkDocs hooks: pages generated from the repository's single sources.

* ``rules/<game>.md`` for every game of the registry, from its rulebook ``games/<game>.md``
  (the rulebooks stay where they are): every rule ID gets an anchor (``rules/<game>.md#xx-4.3``)
  and every action notation with cards is followed by the cards in suit symbols (``play 7H 7S``
  → 7♥ 7♠); then an "Interface" section generated from the game's declarations (options, view
  keys, action kinds, automatic event kinds, breakdown rows, observation pieces). The
  navigation's "Rulebooks" section and the reference pages of the games and their states are
  generated from the registry too: a new game needs no edit here.
* ``play/<game>.md`` and ``play/<game>.ru.md``: each game's how-to-play page in English and
  Russian, from the ``howto.<lang>.md`` files of its package (what ``cardcore rules GAME``
  prints), in the "How to play" section.
* ``bots.md``: its ladders' marker replaced by every game's calibrated table, its package's
  ``levels.md`` (benchmarks/calibrate_levels.py writes them), in the registry's order;
  ``index.md``: its marker replaced by the README's table of games, linked to the rulebooks;
  ``api.md``: its marker replaced by each game's zones, read from a new game of each.
* ``benchmarks.md`` from ``benchmarks/README.md``, with ``assets/benchmarks.svg``: a chart
  drawn with matplotlib from the figures table of that README (``benchmark_chart.py``).
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchmark_chart  # noqa: E402  (beside this file, found through the path above)
from screenshots import table_pictures  # noqa: E402
from registry_tables import (  # noqa: E402
    GAMES_TABLE, ZONES_TABLE, games_table, registered_games as _games, zones_table,
)

SUITS = {"C": "♣", "S": "♠", "D": "♦", "H": "♥"}
CARD = re.compile(r"\b(10|[2-9AJQKT])([CSDH])\b|\bJK\b")
SUITED = re.compile(r"\b(10|[2-9AJQKT])[CSDH]\b")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
RULE_ITEM = re.compile(r"^(\s*- )\*\*([A-Z]{2}-\d+(?:\.\d+)?)\*\*", re.MULTILINE)


def card_glyphs(notation: str) -> str:
    """``play 5H JK=4H`` → the card tokens in suit symbols, red suits marked: 5♥ JK=4♥."""
    out = []
    for token in notation.split()[1:]:
        if not CARD.search(token):
            continue

        def glyph(m: re.Match[str]) -> str:
            if m.group(0) == "JK":
                return '<span class="card-joker">JK</span>'
            rank = "10" if m.group(1) == "T" else m.group(1)
            suit = m.group(2)
            colour = "card-red" if suit in "DH" else "card-black"
            return f'{rank}<span class="{colour}">{SUITS[suit]}</span>'

        out.append(CARD.sub(glyph, html.escape(token)))
    return " ".join(out)


def render_rulebook(text: str) -> str:
    """The rulebook as a docs page: rule anchors and card symbols; the wording is untouched."""
    text = RULE_ITEM.sub(
        lambda m: f'{m.group(1)}<a id="{m.group(2).lower()}"></a>**{m.group(2)}**', text)

    def with_glyphs(m: re.Match[str]) -> str:
        code = m.group(1)
        words = code.split()
        # Action notations naming a suited card (a verb, then cards): `play 7H 7S`.
        if len(words) < 2 or not SUITED.search(" ".join(words[1:])):
            return m.group(0)
        return f'{m.group(0)} <span class="cards">{card_glyphs(code)}</span>'

    return CODE_SPAN.sub(with_glyphs, text)




def interface(cls: type) -> str:
    """The game's interface, from its declarations: what a program meets."""
    game = cls(seed=0)
    lines = ["", "## Interface (generated from the game)", ""]
    lines += [f"`cardcore.new_game(\"{cls.name}\", players=...)`: {cls.min_players}–"
              f"{cls.max_players} players (default {cls.default_players}); scores: "
              f"{cls.score_direction}; a round is a *{cls.round_name}* "
              f"(its end: the `{cls.round_end_event}` event).", ""]
    lines += ["| option | default | allowed | what |", "|---|---|---|---|"]
    lines += [f"| `{k}` | `{o.default!r}` | {o.allowed_values().replace('|', '&#124;')} | {o.doc} |"
              for k, o in cls.options_spec.items()]
    view = cls.schema_parts.view({"type": "integer"}, cls.max_players)
    lines += ["", "View keys beyond the common ones: " + ", ".join(f"`{k}`" for k in view) + "."]
    kinds = sorted({s.kind for s in game._specs})
    parts = cls.schema_parts

    def fields(kind: Any) -> str:       # a Kind's fields: required, then (optional)
        names = [f"`{f}`" for f in kind.fields] + [f"(`{f}`)" for f in kind.optional]
        return ", ".join(names) or "—"

    lines += ["", f"Action kinds ({game.num_distinct_actions} ids with the default options; "
              "their fields beyond `id`, `player`, `kind`, `cards`, `label`, optional ones in "
              "brackets):", "", "| action | fields | what |", "|---|---|---|"]
    lines += [f"| `{k}` | {fields(parts.action_kinds[k])} | {parts.action_kinds[k].doc} |"
              for k in kinds]
    lines += ["", "| automatic event | fields | what |", "|---|---|---|"]
    lines += [f"| `{k}` | {fields(parts.event_kinds[k])} | {doc} |"
              for k, doc in cls.narrator.kinds.items()]
    lines += ["", "The exact shapes, with every field described: `cardcore schema "
              f"{cls.name} view|action|event` (api.md, \"JSON Schemas\")."]
    state = game._state
    lines += ["", f"Breakdown rows (by {cls.narrator.breakdown_by}): " + "; ".join(
        state.breakdown_what) + " (rules " + ", ".join(state.breakdown_rules) + ")."]
    lines += ["", "| zone | scope | who sees its cards |", "|---|---|---|"]
    lines += [f"| `{name}` | {scope} ({n}) | {sight} |" for name, scope, n, sight in state.zones()]
    ids = ", ".join(f"`{z['id']}`" for z in game.zones_of(game.num_players, **game.options))
    made = ", ".join(f"`{part}:T:N` (from `{name}`)" for name, part in cls.split_zones.items())
    lines += ["", f"Zone ids (`zones_of`, default options): {ids}" +
              (f"; made in play: {made}" if made else "") + "."]
    lines += ["", "Observation pieces (default options): " + ", ".join(
        f"`{name}` {size}" for name, _, size in game.observation_pieces) +
        f"; {game.observation_shape[0]} floats."]
    lines += ["", "Information-state tensor (default options; api.md, \"Information states\"): "
              + ", ".join(f"`{name}` {size}" for name, _, size in game.information_state_pieces)
              + f"; {game.information_state_shape[0]} floats. Its history codes the kinds, "
              "from 1: " + ", ".join(f"`{k}`" for k in game.information_state_kinds) + "."]
    return "\n".join(lines) + "\n"


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """The "Rulebooks" section of the navigation: one page per game, in the registry's order."""
    books = [{cls.title: f"rules/{cls.name}.md"} for cls in _games()]
    howtos = [{f"{cls.title} ({LANG_NAMES[lang]})": _howto_page(cls, lang)}
              for cls in _games() for lang in LANG_NAMES]
    for entry in config["nav"]:
        if isinstance(entry, dict) and "Rulebooks" in entry:
            entry["Rulebooks"] = books
        if isinstance(entry, dict) and "How to play" in entry:
            entry["How to play"] = howtos
    return config


LANG_NAMES = {"en": "English", "ru": "русский"}


def _howto_page(cls: type, lang: str) -> str:
    return f"play/{cls.name}.md" if lang == "en" else f"play/{cls.name}.{lang}.md"


def howto_source(cls: type, lang: str) -> str:
    """The game's how-to-play page in ``lang`` (its package's ``howto.<lang>.md``)."""
    from importlib import resources
    return resources.files(cls.__module__).joinpath(f"howto.{lang}.md").read_text(
        encoding="utf-8")


LADDERS = "<!-- levels: each game's ladder"


def ladders() -> str:
    """Every game's calibrated ladder, from its package's ``levels.md``."""
    from importlib import resources
    return "\n".join(
        f"### {cls.title}\n\n" + resources.files(cls.__module__).joinpath("levels.md")
        .read_text(encoding="utf-8").split("-->", 1)[1].strip() + "\n" for cls in _games())


GENERATED = {LADDERS: ladders, GAMES_TABLE: games_table, ZONES_TABLE: zones_table}


def on_page_markdown(markdown: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    """A marker line (``GENERATED``) becomes what the registry says: the games' ladders
    (bots.md), the table of games (index.md), the games' zones (api.md)."""
    lines = markdown.split("\n")
    for marker, make in GENERATED.items():
        lines = [make() if line.startswith(marker) else line for line in lines]
    return "\n".join(lines)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    games = _games()
    for cls in games:
        for lang in LANG_NAMES:
            others = " · ".join(f"[{LANG_NAMES[o]}]({Path(_howto_page(cls, o)).name})"
                                for o in LANG_NAMES if o != lang)
            content = (render_rulebook(howto_source(cls, lang)) + table_pictures(cls, lang)
                       + f"\n---\n\n{others} · "
                       f"[{'rulebook' if lang == 'en' else 'спецификация'}]"
                       f"(../rules/{cls.name}.md)\n")
            files.append(File.generated(config, _howto_page(cls, lang), content=content))
    for cls in games:
        content = render_rulebook(cls.rulebook_text()) + interface(cls)
        files.append(File.generated(config, f"rules/{cls.name}.md", content=content))
    files.append(File.generated(config, "reference/games.md", content="\n\n".join(
        ["# The games", "Each game is a package: a thin Python class over its Cython state "
         "machine; the rules are the rulebooks."]
        + ["::: cardcore.games"] + [f"::: {cls.__module__}" for cls in games]) + "\n"))
    files.append(File.generated(config, "reference/states.md", content="\n\n".join(
        ["# Game states (Cython)", "The state machines under the games, from their stubs. "
         "Applications use the [`Game`](game.md) protocol; these are for tools and tests."]
        + [f"::: {cls.__module__}._state" for cls in games]) + "\n"))

    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    figures = benchmark_chart.parse_figures(readme)
    svg = benchmark_chart.draw(figures)
    files.append(File.generated(config, "assets/benchmarks.svg", content=svg))
    files.append(File.generated(config, "benchmarks.md",
                                content=benchmark_chart.page(readme, "assets/benchmarks.svg")))
    return files
