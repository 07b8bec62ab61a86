"""The webhook mode: Telegram posts updates to ``una serve``, whose room service plays them.

In ``create_app``'s lifespan, once the service is restored::

    telegram = await mount(app, service, os.environ["UNA_TELEGRAM_TOKEN"])
    ...
    await telegram.close()

``mount`` adds ``POST /telegram/webhook`` (``path``) and ``GET /telegram/cards/<code>.jpg``
(the card faces of the inline mode, :func:`serve_cards`: polling inside ``una serve`` adds it
too) to the app; with ``public_url`` (or
``UNA_TELEGRAM_WEBHOOK_URL``, the server's public base URL) it also calls ``setWebhook``.
``secret`` (or ``UNA_TELEGRAM_SECRET``) is checked against Telegram's
``X-Telegram-Bot-Api-Secret-Token`` header. ``UNA_TELEGRAM_API_URL`` names a custom Bot API
server.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import logging
import os
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot, Dispatcher
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from una.server.rooms import RoomService
from una.telegram.bridge import Options, TelegramUna
from una.telegram.cards import card_image, card_of_file
from una.telegram.handlers import build_dispatcher
from una.telegram.runner import make_bot, set_commands

log = logging.getLogger("una.telegram")
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: Where the card images are served (the inline mode's photo results).
CARDS = "/telegram/cards"


@dataclass
class TelegramWebhook:
    """What :func:`mount` started; ``close()`` it when the server stops."""

    bot: Bot
    una: TelegramUna
    dispatcher: Dispatcher
    secret: str | None
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    async def endpoint(self, request: Request) -> Response:
        if self.secret is not None:
            given = request.headers.get(SECRET_HEADER, "")
            if not hmac.compare_digest(given, self.secret):
                return JSONResponse({"error": "bad secret"}, status_code=403)
        try:
            update = await request.json()
        except ValueError:
            return JSONResponse({"error": "JSON expected"}, status_code=400)
        # Answer Telegram at once; the update is handled beside it.
        task = asyncio.create_task(self.dispatcher.feed_raw_update(self.bot, update))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return JSONResponse({"ok": True})

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await self.una.close()
        await self.bot.session.close()


async def card(request: Request) -> Response:
    """``GET /telegram/cards/<code>.jpg``: a card's face (the inline photo results)."""
    name = request.path_params["name"]
    found = card_of_file(name)
    if found is None:
        error = f"no card image {name!r}: expected <card code>.jpg of the classic deck"
        return JSONResponse({"error": error}, status_code=404)
    headers = {"Cache-Control": "public, max-age=86400"}
    return Response(card_image(found), media_type="image/jpeg", headers=headers)


def serve_cards(app: Starlette, options: Options, public_url: str | None) -> Options:
    """Add ``GET /telegram/cards/<code>.jpg`` to the app (whenever ``una serve`` runs the
    bot, polling or webhook); with the server's public base URL, the options whose inline
    results show these pictures."""
    app.router.routes.append(Route(CARDS + "/{name}", card, methods=["GET"]))
    if options.card_url is None and public_url:
        return dataclasses.replace(options, card_url=public_url.rstrip("/") + CARDS)
    return options


async def mount(
    app: Starlette,
    service: RoomService,
    token: str,
    *,
    path: str = "/telegram/webhook",
    public_url: str | None = None,
    secret: str | None = None,
    api_url: str | None = None,
    options: Options | None = None,
) -> TelegramWebhook:
    """Start the adapter on ``service`` and route Telegram's updates to it."""
    public_url = public_url or os.environ.get("UNA_TELEGRAM_WEBHOOK_URL")
    secret = secret or os.environ.get("UNA_TELEGRAM_SECRET")
    api_url = api_url or os.environ.get("UNA_TELEGRAM_API_URL")
    bot = make_bot(token, api_url)
    # This app serves the card faces: the inline results show them.
    options = serve_cards(app, options or Options(bot_delay=service.bot_delay), public_url)
    una = TelegramUna(bot, service, options)
    await una.start()
    hook = TelegramWebhook(bot, una, build_dispatcher(una), secret)
    app.router.routes.append(Route(path, hook.endpoint, methods=["POST"]))
    if public_url:
        await set_commands(bot)
        await bot.set_webhook(public_url.rstrip("/") + path, secret_token=secret)
        log.info("Telegram webhook at %s%s", public_url, path)
    return hook
