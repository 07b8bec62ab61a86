"""Messages the bot keeps editing, within Telegram's flood limits.

A :class:`Board` is one message that shows the latest state of something (a group's game, a
player's hand). ``touch()`` marks it out of date; one task per board waits for a token of the
chat's :class:`Bucket`, then renders the *latest* state and edits the message (or sends a new
one when the render asks for it). Changes that come faster than the bucket allows are thus
coalesced into one edit, and a group chat never gets more than the bucket's rate of calls
(20 a minute by default, Telegram's limit for messages in a group).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramRetryAfter,
)
from aiogram.types import InlineKeyboardMarkup

log = logging.getLogger("una.telegram")


class Bucket:
    """A chat's budget of calls: bursts of ``burst``, ``per_minute`` a minute on average, and
    never more than ``per_minute`` in any ``window`` seconds (a token bucket alone lets
    ``per_minute + burst`` through in a minute: Telegram counts the calls themselves).

    >>> bucket = Bucket(per_minute=2, burst=5, window=60.0)
    >>> asyncio.run(bucket.take()), asyncio.run(bucket.take()), bucket.free()
    (None, None, False)
    """

    def __init__(self, per_minute: float, burst: int, window: float = 60.0) -> None:
        self.rate = per_minute / window
        self.burst = float(burst)
        self.limit = max(1, int(per_minute))
        self.window = window
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.calls: deque[float] = deque()
        self.waits = 0  # calls that had to wait for the budget: how often it held a call back

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        while self.calls and self.calls[0] <= now - self.window:
            self.calls.popleft()

    def free(self) -> bool:
        """Whether a call could be made now."""
        self._refill()
        return self.tokens >= 1.0 and len(self.calls) < self.limit

    async def take(self) -> None:
        waited = False
        while True:
            self._refill()
            if self.tokens >= 1.0 and len(self.calls) < self.limit:
                self.tokens -= 1.0
                self.calls.append(time.monotonic())
                self.waits += waited
                return
            waited = True
            wait = (1.0 - self.tokens) / self.rate if self.tokens < 1.0 else 0.0
            if len(self.calls) >= self.limit:
                wait = max(wait, self.calls[0] + self.window - time.monotonic())
            await asyncio.sleep(max(wait, 0.001))

    def refund(self) -> None:
        """Give back a token taken for a call that was not made."""
        self.tokens = min(self.burst, self.tokens + 1.0)
        if self.calls:
            self.calls.pop()


@dataclass
class Render:
    """What a board should show; ``new``: send it as a new message rather than edit;
    ``shown``: called once Telegram took it (what it carried is delivered then, not before:
    a refused call leaves the state to render again)."""

    text: str
    markup: InlineKeyboardMarkup | None = None
    new: bool = False
    shown: Callable[[], Awaitable[None]] | None = None


class Board:
    """One message kept up to date; see the module's docstring."""

    def __init__(
        self,
        bot: Bot,
        chat_id: int,
        bucket: Bucket,
        render: Callable[[], Render | None],
        on_new: Callable[[int], Awaitable[None]],
        message_id: int | None = None,
        delete_old: bool = False,
    ) -> None:
        self.bot = bot
        self.chat_id = chat_id
        self.bucket = bucket
        self.render = render
        self.on_new = on_new
        self.message_id = message_id
        self.delete_old = delete_old
        self._dirty = asyncio.Event()
        self._busy = False
        self._last: tuple[str, str] | None = None
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    def touch(self) -> None:
        if self.closed:
            return
        self._dirty.set()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop())

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until every change so far is shown."""
        deadline = time.monotonic() + timeout
        while (self._dirty.is_set() or self._busy) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    def close(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()

    async def _loop(self) -> None:
        while not self.closed:
            await self._dirty.wait()
            self._busy = True
            try:
                self._dirty.clear()
                await self.bucket.take()
                render = self.render()
                if render is not None:
                    await self.show(render)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("board of chat %s failed", self.chat_id)
            finally:
                self._busy = False

    async def show(self, render: Render) -> bool:
        """Edit the message (or send a new one); False when Telegram refuses the chat."""
        markup = render.markup.model_dump_json() if render.markup else ""
        if not render.new and self.message_id is not None:
            if self._last == (render.text, markup):
                self.bucket.refund()
                await _shown(render)
                return True
            try:
                await self.bot.edit_message_text(
                    text=render.text,
                    chat_id=self.chat_id,
                    message_id=self.message_id,
                    reply_markup=render.markup,
                )
                self._last = (render.text, markup)
                await _shown(render)
                return True
            except TelegramRetryAfter as error:
                await self._later(error.retry_after)
                return True
            except TelegramBadRequest as error:
                if "not modified" in error.message:
                    self._last = (render.text, markup)
                    await _shown(render)
                    return True
                log.info("edit refused in %s (%s): sending anew", self.chat_id, error.message)
        return await self._send(render, markup)

    async def _send(self, render: Render, markup: str) -> bool:
        old = self.message_id
        try:
            message = await self.bot.send_message(
                chat_id=self.chat_id, text=render.text, reply_markup=render.markup
            )
        except TelegramRetryAfter as error:
            await self._later(error.retry_after)
            return True
        except (TelegramForbiddenError, TelegramBadRequest) as error:
            log.info("cannot write to %s: %s", self.chat_id, error.message)
            return False
        self.message_id = message.message_id
        self._last = (render.text, markup)
        await self.on_new(message.message_id)
        await _shown(render)
        if self.delete_old and old is not None:
            with contextlib.suppress(TelegramAPIError):
                await self.bot.delete_message(chat_id=self.chat_id, message_id=old)
        return True

    async def _later(self, seconds: float) -> None:
        # Nothing was shown: the next render carries the same lines again, with any newer.
        log.warning("flood control in %s: waiting %s s", self.chat_id, seconds)
        await asyncio.sleep(seconds)
        self._dirty.set()


async def _shown(render: Render) -> None:
    if render.shown is not None:
        await render.shown()
