"""``una sim``: many games between bots, in one process or several, reproducibly.

A sim *game* is one hand by default (fast, and what RLCard counts as a game); with
``matches`` it is a whole match played to the rule set's target. Seats rotate so that no
bot keeps a seat advantage: in game ``i`` the seating list is shifted by ``i`` places and
the first dealer is seat ``(i // n) % n``, so over every ``n * n`` consecutive games each
bot holds each seat, and each seat deals first, equally often.

Every random choice of game ``i`` (the engine's shuffles, each seat's bot generator) is
derived from the master seed and ``i`` alone, so results do not depend on the number of
worker processes or on the order in which they finish.

When every seat holds the ``random`` bot and the compiled core plays the rules
(:func:`core_unsupported`), the games run in C (:func:`una.engine.fast.sim_games`): the
same engine, the same bot policy on the same ``random.Random`` generators, so the same
results as the Python driver, game for game (``tests/sim/test_runner.py`` checks it).

>>> config = SimConfig(RuleSet.from_json("standard"), players=2, games=4,
...                    bots=("heuristic", "random"), seed=1)
>>> results = run(config)
>>> len(results), sum(r.hands for r in results)
(4, 4)
>>> results == run(config, jobs=2)
True
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from una.bots.registry import make_bot, parse_spec
from una.engine import fast
from una.engine.game import Game
from una.engine.rules import RuleSet
from una.sim.driver import MAX_ACTIONS_PER_HAND, Table


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. ``bots`` fills the seats in turn (cycled); ``record_dir``, when
    set, receives every game's record as ``game-00001.json`` (numbered from 1)."""

    rules: RuleSet
    players: int
    games: int
    bots: tuple[str, ...]
    seed: int = 0
    matches: bool = False
    record_dir: Path | None = None
    #: A time budget per decision for search bots (``--think-ms``), else their level's.
    think_ms: float | None = None

    @property
    def seats(self) -> tuple[str, ...]:
        """The bot spec of each seat before rotation."""
        return tuple(self.bots[s % len(self.bots)] for s in range(self.players))

    def seating(self, index: int) -> tuple[tuple[str, ...], int]:
        """The bot spec of each seat in game ``index``, and its first dealer."""
        n = self.players
        seats = self.seats
        shift = index % n
        return tuple(seats[(s + shift) % n] for s in range(n)), (index // n) % n


@dataclass(frozen=True)
class GameResult:
    """One game: the bot spec of each seat, the winning seat, the points of each seat (of
    the hand, or the match totals), turns per seat, actions in all, hands dealt."""

    index: int
    bots: tuple[str, ...]
    winner: int
    points: tuple[int, ...]
    turns: tuple[int, ...]
    actions: int
    hands: int


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the master seed and a path (stable across runs and Pythons)."""
    digest = hashlib.blake2b(repr((seed, *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play_game(config: SimConfig, index: int) -> GameResult:
    """Play game ``index`` of ``config`` (in any process: it depends on nothing else)."""
    specs, dealer = config.seating(index)
    names = [f"{spec} ({seat})" for seat, spec in enumerate(specs)]
    game = Game(config.rules, names, seed=derive_seed(config.seed, "game", index), dealer=dealer)
    agents = [make_bot(spec, think_ms=config.think_ms) for spec in specs]
    if not config.matches:
        for agent in agents:
            agent.goal = "hand"  # the game is the hand: who goes out wins it
    rngs = [random.Random(derive_seed(config.seed, "bot", index, s)) for s in range(game.n)]
    table = Table(game, agents, rngs)
    if config.matches:
        winner = table.play_match()
        points = tuple(game.scores)
    else:
        result = table.play_hand()
        winner, points = result.winner, tuple(result.points)
    if config.record_dir is not None:
        path = config.record_dir / f"game-{index + 1:05d}.json"
        path.write_text(game.to_record().dumps(indent=1), encoding="utf-8")
    return GameResult(
        index, specs, winner, points, tuple(table.turns), table.actions, game.hand_number
    )


def core_unsupported(config: SimConfig) -> str | None:
    """Why ``config``'s games cannot run in the compiled core (``None``: they can)."""
    if any(parse_spec(spec)[0] != "random" for spec in config.bots):
        return "only random bots are played in the C core"
    if config.record_dir is not None:
        return "game records are written by the Python engine"
    return fast.sim_unsupported(config.rules, config.players)


#: Games per call into the C core (results come back, and progress shows, per batch).
CORE_BATCH = 256


def play_games_in_core(config: SimConfig, indices: range) -> list[GameResult]:
    """Games ``indices`` of ``config`` in the compiled core: what :func:`play_game` gives
    for each, with random bots (see :func:`core_unsupported`)."""
    n = config.players
    seats = config.seats
    master = config.seed
    blake2b = hashlib.blake2b

    def seed_of(text: str) -> int:  # derive_seed, with the repr written out (speed)
        return int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "big") >> 1

    specs = []
    seeds = []
    for index in indices:
        shift = index % n
        specs.append(tuple(seats[(s + shift) % n] for s in range(n)))
        dealer = (index // n) % n
        game = seed_of(f"({master!r}, 'game', {index!r})")
        bots = [seed_of(f"({master!r}, 'bot', {index!r}, {s!r})") for s in range(n)]
        seeds.append((game, dealer, bots))
    played = fast.sim_games(
        config.rules, config.players, seeds, config.matches, MAX_ACTIONS_PER_HAND
    )
    return [
        GameResult(index, bots, winner, points, turns, actions, hands)
        for index, bots, (winner, points, turns, actions, hands) in zip(
            indices, specs, played, strict=True
        )
    ]


def iter_games(config: SimConfig, jobs: int = 1) -> Iterator[GameResult]:
    """The results of every game, in game order, played by ``jobs`` processes (or in the
    compiled core, in this one, when it plays them: it is faster than any pool)."""
    if config.record_dir is not None:
        config.record_dir.mkdir(parents=True, exist_ok=True)
    if core_unsupported(config) is None:
        for start in range(0, config.games, CORE_BATCH):
            yield from play_games_in_core(
                config, range(start, min(start + CORE_BATCH, config.games))
            )
        return
    if jobs <= 1 or config.games < 2:
        for index in range(config.games):
            yield play_game(config, index)
        return
    # "spawn": workers start clean, whatever threads (a progress bar) the parent runs.
    context = multiprocessing.get_context("spawn")
    chunk = max(1, min(64, config.games // (jobs * 8)))
    with context.Pool(jobs) as pool:
        yield from pool.imap(partial(play_game, config), range(config.games), chunksize=chunk)


def run(
    config: SimConfig,
    jobs: int = 1,
    progress: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play every game; ``progress`` is called after each one (in game order)."""
    results = []
    for result in iter_games(config, jobs):
        results.append(result)
        if progress is not None:
            progress(result)
    return results
