"""``una sim``'s runner: every game counted, seats rotated, same seed same results."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from una.bots import make_bot
from una.engine import Record, RuleSet
from una.sim.report import summarize
from una.sim.runner import SimConfig, core_unsupported, derive_seed, play_game, run

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


@pytest.mark.parametrize("matches", [False, True])
def test_bots_play_for_what_a_game_is(monkeypatch: pytest.MonkeyPatch, matches: bool) -> None:
    # One hand a game: the bots are told the table counts who goes out; a match: they
    # play for the match their rule set's scoring decides.
    from una.sim import runner

    made: list[Any] = []

    def spy(spec: str, think_ms: float | None = None) -> Any:
        made.append(make_bot(spec, think_ms))
        return made[-1]

    monkeypatch.setattr(runner, "make_bot", spy)
    rules = RuleSet.from_json({"preset": "telegram", "target": 60})
    play_game(SimConfig(rules, 2, 1, ("heuristic",), seed=3, matches=matches), 0)
    assert len(made) == 2
    assert {bot.goal for bot in made} == {"match" if matches else "hand"}


def test_derived_seeds_are_stable() -> None:
    assert derive_seed(1, "game", 0) == derive_seed(1, "game", 0)
    assert derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    assert 0 <= derive_seed(2**70, "x") < 2**63


@pytest.mark.parametrize(
    "rules",
    [
        "standard",
        "telegram",
        "alupula",
        "byond",
        {"preset": "byond", "players": [2, 6], "finish": "to_the_last", "target": 150},
        {"preset": "telegram", "seven_zero": True, "uno_window": "own_turn"},
        {"preset": "telegram", "jump_in": True, "seven_zero": True, "finish": "to_the_last"},
        {"preset": "byond", "jump_in": True, "target": 200},
        {"preset": "telegram", "finish": "to_the_last", "uno_call": "auto", "target": 120},
        {"preset": "standard", "stack_draw_two": True, "stack_cross": True,
         "draw_until_playable": True, "scoring": "penalty", "target": 80},
    ],
)  # fmt: skip
def test_random_bots_in_the_core_play_the_python_drivers_games(core: Any, rules: Any) -> None:
    for players, matches in ((2, False), (5, False), (3, True)):
        config = SimConfig(
            RuleSet.from_json(rules), players, games=12, bots=("random",), seed=3,
            matches=matches,
        )  # fmt: skip
        assert core_unsupported(config) is None
        in_core = run(config)
        assert in_core == [play_game(config, index) for index in range(config.games)]


def test_what_the_core_does_not_play_runs_in_python(core: Any, tmp_path: Path) -> None:
    rules = RuleSet.from_json("standard")
    mixed = SimConfig(rules, 2, games=2, bots=("random", "heuristic"))
    assert core_unsupported(mixed) == "only random bots are played in the C core"
    recorded = SimConfig(rules, 2, games=2, bots=("random",), record_dir=tmp_path)
    assert core_unsupported(recorded) == "game records are written by the Python engine"
    big = RuleSet.from_json({"preset": "byond", "cards": {"SP": 8}})
    big_deck = SimConfig(big, 3, games=3, bots=("random",))
    assert core_unsupported(big_deck) == "the C core holds decks of up to 160 cards, not 176"
    assert len(run(big_deck)) == 3
