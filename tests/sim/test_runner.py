"""``una sim``'s runner: every game counted, seats rotated, same seed same results."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from una.engine import Record, RuleSet
from una.sim.report import summarize
from una.sim.runner import SimConfig, derive_seed, run

STANDARD = RuleSet.from_json("standard")


def test_every_game_is_counted_and_seats_rotate() -> None:
    config = SimConfig(STANDARD, players=3, games=18, bots=("heuristic", "random"), seed=5)
    results = run(config)
    assert [r.index for r in results] == list(range(18))
    assert config.seats == ("heuristic", "random", "heuristic")
    # Each bot spec holds each seat in proportion, and each seat deals first as often.
    per_seat = Counter((seat, r.bots[seat]) for r in results for seat in range(3))
    assert per_seat[(0, "random")] == per_seat[(1, "random")] == per_seat[(2, "random")] == 6
    dealers = Counter(config.seating(i)[1] for i in range(18))
    assert dealers == {0: 6, 1: 6, 2: 6}
    summary = summarize(config, results, 1.0)
    assert summary["games"] == 18 and summary["hands"] == 18
    assert sum(bot["wins"] for bot in summary["bots"]) == 18
    assert {bot["name"]: bot["seats"] for bot in summary["bots"]} == {"heuristic": 2, "random": 1}


def test_same_seed_same_results_in_any_number_of_processes() -> None:
    config = SimConfig(STANDARD, players=2, games=12, bots=("heuristic", "random"), seed=9)
    once = run(config)
    assert run(config) == once
    assert run(config, jobs=2) == once
    other = SimConfig(STANDARD, players=2, games=12, bots=("heuristic", "random"), seed=10)
    assert run(other) != once


def test_matches_and_records(tmp_path: Path) -> None:
    rules = RuleSet.from_json({"preset": "standard", "target": 100})
    config = SimConfig(rules, 2, 3, ("random",), seed=2, matches=True, record_dir=tmp_path)
    results = run(config)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["game-00001.json", "game-00002.json", "game-00003.json"]
    for result, name in zip(results, files, strict=True):
        game = Record.loads((tmp_path / name).read_text()).replay()
        assert game.match_over and game.winner == result.winner
        assert tuple(game.scores) == result.points and game.hand_number == result.hands
        assert max(game.scores) >= 100


def test_derived_seeds_are_stable() -> None:
    assert derive_seed(1, "game", 0) == derive_seed(1, "game", 0)
    assert derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    assert 0 <= derive_seed(2**70, "x") < 2**63
