"""Actions a seat takes, with the action codes of NOTATION.md.

>>> Action.parse("play w4 green uno")
Action.parse('play W4 G uno')
>>> Action.parse("catch @2").targets
(2,)
>>> str(Action.play(Card.parse("R7")))
'play R7'
>>> Action.parse("jump")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
una.engine.errors.InvalidCode: invalid action 'jump': unknown verb 'jump' (expected play, ...)
>>> Action.parse("catch @7", seats=4)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
una.engine.errors.InvalidCode: invalid action 'catch @7': no seat @7 at a table of 4 seats
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from una.engine.cards import Card, Color
from una.engine.errors import InvalidCode, quoted
from una.engine.rules import MAX_SEATS


class Kind(enum.Enum):
    """The verb of an action."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    COLOR = "color"
    CHALLENGE = "challenge"
    UNO = "uno"
    CATCH = "catch"
    DEAL = "deal"
    #: Table decisions (BYOND's /endhand and /endgame votes), never offered as legal
    #: actions: end the hand where it stands (every player takes the points in her hand),
    #: or end the match with the totals of the hands played.
    ENDHAND = "endhand"
    ENDGAME = "endgame"

    # Members are singletons: identity hashing, in C (Enum's __hash__ is Python code).
    __hash__ = object.__hash__


#: Verbs that are a turn of their own (they close an UNO catch window); the rest are not.
TURN_KINDS = frozenset({Kind.PLAY, Kind.DRAW, Kind.PASS, Kind.COLOR, Kind.CHALLENGE})
_BARE = frozenset(
    {Kind.DRAW, Kind.PASS, Kind.CHALLENGE, Kind.UNO, Kind.DEAL, Kind.ENDHAND, Kind.ENDGAME}
)
_VERBS = ", ".join(kind.value for kind in Kind)


@dataclass(frozen=True, slots=True)
class Action:
    """One action: a verb and its arguments.

    ``card`` for ``play``; ``color`` for a play that names a color and for ``color``;
    ``targets`` for ``@seat`` arguments (``catch`` has exactly one); ``uno`` for a play that
    calls UNO with it.
    """

    kind: Kind
    card: Card | None = None
    color: Color | None = None
    targets: tuple[int, ...] = ()
    uno: bool = False

    @classmethod
    def play(
        cls,
        card: Card,
        color: Color | None = None,
        targets: tuple[int, ...] = (),
        uno: bool = False,
    ) -> Action:
        """A play, shared with every equal play that names at most one seat.

        Only those are interned, so the cache is bounded by the cards, colors and seats
        the notation knows; a play that picks several seats (Target Practice) is built
        fresh, and codes crafted to fill memory cannot stay in it.

        >>> Action.play(Card.parse("R5")) is Action.parse("play r5")
        True
        """
        if len(targets) > 1 or (targets and not 0 <= targets[0] < MAX_SEATS):
            return cls(Kind.PLAY, card, color, targets, uno)
        key = (card, color, targets, uno)
        action = _PLAYS.get(key)
        if action is None:
            action = _PLAYS[key] = cls(Kind.PLAY, card, color, targets, uno)
        return action

    @classmethod
    def catch(cls, seat: int) -> Action:
        return cls(Kind.CATCH, targets=(seat,))

    @classmethod
    def name_color(cls, color: Color) -> Action:
        return cls(Kind.COLOR, color=color)

    @classmethod
    def parse(cls, text: str, seats: int = MAX_SEATS) -> Action:
        """Parse an action code (case-insensitive; color words accepted).

        Every ``@seat`` must be below ``seats`` (the table's seat count; by default the
        most any rule set seats), checked on the digits before any number is made.
        """
        tokens = text.split()
        if not tokens:
            raise InvalidCode("invalid action '': empty")
        try:
            kind = Kind(tokens[0].lower())
        except ValueError:
            raise InvalidCode(
                f"invalid action {quoted(text)}: unknown verb {tokens[0]!r} (expected {_VERBS})"
            ) from None
        args = tokens[1:]
        if kind in _BARE:
            if args:
                raise InvalidCode(f"invalid action {quoted(text)}: {kind.value} takes no arguments")
            return _SIMPLE[kind]
        if kind is Kind.COLOR:
            if len(args) != 1:
                raise InvalidCode(f"invalid action {quoted(text)}: color takes exactly one color")
            return cls.name_color(_color(text, args[0]))
        if kind is Kind.CATCH:
            if len(args) != 1:
                raise InvalidCode(f"invalid action {quoted(text)}: catch takes exactly one @seat")
            return cls.catch(_seat(text, args[0], seats))
        # play <card> [<color>] [@<seat> ...] [uno]
        if not args:
            raise InvalidCode(f"invalid action {quoted(text)}: play needs a card")
        try:
            card = Card.parse(args[0])
        except InvalidCode as error:
            raise InvalidCode(f"invalid action {quoted(text)}: {error}") from None
        rest = args[1:]
        uno = bool(rest) and rest[-1].lower() == "uno"
        if uno:
            rest = rest[:-1]
        color = None
        if rest and not rest[0].startswith("@"):
            color = _color(text, rest[0])
            rest = rest[1:]
        targets = tuple(_seat(text, token, seats) for token in rest)
        return cls.play(card, color, targets, uno)

    @property
    def code(self) -> str:
        """The canonical code: ``'play W4 G @1 uno'``."""
        parts = [self.kind.value]
        if self.card is not None:
            parts.append(self.card.code)
        if self.color is not None:
            parts.append(self.color.value)
        parts.extend(f"@{seat}" for seat in self.targets)
        if self.uno:
            parts.append("uno")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Action.parse({self.code!r})"


def _color(text: str, token: str) -> Color:
    try:
        return Color.parse(token)
    except InvalidCode as error:
        raise InvalidCode(f"invalid action {quoted(text)}: {error}") from None


def _seat(text: str, token: str, seats: int) -> int:
    digits = token[1:]
    if not token.startswith("@") or not (digits.isascii() and digits.isdigit()):
        raise InvalidCode(
            f"invalid action {quoted(text)}: expected @<seat number>, got {quoted(token, 12)}"
        )
    # A seat is below MAX_SEATS (two digits at most): longer digit strings are refused
    # before int() works on them.
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(MAX_SEATS)) or int(digits) >= seats:
        raise InvalidCode(
            f"invalid action {quoted(text)}: no seat {token[:8]} at a table of {seats} seats"
        )
    return int(digits)


_SIMPLE = {kind: Action(kind) for kind in _BARE}
_PLAYS: dict[tuple[Card, Color | None, tuple[int, ...], bool], Action] = {}

DRAW = _SIMPLE[Kind.DRAW]
PASS = _SIMPLE[Kind.PASS]
CHALLENGE = _SIMPLE[Kind.CHALLENGE]
UNO = _SIMPLE[Kind.UNO]
DEAL = _SIMPLE[Kind.DEAL]
