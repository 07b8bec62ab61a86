"""``una bench``: the engine's raw random-playout throughput.

The loop is the engine alone, like RLCard's raw game: ``legal_actions`` of the seat to
act, the ``random`` bot's policy on that list (:func:`una.bots.random_bot.pick`: a
uniformly random play, a draw only when there is none), ``apply``; one hand per game,
dealing included. No views, no bots objects, no out-of-turn offers (the random policy
never catches and always calls UNO, so there is nothing to offer).

:func:`core_playout` times the same hands in the compiled core
(:func:`una.engine.fast.random_playouts`): the same rules, deal and policy, with the
whole loop, policy included, in C, for every rule set the core plays. ``una bench``
reports every preset.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from una.bots.random_bot import pick
from una.engine import fast
from una.engine.game import Game
from una.engine.rules import RuleSet


@dataclass(frozen=True)
class Throughput:
    """What a playout run measured."""

    players: int
    games: int
    moves: int
    seconds: float
    #: ``"python"`` (the pure-Python engine) or ``"c"`` (the compiled core)
    engine: str = "python"
    #: the rule set played (a preset name, or a preset with its overrides)
    rules: str = "standard"

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else float("inf")

    @property
    def moves_per_game(self) -> float:
        return self.moves / self.games if self.games else 0.0

    def to_json(self) -> dict[str, float | int | str]:
        return {
            "engine": self.engine,
            "rules": self.rules,
            "players": self.players,
            "games": self.games,
            "moves": self.moves,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 1),
            "moves_per_second": round(self.moves_per_second, 1),
            "moves_per_game": round(self.moves_per_game, 2),
        }


def playout(
    players: int, games: int, seed: int = 0, rules: RuleSet | str = "standard"
) -> Throughput:
    """Play ``games`` random hands of ``players`` seats and time them.

    >>> result = playout(2, 3, seed=1)
    >>> result.games, result.moves > 0
    (3, True)
    """
    ruleset = rules if isinstance(rules, RuleSet) else RuleSet.from_json(rules)
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for index in range(games):
        game = Game(ruleset, players, seed=seed * 1_000_003 + index)
        while not game.hand_over:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, pick(game.legal_actions(seat), rng))
            moves += 1
    seconds = time.perf_counter() - start
    return Throughput(players, games, moves, seconds, rules=str(ruleset))


def core_playout(
    players: int, games: int, seed: int = 0, rules: RuleSet | str = "standard"
) -> Throughput | None:
    """:func:`playout` in the compiled core, or ``None`` if it is not built or does not
    play ``rules`` (:func:`una.engine.fast.why_unsupported` says why).

    >>> result = core_playout(2, 3, seed=1, rules="telegram")
    >>> result is None or (result.games, result.engine, result.rules) == (3, "c", "telegram")
    True
    """
    ruleset = rules if isinstance(rules, RuleSet) else RuleSet.from_json(rules)
    if not fast.supports(ruleset, players):
        return None
    start = time.perf_counter()
    result = fast.random_playouts(players, games, seed, ruleset)
    seconds = time.perf_counter() - start
    return Throughput(players, games, result.moves, seconds, engine="c", rules=str(ruleset))
