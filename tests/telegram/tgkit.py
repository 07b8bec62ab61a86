"""The bot under test (``PollingBot`` at the fake Bot API) and a player pressing buttons."""

from __future__ import annotations

import asyncio
import functools
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from tgfake import FakeTelegram, Sent, User

from una.engine import Card, Record
from una.engine import events as ev
from una.server.rooms import RoomService, Table
from una.telegram.bridge import ChatRuntime, Options, TelegramUna
from una.telegram.i18n import card_label, describe, t
from una.telegram.runner import PollingBot

TOKEN = "123456:TEST-una-token"
FAST: dict[str, Any] = {
    "bot_delay": 0.02, "turn_timer": None, "deal_delay": 0.05, "group_per_minute": 60000.0,
    "group_burst": 1000, "dm_per_minute": 60000.0, "dm_burst": 1000,
}  # fmt: skip
STALE = ("out of date", "устарела")
CARD = re.compile(r"[🟥🟨🟩🟦] (?:\d|\+2|🚫|🔄)")


def aio(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(fn(*args, **kwargs), 100))

    return run


class Harness:
    def __init__(self, tmp_path: Path, **options: Any) -> None:
        self.db = f"sqlite+aiosqlite:///{tmp_path / 'una.db'}"
        self.options = Options(**(FAST | options))
        self.fake = FakeTelegram()
        self.runner: PollingBot | None = None
        self.refusals: list[str] = []

    async def __aenter__(self) -> Harness:
        await self.fake.start()
        await self.boot()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.runner is not None:
            await self.runner.stop()
        await self.fake.close()

    async def boot(self) -> None:
        self.runner = PollingBot(TOKEN, self.db, self.fake.url, self.options, polling_timeout=1)
        await self.runner.start()

    async def restart(self) -> None:
        assert self.runner is not None
        await self.runner.stop()
        await self.boot()

    @property
    def una(self) -> TelegramUna:
        assert self.runner is not None and self.runner.una is not None
        return self.runner.una

    @property
    def service(self) -> RoomService:
        assert self.runner is not None and self.runner.service is not None
        return self.runner.service

    def rt(self, chat: int) -> ChatRuntime:
        return self.una.chats[chat]

    def table(self, chat: int) -> Table | None:
        rt = self.una.chats.get(chat)
        return self.service.tables.get(rt.state.table or "") if rt else None

    async def until(self, predicate: Callable[[], Any], timeout: float = 10.0) -> None:
        await self.fake.wait_for(predicate, timeout)

    async def settle(self) -> None:
        """Wait until the bot took every update, handled it and drew its boards."""
        assert self.runner is not None and self.runner.dispatcher is not None
        dispatcher = self.runner.dispatcher
        await self.until(lambda: not self.fake.updates)
        await asyncio.sleep(0.02)
        await self.until(lambda: not dispatcher._handle_update_tasks)
        await self.una.idle()

    async def command(self, chat: int, user: User, text: str) -> None:
        """Say ``text`` and wait until the bot has handled it."""
        await self.fake.say(chat, user, text)
        await self.settle()

    def board(self, chat: int) -> Sent:
        """The message the bot keeps editing in the group."""
        message_id = self.rt(chat).board.message_id
        assert message_id is not None
        return self.fake.messages[(chat, message_id)]

    def button(self, sent: Sent, prefix: str) -> str:
        for _, data in sent.buttons():
            if data.startswith(prefix):
                return data
        raise AssertionError(f"no {prefix!r} button under {sent.text!r}: {sent.buttons()}")

    async def open_hand(self, chat: int, user: User) -> None:
        """The player presses «My cards» (opening the private chat first if she must)."""
        table = self.table(chat)
        assert table is not None
        await self.settle()
        board = self.board(chat)
        answer = await self.fake.click(board, user, self.button(board, "s:"))
        if "url" in answer:  # the bot may not write first: she opens its private chat
            assert answer["url"].startswith("https://t.me/UnaTestBot?start=g")
            await self.fake.say(user.id, user, "/start " + answer["url"].split("start=")[1])
        await self.until(lambda: self.fake.latest(user.id) is not None)

    async def play(self, chat: int, users: dict[int, User], seed: int = 1, steps: int = 3000,
                   stop: Callable[[], bool] | None = None) -> None:  # fmt: skip
        """Press buttons for the people until the match is over (or ``stop()``)."""
        rng = random.Random(seed)
        for _ in range(steps):
            table = self.table(chat)
            if table is None or table.game is None or table.game.match_over:
                return
            if stop is not None and stop():
                return
            game = table.game
            if game.hand_over or game.to_act is None:
                await asyncio.sleep(0.02)
                continue
            info = table.seat_info(game.to_act)
            if info.automatic:
                await asyncio.sleep(0.01)
                continue
            await self.una.idle()
            rt = self.rt(chat)
            uid = rt.uid_of[info.player_id or 0]
            user = users[uid]
            if uid not in rt.dms:
                await self.open_hand(chat, user)
                continue
            version = table.version
            dm = self.fake.latest(uid, with_buttons=True)
            if dm is None or f":{version}:" not in dm.buttons()[0][1]:
                await asyncio.sleep(0.01)
                continue
            seat = game.to_act
            answer = await self.choose(dm, user, rng)
            if any(word in answer.get("text", "") for word in STALE):
                continue
            if rate_limited(answer):
                await asyncio.sleep(0.3)
                continue
            if answer.get("text"):
                self.refusals.append(answer["text"])
                continue
            await self.until(lambda t=table, v=version: t.version != v or t.game is None)
            if (
                table.game is not None
                and table.game.rules.uno_call == "manual"
                and len(table.game.hands[seat]) == 1
                and table.game.owes_uno[seat]
            ):
                await self.fake.say(chat, user, "уно!")
        raise AssertionError("the match did not end")

    async def press(self, dm: Sent, user: User, data: str) -> dict[str, Any]:
        """Press a game button as a person would: again, a moment later, while the
        service's budget of actions a second refuses it (after ``play``'s quick presses);
        the answer of the press that counted."""
        for _ in range(20):
            answer = await self.fake.click(dm, user, data)
            if not rate_limited(answer):
                return answer
            await asyncio.sleep(0.3)
        raise AssertionError(f"still too fast after 20 presses: {answer}")

    async def choose(self, dm: Sent, user: User, rng: random.Random) -> dict[str, Any]:
        # «📢 Uno» is left to the typed «уно!» after her play (see play()).
        buttons = [
            data
            for _, data in dm.buttons()
            if data.startswith(("a:", "p:")) and not data.endswith(":uno")
        ]
        plays = [d for d in buttons if d.split(":")[-1].startswith("play") or d[0] == "p"]
        data = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(buttons)
        if data.startswith("p:"):
            await self.fake.click(dm, user, data)
            await self.una.idle()
            sub = self.fake.latest(user.id, with_buttons=True)
            if sub is None:  # a jump-in moved the turn on meanwhile: her buttons are gone
                return {"text": "out of date"}
            options = [d for _, d in sub.buttons() if d.startswith("a:")]
            if not options:
                return {"text": "out of date"}
            data = rng.choice(options)
            dm = sub
        return await self.fake.click(dm, user, data)


