"""Rule sets from --rules and --set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from una.engine import InvalidRules
from una.sim.options import load_rules, parse_overrides


def test_presets_json_strings_and_files(tmp_path: Path) -> None:
    assert load_rules("standard").to_json() == "standard"
    assert load_rules('{"preset": "standard", "target": 50}').target == 50
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"preset": "standard", "stack_draw_two": True}))
    assert load_rules(str(path)).stack_draw_two
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"rules": {"preset": "standard", "target": 70}, "players": 2}))
    assert load_rules(str(record)).target == 70


def test_overrides() -> None:
    assert parse_overrides(["a=true", "b=3", "c=must", 'd="x"', '{"e": false}']) == {
        "a": True, "b": 3, "c": "must", "d": "x", "e": False,
    }  # fmt: skip
    rules = load_rules("standard", ["stack_draw_two=true", "play_drawn=must"])
    assert rules.stack_draw_two and rules.play_drawn == "must"


@pytest.mark.parametrize(
    ("rules", "overrides", "message"),
    [
        ("nope", [], "unknown preset"),
        ("standard", ["stack_draw_too=true"], "did you mean"),
        ("standard", ["target"], "expected SWITCH=VALUE"),
        ("{bad json", [], "not valid JSON"),
        ("missing.json", [], "missing.json"),
        ("standard", ["{1}"], "not valid JSON"),
    ],
)
def test_errors(rules: str, overrides: list[str], message: str) -> None:
    with pytest.raises(InvalidRules, match=message):
        load_rules(rules, overrides)
