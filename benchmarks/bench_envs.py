"""RL adapters: environment steps per second with random masked actions (issue 10).

pytest-benchmark:   pytest benchmarks/bench_envs.py --benchmark-enable
side by side:       python benchmarks/compare.py   (uses ``compare_section`` below)

Every loop is what a user writes, over whole Kings' Stakes matches (4 players), reset
included; a "step" is one action applied to the game:

* **PettingZoo AEC** (``cardcore.envs.pettingzoo.env``): ``for agent in env.agent_iter():
  obs, r, term, trunc, info = env.last()``, then a random id among ``obs["action_mask"]``'s
  ones (``None`` for finished agents, not counted). Target ≥ 100,000 steps/s. The rates are
  steps per CPU second of this process (``time.process_time``), so that other processes on
  a shared machine do not count as adapter overhead; the wall-clock rate and the load
  average are in the note.
* **raw_env in PettingZoo's usual wrapper stack** (what classic envs' ``env()`` returns), to
  show why ``env()`` builds those checks in instead.
* **a plain view()-based PettingZoo wrapper**, the baseline: the same loop over an AEC env
  written the obvious way (observation = ``game.view(seat)``, the legal moves its
  ``legal_actions`` strings, ``game.apply(notation)``). It runs in alternating slices with
  the row above so that load from other processes falls on both alike.
* **Gymnasium** (``CardcoreEnv``, random opponents): ``env.step`` calls per second (each also
  plays the bots' moves up to the learning seat's turn) and game actions per second.
* **OpenSpiel** (``cardcore_kings_stakes``): ``state.legal_actions()`` → random →
  ``state.apply_action`` through pyspiel, seed chance nodes included.
"""
from __future__ import annotations

import os
import time
from typing import Any, Callable

import numpy as np
from pettingzoo import AECEnv

import cardcore
from cardcore._fast import Random
from cardcore.envs.gymnasium import CardcoreEnv
from cardcore.envs.pettingzoo import env as pettingzoo_env
from cardcore.envs.pettingzoo import raw_env

GAME = "kings_stakes"
TARGET_STEPS = 100_000


class ViewWrapper(AECEnv):  # type: ignore[misc]
    """The baseline: a PettingZoo AEC env over ``view()``, as one writes it without the
    tensor API (observations are the view dicts, actions their notations)."""

    metadata = {"name": "view_wrapper", "render_modes": []}

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.possible_agents = [f"player_{i}" for i in range(cardcore.new_game(name).num_players)]
        self._seeds = Random(0)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = cardcore.new_game(self.name, seed=self._seeds.next_u32())
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        return self.game.view(self.possible_agents.index(agent))

    def step(self, action: str | None) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self.game.apply(action)
        if self.game.is_over:
            for a, r in zip(self.possible_agents, self.game.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]


def wrapper_stack(name: str) -> Any:
    """raw_env inside PettingZoo's usual classic-env wrappers, for comparison with env()
    (which builds the same checks in)."""
    from pettingzoo.utils import wrappers
    inner = raw_env(name)
    wrapped = wrappers.TerminateIllegalWrapper(inner, illegal_reward=inner.utility_range[0])
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


Timing = tuple[float, float, int]      # (wall seconds, CPU seconds of this process, steps)


def pettingzoo_steps(env: Any, seconds: float, seed: int) -> Timing:
    """Whole matches through the tensor AEC env until ``seconds`` pass."""
    rng = Random(seed)
    env.reset(seed=seed)
    steps = 0
    cpu = time.process_time()
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset()
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.below(len(legal))]))
            steps += 1
    return time.perf_counter() - started, time.process_time() - cpu, steps


def view_steps(env: ViewWrapper, seconds: float, seed: int) -> Timing:
    """The same loop over the view()-based wrapper."""
    rng = Random(seed)
    steps = 0
    cpu = time.process_time()
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset()
        for _agent in env.agent_iter():
            view, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = view["legal_actions"]
            env.step(legal[rng.below(len(legal))])
            steps += 1
    return time.perf_counter() - started, time.process_time() - cpu, steps


def gymnasium_steps(seconds: float, seed: int) -> tuple[float, float, int, int]:
    """CardcoreEnv (seat 0, random opponents): (wall s, CPU s, env.step calls, actions)."""
    env = CardcoreEnv(GAME, opponents="random")
    rng = Random(seed)
    calls = actions = 0
    cpu = time.process_time()
    started = time.perf_counter()
    env.reset(seed=seed)
    while time.perf_counter() - started < seconds:
        _, info = env.reset()
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(int(legal[rng.below(len(legal))]))
            calls += 1
        # Counted from the log: ``history`` would narrate the game inside the timed loop.
        actions += len(env.game.action_log())
    return time.perf_counter() - started, time.process_time() - cpu, calls, actions


