"""One stacked-deck example per BYOND mutant card (RULES.md section 6) and per reaction."""

from __future__ import annotations

from collections import Counter

import pytest
from stacking import codes, conserved, deal, give, legal

from una.engine import Card, Color, IllegalAction, Phase
from una.engine.events import Challenged, FirstCardReturned, HandEnded, Reseated, Skipped

A = "R1 R2 R3 G4 G5 B6 Y7"
B = "G1 G2 G3 B4 B5 Y6 Y8"
C = "B1 B2 B3 Y4 Y5 G6 G7"
D = "Y1 Y2 Y3 R4 R5 G8 G9"


def byond(  # type: ignore[no-untyped-def]
    *hands: str, first: str = "R9", draws: str = "", dealer: int | None = None, **switches: object
):
    rules = {"preset": "byond", **switches}
    return deal(*hands, first=first, draws=draws, dealer=dealer, rules=rules)


# ------------------------------------------------------------ colored mutants


def test_draw_spreader_everybody_else_draws_two_and_she_plays_again() -> None:
    game = byond("RSP R1 R2 R3 G4 G5 B6", B, C, draws="Y1 Y2 Y3 Y9")
    game.apply(0, "play RSP")
    assert codes(game.hands[1])[-2:] != [] and len(game.hands[1]) == 9 and len(game.hands[2]) == 9
    assert "Y1" in codes(game.hands[1]) and "Y3" in codes(game.hands[2])  # in play order
    assert game.to_act == 0
    assert game.card_points(Card.parse("RSP")) == 20 * 2


def test_draw_spreader_as_the_last_card_still_hits_everyone() -> None:
    game = byond(A, B, C)
    give(game, 0, "RSP")
    game.apply(0, "play RSP")
    assert game.hand_over and len(game.hands[1]) == 9 and len(game.hands[2]) == 9


def test_reverse_draw_two_reverses_then_hits_the_next_in_the_new_direction() -> None:
    game = byond("RRD2 R1 R2 R3 G4 G5 B6", B, C, draws="Y1 Y2")
    events = game.apply(0, "play RRD2")
    assert game.direction == -1 and codes(game.hands[2]) == sorted([*C.split(), "Y1", "Y2"])
    assert Skipped(2) in events and game.to_act == 1


def test_reverse_draw_two_as_the_last_card_hits_the_previous_player() -> None:
    game = byond(A, B, C)
    give(game, 0, "RRD2")
    game.apply(0, "play RRD2")
    assert len(game.hands[2]) == 9 and len(game.hands[1]) == 7


def test_delayed_blast_draw_two_skips_one_then_hits_the_next() -> None:
    game = byond("RDB2 R1 R2 R3 G4 G5 B6", B, C)
    events = game.apply(0, "play RDB2")
    assert Skipped(1) in events and len(game.hands[1]) == 7 and len(game.hands[2]) == 9
    assert game.to_act == 0


def test_delayed_blast_with_two_players_hits_the_opponent_and_she_plays_again() -> None:
    game = byond("RDB2 R1 R2 R3 G4 G5 B6", B)
    game.apply(0, "play RDB2")
    assert len(game.hands[1]) == 9 and game.to_act == 0


def test_reverse_reverse_is_just_a_legal_play() -> None:
    game = byond("RRR R1 R2 R3 G4 G5 B6", B, C)
    game.apply(0, "play RRR")
    assert game.direction == 1 and game.to_act == 1 and game.color is Color.RED


def test_reverse_skip_reverses_then_skips() -> None:
    game = byond("RRS R1 R2 R3 G4 G5 B6", B, C)
    events = game.apply(0, "play RRS")
    assert game.direction == -1 and Skipped(2) in events and game.to_act == 1


def test_double_skip_skips_two_players_and_acts_as_skip_heads_up() -> None:
    game = byond("RSS R1 R2 R3 G4 G5 B6", B, C, D)
    game.apply(0, "play RSS")
    assert game.to_act == 3
    game = byond("RSS R1 R2 R3 G4 G5 B6", B)
    game.apply(0, "play RSS")
    assert game.to_act == 0


