"""Belief tracking: what one seat knows about the hidden cards, and games sampled from it.

A :class:`Belief` is fed the seat's views only (the views a person at the table sees after
every action, with the public action that led to each) and remembers:

* the cards it saw on the discard pile, by position (until the pile is reshuffled);
* what a rule showed it of an opponent's hand (a challenge; live, as it changes, a Spy or
  ``challenge_reveal``), until she plays those cards;
* where hands went when they moved (a 7 or a 0 under seven-zero, Trader Joe, a Blender
  heads-up): what was known of a hand goes with it, and the hand this seat gave away is
  known; a Randomizer forgets everything;
* per opponent, the cards she is known to lack: when she draws at the start of her turn
  she had nothing playable (the engine's own ``Game.matches`` on the pile as it was),
  and when a challenge shows her Wild Draw Four was honest she held nothing that makes it
  a bluff (``Game.is_bluff``, under the rule set's ``wd4_rule``); when her turn passed
  after that draw, the card she drew could not be played either (``Game._draw``). Such a
  fact covers the cards she held then; the cards she drew afterwards are unknown again
  (``fresh``). Every fact is kept (:class:`Lacks`), each for the cards it covers: the
  cards she held longest are dealt from what none of the facts bans.
* with ``reads_plays``, what a player who keeps her wilds (as ``heuristic`` does, and
  most people) says by playing one at the start of her turn while nobody is close to
  going out: she had no other card to play, and, playing a Wild Draw Four, no plain wild
  either; and by taking a draw penalty she could have answered: she had no answer.
* with ``reads_choices``, which card and color a player who plays as ``heuristic`` does
  chose at the start of her turn (:class:`Choice`, her last few): a sampled hand in which
  she would have chosen otherwise is dealt again (:meth:`Belief.sample`, up to
  ``CHOICE_TRIES`` deals, else the one that contradicts fewest of her choices).

A pending Wild Draw Four in a sampled game is guilty as the engine judges the sampled
hand on the pile it was played on.

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
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice

from una.bots.heuristic import DANGER
from una.engine import fast
from una.engine.actions import Action, Kind
from una.engine.cards import (
    ALL_CARDS,
    COLORS,
    NAMED_MUTANTS,
    WILD_DRAW_FOUR_SYMBOLS,
    Card,
    Color,
)
from una.engine.effects import EFFECTS
from una.engine.game import Game, Phase
from una.engine.rng import Rng
from una.engine.rules import RuleSet
from una.engine.state import HandState
from una.engine.views import View

#: How many facts about one opponent's cards a Lacks keeps: the ones covering most of
#: her cards (an older fact covers fewer: the cards she took since are not covered).
FACTS_KEPT = 6


@dataclass
class Lacks:
    """What an opponent is known to lack: ``facts``, each a set of cards she held none of
    when it was learned and how many of her cards it does not cover (``fresh``: the
    cards she took since). A card she plays counts as one of the covered ones, so every
    fact stays true: at most ``fresh`` of her cards are in its set.

    >>> from una.engine.cards import Card
    >>> lacks = Lacks()
    >>> lacks.learn(frozenset({Card.parse("R5"), Card.parse("B5")}), 0)
    >>> lacks.took(1)
    >>> lacks.learn(frozenset({Card.parse("G2")}), 0)
    >>> [(sorted(c.code for c in banned), size) for banned, size in lacks.tiers(4)]
    [(['B5', 'G2', 'R5'], 3), (['G2'], 1)]
    >>> lacks.holds([Card.parse("R5"), Card.parse("G1")]), lacks.holds([Card.parse("G2")])
    (True, False)
    """

    facts: list[tuple[frozenset[Card], int]] = field(default_factory=list)
    #: tiers() by ``need`` since the facts last changed (every sample of a decision asks).
    _tiers: dict[int, list[tuple[frozenset[Card], int]]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def empty(self) -> bool:
        return not self.facts

    def took(self, count: int) -> None:
        """She took ``count`` cards, which no fact covers."""
        self.facts = [(banned, fresh + count) for banned, fresh in self.facts]
        self._tiers = {}

    def learn(self, banned: frozenset[Card], fresh: int) -> None:
        """She held none of ``banned``, but for the ``fresh`` cards she took last."""
        if not banned:
            return
        kept = []
        for old, old_fresh in self.facts:
            if old_fresh == fresh:
                banned = banned | old  # the same cards: one fact
            elif not (old_fresh > fresh and old <= banned):  # else it says nothing more
                kept.append((old, old_fresh))
        kept.append((banned, fresh))
        kept.sort(key=lambda fact: fact[1])
        self.facts = kept[:FACTS_KEPT]
        self._tiers = {}

    def covered(self, count: int) -> int:
        """How many of her ``count`` cards some fact covers."""
        return max((count - fresh for _, fresh in self.facts), default=0)

    def tiers(self, need: int) -> list[tuple[frozenset[Card], int]]:
        """How to deal her ``need`` unknown cards, those she held longest first: per
        tier, the cards none of its cards may be and how many cards it has (the cards
        past the last tier are free)."""
        cached = self._tiers.get(need)
        if cached is not None:
            return cached
        out: list[tuple[frozenset[Card], int]] = []
        done = 0
        facts = sorted(self.facts, key=lambda fact: -fact[1])  # fewest covered first
        for index, (_, fresh) in enumerate(facts):
            bound = need - fresh
            if bound > done:
                banned = frozenset().union(*(b for b, _ in facts[index:]))
                out.append((banned, bound - done))
                done = bound
        self._tiers[need] = out
        return out

    def holds(self, cards: list[Card]) -> bool:
        """Whether ``cards`` could be her hand: at most ``fresh`` of them in each set."""
        return all(sum(card in banned for card in cards) <= fresh for banned, fresh in self.facts)


#: How many of an opponent's latest choices ``reads_choices`` checks a sampled hand against.
CHOICES_KEPT = 3
#: How many deals of an opponent's hand ``reads_choices`` tries before it takes the one
#: that contradicts fewest of her choices.
CHOICE_TRIES = 8
#: The faces that ``heuristic`` plays at a next player close to going out.
HIT_FACES = frozenset(("S", "R", "SS", "RS"))


@dataclass
class Choice:
    """A card an opponent chose to play at the start of her turn, and what made the
    choice: the cards that fitted (``playable``), the color then (for a colorless card),
    whether someone was close to going out (``danger``) and her next player was
    (``next_close``); and since then the cards she played from her hand (``later``) and
    the cards she took and still holds (``fresh``). Her hand then, less the card, was her
    hand now less the fresh cards, plus the later ones: ``size`` cards with the card."""

    card: Card
    color: Color | None
    color_then: Color | None
    playable: frozenset[Card]
    danger: bool
    next_close: bool
    size: int
    fresh: int = 0
    later: list[Card] | None = None


#: The Wild Draw Four cards (the challenge and wd4_rule apply to them).
ALL_WD4 = tuple(card for card in ALL_CARDS if card.symbol in WILD_DRAW_FOUR_SYMBOLS)


@lru_cache(maxsize=32)
def _template(rules_key: str, players: int) -> tuple[Game, tuple[Card, ...]]:
    """A game under these rules to copy and overwrite, and the rule set's whole deck."""
    ruleset = RuleSet.from_json(json.loads(rules_key))
    game = Game(ruleset, players=players, seed=0)
    return game, tuple(ruleset.deck())


