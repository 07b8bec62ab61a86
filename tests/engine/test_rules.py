"""Rule sets (RULES.md section 4): presets, switches, validation, JSON form."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from una.engine.cards import MUTANTS
from una.engine.errors import InvalidRules
from una.engine.presets import PRESETS
from una.engine.rules import STANDARD_RULES, SWITCHES, RuleSet, Switch

# The switch table of RULES.md section 4, which SWITCHES must implement.
RULES_MD_SWITCHES = {
    "stack_draw_two", "stack_draw_four", "stack_cross", "jump_in", "seven_zero",
    "draw_until_playable", "voluntary_draw", "play_drawn", "uno_call", "uno_window",
    "false_uno_penalty", "bad_catch_penalty", "challenge", "guilty_color", "challenge_reveal",
    "wd4_rule", "finish", "scoring", "target", "players",
}  # fmt: skip


# -------------------------------------------------------------- building


def test_preset_name_string() -> None:
    rules = RuleSet.from_json("standard")
    assert rules.preset == "standard"
    assert rules == STANDARD_RULES
    assert rules == RuleSet.preset_named("standard")
    assert rules.target == 500
    assert rules.challenge is True
    assert rules.voluntary_draw is True
    assert rules.play_drawn == "may"
    assert rules.players == (2, 10)
    assert rules.stack_draw_two is False


def test_object_with_overrides() -> None:
    rules = RuleSet.from_json(
        {"preset": "standard", "stack_draw_two": True, "target": 200, "players": [3, 6]}
    )
    assert rules.preset == "standard"
    assert rules.stack_draw_two is True
    assert rules.target == 200
    assert rules.players == (3, 6)
    assert rules.stack_draw_four is False
    assert rules.challenge is True


def test_object_without_preset_means_standard() -> None:
    assert RuleSet.from_json({}) == STANDARD_RULES
    assert RuleSet.from_json({"target": 100}).preset == "standard"


def test_defaults_match_the_switch_table() -> None:
    values = STANDARD_RULES.to_dict()
    for name, switch in SWITCHES.items():
        expected = list(switch.default) if isinstance(switch.default, tuple) else switch.default
        assert values[name] == expected, name


def test_switches_are_those_of_rules_md() -> None:
    # Plus first_player and uno_penalty, the Telegram preset's random first player and its
    # automatic missed-UNO penalty as switches.
    assert set(SWITCHES) == RULES_MD_SWITCHES | {"first_player", "uno_penalty", "cards"}
    extra = {"preset", "first_player", "uno_penalty", "cards"}
    assert set(STANDARD_RULES.to_dict()) == RULES_MD_SWITCHES | extra


# ---------------------------------------------------------------- to_json


def test_to_json_without_overrides_is_the_preset_name() -> None:
    assert STANDARD_RULES.to_json() == "standard"
    assert STANDARD_RULES.overrides() == {}
    assert str(STANDARD_RULES) == "standard"
    # An override equal to the preset's default is no override.
    assert RuleSet.from_json({"preset": "standard", "target": 500}).to_json() == "standard"
    assert RuleSet.from_json({"preset": "standard", "challenge": True}).to_json() == "standard"


def test_to_json_with_overrides() -> None:
    rules = RuleSet.from_json(
        {"preset": "standard", "stack_draw_two": True, "target": 200, "players": [3, 6]}
    )
    assert rules.to_json() == {
        "preset": "standard",
        "stack_draw_two": True,
        "target": 200,
        "players": [3, 6],
    }
    assert rules.overrides() == {"stack_draw_two": True, "target": 200, "players": [3, 6]}
    assert "stack_draw_two=True" in str(rules)


@pytest.mark.parametrize(
    "value",
    [
        "standard",
        {"preset": "standard"},
        {"preset": "standard", "stack_draw_two": True},
        {"preset": "standard", "challenge": False, "wd4_rule": "no_color_or_number"},
        {"preset": "standard", "players": [2, 8], "scoring": "penalty", "target": 300},
        {"preset": "standard", "uno_call": "auto", "play_drawn": "must"},
        {"preset": "standard", "uno_window": "own_turn", "false_uno_penalty": True},
        {"preset": "standard", "guilty_color": "reverts", "challenge_reveal": True},
        {"preset": "standard", "draw_until_playable": True, "voluntary_draw": False},
    ],
)
def test_json_round_trip(value: Any) -> None:
    rules = RuleSet.from_json(value)
    out = rules.to_json()
    assert RuleSet.from_json(out) == rules
    assert RuleSet.from_json(json.loads(json.dumps(out))) == rules
    assert out == value or (out == "standard" and value == {"preset": "standard"})


def test_with_switches_validates() -> None:
    rules = STANDARD_RULES.with_switches(stack_draw_two=True)
    assert rules.stack_draw_two is True
    assert STANDARD_RULES.stack_draw_two is False
    with pytest.raises(InvalidRules, match="target"):
        STANDARD_RULES.with_switches(target=0)


def _switch_values(switch: Switch) -> st.SearchStrategy[Any]:
    if switch.type is bool:
        values: st.SearchStrategy[Any] = st.booleans()
    elif switch.type is int:
        values = st.integers(min_value=1, max_value=10_000)
    elif switch.type is str:
        values = st.sampled_from(switch.choices)
    elif switch.type is dict:
        values = st.dictionaries(st.sampled_from(MUTANTS), st.integers(0, 3), max_size=4)
    else:
        values = st.tuples(st.integers(2, 10), st.integers(2, 10)).map(
            lambda pair: [min(pair), max(pair)]
        )
    return values


overrides = st.fixed_dictionaries(
    {}, optional={name: _switch_values(switch) for name, switch in SWITCHES.items()}
)


def _contradictory(values: dict[str, Any]) -> bool:
    merged = STANDARD_RULES.to_dict() | values
    return (
        (not merged["challenge"] and merged["guilty_color"] != "stands")
        or (not merged["challenge"] and merged["challenge_reveal"])
        or (merged["draw_until_playable"] and merged["play_drawn"] == "never")
    )


@settings(max_examples=150, deadline=None)
@given(overrides)
def test_random_rule_sets_round_trip(values: dict[str, Any]) -> None:
    if _contradictory(values):
        with pytest.raises(InvalidRules):
            RuleSet.from_json({"preset": "standard", **values})
        return
    rules = RuleSet.from_json({"preset": "standard", **values})
    for name, value in values.items():
        got = getattr(rules, name)
        if name == "cards":
            assert dict(got) == {code: count for code, count in value.items() if count}
        else:
            assert (list(got) if isinstance(got, tuple) else got) == value
    out = rules.to_json()
    assert RuleSet.from_json(json.loads(json.dumps(out))) == rules
    if "cards" in values:
        # Card counts override card by card; a 0 for a card the preset lacks is no change.
        values = values | {"cards": {k: v for k, v in values["cards"].items() if v}}
    expected = {k: v for k, v in values.items() if v != STANDARD_RULES.to_dict()[k]}
    assert rules.overrides() == expected
    assert out == ({"preset": "standard", **expected} if expected else "standard")


# ---------------------------------------------------------------- errors


def test_unknown_preset() -> None:
    with pytest.raises(InvalidRules, match="unknown preset 'nosuch'"):
        RuleSet.from_json("nosuch")
    with pytest.raises(InvalidRules, match="unknown preset 'nosuch'"):
        RuleSet.from_json({"preset": "nosuch", "target": 100})
    with pytest.raises(InvalidRules, match="unknown preset"):
        RuleSet.from_json({"preset": 3})


@pytest.mark.parametrize("value", [3, None, True, ["standard"], 2.5])
def test_rules_must_be_a_name_or_an_object(value: Any) -> None:
    with pytest.raises(InvalidRules, match="preset name or an object"):
        RuleSet.from_json(value)


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("stack_draw_too", "stack_draw_two"),
        ("chalenge", "challenge"),
        ("stack_draw_fuor", "stack_draw_four"),
        ("Target", "target"),
        ("wd4rule", "wd4_rule"),
    ],
)
def test_unknown_switch_near_miss_gets_a_hint(name: str, hint: str) -> None:
    with pytest.raises(InvalidRules) as info:
        RuleSet.from_json({"preset": "standard", name: True})
    assert f"unknown switch {name!r}" in str(info.value)
    assert f"did you mean {hint!r}?" in str(info.value)


def test_unknown_switch_far_miss_has_no_hint() -> None:
    with pytest.raises(InvalidRules) as info:
        RuleSet.from_json({"preset": "standard", "zzzz": True})
    assert "unknown switch 'zzzz'" in str(info.value)
    assert "did you mean" not in str(info.value)


@pytest.mark.parametrize(
    ("switch", "value"),
    [
        ("stack_draw_two", "yes"),
        ("stack_draw_two", "true"),
        ("challenge", 1),
        ("challenge", None),
        ("voluntary_draw", 0),
        ("target", True),
        ("target", False),
        ("target", "500"),
        ("target", 2.5),
        ("target", 0),
        ("target", -1),
        ("target", -500),
        ("players", [5, 3]),
        ("players", "x"),
        ("players", [2]),
        ("players", [2, 4, 6]),
        ("players", [2, "4"]),
        ("players", [True, 4]),
        ("players", 4),
        ("players", [1, 4]),
        ("players", [2, 16]),
        ("players", [2, 11]),
        ("play_drawn", "sometimes"),
        ("play_drawn", True),
        ("uno_call", "MANUAL"),
        ("scoring", "points"),
        ("wd4_rule", None),
    ],
)
def test_wrong_values_name_the_switch(switch: str, value: Any) -> None:
    with pytest.raises(InvalidRules) as info:
        RuleSet.from_json({"preset": "standard", switch: value})
    assert switch in str(info.value)


@pytest.mark.parametrize(
    ("values", "names"),
    [
        ({"challenge": False, "guilty_color": "reverts"}, ["guilty_color", "challenge"]),
        ({"challenge": False, "challenge_reveal": True}, ["challenge_reveal", "challenge"]),
        ({"draw_until_playable": True, "play_drawn": "never"}, ["draw_until_playable", "never"]),
    ],
)
def test_contradictions_are_refused(values: dict[str, Any], names: list[str]) -> None:
    with pytest.raises(InvalidRules) as info:
        RuleSet.from_json({"preset": "standard", **values})
    for name in names:
        assert name in str(info.value)
    # Each half alone is fine.
    for key, value in values.items():
        RuleSet.from_json({"preset": "standard", key: value})


def test_contradiction_via_with_switches() -> None:
    with pytest.raises(InvalidRules, match="guilty_color"):
        STANDARD_RULES.with_switches(challenge=False, guilty_color="reverts")


# ------------------------------------------------------------ the switch table


@pytest.mark.parametrize("name", list(SWITCHES))
def test_every_switch_is_documented_and_its_default_checks(name: str) -> None:
    switch = SWITCHES[name]
    assert switch.name == name
    assert switch.type in (bool, int, str, tuple, dict)
    assert isinstance(switch.description, str) and switch.description.strip()
    checked = switch.check(switch.default)
    assert (dict(checked) if switch.type is dict else checked) == switch.default
    if switch.type is str:
        assert switch.choices and switch.default in switch.choices
    if switch.type is not tuple:
        assert isinstance(switch.default, switch.type)
    value = getattr(STANDARD_RULES, name)
    assert (dict(value) if switch.type is dict else value) == switch.default


@pytest.mark.parametrize("name", [n for n, s in SWITCHES.items() if s.type is bool])
def test_boolean_switches_accept_both_values(name: str) -> None:
    switch = SWITCHES[name]
    for value in (True, False):
        assert switch.check(value) is value


def test_players_switch_turns_a_list_into_a_tuple() -> None:
    assert SWITCHES["players"].check([3, 7]) == (3, 7)
    assert RuleSet.from_json({"players": [3, 7]}).players == (3, 7)


def test_points_and_deck_come_from_the_preset() -> None:
    assert STANDARD_RULES.preset_data is PRESETS["standard"]
    assert STANDARD_RULES.hand_size == 7
    assert len(STANDARD_RULES.deck()) == 108
