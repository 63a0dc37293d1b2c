"""A small league: masked PPO against its own past snapshots, greedy and the in-core levels.

    pip install ".[rl-examples]" torch==2.13.0          # (the CPU build; see docs/rl.md)
    python examples/league_ppo.py kings_stakes --steps 200000

One VectorGame per league member, the learner at seat 0 of each: ``"self"`` is
``opponents=SelfPlay(freeze)`` (cardcore.envs.SelfPlay: frozen copies of the learner's network,
a new snapshot every ``--snapshot-every`` updates, the latest ``--keep`` kept, one drawn per
rollout), the others are in-core bots (``greedy``, ``level:1..3``) played in C. A rollout steps
every member's games with one forward pass of the learner over all of them; the snapshot's
moves are asked for inside ``VectorGame.step`` (one batched call per round for every game
where it is to move), so the loop is the same plain (obs, mask, action, reward, done) loop as
examples/masked_ppo.py, whose network and PPO update this reuses.

The script ends with the win rates against random, greedy and level 3 (other opponents with
--eval-opponent, checked before training) and against snapshot 0 (the untrained network), 95%
Wilson intervals. It runs on every game; a member with no in-core policy (a search level, such
as Durak's level 3) is played outside the core, much slower.
"""
from __future__ import annotations

import argparse
import copy
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from masked_ppo import Agent  # noqa: E402  (the network of examples/masked_ppo.py)

from cardcore.envs import SelfPlay  # noqa: E402
from cardcore.envs.evaluation import (DEFAULT_OPPONENTS, check_opponents,  # noqa: E402
                                      format_win_rates, win_rates)
from cardcore.vector import VectorGame  # noqa: E402


@dataclass
class Config:
    game: str = "kings_stakes"
    players: int = 2
    league: tuple[str, ...] = ("self", "greedy", "level:2", "level:3")
    num_envs: int = 64                 # games per league member
    steps: int = 200_000               # learner decisions, all members together
    rollout: int = 16
    epochs: int = 4
    minibatches: int = 4
    lr: float = 1e-3
    gamma: float = 0.995
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    hidden: int = 128
    snapshot_every: int = 5            # updates between snapshots of the learner
    keep: int = 8                      # snapshots kept
    latest: float = 0.5                # chance a rollout plays the newest snapshot
    seed: int = 0
    threads: int = 1
    eval_games: int = 500
    eval_opponents: tuple[str, ...] = DEFAULT_OPPONENTS      # the final evaluation's bots
    options: dict = field(default_factory=dict)


