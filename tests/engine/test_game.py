"""One example per rule of RULES.md section 3 (and its fine print), on stacked decks."""

from __future__ import annotations

import pytest
from stacking import HAND_A, HAND_B, HAND_C, codes, conserved, deal, drain_pile, give, legal, on_top

from una.engine import Card, Color, Game, IllegalAction, InvalidRules, Phase
from una.engine.events import (
    CardsDrawn,
    Challenged,
    FirstCardReturned,
    HandEnded,
    HandRevealed,
    MatchEnded,
    Passed,
    Reshuffled,
    Skipped,
    UnoCaught,
)
from una.engine.record import stacked_deck

# ------------------------------------------------------------------ 3.1 setup


def test_seats_two_to_ten() -> None:
    with pytest.raises(InvalidRules, match="1 seats"):
        Game("standard", players=1)
    with pytest.raises(InvalidRules, match="11 seats"):
        Game("standard", players=11)
    assert Game("standard", players=10).n == 10


def test_players_as_a_string_is_refused() -> None:
    # A str is a Sequence[str]: "Ann" once made three seats named A, n and n.
    with pytest.raises(InvalidRules, match=r"players: .*not the string 'Ann'.*\['Ann'\]"):
        Game("standard", players="Ann")
    assert Game("standard", players=["Ann", "Bob"]).names == ["Ann", "Bob"]


def test_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    deck = stacked_deck("standard", [HAND_A.split(), HAND_B.split(), HAND_C.split()], "R9",
                        dealer=1)  # fmt: skip
    game = Game("standard", players=3, dealer=1, decks=[deck])
    # Card 0 goes to the seat left of the dealer (2), card 1 to seat 0, card 2 to seat 1.
    assert [game.hands[s][0].code for s in (2, 0, 1)] == [c.code for c in deck[:3]]
    assert codes(game.hands[0]) == sorted(HAND_A.split())
    assert codes(game.hands[2]) == sorted(HAND_C.split())
    assert game.top == Card.parse("R9")
    assert len(game.draw_pile) == 108 - 21 - 1
    assert game.to_act == 2  # the first player sits left of the dealer


# ------------------------------------------------------------ 3.2 first card


def test_first_card_number_does_nothing() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="Y9")
    assert (game.to_act, game.color, game.direction) == (0, Color.YELLOW, 1)


def test_first_card_skip_skips_the_first_player() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="YS")
    assert game.to_act == 1
    assert Skipped(0) in game.start_events


def test_first_card_reverse_flips_and_the_dealer_plays_first() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="YR")
    assert game.direction == -1
    assert game.to_act == 2  # the dealer
    game.apply(2, "play Y5")
    assert game.to_act == 1  # counter-clockwise from the dealer


def test_first_card_draw_two_hits_the_first_player() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="YD2", draws="R8 B8")
    assert codes(game.hands[0]) == sorted([*HAND_A.split(), "R8", "B8"])
    assert game.to_act == 1


def test_first_card_draw_two_applies_at_once_even_with_stacking() -> None:
    rules = {"preset": "standard", "stack_draw_two": True}
    game = deal("R1 R2 R3 G4 G5 B6 RD2", HAND_B, HAND_C, first="YD2", draws="R8 B8", rules=rules)
    assert len(game.hands[0]) == 9
    assert (game.to_act, game.phase, game.pending_draw) == (1, Phase.PLAY, 0)


def test_first_card_wild_the_first_player_names_the_color_then_plays() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="W")
    assert (game.to_act, game.phase, game.color) == (0, Phase.COLOR, None)
    assert legal(game, 0) == {"color R", "color Y", "color G", "color B"}
    with pytest.raises(IllegalAction, match="must first name the color"):
        game.apply(0, "play R1")
    game.apply(0, "color G")
    assert (game.to_act, game.phase, game.color) == (0, Phase.PLAY, Color.GREEN)
    game.apply(0, "play G4")
    assert game.to_act == 1


def test_first_card_wild_draw_four_is_reshuffled_and_another_turned() -> None:
    game = deal(HAND_A, HAND_B, first="W4")
    returned = [e for e in game.start_events if isinstance(e, FirstCardReturned)]
    assert returned and returned[0].card == Card.parse("W4")
    assert game.top.symbol != "W4"
    assert len(game.draw_pile) == 108 - 14 - 1
    assert conserved(game)


# ----------------------------------------------------------- 3.3 play or draw


