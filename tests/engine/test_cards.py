"""Card and color codes (NOTATION.md), the classic deck (RULES.md section 2), point values."""

from __future__ import annotations

from collections import Counter

import pytest

from una.engine.cards import (
    ALL_CARDS,
    COLORS,
    Card,
    Color,
    deck_difference,
    format_cards,
    parse_cards,
)
from una.engine.errors import InvalidCode
from una.engine.presets import PRESETS, classic_deck
from una.engine.rules import STANDARD_RULES

CODES = [card.code for card in ALL_CARDS]
NUMBERS = [str(n) for n in range(10)]


# ------------------------------------------------------------------ card codes


@pytest.mark.parametrize("code", CODES)
def test_every_card_code_round_trips(code: str) -> None:
    card = Card.parse(code)
    assert card.code == code
    assert str(card) == code
    assert Card.parse(card.code) is card
    assert Card.of(card.color, card.symbol) is card


@pytest.mark.parametrize("code", CODES)
def test_codes_parse_in_any_case_and_with_surrounding_spaces(code: str) -> None:
    card = Card.parse(code)
    assert Card.parse(code.lower()) is card
    assert Card.parse(f"  {code.lower()} ") is card
    assert Card.parse(f"\t{code.title()}\n") is card


def test_all_cards_is_the_whole_notation() -> None:
    assert len(CODES) == len(set(CODES)), "ALL_CARDS has duplicates"
    colored = {c.value + s for c in COLORS for s in ("S", "R", "D2", "D4", "SP", "RD2")}
    colored |= {c.value + s for c in COLORS for s in ("DB2", "RR", "RS", "SS", *NUMBERS)}
    named = {
        "W", "W4", "CL", "NAGA", "WDD", "WR4", "WB4", "WMY", "WTP", "HOLY", "QUIT", "SCREW",
        "KOBE", "BLEND", "RAND", "TRADE", "CHAIRS", "DANCE", "SPY", "DUNG",
    }  # fmt: skip
    assert set(CODES) == colored | named


def test_card_attributes() -> None:
    r5 = Card.parse("r5")
    assert (r5.color, r5.symbol, r5.number, r5.is_wild, r5.is_draw) == (
        Color.RED,
        "5",
        5,
        False,
        False,
    )
    assert Card.parse("BD2").is_draw and not Card.parse("BD2").is_wild
    assert Card.parse("W").is_wild and not Card.parse("W").is_draw
    assert Card.parse("W4").is_wild and Card.parse("W4").is_draw
    assert Card.parse("W4").color is None
    assert Card.parse("GS").number is None
    assert Card.parse("W4").name == "Wild Draw Four"
    assert Card.parse("YD2").name == "yellow Draw Two"
    assert Card.parse("B7").name == "blue 7"


@pytest.mark.parametrize(
    "text", ["", " ", "X9", "R10", "RW", "W5", "HOLYY", "r 5", "R", "5", "RD3", "W 4", "WW"]
)
def test_garbage_card_codes_are_refused_quoting_the_input(text: str) -> None:
    with pytest.raises(InvalidCode) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert "invalid card code" in str(info.value)


# ---------------------------------------------------------------------- colors


@pytest.mark.parametrize(
    ("text", "color"),
    [
        ("R", Color.RED),
        ("r", Color.RED),
        ("Y", Color.YELLOW),
        ("y", Color.YELLOW),
        ("G", Color.GREEN),
        ("g", Color.GREEN),
        ("B", Color.BLUE),
        ("b", Color.BLUE),
        ("red", Color.RED),
        ("RED", Color.RED),
        ("Red", Color.RED),
        ("yellow", Color.YELLOW),
        ("YeLLoW", Color.YELLOW),
        ("green", Color.GREEN),
        ("GREEN", Color.GREEN),
        ("blue", Color.BLUE),
        ("Blue", Color.BLUE),
        (" blue ", Color.BLUE),
    ],
)
def test_colors_parse_from_letters_and_words(text: str, color: Color) -> None:
    assert Color.parse(text) is color


@pytest.mark.parametrize("color", COLORS)
def test_color_round_trip(color: Color) -> None:
    assert Color.parse(color.value) is color
    assert Color.parse(str(color)) is color
    assert Color.parse(color.word) is color
    assert str(color) == color.value


@pytest.mark.parametrize("text", ["", "purple", "W", "rd", "reds", "bl", "0"])
def test_bad_colors_are_refused_quoting_the_input(text: str) -> None:
    with pytest.raises(InvalidCode) as info:
        Color.parse(text)
    assert repr(text) in str(info.value)


