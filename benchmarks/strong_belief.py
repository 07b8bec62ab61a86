"""How close the strong bot's sampled opponent hands come to the real ones.

    .venv/bin/python benchmarks/strong_belief.py --players 4 --hands 40 --rules standard

Plays hands of ``heuristic`` players; seat 0 keeps one :class:`una.bots.belief.Belief`
per setting (plain, ``reads_plays``, ``reads_choices``, both), fed the same views. At
each of seat 0's turns every belief samples ``--samples`` games, and each opponent's
sampled hand is compared with her real one: the share of her cards it has right (as a
multiset: card overlap) and the share it has right by color alone (color overlap).
``--choices-kept`` and ``--choice-tries`` set ``reads_choices``' ``CHOICES_KEPT`` and
``CHOICE_TRIES`` (how many of an opponent's choices a sample is checked against, and how
many deals it tries), to see how much more reading her choices could reveal.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from una.bots import belief as belief_module
from una.bots import make_bot
from una.bots.belief import Belief
from una.engine import Action, Game
from una.sim.driver import Table

SETTINGS: dict[str, dict[str, bool]] = {
    "plain": {},
    "reads_plays": {"reads_plays": True},
    "reads_choices": {"reads_choices": True},
    "both": {"reads_plays": True, "reads_choices": True},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--choices-kept", type=int, default=belief_module.CHOICES_KEPT)
    parser.add_argument("--choice-tries", type=int, default=belief_module.CHOICE_TRIES)
    args = parser.parse_args()
    if args.choices_kept < 1 or args.choice_tries < 1:
        parser.error("--choices-kept and --choice-tries must be 1 or more")
    belief_module.CHOICES_KEPT = args.choices_kept
    belief_module.CHOICE_TRIES = args.choice_tries
    cards: Counter[str] = Counter()
    colors: Counter[str] = Counter()
    total = 0
    for seed in range(args.hands):
        game = Game(args.rules, players=args.players, seed=seed)
        beliefs = {name: Belief(0, **options) for name, options in SETTINGS.items()}
        for belief in beliefs.values():
            belief.update(game.view_for(0))

        def watch(seat: int, action: Action, events: object, game: Game = game) -> None:
            for belief in beliefs.values():  # noqa: B023 (this hand's beliefs)
                belief.update(game.view_for(0), seat, action)

        bots = [make_bot("heuristic") for _ in range(game.n)]
        rngs = [random.Random(seed * 5 + s) for s in range(game.n)]
        table = Table(game, bots, rngs, watch)
        sampler = random.Random(seed)
        while not game.hand_over:
            table.step()
            if game.hand_over or game.to_act != 0:
                continue
            view = game.view_for(0)
            for _ in range(args.samples):
                total += sum(len(game.hands[s]) for s in range(1, game.n))
                for name, belief in beliefs.items():
                    sampled = belief.sample(view, sampler)
                    for seat in range(1, game.n):
                        real, guess = Counter(game.hands[seat]), Counter(sampled.hands[seat])
                        cards[name] += sum((real & guess).values())
                        real_colors = Counter(card.color for card in game.hands[seat])
                        guess_colors = Counter(card.color for card in sampled.hands[seat])
                        colors[name] += sum((real_colors & guess_colors).values())
    for name in SETTINGS:
        print(
            f"{name} ({args.rules}, {args.players} players, {args.hands} hands): "
            f"card overlap {cards[name] / total:.1%}, color overlap {colors[name] / total:.1%}"
        )


if __name__ == "__main__":
    main()
