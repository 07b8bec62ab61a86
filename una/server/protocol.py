"""The WebSocket protocol: two closed, tagged families of messages, one each way.

Every frame is one JSON object with a ``type``. :func:`parse` turns a client frame into one
of the :class:`Message` classes below or raises :class:`ProtocolError` naming what is wrong;
an unknown type, a missing or mistyped field, or an extra field is refused.

What the server says is an :class:`Outbound` message, serialised in one place
(:func:`encode`). None of them holds a sentence to show: game events are data
(``Event.json_for``), notices and verb replies a ``code`` of :data:`NOTICES` or
:data:`REPLIES` with its arguments, errors a code of :data:`ERRORS` (the English ``message``
is for logs). Front ends word them in their own language. :func:`schema` is the JSON Schema
of both families, generated from these classes (``GET /api/protocol.schema.json``).

>>> parse('{"type": "act", "action": "play R5", "version": 12}')
Act(action='play R5', version=12)
>>> parse('{"type": "dance"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
una.server.protocol.ProtocolError: unknown message type 'dance' (expected one of: act, auto, ...)
"""

from __future__ import annotations

import json
import types
import typing
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, ClassVar, Union

from una.engine import Card, Color
from una.engine.events import EVENT_TYPES

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


#: Fields that may be null.
_NULLABLE = ("token", "name", "timer", "seat")


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
        nullable = name in _NULLABLE
        ok = (value is None and nullable) or (
            isinstance(value, allowed) and not (isinstance(value, bool) and bool not in allowed)
        )
        if not ok:
            kinds = " or ".join(t.__name__ for t in allowed)
            raise ProtocolError(f"{kind}: field {name!r} must be {kinds}, not {value!r}")
        values[name] = value
    return cls(**values)


# ------------------------------------------------------------------------ outbound


@dataclass(frozen=True)
class Outbound:
    """Base of every server message; :func:`encode` makes its JSON."""

    type: ClassVar[str] = ""


def _wire(name: str) -> dict[str, str]:
    """Field metadata: the field's name on the wire, where Python cannot use it."""
    return {"wire": name}


#: Field metadata: the field holds JSON data already (built by ``to_json``/``json_for``), so
#: :func:`encode` takes it as it is. A state's table and view are most of what the server
#: sends, and walking them for cards made up two thirds of its CPU per action under load.
DATA = {"data": True}


@dataclass(frozen=True)
class Who:
    """One person in a ``who`` reply: ``role`` player, bot or watcher; ``seat`` her table
    seat (from 0); ``cards`` and ``points`` during a game."""

    name: str
    role: str
    seat: int | None = None
    auto: bool = False
    away: bool = False
    host: bool = False
    stand_in: bool = False
    cards: int | None = None
    points: int | None = None


#: Every notice to a whole table (kept in its recent lines): code -> its arguments.
NOTICES: dict[str, dict[str, Any]] = {
    "auto": {"name": str, "on": bool},
    # she timed out ``times`` times; ``auto``: that was the last, the computer plays for her
    "timed_out": {"name": str, "times": int, "auto": bool},
    # ``kind`` endgame or endhand; ``waiting``: the seated people who have not voted
    "vote": {"name": str, "kind": str, "waiting": list[str]},
    # ``why`` stands, leaves or kicked; ``stand_in``: a computer player takes her seat
    "seat_left": {"name": str, "why": str, "stand_in": bool},
    "host": {"name": str},
    "new_game": {"name": str},
    # an UNO call holding ``cards`` cards: she may be challenged (``false_uno_penalty``)
    "false_uno": {"name": str, "cards": int},
    # the table's last game could not be restored after a restart (``game``: its id)
    "unrestorable": {"game": int | None, "error": str},
}

