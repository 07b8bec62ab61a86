"""The soak test: many random games across every preset with random switch overrides.

Each game draws a preset from :data:`~una.engine.presets.PRESETS` (whatever exists when it
runs), random overrides of the switches in :data:`~una.engine.rules.SWITCHES` (values the
engine supports; combinations it refuses are drawn again), 2 to the preset's most seats,
and plays one to three hands with random legal actions by any seat: the player to act
mostly plays when she can (uniform walks with voluntary draws take very long to finish),
and now and then another seat takes one of its legal actions (catches, UNO calls,
jump-ins), so UNO calls are sometimes missed and caught. After every action it checks:

* the number of cards at the table equals the deck's, and every 64 actions and at the end
  of each hand, card for card (multiset);
* while a hand runs, the player to act has a legal turn action;
* after a hand, every seat may deal (unless the match is over);
* no exception, and no hand longer than :data:`MAX_ACTIONS` actions (a stuck game).

A failure keeps the game's record (rules, seed, actions) so it replays exactly.
"""

from __future__ import annotations

import multiprocessing
import random
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from una.engine.actions import Action, Kind
from una.engine.errors import InvalidRules
from una.engine.game import Game
from una.engine.presets import PRESETS
from una.engine.rules import MAX_SEATS, SWITCHES, RuleSet
from una.sim.runner import derive_seed

#: A hand with more actions than this counts as stuck.
MAX_ACTIONS = 20_000
_NOT_TURNS = (Kind.UNO, Kind.CATCH)


