"""The ``random`` bot: RLCard's random agent, so speed and strength compare like for like.

Policy (the same on any rule set):

* plays a uniformly random playable card: one choice per legal (card, color, targets)
  play, so a Wild counts once per color it may name, as in RLCard's action space;
* draws only when it has no play, and plays a playable drawn card;
* always calls UNO with its play (and calls it on its own if it ever owes one);
* never challenges (it takes the penalty with ``draw``) and never catches;
* under stacking, answering a pending draw is a play like any other, so it stacks when it
  can; under jump-in, it jumps in or not uniformly at random among "do nothing" and each
  jump-in play.

:func:`pick` is the policy on a bare list of legal actions: the engine benchmark uses it
on ``Game.legal_actions`` directly, without building views.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from una.bots.base import Bot, fallback, must_act, plays
from una.engine.actions import UNO, Action, Kind
from una.engine.views import View


def pick(legal: Sequence[Action], rng: random.Random) -> Action:
    """The random policy's turn action among ``legal`` (which must not be empty).

    Written for speed (the engine benchmark calls it on every move): one pass over the
    list, and the UNO variants are sorted out only when the list has any.
    """
    options = []
    uno_variants = False
    for action in legal:
        kind = action.kind
        if kind is Kind.PLAY:
            options.append(action)
            uno_variants = uno_variants or action.uno
        elif kind is Kind.UNO:
            return action
    if options:
        if uno_variants:
            options = plays(options)
        return options[rng.randrange(len(options))] if len(options) > 1 else options[0]
    if legal[0].kind is Kind.COLOR:
        return legal[rng.randrange(len(legal))]
    return fallback(legal)


class RandomBot(Bot):
    """Uniformly random among playable cards; see the module's docstring."""

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        legal = view.legal
        if must_act(view):
            return pick([a for a in legal if a.kind is not Kind.CATCH], rng)
        if UNO in legal:
            return UNO
        jumps = plays(legal)
        if not jumps:
            return None
        index = rng.randrange(len(jumps) + 1)
        return jumps[index] if index < len(jumps) else None
