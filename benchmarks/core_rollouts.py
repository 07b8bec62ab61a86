"""The compiled core's speed at the strong bot's rollouts: nanoseconds a core move.

    .venv/bin/python benchmarks/core_rollouts.py
    .venv/bin/python benchmarks/core_rollouts.py --rules byond --players 2 --deals 60 --json

``una bench`` times whole random hands, dealing included; a search spends its time
elsewhere: many playouts of one sampled position by the greedy policy (heads-up) or the
challenging one (from three players), the pile reshuffled for each
(:func:`una.engine.fast.playouts_counted`, as ``StrongBot._rollout`` calls it). This plays
``--repeats`` such playouts from each of ``--deals`` fresh deals per preset and seat count,
and prints the best of ``--trials`` runs as nanoseconds per core move (one position
loaded per ``--repeats`` playouts, as a search loads one sample per 16). The moves and a
digest of the results show that two builds played the same playouts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

from una.bots.strong import READS_FROM, ROLLOUT_LIMIT
from una.engine import fast
from una.engine.game import Game
from una.engine.presets import PRESETS


def measure(rules: str, players: int, deals: int, repeats: int, trials: int) -> dict[str, object]:
    """The best of ``trials`` timings of the rollouts from ``deals`` deals."""
    policy = "challenging" if players >= READS_FROM else "greedy"
    games = [Game(rules, players=players, seed=seed) for seed in range(deals)]
    best = float("inf")
    moves = 0
    digest = hashlib.sha256()
    for _ in range(trials):
        digest = hashlib.sha256()
        moves = 0
        start = time.perf_counter()
        for index, game in enumerate(games):
            counted = fast.playouts_counted(game, index, policy, repeats, ROLLOUT_LIMIT, True)
            moves += counted[1]
            digest.update(repr(counted).encode())
        best = min(best, time.perf_counter() - start)
    return {
        "rules": rules,
        "players": players,
        "policy": policy,
        "rollouts": deals * repeats,
        "moves": moves,
        "ns_per_move": round(best * 1e9 / moves, 1),
        "digest": digest.hexdigest()[:16],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", help="one preset (default: every preset)")
    parser.add_argument("--players", default="2,4", help="seat counts, e.g. 2,4")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object a line")
    args = parser.parse_args()
    if not fast.available():
        parser.error("the compiled core is not built (see the README's setup command)")
    presets = [args.rules] if args.rules else sorted(PRESETS)
    if args.rules and args.rules not in PRESETS:
        parser.error(f"--rules: one of {', '.join(sorted(PRESETS))}, not {args.rules!r}")
    try:
        counts = [int(p) for p in args.players.split(",")]
    except ValueError:
        parser.error(f"--players: comma-separated seat counts, not {args.players!r}")
    if min(args.deals, args.repeats, args.trials) < 1:
        parser.error("--deals, --repeats and --trials must be 1 or more")
    for rules in presets:
        for players in counts:
            row = measure(rules, players, args.deals, args.repeats, args.trials)
            if args.json:
                print(json.dumps(row))
            else:
                print(
                    f"{rules:9} {players} players, {row['policy']:11} "
                    f"{row['moves']:>9,} moves  {row['ns_per_move']:6.1f} ns a move  "
                    f"digest {row['digest']}"
                )


if __name__ == "__main__":
    main()
