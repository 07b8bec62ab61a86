"""``una telegram`` against a fake Bot API server on loopback (see tgfake.py): no internet.

Synthetic users send commands and press the buttons the bot drew; the bot runs its real
aiogram polling loop, room service and SQLite storage.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from tgfake import User
from tgkit import CARD, STALE, Harness, aio, hand_labels, public_labels, start_game

from una.engine import Card
from una.telegram.callbacks import Act, Opt, Pick, Show, fits
from una.telegram.i18n import card_label

GROUP = -1001234567890
EN_GROUP = -1009876543210
ANN = User(101, "Аня", "ru")
BOB = User(102, "Bob", "en")
CY = User(103, "Cy", "en")


def group_texts(h: Harness, chat: int) -> list[str]:
    return h.fake.texts(chat)


def check_hidden(h: Harness, chat: int, public: set[str]) -> None:
    """No hand ever reaches the group: every card it names was played or turned up."""
    for text in group_texts(h, chat):
        assert "Ваши карты" not in text and "Your cards" not in text
        leaked = set(CARD.findall(text)) - public
        assert not leaked, f"cards never played appear in the group: {leaked} in {text!r}"
    for call in h.fake.calls:
        if call.method == "answerCallbackQuery":
            continue
        if call.method in ("sendMessage", "editMessageText") and call.params["chat_id"] < 0:
            assert "Ваши карты" not in call.params["text"]


# ------------------------------------------------------------------ a whole game


@aio
async def test_whole_group_game_two_people_and_a_computer(tmp_path: Path) -> None:
    async with Harness(tmp_path, rules={"target": 1}) as h:
        h.fake.dm_open.add(BOB.id)  # Bob opened the bot's private chat before; Ann did not
        await start_game(h, GROUP, [ANN, BOB])
        table = h.table(GROUP)
        assert table is not None and table.game is not None
        assert table.rules.preset == "telegram" and table.rules.first_player == "random"
        assert table.timer is None  # the test's options; 60 s by default
        assert len(table.game.names) == 3
        # Ann presses «My cards» first: the bot may not write to her, so the answer opens its
        # private chat; her hand arrives there, with buttons.
        await h.open_hand(GROUP, ANN)
        await h.open_hand(GROUP, BOB)
        assert h.fake.latest(ANN.id) is not None and h.fake.latest(BOB.id) is not None
        answers = [c for c in h.fake.calls if c.method == "answerCallbackQuery"]
        assert any(a.params.get("url", "").endswith(f"start=g{GROUP}") for a in answers)
        assert any("Ваши карты" in a.params.get("text", "") for a in answers) or any(
            "Your cards" in a.params.get("text", "") for a in answers
        )
        await h.play(GROUP, {ANN.id: ANN, BOB.id: BOB})
        assert not h.refusals, h.refusals
        await h.until(lambda: h.rt(GROUP).state.table is None, 20)
        texts = group_texts(h, GROUP)
        assert any("побеждает в игре" in text for text in texts)  # the chat is Russian (Ann)
        assert any("Раунд 1" in text for text in texts)
        assert h.rt(GROUP).state.last_scores
        # scores by the RU formula: the winner's discards minus her hand
        await h.command(GROUP, BOB, "/score")
        assert "Очки" in h.fake.latest(GROUP).text
        check_hidden(h, GROUP, await public_labels(h.service))
        assert not h.fake.refused or all(
            "403" in m or "Forbidden" in d for m, d in h.fake.refused
        ), h.fake.refused
        # one message per human turn at most, edited in between
        to_group = [c for c in h.fake.calls if c.params.get("chat_id") == GROUP]
        sends = [c for c in to_group if c.method == "sendMessage"]
        edits = [c for c in to_group if c.method == "editMessageText"]
        assert edits and len(sends) < len(texts)


# ------------------------------------------------------------------ modes


@aio
async def test_every_mode_switch_and_a_game_under_them(tmp_path: Path) -> None:
    async with Harness(tmp_path, rules={"target": 1}) as h:
        for user in (BOB, CY):
            h.fake.dm_open.add(user.id)
        await h.command(EN_GROUP, BOB, "/start")
        await h.command(EN_GROUP, BOB, "/settings")
        settings = h.fake.latest(EN_GROUP)
        assert settings is not None and "Settings" in settings.text
        first = settings.buttons()
        for key in ("fin", "uno", "jump", "sz", "stack", "tgt"):
            settings = h.fake.messages[(EN_GROUP, settings.message_id)]
            data = next(d for _, d in settings.buttons() if f":{key}=" in d)
            answer = await h.fake.click(settings, BOB, data)
            assert answer["text"].startswith("Now:") and answer["show_alert"] == "false", answer
            await h.until(lambda d=data, m=settings: d not in [b for _, b in m.buttons()])
        # the bot level: from the default (normal) to the next, the strong bot
        settings = h.fake.messages[(EN_GROUP, settings.message_id)]
        data = next(d for _, d in settings.buttons() if ":lvl=" in d)
        assert data.endswith(":lvl=2"), data  # BOT_LEVELS[2]
        answer = await h.fake.click(settings, BOB, data)
        assert "Bots: strong" in answer["text"], answer
        await h.until(lambda d=data, m=settings: d not in [b for _, b in m.buttons()])
        await h.una.idle()
        assert h.rt(EN_GROUP).state.bot == "strong"
        rules = h.una.rules_of(h.rt(EN_GROUP).state)
        assert rules.finish == "to_the_last" and rules.uno_call == "auto"
        assert rules.jump_in and rules.seven_zero and not rules.stack_draw_two
        assert rules.target == 100
        # a button of the old keyboard still does what it says (sets «to the last»): no undo
        answer = await h.fake.click(settings, BOB, first[0][1])
        assert answer["text"].startswith("Now:")
        await h.una.idle()
        assert h.una.rules_of(h.rt(EN_GROUP).state).finish == "to_the_last"
        settings = h.fake.messages[(EN_GROUP, settings.message_id)]
        assert "To the last" in settings.text and "automatic" in settings.text
        # back to a target of 1 for a short game: the test hook's value under the chat's
        h.rt(EN_GROUP).state.rules.pop("target")
        await h.command(EN_GROUP, CY, "/start")
        await h.command(EN_GROUP, BOB, "/addbot")
        await h.command(EN_GROUP, BOB, "/begin")
        await h.until(lambda: h.table(EN_GROUP) is not None)
        table = h.table(EN_GROUP)
        assert table is not None
        assert table.rules.finish == "to_the_last" and table.rules.seven_zero
        assert table.game is not None
        assert "strong" in [table.seat_info(seat).bot for seat in range(table.game.n)]
        assert table.rules.jump_in and table.rules.uno_call == "auto"
        assert not table.rules.stack_draw_two
        # modes are locked during the game
        await h.command(EN_GROUP, BOB, "/settings")
        locked = [m for m in h.fake.chat_messages(EN_GROUP) if "Settings" in m.text][-1]
        data = next(d for _, d in locked.buttons() if ":jump=" in d)
        answer = await h.fake.click(locked, BOB, data)
        assert "between games" in answer.get("text", "")
        await h.play(EN_GROUP, {BOB.id: BOB, CY.id: CY}, seed=7)
        assert not h.refusals, h.refusals
        await h.until(lambda: h.rt(EN_GROUP).state.table is None, 20)
        assert any("wins the game" in text for text in group_texts(h, EN_GROUP))
        check_hidden(h, EN_GROUP, await public_labels(h.service))


# ------------------------------------------------------------------ stale buttons


@aio
async def test_a_stale_button_is_answered_not_applied(tmp_path: Path) -> None:
    async with Harness(tmp_path, bot_delay=30.0) as h:
        h.fake.dm_open.update({ANN.id, BOB.id})
        await start_game(h, GROUP, [ANN, BOB], bots=0)
        table = h.table(GROUP)
        assert table is not None and table.game is not None
        await h.open_hand(GROUP, ANN)
        await h.open_hand(GROUP, BOB)
        version = table.version
        seat = table.game.to_act
        assert seat is not None
        player = table.seat_info(seat).player_id
        uid = h.rt(GROUP).uid_of[player or 0]
        user = ANN if uid == ANN.id else BOB
        await h.una.idle()
        dm = h.fake.latest(uid, with_buttons=True)
        assert dm is not None
        first = next(d for _, d in dm.buttons() if d.startswith("a:"))
        draw = Act.unpack(first).pack()  # a legal action of hers (draw, or name a color)
        # A button drawn at an older version still counts while its action is possible.
        old = Act(t=table.code, v=version - 1, a=Act.unpack(first).a).pack()
        answer = await h.fake.click(dm, user, old)
        assert "text" not in answer
        await h.until(lambda: table.version > version)
        # the same press again asks what is no longer possible: out of date now
        answer = await h.fake.click(dm, user, draw)
        assert "устарела" in answer["text"]  # the Russian chat
        # a button of another table is out of date too
        answer = await h.fake.click(dm, user, Act(t="ZZZZZ", v=1, a="draw").pack())
        assert any(word in answer["text"] for word in STALE)  # in the presser's language
        # a player who does not play is told so
        answer = await h.fake.click(h.board(GROUP), CY, Show(t=table.code, v=table.version).pack())
        assert "не играете" in answer["text"]


# ------------------------------------------------------------------ restart


@aio
async def test_a_game_survives_a_restart_of_the_bot(tmp_path: Path) -> None:
    async with Harness(tmp_path, rules={"target": 1}) as h:
        h.fake.dm_open.update({ANN.id, BOB.id})
        await start_game(h, GROUP, [ANN, BOB])
        users = {ANN.id: ANN, BOB.id: BOB}
        table = h.table(GROUP)
        assert table is not None and table.game is not None
        code = table.code
        await h.play(GROUP, users, seed=3, stop=lambda: len(table.game.log) >= 6)  # type: ignore[union-attr]
        assert h.table(GROUP) is not None
        await h.una.idle()
        before = table.version
        log = list(table.game.log)
        hands = [list(hand) for hand in table.game.hands]
        await h.restart()
        again = h.table(GROUP)
        assert again is not None and again is not table and again.code == code
        assert again.game is not None and again.version >= before
        assert list(again.game.log)[: len(log)] == log
        if again.version == before:
            assert [list(hand) for hand in again.game.hands] == hands
        await h.until(lambda: any("перезапуска" in text for text in group_texts(h, GROUP)))
        # the buttons shown before the restart still carry the right version
        await h.play(GROUP, users, seed=4)
        await h.until(lambda: h.rt(GROUP).state.table is None, 20)
        assert any("побеждает в игре" in text for text in group_texts(h, GROUP))


# ------------------------------------------------------------------ 64 bytes


def test_callback_data_fits_64_bytes() -> None:
    longest = [
        Act(t="ZZZZZZZZ", v=2**31, a="play W4 G @9 uno"),
        Act(t="ZZZZZZZZ", v=2**31, a="play WTP G @9 @9 @9 @9"),
        Pick(t="ZZZZZZZZ", v=2**31, c="CHAIRS"),
        Show(t="ZZZZZZZZ", v=2**31),
        Opt(c=-1009999999999999, v=2**31, k="stack"),
    ]
    for data in longest:
        packed = data.pack()
        assert fits(packed), packed
        assert type(data).unpack(packed) == data


@aio
async def test_every_button_sent_in_a_game_fits(tmp_path: Path) -> None:
    async with Harness(tmp_path, rules={"target": 1, "seven_zero": True}) as h:
        h.fake.dm_open.update({ANN.id, BOB.id})
        await start_game(h, GROUP, [ANN, BOB])
        await h.play(GROUP, {ANN.id: ANN, BOB.id: BOB}, seed=11)
        assert not [r for r in h.fake.refused if "BUTTON_DATA_INVALID" in r[1]]
        count = 0
        for call in h.fake.calls:
            for row in (call.params.get("reply_markup") or {}).get("inline_keyboard", []):
                for button in row:
                    assert len(button["callback_data"].encode()) <= 64
                    count += 1
        assert count > 20


# ------------------------------------------------------------------ languages


@aio
async def test_both_languages_and_switching(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        await h.command(GROUP, ANN, "/start")  # a Russian speaker opens the chat: Russian
        await h.command(EN_GROUP, BOB, "/start")  # an English one: English
        assert "регистрация" in h.board(GROUP).text
        assert "registration" in h.board(EN_GROUP).text
        await h.command(GROUP, ANN, "/help")
        assert "регистрация на игру" in h.fake.latest(GROUP).text
        await h.command(EN_GROUP, BOB, "/rules")
        assert "Score: the points you discarded" in h.fake.latest(EN_GROUP).text
        await h.command(GROUP, ANN, "/settings")
        settings = h.fake.latest(GROUP)
        assert settings is not None and "Настройки" in settings.text
        data = next(d for _, d in settings.buttons() if ":lang=" in d)
        await h.fake.click(settings, ANN, data)
        await h.until(lambda: "Settings" in h.fake.messages[(GROUP, settings.message_id)].text)
        assert h.rt(GROUP).state.lang == "en"
        await h.command(GROUP, ANN, "/addbot")
        await h.command(GROUP, ANN, "/begin")
        await h.until(lambda: any("Hand 1" in text for text in group_texts(h, GROUP)))
        assert any("My cards" in label for label, _ in h.board(GROUP).buttons())
        # the choice is kept in storage
        stored = await h.una.store.chat(GROUP)
        assert stored is not None and stored.lang == "en"


def test_cards_as_emoji_plus_text() -> None:
    labels = [card_label(Card.parse(code)) for code in ("R7", "BD2", "W4", "W", "GR", "YS")]
    assert labels == ["🟥 7", "🟦 +2", "🌈 +4", "🌈", "🟩 🔄", "🟨 🚫"]


# ------------------------------------------------------------------ timer and lobby


@aio
async def test_turn_timer_plays_for_the_absent(tmp_path: Path) -> None:
    async with Harness(tmp_path, turn_timer=1) as h:
        await start_game(h, EN_GROUP, [BOB, CY], bots=0)
        table = h.table(EN_GROUP)
        assert table is not None and table.timer == 1
        version = table.version
        await h.until(lambda: table.version > version, 5)
        await h.until(lambda: any("too slow" in text for text in group_texts(h, EN_GROUP)), 5)


@aio
async def test_lobby_commands(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        await h.command(EN_GROUP, BOB, "/begin")
        assert "Register first" in h.fake.latest(EN_GROUP).text
        await h.command(EN_GROUP, BOB, "/start")
        await h.command(EN_GROUP, BOB, "/begin")
        assert "At least two players" in h.fake.latest(EN_GROUP).text
        await h.command(EN_GROUP, BOB, "/start")
        assert "registered already" in h.fake.latest(EN_GROUP).text
        lobby = h.board(EN_GROUP)
        join = h.button(lobby, "o:")
        answer = await h.fake.click(lobby, CY, join)  # «Join»
        await h.una.idle()
        assert h.rt(EN_GROUP).state.players == [BOB.id, CY.id]
        answer = await h.fake.click(lobby, CY, join)  # the same press again: nothing new
        assert "registered already" in answer["text"]
        await h.command(EN_GROUP, CY, "/leave")
        assert h.rt(EN_GROUP).state.players == [BOB.id]
        await h.command(EN_GROUP, BOB, "/addbot")
        await h.command(EN_GROUP, BOB, "/delbot")
        await h.command(EN_GROUP, BOB, "/delbot")
        assert "no computer player" in h.fake.latest(EN_GROUP).text
        await h.command(EN_GROUP, BOB, "/stop")
        assert "No game" in h.fake.latest(EN_GROUP).text
        await h.command(EN_GROUP, CY, "/start")
        await h.command(EN_GROUP, BOB, "/begin")
        await h.until(lambda: h.table(EN_GROUP) is not None)
        await h.command(EN_GROUP, CY, "/stop")
        await h.until(lambda: h.rt(EN_GROUP).state.table is None)
        assert "stopped by Cy" in h.fake.latest(EN_GROUP).text
        await asyncio.sleep(0)


def test_hand_labels_helper() -> None:
    assert hand_labels(["R7", "W4"]) == {"🟥 7", "🌈 +4"}


@aio
async def test_a_russian_game_with_timeouts_reads_russian_whatever_the_names(
    tmp_path: Path,
) -> None:
    """Timeouts come as data (the notice ``timed_out``): a player whose name reads like the
    old English notice does not confuse the bot, and the Russian transcript holds no English
    word but that name."""
    tricky = User(104, "Bob timed out: auto on", "ru")
    async with Harness(tmp_path, turn_timer=1) as h:
        await start_game(h, GROUP, [ANN, tricky], bots=0)
        table = h.table(GROUP)
        assert table is not None and table.timer == 1
        await h.until(lambda: any("трижды не успел" in t for t in group_texts(h, GROUP)), 20)
        texts = group_texts(h, GROUP)
        told = [line for text in texts for line in text.split("\n") if "не успева" in line]
        assert told and all("Аня" in line or tricky.first_name in line for line in told)
        # what a reader sees: no markup, and commands (/begin) are commands in any language
        shown = [re.sub(r"<[^>]*>|/\w+", " ", text) for text in texts]
        words = {w for t in shown for w in re.findall(r"[A-Za-z]{2,}", t)}
        assert words <= set(re.findall(r"[A-Za-z]{2,}", tricky.first_name)) | {"Una"}, words
