"""Examples for jump-in, seven-zero, to-the-last, the presets and the Alupula cards."""

from __future__ import annotations

import pytest
from stacking import HAND_A, HAND_B, HAND_C, codes, conserved, deal, give, legal, on_top

from una.engine import PRESETS, Card, Color, Game, IllegalAction, InvalidRules, Phase, RuleSet
from una.engine.events import HandEnded, HandsMoved, UnoCalled


def rules(preset: str = "standard", **switches: object) -> dict[str, object]:
    return {"preset": preset, **switches}


# ------------------------------------------------------------------- jump-in


def test_jump_in_an_identical_card_out_of_turn_and_play_continues_from_her() -> None:
    game = deal("R9 R1 R2 R3 G4 G5 B6", HAND_B, "R9 B2 B3 Y4 Y5 G6 G7", "R4 R5 R6 R7 Y8 Y9 B8",
                first="R8", rules=rules(jump_in=True))  # fmt: skip
    game.apply(0, "play R9")
    assert game.to_act == 1
    assert "play R9" in legal(game, 2)  # seat 2 is not to act but holds an identical R9
    assert not any(code.startswith("play") for code in legal(game, 3))
    game.apply(2, "play R9")
    assert game.to_act == 3  # play continues from her: seat 1 lost her turn
    assert game.top == Card.parse("R9") and len(game.hands[2]) == 6


def test_jump_in_needs_the_switch_and_an_identical_card() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="G1")
    with pytest.raises(IllegalAction, match="it is seat 0's turn"):
        game.apply(1, "play G1")
    game = deal(HAND_A, HAND_B, HAND_C, first="G1", rules=rules(jump_in=True))
    assert "play G1" in legal(game, 1)
    with pytest.raises(IllegalAction, match="identical to the top card G1"):
        game.apply(1, "play G2")


def test_jump_in_never_with_a_wild() -> None:
    game = deal("W R1 R2 R3 G4 G5 B6", "W G1 G2 G3 B4 B5 Y6", HAND_C, first="R9",
                rules=rules(jump_in=True))  # fmt: skip
    game.apply(0, "play W G")
    assert not any(code.startswith("play") for code in legal(game, 2))
    with pytest.raises(IllegalAction, match="never a wild"):
        game.apply(2, "play W G")


def test_no_jump_in_while_a_draw_is_pending_or_a_drawn_card_is_decided() -> None:
    switches = rules(jump_in=True, stack_draw_two=True)
    game = deal("RD2 R1 R2 R3 G4 G5 B6", HAND_B, "RD2 B2 B3 Y4 Y5 G6 G7", first="R9",
                rules=switches)  # fmt: skip
    game.apply(0, "play RD2")
    assert "play RD2" not in legal(game, 2)
    with pytest.raises(IllegalAction, match="no jump-in while a draw of 2 is pending"):
        game.apply(2, "play RD2")
    game = deal(HAND_A, HAND_B, "R9 B2 B3 Y4 Y5 G6 G7", first="R9", draws="R5", rules=switches)
    game.apply(0, "draw")
    assert game.phase is Phase.DRAWN
    with pytest.raises(IllegalAction, match="decides about her turn"):
        game.apply(2, "play R9")


def test_a_jump_in_closes_the_catch_window() -> None:
    game = deal(HAND_A, "R1 G2 G3 B4 B5 Y6 Y8", HAND_C, first="R9", rules=rules(jump_in=True))
    give(game, 0, "R1 R2")
    game.apply(0, "play R1")
    assert game.catchable(0)
    game.apply(1, "play R1")  # seat 1 is to act anyway: a normal play closes it too
    assert not game.catchable(0)
    game = deal(HAND_A, HAND_B, "R1 B2 B3 Y4 Y5 G6 G7", first="R9", rules=rules(jump_in=True))
    give(game, 0, "R1 R2")
    game.apply(0, "play R1")
    game.apply(2, "play R1")  # a jump-in by seat 2
    assert not game.catchable(0)
    assert game.to_act == 0


# ----------------------------------------------------------------- seven-zero