def frozen_policy(agent: Agent, seed: int):
    """A frozen copy of ``agent`` as a batched opponent: (obs, masks, seats) -> actions,
    sampled from the copy's policy (its own generator)."""
    frozen = copy.deepcopy(agent).eval()
    generator = torch.Generator().manual_seed(seed)

    def act(observations: np.ndarray, masks: np.ndarray, seats: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            dist, _ = frozen(torch.from_numpy(observations), torch.from_numpy(masks))
            return torch.multinomial(dist.probs, 1, generator=generator).squeeze(-1).numpy()
    return act


def train(cfg: Config, log=print) -> dict:
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    probe = VectorGame(cfg.game, 1, players=cfg.players, **cfg.options)
    size, actions = probe.observation_shape[0], probe.num_distinct_actions
    agent = Agent(size, actions, cfg.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.lr, eps=1e-5)
    frozen, moves = [0], [0]          # snapshots taken, moves the snapshots made

    def freeze():
        frozen[0] += 1
        act = frozen_policy(agent, cfg.seed * 1000 + frozen[0])

        def counted(observations: np.ndarray, masks: np.ndarray, seats: np.ndarray):
            moves[0] += len(seats)
            return act(observations, masks, seats)
        return counted
    pool = SelfPlay(freeze, keep=cfg.keep, latest=cfg.latest, seed=cfg.seed)
    first_snapshot = pool.snapshots[0]
    games = [VectorGame(cfg.game, cfg.num_envs, players=cfg.players, seed=cfg.seed + k,
                        learner_seats=0, opponents=pool if member == "self" else member,
                        reward="win", **cfg.options)
             for k, member in enumerate(cfg.league)]
    n, t_len = cfg.num_envs * len(games), cfg.rollout
    obs_buf = torch.zeros((t_len, n, size))
    mask_buf = torch.zeros((t_len, n, actions), dtype=torch.bool)
    act_buf = torch.zeros((t_len, n), dtype=torch.long)
    logp_buf, val_buf, rew_buf, done_buf = (torch.zeros((t_len, n)) for _ in range(4))
    start, steps, updates, losses = time.process_time(), 0, 0, []
    member_reward = {m: [0.0, 0] for m in cfg.league}

    def observe() -> tuple[torch.Tensor, torch.Tensor]:
        return (torch.from_numpy(np.concatenate([vg.observations() for vg in games])),
                torch.from_numpy(np.concatenate([vg.legal_mask() for vg in games])))
    obs, mask = observe()
    while steps < cfg.steps:
        pool.sample()                      # this rollout's snapshot
        for t in range(t_len):
            with torch.no_grad():
                dist, value = agent(obs, mask)
                action = dist.sample()
            obs_buf[t], mask_buf[t], act_buf[t] = obs, mask, action
            logp_buf[t], val_buf[t] = dist.log_prob(action), value
            chunks = action.numpy().reshape(len(games), cfg.num_envs)
            rewards, dones = [], []
            for member, vg, chunk in zip(cfg.league, games, chunks):
                r, d = vg.step(chunk)
                rewards.append(r[:, 0])
                dones.append(d)
                member_reward[member][0] += float(r[d, 0].sum())
                member_reward[member][1] += int(d.sum())
            rew_buf[t] = torch.from_numpy(np.concatenate(rewards))
            done_buf[t] = torch.from_numpy(np.concatenate(dones).astype(np.float32))
            obs, mask = observe()
        steps += n * t_len
        with torch.no_grad():                                  # GAE
            _, next_value = agent(obs, mask)
            adv, last = torch.zeros((t_len, n)), torch.zeros(n)
            for t in reversed(range(t_len)):
                nonterminal = 1.0 - done_buf[t]
                nv = next_value if t == t_len - 1 else val_buf[t + 1]
                last = (rew_buf[t] + cfg.gamma * nv * nonterminal - val_buf[t]
                        + cfg.gamma * cfg.lam * nonterminal * last)
                adv[t] = last
            ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, size), mask_buf.reshape(-1, actions)
        b_act, b_logp, b_adv, b_ret = (x.reshape(-1) for x in (act_buf, logp_buf, adv, ret))
        batch = n * t_len
        mb = batch // cfg.minibatches
        for _ in range(cfg.epochs):                            # clipped PPO
            order = torch.randperm(batch)
            for k in range(0, batch, mb):
                idx = order[k:k + mb]
                dist, value = agent(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
                pg = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
                loss = (pg + cfg.value_coef * (value - b_ret[idx]).pow(2).mean()
                        - cfg.entropy * dist.entropy().mean())
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        updates += 1
        losses.append(float(loss.detach()))
        if updates % cfg.snapshot_every == 0:
            pool.snapshot()
        if updates % 10 == 0:
            means = "  ".join(f"{m} {s / max(c, 1):+.2f}" for m, (s, c) in member_reward.items())
            log(f"update {updates:4d}  steps {steps:9,d}  {time.process_time() - start:5.0f} "
                f"CPU s  loss {losses[-1]:+.3f}  mean win reward: {means}")
            member_reward = {m: [0.0, 0] for m in cfg.league}
    for vg in games:
        vg.close()
    return {"agent": agent, "steps": steps, "updates": updates, "losses": losses,
            "snapshots": frozen[0], "snapshot_moves": moves[0], "first_snapshot": first_snapshot,
            "cpu_seconds": time.process_time() - start}


def evaluate(agent: Agent, cfg: Config, first_snapshot, games: int) -> dict:
    """Win rates (sampling from the policy) against ``cfg.eval_opponents`` and snapshot 0
    (the untrained network)."""
    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            dist, _ = agent(torch.from_numpy(obs), torch.from_numpy(np.array(mask)))
            return dist.sample().numpy()
    options = dict(games=games, players=cfg.players, seed=12345, **cfg.options)
    results = win_rates(policy, cfg.game, cfg.eval_opponents, **options)
    results["snapshot 0"] = win_rates(policy, cfg.game, (first_snapshot,),
                                      **options)[first_snapshot]
    return results


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", default=Config.game)
    for name, value in asdict(Config()).items():
        if name in ("game", "options", "league", "eval_opponents"):
            continue
        parser.add_argument("--" + name.replace("_", "-"), type=type(value), default=value)
    parser.add_argument("--league", default=",".join(Config.league),
                        help="members: 'self' and bot specs, comma-separated")
    parser.add_argument("--eval-opponent", action="append", metavar="SPEC",
                        help="an opponent of the final evaluation, a bot spec; repeat for "
                             "several (default: random, greedy, level:3)")
    args = parser.parse_args(argv)
    fields = {k: v for k, v in vars(args).items() if k in Config.__dataclass_fields__}
    fields["league"] = tuple(m.strip() for m in args.league.split(","))
    cfg = Config(**fields, eval_opponents=tuple(args.eval_opponent or DEFAULT_OPPONENTS))
    # A spec the evaluation cannot play fails now, not after the training.
    check_opponents(cfg.game, cfg.eval_opponents, players=cfg.players, **cfg.options)
    result = train(cfg)
    final = evaluate(result["agent"], cfg, result["first_snapshot"], cfg.eval_games)
    print(f"\n{cfg.game}: {result['steps']:,} learner steps in {result['cpu_seconds']:.0f} CPU s, "
          f"{result['snapshots']} snapshots, league {', '.join(cfg.league)}")
    print(format_win_rates(final))
    return {"config": asdict(cfg), "steps": result["steps"], "final": final}


if __name__ == "__main__":
    main()
