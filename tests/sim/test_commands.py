"""``una sim`` and ``una bench`` as commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

UNA = Path(sys.executable).parent / "una"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(UNA), *args], capture_output=True, text=True, timeout=120, check=False
    )


def sim_json(*args: str) -> dict[str, Any]:
    result = run("sim", "--json", *args)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def without_time(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_second")}


def test_sim_json_counts_every_game_and_is_deterministic() -> None:
    args = ("--games", "30", "--players", "3", "--bots", "heuristic,random", "--seed", "4")
    data = sim_json(*args)
    assert {"games", "seconds", "games_per_second", "moves_per_game", "bots"} <= set(data)
    assert data["games"] == 30 and data["hands"] == 30
    assert sum(bot["wins"] for bot in data["bots"]) == 30
    for bot in data["bots"]:
        assert {"name", "wins", "win_rate", "ci95"} <= set(bot)
        low, high = bot["ci95"]
        assert low <= bot["win_rate"] <= high
    assert without_time(sim_json(*args)) == without_time(data)
    assert without_time(sim_json(*args, "--jobs", "2")) == without_time(data)


def test_sim_any_preset_and_overrides_matches_and_records(tmp_path: Path) -> None:
    data = sim_json(
        "--games", "3", "--bots", "random", "--matches", "--set", "target=60",
        "--set", "stack_draw_two=true", "--record", str(tmp_path),
    )  # fmt: skip
    assert data["unit"] == "match" and data["games"] == 3
    assert data["rules"] == {"preset": "standard", "stack_draw_two": True, "target": 60}
    assert len(list(tmp_path.glob("game-*.json"))) == 3
    replay = run("replay", str(tmp_path / "game-00001.json"), "--json")
    assert replay.returncode == 0 and json.loads(replay.stdout)["match_over"]


def test_sim_table() -> None:
    result = run("sim", "--games", "10", "--bots", "heuristic:3,random")
    assert result.returncode == 0, result.stderr
    assert "win rate" in result.stdout and "heuristic:3" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "nobody"], "unknown bot"),
        (["--rules", "nope"], "unknown preset"),
        (["--players", "11"], "--players"),
        (["--games", "0"], "--games"),
        (["--set", "target=-5"], "positive"),
        (["--bots", "random,random,heuristic"], "3 bots for 2 seats"),
    ],
)
def test_sim_errors(args: list[str], message: str) -> None:
    result = run("sim", *args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
