"""What the Telegram adapter keeps in the server's database, beside the server's own tables.

Two small tables in the same database (the :class:`~una.server.storage.Storage`'s engine):
``tg_users`` maps a Telegram user id to her storage player (id and clear token, so that the
bot can say ``hello`` for her after a restart) and ``tg_chats`` keeps each group chat's state
as JSON: its language, its modes, who registered, the table it plays at and the ids of the
messages the bot edits.

The tables are created with ``CREATE TABLE IF NOT EXISTS`` on start (:meth:`TelegramStore.setup`)
rather than by an Alembic revision: the server's tests pin the migration head to ``0001`` and
compare the database with the server's own metadata, so a revision would have to change them
(docs/telegram.md gives the revision to add when they do).
"""

from __future__ import annotations

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
    sa.Column("token", sa.Text, nullable=False),
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
    table: str | None = None
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

    async def setup(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(metadata.create_all)

    async def user(self, tg_id: int) -> UserRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(tg_users.select().where(tg_users.c.tg_id == tg_id))).first()
        return UserRow(**row._mapping) if row else None

    async def user_by_player(self, player_id: int) -> UserRow | None:
        query = tg_users.select().where(tg_users.c.player_id == player_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return UserRow(**row._mapping) if row else None

    async def save_user(self, user: UserRow) -> None:
        values = asdict(user)
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
        data = chat.to_json()
        async with self.engine.begin() as conn:
            done = await conn.execute(
                tg_chats.update().where(tg_chats.c.chat_id == chat.chat_id).values(data=data)
            )
            if done.rowcount == 0:
                await conn.execute(tg_chats.insert().values(chat_id=chat.chat_id, data=data))
