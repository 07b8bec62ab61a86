"""The room service: tables, seats, spectators, chat, computer players and turn timers.

It never judges a move: the engine does (``Game.why_illegal``, ``Game.apply``). Every action
is committed to storage before it is applied, acknowledged or broadcast, and each client
receives only the view of its own seat (a spectator's view holds no hand).

Nobody waits for one socket: a WebSocket client's messages go through its own bounded queue
(a client that falls behind is dropped), and each table keeps its own set of clients. A
table where nobody is connected pauses. The lobby is sent in pages, then as changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from una import __version__
from una.bots import make_bot
from una.bots.base import Bot
from una.bots.registry import UnknownBot, bot_name
from una.engine import (
    Action,
    Card,
    Color,
    Game,
    InvalidCode,
    Kind,
    Record,
    Refusal,
    RuleSet,
    UnaError,
)
from una.engine.events import Event
from una.server import protocol as p
from una.server.icons import BUILTIN_ICONS, IconError, from_base64, make_icon_in_worker
from una.server.names import looks_alike
from una.server.storage import GameRow, LeaseLost, Storage

if TYPE_CHECKING:
    from una.server.cluster import Cluster

log = logging.getLogger("una.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Public codes are read off the lobby; private ones are the only key to their table:
#: 10 of 32 symbols is 50 bits, and misses are rate-limited (the ``miss`` budget).
CODE_LENGTH = {True: 5, False: 10}
MAX_TIMEOUTS = 3
MAX_SETTINGS = 4096
HISTORY = 256
#: Chat, notices and game events a table keeps for whoever comes back (a page reload).
LINES_KEPT = 200
#: Messages a socket may have waiting before it counts as stalled and is dropped.
SEND_QUEUE = 256
#: Seconds a dropped socket's close may take before it is given up.
CLOSE_WAIT = 5.0
#: Tables in one page of the lobby.
LOBBY_PAGE = 50
#: Open tables one player may host at once (the default of ``RoomService(max_hosted=)``).
MAX_HOSTED = 5
#: Seconds between two hands ended by vote at one table.
ENDHAND_COOLDOWN = 15.0
#: What the log says of a game whose log no longer replays (players get the notice
#: ``unrestorable``).
UNRESTORABLE = "this game could not be restored"


_background: set[asyncio.Task[None]] = set()


def _spawn(work: Awaitable[None]) -> None:
    """Run ``work`` on its own, keeping a reference until it is done."""

    async def run() -> None:
        await work

    task = asyncio.create_task(run())
    _background.add(task)
    task.add_done_callback(_background.discard)


class Encoded(dict[str, Any]):
    """A message already encoded as JSON ``text`` (by the table's owner, on another node):
    a socket sends the text as it is; the dict holds only its ``type``."""

    def __init__(self, fields: dict[str, Any], text: str) -> None:
        super().__init__(fields)
        self.text = text


def frame_text(message: dict[str, Any]) -> str:
    """The text of the frame that carries ``message`` (``protocol.encode``'s object) to a
    socket, here or on another node: compact JSON, UTF-8 unescaped.

    >>> frame_text({"type": "chat", "from": "Zoë", "player_id": 3, "text": "hi"})
    '{"type":"chat","from":"Zoë","player_id":3,"text":"hi"}'
    """
    if isinstance(message, Encoded):
        return message.text
    try:
        # orjson: a state's text in a seventh of json's time (2.0 against 14.9 µs)
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson does not take (an integer past 64 bits in settings)
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class RoomError(Exception):
    """A request the room service refuses: ``code`` (one of ``protocol.ERRORS``) and its
    ``args`` are for clients to word; the message is the English sentence, for logs."""

    def __init__(self, message: str, code: str, **args: Any) -> None:
        super().__init__(message)
        self.code = code
        self.args_ = args


@dataclass(eq=False)
class Client:
    """One connection, after its ``hello``.

    With ``queue_size`` (a WebSocket), :meth:`send` only queues the message: a writer task of
    its own sends it, so nobody ever waits for this socket. A socket that lets ``queue_size``
    messages pile up is stalled: it is dropped (``close`` is called and ``on_drop`` told).
    Without it (in-process clients such as the Telegram bridge's) :meth:`send` delivers at
    once.
    """

    #: Takes each message as its JSON object (``protocol.encode``'s).
    send_json: Callable[[dict[str, Any]], Awaitable[None]]
    player_id: int = 0
    name: str = ""
    table: str | None = None
    close: Callable[[], Awaitable[None]] | None = None
    queue_size: int = 0
    #: The lobby page this client looks at (None: it does not look at the lobby), and the
    #: codes of the tables that page shows, in its order: the lobby's changes it is sent.
    lobby_page: int | None = None
    lobby_codes: dict[str, None] = field(default_factory=dict)
    dropped: bool = False
    on_drop: Callable[[Client], None] | None = None
    #: A proxy, on a table's owner, of a socket of another node (that node's id).
    via: str | None = None
    #: This socket is at a table another node owns: (its code, that node).
    elsewhere: tuple[str, str] | None = None
    _queue: asyncio.Queue[dict[str, Any]] | None = None
    _writer: asyncio.Task[None] | None = None
    #: the peer's network address (rate limits per address), when the server knows it
    address: str | None = None

    async def send(self, message: p.Outbound | Encoded) -> None:
        """Send a server message (one already encoded, from another node, as it is)."""
        if self.dropped:
            return
        data = message if isinstance(message, Encoded) else p.encode(message)
        if not self.queue_size:
            try:
                await self.send_json(data)
            except Exception:  # a client gone mid-send is dropped by its own handler
                log.debug("send to %s failed", self.name)
            return
        if self._queue is None:
            self._queue = asyncio.Queue(self.queue_size)
            self._writer = asyncio.create_task(self._write(self._queue))
        try:
            self._queue.put_nowait(data)
        except asyncio.QueueFull:
            self.drop(f"{self.queue_size} messages waiting")

    async def _write(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            message = await queue.get()
            try:
                await self.send_json(message)
            except Exception:
                self.drop("the send failed")
                return

    def drop(self, why: str) -> None:
        """Stop sending to this client, close its connection and tell the service."""
        if self.dropped:
            return
        self.dropped = True
        log.info("dropping %s (player %s): %s", self.name or "a client", self.player_id, why)
        writer = self._writer
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()
        if self.close is not None:
            _spawn(self._close(self.close))
        if self.on_drop is not None:
            self.on_drop(self)

    @staticmethod
    async def _close(close: Callable[[], Awaitable[None]]) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(close(), CLOSE_WAIT)

    def stop(self) -> None:
        """The connection is gone: end the writer (nothing more can be sent)."""
        self.dropped = True
        if self._writer is not None:
            self._writer.cancel()


@dataclass
class SeatInfo:
    """A seat: a person (``player_id``) or a computer player (``bot``); ``stand_in``: the
    computer plays the seat of the person called ``name``, who left during the match."""

    name: str
    player_id: int | None = None
    bot: str | None = None
    auto: bool = False
    timeouts: int = 0
    stand_in: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "player_id": self.player_id,
            "bot": self.bot,
            "auto": self.auto,
            "stand_in": self.stand_in,
        }

    @property
    def automatic(self) -> bool:
        return self.bot is not None or self.auto


@dataclass(eq=False)
class Snapshot:
    """What the states of one broadcast share: the ``table`` as everyone sees it, and each
    engine seat's view and events (``None``: a spectator's), each made once however many
    clients look from that seat. The values are JSON data, shared by the states."""

    table: dict[str, Any]
    game: Game | None
    events: list[Event]
    _views: dict[int | None, dict[str, Any] | None] = field(default_factory=dict)
    _events: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    #: Each event whole (``Event.to_json``): what every seat it hides nothing from sees.
    _whole: list[dict[str, Any]] | None = None

    def view(self, seat: int | None) -> dict[str, Any] | None:
        if seat not in self._views:
            game = self.game
            self._views[seat] = None if game is None else game.view_for(seat).to_json()
        return self._views[seat]

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """``Event.json_for(seat)`` of each event; an event the seat sees whole is made
        into JSON once for every seat."""
        seen = self._events.get(seat)
        if seen is None:
            if self._whole is None:
                self._whole = [event.to_json() for event in self.events]
            seen = []
            for event, whole in zip(self.events, self._whole, strict=True):
                shown = event.visible_to(seat)
                seen.append(whole if shown is event else shown.to_json())
            self._events[seat] = seen
        return seen


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
    #: The recent lines of the table's log (chat, notices, events as a spectator sees them),
    #: sent to whoever comes to the table, so that a reload keeps the conversation.
    lines: deque[p.ChatLine | p.Notice | p.EventLine] = field(
        default_factory=lambda: deque(maxlen=LINES_KEPT)
    )
    votes: dict[str, set[int]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    timer_handle: asyncio.TimerHandle | None = None
    rng: random.Random = field(default_factory=random.Random)
    empty_since: float | None = None
    #: The clients at this table (its players and spectators with a connection); the
    #: service keeps it (``RoomService._place``), so a broadcast scans only them.
    clients: set[Client] = field(default_factory=set)
    #: Set when the table changed while its bot task was running: look once more.
    bots_wanted: bool = False
    #: Players kicked out, kept out until the end of the match (the next one if none runs).
    banned: set[int] = field(default_factory=set)
    #: Told whoever comes to the table: why its last game was set aside (quarantine), the
    #: arguments of the notice ``unrestorable`` (``game``, ``error``).
    notice: dict[str, Any] | None = None
    #: When a hand was last ended by vote (``time.monotonic()``), for the cooldown.
    hand_ended_at: float | None = None
    #: The computer player of each engine seat, kept for the match so that bots with a
    #: memory (``strong`` tracks what it saw) watch every action: (game, {seat: (spec, bot)}).
    agents: tuple[Game | None, dict[int, tuple[str, Bot]]] = (None, {})
    #: When the table was created (``time.time()``): the lobby lists the newest first.
    created_at: float = field(default_factory=time.time)

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

    def config(self, **changes: Any) -> dict[str, Any]:
        """What storage keeps of the table (the match itself is its game record); ``changes``
        replace fields, for a change that is stored before it is made."""
        config = {
            "rules": self.rules.to_json(),
            "seat_count": self.seat_count,
            "bot": self.bot,
            "timer": self.timer,
            "public": self.public,
            "name": self.name,
            "seats": [s.to_json() if s else None for s in self.seats],
            "game_seats": self.game_seats,
            "version_base": self.version_base,
            "banned": sorted(self.banned),
            "notice": self.notice,
        }
        unknown = set(changes) - set(config)
        assert not unknown, unknown
        return {**config, **changes}

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
        table.banned = set(config.get("banned", []))
        notice = config.get("notice")
        # an older server stored the sentence
        table.notice = {"game": None, "error": notice} if isinstance(notice, str) else notice
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
        max_hosted: int = MAX_HOSTED,
        cluster: Cluster | None = None,
    ) -> None:
        self.storage = storage
        #: With a cluster (``--redis``), this node has only the tables it holds a lease on.
        self.cluster = cluster
        self.bot_delay = bot_delay
        self.idle_close = idle_close
        self.public_timer = public_timer
        self.max_hosted = max_hosted
        self.epoch = secrets.token_hex(4)
        self.tables: dict[str, Table] = {}
        self.clients: set[Client] = set()
        #: The clients looking at the lobby (``lobby_page`` set, at no table).
        self.lobby_clients: set[Client] = set()
        self.names: dict[int, str] = {}
        #: each player's icon key (its unguessable URL), or None for no icon
        self.icons: dict[int, str | None] = {}
        self.limiter = p.Limiter()
        #: The built-in icon a player picked at random with /reset-icon: until she logs in
        #: again (BYOND's rule: it is not remembered).
        self.builtin_icons: dict[int, str] = {}
        self._janitor: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ lifecycle

    async def restore(self) -> None:
        """Take the database: alone (a second service on it is refused with
        :class:`~una.server.storage.StorageBusy`), or, in a cluster, the tables nobody holds;
        then rebuild them (:meth:`restore_tables`) and start the janitor."""
        if self.cluster is None:
            await self.storage.lock_service()
            await self.restore_tables(None)
        else:
            await self.cluster.start(self)
        self._janitor = asyncio.create_task(self._close_idle_tables())

    async def restore_tables(self, codes: list[str] | None) -> None:
        """Rebuild every open table (or those of ``codes``), and its match from the game's
        action log.

        Guarded: a table or a game that cannot be rebuilt is logged and set aside (its game
        quarantined with the reason, its players told :data:`UNRESTORABLE`), and every other
        table is restored, so the server always starts. A game whose log ends its match (a
        crash came before it was marked finished) is finished here.
        """
        if codes is not None and not codes:
            return
        games = {row.table_code: row for row in await self.storage.live_games(codes)}
        for row in await self.storage.open_tables(codes):
            try:
                table = Table.from_config(row.code, row.host_id, row.config)
            except (UnaError, KeyError, TypeError, ValueError) as error:
                log.error("table %s cannot be restored: %s", row.code, error)
                continue
            table.created_at = row.created_at.timestamp()
            game_row = games.get(row.code)
            if game_row is not None:
                try:
                    await self._restore_game(table, game_row)
                except LeaseLost:
                    log.warning("table %s: another node took it while it was restored", row.code)
                    continue
            self.tables[table.code] = table
            for seat in table.seats:
                if seat is not None and seat.player_id is not None:
                    self.names[seat.player_id] = seat.name
            table.empty_since = time.monotonic()
            self._after_change(table)
            if self.cluster is not None:
                await self._lobby_changed(table)
        if self.cluster is not None and codes:
            await self.cluster.took(codes)

    async def drop_tables(self, codes: list[str]) -> None:
        """Forget tables this node no longer owns (another node took their leases): their
        bots and timers stop here, and their proxies go; our own sockets there resume with
        the new owner (:meth:`Cluster.dropped`)."""
        gone = []
        for code in codes:
            table = self.tables.pop(code, None)
            if table is None:
                continue
            gone.append(code)
            if table.bot_task:
                table.bot_task.cancel()
            if table.timer_handle:
                table.timer_handle.cancel()
            for client in list(table.clients):
                if client.via is not None:
                    client.stop()
                    self.clients.discard(client)
                    self.limiter.forget(client)
        if self.cluster is not None and gone:
            await self.cluster.dropped(gone)

    def _lease_lost(self, table: Table) -> None:
        """A fenced write at ``table`` was refused (:class:`LeaseLost`): another node owns
        it. It is dropped off the caller's task (which may be the table's own bot task)."""
        log.warning("table %s: another node owns it now; dropping it", table.code)
        _spawn(self.drop_tables([table.code]))

    @contextlib.contextmanager
    def _fenced(self, table: Table) -> Iterator[None]:
        """Around a write of ``table`` fenced by :attr:`_owner`: if another node owns the
        table now (:class:`LeaseLost`, nothing written), drop it here and re-raise."""
        try:
            yield
        except LeaseLost:
            self._lease_lost(table)
            raise

    async def _save_table(
        self, table: Table, *, config: dict[str, Any] | None = None, host_id: int | None = None
    ) -> None:
        """Store ``table``'s config and/or host (fenced)."""
        values: dict[str, Any] = (
            {"config": config} if host_id is None else {"config": config, "host_id": host_id}
        )
        with self._fenced(table):
            await self.storage.update_table(table.code, owner=self._owner, **values)

    @property
    def _owner(self) -> str | None:
        """The node id that fences this service's writes (None: one process, no fence)."""
        return None if self.cluster is None else self.cluster.node

    async def _restore_game(self, table: Table, row: GameRow) -> None:
        """Replay the game of ``row`` (its actions already loaded) at ``table``, or
        quarantine it."""
        try:
            game = Record.from_json(row.to_record()).replay()
            if len(table.game_seats) != game.n:
                table.game_seats = self._recover_game_seats(table, game)
            for index in table.game_seats:
                if table.seats[index] is None:
                    raise ValueError(f"seat {index} of the game is empty at the table")
        except Exception as error:
            versions = f"started by Una {row.engine_version or 'unknown'}, format " + (
                f"{row.record_format or 'unknown'}; this is Una {__version__}"
            )
            reason = f"{type(error).__name__}: {error} ({versions})"
            log.error("game %s of table %s is quarantined: %s", row.id, table.code, reason)
            table.game, table.game_id, table.game_seats = None, None, []
            table.notice = {"game": row.id, "error": str(error)}
            await self.storage.quarantine_game(
                row.id,
                reason,
                table_code=table.code,
                config=table.config(),
                status="waiting",
                owner=self._owner,
            )
            return
        table.game, table.game_id = game, row.id
        table.version = table.version_base + len(game.log)
        if game.match_over:
            # The last action was stored, and the crash came before the game was finished.
            await self._finish_match(table)

    @staticmethod
    def _recover_game_seats(table: Table, game: Game) -> list[int]:
        """The table seats of ``game`` when the table's config lost them: the taken seats,
        if their names are the game's players in order (else the game cannot be seated)."""
        taken = [i for i, s in enumerate(table.seats) if s is not None]
        names = [table.seats[i].name for i in taken]  # type: ignore[union-attr]
        if names != list(game.names):
            raise ValueError(
                f"the table seats {names} but the game is played by {list(game.names)}"
            )
        return taken

    async def shutdown(self) -> None:
        if self._janitor:
            self._janitor.cancel()
        for table in self.tables.values():
            if table.bot_task:
                table.bot_task.cancel()
            if table.timer_handle:
                table.timer_handle.cancel()
        for client in self.clients:
            client.stop()
        if self.cluster is not None:  # last: nothing here acts once the leases are given back
            await self.cluster.stop()

    def connected(self, table: Table) -> list[Client]:
        """The clients at ``table`` (only its own set is looked at)."""
        here = [c for c in table.clients if c in self.clients and c.table == table.code]
        if len(here) != len(table.clients):  # moved or dropped without the service's help
            table.clients.intersection_update(here)
        return here

    def _place(self, client: Client, table: Table | None) -> None:
        """Move ``client`` to ``table`` (None: to no table); keeps the tables' client sets."""
        old = self.tables.get(client.table or "")
        if old is not None:
            old.clients.discard(client)
        client.table = None if table is None else table.code
        if table is not None:
            table.clients.add(client)
            self._leave_lobby(client)

    def _leave_lobby(self, client: Client) -> None:
        self.lobby_clients.discard(client)
        client.lobby_page = None
        client.lobby_codes = {}

    def _dropped(self, client: Client) -> None:
        """A socket that fell behind was dropped: it is gone, as after a disconnect."""
        _spawn(self.disconnect(client))

    async def disconnect(self, client: Client) -> None:
        client.stop()
        if self.cluster is not None and client.via is None:
            await self.cluster.disconnected(client)
        if client not in self.clients:
            return
        self.clients.discard(client)
        self._leave_lobby(client)
        self.limiter.forget(client)
        table = self.tables.get(client.table or "")
        if table is not None:
            table.clients.discard(client)
            if not self.connected(table):
                table.empty_since = time.monotonic()  # and its computer players pause
            await self._broadcast_state(table, [])

    # ----------------------------------------------------------- dispatch

    async def handle(self, client: Client, message: p.Message) -> None:
        """Handle one message; a refusal becomes an error message and changes nothing."""
        if client.dropped:
            return  # its connection is being closed: what it still sends is not read
        try:
            self._spend(client, message.type)
            await self._dispatch(client, message)
        except (RoomError, p.ProtocolError) as error:
            args = error.args_ if isinstance(error, RoomError) else {}
            await client.send(p.Error(error.code, str(error), message.type, args))
        except LeaseLost:
            # The table is being dropped here; this socket resumes with its new owner.
            moved = "the table moved to another server; nothing was changed"
            await client.send(p.Error("moved", moved, message.type))
        except Exception:
            # A bug or a database failure: the action was not applied (commit comes first);
            # the client hears so and the connection stays up.
            log.exception("while handling %s from %s", message.type, client.name)
            failed = "the server failed to do that; nothing was changed"
            await client.send(p.Error("internal", failed, message.type))

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
                f"too many {what}: slow down (at most {budget.describe()})",
                "rate_limited",
                what=kind,
            )

    async def _dispatch(self, client: Client, m: p.Message) -> None:
        if isinstance(m, p.Ping):
            await client.send(p.Pong())
            return
        if isinstance(m, p.Hello):
            await self.hello(client, m)
            return
        if not client.player_id:
            raise RoomError("say hello first (with your token or a name)", "no_hello")
        if self.cluster is not None and await self.cluster.route(client, m):
            return  # the table's owner is another node: it handles this
        if isinstance(m, p.Lobby):
            if m.page < 0:
                raise RoomError(f"page: from 0 on, not {m.page}", "bad_page")
            await client.send(self.lobby_message(client, m.page))
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
        elif isinstance(m, p.Games):
            games = await self.storage.finished_games(client.player_id)
            await client.send(p.GamesList(games))
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
        self.builtin_icons.pop(row.id, None)
        client.on_drop = self._dropped
        self.clients.add(client)
        seated = [t.code for t in self.tables.values() if row.id in t.humans()]
        if self.cluster is not None:
            seated += self.cluster.seated(row.id)
        player = {"id": row.id, "name": row.name, "icon": row.icon_key}
        await client.send(p.Welcome(player, row.settings, seated, self.epoch, token))

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
        await client.send(p.Icon(self.icons[client.player_id]))
        await self._refresh_table_of(client)

    async def save_settings(self, client: Client, settings: dict[str, Any]) -> None:
        if len(json.dumps(settings)) > MAX_SETTINGS:
            raise RoomError(f"settings: at most {MAX_SETTINGS} bytes of JSON", "bad_settings")
        await self.storage.update_player(client.player_id, settings=settings)
        await client.send(p.SettingsSaved(settings))

    async def reset_icon(self, client: Client) -> None:
        """Forget the player's icon and give her one of the built-in ones at random, for
        this login only (at the next one she gets a random icon again)."""
        if self.icons.get(client.player_id) is not None:  # a stored icon changes: it costs
            self._spend(client, "icon")
            await self.storage.update_player(client.player_id, icon=None)
        self.icons[client.player_id] = None
        builtin = random.choice(BUILTIN_ICONS)
        self.builtin_icons[client.player_id] = builtin
        await client.send(p.Icon(None, builtin))
        await self._refresh_table_of(client)

    async def _refresh_table_of(self, client: Client) -> None:
        if self.cluster is not None:
            self.cluster.icon_changed(client)  # her table may be another node's
        table = self.tables.get(client.table or "")
        if table is not None:
            await self._broadcast_state(table, [])

    # -------------------------------------------------------------- tables

    @staticmethod
    def _listed(table: Table, player_id: int) -> bool:
        """Whether the lobby lists ``table`` to this player: public, or she is there."""
        return table.public or player_id in table.humans() or player_id in table.spectators

    def lobby_message(self, client: Client, page: int = 0) -> p.LobbyPage:
        """One page of the lobby: the public tables, and the private ones where this player
        sits or watches, newest first (a page past the last is the last). The client is then
        sent that page's changes (``lobby_table``, ``lobby_gone``) until it asks again or goes
        to a table; the first page also gets every new table, at its top."""
        mine = client.player_id
        listed: list[Table | dict[str, Any]] = [
            t for t in reversed(self.tables.values()) if self._listed(t, mine)
        ]
        if self.cluster is not None:  # every node's tables, newest first
            rows: list[tuple[float, str, Table | dict[str, Any]]] = [
                (t.created_at, t.code, t) for t in listed if isinstance(t, Table)
            ]
            rows += self.cluster.listed(mine)
            rows.sort(key=lambda row: (row[0], row[1]), reverse=True)
            listed = [row[2] for row in rows]
        pages = max(1, -(-len(listed) // LOBBY_PAGE))
        page = min(page, pages - 1)
        shown = listed[page * LOBBY_PAGE : (page + 1) * LOBBY_PAGE]
        if client.table is None and client.elsewhere is None and client in self.clients:
            client.lobby_page = page
            client.lobby_codes = dict.fromkeys(
                t.code if isinstance(t, Table) else t["code"] for t in shown
            )
            self.lobby_clients.add(client)
        tables = [
            t.summary(len(self.connected(t))) if isinstance(t, Table) else t["summary"]
            for t in shown
        ]
        return p.LobbyPage(tables, page, pages, LOBBY_PAGE, len(listed))

    def watch_lobby(self, client: Client, page: dict[str, Any]) -> None:
        """``client`` looks at the lobby ``page`` another node sent her (on leaving its
        table): its changes come from here now."""
        client.lobby_page = page["page"]
        client.lobby_codes = dict.fromkeys(t["code"] for t in page["tables"])
        self.lobby_clients.add(client)

    async def _lobby_changed(self, table: Table, new: bool = False) -> None:
        """Tell the lobby's clients what changed at ``table``: its new summary to those whose
        page shows it (and, when it is ``new``, to those on the first page, where it goes on
        top and the page's last table drops off), ``lobby_gone`` when it closed or is no
        longer theirs to see. The cost is one summary and a small message per lobby client,
        whatever the number of tables."""
        gone = self.tables.get(table.code) is not table
        if self.cluster is not None:
            self.cluster.publish_table(table, gone, new)
        if not self.lobby_clients:
            return
        summary = None if gone else table.summary(len(self.connected(table)))
        await self._tell_lobby(
            table.code, summary, lambda player_id: self._listed(table, player_id), new
        )

    async def _tell_lobby(
        self,
        code: str,
        summary: dict[str, Any] | None,
        listed: Callable[[int], bool],
        new: bool,
    ) -> None:
        """Send the lobby's clients the change of table ``code`` (``summary`` None: it is
        gone; ``listed``: whether a player may see it), here or on another node."""
        for client in list(self.lobby_clients):
            codes = client.lobby_codes
            shown = code in codes
            if summary is None or not listed(client.player_id):
                if shown:
                    del codes[code]
                    await client.send(p.LobbyGone(code))
            elif shown:
                await client.send(p.LobbyTable(summary))
            elif new and client.lobby_page == 0:
                client.lobby_codes = codes = {code: None, **codes}
                while len(codes) > LOBBY_PAGE:
                    codes.popitem()
                await client.send(p.LobbyTable(summary, new=True))

    async def create(self, client: Client, m: p.Create) -> None:
        try:
            rules = RuleSet.from_json(m.rules)
        except UnaError as error:
            raise RoomError(f"rules: {error}", "bad_rules") from None
        low, high = rules.players
        if not low <= m.seats <= high:
            raise RoomError(
                f"seats: these rules seat {low} to {high}, not {m.seats}",
                "bad_seats",
                low=low,
                high=high,
            )
        if not 0 <= m.bots < m.seats:
            raise RoomError(
                f"bots: from 0 to {m.seats - 1} computer players", "bad_bots", high=m.seats - 1
            )
        try:
            make_bot(m.bot)
        except UnknownBot as error:
            raise RoomError(f"bot: {error}", "bad_bot") from None
        if m.timer is not None and not 1 <= m.timer <= 600:
            raise RoomError("timer: from 1 to 600 seconds, or null for none", "bad_timer")
        name = p.clean_name(m.name) if m.name else ""
        self._check_hosted(client)
        await self._leave_current(client)
        await self._close_deserted(client.player_id)
        code = self._new_code(CODE_LENGTH[m.public])
        # A public table always has a turn timer (null asks for the server's), so that no
        # stranger can hold it up by not playing; a private table may have none.
        timer = m.timer if m.timer is not None else (self.public_timer if m.public else None)
        table = Table(code, client.player_id, rules, m.seats, m.bot, timer, m.public, name)
        table.seats = [None] * m.seats
        table.seats[0] = SeatInfo(client.name, player_id=client.player_id)
        for i in range(m.bots):
            taken = [seat.name for seat in table.seats if seat is not None]
            table.seats[m.seats - m.bots + i] = SeatInfo(bot_name(taken), bot=m.bot)
        if self.cluster is None:
            await self.storage.create_table(code, client.player_id, table.config())
        else:
            await self.storage.create_table(
                code,
                client.player_id,
                table.config(),
                owner=self.cluster.node,
                lease=self.cluster.lease,
            )
        self.tables[code] = table
        self._place(client, table)
        await client.send(p.Joined(code, 0))
        await self._changed(table, new=True)

    def _check_hosted(self, client: Client) -> None:
        """Refuse ``create`` past ``max_hosted`` open tables of this host, not counting the
        ones she deserts by creating (nobody else seated, nobody else there)."""
        kept = [
            t
            for t in self.tables.values()
            if t.host_id == client.player_id and not self._deserted(t, client)
        ]
        if len(kept) >= self.max_hosted:
            codes = ", ".join(t.code for t in kept)
            raise RoomError(
                f"you host {len(kept)} open tables already ({codes}); at most "
                f"{self.max_hosted}: leave one to its players or let it close",
                "too_many_tables",
                tables=[t.code for t in kept],
                most=self.max_hosted,
            )

    def _deserted(self, table: Table, leaving: Client | None = None) -> bool:
        """Nobody seated and nobody there (besides ``leaving``, who goes)."""
        mine = None if leaving is None else leaving.player_id
        if any(pid != mine for pid in table.humans()):
            return False
        return all(c is leaving for c in self.connected(table))

    async def _close_deserted(self, host_id: int) -> None:
        for table in [t for t in self.tables.values() if t.host_id == host_id]:
            if self._deserted(table):
                await self.close_table(table)

    def _new_code(self, length: int) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
            if code not in self.tables and (
                self.cluster is None or code not in self.cluster.entries
            ):
                return code

    def _table(self, code: str) -> Table:
        table = self.tables.get(code.strip().upper())
        if table is None:
            raise RoomError(f"no open table {code!r}", "no_table", table=code[:20])
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
        # People only: a computer player is marked as one (and one standing in for a player
        # who left keeps her name, which must not keep her out when she comes back).
        others = [
            s.name
            for s in table.seats
            if s is not None and s.bot is None and s.player_id != client.player_id
        ]
        others += [self.names.get(pid, "") for pid in table.spectators]
        for other in others:
            if looks_alike(client.name, other):
                raise RoomError(
                    f"someone called {other!r} is at this table, and {client.name!r} looks "
                    "the same: come back under another name",
                    "look_alike",
                    other=other,
                )

    def _my_table(self, client: Client) -> Table:
        if client.table is None:
            raise RoomError("you are not at a table (join one first)", "not_at_table")
        return self._table(client.table)

    @staticmethod
    def _check_banned(table: Table, client: Client) -> None:
        if client.player_id in table.banned:
            raise RoomError(
                f"you were kicked out of table {table.code}: come back when its match is over",
                "banned",
                table=table.code,
            )

    async def join(self, client: Client, code: str, watch: bool) -> None:
        table = self._find(client, code)
        self._check_banned(table, client)
        self._check_look(table, client)
        if client.table != table.code:
            await self._leave_current(client)
        paused = not self.connected(table)
        self._place(client, table)
        seat = table.seat_of(client.player_id)
        if seat is None and not watch and not table.playing and None in table.seats:
            seat = table.seats.index(None)
            table.seats[seat] = SeatInfo(client.name, player_id=client.player_id)
            table.spectators.discard(client.player_id)
            _rename_bots_like(table, client.name)
            await self._save_table(table, config=table.config())
        elif seat is None:
            table.spectators.add(client.player_id)
        await client.send(p.Joined(table.code, seat))
        await self._send_lines(table, client)
        await self._tell_notice(table, client)
        await self._changed(table, bump=seat is not None)
        if paused:
            self._after_change(table)  # somebody is here again: the computer players go on

    @staticmethod
    async def _send_lines(table: Table, client: Client) -> None:
        """The table's recent log, to a client that comes to it without one."""
        await client.send(p.Lines(table.code, list(table.lines)))

    async def _tell_notice(self, table: Table, client: Client) -> None:
        if table.notice:
            await client.send(p.Notice("unrestorable", table.notice))

    async def resume(self, client: Client, m: p.Resume) -> None:
        """After a reconnect: the fresh state, and the events missed since ``version`` when
        this server still holds them (same epoch)."""
        table = self._find(client, m.table)
        self._check_banned(table, client)
        self._check_look(table, client)
        paused = not self.connected(table)
        arriving = client.table != table.code  # a new page (a reload) has no log yet
        if arriving:
            await self._leave_current(client)
            self._place(client, table)
            if table.seat_of(client.player_id) is None:
                table.spectators.add(client.player_id)
        else:
            self._place(client, table)
        missed: list[list[Event]] | None = None
        if m.epoch == self.epoch and table.history and m.version >= table.history[0][0] - 1:
            missed = [events for version, events in table.history if version > m.version]
        table.empty_since = None
        if missed is None or arriving:
            await self._send_lines(table, client)
        snapshot = self._snapshot(table, missed or [])
        await client.send(self._state_message(table, client, snapshot, fresh=missed is None))
        await self._tell_notice(table, client)
        await self._broadcast_state(table, [], skip=client)
        if paused:
            self._after_change(table)

    async def sit(self, client: Client, seat: int | None) -> None:
        table = self._my_table(client)
        self._check_banned(table, client)
        if table.playing:
            raise RoomError("a match is being played: sit down when it is over", "playing")
        if table.seat_of(client.player_id) is not None:
            raise RoomError("you are seated already", "seated")
        if seat is None:
            if None not in table.seats:
                raise RoomError("every seat is taken", "full")
            seat = table.seats.index(None)
        if not 0 <= seat < table.seat_count:
            raise RoomError(
                f"seat: from 0 to {table.seat_count - 1}, not {seat}",
                "bad_seat",
                high=table.seat_count - 1,
            )
        if table.seats[seat] is not None:
            raise RoomError(f"seat {seat} is taken", "taken", seat=seat)
        table.seats[seat] = SeatInfo(client.name, player_id=client.player_id)
        table.spectators.discard(client.player_id)
        _rename_bots_like(table, client.name)
        await self._save_table(table, config=table.config())
        await self._changed(table)

    async def stand(self, client: Client) -> None:
        table = self._my_table(client)
        seat = table.seat_of(client.player_id)
        if seat is None:
            raise RoomError("you are not seated", "not_seated")
        await self._vacate(table, seat, "stands")
        table.spectators.add(client.player_id)
        await self._changed(table)

    async def _vacate(self, table: Table, seat: int, why: str, host_id: int | None = None) -> None:
        """A person leaves her seat (``why``: stands, leaves or kicked): during a match a
        computer player takes it over, at once if it is her turn (the table never waits for
        an empty seat). ``host_id``: the new host, stored in the same transaction."""
        info = table.seats[seat]
        assert info is not None
        playing = table.playing
        if playing:
            info.player_id, info.bot, info.auto, info.stand_in = None, table.bot, False, True
        else:
            table.seats[seat] = None
        notice = p.Notice("seat_left", {"name": info.name, "why": why, "stand_in": playing})
        await self._save_table(table, config=table.config(), host_id=host_id)
        if host_id is not None:
            table.host_id = host_id
        await self.announce(table, notice)
        if playing:
            self._after_change(table)

    async def leave(self, client: Client) -> None:
        self._my_table(client)
        await self._leave_current(client)
        await client.send(p.Left())
        await client.send(self.lobby_message(client))

    async def _leave_current(self, client: Client) -> None:
        table = self.tables.get(client.table or "")
        self._place(client, None)
        if table is None:
            return
        heir = self._heir(table, client.player_id) if table.host_id == client.player_id else None
        seat = table.seat_of(client.player_id)
        if seat is not None:
            await self._vacate(table, seat, "leaves", host_id=heir)
        elif heir is not None:
            await self._save_table(table, host_id=heir)
            table.host_id = heir
        if heir is not None:
            await self.announce(table, p.Notice("host", {"name": self.names.get(heir, "?")}))
        table.spectators.discard(client.player_id)
        if not self.connected(table):
            table.empty_since = time.monotonic()
        await self._changed(table)

    def _heir(self, table: Table, leaving: int) -> int | None:
        """Who hosts the table when its host leaves: the first seated person, else the first
        spectator still there; None (the host stays) when nobody is left."""
        for pid in table.humans():
            if pid != leaving:
                return pid
        here = {c.player_id for c in self.connected(table)}
        for pid in sorted(table.spectators):
            if pid != leaving and pid in here:
                return pid
        return None

    async def kick(self, client: Client, name: str) -> None:
        table = self._my_table(client)
        if table.host_id != client.player_id:
            raise RoomError("only the host may kick", "not_host")
        target = self._player_named(table, name, client.player_id)
        seat = table.seat_of(target)
        table.banned.add(target)
        if seat is not None:
            await self._vacate(table, seat, "kicked")
        else:
            await self._save_table(table, config=table.config())
        table.spectators.discard(target)
        for other in list(table.clients):
            if other.player_id == target and other.table == table.code:
                self._place(other, None)
                await other.send(p.Kicked(table.code))
        await self._changed(table)

    def _player_named(self, table: Table, name: str, host: int) -> int:
        """The player or spectator the host means by ``name``: the one with exactly that
        name, else the one with that name up to case (the host herself never)."""
        wanted = name.strip().lstrip("@")
        others = [pid for pid in dict.fromkeys([*table.humans(), *table.spectators]) if pid != host]
        exact = [pid for pid in others if self.names.get(pid, "") == wanted]
        if len(exact) == 1:
            return exact[0]
        folded = [pid for pid in others if self.names.get(pid, "").casefold() == wanted.casefold()]
        if len(folded) == 1:
            return folded[0]
        if len(exact) > 1 or len(folded) > 1:
            raise RoomError(
                f"{len(exact) or len(folded)} people here are called {name!r}: "
                "they cannot be told apart by name",
                "ambiguous_player",
                name=name,
            )
        if self.names.get(host, "").casefold() == wanted.casefold():
            raise RoomError("the host cannot kick herself (use leave)", "bad_kick")
        raise RoomError(f"nobody called {name!r} at this table", "no_player", name=name)

    async def set_auto(self, client: Client, on: bool) -> None:
        table = self._my_table(client)
        seat = table.seat_of(client.player_id)
        if seat is None:
            raise RoomError("auto plays for a seated player: sit down first", "not_seated")
        info = table.seats[seat]
        assert info is not None
        info.auto, info.timeouts = on, 0
        await self._save_table(table, config=table.config())
        await self.announce(table, p.Notice("auto", {"name": info.name, "on": on}))
        await self._changed(table)
        self._after_change(table)  # the computer may have to play for her right now

    # ------------------------------------------------------------- playing

    async def start(self, client: Client) -> None:
        """Start a match, or deal the next hand; the only person at the table may also end
        the match being played and start a new one (BYOND's /startgame)."""
        table = self._my_table(client)
        async with table.lock:
            if table.status == "playing":
                game = table.game
                assert game is not None
                seat = table.engine_seat(client.player_id)
                if not game.hand_over and table.humans() == [client.player_id]:
                    await self.announce(table, p.Notice("new_game", {"name": client.name}))
                    await self._new_match(table)
                    return
                if not game.hand_over:
                    raise RoomError(
                        "a hand is being played (only the one person at a table may start "
                        "a new game during one; /endgame votes to end it)",
                        "playing",
                    )
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
            need = max(2, low)
            raise RoomError(f"at least {need} players are needed to start", "too_few", low=need)
        # From secrets, not the table's Mersenne Twister: finished records publish their
        # seeds, and enough of a Twister's outputs predict the rest.
        seed = secrets.randbits(63)
        names = [table.seats[i].name for i in taken]  # type: ignore[union-attr]
        dealer = secrets.randbelow(len(taken)) if scores is None else self._next_dealer(table)
        game = Game(table.rules, names, seed=seed, dealer=dealer, scores=scores)
        header = game.to_record().to_json()
        header.pop("actions")
        finish = None
        if table.game_id is not None and table.game is not None and not table.game.match_over:
            finish = (table.game_id, {"ended": "a new game was started"})
        version = table.version + 1
        # The old game's end, the new game and the table's seats: one transaction.
        with self._fenced(table):
            table.game_id = await self.storage.start_game(
                table.code,
                header,
                engine_version=__version__,
                config=table.config(game_seats=taken, version_base=version, notice=None),
                status="playing",
                finish=finish,
                private=not table.public,
                player_ids=[table.seats[i].player_id for i in taken],  # type: ignore[union-attr]
                owner=self._owner,
            )
        table.game = game
        table.game_seats = taken
        table.notice = None
        table.votes.clear()
        table.version = table.version_base = version
        table.history.append((table.version, list(game.start_events)))
        await self._broadcast_state(table, list(game.start_events))
        await self._lobby_changed(table)
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
                    version=table.version,
                )
            try:
                action = Action.parse(code, seats=game.n)
            except InvalidCode as error:
                raise RoomError(str(error), "bad_action") from None
            if action.kind in (Kind.ENDHAND, Kind.ENDGAME):
                raise RoomError(
                    f"{action.kind.value} is the table's decision: vote with /{action.kind.value}",
                    "illegal",
                    reason="vote_needed",
                    action=action.code,
                )
            reason = game.why_illegal(seat, action)
            if reason is not None:
                raise RoomError(
                    readable_refusal(game, seat, action, reason),
                    "illegal",
                    **refusal_args(reason, action),
                )
            call = uno_call(game, seat) if action.kind is Kind.UNO else None
            if action.kind is Kind.UNO and call is None:
                # An UNO call that changes nothing is not announced to the table.
                held = len(game.hands[seat])
                raise RoomError(
                    f"UNO: nothing to call (you hold {held} cards)", "nothing_to_call", cards=held
                )
            info = table.seat_info(seat)
            info.timeouts = 0
            await self._commit(table, seat, action, auto=False)
            if call == "false" and game.catchable(seat):
                caller = {"name": game.names[seat], "cards": len(game.hands[seat])}
                await self.announce(table, p.Notice("false_uno", caller))

    async def _commit(self, table: Table, seat: int, action: Action, auto: bool) -> None:
        """Store the action, then apply it and tell everybody (the caller holds the lock
        and has checked that it is legal)."""
        game = table.game
        assert game is not None and table.game_id is not None
        with self._fenced(table):
            await self.storage.append_action(
                table.game_id, len(game.log), seat, action.code, auto, owner=self._owner
            )
        events = game.apply(seat, action)
        for watcher_seat, watcher in table.watchers():
            watcher.observe(game.view_for(watcher_seat), seat, action)
        table.version += 1
        table.history.append((table.version, events))
        if game.match_over:
            await self._finish_match(table)
        await self._broadcast_state(table, events)
        if game.match_over:
            await self._lobby_changed(table)
        self._after_change(table)

    async def _finish_match(self, table: Table) -> None:
        """Mark the table's game finished with its result, and the table over, in one
        transaction; the kicked may come back for the next match."""
        game = table.game
        assert game is not None and game.match_over and table.game_id is not None
        table.banned.clear()
        with self._fenced(table):
            await self.storage.finish_game(
                table.game_id,
                {"winner": game.winner, "scores": list(game.scores)},
                table_code=table.code,
                config=table.config(),
                status="over",
                owner=self._owner,
            )

    # ------------------------------------------------------ bots and timers

    def _after_change(self, table: Table) -> None:
        """Wake the computer players, and (re)start the turn timer."""
        if table.timer_handle:
            table.timer_handle.cancel()
            table.timer_handle = None
        game = table.game
        if game is None or game.match_over:
            return
        if not self.connected(table):
            return  # nobody is here: the table pauses until somebody comes back
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.create_task(self._drive_bots(table))
        else:
            table.bots_wanted = True  # it may be deciding there is nothing to do
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
            table.bots_wanted = False
            try:
                async with table.lock:
                    acted = await self._bot_step(table, asked)
            except LeaseLost:
                return  # another node plays this table now (it is dropped here)
            except Exception:
                log.exception("computer player failed at table %s", table.code)
                return
            if not acted and not table.bots_wanted:
                return

    async def _bot_step(self, table: Table, asked: set[tuple[int, int]]) -> bool:
        game = table.game
        if game is None or game.match_over:
            return False
        if not self.connected(table):
            return False  # paused: nobody is at the table (it goes on when somebody comes)
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
        try:
            async with table.lock:
                game = table.game
                if game is None or table.version != version or game.to_act is None:
                    return
                seat = game.to_act
                info = table.seat_info(seat)
                if info.automatic or not self.connected(table):
                    return  # a computer plays it, or the table is paused
                info.timeouts += 1
                last = info.timeouts >= MAX_TIMEOUTS
                if last:
                    info.auto = True
                    await self._save_table(table, config=table.config())
                times = {"name": info.name, "times": info.timeouts, "auto": last}
                await self.announce(table, p.Notice("timed_out", times))
                acted = await self._bot_act(table, seat)
                if not acted:  # a bot always has a turn action; keep the timer honest anyway
                    self._after_change(table)
        except LeaseLost:
            pass  # another node plays this table now (it is dropped here)

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
        unfinished = None
        if table.game_id is not None and table.game is not None and not table.game.match_over:
            unfinished = (table.game_id, {"ended": "table closed"})
        try:
            await self.storage.close_table(table.code, unfinished=unfinished, owner=self._owner)
        except LeaseLost:
            self.tables.setdefault(table.code, table)  # dropped as any lost table
            self._lease_lost(table)
            return
        await self._lobby_changed(table)

    # ----------------------------------------------------------------- chat

    async def chat(self, client: Client, text: str) -> None:
        from una.server.verbs import run_chat

        table = self._my_table(client)
        # A leading space is kept as a fact: it makes "una ..." ordinary chat (BYOND's rule).
        spaced = text[:1].isspace()
        await run_chat(self, table, client, p.clean_chat(text), spaced=spaced)

    async def say(self, table: Table, client: Client, text: str) -> None:
        message = p.ChatLine(client.name, client.player_id, text)
        table.lines.append(message)
        for other in self.connected(table):
            await other.send(message)

    async def announce(self, table: Table, message: p.Notice) -> None:
        """A notice to everyone at the table (kept in its recent lines)."""
        table.lines.append(message)
        for other in self.connected(table):
            await other.send(message)

    async def vote(self, table: Table, client: Client, kind: str) -> None:
        """``endgame`` or ``endhand``: carried when every seated person agrees."""
        if table.seat_of(client.player_id) is None:
            raise RoomError("only seated players vote", "not_seated")
        if not table.playing:
            raise RoomError("no match is being played", "no_game")
        if kind == "endhand" and table.hand_ended_at is not None:
            wait = table.hand_ended_at + ENDHAND_COOLDOWN - time.monotonic()
            if wait > 0:
                raise RoomError(
                    f"a hand was ended by vote a moment ago: wait {wait:.0f} s to end another",
                    "rate_limited",
                    what="endhand",
                )
        votes = table.votes.setdefault(kind, set())
        votes.add(client.player_id)
        humans = set(table.humans())
        if not humans <= votes:
            waiting = [self.names.get(h, "?") for h in sorted(humans - votes)]
            vote = {"name": client.name, "kind": kind, "waiting": waiting}
            await self.announce(table, p.Notice("vote", vote))
            return
        table.votes.pop(kind, None)
        async with table.lock:
            game = table.game
            if game is None or game.match_over:
                return  # it ended while the last vote came in
            if kind == "endhand" and game.hand_over:
                raise RoomError("the hand is over already: deal the next one", "no_game")
            seat = table.engine_seat(client.player_id)
            by = 0 if seat is None else seat
            # The vote's action is the table's, taken in the voter's name (the record says
            # who asked); BYOND ends at once, "at the end of the current turn" being now.
            await self._commit(table, by, Action.parse(kind), auto=False)
            if kind == "endhand":
                # The hand's scores are shown as after any hand; the game goes on with a
                # new hand when somebody deals it (BYOND: "click the Una card"), or the
                # computer players, when no person is seated.
                table.hand_ended_at = time.monotonic()

    # ------------------------------------------------------------ messages

    def _snapshot(
        self,
        table: Table,
        events: list[list[Event]] | list[Event],
        connected: list[Client] | None = None,
    ) -> Snapshot:
        """What every state of ``table`` shares now: the table as everyone sees it, and the
        game and ``events`` from which each seat's view and events are made (once a seat)."""
        game = table.game
        flat: list[Event] = []
        if game is not None:
            for item in events:
                flat.extend(item if isinstance(item, list) else [item])
        here = {c.player_id for c in (self.connected(table) if connected is None else connected)}
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
                    "builtin_icon": self.builtin_icons.get(info.player_id or 0),
                    "stand_in": info.stand_in,
                    "connected": info.bot is not None or info.player_id in here,
                    "game_seat": table.game_seats.index(index)
                    if game is not None and index in table.game_seats
                    else None,
                }
            )
        shown = {
            **table.summary(len(here)),
            "host": self.names.get(table.host_id or 0),
            "host_id": table.host_id,
            "seats_detail": seats,
            "spectator_names": sorted(self.names.get(s, "?") for s in table.spectators),
            "notice": table.notice,
        }
        return Snapshot(shown, game, flat)

    def _state_message(
        self, table: Table, client: Client, snapshot: Snapshot, fresh: bool
    ) -> p.State:
        seat = table.engine_seat(client.player_id)
        return p.State(
            table=snapshot.table,
            you={
                "player_id": client.player_id,
                "seat": table.seat_of(client.player_id),
                "game_seat": seat,
            },
            version=table.version,
            epoch=self.epoch,
            fresh=fresh,
            game_id=table.game_id,
            view=snapshot.view(seat),
            events=snapshot.events_for(seat),
        )

    async def _broadcast_state(
        self, table: Table, events: list[Event], skip: Client | None = None
    ) -> None:
        here = self.connected(table)
        if not here and not events:
            return
        snapshot = self._snapshot(table, events, here)
        for line in snapshot.events_for(None):
            table.lines.append(p.EventLine(line))
        for client in here:
            if client is not skip:
                await client.send(self._state_message(table, client, snapshot, fresh=False))

    async def _changed(self, table: Table, bump: bool = True, new: bool = False) -> None:
        # Seats and spectators change the version only between matches: during one, an
        # action based on the game as it stands must not go stale because someone watched.
        if bump and not table.playing:
            table.version += 1
        await self._broadcast_state(table, [])
        await self._lobby_changed(table, new=new)


