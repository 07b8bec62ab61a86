"""A fake Telegram Bot API server on loopback, and synthetic users to drive it.

It implements the methods the bot calls (getMe, getUpdates with long polling, sendMessage,
editMessageText, deleteMessage, answerCallbackQuery, setMyCommands, setWebhook,
deleteWebhook), records every call, keeps each chat's messages as edited, and refuses what
Telegram refuses: callback data over 64 bytes, texts over 4096 characters, an edit that changes
nothing, a first private message to a user who never opened the bot's chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_USER = {"id": 4242, "is_bot": True, "first_name": "Una", "username": "UnaTestBot"}


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


@dataclass
class Sent:
    chat_id: int
    message_id: int
    text: str
    markup: dict[str, Any] | None
    deleted: bool = False
    history: list[str] = field(default_factory=list)

    def buttons(self) -> list[tuple[str, str]]:
        rows = (self.markup or {}).get("inline_keyboard", [])
        return [(b["text"], b.get("callback_data", "")) for row in rows for b in row]


@dataclass
class User:
    id: int
    first_name: str
    language_code: str = "en"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "is_bot": False, "first_name": self.first_name,
                "language_code": self.language_code}  # fmt: skip


class FakeTelegram:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.updates: list[dict[str, Any]] = []
        self.update_ids = itertools.count(1)
        self.message_ids = itertools.count(1000)
        self.query_ids = itertools.count(1)
        self.messages: dict[tuple[int, int], Sent] = {}
        self.answers: dict[str, dict[str, Any]] = {}
        self.refused: list[tuple[str, str]] = []
        #: Users who opened the bot's private chat (the bot may write to them).
        self.dm_open: set[int] = set()
        #: (chat, user) pairs of chat admins; privacy mode as @BotFather sets it (on by default).
        self.admins: set[tuple[int, int]] = set()
        self.privacy = True
        #: Flood refusals to make: method -> how many calls to refuse with a 429 (per chat).
        self.flood: dict[tuple[str, int], int] = {}
        self.inline_answers: dict[str, dict[str, Any]] = {}
        self.changed = asyncio.Condition()
        self.url = ""
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------ server

    async def start(self) -> FakeTelegram:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params: dict[str, Any] = {}
        for key, value in (await request.post()).items():
            text = value if isinstance(value, str) else str(value)
            if key in ("reply_markup", "allowed_updates", "commands"):
                params[key] = json.loads(text)
            elif key in ("chat_id", "message_id", "offset", "timeout", "limit"):
                params[key] = int(text)
            else:
                params[key] = text
        self.calls.append(Call(method, params))
        chat = params.get("chat_id")
        if isinstance(chat, int) and self.flood.get((method, chat), 0) > 0:
            # Telegram's flood refusal: nothing done, retry after the given seconds.
            self.flood[(method, chat)] -= 1
            self.refused.append((method, "Too Many Requests"))
            body = {"ok": False, "error_code": 429, "description": "Too Many Requests: retry "
                    "after 1", "parameters": {"retry_after": 1}}  # fmt: skip
            return web.json_response(body, status=429)
        try:
            result = await getattr(self, "m_" + method)(params)
        except ApiError as error:
            self.refused.append((method, error.description))
            body = {"ok": False, "error_code": error.code, "description": error.description}
            return web.json_response(body, status=error.code)
        async with self.changed:
            self.changed.notify_all()
        return web.json_response({"ok": True, "result": result})

    # ------------------------------------------------------------ methods

    async def m_getMe(self, params: dict[str, Any]) -> Any:
        return BOT_USER | {
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy,
            "supports_inline_queries": True,
        }

    async def m_getChatMember(self, params: dict[str, Any]) -> Any:
        user = {"id": int(params["user_id"]), "is_bot": False, "first_name": "someone"}
        if (params["chat_id"], int(params["user_id"])) in self.admins:
            return {"status": "creator", "user": user, "is_anonymous": False}
        return {"status": "member", "user": user}

    async def m_answerInlineQuery(self, params: dict[str, Any]) -> Any:
        results = json.loads(params["results"]) if isinstance(params["results"], str) else []
        if len(results) > 50:
            raise ApiError(400, "Bad Request: RESULTS_TOO_MUCH")
        for result in results:
            if not 1 <= len(result.get("id", "").encode()) <= 64:
                raise ApiError(400, "Bad Request: RESULT_ID_INVALID")
        self.inline_answers[params["inline_query_id"]] = params | {"results": results}
        return True

    async def m_getUpdates(self, params: dict[str, Any]) -> Any:
        offset = params.get("offset", 0)
        self.updates = [u for u in self.updates if u["update_id"] >= offset]
        deadline = time.monotonic() + min(params.get("timeout", 0), 5)
        async with self.changed:
            while not self.updates and time.monotonic() < deadline:
                try:
                    await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())
                except TimeoutError:
                    break
        return self.updates[:100]

    async def m_sendMessage(self, params: dict[str, Any]) -> Any:
        chat_id = params["chat_id"]
        if chat_id > 0 and chat_id not in self.dm_open:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        self._check(params)
        sent = Sent(chat_id, next(self.message_ids), params["text"], params.get("reply_markup"))
        sent.history.append(sent.text)
        self.messages[(chat_id, sent.message_id)] = sent
        return self._message(sent)

    async def m_editMessageText(self, params: dict[str, Any]) -> Any:
        sent = self.messages.get((params["chat_id"], params["message_id"]))
        if sent is None or sent.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        self._check(params)
        markup = params.get("reply_markup")
        if sent.text == params["text"] and sent.markup == markup:
            raise ApiError(400, "Bad Request: message is not modified")
        sent.text, sent.markup = params["text"], markup
        sent.history.append(sent.text)
        return self._message(sent)

    async def m_deleteMessage(self, params: dict[str, Any]) -> Any:
        sent = self.messages.get((params["chat_id"], params["message_id"]))
        if sent is None or sent.deleted:
            raise ApiError(400, "Bad Request: message to delete not found")
        sent.deleted = True
        return True

    async def m_answerCallbackQuery(self, params: dict[str, Any]) -> Any:
        if len(params.get("text", "")) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answers[params["callback_query_id"]] = params
        return True

    async def m_setMyCommands(self, params: dict[str, Any]) -> Any:
        return True

    async def m_setWebhook(self, params: dict[str, Any]) -> Any:
        return True

    async def m_deleteWebhook(self, params: dict[str, Any]) -> Any:
        return True

    def _check(self, params: dict[str, Any]) -> None:
        if not 1 <= len(params.get("text", "")) <= 4096:
            raise ApiError(400, "Bad Request: message is too long")
        for row in (params.get("reply_markup") or {}).get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data", "")
                if not 1 <= len(data.encode()) <= 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")

    def _message(self, sent: Sent) -> dict[str, Any]:
        chat: dict[str, Any] = {"id": sent.chat_id}
        if sent.chat_id < 0:
            chat |= {"type": "supergroup", "title": "Test group"}
        else:
            chat |= {"type": "private", "first_name": "user"}
        message = {"message_id": sent.message_id, "date": int(time.time()), "chat": chat,
                   "from": BOT_USER, "text": sent.text}  # fmt: skip
        if sent.markup:
            message["reply_markup"] = sent.markup
        return message

    # ------------------------------------------------------------ synthetic users

    async def _push(self, update: dict[str, Any]) -> None:
        update["update_id"] = next(self.update_ids)
        self.updates.append(update)
        async with self.changed:
            self.changed.notify_all()

    async def say(self, chat_id: int, user: User, text: str, title: str = "Test group") -> int:
        """A user writes ``text`` in a chat (a group when ``chat_id`` < 0)."""
        message_id = next(self.message_ids)
        chat: dict[str, Any] = {"id": chat_id, "type": "supergroup", "title": title}
        if chat_id > 0:
            chat = {"id": chat_id, "type": "private", "first_name": user.first_name}
            self.dm_open.add(user.id)
        message: dict[str, Any] = {"message_id": message_id, "date": int(time.time()),
                                   "chat": chat, "from": user.to_json(), "text": text}  # fmt: skip
        if text.startswith("/"):
            length = len(text.split()[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        await self._push({"message": message})
        return message_id

    async def press(self, sent: Sent, user: User, data: str) -> str:
        """A user presses the button with ``data`` under a message; the query's id."""
        query_id = str(next(self.query_ids))
        query = {"id": query_id, "from": user.to_json(), "chat_instance": "ci",
                 "message": self._message(sent), "data": data}  # fmt: skip
        await self._push({"callback_query": query})
        return query_id

    async def inline(self, user: User, query: str = "") -> dict[str, Any]:
        """A user types ``@bot query`` in a group: the bot's answer (its results)."""
        query_id = str(next(self.query_ids))
        update = {"id": query_id, "from": user.to_json(), "query": query, "offset": "",
                  "chat_type": "supergroup"}  # fmt: skip
        await self._push({"inline_query": update})
        await self.wait_for(lambda: query_id in self.inline_answers)
        return self.inline_answers[query_id]

    async def choose(self, user: User, result: dict[str, Any], chat_id: int) -> None:
        """She picks a result: it is posted in the group (via the bot) and, with inline
        feedback on, the bot hears which one (``chosen_inline_result``)."""
        content = result.get("input_message_content") or {}
        text = content.get("message_text") or result.get("title") or "·"
        sent = Sent(chat_id, next(self.message_ids), text, None)
        sent.history.append(text)
        self.messages[(chat_id, sent.message_id)] = sent
        update = {"result_id": result["id"], "from": user.to_json(), "query": ""}
        await self._push({"chosen_inline_result": update})

    async def added(self, chat_id: int, by: User, status: str = "member") -> None:
        """``by`` adds the bot to a group (``my_chat_member``)."""
        bot = BOT_USER | {"is_bot": True}
        update = {"chat": {"id": chat_id, "type": "supergroup", "title": "Test group"},
                  "from": by.to_json(), "date": int(time.time()),
                  "old_chat_member": {"status": "left", "user": bot},
                  "new_chat_member": {"status": status, "user": bot}}  # fmt: skip
        await self._push({"my_chat_member": update})

    async def answer(self, query_id: str, timeout: float = 10.0) -> dict[str, Any]:
        await self.wait_for(lambda: query_id in self.answers, timeout)
        return self.answers[query_id]

    async def click(self, sent: Sent, user: User, data: str) -> dict[str, Any]:
        return await self.answer(await self.press(sent, user, data))

    async def wait_for(self, predicate: Any, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for the bot")
            async with self.changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), 0.05)

    # ------------------------------------------------------------ looking

    def chat_messages(self, chat_id: int) -> list[Sent]:
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat_id]

    def latest(self, chat_id: int, with_buttons: bool = False) -> Sent | None:
        found = [m for m in self.chat_messages(chat_id) if not m.deleted]
        if with_buttons:
            found = [m for m in found if m.buttons()]
        return found[-1] if found else None

    def texts(self, chat_id: int) -> list[str]:
        """Every text the chat was shown, edits included."""
        return [text for m in self.chat_messages(chat_id) for text in m.history]


class ApiError(Exception):
    def __init__(self, code: int, description: str) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
