"""Una's PettingZoo environment against RLCard 1.2.0's ``rlcard.make("uno")``, side by side.

Both are stepped the same way, one hand per game: reset, then until the hand is over the
agent to act takes a uniformly random action among those its mask (RLCard: its state's
``legal_actions``) allows, picked with Python's ``random``. Every step builds the
observation each environment gives (Una: ``env.last()``, a dict of the observation vector
and the action mask; RLCard: the state dict ``step`` returns, its 4x4x15 planes, legal
action ids and raw state).

* Una: ``una.env.aec_env(rules, players)`` as a user gets it (PettingZoo's order-enforcing
  wrapper included), through ``agent_iter`` / ``last`` / ``step``, with the final
  ``step(None)`` of every seat at the end of the hand; every decision is a step, the
  out-of-turn offers (catch an UNO that was not called, or ``wait``) included;
* RLCard: ``env.reset()`` then ``env.step(action)`` until ``env.is_over()``, on its
  simplified rules (no challenge, no UNO call, a fitting drawn card is played for you).

Sides alternate for ``--rounds`` rounds; the best round of each is kept (the least
disturbed by other load). Needs the rl extra (``pip install -e '.[rl]'``).

    python benchmarks/env_vs_rlcard.py --games 500 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from una.sim.bench import Throughput


def una_env_playout(rules: str, players: int, games: int, seed: int = 0) -> Throughput:
    """Random masked actions through Una's AEC environment."""
    import numpy as np

    from una.env import aec_env

    preset, *overrides = rules.split()
    env = aec_env(preset, players=players, seed=seed, overrides=overrides)
    rng = random.Random(seed)
    flatnonzero = np.flatnonzero
    moves = 0
    start = time.perf_counter()
    for _ in range(games):
        env.reset()
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            moves += 1
    return Throughput(players, games, moves, time.perf_counter() - start)


def rlcard_env_playout(players: int, games: int, seed: int = 0) -> Throughput:
    """Random legal actions through RLCard's UNO environment."""
    import rlcard  # type: ignore[import-untyped]

    env = rlcard.make("uno", config={"seed": seed, "game_num_players": players})
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for _ in range(games):
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[rng.randrange(len(legal))])
            moves += 1
    return Throughput(players, games, moves, time.perf_counter() - start)


def compare(rules: str, players: int, games: int, rounds: int, seed: int) -> dict[str, Any]:
    best: dict[str, Throughput] = {}
    for round_ in range(rounds):
        for name in ("una", "rlcard"):
            if name == "una":
                result = una_env_playout(rules, players, games, seed + round_)
            else:
                result = rlcard_env_playout(players, games, seed + round_)
            if name not in best or result.seconds < best[name].seconds:
                best[name] = result
    una, rl = best["una"], best["rlcard"]
    return {
        "rules": rules,
        "players": players,
        "una": una.to_json(),
        "rlcard": rl.to_json(),
        "ratio_games_per_second": round(una.games_per_second / rl.games_per_second, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="hands per round and side")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--rules",
        default="standard,standard voluntary_draw=false,byond",
        help="Una rule sets, comma-separated, each a preset and KEY=VALUE overrides",
    )
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        import rlcard
    except ImportError:
        print("RLCard is not installed: pip install -e '.[rl]'", file=sys.stderr)
        return 2
    if args.games < 1 or args.rounds < 1:
        print("--games and --rounds must be 1 or more", file=sys.stderr)
        return 2
    names = [name.strip() for name in args.rules.split(",") if name.strip()]
    runs = [compare(name, args.players, args.games, args.rounds, args.seed) for name in names]
    if args.json:
        print(json.dumps({"rlcard": rlcard.__version__, "runs": runs}))
        return 0
    print(
        f"RLCard {rlcard.__version__}; {args.players} players, {args.games} hands per round, "
        f"best of {args.rounds}"
    )
    print(f"{'rules':>30} {'env':>8} {'games/s':>9} {'steps/s':>11} {'steps/game':>10}")
    for run in runs:
        for name in ("una", "rlcard"):
            r = run[name]
            print(
                f"{run['rules']:>30} {name:>8} {r['games_per_second']:>9,.0f} "
                f"{r['moves_per_second']:>11,.0f} {r['moves_per_game']:>10.1f}"
            )
        steps = run["una"]["moves_per_second"] / run["rlcard"]["moves_per_second"]
        print(
            f"{'':>30} ratio una/rlcard: games/s {run['ratio_games_per_second']:.2f}x, "
            f"steps/s {steps:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
