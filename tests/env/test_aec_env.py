"""una.env.aec and una.env.core: PettingZoo's own checks on every preset, determinism,
rewards, out-of-turn decisions, matches, and errors for bad input."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from una.engine import PRESETS, InvalidRules
from una.engine.actions import Kind
from una.env import aec_env
from una.env.core import EnvTable

# PettingZoo's api_test warns about any dict observation (its own classic games too).
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array",
)

#: Each preset at a table it allows, the largest for BYOND's picking cards.
TABLES = {"standard": 2, "alupula": 3, "telegram": 4, "byond": 6}


def test_every_preset_has_a_table() -> None:
    assert set(TABLES) == set(PRESETS)


@pytest.mark.parametrize("rules", sorted(TABLES))
def test_pettingzoo_api_test(rules: str) -> None:
    api_test(aec_env(rules, players=TABLES[rules], seed=3), num_cycles=150)


@pytest.mark.parametrize("rules", sorted(TABLES))
def test_pettingzoo_seed_test(rules: str) -> None:
    seed_test(lambda: aec_env(rules, players=TABLES[rules]), num_cycles=150)


def test_api_test_on_a_match_with_switches() -> None:
    env = aec_env(
        "standard", players=3, reward="match", overrides=["target=60", "jump_in=true"], seed=2
    )
    api_test(env, num_cycles=150)


def play(env: Any, rng: random.Random) -> tuple[list[np.ndarray], list[int], dict[str, float]]:
    """One episode of random masked actions: every observation seen, the actions, and
    each agent's total reward."""
    observations, actions = [], []
    totals: Counter[str] = Counter()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        observations.append(obs["observation"])
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        actions.append(action)
        env.step(action)
    return observations, actions, dict(totals)


@pytest.mark.parametrize("rules", sorted(TABLES))
def test_same_seed_and_actions_give_the_same_observations(rules: str) -> None:
    runs = []
    for _ in range(2):
        env = aec_env(rules, players=TABLES[rules])
        env.reset(seed=99)
        runs.append(play(env, random.Random(5)))
    (obs_a, actions_a, totals_a), (obs_b, actions_b, totals_b) = runs
    assert actions_a == actions_b and totals_a == totals_b
    assert len(obs_a) == len(obs_b)
    assert all(np.array_equal(a, b) for a, b in zip(obs_a, obs_b, strict=True))
    other = aec_env(rules, players=TABLES[rules])
    other.reset(seed=100)
    other_obs, _, _ = play(other, random.Random(5))
    assert not all(np.array_equal(a, b) for a, b in zip(obs_a[:10], other_obs[:10], strict=False))


def test_resets_without_a_seed_follow_the_construction_seed() -> None:
    first = [aec_env("standard", seed=8) for _ in range(2)]
    for env in first:
        env.reset()
        env.reset()  # the second episode of the sequence
    a, b = (env.observe(env.agent_selection)["observation"] for env in first)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("payoff", ["win", "points"])
@pytest.mark.parametrize("rules", sorted(TABLES))
def test_rewards_are_zero_sum(rules: str, payoff: str) -> None:
    rng = random.Random(rules + payoff)
    for seed in range(3):
        env = aec_env(rules, players=TABLES[rules], seed=seed, payoff=payoff, max_steps=3000)
        _, _, totals = play(env, rng)
        table = env.table
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-6)
        if table.truncated:
            assert set(totals.values()) == {0.0}
            continue
        winner = table.game.hand_result.winner
        if payoff == "win" or table.rules.scoring == "winner_takes_all":
            assert max(totals, key=lambda agent: totals[agent]) == f"seat_{winner}"
        if payoff == "win":
            assert totals[f"seat_{winner}"] == 1.0


def test_points_follow_the_scoring() -> None:
    table = EnvTable("standard", players=3, seed=4, payoff="points")
    rng = random.Random(1)
    while not table.done:
        legal = np.flatnonzero(table.mask)
        table.step(int(legal[rng.randrange(len(legal))]))
    points = table.game.hand_result.points  # winner takes all: [P at the winner, 0, 0]
    mean = sum(points) / 3
    assert table.rewards == pytest.approx([p - mean for p in points])
    byond = EnvTable("byond", players=3, seed=4, payoff="points", max_steps=5000)
    while not byond.done:
        legal = np.flatnonzero(byond.mask)
        byond.step(int(legal[rng.randrange(len(legal))]))
    if not byond.truncated:  # penalty scoring: fewer points is better
        points = byond.game.hand_result.points
        assert byond.rewards == pytest.approx([sum(points) / 3 - p for p in points])


def test_a_match_deals_every_hand_and_pays_at_its_end() -> None:
    table = EnvTable("standard", players=2, seed=6, reward="match", overrides=["target=100"])
    rng = random.Random(2)
    deals = 0
    while not table.done:
        if table.game.hand_over:
            assert list(table.legal) == [table.space.deal] and not table.offering
            deals += 1
        legal = np.flatnonzero(table.mask)
        table.step(int(legal[rng.randrange(len(legal))]))
        if not table.done:
            assert table.rewards == [0.0, 0.0]
    assert table.game.match_over and deals == table.game.hand_number - 1 >= 1
    assert table.rewards[table.game.winner] == 1.0


