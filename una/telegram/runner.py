"""Long polling: ``una telegram`` with its own room service and storage."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.types import BotCommand

from una.server.rooms import RoomService
from una.server.storage import Storage
from una.telegram.bridge import Options, TelegramUna
from una.telegram.handlers import build_dispatcher

log = logging.getLogger("una.telegram")

COMMANDS = {
    "start": ("register for the game", "регистрация на игру"),
    "leave": ("leave the game", "выход из игры"),
    "begin": ("deal the cards", "раздать карты"),
    "stop": ("end the game", "закончить игру"),
    "addbot": ("add a computer player", "добавить бота"),
    "settings": ("modes and language", "режимы и язык"),
    "rules": ("the rules", "правила"),
    "score": ("the scores", "очки"),
    "help": ("help", "помощь"),
}


def make_bot(token: str, api_url: str | None = None) -> Bot:
    """A bot speaking HTML, at Telegram or at the Bot API server ``api_url``."""
    session = AiohttpSession(api=TelegramAPIServer.from_base(api_url)) if api_url else None
    return Bot(token, session=session, default=DefaultBotProperties(parse_mode=ParseMode.HTML))


async def set_commands(bot: Bot) -> None:
    """The command menu, in English and Russian (failures are only logged)."""
    try:
        en = [BotCommand(command=c, description=d[0]) for c, d in COMMANDS.items()]
        ru = [BotCommand(command=c, description=d[1]) for c, d in COMMANDS.items()]
        await bot.set_my_commands(en)
        await bot.set_my_commands(ru, language_code="ru")
    except Exception as error:  # the menu is a nicety
        log.warning("setMyCommands failed: %s", error)


class PollingBot:
    """A storage, a room service restored from it, the adapter and the polling dispatcher."""

    def __init__(
        self,
        token: str,
        db_url: str,
        api_url: str | None = None,
        options: Options | None = None,
        polling_timeout: int = 30,
    ) -> None:
        self.token = token
        self.db_url = db_url
        self.api_url = api_url
        self.options = options or Options()
        self.polling_timeout = polling_timeout
        self.storage: Storage | None = None
        self.service: RoomService | None = None
        self.una: TelegramUna | None = None
        self.dispatcher: Dispatcher | None = None
        self.bot: Bot | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.storage = await Storage.open(self.db_url)
        self.service = RoomService(self.storage, bot_delay=self.options.bot_delay)
        await self.service.restore()
        self.bot = make_bot(self.token, self.api_url)
        self.una = TelegramUna(self.bot, self.service, self.options)
        await self.una.start()
        await set_commands(self.bot)
        self.dispatcher = build_dispatcher(self.una)
        self.task = asyncio.create_task(
            self.dispatcher.start_polling(
                self.bot, handle_signals=False, polling_timeout=self.polling_timeout
            )
        )

    async def stop(self) -> None:
        if self.task is not None and self.dispatcher is not None:
            with contextlib.suppress(RuntimeError):
                await self.dispatcher.stop_polling()
            if not self.task.done():
                self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.una is not None:
            await self.una.close()
        if self.service is not None:
            await self.service.shutdown()
        if self.bot is not None:
            await self.bot.session.close()
        if self.storage is not None:
            await self.storage.close()

    async def run(self) -> None:
        await self.start()
        assert self.task is not None
        try:
            await self.task
        finally:
            await self.stop()


def polling_main(
    token: str, api_url: str | None, db_url: str, bot_delay: float, card_url: str | None = None
) -> None:
    """``una telegram``: poll until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    runner = PollingBot(token, db_url, api_url, Options(bot_delay=bot_delay, card_url=card_url))
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(runner.run())
