"""An RLCard-compatible environment: Una's full rules behind RLCard 1.2.0's ``Env`` API, so
RLCard's own agents (its random agent, DQN, NFSP, ...) and helpers (``tournament``,
``reorganize``) work on it unchanged.

It is a subclass of ``rlcard.envs.Env``: ``reset()``, ``step(action, raw_action)``,
``run(is_training)``, ``get_payoffs()``, ``num_players``, ``num_actions``, ``state_shape``.
A state is RLCard's dict: ``obs`` (the observation vector of :mod:`una.env.observation`),
``legal_actions`` (an ``OrderedDict`` of legal action indexes), ``raw_obs`` (the seat's
view as JSON), ``raw_legal_actions`` (their codes, ``wait`` included when offered) and
``action_record``. Importing this module registers the environment as ``"una"``, so
``rlcard.make("una", config={"game_num_players": 4, "rules": "telegram"})`` makes one.

>>> import rlcard
>>> from rlcard.agents import RandomAgent
>>> env = UnaRLCardEnv({"seed": 3, "allow_step_back": False, "rules": "standard"})
>>> env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
>>> trajectories, payoffs = env.run(is_training=False)
>>> sorted(payoffs.tolist())
[-1.0, 1.0]
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from rlcard.envs import Env  # type: ignore[import-untyped]
from rlcard.envs.registration import registry  # type: ignore[import-untyped]

from una.engine.actions import Action
from una.env.core import MAX_STEPS, EnvTable

#: The config keys of this environment besides RLCard's ``seed`` and ``allow_step_back``,
#: with their defaults (``overrides`` are ``KEY=VALUE`` switch overrides, as ``--set``).
DEFAULT_GAME_CONFIG: dict[str, Any] = {
    "game_num_players": 2,
    "rules": "standard",
    "overrides": (),
    "reward": "hand",
    "payoff": "win",
    "max_steps": MAX_STEPS,
}


class _Game:
    """The game object RLCard's ``Env`` drives: an :class:`EnvTable` with RLCard's names."""

    allow_step_back = False

    def __init__(self, table: EnvTable) -> None:
        self.table = table
        self.np_random: Any = np.random.RandomState()
        self._by_code = {slot.code: slot.index for slot in table.space.slots}

    def get_num_players(self) -> int:
        return self.table.players

    def get_num_actions(self) -> int:
        return len(self.table.space)

    def init_game(self) -> tuple[int, int]:
        self.table.reset(int(self.np_random.randint(0, 2**62)))
        return self.table.selected, self.table.selected

    def step(self, action: int | str) -> tuple[int, int]:
        index = self._by_code.get(action) if isinstance(action, str) else action
        if index is None:
            raise ValueError(f"unknown action code {action!r}")
        self.table.step(index)
        return self.table.selected, self.table.selected

    def step_back(self) -> bool:
        return False

    def is_over(self) -> bool:
        return self.table.done

    def get_player_id(self) -> int:
        return self.table.selected


class UnaRLCardEnv(Env):  # type: ignore[misc]
    """Una under RLCard's ``Env`` API; ``config`` as in :data:`DEFAULT_GAME_CONFIG`."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.name = "una"
        self.default_game_config = DEFAULT_GAME_CONFIG
        settings = DEFAULT_GAME_CONFIG | {
            k: v for k, v in config.items() if k in DEFAULT_GAME_CONFIG
        }
        unknown = set(config) - set(DEFAULT_GAME_CONFIG) - {"seed", "allow_step_back"}
        if unknown:
            raise ValueError(
                f"unknown config key(s) {', '.join(sorted(unknown))} "
                f"(known: seed, allow_step_back, {', '.join(DEFAULT_GAME_CONFIG)})"
            )
        if config.get("allow_step_back"):
            raise ValueError("allow_step_back: Una's environment cannot step back")
        self.table = EnvTable(
            settings["rules"],
            settings["game_num_players"],
            None,
            settings["reward"],
            settings["payoff"],
            settings["max_steps"],
            settings["overrides"],
        )
        self.game = _Game(self.table)
        super().__init__({"allow_step_back": False, "seed": config.get("seed")})
        size = self.table.encoder.size
        self.state_shape = [[size] for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]

    def _extract_state(self, seat: int) -> dict[str, Any]:
        table = self.table
        legal = self._legal(seat)
        return {
            "obs": table.observe(seat),
            "legal_actions": legal,
            "raw_obs": table.game.view_for(seat).to_json(),
            "raw_legal_actions": [table.space.code(i) for i in legal],
            "action_record": self.action_recorder,
        }

    def get_state(self, player_id: int) -> dict[str, Any]:
        return self._extract_state(player_id)

    def _legal(self, seat: int) -> OrderedDict[int, None]:
        table = self.table
        if table.done or seat != table.selected:
            return OrderedDict()
        return OrderedDict((int(i), None) for i in np.flatnonzero(table.mask))

    def _get_legal_actions(self) -> OrderedDict[int, None]:
        return self._legal(self.table.selected)

    def _decode_action(self, action_id: int) -> int:
        # Checked by the table: an illegal index raises ValueError, naming the legal ones.
        return int(action_id)

    def get_payoffs(self) -> np.ndarray:
        return np.array(self.table.rewards if self.table.done else [0.0] * self.num_players)

    def get_perfect_information(self) -> dict[str, Any]:
        """Everything, hidden cards included (for debugging and analysis, not agents)."""
        game = self.table.game
        return {
            "num_players": self.num_players,
            "state": game.state_json(),
            "current_player": self.table.selected,
            "legal_actions": [self.table.space.code(i) for i in self._get_legal_actions()],
        }

    def action_of(self, action_id: int) -> Action | None:
        """The engine action of a legal index now (``None`` for ``wait``)."""
        return self.table.legal.get(action_id)


if "una" not in registry.env_specs:
    registry.register("una", "una.env.rlcard_env:UnaRLCardEnv")
