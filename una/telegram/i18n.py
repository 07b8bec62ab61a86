"""Russian and English texts of the Telegram bot, cards as emoji plus text, and events.

The texts are gettext catalogues read with Babel (``locale/*/LC_MESSAGES/una.po``):
:func:`t` looks a key up in the chat's language and formats it; :data:`REFUSALS` renders the
engine's refusal codes (:func:`refusal_text`). Both languages have the same keys
(tests/telegram/test_i18n.py).

>>> t("en", "registered", name="Ann", count=2)
'Ann is in the game (2 registered).'
>>> from una.engine import Card
>>> card_label(Card.parse("R7")), card_label(Card.parse("BD2")), card_label(Card.parse("W4"))
('🟥 7', '🟦 +2', '🌈 +4')
>>> card_label(Card.parse("GR")), card_label(Card.parse("YS")), card_label(Card.parse("W"))
('🟩 🔄', '🟨 🚫', '🌈')
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from una.engine import Card, Color, Refusal
from una.engine import events as ev
from una.engine.events import Event

log = logging.getLogger(__name__)

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


#: The catalogues: gettext ``.po`` files, one per language (``locale/LANG/LC_MESSAGES/una.po``),
#: read with Babel when the bot starts. Each text's ``msgid`` is its key and its ``msgctxt``
#: its table: ``text`` (the bot's messages), ``event`` (game events), ``refusal`` (the
#: engine's refusal codes).
LOCALE = Path(__file__).parent / "locale"
DOMAIN = "una"


def load_catalogues(root: Path = LOCALE) -> dict[str, dict[str, dict[str, str]]]:
    """Every table of the catalogues: table -> key -> language -> text."""
    tables: dict[str, dict[str, dict[str, str]]] = {"text": {}, "event": {}, "refusal": {}}
    for lang in LANGS:
        with (root / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
            catalogue = read_po(po, locale=lang)
        for message in catalogue:
            if message.id and message.context in tables and isinstance(message.string, str):
                tables[message.context].setdefault(str(message.id), {})[lang] = message.string
    return tables


_TABLES = load_catalogues()
TEXTS: dict[str, dict[str, str]] = _TABLES["text"]

#: The engine's refusals (:class:`~una.engine.errors.Refusal` codes) in the chat's language;
#: ``{seat}``, ``{to_act}``, ``{target}`` are names, ``{card}``, ``{top}`` cards.
REFUSALS: dict[str, dict[str, str]] = _TABLES["refusal"]

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

_EVENT_TEXTS: dict[str, dict[str, str]] = _TABLES["event"]


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
    if isinstance(event, ev.HandsRedealt):
        return _e(lang, "redealt")
    if isinstance(event, ev.Reseated):
        return _e(lang, "reseated", names=", ".join(n[seat] for seat in event.seating))
    if isinstance(event, ev.LeftHand):
        return _e(lang, "left", names=_e(lang, "and").join(n[seat] for seat in event.seats))
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
        if to_the_last and len(event.ranking) >= 2 and event.ranking[-1] != event.winner:
            # two players too: the one left holding cards is named
            text += "\n" + _e(lang, "loser", who=n[event.ranking[-1]])
        return text + "\n" + _e(lang, "points", points=points)
    if isinstance(event, ev.MatchEnded):
        return _e(lang, "match_won", who=n[event.winner])
    # A new event type without words (tests word every one of EVENT_TYPES): say it in
    # English rather than stop the chat.
    log.warning("no words for the event %s", type(event).__name__)
    return event.describe(names)
