"""benchmarks/env_vs_rlcard.py runs (a smoke test with tiny counts; nothing is timed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from una.engine import fast

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from env_vs_rlcard import (  # noqa: E402
    action_shares,
    harness_playout,
    rlcard_env_playout,
    una_env_playout,
)


def test_both_sides_count_games_and_steps() -> None:
    una = una_env_playout("standard stack_draw_two=true", 2, 2, seed=1)
    assert una.games == 2 and una.moves >= 2 and una.players == 2
    again = una_env_playout("standard stack_draw_two=true", 2, 2, seed=1)
    assert again.moves == una.moves  # seeded
    python = una_env_playout("standard stack_draw_two=true", 2, 2, seed=1, core=False)
    assert python.engine == "python" and python.moves == una.moves  # the same episodes
    harness = harness_playout("standard", 2, games=3, steps=7)
    assert harness.games == 3 and harness.moves == 21
    shares = action_shares("standard", 2, games=2, seed=1)
    assert abs(sum(shares.values()) - 1) < 1e-3 and shares["play"] > 0
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
        assert run["una"]["games"] == run["rlcard"]["games"] == run["harness"]["games"] == 2
        assert run["una"]["engine"] == ("c" if fast.available() else "python")
        assert run["harness"]["engine"] == "none"
        # the harness is stepped as long as Una's side was, on average
        assert abs(run["harness"]["moves_per_game"] - run["una"]["moves_per_game"]) <= 0.5
        assert run["ratio_games_per_second"] > 0 and run["harness_ratio_games_per_second"] > 0
    bad = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "env_vs_rlcard.py"), "--games", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 2 and "--games and --rounds must be 1 or more" in bad.stderr
