"""Persistence for ``una serve``: players, tables, games and each game's append-only action log.

One :class:`Storage` per server process, opened with a database URL::

    storage = await Storage.open("sqlite+aiosqlite:///var/lib/una/una.db")
    player, token = await storage.create_player("Ann")
    await storage.create_table("K7QX2", player.id, {"rules": "standard", "seats": 4})
    game_id = await storage.start_game("K7QX2", header)       # the record without its actions
    await storage.append_action(game_id, 0, 1, "play R5")     # returns once COMMITTED
    record = await storage.record(game_id)                    # NOTATION.md's game record
    await storage.close()

URLs: ``sqlite+aiosqlite:///FILE`` (the default; WAL, foreign keys on, the file's directory is
created) and ``postgresql+asyncpg://user@host:port/db``; the short forms ``sqlite:///FILE``,
``postgresql://...``, ``postgres://...`` and a bare file path are accepted (:func:`async_url`).
A PostgreSQL URL may name a schema with ``?schema=NAME`` (or pass ``schema=``): the schema is
created if missing and becomes the connections' ``search_path``, so every table (and Alembic's
version table) lives there.

Opening runs the Alembic migrations in ``una/server/migrations`` up to head, under a lock
(``BEGIN IMMEDIATE`` on SQLite, an advisory lock on PostgreSQL), so servers that start together
migrate once. Tables are only ever created by migrations.

Commit, then acknowledge: :meth:`Storage.append_action` hands the row to the one writer task of
the storage, which drains everything queued, inserts it in one transaction, commits and only
then resolves each caller's future. If a batch fails, its rows are retried one by one, each in
its own transaction, so that a bad row (a duplicate ``seq``) fails alone. Storage does not
require a game's ``seq`` values to be contiguous: a caller awaits each append of a game before
making the next (as the room service does), so a refused append cannot leave a hole. In a
cluster every write of a table (an append, a new game, a finish, a quarantine, a config, a
close) names its node, ``owner=``: it commits only while the table is still leased to that node
(:class:`LeaseLost` otherwise), checked with the table's row locked in the write's own
transaction.

A change of a table is one transaction: :meth:`Storage.start_game` can finish the game it
replaces and write the table's new config and status with the new game, and
:meth:`Storage.finish_game` and :meth:`Storage.quarantine_game` can write the table too, so
that a crash leaves a table before or after a change, never between. A game row keeps the
record format and the Una version that started it; a quarantined game (its log no longer
replays) keeps its rows and its reason and is no longer live.

Times are timezone-aware UTC datetimes; JSON columns are text in the database and ``dict`` in
Python; the clear player token exists only in :meth:`Storage.create_player`'s return value (the
database keeps its SHA-256).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import hashlib
import json
import os
import re
import secrets
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, Literal, Self

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Dialect, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

__all__ = [
    "MIGRATIONS",
    "UNSET",
    "AppendRefused",
    "GameRow",
    "LeaseLost",
    "PlayerRow",
    "Storage",
    "StorageBusy",
    "StorageError",
    "TableExists",
    "TableRow",
    "Unset",
    "alembic_config",
    "async_url",
    "check_service_free",
    "create_engine",
    "hash_token",
    "metadata",
]

MIGRATIONS: Final = Path(__file__).with_name("migrations")
"""The Alembic script directory (``env.py``, ``versions/``)."""

_MAX_BATCH: Final = 1000
"""At most this many appends go into one transaction."""

_PG_MIGRATION_LOCK: Final = 0x756E61_6D6967  # "una" "mig": serialises migrations per database
_PG_SERVICE_LOCK: Final = 0x756E61_73  # "una" "s": one room service per schema (+ its crc32)
_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


# ---------------------------------------------------------------------------- errors


class StorageError(RuntimeError):
    """A storage call that cannot be done: a missing row, a closed storage, a bad URL."""


class TableExists(StorageError):
    """:meth:`Storage.create_table` with a code that is taken (pick another code)."""


class StorageBusy(StorageError):
    """Another room service holds this database (one process per SQLite file, or per
    PostgreSQL schema without ``--redis``, and never one next to ``--redis`` nodes); the
    message names the file or schema and who holds it."""


class AppendRefused(StorageError):
    """An action the database refused (a ``seq`` already used, an unknown game).

    ``__cause__`` is the database error. Nothing of it was written.
    """


class LeaseLost(AppendRefused):
    """A write fenced by ``owner=`` (:meth:`Storage.append_action`, ``start_game``,
    ``finish_game``, ``quarantine_game``, ``update_table``, ``close_table``) at a table that
    ``owner`` no longer holds: another node took it over (or it was given back). Nothing was
    written; drop the table."""


class Unset(enum.Enum):
    """The type of :data:`UNSET`: "leave this field as it is"."""

    UNSET = "UNSET"


UNSET: Final = Unset.UNSET


# ---------------------------------------------------------------------------- schema


class UTCDateTime(sa.TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite hands back naive ones)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: give a timezone-aware one")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


metadata: Final = sa.MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)
"""The tables as the code sees them; the migrations create them (a test checks they agree)."""

players: Final = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("icon", sa.LargeBinary, nullable=True),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("seen_at", UTCDateTime, nullable=False),
    # The icon's URL (/icons/{key}.png): random, new with every icon, so ids cannot be walked.
    sa.Column("icon_key", sa.String(32), nullable=True, unique=True),
)

tables: Final = sa.Table(
    "tables",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column(
        "host_id", sa.Integer, sa.ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    ),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("status", sa.String(32), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("closed_at", UTCDateTime, nullable=True),
    sa.Column("owner", sa.String(32), nullable=True),
    sa.Column("lease_until", UTCDateTime, nullable=True),
    sa.Index("ix_tables_owner", "owner"),
)

games: Final = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("table_code", sa.String(16), sa.ForeignKey("tables.code"), nullable=False),
    sa.Column("header", sa.Text, nullable=False),
    sa.Column("started_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=True),
    sa.Column("result", sa.Text, nullable=True),
    sa.Column("record_format", sa.String(32), nullable=True),
    sa.Column("engine_version", sa.String(32), nullable=True),
    sa.Column("quarantined_at", UTCDateTime, nullable=True),
    sa.Column("quarantine_reason", sa.Text, nullable=True),
    # A private table's finished records are for its players only (JSON list of player
    # ids, null for a computer player's seat).
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("player_ids", sa.Text, nullable=True),
    sa.Index("ix_games_table_code", "table_code"),
)

actions: Final = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("code", sa.Text, nullable=False),
    sa.Column("auto", sa.Boolean, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

#: Who played each seat of a game (the people; computer seats have no row): a player's
#: finished games, and the players' icons in a replay.
game_players: Final = sa.Table(
    "game_players",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column(
        "player_id", sa.Integer, sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Index("ix_game_players_player_id", "player_id"),
)


# ---------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player: an account is its token (kept only as a hash, so not here)."""

    id: int
    name: str
    icon: bytes | None
    settings: dict[str, Any]
    created_at: datetime
    seen_at: datetime
    icon_key: str | None = None
    """Where the icon is served (``/icons/{icon_key}.png``); None without an icon."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table: ``config`` is the server's (rules, seats, bots, timer ...), opaque here."""

    code: str
    host_id: int | None
    config: dict[str, Any]
    status: str
    created_at: datetime
    closed_at: datetime | None

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game: its record header, its committed actions in order, and how it ended."""

    id: int
    table_code: str
    header: dict[str, Any]
    started_at: datetime
    finished_at: datetime | None = None
    result: dict[str, Any] | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    """``(seat, code)`` in ``seq`` order."""
    auto: list[bool] = field(default_factory=list)
    """Whether each action was played automatically (bot, auto mode, timer), as ``actions``."""
    seqs: list[int] = field(default_factory=list)
    """The ``seq`` of each action, as ``actions``."""
    record_format: str | None = None
    """The record format the header was written in (``"una/1"``); None before it was kept."""
    engine_version: str | None = None
    """The version of Una that started the game; None before it was kept."""
    quarantine_reason: str | None = None
    """Why the game could not be restored (its log no longer replays); None if it could."""

    @property
    def quarantined(self) -> bool:
        return self.quarantine_reason is not None

    private: bool = False
    """Played at a private table: its record is for its players only."""
    player_ids: list[int | None] | None = None
    """The player id of each seat (None for a computer player), when it was stored."""

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def next_seq(self) -> int:
        """One past the last ``seq`` (0 for a game without actions)."""
        return self.seqs[-1] + 1 if self.seqs else 0

    def to_record(self) -> dict[str, Any]:
        """The NOTATION.md game record: the header and ``"actions": [[seat, code], ...]``."""
        return {**self.header, "actions": [[seat, code] for seat, code in self.actions]}


# ---------------------------------------------------------------------------- URLs, engine


def async_url(url: str) -> str:
    """The async-driver form of a database URL.

    >>> async_url("sqlite:///data/una.db")
    'sqlite+aiosqlite:///data/una.db'
    >>> async_url("postgres://una@db:5432/una")
    'postgresql+asyncpg://una@db:5432/una'
    >>> async_url("postgresql+asyncpg://una@db/una?schema=s1")
    'postgresql+asyncpg://una@db/una?schema=s1'
    >>> async_url("/var/lib/una/una.db")
    'sqlite+aiosqlite:////var/lib/una/una.db'
    """
    return _parse_url(url).render_as_string(hide_password=False)


def _parse_url(url: str) -> URL:
    if "://" not in url:  # a bare path: an SQLite file
        if not url or url == ":memory:":
            raise StorageError("an in-memory SQLite database cannot be shared: give a file path")
        url = "sqlite:///" + url
    try:
        parsed = make_url(url)
    except ArgumentError as error:
        raise StorageError(f"not a database URL: {error}") from None
    backend, _, driver = parsed.drivername.partition("+")
    if backend == "postgres":
        backend = "postgresql"
    wanted = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}.get(backend)
    if wanted is None or driver not in ("", wanted):
        shown = parsed.render_as_string(hide_password=True)
        raise StorageError(
            f"unsupported database URL {shown!r}: use sqlite:///FILE or postgresql://USER@HOST/DB"
        )
    if backend == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise StorageError("an in-memory SQLite database cannot be shared: give a file path")
    if backend == "sqlite" and "schema" in parsed.query:
        raise StorageError("?schema= is for PostgreSQL URLs only")
    return parsed.set(drivername=f"{backend}+{wanted}")


def _check_schema(schema: str) -> str:
    if not _SCHEMA_NAME.fullmatch(schema):
        raise StorageError(f"schema {schema!r}: use letters, digits and _ (at most 63)")
    return schema


_SQLITE_LOCK_WAIT = 30.0
"""Seconds a new SQLite connection waits for another connection's lock (busy timeout too)."""


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    """Every new SQLite connection: write-ahead log, foreign keys enforced.

    Switching a fresh file to WAL needs an exclusive lock, and SQLite answers "database is
    locked" at once (without its busy handler) when connections opened together race for it,
    so the switch is retried until ``_SQLITE_LOCK_WAIT``. WAL is persistent: a file already in
    WAL mode is only read, never switched again.
    """
    cursor = dbapi_connection.cursor()
    try:
        deadline = time.monotonic() + _SQLITE_LOCK_WAIT
        delay = 0.005
        while True:
            try:
                cursor.execute("PRAGMA journal_mode")
                row = cursor.fetchone()
                if row is None or str(row[0]).lower() != "wal":
                    cursor.execute("PRAGMA journal_mode=WAL")
                break
            except Exception as error:  # the driver's OperationalError: sqlite3's or an adapter's
                if "database is locked" not in str(error) or time.monotonic() >= deadline:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 0.2)
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def create_engine(
    url: str,
    *,
    schema: str | None = None,
    connect_args: Mapping[str, Any] | None = None,
    **pool: Any,
) -> AsyncEngine:
    """The async engine :class:`Storage` uses for ``url`` (also used by ``migrations/env.py``).

    SQLite: creates the file's directory, turns on WAL and foreign keys for each connection.
    PostgreSQL: ``schema`` (or the URL's ``?schema=``) becomes the ``search_path``.
    ``pool`` options (``pool_size=``...) go to SQLAlchemy.
    """
    parsed = _parse_url(url)
    args = dict(connect_args or {})
    options: dict[str, Any] = dict(pool)
    if parsed.get_backend_name() == "sqlite":
        if schema is not None:
            raise StorageError("schema= is for PostgreSQL only")
        assert parsed.database is not None
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        args.setdefault("timeout", _SQLITE_LOCK_WAIT)  # seconds SQLite waits for a writer's lock
    else:
        query_schema = parsed.query.get("schema")
        parsed = parsed.difference_update_query(["schema"])
        if schema is None and query_schema is not None:
            schema = query_schema if isinstance(query_schema, str) else query_schema[-1]
        if schema is not None:
            settings = dict(args.get("server_settings") or {})
            settings["search_path"] = _check_schema(schema)
            args["server_settings"] = settings
        options["pool_pre_ping"] = True
    engine = create_async_engine(parsed, connect_args=args, **options)
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_on_connect)
    return engine


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config for our migrations, made in code (there is no ``alembic.ini``).

    With ``url``, Alembic's commands can also be run by hand, e.g. to write a new migration::

        from alembic import command
        command.revision(alembic_config("sqlite:///dev.db"), "add x", autogenerate=True)
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    if url is not None:
        config.set_main_option("sqlalchemy.url", async_url(url).replace("%", "%%"))
    return config