#: Every reply to one client's verb: code -> its arguments.
REPLIES: dict[str, dict[str, Any]] = {
    "usage": {"verb": str},
    "unknown_verb": {"verb": str, "suggestion": str | None, "verbs": list[str]},
    "uno_no_hand": {},
    "uno_nothing": {"cards": int},
    "challenge_not_player": {},
    "challenge_nobody": {"name": str, "players": list[str]},
    "challenge_none": {},
    # the names to pick from (``/challenge NAME``)
    "challenge_whom": {"names": list[str]},
    # ``color`` None: none named yet; ``asked``: a color was named (that is /pick's)
    "color": {"color": str | None, "top": str, "asked": bool},
    "color_no_game": {},
    "who": {"people": list[Who]},
    # ``verbs``: every verb, in the order of the help
    "game_info": {"table": str, "preset": str, "rules": str | dict[str, Any], "verbs": list[str]},
    # a client with an icon chooser opens it
    "set_icon": {},
    "icon_reset": {},
}

#: Every error code, and the arguments it carries (a refusal's ``message`` is its English
#: sentence, for logs). ``illegal``: the engine's typed refusal, its ``reason`` code and
#: arguments (seats as numbers, cards as codes).
ERRORS: dict[str, dict[str, Any]] = {
    "bad_message": {}, "too_big": {}, "unknown_type": {}, "internal": {}, "moved": {},
    "no_hello": {}, "hello_twice": {}, "bad_token": {}, "no_name": {}, "bad_name": {},
    "bad_chat": {}, "bad_page": {}, "bad_settings": {}, "bad_icon": {},
    "rate_limited": {"what": str},
    "bad_rules": {}, "bad_seats": {"low": int, "high": int}, "bad_bots": {"high": int},
    "bad_bot": {}, "bad_timer": {}, "too_many_tables": {"tables": list[str], "most": int},
    "no_table": {"table": str}, "not_at_table": {}, "banned": {"table": str},
    "look_alike": {"other": str}, "ambiguous_player": {"name": str},
    "playing": {}, "seated": {}, "full": {}, "bad_seat": {"high": int}, "taken": {"seat": int},
    "not_seated": {}, "not_host": {}, "no_player": {"name": str}, "bad_kick": {},
    "no_game": {}, "no_seat": {}, "stale": {"version": int}, "bad_action": {},
    "too_few": {"low": int}, "nothing_to_call": {"cards": int},
    "illegal": {"reason": str, "action": str},
}  # fmt: skip


def _check_args(kind: str, table: dict[str, dict[str, Any]], code: str, args: Any) -> None:
    spec = table.get(code)
    if spec is None:
        raise ValueError(f"{kind}: unknown code {code!r}")
    missing = set(spec) - set(args)
    if missing:
        raise ValueError(f"{kind} {code}: missing argument {sorted(missing)[0]!r}")
    if kind != "error" and set(args) - set(spec):
        raise ValueError(f"{kind} {code}: unknown argument {sorted(set(args) - set(spec))[0]!r}")


@dataclass(frozen=True)
class Notice(Outbound):
    """Something that happened at the table, for everyone there: a code of :data:`NOTICES`.

    >>> encode(Notice("auto", {"name": "Ann", "on": True}))
    {'type': 'notice', 'code': 'auto', 'args': {'name': 'Ann', 'on': True}}
    """

    type: ClassVar[str] = "notice"
    code: str
    args: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_args("notice", NOTICES, self.code, self.args)


@dataclass(frozen=True)
class Reply(Outbound):
    """The answer to one client's verb: a code of :data:`REPLIES`."""

    type: ClassVar[str] = "reply"
    code: str
    args: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_args("reply", REPLIES, self.code, self.args)


@dataclass(frozen=True)
class Error(Outbound):
    """A refused request (nothing changed): a code of :data:`ERRORS`, its arguments (an
    ``illegal`` action's also carry the refusal's own), the English ``message`` for logs,
    and ``about``, the type of the refused message.

    >>> Error("no_game", "no game is being played at this table", "act").code
    'no_game'
    """

    type: ClassVar[str] = "error"
    code: str
    message: str
    about: str | None = None
    args: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_args("error", ERRORS, self.code, self.args)


