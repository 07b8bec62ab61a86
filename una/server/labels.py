# ruff: noqa: E501  (a catalogue: one sentence a line reads and diffs best)
"""The words of the rules in English and Russian, for front ends: card names, switch
labels and their values, preset titles, what the special cards do.

The engine names cards and describes switches in English (``Card.name``,
``Switch.description``); this module adds a short label and value words per switch and the
Russian of everything. ``GET /api/rules`` serves it (``una.server.app.catalog``): the browser
holds no copy of these tables.

>>> card_name("R7", "ru"), card_name("W4", "en"), card_name("BSKIP", "en")
('красная 7', 'Wild Draw Four', 'BSKIP')
>>> switch_value("finish", "to_the_last", "ru"), switch_value("jump_in", True, "en")
('до последнего', 'on')
>>> card_faces()["KOBE"], card_faces()["W4"]["wild"], card_faces()["B7"]["parent"]
({'color': 'Y', 'symbol': 'KOBE', 'wild': False, 'parent': '8'}, True, None)
"""

from __future__ import annotations

from typing import Any

from una.engine import SWITCHES, Card, Color, InvalidCode
from una.engine.cards import ALL_CARDS

LANGS = ("en", "ru")

#: Russian names of the card symbols (numbers are themselves).
SYMBOLS_RU: dict[str, str] = {
    "S": "«Пропусти ход»",
    "R": "«Смени направление»",
    "D2": "«Возьми 2»",
    "D4": "«Возьми 4»",
    "SP": "«Раздай 2»",
    "RD2": "«Разворот +2»",
    "DB2": "«Отложенный +2»",
    "RR": "«Двойной разворот»",
    "RS": "«Разворот с пропуском»",
    "SS": "«Двойной пропуск»",
    "W": "«Джокер»",
    "W4": "«Джокер +4»",
    "CL": "«Бесцветная»",
    "NAGA": "«Нагасаки»",
    "WDD": "«Джокер ×2»",
    "WR4": "«Джокер разворот +4»",
    "WB4": "«Джокер отложенный +4»",
    "WMY": "«Джокер-загадка»",
    "WTP": "«Джокер-мишень»",
    "HOLY": "«Святой защитник»",
    "QUIT": "«Выход из игры»",
    "SCREW": "«Отвёртка»",
    "KOBE": "«Кобе»",
    "BLEND": "«Блендер»",
    "RAND": "«Рандомайзер»",
    "TRADE": "«Обмен»",
    "CHAIRS": "«Музыкальные стулья»",
    "DANCE": "«Танцевальная лихорадка»",
    "SPY": "«Шпион»",
    "DUNG": "«Навоз»",
}

#: Colors as an adjective of a card (Russian cards are feminine: «карта»).
CARD_COLORS_RU = {"R": "красная", "Y": "жёлтая", "G": "зелёная", "B": "синяя"}