def openspiel_steps(seconds: float, seed: int) -> Timing | None:
    """cardcore_kings_stakes through pyspiel, steps including the seed chance nodes."""
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
        from cardcore.envs import openspiel
    except ImportError:
        return None
    openspiel.register()
    game = pyspiel.load_game("cardcore_kings_stakes")
    rng = Random(seed)
    steps = 0
    cpu = time.process_time()
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.below(openspiel.SEED_OUTCOMES))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
            steps += 1
    return time.perf_counter() - started, time.process_time() - cpu, steps


def interleaved(runs: dict[str, Callable[[float, int], Timing]], seconds: float,
                slices: int = 8) -> dict[str, tuple[float, float]]:
    """(steps per wall second, steps per CPU second) of each run, measured in alternating
    slices of ``seconds / slices``."""
    totals = {key: [0.0, 0.0, 0] for key in runs}
    for k in range(slices):
        for key, run in runs.items():
            wall, cpu, steps = run(seconds / slices, k)
            totals[key][0] += wall
            totals[key][1] += cpu
            totals[key][2] += steps
    return {key: (steps / wall, steps / cpu) for key, (wall, cpu, steps) in totals.items()}


def compare_section(quick: bool = False) -> list[dict[str, Any]]:
    seconds = 1.0 if quick else 4.0
    section = "RL adapters, Kings' Stakes (4 players), random masked actions"
    built_in = pettingzoo_env(GAME)
    stacked = wrapper_stack(GAME)
    view_env = ViewWrapper(GAME)
    rates = interleaved({
        "pettingzoo": lambda s, k: pettingzoo_steps(built_in, s, k),
        "view": lambda s, k: view_steps(view_env, s, k),
        "stack": lambda s, k: pettingzoo_steps(stacked, s, k),
    }, seconds)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows: list[dict[str, Any]] = [
        {"section": section, "figure": "PettingZoo AEC env(), steps per CPU second",
         "value": rates["pettingzoo"][1], "unit": "/s", "target": f"≥ {TARGET_STEPS:,}",
         "ok": rates["pettingzoo"][1] >= TARGET_STEPS,
         "note": f"wall clock {rates['pettingzoo'][0]:,.0f}/s at load average {load:.1f}; "
                 "agent_iter + last() + masked random id + step(), reset included"},
        {"section": section, "figure": "plain view()-based AEC wrapper, steps per CPU second",
         "value": rates["view"][1], "unit": "/s",
         "note": f"wall clock {rates['view'][0]:,.0f}/s; same loop over view dicts and "
                 "notations, in alternating slices with the row above"},
        {"section": section, "figure": "speed-up of the tensor env over the view wrapper",
         "value": rates["pettingzoo"][1] / rates["view"][1], "unit": "×",
         "note": f"{rates['pettingzoo'][0] / rates['view'][0]:.2f}× by wall clock"},
        {"section": section, "figure": "raw_env in PettingZoo's wrapper stack, steps per CPU s",
         "value": rates["stack"][1], "unit": "/s",
         "note": f"wall clock {rates['stack'][0]:,.0f}/s; TerminateIllegal + AssertOutOfBounds "
                 "+ OrderEnforcing wrappers, which env() builds in instead"},
    ]
    wall, cpu, calls, actions = gymnasium_steps(seconds / 2, 0)
    rows.append({"section": section, "figure": "Gymnasium CardcoreEnv, env.step per CPU second",
                 "value": calls / cpu, "unit": "/s",
                 "note": f"wall clock {calls / wall:,.0f}/s; {actions / cpu:,.0f} game actions "
                         "per CPU second (random bots at the other three seats)"})
    spiel = openspiel_steps(seconds / 2, 0)
    if spiel is not None:
        wall, cpu, steps = spiel
        rows.append({"section": section, "figure": "OpenSpiel cardcore_kings_stakes, steps per "
                     "CPU second", "value": steps / cpu, "unit": "/s",
                     "note": f"wall clock {steps / wall:,.0f}/s; legal_actions → random → "
                             "apply_action through pyspiel"})
    return rows


# ---------------------------------------------------------------- pytest-benchmark suite
def _one_match(env: Any, rng: np.random.Generator) -> int:
    env.reset()
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps


def test_pettingzoo_whole_match(benchmark: Any) -> None:
    benchmark.group = "envs: one Kings' Stakes match"
    env = pettingzoo_env(GAME)
    env.reset(seed=0)
    assert benchmark(_one_match, env, np.random.default_rng(0)) > 20


def test_view_wrapper_whole_match(benchmark: Any) -> None:
    benchmark.group = "envs: one Kings' Stakes match"
    env = ViewWrapper(GAME)
    rng = Random(0)

    def one() -> int:
        env.reset()
        steps = 0
        for _agent in env.agent_iter():
            view, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            legal = view["legal_actions"]
            env.step(legal[rng.below(len(legal))])
            steps += 1
        return steps

    assert benchmark(one) > 20
