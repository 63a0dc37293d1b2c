"""A compact masked PPO on cardcore's VectorGame, the opponents played inside the core.

    pip install ".[rl-examples]" torch==2.13.0          # (the CPU build; see docs/rl.md)
    python examples/masked_ppo.py kings_stakes --budget-minutes 8 --curve curve.png

One learning seat (0) against in-core bots (``--opponents greedy``): ``VectorGame.step`` takes
the learner's actions and returns once every game is at the learner's turn again, with the
reward of a game that ended on an opponent's move already credited to the learner's last
transition. So a rollout is a plain loop over (obs, mask, action, reward, done), as for any
single-agent vector environment. Illegal actions are masked out of the policy's logits.

The script ends with the win rate against random, greedy and level 3 (95% Wilson intervals,
cardcore.envs.evaluation.win_rates; other opponents with --eval-opponent, checked before
training) and can draw its learning curve (--curve). It runs on every game. ``--save
agent.pt`` keeps the trained agent; ``load_policy("agent.pt")`` gives it back as a batched
policy ``(obs, mask) -> actions`` (for win_rates). With ``--steps`` (not a CPU budget) and one
torch thread a seed trains the same agent every time.
"""
from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass, field

import numpy as np
import torch
from torch import nn

from cardcore.envs.evaluation import (DEFAULT_OPPONENTS, check_opponents, format_win_rates,
                                      plot_curve, random_policy, win_rates)
from cardcore.vector import VectorGame


@dataclass
class Config:
    game: str = "kings_stakes"
    players: int = 2
    opponents: str = "greedy"          # who the learner trains against
    reward: str = "win"                # VectorGame reward: "win" (1/-1/0) or "returns"
    observation: str = "raw"           # or "scaled" (every entry in [0, 1]) where declared
    steps: int = 2_000_000             # env steps (learner decisions), all games together
    budget_minutes: float = 0.0        # stop after this much CPU time of the process (0: none)
    num_envs: int = 128
    rollout: int = 16                  # steps per game per update
    epochs: int = 4
    minibatches: int = 4
    lr: float = 1e-3
    gamma: float = 0.995
    lam: float = 0.95                  # GAE lambda
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    hidden: int = 256
    seed: int = 0
    threads: int = 1                   # torch threads
    eval_games: int = 1000             # per opponent, at the end
    curve_every: int = 0               # updates between curve points (0: none)
    curve_games: int = 300
    curve: str = ""                    # a .png or .svg path for the learning curve
    eval_opponents: tuple[str, ...] = DEFAULT_OPPONENTS
    options: dict = field(default_factory=dict)    # game options (VectorGame **options)


def symlog(x: torch.Tensor) -> torch.Tensor:
    """sign(x) log(1 + |x|): raw counts and scores (a Kuzanasta score runs to 10^5) squeezed
    into a range an MLP takes, without knowing their bounds."""
    return torch.sign(x) * torch.log1p(x.abs())


