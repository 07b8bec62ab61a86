"""Views: exactly what one seat (or a spectator) may know about a game.

A view is built from the game but holds no reference to it, and nothing hidden: the seat's
own hand, the others' card counts, the public table, what a rule revealed to this seat, and
its legal actions. Bots and front ends see the game only through views.

>>> from una.engine.game import Game
>>> game = Game("standard", players=["Ann", "Bob"], seed=3)
>>> view = game.view_for(0)
>>> len(view.hand), view.hand_counts
(7, (7, 7))
>>> game.view_for(None).hand is None
True
>>> sorted(view.to_json())[:4]
['catchable', 'color', 'dealer', 'direction']
>>> view.end_hands is None  # shown only once the hand is over, to be scored
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from una.engine.actions import Action
from una.engine.cards import Card, Color

if TYPE_CHECKING:
    from una.engine.game import Game


@dataclass(frozen=True, slots=True)
class Reveal:
    """Cards of ``seat`` that this view's seat sees: ``live``, her hand as it is now (a Spy,
    a guilty challenge under ``challenge_reveal``), for the rest of the hand; else the hand
    as it was shown once (a challenge)."""

    seat: int
    cards: tuple[Card, ...]
    live: bool = False


@dataclass(frozen=True, slots=True)
class View:
    """What ``seat`` may know; ``seat`` and ``hand`` are ``None`` for a spectator.

    ``seating`` lists the players in their order around the table (Musical Chairs and Dance
    Fever change it); ``out`` the players out of the hand so far, in order; ``set_aside``
    how many cards each player set aside when she quit the hand (Quitter); ``locked_by``
    the card that keeps the rest of this seat's hand from being played (Kobe).
    """

    seat: int | None
    players: tuple[str, ...]
    rules: str | dict[str, Any]
    hand_number: int
    dealer: int
    phase: str
    hand: tuple[Card, ...] | None
    hand_counts: tuple[int, ...]
    top: Card
    color: Color | None
    direction: int
    to_act: int | None
    pending_draw: int
    draw_pile: int
    discard_pile: int
    scores: tuple[int, ...]
    uno_called: tuple[int, ...]
    catchable: tuple[int, ...]
    drawn: Card | None
    revealed: tuple[Reveal, ...]
    legal: tuple[Action, ...]
    hand_winner: int | None
    hand_points: tuple[int, ...] | None
    match_winner: int | None
    out: tuple[int, ...] = ()
    hand_ranking: tuple[int, ...] | None = None
    seating: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = ()
    #: The card in this seat's hand that locks the others (Kobe): none of them may be
    #: played until it is.
    locked_by: Card | None = None
    #: Once the hand is over, every player's cards left in her hand: they are laid on the
    #: table to be scored, so every seat (and spectator) sees them; ``None`` during a hand.
    end_hands: tuple[tuple[Card, ...], ...] | None = None

    @property
    def hand_over(self) -> bool:
        return self.phase in ("hand_over", "match_over")

    @property
    def match_over(self) -> bool:
        return self.phase == "match_over"

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict, card and action codes as text."""
        return {
            "seat": self.seat,
            "players": list(self.players),
            "rules": self.rules,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "phase": self.phase,
            "hand": None if self.hand is None else [c.code for c in self.hand],
            "hand_counts": list(self.hand_counts),
            "top": self.top.code,
            "color": self.color.value if self.color else None,
            "direction": self.direction,
            "to_act": self.to_act,
            "pending_draw": self.pending_draw,
            "draw_pile": self.draw_pile,
            "discard_pile": self.discard_pile,
            "scores": list(self.scores),
            "uno_called": list(self.uno_called),
            "catchable": list(self.catchable),
            "drawn": self.drawn.code if self.drawn else None,
            "revealed": [
                {"seat": r.seat, "cards": [c.code for c in r.cards], "live": r.live}
                for r in self.revealed
            ],
            "legal": [a.code for a in self.legal],
            "hand_winner": self.hand_winner,
            "hand_points": None if self.hand_points is None else list(self.hand_points),
            "match_winner": self.match_winner,
            "out": list(self.out),
            "hand_ranking": None if self.hand_ranking is None else list(self.hand_ranking),
            "seating": list(self.seating),
            "set_aside": list(self.set_aside),
            "locked_by": self.locked_by.code if self.locked_by else None,
            "end_hands": None
            if self.end_hands is None
            else [[c.code for c in cards] for cards in self.end_hands],
        }


def view_for(game: Game, seat: int | None) -> View:
    """The view of ``seat`` (a player's index), or of a spectator for ``None``."""
    if seat is not None and not 0 <= seat < game.n:
        raise ValueError(f"there is no seat {seat} (seats are 0-{game.n - 1})")
    player = seat is not None
    hand: tuple[Card, ...] | None = None
    revealed: tuple[Reveal, ...] = ()
    legal: tuple[Action, ...] = ()
    drawn = None
    locked_by = None
    if seat is not None:
        hand = tuple(sorted(game.hands[seat], key=_sort_key))
        if game.lock_cards:
            locked_by = next((c for c in hand if c in game.lock_cards), None)
        legal = tuple(game.legal_actions(seat))
        if game.to_act == seat:
            drawn = game.drawn
        revealed = _reveals_to(game, seat)
    result = game.hand_result
    over = game.hand_over
    return View(
        seat=seat,
        players=tuple(game.names),
        rules=game.rules.to_json(),
        hand_number=game.hand_number,
        dealer=game.dealer,
        phase=game.phase.value,
        hand=hand if player else None,
        hand_counts=tuple(len(h) for h in game.hands),
        top=game.discard[-1],
        color=game.color,
        direction=game.direction,
        to_act=None if over else game.to_act,
        pending_draw=game.pending_draw,
        draw_pile=len(game.draw_pile),
        discard_pile=len(game.discard),
        scores=tuple(game.scores),
        uno_called=tuple(
            s for s in range(game.n) if game.called_uno[s] and len(game.hands[s]) == 1
        ),
        catchable=tuple(s for s in range(game.n) if game.catchable(s)),
        drawn=drawn,
        revealed=revealed,
        legal=legal,
        hand_winner=result.winner if result else None,
        hand_points=result.points if result else None,
        match_winner=game.winner,
        out=tuple(game.ranking) if not over else (),
        hand_ranking=result.ranking if result else None,
        seating=tuple(game.seating),
        set_aside=tuple(len(cards) for cards in game.set_aside),
        locked_by=locked_by,
        end_hands=tuple(tuple(sorted(h, key=_sort_key)) for h in game.hands) if over else None,
    )


def _reveals_to(game: Game, viewer: int) -> tuple[Reveal, ...]:
    """What ``viewer`` sees of other hands: one reveal per shown seat, in the order they were
    first shown. A live reveal follows the hand as it changes and outlasts any earlier
    showing of the same hand (a snapshot would show cards she no longer holds); of several
    showings, the last counts.
    """
    chosen: dict[int, tuple[Card, ...] | None] = {}
    for who, shown_seat, cards in game.reveals:
        if who != viewer or (shown_seat in chosen and chosen[shown_seat] is None):
            continue
        chosen[shown_seat] = cards
    return tuple(
        Reveal(
            shown_seat,
            tuple(sorted(game.hands[shown_seat] if cards is None else cards, key=_sort_key)),
            live=cards is None,
        )
        for shown_seat, cards in chosen.items()
    )


def _sort_key(card: Card) -> tuple[int, int]:
    return card.sort_key
