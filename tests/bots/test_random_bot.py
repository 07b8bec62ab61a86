"""The random bot: RLCard's random agent's policy, decision by decision."""

from __future__ import annotations

import random
from collections import Counter

from botviews import codes, view

from una.bots import RandomBot
from una.bots.random_bot import pick
from una.engine import Action, Game

PLAYS = ["play R1", "play R2", "play W R", "play W Y", "play W G", "play W B"]


def choices(v, tries: int = 600) -> Counter[str]:  # type: ignore[no-untyped-def]
    bot = RandomBot()
    out: Counter[str] = Counter()
    for seed in range(tries):
        action = bot.choose(v, random.Random(seed))
        out["none" if action is None else action.code] += 1
    return out


def test_uniform_among_plays_never_draws_when_it_can_play() -> None:
    seen = choices(view(hand="R1 R2 G5 W", top="R9", legal=[*PLAYS, "draw"]))
    assert set(seen) == set(PLAYS)  # one choice per card and color; never the draw
    assert min(seen.values()) > 600 / len(PLAYS) * 0.6


def test_draws_only_without_a_play_and_plays_the_drawn_card() -> None:
    assert set(choices(view(legal=["draw"]), 20)) == {"draw"}
    assert set(choices(view(legal=["pass"]), 20)) == {"pass"}
    drawn = view(phase="drawn", drawn="R5", legal=["play R5", "pass"])
    assert set(choices(drawn, 20)) == {"play R5"}


def test_always_calls_uno_with_its_play() -> None:
    v = view(hand="R1 R2", legal=["play R1", "play R1 uno", "play R2", "play R2 uno", "draw"])
    assert set(choices(v, 100)) == {"play R1 uno", "play R2 uno"}
    assert set(choices(view(legal=["uno", "draw"]), 10)) == {"uno"}


def test_never_challenges_never_catches() -> None:
    penalty = view(phase="penalty", pending_draw=4, legal=["draw", "challenge", "catch @1"])
    assert set(choices(penalty, 50)) == {"draw"}
    waiting = view(to_act=1, legal=["catch @1"])
    assert set(choices(waiting, 50)) == {"none"}


def test_stacks_like_any_play_and_names_colors_at_random() -> None:
    penalty = view(phase="penalty", pending_draw=2, legal=["draw", "play RD2"])
    assert set(choices(penalty, 20)) == {"play RD2"}
    color = view(phase="color", legal=["color R", "color Y", "color G", "color B"])
    assert set(choices(color, 100)) == {"color R", "color Y", "color G", "color B"}


def test_jumps_in_or_not_at_random() -> None:
    seen = choices(view(to_act=1, legal=["play R5"]), 200)
    assert set(seen) == {"play R5", "none"}


def test_pick_on_the_engine_legal_list() -> None:
    game = Game("standard", players=2, seed=3)
    rng = random.Random(1)
    while not game.hand_over:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        action = pick(legal, rng)
        assert action in legal
        if any(a.kind.value == "play" for a in legal):
            assert action.kind.value == "play"
        game.apply(seat, action)
    assert codes([Action.parse("draw")]) == ["draw"]