def _upgrade(connection: Connection, config: Config) -> None:
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


async def _migrate(engine: AsyncEngine, schema: str | None) -> None:
    """Upgrade to head in one transaction, holding a database-wide migration lock."""
    async with engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            # Take the write lock now: the whole migration is one transaction, and a second
            # process waits here instead of racing (pysqlite would otherwise run DDL unwrapped).
            await conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            await conn.execute(
                sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK}
            )
            if schema is not None:
                quoted = conn.dialect.identifier_preparer.quote_schema(schema)
                await conn.exec_driver_sql(f"CREATE SCHEMA IF NOT EXISTS {quoted}")
        await conn.run_sync(_upgrade, alembic_config())
        await conn.commit()


# ---------------------------------------------------------------------------- values


def hash_token(token: str) -> str:
    """The SHA-256 (hex) of a player token: what the database keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _text(value: object, what: str) -> str:
    """A string the database can hold on every backend (no NUL, valid UTF-8)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, not {type(value).__name__}")
    if "\x00" in value:
        raise ValueError(f"{what} must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{what} is not valid Unicode text (lone surrogate)") from None
    return value


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be an integer >= 0, not {value!r}")
    return value


def _dump(value: object, what: str) -> str:
    if not isinstance(value, dict):
        raise TypeError(f"{what} must be a dict, not {type(value).__name__}")
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _text(text, what)