def test_play_matches_color_or_symbol_or_wild() -> None:
    game = deal("R1 G9 B6 Y7 W R2 R3", HAND_B, first="Y9")
    assert {"play G9", "play Y7", "play W R"} <= legal(game, 0)
    assert "play R1" not in legal(game, 0)
    with pytest.raises(IllegalAction, match="R1 matches neither color Y nor symbol 9"):
        game.apply(0, "play R1")
    game.apply(0, "play G9")
    assert (game.top, game.color, game.to_act) == (Card.parse("G9"), Color.GREEN, 1)


def test_a_card_not_in_hand_is_refused_and_nothing_changes() -> None:
    game = deal(HAND_A, HAND_B, first="R9")
    before = game.state_json()
    with pytest.raises(IllegalAction) as error:
        game.apply(0, "play R9")
    assert error.value.seat == 0 and error.value.action == "play R9"
    assert "seat 0 holds no R9" in str(error.value)
    assert game.state_json() == before and game.log == []


def test_only_the_player_to_act_plays() -> None:
    game = deal(HAND_A, HAND_B, first="G9")
    with pytest.raises(IllegalAction, match="it is seat 0's turn"):
        game.apply(1, "play G1")


def test_drawing_is_allowed_even_when_she_could_play() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="B9")
    assert "draw" in legal(game, 0)
    game.apply(0, "draw")
    # B9 matches the 9: she may play it or pass.
    assert game.phase is Phase.DRAWN
    assert legal(game, 0) == {"play B9", "pass"}


def test_after_drawing_only_the_drawn_card_may_be_played() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="B9")
    game.apply(0, "draw")
    with pytest.raises(IllegalAction, match="only the drawn card B9 may be played"):
        game.apply(0, "play R1")
    game.apply(0, "play B9")
    assert game.top == Card.parse("B9") and game.to_act == 1


def test_after_drawing_she_may_pass() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="B9")
    game.apply(0, "draw")
    events = game.apply(0, "pass")
    assert Passed(0) in events
    assert game.to_act == 1 and "B9" in codes(game.hands[0])


def test_an_unplayable_drawn_card_passes_the_turn_at_once() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="Y2")
    events = game.apply(0, "draw")
    assert events[-1] == Passed(0)
    assert game.to_act == 1 and game.phase is Phase.PLAY


def test_pass_is_refused_before_drawing() -> None:
    game = deal(HAND_A, HAND_B, first="R9")
    with pytest.raises(IllegalAction, match="must play a card or draw before passing"):
        game.apply(0, "pass")


# ------------------------------------------------------------ 3.4 wild cards


def test_wild_names_any_color_including_the_current_one() -> None:
    game = deal("W R1 R2 R3 G4 G5 B6", HAND_B, first="R9")
    assert {"play W R", "play W Y", "play W G", "play W B"} <= legal(game, 0)
    with pytest.raises(IllegalAction, match="W needs a color"):
        game.apply(0, "play W")
    with pytest.raises(IllegalAction, match="R1 names no color"):
        game.apply(0, "play R1 G")
    game.apply(0, "play W R")
    assert game.color is Color.RED and game.top == Card.parse("W")


def test_wild_draw_four_honest_next_player_draws_four_and_forfeits() -> None:
    game = deal("W4 G1 G2 G3 G4 G5 B6", HAND_B, HAND_C, first="R9", draws="Y1 Y2 Y3 B7")
    game.apply(0, "play W4 G")
    assert (game.phase, game.to_act, game.pending_draw) == (Phase.PENALTY, 1, 4)
    assert legal(game, 1) == {"draw", "challenge"}
    game.apply(1, "draw")
    assert len(game.hands[1]) == 11 and game.to_act == 2 and game.color is Color.GREEN


def test_wild_draw_four_bluff_is_allowed_when_challenges_are_on() -> None:
    game = deal("W4 R1 G2 G3 G4 G5 B6", HAND_B, first="R9")
    assert "play W4 B" in legal(game, 0)
    game.apply(0, "play W4 B")
    assert game.pending_draw == 4


