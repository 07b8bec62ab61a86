"""The WebSocket protocol: a closed, tagged family of client messages and their parser.

Every frame is one JSON object with a ``type``. :func:`parse` turns a client frame into one
of the message classes below or raises :class:`ProtocolError` naming what is wrong; an
unknown type, a missing or mistyped field, or an extra field is refused. Server messages are
plain dicts built by the room service (see docs/protocol.md for every message, both ways).

>>> parse('{"type": "act", "action": "play R5", "version": 12}')
Act(action='play R5', version=12)
>>> parse('{"type": "dance"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
una.server.protocol.ProtocolError: unknown message type 'dance' (expected one of: act, auto, ...)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

#: Largest frame the server reads (an icon upload is the largest message).
MAX_FRAME = 128 * 1024
MAX_NAME = 24
MAX_CHAT = 300


class ProtocolError(ValueError):
    """A malformed client message; the message says what is wrong."""

    def __init__(self, message: str, code: str = "bad_message") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Message:
    """Base of every client message."""

    type: ClassVar[str] = ""


@dataclass(frozen=True)
class Hello(Message):
    """First message of a connection: an existing player's token, or a name for a new one."""

    type: ClassVar[str] = "hello"
    token: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class Lobby(Message):
    """One page of the lobby (``LOBBY_PAGE`` tables, the first page is 0); its changes
    follow until the client asks again or goes to a table."""

    type: ClassVar[str] = "lobby"
    page: int = 0


@dataclass(frozen=True)
class Create(Message):
    """Create a table: rules (a preset name or an object of switches), seats, bots."""

    type: ClassVar[str] = "create"
    rules: Any = "standard"
    seats: int = 4
    bots: int = 0
    bot: str = "heuristic"
    timer: int | None = None
    public: bool = True
    name: str | None = None


@dataclass(frozen=True)
class Join(Message):
    """Join a table by its code: sit at a free seat if there is one, else watch."""

    type: ClassVar[str] = "join"
    table: str = ""


@dataclass(frozen=True)
class Watch(Message):
    type: ClassVar[str] = "watch"
    table: str = ""


@dataclass(frozen=True)
class Sit(Message):
    type: ClassVar[str] = "sit"
    seat: int | None = None


@dataclass(frozen=True)
class Stand(Message):
    type: ClassVar[str] = "stand"


@dataclass(frozen=True)
class Leave(Message):
    type: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Kick(Message):
    type: ClassVar[str] = "kick"
    player: str = ""


@dataclass(frozen=True)
class Start(Message):
    """Start the match, or deal the next hand ("startgame", BYOND's click on the Una card)."""

    type: ClassVar[str] = "start"


@dataclass(frozen=True)
class Act(Message):
    """A game action in NOTATION.md's code, based on the table version the client saw."""

    type: ClassVar[str] = "act"
    action: str = ""
    version: int = -1


@dataclass(frozen=True)
class Chat(Message):
    """Chat text; a leading slash makes it a verb (/una, /draw, /play R5 ...)."""

    type: ClassVar[str] = "chat"
    text: str = ""


@dataclass(frozen=True)
class Auto(Message):
    type: ClassVar[str] = "auto"
    on: bool = True


@dataclass(frozen=True)
class SetIcon(Message):
    """A PNG, GIF or BMP icon, base64-encoded, at most 64 KiB decoded."""

    type: ClassVar[str] = "set_icon"
    image: str = ""


@dataclass(frozen=True)
class ResetIcon(Message):
    type: ClassVar[str] = "reset_icon"


@dataclass(frozen=True)
class Games(Message):
    """The finished games this player took part in, newest first (with replay links)."""

    type: ClassVar[str] = "games"


@dataclass(frozen=True)
class Resume(Message):
    """After a reconnect: the table and the last version the client saw."""

    type: ClassVar[str] = "resume"
    table: str = ""
    version: int = -1
    epoch: str = ""


