"""Callback data of every button: short, versioned, at most 64 bytes.

Game buttons carry the table code and the table's version (the protocol's version: every action
raises it), lobby and settings buttons the chat's lobby revision. A press whose version is not
the current one is answered "out of date" and not applied.

>>> Act(t="K7QX2", v=41, a="play W4 G @2 uno").pack()
'a:K7QX2:41:play W4 G @2 uno'
>>> Act.unpack("a:K7QX2:41:draw").a
'draw'
>>> len(Opt(c=-1001234567890, v=99999999, k="stack").pack()) <= 64
True
"""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

MAX_BYTES = 64


class Act(CallbackData, prefix="a"):
    """A game action (an action code of NOTATION.md) at table ``t``, version ``v``."""

    t: str
    v: int
    a: str


class Pick(CallbackData, prefix="p"):
    """Open the sub-keyboard of a card with choices (a wild's color, a 7's partner)."""

    t: str
    v: int
    c: str


class Show(CallbackData, prefix="s"):
    """Show the presser her own cards (privately) at table ``t``."""

    t: str
    v: int


class Opt(CallbackData, prefix="o"):
    """A lobby or settings button of chat ``c``: ``k`` is what it does, ``v`` the revision."""

    c: int
    v: int
    k: str


def fits(data: str) -> bool:
    """Whether callback data fits Telegram's limit (1-64 bytes of UTF-8)."""
    return 1 <= len(data.encode("utf-8")) <= MAX_BYTES
