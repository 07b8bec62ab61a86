"""Belief tracking: what one seat knows about the hidden cards, and games sampled from it.

A :class:`Belief` is fed the seat's views only (the views a person at the table sees after
every action, with the public action that led to each) and remembers:

* the cards it saw on the discard pile, by position (until the pile is reshuffled);
* what a rule showed it of an opponent's hand (a challenge), until she plays those cards;
* per opponent, the cards she is known to lack: when she draws at the start of her turn
  she had nothing playable (no card of the current color, none of the top card's symbol,
  no wild), and when a challenge shows her Wild Draw Four was honest she had no card of
  the color it replaced. Such a fact covers the cards she held then; the cards she drew
  afterwards are unknown again (``fresh``).

:meth:`Belief.sample` deals the unseen cards into a full :class:`~una.engine.game.Game`
that agrees with the view and with those facts: a *determinization*, which a search bot
plays forward with the engine itself, so that every rule and variant is simulated right.

>>> from una.engine import Game
>>> import random
>>> game = Game("standard", players=2, seed=5)
>>> seat = game.to_act
>>> belief = Belief(seat)
>>> sampled = belief.sample(game.view_for(seat), random.Random(1))
>>> sampled.hands[seat] == sorted(game.hands[seat], key=lambda c: c.sort_key)
True
>>> [len(h) for h in sampled.hands] == [len(h) for h in game.hands]
True
>>> len(sampled.draw_pile) == len(game.draw_pile)
True
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from una.engine.actions import Action, Kind
from una.engine.cards import NAMED_MUTANTS, WILD_DRAW_FOUR_SYMBOLS, Card, Color
from una.engine.game import Game, Phase
from una.engine.rng import Rng
from una.engine.rules import RuleSet
from una.engine.state import HandState
from una.engine.views import View


@dataclass
class Lacks:
    """What an opponent is known to lack: no card of ``colors``, none showing one of
    ``faces``, and (with ``wild``) no wild; true of all her cards but the ``fresh`` ones
    she took since."""

    colors: set[Color] = field(default_factory=set)
    faces: set[str] = field(default_factory=set)
    wild: bool = False
    fresh: int = 0

    def allows(self, card: Card) -> bool:
        """Whether a card she held when the fact was learned may be ``card``."""
        if card.is_wild:
            return not self.wild
        return card.color not in self.colors and card.face not in self.faces

    def empty(self) -> bool:
        return not (self.colors or self.faces or self.wild)


@lru_cache(maxsize=32)
def _template(rules_key: str, players: int) -> tuple[Game, tuple[Card, ...]]:
    """A game under these rules to copy and overwrite, and the rule set's whole deck."""
    ruleset = RuleSet.from_json(json.loads(rules_key))
    game = Game(ruleset, players=players, seed=0)
    return game, tuple(ruleset.deck())


def rules_key(view: View) -> str:
    return json.dumps(view.rules, sort_keys=True)