@dataclass(frozen=True)
class Settings(Message):
    """The player's own settings (language, sound, ...), kept for her next visit."""

    type: ClassVar[str] = "settings"
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ping(Message):
    type: ClassVar[str] = "ping"


MESSAGES: dict[str, type[Message]] = {
    cls.type: cls
    for cls in (
        Hello, Lobby, Create, Join, Watch, Sit, Stand, Leave, Kick, Start, Act, Chat, Auto,
        SetIcon, ResetIcon, Games, Resume, Settings, Ping,
    )
}  # fmt: skip

#: Fields that must be present (the rest have defaults).
_REQUIRED: dict[str, tuple[str, ...]] = {
    "join": ("table",),
    "watch": ("table",),
    "kick": ("player",),
    "act": ("action", "version"),
    "chat": ("text",),
    "set_icon": ("image",),
    "resume": ("table", "version"),
    "settings": ("settings",),
}

_TYPES: dict[str, tuple[type, ...]] = {
    "token": (str,),
    "name": (str,),
    "seats": (int,),
    "bots": (int,),
    "bot": (str,),
    "timer": (int,),
    "public": (bool,),
    "table": (str,),
    "seat": (int,),
    "page": (int,),
    "player": (str,),
    "action": (str,),
    "version": (int,),
    "text": (str,),
    "on": (bool,),
    "image": (str,),
    "epoch": (str,),
    "rules": (str, dict),
    "settings": (dict,),
}


def parse(frame: str | bytes) -> Message:
    """The client message in ``frame``, validated."""
    if len(frame) > MAX_FRAME:
        raise ProtocolError(f"frame of {len(frame)} bytes is over the {MAX_FRAME} limit", "too_big")
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError) as error:
        raise ProtocolError(f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message must be a JSON object with a type")
    kind = data.get("type")
    cls = MESSAGES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(
            f"unknown message type {kind!r} (expected one of: {', '.join(sorted(MESSAGES))})",
            "unknown_type",
        )
    assert isinstance(kind, str)
    names = {f.name for f in fields(cls)}
    extra = sorted(set(data) - names - {"type"})
    if extra:
        raise ProtocolError(f"{kind}: unknown field {extra[0]!r}")
    for name in _REQUIRED.get(kind, ()):
        if name not in data:
            raise ProtocolError(f"{kind}: missing field {name!r}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name == "type":
            continue
        allowed = _TYPES[name]
        nullable = name in ("token", "name", "timer", "seat")
        ok = (value is None and nullable) or (
            isinstance(value, allowed) and not (isinstance(value, bool) and bool not in allowed)
        )
        if not ok:
            kinds = " or ".join(t.__name__ for t in allowed)
            raise ProtocolError(f"{kind}: field {name!r} must be {kinds}, not {value!r}")
        values[name] = value
    return cls(**values)


def clean_name(name: str) -> str:
    """A player name: trimmed, control characters refused, at most 24 characters.

    >>> clean_name("  Ann  ")
    'Ann'
    """
    name = " ".join(name.split())
    if not name:
        raise ProtocolError("a name cannot be empty", "bad_name")
    if len(name) > MAX_NAME:
        raise ProtocolError(f"a name has at most {MAX_NAME} characters", "bad_name")
    if any(not ch.isprintable() for ch in name):
        raise ProtocolError("a name cannot hold control characters", "bad_name")
    return name


def clean_chat(text: str) -> str:
    text = text.strip()
    if not text:
        raise ProtocolError("chat text cannot be empty", "bad_chat")
    if len(text) > MAX_CHAT:
        raise ProtocolError(f"chat text has at most {MAX_CHAT} characters", "bad_chat")
    return "".join(ch if ch.isprintable() else " " for ch in text)


@dataclass
class RateLimit:
    """A token bucket: ``rate`` events per second, bursts up to ``burst``."""

    rate: float
    burst: float
    tokens: float = field(default=-1.0)
    stamp: float = 0.0

    def allow(self, now: float) -> bool:
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
