"""The room service: tables, seats, spectators, chat, computer players and turn timers.

It never judges a move: the engine does (``Game.why_illegal``, ``Game.apply``). Every action
is committed to storage before it is applied, acknowledged or broadcast, and each client
receives only the view of its own seat (a spectator's view holds no hand).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from una.bots import make_bot
from una.bots.base import Bot
from una.bots.registry import UnknownBot
from una.engine import Action, Game, InvalidCode, Record, RuleSet, UnaError
from una.engine.events import Event
from una.server import protocol as p
from una.server.icons import IconError, from_base64, make_icon_in_worker
from una.server.names import looks_alike
from una.server.storage import Storage

log = logging.getLogger("una.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Public codes are read off the lobby; private ones are the only key to their table:
#: 10 of 32 symbols is 50 bits, and misses are rate-limited (the ``miss`` budget).
CODE_LENGTH = {True: 5, False: 10}
MAX_TIMEOUTS = 3
MAX_SETTINGS = 4096
HISTORY = 256


class RoomError(Exception):
    """A request the room service refuses; ``code`` is machine-readable."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


@dataclass(eq=False)
class Client:
    """One WebSocket connection, after its ``hello``."""

    send_json: Callable[[dict[str, Any]], Awaitable[None]]
    player_id: int = 0
    name: str = ""
    table: str | None = None
    #: the peer's network address (rate limits per address), when the server knows it
    address: str | None = None

    async def send(self, message: dict[str, Any]) -> None:
        try:
            await self.send_json(message)
        except Exception:  # a client gone mid-send is dropped by its own handler
            log.debug("send to %s failed", self.name)


@dataclass
class SeatInfo:
    """A seat: a person (``player_id``) or a computer player (``bot``)."""

    name: str
    player_id: int | None = None
    bot: str | None = None
    auto: bool = False
    timeouts: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "player_id": self.player_id, "bot": self.bot, "auto": self.auto}

    @property
    def automatic(self) -> bool:
        return self.bot is not None or self.auto


