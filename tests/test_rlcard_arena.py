"""The RLCard arena (benchmarks/rlcard_arena.py): the adapter's mappings, its views, and
short runs against both RLCard agents. RLCard is an optional extra (``.[bench]``)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("rlcard")

from rlcard.games.uno.utils import ACTION_LIST  # type: ignore[import-untyped]

from una.bots import make_bot
from una.bots.base import Bot
from una.engine.actions import DRAW, Action, Kind
from una.engine.rules import RuleSet
from una.engine.views import View

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import rlcard_arena as arena  # noqa: E402


def test_every_rlcard_action_and_card_round_trips() -> None:
    assert len(ACTION_LIST) == 61
    plays = set()
    for text in ACTION_LIST:
        action = arena.action_from_rlcard(text)
        assert arena.action_to_rlcard(action) == text
        plays.add(action)
        if text == "draw":
            assert action == DRAW
            continue
        card, color = arena.card_from_rlcard(text)
        assert action.card == card and color.value.lower() == text[0]
        assert (action.color is not None) == card.is_wild
        assert arena.card_to_rlcard(card, color) == text
        assert Action.parse(action.code) == action  # a well-formed Una action
    assert len(plays) == 61
    # Every card of the deck is reachable, wilds in any of their four leftover colors.
    deck = {card.code for card in RuleSet.from_json("standard").deck()}
    assert {arena.card_from_rlcard(t)[0].code for t in ACTION_LIST if t != "draw"} == deck


def test_bad_mappings_raise() -> None:
    for text in ("x-5", "r-11", "wild"):
        with pytest.raises(arena.AdapterError):
            arena.card_from_rlcard(text)
    for code in ("play W", "play R5 G", "pass", "play R5 uno"):
        with pytest.raises(arena.AdapterError):
            arena.action_to_rlcard(Action.parse(code))


def test_rules_model_rlcard() -> None:
    rules = arena.RLCARD_RULES
    assert not rules.challenge and not rules.voluntary_draw
    assert (rules.play_drawn, rules.uno_call, rules.scoring) == ("must", "auto", "none")
    assert RuleSet.from_json(rules.to_json()) == rules


class Checker(Bot):
    """Chooses the legal actions in turn (every one gets chosen, wild colors included) and
    checks every view and observation it is shown."""

    name = "checker"
    observes = True

    def __init__(self) -> None:
        self.turn = 0
        self.prev: View | None = None
        self.observed = 0
        self.draws = 0

    def _check(self, view: View) -> None:
        assert view.seat is not None and view.hand is not None
        assert len(view.hand) == view.hand_counts[view.seat]
        assert view.rules == arena.RULES_JSON and view.pending_draw == 0
        total = sum(view.hand_counts) + view.draw_pile + view.discard_pile
        assert total in (108, 109), view  # 109: RLCard reshuffled its top card too
        assert view.color is not None and (view.top.is_wild or view.top.color is view.color)

    def choose(self, view: View, rng: random.Random) -> Action | None:
        self._check(view)
        assert view.phase == "play" and view.to_act == view.seat and view.legal
        kinds = {a.kind for a in view.legal}
        assert kinds in ({Kind.PLAY}, {Kind.DRAW})
        self.prev = view
        self.turn += 1
        return view.legal[self.turn % len(view.legal)]

    def observe(self, view: View, seat: int, action: Action) -> None:
        self._check(view)
        self.observed += 1
        prev, self.prev = self.prev, view
        if prev is None:
            return
        if action.kind is Kind.DRAW:
            self.draws += 1
            assert view.hand_counts[seat] == prev.hand_counts[seat] + 1
            if view.phase == "drawn":
                assert view.to_act == seat
                assert (view.drawn is not None) == (seat == view.seat)
        else:
            assert action.kind is Kind.PLAY and action.card == view.top
            assert view.hand_counts[seat] == prev.hand_counts[seat] - 1
            assert view.color is (action.color if action.card.is_wild else action.card.color)
        if view.phase == "match_over":
            assert view.match_winner == seat and view.hand_counts[seat] == 0
            assert view.to_act is None and not view.legal


def test_every_legal_action_maps_to_a_legal_rlcard_action() -> None:
    checkers: list[Checker] = []

    def make(spec: str) -> Bot:
        checkers.append(Checker())
        return checkers[-1]

    for opponent in arena.OPPONENTS:
        for index in range(15):
            result = arena.play_game("checker", opponent, 5, index, make=make)
            assert result.winner in (0, 1) and result.seat == index % 2
    assert sum(c.turn for c in checkers) > 300
    assert all(c.observed >= c.turn for c in checkers)
    assert sum(c.draws for c in checkers) > 0


def test_short_runs_are_counted_and_deterministic() -> None:
    for opponent in arena.OPPONENTS:
        results = arena.run("heuristic", opponent, 20, seed=3)
        assert [r.index for r in results] == list(range(20))
        assert [r.seat for r in results] == [i % 2 for i in range(20)]
        report = arena.summarize(results, 1.0, "heuristic", opponent, 3, 1)
        assert report["games"] == 20 and report["unfinished"] == 0
        assert report["wins"] + report["losses"] == 20
        low, high = report["wilson95"]
        assert low <= report["win_rate"] <= high
        assert sum(part["games"] for part in report["by_seat"].values()) == 20
        again = arena.run("heuristic", opponent, 20, seed=3)
        assert again == results
        assert arena.outcome_digest(arena.run("heuristic", opponent, 20, seed=4)) != (
            arena.outcome_digest(results)
        )


def test_rlcard_baseline_and_unknown_names() -> None:
    results = arena.run("rlcard:rule", "random", 6, seed=1)
    assert len(results) == 6 and all(r.decisions == 0 for r in results)
    with pytest.raises(ValueError):
        arena.run("heuristic", "nobody", 2)
    with pytest.raises(ValueError):
        arena.run("nobody", "random", 2)


def test_strong_simulates_with_a_model() -> None:
    # Told to simulate RLCard's game with the standard rules, the strong bot searches with
    # the compiled core; its actions stay RLCard-legal (the adapter checks every one).
    results = arena.run("strong:64", "rule", 4, seed=2, model="standard")
    assert len(results) == 4 and all(r.winner is not None for r in results)
    assert sum(r.decisions for r in results) > 0
    with pytest.raises(ValueError, match="does not simulate"):
        arena.run("heuristic", "rule", 2, model="standard")
    with pytest.raises(ValueError, match="unknown preset"):
        arena.run("strong", "rule", 2, model="nope")


def test_view_of_a_position() -> None:
    public = arena.Public(
        counts=(2, 5),
        target="g-wild",
        direction=-1,
        deck=60,
        played=41,
        hand=("r-5", "b-wild_draw_4"),
    )
    view = arena.build_view(
        public, 0, ("a", "b"), to_act=0, legal=arena.legal_from_rlcard(["r-5", "r-5"])
    )
    assert [c.code for c in view.hand or ()] == ["R5", "W4"]
    assert view.top.code == "W" and view.color.value == "G" and view.direction == -1
    assert view.legal == (Action.parse("play R5"),)
    assert view.hand_counts == (2, 5) and view.draw_pile == 60 and view.discard_pile == 41
    # The bots accept it.
    for spec in ("random", "heuristic"):
        assert make_bot(spec).choose(view, random.Random(1)) == Action.parse("play R5")
    over = arena.build_view(public, 1, ("a", "b"), winner=0)
    assert over.match_over and over.hand_winner == 0 and over.hand_ranking == (0, 1)


def test_cli_with_two_jobs_matches_one_process() -> None:
    script = str(ROOT / "benchmarks" / "rlcard_arena.py")
    command = [
        sys.executable,
        script,
        "--bot",
        "random",
        "--opponent",
        "rule",
        "--games",
        "10",
        "--seed",
        "2",
        "--jobs",
        "2",
        "--json",
    ]
    out = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    report = json.loads(out.stdout)
    results = arena.run("random", "rule", 10, seed=2)
    assert report["games"] == 10 and report["jobs"] == 2 and report["games_per_second"] > 0
    assert report["digest"] == arena.outcome_digest(results)
    assert report["wins"] == sum(r.won for r in results)