# --------------------------------------------------------------- wild mutants


def test_draw_double_without_a_pending_draw_is_a_plain_wild() -> None:
    game = byond("WDD R1 R2 R3 G4 G5 B6", B, C)
    game.apply(0, "play WDD G")
    assert (game.to_act, game.phase, game.color) == (1, Phase.PLAY, Color.GREEN)


def test_draw_double_doubles_a_pending_wild_draw() -> None:
    game = byond("W4 Y1 G2 G3 G4 G5 B6", "WDD G1 G2 G3 B4 B5 Y6", C)
    game.apply(0, "play W4 B")
    assert "play WDD R" in legal(game, 1)
    game.apply(1, "play WDD R")
    assert (game.to_act, game.pending_draw) == (2, 8)
    assert "challenge" not in legal(game, 2)  # a Draw Double is never challenged


def test_reverse_draw_four_wild_reverses_then_draws_four() -> None:
    game = byond("WR4 Y1 G2 G3 G4 G5 B6", B, C)
    game.apply(0, "play WR4 G")
    assert game.direction == -1 and (game.to_act, game.pending_draw) == (2, 4)
    assert "challenge" in legal(game, 2)


def test_delayed_blast_draw_four_wild_skips_one_then_draws_four() -> None:
    game = byond("WB4 Y1 G2 G3 G4 G5 B6", B, C)
    events = game.apply(0, "play WB4 G")
    assert Skipped(1) in events and (game.to_act, game.pending_draw) == (2, 4)


@pytest.mark.parametrize(("first", "count"), [("R9", 9), ("R3", 3), ("RS", 4), ("RD2", 4)])
def test_mystery_wild_draws_the_number_on_the_previous_card(first: str, count: int) -> None:
    game = byond(A, B, C, first=first)
    seat = game.to_act
    assert seat is not None
    give(game, seat, "WMY G1")
    game.apply(seat, "play WMY B")
    assert game.phase is Phase.PENALTY and game.pending_draw == count


def test_mystery_wild_on_a_zero_is_a_plain_wild() -> None:
    # Holy Defender counts as its parent, a red 0.
    game = byond("HOLY R1 R2 R3 G4 G5 B6", "WMY G1 G2 G3 B4 B5 Y6", C)
    game.apply(0, "play HOLY")
    game.apply(1, "play WMY G")
    assert (game.phase, game.pending_draw, game.to_act) == (Phase.PLAY, 0, 2)


def test_mystery_wild_with_a_zero_passes_a_pending_stack_on() -> None:
    game = byond("W4 Y1 G2 G3 G4 G5 B6", "HOLY G1 G2 G3 B4 B5 Y6", "WMY B1 B2 B3 Y4 Y5 G6")
    game.apply(0, "play W4 B")
    game.apply(1, "play HOLY")  # a reaction: the Holy Defender (a red 0) is now on top
    game.apply(2, "play WMY G")
    assert (game.to_act, game.pending_draw, game.phase) == (0, 4, Phase.PENALTY)


def test_target_practice_its_player_picks_who_draws_each_card() -> None:
    game = byond("WTP R1 R2 R3 G4 G5 B6", B, C, draws="Y1 Y2 Y3 Y9")
    assert "play WTP G @1 @1 @1 @2" in legal(game, 0)
    with pytest.raises(IllegalAction, match="4 @seats"):
        game.apply(0, "play WTP G @1 @2")
    with pytest.raises(IllegalAction, match="never picks its own player"):
        game.apply(0, "play WTP G @1 @1 @0 @2")
    game.apply(0, "play WTP G @1 @2 @1 @1")
    assert codes(game.hands[1]) == sorted([*B.split(), "Y1", "Y3", "Y9"])
    assert codes(game.hands[2]) == sorted([*C.split(), "Y2"])
    assert (game.to_act, game.phase, game.pending_draw) == (1, Phase.PLAY, 0)


