"""The driver: hands and matches with bots, out-of-turn offers in a rotating order."""

from __future__ import annotations

import random

import pytest

from una.bots import make_bot
from una.engine import Action, Game, Kind, View
from una.engine.record import stacked_deck
from una.sim.driver import StuckGame, Table


def rngs(n: int) -> list[random.Random]:
    return [random.Random(seat) for seat in range(n)]


def test_a_hand_and_a_match() -> None:
    game = Game({"preset": "standard", "target": 80}, players=3, seed=4)
    table = Table(game, [make_bot("heuristic") for _ in range(3)], rngs(3))
    result = table.play_hand()
    assert game.hand_over and result.winner in range(3)
    assert table.actions == len(game.log)
    winner = table.play_match()
    assert game.match_over and winner == game.winner
    assert game.hand_number >= 1 and sum(table.turns) <= table.actions
    # The record of a driven game replays to the same state.
    assert game.to_record().replay().state_json() == game.state_json()


class Forgetful:
    """Plays its first legal play without ever calling UNO (so it can be caught)."""

    def choose(self, view: View, rng: random.Random) -> Action | None:
        if view.to_act != view.seat and not view.hand_over:
            return None
        plays = [a for a in view.legal if a.kind is Kind.PLAY and not a.uno]
        others = [a for a in view.legal if a.kind not in (Kind.UNO, Kind.CATCH, Kind.PLAY)]
        return (plays or others)[0]


def test_out_of_turn_catches_are_offered() -> None:
    # Seat 1 (first to play) holds only red on a red 9 and never calls UNO; when she is
    # down to one card, the heuristic bot in seat 0 catches her.
    hands = [["G1", "G2", "G3", "G4", "G5", "G6", "G7"], ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]]
    deck = stacked_deck("standard", hands, "R9")
    game = Game("standard", players=2, seed=1, decks=[deck])
    events: list[str] = []
    table = Table(
        game,
        [make_bot("heuristic"), Forgetful()],
        rngs(2),
        listener=lambda seat, action, evs: events.append(f"{seat}:{action.code}"),
    )
    table.play_hand()
    assert any(e.startswith("0:catch @1") for e in events), events


def test_offers_rotate_between_seats() -> None:
    """Everybody forgets UNO and nobody catches: after each action the seats that could
    catch are offered the chance, and the first one asked is not always the same."""
    firsts: list[int] = []
    last_round = [-1]

    class Recorder(Forgetful):
        def __init__(self, seat: int) -> None:
            self.seat = seat

        def choose(self, view: View, rng: random.Random) -> Action | None:
            if view.to_act != view.seat and not view.hand_over:
                assert view.legal  # a catch, or its own UNO call
                if table.actions != last_round[0]:
                    last_round[0] = table.actions
                    firsts.append(self.seat)
                return None
            return super().choose(view, rng)

    for seed in range(6):
        game = Game("standard", players=4, seed=seed)
        table = Table(game, [Recorder(s) for s in range(4)], rngs(4))
        table.play_hand()
    assert len(set(firsts)) > 1, firsts


def test_an_agent_that_does_not_act_is_stuck() -> None:
    class Idle:
        def choose(self, view: View, rng: random.Random) -> Action | None:
            return None

    game = Game("standard", players=2, seed=1)
    with pytest.raises(StuckGame):
        Table(game, [Idle(), Idle()], rngs(2)).play_hand()
    with pytest.raises(ValueError):
        Table(game, [Idle()], rngs(2))