#: What each special card does, in Russian (English: the effect's docstring), by symbol.
CARD_HELP_RU: dict[str, str] = {
    "D4": "Следующий игрок берёт 4 карты и пропускает ход. Не джокер: кладётся на свой цвет или на другую «+4»; обвинить в блефе нельзя.",
    "DB2": "Следующий игрок пропускает ход, а за ним игрок берёт 2 карты и пропускает ход.",
    "BLEND": "Руки перемешиваются: каждый получает целиком чью-то чужую руку.",
    "RD2": "Смена направления, затем следующий игрок в новом направлении берёт 2 карты и пропускает ход.",
    "RR": "Дважды меняет направление: ничего не происходит, это просто ход.",
    "RS": "Смена направления, затем следующий игрок в новом направлении пропускает ход.",
    "SP": "Все остальные игроки берут по 2 карты по порядку; сыгравший ходит ещё раз. Последней картой — остальные всё равно берут.",
    "SS": "Следующие два игрока пропускают ход (вдвоём — обычный пропуск).",
    "CHAIRS": "Все игроки пересаживаются на новые места; игра идёт дальше от сыгравшего в новом порядке до конца игры.",
    "CL": "Кладётся на что угодно (кроме штрафа). Без цвета и числа: следующей можно положить любую цветную карту, и её цвет станет текущим.",
    "DANCE": "Сыгравший меняется местами с выбранным игроком или танцует один.",
    "DUNG": "Можно сыграть только последней картой. Если осталась в руке в конце раздачи, очки за руку не меньше наибольших очков другого игрока.",
    "HOLY": "В ответ на джокер со штрафом весь штраф переходит к игроку после вас. Оставшись в руке в конце, делит ваши очки за руку пополам.",
    "KOBE": "Пока она у вас, другие карты играть нельзя (и отвечать ими тоже), пока не сыграете «Кобе» — на жёлтую или на 8.",
    "NAGA": "Каждый, включая сыгравшего, берёт столько карт, сколько у него в руке. Цвет не меняется. Последней картой не выигрывает: сыгравший берёт 2.",
    "QUIT": "Сыгравший и выбранный им игрок сразу выходят из раздачи; их карты откладываются и считаются в конце раздачи.",
    "RAND": "Все карты на руках собираются, перемешиваются и раздаются заново; у каждого столько же карт.",
    "SCREW": "В ответ на джокер со штрафом весь штраф берёт тот, кто сыграл последний джокер.",
    "SPY": "Сыгравший и выбранный им игрок видят карты друг друга до конца раздачи.",
    "TRADE": "Сыгравший меняется картами с выбранным игроком.",
    "WB4": "Как «Джокер +4», но сначала пропускает следующего игрока: берёт тот, кто за ним.",
    "WDD": "Джокер, удваивающий штраф от джокеров; без штрафа — обычный джокер.",
    "WMY": "Как «Джокер +4», но берут столько, какое число было на предыдущей верхней карте (без числа — 4; 0 — обычный джокер).",
    "WR4": "Смена направления, затем как «Джокер +4» для следующего игрока в новом направлении.",
    "WTP": "Джокер: сыгравший сам выбирает, кто берёт каждую из 4 карт (и штраф, если он был). Останавливает накопление штрафа; обвинить в блефе нельзя.",
}

#: Each switch's one-line description in Russian (English: ``Switch.description``).
SWITCH_HELP_RU: dict[str, str] = {
    "stack_draw_two": "на «Возьми 2» можно ответить «Возьми 2»; сумма переходит дальше",
    "stack_draw_four": "на «Джокер +4» можно ответить «Джокером +4»",
    "stack_cross": "«Джокером +4» можно ответить на «Возьми 2» (но не наоборот)",
    "jump_in": "игрок с точно такой же картой, как верхняя, может вмешаться вне очереди",
    "seven_zero": "0 — все передают карты дальше; 7 — обмен картами с выбранным игроком",
    "draw_until_playable": "берёшь карты, пока не придёт подходящая",
    "voluntary_draw": "можно взять карту, даже если есть чем ходить",
    "play_drawn": "взятую карту можно сыграть, нужно сыграть или нельзя",
    "uno_call": "УНО говорит сам игрок (и его можно поймать) или автоматически",
    "uno_window": "забывшего УНО можно поймать до хода следующего или до его собственного хода",
    "false_uno_penalty": "ложное УНО (больше одной карты) наказывается как пропущенное",
    "bad_catch_penalty": "ошибочная поимка стоит ловящему 2 карты",
    "challenge": "блеф «Джокером +4» разрешён, и его можно проверить (выкл.: запрещён)",
    "guilty_color": "после пойманного блефа названный цвет остаётся или возвращается",
    "challenge_reveal": "после пойманного блефа проверявший видит те карты до конца раздачи",
    "wd4_rule": "«Джокер +4» можно, если нет карт текущего цвета (или ещё и того же числа)",
    "finish": "раздача кончается, когда кто-то вышел, или играется до последнего",
    "scoring": "подсчёт очков: победитель забирает всё, штрафные, сброшенное минус рука, без очков",
    "target": "сколько очков нужно, чтобы игра закончилась",
    "first_player": "первым ходит сосед сдающего или случайный игрок",
    "players": "наименьшее и наибольшее число мест",
    "cards": "карты-мутанты BYOND в колоде: семейство → количество",
    "uno_penalty": "пропущенное УНО стоит 2 карты, только если поймали, или сразу, когда окно закрылось",
}