def test_target_practice_on_a_stack_spreads_the_whole_total_and_ends_it() -> None:
    game = byond("W4 Y1 G2 G3 G4 G5 B6", "WTP G1 G2 G3 B4 B5 Y6", C)
    game.apply(0, "play W4 B")
    picks = "@0 @0 @0 @0 @2 @2 @2 @2"
    assert f"play WTP R {picks}" in legal(game, 1)
    game.apply(1, f"play WTP R {picks}")
    assert len(game.hands[0]) == 6 + 4 and len(game.hands[2]) == 7 + 4
    assert (game.to_act, game.pending_draw) == (2, 0)


# ------------------------------------------------------------------ reactions

WILD_DRAWS = ["W4", "WR4", "WB4", "WMY"]


def _aimed_at_seat_1(card: str, holder_hand: str):  # type: ignore[no-untyped-def]
    """Seat 0 plays the wild draw ``card`` so that it hits seat 1 (who holds ``hand``)."""
    if card == "WR4":  # reversed: seat 0's previous player is hit, so seat 0 sits after her
        game = byond("WR4 Y1 G2 G3 G4 G5 B6", C, holder_hand, first="R9")
        game.apply(0, "play WR4 G")
        return game, 2
    if card == "WB4":  # delayed: the player after the next is hit
        game = byond("WB4 Y1 G2 G3 G4 G5 B6", C, holder_hand, D, first="R9")
        game.apply(0, "play WB4 G")
        return game, 2
    game = byond(f"{card} Y1 G2 G3 G4 G5 B6", holder_hand, C, first="R9")
    game.apply(0, f"play {card} G")
    return game, 1


@pytest.mark.parametrize("card", WILD_DRAWS)
def test_holy_defender_passes_the_pending_draw_on(card: str) -> None:
    game, holder = _aimed_at_seat_1(card, "HOLY G1 G2 G3 B4 B5 Y6")
    total = game.pending_draw
    assert game.to_act == holder and "play HOLY" in legal(game, holder)
    game.apply(holder, "play HOLY")
    after = game.next_seat(holder)
    assert (game.to_act, game.pending_draw, game.phase) == (after, total, Phase.PENALTY)
    assert game.color is Color.GREEN  # a reaction keeps the color
    assert "challenge" not in legal(game, after)
    assert len(game.hands[holder]) == 6


@pytest.mark.parametrize("card", WILD_DRAWS)
def test_screwdriver_makes_the_wild_draws_player_take_it(card: str) -> None:
    game, holder = _aimed_at_seat_1(card, "SCREW G1 G2 G3 B4 B5 Y6")
    total = game.pending_draw
    game.apply(holder, "play SCREW")
    assert len(game.hands[0]) == 6 + total and game.pending_draw == 0
    assert game.to_act == game.next_seat(holder) and game.color is Color.GREEN


def test_reactions_answer_a_stacked_draw_double() -> None:
    game = byond("W4 Y1 G2 G3 G4 G5 B6", "WDD G1 G2 G3 B4 B5 Y6", "SCREW B1 B2 B3 Y4 Y5 G6")
    game.apply(0, "play W4 B")
    game.apply(1, "play WDD R")
    game.apply(2, "play SCREW")
    assert len(game.hands[1]) == 6 + 8  # the player of the last wild draw takes it all


def test_holy_and_screwdriver_played_normally_match_their_parent() -> None:
    game = byond("HOLY SCREW R2 R3 G4 G5 B6", B, C, first="R9")
    assert "play HOLY" in legal(game, 0) and "play SCREW" not in legal(game, 0)
    game.apply(0, "play HOLY")
    assert game.to_act == 1 and game.color is Color.RED


def test_holy_defender_halves_its_holders_score() -> None:
    game = byond(A, "HOLY G1 G2 G3 B4 B5 Y8", C)
    plain = 1 + 2 + 3 + 4 + 5 + 8
    assert game.hand_scores()[1] == plain // 2


