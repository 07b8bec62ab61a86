"""The driver: plays a game with one agent per seat (bots, or a person at a terminal).

After every action, the seats that are not to act but have legal actions (a catch, an UNO
call, a jump-in) are offered the chance to act, one at a time in an order that rotates
with every action so no seat always comes first; then the agent of the seat to act is
asked. Views are built only for seats that actually have a legal action, which keeps
simulations fast. When the hand is over the next dealer deals (``deal``) if a match is
being played.

An agent is anything with ``choose(view, rng) -> Action | None`` (see
:class:`una.bots.base.Bot`); each seat has its own generator so that what one seat draws
never shifts another seat's choices.

>>> import random
>>> from una.bots import make_bot
>>> from una.engine import Game
>>> game = Game("standard", players=3, seed=2)
>>> table = Table(game, [make_bot("random") for _ in range(3)],
...               [random.Random(seat) for seat in range(3)])
>>> result = table.play_hand()
>>> game.hand_over, result.winner in range(3)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, cast

from una.engine.actions import TURN_KINDS, Action, Kind
from una.engine.events import Event, HandEnded
from una.engine.game import Game
from una.engine.views import View

#: A hand that takes more actions than this is stuck (a bug in a bot or in the engine).
MAX_ACTIONS_PER_HAND = 50_000

#: Called after every applied action with the seat, the action and its events.
Listener = Callable[[int, Action, list[Event]], None]


class Agent(Protocol):
    def choose(self, view: View, rng: random.Random) -> Action | None: ...


class Observer(Protocol):
    """An agent that is shown the table after every action (``observes = True``)."""

    observes: bool

    def observe(self, view: View, seat: int, action: Action) -> None: ...


class StuckGame(RuntimeError):
    """A hand that does not end, or an agent that does not act when it must.

    (Some rule sets make very long hands possible: under ``alupula`` with stacked draw
    fours and ``to_the_last``, two random players holding 40-70 cards each can trade
    stacked penalties for tens of thousands of actions.)"""


class Table:
    """A game with an agent and a generator per seat. Counts actions and turns per seat."""

    def __init__(
        self,
        game: Game,
        agents: Sequence[Agent],
        rngs: Sequence[random.Random],
        listener: Listener | None = None,
        max_actions: int = MAX_ACTIONS_PER_HAND,
    ) -> None:
        if len(agents) != game.n or len(rngs) != game.n:
            raise ValueError(f"need {game.n} agents and generators, one per seat")
        self.game = game
        self.agents = list(agents)
        self.rngs = list(rngs)
        self.listener = listener
        self.max_actions = max_actions
        self.actions = 0
        self._limit = max_actions  # the action count at which the current hand is stuck
        self.turns = [0] * game.n
        self._rotation = 0
        # Seats whose agent watches every action (bots that track what they saw).
        self._observers: list[tuple[int, Observer]] = [
            (seat, cast(Observer, agent))
            for seat, agent in enumerate(self.agents)
            if getattr(agent, "observes", False)
        ]

    def apply(self, seat: int, action: Action) -> list[Event]:
        if self.actions >= self._limit:
            raise StuckGame(f"no end after {self.max_actions} actions: {self.game!r}")
        events = self.game.apply(seat, action)
        self.actions += 1
        if action.kind in TURN_KINDS:
            self.turns[seat] += 1
        if self.listener is not None:
            self.listener(seat, action, events)
        for watcher, observer in self._observers:
            observer.observe(self.game.view_for(watcher), seat, action)
        return events

    def _offer_out_of_turn(self) -> None:
        """Offer every seat that is not to act, and has a legal action, one chance to act;
        after a jump-in (a turn action out of turn) the offers start again."""
        game = self.game
        n = game.n
        start = self._rotation
        self._rotation = (start + 1) % n
        asked = [False] * n
        i = 0
        while i < n:
            seat = (start + i) % n
            i += 1
            if asked[seat] or seat == game.to_act or game.hand_over:
                continue
            if not game.legal_actions(seat):
                continue
            asked[seat] = True
            action = self.agents[seat].choose(game.view_for(seat), self.rngs[seat])
            if action is None:
                continue
            self.apply(seat, action)
            if action.kind in TURN_KINDS:
                asked = [False] * n
                i = 0

    def step(self) -> None:
        """Out-of-turn offers, then one action by the seat to act."""
        game = self.game
        self._offer_out_of_turn()
        if game.hand_over:
            return
        seat = game.to_act
        assert seat is not None
        action = self.agents[seat].choose(game.view_for(seat), self.rngs[seat])
        if action is None:
            raise StuckGame(f"seat {seat} is to act but its agent chose nothing ({game!r})")
        self.apply(seat, action)

    def play_hand(self) -> HandEnded:
        """Play until the hand is over; returns its result."""
        game = self.game
        # Checked in apply(), so that endless out-of-turn actions are caught too.
        self._limit = self.actions + self.max_actions
        while not game.hand_over:
            self.step()
        assert game.hand_result is not None
        return game.hand_result

    def deal(self) -> None:
        """Deal the next hand (the next dealer's action: dealing is no decision)."""
        game = self.game
        seat = (game.dealer + 1) % game.n
        self.apply(seat, next(a for a in game.legal_actions(seat) if a.kind is Kind.DEAL))

    def play_match(self) -> int:
        """Play hands until the match is over; returns the match winner."""
        game = self.game
        while True:
            self.play_hand()
            if game.match_over:
                assert game.winner is not None
                return game.winner
            self.deal()