def test_out_of_turn_decisions_are_reachable() -> None:
    """Catches and jump-ins are taken by seats that are not to act, offered with wait."""
    kinds: Counter[str] = Counter()
    for seed in range(12):
        table = EnvTable("standard", players=3, seed=seed, overrides=["jump_in=true"])
        rng = random.Random(seed)
        while not table.done:
            legal = np.flatnonzero(table.mask).tolist()
            if table.offering:
                assert table.space.wait in legal and table.selected != table.game.to_act
                assert table.space.wait not in table.legal
            else:
                assert table.space.wait not in legal
            choice = legal[rng.randrange(len(legal))]
            if table.offering and choice != table.space.wait:
                kinds[table.legal[choice].kind.value] += 1
            table.step(choice)
    assert kinds["catch"] > 0 and kinds["play"] > 0  # jump-ins are plays out of turn


def test_only_the_selected_agent_has_a_mask() -> None:
    env = aec_env("telegram", players=4, seed=1)
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == env.agent_selection)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = aec_env("standard", players=2, seed=1)
    before = env.game.state_json()
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=rf"action {illegal} \(.*\) is not legal now; seat"):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range 0-131"):
        env.step(500)
    with pytest.raises(ValueError, match="must be an index"):
        env.step("draw")
    with pytest.raises(ValueError, match="must be an index"):
        env.step(1.0)
    assert env.game.state_json() == before and env.agent_selection == agent
    env.step(int(np.flatnonzero(mask)[0]))  # still playable


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rules": "standrad"}, "unknown preset 'standrad'"),
        ({"overrides": ["stack_draw_too=true"]}, "did you mean 'stack_draw_two'"),
        ({"overrides": ["nonsense"]}, "expected SWITCH=VALUE"),
        ({"players": 11}, "these rules seat 2 to 10, not 11"),
        ({"rules": "byond", "players": 9}, "these rules seat 2 to 8, not 9"),
        ({"reward": "turn"}, "reward must be one of hand, match, not 'turn'"),
        ({"payoff": "money"}, "payoff must be one of win, points"),
        ({"max_steps": 0}, "max_steps must be a positive whole number"),
        ({"render_mode": "rgb"}, "render_mode must be human, ansi or None"),
    ],
)
def test_bad_parameters_are_named(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, InvalidRules), match=message):
        aec_env(**kwargs)


def test_rules_read_like_the_cli() -> None:
    env = aec_env('{"preset": "telegram", "jump_in": true}', players=3, overrides={"target": 99})
    assert env.table.rules.jump_in and env.table.rules.target == 99
    assert str(env.table.rules) == "telegram jump_in=True target=99"


def test_render_ansi_names_the_decision() -> None:
    env = aec_env("standard", players=2, seed=1, render_mode="ansi")
    text = env.render()
    assert text is not None and f"seat {env.table.selected} decides: " in text
    assert any(slot.kind is Kind.DRAW for slot in env.space.slots)


@pytest.mark.parametrize("rules", sorted(TABLES))
def test_the_core_paths_of_observe_last_and_step_match_the_python_table(rules: str) -> None:
    """UnaAECEnv reads the C table's buffers and steps it directly: every agent's
    observation, ``last()`` and the episode's end are those of the Python table."""
    players = TABLES[rules]
    envs = [aec_env(rules, players=players, seed=3, core=core) for core in (None, False)]
    assert type(envs[0].table).__name__ == "CoreTable"
    rng = random.Random(rules)
    for agent in envs[0].agent_iter():
        fast, slow = (env.last() for env in envs)
        assert np.array_equal(fast[0]["observation"], slow[0]["observation"])
        assert np.array_equal(fast[0]["action_mask"], slow[0]["action_mask"])
        assert fast[0]["action_mask"].dtype == np.int8 and fast[1:] == slow[1:]
        assert envs[0].last(observe=False)[0] is None
        other = envs[0].possible_agents[rng.randrange(players)]
        for env in envs:  # a copy each time, never the table's own buffers
            env.observe(other)["observation"][:] = -1.0
            env.observe(other)["action_mask"][:] = 5
        assert all(np.array_equal(envs[0].observe(a)[k], envs[1].observe(a)[k])
                   for a in envs[0].agents for k in ("observation", "action_mask"))  # fmt: skip
        assert agent == envs[1].agent_selection
        if fast[2] or fast[3]:
            action = None
        else:
            legal = np.flatnonzero(fast[0]["action_mask"])
            action = legal[rng.randrange(len(legal))]  # numpy's integer half the time
            action = int(action) if rng.random() < 0.5 else action
        for env in envs:
            env.step(action)
    assert not envs[1].agents and envs[0].rewards == envs[1].rewards


def test_illegal_actions_on_the_core_path_are_refused_as_on_the_python_table() -> None:
    envs = [aec_env("standard", players=2, seed=4, core=core) for core in (None, False)]
    mask = envs[0].observe(envs[0].agent_selection)["action_mask"]
    for action in (int(np.flatnonzero(mask == 0)[0]), 500, -1, np.int64(500), True, "draw"):
        messages = []
        for env in envs:
            with pytest.raises(ValueError) as refused:
                env.step(action)
            messages.append(str(refused.value))
        assert messages[0] == messages[1]