def _rename_bots_like(table: Table, name: str) -> None:
    """Before a match: a computer player whose name looks like ``name`` (a person who just
    sat down) takes another, so that no two seats read the same ("Ada" and "ada")."""
    for info in table.seats:
        if info is not None and info.bot is not None and looks_alike(info.name, name):
            info.name = bot_name([s.name for s in table.seats if s is not None])


def uno_call(game: Game, seat: int) -> str | None:
    """What an UNO call by ``seat`` would do now: ``"owed"`` (her one card), ``"false"``
    (more than one card under ``false_uno_penalty``: she becomes catchable), or ``None``
    (nothing: it is not announced).

    >>> uno_call(Game("byond", players=2, seed=1), 0), uno_call(Game("standard", 2, seed=1), 0)
    ('false', None)
    """
    if Action.parse("uno") in game.legal_actions(seat):
        return "owed"
    if game.rules.false_uno_penalty and len(game.hands[seat]) > 1 and not game.hand_over:
        return "false"
    return None


def readable_refusal(game: Game, seat: int, action: Action, reason: object) -> str:
    """The engine's reason for refusing ``action``, with players named and cards called
    as people call them ("Bob", "red 7"), not by seat numbers and codes.

    >>> game = Game("standard", players=["Ann", "Bob"], seed=1)
    >>> readable_refusal(game, 1, Action.parse("play R7"), "it is seat 0's turn, not seat 1's")
    "red 7: it is Ann's turn, not Bob's"
    """
    text = str(reason)  # the engine's Refusal: its English sentence
    for index, name in sorted(enumerate(game.names), key=lambda item: -item[0]):
        text = text.replace(f"seat {index}'s", f"{name}'s").replace(f"seat {index}", name)
    words = text.split(" ")
    for i, word in enumerate(words):
        core = word.strip(",.:;()'")
        if core and core.upper() == core and any(ch.isalpha() for ch in core):
            try:
                card = Card.parse(core)
            except InvalidCode:
                continue
            words[i] = word.replace(core, card.name)
    text = " ".join(words)
    what = action.card.name if action.card is not None else action.kind.value
    return f"{what}: {text}"


def refusal_args(refusal: Refusal, action: Action) -> dict[str, Any]:
    """An engine refusal as an error's arguments: its ``reason`` code, the ``action``'s
    code, and the refusal's own arguments as JSON (seats as numbers, cards as codes).

    >>> game = Game("standard", players=["Ann", "Bob"], seed=1)
    >>> refusal_args(game.why_illegal(1, "play R7"), Action.parse("play R7"))
    {'reason': 'not_held', 'action': 'play R7', 'seat': 1, 'card': 'R7'}
    """
    args: dict[str, Any] = {"reason": refusal.code, "action": action.code}
    for key, value in refusal.args:
        if isinstance(value, Card):
            value = value.code
        elif isinstance(value, Color):
            value = value.value
        elif isinstance(value, tuple | list):
            value = [v.code if isinstance(v, Card) else v for v in value]
        args[key] = value
    return args


async def open_service(storage: Storage, **options: Any) -> RoomService:
    service = RoomService(storage, **options)
    await service.restore()
    return service
