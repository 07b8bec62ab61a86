"""Command-line helpers shared by ``una sim``, ``una play`` and ``una bench``: rule sets
from a preset, a JSON file or a JSON string, plus ``KEY=VALUE`` switch overrides.

>>> load_rules("standard", ["stack_draw_two=true", "target=200"]).to_json()
{'preset': 'standard', 'stack_draw_two': True, 'target': 200}
>>> load_rules('{"preset": "standard", "play_drawn": "must"}', []).play_drawn
'must'
>>> load_rules("standard", ["play_drawn=never"]).play_drawn
'never'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from una.engine.errors import InvalidRules
from una.engine.presets import PRESETS
from una.engine.rules import RuleSet


def _rules_object(text: str) -> dict[str, Any]:
    """The rules given as a preset name, a JSON object, or a JSON file (a rules object, a
    preset name, or a whole game record whose ``rules`` are taken)."""
    stripped = text.strip()
    source = "--rules"
    if stripped in PRESETS:
        return {"preset": stripped}
    if stripped.startswith("{"):
        raw = stripped
    elif stripped.endswith(".json") or Path(stripped).is_file():
        path = Path(stripped)
        source = str(path)
        try:
            raw = path.read_text(encoding="utf-8")
        except OSError as error:
            raise InvalidRules(f"{path}: {error.strerror or error}") from None
    else:
        return {"preset": stripped}
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise InvalidRules(f"{source}: not valid JSON: {error}") from None
    if isinstance(data, dict) and "rules" in data and "preset" not in data:
        data = data["rules"]  # a game record: its rules
    if isinstance(data, str):
        return {"preset": data}
    if not isinstance(data, dict):
        raise InvalidRules(f"{source}: rules must be a preset name or an object")
    return dict(data)


def parse_overrides(items: Sequence[str]) -> dict[str, Any]:
    """``["stack_draw_two=true", "target=200"]`` -> switches; each item may also be a JSON
    object of switches. Values are read as JSON where they parse, else as text."""
    out: dict[str, Any] = {}
    for item in items:
        text = item.strip()
        if text.startswith("{"):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as error:
                raise InvalidRules(f"--set {text}: not valid JSON: {error}") from None
            if not isinstance(data, dict):
                raise InvalidRules(f"--set {text}: expected a JSON object of switches")
            out.update(data)
            continue
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise InvalidRules(f"--set {text!r}: expected SWITCH=VALUE, e.g. stack_draw_two=true")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value.strip()
    return out


def load_rules(rules: str, overrides: Sequence[str] = ()) -> RuleSet:
    """A validated rule set from ``--rules`` and ``--set`` options."""
    data = _rules_object(rules)
    data.update(parse_overrides(overrides))
    if "players" in data and isinstance(data["players"], list):
        data["players"] = list(data["players"])
    return RuleSet.from_json(data)
