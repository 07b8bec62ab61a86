"""One example per implemented switch of RULES.md section 4, and the fine print they touch."""

from __future__ import annotations

import pytest
from stacking import HAND_A, HAND_B, HAND_C, codes, deal, give, legal

from una.engine import Card, Color, IllegalAction, Phase, RuleSet, fast
from una.engine.events import (
    CardsDrawn,
    CatchFailed,
    ColorReverted,
    HandEnded,
    UnoCalled,
    UnoCaught,
    UnoMissed,
)


def rules(**switches: object) -> dict[str, object]:
    return {"preset": "standard", **switches}


# ------------------------------------------------------------------ stacking


def test_stack_draw_two_passes_the_total_on() -> None:
    game = deal("RD2 R1 R2 R3 G4 G5 B6", "GD2 G1 G2 G3 B4 B5 Y6", HAND_C, first="R9",
                rules=rules(stack_draw_two=True))  # fmt: skip
    game.apply(0, "play RD2")
    assert (game.phase, game.to_act, game.pending_draw) == (Phase.PENALTY, 1, 2)
    assert legal(game, 1) == {"draw", "play GD2"}
    game.apply(1, "play GD2")
    assert (game.to_act, game.pending_draw) == (2, 4)
    game.apply(2, "draw")
    assert len(game.hands[2]) == 11 and game.to_act == 0 and game.pending_draw == 0


def test_without_stacking_a_draw_two_cannot_be_answered() -> None:
    game = deal("RD2 R1 R2 R3 G4 G5 B6", "GD2 G1 G2 G3 B4 B5 Y6", HAND_C, first="R9")
    game.apply(0, "play RD2")
    assert len(game.hands[1]) == 9 and game.to_act == 2


def test_a_last_draw_two_on_a_running_stack_makes_the_next_draw_it_all() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", rules=rules(stack_draw_two=True))
    give(game, 0, "RD2 R1")
    give(game, 1, "GD2")
    game.apply(0, "play RD2 uno")
    game.apply(1, "play GD2")
    assert game.hand_over and len(game.hands[2]) == 7 + 4


def test_stack_draw_four_and_only_the_last_card_can_be_challenged() -> None:
    game = deal("W4 Y1 G2 G3 G4 G5 B6", "W4 G1 G2 G3 B4 B5 Y6", HAND_C, first="R9",
                rules=rules(stack_draw_four=True))  # fmt: skip
    game.apply(0, "play W4 B")
    assert {"draw", "challenge", "play W4 R"} <= legal(game, 1)
    game.apply(1, "play W4 G")  # a bluff: seat 1 holds blue cards
    assert (game.to_act, game.pending_draw) == (2, 8)
    events = game.apply(2, "challenge")
    assert any(e for e in events if type(e).__name__ == "Challenged" and e.guilty)
    assert len(game.hands[1]) == 6 + 8 and game.to_act == 2


def test_stack_cross_a_wild_draw_four_answers_a_draw_two_never_the_reverse() -> None:
    game = deal("RD2 R1 R2 R3 G4 G5 B6", "W4 G1 G2 G3 B4 B5 Y6", "GD2 B2 B3 Y4 Y5 G6 G7",
                first="R9", rules=rules(stack_cross=True))  # fmt: skip
    game.apply(0, "play RD2")
    assert "play W4 Y" in legal(game, 1)
    game.apply(1, "play W4 Y")
    assert game.pending_draw == 6
    assert "play GD2" not in legal(game, 2)
    with pytest.raises(IllegalAction, match="cannot answer the pending draw"):
        game.apply(2, "play GD2")


# ------------------------------------------------------------------- drawing


def test_draw_until_playable_counts_only_honest_plays() -> None:
    # Holding a red card, a drawn W4 would be a bluff: she keeps drawing until R4.
    game = deal(HAND_A, HAND_B, first="R9", draws="W4 Y2 R4",
                rules=rules(draw_until_playable=True))  # fmt: skip
    game.apply(0, "draw")
    assert codes(game.hands[0][7:]) == ["R4", "W4", "Y2"]
    assert game.phase is Phase.DRAWN and game.drawn is not None and game.drawn.code == "R4"


def test_voluntary_draw_off_forbids_drawing_with_a_playable_card() -> None:
    game = deal(HAND_A, HAND_B, first="R9", rules=rules(voluntary_draw=False))
    assert "draw" not in legal(game, 0)
    with pytest.raises(IllegalAction, match="voluntary_draw is off"):
        game.apply(0, "draw")
    game = deal("Y1 Y2 G3 G4 G5 B6 B7", HAND_B, first="R9", rules=rules(voluntary_draw=False))
    game.apply(0, "draw")


