"""Action codes (NOTATION.md): parsing, canonical formatting, round trips, errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from una.engine.actions import CHALLENGE, DEAL, DRAW, PASS, UNO, Action, Kind
from una.engine.cards import ALL_CARDS, COLORS, Card, Color
from una.engine.errors import InvalidCode
from una.engine.rules import MAX_SEATS

# ------------------------------------------------------------ every form


@pytest.mark.parametrize(
    "code",
    [
        "play R5",
        "play B0",
        "play GD2",
        "play YS",
        "play BR",
        "play W G",
        "play W4 R",
        "play W4 B uno",
        "play R5 uno",
        "play R7 @2",
        "play TRADE @1",
        "play WTP Y @0 @3 @2",
        "play SPY G @4 uno",
        "play R7 @1 uno",
        "play HOLY",
        "draw",
        "pass",
        "color R",
        "color Y",
        "color G",
        "color B",
        "challenge",
        "uno",
        "catch @0",
        "catch @3",
        "catch @9",
        "deal",
    ],
)
def test_canonical_codes_round_trip(code: str) -> None:
    action = Action.parse(code)
    assert action.code == code
    assert str(action) == code
    assert Action.parse(action.code) == action
    assert repr(action) == f"Action.parse({code!r})"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("play w4 green", "play W4 G"),
        ("PLAY W4 GREEN", "play W4 G"),
        ("Play w Blue UNO", "play W B uno"),
        ("play r5", "play R5"),
        ("play rd2 Uno", "play RD2 uno"),
        ("play wtp yellow @1 @0 uno", "play WTP Y @1 @0 uno"),
        ("play w red", "play W R"),
        ("  play   gs  ", "play GS"),
        ("DRAW", "draw"),
        ("Pass", "pass"),
        ("color red", "color R"),
        ("COLOR b", "color B"),
        ("color Yellow", "color Y"),
        ("Challenge", "challenge"),
        ("UNO", "uno"),
        ("CATCH @2", "catch @2"),
        ("Deal", "deal"),
    ],
)
def test_parsing_is_case_insensitive_and_accepts_color_words(text: str, canonical: str) -> None:
    action = Action.parse(text)
    assert action.code == canonical
    assert Action.parse(canonical) == action


def test_parsed_fields() -> None:
    action = Action.parse("play w4 green @1 @2 uno")
    assert action.kind is Kind.PLAY
    assert action.card is Card.parse("W4")
    assert action.color is Color.GREEN
    assert action.targets == (1, 2)
    assert action.uno is True

    plain = Action.parse("play R5")
    assert (plain.card, plain.color, plain.targets, plain.uno) == (
        Card.parse("R5"),
        None,
        (),
        False,
    )

    assert Action.parse("catch @2").kind is Kind.CATCH
    assert Action.parse("catch @2").targets == (2,)
    assert Action.parse("color g").color is Color.GREEN
    assert Action.parse("color g").kind is Kind.COLOR


def test_bare_verbs_are_the_shared_constants() -> None:
    assert Action.parse("draw") == DRAW
    assert Action.parse("pass") == PASS
    assert Action.parse("challenge") == CHALLENGE
    assert Action.parse("uno") == UNO
    assert Action.parse("deal") == DEAL


def test_constructors_agree_with_parse() -> None:
    assert Action.play(Card.parse("R7")).code == "play R7"
    assert Action.play(Card.parse("W4"), Color.BLUE, (1, 3), uno=True).code == "play W4 B @1 @3 uno"
    assert Action.catch(4) == Action.parse("catch @4")
    assert Action.name_color(Color.YELLOW) == Action.parse("color yellow")


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("jump", "unknown verb 'jump'"),
        ("play", "play needs a card"),
        ("play X9", "invalid card code 'X9'"),
        ("draw 3", "draw takes no arguments"),
        ("pass now", "pass takes no arguments"),
        ("uno now", "uno takes no arguments"),
        ("deal 2", "deal takes no arguments"),
        ("challenge @1", "challenge takes no arguments"),
        ("catch", "catch takes exactly one @seat"),
        ("catch @1 @2", "catch takes exactly one @seat"),
        ("catch 2", "expected @<seat number>, got '2'"),
        ("catch @x", "expected @<seat number>, got '@x'"),
        ("catch @-1", "expected @<seat number>, got '@-1'"),
        ("catch @", "expected @<seat number>, got '@'"),
        ("catch 12", "expected @<seat number>, got '12'"),
        ("play W4 G @1 12", "expected @<seat number>, got '12'"),
        ("color purple", "invalid color 'purple'"),
        ("color", "color takes exactly one color"),
        ("color R G", "color takes exactly one color"),
        ("play R5 @a", "expected @<seat number>, got '@a'"),
        ("play R5 purple", "invalid color 'purple'"),
        ("play W4 G @1 B", "expected @<seat number>, got 'B'"),
        ("play R5 uno uno", "invalid color 'uno'"),
    ],
)
def test_malformed_codes_are_refused_naming_the_problem(text: str, problem: str) -> None:
    with pytest.raises(InvalidCode) as info:
        Action.parse(text)
    message = str(info.value)
    assert message.startswith("invalid action ")
    assert problem in message
    if text.strip():
        assert repr(text) in message


def test_superscript_digit_seat_is_an_invalid_code() -> None:
    with pytest.raises(InvalidCode):
        Action.parse("catch @²")


# -------------------------------------------------------------- Hypothesis

cards = st.sampled_from(ALL_CARDS)
colors = st.sampled_from(COLORS)
seats = st.integers(min_value=0, max_value=MAX_SEATS - 1)

plays = st.builds(
    Action.play,
    card=cards,
    color=st.none() | colors,
    targets=st.lists(seats, max_size=4).map(tuple),
    uno=st.booleans(),
)
others = (
    st.sampled_from([DRAW, PASS, CHALLENGE, UNO, DEAL])
    | colors.map(Action.name_color)
    | seats.map(Action.catch)
)
actions = plays | others


def _scramble(code: str, data: st.DataObject) -> str:
    """The code with random letter case and extra whitespace, and color letters as words."""
    tokens = []
    for i, token in enumerate(code.split()):
        if i > 0 and len(token) == 1 and token in "RYGB" and data.draw(st.booleans()):
            token = Color.parse(token).word
        token = "".join(ch.upper() if data.draw(st.booleans()) else ch.lower() for ch in token)
        tokens.append(token)
    separators = st.sampled_from([" ", "  ", "\t", " \t "])
    text = tokens[0]
    for token in tokens[1:]:
        text += data.draw(separators) + token
    return data.draw(st.sampled_from(["", " "])) + text + data.draw(st.sampled_from(["", "\n"]))


@settings(max_examples=200, deadline=None)
@given(actions)
def test_random_actions_round_trip(action: Action) -> None:
    code = action.code
    assert Action.parse(code) == action
    assert Action.parse(code).code == code
    # Canonical: upper-case card and color codes, lower-case words, single spaces.
    assert code == code.strip()
    assert "  " not in code
    verb, *args = code.split(" ")
    assert verb == action.kind.value
    for arg in args:
        assert arg in ("uno",) or arg.startswith("@") or arg == arg.upper()


@settings(max_examples=200, deadline=None)
@given(actions, st.data())
def test_random_actions_parse_from_any_spelling(action: Action, data: st.DataObject) -> None:
    text = _scramble(action.code, data)
    assert Action.parse(text) == action
    assert Action.parse(text).code == action.code


# ------------------------------------------------- hostile codes (issue 19)


def test_crafted_codes_do_not_grow_the_intern_cache() -> None:
    from una.engine import actions

    Action.parse("play R5 @1")  # a rule-reachable play: interned once
    before = len(actions._PLAYS)
    for i in range(1000):
        targets = " ".join(f"@{(i + k) % MAX_SEATS}" for k in range(2 + i % 50))
        Action.parse(f"play R5 {targets}")
        Action.parse(f"play W4 G {targets} uno")
    assert len(actions._PLAYS) == before
    assert Action.parse("play R5 @1") is Action.parse("play r5 @1")


def test_seats_are_checked_before_they_are_numbers() -> None:
    with pytest.raises(InvalidCode, match=r"no seat @4 at a table of 4 seats"):
        Action.parse("play R7 @4", seats=4)
    with pytest.raises(InvalidCode, match=r"no seat @2000 at a table of 10 seats"):
        Action.parse("play R5 @1 @2000")
    # 5,000 digits would make int() raise ValueError (not InvalidCode) on Python 3.11+.
    with pytest.raises(InvalidCode, match="no seat"):
        Action.parse("catch @" + "9" * 5000)
    assert Action.parse("catch @03", seats=4).targets == (3,)


def test_errors_do_not_echo_a_huge_code() -> None:
    with pytest.raises(InvalidCode) as caught:
        Action.parse("play " + "X" * 100_000)
    assert len(str(caught.value)) < 300
    with pytest.raises(InvalidCode) as caught:
        Action.parse("play R5 " + "@" + "x" * 100_000)
    assert len(str(caught.value)) < 300
