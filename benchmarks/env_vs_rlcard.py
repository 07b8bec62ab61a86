"""Una's PettingZoo environment against RLCard 1.2.0's ``rlcard.make("uno")``, side by side.

Both are stepped the same way, one hand per game: reset, then until the hand is over the
agent to act takes a uniformly random action among those its mask (RLCard: its state's
``legal_actions``) allows, picked with Python's ``random``. Every step builds the
observation each environment gives (Una: ``env.last()``, a dict of the observation vector
and the action mask; RLCard: the state dict ``step`` returns, its 4x4x15 planes, legal
action ids and raw state).

* Una: ``una.env.aec_env(rules, players)`` as a user gets it (on the C core wherever it
  plays the rules; ``--python`` for the pure-Python table), through ``agent_iter`` /
  ``last`` / ``step``, with the final ``step(None)`` of every seat at the end of the hand;
  every decision is a step, the out-of-turn offers (catch an UNO that was not called, or
  ``wait``) included;
* RLCard: ``env.reset()`` then ``env.step(action)`` until ``env.is_over()``, on its
  simplified rules (no challenge, no UNO call, a fitting drawn card is played for you);
* the harness alone: a PettingZoo AEC environment whose ``observe`` and ``step`` do
  nothing (a fixed observation and mask of Una's sizes), stepped by the same loop for as
  many steps per game as Una's side took: the most games per second any environment
  could reach at Una's game length through this loop.

Sides alternate for ``--rounds`` rounds, every round on the same seed (the same games:
rounds differ only by how much other load disturbed them); the best round of each is
kept. Needs the rl extra (``pip install -e '.[rl]'``).

    python benchmarks/env_vs_rlcard.py --games 500 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any, ClassVar

from una.sim.bench import Throughput


def una_env_playout(
    rules: str, players: int, games: int, seed: int = 0, core: bool | None = None
) -> Throughput:
    """Random masked actions through Una's AEC environment (``core``: as ``aec_env``'s)."""
    from una.env import aec_env

    preset, *overrides = rules.split()
    env = aec_env(preset, players=players, seed=seed, overrides=overrides, core=core)
    engine = "c" if type(env.table).__name__ == "CoreTable" else "python"
    result = masked_playout(env, games, seed)
    return Throughput(players, games, result[0], result[1], engine, rules)


def masked_playout(env: Any, games: int, seed: int) -> tuple[int, float]:
    """The loop both AEC sides are stepped by: (steps, seconds) for ``games`` episodes."""
    import numpy as np

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
    return moves, time.perf_counter() - start


def action_shares(rules: str, players: int, games: int, seed: int = 0) -> dict[str, float]:
    """The share of each action verb among the random masked choices of ``games`` hands
    of :func:`masked_playout` (``wait`` included; not timed): why the hands are as long as
    they are."""
    from una.env import aec_env

    preset, *overrides = rules.split()
    env = aec_env(preset, players=players, seed=seed, overrides=overrides)
    verbs = [env.space.code(i).split()[0] for i in range(len(env.space))]
    counts = dict.fromkeys(verbs, 0)
    step = env.step

    def counted(action: int | None) -> None:
        if action is not None:
            counts[verbs[action]] += 1
        step(action)

    env.step = counted
    masked_playout(env, games, seed)
    total = sum(counts.values())
    return {verb: round(count / total, 4) for verb, count in sorted(counts.items()) if count}


def harness_playout(rules: str, players: int, games: int, steps: int, seed: int = 0) -> Throughput:
    """The loop of :func:`una_env_playout` on an environment that does nothing, for
    ``steps`` steps a game: the loop's own cost."""
    from una.env import aec_env

    preset, *overrides = rules.split()
    like = aec_env(preset, players=players, seed=seed, overrides=overrides)
    env = _null_env(like.observe(like.agent_selection), players, max(1, steps))
    moves, seconds = masked_playout(env, games, seed)
    return Throughput(players, games, moves, seconds, "none", rules)


def _null_env(observation: dict[str, Any], players: int, steps: int) -> Any:
    """A PettingZoo AEC environment that shows one observation and ends after ``steps``."""
    from pettingzoo import AECEnv  # type: ignore[import-untyped]

    class Null(AECEnv):  # type: ignore[misc]
        metadata: ClassVar[dict[str, Any]] = {"name": "null_v0"}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"seat_{s}" for s in range(players)]

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents = self.possible_agents[:]
            self.left = steps
            self.turn = 0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = self.agents[0]

        def observe(self, agent: str) -> dict[str, Any]:
            return observation

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self.left -= 1
            if self.left == 0:
                self.terminations = dict.fromkeys(self.agents, True)
            self.turn = (self.turn + 1) % players
            self.agent_selection = self.possible_agents[self.turn]

    return Null()


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


SIDES = ("una", "rlcard", "harness")


def compare(
    rules: str, players: int, games: int, rounds: int, seed: int, core: bool | None = None
) -> dict[str, Any]:
    best: dict[str, Throughput] = {}
    for _round in range(rounds):
        for name in SIDES:
            # The same seed every round: a faster round is a less disturbed one, never one
            # of shorter games.
            if name == "una":
                result = una = una_env_playout(rules, players, games, seed, core)
            elif name == "rlcard":
                result = rlcard_env_playout(players, games, seed)
            else:  # as many steps a game as Una's side took
                steps = round(una.moves_per_game)
                result = harness_playout(rules, players, games, steps, seed)
            if name not in best or result.seconds < best[name].seconds:
                best[name] = result
    una, rl, harness = best["una"], best["rlcard"], best["harness"]
    return {
        "rules": rules,
        "players": players,
        "una": una.to_json(),
        "rlcard": rl.to_json(),
        "harness": harness.to_json(),
        "ratio_games_per_second": round(una.games_per_second / rl.games_per_second, 3),
        "ratio_steps_per_second": round(una.moves_per_second / rl.moves_per_second, 3),
        "harness_ratio_games_per_second": round(harness.games_per_second / rl.games_per_second, 3),
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
    parser.add_argument(
        "--python", action="store_true", help="Una's pure-Python table, not the C core"
    )
    parser.add_argument(
        "--shares", action="store_true", help="only the share of each verb in Una's choices"
    )
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
    if args.shares:
        for name in names:
            print(name, json.dumps(action_shares(name, args.players, args.games, args.seed)))
        return 0
    core = False if args.python else None
    runs = [compare(name, args.players, args.games, args.rounds, args.seed, core) for name in names]
    if args.json:
        print(json.dumps({"rlcard": rlcard.__version__, "runs": runs}))
        return 0
    print(
        f"RLCard {rlcard.__version__}; {args.players} players, {args.games} hands per round, "
        f"best of {args.rounds}"
    )
    print(f"{'rules':>30} {'env':>12} {'games/s':>9} {'steps/s':>11} {'steps/game':>10}")
    for run in runs:
        for name in SIDES:
            r = run[name]
            label = f"una ({r['engine']})" if name == "una" else name
            print(
                f"{run['rules']:>30} {label:>12} {r['games_per_second']:>9,.0f} "
                f"{r['moves_per_second']:>11,.0f} {r['moves_per_game']:>10.1f}"
            )
        print(
            f"{'':>30} ratio una/rlcard: games/s {run['ratio_games_per_second']:.2f}x, "
            f"steps/s {run['ratio_steps_per_second']:.2f}x; the harness alone at Una's "
            f"game length: games/s {run['harness_ratio_games_per_second']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
