"""The declared game state (una/engine/state.py): nothing outside it changes in play, and
copies, JSON and loaded positions carry all of it."""

from __future__ import annotations

import random

import pytest

from una.bots.belief import Belief
from una.bots.random_bot import pick
from una.engine import Game
from una.engine.presets import PRESETS
from una.engine.state import FIELDS, NAMES, HandState, Kind

PRESET_NAMES = sorted(PRESETS)


def positions(preset: str, players: int, seed: int, moves: int = 400) -> list[Game]:
    """Copies of a random game every few actions, over hands and deals."""
    game = Game(preset, players, seed=seed)
    rng = random.Random(seed)
    out = []
    for step in range(moves):
        if game.match_over:
            break
        seat = game.to_act if game.to_act is not None else game.dealer
        game.apply(seat, pick(game.legal_actions(seat), rng))
        if step % 7 == 0:
            out.append(game.copy())
    return out


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_nothing_but_the_declared_state_changes_in_play(preset: str) -> None:
    game = Game(preset, 4, seed=3)
    before = {k: v for k, v in vars(game).items() if k != "_events"}
    rng = random.Random(3)
    for _ in range(600):
        if game.match_over:
            break
        seat = game.to_act if game.to_act is not None else game.dealer
        game.apply(seat, pick(game.legal_actions(seat), rng))
    after = {k: v for k, v in vars(game).items() if k != "_events"}
    # A piece of state kept outside una.engine.state would show up here.
    assert after.keys() == before.keys()
    assert all(after[k] is before[k] for k in before), [
        k for k in before if after[k] is not before[k]
    ]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_copy_and_json_carry_every_field(preset: str) -> None:
    for game in positions(preset, 3, seed=11):
        twin = game.copy()
        state = HandState.of(game)
        assert HandState.of(twin) == state
        assert HandState.from_json(state.to_json()) == state
        for field in FIELDS:  # independent copies: nothing mutable is shared
            mine, theirs = getattr(game, field.name), getattr(twin, field.name)
            if field.kind in (Kind.LIST, Kind.CARDS, Kind.SEAT_CARDS, Kind.REVEALS, Kind.RNG):
                assert mine is not theirs, field.name
        if not twin.hand_over:
            seat = twin.to_act
            assert seat is not None
            twin.apply(seat, twin.legal_actions(seat)[0])
            assert HandState.of(game) == state  # playing the copy leaves the game as it was


def test_a_loaded_position_plays_as_the_original() -> None:
    for game in positions("byond", 4, seed=5):
        other = Game("byond", 4, seed=12345)
        HandState.of(game).load(other)
        for _ in range(30):
            if game.hand_over:
                break
            seat = game.to_act
            assert seat is not None
            assert game.legal_actions(seat) == other.legal_actions(seat)
            action = game.legal_actions(seat)[-1]
            assert game.apply(seat, action) == other.apply(seat, action)
            assert HandState.of(game) == HandState.of(other)


def test_create_wants_every_field() -> None:
    values = HandState.of(Game("standard", 2, seed=1)).to_json()
    state = HandState.from_json(values)
    with pytest.raises(TypeError, match="missing fields nagasaki_lock"):
        HandState.create(**{name: getattr(state, name) for name in NAMES[:-1]})
    with pytest.raises(TypeError, match="unknown fields spare"):
        HandState.create(spare=1, **{name: getattr(state, name) for name in NAMES})
    with pytest.raises(ValueError, match="missing fields rng"):
        HandState.from_json({k: v for k, v in values.items() if k != "rng"})


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_belief_samples_a_full_position(preset: str) -> None:
    """The belief builds its sampled games through HandState.create (every field): the
    sample agrees with the real game on every public field."""
    public = {"scores", "seating", "position", "hand_number", "dealer", "direction",
              "active", "players_in_hand", "color", "to_act", "phase", "pending_draw",
              "drawn", "ranking"}  # fmt: skip
    assert public < set(NAMES)
    for game in positions(preset, 3, seed=21):
        if game.hand_over:
            continue
        seat = game.to_act
        assert seat is not None
        sampled = Belief(seat).sample(game.view_for(seat), random.Random(1))
        for name in public:
            assert getattr(sampled, name) == getattr(game, name), name
        assert [len(h) for h in sampled.hands] == [len(h) for h in game.hands]
        assert sorted(c.code for c in sampled.all_cards()) == sorted(
            c.code for c in game.all_cards()
        )
