"""MkDocs hooks: pages generated from the repository's single sources.

* ``rules/<game>.md`` from ``games/<game>.md`` (the rulebooks stay where they are): every rule ID
  gets an anchor (``rules/manna.md#mh-4.3``) and every action notation with cards is followed
  by the cards in suit symbols (``play 7H 7S`` → 7♥ 7♠).
* ``benchmarks.md`` from ``benchmarks/README.md``, with ``assets/benchmarks.svg``: a chart
  drawn with matplotlib from the figures table of that README (``benchmark_chart.py``).
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchmark_chart  # noqa: E402  (beside this file, found through the path above)

SUITS = {"C": "♣", "S": "♠", "D": "♦", "H": "♥"}
CARD = re.compile(r"\b(10|[2-9AJQKT])([CSDH])\b|\bJK\b")
SUITED = re.compile(r"\b(10|[2-9AJQKT])[CSDH]\b")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
RULE_ITEM = re.compile(r"^(\s*- )\*\*((?:KS|KZ|MH)-\d+(?:\.\d+)?)\*\*", re.MULTILINE)


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


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for book in sorted((ROOT / "games").glob("*.md")):
        content = render_rulebook(book.read_text(encoding="utf-8"))
        files.append(File.generated(config, f"rules/{book.name}", content=content))

    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    figures = benchmark_chart.parse_figures(readme)
    svg = benchmark_chart.draw(figures)
    files.append(File.generated(config, "assets/benchmarks.svg", content=svg))
    files.append(File.generated(config, "benchmarks.md",
                                content=benchmark_chart.page(readme, "assets/benchmarks.svg")))
    return files
