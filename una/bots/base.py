"""The bot interface, and small helpers every bot uses to read its legal actions.

A bot sees a game only through the :class:`~una.engine.views.View` of its seat (the very
view a person gets) and draws its randomness from the generator it is handed, so the
same view and the same generator state always give the same choice, and a bot cannot
know a card its seat may not see.

``choose`` is asked in two situations:

* the seat is **to act** (``view.to_act == view.seat``, or the hand is over and the seat
  may deal): the bot must return one of ``view.legal``;
* the seat is **not to act** but has legal actions (a catch, an UNO call, a jump-in):
  the bot returns one of them, or ``None`` to do nothing now.

Bots may keep memory of the views they were shown (a person remembers what she saw);
the driver gives each seat its own bot instance per game. A bot that sets ``observes``
is also shown the table after every action, as a person watching the game sees it:
``observe(view, seat, action)`` with the seat's view after ``seat`` took ``action``
(actions are public: a ``draw`` names no card).
"""

from __future__ import annotations

import abc
import random
from collections.abc import Iterable, Sequence
from typing import Literal

from una.engine.actions import Action, Kind
from una.engine.cards import Card, Color
from una.engine.views import View

#: Verbs that are not a turn: the player to act may take them before her turn action,
#: and the others may take them at any time.
OUT_OF_TURN_KINDS = frozenset({Kind.UNO, Kind.CATCH})


class Bot(abc.ABC):
    """A computer player: ``choose(view, rng) -> Action | None``.

    ``name`` is the registry name; ``level`` the strength level it was built with
    (``None`` for bots without levels).
    """

    name: str = "bot"
    level: int | str | None = None
    #: Whether the driver should call :meth:`observe` after every action.
    observes: bool = False
    #: What the bot plays for: ``"match"``, the game the rule set describes (its scoring
    #: decides it), or ``"hand"``, where the table counts only who goes out (``una sim``
    #: without ``--matches``). A bot may play both the same.
    goal: Literal["match", "hand"] = "match"

    @abc.abstractmethod
    def choose(self, view: View, rng: random.Random) -> Action | None:
        """An action from ``view.legal``; ``None`` only when the seat is not to act."""

    def observe(self, view: View, seat: int, action: Action) -> None:  # noqa: B027
        """``seat`` took ``action``; ``view`` is this bot's seat's view after it.
        Called only for bots with ``observes`` set; the default does nothing."""

    @property
    def spec(self) -> str:
        """The registry spec that builds this bot again (``name`` or ``name:level``)."""
        return self.name if self.level is None else f"{self.name}:{self.level}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


def must_act(view: View) -> bool:
    """Whether the engine waits for this seat (its turn, or a deal after the hand)."""
    if view.hand_over:
        return bool(view.legal)
    return view.to_act == view.seat


def turn_actions(view: View) -> list[Action]:
    """The legal actions that are a turn (or a deal): everything but UNO calls and catches."""
    return [a for a in view.legal if a.kind not in OUT_OF_TURN_KINDS]


def plays(actions: Iterable[Action], call_uno: bool = True) -> list[Action]:
    """The ``play`` actions, one per (card, color, targets): with ``call_uno`` the variant
    that calls UNO is kept where there is one, else the variant that does not."""
    chosen: dict[tuple[Card | None, Color | None, tuple[int, ...]], Action] = {}
    for action in actions:
        if action.kind is not Kind.PLAY:
            continue
        key = (action.card, action.color, action.targets)
        if key not in chosen or action.uno == call_uno:
            chosen[key] = action
    return list(chosen.values())


def find(actions: Sequence[Action], kind: Kind) -> Action | None:
    """The first action of verb ``kind`` in ``actions``."""
    for action in actions:
        if action.kind is kind:
            return action
    return None


def fallback(actions: Sequence[Action]) -> Action:
    """The turn action to take when nothing better is chosen: draw (or take the penalty),
    else pass, else deal, else the first one listed."""
    for kind in (Kind.DRAW, Kind.PASS, Kind.DEAL):
        action = find(actions, kind)
        if action is not None:
            return action
    return actions[0]
