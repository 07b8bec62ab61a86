"""The heuristic bot's judgment, decision by decision, on views built to order."""

from __future__ import annotations

import random

import pytest
from botviews import view

from una.bots import HeuristicBot
from una.bots.heuristic import CHALLENGE_THRESHOLD, no_color_odds
from una.engine import Card, Color

WILDS = ["play W R", "play W Y", "play W G", "play W B"]


def choose(v, bot: HeuristicBot | None = None, seed: int = 0) -> str | None:  # type: ignore[no-untyped-def]
    action = (bot or HeuristicBot()).choose(v, random.Random(seed))
    return None if action is None else action.code


def test_keeps_wilds_for_later() -> None:
    v = view(hand="R1 G5 G6 W", top="R9", color=Color.RED, legal=["play R1", *WILDS, "draw"])
    assert choose(v) == "play R1"


def test_names_its_strongest_color() -> None:
    v = view(hand="G1 G2 G3 R4 W", top="Y9", color=Color.YELLOW, legal=[*WILDS, "draw"])
    assert choose(v) == "play W G"
    color = view(hand="B1 B2 R3", phase="color", legal=["color R", "color Y", "color G", "color B"])
    assert choose(color) == "color B"


def test_stays_in_the_color_it_holds_most_of() -> None:
    v = view(hand="R5 G5 G6 G7", top="R9", color=Color.RED, legal=["play R5", "draw"])
    assert choose(v) == "play R5"
    v = view(hand="R5 G9 G6 G7 B1", top="R9", color=Color.RED, legal=["play R5", "play G9"])
    assert choose(v) == "play G9"  # moves to green, where it holds two more


def test_dumps_high_value_cards_when_an_opponent_is_close_to_going_out() -> None:
    calm = view(hand="R1 W G2", top="R9", color=Color.RED, hand_counts=(3, 6, 6),
                legal=["play R1", *WILDS, "draw"])  # fmt: skip
    assert choose(calm) == "play R1"
    close = view(hand="R1 W G2", top="R9", color=Color.RED, hand_counts=(3, 6, 1),
                 legal=["play R1", *WILDS, "draw"])  # fmt: skip
    assert choose(close) == "play W G"


def test_hits_a_next_player_close_to_going_out() -> None:
    v = view(hand="R3 RS G2", top="R9", color=Color.RED, hand_counts=(3, 2, 6), direction=1,
             legal=["play R3", "play RS", "draw"])  # fmt: skip
    assert choose(v) == "play RS"


def test_calls_uno_and_catches() -> None:
    v = view(hand="R1 G2", top="R9", color=Color.RED, legal=["play R1", "play R1 uno", "draw"])
    assert choose(v) == "play R1 uno"
    assert choose(view(to_act=1, legal=["catch @2"], catchable=(2,))) == "catch @2"
    assert choose(view(to_act=1, legal=["uno"])) == "uno"
    assert choose(view(to_act=1, legal=[])) is None


def test_stacks_when_it_can() -> None:
    v = view(phase="penalty", pending_draw=2, top="GD2", hand="RD2 R5",
             legal=["draw", "play RD2"])  # fmt: skip
    assert choose(v) == "play RD2"


def test_jumps_in_and_picks_targets() -> None:
    assert choose(view(to_act=1, legal=["play R5"], hand="R5 G1")) == "play R5"
    v = view(hand="R7 G1 G2 G3 G4", top="R9", color=Color.RED, hand_counts=(5, 6, 2),
             legal=["play R7 @1", "play R7 @2", "draw"])  # fmt: skip
    assert choose(v) == "play R7 @2"


def test_plays_the_drawn_card_but_keeps_a_drawn_wild() -> None:
    drawn = view(phase="drawn", drawn="R5", hand="R5 G1 G2 G3 G4", legal=["play R5", "pass"])
    assert choose(drawn) == "play R5"
    wild = view(phase="drawn", drawn="W", hand="W G1 G2 G3 G4", legal=[*WILDS, "pass"])
    assert choose(wild) == "pass"
    must = view(phase="drawn", drawn="W", hand="W G1 G2 G3 G4", legal=WILDS)
    assert choose(must) == "play W G"


def _challenge_case(accused_cards: int) -> str | None:
    """Seat 0 last saw red on the pile (12 cards); then seat 2 (before it, clockwise)
    played a Wild Draw Four naming blue: is red in her hand?"""
    bot = HeuristicBot()
    before = view(hand="G1 G2 Y3 Y4 B5", top="R4", color=Color.RED, discard_pile=12,
                  to_act=1, legal=["catch @2"], catchable=(2,))  # fmt: skip
    bot.choose(before, random.Random(0))
    counts = (5, 7, accused_cards)
    pending = view(hand="G1 G2 Y3 Y4 B5", top="W4", color=Color.BLUE, discard_pile=13,
                   phase="penalty", pending_draw=4, hand_counts=counts, direction=1,
                   legal=["draw", "challenge"])  # fmt: skip
    return choose(pending, bot)


def test_challenges_when_counting_makes_a_bluff_likely() -> None:
    assert _challenge_case(12) == "challenge"  # 12 cards and no red among them? Unlikely.
    assert _challenge_case(1) == "draw"  # her last card but one: probably honest


def test_bluff_odds_counts_the_cards_it_has_seen() -> None:
    bot = HeuristicBot()
    pending = view(hand="R1 R2 R3 R4 R5 R6 R7", top="W4", color=Color.BLUE, phase="penalty",
                   pending_draw=4, discard_pile=2, hand_counts=(7, 7, 3),
                   legal=["draw", "challenge"])  # fmt: skip
    bot.choose(view(hand="R1", top="R9", color=Color.RED, discard_pile=1, to_act=1, legal=[]),
               random.Random(0))  # fmt: skip
    bot.choose(pending, random.Random(0))
    # It knows 7 of the 25 reds and the R9: 17 reds among the 99 other cards.
    expected = 1 - no_color_odds(108 - 9, 25 - 8, 3)
    assert bot.bluff_odds(pending) == pytest.approx(expected)
    assert 0 < expected < CHALLENGE_THRESHOLD


def test_levels_make_it_careless() -> None:
    v = view(hand="R1 G5 G6 W", top="R9", color=Color.RED, legal=["play R1", *WILDS, "draw"])
    picks = {choose(v, HeuristicBot(1), seed) for seed in range(100)}
    assert "play R1" in picks and len(picks) > 1
    assert {choose(v, HeuristicBot(5), seed) for seed in range(30)} == {"play R1"}
    with pytest.raises(ValueError):
        HeuristicBot(0)


def test_no_color_odds() -> None:
    assert no_color_odds(10, 10, 1) == 0.0
    assert no_color_odds(108, 25, 0) == 1.0
    assert no_color_odds(4, 1, 2) == pytest.approx(0.5)
    assert Card.parse("W4").is_draw
