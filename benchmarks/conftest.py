"""Let `pytest benchmarks --benchmark-enable` collect the bench_*.py suites (tests/ keeps the
project's default test_*.py pattern), and make the benchmark modules importable by name."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


def pytest_collect_file(parent: Any, file_path: Path) -> pytest.Module | None:
    if file_path.suffix == ".py" and file_path.name.startswith("bench_") \
            and file_path.parent == HERE and not parent.session.isinitpath(file_path):
        return pytest.Module.from_parent(parent, path=file_path)   # (named files: pytest's own)
    return None