@dataclass(frozen=True)
class Welcome(Outbound):
    """The answer to ``hello``: the player (``id``, ``name``, ``icon``), her settings, the
    tables where she is seated; ``token`` only for a new player."""

    type: ClassVar[str] = "welcome"
    player: dict[str, Any]
    settings: dict[str, Any]
    tables: list[str]
    epoch: str
    token: str | None = None


@dataclass(frozen=True)
class Pong(Outbound):
    type: ClassVar[str] = "pong"


@dataclass(frozen=True)
class LobbyPage(Outbound):
    """One page of the lobby: table summaries, newest first."""

    type: ClassVar[str] = "lobby"
    tables: list[dict[str, Any]]
    page: int
    pages: int
    page_size: int
    total: int


@dataclass(frozen=True)
class LobbyTable(Outbound):
    """A table of the client's lobby page changed (``new``: it goes on top)."""

    type: ClassVar[str] = "lobby_table"
    table: dict[str, Any]
    new: bool = False


@dataclass(frozen=True)
class LobbyGone(Outbound):
    type: ClassVar[str] = "lobby_gone"
    code: str


@dataclass(frozen=True)
class Joined(Outbound):
    """The client is at ``table`` now, in ``seat`` (None: watching)."""

    type: ClassVar[str] = "joined"
    table: str
    seat: int | None


@dataclass(frozen=True)
class Left(Outbound):
    type: ClassVar[str] = "left"


@dataclass(frozen=True)
class Kicked(Outbound):
    type: ClassVar[str] = "kicked"
    table: str


@dataclass(frozen=True)
class State(Outbound):
    """The table as this client may see it: its summary and seats, her place, the view of
    her seat (``Game.view_for``), and the events since the last state as her seat sees them
    (``Event.json_for``); ``fresh``: events were missed, this state stands on its own."""

    type: ClassVar[str] = "state"
    table: dict[str, Any] = field(metadata=DATA)
    you: dict[str, Any] = field(metadata=DATA)
    version: int
    epoch: str
    fresh: bool
    game_id: int | None
    view: dict[str, Any] | None = field(metadata=DATA)
    events: list[dict[str, Any]] = field(metadata=DATA)


@dataclass(frozen=True)
class ChatLine(Outbound):
    """Chat said at the table (its text as the player wrote it)."""

    type: ClassVar[str] = "chat"
    sender: str = field(metadata=_wire("from"))
    player_id: int
    text: str


@dataclass(frozen=True)
class EventLine(Outbound):
    """A game event in a table's recent lines, as a spectator sees it."""

    type: ClassVar[str] = "event"
    event: dict[str, Any]


@dataclass(frozen=True)
class Lines(Outbound):
    """A table's recent lines (chat, notices, events), to a client who comes to it."""

    type: ClassVar[str] = "lines"
    table: str
    lines: list[ChatLine | Notice | EventLine]


@dataclass(frozen=True)
class Icon(Outbound):
    """The player's icon changed: its key (None: none), or a built-in one's name."""

    type: ClassVar[str] = "icon"
    icon: str | None
    builtin: str | None = None


@dataclass(frozen=True)
class GamesList(Outbound):
    type: ClassVar[str] = "games"
    games: list[dict[str, Any]]


@dataclass(frozen=True)
class SettingsSaved(Outbound):
    type: ClassVar[str] = "settings"
    settings: dict[str, Any]


OUTBOUND: dict[str, type[Outbound]] = {
    cls.type: cls
    for cls in (
        Welcome, Pong, LobbyPage, LobbyTable, LobbyGone, Joined, Left, Kicked, State, Lines,
        ChatLine, EventLine, Notice, Reply, Error, Icon, GamesList, SettingsSaved,
    )
}  # fmt: skip


