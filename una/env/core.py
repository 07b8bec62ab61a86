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
...     _ = table.step(min(table.legal))
>>> table.rewards, table.game.hand_over
([-1.0, 1.0], True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any

import numpy as np

from una.engine.actions import TURN_KINDS, Action, Kind
from una.engine.cards import COLORS
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
        self._prepare()
        self.reset()

    def _prepare(self) -> None:
        """What a table needs before its first episode (the Python table: nothing)."""

    def reset(self, seed: int | None = None) -> None:
        """A new episode: a new game, shuffled from ``seed`` (else from the next seed of
        the table's own sequence, itself seeded when the table was made)."""
        game_seed, dealer = self._next_deal(seed)
        self.game = Game(self.rules, self.players, seed=game_seed, dealer=dealer)
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

    def _next_deal(self, seed: int | None) -> tuple[int, int]:
        """The engine seed and dealer of the next episode (see :meth:`reset`)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        return self._seeds.getrandbits(63), self._seeds.randrange(self.players)

    @property
    def mask(self) -> np.ndarray:
        """The action mask of the selected seat (``int8``, 1 for a legal index)."""
        mask = np.zeros(len(self.space), dtype=np.int8)
        if not self.done:
            mask[self._legal_with_wait()] = 1
        return mask

    def observe(self, seat: int) -> np.ndarray:
        """What ``seat`` may know now (:mod:`una.env.observation`)."""
        return self.encoder.encode(self.game, seat)

    def view(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """``seat``'s observation and action mask (all 0 unless it is selected)."""
        selected = not self.done and seat == self.selected
        mask = self.mask if selected else np.zeros(len(self.space), dtype=np.int8)
        return self.observe(seat), mask

    def step(self, index: int) -> int | None:
        """The selected seat takes the action of ``index``; returns the seat selected next
        (``None``: the episode is over). An index that is not legal now raises
        ``ValueError`` (naming it and the legal ones) and changes nothing."""
        index = self._index(index)
        action = self.legal.get(index)
        if action is None and not (self.offering and index == self.space.wait):
            raise ValueError(self._illegal(index))
        self._advance(action)
        return None if self.done else self.selected

    def _index(self, index: object) -> int:
        """``index`` as an ``int``; ``ValueError`` if the episode is over or it is none."""
        if self.done:
            raise ValueError("the episode is over: reset the environment")
        if type(index) is not int:
            if isinstance(index, bool) or not isinstance(index, int | np.integer):
                raise ValueError(self._illegal(index))
            index = int(index)
        return index

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
                self.legal = legal_map(space, game, seat, legal)
                if self.legal:
                    return
        assert to_act is not None
        self.selected, self.offering = to_act, False
        self.legal = legal_map(space, game, to_act, game.legal_actions(to_act))

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
        if self.reward == "hand":
            assert game.hand_result is not None
            return self._share(game.hand_result.winner, game.hand_result.points)
        assert game.winner is not None
        return self._share(game.winner, game.scores)

    def _share(self, winner: int, points: Sequence[int]) -> list[float]:
        """The episode's rewards, from its winner and points (see the module's docstring)."""
        n = self.players
        scoring = self.rules.scoring
        if self.payoff == "win" or scoring == "none":
            out = [-1.0 / (n - 1)] * n
            out[winner] = 1.0
            return out
        sign = -1.0 if scoring == "penalty" else 1.0
        signed = [sign * p for p in points]
        mean = sum(signed) / n
        return [value - mean for value in signed]


def legal_map(
    space: ActionSpace, game: Game, seat: int, legal: Sequence[Action]
) -> dict[int, Action]:
    """``seat``'s legal actions by index (:meth:`ActionSpace.legal_map`), with the other
    seats still in the hand where a legal play picks several players."""
    others = None
    if space.multi_picks:
        for action in legal:
            if action.kind is Kind.PLAY and len(action.targets) > 1:
                others = [s for s in game.seats_in_hand() if s != seat]
                break
    return space.legal_map(legal, others)


#: Slot patterns as the C table numbers them.
_PATTERNS = {"": 0, "one": 1, "all": 2, "even": 3}


def core_slots(space: ActionSpace) -> list[tuple[str, int, int, int, int, bool]]:
    """The slots of ``space`` but ``wait`` as the C table reads them
    (:func:`una.engine.fast.env_table`)."""
    from una.engine.fast import CARD_IDS

    slots = []
    for slot in space.slots[: space.wait]:
        action = slot.action
        color = slot.color if slot.color is not None else action and action.color
        target = -1
        if slot.pattern[1] is not None:
            target = slot.pattern[1]
        elif action is not None and action.kind is Kind.CATCH:
            target = action.targets[0]
        slots.append((
            slot.kind.value, -1 if slot.card is None else CARD_IDS[slot.card],
            -1 if not color else COLORS.index(color), _PATTERNS[slot.pattern[0]], target,
            slot.uno,
        ))  # fmt: skip
    return slots


class CoreTable(EnvTable):
    """:class:`EnvTable` on the engine's C core (:mod:`una.engine.fast`): the same
    episodes for the same seeds and indexes, decision for decision, with the turn order,
    the action mask and the observation computed in C and written into buffers made once
    (``tests/env/test_env_core.py`` checks every step of random games on every preset).

    The Python :class:`~una.engine.game.Game` is there too, for records and views:
    ``game`` (and ``events``, ``legal``) replay the steps taken since it was last read,
    so a loop that never reads them runs at the core's speed. :meth:`act` takes engine
    actions that have an index in the space. Rule sets the core does not play raise
    :class:`~una.engine.fast.CoreUnsupported` (:func:`make_table` then makes an
    :class:`EnvTable`).

    >>> table = CoreTable("standard", players=2, seed=5)
    >>> while not table.done:
    ...     _ = table.step(min(table.legal))
    >>> table.rewards, table.game.hand_over
    ([-1.0, 1.0], True)
    """

    def _prepare(self) -> None:
        from una.engine import fast
        from una.env.observation import PHASES

        space = self.space
        fields = {name: (part.start, part.stop) for name, part in self.encoder.fields.items()}
        self._obs = np.zeros(self.encoder.size, dtype=np.float32)
        self._mask = np.zeros(len(space), dtype=np.int8)
        self._core = fast.env_table(
            self.rules, self.players, core_slots(space), fields, self.encoder.cards, PHASES,
            self._obs, self._mask, min(self.max_steps, 2**31 - 1), self.reward == "match",
        )  # fmt: skip
        self._deal = (0, 0)
        self._game: Game | None = None
        self._synced = 0
        self._events: list[Event] = []

    def reset(self, seed: int | None = None) -> None:
        self._deal = self._next_deal(seed)
        self._core.reset(*self._deal)
        self._game = None

    # Copied and pickled as the deal and the steps since: a new core replays them.
    _UNPICKLED = ("_core", "_obs", "_mask", "_game", "_events", "_synced")

    def __getstate__(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in self._UNPICKLED}
        state["_history"] = [index for _, index in self._core.history(0)]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        history = state.pop("_history")
        self.__dict__.update(state)
        deal = self._deal
        self._prepare()
        self._deal = deal
        self._core.reset(*deal)
        for index in history:
            self._core.step(index)

    # The state lives in the core: these read it there (attrgetter: no Python frame).
    selected = property(attrgetter("_core.selected"))
    offering = property(attrgetter("_core.offering"))
    done = property(attrgetter("_core.done"))
    truncated = property(attrgetter("_core.truncated"))
    steps = property(attrgetter("_core.steps"))

    @property  # type: ignore[override]
    def rewards(self) -> list[float]:
        core = self._core
        if not core.done or core.truncated:
            return [0.0] * self.players
        hand_winner, hand_points, winner, scores = core.result()
        if self.reward == "hand":
            return self._share(hand_winner, hand_points)
        return self._share(winner, scores)

    @property
    def mask(self) -> np.ndarray:
        return self._mask.copy()

    def observe(self, seat: int) -> np.ndarray:
        self._core.observe(seat)
        return self._obs.copy()

    def step(self, index: int) -> int | None:
        # The usual case in one call; the checks of EnvTable.step on the others.
        seat = self._core.step(index) if type(index) is int else -1
        if seat < 0:
            if seat == -3:
                return None
            index = self._index(index)
            seat = self._core.step(index)
            if seat < 0:
                if seat == -3:
                    return None
                raise ValueError(self._illegal(index))
        return int(seat)

    def view(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        self._core.observe(seat)
        core = self._core
        mask = self._mask.copy() if seat == core.selected else np.zeros_like(self._mask)
        return self._obs.copy(), mask

    @property  # type: ignore[override]
    def game(self) -> Game:
        """The Python game, brought up to the core's position by replaying the steps."""
        game = self._game
        if game is None:
            game_seed, dealer = self._deal
            game = self._game = Game(self.rules, self.players, seed=game_seed, dealer=dealer)
            self._events = list(game.start_events)
            self._synced = 0
        history = self._core.history(self._synced)
        space = self.space
        for seat, index in history:
            if index == space.wait:
                self._events = []
                continue
            legal = legal_map(space, game, seat, game.legal_actions(seat))
            self._events = game.apply(seat, legal[index], trusted=True)
        self._synced += len(history)
        return game

    @property  # type: ignore[override]
    def events(self) -> list[Event]:
        self.game  # noqa: B018 -- brings the events up to date
        return self._events

    @property  # type: ignore[override]
    def legal(self) -> dict[int, Action]:
        if self._core.done:
            return {}
        game = self.game
        seat = self._core.selected
        return legal_map(self.space, game, seat, game.legal_actions(seat))

    def act(self, action: Action) -> None:
        """Like :meth:`EnvTable.act`, for an action with an index in the space; a legal
        Target Practice split the space holds no index for raises ``ValueError`` (make
        the table with ``core=False`` to play those)."""
        if self.done:
            raise ValueError("the episode is over: reset the environment")
        game = self.game
        seat = self.selected
        for index, legal in self.legal.items():
            if legal == action:
                self.step(index)
                return
        game.copy().apply(seat, action)  # raises IllegalAction, changing nothing
        raise ValueError(
            f"action {action.code!r} has no index in this space: the C table plays indexed "
            "actions only (make it with core=False)"
        )


def make_table(*args: Any, core: bool | None = None, **options: Any) -> EnvTable:
    """A table for an environment, made with :class:`EnvTable`'s arguments: a
    :class:`CoreTable` where the C core plays the rules (``core=None``, the default, or
    ``True``: then :class:`~una.engine.fast.CoreUnsupported` where it does not), else (or
    with ``core=False``) an :class:`EnvTable`. Both play the same episodes.

    >>> type(make_table("standard", 2, seed=1)).__name__ in ("CoreTable", "EnvTable")
    True
    >>> type(make_table("standard", core=False)).__name__
    'EnvTable'
    """
    from una.engine.fast import CoreUnsupported

    if core is False:
        return EnvTable(*args, **options)
    try:
        return CoreTable(*args, **options)
    except CoreUnsupported:
        if core:
            raise
        return EnvTable(*args, **options)
