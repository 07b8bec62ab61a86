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


def quoted(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters: a crafted code can
    be 100 KB, and an error must not echo it back.

    >>> quoted("R5"), quoted("R" * 100, limit=8)
    ("'R5'", "'RRRRR...'")
    """
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


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


#: Every refusal code of the rules and the names of the arguments it carries: seats as
#: ``seat``, ``to_act`` and ``target``, cards as ``card`` and ``top``, counts as ``n`` and
#: ``count``. ``other`` is a refusal with no code of its own. Front ends word every code
#: here (their tests read this table), so a new refusal starts with a line of it.
REFUSALS: dict[str, tuple[str, ...]] = {
    "no_seat": ("seat", "n"), "match_over": (), "hand_in_play": (), "hand_over": (),
    "out_of_hand": ("seat",), "not_your_turn": ("to_act", "seat"),
    "name_color_first": ("seat",), "no_color_asked": (), "challenges_off": (),
    "nothing_to_challenge": ("seat",), "draw_pending": ("n",), "kobe_lock": ("seat",),
    "cannot_answer": ("card", "n"), "drawn_already": ("seat", "card"),
    "must_play_drawn": ("card",), "only_drawn": ("card",), "nothing_to_draw": (),
    "must_play": ("seat",), "draw_first": (), "jump_in_pending": ("n",),
    "jump_in_deciding": ("to_act",), "jump_in_card": ("to_act", "top"),
    "not_held": ("seat", "card"), "needs_color": ("card",), "names_no_color": ("card",),
    "not_in_deck": ("card", "preset"), "bad_targets": ("card",), "card_rule": ("card",),
    "needs_colored": ("card", "top"), "no_match": ("card", "color", "top"),
    "bluff_refused": ("card", "color"), "no_target": ("target",), "catch_self": (),
    "holds_more": ("target", "count"), "called_uno": ("target",),
    "window_closed": ("target",), "other": (),
}  # fmt: skip


def refuse(code: str, text: str, **args: Any) -> Refusal:
    """A :class:`Refusal` (a shorthand for the rules' return sites); ``code`` and the
    argument names must be those of :data:`REFUSALS`.

    >>> refuse("draw_pending", "a draw of 4 is pending", n=4).args
    (('n', 4),)
    >>> refuse("draw_pending", "a draw of 4 is pending", count=4)
    Traceback (most recent call last):
    ...
    ValueError: refusal draw_pending has no argument 'count' (its arguments: n)
    """
    names = REFUSALS.get(code)
    if names is None:
        raise ValueError(f"unknown refusal code {code!r}")
    for name in args:
        if name not in names:
            raise ValueError(
                f"refusal {code} has no argument {name!r} (its arguments: {', '.join(names)})"
            )
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
