"""Events: frozen values that say what an action caused, in order.

``Game.apply`` returns them. They hold the whole truth (a drawn card's identity included):
front ends show each seat only what its view allows (see :meth:`Event.visible_to`).
``describe(names)`` gives a short readable English line (logs, the terminal);
``to_json()`` the event as data, for front ends that word it in their own language:
its ``type`` (:data:`EVENT_TYPES`), seats as numbers, cards as NOTATION codes, colors as
letters. :meth:`Event.json_for` is what one seat may see of it, hidden cards removed.

>>> from una.engine.cards import Card, Color
>>> CardPlayed(1, Card.parse("W"), Color.RED).describe(["Ann", "Bob"])
'Bob plays Wild and names red'
>>> CardPlayed(1, Card.parse("W"), Color.RED).to_json()
{'type': 'card_played', 'seat': 1, 'card': 'W', 'color': 'R'}
>>> drawn = CardsDrawn(0, (Card.parse("R5"), Card.parse("G2")), "penalty")
>>> drawn.json_for(0)["cards"], drawn.json_for(1)["cards"], drawn.json_for(None)["count"]
(['R5', 'G2'], [], 2)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from una.engine.cards import Card, Color, format_cards


class Event:
    """Base class of every event."""

    __slots__ = ()

    #: The event's ``type`` in JSON (``card_played`` for :class:`CardPlayed`), set for every
    #: subclass from its name.
    type: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.type = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()

    def describe(self, names: Sequence[str]) -> str:
        raise NotImplementedError

    def visible_to(self, seat: int | None) -> Event:
        """This event as ``seat`` may see it (``None``: a spectator); hides private cards.

        The one hiding rule of events, the views' own: a seat sees the cards of her own
        hand and those shown to her (a challenge), and only how many the others hold.
        """
        return self

    def to_json(self) -> dict[str, Any]:
        """The whole event as JSON data: its ``type`` and fields, in order, cards as codes.

        >>> HandsMoved(((0, 1), (1, 0))).to_json()
        {'type': 'hands_moved', 'moves': [[0, 1], [1, 0]]}
        """
        out: dict[str, Any] = {"type": self.type}
        for name in _field_names(type(self)):
            out[name] = _plain(getattr(self, name))
        return out

    def json_for(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator), as JSON data.

        >>> HandRevealed(0, 1, (Card.parse("R5"),)).json_for(2)
        {'type': 'hand_revealed', 'seat': 0, 'to': 1, 'cards': []}
        """
        return self.visible_to(seat).to_json()


_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}


def _field_names(cls: type[Event]) -> tuple[str, ...]:
    """An event class's fields, in order (looked up once: events are made into JSON for
    every seat of every broadcast)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(item.name for item in fields(cls))  # type: ignore[arg-type]
    return names


def _plain(value: object) -> Any:
    """A field's value as JSON: cards as codes, colors as letters, tuples as lists."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Color):
        return value.value
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    hand_number: int
    dealer: int

    def describe(self, names: Sequence[str]) -> str:
        return f"Hand {self.hand_number}: {names[self.dealer]} deals"


@dataclass(frozen=True, slots=True)
class CardTurned(Event):
    """The first card of the discard pile is turned up."""

    card: Card

    def describe(self, names: Sequence[str]) -> str:
        return f"{self.card.name} is turned up"


@dataclass(frozen=True, slots=True)
class FirstCardReturned(Event):
    """A first card that may not start the pile goes back (reshuffled or to the bottom)."""

    card: Card
    where: str

    def describe(self, names: Sequence[str]) -> str:
        return f"{self.card.name} goes back into the pile ({self.where})"


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card
    color: Color | None = None

    def describe(self, names: Sequence[str]) -> str:
        named = f" and names {self.color.word}" if self.color else ""
        return f"{names[self.seat]} plays {self.card.name}{named}"


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """``seat`` draws ``cards``; ``reason`` is draw, penalty, challenge, catch (a missed UNO,
    caught or given by ``uno_penalty=auto``) or bad_catch."""

    seat: int
    cards: tuple[Card, ...]
    reason: str = "draw"
    count: int = -1

    def __post_init__(self) -> None:
        if self.count < 0:
            object.__setattr__(self, "count", len(self.cards))

    def describe(self, names: Sequence[str]) -> str:
        what = "a card" if self.count == 1 else f"{self.count} cards"
        shown = f" ({format_cards(self.cards)})" if self.cards else ""
        why = "" if self.reason == "draw" else f" [{self.reason.replace('_', ' ')}]"
        return f"{names[self.seat]} draws {what}{shown}{why}"

    def visible_to(self, seat: int | None) -> Event:
        if seat == self.seat:
            return self
        return CardsDrawn(self.seat, (), self.reason, self.count)


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} passes"


@dataclass(frozen=True, slots=True)
class ColorChosen(Event):
    seat: int
    color: Color

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} names {self.color.word}"


