"""House-rule card effects: seven-zero (RULES.md section 4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from una.engine.effects import Effect, OneOtherPlayer, register

if TYPE_CHECKING:
    from una.engine.actions import Action
    from una.engine.cards import Card
    from una.engine.game import Game


@register("N7")
class Seven(OneOtherPlayer):
    """Under ``seven_zero`` a 7 swaps its player's hand with the hand of a player she picks
    (``play R7 @2``). Turned up first, or as a last card, it swaps nothing."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        target = action.targets[0]
        game.move_hands({seat: target, target: seat})
        game.start_turn(game.next_seat(seat))


@register("N0")
class Zero(Effect):
    """Under ``seven_zero`` a 0 passes every hand on to the next player in the direction of
    play. Turned up first, or as a last card, it passes nothing."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        seats = game.seats_in_hand()
        game.move_hands({s: game.next_seat(s) for s in seats})
        game.start_turn(game.next_seat(seat))
