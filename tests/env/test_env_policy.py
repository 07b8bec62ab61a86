"""una.env.policy: the policy bot sees what the environment showed the agent, and una sim
seats it; and examples/train_policy.py runs end to end (with a tiny budget)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from una.bots import make_bot
from una.bots.registry import BOTS, register
from una.engine import Game
from una.engine.views import View
from una.env.policy import MaskedPolicy, PolicyBot
from una.sim.driver import Table
from una.sim.runner import SimConfig, run

ROOT = Path(__file__).resolve().parents[2]


class CheckedBot(PolicyBot):
    """A policy bot that checks, at every decision, that the observation it rebuilt from
    its views is the environment's observation of the game: all of it but the card turned
    up to start the pile when another seat covered it before this bot was first shown the
    table (the driver shows bots the table after actions, not at the deal)."""

    def __init__(self, policy: MaskedPolicy, game: Game) -> None:
        super().__init__(policy, greedy=False)
        self.game = game
        self.checked = 0

    def choose(self, view: View, rng: random.Random):  # type: ignore[no-untyped-def]
        action = super().choose(view, rng)
        discard = self.game.discard
        assert set(self._pile) <= set(range(len(discard)))
        assert all(discard[pos] is card for pos, card in self._pile.items())
        missing = set(range(len(discard))) - set(self._pile)
        assert missing <= {0}, missing
        assert view.seat is not None
        encoder = self.policy.encoder
        expected = encoder.encode(self.game, view.seat)
        pile = [self._pile[pos] for pos in sorted(self._pile)]
        mine = encoder.encode_view(view, pile)
        if missing:
            expected[encoder.field("discard").start + encoder.cards.index(discard[0])] -= 1
        assert np.array_equal(mine, expected)
        self.checked += 1
        return action


@pytest.mark.parametrize(
    ("rules", "players"), [("standard", 2), ("telegram", 3), ("byond", 4), ("alupula", 2)]
)
def test_the_bot_rebuilds_the_environments_observation(rules: str, players: int) -> None:
    policy = MaskedPolicy.new(rules, players, hidden=8, seed=1)
    for seed in range(2):
        game = Game(rules, players, seed=seed)
        bots = [CheckedBot(policy, game) for _ in range(players - 1)] + [make_bot("heuristic")]
        Table(game, bots, [random.Random(s) for s in range(players)]).play_hand()
        assert all(bot.checked for bot in bots[:-1])


def test_una_sim_seats_a_trained_policy(tmp_path: Path) -> None:
    policy = MaskedPolicy.new("standard", 2, hidden=8, seed=2)
    path = tmp_path / "policy.npz"
    policy.save(path)
    loaded = MaskedPolicy.load(path)
    assert all(np.array_equal(loaded.params[k], policy.params[k]) for k in policy.params)
    register("test-policy", lambda level: PolicyBot(loaded))
    try:
        config = SimConfig(loaded.rules, 2, games=6, bots=("test-policy", "random"), seed=3)
        results = run(config)
    finally:
        del BOTS["test-policy"]  # the registry is global: other tests list its bots
    assert len(results) == 6 and {r.bots for r in results} == {
        ("test-policy", "random"),
        ("random", "test-policy"),
    }


def test_bad_policies_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a policy")
    with pytest.raises(ValueError, match="not a saved policy"):
        MaskedPolicy.load(bad)
    policy = MaskedPolicy.new("standard", 2, hidden=4)
    with pytest.raises(ValueError, match=r"parameter W1 has shape \(357, 4\), not \(421, 4\)"):
        MaskedPolicy("standard", 3, policy.params)
    game = Game("standard", 3, seed=1)
    with pytest.raises(ValueError, match="this policy plays 2 seats, not 3"):
        PolicyBot(policy).choose(game.view_for(game.to_act), random.Random(0))


def test_the_training_example_runs(tmp_path: Path) -> None:
    out, report = tmp_path / "p.npz", tmp_path / "r.json"
    command = [
        sys.executable, str(ROOT / "examples" / "train_policy.py"), "--minutes", "0.01",
        "--batch", "2", "--hidden", "8", "--eval-games", "4", "--out", str(out),
        "--json", str(report),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "trained" in done.stdout and "95% CI" in done.stdout
    data = json.loads(report.read_text())
    assert data["training"]["episodes"] >= 2
    for opponent in ("random", "heuristic"):
        names = [bot["name"] for bot in data[f"against_{opponent}"]]
        assert names == ["trained", opponent]
    assert MaskedPolicy.load(out).players == 2
    bad = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_policy.py"), "--rules", "nope"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert bad.returncode == 2 and "unknown preset 'nope'" in bad.stdout