def test_a_stacked_wild_draw_only_its_last_card_can_be_challenged() -> None:
    game = byond("W4 Y1 G2 G3 G4 G5 B6", "W4 G1 G2 G3 B4 B5 Y6", C)
    game.apply(0, "play W4 B")
    game.apply(1, "play W4 R")  # a bluff: seat 1 holds blue cards
    events = game.apply(2, "challenge")
    assert Challenged(2, 1, True) in events
    assert len(game.hands[1]) == 6 + 8 and game.color is Color.BLUE  # byond: color reverts


# ------------------------------------------------------------- special cards


def test_quitter_both_leave_and_the_one_left_wins() -> None:
    game = byond("QUIT R1 R2 R3 G4 G5 B6", B, C, first="G9")
    game.apply(0, "play QUIT @1")
    ended = game.hand_result
    assert ended is not None and ended.winner == 2
    assert game.hands[0] == [] and len(game.set_aside[0]) == 6 and conserved(game)
    # Penalty scoring: the quitters score their set-aside hands.
    assert ended.points == (1 + 2 + 3 + 4 + 5 + 6, 1 + 2 + 3 + 4 + 5 + 6 + 8, 0)


def test_quitter_with_more_players_play_goes_on() -> None:
    game = byond("QUIT R1 R2 R3 G4 G5 B6", B, C, D, first="G9")
    game.apply(0, "play QUIT @2")
    assert not game.hand_over and game.to_act == 1 and game.seats_in_hand() == [1, 3]
    assert game.legal_actions(0) == [] and game.legal_actions(2) == []


def test_quitter_heads_up_is_a_blocked_hand_between_the_two() -> None:
    game = byond("QUIT R1 R2 R3 G4 G5 B6", B, first="G9")
    game.apply(0, "play QUIT @1")
    ended = game.hand_result
    assert ended is not None and ended.blocked and ended.winner == 0


def test_quitter_blocked_hand_dung_compares_with_the_winners_empty_hand() -> None:
    # Seat 0 quits with seat 1: a blocked hand between the two, which seat 0 wins on the
    # tie (Dung raises seat 1 to 310 while both hold cards). Seat 0's hand then counts as
    # empty, so the Dung holder's own 121 stands: it is not raised to seat 0's 310.
    game = byond("QUIT WR4 WTP R1 R2 R3 G4", "DUNG G1 G2 G3 B4 B5 Y6", first="G9")
    game.apply(0, "play QUIT @1")
    ended = game.hand_result
    assert ended is not None and ended.blocked and ended.winner == 0
    assert ended.points == (0, 100 + 1 + 2 + 3 + 4 + 5 + 6)


def test_kobe_locks_its_holders_other_cards() -> None:
    game = byond("KOBE R1 R2 R3 G4 G5 B6", B, C, first="R9")
    assert not any(code.startswith("play") for code in legal(game, 0))
    with pytest.raises(IllegalAction, match="Kobe locks seat 0"):
        game.apply(0, "play R1")
    assert game.view_for(0).locked_by == Card.parse("KOBE")  # the view says why
    assert game.view_for(0).to_json()["locked_by"] == "KOBE"
    assert game.view_for(1).locked_by is None and game.view_for(None).locked_by is None
    game = byond("KOBE R1 R2 R3 G4 G5 B6", B, C, first="Y9")
    assert {code for code in legal(game, 0) if code.startswith("play")} == {"play KOBE"}
    game.apply(0, "play KOBE")
    game.apply(1, "play Y8")
    game.apply(2, "play Y4")
    give(game, 0, "R1 R2 Y3")
    assert "play Y3" in legal(game, 0)  # no Kobe held: no lock
    assert game.view_for(0).locked_by is None
    assert game.card_points(Card.parse("KOBE")) == 666


def test_blender_each_player_gets_someone_elses_hand() -> None:
    game = byond("BLEND R1 R2 R3 G4 G5 B6", B, C, D)
    before = [codes(h) for h in (game.hands[0][1:], *game.hands[1:])]
    game.apply(0, "play BLEND G")
    after = [codes(h) for h in game.hands]
    assert sorted(after) == sorted(before)
    assert all(after[s] != before[s] for s in range(4))


