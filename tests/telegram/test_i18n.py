"""The bot's texts: both languages for every key, every engine refusal in the catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from una.engine import Game
from una.engine import events as ev
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
    codes = set(re.findall(r'refuse\(\s*"(\w+)"', GAME_PY.read_text(encoding="utf-8")))
    assert len(codes) > 30
    assert codes <= set(REFUSALS), codes - set(REFUSALS)


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
