"""The load benchmark runs: a couple of seconds, 2 tables of 2 clients (nothing is timed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_load_benchmark_smoke() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--tables", "2",
               "--clients", "2", "--seconds", "2", "--warmup", "0.5", "--think", "0-0.05",
               "--json"]  # fmt: skip
    out = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    result = json.loads(out.stdout)
    assert result["clients_connected"] == 4 and result["tables"] == 2
    assert result["actions"] > 0 and result["actions_per_second"] > 0
    latency = result["latency_ms"]
    assert latency["n"] > 0 and isinstance(latency["p99"], float)
    assert latency["p50"] <= latency["p99"] <= latency["max"]
    assert result["server"]["rss_end_mib"] > 0 and result["server"]["cpu_window_seconds"] >= 0
    assert not result["target"]["checked"]


def test_load_benchmark_two_nodes_smoke() -> None:
    """--nodes 2: two una serve --redis nodes on PostgreSQL (which, like Redis, the project's
    machines and CI run), each table's clients split across them."""
    command = [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--nodes", "2",
               "--tables", "2", "--clients", "2", "--seconds", "2", "--warmup", "0.5",
               "--think", "0-0.05", "--json"]  # fmt: skip
    out = subprocess.run(command, capture_output=True, text=True, timeout=90, check=True)
    result = json.loads(out.stdout)
    assert result["clients_connected"] == 4 and result["actions"] > 0
    assert result["config"]["nodes"] == 2 and len(result["server"]["nodes"]) == 2
    assert all(node["rss_end_mib"] > 0 for node in result["server"]["nodes"])
    assert result["lost_actions"] == 0 and result["server"]["log_errors"] == 0


def test_broadcast_benchmark_smoke() -> None:
    """benchmarks/broadcast.py: the server's CPU per action, in one process (not timed)."""
    command = [sys.executable, str(ROOT / "benchmarks" / "broadcast.py"), "--tables", "3",
               "--rounds", "4", "--warmup", "1"]  # fmt: skip
    out = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    result = json.loads(out.stdout)
    assert result["tables"] == 3 and result["actions"] == 3 * 4
    assert result["frames"] >= 4 * result["actions"]  # every client hears every action
    assert result["server_ms_per_action"] > 0