@dataclass
class Table:
    """A table: its settings, seats, spectators and the match being played."""

    code: str
    host_id: int | None
    rules: RuleSet
    seat_count: int
    bot: str = "heuristic"
    timer: int | None = None
    public: bool = True
    name: str = ""
    seats: list[SeatInfo | None] = field(default_factory=list)
    spectators: set[int] = field(default_factory=set)
    game: Game | None = None
    game_id: int | None = None
    game_seats: list[int] = field(default_factory=list)
    version: int = 0
    #: The version when the current match started: during it, version = base + actions, so
    #: a restarted server gives the same versions.
    version_base: int = 0
    history: deque[tuple[int, list[Event]]] = field(default_factory=lambda: deque(maxlen=HISTORY))
    votes: dict[str, set[int]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    timer_handle: asyncio.TimerHandle | None = None
    rng: random.Random = field(default_factory=random.Random)
    empty_since: float | None = None
    #: The computer player of each engine seat, kept for the match so that bots with a
    #: memory (``strong`` tracks what it saw) watch every action: (game, {seat: (spec, bot)}).
    agents: tuple[Game | None, dict[int, tuple[str, Bot]]] = (None, {})

    def agent(self, seat: int, spec: str) -> Bot:
        """The computer player for engine ``seat`` of the current game, made once per match
        (a new one when the spec changes, e.g. a person's seat put on auto)."""
        game, bots = self.agents
        if game is not self.game:
            bots = {}
            self.agents = (self.game, bots)
        kept = bots.get(seat)
        if kept is None or kept[0] != spec:
            kept = bots[seat] = (spec, make_bot(spec))
        return kept[1]

    def watchers(self) -> list[tuple[int, Bot]]:
        """The computer players of the current game that observe every action."""
        game, bots = self.agents
        if game is not self.game:
            return []
        return [(seat, bot) for seat, (_, bot) in bots.items() if bot.observes]

    # --------------------------------------------------------------- state

    @property
    def status(self) -> str:
        if self.game is None:
            return "waiting"
        if self.game.match_over:
            return "over"
        return "playing"

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    def seat_of(self, player_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.player_id == player_id:
                return index
        return None

    def engine_seat(self, player_id: int) -> int | None:
        """The player's seat in the engine's game (its player index), if she plays in it."""
        seat = self.seat_of(player_id)
        if seat is None or self.game is None or seat not in self.game_seats:
            return None
        return self.game_seats.index(seat)

    def seat_info(self, engine_seat: int) -> SeatInfo:
        info = self.seats[self.game_seats[engine_seat]]
        assert info is not None
        return info

    def humans(self) -> list[int]:
        return [s.player_id for s in self.seats if s is not None and s.player_id is not None]

    def config(self) -> dict[str, Any]:
        """What storage keeps of the table (the match itself is its game record)."""
        return {
            "rules": self.rules.to_json(),
            "seat_count": self.seat_count,
            "bot": self.bot,
            "timer": self.timer,
            "public": self.public,
            "name": self.name,
            "seats": [s.to_json() if s else None for s in self.seats],
            "game_seats": self.game_seats,
            "version_base": self.version_base,
        }

    @classmethod
    def from_config(cls, code: str, host_id: int | None, config: dict[str, Any]) -> Table:
        table = cls(
            code=code,
            host_id=host_id,
            rules=RuleSet.from_json(config["rules"]),
            seat_count=config["seat_count"],
            bot=config.get("bot", "heuristic"),
            timer=config.get("timer"),
            public=config.get("public", True),
            name=config.get("name", ""),
        )
        table.seats = [SeatInfo(**s) if s else None for s in config["seats"]]
        table.game_seats = list(config.get("game_seats", []))
        table.version_base = table.version = int(config.get("version_base", 0))
        return table

    def summary(self, connected: int) -> dict[str, Any]:
        """The table as the lobby lists it."""
        rules = self.rules.to_json()
        return {
            "code": self.code,
            "name": self.name or f"Table {self.code}",
            "preset": self.rules.preset,
            "rules": rules,
            "rules_text": str(self.rules),
            "seats": self.seat_count,
            "taken": sum(1 for s in self.seats if s is not None),
            "bots": sum(1 for s in self.seats if s is not None and s.bot),
            "spectators": len(self.spectators),
            "connected": connected,
            "status": self.status,
            "public": self.public,
            "timer": self.timer,
        }


class RoomService:
    """Every table of this server, and the clients connected to it."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.5,
        idle_close: float = 900.0,
        public_timer: int = 30,
    ) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.idle_close = idle_close
        self.public_timer = public_timer
        self.epoch = secrets.token_hex(4)
        self.tables: dict[str, Table] = {}
        self.clients: set[Client] = set()
        self.names: dict[int, str] = {}
        #: each player's icon key (its unguessable URL), or None for no icon
        self.icons: dict[int, str | None] = {}
        self.limiter = p.Limiter()
        self._janitor: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ lifecycle

    async def restore(self) -> None:
        """Rebuild every open table, and its match from the game's action log."""
        games = {row.table_code: row for row in await self.storage.live_games()}
        for row in await self.storage.open_tables():
            try:
                table = Table.from_config(row.code, row.host_id, row.config)
            except (UnaError, KeyError, TypeError) as error:
                log.error("table %s cannot be restored: %s", row.code, error)
                continue
            game_row = games.get(row.code)
            if game_row is not None:
                record = await self.storage.record(game_row.id)
                table.game = Record.from_json(record).replay()
                table.game_id = game_row.id
                table.version = table.version_base + len(table.game.log)
            self.tables[table.code] = table
            for seat in table.seats:
                if seat is not None and seat.player_id is not None:
                    self.names[seat.player_id] = seat.name
            table.empty_since = time.monotonic()
            self._after_change(table)
        self._janitor = asyncio.create_task(self._close_idle_tables())

    async def shutdown(self) -> None:
        if self._janitor:
            self._janitor.cancel()
        for table in self.tables.values():
            if table.bot_task:
                table.bot_task.cancel()
            if table.timer_handle:
                table.timer_handle.cancel()

    def connected(self, table: Table) -> list[Client]:
        return [c for c in self.clients if c.table == table.code]

    async def disconnect(self, client: Client) -> None:
        self.clients.discard(client)
        self.limiter.forget(client)
        table = self.tables.get(client.table or "")
        if table is not None:
            if not self.connected(table):
                table.empty_since = time.monotonic()
            await self._broadcast_state(table, [])

    # ----------------------------------------------------------- dispatch

    async def handle(self, client: Client, message: p.Message) -> None:
        """Handle one message; a refusal becomes an error message and changes nothing."""
        try:
            self._spend(client, message.type)
            await self._dispatch(client, message)
        except (RoomError, p.ProtocolError) as error:
            code = getattr(error, "code", "refused")
            await client.send(
                {"type": "error", "code": code, "message": str(error), "about": message.type}
            )
        except Exception:
            # A bug or a database failure: the action was not applied (commit comes first);
            # the client hears so and the connection stays up.
            log.exception("while handling %s from %s", message.type, client.name)
            await client.send(
                {
                    "type": "error",
                    "code": "internal",
                    "message": "the server failed to do that; nothing was changed",
                    "about": message.type,
                }
            )

    def _spend(self, client: Client, kind: str, take: bool = True) -> None:
        """Take a token of ``kind``'s budget (protocol.BUDGETS), or refuse the request."""
        allowed = self.limiter.allow(
            kind, time.monotonic(), client=client, player=client.player_id or None,
            address=client.address, take=take,
        )  # fmt: skip
        if not allowed:
            budget = self.limiter.budgets[kind]
            what = {"miss": "table codes that name no open table",
                    "icon": "icon changes"}.get(kind, f"{kind} messages")  # fmt: skip
            raise RoomError(
                f"too many {what}: slow down (at most {budget.describe()})", "rate_limited"
            )

    async def _dispatch(self, client: Client, m: p.Message) -> None:
        if isinstance(m, p.Ping):
            await client.send({"type": "pong"})
            return
        if isinstance(m, p.Hello):
            await self.hello(client, m)
            return
        if not client.player_id:
            raise RoomError("say hello first (with your token or a name)", "no_hello")
        if isinstance(m, p.Lobby):
            await client.send(self.lobby_message(client))
        elif isinstance(m, p.Create):
            await self.create(client, m)
        elif isinstance(m, p.Join):
            await self.join(client, m.table, watch=False)
        elif isinstance(m, p.Watch):
            await self.join(client, m.table, watch=True)
        elif isinstance(m, p.Resume):
            await self.resume(client, m)
        elif isinstance(m, p.Sit):
            await self.sit(client, m.seat)
        elif isinstance(m, p.Stand):
            await self.stand(client)
        elif isinstance(m, p.Leave):
            await self.leave(client)
        elif isinstance(m, p.Kick):
            await self.kick(client, m.player)
        elif isinstance(m, p.Start):
            await self.start(client)
        elif isinstance(m, p.Act):
            await self.act(client, m.action, m.version)
        elif isinstance(m, p.Chat):
            await self.chat(client, m.text)
        elif isinstance(m, p.Auto):
            await self.set_auto(client, m.on)
        elif isinstance(m, p.SetIcon):
            await self.set_icon(client, m.image)
        elif isinstance(m, p.ResetIcon):
            await self.reset_icon(client)
        elif isinstance(m, p.Settings):
            await self.save_settings(client, m.settings)

    # ------------------------------------------------------------- players

    async def hello(self, client: Client, m: p.Hello) -> None:
        if client.player_id:
            raise RoomError("hello was said already on this connection", "hello_twice")
        token = None
        if m.token:
            row = await self.storage.player_by_token(m.token)
            if row is None:
                raise RoomError(
                    "unknown token: say hello with a name to get a new one", "bad_token"
                )
        else:
            if not m.name:
                raise RoomError("hello needs your token or a name", "no_name")
            row, token = await self.storage.create_player(p.clean_name(m.name))
        client.player_id, client.name = row.id, row.name
        self.names[row.id] = row.name
        self.icons[row.id] = row.icon_key
        self.clients.add(client)
        seated = [t.code for t in self.tables.values() if row.id in t.humans()]
        welcome: dict[str, Any] = {
            "type": "welcome",
            "player": {"id": row.id, "name": row.name, "icon": row.icon_key},
            "settings": row.settings,
            "tables": seated,
            "epoch": self.epoch,
        }
        if token:
            welcome["token"] = token
        await client.send(welcome)

    async def set_icon(self, client: Client, image: str) -> None:
        self._spend(client, "icon", take=False)
        try:
            data = from_base64(image)
            self._spend(client, "icon")
            icon = await make_icon_in_worker(data)
        except IconError as error:
            raise RoomError(str(error), "bad_icon") from None
        await self.storage.update_player(client.player_id, icon=icon)
        row = await self.storage.player(client.player_id)
        self.icons[client.player_id] = row.icon_key if row is not None else None
        await client.send({"type": "icon", "icon": self.icons[client.player_id]})
        await self._refresh_table_of(client)

    async def save_settings(self, client: Client, settings: dict[str, Any]) -> None:
        if len(json.dumps(settings)) > MAX_SETTINGS:
            raise RoomError(f"settings: at most {MAX_SETTINGS} bytes of JSON", "bad_settings")
        await self.storage.update_player(client.player_id, settings=settings)
        await client.send({"type": "settings", "settings": settings})

    async def reset_icon(self, client: Client) -> None:
        if self.icons.get(client.player_id) is None:  # nothing to reset: nothing to tell
            await client.send({"type": "icon", "icon": None})
            return
        self._spend(client, "icon")
        await self.storage.update_player(client.player_id, icon=None)
        self.icons[client.player_id] = None
        await client.send({"type": "icon", "icon": None})
        await self._refresh_table_of(client)

    async def _refresh_table_of(self, client: Client) -> None:
        table = self.tables.get(client.table or "")
        if table is not None:
            await self._broadcast_state(table, [])

    # -------------------------------------------------------------- tables

    def lobby_message(self, client: Client) -> dict[str, Any]:
        """The public tables, and the private ones where this player sits or watches."""
        mine = client.player_id
        tables = [
            t.summary(len(self.connected(t)))
            for t in self.tables.values()
            if t.public or mine in t.humans() or mine in t.spectators
        ]
        return {"type": "lobby", "tables": tables}

    async def _broadcast_lobby(self) -> None:
        for client in list(self.clients):
            if client.table is None:
                await client.send(self.lobby_message(client))

    async def create(self, client: Client, m: p.Create) -> None:
        try:
            rules = RuleSet.from_json(m.rules)
        except UnaError as error:
            raise RoomError(f"rules: {error}", "bad_rules") from None
        low, high = rules.players
        if not low <= m.seats <= high:
            raise RoomError(f"seats: these rules seat {low} to {high}, not {m.seats}", "bad_seats")
        if not 0 <= m.bots < m.seats:
            raise RoomError(f"bots: from 0 to {m.seats - 1} computer players", "bad_bots")
        try:
            make_bot(m.bot)
        except UnknownBot as error:
            raise RoomError(f"bot: {error}", "bad_bot") from None
        if m.timer is not None and not 1 <= m.timer <= 600:
            raise RoomError("timer: from 1 to 600 seconds, or null for none", "bad_timer")
        name = p.clean_name(m.name) if m.name else ""
        await self._leave_current(client)
        code = self._new_code(CODE_LENGTH[m.public])
        timer = m.timer if m.timer is not None else (self.public_timer if m.public else None)
        table = Table(code, client.player_id, rules, m.seats, m.bot, timer, m.public, name)
        table.seats = [None] * m.seats
        table.seats[0] = SeatInfo(client.name, player_id=client.player_id)
        for i in range(m.bots):
            table.seats[m.seats - 1 - i] = SeatInfo(f"{m.bot.split(':')[0]}-{i + 1}", bot=m.bot)
        await self.storage.create_table(code, client.player_id, table.config())
        self.tables[code] = table
        client.table = code
        await client.send({"type": "joined", "table": code, "seat": 0})
        await self._changed(table)

    def _new_code(self, length: int) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
            if code not in self.tables:
                return code

    def _table(self, code: str) -> Table:
        table = self.tables.get(code.strip().upper())
        if table is None:
            raise RoomError(f"no open table {code!r}", "no_table")
        return table

    def _find(self, client: Client, code: str) -> Table:
        """The table a join, watch or resume names; a miss spends the ``miss`` budget, and
        once it is spent no code is looked up (guessing private codes)."""
        self._spend(client, "miss", take=False)
        try:
            return self._table(code)
        except RoomError:
            self._spend(client, "miss")
            raise

    def _check_look(self, table: Table, client: Client) -> None:
        """Refuse a newcomer whose name looks like that of someone at the table."""
        if table.seat_of(client.player_id) is not None or client.player_id in table.spectators:
            return
        others = [s.name for s in table.seats if s is not None and s.player_id != client.player_id]
        others += [self.names.get(pid, "") for pid in table.spectators]
        for other in others:
            if looks_alike(client.name, other):
                raise RoomError(
                    f"someone called {other!r} is at this table, and {client.name!r} looks "
                    "the same: come back under another name",
                    "look_alike",
                )

    def _my_table(self, client: Client) -> Table:
        if client.table is None:
            raise RoomError("you are not at a table (join one first)", "no_table")
        return self._table(client.table)

    async def join(self, client: Client, code: str, watch: bool) -> None:
        table = self._find(client, code)
        self._check_look(table, client)
        if client.table != table.code:
            await self._leave_current(client)
        client.table = table.code
        seat = table.seat_of(client.player_id)
        if seat is None and not watch and not table.playing and None in table.seats:
            seat = table.seats.index(None)
            table.seats[seat] = SeatInfo(client.name, player_id=client.player_id)
            table.spectators.discard(client.player_id)
            await self.storage.update_table(table.code, config=table.config())
        elif seat is None:
            table.spectators.add(client.player_id)
        await client.send({"type": "joined", "table": table.code, "seat": seat})
        await self._changed(table, bump=seat is not None)

    async def resume(self, client: Client, m: p.Resume) -> None:
        """After a reconnect: the fresh state, and the events missed since ``version`` when
        this server still holds them (same epoch)."""
        table = self._find(client, m.table)
        self._check_look(table, client)
        if client.table != table.code:
            await self._leave_current(client)
            client.table = table.code
            if table.seat_of(client.player_id) is None:
                table.spectators.add(client.player_id)
        missed: list[list[Event]] | None = None
        if m.epoch == self.epoch and table.history and m.version >= table.history[0][0] - 1:
            missed = [events for version, events in table.history if version > m.version]
        table.empty_since = None
        await client.send(self._state_message(table, client, missed or [], fresh=missed is None))
        await self._broadcast_state(table, [], skip=client)

    async def sit(self, client: Client, seat: int | None) -> None:
        table = self._my_table(client)
        if table.playing:
            raise RoomError("a match is being played: sit down when it is over", "playing")
        if table.seat_of(client.player_id) is not None:
            raise RoomError("you are seated already", "seated")
        if seat is None:
            if None not in table.seats:
                raise RoomError("every seat is taken", "full")
            seat = table.seats.index(None)
        if not 0 <= seat < table.seat_count:
            raise RoomError(f"seat: from 0 to {table.seat_count - 1}, not {seat}", "bad_seat")
        if table.seats[seat] is not None:
            raise RoomError(f"seat {seat} is taken", "taken")
        table.seats[seat] = SeatInfo(client.name, player_id=client.player_id)
        table.spectators.discard(client.player_id)
        await self.storage.update_table(table.code, config=table.config())
        await self._changed(table)

    async def stand(self, client: Client) -> None:
        table = self._my_table(client)
        seat = table.seat_of(client.player_id)
        if seat is None:
            raise RoomError("you are not seated", "not_seated")
        await self._vacate(table, seat, "stands up")
        table.spectators.add(client.player_id)
        await self._changed(table)

    async def _vacate(self, table: Table, seat: int, why: str) -> None:
        """A person leaves her seat: during a match a computer player takes it over."""
        info = table.seats[seat]
        assert info is not None
        if table.playing:
            info.player_id, info.bot, info.auto = None, table.bot, False
            await self._system(table, f"{info.name} {why}; a computer player takes her seat")
        else:
            table.seats[seat] = None
            await self._system(table, f"{info.name} {why}")
        await self.storage.update_table(table.code, config=table.config())

    async def leave(self, client: Client) -> None:
        self._my_table(client)
        await self._leave_current(client)
        await client.send({"type": "left"})
        await client.send(self.lobby_message(client))

    async def _leave_current(self, client: Client) -> None:
        table = self.tables.get(client.table or "")
        client.table = None
        if table is None:
            return
        seat = table.seat_of(client.player_id)
        if seat is not None:
            await self._vacate(table, seat, "leaves")
        table.spectators.discard(client.player_id)
        if not self.connected(table):
            table.empty_since = time.monotonic()
        await self._changed(table)

    async def kick(self, client: Client, name: str) -> None:
        table = self._my_table(client)
        if table.host_id != client.player_id:
            raise RoomError("only the host may kick", "not_host")
        target = self._player_named(table, name)
        if target == client.player_id:
            raise RoomError("the host cannot kick herself (use leave)", "bad_kick")
        seat = table.seat_of(target)
        if seat is not None:
            await self._vacate(table, seat, "is kicked out")
        table.spectators.discard(target)
        for other in list(self.clients):
            if other.player_id == target and other.table == table.code:
                other.table = None
                await other.send({"type": "kicked", "table": table.code})
        await self._changed(table)

    def _player_named(self, table: Table, name: str) -> int:
        wanted = name.strip().lstrip("@").lower()
        candidates = [pid for pid in [*table.humans(), *table.spectators]]
        for pid in candidates:
            if self.names.get(pid, "").lower() == wanted:
                return pid
        raise RoomError(f"nobody called {name!r} at this table", "no_player")

    async def set_auto(self, client: Client, on: bool) -> None:
        table = self._my_table(client)
        seat = table.seat_of(client.player_id)
        if seat is None:
            raise RoomError("auto plays for a seated player: sit down first", "not_seated")
        info = table.seats[seat]
        assert info is not None
        info.auto, info.timeouts = on, 0
        await self.storage.update_table(table.code, config=table.config())
        await self._system(table, f"{info.name} {'turns auto on' if on else 'turns auto off'}")
        await self._changed(table)
        self._after_change(table)  # the computer may have to play for her right now

    # ------------------------------------------------------------- playing

    async def start(self, client: Client) -> None:
        table = self._my_table(client)
        async with table.lock:
            if table.status == "playing":
                game = table.game
                assert game is not None
                seat = table.engine_seat(client.player_id)
                if not game.hand_over:
                    raise RoomError("a hand is being played", "playing")
                if seat is None:
                    raise RoomError("only a seated player deals", "not_seated")
                await self._commit(table, seat, Action.parse("deal"), auto=False)
                return
            if table.seat_of(client.player_id) is None:
                raise RoomError("only a seated player starts the game", "not_seated")
            await self._new_match(table)

    async def _new_match(self, table: Table, scores: list[int] | None = None) -> None:
        taken = [i for i, s in enumerate(table.seats) if s is not None]
        low, _ = table.rules.players
        if len(taken) < max(2, low):
            raise RoomError(f"at least {max(2, low)} players are needed to start", "too_few")
        # From secrets, not the table's Mersenne Twister: finished records publish their
        # seeds, and enough of a Twister's outputs predict the rest.
        seed = secrets.randbits(63)
        names = [table.seats[i].name for i in taken]  # type: ignore[union-attr]
        dealer = secrets.randbelow(len(taken)) if scores is None else self._next_dealer(table)
        game = Game(table.rules, names, seed=seed, dealer=dealer, scores=scores)
        header = game.to_record().to_json()
        header.pop("actions")
        if table.game_id is not None and table.game is not None and not table.game.match_over:
            await self.storage.finish_game(table.game_id, {"ended": "by vote"})
        table.game_id = await self.storage.start_game(
            table.code, header, private=not table.public,
            player_ids=[table.seats[i].player_id for i in taken],  # type: ignore[union-attr]
        )  # fmt: skip
        table.game = game
        table.game_seats = taken
        table.votes.clear()
        table.version += 1
        table.version_base = table.version
        await self.storage.update_table(table.code, config=table.config(), status="playing")
        table.history.append((table.version, list(game.start_events)))
        await self._broadcast_state(table, list(game.start_events))
        await self._broadcast_lobby()
        self._after_change(table)

    def _next_dealer(self, table: Table) -> int:
        game = table.game
        assert game is not None
        return game.seating[(game.position[game.dealer] + 1) % game.n]

    async def act(self, client: Client, code: str, version: int) -> None:
        table = self._my_table(client)
        async with table.lock:
            game = table.game
            if game is None:
                raise RoomError("no game is being played at this table", "no_game")
            seat = table.engine_seat(client.player_id)
            if seat is None:
                raise RoomError("you do not play in this game (spectators only watch)", "no_seat")
            if version != table.version:
                raise RoomError(
                    f"stale action: the table is at version {table.version}, not {version}",
                    "stale",
                )
            try:
                action = Action.parse(code, seats=game.n)
            except InvalidCode as error:
                raise RoomError(str(error), "bad_action") from None
            reason = game.why_illegal(seat, action)
            if reason is not None:
                raise RoomError(f'illegal action "{action}": {reason}', "illegal")
            info = table.seat_info(seat)
            info.timeouts = 0
            await self._commit(table, seat, action, auto=False)

    async def _commit(self, table: Table, seat: int, action: Action, auto: bool) -> None:
        """Store the action, then apply it and tell everybody (the caller holds the lock
        and has checked that it is legal)."""
        game = table.game
        assert game is not None and table.game_id is not None
        await self.storage.append_action(table.game_id, len(game.log), seat, action.code, auto)
        events = game.apply(seat, action)
        for watcher_seat, watcher in table.watchers():
            watcher.observe(game.view_for(watcher_seat), seat, action)
        table.version += 1
        table.history.append((table.version, events))
        if game.match_over:
            await self.storage.finish_game(
                table.game_id, {"winner": game.winner, "scores": list(game.scores)}
            )
            await self.storage.update_table(table.code, status="over")
        await self._broadcast_state(table, events)
        if game.match_over:
            await self._broadcast_lobby()
        self._after_change(table)

    # ------------------------------------------------------ bots and timers

    def _after_change(self, table: Table) -> None:
        """Wake the computer players, and (re)start the turn timer."""
        if table.timer_handle:
            table.timer_handle.cancel()
            table.timer_handle = None
        game = table.game
        if game is None or game.match_over:
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.create_task(self._drive_bots(table))
        if table.timer and not game.hand_over and game.to_act is not None:
            info = table.seat_info(game.to_act)
            if not info.automatic:
                loop = asyncio.get_running_loop()
                version = table.version
                table.timer_handle = loop.call_later(
                    table.timer, lambda: asyncio.create_task(self._timeout(table, version))
                )

    async def _drive_bots(self, table: Table) -> None:
        asked: set[tuple[int, int]] = set()
        while True:
            await asyncio.sleep(self.bot_delay)
            try:
                async with table.lock:
                    acted = await self._bot_step(table, asked)
            except Exception:
                log.exception("computer player failed at table %s", table.code)
                return
            if not acted:
                return

    async def _bot_step(self, table: Table, asked: set[tuple[int, int]]) -> bool:
        game = table.game
        if game is None or game.match_over:
            return False
        if game.hand_over:
            # The next hand is dealt by a person, unless no person is there to do it.
            people = [
                s
                for s in table.game_seats
                if not table.seats[s].automatic  # type: ignore[union-attr]
            ]
            if people and any(self.connected(table)):
                return False
            await self._commit(table, 0, Action.parse("deal"), auto=True)
            return True
        if game.to_act is not None and table.seat_info(game.to_act).automatic:
            return await self._bot_act(table, game.to_act)
        # Out of turn: catches, UNO calls, jump-ins. Each bot is asked once per version.
        for seat in range(game.n):
            if seat == game.to_act or not table.seat_info(seat).automatic:
                continue
            if (seat, table.version) in asked or not game.legal_actions(seat):
                continue
            asked.add((seat, table.version))
            if await self._bot_act(table, seat):
                return True
        return False

    async def _bot_act(self, table: Table, seat: int) -> bool:
        game = table.game
        assert game is not None
        info = table.seat_info(seat)
        bot = table.agent(seat, info.bot or table.bot)
        view = game.view_for(seat)
        if bot.observes:
            # A searching bot thinks for tens of milliseconds: off the event loop (its
            # rollouts release the GIL), while this table's lock keeps the game still.
            rng = random.Random(table.rng.getrandbits(64))
            action = await asyncio.to_thread(bot.choose, view, rng)
        else:
            action = bot.choose(view, table.rng)
        if action is None:
            return False
        await self._commit(table, seat, action, auto=True)
        return True

    async def _timeout(self, table: Table, version: int) -> None:
        async with table.lock:
            game = table.game
            if game is None or table.version != version or game.to_act is None:
                return
            seat = game.to_act
            info = table.seat_info(seat)
            if info.automatic:
                return
            info.timeouts += 1
            if info.timeouts >= MAX_TIMEOUTS:
                info.auto = True
                await self.storage.update_table(table.code, config=table.config())
                await self._system(table, f"{info.name} timed out {MAX_TIMEOUTS} times: auto on")
            else:
                await self._system(table, f"{info.name} timed out; the computer plays for her")
            acted = await self._bot_act(table, seat)
            if not acted:  # a bot always has a turn action; keep the timer honest anyway
                self._after_change(table)

    async def _close_idle_tables(self) -> None:
        while True:
            await asyncio.sleep(max(1.0, min(30.0, self.idle_close / 4)))
            now = time.monotonic()
            for table in list(self.tables.values()):
                if self.connected(table):
                    table.empty_since = None
                    continue
                if table.empty_since is None:
                    table.empty_since = now
                elif now - table.empty_since >= self.idle_close:
                    await self.close_table(table)

    async def close_table(self, table: Table) -> None:
        self.tables.pop(table.code, None)
        if table.bot_task:
            table.bot_task.cancel()
        if table.timer_handle:
            table.timer_handle.cancel()
        await self.storage.close_table(table.code)
        await self._broadcast_lobby()

    # ----------------------------------------------------------------- chat

    async def chat(self, client: Client, text: str) -> None:
        from una.server.verbs import run_chat

        table = self._my_table(client)
        await run_chat(self, table, client, p.clean_chat(text))

    async def say(self, table: Table, client: Client, text: str) -> None:
        message = {"type": "chat", "from": client.name, "player_id": client.player_id, "text": text}
        for other in self.connected(table):
            await other.send(message)

    async def _system(self, table: Table, text: str) -> None:
        for other in self.connected(table):
            await other.send({"type": "system", "text": text})

    async def vote(self, table: Table, client: Client, kind: str) -> None:
        """``endgame`` or ``endhand``: carried when every seated person agrees."""
        if table.seat_of(client.player_id) is None:
            raise RoomError("only seated players vote", "not_seated")
        if not table.playing:
            raise RoomError("no match is being played", "no_game")
        votes = table.votes.setdefault(kind, set())
        votes.add(client.player_id)
        humans = set(table.humans())
        if not humans <= votes:
            waiting = ", ".join(self.names.get(h, "?") for h in sorted(humans - votes))
            what = kind[3:]
            await self._system(
                table, f"{client.name} votes to end the {what}; waiting for {waiting}"
            )
            return
        table.votes.pop(kind, None)
        async with table.lock:
            game = table.game
            assert game is not None and table.game_id is not None
            if kind == "endgame":
                await self.storage.finish_game(table.game_id, {"ended": "by vote"})
                table.game = None
                table.game_seats = []
                await self.storage.update_table(table.code, config=table.config(), status="waiting")
                await self._system(table, "the game is ended by vote")
                table.version += 1
                await self._broadcast_state(table, [])
                await self._broadcast_lobby()
            else:
                await self._system(table, "the hand is ended by vote; a new hand is dealt")
                await self._new_match(table, scores=list(game.scores))

    # ------------------------------------------------------------ messages

    def _state_message(
        self, table: Table, client: Client, events: list[list[Event]] | list[Event], fresh: bool
    ) -> dict[str, Any]:
        game = table.game
        seat = table.engine_seat(client.player_id)
        lines: list[str] = []
        if game is not None:
            flat: list[Event] = []
            for item in events:
                flat.extend(item if isinstance(item, list) else [item])
            lines = [event.visible_to(seat).describe(game.names) for event in flat]
        connected = {c.player_id for c in self.connected(table)}
        seats: list[dict[str, Any]] = []
        for index, info in enumerate(table.seats):
            if info is None:
                seats.append({"seat": index, "empty": True})
                continue
            seats.append(
                {
                    "seat": index,
                    "name": info.name,
                    "bot": info.bot,
                    "auto": info.auto,
                    "player_id": info.player_id,
                    "icon": self.icons.get(info.player_id) if info.player_id else None,
                    "connected": info.bot is not None or info.player_id in connected,
                    "game_seat": table.game_seats.index(index)
                    if game is not None and index in table.game_seats
                    else None,
                }
            )
        return {
            "type": "state",
            "table": {
                **table.summary(len(connected)),
                "host": self.names.get(table.host_id or 0),
                "host_id": table.host_id,
                "seats_detail": seats,
                "spectator_names": sorted(self.names.get(s, "?") for s in table.spectators),
            },
            "you": {
                "player_id": client.player_id,
                "seat": table.seat_of(client.player_id),
                "game_seat": seat,
            },
            "version": table.version,
            "epoch": self.epoch,
            "fresh": fresh,
            "game_id": table.game_id,
            "view": game.view_for(seat).to_json() if game is not None else None,
            "events": lines,
        }

    async def _broadcast_state(
        self, table: Table, events: list[Event], skip: Client | None = None
    ) -> None:
        for client in self.connected(table):
            if client is not skip:
                await client.send(self._state_message(table, client, events, fresh=False))

    async def _changed(self, table: Table, bump: bool = True) -> None:
        # Seats and spectators change the version only between matches: during one, an
        # action based on the game as it stands must not go stale because someone watched.
        if bump and not table.playing:
            table.version += 1
        await self._broadcast_state(table, [])
        await self._broadcast_lobby()


async def open_service(storage: Storage, **options: Any) -> RoomService:
    service = RoomService(storage, **options)
    await service.restore()
    return service
