"""Train a small agent on Una's full rules, then measure it with ``una sim``'s runner.

A one-hidden-layer numpy policy (:class:`una.env.policy.MaskedPolicy`) learns with
REINFORCE (a policy gradient with a running-mean baseline and Adam) in the Gymnasium
environment, one seat against Una's bots, for a few minutes of CPU. The trained policy is
then registered as a bot (``trained``) and plays ``una sim`` games against ``random`` and
``heuristic``: the same seat rotation, seeds and report (win rate with its Wilson 95%
interval) as ``una sim --bots trained,random``.

    .venv/bin/python examples/train_policy.py --minutes 3
    .venv/bin/python examples/train_policy.py --rules telegram --players 3 --minutes 5

Needs the rl extra (``pip install -e '.[rl]'``); no GPU, no torch.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console

from una.bots.registry import register
from una.env.core import make_rules
from una.env.policy import MaskedPolicy, PolicyBot
from una.env.single import UnaGymEnv
from una.sim.report import summarize, table
from una.sim.runner import SimConfig, run


class Adam:
    """Adam on a dict of arrays (gradient *ascent*: the step follows the gradient)."""

    def __init__(self, params: dict[str, np.ndarray], rate: float) -> None:
        self.rate = rate
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m = self.m[k] / (1 - 0.9**self.t)
            v = self.v[k] / (1 - 0.999**self.t)
            params[k] += (self.rate * m / (np.sqrt(v) + 1e-8)).astype(params[k].dtype)


def gradients(
    policy: MaskedPolicy, xs: np.ndarray, masks: np.ndarray, actions: np.ndarray,
    advantages: np.ndarray, entropy: float,
) -> dict[str, np.ndarray]:  # fmt: skip
    """The gradient of mean(advantage * log pi(action)) + entropy bonus, by backprop."""
    p = policy.params
    probs, hidden = policy.forward(xs, masks)
    chosen = np.zeros_like(probs)
    chosen[np.arange(len(actions)), actions] = 1.0
    dlogits = (chosen - probs) * advantages[:, None]
    if entropy:
        logp = np.log(np.where(probs > 0, probs, 1.0))
        ent = -(probs * logp).sum(axis=1, keepdims=True)
        dlogits += entropy * (-probs * (logp + ent))
    dlogits /= len(actions)
    dhidden = (dlogits @ p["W2"].T) * (hidden > 0)
    return {
        "W2": hidden.T @ dlogits,
        "b2": dlogits.sum(axis=0),
        "W1": xs.T @ dhidden,
        "b1": dhidden.sum(axis=0),
    }


def train(args: argparse.Namespace, policy: MaskedPolicy, console: Console) -> dict[str, float]:
    opponents = [spec.strip() for spec in args.opponents.split(",") if spec.strip()]
    envs = [
        UnaGymEnv(policy.rules, players=args.players, opponents=spec, seed=args.seed + i,
                  max_steps=args.max_steps)
        for i, spec in enumerate(opponents)
    ]  # fmt: skip
    optimizer = Adam(policy.params, args.rate)
    rng = random.Random(args.seed)
    baseline = 0.0
    episodes = steps = 0
    recent: list[float] = []
    deadline = time.perf_counter() + args.minutes * 60
    while time.perf_counter() < deadline:
        batch_x, batch_m, batch_a, batch_g = [], [], [], []
        for _ in range(args.batch):
            env = envs[episodes % len(envs)]
            obs, _ = env.reset()
            xs, ms, acts = [], [], []
            done, reward = False, 0.0
            while not done:
                x = obs["observation"] * policy.scale
                mask = obs["action_mask"]
                action = policy.choose(obs["observation"], mask, rng)
                xs.append(x)
                ms.append(mask)
                acts.append(action)
                obs, reward, terminated, truncated, _ = env.step(action)
                done = terminated or truncated
            episodes += 1
            steps += len(acts)
            recent = [*recent[-199:], float(reward > 0)]
            batch_x.extend(xs)
            batch_m.extend(ms)
            batch_a.extend(acts)
            batch_g.extend([reward] * len(acts))
        returns = np.array(batch_g, dtype=np.float32)
        advantages = returns - baseline
        baseline = 0.9 * baseline + 0.1 * float(returns.mean())
        grads = gradients(
            policy, np.array(batch_x), np.array(batch_m), np.array(batch_a), advantages,
            args.entropy,
        )  # fmt: skip
        optimizer.step(policy.params, grads)
        if episodes % (args.batch * 10) == 0:
            console.print(
                f"{episodes:6d} episodes, {steps:8d} decisions: "
                f"win rate (last {len(recent)}) {np.mean(recent):.1%}"
            )
    return {"episodes": episodes, "decisions": steps, "recent_win_rate": float(np.mean(recent))}


def evaluate(
    args: argparse.Namespace, policy: MaskedPolicy, opponent: str, console: Console
) -> dict[str, object]:
    """``una sim``'s runner and report: the trained bot against ``opponent``."""
    register("trained", lambda level: PolicyBot(policy), (), "the policy trained here")
    config = SimConfig(
        policy.rules, players=args.players, games=args.eval_games,
        bots=("trained", opponent), seed=args.seed + 1000,
    )  # fmt: skip
    start = time.perf_counter()
    results = run(config)
    summary = summarize(config, results, time.perf_counter() - start)
    console.print(table(summary))
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="standard", help="a preset, JSON object or file")
    parser.add_argument("--set", action="append", default=[], help="switch override KEY=VALUE")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random,heuristic",
                        help="bots to train against, in turn (comma-separated specs)")  # fmt: skip
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--batch", type=int, default=16, help="episodes per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--rate", type=float, default=3e-3, help="Adam's learning rate")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--max-steps", type=int, default=3000, help="truncate an episode")
    parser.add_argument("--eval-games", type=int, default=1000, help="una sim games per bot")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="save the trained policy (.npz)")
    parser.add_argument("--json", type=Path, help="write the results as JSON")
    args = parser.parse_args(argv)
    console = Console()
    if args.minutes <= 0 or args.eval_games < 1 or args.batch < 1:
        console.print("--minutes, --eval-games and --batch must be positive", style="red")
        return 2
    try:
        rules = make_rules(args.rules, args.set)
        policy = MaskedPolicy.new(rules, args.players, hidden=args.hidden, seed=args.seed)
    except ValueError as error:
        console.print(f"error: {error}", style="red")
        return 2
    console.print(
        f"training on {rules}, {args.players} players, against {args.opponents} "
        f"for {args.minutes:g} min"
    )
    trained = train(args, policy, console)
    if args.out is not None:
        policy.save(args.out)
        console.print(f"saved the policy to {args.out}")
    report = {"rules": rules.to_json(), "players": args.players, "training": trained}
    for opponent in ("random", "heuristic"):
        summary = evaluate(args, policy, opponent, console)
        report[f"against_{opponent}"] = summary["bots"]
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
