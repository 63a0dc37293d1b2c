"""Adapters for the RL and game-AI ecosystems (docs/rl.md "RL and search").

Each adapter is its own module, imported on demand, so that ``import cardcore`` never needs
the third-party package:

* ``cardcore.envs.pettingzoo`` — ``env(name, **options)`` / ``raw_env``: a PettingZoo AEC
  environment (extra ``cardcore[rl]``);
* ``cardcore.envs.gymnasium`` — ``CardcoreEnv(name, seat=0, opponents="greedy", **options)``,
  registered as ``cardcore/<Name>-v0`` (extra ``cardcore[rl]``);
* ``cardcore.envs.openspiel`` — ``register()``: ``cardcore_<game>`` as pyspiel Python games
  (extra ``cardcore[openspiel]``);
* ``cardcore.envs.selfplay`` — ``SelfPlay``: frozen snapshots of a learner's policy as one
  batched opponent of ``VectorGame`` / ``make_vec`` (numpy only; also ``cardcore.envs.SelfPlay``).

They are thin and game-generic: everything comes from the public ``Game`` protocol
(``observation_tensor``, ``legal_action_ids``, ``returns``, ``sample_hidden`` ...), so a new
game works in all three without a line here.
"""
from __future__ import annotations

__all__ = ["Potential", "SelfPlay"]

from cardcore.envs._common import Potential
from cardcore.envs.selfplay import SelfPlay
