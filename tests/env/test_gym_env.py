"""una.env.single: the Gymnasium single-agent environment against Una's bots."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import (
    check_reset_return_type,
    check_reset_seed_determinism,
)
from gymnasium.utils.passive_env_checker import (
    env_reset_passive_checker,
    env_step_passive_checker,
)

from una.bots.registry import UnknownBot
from una.env import UnaGymEnv


def test_gymnasium_checks() -> None:
    """Gymnasium's checkers, but those that step unmasked random actions (an illegal
    index raises here, by design)."""
    env = UnaGymEnv("standard", players=2, opponents="random", seed=1)
    check_reset_return_type(env)
    check_reset_seed_determinism(env)
    obs, _ = env_reset_passive_checker(env, seed=3)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env_step_passive_checker(env, legal)


@pytest.mark.parametrize(
    ("rules", "players", "opponents"),
    [
        ("standard", 2, "heuristic"),
        ("telegram", 4, ["random", "heuristic:2"]),
        ("byond", 3, "heuristic"),
    ],
)
def test_episodes_against_bots(rules: str, players: int, opponents: str | list[str]) -> None:
    env = UnaGymEnv(rules, players=players, opponents=opponents, seat=1, seed=3, max_steps=4000)
    rng = random.Random(0)
    for _ in range(3):
        obs, info = env.reset()
        while True:
            mask = obs["action_mask"]
            assert mask.any() and len(info["legal"]) == int(mask.sum())
            legal = np.flatnonzero(mask)
            obs, reward, terminated, truncated, info = env.step(
                int(legal[rng.randrange(len(legal))])
            )
            if terminated or truncated:
                break
            assert reward == 0.0
            assert env.table.selected == 1
        assert not obs["action_mask"].any() and info["legal"] == []
        if terminated:
            winner = env.table.game.hand_result.winner
            assert reward == (1.0 if winner == 1 else -1.0 / (players - 1))
    if isinstance(opponents, list):
        assert [env.bots[s].spec for s in (0, 2, 3)] == ["random", "heuristic:2", "random"]


def test_the_same_seed_gives_the_same_episode() -> None:
    def run() -> list[np.ndarray]:
        env = UnaGymEnv("standard", players=3, opponents="heuristic")
        obs, _ = env.reset(seed=21)
        seen = [obs["observation"]]
        rng = random.Random(4)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
            seen.append(obs["observation"])
            done = terminated or truncated
        return seen

    a, b = run(), run()
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_a_search_bot_that_watches_the_table_can_be_an_opponent() -> None:
    env = UnaGymEnv("standard", players=2, opponents="strong:easy", think_ms=2, seed=5)
    obs, _ = env.reset()
    assert env.bots[1].observes
    legal = np.flatnonzero(obs["action_mask"])
    env.step(int(legal[0]))


def test_bad_parameters_are_named() -> None:
    with pytest.raises(UnknownBot, match="unknown bot 'nobody'"):
        UnaGymEnv(opponents="nobody")
    with pytest.raises(ValueError, match="seat must be a seat number 0-1, not 2"):
        UnaGymEnv(seat=2)
    with pytest.raises(ValueError, match="name at least one bot"):
        UnaGymEnv(opponents=[])
    env = UnaGymEnv(seed=1)
    obs, _ = env.reset()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal now"):
        env.step(illegal)