def test_randomizer_pools_and_deals_back_keeping_sizes() -> None:
    game = byond("RAND R1 R2 R3 G4 G5 B6", B, C)
    give(game, 2, "B1 B2 B3")
    pool = Counter(game.hands[0][1:] + game.hands[1] + game.hands[2])
    game.apply(0, "play RAND Y")
    assert [len(h) for h in game.hands] == [6, 7, 3]
    assert Counter(game.hands[0] + game.hands[1] + game.hands[2]) == pool


def test_trader_joe_swaps_hands_with_the_player_she_picks() -> None:
    game = byond("TRADE R1 R2 R3 G4 G5 B6", B, C)
    game.apply(0, "play TRADE G @2")
    assert codes(game.hands[0]) == sorted(C.split())
    assert codes(game.hands[2]) == sorted(["R1", "R2", "R3", "G4", "G5", "B6"])


def test_musical_chairs_everybody_gets_a_new_place_for_the_rest_of_the_match() -> None:
    game = byond("CHAIRS R1 R2 R3 G4 G5 B6", B, C, D)
    events = game.apply(0, "play CHAIRS G")
    reseated = next(e for e in events if isinstance(e, Reseated))
    assert all(reseated.seating[place] != place for place in range(4))
    assert game.to_act == game.seating[(game.position[0] + 1) % 4]
    # Heads-up, the two swap places.
    game = byond("CHAIRS R1 R2 R3 G4 G5 B6", B)
    game.apply(0, "play CHAIRS G")
    assert game.seating == [1, 0]


def test_dance_fever_swaps_places_with_a_partner_or_dances_alone() -> None:
    game = byond("DANCE R1 R2 R3 G4 G5 B6", B, C, D)
    assert {"play DANCE G", "play DANCE G @2"} <= legal(game, 0)
    game.apply(0, "play DANCE G @2")
    assert game.seating == [2, 1, 0, 3]
    assert game.to_act == 3  # the next after her new place
    game = byond("DANCE R1 R2 R3 G4 G5 B6", B, C, D)
    game.apply(0, "play DANCE G")
    assert game.seating == [0, 1, 2, 3] and game.to_act == 1


def test_the_dealer_rotation_follows_the_new_seating() -> None:
    game = byond("DANCE R1 R2 R3 G4 G5 B6", B, C, D, dealer=3)
    game.apply(0, "play DANCE G @2")  # seating [2, 1, 0, 3]
    give(game, 3, "G8")
    game.apply(3, "play G8")
    game.apply(0, "deal")
    assert game.dealer == 2  # left of seat 3 in the new order


def test_spy_the_two_see_each_others_hand_and_nobody_else_does() -> None:
    game = byond("SPY R1 R2 R3 G4 G5 B6", B, C)
    game.apply(0, "play SPY G @2")
    seen_by_0 = game.view_for(0).revealed
    seen_by_2 = game.view_for(2).revealed
    assert [r.seat for r in seen_by_0] == [2] and codes(seen_by_0[0].cards) == sorted(C.split())
    assert [r.seat for r in seen_by_2] == [0] and len(seen_by_2[0].cards) == 6
    assert game.view_for(1).revealed == () and game.view_for(None).revealed == ()
    game.apply(1, "draw")
    game.apply(1, "pass") if game.phase is Phase.DRAWN else None
    game.apply(2, "play G7")
    assert codes(game.view_for(0).revealed[0].cards) == sorted(set(C.split()) - {"G7"})


def test_dung_only_as_the_last_card() -> None:
    game = byond("DUNG R1 R2 R3 G4 G5 B6", B, C)
    assert "play DUNG G" not in legal(game, 0)
    with pytest.raises(IllegalAction, match="only be played as its player's last card"):
        game.apply(0, "play DUNG G")
    give(game, 0, "DUNG")
    game.apply(0, "play DUNG G")
    assert game.hand_over and game.hand_result is not None and game.hand_result.winner == 0