def test_wild_draw_four_bluff_is_refused_when_challenges_are_off() -> None:
    rules = {"preset": "standard", "challenge": False}
    game = deal("W4 R1 G2 G3 G4 G5 B6", HAND_B, first="R9", rules=rules)
    assert not any(code.startswith("play W4") for code in legal(game, 0))
    with pytest.raises(IllegalAction, match="while holding a card of color R"):
        game.apply(0, "play W4 B")
    # Without challenges an honest Wild Draw Four leaves no decision: the draw is automatic.
    game = deal("W4 Y1 G2 G3 G4 G5 B6", HAND_B, HAND_C, first="R9", rules=rules)
    game.apply(0, "play W4 B")
    assert len(game.hands[1]) == 11 and game.to_act == 2


def test_a_matching_number_of_another_color_does_not_make_a_bluff() -> None:
    game = deal("W4 Y9 G2 G3 G4 G5 B6", HAND_B, first="R9")
    assert not game.is_bluff(0, Card.parse("W4"))


# ------------------------------------------------------------- 3.5 challenge


def test_challenge_guilty_the_player_draws_four_and_the_victim_plays() -> None:
    game = deal("W4 R1 G2 G3 G4 G5 B6", HAND_B, HAND_C, first="R9", draws="Y1 Y2 Y3 Y4")
    game.apply(0, "play W4 B")
    events = game.apply(1, "challenge")
    assert Challenged(1, 0, True) in events
    revealed = next(e for e in events if isinstance(e, HandRevealed))
    assert (revealed.seat, revealed.to) == (0, 1)
    assert codes(revealed.cards) == sorted(["R1", "G2", "G3", "G4", "G5", "B6"])
    assert len(game.hands[0]) == 10 and len(game.hands[1]) == 7
    assert (game.to_act, game.phase, game.color) == (1, Phase.PLAY, Color.BLUE)  # color stands
    game.apply(1, "play B4")


def test_challenge_innocent_the_challenger_draws_six_and_forfeits() -> None:
    game = deal("W4 Y1 G2 G3 G4 G5 B6", HAND_B, HAND_C, first="R9")
    game.apply(0, "play W4 B")
    events = game.apply(1, "challenge")
    assert Challenged(1, 0, False) in events
    assert len(game.hands[1]) == 13 and len(game.hands[0]) == 6
    assert game.to_act == 2


def test_the_challenger_sees_the_accused_hand_and_nobody_else_does() -> None:
    game = deal("W4 Y1 G2 G3 G4 G5 B6", HAND_B, HAND_C, first="R9")
    game.apply(0, "play W4 B")
    game.apply(1, "challenge")
    shown = game.view_for(1).revealed
    assert len(shown) == 1 and shown[0].seat == 0
    assert codes(shown[0].cards) == sorted(["Y1", "G2", "G3", "G4", "G5", "B6"])
    assert game.view_for(2).revealed == ()
    assert game.view_for(None).revealed == ()


def test_guilt_is_judged_on_the_hand_when_the_card_was_played() -> None:
    # An honest W4 (no red) as her second-to-last card, without UNO; she is caught and
    # draws red cards before the challenge: still innocent.
    game = deal(HAND_A, HAND_B, first="R9")
    give(game, 0, "W4 G7")
    on_top(game, "R1 R2")
    game.apply(0, "play W4 B")
    game.apply(1, "catch @0")
    assert codes(game.hands[0]) == ["G7", "R1", "R2"]
    events = game.apply(1, "challenge")
    assert Challenged(1, 0, False) in events
    assert len(game.hands[1]) == 7 + 6


def test_taking_the_wild_draw_four_draws_four_and_forfeits() -> None:
    game = deal("W4 Y1 G2 G3 G4 G5 B6", HAND_B, HAND_C, first="R9")
    game.apply(0, "play W4 B")
    events = game.apply(1, "draw")
    assert any(isinstance(e, CardsDrawn) and e.count == 4 for e in events)
    assert Skipped(1) in events and game.to_act == 2


# -------------------------------------------------------- 3.6 action cards


