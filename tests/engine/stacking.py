"""Stacked-deck helpers for the example tests: deal known hands, set up positions."""

from __future__ import annotations

from collections import Counter
from typing import Any

from una.engine import Card, Game
from una.engine.record import stacked_deck
from una.engine.rng import Rng


def deal(
    *hands: str,
    first: str,
    draws: str = "",
    dealer: int | None = None,
    rules: Any = "standard",
) -> Game:
    """A game whose first hand deals ``hands`` (7 codes each), turns ``first`` and then
    draws ``draws``; by default the last seat deals, so seat 0 plays first."""
    dealer = len(hands) - 1 if dealer is None else dealer
    deck = stacked_deck(rules, [h.split() for h in hands], first, draws.split(), dealer)
    return Game(rules, players=len(hands), seed=1, dealer=dealer, decks=[deck])


def codes(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return sorted(card.code for card in cards)


def legal(game: Game, seat: int) -> set[str]:
    return {action.code for action in game.legal_actions(seat)}


def conserved(game: Game) -> bool:
    return Counter(game.all_cards()) == Counter(game.rules.deck())


def give(game: Game, seat: int, hand: str) -> None:
    """Position setup (like a FEN): ``seat``'s hand becomes exactly ``hand``; the cards are
    swapped with the draw pile, so every card is still accounted for."""
    game.draw_pile[:0] = game.hands[seat]  # to the bottom: the next draws stay as dealt
    game.hands[seat].clear()
    for code in hand.split():
        card = Card.parse(code)
        game.draw_pile.remove(card)
        game.hands[seat].append(card)
    assert conserved(game)


def on_top(game: Game, cards: str) -> None:
    """Position setup: the next draws will be ``cards``, in order."""
    for code in reversed(cards.split()):
        card = Card.parse(code)
        game.draw_pile.remove(card)
        game.draw_pile.append(card)


def drain_pile(game: Game, seat: int) -> None:
    """Move the whole draw pile into ``seat``'s hand (a position setup, like a FEN):
    afterwards nothing can be drawn until cards are played."""
    game.hands[seat].extend(game.draw_pile)
    game.draw_pile.clear()


HAND_A = "R1 R2 R3 G4 G5 B6 Y7"
HAND_B = "G1 G2 G3 B4 B5 Y6 Y8"
HAND_C = "B1 B2 B3 Y4 Y5 G6 G7"


def drain(game: Game, keep_pile: int, keep_discard: int, rng: Rng) -> None:
    """All but ``keep_pile`` cards of the draw pile and all but the top and
    ``keep_discard`` of the discard pile go into random hands of players in the hand."""
    moved = game.draw_pile[: max(0, len(game.draw_pile) - keep_pile)]
    del game.draw_pile[: len(moved)]
    under = game.discard[:-1]
    cut = max(0, len(under) - keep_discard)
    moved += under[:cut]
    game.discard[:] = under[cut:] + game.discard[-1:]
    seats = game.seats_in_hand()
    for card in moved:
        game.hands[seats[rng.below(len(seats))]].append(card)