def test_dung_held_matches_the_highest_hand_score() -> None:
    game = byond(A, B, "W4 W B1 B2 B3 Y4 Y5")
    give(game, 1, "DUNG G1")
    scores = game.hand_scores()
    assert scores[2] == 50 + 50 + 1 + 2 + 3 + 4 + 5
    assert scores[1] == max(100 + 1, scores[0], scores[2])


def test_a_mutant_turned_up_first_goes_back_and_another_is_turned() -> None:
    for first in ("RSP", "WTP", "HOLY", "DUNG"):
        game = byond(A, B, first=first)
        assert any(isinstance(e, FirstCardReturned) for e in game.start_events)
        assert game.top.code != first and conserved(game)


def test_the_byond_deck_holds_every_mutant_and_counts_are_switches() -> None:
    game = byond(A, B)
    deck = Counter(card.code for card in game.rules.deck())
    assert len(game.rules.deck()) == 148
    assert deck["RSP"] == deck["BSS"] == deck["HOLY"] == deck["DUNG"] == 1
    more = byond(A, B, cards={"SP": 2, "DUNG": 0})
    deck = Counter(card.code for card in more.rules.deck())
    assert deck["GSP"] == 2 and deck["DUNG"] == 0 and len(more.rules.deck()) == 148 + 4 - 1


def test_hand_end_with_penalty_scoring() -> None:
    game = byond(A, B, C)
    give(game, 0, "R1")
    events = game.apply(0, "play R1")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.points == (0, 1 + 2 + 3 + 4 + 5 + 6 + 8, 1 + 2 + 3 + 4 + 5 + 6 + 7)


def test_a_spy_reveal_outlasts_an_earlier_showing_of_the_same_hand() -> None:
    # Seat 2 was shown seat 0's hand once (a snapshot); then a Spy shows it live: the view
    # holds one reveal of seat 0, live, and it follows her hand.
    game = byond("SPY R1 R2 R3 G4 G5 B6", B, C)
    game.reveals.append((2, 0, tuple(Card.parse(c) for c in ["R1", "R2"])))
    game.apply(0, "play SPY G @2")
    seen = game.view_for(2).revealed
    assert [(r.seat, r.live) for r in seen] == [(0, True)]
    assert codes(seen[0].cards) == sorted(["R1", "R2", "R3", "G4", "G5", "B6"])
    give(game, 0, "Y9")
    assert "Y9" in codes(game.view_for(2).revealed[0].cards)
    assert game.view_for(2).to_json()["revealed"][0]["live"] is True


def test_endhand_every_player_takes_the_points_in_her_hand_and_the_game_goes_on() -> None:
    game = byond("R1 R2 R3 G4 G5 B6 Y9", B, C)
    held = game.hand_scores()
    events = game.apply(1, "endhand")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.ended and ended.points == tuple(held) and game.scores == held
    assert ended.describe(game.names).startswith("the hand is ended")
    assert game.phase is Phase.HAND_OVER and game.hand_number == 1
    assert "endhand" not in legal(game, 0) and game.why_illegal(0, "endhand")
    game.apply(0, "deal")
    assert game.hand_number == 2 and game.scores == held
    assert all("endhand" not in legal(game, s) and "endgame" not in legal(game, s)
               for s in range(3))  # fmt: skip


def test_endgame_the_match_ends_on_the_totals_of_the_hands_played() -> None:
    game = byond("R1 R2 R3 G4 G5 B6 Y9", B, C)
    game.apply(1, "endhand")
    totals = list(game.scores)
    game.apply(0, "deal")
    game.apply(2, "endgame")
    assert game.match_over and game.scores == totals  # the hand in play is not scored
    assert game.winner == totals.index(min(totals))  # BYOND scores penalties: lowest wins
    with pytest.raises(IllegalAction, match="the match is over"):
        game.apply(0, "endhand")