def switch_values(name: str) -> list[Any]:
    """The values the soak test tries for a switch (none for seat counts)."""
    switch = SWITCHES[name]
    if switch.type is bool:
        values: list[Any] = [False, True]
    elif switch.type is str:
        values = list(switch.choices)
    elif switch.type is int:
        default = int(switch.default)
        values = sorted({max(1, default // 10), max(1, default // 2), default})
    else:
        return []
    # Switches once declared the values the engine implemented so far; honour that if so.
    supported = getattr(switch, "supported", None)
    if supported is not None:
        values = [v for v in values if v in supported]
    return values


def random_rules(rng: random.Random) -> RuleSet:
    """A preset with random switch overrides that the engine accepts."""
    presets = sorted(PRESETS)
    for _ in range(1000):
        overrides: dict[str, Any] = {}
        for name in SWITCHES:
            values = switch_values(name)
            if values and rng.random() < 0.35:
                overrides[name] = rng.choice(values)
        try:
            return RuleSet.from_json({"preset": rng.choice(presets), **overrides})
        except InvalidRules:
            continue
    raise RuntimeError("no accepted switch combination in 1000 draws")  # pragma: no cover


@dataclass
class SoakReport:
    """Counts, and the failures found (kind, message, record JSON)."""

    games: int = 0
    hands: int = 0
    actions: int = 0
    seconds: float = 0.0
    presets: Counter[str] = field(default_factory=Counter)
    failures: list[tuple[str, str, str]] = field(default_factory=list)

    def add(self, other: SoakReport) -> None:
        self.games += other.games
        self.hands += other.hands
        self.actions += other.actions
        self.presets.update(other.presets)
        self.failures.extend(other.failures)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "hands": self.hands,
            "actions": self.actions,
            "seconds": round(self.seconds, 2),
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "presets": dict(sorted(self.presets.items())),
            "failures": [
                {"kind": kind, "message": message, "record": record}
                for kind, message, record in self.failures
            ],
        }


class SoakFailure(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _choose(game: Game, rng: random.Random, legal: list[Action]) -> tuple[int, Action]:
    """A random legal action: mostly the player to act's (``legal``, already listed),
    sometimes another seat's."""
    n = game.n
    if game.hand_over:
        seat = rng.randrange(n)
        return seat, game.legal_actions(seat)[0]
    to_act = game.to_act
    assert to_act is not None
    if rng.random() < 0.15:
        seat = rng.randrange(n)
        if seat != to_act:
            other = game.legal_actions(seat)
            if other:
                return seat, rng.choice(other)
    plays = [a for a in legal if a.kind is Kind.PLAY]
    if plays and rng.random() < 0.9:
        return to_act, rng.choice(plays)
    return to_act, rng.choice(legal)


def _check(game: Game, deck: Counter[Any], size: int, full: bool) -> list[Action]:
    """Check the invariants; returns the legal actions of the player to act (if any)."""
    cards = game.all_cards()  # piles, hands and whatever a rule sets aside
    count = len(cards)
    if count != size or (full and Counter(cards) != deck):
        raise SoakFailure("conservation", f"{count} cards at the table, the deck has {size}")
    if game.match_over:
        return []
    if game.hand_over:
        for seat in range(game.n):
            if not any(a.kind is Kind.DEAL for a in game.legal_actions(seat)):
                raise SoakFailure("no_deal", f"seat {seat} cannot deal after the hand")
        return []
    to_act = game.to_act
    legal = [] if to_act is None else game.legal_actions(to_act)
    if not any(a.kind not in _NOT_TURNS for a in legal):
        raise SoakFailure("no_action", f"the player to act ({to_act}) has no legal turn action")
    return legal


def soak_game(seed: int, report: SoakReport) -> None:
    """One soak game (one to three hands), counted into ``report``."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    low, high = rules.players
    players = rng.randint(low, min(high, MAX_SEATS))
    hands_wanted = rng.randint(1, 3)
    report.presets[rules.preset] += 1
    game: Game | None = None
    try:
        game = Game(rules, players, seed=seed, dealer=rng.randrange(players))
        deck = Counter(rules.deck())
        size = len(rules.deck())
        legal = _check(game, deck, size, True)
        hand_actions = 0
        while True:
            if game.hand_over:
                report.hands += 1
                legal = _check(game, deck, size, True)
                if game.match_over or game.hand_number >= hands_wanted:
                    break
                hand_actions = 0
            seat, action = _choose(game, rng, legal)
            game.apply(seat, action)
            report.actions += 1
            hand_actions += 1
            if hand_actions > MAX_ACTIONS:
                raise SoakFailure("stuck", f"no end after {MAX_ACTIONS} actions: {game!r}")
            legal = _check(game, deck, size, hand_actions % 64 == 0)
    except SoakFailure as failure:
        report.failures.append((failure.kind, str(failure), _record(game)))
    except Exception as error:  # a soak test reports every exception
        message = "".join(traceback.format_exception_only(type(error), error)).strip()
        report.failures.append(("exception", message, _record(game)))
    report.games += 1


def _record(game: Game | None) -> str:
    if game is None:
        return ""
    try:
        text: str = game.to_record().dumps()
        return text
    except Exception:  # the record is a courtesy; the failure is reported
        return ""


def soak_block(seed: int, block: int, hands: int) -> SoakReport:
    """Games of block ``block`` until they have played ``hands`` hands."""
    report = SoakReport()
    start = time.perf_counter()
    index = 0
    while report.hands < hands:
        before = (report.hands, report.games)
        soak_game(derive_seed(seed, "soak", block, index), report)
        index += 1
        if report.hands == before[0] and report.failures:
            report.hands += 1  # a game that failed before its first hand still counts once
    report.seconds = time.perf_counter() - start
    return report


def _block_task(args: tuple[int, int, int]) -> SoakReport:
    return soak_block(*args)


def soak(
    hands: int,
    seed: int = 0,
    jobs: int = 1,
    block_size: int = 2000,
    progress: Callable[[SoakReport], None] | None = None,
) -> SoakReport:
    """Play at least ``hands`` hands in blocks (``jobs`` processes); ``progress`` gets each
    block's report as it finishes."""
    blocks = [
        (seed, b, min(block_size, hands - b * block_size))
        for b in range((hands + block_size - 1) // block_size)
    ]
    total = SoakReport()
    start = time.perf_counter()
    if jobs <= 1:
        results = map(_block_task, blocks)
        for result in results:
            total.add(result)
            if progress is not None:
                progress(result)
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(jobs) as pool:
            for result in pool.imap_unordered(_block_task, blocks):
                total.add(result)
                if progress is not None:
                    progress(result)
    total.seconds = time.perf_counter() - start
    return total