def test_skip_the_next_player_forfeits() -> None:
    game = deal("RS R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="R9")
    events = game.apply(0, "play RS")
    assert Skipped(1) in events and game.to_act == 2


def test_reverse_flips_the_direction() -> None:
    game = deal("RR R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="R9")
    game.apply(0, "play RR")
    assert game.direction == -1 and game.to_act == 2


def test_draw_two_the_next_player_draws_two_and_forfeits() -> None:
    game = deal("RD2 R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="R9", draws="Y1 Y2")
    game.apply(0, "play RD2")
    assert codes(game.hands[1]) == sorted([*HAND_B.split(), "Y1", "Y2"])
    assert game.to_act == 2 and game.pending_draw == 0


# --------------------------------------------------------- 3.7 two players


def test_two_players_reverse_acts_as_skip_and_still_flips() -> None:
    game = deal("RR R1 R2 R3 G4 G5 B6", HAND_B, first="R9")
    events = game.apply(0, "play RR")
    assert Skipped(1) in events
    assert game.to_act == 0 and game.direction == -1


def test_two_players_skip_and_draw_two_give_another_turn() -> None:
    game = deal("RS RD2 R2 R3 G4 G5 B6", HAND_B, first="R9", draws="Y1 Y2")
    game.apply(0, "play RS")
    assert game.to_act == 0
    game.apply(0, "play RD2")
    assert game.to_act == 0 and len(game.hands[1]) == 9


# ------------------------------------------------------------------ 3.8 UNO


def test_uno_called_with_the_play_cannot_be_caught() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")
    give(game, 0, "R1 R2")
    game.apply(0, "play R1 uno")
    assert not game.catchable(0)
    assert "catch @0" not in legal(game, 2)
    with pytest.raises(IllegalAction, match="seat 0 called UNO"):
        game.apply(2, "catch @0")


def test_a_missed_uno_is_caught_by_any_other_player_for_two_cards() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", draws="Y1 Y2")
    give(game, 0, "R1 R2")
    assert {"play R1", "play R1 uno"} <= legal(game, 0)
    game.apply(0, "play R1")
    assert "catch @0" in legal(game, 2)  # seat 2 is not to act
    events = game.apply(2, "catch @0")
    assert UnoCaught(2, 0) in events
    assert codes(game.hands[0]) == ["R2", "Y1", "Y2"]
    assert game.to_act == 1  # a catch is no turn


def test_uno_may_be_called_alone_until_she_is_caught() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")
    give(game, 0, "R1 R2")
    game.apply(0, "play R1")
    assert "uno" in legal(game, 0)
    game.apply(0, "uno")
    with pytest.raises(IllegalAction, match="called UNO"):
        game.apply(1, "catch @0")


def test_the_catch_window_closes_when_the_next_player_acts() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")
    give(game, 0, "R1 R2")
    game.apply(0, "play R1")
    game.apply(1, "uno")  # not a turn action: the window stays open
    assert game.catchable(0)
    game.apply(1, "draw")
    assert not game.catchable(0)
    with pytest.raises(IllegalAction, match="the window to catch seat 0 has closed"):
        game.apply(2, "catch @0")


def test_a_wrong_catch_is_refused_and_costs_nothing() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")
    with pytest.raises(IllegalAction, match="seat 1 holds 7 cards"):
        game.apply(2, "catch @1")
    with pytest.raises(IllegalAction, match="cannot catch herself"):
        game.apply(2, "catch @2")
    assert len(game.hands[2]) == 7


def test_the_call_is_needed_again_every_time() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="Y2")
    give(game, 0, "R1 R2 R3")
    give(game, 1, "B1 B2 B3 B4 B5 B6 B7")
    game.apply(0, "play R1 uno")  # two left: the call does nothing
    game.apply(1, "draw")  # Y1 is not playable on red: passes
    game.apply(0, "play R2")
    assert game.catchable(0)


def test_calling_uno_with_more_cards_does_nothing() -> None:
    game = deal(HAND_A, HAND_B, first="R9")
    game.apply(0, "uno")
    game.apply(0, "play R1 uno")
    assert not game.catchable(0) and game.to_act == 1


# ------------------------------------------------------- 3.9 reshuffle, block


def test_the_discard_pile_is_reshuffled_when_a_card_must_be_drawn() -> None:
    game = deal(HAND_A, HAND_B, first="R9")
    # Play a few cards so the discard pile holds more than its top.
    game.apply(0, "play R1")
    game.apply(1, "play G1")
    game.apply(0, "play G4")
    drain_pile(game, 1)
    assert game.draw_pile == [] and len(game.discard) == 4
    events = game.apply(1, "draw")
    assert Reshuffled(3) in events
    assert game.discard == [Card.parse("G4")]
    assert len(game.draw_pile) == 2
    assert conserved(game)


def test_no_reshuffle_before_a_card_must_be_drawn() -> None:
    game = deal(HAND_A, HAND_B, first="R9")
    game.apply(0, "play R1")
    drain_pile(game, 0)
    assert game.draw_pile == [] and len(game.discard) == 2


def test_with_both_piles_empty_a_player_who_must_draw_passes() -> None:
    game = deal(HAND_A, HAND_B, first="R9")
    drain_pile(game, 1)
    assert "draw" not in legal(game, 0) and "pass" in legal(game, 0)
    game.apply(0, "pass")
    assert game.to_act == 1


def test_a_whole_round_without_a_card_played_or_drawn_blocks_the_hand() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")
    drain_pile(game, 1)
    points = [game.hand_points(s) for s in range(3)]
    game.apply(0, "pass")
    game.apply(1, "pass")
    events = game.apply(2, "pass")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.blocked
    winner = points.index(min(points))
    assert ended.winner == winner
    # Her hand counts as empty; she scores everybody else's.
    assert ended.points[winner] == sum(points) - points[winner]
    assert game.hand_over and game.to_act is None


def test_a_blocked_tie_goes_to_the_lowest_seat() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9")
    give(game, 1, "G1 G2")
    give(game, 2, "B2 B1")
    drain_pile(game, 0)
    for seat in (0, 1):
        game.apply(seat, "pass")
    events = game.apply(2, "pass")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.blocked and ended.winner == 1


# ----------------------------------------------------------- 3.10 last card


def test_the_last_card_ends_the_hand() -> None:
    game = deal(HAND_A, HAND_B, first="R9")
    give(game, 0, "R1")
    events = game.apply(0, "play R1")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.winner == 0 and not ended.blocked
    assert game.phase is Phase.HAND_OVER and game.hand_over


def test_a_last_draw_two_still_makes_the_next_player_draw_and_counts() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="Y1 Y2")
    give(game, 0, "RD2")
    events = game.apply(0, "play RD2")
    assert codes(game.hands[1]) == sorted([*HAND_B.split(), "Y1", "Y2"])
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.points[0] == game.hand_points(1) == 1 + 2 + 3 + 4 + 5 + 6 + 8 + 1 + 2


def test_a_last_wild_draw_four_draws_without_a_challenge() -> None:
    game = deal(HAND_A, HAND_B, first="R9", draws="Y1 Y2 Y3 Y4")
    give(game, 0, "W4")
    game.apply(0, "play W4 G")
    assert len(game.hands[1]) == 11 and game.hand_over
    assert "challenge" not in legal(game, 1)


# ----------------------------------------------------------- 3.11 scoring


def test_winner_takes_the_points_of_every_other_hand() -> None:
    game = deal(HAND_A, "GS GR GD2 W W4 Y6 Y8", "B1 B2 B3 Y4 Y5 G6 G7", first="R9")
    give(game, 0, "R1")
    events = game.apply(0, "play R1")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.points == (20 * 3 + 50 * 2 + 6 + 8 + (1 + 2 + 3 + 4 + 5 + 6 + 7), 0, 0)
    assert game.scores == list(ended.points)


def test_the_match_ends_at_the_target() -> None:
    rules = {"preset": "standard", "target": 25}
    game = deal(HAND_A, HAND_B, first="R9", rules=rules)
    give(game, 0, "R1")
    events = game.apply(0, "play R1")
    assert MatchEnded(0, tuple(game.scores)) in events
    assert game.match_over and game.winner == 0
    assert game.legal_actions(0) == [] and game.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="the match is over"):
        game.apply(1, "deal")


def test_any_player_deals_the_next_hand_and_the_dealer_rotates_left() -> None:
    game = deal(HAND_A, HAND_B, HAND_C, first="R9", dealer=2)
    with pytest.raises(IllegalAction, match="still being played"):
        game.apply(1, "deal")
    give(game, 0, "R1")
    game.apply(0, "play R1")
    assert legal(game, 1) == {"deal"}
    with pytest.raises(IllegalAction, match="the hand is over"):
        game.apply(1, "draw")
    game.apply(1, "deal")
    assert (game.hand_number, game.dealer) == (2, 0)
    assert all(len(h) == 7 for h in game.hands) and conserved(game)
    assert game.scores[0] > 0


def test_the_next_dealer_is_left_of_the_last_whatever_the_direction() -> None:
    game = deal("RR R1 R2 R3 G4 G5 B6", HAND_B, HAND_C, first="R9", dealer=2)
    game.apply(0, "play RR")
    assert game.direction == -1
    give(game, 2, "R5")
    game.apply(2, "play R5")
    game.apply(0, "deal")
    assert game.dealer == 0 and game.direction == 1