def test_play_drawn_must_forces_an_honest_drawn_card() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="R8", rules=rules(play_drawn="must"))
    game.apply(0, "draw")
    assert legal(game, 0) == {"play R8"}
    with pytest.raises(IllegalAction, match="play_drawn is 'must'"):
        game.apply(0, "pass")


def test_play_drawn_must_does_not_force_a_bluff() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="W4", rules=rules(play_drawn="must"))
    game.apply(0, "draw")
    assert "pass" in legal(game, 0) and "play W4 G" in legal(game, 0)


def test_play_drawn_never_passes_after_the_draw() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="R8", rules=rules(play_drawn="never"))
    game.apply(0, "draw")
    assert game.to_act == 1 and "R8" in codes(game.hands[0])


# ----------------------------------------------------------------------- UNO


def test_uno_call_auto_calls_for_her() -> None:
    game = deal(HAND_A, HAND_B, first="R9", rules=rules(uno_call="auto"))
    give(game, 0, "R1 R2")
    assert "play R1 uno" not in legal(game, 0)
    events = game.apply(0, "play R1")
    assert UnoCalled(0) in events and not game.catchable(0)


def test_uno_window_own_turn_stays_open_until_her_next_turn() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", draws="Y2 Y3 Y4",
                rules=rules(uno_window="own_turn"))  # fmt: skip
    give(game, 0, "R1 R2")
    game.apply(0, "play R1")
    game.apply(1, "draw")  # Y2: unplayable, passes
    game.apply(2, "draw")  # Y3: unplayable, passes
    assert game.to_act == 0 and game.catchable(0)
    events = game.apply(1, "catch @0")
    assert UnoCaught(1, 0) in events


def test_uno_window_own_turn_closes_when_she_acts_again() -> None:
    # Observable with a false call: she keeps more than one card after her turn.
    switches = rules(uno_window="own_turn", false_uno_penalty=True)
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", draws="Y2 Y3 G8", rules=switches)
    game.apply(0, "play R1 uno")  # six cards left: a false call
    game.apply(1, "draw")
    game.apply(2, "draw")
    assert game.catchable(0)
    game.apply(0, "draw")  # G8: unplayable; her own turn closes the window
    assert not game.catchable(0)
    with pytest.raises(IllegalAction, match="holds 7 cards"):
        game.apply(1, "catch @0")


def test_uno_penalty_catch_a_missed_call_costs_nothing_uncaught() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="Y9 B9")
    give(game, 0, "R1 R2")
    game.apply(0, "play R1")  # no call
    events = game.apply(1, "draw")  # the window closes: nobody caught her
    assert not any(isinstance(e, UnoMissed) for e in events) and len(game.hands[0]) == 1


def test_uno_penalty_auto_the_next_players_move_gives_the_two_cards() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="Y9 B9 G9", rules=rules(uno_penalty="auto"))
    give(game, 0, "R1 R2")
    game.apply(0, "play R1")  # no call
    assert game.catchable(0)
    events = game.apply(1, "draw")
    assert events[:2] == [
        UnoMissed(0),
        CardsDrawn(0, (Card.parse("Y9"), Card.parse("B9")), "catch"),
    ]
    assert codes(game.hands[0]) == ["B9", "R2", "Y9"] and not game.catchable(0)
    assert codes(game.hands[1][-1:]) == ["G9"]  # the draw itself comes after the penalty


def test_uno_penalty_auto_a_call_in_time_or_a_catch_costs_no_more() -> None:
    switches = rules(uno_penalty="auto")
    game = deal(HAND_A, HAND_B, first="R9", draws="Y9 B9 G9", rules=switches)
    give(game, 0, "R1 R2")
    game.apply(0, "play R1")
    game.apply(0, "uno")  # called before the next player moved
    events = game.apply(1, "draw")
    assert not any(isinstance(e, UnoMissed) for e in events) and len(game.hands[0]) == 1
    caught = deal(HAND_A, HAND_B, first="R9", draws="Y9 B9 G9", rules=switches)
    give(caught, 0, "R1 R2")
    caught.apply(0, "play R1")
    caught.apply(1, "catch @0")  # a catch is not a turn: the 2 cards, once
    events = caught.apply(1, "draw")
    assert not any(isinstance(e, UnoMissed) for e in events) and len(caught.hands[0]) == 3


def test_uno_penalty_auto_under_own_turn_waits_for_her_own_move() -> None:
    switches = rules(uno_penalty="auto", uno_window="own_turn")
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", draws="Y2 Y3 G8 G9", rules=switches)
    give(game, 0, "R1 R2")
    game.apply(0, "play R1")
    game.apply(1, "draw")  # Y2
    game.apply(2, "draw")  # Y3
    assert game.catchable(0)
    events = game.apply(0, "play R2")  # her own move: the penalty first, so she is not out
    assert events[0] == UnoMissed(0) and not game.hand_over
    assert codes(game.hands[0]) == ["G8", "G9"]


