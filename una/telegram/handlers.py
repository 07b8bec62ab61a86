"""The aiogram router: group commands, the typed «uno», and every button."""

from __future__ import annotations

import asyncio
import contextlib

from aiogram import Bot, Dispatcher, F, Router
from aiogram.exceptions import TelegramAPIError, TelegramRetryAfter
from aiogram.filters import Command, CommandObject
from aiogram.types import (
    CallbackQuery,
    ChatMemberUpdated,
    ChosenInlineResult,
    InlineQuery,
    Message,
    User,
)

from una.telegram.bridge import ChatRuntime, TelegramUna
from una.telegram.callbacks import Act, Opt, Pick, Show
from una.telegram.i18n import t
from una.telegram.store import UserRow

GROUP = F.chat.type.in_({"group", "supergroup"})
UNO_TEXT = r"(?i)^\s*(uno|уно|una)"
#: Commands that only mean something in a group: in a private chat the bot says so.
GROUP_COMMANDS = ("begin", "leave", "score", "settings", "stop", "rules", "addbot", "delbot")
ALERT_LIMIT = 200


def build_dispatcher(una: TelegramUna) -> Dispatcher:
    dispatcher = Dispatcher()
    dispatcher.include_router(build_router(una))
    return dispatcher


def build_router(una: TelegramUna) -> Router:
    router = Router(name="una")

    async def context(message: Message) -> tuple[ChatRuntime, UserRow] | None:
        sender = message.from_user
        if sender is None or sender.is_bot:
            return None
        rt = await una.chat(message.chat.id, message.chat.title, sender.language_code)
        user = await una.user(sender.id, sender.first_name, sender.language_code)
        # The lobby goes on in a new message when the old one has scrolled away.
        board = rt.board.message_id
        rt.want_new = rt.want_new or board is None or message.message_id - board > 3
        return rt, user

    async def say(rt: ChatRuntime, text: str | None, bot: Bot) -> None:
        if not text:
            return
        for _ in range(3):
            await rt.bucket.take()
            try:
                await bot.send_message(rt.state.chat_id, text)
                return
            except TelegramRetryAfter as error:
                # Flood control: the reply waits and goes out, it is not lost.
                await asyncio.sleep(error.retry_after)

    @router.message(Command("start"), GROUP)
    async def start(message: Message, bot: Bot) -> None:
        found = await context(message)
        if found:
            rt, user = found
            await say(rt, await una.register(rt, user), bot)

    @router.message(Command("start"), F.chat.type == "private")
    async def private_start(message: Message, command: CommandObject, bot: Bot) -> None:
        sender = message.from_user
        payload = command.args or ""
        if sender is not None and payload.startswith("g"):
            rt = una.chats.get(int(payload[1:])) if payload[1:].lstrip("-").isdigit() else None
            if rt is not None and await una.show_hand(rt, sender.id, None) == "ok":
                return
        lang = "ru" if (sender and (sender.language_code or "").startswith("ru")) else "en"
        await message.answer(t(lang, "dm_hello") + "\n\n" + t(lang, "help"))

    @router.message(Command("leave"), GROUP)
    async def leave(message: Message, bot: Bot) -> None:
        found = await context(message)
        if found:
            rt, user = found
            await say(rt, await una.leave(rt, user), bot)

    @router.message(Command("addbot"), GROUP)
    async def addbot(message: Message, bot: Bot) -> None:
        found = await context(message)
        if found:
            await say(found[0], await una.add_bot(found[0], +1), bot)

    @router.message(Command("delbot"), GROUP)
    async def delbot(message: Message, bot: Bot) -> None:
        found = await context(message)
        if found:
            await say(found[0], await una.add_bot(found[0], -1), bot)

    @router.message(Command("begin"), GROUP)
    async def begin(message: Message, bot: Bot) -> None:
        found = await context(message)
        if found:
            rt, user = found
            admin = user.tg_id not in rt.state.players and await is_admin(bot, rt, user.tg_id)
            await say(rt, await una.begin(rt, user.tg_id, admin), bot)

    @router.message(Command("stop"), GROUP)
    async def stop(message: Message, bot: Bot) -> None:
        found = await context(message)
        if found:
            rt, user = found
            admin = not una.seated(rt, user.tg_id) and await is_admin(bot, rt, user.tg_id)
            await say(rt, await una.stop(rt, user, admin), bot)

    @router.message(Command("settings"), GROUP)
    async def settings(message: Message, bot: Bot) -> None:
        found = await context(message)
        if found:
            rt = found[0]
            await rt.bucket.take()
            await bot.send_message(
                rt.state.chat_id, una.settings_text(rt), reply_markup=una.settings_markup(rt)
            )

    @router.message(Command("rules"), GROUP)
    async def rules(message: Message, bot: Bot) -> None:
        found = await context(message)
        if found:
            rt = found[0]
            await say(rt, t(rt.state.lang, "rules", modes=una.modes_text(rt)), bot)

    @router.message(Command("score"), GROUP)
    async def score(message: Message, bot: Bot) -> None:
        found = await context(message)
        if found:
            await say(found[0], una.score_text(found[0]), bot)

    @router.message(Command("help"))
    async def help_(message: Message, bot: Bot) -> None:
        sender = message.from_user
        lang = "en"
        if message.chat.type != "private":
            code = sender.language_code if sender else None
            rt = await una.chat(message.chat.id, message.chat.title, code)
            lang = rt.state.lang
        elif sender and (sender.language_code or "").startswith("ru"):
            lang = "ru"
        await message.answer(t(lang, "help"))

    @router.message(GROUP, F.text.regexp(UNO_TEXT))
    async def uno(message: Message) -> None:
        sender = message.from_user
        rt = una.chats.get(message.chat.id)
        if sender is not None and rt is not None and message.text:
            await una.uno(rt, sender.id)

    # ------------------------------------------------------ private chats

    @router.message(Command(*GROUP_COMMANDS), F.chat.type == "private")
    async def private_command(message: Message, command: CommandObject) -> None:
        lang = _lang(message.from_user)
        await message.answer(t(lang, "group_only", command="/" + command.command))

    @router.message(F.chat.type == "private", F.text.regexp(UNO_TEXT))
    async def private_uno(message: Message) -> None:
        await message.answer(t(_lang(message.from_user), "uno_private"))

    # ------------------------------------------------------ joining a group

    @router.my_chat_member(F.chat.type.in_({"group", "supergroup"}))
    async def added(event: ChatMemberUpdated, bot: Bot) -> None:
        if event.new_chat_member.status not in ("member", "administrator"):
            return
        if event.old_chat_member.status in ("member", "administrator", "creator"):
            return
        rt = await una.chat(event.chat.id, event.chat.title, event.from_user.language_code)
        me = await bot.get_me()  # not the cached one: privacy may have changed since
        # Privacy mode (Telegram's default) hides plain messages from a bot that is no admin.
        if not me.can_read_all_group_messages and event.new_chat_member.status == "member":
            await rt.bucket.take()
            await bot.send_message(rt.state.chat_id, t(rt.state.lang, "privacy_on"))

    # ------------------------------------------------------------- buttons

    async def answer(query: CallbackQuery, text: str | None, alert: bool = False) -> None:
        # A query older than Telegram keeps cannot be answered: nothing to do then.
        with contextlib.suppress(TelegramAPIError):
            await query.answer(text[:ALERT_LIMIT] if text else None, show_alert=alert)

    def stale(query: CallbackQuery, rt: ChatRuntime | None) -> str:
        return t(rt.state.lang if rt else _lang(query.from_user), "stale")

    @router.callback_query(Act.filter())
    async def act(query: CallbackQuery, callback_data: Act) -> None:
        rt = una.runtime_of_table(callback_data.t)
        if rt is None:
            await answer(query, stale(query, rt))
            return
        result = await una.press(rt, query.from_user.id, callback_data)
        await answer(query, result, alert=result is not None and result != stale(query, rt))

    @router.callback_query(Pick.filter())
    async def pick(query: CallbackQuery, callback_data: Pick) -> None:
        rt = una.runtime_of_table(callback_data.t)
        if rt is None:
            await answer(query, stale(query, rt))
            return
        await answer(query, await una.pick(rt, query.from_user.id, callback_data))

    @router.callback_query(Show.filter())
    async def show(query: CallbackQuery, callback_data: Show) -> None:
        rt = una.runtime_of_table(callback_data.t)
        if rt is None:
            await answer(query, stale(query, rt))
            return
        uid = query.from_user.id
        result = await una.show_hand(rt, uid, callback_data)
        lang = rt.state.lang
        if result == "ok":
            hand = una.hand_alert(rt, uid) or ""
            await answer(query, hand + t(lang, "alert_dm"), alert=True)
        elif result == "no_dm":
            # The bot may not write first: its private chat opens with a /start payload.
            hand = una.hand_alert(rt, uid) or ""
            url = f"https://t.me/{await una.username()}?start=g{rt.state.chat_id}"
            try:
                await query.answer(hand[:ALERT_LIMIT] or None, url=url)
            except TelegramAPIError:
                await answer(query, hand, alert=True)
        elif result == "stale":
            await answer(query, t(lang, "stale"))
        else:
            await answer(query, t(lang, "not_player"), alert=True)

    @router.callback_query(Opt.filter())
    async def option(query: CallbackQuery, callback_data: Opt, bot: Bot) -> None:
        # Lobby and settings buttons say what they do, whatever changed since they were
        # drawn (the revision): a press is refused only when it is no longer possible.
        rt = una.chats.get(callback_data.c)
        if rt is None:
            await answer(query, stale(query, rt))
            return
        key = callback_data.k
        sender = query.from_user
        if key == "join":
            user = await una.user(sender.id, sender.first_name, sender.language_code)
            await answer(query, await una.register(rt, user))
        elif key == "bot":
            await answer(query, await una.add_bot(rt, +1))
        elif key == "begin":
            admin = sender.id not in rt.state.players and await is_admin(bot, rt, sender.id)
            reply = await una.begin(rt, sender.id, admin)
            await answer(query, reply, alert=reply is not None)
        else:
            error = await una.toggle(rt, key)
            # The answer comes at once; the message's edit waits for the chat's budget.
            done = t(rt.state.lang, "set_to", mode=una.modes_text(rt))
            await answer(query, error or done, alert=error is not None)
            if error is None and query.message is not None:
                await rt.bucket.take()
                with contextlib.suppress(TelegramAPIError):
                    await bot.edit_message_text(
                        una.settings_text(rt),
                        chat_id=rt.state.chat_id,
                        message_id=query.message.message_id,
                        reply_markup=una.settings_markup(rt),
                    )

    @router.callback_query()
    async def unknown(query: CallbackQuery) -> None:
        # Garbage or a button of an older bot: answered, so the user's button stops spinning.
        await answer(query, t(_lang(query.from_user), "unknown_button"))

    @router.inline_query()
    async def inline(query: InlineQuery) -> None:
        await una.inline_query(query)

    @router.chosen_inline_result()
    async def chosen(result: ChosenInlineResult) -> None:
        await una.inline_chosen(result)

    return router


async def is_admin(bot: Bot, rt: ChatRuntime, user_id: int) -> bool:
    """Whether the user administers the chat (Telegram says so; False when it will not)."""
    try:
        member = await bot.get_chat_member(rt.state.chat_id, user_id)
    except TelegramAPIError:
        return False
    return member.status in ("creator", "administrator")


def _lang(user: User | None) -> str:
    return "ru" if user and (user.language_code or "").startswith("ru") else "en"
