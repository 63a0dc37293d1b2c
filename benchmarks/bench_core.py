"""Core benchmarks: shuffling 216 cards (Manna's four decks) from Python.

pytest-benchmark:   pytest benchmarks/bench_core.py --benchmark-enable
side by side:       python benchmarks/compare.py   (uses ``compare_section`` below)

The three contenders shuffle the same 216 card ids:
* cardcore: ``cardcore._fast.Random.shuffle(bytearray)`` (PCG32 + Fisher-Yates in C, in place);
* numpy:    ``numpy.random.Generator.permutation(216)`` (a new array per call, as measured in
            shared/anchors/perf.md);
* stdlib:   ``random.shuffle(list)``.
"""
from __future__ import annotations

import random
import statistics
import timeit
from typing import Any, Callable

import numpy as np

from cardcore._fast import Random

N_CARDS = 216


def shuffle_contenders(seed: int = 0) -> dict[str, tuple[Callable[..., Any], Any]]:
    """(function, argument) pairs, one shuffle of 216 cards per call."""
    buf = bytearray(i % 53 for i in range(N_CARDS))
    return {
        "cardcore": (Random(seed).shuffle, buf),
        "numpy": (np.random.default_rng(seed).permutation, N_CARDS),
        "random": (random.Random(seed).shuffle, list(range(N_CARDS))),
    }


def interleaved_us(contenders: dict[str, tuple[Callable[..., Any], Any]], number: int,
                   repeat: int) -> dict[str, float]:
    """Median µs per call of each contender; the repeats alternate between contenders so that
    load from other processes falls on all of them alike. The call is timed directly
    (``f(x)`` in timeit, no wrapper function)."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeat):
        for name, (fn, arg) in contenders.items():
            n = number if name != "random" else max(1, number // 10)
            timer = timeit.Timer("f(x)", globals={"f": fn, "x": arg})
            times[name].append(timer.timeit(n) / n * 1e6)
    return {name: statistics.median(values) for name, values in times.items()}


def compare_section(quick: bool = False) -> list[dict[str, Any]]:
    """Rows for benchmarks/compare.py: µs per shuffle and the two ratios with their targets."""
    us = interleaved_us(shuffle_contenders(), 2_000 if quick else 10_000, 7 if quick else 15)
    section = f"shuffle {N_CARDS} cards, µs per call"
    np_ratio = us["numpy"] / us["cardcore"]
    py_ratio = us["random"] / us["cardcore"]
    return [
        {"section": section, "figure": "cardcore Random.shuffle(bytearray)",
         "value": us["cardcore"], "unit": "µs"},
        {"section": section, "figure": "numpy Generator.permutation(216)",
         "value": us["numpy"], "unit": "µs"},
        {"section": section, "figure": "random.shuffle(list)", "value": us["random"], "unit": "µs"},
        {"section": section, "figure": "speed-up vs numpy", "value": np_ratio, "unit": "×",
         "target": "≥ 5×", "ok": np_ratio >= 5},
        {"section": section, "figure": "speed-up vs random.shuffle", "value": py_ratio,
         "unit": "×", "target": "≥ 50×", "ok": py_ratio >= 50},
    ]


# ---------------------------------------------------------------- pytest-benchmark suite
def test_shuffle216_cardcore(benchmark: Any) -> None:
    benchmark.group = "shuffle 216"
    rng = Random(1)
    buf = bytearray(i % 53 for i in range(N_CARDS))
    before = sorted(buf)
    benchmark(rng.shuffle, buf)
    assert sorted(buf) == before                   # still a permutation of the same cards


def test_shuffle216_numpy_permutation(benchmark: Any) -> None:
    benchmark.group = "shuffle 216"
    np_rng = np.random.default_rng(1)
    out = benchmark(np_rng.permutation, N_CARDS)
    assert sorted(out.tolist()) == list(range(N_CARDS))


def test_shuffle216_random_shuffle(benchmark: Any) -> None:
    benchmark.group = "shuffle 216"
    py_rng = random.Random(1)
    cards = list(range(N_CARDS))
    benchmark(py_rng.shuffle, cards)
    assert sorted(cards) == list(range(N_CARDS))


def test_random_below(benchmark: Any) -> None:
    benchmark.group = "generator"
    rng = Random(1)
    value = benchmark(rng.below, 216)
    assert 0 <= value < 216
