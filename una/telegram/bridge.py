"""The Telegram adapter: group chats play at the room service's tables.

A group chat is a lobby (who registered, the modes, the language: :class:`ChatState`, kept in
storage) until ``/begin``; then its first registered player creates a table through the
:class:`~una.server.rooms.RoomService` (rules: the ``telegram`` preset and the chat's switches,
a turn timer), the others join it, a spectator client of the chat's own (the *observer*)
watches it, and the match starts. Each player talks to the service through a
:class:`~una.server.rooms.Client` of her own, like a WebSocket client: her button presses become
``act`` messages carrying the version of the button, and the ``state`` messages her client
receives (her seat's view only) feed her private hand message. The group's message is built
from the spectator's view and the events as a spectator sees them, so no hand can leak into it.

When the match is over (or ``/stop``), the table is closed and the chat is a lobby again. A
restarted bot rebuilds the tables with ``RoomService.restore`` and re-attaches each chat's
clients to its table: versions survive, so the buttons already shown keep working.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import (
    ChosenInlineResult,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQuery,
    InlineQueryResultArticle,
    InlineQueryResultPhoto,
    InlineQueryResultsButton,
    InputTextMessageContent,
)

from una.engine import Action, Card, Kind, Record, Refusal, RuleSet, UnaError
from una.engine.events import Event
from una.server import protocol as p
from una.server.names import looks_alike
from una.server.rooms import Client, RoomService, Table
from una.telegram.board import Board, Bucket, Render
from una.telegram.callbacks import Act, Opt, Pick, Show, fits
from una.telegram.cards import HEIGHT, WIDTH
from una.telegram.i18n import (
    COLOR_EMOJI,
    LANGS,
    TEXTS,
    card_label,
    color_label,
    describe,
    lang_of,
    refusal_text,
    t,
)
from una.telegram.store import OBSERVER_ID, ChatState, TelegramStore, UserRow

log = logging.getLogger("una.telegram")

InlineResult = InlineQueryResultArticle | InlineQueryResultPhoto
MAX_PLAYERS = 10
#: Event lines per group message (a full message goes on in a new one, nothing is cut);
#: the inline mode keeps one message per hand, so it takes more (4096 characters at most).
MAX_LINES = 14
MAX_LINES_INLINE = 60
TARGETS = (100, 200, 300, 500, 1000)
#: The bot levels /settings offers, weakest first: registry specs (una.bots.make_bot).
BOT_LEVELS = ("heuristic:3", "heuristic", "strong", "strong:hard")

#: Settings keys of the /settings keyboard: key -> (switch, the two values it toggles between).
TOGGLES: dict[str, tuple[str, tuple[Any, Any]]] = {
    "fin": ("finish", ("first_out", "to_the_last")),
    "uno": ("uno_call", ("manual", "auto")),
    "jump": ("jump_in", (False, True)),
    "sz": ("seven_zero", (False, True)),
    "stack": ("stack_draw_two", (True, False)),
}


@dataclass
class Options:
    """How the bot plays; the tests make everything fast."""

    bot_delay: float = 0.6
    #: Seconds per turn before the computer plays for an absent player (None: no timer).
    turn_timer: int | None = 60
    #: Seconds before the next hand is dealt automatically (the button deals at once).
    deal_delay: float = 6.0
    #: Telegram allows about 20 messages a minute in a group: stay under it with a margin.
    group_per_minute: float = 18.0
    group_burst: int = 3
    dm_per_minute: float = 60.0
    dm_burst: int = 5
    #: The length of a "minute" for the budgets (a test hook: a short one).
    flood_window: float = 60.0
    bot_kind: str = "heuristic"
    #: Public base URL of the card images (``una serve``'s ``/telegram/cards``): inline
    #: results show cards as pictures then, as text otherwise.
    card_url: str | None = None
    #: Switches under every chat's own (a test hook: a low ``target``).
    rules: dict[str, Any] = field(default_factory=dict)


@dataclass(eq=False)
class ChatRuntime:
    """A chat while the bot runs: its clients, its boards and what the board has shown."""

    state: ChatState
    board: Board
    bucket: Bucket
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: dict[int, Client] = field(default_factory=dict)
    observer: Client | None = None
    uid_of: dict[int, int] = field(default_factory=dict)  # player id -> Telegram id
    dms: dict[int, Board] = field(default_factory=dict)
    dm_keys: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    versions: dict[int, int] = field(default_factory=dict)
    picks: dict[int, str] = field(default_factory=dict)
    #: The last version announced in the group (kept in storage as ``state.announced``).
    seen: int = 0
    backlog: list[tuple[int, list[Event]]] = field(default_factory=list)
    #: Players who pressed «📢 Uno» before their play (their next play calls it).
    armed: set[int] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    turn_key: tuple[Any, ...] | None = None
    want_new: bool = False
    deal_task: asyncio.Task[None] | None = None
    finish_task: asyncio.Task[None] | None = None
    finishing: bool = False
    #: A match that ended before a stop, rebuilt from its stored record: the restored
    #: table holds no game (a finished game is not restored), so this one is told and closed.
    ghost: Table | None = None
    #: Reading the record for versions the service's history no longer holds.
    filling: asyncio.Task[None] | None = None
    #: Challengers sent (or told to open the private chat for) a revealed hand.
    revealing: set[int] = field(default_factory=set)


class TelegramUna:
    """Group chats playing at the room service's tables (see the module's docstring)."""

    def __init__(self, bot: Bot, service: RoomService, options: Options | None = None) -> None:
        self.bot = bot
        self.service = service
        self.options = options or Options()
        self.store = TelegramStore(service.storage)
        self.chats: dict[int, ChatRuntime] = {}
        self._capture: dict[Client, list[dict[str, Any]]] = {}
        self._locks: dict[Client, asyncio.Lock] = {}
        self._observer: UserRow | None = None
        self._username: str | None = None
        self._lobby_names: dict[int, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Create the tables if needed, and re-attach every chat to its (restored) table."""
        await self.store.setup()
        self._observer = await self.store.user(OBSERVER_ID)
        if self._observer is None:
            row, token = await self.service.storage.create_player("Telegram")
            self._observer = UserRow(OBSERVER_ID, row.id, token, row.name, "en")
            await self.store.save_user(self._observer)
        for state in await self.store.chats():
            rt = self._runtime(state)
            for uid in state.players:
                found = await self.store.user(uid)
                if found is not None:
                    self._lobby_names[uid] = html.escape(found.name)
            table = self.service.tables.get(state.table or "")
            announced = state.announced if state.announced >= 0 else None
            if table is not None and table.game is None and announced is not None:
                ghost = await self._ended(table, state.game)
                if ghost is not None and (announced < ghost.version or state.dms):
                    # The match ended (its game finished in storage) before its last
                    # versions were told, or before its hand messages were closed: tell
                    # the rest from the record, then close as usual.
                    rt.ghost, rt.seen, rt.want_new = ghost, announced, True
                    rt.backlog = await self._backlog(ghost, announced)
                    for uid_text, message_id in state.dms.items():
                        self._dm_board(rt, int(uid_text), message_id)
                    rt.finishing = True
                    rt.finish_task = asyncio.create_task(self._finish(rt, ghost))
                    continue
            if (
                table is None
                or table.game is None
                or (
                    table.game.match_over
                    and (announced is None or announced >= table.version)
                    and not state.dms  # else its hand messages are closed as usual
                )
            ):
                if state.table is not None:
                    state.table, state.dms = None, {}
                    await self.store.save_chat(state)
                continue
            # What was accepted but not yet announced before the stop is told first; a
            # finished match then closes as usual (the observer's first state sees it over).
            rt.seen = table.version if announced is None else announced
            rt.backlog = await self._backlog(table, rt.seen)
            rt.want_new = True
            if not table.game.match_over:
                rt.notes.append(t(state.lang, "restored"))
            await self._attach(rt, table)
            rt.board.touch()
            for board in rt.dms.values():
                board.touch()

    async def close(self) -> None:
        for rt in self.chats.values():
            rt.board.close()
            for board in rt.dms.values():
                board.close()
            for task in (rt.deal_task, rt.finish_task, rt.filling):
                if task is not None:
                    task.cancel()
        for task in list(self._tasks):
            task.cancel()
            for client in [*rt.clients.values(), *([rt.observer] if rt.observer else [])]:
                self.service.clients.discard(client)

    async def idle(self) -> None:
        """Wait until every board shows the latest state (for tests)."""
        for rt in list(self.chats.values()):
            await rt.board.idle()
            for board in list(rt.dms.values()):
                await board.idle()

    def _runtime(self, state: ChatState) -> ChatRuntime:
        rt = self.chats.get(state.chat_id)
        if rt is not None:
            return rt
        bucket = Bucket(
            self.options.group_per_minute, self.options.group_burst, self.options.flood_window
        )

        async def on_new(message_id: int) -> None:
            state.board = message_id
            await self.store.save_chat(state)

        holder: list[ChatRuntime] = []
        board = Board(
            self.bot, state.chat_id, bucket, lambda: self._render_group(holder[0]), on_new,
            message_id=state.board,
        )  # fmt: skip
        rt = ChatRuntime(state=state, board=board, bucket=bucket)
        holder.append(rt)
        self.chats[state.chat_id] = rt
        return rt

    async def chat(self, chat_id: int, title: str | None, language: str | None) -> ChatRuntime:
        """The chat's runtime, its state created on first contact in the user's language."""
        rt = self.chats.get(chat_id)
        if rt is not None:
            return rt
        state = await self.store.chat(chat_id)
        if state is None:
            state = ChatState(chat_id, lang=lang_of(language), title=title or "")
            await self.store.save_chat(state)
        return self._runtime(state)

    def runtime_of_table(self, code: str) -> ChatRuntime | None:
        for rt in self.chats.values():
            if rt.state.table == code:
                return rt
        return None

    async def user(self, tg_id: int, first_name: str, language: str | None) -> UserRow:
        """The storage player of a Telegram user, made on first contact."""
        row = await self.store.user(tg_id)
        if row is not None:
            self._lobby_names[tg_id] = html.escape(row.name)
            return row
        try:
            name = p.clean_name(first_name)
        except p.ProtocolError:
            name = f"Player {tg_id % 10000}"
        player, token = await self.service.storage.create_player(name)
        row = UserRow(tg_id, player.id, token, player.name, lang_of(language))
        await self.store.save_user(row)
        self._lobby_names[tg_id] = html.escape(row.name)
        return row

    # ------------------------------------------------------------ clients

    async def _new_client(self, rt: ChatRuntime, uid: int, user: UserRow) -> Client:
        client = Client(send_json=_nothing, name=user.name)

        async def send(message: dict[str, Any]) -> None:
            await self._on_message(rt, uid, client, message)

        client.send_json = send
        await self.call(client, p.Hello(token=user.token))
        return client

    async def call(self, client: Client, message: p.Message) -> list[dict[str, Any]]:
        """Hand one message to the room service; what it sent this client meanwhile."""
        lock = self._locks.setdefault(client, asyncio.Lock())
        async with lock:
            box: list[dict[str, Any]] = []
            self._capture[client] = box
            try:
                await self.service.handle(client, message)
            finally:
                self._capture.pop(client, None)
        return box

    async def _on_message(
        self, rt: ChatRuntime, uid: int, client: Client, message: dict[str, Any]
    ) -> None:
        box = self._capture.get(client)
        if box is not None:
            box.append(message)
        kind = message.get("type")
        if kind == "state":
            if uid == OBSERVER_ID:
                self._observed(rt)
            elif message.get("view") is not None:
                rt.views[uid] = message["view"]
                rt.versions[uid] = int(message["version"])
                board = rt.dms.get(uid)
                if board is not None:
                    board.touch()
                elif not message["view"].get("revealed"):
                    rt.revealing.discard(uid)  # a later reveal is sent again
                elif uid not in rt.revealing:
                    # A challenger who pressed the group's «Bluff!» (or chose it inline)
                    # has no hand message yet: the hand she was shown goes to her.
                    rt.revealing.add(uid)
                    task = asyncio.create_task(self._reveal(rt, uid))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
        elif kind == "notice" and uid == OBSERVER_ID:
            # the room service's notices are data: a code and its arguments
            if message["code"] == "timed_out":
                args = message["args"]
                key = "auto_on" if args["auto"] else "timed_out"
                rt.notes.append(t(rt.state.lang, key, name=html.escape(args["name"])))
            rt.board.touch()

    def _observed(self, rt: ChatRuntime) -> None:
        """The observer saw a change: refresh the board; deal or finish when it is time."""
        rt.board.touch()
        table = self.service.tables.get(rt.state.table or "")
        if table is None or table.game is None:
            return
        game = table.game
        if game.match_over and not rt.finishing:
            rt.finishing = True
            rt.finish_task = asyncio.create_task(self._finish(rt, table))
        elif game.hand_over and (rt.deal_task is None or rt.deal_task.done()):
            rt.deal_task = asyncio.create_task(self._auto_deal(rt, table, table.version))

    async def _attach(self, rt: ChatRuntime, table: Table) -> None:
        """Give every person seated at the table, and the observer, a client there."""
        for info in table.seats:
            if info is None or info.player_id is None:
                continue
            user = await self.store.user_by_player(info.player_id)
            if user is None:
                continue
            client = await self._new_client(rt, user.tg_id, user)
            rt.clients[user.tg_id] = client
            rt.uid_of[user.player_id] = user.tg_id
            await self.call(client, p.Join(table=table.code))
        for uid_text, message_id in rt.state.dms.items():
            if int(uid_text) in rt.clients:
                self._dm_board(rt, int(uid_text), message_id)
        await self._watch(rt, table.code)

    async def _watch(self, rt: ChatRuntime, code: str) -> None:
        assert self._observer is not None
        if rt.observer is None:
            rt.observer = await self._new_client(rt, OBSERVER_ID, self._observer)
        await self.call(rt.observer, p.Watch(table=code))

    def _drop_clients(self, rt: ChatRuntime) -> None:
        for client in [*rt.clients.values(), *([rt.observer] if rt.observer else [])]:
            client.table = None
            self.service.clients.discard(client)
            self._locks.pop(client, None)
        rt.clients.clear()
        rt.observer = None
        rt.uid_of.clear()

    # ------------------------------------------------------------ the lobby

    async def register(self, rt: ChatRuntime, user: UserRow) -> str | None:
        """``/start`` or «Join»: the reply, or None when the lobby board shows it."""
        state, lang = rt.state, rt.state.lang
        async with rt.lock:
            name = html.escape(user.name)
            if user.tg_id in state.players:
                return t(lang, "already", name=name)
            if len(state.players) + state.bots >= MAX_PLAYERS:
                return t(lang, "full")
            state.players.append(user.tg_id)
            state.revision += 1
            await self.store.save_chat(state)
            if self._playing(rt) is not None:
                return t(lang, "next_game", name=name)
        rt.board.touch()
        return None

    async def leave(self, rt: ChatRuntime, user: UserRow) -> str:
        state, lang = rt.state, rt.state.lang
        async with rt.lock:
            name = html.escape(user.name)
            client = rt.clients.pop(user.tg_id, None)
            if user.tg_id not in state.players and client is None:
                return t(lang, "not_registered")
            if user.tg_id in state.players:
                state.players.remove(user.tg_id)
            state.revision += 1
            reply = t(lang, "left", name=name)
            if client is not None:
                await self.call(client, p.Leave())
                self.service.clients.discard(client)
                reply = t(lang, "left_bot", name=name)
                board = rt.dms.pop(user.tg_id, None)
                if board is not None:
                    board.close()
                state.dms.pop(str(user.tg_id), None)
            await self.store.save_chat(state)
        rt.board.touch()
        return reply

    async def add_bot(self, rt: ChatRuntime, delta: int) -> str:
        state, lang = rt.state, rt.state.lang
        async with rt.lock:
            if delta > 0 and len(state.players) + state.bots >= MAX_PLAYERS:
                return t(lang, "full")
            if delta < 0 and state.bots == 0:
                return t(lang, "no_bots")
            state.bots += delta
            state.revision += 1
            await self.store.save_chat(state)
            count = len(state.players) + state.bots
        rt.board.touch()
        return t(lang, "bot_added" if delta > 0 else "bot_removed", count=count)

    def rules_of(self, state: ChatState) -> RuleSet:
        return RuleSet.from_json({"preset": "telegram", **self.options.rules, **state.rules})

    def seated(self, rt: ChatRuntime, uid: int) -> bool:
        """Whether the Telegram user holds a seat in the chat's running game."""
        table = self._playing(rt)
        client = rt.clients.get(uid)
        return (
            table is not None
            and client is not None
            and table.engine_seat(client.player_id) is not None
        )

    def _playing(self, rt: ChatRuntime) -> Table | None:
        table = self.service.tables.get(rt.state.table or "")
        if table is None or table.game is None or table.game.match_over:
            return None
        return table

    async def begin(
        self, rt: ChatRuntime, uid: int | None = None, admin: bool = False
    ) -> str | None:
        """``/begin``: a table at the room service, its players seated, the match started.
        ``uid``: who asks (a registered player or an admin of the chat may deal)."""
        state, lang = rt.state, rt.state.lang
        async with rt.lock:
            if self._playing(rt) is not None:
                return t(lang, "playing")
            if not state.players:
                return t(lang, "no_humans")
            if uid is not None and uid not in state.players and not admin:
                return t(lang, "deal_refused")
            if len(state.players) + state.bots < 2:
                return t(lang, "too_few")
            old = self.service.tables.get(state.table or "")
            if old is not None:
                await self.service.close_table(old)
            self._drop_clients(rt)
            users = [await self.store.user(uid) for uid in state.players]
            people = [u for u in users if u is not None]
            for user in people:
                rt.clients[user.tg_id] = await self._new_client(rt, user.tg_id, user)
                rt.uid_of[user.player_id] = user.tg_id
            # Telegram gives the names, and two people of a group may share one: the room
            # service seats no two that look alike, so the later ones sit as «Аня 2».
            assert self._observer is not None
            clients = [rt.clients[user.tg_id] for user in people]
            names = distinct_names([c.name for c in clients], taken=[self._observer.name])
            for client, name in zip(clients, names, strict=True):
                client.name = name
            host = clients[0]
            create = p.Create(
                rules=self.rules_of(state).to_json(),
                seats=len(people) + state.bots,
                bots=state.bots,
                bot=self.bot_spec(state),
                timer=self.options.turn_timer,
                public=False,
                name="Telegram",
            )
            answers = await self.call(host, create)
            code = next((m["table"] for m in answers if m["type"] == "joined"), None)
            if code is None:
                self._drop_clients(rt)
                return _error_text(lang, answers)
            for client in clients[1:]:
                refused = [
                    m for m in await self.call(client, p.Join(table=code)) if m["type"] == "error"
                ]
                if refused:  # nobody who registered is left out of the game without a word
                    table = self.service.tables.get(code)
                    if table is not None:
                        await self.service.close_table(table)
                    self._drop_clients(rt)
                    return _error_text(lang, refused)
            state.table, state.dms = code, {}
            rt.seen, rt.lines, rt.notes, rt.turn_key, rt.backlog = 0, [], [], None, []
            state.announced = 0
            rt.armed.clear()
            rt.views.clear()
            rt.versions.clear()
            rt.dm_keys.clear()
            rt.picks.clear()
            rt.finishing = False
            await self._watch(rt, code)
            answers = await self.call(host, p.Start())
            errors = [m for m in answers if m["type"] == "error"]
            if errors:
                table = self.service.tables.get(code)
                if table is not None:
                    await self.service.close_table(table)
                self._drop_clients(rt)
                state.table = None
                await self.store.save_chat(state)
                return _error_text(lang, errors)
            table = self.service.tables.get(code)
            state.game = table.game_id if table is not None else None
            state.revision += 1
            rt.want_new = True
            await self.store.save_chat(state)
        rt.board.touch()
        return None

    async def stop(self, rt: ChatRuntime, user: UserRow, admin: bool = False) -> str:
        """``/stop``: only a player of the running game, or an admin of the chat."""
        state, lang = rt.state, rt.state.lang
        async with rt.lock:
            table = self._playing(rt)
            if table is None:
                return t(lang, "no_game")
            if not (self.seated(rt, user.tg_id) or admin):
                return t(lang, "stop_refused")
            game = table.game
            assert game is not None
            if table.game_id is not None:
                await self.service.storage.finish_game(table.game_id, {"ended": "stopped"})
            state.last_scores = list(zip(game.names, game.scores, strict=False))
            await self._close(rt, table)
        lines = [t(lang, "stopped", name=html.escape(user.name)), self.score_text(rt)]
        return "\n".join(lines)

    async def _close(self, rt: ChatRuntime, table: Table) -> None:
        """Close the table and go back to the lobby (the caller holds the chat's lock)."""
        rt.board.touch()
        await rt.board.idle()
        over = t(rt.state.lang, "dm_over" if table.game and table.game.match_over else "dm_stopped")
        for board in rt.dms.values():
            await board.idle()
            board.close()
            # No «Your turn» and no buttons left under a game that is over.
            with contextlib.suppress(TelegramAPIError):
                await board.bucket.take()
                await board.show(Render(over, None))
        rt.dms.clear()
        real = self.service.tables.get(table.code)  # not the ghost of a match told late
        if real is not None:
            await self.service.close_table(real)
        self._drop_clients(rt)
        if rt.deal_task:
            rt.deal_task.cancel()
        rt.ghost, rt.backlog = None, []
        rt.revealing.clear()
        rt.state.table, rt.state.board, rt.state.dms, rt.state.game = None, None, {}, None
        rt.board.message_id = None
        rt.state.revision += 1
        await self.store.save_chat(rt.state)

    async def _finish(self, rt: ChatRuntime, table: Table) -> None:
        """The match is over: show it, keep the scores, close the table."""
        async with rt.lock:
            game = table.game
            if game is None or rt.state.table != table.code:
                return
            rt.state.last_scores = list(zip(game.names, game.scores, strict=False))
            await self._close(rt, table)

    async def _auto_deal(self, rt: ChatRuntime, table: Table, version: int) -> None:
        await asyncio.sleep(self.options.deal_delay)
        game = table.game
        if game is None or not game.hand_over or game.match_over or table.version != version:
            return
        for client in list(rt.clients.values()):
            if table.engine_seat(client.player_id) is not None:
                await self.call(client, p.Start())
                return

    # ------------------------------------------------------------ settings

    async def toggle(self, rt: ChatRuntime, key: str) -> str | None:
        """A settings button; an error text, or None when done. ``key`` is ``name=value``
        (the value the button sets, so a press after someone else's never undoes it), or a
        bare name (an older button: the switch flips)."""
        state = rt.state
        name, _, wanted = key.partition("=")
        async with rt.lock:
            if name == "inl":
                state.inline = wanted == "1" if wanted in ("0", "1") else not state.inline
            elif name == "lvl":  # by index: callback data may hold no ':'
                if not (wanted.isdigit() and int(wanted) < len(BOT_LEVELS)):
                    return t(state.lang, "unknown_button")
                state.bot = BOT_LEVELS[int(wanted)]
            elif name == "lang":
                if wanted in LANGS:
                    state.lang = wanted
                else:
                    state.lang = LANGS[(LANGS.index(state.lang) + 1) % len(LANGS)]
            else:
                if self._playing(rt) is not None:
                    return t(state.lang, "settings_locked")
                rules = self.rules_of(state)
                change: dict[str, Any]
                if name == "tgt":
                    if wanted.isdigit() and int(wanted) in TARGETS:
                        change = {"target": int(wanted)}
                    else:
                        index = TARGETS.index(rules.target) if rules.target in TARGETS else -1
                        change = {"target": TARGETS[(index + 1) % len(TARGETS)]}
                elif name in TOGGLES:
                    switch, values = TOGGLES[name]
                    if wanted in ("0", "1"):
                        change = {switch: values[int(wanted)]}
                    else:
                        now = getattr(rules, switch)
                        change = {switch: values[1] if now == values[0] else values[0]}
                else:
                    return t(state.lang, "unknown_button")
                try:
                    self.rules_of(ChatState(state.chat_id, rules=state.rules | change))
                except UnaError:  # in the chat's language, not the engine's sentence
                    return t(state.lang, "err_bad_rules")
                state.rules = state.rules | change
            state.revision += 1
            await self.store.save_chat(state)
        rt.board.touch()
        return None

    def settings_markup(self, rt: ChatRuntime) -> InlineKeyboardMarkup:
        state, lang = rt.state, rt.state.lang
        rules = self.rules_of(state)

        def flag(on: bool) -> str:
            return "✅" if on else "☑️"

        def opt(text: str, key: str) -> list[InlineKeyboardButton]:
            data = Opt(c=state.chat_id, v=state.revision, k=key).pack()
            return [InlineKeyboardButton(text=text, callback_data=data)]

        def other(key: str) -> str:
            # The button sets the other value: its data says which.
            switch, values = TOGGLES[key]
            return f"{key}={1 - values.index(getattr(rules, switch))}"

        index = TARGETS.index(rules.target) if rules.target in TARGETS else -1
        next_lang = LANGS[(LANGS.index(lang) + 1) % len(LANGS)]
        spec = self.bot_spec(state)
        level = BOT_LEVELS.index(spec) if spec in BOT_LEVELS else -1
        next_level = (level + 1) % len(BOT_LEVELS)
        rows = [
            opt(t(lang, f"mode_{rules.finish}"), other("fin")),
            opt(t(lang, f"mode_uno_{rules.uno_call}"), other("uno")),
            opt(f"{flag(rules.jump_in)} {t(lang, 'mode_jump_in')}", other("jump")),
            opt(f"{flag(rules.seven_zero)} {t(lang, 'mode_seven_zero')}", other("sz")),
            opt(f"{flag(rules.stack_draw_two)} {t(lang, 'mode_stack')}", other("stack")),
            opt(
                t(lang, "mode_target", n=rules.target), f"tgt={TARGETS[(index + 1) % len(TARGETS)]}"
            ),
            opt(f"{flag(state.inline)} {t(lang, 'mode_inline')}", f"inl={int(not state.inline)}"),
            opt(t(lang, "mode_bot", level=self.bot_level_text(state)), f"lvl={next_level}"),
            opt(t(lang, "mode_lang"), f"lang={next_lang}"),
        ]
        return InlineKeyboardMarkup(inline_keyboard=rows)

    def bot_spec(self, state: ChatState) -> str:
        """The spec the chat's computer players are made from: its /settings level, else
        the bridge's ``bot_kind``."""
        return state.bot if state.bot in BOT_LEVELS else self.options.bot_kind

    def bot_level_text(self, state: ChatState) -> str:
        spec = self.bot_spec(state)
        return t(state.lang, f"bot_{spec}") if spec in BOT_LEVELS else spec

    def settings_text(self, rt: ChatRuntime) -> str:
        return t(rt.state.lang, "settings_title") + "\n" + self.modes_text(rt)

    def modes_text(self, rt: ChatRuntime) -> str:
        lang = rt.state.lang
        rules = self.rules_of(rt.state)
        on, off = t(lang, "on"), t(lang, "off")
        parts = [
            t(lang, f"mode_{rules.finish}"),
            t(lang, f"mode_uno_{rules.uno_call}"),
            f"{t(lang, 'mode_jump_in')}: {on if rules.jump_in else off}",
            f"{t(lang, 'mode_seven_zero')}: {on if rules.seven_zero else off}",
            f"{t(lang, 'mode_stack')}: {on if rules.stack_draw_two else off}",
            t(lang, "mode_target", n=rules.target),
            f"{t(lang, 'mode_inline')}: {on if rt.state.inline else off}",
            t(lang, "mode_bot", level=self.bot_level_text(rt.state)),
        ]
        return "; ".join(parts)

    def score_text(self, rt: ChatRuntime) -> str:
        lang = rt.state.lang
        table = self._playing(rt)
        if table is not None and table.game is not None:
            pairs = list(zip(self._names(table), table.game.scores, strict=False))
        else:
            pairs = [(html.escape(n), s) for n, s in rt.state.last_scores]
        if not pairs:
            return t(lang, "score_none")
        ranked = sorted(pairs, key=lambda item: -item[1])
        return f"<b>{t(lang, 'scores')}</b>\n" + "\n".join(f"{n}: {s}" for n, s in ranked)

    # ------------------------------------------------------------ playing

    async def press(self, rt: ChatRuntime, uid: int, data: Act) -> str | None:
        """A game button: None when applied, else the answer to show.

        A button is refused only when what it asks is no longer possible: a press made
        after others acted (the version moved) still counts when its action is legal now.
        """
        lang = rt.state.lang
        table = self.service.tables.get(data.t)
        if table is None or table.game is None or rt.state.table != data.t:
            return t(lang, "stale")
        client = rt.clients.get(uid)
        seat = table.engine_seat(client.player_id) if client is not None else None
        if client is None or seat is None:
            return t(lang, "not_player")
        try:
            action = Action.parse(data.a)
        except UnaError:
            return t(lang, "unknown_button")
        if action.kind is Kind.UNO:
            return await self._uno_button(rt, uid, table, seat)
        if uid in rt.armed and action.card is not None and not action.uno:
            called = Action.play(action.card, action.color, action.targets, uno=True)
            if table.game.is_legal(seat, called) and len(table.game.hands[seat]) == 2:
                action = called
        rt.picks.pop(uid, None)
        for _ in range(3):
            game = table.game
            if game is None:
                return t(lang, "stale")
            refusal = game.why_illegal(seat, action)
            if refusal is not None:
                if data.v != table.version:
                    return t(lang, "stale")
                return t(lang, "error", message=refusal_text(refusal, self._names(table), lang))
            answers = await self.call(client, p.Act(action=action.code, version=table.version))
            errors = [m for m in answers if m["type"] == "error"]
            if not errors:
                if action.kind is Kind.PLAY:
                    rt.armed.discard(uid)
                return None
            if errors[0].get("code") != "stale":
                return _error_text(lang, errors, escape=False, names=self._names(table))
            # Another action came in between: judge the press again on the new state.
        return t(lang, "stale")

    async def _uno_button(self, rt: ChatRuntime, uid: int, table: Table, seat: int) -> str | None:
        """«📢 Uno» on her hand: with two cards on her turn it goes with her next card; with
        one card owed, it is the call itself (sent like a typed «уно»)."""
        game = table.game
        assert game is not None
        lang = rt.state.lang
        if game.owes_uno[seat] and len(game.hands[seat]) == 1:
            await self.uno(rt, uid)
            return None
        if len(game.hands[seat]) == 2:
            if uid in rt.armed:
                rt.armed.discard(uid)
            else:
                rt.armed.add(uid)
            board = rt.dms.get(uid)
            if board is not None:
                board.touch()
            return t(lang, "uno_armed") if uid in rt.armed else None
        return t(lang, "stale")

    async def pick(self, rt: ChatRuntime, uid: int, data: Pick) -> str | None:
        table = self.service.tables.get(data.t)
        if table is None or rt.state.table != data.t:
            return t(rt.state.lang, "stale")
        if data.c:
            rt.picks[uid] = data.c
        else:
            rt.picks.pop(uid, None)
        board = rt.dms.get(uid)
        if board is not None:
            board.touch()
        return None

    async def uno(self, rt: ChatRuntime, uid: int) -> None:
        """A chat message that starts with uno / уно / una (or «📢 Uno» after the play): the
        room service's UNO call, only when it changes something (a call owed, or a false
        call the rules punish): any other «уно» is silent and moves no version, so no
        button goes stale."""
        client = rt.clients.get(uid)
        table = self._playing(rt)
        if client is None or table is None or table.game is None:
            return
        game = table.game
        seat = table.engine_seat(client.player_id)
        if seat is None or not game.active[seat] or game.hand_over:
            return
        owed = game.owes_uno[seat] and len(game.hands[seat]) == 1
        false_call = game.rules.false_uno_penalty and len(game.hands[seat]) > 1
        if not (owed or (false_call and not game.false_uno[seat])):
            return
        # The verb, not her words: as chat, only lines that begin with «una» or «уно» call
        # (BYOND's rule), and «uno» or a leading space would be said instead.
        await self.call(client, p.Chat(text="/una"))

    def hand_alert(self, rt: ChatRuntime, uid: int) -> str | None:
        view = rt.views.get(uid)
        if view is None or view.get("hand") is None:
            return None
        cards = " · ".join(card_label(Card.parse(c)) for c in view["hand"])
        return t(rt.state.lang, "alert_hand", cards=cards)

    async def show_hand(self, rt: ChatRuntime, uid: int, data: Show | None) -> str:
        """«My cards»: her hand in a private message with buttons. 'ok', 'stale', 'not_player'
        or 'no_dm' (the bot may not write to her: she must open the private chat first)."""
        table = self._playing(rt)
        if table is None or (data is not None and data.t != table.code):
            return "stale"
        client = rt.clients.get(uid)
        if client is None or table.engine_seat(client.player_id) is None:
            return "not_player"
        if uid not in rt.views:
            await self.call(client, p.Resume(table=table.code, version=-1, epoch=""))
        board = self._dm_board(rt, uid, rt.state.dms.get(str(uid)))
        rt.picks.pop(uid, None)
        render = self._render_dm(rt, uid, force_new=True)
        if render is None or not await board.show(render):
            board.close()
            rt.dms.pop(uid, None)
            return "no_dm"
        return "ok"

    async def _reveal(self, rt: ChatRuntime, uid: int) -> None:
        """Her hand message, opened for a revealed hand (``challenge_reveal``); when the
        bot may not write to her, the group is told to open the private chat."""
        if uid in rt.dms or self._playing(rt) is None:
            return
        board = self._dm_board(rt, uid, rt.state.dms.get(str(uid)))
        render = self._render_dm(rt, uid, force_new=True)
        if render is not None and await board.show(render):
            return
        board.close()
        rt.dms.pop(uid, None)
        name = self._lobby_names.get(uid, str(uid))
        rt.notes.append(t(rt.state.lang, "reveal_no_dm", name=name, bot=await self.username()))
        rt.board.touch()

    def _dm_board(self, rt: ChatRuntime, uid: int, message_id: int | None) -> Board:
        board = rt.dms.get(uid)
        if board is not None:
            return board
        bucket = Bucket(
            self.options.dm_per_minute, self.options.dm_burst, self.options.flood_window
        )

        async def on_new(new_id: int) -> None:
            rt.state.dms[str(uid)] = new_id
            await self.store.save_chat(rt.state)

        board = Board(
            self.bot, uid, bucket, lambda: self._render_dm(rt, uid), on_new,
            message_id=message_id, delete_old=True,
        )  # fmt: skip
        rt.dms[uid] = board
        return board

    # ------------------------------------------------------------ inline mode

    def _game_of(self, uid: int) -> tuple[ChatRuntime, Table, int] | None:
        """The running game where the Telegram user holds a seat (inline queries name no
        chat): the one where she is to act first, else any."""
        found: list[tuple[ChatRuntime, Table, int]] = []
        for rt in self.chats.values():
            table = self._playing(rt)
            client = rt.clients.get(uid)
            if table is None or client is None:
                continue
            seat = table.engine_seat(client.player_id)
            if seat is not None:
                found.append((rt, table, seat))
        found.sort(key=lambda item: item[1].game is None or item[1].game.to_act != item[2])
        return found[0] if found else None

    async def inline_query(self, query: InlineQuery) -> None:
        """``@bot`` typed in the group: her legal moves as results (cards as pictures when
        ``card_url`` serves them); the one she picks is played (:meth:`inline_chosen`)."""
        found = self._game_of(query.from_user.id)
        if found is None:
            lang = lang_of(query.from_user.language_code)
            none = InlineQueryResultsButton(text=t(lang, "inline_none"), start_parameter="help")
            await query.answer([], cache_time=0, is_personal=True, button=none)
            return
        rt, table, seat = found
        lang = rt.state.lang
        results = self._inline_results(rt, table, seat)
        button: InlineQueryResultsButton | None = None
        if not results:
            game = table.game
            assert game is not None
            names = self._names(table)
            waiting = names[game.to_act] if game.to_act is not None else "…"
            text = t(lang, "inline_wait", name=html.unescape(waiting))
            button = InlineQueryResultsButton(text=text, start_parameter=f"g{rt.state.chat_id}")
        await query.answer([*results[:50]], cache_time=0, is_personal=True, button=button)

    def _inline_results(self, rt: ChatRuntime, table: Table, seat: int) -> list[InlineResult]:
        game = table.game
        assert game is not None
        lang = rt.state.lang
        names = self._names(table)
        legal = game.legal_actions(seat)
        two_left = len(game.hands[seat]) == 2
        hand = " · ".join(card_label(c) for c in game.hands[seat])
        results: list[InlineResult] = []
        # With two cards, the plays that call «Uno» come first: the call goes with the card.
        ordered = sorted(legal, key=lambda a: not (two_left and a.uno))
        for action in ordered:
            if action.uno and not two_left:
                continue
            rid = f"{table.code}:{table.version}:{action.code}"
            if not fits(rid):
                continue
            title = self._action_title(action, names, lang, game.pending_draw)
            if action.kind is Kind.PLAY and action.card is not None and self.options.card_url:
                url = f"{self.options.card_url.rstrip('/')}/{action.card.code}.jpg"
                results.append(
                    InlineQueryResultPhoto(
                        id=rid, photo_url=url, thumbnail_url=url, title=title,
                        description=hand, caption=title, photo_width=WIDTH, photo_height=HEIGHT,
                    )
                )  # fmt: skip
            else:
                content = InputTextMessageContent(message_text=title)
                results.append(
                    InlineQueryResultArticle(
                        id=rid, title=title, description=hand, input_message_content=content
                    )
                )
        return results

    def _action_title(self, action: Action, names: list[str], lang: str, pending: int) -> str:
        """A move as the group reads it when she picks it: «🟥 7», «🌈 → 🟦», «📥 Взять»."""
        kind = action.kind
        if kind is Kind.PLAY and action.card is not None:
            text = card_label(action.card)
            if action.color is not None:
                text += " → " + COLOR_EMOJI[action.color.value]
            if action.targets:
                text += " " + t(lang, "btn_swap", name=html.unescape(names[action.targets[0]]))
            if action.uno:
                text += " " + t(lang, "btn_uno")
            return text
        if kind is Kind.DRAW:
            return t(lang, "btn_take", n=pending) if pending else t(lang, "btn_draw")
        if kind is Kind.PASS:
            return t(lang, "btn_pass")
        if kind is Kind.CHALLENGE:
            return t(lang, "btn_bluff")
        if kind is Kind.UNO:
            return t(lang, "btn_uno")
        if kind is Kind.CATCH:
            return t(lang, "btn_catch", name=html.unescape(names[action.targets[0]]))
        if kind is Kind.COLOR and action.color is not None:
            return color_label(action.color, lang)
        return action.code

    async def inline_chosen(self, chosen: ChosenInlineResult) -> None:
        """She picked a result (Telegram's inline feedback): play it like a button press; a
        refusal is told in the group's message."""
        code, _, rest = chosen.result_id.partition(":")
        version, _, action = rest.partition(":")
        rt = self.runtime_of_table(code)
        if rt is None or not version.isdigit():
            return
        uid = chosen.from_user.id
        answer = await self.press(rt, uid, Act(t=code, v=int(version), a=action))
        if answer:
            name = self._lobby_names.get(uid) or html.escape(chosen.from_user.first_name)
            rt.notes.append(f"{name}: {html.escape(answer)}")
            rt.board.touch()

    async def username(self) -> str:
        if self._username is None:
            me = await self.bot.me()
            self._username = me.username or ""
        return self._username

    # ------------------------------------------------------------ rendering

    def _names(self, table: Table) -> list[str]:
        """Display names of the game's players (HTML-escaped): the computer players the
        table seated as 🤖 1, 🤖 2... in their order (one standing in for a person who left
        keeps her name)."""
        game = table.game
        assert game is not None
        rt = self.runtime_of_table(table.code)
        lang = rt.state.lang if rt else "en"
        names: list[str] = []
        bots = 0
        for seat, name in enumerate(game.names):
            info = table.seat_info(seat)
            if info.bot is not None and not info.stand_in:
                bots += 1
                names.append(t(lang, "bot_name", n=bots))
            else:
                names.append(html.escape(name))
        return names

    def _mention(self, rt: ChatRuntime, table: Table, seat: int, names: list[str]) -> str:
        info = table.seat_info(seat)
        uid = rt.uid_of.get(info.player_id or -1)
        if uid is None or info.automatic:
            return names[seat]
        return f'<a href="tg://user?id={uid}">{names[seat]}</a>'

    def _render_group(self, rt: ChatRuntime) -> Render | None:
        table = rt.ghost or self.service.tables.get(rt.state.table or "")
        if table is None or table.game is None:
            return self._render_lobby(rt)
        if self._gap(rt, table):
            # Versions the service's history no longer holds (a long flood wait): read
            # them from the record first, then render (nothing is skipped).
            if rt.filling is None or rt.filling.done():
                rt.filling = asyncio.create_task(self._fill(rt, table))
            return None
        game = table.game
        lang = rt.state.lang
        names = self._names(table)
        to_the_last = game.rules.finish == "to_the_last"
        most = MAX_LINES_INLINE if rt.state.inline else MAX_LINES
        # Whole versions, oldest first, while they fit one message (at least one version).
        fresh: list[str] = []
        upto = rt.seen
        behind = False
        for version, events in self._events_since(rt, table):
            lines = [describe(e.visible_to(None), names, lang, to_the_last) for e in events]
            if fresh and len(fresh) + len(lines) > most:
                behind = True
                break
            fresh.extend(lines)
            upto = version
        notes = [] if behind else list(rt.notes)
        fresh.extend(notes)
        view = game.view_for(None)
        if view.match_over:
            key: tuple[Any, ...] = ("match", table.code)
        elif view.hand_over:
            key = ("hand", table.code, view.hand_number)
        else:
            assert view.to_act is not None
            key = ("turn", table.code, view.hand_number, view.to_act)
        # A new message when a person's turn comes (a mention notifies her); in the inline
        # mode only when a hand starts or ends: one live message per hand.
        if rt.state.inline:
            notable = rt.turn_key is None or _span(key) != _span(rt.turn_key)
        else:
            notable = key[0] != "turn" or not table.seat_info(key[3]).automatic
        new = (
            rt.want_new
            or rt.board.message_id is None
            or (key != rt.turn_key and notable)
            or len(rt.lines) + len(fresh) > most
        )
        shown_lines = fresh if new else rt.lines + fresh

        async def shown() -> None:
            # Delivered: only now are these lines announced (a 429 renders them again).
            rt.seen = max(rt.seen, upto)
            rt.lines = shown_lines
            rt.turn_key = key
            rt.want_new = False
            del rt.notes[: len(notes)]
            if rt.state.announced != rt.seen:
                rt.state.announced = rt.seen
                await self.store.save_chat(rt.state)
            if behind:
                rt.board.touch()

        parts = [f"<b>🃏 {t(lang, 'hand', n=view.hand_number)}</b>", *shown_lines, ""]
        color = f" ({t(lang, 'color_now')} {color_label(view.color, lang)})" if view.color else ""
        deck = t(lang, "deck", n=view.draw_pile)
        parts.append(f"{t(lang, 'top')}: {card_label(view.top)}{color} · {deck}")
        if view.pending_draw:
            parts.append("⚠️ " + t(lang, "pending", n=view.pending_draw))
        arrow = "➡️" if view.direction == 1 else "⬅️"
        players = []
        for seat in view.seating or range(len(names)):
            mark = "👉 " if seat == view.to_act else ""
            extra = ""
            if seat in view.uno_called:
                extra = f" 📢 {t(lang, 'uno_mark')}"
            if seat in view.out:
                extra = f" ({t(lang, 'out_mark')})"
            players.append(f"{mark}{names[seat]} {view.hand_counts[seat]}{extra}")
        parts.append(f"{arrow} " + " · ".join(players))
        scores = " · ".join(f"{n} {s}" for n, s in zip(names, view.scores, strict=False))
        parts.append(f"{t(lang, 'scores')}: {scores}")
        rows: list[list[InlineKeyboardButton]] = []
        v = table.version
        if view.match_over:
            assert view.match_winner is not None
            parts.append(t(lang, "final", name=names[view.match_winner]))
            parts.append(t(lang, "new_game_hint"))
        elif view.hand_over:
            parts.append(t(lang, "dealing_soon"))
            rows.append([_button(t(lang, "btn_next"), Act(t=table.code, v=v, a="deal"))])
        else:
            assert view.to_act is not None
            turn = self._mention(rt, table, view.to_act, names) if new else names[view.to_act]
            timer = " · " + t(lang, "timer_short", n=table.timer) if table.timer else ""
            parts.append(f"<b>{t(lang, 'turn')}</b>: {turn}{timer}")
            rows.append([_button(t(lang, "btn_show"), Show(t=table.code, v=v))])
            if any(a.kind is Kind.CHALLENGE for a in game.legal_actions(view.to_act)):
                rows.append([_button(t(lang, "btn_bluff"), Act(t=table.code, v=v, a="challenge"))])
            for seat in view.catchable:
                label = t(lang, "btn_catch", name=html.unescape(names[seat]))
                rows.append([_button(label, Act(t=table.code, v=v, a=f"catch @{seat}"))])
        markup = InlineKeyboardMarkup(inline_keyboard=rows) if rows else None
        return Render(_clip("\n".join(parts)), markup, new=new, shown=shown)

    def _gap(self, rt: ChatRuntime, table: Table) -> bool:
        """Whether versions after ``seen`` are neither in the service's history nor in the
        backlog (the history keeps the last ``HISTORY`` versions only)."""
        if not table.history or table.history[0][0] <= rt.seen + 1:
            return False
        have = {version for version, _ in rt.backlog}
        first = max(rt.seen + 1, table.version_base)  # the match's first version
        return any(v not in have for v in range(first, table.history[0][0]))

    async def _fill(self, rt: ChatRuntime, table: Table) -> None:
        try:
            rt.backlog = await self._backlog(table, rt.seen)
        finally:
            rt.board.touch()

    async def _ended(self, table: Table, game_id: int | None) -> Table | None:
        """The table as its finished match ``game_id`` left it (a copy, not the service's):
        the game replayed from its stored record; None if it is not a finished game."""
        if game_id is None:
            return None
        row = await self.service.storage.game(game_id)
        if row is None or not row.finished:
            return None
        try:
            game = Record.from_json(row.to_record()).replay()
        except Exception:  # an unreadable record: nothing to tell
            log.exception("the record of game %s cannot be replayed", game_id)
            return None
        if not game.match_over or len(table.game_seats) != game.n:
            return None
        ghost = Table.from_config(table.code, table.host_id, table.config())
        ghost.game, ghost.game_id = game, game_id
        ghost.version = ghost.version_base + len(game.log)
        return ghost

    def _events_since(self, rt: ChatRuntime, table: Table) -> list[tuple[int, list[Event]]]:
        """The table's events not yet announced, by version: the service's recent history,
        and before it what a restart replayed from the record (``backlog``)."""
        merged = {version: events for version, events in rt.backlog if version > rt.seen}
        merged.update((version, events) for version, events in table.history if version > rt.seen)
        return sorted(merged.items(), key=lambda item: item[0])

    async def _backlog(self, table: Table, after: int) -> list[tuple[int, list[Event]]]:
        """Every version after ``after`` with its events, replayed from the stored record
        (a restored table's history starts empty)."""
        if table.game_id is None:
            return []
        record = Record.from_json(await self.service.storage.record(table.game_id))
        game = record.new_game()
        out = [(table.version_base, list(game.start_events))]
        for index, (actor, code) in enumerate(record.actions):
            out.append((table.version_base + index + 1, game.apply(actor, code)))
        return [(version, events) for version, events in out if version > after]

    def _render_lobby(self, rt: ChatRuntime) -> Render | None:
        state, lang = rt.state, rt.state.lang
        if not state.players and not state.bots and rt.board.message_id is None:
            return None
        names: list[str] = []
        for uid in state.players:
            names.append(self._lobby_names.get(uid, str(uid)))
        names.extend(t(lang, "bot_name", n=i + 1) for i in range(state.bots))
        who = ", ".join(names) if names else t(lang, "lobby_none")
        text = "\n".join([
            t(lang, "lobby_title"),
            f"{t(lang, 'lobby_players')} ({len(names)}): {who}",
            self.modes_text(rt),
            t(lang, "lobby_hint"),
        ])  # fmt: skip
        c, v = state.chat_id, state.revision
        rows = [[
            _button(t(lang, "btn_join"), Opt(c=c, v=v, k="join")),
            _button(t(lang, "btn_bot"), Opt(c=c, v=v, k="bot")),
            _button(t(lang, "btn_begin"), Opt(c=c, v=v, k="begin")),
        ]]  # fmt: skip
        new = rt.want_new or rt.board.message_id is None
        rt.want_new = False
        return Render(text, InlineKeyboardMarkup(inline_keyboard=rows), new=new)

    def _render_dm(self, rt: ChatRuntime, uid: int, force_new: bool = False) -> Render | None:
        view = rt.views.get(uid)
        table = self.service.tables.get(rt.state.table or "")
        lang = rt.state.lang
        if view is None or view.get("hand") is None:
            return None
        if table is None or table.game is None or view["phase"] == "match_over":
            return Render(t(lang, "dm_over"), None)
        names = self._names(table)
        hand = [Card.parse(c) for c in view["hand"]]
        me = view["seat"]
        title = html.escape(rt.state.title or str(rt.state.chat_id))
        parts = [
            t(lang, "your_cards", n=len(hand)) + " — " + t(lang, "in_chat", title=title),
            " · ".join(card_label(c) for c in hand),
            "",
        ]
        color = view.get("color")
        shown_color = f" ({color_label(color, lang)})" if color else ""
        parts.append(f"{t(lang, 'top')}: {card_label(Card.parse(view['top']))}{shown_color}")
        for shown in view.get("revealed") or []:
            cards = " · ".join(card_label(Card.parse(c)) for c in shown["cards"]) or "—"
            parts.append(t(lang, "revealed", name=names[shown["seat"]], cards=cards))
        to_act = view.get("to_act")
        my_turn = to_act == me
        if view.get("drawn") and my_turn:
            parts.append(t(lang, "you_drew", card=card_label(Card.parse(view["drawn"]))))
        if my_turn:
            parts.append(t(lang, "your_turn"))
        elif to_act is not None:
            parts.append(t(lang, "not_your_turn", name=names[to_act]))
        version = rt.versions.get(uid, table.version)
        markup = self._dm_keyboard(rt, uid, view, names, table.code, version)
        key = (table.code, view["hand_number"], my_turn)
        new = force_new or (my_turn and rt.dm_keys.get(uid) != key)
        rt.dm_keys[uid] = key
        return Render(_clip("\n".join(parts)), markup, new=new)

    def _dm_keyboard(
        self,
        rt: ChatRuntime,
        uid: int,
        view: dict[str, Any],
        names: list[str],
        code: str,
        v: int,
    ) -> InlineKeyboardMarkup | None:
        lang = rt.state.lang
        everything = [Action.parse(a) for a in view["legal"]]
        legal = [a for a in everything if a.kind is not Kind.UNO and not a.uno]
        picked = rt.picks.get(uid)
        rows: list[list[InlineKeyboardButton]] = []
        options: list[Action] = []
        if picked:
            card = Card.parse(picked)
            options = [a for a in legal if a.kind is Kind.PLAY and a.card == card]
        if not options:
            # Always from the current state: a sub-keyboard whose card is gone (a swap, a
            # jump-in) gives way to the whole hand.
            rt.picks.pop(uid, None)
        else:
            row: list[InlineKeyboardButton] = []
            for action in options:
                if action.targets:
                    text = t(lang, "btn_swap", name=html.unescape(names[action.targets[0]]))
                elif action.color is not None:
                    text = COLOR_EMOJI[action.color.value]
                else:
                    text = card_label(card)
                row.append(_button(text, Act(t=code, v=v, a=action.code)))
            rows.extend(_chunks(row, 4))
            rows.append([_button(t(lang, "btn_back"), Pick(t=code, v=v, c=""))])
            return InlineKeyboardMarkup(inline_keyboard=rows)
        plays: dict[Card, list[Action]] = {}
        for action in legal:
            if action.kind is Kind.PLAY and action.card is not None:
                plays.setdefault(action.card, []).append(action)
        cards: list[InlineKeyboardButton] = []
        for card, options in plays.items():
            if len(options) == 1:
                cards.append(_button(card_label(card), Act(t=code, v=v, a=options[0].code)))
            else:
                cards.append(_button(card_label(card), Pick(t=code, v=v, c=card.code)))
        rows.extend(_chunks(cards, 4))
        colors = [a for a in legal if a.kind is Kind.COLOR and a.color is not None]
        if colors:
            buttons = [
                _button(COLOR_EMOJI[a.color.value], Act(t=code, v=v, a=a.code))  # type: ignore[union-attr]
                for a in colors
            ]
            rows.append(buttons)
        extra: list[InlineKeyboardButton] = []
        for action in legal:
            if action.kind is Kind.DRAW:
                pending = int(view.get("pending_draw") or 0)
                text = t(lang, "btn_take", n=pending) if pending else t(lang, "btn_draw")
                extra.append(_button(text, Act(t=code, v=v, a="draw")))
            elif action.kind is Kind.PASS:
                extra.append(_button(t(lang, "btn_pass"), Act(t=code, v=v, a="pass")))
            elif action.kind is Kind.CHALLENGE:
                extra.append(_button(t(lang, "btn_bluff"), Act(t=code, v=v, a="challenge")))
        if extra:
            rows.append(extra)
        hand = view.get("hand") or []
        if any(a.kind is Kind.UNO for a in everything):
            rows.append([_button(t(lang, "btn_uno"), Act(t=code, v=v, a="uno"))])
        elif len(hand) == 2 and any(a.uno for a in everything):
            label = t(lang, "btn_uno_armed" if uid in rt.armed else "btn_uno")
            rows.append([_button(label, Act(t=code, v=v, a="uno"))])
        for action in legal:
            if action.kind is Kind.CATCH:
                label = t(lang, "btn_catch", name=html.unescape(names[action.targets[0]]))
                rows.append([_button(label, Act(t=code, v=v, a=action.code))])
        return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def distinct_names(names: list[str], taken: list[str]) -> list[str]:
    """``names`` in order, each one that looks like an earlier one (or like one of
    ``taken``) given a number: ``Аня``, ``Аня 2``.

    >>> distinct_names(["Аня", "аня", "Bob", "Аня"], taken=["Telegram"])
    ['Аня', 'аня 2', 'Bob', 'Аня 3']
    """
    chosen: list[str] = []
    for name in names:
        candidate, number = name, 1
        while any(looks_alike(candidate, other) for other in [*taken, *chosen]):
            number += 1
            suffix = f" {number}"
            candidate = name[: p.MAX_NAME - len(suffix)] + suffix
        chosen.append(candidate)
    return chosen


