"""Una's engine against RLCard 1.2.0's raw UNO game, side by side in the same run.

Both run the same random policy (RLCard's random agent: a uniformly random legal play, a
draw only when there is none), one hand per game, dealing included, no observations or
views beyond what each game's own loop builds:

* Una: ``Game(...)``, then ``legal_actions(seat)`` + ``apply(seat, action)`` until the hand
  is over (:func:`una.sim.bench.playout`), under the full official rules (bluffs and
  challenges, UNO calls, the drawn-card decision, scoring);
* Una's compiled core (``una/engine/_fastcore.c``, when it is built): the same hands, rules
  and policy, with the whole loop, policy included, in C
  (:func:`una.sim.bench.core_playout`), while RLCard's loop (and policy) is Python;
* RLCard: ``UnoGame.init_game()``, then ``get_legal_actions()`` + ``step(action)`` until
  ``is_over()``; its rules are simplified (no challenge, no UNO call, a drawn card that fits
  is played for you, no scoring). Its random choices use Python's ``random`` like ours
  (RLCard's agent calls ``numpy.random.choice``, which is slower: this favors RLCard).

The two alternate for ``--rounds`` rounds and the best round of each is kept (the least
disturbed by other load). Needs the bench extra: ``pip install -e '.[bench]'``.

    python benchmarks/engine_vs_rlcard.py --games 2000 --rounds 3

With ``--sim`` it times ``una sim --bots random`` instead (:func:`sim_playout`: the
runner ``una sim --json`` runs, in this process: the C core wherever it plays the
preset, random bots on their own generators, the per-game results), on every preset
of ``--presets``, against RLCard's raw game in the same run:

    python benchmarks/engine_vs_rlcard.py --sim --players 2,4,8 --games 4000 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from una.engine.rules import RuleSet
from una.sim import runner
from una.sim.bench import Throughput, core_playout, playout


def rlcard_playout(players: int, games: int, seed: int = 0) -> Throughput:
    """RLCard's raw UnoGame under the random policy."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame  # type: ignore[import-untyped]

    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            moves += 1
    return Throughput(players, games, moves, time.perf_counter() - start)


def compare(players: int, games: int, rounds: int, seed: int) -> dict[str, Any]:
    best: dict[str, Throughput] = {}
    for round_ in range(rounds):
        for name, run in (("una", playout), ("rlcard", rlcard_playout), ("core", core_playout)):
            result = run(players, games, seed + round_)
            if result is not None and (name not in best or result.seconds < best[name].seconds):
                best[name] = result
    una, rl = best["una"], best["rlcard"]
    out: dict[str, Any] = {
        "players": players,
        "una": una.to_json(),
        "rlcard": rl.to_json(),
        "ratio_games_per_second": round(una.games_per_second / rl.games_per_second, 3),
    }
    core = best.get("core")
    if core is not None:
        out["core"] = core.to_json()
        out["ratio_core_games_per_second"] = round(core.games_per_second / rl.games_per_second, 2)
    return out


def sim_playout(players: int, games: int, seed: int, preset: str) -> Throughput:
    """``una sim --rules preset --players N --bots random``'s games, timed."""
    config = runner.SimConfig(RuleSet.from_json(preset), players, games, ("random",), seed)
    start = time.perf_counter()
    results = runner.run(config)
    seconds = time.perf_counter() - start
    engine = "python" if runner.core_unsupported(config) else "c"
    moves = sum(r.actions for r in results)
    return Throughput(players, games, moves, seconds, engine=engine, rules=preset)


def compare_sim(players: int, games: int, rounds: int, seed: int, preset: str) -> dict[str, Any]:
    best: dict[str, Throughput] = {}
    for round_ in range(rounds):
        sim = sim_playout(players, games, seed + round_, preset)
        rl = rlcard_playout(players, games, seed + round_)
        for name, result in (("sim", sim), ("rlcard", rl)):
            if name not in best or result.seconds < best[name].seconds:
                best[name] = result
    return {
        "preset": preset,
        "players": players,
        "sim": best["sim"].to_json(),
        "rlcard": best["rlcard"].to_json(),
        "ratio_games_per_second": round(
            best["sim"].games_per_second / best["rlcard"].games_per_second, 2
        ),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="hands per round and side")
    parser.add_argument("--players", default="2,4", help="seat counts, e.g. 2,4")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--sim", action="store_true", help="time una sim --bots random")
    parser.add_argument(
        "--presets", default="standard,telegram,alupula,byond", help="with --sim: presets"
    )
    args = parser.parse_args(argv)
    try:
        import rlcard  # type: ignore[import-untyped]
    except ImportError:
        print("RLCard is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    counts = [int(p) for p in args.players.split(",")]
    if args.sim:
        return sim_main(args, counts, rlcard.__version__)
    runs = [compare(p, args.games, args.rounds, args.seed) for p in counts]
    if args.json:
        print(json.dumps({"rlcard": rlcard.__version__, "runs": runs}))
        return 0
    print(f"RLCard {rlcard.__version__}; {args.games} hands per round, best of {args.rounds}")
    header = f"{'players':>7} {'engine':>8} {'games/s':>9} {'moves/s':>11} {'moves/game':>10}"
    print(header)
    for run in runs:
        for name, label in (("una", "una"), ("core", "una (C)"), ("rlcard", "rlcard")):
            if name not in run:
                continue
            r = run[name]
            print(
                f"{run['players']:>7} {label:>8} {r['games_per_second']:>9,.0f} "
                f"{r['moves_per_second']:>11,.0f} {r['moves_per_game']:>10.1f}"
            )
        print(f"{'':>7} ratio una/rlcard (games/s): {run['ratio_games_per_second']:.2f}x")
        if "core" in run:
            print(
                f"{'':>7} ratio una (C core)/rlcard (games/s): "
                f"{run['ratio_core_games_per_second']:.1f}x"
            )
        else:
            print(f"{'':>7} (the C core is not built: see docs/benchmarks.md)")
    return 0


def sim_main(args: argparse.Namespace, counts: list[int], version: str) -> int:
    presets = [p for p in args.presets.split(",") if p]
    runs = [
        compare_sim(p, args.games, args.rounds, args.seed, preset)
        for preset in presets
        for p in counts
    ]
    if args.json:
        print(json.dumps({"rlcard": version, "sim_runs": runs}))
        return 0
    print(f"RLCard {version}; una sim --bots random; {args.games} games per round, best of "
          f"{args.rounds}")  # fmt: skip
    print(f"{'preset':>9} {'players':>7} {'engine':>6} {'games/s':>9} {'moves/s':>11} "
          f"{'rlcard g/s':>10} {'ratio':>7}")  # fmt: skip
    for run_ in runs:
        sim, rl = run_["sim"], run_["rlcard"]
        print(
            f"{run_['preset']:>9} {run_['players']:>7} {sim['engine']:>6} "
            f"{sim['games_per_second']:>9,.0f} {sim['moves_per_second']:>11,.0f} "
            f"{rl['games_per_second']:>10,.0f} {run_['ratio_games_per_second']:>6.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
