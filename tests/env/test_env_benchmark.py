"""benchmarks/env_vs_rlcard.py runs (a smoke test with tiny counts; nothing is timed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from env_vs_rlcard import rlcard_env_playout, una_env_playout  # noqa: E402


def test_both_sides_count_games_and_steps() -> None:
    una = una_env_playout("standard stack_draw_two=true", 2, 2, seed=1)
    assert una.games == 2 and una.moves >= 2 and una.players == 2
    again = una_env_playout("standard stack_draw_two=true", 2, 2, seed=1)
    assert again.moves == una.moves  # seeded
    rl = rlcard_env_playout(3, 2, seed=1)
    assert rl.games == 2 and rl.moves >= 2 and rl.players == 3


def test_the_json_report() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "env_vs_rlcard.py"), "--games", "2",
         "--rounds", "1", "--rules", "standard,byond", "--json"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    data = json.loads(done.stdout)
    assert data["rlcard"] == "1.2.0"
    assert [run["rules"] for run in data["runs"]] == ["standard", "byond"]
    for run in data["runs"]:
        assert run["una"]["games"] == run["rlcard"]["games"] == 2
        assert run["ratio_games_per_second"] > 0
    bad = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "env_vs_rlcard.py"), "--games", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 2 and "--games and --rounds must be 1 or more" in bad.stderr