#: Each switch's short label: (English, Russian).
SWITCH_LABELS: dict[str, tuple[str, str]] = {
    "stack_draw_two": ("Stack Draw Twos", "«Возьми 2» на «Возьми 2»"),
    "stack_draw_four": ("Stack Wild Draw Fours", "«Джокер +4» на «Джокер +4»"),
    "stack_cross": ("Wild Draw Four on a Draw Two", "«Джокер +4» на «Возьми 2»"),
    "jump_in": ("Jump-in", "Вмешательство"),
    "seven_zero": ("Seven-zero", "Семь-ноль"),
    "draw_until_playable": ("Draw until playable", "Брать до подходящей"),
    "voluntary_draw": ("Draw at will", "Брать по желанию"),
    "play_drawn": ("The drawn card", "Взятая карта"),
    "uno_call": ("UNO call", "Кто говорит УНО"),
    "uno_window": ("Catching window", "Когда можно поймать"),
    "uno_penalty": ("Missed UNO penalty", "Штраф за несказанное УНО"),
    "false_uno_penalty": ("False UNO penalty", "Штраф за ложное УНО"),
    "bad_catch_penalty": ("Wrong catch penalty", "Штраф за ошибочную поимку"),
    "challenge": ("Bluff challenges", "Проверка блефа"),
    "guilty_color": ("Color after a caught bluff", "Цвет после пойманного блефа"),
    "challenge_reveal": ("Caught bluffer's hand shown", "Рука пойманного видна"),
    "wd4_rule": ("Wild Draw Four rule", "Когда можно «Джокер +4»"),
    "finish": ("End of a hand", "Конец раздачи"),
    "scoring": ("Scoring", "Подсчёт очков"),
    "target": ("Score target", "Игра до"),
    "first_player": ("First player", "Первый ход"),
    "players": ("Seats", "Места"),
    "cards": ("BYOND cards", "Карты BYOND"),
}

#: The words of switch values (choices, and on/off): (English, Russian).
VALUE_WORDS: dict[str, tuple[str, str]] = {
    "may": ("may be played", "можно сыграть"),
    "must": ("must be played", "нужно сыграть"),
    "never": ("may not be played", "нельзя сыграть"),
    "manual": ("by the player", "сам игрок"),
    "auto": ("automatic", "автоматически"),
    "next_turn": ("until the next player acts", "до хода следующего"),
    "own_turn": ("until her own next turn", "до её следующего хода"),
    "catch": ("when caught", "если поймали"),
    "stands": ("stands", "остаётся"),
    "reverts": ("reverts", "возвращается"),
    "no_color": ("no card of the color", "нет карт цвета"),
    "no_color_or_number": ("no card of the color or number", "нет карт цвета и числа"),
    "first_out": ("first out", "первый вышедший"),
    "to_the_last": ("to the last", "до последнего"),
    "winner_takes_all": ("winner takes all", "победитель забирает всё"),
    "penalty": ("penalty points", "штрафные очки"),
    "discards_minus_hand": ("discards minus hand", "сброшенное минус рука"),
    "none": ("no points", "без очков"),
    "left_of_dealer": ("left of the dealer", "сосед сдающего"),
    "random": ("random", "случайный"),
    "true": ("on", "вкл."),
    "false": ("off", "выкл."),
}