async def start_game(
    h: Harness, chat: int, users: list[User], bots: int = 1, open_dm: bool = False
) -> Table:
    """The users register (the first adds ``bots`` computer players) and deal; with
    ``open_dm`` they opened the bot's private chat before."""
    for user in users:
        if open_dm:
            h.fake.dm_open.add(user.id)
        await h.command(chat, user, "/start")
    for _ in range(bots):
        await h.command(chat, users[0], "/addbot")
    await h.command(chat, users[0], "/begin")
    await h.until(lambda: h.table(chat) is not None and h.table(chat).game is not None)
    await h.settle()
    table = h.table(chat)
    assert table is not None
    return table


async def public_labels(service: RoomService) -> set[str]:
    """Every card label the table could see: cards played, turned up, returned."""
    labels: set[str] = set()
    async with service.storage.engine.connect() as conn:
        ids = (await conn.exec_driver_sql("SELECT id FROM games")).scalars().all()
    for game_id in ids:
        record = Record.from_json(await service.storage.record(game_id))
        game = record.new_game()
        events = list(game.start_events)
        for actor, code in record.actions:
            events.extend(game.apply(actor, code))
        for event in events:
            if isinstance(event, ev.CardPlayed | ev.CardTurned | ev.FirstCardReturned):
                labels.add(card_label(event.card))
    return labels


