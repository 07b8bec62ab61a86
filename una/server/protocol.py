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

    def refill(self, now: float) -> None:
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def allow(self, now: float) -> bool:
        self.refill(now)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled (it can be forgotten)."""
        return self.tokens < 0 or self.tokens + (now - self.stamp) * self.rate >= self.burst


@dataclass(frozen=True)
class Budget:
    """How often one kind of request may come: ``rate`` a second, bursts of ``burst``, counted
    per connection, per player (every connection of one token together) and per network
    address (every connection from it), each scope with its own bucket."""

    rate: float
    burst: float
    scopes: tuple[str, ...] = ("client",)
    #: the address's bucket is this many times the client's: people share addresses (NAT)
    address_factor: float = 10.0

    def describe(self) -> str:
        if self.rate >= 1:
            return f"about {self.rate:g} a second (bursts of {self.burst:g})"
        return f"about {self.rate * 60:g} a minute (bursts of {self.burst:g})"


#: Every client message has a budget, and so do a few costs that several messages share:
#: ``icon`` (set_icon and reset_icon: a decode and a table broadcast each) and ``miss``
#: (a join, watch or resume naming no open table: guessing private codes).
BUDGETS: dict[str, Budget] = {
    "hello": Budget(1, 5, ("client", "address")),
    "ping": Budget(10, 20),
    "lobby": Budget(1, 5),
    "games": Budget(1, 5),
    "create": Budget(0.2, 3, ("client", "player", "address")),
    "join": Budget(2, 10, ("client", "address")),
    "watch": Budget(2, 10, ("client", "address")),
    "resume": Budget(2, 10, ("client", "address")),
    "sit": Budget(2, 10),
    "stand": Budget(2, 10),
    "leave": Budget(2, 10),
    "kick": Budget(1, 5),
    "start": Budget(1, 5),
    "act": Budget(10, 20),
    "chat": Budget(1, 8),
    "auto": Budget(1, 5),
    "set_icon": Budget(1, 5),
    "reset_icon": Budget(1, 5),
    "settings": Budget(1, 8),
    "icon": Budget(3 / 60, 3, ("player",)),
    "miss": Budget(0.2, 10, ("client", "address")),
}
_UNBUDGETED = set(MESSAGES) - set(BUDGETS)
assert not _UNBUDGETED, f"every message type needs a budget: {_UNBUDGETED}"


class Limiter:
    """The buckets of :data:`BUDGETS`, for every connection, player and address.

    >>> limiter = Limiter({"ping": Budget(1, 2)})
    >>> [limiter.allow("ping", now=0.0, client=1) for _ in range(3)]
    [True, True, False]
    >>> limiter.allow("ping", now=1.0, client=1), limiter.allow("ping", now=1.0, client=2)
    (True, True)
    """

    #: Forget refilled buckets when there are more than this many.
    PRUNE_AT = 10_000

    def __init__(self, budgets: dict[str, Budget] | None = None) -> None:
        self.budgets = BUDGETS if budgets is None else budgets
        self.buckets: dict[tuple[str, str, object], RateLimit] = {}
        #: each connection's bucket keys, to drop them when it closes
        self._of_client: dict[object, list[tuple[str, str, object]]] = {}

    def allow(
        self,
        kind: str,
        now: float,
        client: object = None,
        player: object = None,
        address: object = None,
        take: bool = True,
    ) -> bool:
        """Take one token from each of ``kind``'s buckets, or none when one is empty (with
        ``take=False``, only say whether there is one)."""
        budget = self.budgets[kind]
        ids = {"client": client, "player": player, "address": address}
        buckets = []
        for scope in budget.scopes:
            who = ids[scope]
            if who is None:
                continue
            key = (kind, scope, who)
            bucket = self.buckets.get(key)
            if bucket is None:
                factor = budget.address_factor if scope == "address" else 1.0
                bucket = self.buckets[key] = RateLimit(budget.rate * factor, budget.burst * factor)
                if scope == "client":
                    self._of_client.setdefault(who, []).append(key)
            buckets.append(bucket)
        for bucket in buckets:
            bucket.refill(now)
        if any(bucket.tokens < 1 for bucket in buckets):
            return False
        if not take:
            return True
        for bucket in buckets:
            bucket.tokens -= 1
        if len(self.buckets) > self.PRUNE_AT:
            self.prune(now)
        return True

    def forget(self, client: object) -> None:
        """Drop a closed connection's buckets."""
        for key in self._of_client.pop(client, []):
            self.buckets.pop(key, None)

    def prune(self, now: float) -> None:
        """Forget the player and address buckets that have refilled (a connection's go with
        it, see :meth:`forget`)."""
        for key in [k for k, b in self.buckets.items() if k[1] != "client" and b.full(now)]:
            del self.buckets[key]
