"""The browser's keyed catalogues (i18n.js, messages.js): English and Russian have the same
keys, and every server message type and code has its words. No browser needed: the files
are read as text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from una.engine.cards import ALL_CARDS, Card
from una.engine.errors import REFUSALS
from una.engine.events import EVENT_TYPES
from una.server import protocol as p
from una.server.app import catalog

STATIC = Path(__file__).parents[2] / "una" / "server" / "static"
KEY = re.compile(r'^\s*"([\w.-]+)":\s*"', re.M)
KEYS_INLINE = re.compile(r'"([\w.-]+)":\s*"')
ENTRY = re.compile(r'"([\w.-]+)":\s*"((?:[^"\\]|\\.)*)"')
#: Reasons the server gives of its own for an illegal move (besides the engine's).
SERVER_REASONS = {"vote_needed": ()}


def keys(source: str, name: str) -> set[str]:
    """The keys of ``const NAME = { ... };`` in a JS file."""
    start = source.index(f"const {name} = {{")
    body = source[start : source.index("\n};", start)]
    return set(KEYS_INLINE.findall(body))


@pytest.mark.parametrize("file", ["i18n.js", "messages.js"])
def test_english_and_russian_have_the_same_keys(file: str) -> None:
    source = (STATIC / file).read_text()
    en, ru = keys(source, "EN"), keys(source, "RU")
    assert en and en == ru, {"only English": sorted(en - ru), "only Russian": sorted(ru - en)}


def test_every_server_code_has_its_words() -> None:
    source = (STATIC / "messages.js").read_text()
    en = keys(source, "EN")
    assert {f"err.{code}" for code in p.ERRORS} <= en, sorted({f"err.{c}" for c in p.ERRORS} - en)
    for code in p.NOTICES:
        assert any(key.startswith(f"notice.{code}") for key in en), code
    for code in p.REPLIES:
        assert any(key.startswith(f"reply.{code}") for key in en), code
    for kind in EVENT_TYPES:
        assert f'case "{kind}":' in source, f"eventText does not word {kind}"


def test_the_client_keeps_no_copy_of_the_engines_tables() -> None:
    names = {path.name for path in STATIC.iterdir()}
    assert "rules-data.js" not in names
    everything = "\n".join(path.read_text() for path in STATIC.glob("*.js"))
    copies = ("Draw Two", "Возьми 2", "translateEvent", "stack_draw_two:")
    copies += ('KOBE: ["Y"', '"RAND", "TRADE"')  # cards.js's old tables of the cards
    for copied in copies:
        assert copied not in everything, copied


def entries(source: str, name: str) -> dict[str, str]:
    """The keys and texts of ``const NAME = { ... };`` in a JS file."""
    start = source.index(f"const {name} = {{")
    return dict(ENTRY.findall(source[start : source.index("\n};", start)]))


@pytest.mark.parametrize("lang", ["EN", "RU"])
def test_every_refusal_of_the_rules_is_worded_from_its_own_arguments(lang: str) -> None:
    words = entries((STATIC / "messages.js").read_text(), lang)
    reasons = {**REFUSALS, **SERVER_REASONS}
    worded = {key.removeprefix("why.") for key in words if key.startswith("why.")}
    assert worded == set(reasons), {
        "not worded": sorted(set(reasons) - worded),
        "no such refusal": sorted(worded - set(reasons)),
    }
    for code, names in reasons.items():
        used = set(re.findall(r"{(\w+)}", words[f"why.{code}"]))
        assert used <= set(names), (code, used - set(names))


def test_the_rules_carry_the_card_facts_the_client_draws_from() -> None:
    """GET /api/rules (``catalog``): every card code's color, symbol, wildness and parent
    face, as the engine's card has them, and the word on its face in each language."""
    rules = catalog()
    faces = rules["faces"]
    assert set(faces) == {card.code for card in ALL_CARDS}
    for code, face in faces.items():
        card = Card.parse(code)
        assert face["color"] == (card.color.value if card.color else None), code
        assert (face["symbol"], face["wild"]) == (card.symbol, card.is_wild), code
        assert face["parent"] == (card.face if card.face != card.symbol else None), code
    assert faces["KOBE"] == {"color": "Y", "symbol": "KOBE", "wild": False, "parent": "8"}
    assert faces["HOLY"]["parent"] == "0" and faces["W4"]["wild"] and not faces["CL"]["wild"]
    en, ru = (rules["labels"][lang]["face_words"] for lang in ("en", "ru"))
    assert en.keys() == ru.keys() and {"NAGA", "KOBE", "RSP"} <= en.keys()
    assert (en["NAGA"], ru["NAGA"], ru["RSP"]) == ("NAGA", "НАГА", "ВСЕМ")
    assert not any(re.search("[A-Za-z]", word) for word in ru.values()), ru
    # a word is on the face of a card that draws no sign of its own
    assert not {"W4", "HOLY"} & en.keys()