# ------------------------------------------------------------------ the deck


def test_classic_deck_has_108_cards() -> None:
    assert sum(classic_deck().values()) == 108
    assert len(PRESETS["standard"].cards()) == 108
    assert PRESETS["standard"].deck_size == 108
    assert len(STANDARD_RULES.deck()) == 108


@pytest.mark.parametrize("deck", [PRESETS["standard"].cards(), STANDARD_RULES.deck()])
def test_classic_deck_composition(deck: list[Card]) -> None:
    counts = Counter(card.code for card in deck)
    expected: Counter[str] = Counter()
    for color in "RYGB":
        expected[color + "0"] = 1
        for symbol in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2"):
            expected[color + symbol] = 2
    expected["W"] = 4
    expected["W4"] = 4
    assert counts == expected
    for color in COLORS:
        assert sum(1 for card in deck if card.color is color) == 25
    assert sum(1 for card in deck if card.is_wild) == 8


def test_classic_deck_mapping_codes_parse() -> None:
    deck = classic_deck()
    assert all(Card.parse(code).code == code for code in deck)
    assert dict(PRESETS["standard"].deck) == deck


# ---------------------------------------------------------------------- points


@pytest.mark.parametrize("color", "RYGB")
@pytest.mark.parametrize("number", range(10))
def test_number_cards_score_face_value(color: str, number: int) -> None:
    card = Card.parse(f"{color}{number}")
    assert PRESETS["standard"].card_points(card) == number
    assert STANDARD_RULES.points(card) == number


@pytest.mark.parametrize(
    ("code", "points"),
    [
        *((c + s, 20) for c in "RYGB" for s in ("S", "R", "D2")),
        ("W", 50),
        ("W4", 50),
    ],
)
def test_action_and_wild_card_points(code: str, points: int) -> None:
    assert PRESETS["standard"].card_points(Card.parse(code)) == points
    assert STANDARD_RULES.points(Card.parse(code)) == points


def test_whole_standard_deck_is_worth_1240_points() -> None:
    # 4 colors x (0 + 2 x 45 + 6 x 20) + 8 x 50
    assert sum(STANDARD_RULES.points(card) for card in STANDARD_RULES.deck()) == 1240


# ------------------------------------------------------- lists and differences


def test_parse_cards_from_string_and_list() -> None:
    expected = [Card.parse("R5"), Card.parse("W"), Card.parse("G2"), Card.parse("BD2")]
    assert parse_cards("R5 W g2 bd2") == expected
    assert parse_cards("  r5\tW  G2\nBD2 ") == expected
    assert parse_cards(["r5", "w", "G2", "BD2"]) == expected
    assert parse_cards(("R5", "W", "G2", "BD2")) == expected
    assert parse_cards("") == []
    assert parse_cards([]) == []


def test_parse_cards_refuses_a_bad_code() -> None:
    with pytest.raises(InvalidCode, match="'X9'"):
        parse_cards("R5 X9 W")


def test_format_cards_round_trips() -> None:
    cards = parse_cards("r5 w4 gd2 b0 ys")
    assert format_cards(cards) == "R5 W4 GD2 B0 YS"
    assert format_cards(tuple(cards)) == "R5 W4 GD2 B0 YS"
    assert parse_cards(format_cards(cards)) == cards
    assert format_cards([]) == ""
    every = list(ALL_CARDS)
    assert parse_cards(format_cards(every)) == every


def test_deck_difference_names_extra_and_missing() -> None:
    full = STANDARD_RULES.deck()
    deck = list(full)
    deck.remove(Card.parse("R2"))
    deck.append(Card.parse("W"))
    message = deck_difference(deck, full, "standard")
    assert "standard deck" in message
    assert "108 cards" in message
    assert "extra W" in message
    assert "missing R2" in message


def test_deck_difference_missing_only_and_extra_only() -> None:
    full = STANDARD_RULES.deck()
    short = list(full)
    short.remove(Card.parse("B9"))
    short.remove(Card.parse("W4"))
    message = deck_difference(short, full, "standard")
    assert "106 cards" in message
    assert "missing B9 W4" in message
    assert "extra" not in message

    long = [*full, Card.parse("GD2")]
    message = deck_difference(long, full, "standard")
    assert "109 cards" in message
    assert "extra GD2" in message
    assert "missing" not in message


def test_deck_difference_docstring_example() -> None:
    assert (
        deck_difference(parse_cards("R1 R1"), parse_cards("R1 R2"), "tiny")
        == "not a permutation of the tiny deck (2 cards; extra R1; missing R2)"
    )