class Agent(nn.Module):
    """A shared MLP body with a policy head (one logit per action id) and a value head."""

    def __init__(self, size: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(size, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.pi.weight, 0.01)       # near-uniform first policy
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor
                ) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        h = self.body(symlog(obs))
        logits = self.pi(h).masked_fill(~mask, -1e9)    # illegal ids get no probability
        return torch.distributions.Categorical(logits=logits), self.v(h).squeeze(-1)

    def policy(self, greedy: bool = False, seed: int | None = None):
        """The agent as a batched policy ``(obs, mask) -> actions`` for win_rates: its most
        likely move (``greedy``) or a sample of its distribution (from its own generator when
        ``seed`` is given, else torch's)."""
        generator = None if seed is None else torch.Generator().manual_seed(seed)

        def act(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            with torch.no_grad():
                dist, _ = self(torch.from_numpy(obs), torch.from_numpy(np.array(mask)))
                if greedy:
                    ids = dist.probs.argmax(-1)
                elif generator is None:
                    ids = dist.sample()
                else:
                    ids = torch.multinomial(dist.probs, 1, generator=generator).squeeze(-1)
            return ids.numpy()
        return act


def save_agent(agent: Agent, cfg: Config, path: str) -> None:
    """The agent's weights and the configuration that built it."""
    torch.save({"config": asdict(cfg), "size": agent.body[0].in_features,
                "actions": agent.pi.out_features, "state_dict": agent.state_dict()}, path)


def load_policy(path: str, greedy: bool = False, seed: int | None = 0):
    """A saved agent (``--save``) as a batched policy ``(obs, mask) -> actions``."""
    saved = torch.load(path, weights_only=False)
    agent = Agent(saved["size"], saved["actions"], saved["config"]["hidden"])
    agent.load_state_dict(saved["state_dict"])
    agent.eval()
    return agent.policy(greedy=greedy, seed=seed)


def make_games(cfg: Config, seed: int) -> VectorGame:
    return VectorGame(cfg.game, cfg.num_envs, players=cfg.players, seed=seed, learner_seats=0,
                      opponents=cfg.opponents, reward=cfg.reward,
                      observation=cfg.observation, **cfg.options)


def train(cfg: Config, log=print) -> dict:
    """Train; returns the agent, the losses, the learning curve and the final win rates."""
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    vg = make_games(cfg, cfg.seed)
    n, t_len = cfg.num_envs, cfg.rollout
    size, actions = vg.observation_shape[0], vg.num_distinct_actions
    agent = Agent(size, actions, cfg.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.lr, eps=1e-5)

    obs_buf = torch.zeros((t_len, n, size))
    mask_buf = torch.zeros((t_len, n, actions), dtype=torch.bool)
    act_buf = torch.zeros((t_len, n), dtype=torch.long)
    logp_buf, val_buf, rew_buf, done_buf = (torch.zeros((t_len, n)) for _ in range(4))

    obs_np = vg.observations()
    mask_np = vg.legal_mask()
    start, steps, updates, losses, curve = time.process_time(), 0, 0, [], []
    episodes, reward_sum = 0, 0.0
    while steps < cfg.steps:
        if cfg.budget_minutes and time.process_time() - start > 60 * cfg.budget_minutes:
            break
        # --- rollout: t_len steps of every game ------------------------------------
        for t in range(t_len):
            obs, mask = torch.from_numpy(obs_np), torch.from_numpy(np.array(mask_np))
            with torch.no_grad():
                dist, value = agent(obs, mask)
                action = dist.sample()
            obs_buf[t], mask_buf[t], act_buf[t] = obs, mask, action
            logp_buf[t], val_buf[t] = dist.log_prob(action), value
            rewards, done = vg.step(action.numpy())
            reward = torch.from_numpy(rewards[:, 0].copy())
            if vg.truncated.any():        # cut, not lost: bootstrap from the last state
                cut = torch.from_numpy(vg.truncated.copy())
                final = torch.from_numpy(vg.final_observations[vg.truncated])
                with torch.no_grad():
                    reward[cut] += cfg.gamma * agent.v(agent.body(symlog(final))).squeeze(-1)
            rew_buf[t], done_buf[t] = reward, torch.from_numpy(done.astype(np.float32))
            episodes += int(done.sum())
            reward_sum += float(rewards[done, 0].sum())
            obs_np = vg.observations(obs_np)
            mask_np = vg.legal_mask(mask_np)
        steps += n * t_len
        # --- advantages (GAE); a done step's next state belongs to the next episode ---
        with torch.no_grad():
            _, next_value = agent(torch.from_numpy(obs_np), torch.from_numpy(np.array(mask_np)))
            adv = torch.zeros((t_len, n))
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                nonterminal = 1.0 - done_buf[t]
                nv = next_value if t == t_len - 1 else val_buf[t + 1]
                delta = rew_buf[t] + cfg.gamma * nv * nonterminal - val_buf[t]
                last = delta + cfg.gamma * cfg.lam * nonterminal * last
                adv[t] = last
            ret = adv + val_buf
        # --- PPO update: clipped surrogate, value loss, entropy bonus ------------------
        b_obs, b_mask = obs_buf.reshape(-1, size), mask_buf.reshape(-1, actions)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        batch = n * t_len
        mb = batch // cfg.minibatches
        for _ in range(cfg.epochs):
            order = torch.randperm(batch)
            for k in range(0, batch, mb):
                idx = order[k:k + mb]
                dist, value = agent(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
                v_loss = (value - b_ret[idx]).pow(2).mean()
                loss = pg + cfg.value_coef * v_loss - cfg.entropy * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        updates += 1
        losses.append(float(loss.detach()))
        if cfg.curve_every and updates % cfg.curve_every == 0:
            point = evaluate(agent, cfg, ("random", "greedy"), cfg.curve_games)
            curve.append({"steps": steps, "cpu_seconds": time.process_time() - start,
                          **{k: v["win_rate"] for k, v in point.items()}})
        if updates % 10 == 0:
            log(f"update {updates:4d}  steps {steps:9,d}  {time.process_time() - start:6.0f} "
                f"CPU s  loss {losses[-1]:+.3f}  mean episode reward "
                f"{reward_sum / max(episodes, 1):+.3f}")
            episodes, reward_sum = 0, 0.0
    vg.close()
    seconds = time.process_time() - start
    return {"agent": agent, "steps": steps, "cpu_seconds": seconds, "updates": updates,
            "losses": losses, "curve": curve}


def evaluate(agent: Agent, cfg: Config, opponents, games: int, seed: int = 12345) -> dict:
    """Win rates of the agent (sampling from its policy) at seat 0."""
    return win_rates(agent.policy(), cfg.game, opponents, games=games, players=cfg.players,
                     seed=seed, observation=cfg.observation, **cfg.options)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", default=Config.game)
    for name, value in asdict(Config()).items():
        if name in ("game", "options", "eval_opponents"):
            continue
        parser.add_argument("--" + name.replace("_", "-"), type=type(value), default=value)
    parser.add_argument("-o", "--option", action="append", default=[],
                        help="a game option name=value (an int where it parses as one)")
    parser.add_argument("--eval-opponent", action="append", metavar="SPEC",
                        help="an opponent of the final evaluation, a bot spec; repeat for "
                             "several (default: random, greedy, level:3)")
    parser.add_argument("--json", default="", help="write the results to this file")
    parser.add_argument("--save", default="", help="keep the trained agent in this file "
                        "(load_policy reads it)")
    args = parser.parse_args(argv)
    options = {}
    for item in args.option:
        key, _, raw = item.partition("=")
        options[key] = int(raw) if raw.lstrip("-").isdigit() else raw
    fields = {k: v for k, v in vars(args).items() if k in Config.__dataclass_fields__}
    cfg = Config(**fields, options=options,
                 eval_opponents=tuple(args.eval_opponent or Config.eval_opponents))
    # A spec the evaluation cannot play fails now, not after the training.
    check_opponents(cfg.game, cfg.eval_opponents, players=cfg.players,
                    observation=cfg.observation, **options)
    before = win_rates(random_policy(cfg.seed), cfg.game, ("random",), games=cfg.eval_games,
                       players=cfg.players, seed=12345, observation=cfg.observation, **options)
    print(f"untrained (uniform random) policy:\n{format_win_rates(before)}")
    result = train(cfg)
    if args.save:
        save_agent(result["agent"], cfg, args.save)
    final = evaluate(result["agent"], cfg, cfg.eval_opponents, cfg.eval_games)
    print(f"\n{cfg.game}: {result['steps']:,} env steps in {result['cpu_seconds'] / 60:.1f} CPU "
          f"min ({result['steps'] / result['cpu_seconds']:,.0f} steps/CPU s), trained vs "
          f"{cfg.opponents}")
    print(format_win_rates(final))
    if cfg.curve and result["curve"]:
        plot_curve(result["curve"], cfg.curve, f"masked PPO, {cfg.game} ({cfg.players} players)")
    summary = {"config": asdict(cfg), "steps": result["steps"],
               "cpu_seconds": result["cpu_seconds"],
               "untrained": before, "final": final, "curve": result["curve"]}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1, default=list)
    return summary


if __name__ == "__main__":
    main()
