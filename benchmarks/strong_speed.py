"""Think time of the ``strong`` bot per decision (median, 90th percentile, max).

    .venv/bin/python benchmarks/strong_speed.py --bot strong --hands 40 --players 2 --rules byond
    .venv/bin/python benchmarks/strong_speed.py --settings '{"reads_choices": true}' --players 4

Plays hands of a rule set, the strong bot against ``heuristic``, and times every
``choose`` call of the strong bot's seat that had more than one turn action (the searched
decisions) and every call at all. ``--settings`` seats ``StrongBot(**settings)`` (a JSON
object of its keyword arguments, as in strong_tune.py) in place of ``--bot``.

Then the core moves the searched decisions played out (median, p90, p99; the cap from
three players is 20 per rollout of the budget). The last line is a digest of every action
the bot chose and the total think time: two versions of the bot that print the same
digest made the same decisions, so a change meant only to be faster is checked and timed
in one run of each.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time

from una.bots import make_bot
from una.bots.strong import StrongBot
from una.engine import Game
from una.sim.driver import Table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="strong")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--settings", help="StrongBot keyword arguments as a JSON object")
    args = parser.parse_args()
    settings = None if args.settings is None else json.loads(args.settings)
    name = args.bot if settings is None else f"strong {settings}"
    searched: list[float] = []
    every: list[float] = []
    moves: list[int] = []  # core moves played out per searched decision
    chosen = hashlib.sha256()
    for hand in range(args.hands):
        bot = make_bot(args.bot) if settings is None else StrongBot(**settings)
        bot.goal = "hand"  # one hand a game, as una sim without --matches
        original = bot.choose

        def timed(view, rng, original=original, bot=bot):  # type: ignore[no-untyped-def]
            played = getattr(bot, "moves", 0)
            start = time.perf_counter()
            action = original(view, rng)
            elapsed = (time.perf_counter() - start) * 1000
            played = getattr(bot, "moves", 0) - played
            every.append(elapsed)
            chosen.update(action.code.encode() + b" ")
            if len([a for a in view.legal if a.kind.value not in ("uno", "catch")]) > 1:
                searched.append(elapsed)
                moves.append(played)
            return action

        bot.choose = timed  # type: ignore[method-assign]
        agents = [bot] + [make_bot("heuristic") for _ in range(args.players - 1)]
        game = Game(args.rules, args.players, seed=args.seed * 100_000 + hand)
        rngs = [random.Random(hand * 10 + s) for s in range(args.players)]
        Table(game, agents, rngs).play_hand()
    for kind, times in (("searched decisions", searched), ("every decision", every)):
        times.sort()
        print(
            f"{name} {args.rules} {kind}: {len(times)} moves, median "
            f"{statistics.median(times):.1f} ms, p90 {times[int(len(times) * 0.9)]:.1f} ms, "
            f"p99 {times[int(len(times) * 0.99)]:.1f} ms, max {times[-1]:.1f} ms"
        )
    moves.sort()
    if moves:
        print(
            f"core moves per searched decision: median {statistics.median(moves):.0f}, "
            f"p90 {moves[int(len(moves) * 0.9)]}, p99 {moves[int(len(moves) * 0.99)]}"
        )
    print(f"decisions digest {chosen.hexdigest()[:16]}, think time {sum(every) / 1000:.2f} s")


if __name__ == "__main__":
    main()