def encode(message: Outbound) -> dict[str, Any]:
    """The JSON object of a server message: its ``type`` first, then its fields.

    >>> encode(ChatLine("Ann", 3, "hi"))
    {'type': 'chat', 'from': 'Ann', 'player_id': 3, 'text': 'hi'}
    """
    out: dict[str, Any] = {"type": message.type}
    for name, wire, data in _layout(type(message)):
        value = getattr(message, name)
        out[wire] = value if data else _plain(value)
    return out


_LAYOUTS: dict[type[Outbound], tuple[tuple[str, str, bool], ...]] = {}


def _layout(cls: type[Outbound]) -> tuple[tuple[str, str, bool], ...]:
    """A message class's fields: (attribute, name on the wire, holds JSON data already)."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS[cls] = tuple(
            (item.name, item.metadata.get("wire", item.name), bool(item.metadata.get("data")))
            for item in fields(cls)
        )
    return layout


#: Values that are JSON as they are (exact types: a subclass, an enum say, goes below).
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Outbound):
        return encode(value)
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Color):
        return value.value
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


# --------------------------------------------------------------------- the schema


def _type_schema(hint: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of a Python type hint (dataclasses go to ``defs``)."""
    if hint is Any:
        return {}
    if hint is type(None):
        return {"type": "null"}
    simple = {str: "string", bool: "boolean", int: "integer", float: "number"}
    if hint in simple:
        return {"type": simple[hint]}
    if hint is Card:
        return {"type": "string", "description": "a card code (NOTATION.md)"}
    if hint is Color:
        return {"enum": [c.value for c in Color]}
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        return {"anyOf": [_type_schema(arg, defs) for arg in typing.get_args(hint)]}
    if origin in (list, tuple):
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        if origin is tuple and len(args) > 1 and Ellipsis not in typing.get_args(hint):
            items = [_type_schema(a, defs) for a in args]
            return {"type": "array", "prefixItems": items, "minItems": len(items),
                    "maxItems": len(items)}  # fmt: skip
        return {"type": "array", "items": _type_schema(args[0], defs) if args else {}}
    if origin is dict or hint is dict:
        return {"type": "object"}
    if isinstance(hint, type) and is_dataclass(hint):
        name = hint.__name__
        if name not in defs:
            defs[name] = {}  # a placeholder first: a class may refer to itself
            defs[name] = _class_schema(hint, defs)
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no JSON Schema for {hint!r}")


def _class_schema(cls: type, defs: dict[str, Any], tag: str | None = None) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    properties: dict[str, Any] = {}
    required: list[str] = []
    if tag is not None:
        properties["type"] = {"const": tag}
        required.append("type")
    for item in fields(cls):
        wire = item.metadata.get("wire", item.name)
        properties[wire] = _type_schema(hints[item.name], defs)
        required.append(wire)  # every field is always sent
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
        schema["description"] = " ".join(cls.__doc__.split("\n\n")[0].split())
    return schema


def _coded_schema(tag: str, table: dict[str, dict[str, Any]], defs: dict[str, Any],
                  extra: dict[str, Any], open_args: bool = False) -> dict[str, Any]:  # fmt: skip
    """A message whose ``args`` depend on its ``code``: one branch per code."""
    branches = []
    for code, spec in table.items():
        args = {
            "type": "object",
            "properties": {name: _type_schema(hint, defs) for name, hint in spec.items()},
            "required": list(spec),
            "additionalProperties": open_args,
        }
        branches.append({
            "type": "object",
            "properties": {"type": {"const": tag}, "code": {"const": code}, "args": args, **extra},
            "required": ["type", "code", "args", *extra],
            "additionalProperties": False,
        })  # fmt: skip
    return {"oneOf": branches}