#: The word printed on a card's face, where its face shows a word rather than a number or a
#: sign: (English, Russian), by symbol. The English is the notation's own short form.
FACE_WORDS: dict[str, tuple[str, str]] = {
    "SP": ("ALL", "ВСЕМ"),
    "CL": ("CL", "БЕСЦВ"),
    "NAGA": ("NAGA", "НАГА"),
    "QUIT": ("QUIT", "ВЫХОД"),
    "SCREW": ("SCREW", "ОТВЁРТКА"),
    "KOBE": ("KOBE", "КОБЕ"),
    "BLEND": ("BLEND", "БЛЕНДЕР"),
    "RAND": ("RAND", "РАНДОМ"),
    "TRADE": ("TRADE", "ОБМЕН"),
    "CHAIRS": ("CHAIRS", "СТУЛЬЯ"),
    "DANCE": ("DANCE", "ТАНЕЦ"),
    "SPY": ("SPY", "ШПИОН"),
    "DUNG": ("DUNG", "НАВОЗ"),
}

#: Preset titles in Russian (English: ``Preset.title``).
PRESET_TITLES_RU: dict[str, str] = {
    "standard": "Официальные правила",
    "alupula": "Алупула УНО",
    "telegram": "Телеграм-бот (RU)",
    "byond": "Una для BYOND",
}


def card_name(code: str, lang: str) -> str:
    """A card's name as people say it in ``lang`` (an unknown code: the code itself)."""
    try:
        card = Card.parse(code)
    except InvalidCode:
        return code
    if lang != "ru":
        return card.name
    symbol = SYMBOLS_RU.get(card.symbol, card.symbol)
    if card.color is None or card.code != card.color.value + card.symbol:
        return SYMBOLS_RU.get(card.code, symbol)
    return f"{CARD_COLORS_RU[card.color.value]} {symbol}"


def switch_value(name: str, value: Any, lang: str) -> str:
    """A switch's value in words (a number or a table stays as it is)."""
    key = str(value).lower() if isinstance(value, bool) else str(value)
    words = VALUE_WORDS.get(key) if isinstance(value, bool | str) else None
    if words is None:
        return str(value)
    return words[LANGS.index(lang)] if lang in LANGS else words[0]


def card_faces() -> dict[str, dict[str, Any]]:
    """What a front end needs to draw each card code, from the engine's cards: its color
    letter (``None`` for a wild or colorless card), its symbol, whether playing it names a
    color, and the face it matches like (Kobe: ``"8"``), if it has one besides its symbol."""
    return {
        card.code: {
            "color": card.color.value if card.color else None,
            "symbol": card.symbol,
            "wild": card.is_wild,
            "parent": card.face if card.face != card.symbol else None,
        }
        for card in ALL_CARDS
    }


def labels() -> dict[str, Any]:
    """Everything for ``GET /api/rules``: per language, every card's name, each switch's
    label and description, the value words, and the Russian of presets and cards."""
    out: dict[str, Any] = {}
    for index, lang in enumerate(LANGS):
        out[lang] = {
            "cards": {card.code: card_name(card.code, lang) for card in ALL_CARDS},
            "switches": {
                name: {
                    "label": SWITCH_LABELS[name][index],
                    "description": switch.description if lang == "en" else SWITCH_HELP_RU[name],
                }
                for name, switch in SWITCHES.items()
            },
            "values": {key: words[index] for key, words in VALUE_WORDS.items()},
            # the word on a card's face (Nagasaki: NAGA, «НАГА»), by card code
            "face_words": {
                card.code: FACE_WORDS[card.symbol][index]
                for card in ALL_CARDS
                if card.symbol in FACE_WORDS
            },
        }
    out["ru"]["presets"] = dict(PRESET_TITLES_RU)
    out["ru"]["card_help"] = dict(CARD_HELP_RU)
    return out


_MISSING = set(SWITCHES) - set(SWITCH_LABELS) | set(SWITCHES) - set(SWITCH_HELP_RU)
assert not _MISSING, f"every switch needs its label and its Russian: {_MISSING}"
assert {c.value for c in Color} == set(CARD_COLORS_RU)
assert set(FACE_WORDS) <= {card.symbol for card in ALL_CARDS}