async def _nothing(message: dict[str, Any]) -> None:
    return None


def _button(text: str, data: Act | Pick | Show | Opt) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def _span(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """What one group message covers in the inline mode: a hand (its turns and its end)."""
    return key[:2] if key[0] == "match" else ("hand", key[1], key[2])


def _chunks(items: list[InlineKeyboardButton], size: int) -> list[list[InlineKeyboardButton]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _clip(text: str, limit: int = 4000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _error_text(
    lang: str,
    answers: list[dict[str, Any]],
    escape: bool = True,
    names: list[str] | None = None,
) -> str:
    """The first error among the service's answers in the chat's language: an engine
    refusal (``illegal``) from its reason code, any other code from the catalogue
    (``err_<code>``, every code of ``protocol.ERRORS`` has one), else a generic line: never
    the server's English sentence. ``names``: the players' names, for seats."""
    errors = [m for m in answers if m.get("type") == "error"]
    if not errors:
        return t(lang, "err_other")
    code, args = errors[0].get("code"), dict(errors[0].get("args") or {})
    if code == "illegal":
        reason = str(args.pop("reason", "other"))
        args.pop("action", None)
        typed: list[tuple[str, Any]] = []
        for key, value in args.items():
            if key in ("card", "top") and isinstance(value, str):
                with contextlib.suppress(UnaError, ValueError):
                    value = Card.parse(value)
            typed.append((key, value))
        refusal = Refusal(reason, str(errors[0].get("message", "")), tuple(typed))
        # names come HTML-escaped (as messages show them); a callback's answer is plain
        shown = list(names or []) if escape else [html.unescape(n) for n in names or []]
        return t(lang, "error", message=refusal_text(refusal, shown, lang))
    values = {k: html.escape(str(v)) if escape else v for k, v in args.items()}
    if f"err_{code}" in TEXTS:
        try:
            return t(lang, f"err_{code}", **values)
        except (KeyError, IndexError):
            pass  # an argument the text needs is missing: the generic line will do
    return t(lang, "err_other")
