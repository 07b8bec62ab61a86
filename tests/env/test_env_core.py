"""una.env.core.CoreTable: the C table plays the Python table's episodes, step by step.

Both tables are stepped with the same random masked indexes; after every step the seat
selected, whether it is offered an out-of-turn chance, the action mask and every seat's
observation (written in C into the table's buffer) must be the Python table's, and at
the end the rewards, and the replayed Python game the state of the other's.
"""

from __future__ import annotations

import copy
import pickle
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_env_observation import RULE_SETS

from una.engine import RuleSet, fast
from una.engine.errors import IllegalAction
from una.env import aec_env
from una.env.core import CoreTable, EnvTable, core_slots, make_table
from una.env.observation import PHASES

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bots"))
from botviews import tables

pytestmark = pytest.mark.usefixtures("core")  # skipped (failed under CI) without the core


def play_both(rules: RuleSet | str, players: int, seed: int, max_steps: int = 1500,
              overrides: tuple[str, ...] = (), reward: str = "hand") -> CoreTable:  # fmt: skip
    """Steps both tables alike to the end, comparing them after every step."""
    options = {"seed": seed, "max_steps": max_steps, "overrides": overrides, "reward": reward}
    core = CoreTable(rules, players, **options)
    python = EnvTable(rules, players, **options)
    rng = random.Random(seed)
    while True:
        where = (str(python.rules), players, seed, python.steps)
        assert (core.selected, core.offering) == (python.selected, python.offering), where
        assert np.array_equal(core.mask, python.mask), where
        for seat in range(players):
            assert np.array_equal(core.observe(seat), python.observe(seat)), (*where, seat)
        if python.done:
            break
        legal = np.flatnonzero(python.mask)
        index = int(legal[rng.randrange(len(legal))])
        assert core.step(index) == python.step(index), where
    assert (core.done, core.truncated, core.steps) == (True, python.truncated, python.steps)
    assert core.rewards == python.rewards
    assert core.game.state_json() == python.game.state_json()
    return core


@pytest.mark.parametrize("rules,overrides", RULE_SETS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_tables_agree_on_every_preset(
    rules: str, overrides: tuple[str, ...], players: int
) -> None:
    for seed in range(3):
        play_both(rules, players, seed, overrides=overrides)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32))
def test_the_tables_agree_on_any_rule_set(table: tuple[RuleSet, int], seed: int) -> None:
    rules, players = table
    if fast.supports(rules, players):
        play_both(rules, players, seed, max_steps=600)


def test_the_tables_agree_over_a_match() -> None:
    hands = [play_both("standard", 2, seed, 5000, reward="match").game.hand_number
             for seed in range(4)]  # fmt: skip
    assert max(hands) >= 2  # a deal was among the steps


def test_the_python_game_follows_the_core_midway() -> None:
    core = CoreTable("byond", 3, seed=2)
    python = EnvTable("byond", 3, seed=2)
    rng = random.Random(2)
    for _ in range(60):
        legal = np.flatnonzero(python.mask)
        index = int(legal[rng.randrange(len(legal))])
        core.step(index)
        python.step(index)
        if rng.random() < 0.3:  # read now and then: each read replays what came since
            assert core.game.state_json() == python.game.state_json()
            assert core.events == python.events
            assert core.legal == python.legal
        if python.done:
            break


def test_an_illegal_index_changes_nothing_and_says_the_same() -> None:
    core, python = CoreTable("standard", 2, seed=1), EnvTable("standard", 2, seed=1)
    before = core.game.state_json()
    illegal = next(i for i in range(len(core.space)) if not python.mask[i])
    for bad in (illegal, -1, len(core.space), True, "draw"):
        with pytest.raises(ValueError) as core_error:
            core.step(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError) as python_error:
            python.step(bad)  # type: ignore[arg-type]
        assert str(core_error.value) == str(python_error.value)
    assert core.game.state_json() == before and core.steps == 0
    core.step(np.int64(np.flatnonzero(core.mask)[0]))  # numpy integers are indexes too
    assert core.steps == 1


def test_act_takes_engine_actions_with_an_index() -> None:
    core, python = CoreTable("standard", 2, seed=3), EnvTable("standard", 2, seed=3)
    action = next(iter(python.legal.values()))
    core.act(action)
    python.act(action)
    assert core.game.state_json() == python.game.state_json() and core.steps == 1
    illegal = next(slot.action for slot in core.space.slots
                   if slot.action is not None and slot.index not in core.legal)  # fmt: skip
    with pytest.raises(IllegalAction):
        core.act(illegal)
    assert core.steps == 1


def test_make_table_chooses_the_core_where_it_plays_the_rules() -> None:
    assert type(make_table("byond", 3)) is CoreTable
    assert type(make_table("byond", 3, core=False)) is EnvTable
    unsupported = {"preset": "byond", "cards": {"KOBE": 8, "SP": 8}}
    assert not fast.supports(unsupported, 2)
    assert type(make_table(unsupported, 2)) is EnvTable
    with pytest.raises(fast.CoreUnsupported):
        make_table(unsupported, 2, core=True)
    assert type(aec_env("standard", 2, core=False).table) is EnvTable
    assert type(aec_env("standard", 2).table) is CoreTable


def test_a_layout_the_table_does_not_write_is_refused() -> None:
    table = CoreTable("standard", 2, seed=1)
    fields = {name: (part.start, part.stop) for name, part in table.encoder.fields.items()}
    slots = core_slots(table.space)
    args = (table.rules, 2, slots, fields, table.encoder.cards, PHASES, table._obs, table._mask,
            10, False)  # fmt: skip
    with pytest.raises(ValueError, match="fields: expected a dict of the 20 fields"):
        fast.env_table(*args[:3], {**fields, "new": (357, 358)}, *args[4:])
    with pytest.raises(ValueError, match="fields: hand has 3 places, not 54"):
        fast.env_table(*args[:3], {**fields, "hand": (0, 3)}, *args[4:])
    with pytest.raises(ValueError, match="phases: not the core's phase order"):
        fast.env_table(*args[:5], PHASES[::-1], *args[6:])
    with pytest.raises(ValueError, match="obs: expected a writable float32 buffer"):
        fast.env_table(*args[:6], np.zeros(3, np.float32), *args[7:])


def test_a_copy_plays_on_alike() -> None:
    table = CoreTable("byond", 3, seed=6)
    rng = random.Random(6)
    for _ in range(40):
        legal = np.flatnonzero(table.mask)
        table.step(int(legal[rng.randrange(len(legal))]))
    for twin in (copy.deepcopy(table), pickle.loads(pickle.dumps(table))):
        assert twin.steps == table.steps and twin.selected == table.selected
        assert np.array_equal(twin.mask, table.mask)
        assert np.array_equal(twin.observe(1), table.observe(1))
        assert twin.game.state_json() == table.game.state_json()
        twin.reset()  # the seed sequence goes on alike
    table.reset()
    assert twin.game.state_json() == table.game.state_json()
