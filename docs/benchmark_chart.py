"""The benchmarks chart, drawn from the figures table of benchmarks/README.md (its single source).

Used by the docs hook at build time; also runs alone:
``python docs/benchmark_chart.py out.svg`` writes the chart from the repository's README.
"""
from __future__ import annotations

import io
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

TABLE_HEADING = "## Figures measured"
NUMBER = re.compile(r"([0-9][0-9,]*(?:\.[0-9]+)?)\s*(µs|×|M)")
TARGET = re.compile(r"([≤≥])\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(µs|×|M)")


@dataclass(frozen=True)
class Figure:
    label: str
    value: float
    unit: str                      # "µs", "×" or "M" (millions of actions per second)
    target: float | None = None
    at_least: bool = True          # the target is a lower bound (≥) or an upper bound (≤)

    @property
    def headroom(self) -> float:
        """How many times better than its target (1.0 = exactly on target)."""
        assert self.target is not None
        return self.value / self.target if self.at_least else self.target / self.value


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def table_rows(readme: str) -> list[list[str]]:
    """The cells of the figures table: the first table after TABLE_HEADING, header left out."""
    start = readme.index(TABLE_HEADING)
    rows: list[list[str]] = []
    for line in readme[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    return [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]


def parse_figures(readme: str) -> list[Figure]:
    """Every row whose measured cell starts with a number in µs, × or M actions/s."""
    figures = []
    for cells in table_rows(readme):
        label, measured, target = cells[0], cells[1], cells[2] if len(cells) > 2 else ""
        m = NUMBER.match(measured)
        if not m:
            continue
        value, unit = _number(m.group(1)), m.group(2)
        t = TARGET.match(target)
        if t and t.group(3) != unit:
            raise ValueError(f"benchmarks table: {label!r} measured in {unit}, target in "
                             f"{t.group(3)}")
        figures.append(Figure(label.replace("`", ""), value, unit,
                              _number(t.group(2)) if t else None, not t or t.group(1) == "≥"))
    if not any(f.target for f in figures):
        raise ValueError("benchmarks table: no figure with a target found")
    return figures


def draw(figures: list[Figure]) -> str:
    """Two panels, log scale: each target's headroom, and every measured speed-up (×)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "cardcore"          # the same SVG from the same figures
    plt.rcParams["font.size"] = 9
    targeted = [f for f in figures if f.target is not None]
    ratios = [f for f in figures if f.unit == "×"]
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(10, 0.42 * (len(targeted) + len(ratios)) + 1.6),
        height_ratios=[len(targeted), max(1, len(ratios))], layout="constrained")

    def unit_text(f: Figure, value: float) -> str:
        return f"{value:g} M actions/s" if f.unit == "M" else f"{value:g} {f.unit}"

    def wrapped(f: Figure) -> str:
        return textwrap.fill(f.label, 42)

    names = [wrapped(f) for f in targeted]
    top.barh(names, [f.headroom for f in targeted], color="#3f7fbf")
    top.axvline(1.0, color="#c0392b", linewidth=1.2)
    top.set_xscale("log")
    top.invert_yaxis()
    top.set_title("Each figure against its target: times better (left of the red line: missed)",
                  loc="left")
    for i, f in enumerate(targeted):
        sign = "≥" if f.at_least else "≤"
        top.annotate(f"{unit_text(f, f.value)}  (target {sign} {unit_text(f, f.target or 0)})",
                     (f.headroom, i), xytext=(4, 0), textcoords="offset points",
                     va="center", fontsize=8)
    top.set_xlim(min([0.5] + [f.headroom / 2 for f in targeted]),
                 max(f.headroom for f in targeted) * 40)

    bottom.barh([wrapped(f) for f in ratios], [f.value for f in ratios], color="#5a9e6f")
    bottom.set_xscale("log")
    bottom.invert_yaxis()
    bottom.set_title("Speed-ups measured side by side in one run (×)", loc="left")
    for i, f in enumerate(ratios):
        bottom.annotate(f"{f.value:g}×", (f.value, i), xytext=(4, 0),
                        textcoords="offset points", va="center", fontsize=8)
    bottom.set_xlim(1, max([f.value for f in ratios] + [1]) * 4)

    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


def page(readme: str, chart: str) -> str:
    """The benchmarks README with the chart placed right after its figures table."""
    lines = readme.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(TABLE_HEADING))
    i = next(k for k in range(start + 1, len(lines)) if lines[k].startswith("|"))
    while i < len(lines) and lines[i].startswith("|"):
        i += 1
    figure = [
        "",
        f"![The figures above, drawn: each target's headroom and the speed-ups]({chart})",
        "",
        "*Drawn at docs build time by `docs/benchmark_chart.py` from the table above.*",
    ]
    return "\n".join(lines[:i] + figure + lines[i:]) + "\n"


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    text = (root / "benchmarks" / "README.md").read_text(encoding="utf-8")
    Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks.svg").write_text(
        draw(parse_figures(text)), encoding="utf-8")