@dataclass(frozen=True, slots=True)
class ColorReverted(Event):
    color: Color | None

    def describe(self, names: Sequence[str]) -> str:
        return f"the color goes back to {self.color.word if self.color else 'unnamed'}"


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} is skipped"


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    direction: int

    def describe(self, names: Sequence[str]) -> str:
        way = "clockwise" if self.direction == 1 else "counter-clockwise"
        return f"play goes {way}"


@dataclass(frozen=True, slots=True)
class DrawPending(Event):
    """A draw penalty now waits on ``seat``: she may take it or answer it."""

    seat: int
    total: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} must draw {self.total} or answer"


@dataclass(frozen=True, slots=True)
class HandsMoved(Event):
    """Whole hands move between players (seven-zero): ``moves`` pairs giver and receiver."""

    moves: tuple[tuple[int, int], ...]

    def describe(self, names: Sequence[str]) -> str:
        if len(self.moves) == 2 and self.moves[0] == self.moves[1][::-1]:
            a, b = self.moves[0]
            return f"{names[a]} and {names[b]} swap hands"
        return "every hand passes on: " + ", ".join(
            f"{names[a]}'s to {names[b]}" for a, b in self.moves
        )


@dataclass(frozen=True, slots=True)
class HandsRedealt(Event):
    """The cards of these players' hands were pooled, shuffled and dealt back (Randomizer)."""

    seats: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        return "every hand is pooled, shuffled and dealt back"


@dataclass(frozen=True, slots=True)
class Reseated(Event):
    """A new order around the table: ``seating`` lists the players place by place."""

    seating: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        return "new seating: " + ", ".join(names[s] for s in self.seating)


@dataclass(frozen=True, slots=True)
class LeftHand(Event):
    """These players quit the hand (Quitter); their cards are set aside to score."""

    seats: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        return " and ".join(names[s] for s in self.seats) + " quit the hand"


@dataclass(frozen=True, slots=True)
class Challenged(Event):
    challenger: int
    accused: int
    guilty: bool

    def describe(self, names: Sequence[str]) -> str:
        verdict = "guilty" if self.guilty else "innocent"
        return f"{names[self.challenger]} challenges {names[self.accused]}: {verdict}"


@dataclass(frozen=True, slots=True)
class HandRevealed(Event):
    """``seat``'s hand is shown to ``to`` (a challenge)."""

    seat: int
    to: int
    cards: tuple[Card, ...]

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} shows {names[self.to]}: {format_cards(self.cards)}"

    def visible_to(self, seat: int | None) -> Event:
        if seat in (self.seat, self.to):
            return self
        return HandRevealed(self.seat, self.to, ())


@dataclass(frozen=True, slots=True)
class UnoCalled(Event):
    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} calls UNO"


@dataclass(frozen=True, slots=True)
class UnoCaught(Event):
    catcher: int
    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.catcher]} catches {names[self.seat]} without UNO"


@dataclass(frozen=True, slots=True)
class UnoMissed(Event):
    """``seat``'s UNO window closed with the call still owed, under ``uno_penalty=auto``:
    the rules give the 2 cards a catch would (the draw follows, reason ``catch``)."""

    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} did not call UNO in time"


@dataclass(frozen=True, slots=True)
class CatchFailed(Event):
    """``catcher`` caught ``seat`` wrongly: ``reason`` in English, ``code`` the refusal's
    code (``called_uno``, ``holds_more``...), for front ends to word."""

    catcher: int
    seat: int
    reason: str
    code: str = ""

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.catcher]} wrongly catches {names[self.seat]}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discard pile (but its top card) becomes the new draw pile."""

    count: int

    def describe(self, names: Sequence[str]) -> str:
        return f"the discard pile is shuffled into a new draw pile of {self.count}"


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """``winner`` went out (or counts as out: ``blocked``, or the hand was ``ended`` by the
    table where it stood); ``points`` this hand, ``scores`` the match totals, ``ranking``
    every player from the first out to the last (the loser).

    >>> HandEnded(1, False, (12, 3), (12, 3), (1, 0), ended=True).describe(["Ann", "Bob"])
    'the hand is ended: everyone takes the points in her hand. Scores: Ann 12, Bob 3'
    """

    winner: int
    blocked: bool
    points: tuple[int, ...]
    scores: tuple[int, ...]
    ranking: tuple[int, ...] = ()
    ended: bool = False

    def describe(self, names: Sequence[str]) -> str:
        table = ", ".join(f"{n} {s}" for n, s in zip(names, self.scores, strict=False))
        if self.ended:
            return f"the hand is ended: everyone takes the points in her hand. Scores: {table}"
        how = "the hand is blocked; " if self.blocked else ""
        return f"{how}{names[self.winner]} wins the hand. Scores: {table}"


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    winner: int
    scores: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.winner]} wins the match"


#: Every event class by its JSON ``type``.
EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        HandStarted, CardTurned, FirstCardReturned, CardPlayed, CardsDrawn, Passed,
        ColorChosen, ColorReverted, Skipped, DirectionChanged, DrawPending, HandsMoved,
        HandsRedealt, Reseated, LeftHand, Challenged, HandRevealed, UnoCalled, UnoCaught,
        UnoMissed, CatchFailed, Reshuffled, HandEnded, MatchEnded,
    )
}  # fmt: skip
