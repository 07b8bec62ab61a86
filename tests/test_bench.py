"""The speed benchmarks run (smoke tests with tiny counts; nothing here is timed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from una.engine import fast
from una.sim.bench import core_playout, playout

ROOT = Path(__file__).resolve().parent.parent
UNA = Path(sys.executable).parent / "una"


def test_playout_counts() -> None:
    result = playout(4, 5, seed=2)
    assert result.games == 5 and result.moves >= 5 and result.players == 4
    assert result.moves_per_game == result.moves / 5
    assert set(result.to_json()) >= {"games_per_second", "moves_per_second", "moves_per_game"}
    assert result.engine == "python"


def test_core_playout_counts() -> None:
    result = core_playout(3, 4, seed=2)
    if not fast.available():
        assert result is None
        return
    assert result is not None and result.engine == "c" and result.to_json()["engine"] == "c"
    assert result.games == 4 and result.moves == fast.random_playouts(3, 4, seed=2).moves
    telegram = core_playout(3, 4, seed=2, rules="telegram")
    assert telegram is not None and telegram.rules == "telegram"
    assert telegram.moves == fast.random_playouts_py(3, 4, 2, "telegram").moves
    assert core_playout(3, 4, seed=2, rules={"preset": "byond", "cards": {"SP": 8}}) is None


def test_una_bench_json() -> None:
    out = subprocess.run(
        [str(UNA), "bench", "--games", "3", "--json"], capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    data = json.loads(out.stdout)
    presets = ["alupula", "byond", "standard", "telegram"]
    assert data["presets"] == presets
    runs = data["runs"]
    assert [(r["rules"], r["players"]) for r in runs] == [(p, n) for p in presets for n in (2, 4)]
    assert all(r["engine"] == "python" and r["games"] == 3 for r in runs)
    cores = data["core_runs"]
    played = [p for p in presets if fast.supports(p)]
    assert [(r["rules"], r["players"]) for r in cores] == [(p, n) for p in played for n in (2, 4)]
    assert all(r["engine"] == "c" and r["games"] == 3 for r in cores)
    assert set(data["not_in_core"]) == set(presets) - set(played)
    if fast.available():
        assert played == presets


def test_una_bench_table_and_soak() -> None:
    out = subprocess.run(
        [str(UNA), "bench", "--games", "2", "--players", "3"], capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    assert "games/s" in out.stdout and "Python" in out.stdout
    assert ("C core" in out.stdout) == fast.available()
    soak = subprocess.run(
        [str(UNA), "bench", "--soak", "20", "--json"], capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert soak.returncode == 0, soak.stdout + soak.stderr
    data = json.loads(soak.stdout)
    assert data["hands"] >= 20 and data["failures"] == []


def test_engine_vs_rlcard_runs() -> None:
    pytest.importorskip("rlcard")
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "engine_vs_rlcard.py"),
         "--games", "3", "--rounds", "1", "--json"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    runs = json.loads(out.stdout)["runs"]
    assert [r["players"] for r in runs] == [2, 4]
    assert all(r["ratio_games_per_second"] > 0 for r in runs)
    if fast.available():
        assert all(r["ratio_core_games_per_second"] > 0 for r in runs)


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
def test_core_rollouts_benchmark_plays_the_searchs_rollouts() -> None:
    from una.bots.strong import ROLLOUT_LIMIT
    from una.engine.game import Game

    script = ROOT / "benchmarks" / "core_rollouts.py"
    command = [sys.executable, str(script), "--rules", "telegram", "--players", "2,3"]
    command += ["--deals", "2", "--repeats", "3", "--trials", "1", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["players"], r["policy"], r["rollouts"]) for r in rows] == [
        (2, "greedy", 6),
        (3, "challenging", 6),
    ]
    for row in rows:
        policy = str(row["policy"])
        games = [Game("telegram", players=int(row["players"]), seed=seed) for seed in range(2)]
        moves = sum(
            fast.playouts_counted_py(game, index, policy, 3, ROLLOUT_LIMIT, True)[1]
            for index, game in enumerate(games)
        )
        assert row["moves"] == moves and float(row["ns_per_move"]) > 0
    bad = subprocess.run(
        [sys.executable, str(script), "--rules", "uno"], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2 and "--rules: one of alupula" in bad.stderr
