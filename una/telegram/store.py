"""What the Telegram adapter keeps in the server's database, beside the server's own tables.

Two small tables in the same database (the :class:`~una.server.storage.Storage`'s engine):
``tg_users`` maps a Telegram user id to her storage player and ``tg_chats`` keeps each group
chat's state as JSON: its language, its modes, who registered, the table it plays at and the
ids of the messages the bot edits.

The tables are made by the server's Alembic revision ``0006_telegram_tables`` (run by
``Storage.open``), like every other table. No clear token is stored: the database keeps only
the players' token hashes, and the bot gives a user a new token (``Storage.new_token``) the
first time this process logs her in, kept in memory (``UserRow.token``).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass, field
from typing import Any

import sqlalchemy as sa

from una.server.storage import Storage

metadata = sa.MetaData()

tg_users = sa.Table(
    "tg_users",
    metadata,
    sa.Column("tg_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("player_id", sa.Integer, nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("lang", sa.String(8), nullable=False),
)

tg_chats = sa.Table(
    "tg_chats",
    metadata,
    sa.Column("chat_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("data", sa.Text, nullable=False),
)

#: The Telegram id under which the chats' observer (a spectator) is kept.
OBSERVER_ID = 0


@dataclass
class UserRow:
    tg_id: int
    player_id: int
    #: Her clear player token, in this process's memory only (never stored).
    token: str
    name: str
    lang: str


@dataclass
class ChatState:
    """A group chat: its settings, its registrations and the table it plays at."""

    chat_id: int
    lang: str = "en"
    title: str = ""
    #: Switches over the ``telegram`` preset (finish, uno_call, jump_in, ...).
    rules: dict[str, Any] = field(default_factory=dict)
    #: Registered Telegram users, in order.
    players: list[int] = field(default_factory=list)
    bots: int = 0
    #: The computer players' level, a bot spec of ``BOT_LEVELS`` ("": the bridge's default).
    bot: str = ""
    table: str | None = None
    #: The stored game (its record) of the table's match: a match that ended just before a
    #: stop is told from it (a finished game is not restored at the table).
    game: int | None = None
    #: The group message the bot edits (the board), and the hand message of each player.
    board: int | None = None
    dms: dict[str, int] = field(default_factory=dict)
    #: The inline mode: moves are made in the group (``@bot``), one bot message per hand.
    inline: bool = False
    #: Raised by every change of the lobby or the settings: their buttons carry it.
    revision: int = 0
    #: The table's last version whose events the group was shown (-1: unknown). Every
    #: event is announced once, in order, across restarts and refused (429) edits.
    announced: int = -1
    #: The last match's names and scores, for /score.
    last_scores: list[tuple[str, int]] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, chat_id: int, text: str) -> ChatState:
        data = json.loads(text)
        data["chat_id"] = chat_id
        data["last_scores"] = [tuple(item) for item in data.get("last_scores", [])]
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})


class TelegramStore:
    """The two tables, through the storage's engine."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.engine = storage.engine
        #: The clear token of each user this process logged in, by player id.
        self._tokens: dict[int, str] = {}
        #: One lock per chat: its saves are written in turn (see :meth:`save_chat`).
        self._chat_locks: dict[int, asyncio.Lock] = {}

    async def setup(self) -> None:
        """Check that the tables are there (migration 0004, run by ``Storage.open``)."""
        async with self.engine.connect() as conn:
            for table in metadata.tables.values():
                await conn.execute(sa.select(sa.literal(1)).select_from(table).limit(1))

    async def _row(self, row: sa.Row[Any] | None) -> UserRow | None:
        if row is None:
            return None
        token = self._tokens.get(row.player_id)
        if token is None:
            token = self._tokens[row.player_id] = await self.storage.new_token(row.player_id)
        return UserRow(row.tg_id, row.player_id, token, row.name, row.lang)

    async def user(self, tg_id: int) -> UserRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(tg_users.select().where(tg_users.c.tg_id == tg_id))).first()
        return await self._row(row)

    async def user_by_player(self, player_id: int) -> UserRow | None:
        query = tg_users.select().where(tg_users.c.player_id == player_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return await self._row(row)

    async def save_user(self, user: UserRow) -> None:
        self._tokens[user.player_id] = user.token
        values = asdict(user)
        del values["token"]  # the database keeps only its hash, in players
        async with self.engine.begin() as conn:
            done = await conn.execute(
                tg_users.update().where(tg_users.c.tg_id == user.tg_id).values(**values)
            )
            if done.rowcount == 0:
                await conn.execute(tg_users.insert().values(**values))

    async def chat(self, chat_id: int) -> ChatState | None:
        query = tg_chats.select().where(tg_chats.c.chat_id == chat_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return ChatState.from_json(row.chat_id, row.data) if row else None

    async def chats(self) -> list[ChatState]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(tg_chats.select())).all()
        return [ChatState.from_json(row.chat_id, row.data) for row in rows]

    async def save_chat(self, chat: ChatState) -> None:
        """Store the chat's state as it is when its turn to be written comes.

        A chat's saves queue one after another, each reading the state only then: two
        saves started together (the group's board marking lines announced while a hand's
        message records its new id) could otherwise commit in either order, the older
        snapshot last, and a restart would tell the announced lines again.
        """
        lock = self._chat_locks.setdefault(chat.chat_id, asyncio.Lock())
        async with lock:
            data = chat.to_json()
            async with self.engine.begin() as conn:
                done = await conn.execute(
                    tg_chats.update().where(tg_chats.c.chat_id == chat.chat_id).values(data=data)
                )
                if done.rowcount == 0:
                    await conn.execute(tg_chats.insert().values(chat_id=chat.chat_id, data=data))