class Belief:
    """One seat's memory of a hand, built from its views; see the module's docstring."""

    def __init__(self, seat: int, model: RuleSet | None = None) -> None:
        self.seat = seat
        #: The rules the sampled games are played under: the view's own when None; another
        #: rule set where the table's game cannot be simulated (RLCard's, in its arena).
        self.model = None if model is None else json.dumps(model.to_json(), sort_keys=True)
        self.hand_number = -1
        self.last: View | None = None
        self.seen: dict[int, Card] = {}  # discard pile position -> the card seen there
        self.lacks: dict[int, Lacks] = {}
        self.known: dict[int, list[Card]] = {}  # cards known to be in an opponent's hand
        #: Per shown seat, the cards of the last one-time showing taken in (a view keeps it).
        self.reveals_seen: dict[int, tuple[Card, ...]] = {}
        self.wd4_prev_color: Color | None = None  # the color a pending Wild Draw Four replaced
        self._rng_seed = 0
        # The unseen cards and the remembered discards of the last view sampled: the same
        # for every sample of one decision.
        self._pool: tuple[View, Game, list[Card], list[Card]] | None = None

    # ------------------------------------------------------------------ tracking

    def _reset(self, view: View) -> None:
        self.hand_number = view.hand_number
        self.last = None
        self.seen = {}
        self.lacks = {s: Lacks() for s in range(len(view.players)) if s != self.seat}
        self.known = {s: [] for s in self.lacks}
        self.reveals_seen = {}
        self.wd4_prev_color = None

    def update(self, view: View, actor: int | None = None, action: Action | None = None) -> None:
        """Take in ``view`` (after ``actor`` took ``action``, when known)."""
        self._pool = None
        if view.hand_number != self.hand_number:
            self._reset(view)
        before = self.last
        size = view.discard_pile
        if before is not None and size < before.discard_pile:
            self.seen = {}  # reshuffled: the old positions are gone
        self.seen[size - 1] = view.top
        if before is not None:
            self._learn(before, view, actor, action)
        self._take_reveals(view)
        self.last = view

    def _learn(self, before: View, view: View, actor: int | None, action: Action | None) -> None:
        # Cards an opponent took: unknown ones, not covered by what she was known to lack.
        for seat, lacks in self.lacks.items():
            grew = view.hand_counts[seat] - before.hand_counts[seat]
            if grew > 0:
                lacks.fresh += grew
        if actor is None or action is None or actor == self.seat:
            if (
                action is not None
                and action.card is not None
                and moves_hands(view, action.card, action)
            ):
                self._forget_all()
            return
        kind = action.kind
        if kind is Kind.PLAY and action.card is not None:
            known = self.known.get(actor)
            if known and action.card in known:
                known.remove(action.card)
            if moves_hands(view, action.card, action):
                # Hands moved (a 7 or a 0, a mutant): what was known of them is gone.
                self._forget_all()
            if action.card.symbol in WILD_DRAW_FOUR_SYMBOLS:
                self.wd4_prev_color = before.color
        elif (
            kind is Kind.DRAW
            and before.phase == Phase.PLAY.value
            and before.to_act == actor
            and actor in self.lacks
        ):
            # She drew at the start of her turn: she had nothing to play. (With
            # voluntary_draw a player may draw anyway; players rarely do, and the
            # sampler relaxes a fact the cards cannot satisfy.)
            drew = view.hand_counts[actor] - before.hand_counts[actor]
            self._lack(
                actor,
                {before.color} if before.color else set(),
                {before.top.face},
                wild=True,
                fresh=max(drew, 0),
            )
        elif kind is Kind.CHALLENGE:
            accused = _previous(before)
            challenger = actor
            took = view.hand_counts[challenger] - before.hand_counts[challenger]
            honest = took > before.pending_draw
            if honest and accused in self.lacks and self.wd4_prev_color is not None:
                self._lack(accused, {self.wd4_prev_color}, set(), wild=False, fresh=0)

    def _lack(self, seat: int, colors: set[Color], faces: set[str], wild: bool, fresh: int) -> None:
        old = self.lacks[seat]
        if old.fresh == 0 and not old.empty():
            colors = colors | old.colors
            faces = faces | old.faces
            wild = wild or old.wild
        self.lacks[seat] = Lacks(colors, faces, wild, fresh)

    def _forget_all(self) -> None:
        for seat in self.lacks:
            self.lacks[seat] = Lacks()
            self.known[seat] = []

    def _take_reveals(self, view: View) -> None:
        for reveal in view.revealed:
            if reveal.live or self.reveals_seen.get(reveal.seat) == reveal.cards:
                continue
            self.reveals_seen[reveal.seat] = reveal.cards
            if reveal.seat in self.known:
                self.known[reveal.seat] = list(reveal.cards)
                self.lacks[reveal.seat] = Lacks(
                    fresh=max(view.hand_counts[reveal.seat] - len(reveal.cards), 0)
                )
        # A live reveal (Spy, challenge_reveal) shows the whole hand as it is now.
        for reveal in view.revealed:
            if reveal.seat in self.known and reveal.live:
                self.known[reveal.seat] = list(reveal.cards)
                self.lacks[reveal.seat] = Lacks()

    # ------------------------------------------------------------------ sampling

    def sample(self, view: View, rng: random.Random) -> Game:
        """A whole game that agrees with ``view`` and this belief, hidden cards dealt at
        random from the unseen ones."""
        if view.hand_number != self.hand_number:
            self.update(view)
        assert view.seat is not None and view.hand is not None
        me = view.seat
        n = len(view.players)
        if self._pool is None or self._pool[0] is not view:
            template, deck = _template(self.model or rules_key(view), n)
            self._pool = (view, template, *self._unseen(view, deck))
        _, template, unseen, discard_known = self._pool
        game = template.copy()
        unseen = list(unseen)
        rng.shuffle(unseen)

        hands: list[list[Card]] = [[] for _ in range(n)]
        hands[me] = list(view.hand)
        # Known cards first, then the opponents whose facts constrain the most cards.
        for seat, known in self.known.items():
            for card in known[: view.hand_counts[seat]]:
                if card in unseen:
                    unseen.remove(card)
                    hands[seat].append(card)
        order = sorted(
            (s for s in range(n) if s != me),
            key=lambda s: -(view.hand_counts[s] - self.lacks.get(s, Lacks()).fresh),
        )
        for seat in order:
            need = view.hand_counts[seat] - len(hands[seat])
            lacks = self.lacks.get(seat)
            bound = 0 if lacks is None or lacks.empty() else max(need - lacks.fresh, 0)
            if bound:
                assert lacks is not None
                allowed = [i for i, card in enumerate(unseen) if lacks.allows(card)]
                take = allowed[:bound]  # unseen is shuffled: the first ones are a sample
                taken = set(take)
                hands[seat].extend(unseen[i] for i in take)
                unseen = [card for i, card in enumerate(unseen) if i not in taken]
                need -= len(take)
            hands[seat].extend(unseen[:need])
            del unseen[:need]
        aside: list[list[Card]] = []
        for count in view.set_aside:  # one slice after another: no card twice
            aside.append(unseen[:count])
            del unseen[:count]
        in_discard = max(view.discard_pile - 1 - len(discard_known), 0)
        # The discard pile's order below its top never matters: it is shuffled before it
        # is drawn from again.
        discard = discard_known + unseen[:in_discard]
        del unseen[:in_discard]
        discard.append(view.top)

        self._rng_seed = rng.getrandbits(63)  # the sampled game's own reshuffles
        self._position(game, view, hands, aside, discard, unseen).load(game)
        return game

    def _unseen(self, view: View, deck: tuple[Card, ...]) -> tuple[list[Card], list[Card]]:
        """The cards ``view``'s seat has not seen (in deck order), and the cards it
        remembers under the top of the discard pile."""
        assert view.hand is not None
        pool = Counter(deck)
        pool.subtract(view.hand)
        pool[view.top] -= 1
        discard_known = [card for pos, card in self.seen.items() if pos < view.discard_pile - 1]
        for card in discard_known:
            pool[card] -= 1
        if any(count < 0 for count in pool.values()):
            # What was remembered does not fit (hands moved): trust only the view.
            discard_known = []
            pool = Counter(deck)
            pool.subtract(view.hand)
            pool[view.top] -= 1
        return list(pool.elements()), discard_known

    def _position(
        self,
        game: Game,
        view: View,
        hands: list[list[Card]],
        aside: list[list[Card]],
        discard: list[Card],
        draw_pile: list[Card],
    ) -> HandState:
        """The whole sampled position: every field of the declared state (a field added
        there and forgotten here fails in HandState.create)."""
        n = game.n
        seating = list(view.seating) or list(range(n))
        position = [0] * n
        for place, player in enumerate(seating):
            position[player] = place
        out = set(view.out)
        active = [
            s not in out and not view.set_aside[s] if view.set_aside else s not in out
            for s in range(n)
        ]
        pending_kind: str | None = None
        challengeable = False
        guilty = False
        source = -1
        if view.pending_draw and view.to_act is not None:
            top = view.top
            pending_kind = game.effects[top].draw_family
            challengeable = top.symbol in WILD_DRAW_FOUR_SYMBOLS
            source = _previous(view)
            prev = self.wd4_prev_color
            guilty = prev is not None and any(card.color is prev for card in hands[source])
        return HandState.create(
            rng=Rng(self._rng_seed),
            log=[],
            scores=list(view.scores),
            seating=seating,
            position=position,
            hand_number=view.hand_number,
            dealer=view.dealer,
            winner=None,
            hand_result=None,
            direction=view.direction,
            hands=hands,
            set_aside=aside,
            active=active,
            players_in_hand=sum(active),
            draw_pile=draw_pile,
            discard=discard,
            discard_points=[0] * n,
            color=view.color,
            to_act=view.to_act,
            phase=Phase(view.phase),
            pending_draw=view.pending_draw,
            pending_kind=pending_kind,
            pending_challengeable=challengeable,
            pending_source=source,
            pending_guilty=guilty,
            pending_prev_color=self.wd4_prev_color,
            drawn=view.drawn,
            owes_uno=[s in view.catchable and view.hand_counts[s] == 1 for s in range(n)],
            called_uno=[s in view.uno_called for s in range(n)],
            false_uno=[s in view.catchable and view.hand_counts[s] != 1 for s in range(n)],
            reveals=[],
            idle_turns=0,
            recycled=[[] for _ in range(n)],
            ranking=list(view.out),
            nagasaki_lock=None,
        )


def moves_hands(view: View, card: Card, action: Action) -> bool:
    """Whether playing ``card`` may have moved or mixed hands (seven-zero, mutants)."""
    if action.targets or card.code in NAMED_MUTANTS:
        return True
    return (
        card.symbol in ("7", "0")
        and _template(rules_key(view), len(view.players))[0].rules.seven_zero
    )


def _previous(view: View) -> int:
    """The player before the one to act (who played the card now pending on her)."""
    n = len(view.players)
    seating = list(view.seating) or list(range(n))
    out = set(view.out)
    seat = view.to_act if view.to_act is not None else 0
    pos = seating.index(seat)
    for _ in range(n):
        pos = (pos - view.direction) % n
        if seating[pos] not in out:
            break
    return seating[pos]
