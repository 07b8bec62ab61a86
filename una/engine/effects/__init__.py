"""What each card family does, one small unit per family, found by the card's ``effect`` key.

An effect is told when its card is played (``play``), when it is turned up as the first card
of a hand (``first``) and when it is its player's last card (``last_card``). It acts through
the game's small effect API (``next_seat``, ``start_turn``, ``skip``, ``reverse``,
``inflict``, ``draw_cards``) and never touches the turn loop itself, so a new card is a new
unit registered here, not a new branch in :mod:`una.engine.game`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from una.engine.actions import Action
    from una.engine.cards import Card
    from una.engine.game import Game


class Effect:
    """A card family's behaviour. The base class is a card with no effect (a number card)."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        """The card was played by ``seat`` and is on the pile: make the next player act."""
        game.start_turn(game.next_seat(seat))

    def first(self, game: Game, card: Card, first_seat: int) -> None:
        """The card was turned up to start the pile; ``first_seat`` is left of the dealer."""
        game.start_turn(first_seat)

    def last_card(self, game: Game, seat: int, card: Card) -> None:
        """The card was ``seat``'s last: the hand ends after this (only draws still apply)."""


EFFECTS: dict[str, Effect] = {}
E = TypeVar("E", bound=type[Effect])


def register(*keys: str) -> Callable[[E], E]:
    """Class decorator: register one instance of the effect under each key."""

    def deco(cls: E) -> E:
        instance = cls()
        for key in keys:
            if key in EFFECTS:
                raise ValueError(f"effect {key!r} registered twice")
            EFFECTS[key] = instance
        return cls

    return deco


def effect_of(card: Card) -> Effect:
    """The effect of a card (``KeyError`` for a card family no unit handles yet)."""
    return EFFECTS[card.effect]


from una.engine.effects import classic  # noqa: E402,F401  (registers the classic cards)