def test_seven_swaps_hands_with_the_player_she_picks() -> None:
    game = deal("R7 R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="R9", rules=rules(seven_zero=True))
    assert {"play R7 @1", "play R7 @2"} <= legal(game, 0)
    with pytest.raises(IllegalAction, match="picks one other player"):
        game.apply(0, "play R7")
    with pytest.raises(IllegalAction, match="not its own"):
        game.apply(0, "play R7 @0")
    events = game.apply(0, "play R7 @2")
    assert HandsMoved(((0, 2), (2, 0))) in events
    assert codes(game.hands[0]) == sorted(HAND_C.split())
    assert codes(game.hands[2]) == sorted(["R1", "R2", "R3", "G4", "G5", "B6"])
    assert game.to_act == 1 and conserved(game)


def test_zero_passes_every_hand_on_in_the_direction_of_play() -> None:
    game = deal("R0 R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="R9", rules=rules(seven_zero=True))
    game.apply(0, "play R0")
    assert codes(game.hands[1]) == sorted(["R1", "R2", "R3", "G4", "G5", "B6"])
    assert codes(game.hands[2]) == sorted(HAND_B.split())
    assert codes(game.hands[0]) == sorted(HAND_C.split())
    # Counter-clockwise, hands pass the other way.
    game = deal("RR R5 R2 R3 G4 G5 B6", HAND_B, "R1 B2 B3 Y4 Y5 G6 G7", first="R9",
                rules=rules(seven_zero=True))  # fmt: skip
    game.apply(0, "play RR")
    game.apply(2, "play R1")
    give(game, 1, "R0 G2 G3 B4 B5 Y6 Y8")
    game.apply(1, "play R0")
    assert codes(game.hands[0]) == sorted(["G2", "G3", "B4", "B5", "Y6", "Y8"])


def test_a_first_seven_or_zero_does_nothing_and_a_last_one_swaps_nothing() -> None:
    game = deal(HAND_A, HAND_B, first="R7", rules=rules(seven_zero=True))
    assert codes(game.hands[0]) == sorted(HAND_A.split()) and game.to_act == 0
    give(game, 0, "R0")
    game.apply(0, "play R0")
    assert game.hand_over and game.hands[0] == [] and len(game.hands[1]) == 7


def test_after_a_swap_only_the_player_of_the_seven_owes_uno() -> None:
    game = deal("R7 R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="R9", rules=rules(seven_zero=True))
    give(game, 2, "B9")
    events = game.apply(0, "play R7 @2 uno")
    assert UnoCalled(0) in events and codes(game.hands[0]) == ["B9"]
    assert not game.catchable(0) and not game.catchable(2)
    game = deal("R7 R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="R9", rules=rules(seven_zero=True))
    give(game, 2, "B9")
    game.apply(0, "play R7 @2")
    assert game.catchable(0) and not game.catchable(2)


# -------------------------------------------------------------- to the last


def test_to_the_last_ranks_players_and_plays_on_until_one_holds_cards() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", rules=rules(finish="to_the_last"))
    give(game, 0, "R1")
    game.apply(0, "play R1")
    assert not game.hand_over and game.to_act == 1 and game.active == [False, True, True]
    assert game.view_for(None).out == (0,)
    assert game.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="seat 0 is out of this hand"):
        game.apply(0, "uno")
    give(game, 1, "G1")
    events = game.apply(1, "play G1")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.ranking == (0, 1, 2) and ended.winner == 0
    # Winner takes all: only the loser still holds points.
    assert ended.points[0] == game.hand_points(2)


def test_to_the_last_a_last_draw_two_still_hits_the_next_player() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", draws="Y1 Y2",
                rules=rules(finish="to_the_last"))  # fmt: skip
    give(game, 0, "RD2")
    game.apply(0, "play RD2")
    assert len(game.hands[1]) == 9 and game.to_act == 2


def test_to_the_last_with_discards_minus_hand_scores_everybody() -> None:
    switches = rules("telegram", finish="to_the_last", first_player="left_of_dealer")
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", dealer=2, rules=switches)
    give(game, 0, "R1")
    game.apply(0, "play R1")
    give(game, 1, "G1")
    events = game.apply(1, "play G1")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.points == (1, 1, -game.hand_points(2))


# ------------------------------------------------------------------ presets


def test_presets_are_data_with_their_decks_values_and_switches() -> None:
    assert sorted(PRESETS) == ["alupula", "byond", "standard", "telegram"]
    assert PRESETS["alupula"].deck_size == 118
    assert RuleSet.preset_named("alupula").wd4_rule == "no_color_or_number"
    telegram = RuleSet.preset_named("telegram")
    assert telegram.stack_draw_two and telegram.scoring == "discards_minus_hand"
    assert telegram.points(Card.parse("W4")) == 20 and telegram.points(Card.parse("RS")) == 10
    byond = RuleSet.preset_named("byond")
    assert byond.players == (2, 8) and byond.scoring == "penalty"
    assert byond.uno_window == "own_turn" and byond.guilty_color == "reverts"
    with pytest.raises(InvalidRules, match="max <= 8"):
        RuleSet.from_json({"preset": "byond", "players": [2, 10]})


def test_telegram_a_random_player_starts() -> None:
    firsts = {Game("telegram", players=4, seed=seed).to_act for seed in range(40)}
    assert len(firsts) == 4
    assert Game("telegram", 4, seed=3).to_act == Game("telegram", 4, seed=3).to_act


# ------------------------------------------------------------- Alupula cards


def alupula(*hands: str, first: str, draws: str = "", **switches: object) -> Game:
    return deal(*hands, first=first, draws=draws, rules=rules("alupula", **switches))


def test_colored_draw_four_matches_its_color_or_a_draw_four_and_hits_the_next() -> None:
    game = alupula("RD4 BD4 R2 R3 G4 G5 B6", HAND_B, "GD4 B2 B3 Y4 Y5 G6 G7", first="R9",
                   draws="Y1 Y2 Y3 Y4")  # fmt: skip
    assert "play RD4" in legal(game, 0) and "play BD4" not in legal(game, 0)
    game.apply(0, "play RD4")
    assert len(game.hands[1]) == 11 and game.to_act == 2
    assert game.color is Color.RED
    assert "play GD4" in legal(game, 2)  # a Draw 4 on a Draw 4


def test_colored_draw_four_cannot_be_challenged() -> None:
    game = alupula("RD4 R1 R2 R3 G4 G5 B6", HAND_B, first="R9", stack_draw_four=True)
    game.apply(0, "play RD4")
    assert legal(game, 1) == {"draw"}


def test_colourless_plays_on_anything_then_any_colored_card_sets_the_color() -> None:
    game = alupula("CL R1 R2 R3 G4 G5 B6", "W Y1 Y2 G3 B4 B5 Y6", first="B9")
    assert "play CL" in legal(game, 0)
    game.apply(0, "play CL")
    assert game.color is None
    assert "play Y1" in legal(game, 1) and "play G3" in legal(game, 1)
    assert not any(code.startswith("play W") for code in legal(game, 1))
    with pytest.raises(IllegalAction, match="play a colored card"):
        game.apply(1, "play W R")
    game.apply(1, "play G3")
    assert game.color is Color.GREEN


def test_nagasaki_everybody_draws_as_many_as_she_holds() -> None:
    game = alupula("NAGA R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="B9")
    game.apply(0, "play NAGA")
    assert [len(h) for h in game.hands] == [12, 14, 14]
    assert game.color is Color.BLUE  # it names no color: the color stays
    assert game.to_act == 1 and conserved(game)


def test_no_nagasaki_on_a_nagasaki_until_its_players_turn_comes_round() -> None:
    game = alupula("NAGA R1 R2 R3 G4 G5 B6", "NAGA G1 G2 G3 B4 B5 Y6", first="B9")
    game.apply(0, "play NAGA")
    assert "play NAGA" not in legal(game, 1)
    with pytest.raises(IllegalAction, match="before its player's turn"):
        game.apply(1, "play NAGA")
    game.apply(1, "play B4")
    on_top(game, "B1")
    game.apply(0, "play B6")
    assert "play NAGA" in legal(game, 1)


def test_nagasaki_as_the_last_card_does_not_win() -> None:
    game = alupula(HAND_A, HAND_B, first="B9", draws="Y1 Y2")
    give(game, 0, "NAGA")
    game.apply(0, "play NAGA")
    assert not game.hand_over and codes(game.hands[0]) == ["Y1", "Y2"]
    assert len(game.hands[1]) == 7 and game.to_act == 1


def test_alupula_first_card_wild_or_draw_four_or_nagasaki_goes_under_the_pile() -> None:
    for first in ("W", "W4", "RD4", "NAGA"):
        game = alupula(HAND_A, HAND_B, first=first, draws="G8")
        assert game.top == Card.parse("G8") and game.draw_pile[0] == Card.parse(first)
        assert conserved(game)
