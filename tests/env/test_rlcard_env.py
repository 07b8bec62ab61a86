"""una.env.rlcard_env: Una's rules under RLCard's own Env API, agents and helpers."""

from __future__ import annotations

import numpy as np
import pytest
import rlcard
from rlcard.agents import RandomAgent
from rlcard.utils import reorganize, tournament

from una.env.rlcard_env import UnaRLCardEnv


def test_rlcard_make_and_tournament_with_its_random_agent() -> None:
    env = rlcard.make("una", config={"seed": 4, "game_num_players": 3, "rules": "telegram"})
    assert isinstance(env, UnaRLCardEnv)
    assert env.num_players == 3 and env.num_actions == len(env.table.space)
    assert env.state_shape == [[env.table.encoder.size]] * 3
    env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
    np.random.seed(0)  # RLCard's random agent draws from numpy's global generator
    payoffs = tournament(env, 5)
    assert len(payoffs) == 3 and sum(payoffs) == pytest.approx(0.0, abs=1e-9)


def test_training_trajectories_reorganize_as_rlcard_agents_expect() -> None:
    env = UnaRLCardEnv({"seed": 1, "allow_step_back": False, "rules": "standard"})
    env.set_agents([RandomAgent(env.num_actions) for _ in range(2)])
    np.random.seed(1)
    trajectories, payoffs = env.run(is_training=True)
    transitions = reorganize(trajectories, payoffs)
    assert sorted(payoffs.tolist()) == [-1.0, 1.0]
    for seat, seat_transitions in enumerate(transitions):
        assert seat_transitions, f"seat {seat} made no decision"
        state, action, reward, _next_state, done = seat_transitions[-1]
        assert done and reward == payoffs[seat]
        assert action in state["legal_actions"]
        assert state["obs"].shape == (env.table.encoder.size,)
        assert len(state["raw_legal_actions"]) == len(state["legal_actions"])
        assert state["raw_obs"]["seat"] == seat


def test_raw_actions_are_codes() -> None:
    env = UnaRLCardEnv({"seed": 2, "allow_step_back": False})
    state, _ = env.reset()
    code = state["raw_legal_actions"][0]
    index = next(iter(state["legal_actions"]))
    assert env.table.space.code(index) == code
    _, next_player = env.step(code, raw_action=True)
    assert env.table.steps == 1 and next_player == env.get_player_id()
    assert env.get_perfect_information()["state"]["hands"]


def test_bad_config_and_actions_are_named() -> None:
    with pytest.raises(ValueError, match="unknown config key"):
        UnaRLCardEnv({"seed": 1, "allow_step_back": False, "rulez": "standard"})
    with pytest.raises(ValueError, match="cannot step back"):
        UnaRLCardEnv({"seed": 1, "allow_step_back": True})
    env = UnaRLCardEnv({"seed": 1, "allow_step_back": False})
    state, _ = env.reset()
    illegal = next(i for i in range(env.num_actions) if i not in state["legal_actions"])
    with pytest.raises(ValueError, match="is not legal now"):
        env.step(illegal)
    with pytest.raises(ValueError, match="unknown action code"):
        env.step("play R99", raw_action=True)
