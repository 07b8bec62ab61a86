"""The Telegram tables: a chat's saves land in the order they were made."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from una.server.storage import Storage
from una.telegram.store import ChatState, TelegramStore


def test_a_slow_save_never_overwrites_a_later_one(tmp_path: Path) -> None:
    # The group's board marks lines announced while a hand message records its new id: two
    # saves of one chat at once. If the first waits longer for its connection, it must not
    # commit the state as it was before the second (a restart would tell the lines again).
    async def scenario() -> int:
        storage = await Storage.open(f"sqlite+aiosqlite:///{tmp_path / 'una.db'}")
        try:
            store = TelegramStore(storage)
            state = ChatState(chat_id=-100, announced=0)
            await store.save_chat(state)
            begin = store.engine.begin
            calls = 0

            @contextlib.asynccontextmanager
            async def slow_first(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
                nonlocal calls
                calls += 1
                if calls == 1:
                    await asyncio.sleep(0.2)
                async with begin(*args, **kwargs) as conn:
                    yield conn

            store.engine = type("Slow", (), {"begin": staticmethod(slow_first)})()  # type: ignore[assignment]
            state.announced = 5
            first = asyncio.create_task(store.save_chat(state))
            await asyncio.sleep(0.05)  # the first save is under way, waiting
            state.announced = 9
            await asyncio.gather(first, store.save_chat(state))
            store.engine = storage.engine
            stored = await store.chat(-100)
            assert stored is not None
            return stored.announced
        finally:
            await storage.close()

    assert asyncio.run(scenario()) == 9
