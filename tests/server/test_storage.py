"""Storage on real databases: every test runs on SQLite and on PostgreSQL (``storage_url``)."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import random
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from una.engine import Game, Record
from una.server.storage import (
    AppendRefused,
    LeaseLost,
    Storage,
    StorageBusy,
    StorageError,
    TableExists,
    async_url,
    check_service_free,
    metadata,
)
from una.telegram.store import metadata as telegram_metadata

P = ParamSpec("P")


def aio(test: Callable[P, Coroutine[Any, Any, None]]) -> Callable[P, None]:
    """Run an async test in a fresh event loop (pytest sees the same fixtures)."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


async def _new_game(storage: Storage, code: str = "K7QX2") -> int:
    player, _ = await storage.create_player("Ann")
    await storage.create_table(code, player.id, {"rules": "standard", "seats": 2})
    return await storage.start_game(code, {"rules": "standard", "players": 2, "seed": 1})


# ---------------------------------------------------------------------------- URLs


def test_async_url_forms() -> None:
    assert async_url("sqlite:///a/b.db") == "sqlite+aiosqlite:///a/b.db"
    assert async_url("sqlite:////abs/b.db") == "sqlite+aiosqlite:////abs/b.db"
    assert async_url("sqlite+aiosqlite:///b.db") == "sqlite+aiosqlite:///b.db"
    assert async_url("postgresql://u@h:5432/db") == "postgresql+asyncpg://u@h:5432/db"
    assert async_url("postgres://u:p%40ss@h/db") == "postgresql+asyncpg://u:p%40ss@h/db"
    assert async_url("postgresql+asyncpg://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert async_url("/var/una.db") == "sqlite+aiosqlite:////var/una.db"


@pytest.mark.parametrize(
    "url",
    ["mysql://u:secret@h/db", "postgresql+psycopg2://u:secret@h/db", "sqlite://", ":memory:", ""],
)
def test_async_url_refuses(url: str) -> None:
    with pytest.raises(StorageError) as caught:
        async_url(url)
    assert "secret" not in str(caught.value)


@aio
async def test_bad_schema_names(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="schema"):
        await Storage.open("postgresql://u@127.0.0.1/db", schema="x; DROP TABLE y")
    with pytest.raises(StorageError, match="PostgreSQL"):
        await Storage.open(f"sqlite:///{tmp_path / 'a.db'}", schema="s")
    with pytest.raises(StorageError, match="PostgreSQL"):
        await Storage.open(f"sqlite:///{tmp_path / 'a.db'}?schema=s")


# ---------------------------------------------------------------------------- migrations


@aio
async def test_sqlite_files_opened_together_all_open(tmp_path: Path) -> None:
    # A fresh file's switch to WAL races between connections opened at once; SQLite answers
    # "database is locked" without waiting, so the connect hook must retry (this failed most
    # rounds before it did).
    for round_ in range(8):
        url = f"sqlite:///{tmp_path / f'race{round_}.db'}"
        opened = await asyncio.gather(*(Storage.open(url) for _ in range(4)))
        for storage in opened:
            async with storage.engine.connect() as conn:
                mode = await conn.exec_driver_sql("PRAGMA journal_mode")
                assert mode.scalar_one() == "wal"
            await storage.close()


@aio
async def test_migrations_run_once_and_reopen(storage_url: str) -> None:
    first, second, third = await asyncio.gather(*(Storage.open(storage_url) for _ in range(3)))
    await first.close()
    await second.close()
    await third.close()
    async with await Storage.open(storage_url) as storage:
        assert storage.url == async_url(storage_url)
        assert storage.dialect == storage_url.split(":")[0].split("+")[0]
        async with storage.engine.connect() as conn:
            versions = await conn.execute(sa.text("SELECT version_num FROM alembic_version"))
            assert versions.scalars().all() == ["0006"]
    if "?schema=" in storage_url:  # the same schema, given as an argument
        base, schema = storage_url.split("?schema=")
        async with await Storage.open(base, schema=schema) as storage:
            assert storage.url == async_url(storage_url)
            async with storage.engine.connect() as conn:
                assert (await conn.execute(sa.text("SELECT current_schema()"))).scalar() == schema
                found = await conn.execute(
                    sa.text("SELECT count(*) FROM pg_tables WHERE schemaname = :s"), {"s": schema}
                )
                # players, tables, games, actions, game_players, alembic_version, and
                # Telegram's two
                assert found.scalar() == 8


@aio
async def test_migrations_match_the_models(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage, storage.engine.connect() as conn:

        def differences(sync: sa.Connection) -> list[Any]:
            # Both models at once: the server's and the Telegram bot's tables.
            both = sa.MetaData()
            for table in [*metadata.tables.values(), *telegram_metadata.tables.values()]:
                table.to_metadata(both)
            return list(compare_metadata(MigrationContext.configure(sync), both))

        assert await conn.run_sync(differences) == []


@aio
async def test_sqlite_file_settings(tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "una.db"
    async with await Storage.open(f"sqlite:///{path}") as storage:
        assert path.exists()
        assert storage.dialect == "sqlite"
        async with storage.engine.connect() as conn:
            assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
            assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1


# ---------------------------------------------------------------------------- players


@aio
async def test_player_token_round_trip(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        ann, token = await storage.create_player("Лена 🃏")
        bob, other = await storage.create_player("Bob")
        assert token != other and len(token) >= 40
        assert ann.name == "Лена 🃏" and ann.icon is None and ann.settings == {}
        assert ann.created_at.tzinfo is not None
        assert abs((datetime.now(UTC) - ann.created_at).total_seconds()) < 60

        found = await storage.player_by_token(token)
        assert found is not None and found.id == ann.id and found.name == ann.name
        assert found.seen_at >= ann.seen_at
        assert await storage.player_by_token(token + "x") is None
        assert await storage.player_by_token("") is None
        assert await storage.player(bob.id) == bob
        assert await storage.player(10_000) is None

        async with storage.engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT * FROM players ORDER BY id"))).all()
        stored = " ".join(str(value) for row in rows for value in row)
        assert token not in stored and other not in stored
        assert rows[0].token_hash == hashlib.sha256(token.encode()).hexdigest()


@aio
async def test_update_player(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        ann, token = await storage.create_player("Ann")
        icon = b"\x89PNG\r\n\x1a\n\x00\x00binary\x00"
        await storage.update_player(ann.id, icon=icon, settings={"sound": False, "lang": "ru"})
        row = await storage.player(ann.id)
        assert row is not None
        assert (row.name, row.icon, row.settings) == ("Ann", icon, {"sound": False, "lang": "ru"})

        await storage.update_player(ann.id, name="Anna")  # the icon stays
        row = await storage.player(ann.id)
        assert row is not None and (row.name, row.icon) == ("Anna", icon)

        await storage.update_player(ann.id, icon=None)  # reset
        row = await storage.player_by_token(token)
        assert row is not None and row.icon is None and row.settings["lang"] == "ru"

        await storage.update_player(ann.id)  # nothing to change is fine
        with pytest.raises(StorageError, match="no player 999"):
            await storage.update_player(999, name="X")
        with pytest.raises(StorageError, match="no player 999"):
            await storage.update_player(999)
        with pytest.raises(ValueError, match="NUL"):
            await storage.update_player(ann.id, name="A\x00B")
        with pytest.raises(ValueError, match="NUL"):
            await storage.create_player("\x00")


# ---------------------------------------------------------------------------- tables


@aio
async def test_table_lifecycle(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        host, _ = await storage.create_player("Host")
        config = {"rules": {"preset": "byond"}, "seats": 8, "bots": [{"level": 2}], "timer": 30}
        await storage.create_table("K7QX2", host.id, config)
        await storage.create_table("AB123", None, {})
        with pytest.raises(TableExists):
            await storage.create_table("K7QX2", None, {})

        listed = await storage.open_tables()
        assert [t.code for t in listed] == ["K7QX2", "AB123"]  # oldest first
        assert listed[0].config == config and listed[0].host_id == host.id
        assert listed[0].status == "open" and not listed[0].closed

        await storage.update_table("K7QX2", status="playing")
        await storage.update_table("K7QX2", config={"seats": 4})
        table = await storage.table("K7QX2")
        assert table is not None and (table.status, table.config) == ("playing", {"seats": 4})

        await storage.close_table("K7QX2")
        await storage.close_table("K7QX2")  # twice is fine
        table = await storage.table("K7QX2")
        assert table is not None and table.closed and table.status == "closed"
        assert table.closed_at is not None and table.closed_at >= table.created_at
        assert [t.code for t in await storage.open_tables()] == ["AB123"]
        with pytest.raises(TableExists):  # codes of closed tables stay taken
            await storage.create_table("K7QX2", None, {})

        assert await storage.table("NOPE") is None
        for call in (
            storage.update_table("NOPE", status="x"),
            storage.update_table("NOPE"),
            storage.close_table("NOPE"),
            storage.start_game("NOPE", {}),
        ):
            with pytest.raises(StorageError, match="no table 'NOPE'"):
                await call
        with pytest.raises(StorageError, match="closed"):
            await storage.start_game("K7QX2", {})


# ---------------------------------------------------------------------------- games


@aio
async def test_game_actions_in_order(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        game_id = await _new_game(storage)
        empty = await storage.game(game_id)
        assert empty is not None and empty.actions == [] and empty.next_seq == 0
        assert not empty.finished and empty.result is None

        await storage.append_action(game_id, 0, 1, "play R5")
        await storage.append_action(game_id, 1, 0, "draw", auto=True)
        await storage.append_action(game_id, 2, 0, "pass", True)
        row = await storage.game(game_id)
        assert row is not None
        assert row.actions == [(1, "play R5"), (0, "draw"), (0, "pass")]
        assert row.auto == [False, True, True] and row.seqs == [0, 1, 2] and row.next_seq == 3
        assert await storage.record(game_id) == {
            "rules": "standard",
            "players": 2,
            "seed": 1,
            "actions": [[1, "play R5"], [0, "draw"], [0, "pass"]],
        }
        assert await storage.game(999) is None
        with pytest.raises(StorageError, match="no game 999"):
            await storage.record(999)


@aio
async def test_duplicate_seq_refused_alone(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        first = await _new_game(storage, "AAAAA")
        second = await _new_game(storage, "BBBBB")
        await storage.append_action(second, 0, 0, "draw")
        with pytest.raises(AppendRefused, match="seq 0") as caught:
            await storage.append_action(second, 0, 1, "pass")
        assert isinstance(caught.value.__cause__, sa.exc.IntegrityError)

        # in one batch with good rows: only the bad one fails
        results = await asyncio.gather(
            storage.append_action(first, 0, 0, "draw"),
            storage.append_action(second, 0, 1, "uno"),
            storage.append_action(first, 1, 0, "pass"),
            storage.append_action(999, 0, 0, "draw"),  # no such game
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], AppendRefused) and isinstance(results[3], AppendRefused)
        assert (await storage.record(first))["actions"] == [[0, "draw"], [0, "pass"]]
        row = await storage.game(second)
        assert row is not None and row.actions == [(0, "draw")]

        with pytest.raises(ValueError, match="seq"):
            await storage.append_action(first, -1, 0, "draw")
        with pytest.raises(ValueError, match="must not carry actions"):
            await storage.start_game("AAAAA", {"rules": "standard", "actions": [[0, "draw"]]})


@aio
async def test_concurrent_appends_batched_and_ordered(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        host, _ = await storage.create_player("Host")
        ids = []
        for n in range(10):
            await storage.create_table(f"T{n}", host.id, {})
            ids.append(await storage.start_game(f"T{n}", {"players": 4}))
        rng = random.Random(5)
        calls = [(game_id, seq) for game_id in ids for seq in range(20)]
        rng.shuffle(calls)  # interleave the games ...
        seqs = {game_id: iter(range(20)) for game_id in ids}
        calls = [(game_id, next(seqs[game_id])) for game_id, _ in calls]  # ... each in order

        await asyncio.gather(
            *(storage.append_action(g, seq, seq % 4, f"play R{seq % 10}") for g, seq in calls)
        )
        assert storage.batches < len(calls)  # committed together, not one by one
        for game_id in ids:
            row = await storage.game(game_id)
            assert row is not None and row.seqs == list(range(20))
            assert row.actions == [(seq % 4, f"play R{seq % 10}") for seq in range(20)]


@aio
async def test_the_writer_keeps_one_connection_and_replaces_a_broken_one(storage_url: str) -> None:
    # A checkout from the pool pings PostgreSQL first: the writer keeps its connection
    # between batches instead, and a connection that broke is replaced, no row lost.
    async with await Storage.open(storage_url) as storage:
        game_id = await _new_game(storage)
        checkouts: list[object] = []
        pool = storage.engine.sync_engine.pool
        sa.event.listen(pool, "checkout", lambda *args: checkouts.append(args[0]))
        for seq in range(10):
            await storage.append_action(game_id, seq, 0, "draw")
        assert len(checkouts) <= 1 and storage.batches == 10
        if storage.dialect == "postgresql":
            conn = storage._writer_conn
            assert conn is not None
            raw = await conn.get_raw_connection()
            pid = raw.driver_connection.get_server_pid()  # type: ignore[union-attr]
            async with storage.engine.connect() as other:
                await other.execute(sa.text(f"SELECT pg_terminate_backend({int(pid)})"))
            for seq in range(10, 14):
                await storage.append_action(game_id, seq, 0, "draw")
            assert storage._writer_conn is not None and storage._writer_conn is not conn
        written = 14 if storage.dialect == "postgresql" else 10
        row = await storage.game(game_id)
        assert row is not None and row.seqs == list(range(written))


@aio
async def test_close_writes_what_is_queued(storage_url: str) -> None:
    storage = await Storage.open(storage_url)
    game_id = await _new_game(storage)
    pending = [asyncio.create_task(storage.append_action(game_id, s, 0, "draw")) for s in range(5)]
    await asyncio.sleep(0)  # the tasks have queued their rows
    await storage.close()
    await storage.close()
    await asyncio.gather(*pending)
    with pytest.raises(StorageError, match="closed"):
        await storage.append_action(game_id, 5, 0, "draw")
    async with await Storage.open(storage_url) as again:
        row = await again.game(game_id)
        assert row is not None and row.seqs == [0, 1, 2, 3, 4]


@aio
async def test_record_replays_a_real_game(storage_url: str) -> None:
    game = Game("standard", players=["Ann", "Bob", "Cy"], seed=11)
    header = game.to_record().to_json()
    del header["actions"]
    rng = random.Random(3)
    async with await Storage.open(storage_url) as storage:
        await storage.create_table("REAL1", None, {"rules": "standard"})
        game_id = await storage.start_game("REAL1", header)
        for seq in range(120):
            seat = game.to_act if game.to_act is not None else 0
            legal = game.legal_actions(seat)
            if not legal or game.match_over:
                break
            action = rng.choice(legal)
            await storage.append_action(game_id, seq, seat, action.code)
            game.apply(seat, action)

        record = await storage.record(game_id)
    assert len(record["actions"]) > 50
    assert record == game.to_record().to_json()  # NOTATION.md's shape, key for key
    replayed = Record.from_json(record).replay()
    assert replayed.state_json() == game.state_json()


@aio
async def test_finish_and_live_games(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        done = await _new_game(storage, "DONE1")
        live = await _new_game(storage, "LIVE1")
        gone = await _new_game(storage, "GONE1")
        for seq in range(3):
            await storage.append_action(live, seq, seq % 2, "draw", auto=seq == 1)
        await storage.append_action(gone, 0, 0, "draw")
        assert [g.id for g in await storage.live_games()] == [done, live, gone]

        await storage.finish_game(done, {"winner": 1, "scores": [0, 57]})
        await storage.close_table("GONE1")
        games = await storage.live_games()
        assert [g.id for g in games] == [live]
        assert games[0].actions == [(0, "draw"), (1, "draw"), (0, "draw")]
        assert games[0].auto == [False, True, False] and games[0].table_code == "LIVE1"

        finished = await storage.game(done)
        assert finished is not None and finished.finished
        assert finished.result == {"winner": 1, "scores": [0, 57]}
        with pytest.raises(StorageError, match="already finished"):
            await storage.finish_game(done, {})
        with pytest.raises(StorageError, match="no game 999"):
            await storage.finish_game(999, {})


@aio
async def test_durable_across_a_restart(storage_url: str) -> None:
    crashed = await Storage.open(storage_url)  # a server that never closes cleanly
    player, token = await crashed.create_player("Ann")
    await crashed.update_player(player.id, settings={"auto": True})
    await crashed.create_table("K7QX2", player.id, {"seats": 2})
    game_id = await crashed.start_game("K7QX2", {"rules": "standard", "players": 2})
    await crashed.append_action(game_id, 0, 1, "draw")

    async with await Storage.open(crashed.url) as restarted:
        again = await restarted.player_by_token(token)
        assert again is not None and again.settings == {"auto": True}
        assert [t.code for t in await restarted.open_tables()] == ["K7QX2"]
        (live,) = await restarted.live_games()
        assert live.id == game_id and live.actions == [(1, "draw")]
        await restarted.append_action(game_id, 1, 1, "pass")
    await crashed.close()


# ------------------------------------------------------- one transaction per table change


@aio
async def test_a_match_start_is_one_transaction(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        old = await _new_game(storage, "K7QX2")
        header = {"format": "una/1", "rules": "standard", "players": ["A", "B"], "seed": 2}
        new = await storage.start_game(
            "K7QX2", header, engine_version="9.9", config={"seats": 2, "game_seats": [0, 1]},
            status="playing", finish=(old, {"ended": "by vote"}),
        )  # fmt: skip
        table = await storage.table("K7QX2")
        assert table is not None and table.status == "playing"
        assert table.config == {"seats": 2, "game_seats": [0, 1]}
        ended, started = await storage.game(old), await storage.game(new)
        assert ended is not None and ended.result == {"ended": "by vote"}
        assert started is not None and not started.finished
        assert (started.record_format, started.engine_version) == ("una/1", "9.9")
        # One part refused (the game to finish is finished already): nothing of it is written.
        with pytest.raises(StorageError, match="already finished"):
            await storage.start_game("K7QX2", header, config={"seats": 3}, status="x",
                                     finish=(old, {}))  # fmt: skip
        table = await storage.table("K7QX2")
        assert table is not None and table.status == "playing" and table.config["seats"] == 2
        assert [g.id for g in await storage.live_games()] == [new]
        with pytest.raises(TypeError, match="config must be a dict"):
            await storage.start_game("K7QX2", header, config=[])  # type: ignore[arg-type]
        assert [g.id for g in await storage.live_games()] == [new]


@aio
async def test_a_finish_writes_the_table_with_it(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        game_id = await _new_game(storage, "K7QX2")
        with pytest.raises(StorageError, match="no table 'NOPE'"):
            await storage.finish_game(game_id, {"winner": 0}, table_code="NOPE", status="over")
        game = await storage.game(game_id)
        assert game is not None and not game.finished  # rolled back with the table's part
        await storage.finish_game(game_id, {"winner": 0}, table_code="K7QX2", status="over",
                                  config={"seats": 2, "banned": []})  # fmt: skip
        table = await storage.table("K7QX2")
        assert table is not None and table.status == "over" and table.config["banned"] == []
        bob, _ = await storage.create_player("Bob")
        await storage.update_table("K7QX2", host_id=bob.id)
        table = await storage.table("K7QX2")
        assert table is not None and table.host_id == bob.id
        with pytest.raises(ValueError, match="host_id"):
            await storage.update_table("K7QX2", host_id=-1)


@aio
async def test_a_quarantined_game_is_no_longer_live(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        game_id = await _new_game(storage, "K7QX2")
        other = await _new_game(storage, "OTHER")
        await storage.append_action(game_id, 0, 0, "dance")
        await storage.quarantine_game(game_id, "ReplayError: dance", table_code="K7QX2",
                                      config={"seats": 2}, status="waiting")  # fmt: skip
        assert [g.id for g in await storage.live_games()] == [other]
        game = await storage.game(game_id)
        assert game is not None and game.quarantined and not game.finished
        assert game.quarantine_reason == "ReplayError: dance" and game.actions == [(0, "dance")]
        table = await storage.table("K7QX2")
        assert table is not None and table.status == "waiting"
        with pytest.raises(StorageError, match="no game 999"):
            await storage.quarantine_game(999, "x")


@aio
async def test_closing_a_table_finishes_its_game_at_once(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        game_id = await _new_game(storage, "K7QX2")
        done = await _new_game(storage, "DONE1")
        await storage.finish_game(done, {"winner": 0})
        await storage.close_table("K7QX2", unfinished=(game_id, {"ended": "table closed"}))
        await storage.close_table("DONE1", unfinished=(done, {"ended": "table closed"}))
        closed, kept = await storage.game(game_id), await storage.game(done)
        assert closed is not None and closed.result == {"ended": "table closed"}
        assert kept is not None and kept.result == {"winner": 0}  # finished before: kept
        assert await storage.open_tables() == [] and await storage.live_games() == []


# ---------------------------------------------------------------- ownership


@aio
async def test_one_service_per_database(storage_url: str) -> None:
    async with await Storage.open(storage_url) as first, await Storage.open(storage_url) as second:
        await first.lock_service()
        await first.lock_service()  # again: it holds it already
        with pytest.raises(StorageBusy, match="another Una service"):
            await second.lock_service()
        with pytest.raises(StorageBusy):  # the CLI's check (outside an event loop)
            await asyncio.to_thread(check_service_free, storage_url)
        await first.unlock_service()
        await asyncio.to_thread(check_service_free, storage_url)
        await second.lock_service()  # free again
    async with await Storage.open(storage_url) as third:
        await third.lock_service()  # closing the storage let it go


@aio
async def test_cluster_nodes_and_a_single_service_refuse_each_other(storage_url: str) -> None:
    if storage_url.startswith("sqlite"):
        async with await Storage.open(storage_url) as storage:
            with pytest.raises(StorageError, match="PostgreSQL"):
                await storage.lock_service(shared=True)
        return
    async with (
        await Storage.open(storage_url) as a,
        await Storage.open(storage_url) as b,
        await Storage.open(storage_url) as single,
    ):
        # Nodes share the lock; a single service is refused, naming them.
        await a.lock_service(shared=True)
        await b.lock_service(shared=True)
        with pytest.raises(StorageBusy, match=r"cluster nodes \(una serve --redis\)"):
            await single.lock_service()
        with pytest.raises(StorageBusy, match="cluster nodes"):
            await asyncio.to_thread(check_service_free, storage_url)
        await asyncio.to_thread(check_service_free, storage_url, shared=True)  # a third node
        await a.unlock_service()
        with pytest.raises(StorageBusy, match="cluster nodes"):
            await single.lock_service()  # b still holds it
        await b.unlock_service()
        # The other way: a single service keeps the nodes out.
        await single.lock_service()
        with pytest.raises(StorageBusy, match=r"single Una service .* without --redis"):
            await a.lock_service(shared=True)
        with pytest.raises(StorageBusy, match="single Una service"):
            await asyncio.to_thread(check_service_free, storage_url, shared=True)
        await single.unlock_service()
        await a.lock_service(shared=True)


@aio
async def test_a_node_that_lost_its_lease_cannot_append_or_close(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        await storage.create_table("FENCE", None, {"seats": 2}, owner="a", lease=30)
        game_id = await storage.start_game("FENCE", {"rules": "standard", "players": 2, "seed": 1})
        await storage.append_action(game_id, 0, 0, "deal", owner="a")
        # a is paused past its lease; b takes the table over and appends.
        await storage.renew_leases("a", 0.01)
        await asyncio.sleep(0.05)
        assert await storage.claim_tables("b", 30) == ["FENCE"]
        # a wakes up and writes seq 1 first: refused, so the new owner's seq 1 goes in.
        with pytest.raises(LeaseLost, match="no longer holds"):
            await storage.append_action(game_id, 1, 0, "draw", owner="a")
        await storage.append_action(game_id, 1, 1, "pass", owner="b")
        # In one batch with the owner's appends, only a's are refused.
        results = await asyncio.gather(
            storage.append_action(game_id, 2, 0, "draw", owner="b"),
            storage.append_action(game_id, 3, 0, "pass", owner="a"),
            storage.append_action(game_id, 3, 1, "draw", owner="b"),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], LeaseLost)
        # A duplicate of the owner's, batched with a's: each refused for its own reason.
        results = await asyncio.gather(
            storage.append_action(game_id, 3, 1, "pass", owner="b"),
            storage.append_action(game_id, 4, 0, "pass", owner="a"),
            return_exceptions=True,
        )
        assert type(results[0]) is AppendRefused and isinstance(results[1], LeaseLost)
        with pytest.raises(LeaseLost):
            await storage.close_table("FENCE", owner="a")
        # Every other write of the table is fenced alike, and writes nothing.
        before = await storage.table("FENCE")
        header = {"rules": "standard", "players": 2, "seed": 2}
        stale_writes = {
            "updated": storage.update_table("FENCE", config={"seats": 3}, owner="a"),
            "given a game": storage.start_game(
                "FENCE", header, finish=(game_id, {"ended": "new"}), status="x", owner="a"
            ),
            "finished": storage.finish_game(game_id, {"winner": 0}, owner="a"),
            "quarantined": storage.quarantine_game(game_id, "stale", owner="a"),
        }
        for what, write in stale_writes.items():
            with pytest.raises(LeaseLost, match=f"not {what}$"):
                await write
        assert await storage.table("FENCE") == before
        assert [g.id for g in await storage.live_games(["FENCE"])] == [game_id]
        await storage.update_table("FENCE", config={"seats": 2, "by": "b"}, owner="b")
        assert (await storage.table("FENCE")).config == {"seats": 2, "by": "b"}  # type: ignore[union-attr]
        game = await storage.game(game_id)
        assert game is not None
        assert game.seqs == [0, 1, 2, 3]  # the new owner's log, none of a's late writes
        assert game.actions == [(0, "deal"), (1, "pass"), (0, "draw"), (1, "draw")]
        assert [r.code for r in await storage.open_tables(["FENCE"])] == ["FENCE"]
        # Given back, nobody holds it: a fenced write is refused too.
        await storage.release_leases("b")
        with pytest.raises(LeaseLost):
            await storage.append_action(game_id, 4, 0, "pass", owner="b")
        assert await storage.claim_tables("b", 30) == ["FENCE"]
        await storage.close_table("FENCE", owner="b")
        await storage.close_table("FENCE", owner="b")  # twice: a no-op
        assert await storage.open_tables(["FENCE"]) == []


@aio
async def test_leases_one_owner_renewed_taken_over_when_run_out(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        await storage.create_table("MINE1", None, {"seats": 2}, owner="a", lease=30)
        await storage.create_table("FREE1", None, {"seats": 2})
        await storage.create_table("SHUT1", None, {"seats": 2})
        await storage.close_table("SHUT1")
        # Node b claims what nobody holds, and not a's live lease nor a closed table.
        assert await storage.claim_tables("b", 30) == ["FREE1"]
        assert await storage.claim_tables("c", 30) == []
        assert await storage.table_owner("MINE1") == "a"
        assert await storage.table_owner("FREE1") == "b"
        assert await storage.table_owner("SHUT1") is None
        assert await storage.renew_leases("a", 30) == {"MINE1"}
        # a stops renewing (dies): once its lease ran out, another node takes the table.
        await storage.renew_leases("a", 0.01)
        await asyncio.sleep(0.05)
        assert await storage.table_owner("MINE1") is None
        assert await storage.claim_tables("c", 30) == ["MINE1"]
        assert await storage.renew_leases("a", 30) == set()  # a's heartbeat learns it lost it
        await storage.release_leases("b")
        assert await storage.table_owner("FREE1") is None
        assert await storage.claim_tables("c", 30) == ["FREE1"]
        assert {r.code for r in await storage.open_tables(["FREE1", "SHUT1"])} == {"FREE1"}


@aio
async def test_telegram_tables_made_before_alembic_lose_their_clear_tokens(
    storage_url: str,
) -> None:
    async with await Storage.open(storage_url) as storage, storage.engine.begin() as conn:
        # The database as the bot left it before revision 0006: its own tables, clear tokens.
        await conn.execute(sa.text("DROP TABLE tg_users"))
        await conn.execute(sa.text(
            "CREATE TABLE tg_users (tg_id BIGINT PRIMARY KEY, player_id INTEGER NOT NULL, "
            "token TEXT NOT NULL, name TEXT NOT NULL, lang VARCHAR(8) NOT NULL)"
        ))  # fmt: skip
        await conn.execute(sa.text("INSERT INTO tg_users VALUES (7, 1, 'clear', 'Ann', 'ru')"))
        await conn.execute(sa.text("UPDATE alembic_version SET version_num = '0005'"))
    async with await Storage.open(storage_url) as storage, storage.engine.connect() as conn:
        rows = (await conn.execute(sa.text("SELECT * FROM tg_users"))).mappings().all()
        assert [dict(row) for row in rows] == [
            {"tg_id": 7, "player_id": 1, "name": "Ann", "lang": "ru"}
        ]


@aio
async def test_new_token_replaces_the_old(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        player, old = await storage.create_player("Ann")
        new = await storage.new_token(player.id)
        assert new != old
        assert await storage.player_by_token(old) is None
        found = await storage.player_by_token(new)
        assert found is not None and found.id == player.id
        with pytest.raises(StorageError, match="no player 999"):
            await storage.new_token(999)


@aio
async def test_who_played_a_game_and_a_players_finished_games(storage_url: str) -> None:
    async with await Storage.open(storage_url) as storage:
        ann, _ = await storage.create_player("Ann")
        bob, _ = await storage.create_player("Bob")
        await storage.create_table("K7QX2", ann.id, {"rules": "standard", "seats": 3})
        header = {"format": "una/1", "rules": "standard", "players": ["Ann", "Ada", "Bob"],
                  "seed": 2}  # fmt: skip
        first = await storage.start_game("K7QX2", header, player_ids=[ann.id, None, bob.id])
        assert await storage.finished_games(ann.id) == []  # still being played
        await storage.finish_game(first, {"winner": 2, "scores": [10, 0, 70]})
        second = await storage.start_game("K7QX2", header, player_ids=[ann.id, None, None])
        await storage.finish_game(second, {"ended": "a new game was started"})
        third = await storage.start_game("K7QX2", header, player_ids=[ann.id, None, None])
        await storage.quarantine_game(third, "test")
        mine = await storage.finished_games(ann.id)
        assert [g["id"] for g in mine] == [second, first]  # newest first, no quarantined
        assert mine[1]["players"] == ["Ann", "Ada", "Bob"] and mine[1]["seat"] == 0
        assert mine[1]["result"] == {"winner": 2, "scores": [10, 0, 70]}
        assert [g["id"] for g in await storage.finished_games(bob.id)] == [first]
        assert [g["seat"] for g in await storage.finished_games(bob.id)] == [2]
        await storage.update_player(bob.id, icon=b"png")
        bob_key = (await storage.player(bob.id)).icon_key  # type: ignore[union-attr]
        seats = await storage.game_seats(first)
        assert bob_key and seats == {0: (ann.id, None), 2: (bob.id, bob_key)}
        with pytest.raises(ValueError, match="player id must be an integer"):
            await storage.start_game("K7QX2", header, player_ids=["0", None, None])  # type: ignore[list-item]
        assert [g.id for g in await storage.live_games()] == []  # nothing of it was written
