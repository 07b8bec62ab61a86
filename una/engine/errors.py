"""Typed errors of the engine.

Every error is a :class:`ValueError`, so callers that only care about "bad input" can catch
that; the subclasses say what kind of input was bad, and their messages quote it.

>>> from una.engine import Card
>>> Card.parse("X9")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
una.engine.errors.InvalidCode: invalid card code 'X9': expected a color letter (R Y G B) ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class UnaError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidCode(UnaError):
    """A card, color or action code that does not parse."""


class InvalidRules(UnaError):
    """A rule set that names an unknown preset or switch, a wrong type, or a contradiction."""


class InvalidRecord(UnaError):
    """A game record that is malformed; ``field`` names the part that is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse an action: a stable ``code``, its ``args`` (seats as ints, cards,
    colors, counts) and the English sentence ``text``. Front ends translate from the code
    and args; ``str()`` is the sentence, as logs and error messages quote it.

    >>> from una.engine import Game
    >>> refusal = Game("standard", players=3, seed=1).why_illegal(2, "draw")
    >>> refusal.code, dict(refusal.args), str(refusal)
    ('not_your_turn', {'to_act': 1, 'seat': 2}, "it is seat 1's turn, not seat 2's")
    """

    code: str
    text: str
    args: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return self.text

    def arg(self, name: str) -> Any:
        """The value of argument ``name`` (``KeyError`` when the refusal has none)."""
        for key, value in self.args:
            if key == name:
                return value
        raise KeyError(name)


def refuse(code: str, text: str, **args: Any) -> Refusal:
    """A :class:`Refusal` (a shorthand for the rules' return sites)."""
    return Refusal(code, text, tuple(args.items()))


class IllegalAction(UnaError):
    """An action the rules do not allow now; the message names the action, the seat and why.

    ``reason`` is the English sentence; ``refusal`` the typed :class:`Refusal`.
    """

    def __init__(self, seat: int, action: str, reason: str | Refusal) -> None:
        super().__init__(f'illegal action "{action}" by seat {seat}: {reason}')
        self.seat = seat
        self.action = action
        self.reason = str(reason)
        self.refusal = reason if isinstance(reason, Refusal) else Refusal("other", reason)
