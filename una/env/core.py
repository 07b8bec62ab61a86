"""The table behind every environment: whose decision it is, what it may do, and the
rewards, over the engine's public API (``Game``, ``legal_actions``, ``apply``).

Turn order follows :class:`una.sim.driver.Table`: after every action of the seat to act,
each other seat that has a legal action now (a catch, an UNO call, a jump-in) is offered
one chance, in an order that rotates with every such round, and may ``wait``; a jump-in
(a turn taken out of turn) starts the offers again. Then the seat to act decides. When a
hand ends in a match, the player left of the dealer deals (``deal``).

Episodes are one hand (``reward="hand"``) or one match (``reward="match"``). Rewards come
at the episode's end only. ``payoff="win"``: +1 to the winner and -1/(n-1) to every other
seat; ``payoff="points"``: each seat's points of the hand (or match totals), sign turned
for a scoring where fewer is better (``penalty``), minus the table's mean, so they sum
to 0 too (under ``scoring=none`` there are no points: ``win`` is used).

>>> table = EnvTable("standard", players=2, seed=5)
>>> while not table.done:
...     table.step(min(table.legal))
>>> table.rewards, table.game.hand_over
([-1.0, 1.0], True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from una.engine.actions import TURN_KINDS, Action, Kind
from una.engine.errors import InvalidRules
from una.engine.events import Event
from una.engine.game import Game
from una.engine.rules import RuleSet
from una.env.actions import ActionSpace, check_players
from una.env.observation import ObservationEncoder
from una.sim.options import load_rules

REWARDS = ("hand", "match")
PAYOFFS = ("win", "points")
#: Actions after which an episode is cut short (truncated, with no reward): a hand of
#: random players under stacking rules can last tens of thousands of actions.
MAX_STEPS = 10_000


def make_rules(
    rules: RuleSet | str | Mapping[str, Any], overrides: Sequence[str] | Mapping[str, Any] = ()
) -> RuleSet:
    """A rule set as the CLI reads ``--rules`` and ``--set``: a preset name, a JSON object
    or file, or a :class:`RuleSet`; ``overrides`` are ``KEY=VALUE`` items or a mapping.

    >>> str(make_rules("standard", ["stack_draw_two=true"]))
    'standard stack_draw_two=True'
    >>> make_rules("standrad")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    una.engine.errors.InvalidRules: unknown preset 'standrad' (presets: ...)
    """
    items = [json.dumps(dict(overrides))] if isinstance(overrides, Mapping) else list(overrides)
    if isinstance(rules, RuleSet):
        if not items:
            return rules
        rules = rules.to_dict()
    text = json.dumps(dict(rules)) if isinstance(rules, Mapping) else rules
    if not isinstance(text, str):
        raise InvalidRules(f"rules must be a preset name, an object or a RuleSet, not {rules!r}")
    return load_rules(text, items)


class EnvTable:
    """One game played one decision at a time by action indexes.

    ``selected`` is the seat whose decision it is; ``legal`` its legal actions by index
    (``wait`` included when it is offered an out-of-turn chance); ``done`` and
    ``truncated`` say whether the episode is over; ``rewards`` are set when it is.
    """

    def __init__(
        self,
        rules: RuleSet | str | Mapping[str, Any] = "standard",
        players: int = 2,
        seed: int | None = None,
        reward: str = "hand",
        payoff: str = "win",
        max_steps: int = MAX_STEPS,
        overrides: Sequence[str] | Mapping[str, Any] = (),
    ) -> None:
        self.rules = make_rules(rules, overrides)
        check_players(self.rules, players)
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if payoff not in PAYOFFS:
            raise ValueError(f"payoff must be one of {', '.join(PAYOFFS)}, not {payoff!r}")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a positive whole number, not {max_steps!r}")
        self.players = players
        self.reward = reward
        self.payoff = payoff
        self.max_steps = max_steps
        self.space = ActionSpace(self.rules, players)
        self.encoder = ObservationEncoder(self.rules, players)
        self._seeds = random.Random(seed)
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        """A new episode: a new game, shuffled from ``seed`` (else from the next seed of
        the table's own sequence, itself seeded when the table was made)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        seeds = self._seeds
        self.game = Game(
            self.rules,
            self.players,
            seed=seeds.getrandbits(63),
            dealer=seeds.randrange(self.players),
        )
        #: The events of the last action (at the start: the deal's), as the engine gives
        #: them: the whole truth; show a seat only ``event.visible_to(seat)``.
        self.events: list[Event] = list(self.game.start_events)
        self.steps = 0
        self.done = False
        self.truncated = False
        self.rewards = [0.0] * self.players
        self._rotation = 0
        self._round_start = 0
        self._queue: list[int] = []
        self.offering = False
        self._select()

    @property
    def mask(self) -> np.ndarray:
        """The action mask of the selected seat (``int8``, 1 for a legal index)."""
        mask = np.zeros(len(self.space), dtype=np.int8)
        if not self.done:
            mask[self._legal_with_wait()] = 1
        return mask

    def observe(self, seat: int) -> np.ndarray:
        return self.encoder.encode(self.game, seat)

    def step(self, index: int) -> None:
        """The selected seat takes the action of ``index``. An index that is not legal now
        raises ``ValueError`` (naming it and the legal ones) and changes nothing."""
        if self.done:
            raise ValueError("the episode is over: reset the environment")
        if type(index) is not int:
            if isinstance(index, bool) or not isinstance(index, int | np.integer):
                raise ValueError(self._illegal(index))
            index = int(index)
        action = self.legal.get(index)
        if action is None and not (self.offering and index == self.space.wait):
            raise ValueError(self._illegal(index))
        self._advance(action)

    def act(self, action: Action) -> None:
        """The selected seat takes an engine action (any legal one, also one the space
        holds no index for); an illegal one raises ``IllegalAction``, changing nothing."""
        if self.done:
            raise ValueError("the episode is over: reset the environment")
        self.events = self.game.apply(self.selected, action)
        self._advance(action, applied=True)

    def _advance(self, action: Action | None, applied: bool = False) -> None:
        """After the selected seat's action (``None``: it waited): the episode's end, or
        the next decision."""
        self.steps += 1
        if action is None:
            self.events = []
        elif not applied:
            self.events = self.game.apply(self.selected, action, trusted=True)
        if self._finished():
            return
        if not self.offering:
            self._new_round()
        elif action is not None and action.kind in TURN_KINDS:
            # A jump-in is a turn: everybody may answer it again.
            self._queue = self._round(self._round_start)
        self._select()

    def _illegal(self, index: object) -> str:
        who = f"seat {self.selected}"
        legal = ", ".join(f"{i} ({self.space.code(i)})" for i in sorted(self._legal_with_wait()))
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            return f"action must be an index 0-{len(self.space) - 1}, not {index!r}"
        last = len(self.space) - 1
        if not 0 <= index <= last:
            return f"action {index} is out of range 0-{last}; {who} may take {legal}"
        code = self.space.code(int(index))
        return f"action {index} ({code}) is not legal now; {who} may take {legal}"

    def _legal_with_wait(self) -> list[int]:
        return [*self.legal, self.space.wait] if self.offering else list(self.legal)

    def _round(self, start: int) -> list[int]:
        n = self.players
        return [(start + i) % n for i in range(n)]

    def _new_round(self) -> None:
        self._round_start = start = self._rotation
        self._rotation = (start + 1) % self.players
        self._queue = self._round(start)

    def _select(self) -> None:
        """Whose decision is next: an offered seat, else the seat to act, else (a hand
        over in a match) the player left of the dealer."""
        game = self.game
        space = self.space
        if game.hand_over:
            seat = game.seating[(game.position[game.dealer] + 1) % self.players]
            self.selected, self.offering = seat, False
            self.legal = space.legal_map(game.legal_actions(seat))
            return
        queue = self._queue
        to_act = game.to_act
        while queue:
            seat = queue.pop(0)
            if seat == to_act:
                continue
            legal = game.legal_actions(seat)
            if legal:
                self.selected, self.offering = seat, True
                self.legal = space.legal_map(legal, self._others(seat, legal))
                if self.legal:
                    return
        assert to_act is not None
        self.selected, self.offering = to_act, False
        legal = game.legal_actions(to_act)
        self.legal = space.legal_map(legal, self._others(to_act, legal))

    def _others(self, seat: int, legal: Sequence[Action]) -> list[int] | None:
        """The other seats still in the hand, where a legal play picks several players."""
        if not self.space.multi_picks:
            return None
        for action in legal:
            if action.kind is Kind.PLAY and len(action.targets) > 1:
                return [s for s in self.game.seats_in_hand() if s != seat]
        return None

    def _finished(self) -> bool:
        game = self.game
        end = game.match_over if self.reward == "match" else game.hand_over
        if end:
            self.done = True
            self.rewards = self._payoffs()
            self.legal = {}
            return True
        if self.steps >= self.max_steps:
            self.done = self.truncated = True
            self.legal = {}
            return True
        return False

    def _payoffs(self) -> list[float]:
        game = self.game
        n = self.players
        if self.reward == "hand":
            assert game.hand_result is not None
            winner, points = game.hand_result.winner, game.hand_result.points
        else:
            assert game.winner is not None
            winner, points = game.winner, tuple(game.scores)
        scoring = self.rules.scoring
        if self.payoff == "win" or scoring == "none":
            out = [-1.0 / (n - 1)] * n
            out[winner] = 1.0
            return out
        sign = -1.0 if scoring == "penalty" else 1.0
        signed = [sign * p for p in points]
        mean = sum(signed) / n
        return [value - mean for value in signed]
