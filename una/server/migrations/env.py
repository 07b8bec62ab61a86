"""Alembic environment of the server database (see ``una.server.storage``).

The server runs the migrations itself: ``Storage.open`` opens an async connection, takes the
migration lock and calls ``command.upgrade(config, "head")`` through ``run_sync``, handing the
(sync view of the) connection over in ``config.attributes["connection"]``; the transaction is
the caller's. Without a connection (Alembic run by hand on ``alembic_config(url)``), this file
makes its own async engine from ``sqlalchemy.url`` with ``asyncio.run``.

Imported outside Alembic (pytest's doctest collection imports every module), it does nothing.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from una.server.storage import create_engine, metadata

target_metadata = metadata


def run_migrations_offline() -> None:
    """Emit the SQL instead of running it (``alembic upgrade head --sql``)."""
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite alters tables by copying them: let autogenerate write batch operations.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations(url: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        do_run_migrations(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if url is None:
        raise RuntimeError("no connection and no sqlalchemy.url: use alembic_config(url)")
    asyncio.run(run_async_migrations(url))


if hasattr(context, "config"):  # run by Alembic, not merely imported
    if context.is_offline_mode():
        run_migrations_offline()
    else:
        run_migrations_online()