def rate_limited(answer: dict[str, Any]) -> bool:
    """Whether a button's answer is the service's budget of actions a second (worded by
    the catalogue) refusing it."""
    return answer.get("text") in (t("en", "err_rate_limited"), t("ru", "err_rate_limited"))


def hand_labels(cards: list[str]) -> set[str]:
    return {card_label(Card.parse(code)) for code in cards}


def story(fake: FakeTelegram, chat: int) -> str:
    """What the group was told, in order: the event lines of every game message as it
    stands now (a message's lines only grow while it is live), one per line."""
    lines: list[str] = []
    for sent in fake.chat_messages(chat):
        head, _, rest = sent.text.partition("\n")
        if not head.startswith("<b>🃏 "):
            continue
        body = rest.split("\n\n")[0] if "\n\n" in rest else ""
        if body:
            lines.extend(body.split("\n"))
    return "\n".join(lines)


async def told(service: RoomService, game_id: int, names: list[str], lang: str) -> str:
    """Every event of a stored game as the group should read it, once, in order."""
    record = Record.from_json(await service.storage.record(game_id))
    game = record.new_game()
    events = list(game.start_events)
    for actor, code in record.actions:
        events.extend(game.apply(actor, code))
    last = game.rules.finish == "to_the_last"
    return "\n".join(describe(e.visible_to(None), names, lang, last) for e in events)


def calls_per_window(fake: FakeTelegram, chat: int, window: float) -> int:
    """The most sends and edits in the chat within any ``window`` seconds."""
    stamps = sorted(
        c.at for c in fake.calls
        if c.method in ("sendMessage", "editMessageText", "sendPhoto", "sendSticker")
        and c.params.get("chat_id") == chat
    )  # fmt: skip
    most, start = 0, 0
    for end, stamp in enumerate(stamps):
        while stamp - stamps[start] >= window:
            start += 1
        most = max(most, end - start + 1)
    return most


async def engine_counts(service: RoomService, game_id: int) -> set[tuple[int, ...]]:
    """Every tuple of hand sizes (by seat) the stored game went through."""
    record = Record.from_json(await service.storage.record(game_id))
    game = record.new_game()
    seen = {tuple(len(hand) for hand in game.hands)}
    for actor, code in record.actions:
        game.apply(actor, code)
        seen.add(tuple(len(hand) for hand in game.hands))
    return seen


def shown_counts(text: str, names: list[str]) -> tuple[int, ...] | None:
    """The hand sizes a group message shows («➡️ Аня 3 · 👉 Боб 5»), by seat."""
    line = next((x for x in text.split("\n") if x.startswith(("➡️ ", "⬅️ "))), None)
    if line is None:
        return None
    counts = [-1] * len(names)
    for item in line.split(" ", 1)[1].split(" · "):
        item = item.removeprefix("👉 ")
        seat = max((i for i, n in enumerate(names) if item.startswith(n + " ")),
                   key=lambda i: len(names[i]))  # fmt: skip
        counts[seat] = int(item[len(names[seat]) + 1 :].split(" ")[0])
    return tuple(counts)
