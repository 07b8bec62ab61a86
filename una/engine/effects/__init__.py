"""What each card family does, one small unit per family, found by the card's effect key.

An effect is asked whether its card may be played now (``playable``), which players it may
pick (``target_options``, ``check_targets``), and told when its card is played (``play``),
turned up as the first card of a hand (``first``) and played as its player's last card
(``last_card``). It acts through the game's small effect API (``next_seat``,
``start_turn``, ``skip``, ``reverse``, ``inflict``, ``take_penalty``, ``draw_cards``,
``move_hands``) and never touches the turn loop itself, so a new card is a new unit
registered here, not a new branch in :mod:`una.engine.game`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from una.engine.actions import Action
    from una.engine.cards import Card
    from una.engine.game import Game
    from una.engine.rules import RuleSet

NO_TARGETS: tuple[tuple[int, ...], ...] = ((),)


class Effect:
    """A card family's behaviour. The base class is a card with no effect (a number card)."""

    #: The card leaves the current color as it was (it has no color and names none).
    keeps_color = False
    #: Played as the last card, it takes its player out of the hand (a Nagasaki does not).
    goes_out = True
    #: Which pending draws it belongs to: "D2", "D4" (colored Draw 4), "WILD", or None.
    draw_family: str | None = None
    #: A reaction to a pending wild draw aimed at its holder (Holy Defender, Screwdriver).
    reaction = False
    #: While held, its holder may play no other card (Kobe).
    locks_hand = False
    #: Nonzero for a card that changes its holder's hand score; the order they apply in.
    score_order = 0

    def playable(self, game: Game, seat: int, card: Card) -> bool:
        """Whether ``seat`` may play ``card`` on the pile as it is, on a normal turn."""
        return game.plain_match(card)

    def refusal(self, game: Game, seat: int, card: Card) -> str | None:
        """Why ``card`` is not playable now, where the card has a rule of its own."""
        return None

    def keeps_color_now(self, game: Game) -> bool:
        """Whether playing the card now leaves the current color as it was."""
        return self.keeps_color

    def adjust_score(self, game: Game, seat: int, score: int, base: list[int]) -> int:
        """Its holder's hand score at the end of the hand, given the plain ``base`` scores."""
        return score

    def target_options(self, game: Game, seat: int, card: Card) -> Sequence[tuple[int, ...]]:
        """Every choice of ``@seat`` picks that playing ``card`` allows (``((),)``: none)."""
        return NO_TARGETS

    def check_targets(
        self, game: Game, seat: int, card: Card, targets: tuple[int, ...]
    ) -> str | None:
        """Why ``targets`` are wrong for this card, or ``None``."""
        return f"{card} picks no player" if targets else None

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        """The card was played by ``seat`` and is on the pile: make the next player act."""
        game.start_turn(game.next_seat(seat))

    def first(self, game: Game, card: Card, first_seat: int) -> None:
        """The card was turned up to start the pile; ``first_seat`` is left of the dealer."""
        game.start_turn(first_seat)

    def last_card(self, game: Game, seat: int, card: Card, action: Action) -> None:
        """The card was ``seat``'s last: only its draws still apply (``goes_out``), or it
        does what its rule says instead (a Nagasaki)."""


class OneOtherPlayer(Effect):
    """A card whose player picks exactly one other player still in the hand (``@seat``)."""

    def target_options(self, game: Game, seat: int, card: Card) -> Sequence[tuple[int, ...]]:
        return [(other,) for other in game.seats_in_hand() if other != seat]

    def check_targets(
        self, game: Game, seat: int, card: Card, targets: tuple[int, ...]
    ) -> str | None:
        return check_one_other(game, seat, card, targets)


def check_one_other(game: Game, seat: int, card: Card, targets: tuple[int, ...]) -> str | None:
    """Why ``targets`` is not exactly one other player still in the hand, or ``None``."""
    if len(targets) != 1:
        return f"{card} picks one other player: play {card} @<seat>"
    target = targets[0]
    if target == seat:
        return f"{card} must pick another player, not its own"
    if not 0 <= target < game.n or not game.active[target]:
        return f"seat {target} is not in this hand"
    return None


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


def card_summary(card: Card) -> str:
    """What a card does, in a few sentences: the first paragraph of its effect's docstring.

    >>> from una.engine.cards import Card
    >>> card_summary(Card.parse("HOLY"))[:45]
    'As a reaction the whole pending wild draw pas'
    """
    doc = inspect.getdoc(type(EFFECTS[card.effect])) or ""
    return " ".join(doc.split("\n\n")[0].split()).replace("``", "")


@lru_cache(maxsize=64)
def effect_table(rules: RuleSet) -> dict[Card, Effect]:
    """The effect of every card of ``rules``' deck under those rules (seven-zero turns the
    number cards 7 and 0 into hand-swapping cards)."""
    table: dict[Card, Effect] = {}
    for card in set(rules.deck()):
        key = card.effect
        if rules.seven_zero and key == "N" and card.symbol in ("0", "7"):
            key = "N" + card.symbol
        table[card] = EFFECTS[key]
    return table


from una.engine.effects import alupula, byond, classic, house  # noqa: E402,F401  (they register)