@lru_cache(maxsize=32)
def _points(rules_key: str, players: int) -> dict[Card, int]:
    """Every card's points under these rules (read many times a decision)."""
    game, deck = _template(rules_key, players)
    return {card: game.rules.points(card) for card in set(deck)}


def rules_key(view: View) -> str:
    return json.dumps(view.rules, sort_keys=True)


class Belief:
    """One seat's memory of a hand, built from its views; see the module's docstring."""

    def __init__(
        self,
        seat: int,
        model: RuleSet | None = None,
        reads_plays: bool = False,
        reads_choices: bool = False,
    ) -> None:
        self.seat = seat
        #: Whether opponents are taken to keep their wilds for when nothing else fits.
        self.reads_plays = reads_plays
        #: Whether opponents are taken to choose their plays as ``heuristic`` does.
        self.reads_choices = reads_choices
        #: Per opponent, her latest choices (``reads_choices``), the oldest first.
        self.choices: dict[int, list[Choice]] = {}
        #: The rules the sampled games are played under: the view's own when None; another
        #: rule set where the table's game cannot be simulated (RLCard's, in its arena).
        self.model = None if model is None else json.dumps(model.to_json(), sort_keys=True)
        self.hand_number = -1
        self.last: View | None = None
        self.seen: dict[int, Card] = {}  # discard pile position -> the card seen there
        self.lacks: dict[int, Lacks] = {}
        self.known: dict[int, list[Card]] = {}  # cards known to be in an opponent's hand
        #: The points each seat discarded this hand (public; what a hand scores under
        #: ``discards_minus_hand``, and so whether it ends the match).
        self.discarded: list[int] = []
        #: Per shown seat, the cards of the last one-time showing taken in (a view keeps it).
        self.reveals_seen: dict[int, tuple[Card, ...]] = {}
        self.wd4_prev_color: Color | None = None  # the color a pending Wild Draw Four replaced
        self.wd4_prev_top: Card | None = None  # and the card it was played on
        self._rng_seed = 0
        # The unseen cards and the remembered discards of the last view sampled: the same
        # for every sample of one decision.
        self._pool: tuple[View, Game, list[Card], list[Card]] | None = None
        self._scratch_game: Game | None = None
        #: The position's part that a view fixes, made once per view, and the seat whose
        #: pending Wild Draw Four a sample's hand makes guilty or not (see _position).
        self._base: tuple[View, HandState, int | None] | None = None
        #: The choices' tests made for the last view sampled (``reads_choices``).
        self._tests: tuple[View, dict[int, list[ChoiceTest]]] | None = None

    # ------------------------------------------------------------------ tracking

    def _reset(self, view: View) -> None:
        self.hand_number = view.hand_number
        self.last = None
        self.seen = {}
        self.lacks = {s: Lacks() for s in range(len(view.players)) if s != self.seat}
        self.known = {s: [] for s in self.lacks}
        self.discarded = [0] * len(view.players)
        self.choices = {s: [] for s in self.lacks}
        self.reveals_seen = {}
        self.wd4_prev_color = None
        self.wd4_prev_top = None

    def update(self, view: View, actor: int | None = None, action: Action | None = None) -> None:
        """Take in ``view`` (after ``actor`` took ``action``, when known)."""
        self._pool = None
        self._tests = None
        self._base = None
        if view.hand_number != self.hand_number:
            self._reset(view)
        before = self.last
        size = view.discard_pile
        if before is not None and size < before.discard_pile:
            self.seen = {}  # reshuffled: the old positions are gone
        self.seen[size - 1] = view.top
        # (A hand's first play comes with no view before it: counted here, not in _learn.)
        played = action.card if action is not None and action.kind is Kind.PLAY else None
        if actor is not None and played is not None:
            table, _ = _template(self.model or rules_key(view), len(view.players))
            self.discarded[actor] += table.card_points(played)
        if before is not None:
            self._learn(before, view, actor, action)
        self._take_reveals(view)
        self.last = view

    def _learn(self, before: View, view: View, actor: int | None, action: Action | None) -> None:
        # Cards an opponent took: unknown ones, not covered by what she was known to lack.
        for seat, lacks in self.lacks.items():
            grew = view.hand_counts[seat] - before.hand_counts[seat]
            if grew > 0:
                lacks.took(grew)
                for choice in self.choices.get(seat, ()):
                    choice.fresh += grew
        if actor is None or action is None:
            return
        kind = action.kind
        if kind is Kind.PLAY and action.card is not None:
            if self.reads_choices and actor in self.choices:
                self._chose(before, actor, action)
            known = self.known.get(actor)
            if known and action.card in known:
                known.remove(action.card)
            if moves_hands(view, action.card, action):
                self._hands_moved(before, view, actor, action)
            elif (
                self.reads_plays
                and action.card.is_wild
                and actor in self.lacks
                and before.phase == Phase.PLAY.value
                and before.to_act == actor
                and not _close_to_out(before, actor)
            ):
                self._kept_wilds(before, actor, action.card)
            if action.card.symbol in WILD_DRAW_FOUR_SYMBOLS:
                self.wd4_prev_color = before.color
                self.wd4_prev_top = before.top
        elif actor == self.seat:
            return
        elif (
            kind is Kind.DRAW
            and before.phase == Phase.PLAY.value
            and before.to_act == actor
            and actor in self.lacks
        ):
            # She drew at the start of her turn: she had nothing to play, by the engine's
            # own matching rule on the pile as it was. (With voluntary_draw a player may
            # draw anyway, and a held Kobe may have locked her hand; players rarely do
            # either, and the sampler relaxes a fact the cards cannot satisfy.)
            drew = view.hand_counts[actor] - before.hand_counts[actor]
            if view.phase != Phase.DRAWN.value and self._scratch(view).rules.play_drawn != "never":
                # And the turn passed: what she drew could not be played either (Game._draw).
                drew = 0
            self._lack(actor, self._playable(before, actor), fresh=max(drew, 0))
        elif (
            self.reads_plays
            and kind is Kind.DRAW
            and before.phase == Phase.PENALTY.value
            and before.to_act == actor
            and actor in self.lacks
        ):
            # She took the penalty: a player who answers whenever she can had no answer.
            drew = view.hand_counts[actor] - before.hand_counts[actor]
            self._lack(actor, self._answers(before, actor), fresh=max(drew, 0))
        elif kind is Kind.CHALLENGE:
            accused = _previous(before)
            challenger = actor
            took = view.hand_counts[challenger] - before.hand_counts[challenger]
            honest = took > before.pending_draw
            if honest and accused in self.lacks and self.wd4_prev_color is not None:
                # Innocent: she held nothing that the rule set's wd4_rule calls a bluff.
                self._lack(accused, self._bluff_cards(view), fresh=0)

    def _chose(self, before: View, seat: int, action: Action) -> None:
        """``seat`` played ``action``: her earlier choices learn what left her hand, and a
        play from her hand at the start of her turn is a choice of its own."""
        card = action.card
        assert card is not None
        choices = self.choices[seat]
        drawn = before.phase == Phase.DRAWN.value
        for choice in choices:
            if drawn and choice.fresh > 0:
                choice.fresh -= 1  # the card she just drew: taken and gone
            else:
                choice.later = [*(choice.later or ()), card]
        if drawn or before.phase != Phase.PLAY.value or before.to_act != seat:
            return
        if action.targets or card.code in NAMED_MUTANTS:
            return
        n = len(before.players)
        out = set(before.out)
        active = [s for s in range(n) if s not in out and not _set_aside(before, s)]
        following = _following(before, seat, active)
        choices.append(
            Choice(
                card=card,
                color=action.color,
                color_then=before.color,
                playable=self._playable(before, seat),
                danger=_close_to_out(before, seat),
                next_close=following != seat and before.hand_counts[following] <= DANGER,
                size=before.hand_counts[seat],
            )
        )
        del choices[:-CHOICES_KEPT]

    def _kept_wilds(self, before: View, seat: int, wild: Card) -> None:
        """She played ``wild`` at the start of her turn: a player who keeps wilds had no
        other playable card (nor a plain wild, for a drawing one). Her remaining cards
        are all covered (``fresh=0``)."""
        playable = self._playable(before, seat)
        banned = {card for card in playable if not card.is_wild}
        if wild.is_draw:
            banned |= {card for card in playable if card.is_wild and not card.is_draw}
        self._lack(seat, frozenset(banned), fresh=0)

    def _answers(self, before: View, seat: int) -> frozenset[Card]:
        """The cards that ``seat`` could have answered the pending draw of ``before``
        with (the engine's own legal actions, one card in hand at a time)."""
        game = self._scratch(before)
        deck = self._deck(before)
        saved = game.phase, game.to_act, game.pending_kind, game.pending_draw
        game.color = before.color
        game.discard[-1] = before.top
        game.phase, game.to_act = Phase.PENALTY, seat
        game.pending_kind = game.effects[before.top].draw_family
        game.pending_draw = before.pending_draw
        game.active[seat] = True
        answers = set()
        for card in set(deck):
            game.hands[seat] = [card]
            if any(a.kind is Kind.PLAY for a in game.legal_actions(seat)):
                answers.add(card)
        game.phase, game.to_act, game.pending_kind, game.pending_draw = saved
        return frozenset(answers)

    def _scratch(self, view: View) -> Game:
        """A private game under the view's rules, to ask the engine's own rules about."""
        if self._scratch_game is None:
            template, _ = _template(self.model or rules_key(view), len(view.players))
            self._scratch_game = template.copy()
        return self._scratch_game

    def _deck(self, view: View) -> tuple[Card, ...]:
        return _template(self.model or rules_key(view), len(view.players))[1]

    def _playable(self, before: View, seat: int) -> frozenset[Card]:
        """The cards ``seat`` could have played on the pile of ``before`` (Game.matches),
        with a hand of her size that does not lock."""
        game = self._scratch(before)
        deck = self._deck(before)
        filler = next((c for c in deck if c not in game.lock_cards), deck[0])
        game.color = before.color
        game.discard[-1] = before.top
        game.nagasaki_lock = None
        game.hands[seat] = [filler] * max(before.hand_counts[seat], 1)
        playable = {card for card in set(deck) if game.matches(seat, card)}
        if game.effects[before.top] is EFFECTS["NAGA"]:
            # Whether a Nagasaki may go on a Nagasaki depends on a lock no view shows.
            playable = {card for card in playable if game.effects[card] is not EFFECTS["NAGA"]}
        return frozenset(playable)

    def _bluff_cards(self, view: View) -> frozenset[Card]:
        """The cards whose holder's Wild Draw Four on the pile as it was is a bluff
        (Game.is_bluff under the rule set's ``wd4_rule``)."""
        game = self._scratch(view)
        wd4 = next(c for c in ALL_WD4 if c.symbol == "W4")
        game.color = self.wd4_prev_color
        if self.wd4_prev_top is not None:
            game.discard[-1] = self.wd4_prev_top
        out = set()
        for card in set(self._deck(view)):
            game.hands[0] = [card]
            if game.is_bluff(0, wd4):
                out.add(card)
        return frozenset(out)

    def _hands_moved(self, before: View, view: View, actor: int, action: Action) -> None:
        """Hands moved (a 7 or a 0 under seven-zero, Trader Joe, Blender, Randomizer): what
        was known of each hand goes with it, and the hand this seat gave away is known."""
        old_known = dict(self.known)
        old_lacks = dict(self.lacks)
        self._forget_all()
        assert action.card is not None and before.hand is not None
        effect = self._scratch(view).effects[action.card]
        n = len(view.players)
        active = [s for s in range(n) if s not in view.out and not _set_aside(view, s)]
        moves: dict[int, int] = {}
        if effect is EFFECTS["N7"] or effect is EFFECTS["TRADE"]:
            if action.targets:
                moves = {actor: action.targets[0], action.targets[0]: actor}
        elif effect is EFFECTS["N0"]:
            moves = {s: _following(before, s, active) for s in active}
        elif effect is EFFECTS["BLEND"] and len(active) == 2:
            moves = {active[0]: active[1], active[1]: active[0]}
        mine = list(before.hand)
        if actor == self.seat and action.card in mine:
            mine.remove(action.card)
        for giver, receiver in moves.items():
            if receiver == self.seat or receiver not in self.known:
                continue
            if giver == self.seat:
                self.known[receiver] = mine
            elif giver in old_known:
                self.known[receiver] = list(old_known[giver])
                self.lacks[receiver] = old_lacks[giver]

    def _lack(self, seat: int, banned: frozenset[Card], fresh: int) -> None:
        self.lacks[seat].learn(banned, fresh)

    def _forget_all(self) -> None:
        for seat in self.lacks:
            self.lacks[seat] = Lacks()
            self.known[seat] = []
            self.choices[seat] = []

    def _take_reveals(self, view: View) -> None:
        for reveal in view.revealed:
            if reveal.live or self.reveals_seen.get(reveal.seat) == reveal.cards:
                continue
            self.reveals_seen[reveal.seat] = reveal.cards
            if reveal.seat in self.known:
                self.known[reveal.seat] = list(reveal.cards)
                self.lacks[reveal.seat] = Lacks()
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
        unseen = list(unseen)
        fast.rng_shuffle(unseen, rng)

        hands: list[list[Card]] = [[] for _ in range(n)]
        hands[me] = list(view.hand)
        # Known cards first, then the opponents whose facts constrain the most cards.
        for seat, known in self.known.items():
            for card in known[: view.hand_counts[seat]]:
                try:
                    unseen.remove(card)
                except ValueError:
                    continue
                hands[seat].append(card)
        others = [s for s in range(n) if s != me]
        order = others if len(others) < 2 else sorted(
            others, key=lambda s: -self.lacks.get(s, Lacks()).covered(view.hand_counts[s])
        )  # fmt: skip
        checked = self._checked(view, hands) if self.reads_choices else {}
        for seat in order:
            need = view.hand_counts[seat] - len(hands[seat])
            lacks = self.lacks.get(seat)
            tiers = [] if lacks is None else lacks.tiers(need)
            checks = checked.get(seat)
            if checks:
                unseen = self._deal_checked(hands[seat], unseen, need, tiers, checks, rng)
                continue
            for banned, size in tiers:
                # unseen is shuffled: the first allowed ones are a sample.
                take = list(islice((i for i, c in enumerate(unseen) if c not in banned), size))
                hands[seat].extend(unseen[i] for i in take)
                for i in reversed(take):  # ascending: each deletion leaves the rest in place
                    del unseen[i]
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
        game = template.at(self._position(template, view, hands, aside, discard, unseen))
        if game.pending_challengeable and self.wd4_prev_top is not None:
            # Guilt by the engine's own rule (wd4_rule), on the pile as it was then.
            wd4, color = game.discard[-1], game.color
            game.discard[-1], game.color = self.wd4_prev_top, self.wd4_prev_color
            game.pending_guilty = game.is_bluff(game.pending_source, wd4)
            game.discard[-1], game.color = wd4, color
        return game

    def _checked(self, view: View, hands: list[list[Card]]) -> dict[int, list[ChoiceTest]]:
        """Per opponent with no known cards, her choices that her hand count agrees with,
        each made into a test of how many of her cards now she held then (the same for
        every sample of one view: made once)."""
        if self._tests is not None and self._tests[0] is view:
            return self._tests[1]
        points = _points(self.model or rules_key(view), len(view.players))
        out: dict[int, list[ChoiceTest]] = {}
        for seat, choices in self.choices.items():
            if not choices or hands[seat]:
                continue
            count = view.hand_counts[seat]
            fits = [
                ChoiceTest(choice, count - choice.fresh, points)
                for choice in choices
                if 0 <= choice.fresh <= count
                and count - choice.fresh + len(choice.later or ()) + 1 == choice.size
            ]
            if fits:
                out[seat] = fits
        self._tests = (view, out)
        return out

    def _deal_checked(
        self,
        hand: list[Card],
        unseen: list[Card],
        need: int,
        tiers: list[tuple[frozenset[Card], int]],
        checks: list[ChoiceTest],
        rng: random.Random,
    ) -> list[Card]:
        """Deal ``need`` cards of ``unseen`` into ``hand`` (the first ones by ``tiers``,
        :meth:`Lacks.tiers`: the cards she held longest), again until she would have made
        every choice of ``checks`` with them (:func:`chooses`), at most ``CHOICE_TRIES``
        times (then the deal that contradicts fewest); returns the cards left."""
        dealt = fast.deal_checked(
            rng, unseen, tiers, need, CHOICE_TRIES, [check.packed for check in checks]
        )
        if dealt is not None:  # the same deal, in C
            hand.extend(dealt[0])
            return dealt[1]
        size = len(unseen)
        best: list[int] = []
        fewest = len(checks) + 1
        for _ in range(CHOICE_TRIES):
            pick: list[int] = []
            chosen: set[int] = set()
            for banned, count in tiers:
                allowed = [
                    i for i, card in enumerate(unseen) if card not in banned and i not in chosen
                ]
                count = min(count, len(allowed))
                for j in fast.rng_sample(rng, len(allowed), count) if count else ():
                    pick.append(allowed[j])
                    chosen.add(allowed[j])
            if need > len(pick):
                left = need - len(pick)
                extra = [i for i in fast.rng_sample(rng, size, min(size, need)) if i not in chosen]
                pick += extra[:left]
                if len(pick) < need:  # the draws met the allowed ones: fill in order
                    chosen = set(pick)
                    pick += [i for i in range(size) if i not in chosen][: need - len(pick)]
            cards = [unseen[i] for i in pick]
            wrong = 0
            for check in checks:
                if not check.passes(cards):
                    wrong += 1
                    if wrong >= fewest:
                        break  # no better than the best deal so far
            if wrong < fewest:
                best, fewest = pick, wrong
                if not wrong:
                    break
        hand.extend(unseen[i] for i in best)
        taken = set(best)
        return [card for i, card in enumerate(unseen) if i not in taken]

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
        """The whole sampled position: the view's part (_base_state) with the sampled
        cards set in. One state serves every sample of a view, as ``Game.at`` copies
        every field out of it (built whole for each sample, it took about a tenth of a
        heads-up search)."""
        if self._base is None or self._base[0] is not view:
            state = self._base_state(game, view)
            pending = view.pending_draw and view.to_act is not None
            guilt = pending and self.wd4_prev_color is not None
            judged = state.pending_source if guilt else None
            self._base = (view, state, judged)
        _, state, judged = self._base
        state.hands = hands
        state.set_aside = aside
        state.discard = discard
        state.draw_pile = draw_pile
        state.rng = Rng(self._rng_seed)
        prev = self.wd4_prev_color
        state.pending_guilty = judged is not None and any(
            card.color is prev for card in hands[judged]
        )
        return state

    def _base_state(self, game: Game, view: View) -> HandState:
        """Every field of the declared state that ``view`` and the belief fix (a field
        added there and forgotten here fails in HandState.create); the cards dealt by a
        sample are empty here."""
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
        source = -1
        if view.pending_draw and view.to_act is not None:
            top = view.top
            pending_kind = game.effects[top].draw_family
            challengeable = top.symbol in WILD_DRAW_FOUR_SYMBOLS
            source = _previous(view)
        return HandState.create(
            rng=Rng(0),
            log=[],
            scores=list(view.scores),
            seating=seating,
            position=position,
            hand_number=view.hand_number,
            dealer=view.dealer,
            winner=None,
            hand_result=None,
            direction=view.direction,
            hands=[[] for _ in range(n)],
            set_aside=[],
            active=active,
            players_in_hand=sum(active),
            draw_pile=[],
            discard=[],
            discard_points=list(self.discarded),
            color=view.color,
            to_act=view.to_act,
            phase=Phase(view.phase),
            pending_draw=view.pending_draw,
            pending_kind=pending_kind,
            pending_challengeable=challengeable,
            pending_source=source,
            pending_guilty=False,
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


def chooses(choice: Choice, held: list[Card], points: Callable[[Card], int]) -> bool:
    """Whether a player who scores plays as ``heuristic`` does (the card that leaves her
    most cards, then points, of the color it plays into; wilds kept and the points kept
    low unless someone is close to going out; a hit at a next player close to going
    out) would have played ``choice`` holding ``held``, the later cards and its card:
    no other fitting card (a wild in any color) scores more.

    >>> from una.engine.rules import RuleSet
    >>> points = RuleSet.from_json("standard").points
    >>> red = Choice(Card.parse("R5"), None, Color.RED, frozenset(ALL_CARDS), False, False, 3)
    >>> chooses(red, [Card.parse("R2"), Card.parse("B1")], points)
    True
    >>> chooses(red, [Card.parse("B5"), Card.parse("B1")], points)
    False
    """
    cards = {*held, *(choice.later or ()), choice.card}
    return ChoiceTest(choice, len(held), {card: points(card) for card in cards}).passes(held)


#: A card's color as an index into COLORS; -1 for a wild or a colorless card (it counts
#: towards no color of a hand).
_COLOR_INDEX: dict[Card, int] = {
    card: -1 if card.is_wild or card.color is None else COLORS.index(card.color)
    for card in ALL_CARDS
}

#: The same per card id (ALL_CARDS order), for the compiled core.
_COLOR_IDS = [_COLOR_INDEX[card] for card in ALL_CARDS]


class ChoiceTest:
    """:func:`chooses` for one choice, made once and asked of many sampled hands: what
    does not depend on the hand (the later cards and the card itself, each fitting card's
    color, worth and bonuses) is worked out here.

    A fitting card's score is its color term (``2 * cards + points / 100`` of the color it
    plays into, itself not counted) plus a fixed part (the wild penalty, its worth, the hit
    bonus); a wild takes the best of the four colors."""

    __slots__ = ("choice", "count", "fixed", "held", "mine", "packed", "points", "terms", "value")

    def __init__(self, choice: Choice, held: int, points: dict[Card, int]) -> None:
        self.choice = choice
        #: How many of a sampled hand's cards (the first ones) she held at the choice.
        self.held = held
        self.points = points
        extra = [*(choice.later or ()), choice.card]
        self.count = [0] * len(COLORS)
        self.value = [0] * len(COLORS)
        for card in extra:
            index = _COLOR_INDEX[card]
            if index >= 0:
                self.count[index] += 1
                self.value[index] += points[card]
        danger, next_close = choice.danger, choice.next_close

        def term(card: Card, color: Color | None) -> tuple[int, int, int, float]:
            """(how to find the color: -2 none, -1 the best, else its index; the card's
            own share of that color: 1 or 0; its worth there; the fixed part)."""
            worth = points[card]
            fixed = 0.0
            if card.is_wild and not danger:
                fixed -= 40 + (10 if card.is_draw else 0)
            fixed += worth / 2 if danger else worth / 25
            if next_close and (card.is_draw or card.symbol in HIT_FACES):
                fixed += 30
            if color is None:
                return -2, 0, 0, fixed
            own = 1 if not card.is_wild and card.color is color else 0
            return COLORS.index(color), own, worth * own, fixed

        self.terms: dict[Card, tuple[int, int, int, float]] = {}
        for card in choice.playable:
            if card not in points:
                continue  # not in this deck (``points`` covers every card a hand may hold)
            if card.is_wild:
                self.terms[card] = (-1, 0, 0, term(card, COLORS[0])[3])
            else:
                self.terms[card] = term(card, card.color or choice.color_then)
        card = choice.card
        self.mine = term(card, choice.color if card.is_wild else (card.color or choice.color_then))
        #: The fitting cards among those that do not depend on the hand.
        self.fixed = [card for card in set(extra) if card in self.terms]
        #: The test packed for the compiled core (fast.deal_checked), None without it.
        self.packed = fast.choice_test(
            held, self.count, self.value, self.mine, self.fixed, self.terms,
            [points.get(card, 0) for card in ALL_CARDS], _COLOR_IDS,
        )  # fmt: skip

    def passes(self, cards: list[Card]) -> bool:
        """Whether she would have made this choice holding the first ``held`` of ``cards``."""
        held = cards[: self.held]
        count, value = self.count[:], self.value[:]
        points = self.points
        for card in held:
            index = _COLOR_INDEX[card]
            if index >= 0:
                count[index] += 1
                value[index] += points[card]
        index, own, worth, fixed = self.mine
        mine = fixed + 1e-9
        if index >= 0:
            mine += 2 * (count[index] - own) + (value[index] - worth) / 100
        terms = self.terms
        best_color: float | None = None
        for group in (held, self.fixed):
            for card in group:
                found = terms.get(card)
                if found is None:
                    continue
                index, own, worth, fixed = found
                if index >= 0:
                    score = 2 * (count[index] - own) + (value[index] - worth) / 100 + fixed
                elif index == -1:
                    if best_color is None:
                        best_color = max(2 * c + v / 100 for c, v in zip(count, value, strict=True))
                    score = best_color + fixed
                else:
                    score = fixed
                if score > mine:
                    return False
        return True


def moves_hands(view: View, card: Card, action: Action) -> bool:
    """Whether playing ``card`` may have moved or mixed hands (seven-zero, mutants)."""
    if action.targets or card.code in NAMED_MUTANTS:
        return True
    return (
        card.symbol in ("7", "0")
        and _template(rules_key(view), len(view.players))[0].rules.seven_zero
    )


def _close_to_out(view: View, seat: int) -> bool:
    """Whether a player other than ``seat`` (not out) is close to going out, as
    ``heuristic`` judges it: then she may shed a wild for its points, and playing one
    says nothing."""
    out = set(view.out)
    return any(
        count <= DANGER
        for other, count in enumerate(view.hand_counts)
        if other != seat and other not in out
    )


def _set_aside(view: View, seat: int) -> bool:
    return bool(view.set_aside and view.set_aside[seat])


def _following(view: View, seat: int, active: list[int]) -> int:
    """The player after ``seat`` in the direction of play, among ``active``."""
    n = len(view.players)
    seating = list(view.seating) or list(range(n))
    pos = seating.index(seat)
    for _ in range(n):
        pos = (pos + view.direction) % n
        if seating[pos] in active:
            break
    return seating[pos]


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
