"""The webhook mode behind ``una serve``: updates posted to the app reach the same service."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import uvicorn
from starlette.applications import Starlette
from tgfake import FakeTelegram, User
from tgkit import FAST, TOKEN, aio

from una.server.rooms import RoomService
from una.server.storage import Storage
from una.telegram.bridge import Options
from una.telegram.webhook import SECRET_HEADER, mount

BOB = User(102, "Bob", "en")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@aio
async def test_webhook_feeds_the_servers_room_service(tmp_path: Path) -> None:
    fake = await FakeTelegram().start()
    storage = await Storage.open(f"sqlite+aiosqlite:///{tmp_path / 'una.db'}")
    service = RoomService(storage, bot_delay=0.02)
    await service.restore()
    app = Starlette()
    hook = await mount(
        app, service, TOKEN, api_url=fake.url, secret="s3cret",
        public_url="https://una.example.org", options=Options(**FAST),
    )  # fmt: skip
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    task = asyncio.create_task(server.serve())
    try:
        await fake.wait_for(lambda: server.started)
        assert any(c.method == "setWebhook" for c in fake.calls)
        webhook = next(c for c in fake.calls if c.method == "setWebhook")
        assert webhook.params["url"] == "https://una.example.org/telegram/webhook"
        update = {
            "update_id": 1,
            "message": {
                "message_id": 5, "date": 0, "text": "/start", "from": BOB.to_json(),
                "chat": {"id": -100555, "type": "supergroup", "title": "Web"},
                "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
            },
        }  # fmt: skip
        url = f"http://127.0.0.1:{port}/telegram/webhook"
        async with aiohttp.ClientSession() as session:
            async with session.post(url, json=update) as response:
                assert response.status == 403  # no secret
            headers = {SECRET_HEADER: "s3cret"}
            async with session.post(url, json=update, headers=headers) as response:
                assert response.status == 200
        await fake.wait_for(lambda: fake.latest(-100555) is not None)
        assert "registration" in fake.latest(-100555).text  # type: ignore[union-attr]
        assert hook.una.chats[-100555].state.players == [BOB.id]
        # The card faces of the inline mode, at the URL its results name.
        assert hook.una.options.card_url == "https://una.example.org/telegram/cards"
        async with aiohttp.ClientSession() as session:
            base = f"http://127.0.0.1:{port}/telegram/cards"
            async with session.get(f"{base}/RD2.jpg") as response:
                assert response.status == 200 and response.content_type == "image/jpeg"
                assert (await response.read())[:3] == b"\xff\xd8\xff"
            async with session.get(f"{base}/X9.jpg") as response:
                assert response.status == 404
                assert "X9.jpg" in (await response.json())["error"]
    finally:
        server.should_exit = True
        await task
        await hook.close()
        await service.shutdown()
        await storage.close()
        await fake.close()
