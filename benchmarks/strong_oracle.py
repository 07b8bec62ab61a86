"""What the ``strong`` bot would win knowing opponents' hands, on ``una sim``'s deals.

    .venv/bin/python benchmarks/strong_oracle.py --reveal next --players 4 --games 400 --seed 1
    .venv/bin/python benchmarks/strong_oracle.py --reveal all --rlcard --games 1000 --seed 2

A diagnosis, not a bot: the strong bot's belief is handed the real cards of some
opponents (``--reveal``: ``none``, ``next`` or ``prev`` in the direction of play at each
decision, ``fewest`` cards, or ``all``) as if a rule had shown them, and samples the rest
as usual. Game ``i`` is ``una sim``'s game ``i`` (as in strong_tune.py), so ``--reveal
none`` is the bot itself (``{}`` in strong_tune.py) on the same deals. With ``--rlcard``
the games are RLCard's (benchmarks/rlcard_arena.py: game ``i`` is its game ``i``,
against ``uno-rule-v1``; ``--players``, ``--rules`` do not apply). Also counts the
searched decisions and those where the search left the heuristic's choice (the prior).
One process.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import rlcard_arena

from una.bots.belief import Belief
from una.bots.strong import StrongBot
from una.engine.actions import Action
from una.engine.cards import Card
from una.engine.game import Game
from una.engine.rules import RuleSet
from una.engine.views import View
from una.sim import runner
from una.sim.stats import wilson

TUNED = "tuned"
REVEALS = ("none", "next", "prev", "fewest", "all")
#: The real hands of the game being played, per seat (one process, one game at a time).
HANDS: dict[str, Callable[[], Sequence[Sequence[Card]]]] = {}
COUNTS = {"searched": 0, "left": 0}


class Shown(Belief):
    """A belief that is shown some opponents' real hands before each sample."""

    reveal = "none"

    def sample(self, view: View, rng: random.Random) -> Game:
        hands = HANDS["now"]()
        me = view.seat
        assert me is not None
        n = len(view.players)
        others = [s for s in range(n) if s != me and s not in view.out]
        shown = {
            "none": [],
            "next": [(me + view.direction) % n],
            "prev": [(me - view.direction) % n],
            "fewest": [min(others, key=lambda s: view.hand_counts[s])] if others else [],
            "all": others,
        }[self.reveal]
        saved = self.known
        self.known = {
            s: list(hands[s]) if s in shown else list(cards) for s, cards in saved.items()
        }
        try:
            return super().sample(view, rng)
        finally:
            self.known = saved


class Told(StrongBot):
    """The strong bot with a :class:`Shown` belief; counts where it left the prior."""

    def _belief(self, view: View) -> Belief:
        assert view.seat is not None
        if self.belief is None or self.belief.seat != view.seat:
            reads_plays, reads_choices, _ = self.settings(len(view.players))
            self.belief = Shown(view.seat, self.model, reads_plays, reads_choices)
        return self.belief

    def search(self, view: View, choices: Sequence[Action], rng: random.Random) -> Action:
        state = rng.getstate()
        prior = self.helper.choose(view, random.Random(rng.getrandbits(64)))
        rng.setstate(state)  # the search draws the same numbers as without the count
        action = super().search(view, choices, rng)
        COUNTS["searched"] += 1
        COUNTS["left"] += action != prior
        return action


class Watched(runner.Table):
    def __init__(self, game: Game, *args: Any, **kwargs: Any) -> None:
        HANDS["now"] = lambda: game.hands
        super().__init__(game, *args, **kwargs)


def rlcard_hands() -> list[list[Card]]:
    """The hands of RLCard's game in play, as Una cards."""
    game = rlcard_arena._env().game
    return [[rlcard_arena.card_from_rlcard(c.str)[0] for c in p.hand] for p in game.players]


def _make(settings: dict[str, Any], original: Any, spec: str, **options: Any) -> Any:
    if spec == TUNED:
        return Told(**settings)
    return original(spec, **options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reveal", choices=REVEALS, default="none")
    parser.add_argument("--settings", default="{}", help="StrongBot keyword arguments (JSON)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="standard", help="a preset or a JSON rules object")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rlcard", action="store_true", help="RLCard's game (rlcard_arena.py)")
    args = parser.parse_args()
    Shown.reveal = args.reveal
    settings = json.loads(args.settings)
    start = time.perf_counter()
    if args.rlcard:
        HANDS["now"] = rlcard_hands

        def make(spec: str) -> Any:
            return Told(**settings)

        wins = sum(
            rlcard_arena.play_game("strong", "rule", args.seed, i, make=make).won
            for i in range(args.games)
        )
        report(args, "RLCard's game, uno-rule-v1", wins, start)
        return
    runner.make_bot = partial(_make, settings, runner.make_bot)  # type: ignore[assignment]
    runner.Table = Watched  # type: ignore[misc]
    rules = json.loads(args.rules) if args.rules.startswith("{") else args.rules
    config = runner.SimConfig(
        RuleSet.from_json(rules), players=args.players, games=args.games,
        bots=(TUNED,) + ("heuristic",) * (args.players - 1), seed=args.seed,
    )  # fmt: skip
    wins = 0
    for index in range(args.games):
        result = runner.play_game(config, index)
        wins += result.bots[result.winner] == TUNED
    report(args, f"{args.rules}, {args.players} players", wins, start)


def report(args: argparse.Namespace, table: str, wins: int, start: float) -> None:
    low, high = wilson(wins, args.games)
    left = COUNTS["left"] / max(COUNTS["searched"], 1)
    print(
        f"strong {args.settings}, reveal {args.reveal} ({table}): "
        f"{wins}/{args.games} = {wins / args.games:.1%} ({low:.1%}-{high:.1%}); "
        f"left the prior in {COUNTS['left']} of {COUNTS['searched']} searched decisions "
        f"({left:.1%}), {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
