"""Observations: one flat ``float32`` vector per seat, exactly what the seat may know.

The vector is the seat's :class:`~una.engine.views.View` (its hand, the top card, the color,
every hand size, the pending draw, what was revealed to it, ...) plus the cards of the
discard pile since its last reshuffle, which every player saw played. Seats are absolute
(seat 0 is always the first block of a per-seat field), as in the action codes; the ``me``
field says which seat this is. Card fields count cards by the card order of the
:class:`~una.env.actions.ActionSpace` (the rule set's distinct cards in display order).

Fields, in order (``K`` cards, ``n`` seats)::

    hand K        top K        color 4 (R Y G B; all 0 while none)   drawn K
    discard K     revealed n*K (per shown seat: the cards shown to me)
    hand_counts n set_aside n  scores n  position n (place in the seating order)
    direction 1   pending_draw 1  draw_pile 1
    me n  to_act n  dealer n  uno_called n  catchable n  out n (went out, to_the_last)
    phase 6 (color play drawn penalty hand_over match_over)

:meth:`ObservationEncoder.encode` builds the vector from the game for speed; its reference
is :meth:`ObservationEncoder.encode_view`, which reads nothing but a view and the public
discard pile (the tests check that the two agree on every state of whole games).

>>> from una.engine import Game
>>> encoder = ObservationEncoder("standard", players=2)
>>> game = Game("standard", players=2, seed=3)
>>> obs = encoder.encode(game, 0)
>>> obs.shape, int(obs[encoder.field("hand")].sum())
((357,), 7)
>>> bool((obs == encoder.encode_view(game.view_for(0), game.discard)).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from una.engine.cards import COLORS, Card
from una.engine.rules import RuleSet
from una.engine.views import View

if TYPE_CHECKING:
    from una.engine.game import Game

#: The phases of :class:`una.engine.game.Phase`, in the order of the ``phase`` field.
PHASES: tuple[str, ...] = ("color", "play", "drawn", "penalty", "hand_over", "match_over")


class ObservationEncoder:
    """Encodes what one seat may know as a flat vector (see the module's docstring)."""

    def __init__(self, rules: RuleSet | str | dict[str, Any], players: int) -> None:
        from una.env.actions import ActionSpace  # the card order lives there

        self.rules = rules if isinstance(rules, RuleSet) else RuleSet.from_json(rules)
        self.players = n = players
        self.cards: tuple[Card, ...] = ActionSpace(self.rules, players).cards
        k = len(self.cards)
        sizes = [
            ("hand", k), ("top", k), ("color", 4), ("drawn", k), ("discard", k),
            ("revealed", n * k),
            # numbers (written at once: they are contiguous)
            ("hand_counts", n), ("set_aside", n), ("scores", n), ("position", n),
            ("direction", 1), ("pending_draw", 1), ("draw_pile", 1),
            # flags
            ("me", n), ("to_act", n), ("dealer", n), ("uno_called", n), ("catchable", n),
            ("out", n), ("phase", len(PHASES)),
        ]  # fmt: skip
        self.fields: dict[str, slice] = {}
        start = 0
        for name, size in sizes:
            self.fields[name] = slice(start, start + size)
            start += size
        self.size = start
        self._card_index = {card: i for i, card in enumerate(self.cards)}
        # By code: a string's hash is cached, a card's is a Python call.
        self._code_index = {card.code: i for i, card in enumerate(self.cards)}
        self._discard: tuple[list[Card], int, np.ndarray] | None = None
        self._reveal_cache: dict[int, tuple[list[Any], int, list[int]]] = {}
        self._identity_seating = list(range(n))
        self._identity_positions = list(range(n))
        self._numbers = slice(self.fields["hand_counts"].start, self.fields["draw_pile"].stop)
        self._color_index = {color: i for i, color in enumerate(COLORS)}
        self._phase_index = {name: i for i, name in enumerate(PHASES)}
        f = self.fields
        self._offsets = {name: s.start for name, s in f.items()}
        # Bounds for the observation space: counts are never negative; scores may be.
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.full(self.size, np.inf, dtype=np.float32)
        for name in ("scores", "direction"):
            self.low[f[name]] = -np.inf
        for name in ("top", "color", "drawn", "me", "to_act", "dealer", "uno_called",
                     "catchable", "out", "phase"):  # fmt: skip
            self.high[f[name]] = 1.0

    def field(self, name: str) -> slice:
        """The slice of field ``name`` in a vector."""
        return self.fields[name]

    def decode(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """The vector split into its named fields (``revealed`` as an ``n x K`` array)."""
        out = {name: obs[s] for name, s in self.fields.items()}
        out["revealed"] = out["revealed"].reshape(self.players, len(self.cards))
        return out

    def encode(self, game: Game, seat: int) -> np.ndarray:
        """What ``seat`` may know of ``game`` now, read from the game directly (fast:
        four numpy calls, whatever the size of the hands)."""
        o = self._offsets
        n = self.players
        index = self._code_index
        # Every count and flag as a position to count once: one bincount makes them all.
        base = o["hand"]
        positions = [base + index[c.code] for c in game.hands[seat]]
        positions.append(o["top"] + index[game.discard[-1].code])
        positions.append(o["me"] + seat)
        positions.append(o["dealer"] + game.dealer)
        positions.append(o["phase"] + self._phase_index[game.phase.value])
        if game.color is not None:
            positions.append(o["color"] + self._color_index[game.color])
        to_act = game.to_act
        if to_act == seat and game.drawn is not None:
            positions.append(o["drawn"] + index[game.drawn.code])
        if not game.hand_over:
            if to_act is not None:
                positions.append(o["to_act"] + to_act)
            base = o["out"]
            positions.extend(base + s for s in game.ranking)
        hands = game.hands
        called = game.called_uno
        catchable = game.catchable
        for s in range(n):
            if called[s] and len(hands[s]) == 1:
                positions.append(o["uno_called"] + s)
            if catchable(s):
                positions.append(o["catchable"] + s)
        if game.reveals:
            positions.extend(self._revealed_positions(game, seat))
        obs = np.bincount(positions, minlength=self.size).astype(np.float32)
        discard = self.fields["discard"]
        obs[discard] = self._discard_counts(game.discard)
        seating = game.seating
        places = self._identity_positions if seating == self._identity_seating else [
            seating.index(s) for s in range(n)
        ]  # fmt: skip
        obs[self._numbers] = [
            *[len(h) for h in hands], *[len(a) for a in game.set_aside], *game.scores,
            *places, game.direction, game.pending_draw, len(game.draw_pile),
        ]  # fmt: skip
        return obs

    def _revealed_positions(self, game: Game, seat: int) -> list[int]:
        """The positions of what was revealed to ``seat``, chosen as the view chooses
        (:func:`una.engine.views.view_for`): per shown seat, a live reveal (the hand as it
        is now) outlasts any showing of it, else the last showing counts. Reveals are only
        ever added during a hand, and a shown snapshot never changes: those are kept until
        the list grows; a live reveal is read every time."""
        reveals = game.reveals
        cached = self._reveal_cache.get(seat)
        if cached is not None and cached[0] is reveals and cached[1] == len(reveals):
            return cached[2]
        chosen: dict[int, tuple[Card, ...] | None] = {}
        for viewer, shown, cards in reveals:
            if viewer != seat or (shown in chosen and chosen[shown] is None):
                continue
            chosen[shown] = cards
        positions: list[int] = []
        self._reveals(positions, seat, [
            (shown, tuple(game.hands[shown]) if cards is None else cards)
            for shown, cards in chosen.items()
        ])  # fmt: skip
        if all(cards is not None for cards in chosen.values()):
            self._reveal_cache[seat] = (reveals, len(reveals), positions)
        return positions

    def _discard_counts(self, discard: list[Card]) -> np.ndarray:
        """The discard pile's card counts, kept up to date as the pile grows: the engine
        only appends to a pile, and starts a new list when it reshuffles or deals."""
        cached = self._discard
        if cached is None or cached[0] is not discard or cached[1] > len(discard):
            counts = np.zeros(len(self.cards), dtype=np.float32)
            seen = 0
        else:
            _, seen, counts = cached
        if seen < len(discard):
            index = self._code_index
            for card in discard[seen:]:
                counts[index[card.code]] += 1
        self._discard = (discard, len(discard), counts)
        return counts

    def encode_view(self, view: View, discard: Sequence[Card]) -> np.ndarray:
        """The same vector from a view alone, plus the public discard pile (its cards,
        bottom first): the reference :meth:`encode` is checked against."""
        if view.seat is None or view.hand is None:
            raise ValueError("a spectator's view has no seat to encode")
        obs = np.zeros(self.size, dtype=np.float32)
        f = self.fields
        self._count(obs, f["hand"], view.hand)
        self._count(obs, f["top"], [view.top])
        if view.color is not None:
            obs[f["color"].start + self._color_index[view.color]] = 1
        if view.drawn is not None:
            self._count(obs, f["drawn"], [view.drawn])
        self._count(obs, f["discard"], discard)
        shown: list[int] = []
        self._reveals(shown, view.seat, [(r.seat, r.cards) for r in view.revealed])
        for position in shown:
            obs[position] += 1
        n = self.players
        obs[f["hand_counts"]] = view.hand_counts
        obs[f["me"].start + view.seat] = 1
        if view.to_act is not None:
            obs[f["to_act"].start + view.to_act] = 1
        obs[f["dealer"].start + view.dealer] = 1
        for s in view.uno_called:
            obs[f["uno_called"].start + s] = 1
        for s in view.catchable:
            obs[f["catchable"].start + s] = 1
        for s in view.out:
            obs[f["out"].start + s] = 1
        obs[f["set_aside"]] = view.set_aside or (0,) * n
        obs[f["scores"]] = view.scores
        for place, s in enumerate(view.seating):
            obs[f["position"].start + s] = place
        obs[f["direction"]] = view.direction
        obs[f["pending_draw"]] = view.pending_draw
        obs[f["draw_pile"]] = view.draw_pile
        obs[f["phase"].start + self._phase_index[view.phase]] = 1
        return obs

    def _count(self, obs: np.ndarray, where: slice, cards: Sequence[Card]) -> None:
        for card in cards:
            obs[where.start + self._card_index[card]] += 1

    def _reveals(
        self, positions: list[int], seat: int, shown: Sequence[tuple[int, Sequence[Card]]]
    ) -> None:
        """Adds to ``positions`` the cards shown to ``seat``: one reveal per shown seat (the
        view's, or the one :meth:`_revealed_positions` chose the same way)."""
        k = len(self.cards)
        base = self._offsets["revealed"]
        index = self._code_index
        for shown_seat, cards in shown:
            start = base + shown_seat * k
            positions.extend(start + index[c.code] for c in cards)
