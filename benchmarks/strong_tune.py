"""The ``strong`` bot with other settings against a bot, seats rotated as in ``una sim``.

    .venv/bin/python benchmarks/strong_tune.py '{"repeats": 16, "level": 2048}' \\
        --opponent heuristic --games 2000 --players 2 --seed 1 --jobs 2

The first argument is a JSON object of :class:`una.bots.strong.StrongBot` keyword
arguments (``level``, ``repeats``, ``confidence``, ``rollout_policy``, ``algorithm``,
``think_ms``, ``reads_plays``, ``reads_choices``, ``moves_per_rollout``, ``extensions``;
JSON ``null`` for None). Game ``i`` is ``una sim``'s game ``i`` (same deal, same seating, same bot
generators) with the strong bot in the first listed seat, so settings compared with the
same ``--seed`` meet the same deals. Progress goes to stderr every 200 games; the result
(wins, win rate with its 95% Wilson interval) to stdout.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from functools import partial

from una.bots.base import Bot
from una.bots.strong import StrongBot
from una.engine.rules import RuleSet
from una.sim import runner
from una.sim.stats import wilson

TUNED = "tuned"


def _make(settings: dict[str, object], original: object, spec: str, **options: object) -> Bot:
    if spec == TUNED:
        return StrongBot(**settings)  # type: ignore[arg-type]
    return original(spec, **options)  # type: ignore[operator,no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", help="StrongBot keyword arguments as a JSON object")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="standard", help="a preset or a JSON rules object")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    settings = json.loads(args.settings)
    if not isinstance(settings, dict):
        parser.error("settings: expected a JSON object, e.g. '{\"repeats\": 16}'")
    try:
        StrongBot(**settings)  # bad settings fail here, before any worker starts
    except (TypeError, ValueError) as error:
        parser.error(f"settings: {error}")
    # The workers are forked: they inherit this patched factory.
    runner.make_bot = partial(_make, settings, runner.make_bot)  # type: ignore[assignment]
    bots = (TUNED,) + (args.opponent,) * (args.players - 1)
    config = runner.SimConfig(
        RuleSet.from_json(json.loads(args.rules) if args.rules.startswith("{") else args.rules),
        players=args.players, games=args.games, bots=bots,
        seed=args.seed,
    )  # fmt: skip
    start = time.perf_counter()
    wins = done = 0
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        play = partial(runner.play_game, config)
        for result in pool.imap_unordered(play, range(args.games), chunksize=4):
            done += 1
            wins += result.bots[result.winner] == TUNED
            if done % 200 == 0:
                print(f"{done} games: {wins / done:.3f}", file=sys.stderr, flush=True)
    low, high = wilson(wins, done)
    elapsed = time.perf_counter() - start
    print(
        f"strong {settings} vs {args.opponent} ({args.rules}, {args.players} players): "
        f"{wins}/{done} = "
        f"{wins / done:.1%} ({low:.1%}-{high:.1%}), {elapsed:.0f} s"
    )


if __name__ == "__main__":
    main()
