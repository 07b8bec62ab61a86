"""The ``heuristic`` bot: a sensible rule-based player, from its seat's view only.

What it does, in order of priority:

* catches a player who missed her UNO call (``view.catchable``) and calls its own UNO,
  with its play whenever it can;
* answers a pending draw by stacking when it can; facing a Wild Draw Four it challenges
  when the cards it has counted make a bluff likely (see :meth:`HeuristicBot.bluff_odds`);
* otherwise plays the card that scores best: it keeps wilds for when nothing else fits,
  stays in (or moves to) the color it holds most of, dumps high-value cards when an
  opponent is close to going out, and hits a next player who is close to going out with
  a Draw Two, Skip or Reverse;
* names its strongest color (most cards, then most points), and picks targets (a 7 under
  seven-zero, a card that picks a player) by hand sizes;
* jumps in whenever the rules let it (a jump-in sheds a card for free).

It remembers, per hand, which card lay at each position of the discard pile when it was
shown the table (the cards it has *seen*), and the color before the last play, which is
how it counts cards for a challenge. Levels 1-5 (default 5) make it weaker: at level
``L`` each decision is left to the random policy with probability ``(5 - L) * 0.15``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache
from typing import Any

from una.bots.base import Bot, fallback, find, must_act, plays
from una.bots.random_bot import pick
from una.engine.actions import UNO, Action, Kind
from una.engine.cards import COLORS, Card, Color
from una.engine.rules import RuleSet
from una.engine.views import View

#: Challenge when the estimated chance that the accused held a card of the color that was
#: current (a bluff) is above this. Challenging costs 6 cards instead of 4 when wrong and
#: saves 4 (and a turn) when right, so the break-even is near 1/3; a little above it
#: allows for players who hold the color and play the Wild Draw Four honestly anyway.
CHALLENGE_THRESHOLD = 0.45
#: An opponent with this many cards or fewer is "close to going out".
DANGER = 2
LEVELS = range(1, 6)


@lru_cache(maxsize=64)
def _deck_info(rules_key: str) -> tuple[int, dict[Color, int], RuleSet]:
    """The deck size, the number of cards of each color, and the rule set (public data)."""
    ruleset = RuleSet.from_json(json.loads(rules_key))
    deck = ruleset.deck()
    per_color = Counter(card.color for card in deck if card.color is not None)
    return len(deck), {color: per_color[color] for color in COLORS}, ruleset


def rules_of(view: View) -> tuple[int, dict[Color, int], RuleSet]:
    rules: Any = view.rules
    return _deck_info(json.dumps(rules, sort_keys=True))


def no_color_odds(pool: int, of_color: int, hand: int) -> float:
    """The chance that ``hand`` cards dealt from ``pool`` cards, ``of_color`` of which have
    the color, hold none of it (hypergeometric).

    >>> round(no_color_odds(100, 25, 1), 2), no_color_odds(10, 0, 3), no_color_odds(4, 2, 3)
    (0.75, 1.0, 0.0)
    """
    odds = 1.0
    for j in range(hand):
        if pool - j <= 0:
            break
        odds *= max(pool - of_color - j, 0) / (pool - j)
    return odds


class HeuristicBot(Bot):
    """A rule-based player; see the module's docstring."""

    name = "heuristic"

    def __init__(self, level: int | None = None) -> None:
        if level is not None and level not in LEVELS:
            raise ValueError(f"heuristic levels are 1-5, not {level}")
        self.level = level
        self.mistakes = 0.0 if level is None else (5 - level) * 0.15
        self._hand_number = -1
        self._seen: dict[int, Card] = {}  # discard pile position -> the card seen there
        self._last_discard = 0
        self._last_color: Color | None = None
        self._prev_color: Color | None = None  # the color before the last single play

    # ------------------------------------------------------------ memory

    def _remember(self, view: View) -> None:
        if view.hand_number != self._hand_number:
            self._hand_number = view.hand_number
            self._seen = {}
            self._last_discard = 0
            self._last_color = None
        size = view.discard_pile
        if size < self._last_discard:  # reshuffled: the old positions are gone
            self._seen = {}
        # Exactly one card played since the last look: the color before it is known.
        if size == self._last_discard + 1 and self._last_color is not None:
            self._prev_color = self._last_color
        elif size != self._last_discard:
            self._prev_color = None
        self._seen[size - 1] = view.top
        self._last_discard = size
        self._last_color = view.color

    # ------------------------------------------------------------ choose

    def choose(self, view: View, rng: random.Random) -> Action | None:
        self._remember(view)
        legal = view.legal
        catch = find(legal, Kind.CATCH)
        careless = self.mistakes > 0 and rng.random() < self.mistakes
        if catch is not None and not careless:
            return catch
        if UNO in legal:
            return UNO
        if not must_act(view):
            jumps = plays(legal)
            return self._best_play(view, jumps, rng) if jumps else None
        turn = [a for a in legal if a.kind is not Kind.CATCH]
        if careless:
            return pick(turn, rng)
        if view.phase == "color":
            return self._name_color(view, turn, rng)
        options = plays(turn)
        if view.phase == "penalty":
            if options:
                return self._best_play(view, options, rng)
            challenge = find(turn, Kind.CHALLENGE)
            if challenge is not None and self.bluff_odds(view) > CHALLENGE_THRESHOLD:
                return challenge
            return fallback(turn)
        if view.phase == "drawn" and options:
            drawn = options[0].card
            keep = (
                drawn is not None
                and drawn.is_wild
                and len(view.hand or ()) > 3
                and not self._danger(view)
                and find(turn, Kind.PASS) is not None
            )
            return fallback(turn) if keep else self._best_play(view, options, rng)
        if options:
            return self._best_play(view, options, rng)
        return fallback(turn)

    # ------------------------------------------------------------ judgment

    @staticmethod
    def _out(view: View) -> tuple[int, ...]:
        # Seats that went out under ``finish: to_the_last`` (views without it: none).
        out: tuple[int, ...] = getattr(view, "out", ())
        return out

    def _opponents(self, view: View) -> list[int]:
        out = self._out(view)
        return [s for s in range(len(view.players)) if s != view.seat and s not in out]

    def _danger(self, view: View) -> bool:
        return any(view.hand_counts[s] <= DANGER for s in self._opponents(view))

    def _next_seat(self, view: View, step: int) -> int:
        """The seat ``step`` (+1 or -1) places away in table order, skipping seats out."""
        n = len(view.players)
        order: tuple[int, ...] = getattr(view, "seating", None) or tuple(range(n))
        out = self._out(view)
        seat = view.seat if view.seat is not None else 0
        pos = order.index(seat) if seat in order else seat
        for _ in range(n):
            pos = (pos + step) % n
            if order[pos] not in out:
                break
        return order[pos]

    def _strength(self, cards: list[Card], color: Color, rules: RuleSet) -> tuple[int, int]:
        held = [c for c in cards if c.color is color and not c.is_wild]
        return len(held), sum(rules.points(c) for c in held)

    def _name_color(self, view: View, turn: list[Action], rng: random.Random) -> Action:
        rules = rules_of(view)[2]
        hand = list(view.hand or ())
        options = [a for a in turn if a.kind is Kind.COLOR and a.color is not None]
        if not options:
            return fallback(turn)
        best = max(self._strength(hand, a.color, rules) for a in options if a.color)
        top = [a for a in options if a.color and self._strength(hand, a.color, rules) == best]
        return top[rng.randrange(len(top))]

    def _best_play(self, view: View, options: list[Action], rng: random.Random) -> Action:
        rules = rules_of(view)[2]
        hand = list(view.hand or ())
        danger = self._danger(view)
        next_seat = self._next_seat(view, view.direction)
        next_close = view.hand_counts[next_seat] <= DANGER and next_seat != view.seat
        best: list[Action] = []
        best_score = float("-inf")
        for action in options:
            card = action.card
            if card is None:
                continue
            rest = list(hand)
            if card in rest:
                rest.remove(card)
            color = action.color if card.is_wild else (card.color or view.color)
            points = rules.points(card)
            score = 0.0
            if color is not None:
                count, value = self._strength(rest, color, rules)
                score += 2 * count + value / 100
            if card.is_wild and not danger:
                # Keep wilds for when nothing else fits (the draw wild last of all), unless
                # an opponent is about to go out: then they are 50 points to get rid of.
                score -= 40 + (10 if card.is_draw else 0)
            score += points / 2 if danger else points / 25
            if next_close and (card.is_draw or card.symbol in ("S", "R", "SS", "RS")):
                score += 30
            for target in action.targets:
                # Swap with (or aim at) the player with the fewest cards.
                score += len(rest) - view.hand_counts[target]
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        if not best:
            return options[0]
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def bluff_odds(self, view: View) -> float:
        """The estimated chance that the pending Wild Draw Four is a bluff: that its player
        held a card of the color that was current when she played it.

        Counted from the cards this seat knows are not in her hand (its own, those it saw
        on the discard pile, a revealed hand): she holds ``hand_counts[accused]`` cards
        drawn from the rest. When this seat did not see the color before the wild, the
        chance is averaged over the four colors.
        """
        accused = self._next_seat(view, -view.direction)
        for reveal in view.revealed:
            if reveal.seat == accused and self._prev_color is not None:
                return float(any(c.color is self._prev_color for c in reveal.cards))
        deck_size, per_color, _ = rules_of(view)
        known = list(view.hand or ()) + [
            card for pos, card in self._seen.items() if pos < view.discard_pile
        ]
        pool = deck_size - len(known)
        held = view.hand_counts[accused]
        colors = [self._prev_color] if self._prev_color is not None else list(COLORS)
        odds = 0.0
        for color in colors:
            of_color = per_color[color] - sum(1 for c in known if c.color is color)
            odds += 1 - no_color_odds(pool, of_color, held)
        return odds / len(colors)
