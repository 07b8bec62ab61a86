"""The bot's texts: both languages for every key, every engine refusal in the catalogue."""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import pytest

from una.engine import Card, Color, Game
from una.engine import events as ev
from una.engine.errors import REFUSALS as ENGINE_REFUSALS
from una.telegram import i18n
from una.telegram.i18n import REFUSALS, describe, refusal_text

GAME_PY = Path(i18n.__file__).parent.parent / "engine" / "game.py"


@pytest.mark.parametrize("table", ["TEXTS", "_EVENT_TEXTS", "REFUSALS"])
def test_russian_and_english_have_the_same_keys(table: str) -> None:
    entries = getattr(i18n, table)
    for key, entry in entries.items():
        assert set(entry) == set(i18n.LANGS), key
        fields = {lang: set(re.findall(r"{(\w+)}", text)) for lang, text in entry.items()}
        assert fields["ru"] == fields["en"], key


def test_every_refusal_code_of_the_engine_is_in_the_catalogue() -> None:
    assert set(ENGINE_REFUSALS) == set(REFUSALS), set(ENGINE_REFUSALS) ^ set(REFUSALS)
    for code, names in ENGINE_REFUSALS.items():
        for lang, text in REFUSALS[code].items():
            used = set(re.findall(r"{(\w+)}", text))
            assert used <= set(names), (code, lang, used - set(names))


def _sample(kind: typing.Any, key: str) -> typing.Any:
    """An argument of an error, as the room service sends it (JSON)."""
    if key in ("seat", "to_act", "target"):
        return 1
    if key in ("card", "top"):
        return "W4" if key == "card" else "R7"
    if key == "color":
        return "B"
    if kind is int:
        return 3
    if kind is str or key in ("preset", "name", "other", "what", "table", "reason"):
        return "Zed" if key in ("name", "other") else "x"
    return []


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_server_and_engine_refusal_is_worded_in_the_chats_language(lang: str) -> None:
    # Issue 21, item 11: no server sentence (English) in a chat, whatever the code: every
    # code of protocol.ERRORS has a catalogue line, every engine refusal (``illegal``) is
    # worded from its reason with names for seats, and an unknown code a generic line.
    from una.server import protocol as p
    from una.telegram.bridge import _error_text

    english = "THE SERVER'S ENGLISH SENTENCE"
    cyrillic = re.compile("[а-яё]", re.IGNORECASE)
    errors = [
        (code, {key: _sample(kind, key) for key, kind in spec.items()})
        for code, spec in p.ERRORS.items()
        if code != "illegal"
    ]
    errors += [
        ("illegal", {"reason": code, "action": "play W4 B", **{k: _sample(None, k) for k in args}})
        for code, args in ENGINE_REFUSALS.items()
    ]
    errors += [("illegal", {"reason": "vote_needed", "action": "endgame"}), ("no_such", {})]
    for code, args in errors:
        for escape in (True, False):
            answer = {"type": "error", "code": code, "message": english, "args": args}
            text = _error_text(lang, [answer], escape=escape, names=["Аня", "Боб"])
            assert english not in text and not re.search(r"seat \d", text), (code, text)
            assert "{" not in text, (code, text)
            if lang == "ru":
                assert cyrillic.search(text), (code, text)
    refused = {"reason": "not_your_turn", "action": "draw", "to_act": 1, "seat": 0}
    answer = {"type": "error", "code": "illegal", "message": english, "args": refused}
    assert _error_text("ru", [answer], names=["Аня", "Боб"]) == "Нельзя: сейчас ходит Боб"


def test_the_rules_refuse_with_the_codes_of_their_table_only() -> None:
    """Every ``refuse`` of the rules names a code of REFUSALS (refuse() checks the
    arguments when it runs; this reads every call site, run or not)."""
    codes = set(re.findall(r'refuse\(\s*"(\w+)"', GAME_PY.read_text(encoding="utf-8")))
    assert len(codes) > 30
    assert codes <= set(ENGINE_REFUSALS), codes - set(ENGINE_REFUSALS)


