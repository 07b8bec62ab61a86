"""The attack list (benchmarks/abuse.py) runs, with tiny counts, against its own server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from abuse import ATTACKS  # noqa: E402


def test_the_attack_list_runs_and_holds() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "abuse.py"), "--quick", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    rows = {row["attack"]: row for row in json.loads(out.stdout)}
    assert list(rows) == list(ATTACKS)
    for name, row in rows.items():
        assert "the attack failed" not in row["measured"], row
        # A one-second icon flood's latency is timed by tests/server/test_hardening.py.
        if name != "icon-flood":
            assert row["held"], row
    assert rows["icon-flood"]["p50_ms"] > 0


def test_only_known_attacks_and_loopback_targets() -> None:
    script = str(ROOT / "benchmarks" / "abuse.py")
    for args, said in ((["--only", "nosuch"], "unknown attack"),
                       (["--url", "http://example.org:80"], "loopback only")):  # fmt: skip
        out = subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                             timeout=60, check=False)  # fmt: skip
        assert out.returncode == 2 and said in out.stderr, out.stderr
