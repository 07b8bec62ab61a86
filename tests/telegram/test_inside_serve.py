"""Long polling inside ``una serve`` (``UNA_TELEGRAM_POLLING``): the bot plays at the server's
own tables, in the server's process; no second service restores them."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tgfake import FakeTelegram, User
from tgkit import TOKEN, aio

BOB = User(102, "Bob", "en")
UNA = str(Path(sys.executable).parent / "una")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def health(port: int) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
            found: dict[str, object] = json.loads(response.read())
            return found
    except OSError:
        return None


@aio
async def test_una_serve_polls_telegram_for_its_own_tables(tmp_path: Path) -> None:
    fake = await FakeTelegram().start()
    port = free_port()
    env = {**os.environ, "UNA_TELEGRAM_TOKEN": TOKEN, "UNA_TELEGRAM_POLLING": "1",
           "UNA_TELEGRAM_API_URL": fake.url}  # fmt: skip
    command = [UNA, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'una.db'}",
               "--bot-delay", "0.05", "--log-level", "warning"]  # fmt: skip
    server = subprocess.Popen(command, env=env)
    try:
        deadline = time.monotonic() + 30
        while health(port) is None:
            assert server.poll() is None and time.monotonic() < deadline, "una serve did not start"
            await asyncio.sleep(0.1)
        # The card faces of the inline mode are served whenever una serve runs the bot.
        url = f"http://127.0.0.1:{port}/telegram/cards/R7.jpg"
        with urllib.request.urlopen(url, timeout=5) as response:
            assert response.headers["Content-Type"] == "image/jpeg"
            assert response.read()[:3] == b"\xff\xd8\xff"
        chat = -100777
        await fake.say(chat, BOB, "/start")
        await fake.wait_for(lambda: fake.latest(chat) is not None, timeout=20)
        assert "registration" in fake.latest(chat).text  # type: ignore[union-attr]
        for command_ in ("/addbot", "/begin"):  # one at a time, as a person types them
            calls = len(fake.calls)
            await fake.say(chat, BOB, command_)
            await fake.wait_for(lambda calls=calls: len(fake.calls) > calls, timeout=20)
            await asyncio.sleep(0.5)

        async def tables() -> object:
            found = await asyncio.to_thread(health, port)
            return found and found["tables"]

        for _ in range(100):  # the match is a table of the server's own service
            if await tables() == 1:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"the server holds {await tables()} tables, not 1")
    finally:
        server.terminate()
        server.wait(20)
        await fake.close()