def _inbound_schema(cls: type[Message]) -> dict[str, Any]:
    properties: dict[str, Any] = {"type": {"const": cls.type}}
    for item in fields(cls):
        kinds = [_type_schema(t, {}) for t in _TYPES[item.name]]
        if item.name in _NULLABLE:
            kinds.append({"type": "null"})
        properties[item.name] = kinds[0] if len(kinds) == 1 else {"anyOf": kinds}
    return {
        "type": "object",
        "properties": properties,
        "required": ["type", *_REQUIRED.get(cls.type, ())],
        "additionalProperties": False,
    }


def schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of every message both ways, generated from the classes.

    ``$defs`` names each client message ``in_<type>``, each server message ``out_<type>``
    and each game event ``event_<type>``; ``inbound``, ``outbound`` and ``event`` are any
    one of them.

    >>> s = schema()["$defs"]
    >>> s["outbound"]["oneOf"][0], "event_card_played" in s, "in_act" in s
    ({'$ref': '#/$defs/out_welcome'}, True, True)
    """
    defs: dict[str, Any] = {}
    for kind, cls in EVENT_TYPES.items():
        defs[f"event_{kind}"] = _class_schema(cls, defs, tag=kind)
    defs["event"] = {"oneOf": [{"$ref": f"#/$defs/event_{kind}"} for kind in EVENT_TYPES]}
    for kind, message in MESSAGES.items():
        defs[f"in_{kind}"] = _inbound_schema(message)
    for kind, out in OUTBOUND.items():
        if out is Notice:
            found = _coded_schema("notice", NOTICES, defs, {})
        elif out is Reply:
            found = _coded_schema("reply", REPLIES, defs, {})
        elif out is Error:
            extra = {"message": {"type": "string"}, "about": {"type": ["string", "null"]}}
            found = _coded_schema("error", ERRORS, defs, extra, open_args=True)
        else:
            found = _class_schema(out, defs, tag=kind)
        defs.pop(out.__name__, None)  # a line of ``lines`` refers to it by its type
        defs[f"out_{kind}"] = found
    event = {"$ref": "#/$defs/event"}
    defs["out_state"]["properties"]["events"]["items"] = event
    defs["out_event"]["properties"]["event"] = event
    defs["out_lines"]["properties"]["lines"]["items"] = {
        "anyOf": [{"$ref": f"#/$defs/out_{k}"} for k in ("chat", "notice", "event")]
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "/api/protocol.schema.json",
        "title": "Una WebSocket protocol",
        "$defs": {
            **defs,
            "inbound": {"oneOf": [{"$ref": f"#/$defs/in_{k}"} for k in MESSAGES]},
            "outbound": {"oneOf": [{"$ref": f"#/$defs/out_{k}"} for k in OUTBOUND]},
        },
    }


def _hint_text(hint: Any) -> str:
    text = str(hint) if not isinstance(hint, type) else hint.__name__
    text = text.replace("typing.", "").replace("una.server.protocol.", "")
    return text.replace(" | ", " or ")  # a bar would split a Markdown table's cell


def reference() -> str:
    """The server's messages as Markdown tables, generated from the classes and code tables
    (docs/protocol.md holds this text; a test keeps it current).

    >>> print(reference().splitlines()[6])
    | `lobby_gone` | `code` |  |
    """
    out = ["| type | fields | what it is |", "|---|---|---|"]
    for kind, cls in OUTBOUND.items():
        names = ", ".join(f"`{f.metadata.get('wire', f.name)}`" for f in fields(cls))
        doc = " ".join((cls.__doc__ or "").split("\n\n")[0].split())
        if doc.startswith(cls.__name__ + "("):
            doc = ""
        doc = doc.replace(":data:", "").replace("``", "`")
        out.append(f"| `{kind}` | {names} | {doc} |")
    for title, table in (("notice", NOTICES), ("reply", REPLIES), ("error", ERRORS)):
        out += ["", f"| {title} code | args |", "|---|---|"]
        for code, spec in table.items():
            args = ", ".join(f"`{name}` ({_hint_text(hint)})" for name, hint in spec.items())
            out.append(f"| `{code}` | {args} |")
    return "\n".join(out)


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