def test_a_refusal_names_players_and_cards_never_seats() -> None:
    names = ["Аня", "Боб", "Вика"]
    game = Game("telegram", names, seed=4)
    other = (game.to_act + 1) % 3  # type: ignore[operator]
    refusal = game.why_illegal(other, "draw")
    assert refusal is not None and refusal.code == "not_your_turn"
    assert refusal_text(refusal, names, "ru") == f"сейчас ходит {names[game.to_act]}"  # type: ignore[index]
    assert "seat" not in refusal_text(refusal, names, "en")
    missing = next(c for c in game.rules.deck() if c not in game.hands[game.to_act])  # type: ignore[index]
    refusal = game.why_illegal(
        game.to_act, f"play {missing.code}" + (" R" if missing.is_wild else "")
    )  # type: ignore[arg-type]
    assert refusal is not None and refusal.code == "not_held"
    assert refusal_text(refusal, names, "ru").startswith("у вас нет ")


def test_to_the_last_names_the_order_and_the_loser() -> None:
    ended = ev.HandEnded(2, False, (30, 5, -40), (30, 5, -40), (2, 0, 1))
    text = describe(ended, ["Аня", "Боб", "Вика"], "ru", to_the_last=True)
    assert "🏆 Вика выигрывает раунд" in text
    assert "🏁 Порядок выхода: 1. Вика, 2. Аня, 3. Боб" in text
    assert "💀 Боб остаётся с картами" in text
    assert "Порядок" not in describe(ended, ["Аня", "Боб", "Вика"], "ru")


def test_to_the_last_with_two_players_names_the_loser_too() -> None:
    # Issue 21, item 6: with two players only the winner was named.
    ended = ev.HandEnded(1, False, (-12, 12), (-12, 12), (1, 0))
    ru = describe(ended, ["Аня", "Боб"], "ru", to_the_last=True)
    assert "🏆 Боб выигрывает раунд" in ru and "💀 Аня остаётся с картами: проигрыш" in ru
    assert "Порядок" not in ru  # two players: the order says nothing more
    en = describe(ended, ["Ann", "Bob"], "en", to_the_last=True)
    assert "💀 Ann is left holding cards: the loser" in en
    assert "💀" not in describe(ended, ["Аня", "Боб"], "ru")  # first_out names no loser


def test_the_automatic_missed_uno_is_told() -> None:
    assert describe(ev.UnoMissed(1), ["Аня", "Боб"], "ru") == "⏰ Боб не сказал(а) «Уно» вовремя"


def test_the_catalogues_are_gettext_files_with_the_same_keys() -> None:
    from babel.messages.pofile import read_po

    keys = {}
    for lang in i18n.LANGS:
        path = i18n.LOCALE / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
        with path.open("rb") as po:
            catalogue = read_po(po, locale=lang)
        keys[lang] = {(m.context, m.id) for m in catalogue if m.id}
        assert all(m.string for m in catalogue if m.id), f"{lang}: an empty translation"
    assert keys["ru"] == keys["en"], keys["ru"] ^ keys["en"]
    assert len(keys["en"]) > 150


def example_event(cls: type[ev.Event]) -> ev.Event:
    """An instance of an event class with plausible values for a 3-player table."""
    values: dict[str, object] = {}
    for field in dataclasses.fields(cls):
        hint = typing.get_type_hints(cls)[field.name]
        if field.name in ("moves",):
            values[field.name] = ((0, 1), (1, 0))
        elif field.name in ("seats", "seating", "ranking"):
            values[field.name] = (2, 0, 1)
        elif field.name in ("points", "scores"):
            values[field.name] = (20, 0, 0)
        elif field.name == "cards":
            values[field.name] = (Card.parse("R5"),)
        elif hint is int:
            values[field.name] = 1
        elif hint is bool:
            values[field.name] = True
        elif hint is str:
            values[field.name] = "catch" if field.name == "reason" else ""
        elif "Card" in str(hint):
            values[field.name] = Card.parse("W") if "Color" in str(hint) else Card.parse("R5")
        elif "Color" in str(hint):
            values[field.name] = Color.RED
        else:
            values[field.name] = field.default
    return cls(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("kind", sorted(ev.EVENT_TYPES))
def test_every_event_of_the_engine_has_words_of_the_bot(
    kind: str, lang: str, caplog: pytest.LogCaptureFixture
) -> None:
    event = example_event(ev.EVENT_TYPES[kind])
    names = ["Аня", "Боб", "Вика"]
    with caplog.at_level("WARNING", logger="una.telegram.i18n"):
        text = describe(event, names, lang, to_the_last=True)
    assert text and not caplog.records, (kind, text)
    if lang == "ru":  # the engine's English sentence is never what the bot says
        assert text != event.describe(names), (kind, text)