def test_uno_penalty_auto_is_played_by_the_c_core_as_in_python() -> None:
    # (tests/engine/test_core_differential.py compares it with every other switch.)
    switches = RuleSet.from_json({"preset": "telegram", "seven_zero": True})
    assert switches.uno_penalty == "auto" and fast.supports(switches) == fast.available()
    for seed in range(20):  # seven-zero swaps leave random players owing their calls
        assert fast.trace_hand(4, seed, seed, switches) == fast.trace_hand_py(
            4, seed, seed, switches
        )


def test_false_uno_penalty_a_false_call_can_be_caught() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", draws="Y1 Y2",
                rules=rules(false_uno_penalty=True))  # fmt: skip
    game.apply(0, "play R1 uno")  # six cards left
    assert game.catchable(0) and "catch @0" in legal(game, 2)
    events = game.apply(2, "catch @0")
    assert UnoCaught(2, 0) in events and len(game.hands[0]) == 8


def test_bad_catch_penalty_a_wrong_catch_costs_two() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", rules=rules(bad_catch_penalty=True))
    events = game.apply(2, "catch @1")
    assert CatchFailed(2, 1, "seat 1 holds 7 cards", "holds_more") in events
    assert len(game.hands[2]) == 9 and game.to_act == 0


# ----------------------------------------------------------------- challenge


def test_guilty_color_reverts_restores_the_color_before_the_wild() -> None:
    game = deal("W4 R1 G2 G3 G4 G5 B6", HAND_B, first="R9", rules=rules(guilty_color="reverts"))
    game.apply(0, "play W4 B")
    events = game.apply(1, "challenge")
    assert ColorReverted(Color.RED) in events and game.color is Color.RED


def test_challenge_reveal_keeps_showing_the_guilty_hand() -> None:
    game = deal("W4 R1 G2 G3 G4 G5 B6", HAND_B, first="R9", rules=rules(challenge_reveal=True))
    game.apply(0, "play W4 B")
    game.apply(1, "challenge")
    game.apply(1, "play B4")
    game.apply(0, "play B6")
    shown = game.view_for(1).revealed
    assert codes(shown[0].cards) == codes(game.hands[0])  # her hand now, not as it was
    # Without the switch the challenger keeps only what she saw at the challenge.
    game = deal("W4 R1 G2 G3 G4 G5 B6", HAND_B, first="R9")
    game.apply(0, "play W4 B")
    game.apply(1, "challenge")
    game.apply(1, "play B4")
    game.apply(0, "play B6")
    assert "B6" in codes(game.view_for(1).revealed[0].cards)


def test_wd4_rule_no_color_or_number_counts_number_cards_only() -> None:
    strict = rules(wd4_rule="no_color_or_number")
    game = deal("W4 Y9 G2 G3 G4 G5 B6", HAND_B, first="R9", rules=strict)
    assert game.is_bluff(0, game.hands[0][0])  # a 9 of another color
    game = deal("W4 YS G2 G3 G4 G5 B6", HAND_B, first="RS", rules=strict)
    assert not game.is_bluff(0, game.hands[0][0])  # a Skip of another color does not count


# ------------------------------------------------------------------- scoring


def _finish(switches: dict[str, object]) -> HandEnded:
    game = deal(HAND_A, HAND_B, first="R9", rules=switches)
    game.apply(0, "play R1")
    game.apply(1, "play G1")
    give(game, 0, "G2")
    events = game.apply(0, "play G2")
    return next(e for e in events if isinstance(e, HandEnded))


def test_scoring_penalty_each_player_adds_her_own_hand() -> None:
    ended = _finish(rules(scoring="penalty"))
    assert ended.points == (0, 2 + 3 + 4 + 5 + 6 + 8)


def test_scoring_discards_minus_hand() -> None:
    ended = _finish(rules(scoring="discards_minus_hand"))
    assert ended.points == (1 + 2, 1 - (2 + 3 + 4 + 5 + 6 + 8))


def test_scoring_none_ends_the_match_with_the_hand() -> None:
    ended = _finish(rules(scoring="none"))
    assert ended.points == (0, 0)


def test_penalty_match_is_won_by_the_lowest_total() -> None:
    game = deal(HAND_A, HAND_B, first="R9", rules=rules(scoring="penalty", target=20))
    give(game, 0, "R1")
    game.apply(0, "play R1")
    assert game.match_over and game.winner == 0 and game.scores[1] >= 20
