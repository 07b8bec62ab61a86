"""The Alupula cards of RULES.md section 7: colored Draw 4, Colourless, Nagasaki."""

from __future__ import annotations

from typing import TYPE_CHECKING

from una.engine.effects import Effect, register
from una.engine.effects.classic import DrawCard

if TYPE_CHECKING:
    from una.engine.actions import Action
    from una.engine.cards import Card
    from una.engine.game import Game


@register("D4")
class ColoredDrawFour(DrawCard):
    """The next player draws 4 and forfeits her turn. Not wild: it matches its color or
    another Draw 4, and nobody can challenge it. Under ``stack_draw_four`` a pending colored
    Draw 4 may be answered with another."""

    count = 4
    draw_family = "D4"


@register("CL")
class Colourless(Effect):
    """Played on anything (a pending draw aside). It has no color and no number: the next
    card may be any colored card (not a wild), and that card's color becomes current."""

    def playable(self, game: Game, seat: int, card: Card) -> bool:
        return True


@register("NAGA")
class Nagasaki(Effect):
    """Every player, its player included, draws as many cards as she holds. Played on
    anything except a Nagasaki whose player's turn has not come round again; it names no
    color and the current color stays. As a last card it does not win: its player draws 2
    and nobody else draws."""

    keeps_color = True
    goes_out = False

    def playable(self, game: Game, seat: int, card: Card) -> bool:
        return game.nagasaki_lock is None or game.discard[-1].symbol != "NAGA"

    def refusal(self, game: Game, seat: int, card: Card) -> str | None:
        return "a Nagasaki cannot be played on a Nagasaki before its player's turn"

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        game.nagasaki_lock = seat
        # In play order from its player, so a short pile runs out in a fair order.
        order = [seat]
        other = game.next_seat(seat)
        while other != seat:
            order.append(other)
            other = game.next_seat(other)
        for player in order:
            count = len(game.hands[player])
            if count:
                game.draw_cards(player, count, "nagasaki")
        game.start_turn(game.next_seat(seat))

    def last_card(self, game: Game, seat: int, card: Card, action: Action) -> None:
        game.nagasaki_lock = seat
        game.draw_cards(seat, 2, "nagasaki")
        game.start_turn(game.next_seat(seat))
