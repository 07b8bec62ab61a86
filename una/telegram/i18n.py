"""Russian and English texts of the Telegram bot, cards as emoji plus text, and events.

A small dict of our own (no gettext catalogs): :func:`t` looks a key up in the chat's
language and formats it; :data:`REFUSALS` renders the engine's refusal codes
(:func:`refusal_text`). Every key has both languages (tests/telegram/test_i18n.py).

>>> t("en", "registered", name="Ann", count=2)
'Ann is in the game (2 registered).'
>>> from una.engine import Card
>>> card_label(Card.parse("R7")), card_label(Card.parse("BD2")), card_label(Card.parse("W4"))
('🟥 7', '🟦 +2', '🌈 +4')
>>> card_label(Card.parse("GR")), card_label(Card.parse("YS")), card_label(Card.parse("W"))
('🟩 🔄', '🟨 🚫', '🌈')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from una.engine import Card, Color, Refusal
from una.engine import events as ev
from una.engine.events import Event

LANGS = ("ru", "en")

COLOR_EMOJI = {"R": "🟥", "Y": "🟨", "G": "🟩", "B": "🟦"}
COLOR_WORD = {
    "en": {"R": "red", "Y": "yellow", "G": "green", "B": "blue"},
    "ru": {"R": "красный", "Y": "жёлтый", "G": "зелёный", "B": "синий"},
}
_SYMBOLS = {"S": "🚫", "R": "🔄", "D2": "+2", "D4": "+4"}


def lang_of(code: str | None) -> str:
    """The bot's language for a Telegram ``language_code``: Russian for ru/uk/be, else English.

    >>> lang_of("ru-RU"), lang_of("en"), lang_of(None)
    ('ru', 'en', 'en')
    """
    if code and code.split("-")[0].lower() in ("ru", "uk", "be", "kk"):
        return "ru"
    return "en"


def card_label(card: Card) -> str:
    """A card as emoji plus text: ``🟥 7``, ``🟦 +2``, ``🌈 +4``, ``🟩 🔄``, ``🟨 🚫``."""
    if card.symbol == "W":
        return "🌈"
    if card.symbol == "W4":
        return "🌈 +4"
    if card.color is not None and card.code == card.color.value + card.symbol:
        return f"{COLOR_EMOJI[card.color.value]} {_SYMBOLS.get(card.symbol, card.symbol)}"
    return card.code  # the mutant cards of other presets: their code


def color_label(color: Color | str | None, lang: str) -> str:
    if color is None:
        return "—"
    letter = color.value if isinstance(color, Color) else color
    return f"{COLOR_EMOJI[letter]} {COLOR_WORD[lang][letter]}"


def plural_cards(lang: str, n: int) -> str:
    """``n`` cards with the right Russian plural.

    >>> plural_cards("ru", 1), plural_cards("ru", 3), plural_cards("ru", 5), plural_cards("en", 1)
    ('1 карту', '3 карты', '5 карт', '1 card')
    """
    if lang == "en":
        return f"{n} card" if n == 1 else f"{n} cards"
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} карту"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} карты"
    return f"{n} карт"


TEXTS: dict[str, dict[str, str]] = {
    "help": {
        "en": (
            "<b>Una — UNO in this chat</b>\n"
            "/start — register for the game\n/leave — leave the game\n"
            "/addbot — add a computer player, /delbot — remove one\n"
            "/begin — deal (two or more players)\n/stop — end the game\n"
            "/settings — modes and language\n/rules — the rules\n/score — the scores\n\n"
            "Press «🃏 My cards» to see your hand privately and play with buttons, or type "
            "@ and my name in the group and pick your card there. "
            "With one card left, write «uno» in the chat (or press «📢 Uno») before the next "
            "player moves, or the bot gives you 2 cards."
        ),
        "ru": (
            "<b>Una — УНО в этом чате</b>\n"
            "/start — регистрация на игру\n/leave — выход из игры\n"
            "/addbot — добавить бота, /delbot — убрать бота\n"
            "/begin — раздать карты (от двух игроков)\n/stop — закончить игру\n"
            "/settings — режимы и язык\n/rules — правила\n/score — очки\n\n"
            "Нажмите «🃏 Мои карты», чтобы увидеть свои карты и ходить кнопками, или "
            "наберите в группе @ и моё имя и выберите карту прямо там. "
            "Когда остаётся одна карта, напишите в чат «уно» (или нажмите «📢 Уно»), пока "
            "не походил следующий, иначе бот даст вам 2 карты."
        ),
    },
    "rules": {
        "en": (
            "<b>Rules</b>\nPlay a card of the same color or symbol, or a wild. Nothing to play: "
            "«Draw»; a drawn card that fits may be played at once. 🚫 skips the next player, "
            "🔄 reverses, +2 makes the next player draw 2 (answer it with your own +2), 🌈 names "
            "a color, 🌈 +4 also makes the next player draw 4 — only allowed without a card of "
            "the current color: press «🤥 Bluff!» to check (guilty: she draws 4; honest: you "
            "draw 6).\n«Uno»: down to one card, say it before the next player moves, or the "
            "bot gives you 2 cards.\nScore: the points you discarded minus the points left in "
            "your hand (numbers face value, 🚫 🔄 +2 — 10, 🌈 — 20).\n<b>Now</b>: {modes}"
        ),
        "ru": (
            "<b>Правила</b>\nКладите карту того же цвета или значения, или джокер. Нечем "
            "ходить — «Взять»; подходящую взятую карту можно сразу сыграть. 🚫 — пропуск хода, "
            "🔄 — смена направления, +2 — следующий берёт две (можно спастись своей +2), 🌈 — "
            "смена цвета, 🌈 +4 — следующий берёт четыре; кладётся, только если нет карты "
            "текущего цвета: нажмите «🤥 Блеф!», чтобы проверить (блеф — он берёт 4, честно — "
            "вы берёте 6).\n«Уно»: когда осталась одна карта, скажите его, пока не походил "
            "следующий, иначе бот даст 2 карты.\nОчки: сумма скинутых карт минус сумма карт "
            "на руках (0-9 по номиналу, 🚫 🔄 +2 — 10, 🌈 — 20).\n<b>Сейчас</b>: {modes}"
        ),
    },
    "registered": {"en": "{name} is in the game ({count} registered).",
                   "ru": "{name} в игре (зарегистрировано: {count})."},
    "already": {"en": "{name}, you are registered already.",
                "ru": "{name}, вы уже зарегистрированы."},
    "full": {"en": "The game is full (10 players).", "ru": "Мест нет (10 игроков)."},
    "next_game": {"en": "A game is being played; {name} is registered for the next one.",
                  "ru": "Идёт игра; {name} зарегистрирован(а) на следующую."},
    "left": {"en": "{name} leaves the game.", "ru": "{name} выходит из игры."},
    "left_bot": {"en": "{name} leaves the game; a computer player takes the seat.",
                 "ru": "{name} выходит из игры; за него/неё играет бот."},
    "not_registered": {"en": "You are not registered.", "ru": "Вы не зарегистрированы."},
    "bot_added": {"en": "A computer player joins ({count} players).",
                  "ru": "Бот присоединился (игроков: {count})."},
    "bot_removed": {"en": "A computer player leaves ({count} players).",
                    "ru": "Бот ушёл (игроков: {count})."},
    "no_bots": {"en": "There is no computer player to remove.", "ru": "Ботов нет."},
    "too_few": {"en": "At least two players are needed: /start to register, /addbot for a "
                      "computer player.",
                "ru": "Нужно хотя бы два игрока: /start — регистрация, /addbot — бот."},
    "no_humans": {"en": "Register first (/start).", "ru": "Сначала зарегистрируйтесь (/start)."},
    "playing": {"en": "A game is being played already.", "ru": "Игра уже идёт."},
    "no_game": {"en": "No game is being played. /start to register, /begin to deal.",
                "ru": "Игра не идёт. /start — регистрация, /begin — раздать карты."},
    "stopped": {"en": "⏹ The game is stopped by {name}.", "ru": "⏹ {name} останавливает игру."},
    "not_player": {"en": "You do not play in this game.", "ru": "Вы не играете в этой игре."},
    "stale": {"en": "This button is out of date.", "ru": "Эта кнопка устарела."},
    "settings_locked": {"en": "Modes change between games.",
                        "ru": "Режимы меняются между играми."},
    "settings_title": {"en": "<b>Settings</b> (for the next game)",
                       "ru": "<b>Настройки</b> (для следующей игры)"},
    "lobby_title": {"en": "<b>🃏 UNO</b> — registration", "ru": "<b>🃏 УНО</b> — регистрация"},
    "lobby_players": {"en": "Players", "ru": "Игроки"},
    "lobby_none": {"en": "nobody yet", "ru": "пока никого"},
    "lobby_hint": {"en": "/start or «Join» to register, /begin to deal.",
                   "ru": "/start или «Играю» — регистрация, /begin — раздать."},
    "btn_join": {"en": "✋ Join", "ru": "✋ Играю"},
    "btn_bot": {"en": "🤖 + bot", "ru": "🤖 + бот"},
    "btn_begin": {"en": "▶ Deal", "ru": "▶ Раздать"},
    "btn_show": {"en": "🃏 My cards", "ru": "🃏 Мои карты"},
    "btn_draw": {"en": "📥 Draw", "ru": "📥 Взять"},
    "btn_take": {"en": "📥 Take {n}", "ru": "📥 Взять {n}"},
    "btn_pass": {"en": "⏭ Pass", "ru": "⏭ Пас"},
    "btn_bluff": {"en": "🤥 Bluff!", "ru": "🤥 Блеф!"},
    "btn_catch": {"en": "🫵 Catch {name}", "ru": "🫵 Поймать {name}"},
    "btn_next": {"en": "▶ Next hand", "ru": "▶ Следующий раунд"},
    "btn_back": {"en": "↩ Back", "ru": "↩ Назад"},
    "btn_swap": {"en": "🔁 {name}", "ru": "🔁 {name}"},
    "mode_first_out": {"en": "🏁 To the first winner", "ru": "🏁 До первого победителя"},
    "mode_to_the_last": {"en": "🏁 To the last", "ru": "🏁 До последнего"},
    "mode_uno_manual": {"en": "✍ «Uno» by hand", "ru": "✍ «Уно» руками"},
    "mode_uno_auto": {"en": "🤖 «Uno» automatic", "ru": "🤖 «Уно» автоматически"},
    "mode_jump_in": {"en": "⚡ Jump-in", "ru": "⚡ Вмешательство"},
    "mode_seven_zero": {"en": "7️⃣ 7/0", "ru": "7️⃣ 7/0"},
    "mode_stack": {"en": "➕ Stack +2", "ru": "➕ +2 на +2"},
    "mode_target": {"en": "🎯 To {n} points", "ru": "🎯 До {n} очков"},
    "mode_lang": {"en": "🇬🇧 English", "ru": "🇷🇺 Русский"},
    "on": {"en": "on", "ru": "вкл"},
    "off": {"en": "off", "ru": "выкл"},
    "hand": {"en": "Hand {n}", "ru": "Раунд {n}"},
    "top": {"en": "On the pile", "ru": "На столе"},
    "color_now": {"en": "color", "ru": "цвет"},
    "turn": {"en": "Turn", "ru": "Ходит"},
    "pending": {"en": "waits: +{n}", "ru": "копится: +{n}"},
    "deck": {"en": "deck {n}", "ru": "колода {n}"},
    "scores": {"en": "Scores", "ru": "Очки"},
    "score_none": {"en": "No scores yet.", "ru": "Очков пока нет."},
    "uno_mark": {"en": "UNO!", "ru": "УНО!"},
    "out_mark": {"en": "out", "ru": "вышел"},
    "timer": {"en": "⏱ {n} s per turn", "ru": "⏱ {n} с на ход"},
    "your_cards": {"en": "<b>Your cards</b> ({n})", "ru": "<b>Ваши карты</b> ({n})"},
    "your_turn": {"en": "👉 Your turn!", "ru": "👉 Ваш ход!"},
    "not_your_turn": {"en": "Waiting for {name}.", "ru": "Ходит {name}."},
    "you_drew": {"en": "You drew {card}: play it or pass.",
                 "ru": "Вы взяли {card}: сыграйте её или пас."},
    "pick_color": {"en": "Pick a color:", "ru": "Выберите цвет:"},
    "pick_player": {"en": "Swap hands with:", "ru": "Поменяться картами с:"},
    "in_chat": {"en": "game in «{title}»", "ru": "игра в «{title}»"},
    "alert_hand": {"en": "Your cards: {cards}", "ru": "Ваши карты: {cards}"},
    "alert_dm": {"en": "\nButtons are in our private chat.",
                 "ru": "\nКнопки — в личном чате с ботом."},
    "dm_hello": {"en": "Hi! Start a game in a group: add me there and write /start.",
                 "ru": "Привет! Играть — в группе: добавьте меня туда и напишите /start."},
    "dm_over": {"en": "The game is over.", "ru": "Игра окончена."},
    "restored": {"en": "♻ The game goes on after a restart of the bot.",
                 "ru": "♻ Игра продолжается после перезапуска бота."},
    "timed_out": {"en": "⏰ {name} is too slow: the computer plays for her.",
                  "ru": "⏰ {name} не успевает: за него/неё ходит компьютер."},
    "auto_on": {"en": "⏰ {name} timed out three times: the computer plays on for her.",
                "ru": "⏰ {name} трижды не успел(а): дальше за него/неё играет компьютер."},
    "error": {"en": "Refused: {message}", "ru": "Нельзя: {message}"},
    "bot_name": {"en": "🤖 Bot {n}", "ru": "🤖 Бот {n}"},
    "final": {"en": "🎉 <b>{name} wins the game!</b>", "ru": "🎉 <b>{name} побеждает в игре!</b>"},
    "new_game_hint": {"en": "/begin for another game, /settings to change the modes.",
                      "ru": "/begin — ещё игра, /settings — режимы."},
    "dealing_soon": {"en": "Next hand in a moment…", "ru": "Скоро следующий раунд…"},
    "timer_short": {"en": "⏱ {n} s", "ru": "⏱ {n} с"},
    "group_only": {"en": "{command} works in a group: add me to one and write it there.",
                   "ru": "{command} работает в группе: добавьте меня туда и напишите там."},
    "uno_private": {"en": "«Uno» is said in the group where you play (or with the «📢 Uno» "
                          "button of your hand).",
                    "ru": "«Уно» говорят в группе, где идёт игра (или кнопкой «📢 Уно» под "
                          "вашими картами)."},
    "privacy_on": {"en": "ℹ️ My privacy mode is on: I do not see a typed «uno» here. Use "
                         "the «📢 Uno» button of your hand, or make me an admin (or turn privacy "
                         "off with @BotFather).",
                   "ru": "ℹ️ У меня включён режим приватности: написанное «уно» я здесь не "
                         "вижу. Нажимайте «📢 Уно» под своими картами или сделайте меня "
                         "админом (или выключите приватность у @BotFather)."},
    "btn_uno": {"en": "📢 Uno", "ru": "📢 Уно"},
    "btn_uno_armed": {"en": "📢 Uno ✅ (with the next card)",
                      "ru": "📢 Уно ✅ (со следующей картой)"},
    "uno_armed": {"en": "«Uno» goes with your next card.",
                  "ru": "«Уно» — вместе со следующей картой."},
    "revealed": {"en": "🔎 {name}'s cards: {cards}", "ru": "🔎 Карты {name}: {cards}"},
    "dm_stopped": {"en": "⏹ The game is stopped.", "ru": "⏹ Игра остановлена."},
    "unknown_button": {"en": "This button is not one of mine.", "ru": "Непонятная кнопка."},
    "stop_refused": {"en": "Only the game's players or the chat's admins can stop it.",
                     "ru": "Остановить игру могут только её игроки или админы чата."},
    "deal_refused": {"en": "Only registered players deal: /start or «Join» first.",
                     "ru": "Раздают только зарегистрированные: сначала /start или «Играю»."},
    "set_to": {"en": "Now: {mode}", "ru": "Теперь: {mode}"},
    "inline_none": {"en": "You play in no game now", "ru": "Вы сейчас не играете"},
    "inline_wait": {"en": "{name}'s turn: your cards", "ru": "Ходит {name}: ваши карты"},
    "mode_inline": {"en": "🎴 Play in the group (@bot)", "ru": "🎴 Ходы прямо в группе (@бот)"},
    "mode_bot": {"en": "🤖 Bots: {level}", "ru": "🤖 Боты: {level}"},
    "bot_heuristic:3": {"en": "easy", "ru": "лёгкие"},
    "bot_heuristic": {"en": "normal", "ru": "обычные"},
    "bot_strong": {"en": "strong", "ru": "сильные"},
    "bot_strong:hard": {"en": "hardest", "ru": "сильнейшие"},
}  # fmt: skip

#: The engine's refusals (:class:`~una.engine.errors.Refusal` codes) in the chat's language;
#: ``{seat}``, ``{to_act}``, ``{target}`` are names, ``{card}``, ``{top}`` cards.
REFUSALS: dict[str, dict[str, str]] = {
    "no_seat": {"en": "there is no such player", "ru": "такого игрока нет"},
    "match_over": {"en": "the game is over", "ru": "игра окончена"},
    "hand_in_play": {"en": "the hand is still being played", "ru": "раунд ещё идёт"},
    "hand_over": {"en": "the hand is over: the next one is dealt soon",
                  "ru": "раунд окончен: скоро следующий"},
    "out_of_hand": {"en": "{seat} is out of this hand", "ru": "{seat} уже вышел(а) из раунда"},
    "not_your_turn": {"en": "it is {to_act}'s turn", "ru": "сейчас ходит {to_act}"},
    "name_color_first": {"en": "name the color of the wild first",
                         "ru": "сначала выберите цвет джокера"},
    "no_color_asked": {"en": "no color is asked for now",
                       "ru": "цвет сейчас выбирать не нужно"},
    "challenges_off": {"en": "bluff checks are off", "ru": "проверка на блеф выключена"},
    "nothing_to_challenge": {"en": "there is no 🌈 +4 to check",
                             "ru": "проверять нечего: нет 🌈 +4"},
    "draw_pending": {"en": "take the +{n} or answer it", "ru": "возьмите +{n} или ответьте"},
    "kobe_lock": {"en": "Kobe locks the other cards", "ru": "Kobe запирает остальные карты"},
    "cannot_answer": {"en": "{card} does not answer the +{n}", "ru": "{card} не отвечает на +{n}"},
    "drawn_already": {"en": "you have drawn: play {card} or pass",
                      "ru": "вы уже взяли карту: сыграйте {card} или пас"},
    "must_play_drawn": {"en": "the drawn {card} must be played",
                        "ru": "взятую {card} надо сыграть"},
    "only_drawn": {"en": "after drawing only {card} may be played",
                   "ru": "после взятия можно сыграть только {card}"},
    "nothing_to_draw": {"en": "there is nothing to draw: pass", "ru": "брать нечего: пас"},
    "must_play": {"en": "you can play a card: drawing is not allowed",
                  "ru": "у вас есть чем ходить: брать нельзя"},
    "draw_first": {"en": "draw before passing", "ru": "сначала возьмите карту, потом пас"},
    "jump_in_pending": {"en": "no jump-in while +{n} waits",
                        "ru": "вмешаться нельзя, пока копится +{n}"},
    "jump_in_deciding": {"en": "no jump-in while {to_act} decides",
                         "ru": "вмешаться нельзя, пока {to_act} решает"},
    "jump_in_card": {"en": "it is {to_act}'s turn; a jump-in needs exactly {top}",
                     "ru": "сейчас ходит {to_act}; вмешаться можно только такой же {top}"},
    "not_held": {"en": "you have no {card}", "ru": "у вас нет {card}"},
    "needs_color": {"en": "{card} needs a color", "ru": "для {card} нужен цвет"},
    "names_no_color": {"en": "{card} names no color", "ru": "{card} не выбирает цвет"},
    "not_in_deck": {"en": "{card} is not in this deck", "ru": "{card} нет в этой колоде"},
    "bad_targets": {"en": "{card}: pick another player", "ru": "{card}: выберите другого игрока"},
    "card_rule": {"en": "{card} cannot be played now", "ru": "{card} сейчас сыграть нельзя"},
    "needs_colored": {"en": "{card} cannot go on {top}: play a colored card",
                      "ru": "{card} нельзя на {top}: нужна цветная карта"},
    "no_match": {"en": "{card} matches neither the color nor {top}",
                 "ru": "{card} не подходит ни по цвету, ни к {top}"},
    "bluff_refused": {"en": "{card} may not be played while you hold {color}",
                      "ru": "{card} нельзя, пока у вас есть {color}"},
    "no_target": {"en": "there is no such player to catch", "ru": "ловить некого"},
    "catch_self": {"en": "you cannot catch yourself", "ru": "себя ловить нельзя"},
    "holds_more": {"en": "{target} holds {count} cards", "ru": "у {target} карт: {count}"},
    "called_uno": {"en": "{target} said «Uno»", "ru": "{target} сказал(а) «Уно»"},
    "window_closed": {"en": "too late to catch {target}", "ru": "{target} ловить уже поздно"},
    "other": {"en": "this move is not allowed now", "ru": "так сейчас нельзя"},
}  # fmt: skip

_SEAT_ARGS = ("seat", "to_act", "target")
_CARD_ARGS = ("card", "top")


def refusal_text(refusal: Refusal, names: Sequence[str], lang: str) -> str:
    """An engine refusal in ``lang``, seats as names and cards as emoji.

    >>> from una.engine import Game
    >>> refusal = Game("telegram", ["Аня", "Боб"], seed=1).why_illegal(0, "play R1")
    >>> refusal_text(refusal, ["Аня", "Боб"], "ru")
    'у вас нет 🟥 1'
    """
    entry = REFUSALS.get(refusal.code) or REFUSALS["other"]
    values: dict[str, Any] = {}
    for key, value in refusal.args:
        if key in _SEAT_ARGS and isinstance(value, int) and 0 <= value < len(names):
            values[key] = names[value]
        elif key in _CARD_ARGS and isinstance(value, Card):
            values[key] = card_label(value)
        elif key == "color" and value is not None:
            values[key] = color_label(value, lang)
        else:
            values[key] = value
    text = entry.get(lang) or entry["en"]
    try:
        return text.format(**values)
    except (KeyError, IndexError):
        return REFUSALS["other"].get(lang) or REFUSALS["other"]["en"]


def t(lang: str, key: str, **values: Any) -> str:
    """The text ``key`` in ``lang`` (English when missing), formatted with ``values``."""
    entry = TEXTS[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**values) if values else text


# ------------------------------------------------------------------ events

_EVENT_TEXTS: dict[str, dict[str, str]] = {
    "hand": {"en": "🃏 Hand {n}: {dealer} deals", "ru": "🃏 Раунд {n}: раздаёт {dealer}"},
    "turned": {"en": "First card: {card}", "ru": "Первая карта: {card}"},
    "returned": {"en": "{card} goes back into the deck", "ru": "{card} уходит обратно в колоду"},
    "played": {"en": "{who}: {card}", "ru": "{who}: {card}"},
    "named": {"en": " → {color}", "ru": " → {color}"},
    "drew": {"en": "{who} draws {cards}", "ru": "{who} берёт {cards}"},
    "drew_penalty": {"en": "{who} takes {cards}", "ru": "{who} забирает {cards}"},
    "drew_challenge": {"en": "{who} draws {cards} (bluff check)",
                       "ru": "{who} берёт {cards} (проверка на блеф)"},
    "drew_catch": {"en": "{who} draws {cards} for a missed «Uno»",
                   "ru": "{who} берёт {cards} за несказанное «Уно»"},
    "passed": {"en": "{who} passes", "ru": "{who} пасует"},
    "color": {"en": "{who} names {color}", "ru": "{who} выбирает {color}"},
    "reverted": {"en": "The color goes back to {color}", "ru": "Цвет снова {color}"},
    "skipped": {"en": "{who} misses a turn 🚫", "ru": "{who} пропускает ход 🚫"},
    "direction": {"en": "Play changes direction 🔄", "ru": "Направление меняется 🔄"},
    "pending": {"en": "{who} must take {n} or answer", "ru": "{who} берёт {n} или отвечает"},
    "swap": {"en": "{a} and {b} swap hands", "ru": "{a} и {b} меняются картами"},
    "rotate": {"en": "Every hand passes on", "ru": "Все передают карты по кругу"},
    "guilty": {"en": "🤥 {c} checks {a}: a bluff!", "ru": "🤥 {c} проверяет {a}: блеф!"},
    "honest": {"en": "🤥 {c} checks {a}: honest", "ru": "🤥 {c} проверяет {a}: честно"},
    "revealed": {"en": "{a} shows the hand to {b}", "ru": "{a} показывает карты {b}"},
    "uno": {"en": "📢 {who}: UNO!", "ru": "📢 {who}: УНО!"},
    "uno_missed": {"en": "⏰ {who} did not say «Uno» in time",
                   "ru": "⏰ {who} не сказал(а) «Уно» вовремя"},
    "caught": {"en": "🫵 {c} catches {who} without «Uno»",
               "ru": "🫵 {c} ловит {who} без «Уно»"},
    "catch_failed": {"en": "{c} tries to catch {who}: no", "ru": "{c} ловит {who}: мимо"},
    "reshuffled": {"en": "The pile is shuffled into the deck",
                   "ru": "Сброс перемешан в колоду"},
    "hand_won": {"en": "🏆 {who} wins the hand", "ru": "🏆 {who} выигрывает раунд"},
    "blocked": {"en": "🧱 The hand is blocked; {who} counts as out",
                "ru": "🧱 Ходов нет; раунд за {who}"},
    "points": {"en": "Points this hand: {points}", "ru": "Очки за раунд: {points}"},
    "order": {"en": "🏁 Finishing order: {order}", "ru": "🏁 Порядок выхода: {order}"},
    "loser": {"en": "💀 {who} is left holding cards: the loser",
              "ru": "💀 {who} остаётся с картами: проигрыш"},
    "match_won": {"en": "🎉 {who} wins the game!", "ru": "🎉 {who} побеждает в игре!"},
}  # fmt: skip


def _e(lang: str, key: str, **values: Any) -> str:
    entry = _EVENT_TEXTS[key]
    return (entry.get(lang) or entry["en"]).format(**values)


def describe(event: Event, names: Sequence[str], lang: str, to_the_last: bool = False) -> str:
    """One line for an event as the group sees it (pass ``event.visible_to(None)``);
    ``to_the_last``: a hand's end also names the finishing order and the loser."""
    n = names
    if isinstance(event, ev.HandStarted):
        return _e(lang, "hand", n=event.hand_number, dealer=n[event.dealer])
    if isinstance(event, ev.CardTurned):
        return _e(lang, "turned", card=card_label(event.card))
    if isinstance(event, ev.FirstCardReturned):
        return _e(lang, "returned", card=card_label(event.card))
    if isinstance(event, ev.CardPlayed):
        text = _e(lang, "played", who=n[event.seat], card=card_label(event.card))
        if event.color is not None:
            text += _e(lang, "named", color=COLOR_EMOJI[event.color.value])
        return text
    if isinstance(event, ev.CardsDrawn):
        key = {"penalty": "drew_penalty", "challenge": "drew_challenge", "catch": "drew_catch",
               "bad_catch": "drew_catch"}.get(event.reason, "drew")  # fmt: skip
        cards = plural_cards(lang, event.count)
        if event.cards:
            cards += " (" + ", ".join(card_label(c) for c in event.cards) + ")"
        return _e(lang, key, who=n[event.seat], cards=cards)
    if isinstance(event, ev.Passed):
        return _e(lang, "passed", who=n[event.seat])
    if isinstance(event, ev.ColorChosen):
        return _e(lang, "color", who=n[event.seat], color=color_label(event.color, lang))
    if isinstance(event, ev.ColorReverted):
        return _e(lang, "reverted", color=color_label(event.color, lang))
    if isinstance(event, ev.Skipped):
        return _e(lang, "skipped", who=n[event.seat])
    if isinstance(event, ev.DirectionChanged):
        return _e(lang, "direction")
    if isinstance(event, ev.DrawPending):
        return _e(lang, "pending", who=n[event.seat], n=event.total)
    if isinstance(event, ev.HandsMoved):
        if len(event.moves) == 2 and event.moves[0] == event.moves[1][::-1]:
            a, b = event.moves[0]
            return _e(lang, "swap", a=n[a], b=n[b])
        return _e(lang, "rotate")
    if isinstance(event, ev.Challenged):
        key = "guilty" if event.guilty else "honest"
        return _e(lang, key, c=n[event.challenger], a=n[event.accused])
    if isinstance(event, ev.HandRevealed):
        return _e(lang, "revealed", a=n[event.seat], b=n[event.to])
    if isinstance(event, ev.UnoCalled):
        return _e(lang, "uno", who=n[event.seat])
    if isinstance(event, ev.UnoMissed):
        return _e(lang, "uno_missed", who=n[event.seat])
    if isinstance(event, ev.UnoCaught):
        return _e(lang, "caught", c=n[event.catcher], who=n[event.seat])
    if isinstance(event, ev.CatchFailed):
        return _e(lang, "catch_failed", c=n[event.catcher], who=n[event.seat])
    if isinstance(event, ev.Reshuffled):
        return _e(lang, "reshuffled")
    if isinstance(event, ev.HandEnded):
        key = "blocked" if event.blocked else "hand_won"
        points = ", ".join(f"{name} {p:+d}" for name, p in zip(n, event.points, strict=False))
        text = _e(lang, key, who=n[event.winner])
        if to_the_last and len(event.ranking) > 2:
            order = ", ".join(f"{i}. {n[seat]}" for i, seat in enumerate(event.ranking, 1))
            text += "\n" + _e(lang, "order", order=order)
            text += "\n" + _e(lang, "loser", who=n[event.ranking[-1]])
        return text + "\n" + _e(lang, "points", points=points)
    if isinstance(event, ev.MatchEnded):
        return _e(lang, "match_won", who=n[event.winner])
    return event.describe(names)
