"""The attack list (benchmarks/abuse.py) runs, with tiny counts, against its own servers:
the attacks of issues 19 and 20 and the fault items (abuse_faults.py: crashes and restarts,
a frozen reader, the lobby's cost, tables left to bots, the smaller holes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from abuse import ATTACKS  # noqa: E402
from abuse_faults import FAULTS  # noqa: E402

#: Timed attacks whose figure a smoke run on a shared machine cannot judge (the faults run
#: side by side in it): their bounds are tests/server/test_hardening.py's (the icon flood)
#: and tests/server/test_faults.py's (a frozen reader beside a playing table).
TIMED = {"icon-flood", "frozen-reader"}


def test_the_attack_list_runs_and_holds() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "abuse.py"), "--quick", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    rows = {row["attack"]: row for row in json.loads(out.stdout)}
    assert list(rows) == list(ATTACKS)
    assert set(FAULTS) <= set(rows) and "crash-at-match-start" in FAULTS
    for name, row in rows.items():
        assert "the attack failed" not in row["measured"], row
        if name not in TIMED:
            assert row["held"], row
    assert rows["icon-flood"]["p50_ms"] > 0
    assert rows["frozen-reader"]["actions_per_s_beside"] > 0
    assert rows["unfinished-after-crash"]["record_status_after_restart"] == 200


def test_only_known_attacks_and_loopback_targets() -> None:
    script = str(ROOT / "benchmarks" / "abuse.py")
    for args, said in ((["--only", "nosuch"], "unknown attack"),
                       (["--url", "http://example.org:80"], "loopback only"),
                       (["--db", "mysql://x@y/z"], "postgresql://")):  # fmt: skip
        out = subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                             timeout=60, check=False)  # fmt: skip
        assert out.returncode == 2 and said in out.stderr, out.stderr
