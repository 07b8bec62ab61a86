"""Views hold exactly what a seat may know (RULES.md section 8), as JSON."""

from __future__ import annotations

import json

import pytest
from stacking import HAND_A, HAND_B, HAND_C, codes, deal, give

from una.engine import Game


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")
    view = game.view_for(1)
    assert view.seat == 1
    assert codes(view.hand or ()) == sorted(HAND_B.split())
    assert view.hand_counts == (7, 7, 7)
    data = json.loads(json.dumps(view.to_json()))
    text = json.dumps(data)
    for code in set(HAND_A.split()) - set(HAND_B.split()):
        assert f'"{code}"' not in text


def test_the_public_table_is_in_every_view() -> None:
    game = deal("RD2 R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="R9", rules={
        "preset": "standard", "stack_draw_two": True})  # fmt: skip
    game.apply(0, "play RD2")
    for seat in (None, 0, 1, 2):
        view = game.view_for(seat).to_json()
        assert view["top"] == "RD2" and view["color"] == "R" and view["direction"] == 1
        assert view["to_act"] == 1 and view["pending_draw"] == 2 and view["phase"] == "penalty"
        assert view["scores"] == [0, 0, 0] and view["hand_counts"] == [6, 7, 7]
        assert view["draw_pile"] == 108 - 21 - 1 and view["discard_pile"] == 2
        assert view["players"] == ["Seat 0", "Seat 1", "Seat 2"]


def test_legal_actions_are_in_the_view_of_their_seat_only() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")
    for seat in range(3):
        assert game.view_for(seat).legal == tuple(game.legal_actions(seat))
    assert game.view_for(1).legal == ()  # not her turn, nothing to catch


def test_a_spectator_view_holds_no_hand() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")
    view = game.view_for(None)
    assert view.hand is None and view.legal == () and view.revealed == ()
    data = view.to_json()
    assert data["hand"] is None and data["seat"] is None
    text = json.dumps(data)
    for code in set((HAND_A + " " + HAND_B + " " + HAND_C).split()) - {"R9"}:
        assert f'"{code}"' not in text


def test_the_drawn_card_is_shown_to_its_player_only() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", draws="B9")
    game.apply(0, "draw")
    assert game.view_for(0).to_json()["drawn"] == "B9"
    assert game.view_for(1).to_json()["drawn"] is None
    assert game.view_for(None).to_json()["drawn"] is None


def test_uno_calls_and_catchable_seats_are_public() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")

    give(game, 0, "R1 R2")
    game.apply(0, "play R1")
    assert game.view_for(None).catchable == (0,)
    assert "catch @0" in game.view_for(2).to_json()["legal"]
    game.apply(0, "uno")
    assert game.view_for(None).uno_called == (0,) and game.view_for(None).catchable == ()


def test_hand_result_is_shown_when_the_hand_ends() -> None:
    game = deal(HAND_A, HAND_B, first="R9")

    give(game, 0, "R1")
    game.apply(0, "play R1")
    view = game.view_for(1).to_json()
    assert view["hand_winner"] == 0 and view["hand_points"][0] == game.scores[0]
    assert view["to_act"] is None and view["legal"] == ["deal"]


def test_no_such_seat() -> None:
    with pytest.raises(ValueError, match="no seat 5"):
        Game("standard", players=3).view_for(5)


def test_every_hand_is_laid_open_once_the_hand_is_over() -> None:
    import random

    game = Game("standard", players=3, seed=11)
    rng = random.Random(11)
    while not game.hand_over:
        assert game.view_for(None).end_hands is None and game.view_for(0).end_hands is None
        seat = game.to_act
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    left = [sorted(c.code for c in hand) for hand in game.hands]
    assert any(left)  # the losers still hold cards
    for seat in (None, 0, 1, 2):
        shown = game.view_for(seat).to_json()["end_hands"]
        assert [sorted(cards) for cards in shown] == left
