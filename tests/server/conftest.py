"""Fixtures for the server tests: ``server`` (``una serve`` on its own SQLite file), and
``storage_url``: one SQLite file, one fresh PostgreSQL schema.

``storage_url`` runs a test once per backend (ids ``sqlite`` and ``postgresql``). The PostgreSQL
URL (``UNA_TEST_POSTGRES``, default ``postgresql://postgres@127.0.0.1:5432/test``) gets a new
schema per test through ``?schema=``, which ``Storage.open`` creates and uses as the
``search_path``; the schema is dropped afterwards and no other schema is touched. Without a
reachable PostgreSQL the PostgreSQL cases skip, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from serverkit import Server

from una.server.storage import create_engine

POSTGRES_URL = os.environ.get("UNA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")

_postgres_problem: list[str | None] = []  # cached: None when reachable, else the reason


async def _execute(sql: str) -> None:
    engine = create_engine(POSTGRES_URL, connect_args={"timeout": 5})
    try:
        async with engine.begin() as conn:
            await conn.exec_driver_sql(sql)
    finally:
        await engine.dispose()


def _postgres_reachable() -> str | None:
    if not _postgres_problem:
        try:
            asyncio.run(_execute("SELECT 1"))
            _postgres_problem.append(None)
        except (OSError, TimeoutError, sa.exc.SQLAlchemyError) as error:
            _postgres_problem.append(f"PostgreSQL at {POSTGRES_URL} is unreachable: {error!r}")
    return _postgres_problem[0]


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


@pytest.fixture(params=["sqlite", "postgresql"])
def storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL of its own for this test, on each backend in turn."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'una.db'}"
        return
    yield from _postgres_schema()


def _postgres_schema() -> Iterator[str]:
    """The PostgreSQL URL with a new schema, dropped afterwards (skipped, or failed under CI,
    without a reachable PostgreSQL)."""
    _need(_postgres_reachable())
    schema = f"una_test_{uuid.uuid4().hex[:12]}"
    separator = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{separator}schema={schema}"
    finally:
        asyncio.run(_execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


REDIS_URL = os.environ.get("UNA_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _need(problem: str | None) -> None:
    if problem is not None:
        if _in_ci():
            pytest.fail(f"{problem} (CI is set: the PostgreSQL and Redis tests must run)")
        pytest.skip(problem)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL with a fresh schema of its own (dropped afterwards)."""
    yield from _postgres_schema()


@pytest.fixture
def redis_url() -> str:
    """The Redis of the cluster tests (``UNA_TEST_REDIS``); a cluster's keys are named
    after its database schema, so tests do not meet."""
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_timeout=5).ping()
    except (redis.RedisError, OSError) as error:
        _need(f"Redis at {REDIS_URL} is unreachable: {error!r}")
    return REDIS_URL


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """``una serve`` in a child process, on a SQLite database of its own."""
    running = Server(f"sqlite:///{tmp_path / 'una.db'}").start()
    yield running
    running.stop()
