"""Side-by-side speed comparison, measured in ONE run so the ratios are fair on a noisy machine.

    python benchmarks/compare.py            # full run (about a minute)
    python benchmarks/compare.py --quick    # fewer repetitions
    python benchmarks/compare.py --json     # machine-readable rows

Sections come from the modules ``benchmarks/bench_*.py``: each may define
``compare_section(quick: bool = False) -> list[dict]``; a row is
``{"section", "figure", "value", "unit"}`` plus optionally ``"target"`` (text such as
"≤ 2 µs") and ``"ok"`` (bool: target met) and ``"note"``. A new game adds its section by
adding ``bench_<game>.py`` with that function; nothing here changes. ``bench_core`` comes first.
Run it with the package importable (installed, or ``PYTHONPATH=src`` after an in-place build).
"""
from __future__ import annotations

import argparse
import importlib
import json
import platform
import sys
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def section_modules() -> list[str]:
    names = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if "bench_core" in names:
        names.remove("bench_core")
        names.insert(0, "bench_core")
    return names


def collect(quick: bool, only: list[str] | None = None) -> list[dict[str, Any]]:
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    rows: list[dict[str, Any]] = []
    for name in section_modules():
        if only and not any(o in name for o in only):
            continue
        try:
            module = importlib.import_module(name)
        except Exception as e:  # noqa: BLE001  (a game not built here: say so, go on)
            rows.append({"section": name, "figure": "import failed", "value": None, "unit": "",
                         "note": f"{type(e).__name__}: {e}"})
            continue
        section = getattr(module, "compare_section", None)
        if section is None:
            continue
        try:
            rows.extend(section(quick=quick))
        except Exception as e:  # noqa: BLE001  (one failing section must not hide the rest)
            traceback.print_exc()
            rows.append({"section": name, "figure": "failed", "value": None, "unit": "",
                         "note": f"{type(e).__name__}: {e}"})
    return rows


def machine() -> str:
    import os
    return (f"Python {platform.python_version()} on {platform.machine()} {platform.system()}, "
            f"{os.cpu_count()} CPUs")


def print_rows(rows: list[dict[str, Any]]) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:                      # piped or redirected: room for the notes
        console = Console(width=150)
    table = Table(title=f"cardcore compare — {machine()}", box=box.SIMPLE_HEAVY)
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    table.add_column("", justify="center")
    table.add_column("note", overflow="fold")
    section = None
    for row in rows:
        if row["section"] != section:
            section = row["section"]
            table.add_row(f"[bold]{section}[/]", "", "", "", "")
        value = row.get("value")
        shown = "—" if value is None else (f"{value:,.0f}" if abs(value) >= 10_000
                                            else f"{value:,.3g}" if abs(value) < 10
                                            else f"{value:,.1f}")
        ok = row.get("ok")
        mark = "" if ok is None else ("[green]✓[/]" if ok else "[red]✗[/]")
        table.add_row("  " + row["figure"], f"{shown} {row.get('unit', '')}",
                      row.get("target", ""), mark, row.get("note", ""))
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--only", action="append", default=[],
                        help="only modules whose name contains this (repeatable)")
    args = parser.parse_args(argv)
    rows = collect(args.quick, args.only)
    if args.json:
        print(json.dumps({"machine": machine(), "rows": rows}, indent=2, ensure_ascii=False))
    else:
        print_rows(rows)
    return 0 if all(row.get("ok", True) is not False for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