def _load(text: str) -> dict[str, Any]:
    value = json.loads(text)
    assert isinstance(value, dict)
    return value


def _player(row: sa.Row[Any]) -> PlayerRow:
    return PlayerRow(
        row.id, row.name, row.icon, _load(row.settings), row.created_at, row.seen_at,
        row.icon_key,
    )  # fmt: skip


def _table(row: sa.Row[Any]) -> TableRow:
    return TableRow(
        row.code, row.host_id, _load(row.config), row.status, row.created_at, row.closed_at
    )


def _game(row: sa.Row[Any], log: list[sa.Row[Any]]) -> GameRow:
    return GameRow(
        id=row.id,
        table_code=row.table_code,
        header=_load(row.header),
        started_at=row.started_at,
        finished_at=row.finished_at,
        result=None if row.result is None else _load(row.result),
        actions=[(a.seat, a.code) for a in log],
        auto=[bool(a.auto) for a in log],
        seqs=[a.seq for a in log],
        record_format=row.record_format,
        engine_version=row.engine_version,
        quarantine_reason=row.quarantine_reason,
        private=bool(row.private),
        player_ids=None if row.player_ids is None else json.loads(row.player_ids),
    )


@dataclass(slots=True, eq=False)  # compared by identity
class _Append:
    row: dict[str, Any]
    future: asyncio.Future[None]
    #: The node that must still hold the game's table when the row commits (None: no fence).
    owner: str | None = None


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _fail(future: asyncio.Future[None], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


# ---------------------------------------------------------------------------- storage


class Storage:
    """The server's database: open with :meth:`open`, close with :meth:`close`.

    Every method is a coroutine; call them from the event loop that opened the storage.
    """

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        """Use :meth:`open`: it migrates the database and starts the writer."""
        self._engine = engine
        self._url = url
        self._closed = False
        self._queue: asyncio.Queue[_Append | None] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(
            self._write_loop(), name="una-storage-writer"
        )
        self._service_lock: AsyncConnection | int | None = None
        self._lease_engine: AsyncEngine | None = None
        #: The writer's own connection, kept between batches: a checkout from the pool
        #: pings PostgreSQL first (three more round trips per batch, as many as the batch's
        #: own). Dropped after any failure; the next batch takes a fresh one.
        self._writer_conn: AsyncConnection | None = None
        self.batches = 0
        """How many append transactions the writer committed (for tests and statistics)."""

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        schema: str | None = None,
        connect_args: Mapping[str, Any] | None = None,
    ) -> Self:
        """Connect to ``url``, run the migrations up to head, start the writer task.

        ``schema`` (PostgreSQL only; or ``?schema=NAME`` in the URL) is created if missing and
        holds every table. ``connect_args`` go to the driver's ``connect()``.
        """
        url = async_url(url)
        if schema is not None:
            _check_schema(schema)
            url = make_url(url).update_query_dict({"schema": schema}).render_as_string(False)
        engine = create_engine(url, connect_args=connect_args)
        try:
            query_schema = make_url(url).query.get("schema")
            await _migrate(engine, query_schema if isinstance(query_schema, str) else None)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine, url)

    async def close(self) -> None:
        """Write what is queued, stop the writer, close the connections. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        await self.unlock_service()
        if self._lease_engine is not None:
            await self._lease_engine.dispose()
        if not self._writer.done():
            self._queue.put_nowait(None)
            await asyncio.wait([self._writer])
        await self._drop_writer_conn()
        await self._engine.dispose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        shown = make_url(self._url).render_as_string(hide_password=True)
        return f"<Storage {shown}{' closed' if self._closed else ''}>"

    @property
    def url(self) -> str:
        """The async URL (``?schema=`` included): ``Storage.open(storage.url)`` reopens it."""
        return self._url

    @property
    def dialect(self) -> Literal["sqlite", "postgresql"]:
        return "sqlite" if self._engine.dialect.name == "sqlite" else "postgresql"

    @property
    def engine(self) -> AsyncEngine:
        """The SQLAlchemy engine, for tests and maintenance; the server needs only the methods."""
        return self._engine

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("the storage is closed")

    # ------------------------------------------------------------------ players

    async def create_player(self, name: str) -> tuple[PlayerRow, str]:
        """A new player and her clear token (the only time it exists: give it to her)."""
        self._check_open()
        name = _text(name, "name")
        token = secrets.token_urlsafe(32)
        now = _now()
        async with self._engine.begin() as conn:
            inserted = await conn.execute(
                players.insert()
                .values(
                    token_hash=hash_token(token),
                    name=name,
                    icon=None,
                    settings="{}",
                    created_at=now,
                    seen_at=now,
                )
                .returning(players.c.id)
            )
            player_id: int = inserted.scalar_one()
        return PlayerRow(player_id, name, None, {}, now, now), token

    async def player_by_token(self, token: str) -> PlayerRow | None:
        """The player with this token, or None; marks her as seen now."""
        self._check_open()
        if not isinstance(token, str) or not token or "\x00" in token:
            return None
        try:
            digest = hash_token(token)
        except UnicodeEncodeError:
            return None
        async with self._engine.begin() as conn:
            # Write first, then read, in one transaction (no read-to-write lock upgrade).
            updated = await conn.execute(
                players.update().where(players.c.token_hash == digest).values(seen_at=_now())
            )
            if updated.rowcount == 0:
                return None
            row = (await conn.execute(players.select().where(players.c.token_hash == digest))).one()
        return _player(row)

    async def player_by_icon_key(self, key: str) -> PlayerRow | None:
        """The player whose icon is served under ``key``, or None."""
        self._check_open()
        async with self._engine.connect() as conn:
            row = (await conn.execute(players.select().where(players.c.icon_key == key))).first()
        return None if row is None else _player(row)

    async def player(self, player_id: int) -> PlayerRow | None:
        self._check_open()
        async with self._engine.connect() as conn:
            row = (await conn.execute(players.select().where(players.c.id == player_id))).first()
        return None if row is None else _player(row)

    async def new_token(self, player_id: int) -> str:
        """A new clear token for a player (the old one stops working); the database keeps
        its hash. For a front end that logs its own players in, such as the Telegram bot,
        so that it never has to store a clear token."""
        self._check_open()
        token = secrets.token_urlsafe(32)
        async with self._engine.begin() as conn:
            result = await conn.execute(
                players.update()
                .where(players.c.id == player_id)
                .values(token_hash=hash_token(token))
            )
        if result.rowcount == 0:
            raise StorageError(f"no player {player_id}")
        return token

    async def update_player(
        self,
        player_id: int,
        *,
        name: str | None = None,
        icon: bytes | Unset | None = UNSET,
        settings: dict[str, Any] | None = None,
    ) -> None:
        """Change what is given: ``icon=None`` resets the icon, ``settings`` replaces them."""
        self._check_open()
        values: dict[str, Any] = {}
        if name is not None:
            values["name"] = _text(name, "name")
        if icon is not UNSET:
            if icon is not None and not isinstance(icon, bytes):
                raise TypeError(f"icon must be bytes or None, not {type(icon).__name__}")
            values["icon"] = icon
            values["icon_key"] = None if icon is None else secrets.token_urlsafe(16)
        if settings is not None:
            values["settings"] = _dump(settings, "settings")
        async with self._engine.begin() as conn:
            if values:
                result = await conn.execute(
                    players.update().where(players.c.id == player_id).values(**values)
                )
                found = result.rowcount > 0
            else:
                found = await _exists(conn, players.c.id == player_id)
        if not found:
            raise StorageError(f"no player {player_id}")

    # ------------------------------------------------------------------ tables

    async def create_table(
        self,
        code: str,
        host_id: int | None,
        config: dict[str, Any],
        *,
        owner: str | None = None,
        lease: float = 0.0,
    ) -> None:
        """A new open table; :class:`TableExists` if the code is taken (closed tables too)."""
        self._check_open()
        code = _text(code, "table code")
        row = {
            "code": code,
            "host_id": host_id,
            "config": _dump(config, "config"),
            "status": "open",
            "created_at": _now(),
        }
        if owner is not None:  # born leased: no other node may claim it in between
            row["owner"] = _text(owner, "owner")
            row["lease_until"] = self._lease_end(lease)
        try:
            async with self._engine.begin() as conn:
                await conn.execute(tables.insert().values(**row))
        except IntegrityError as error:
            async with self._engine.connect() as conn:
                taken = await _exists(conn, tables.c.code == code)
            if taken:
                raise TableExists(f"table code {code!r} is taken") from error
            raise

    async def table(self, code: str) -> TableRow | None:
        self._check_open()
        async with self._engine.connect() as conn:
            row = (await conn.execute(tables.select().where(tables.c.code == code))).first()
        return None if row is None else _table(row)

    async def update_table(
        self,
        code: str,
        *,
        config: dict[str, Any] | None = None,
        status: str | None = None,
        host_id: int | Unset | None = UNSET,
        owner: str | None = None,
    ) -> None:
        """Replace the config, the status and/or the host of a table, in one transaction.

        ``owner`` (a cluster node) fences the write, as :meth:`close_table`'s.
        """
        self._check_open()
        values = _table_values(config, status, host_id)
        async with self._engine.begin() as conn:
            await _hold_lease(conn, code, owner, "updated")
            await _update_table(conn, code, values)

    async def close_table(
        self,
        code: str,
        *,
        unfinished: tuple[int, dict[str, Any]] | None = None,
        owner: str | None = None,
    ) -> None:
        """Mark the table closed (status ``"closed"``, ``closed_at`` now); twice is a no-op.

        ``unfinished``: a game of the table and its result, written in the same transaction
        if that game is not finished yet (so that its record does not stay hidden forever).
        ``owner`` (a cluster node): fenced, as :meth:`append_action`: :class:`LeaseLost`,
        and nothing written, unless the table is still leased to ``owner``.
        """
        self._check_open()
        finish = None if unfinished is None else (unfinished[0], _dump(unfinished[1], "result"))
        async with self._engine.begin() as conn:
            await _hold_lease(conn, code, owner, "closed")
            if finish is not None:
                await conn.execute(
                    games.update()
                    .where(games.c.id == finish[0], games.c.finished_at.is_(None))
                    .values(finished_at=_now(), result=finish[1])
                )
            result = await conn.execute(
                tables.update()
                .where(tables.c.code == code, tables.c.closed_at.is_(None))
                .values(status="closed", closed_at=_now())
            )
            if result.rowcount == 0 and not await _exists(conn, tables.c.code == code):
                raise StorageError(f"no table {code!r}")

    async def open_tables(self, codes: list[str] | None = None) -> list[TableRow]:
        """Tables not closed (only those of ``codes`` if given), oldest first."""
        self._check_open()
        query = (
            tables.select()
            .where(tables.c.closed_at.is_(None))
            .order_by(tables.c.created_at, tables.c.code)
        )
        if codes is not None:
            query = query.where(tables.c.code.in_(codes))
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_table(row) for row in rows]

    # ------------------------------------------------------------------ ownership

    def _leases(self) -> AsyncEngine:
        """The engine of the lease statements: a connection of their own, so that a heartbeat
        never waits behind the service's queries for the pool (and lets its leases run out)."""
        if self._lease_engine is None:
            self._lease_engine = create_engine(self._url, pool_size=1, max_overflow=1)
        return self._lease_engine

    def _clock(self) -> Any:
        """The database's now (PostgreSQL: its clock, the same for every node)."""
        return sa.func.now() if self.dialect == "postgresql" else _now()

    def _lease_end(self, seconds: float) -> Any:
        if self.dialect == "postgresql":
            secs = sa.cast(float(seconds), sa.Float)
            return sa.func.now() + sa.func.make_interval(0, 0, 0, 0, 0, 0, secs)
        return _now() + timedelta(seconds=seconds)

    async def claim_tables(self, owner: str, lease: float, limit: int = 1000) -> list[str]:
        """Lease to ``owner`` (for ``lease`` seconds) open tables that nobody holds or whose
        lease ran out; their codes. One statement, so two nodes never claim one table."""
        self._check_open()
        free = (
            sa.select(tables.c.code)
            .where(
                tables.c.closed_at.is_(None),
                sa.or_(tables.c.owner.is_(None), tables.c.lease_until < self._clock()),
            )
            .order_by(tables.c.created_at, tables.c.code)
            .limit(limit)
        )
        if self.dialect == "postgresql":
            free = free.with_for_update(skip_locked=True)
        query = (
            tables.update()
            .where(tables.c.code.in_(free.scalar_subquery()))
            .values(owner=_text(owner, "owner"), lease_until=self._lease_end(lease))
            .returning(tables.c.code)
        )
        async with self._leases().begin() as conn:
            return list((await conn.execute(query)).scalars())

    async def renew_leases(self, owner: str, lease: float) -> set[str]:
        """Extend every lease ``owner`` still holds (the heartbeat); the codes it holds."""
        self._check_open()
        query = (
            tables.update()
            .where(tables.c.owner == _text(owner, "owner"), tables.c.closed_at.is_(None))
            .values(lease_until=self._lease_end(lease))
            .returning(tables.c.code)
        )
        async with self._leases().begin() as conn:
            return set((await conn.execute(query)).scalars())

    async def release_leases(self, owner: str, codes: list[str] | None = None) -> None:
        """Give back ``owner``'s leases (all, or those of ``codes``): another node may take
        those tables at once."""
        self._check_open()
        query = tables.update().where(tables.c.owner == owner)
        if codes is not None:
            query = query.where(tables.c.code.in_(codes))
        async with self._leases().begin() as conn:
            await conn.execute(query.values(owner=None, lease_until=None))

    async def table_owner(self, code: str) -> str | None:
        """The node holding a live lease on open table ``code``, else None."""
        self._check_open()
        query = sa.select(tables.c.owner).where(
            tables.c.code == code,
            tables.c.closed_at.is_(None),
            tables.c.lease_until >= self._clock(),
        )
        async with self._engine.connect() as conn:
            owner: str | None = (await conn.execute(query)).scalar()
        return owner

    async def lock_service(self, *, shared: bool = False) -> None:
        """Make this storage's room service the only one on its database, until
        :meth:`unlock_service` or :meth:`close` (or the process dies: the lock goes with it).

        SQLite: an exclusive ``flock`` on ``FILE.lock``. PostgreSQL: a session advisory lock
        for the schema, held by a connection of its own. :class:`StorageBusy` if another
        process holds it.

        ``shared`` (PostgreSQL): a cluster node's lock, the same key taken shared: the nodes
        of a cluster hold it together, and each of them keeps a single service out (and is
        kept out by one), since the single service takes it exclusively.
        """
        self._check_open()
        if self._service_lock is not None:
            return
        if self.dialect == "sqlite":
            if shared:
                raise StorageError("cluster nodes share a PostgreSQL database, not an SQLite file")
            self._service_lock = _lock_file(_lock_path(self._url))
            return
        name, key = _service_key(self._url)
        conn = await self._engine.connect()
        try:
            busy = await _try_service_lock(conn, name, key, shared)
            await conn.commit()
        except BaseException:
            await conn.close()
            raise
        if busy is not None:
            await conn.close()
            raise busy
        self._service_lock = conn

    async def unlock_service(self) -> None:
        held, self._service_lock = self._service_lock, None
        if isinstance(held, AsyncConnection):
            # The pool keeps the session: the lock is given back before the connection.
            with contextlib.suppress(Exception):
                await held.execute(sa.select(sa.func.pg_advisory_unlock_all()))
                await held.commit()
            await held.close()
        elif held is not None:
            os.close(held)  # closing the descriptor drops the flock

    # ------------------------------------------------------------------ games

    async def start_game(
        self,
        table_code: str,
        header: dict[str, Any],
        *,
        engine_version: str | None = None,
        config: dict[str, Any] | None = None,
        status: str | None = None,
        finish: tuple[int, dict[str, Any]] | None = None,
        private: bool = False,
        player_ids: list[int | None] | None = None,
        owner: str | None = None,
    ) -> int:
        """A new game at an open table; ``header`` is its record without actions. Its id.

        One transaction does it all: ``finish`` (a game id and its result) ends the game it
        replaces, and ``config`` and ``status`` are the table's new ones, so that a crash
        leaves either the old match or the new one, never half of each.

        ``player_ids``: each game seat's player (None for a computer player): the people who
        play it (their lists of finished games) and, when ``private``, the only ones who may
        read its record. ``owner`` (a cluster node) fences the write, as :meth:`close_table`'s.
        """
        self._check_open()
        if not isinstance(header, dict):
            raise TypeError(f"header must be a dict, not {type(header).__name__}")
        if "actions" in header:
            if header["actions"]:
                raise ValueError("header must not carry actions: append them one by one")
            header = {key: value for key, value in header.items() if key != "actions"}
        text = _dump(header, "header")
        record_format = header.get("format")
        values = _table_values(config, status, UNSET)
        finished = None if finish is None else (finish[0], _dump(finish[1], "result"))
        async with self._engine.begin() as conn:
            await _hold_lease(conn, table_code, owner, "given a game")
            row = (
                await conn.execute(sa.select(tables.c.closed_at).where(tables.c.code == table_code))
            ).first()
            if row is None:
                raise StorageError(f"no table {table_code!r}")
            if row.closed_at is not None:
                raise StorageError(f"table {table_code!r} is closed")
            if finished is not None:
                await _finish(conn, *finished)
            inserted = await conn.execute(
                games.insert()
                .values(
                    table_code=table_code,
                    header=text,
                    started_at=_now(),
                    record_format=record_format if isinstance(record_format, str) else None,
                    engine_version=None
                    if engine_version is None
                    else _text(engine_version, "engine_version"),
                    private=bool(private),
                    player_ids=None if player_ids is None else json.dumps(player_ids),
                )
                .returning(games.c.id)
            )
            game_id: int = inserted.scalar_one()
            people = [
                {"game_id": game_id, "seat": seat, "player_id": _int(pid, "player id")}
                for seat, pid in enumerate(player_ids or [])
                if pid is not None
            ]
            if people:
                await conn.execute(game_players.insert(), people)
            if values:
                await _update_table(conn, table_code, values)
        return game_id

    async def append_action(
        self,
        game_id: int,
        seq: int,
        seat: int,
        code: str,
        auto: bool = False,
        *,
        owner: str | None = None,
    ) -> None:
        """Append one action to a game's log; returns once it is committed.

        :class:`AppendRefused` if the database refuses it (``seq`` already used, no such game).
        Appends are written in the order they are called, so a game's appends keep their order.

        ``owner`` (a cluster node's id) fences the write: it commits only if the game's table
        is still leased to ``owner``, checked in the insert's own transaction with the table's
        row locked (``FOR SHARE``) until the commit, so that no claim passes in between; else
        :class:`LeaseLost` and nothing is written. (A lease that ran out but that no other
        node claimed yet is still the owner's: its heartbeat renews it.)
        """
        self._check_open()
        if self._writer.done():
            raise StorageError("the storage writer has stopped")
        row = {
            "game_id": _int(game_id, "game_id"),
            "seq": _int(seq, "seq"),
            "seat": _int(seat, "seat"),
            "code": _text(code, "code"),
            "auto": bool(auto),
            "created_at": _now(),
        }
        if owner is not None:
            owner = _text(owner, "owner")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Append(row, future, owner))
        await future

    async def finish_game(
        self,
        game_id: int,
        result: dict[str, Any],
        *,
        table_code: str | None = None,
        config: dict[str, Any] | None = None,
        status: str | None = None,
        owner: str | None = None,
    ) -> None:
        """Mark a game finished with its result; refused for a finished or unknown game.

        With ``table_code``, that table's new ``config`` and/or ``status`` are written in the
        same transaction. Await a game's appends before finishing it: finishing does not wait
        for the writer. ``owner`` (a cluster node) fences the write, as :meth:`close_table`'s.
        """
        self._check_open()
        text = _dump(result, "result")
        values = _table_values(config, status, UNSET)
        async with self._engine.begin() as conn:
            if owner is not None:
                code = table_code or await _table_of(conn, game_id)
                await _hold_lease(conn, code, owner, "finished")
            await _finish(conn, game_id, text)
            if table_code is not None and values:
                await _update_table(conn, table_code, values)

    async def quarantine_game(
        self,
        game_id: int,
        reason: str,
        *,
        table_code: str | None = None,
        config: dict[str, Any] | None = None,
        status: str | None = None,
        owner: str | None = None,
    ) -> None:
        """Set aside a game whose log no longer replays: it keeps its rows, is no longer
        live (:meth:`live_games` leaves it out) and stores ``reason``. With ``table_code``,
        that table's new ``config`` and/or ``status`` go in the same transaction. ``owner``
        (a cluster node) fences the write, as :meth:`close_table`'s."""
        self._check_open()
        values = _table_values(config, status, UNSET)
        async with self._engine.begin() as conn:
            if owner is not None:
                code = table_code or await _table_of(conn, game_id)
                await _hold_lease(conn, code, owner, "quarantined")
            updated = await conn.execute(
                games.update()
                .where(games.c.id == game_id)
                .values(quarantined_at=_now(), quarantine_reason=_text(reason, "reason"))
            )
            if updated.rowcount == 0:
                raise StorageError(f"no game {game_id}")
            if table_code is not None and values:
                await _update_table(conn, table_code, values)

    async def game(self, game_id: int) -> GameRow | None:
        """A game with its committed actions, or None."""
        self._check_open()
        async with self._engine.connect() as conn:
            row = (await conn.execute(games.select().where(games.c.id == game_id))).first()
            if row is None:
                return None
            log = (
                await conn.execute(
                    actions.select().where(actions.c.game_id == game_id).order_by(actions.c.seq)
                )
            ).all()
        return _game(row, list(log))

    async def finished_games(self, player_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The finished games ``player_id`` played (not the quarantined), newest first: id,
        table, when it finished, the players' names, her seat and the result."""
        self._check_open()
        query = (
            sa.select(
                games.c.id,
                games.c.table_code,
                games.c.header,
                games.c.finished_at,
                games.c.result,
                game_players.c.seat,
            )
            .join(game_players, game_players.c.game_id == games.c.id)
            .where(
                game_players.c.player_id == player_id,
                games.c.finished_at.is_not(None),
                games.c.quarantined_at.is_(None),
            )
            .order_by(games.c.finished_at.desc(), games.c.id.desc())
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        out = []
        for row in rows:
            header = _load(row.header)
            names = header.get("players")
            out.append(
                {
                    "id": row.id,
                    "table": row.table_code,
                    "finished_at": row.finished_at.isoformat(),
                    "players": names if isinstance(names, list) else [],
                    "seat": row.seat,
                    "result": _load(row.result) if row.result else None,
                }
            )
        return out

    async def game_seats(self, game_id: int) -> dict[int, tuple[int, str | None]]:
        """Who played the people's seats of a game: seat -> (player id, her icon's key or
        None)."""
        self._check_open()
        query = (
            sa.select(game_players.c.seat, players.c.id, players.c.icon_key)
            .join(players, players.c.id == game_players.c.player_id)
            .where(game_players.c.game_id == game_id)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {int(seat): (int(pid), key) for seat, pid, key in rows}

    async def record(self, game_id: int) -> dict[str, Any]:
        """The game's NOTATION.md record: its header and ``"actions": [[seat, code], ...]``."""
        game = await self.game(game_id)
        if game is None:
            raise StorageError(f"no game {game_id}")
        return game.to_record()

    async def live_games(self, codes: list[str] | None = None) -> list[GameRow]:
        """Games neither finished nor quarantined at tables not closed (only the tables of
        ``codes`` if given), with their actions, by id.

        What a restarted server (or a node taking tables over) rebuilds.
        """
        self._check_open()
        live = (
            sa.select(games)
            .join(tables, games.c.table_code == tables.c.code)
            .where(
                games.c.finished_at.is_(None),
                games.c.quarantined_at.is_(None),
                tables.c.closed_at.is_(None),
            )
        )
        if codes is not None:
            live = live.where(tables.c.code.in_(codes))
        async with self._engine.connect() as conn:
            rows = (await conn.execute(live.order_by(games.c.id))).all()
            ids = sa.select(live.subquery().c.id)
            log = (
                await conn.execute(
                    actions.select()
                    .where(actions.c.game_id.in_(ids))
                    .order_by(actions.c.game_id, actions.c.seq)
                )
            ).all()
        by_game: dict[int, list[sa.Row[Any]]] = {row.id: [] for row in rows}
        for action in log:
            if action.game_id in by_game:  # a game started between the two queries
                by_game[action.game_id].append(action)
        return [_game(row, by_game[row.id]) for row in rows]

    # ------------------------------------------------------------------ the writer

    async def _write_loop(self) -> None:
        """The one writer: drain the queue, insert in one transaction, commit, resolve."""
        batch: list[_Append] = []
        try:
            while True:
                item = await self._queue.get()
                if item is None:
                    return
                batch = [item]
                stop = False
                while len(batch) < _MAX_BATCH:
                    try:
                        item = self._queue.get_nowait()
                    except asyncio.QueueEmpty:
                        break
                    if item is None:
                        stop = True
                        break
                    batch.append(item)
                await self._write(batch)
                batch = []
                if stop:
                    return
        finally:
            # Cancelled or crashed: nobody may wait forever for a row that will not be written.
            gone = StorageError("the storage closed before this action was written")
            for pending in batch:
                _fail(pending.future, gone)
            while not self._queue.empty():
                left = self._queue.get_nowait()
                if left is not None:
                    _fail(left.future, gone)

    async def _write(self, batch: list[_Append]) -> None:
        try:
            conn = self._writer_conn
            if conn is None:
                conn = self._writer_conn = await self._engine.connect()
            async with conn.begin():
                lost = set(await _fence(conn, batch))
                rows = [pending.row for pending in batch if pending not in lost]
                if rows:
                    await conn.execute(actions.insert(), rows)
        except Exception:
            await self._drop_writer_conn()  # it may be broken: the rows go on fresh ones
            await self._write_each(batch)
            return
        if rows:
            self.batches += 1
        for pending in batch:
            if pending in lost:
                _fail(pending.future, _lease_lost(pending))
            else:
                _resolve(pending.future)

    async def _drop_writer_conn(self) -> None:
        conn, self._writer_conn = self._writer_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def _write_each(self, batch: list[_Append]) -> None:
        """After a failed batch: each row in its own transaction, so only bad rows fail."""
        for pending in batch:
            row = pending.row
            try:
                async with self._engine.begin() as conn:
                    if await _fence(conn, [pending]):
                        raise _lease_lost(pending)
                    await conn.execute(actions.insert(), [row])
            except IntegrityError as error:
                refused = AppendRefused(
                    f"game {row['game_id']} seq {row['seq']} (seat {row['seat']}, "
                    f"{json.dumps(row['code'])}): refused by the database "
                    f"(seq already used, or no such game): {error.orig}"
                )
                refused.__cause__ = error
                _fail(pending.future, refused)
            except Exception as error:
                _fail(pending.future, error)
            else:
                self.batches += 1
                _resolve(pending.future)


async def _fence(conn: AsyncConnection, batch: list[_Append]) -> list[_Append]:
    """The appends of ``batch`` whose game's table is no longer leased to their ``owner``;
    the tables of the others stay locked (``FOR SHARE``: a claim waits) to the commit."""
    fenced = [pending for pending in batch if pending.owner is not None]
    if not fenced:
        return []
    query = (
        sa.select(games.c.id, tables.c.owner)
        .join_from(games, tables, games.c.table_code == tables.c.code)
        .where(games.c.id.in_({pending.row["game_id"] for pending in fenced}))
        .with_for_update(read=True, of=tables)
    )
    held = {(row.id, row.owner) for row in await conn.execute(query)}
    return [pending for pending in fenced if (pending.row["game_id"], pending.owner) not in held]


def _lease_lost(pending: _Append) -> LeaseLost:
    row = pending.row
    return LeaseLost(
        f"game {row['game_id']} seq {row['seq']}: node {pending.owner} no longer holds its "
        "table (another node took it over); not written"
    )


def _table_values(
    config: dict[str, Any] | None, status: str | None, host_id: int | Unset | None
) -> dict[str, Any]:
    """The columns of a table update, checked (before any transaction begins)."""
    values: dict[str, Any] = {}
    if config is not None:
        values["config"] = _dump(config, "config")
    if status is not None:
        values["status"] = _text(status, "status")
    if host_id is not UNSET:
        if host_id is not None:
            _int(host_id, "host_id")
        values["host_id"] = host_id
    return values


async def _hold_lease(conn: AsyncConnection, code: str, owner: str | None, what: str) -> None:
    """Fence a write of table ``code`` by ``owner`` (a cluster node; None: no fence):
    :class:`LeaseLost` unless the table is leased to ``owner``. The table's row stays locked
    to the commit, so that no claim passes between this check and the write."""
    if owner is None:
        return
    holder = (
        await conn.execute(sa.select(tables.c.owner).where(tables.c.code == code).with_for_update())
    ).first()
    if holder is None:
        raise StorageError(f"no table {code!r}")
    if holder.owner != owner:
        raise LeaseLost(
            f"table {code!r}: node {owner} no longer holds it (now {holder.owner or 'nobody'});"
            f" not {what}"
        )


async def _table_of(conn: AsyncConnection, game_id: int) -> str:
    """The code of game ``game_id``'s table."""
    code = (await conn.execute(sa.select(games.c.table_code).where(games.c.id == game_id))).scalar()
    if code is None:
        raise StorageError(f"no game {game_id}")
    return str(code)


async def _update_table(conn: AsyncConnection, code: str, values: dict[str, Any]) -> None:
    if values:
        result = await conn.execute(tables.update().where(tables.c.code == code).values(**values))
        found = result.rowcount > 0
    else:
        found = await _exists(conn, tables.c.code == code)
    if not found:
        raise StorageError(f"no table {code!r}")


async def _finish(conn: AsyncConnection, game_id: int, result: str) -> None:
    updated = await conn.execute(
        games.update()
        .where(games.c.id == game_id, games.c.finished_at.is_(None))
        .values(finished_at=_now(), result=result)
    )
    if updated.rowcount == 0:
        if await _exists(conn, games.c.id == game_id):
            raise StorageError(f"game {game_id} is already finished")
        raise StorageError(f"no game {game_id}")


def _lock_path(url: str) -> Path:
    return Path(str(_parse_url(url).database) + ".lock")


def _service_key(url: str) -> tuple[str, int]:
    """The schema of a PostgreSQL URL and the advisory lock key of its room service."""
    schema = _parse_url(url).query.get("schema")
    name = schema if isinstance(schema, str) else "public"
    return name, (_PG_SERVICE_LOCK << 32) | zlib.crc32(name.encode())


async def _try_service_lock(
    conn: AsyncConnection, name: str, key: int, shared: bool
) -> StorageBusy | None:
    """Take the service's advisory lock on ``conn`` (shared: a cluster node's); None, or
    the refusal, which says who holds it."""
    if shared:
        got = (await conn.execute(sa.select(sa.func.pg_try_advisory_lock_shared(key)))).scalar()
        if got:
            return None
        # Only an exclusive holder keeps a shared lock out: a single service.
        return StorageBusy(
            f"a single Una service (una serve or una telegram without --redis) uses schema "
            f"{name!r} of this PostgreSQL database: stop it before starting --redis nodes there"
        )
    got = (await conn.execute(sa.select(sa.func.pg_try_advisory_lock(key)))).scalar()
    if got:
        return None
    nodes = (await conn.execute(sa.select(sa.func.pg_try_advisory_lock_shared(key)))).scalar()
    if nodes:  # it was free for sharing: the holders are cluster nodes
        await conn.execute(sa.select(sa.func.pg_advisory_unlock_shared(key)))
        return StorageBusy(
            f"Una cluster nodes (una serve --redis) use schema {name!r} of this PostgreSQL "
            "database: run this una serve with --redis too (Telegram: UNA_TELEGRAM_TOKEN on "
            "one node), or stop them"
        )
    return StorageBusy(
        f"another Una service (una serve or una telegram) uses schema {name!r} of this "
        "PostgreSQL database: stop it, or run every node with --redis"
    )


def check_service_free(url: str, *, shared: bool = False) -> None:
    """:class:`StorageBusy` if a room service holds the database of ``url`` now (a check
    before starting one; :meth:`Storage.lock_service` is the lock itself). ``shared``: the
    check of a cluster node (refused only by a single service; PostgreSQL)."""
    if _parse_url(url).get_backend_name() == "sqlite":
        path = _lock_path(url)
        if path.exists() and not shared:
            os.close(_lock_file(path))
        return

    async def probe() -> None:
        name, key = _service_key(url)
        engine = create_engine(url)
        try:
            async with engine.connect() as conn:
                busy = await _try_service_lock(conn, name, key, shared)
                if busy is None:
                    await conn.execute(sa.select(sa.func.pg_advisory_unlock_all()))
        finally:
            await engine.dispose()
        if busy is not None:
            raise busy

    with contextlib.suppress(OSError, sa.exc.SQLAlchemyError):  # unreachable: the service says
        asyncio.run(probe())


def _lock_file(path: Path) -> int:
    """An exclusive ``flock`` on ``path`` (its descriptor), which holds this process's pid;
    :class:`StorageBusy`, naming the holder, if another process has it."""
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        database = str(path.resolve())[: -len(".lock")]
        raise StorageBusy(
            f"another Una service (pid {holder}) uses {database}: one process per SQLite file "
            "(stop it; to run Telegram inside una serve, give it UNA_TELEGRAM_TOKEN and "
            "UNA_TELEGRAM_POLLING=1)"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


async def _exists(conn: AsyncConnection, condition: sa.ColumnElement[bool]) -> bool:
    found = await conn.execute(sa.select(sa.literal(1)).where(condition).limit(1))
    return found.first() is not None
