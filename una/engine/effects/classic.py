"""The classic cards of RULES.md section 3.

Numbers, Skip, Reverse, Draw Two, Wild, Wild Draw Four.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from una.engine.effects import Effect, register

if TYPE_CHECKING:
    from una.engine.actions import Action
    from una.engine.cards import Card
    from una.engine.game import Game


@register("N", "W")
class Plain(Effect):
    """Number cards and the Wild: no effect beyond matching (the Wild's color is named in the
    play, or by the first player with ``color C`` when it is turned up first)."""

    def first(self, game: Game, card: Card, first_seat: int) -> None:
        if card.is_wild:
            game.ask_color(first_seat)
        else:
            game.start_turn(first_seat)


@register("S")
class Skip(Effect):
    """The next player forfeits her turn (with two players: the player plays again)."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        victim = game.next_seat(seat)
        game.skip(victim)
        game.start_turn(game.next_seat(victim))

    def first(self, game: Game, card: Card, first_seat: int) -> None:
        game.skip(first_seat)
        game.start_turn(game.next_seat(first_seat))


@register("R")
class Reverse(Effect):
    """The direction flips; with two players it also acts as a Skip."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        game.reverse()
        if game.players_in_hand == 2 and game.active[seat]:
            victim = game.next_seat(seat)
            game.skip(victim)
            game.start_turn(seat)
        else:
            game.start_turn(game.next_seat(seat))

    def first(self, game: Game, card: Card, first_seat: int) -> None:
        # Turned up first: the direction flips and the dealer plays first.
        game.reverse()
        game.start_turn(game.dealer)


class DrawCard(Effect):
    """A card that makes a player draw ``count`` and forfeit her turn (the next player,
    unless ``aim`` finds another: a Reverse Draw Two reverses first, a Delayed Blast skips
    one first)."""

    count = 0

    def amount(self, game: Game, seat: int, card: Card) -> int:
        """How many cards it adds to the pending draw."""
        return self.count

    def aim(self, game: Game, seat: int) -> int:
        """Do what comes before the draw (reverse, skip) and return its victim."""
        return game.next_seat(seat)

    def last_victim(self, game: Game, seat: int) -> int:
        """Its victim when it is a last card: aimed the same way, nothing else done."""
        return game.next_seat(seat)

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        amount = self.amount(game, seat, card)
        game.inflict(seat, self.aim(game, seat), amount, card)

    def last_card(self, game: Game, seat: int, card: Card, action: Action) -> None:
        # The last card ends the hand, but its draw (and any running stack) still applies,
        # at once: nobody may answer or challenge it.
        extra = self.amount(game, seat, card)
        if extra or game.pending_draw:
            game.take_penalty(self.last_victim(game, seat), extra=extra)


@register("D2")
class DrawTwo(DrawCard):
    count = 2
    draw_family = "D2"

    def first(self, game: Game, card: Card, first_seat: int) -> None:
        # A first card is turned, not played: it applies at once even with stacking on.
        game.draw_cards(first_seat, 2, "penalty")
        game.skip(first_seat)
        game.start_turn(game.next_seat(first_seat))


@register("W4")
class WildDrawFour(DrawCard):
    """Wild Draw Four. Turned up first it never stays (the preset's ``first_card`` returns it)."""

    count = 4
    draw_family = "WILD"
