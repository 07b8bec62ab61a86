"""una.env.rlcard_env: Una's rules under RLCard's own Env API, agents and helpers."""

from __future__ import annotations

import glob
import os
import random
import re
import sys
from collections.abc import Iterator
from typing import Any

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


# RLCard's DQN and NFSP train on torch: the extra rl-train, its CPU wheel pinned (pyproject.toml).
TORCH_WHEEL = "torch-2.13.0+cpu-cp{0}{1}-cp{0}{1}-*.whl".format(*sys.version_info[:2])


@pytest.fixture(scope="module")
def torch() -> Iterator[Any]:
    """torch, seeded and on one thread; or a skip where it is not installed: a failure
    under ``CI=true`` when its wheel is on disk (``scripts/setup`` installs it from there,
    so a CI run without it is a broken setup), as ``tests/conftest.py`` does for the core."""
    try:
        import torch
    except ImportError:
        wheels = os.environ.get("UNA_TORCH_WHEELS", "/opt/wheels")
        message = "torch is not installed (./scripts/setup installs it where its wheel is)"
        if os.environ.get("CI") == "true" and glob.glob(os.path.join(wheels, TORCH_WHEEL)):
            pytest.fail(f"{message}: {wheels} holds {TORCH_WHEEL}")
        pytest.skip(message)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield torch
    torch.set_num_threads(threads)


def _losses(output: str, kind: str) -> list[float]:
    """The losses RLCard's agents print as they train (``INFO - Step 12, rl-loss: 0.3``)."""
    return [float(x) for x in re.findall(rf"{kind}-loss: ([-+\d.e]+|nan|inf)", output)]


def _evaluate(env: UnaRLCardEnv, agents: list[Any], games: int) -> list[int]:
    """``games`` hands by the agents' ``eval_step``, each action checked against its state's
    legal actions (the table would refuse an illegal one too); the actions taken."""
    taken = []
    for _ in range(games):
        state, seat = env.reset()
        while not env.is_over():
            action, _info = agents[seat].eval_step(state)
            assert action in state["legal_actions"], (seat, action)
            taken.append(int(action))
            state, seat = env.step(action)
        assert sum(env.get_payoffs()) == pytest.approx(0.0, abs=1e-9)
    return taken


def _seeded_env(torch: Any, seed: int) -> Any:
    """Una's RLCard env on telegram, with torch, numpy and random seeded alike (the agents'
    exploration and their replay memories' samples draw from them)."""
    torch.manual_seed(seed)
    np.random.seed(seed)
    random.seed(seed)
    config = {"seed": seed, "rules": "telegram", "game_num_players": 2, "max_steps": 400}
    return rlcard.make("una", config=config)


def test_rlcards_dqn_trains_unchanged_on_the_full_rules(torch: Any, capsys: Any) -> None:
    from rlcard.agents import DQNAgent

    env = _seeded_env(torch, 0)
    dqn = DQNAgent(
        num_actions=env.num_actions,
        state_shape=env.state_shape[0],
        mlp_layers=[64],
        replay_memory_init_size=100,
        update_target_estimator_every=100,
        epsilon_decay_steps=1000,
        train_every=2,
        learning_rate=1e-3,
    )
    env.set_agents([dqn, RandomAgent(env.num_actions)])
    before = [p.detach().clone() for p in dqn.q_estimator.qnet.parameters()]
    while dqn.total_t < 800:
        trajectories, payoffs = env.run(is_training=True)
        for transition in reorganize(trajectories, payoffs)[0]:
            dqn.feed(transition)
    losses = _losses(capsys.readouterr().out, "rl")
    assert dqn.train_t == len(losses) > 300
    assert all(np.isfinite(losses))
    after = list(dqn.q_estimator.qnet.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(before, after, strict=True))
    taken = _evaluate(env, [dqn, RandomAgent(env.num_actions)], 3)
    assert len(set(taken)) > 3  # greedy, but not one fixed index


def test_rlcards_nfsp_trains_unchanged_on_the_full_rules(torch: Any, capsys: Any) -> None:
    from rlcard.agents import NFSPAgent

    env = _seeded_env(torch, 1)
    agents = [
        NFSPAgent(
            num_actions=env.num_actions,
            state_shape=env.state_shape[0],
            hidden_layers_sizes=[64],
            q_mlp_layers=[64],
            anticipatory_param=0.5,
            batch_size=64,
            min_buffer_size_to_learn=64,
            train_every=4,
            q_replay_memory_init_size=100,
            q_train_every=4,
            sl_learning_rate=5e-3,
            rl_learning_rate=1e-3,
        )
        for _ in range(2)
    ]
    env.set_agents(agents)
    while min(agent.total_t for agent in agents) < 600:
        for agent in agents:
            agent.sample_episode_policy()
        trajectories, payoffs = env.run(is_training=True)
        for agent, transitions in zip(agents, reorganize(trajectories, payoffs), strict=True):
            for transition in transitions:
                agent.feed(transition)
    output = capsys.readouterr().out
    sl, rl = _losses(output, "sl"), _losses(output, "rl")
    assert len(sl) > 20 and len(rl) > 20 and all(np.isfinite(sl + rl))
    # The average policy learns from the best responses' choices (cross-entropy): it
    # starts near ln(132) = 4.9 (uniform over the actions) and soon puts its mass on the
    # few a best response picks in the states it is shown.
    assert sl[0] > 4.0 > 1.5 > np.mean(sl[-10:]), (sl[:10], sl[-10:])
    taken = _evaluate(env, agents, 3)
    assert len(set(taken)) > 3
