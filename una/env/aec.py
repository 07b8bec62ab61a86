"""The PettingZoo AEC environment: agents are seats, actions are indexes of
:class:`~una.env.actions.ActionSpace`, observations are dicts of ``observation`` (see
:mod:`una.env.observation`) and ``action_mask``.

>>> env = aec_env("standard", players=2, seed=1)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection in env.possible_agents, bool(obs["action_mask"].any())
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from una.engine.rules import RuleSet
from una.env.core import CoreTable, EnvTable, make_table


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


class UnaAECEnv(AECEnv):  # type: ignore[misc]
    """Una as a PettingZoo AEC environment on any rule set (see ``docs/env.md``).

    ``rules`` and ``overrides`` are read as ``--rules`` and ``--set`` are by the CLI;
    ``reward`` is ``"hand"`` (an episode is one hand) or ``"match"``; ``payoff`` is
    ``"win"`` or ``"points"`` (see :mod:`una.env.core`); ``max_steps`` truncates an
    episode after that many actions; ``core``: whether the table runs on the engine's C
    core (``None``: wherever it plays the rules; see :func:`una.env.core.make_table`).
    These are :func:`~una.env.core.make_table`'s options. The agent to act is
    ``agent_selection``; a seat not to act is selected when it may act out of turn, and
    may take ``wait``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "una_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: RuleSet | str | Mapping[str, Any] = "standard",
        players: int = 2,
        seed: int | None = None,
        *,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be human, ansi or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.table = make_table(rules, players, seed, **options)
        # On the C core, observe, last and step read its buffers and call it directly:
        # one Python frame a call less (the same values as table.view and table.step).
        self._on_core = isinstance(self.table, CoreTable)
        self._no_mask = np.zeros(len(self.table.space), dtype=np.int8)
        self.space = self.table.space
        self.encoder = self.table.encoder
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = len(self.space)
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    self.encoder.low, self.encoder.high, dtype=np.float32
                ),
                "action_mask": gymnasium.spaces.Box(0, 1, (size,), dtype=np.int8),
            }
        )
        act_space = gymnasium.spaces.Discrete(size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._start()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Any:
        """The engine's :class:`~una.engine.game.Game` of this episode."""
        return self.table.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self._start()

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.table.selected]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        table = self.table
        if not self._on_core:
            observation, mask = table.view(seat)
            return {"observation": observation, "action_mask": mask}
        core = table._core
        core.observe(seat)  # into table._obs (CoreTable.view, inlined)
        mask = table._mask if seat == core.selected else self._no_mask
        return {"observation": table._obs.copy(), "action_mask": mask.copy()}

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        if observe and self._on_core:  # observe, inlined
            table = self.table
            core = table._core
            seat = self._seat[agent]
            core.observe(seat)
            mask = table._mask if seat == core.selected else self._no_mask
            observation = {"observation": table._obs.copy(), "action_mask": mask.copy()}
        else:
            observation = self.observe(agent) if observe else None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        if self._on_core and type(action) is int:
            # CoreTable.step's usual case, inlined: the next seat, or -3 (the episode is
            # over); anything else goes through table.step, which raises naming it.
            selected = table._core.step(action)
            if selected < 0:
                selected = None if selected == -3 else table.step(action)
        else:
            selected = table.step(action)  # raises ValueError on an illegal index, changing nothing
        self._cumulative_rewards[agent] = 0.0
        if selected is not None:
            self.agent_selection = self.possible_agents[selected]
        else:
            rewards = table.rewards
            for seat, name in enumerate(self.agents):
                self.rewards[name] = rewards[seat] if not table.truncated else 0.0
                if table.truncated:
                    self.truncations[name] = True
                else:
                    self.terminations[name] = True
            self._accumulate_rewards()
            # Every seat is shown its end of the episode, starting after the last actor.
            n = len(self.possible_agents)
            self.agent_selection = self.possible_agents[(table.selected + 1) % n]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (human or ansi)")
            return None
        text = describe(self.table)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def describe(table: EnvTable) -> str:
    """A few lines about the table as a spectator sees it, and whose decision it is."""
    game = table.game
    view = game.view_for(None)
    lines = [
        f"{game.rules} | hand {view.hand_number} | top {view.top} color "
        f"{view.color.value if view.color else '-'} | pending {view.pending_draw} | "
        f"draw pile {view.draw_pile}",
        "cards: " + " ".join(f"@{s}:{c}" for s, c in enumerate(view.hand_counts)),
        f"scores: {list(view.scores)}",
    ]
    if table.done:
        lines.append(f"over; rewards {table.rewards}" + (" (truncated)" if table.truncated else ""))
    else:
        legal = ", ".join(table.space.code(int(i)) for i in np.flatnonzero(table.mask))
        lines.append(f"seat {table.selected} decides: {legal}")
    return "\n".join(lines)


#: The environment as PettingZoo users make one: ``aec_env("telegram", players=4, seed=7)``.
#: It needs none of PettingZoo's safety wrappers: it is reset when made, and an illegal or
#: out-of-range action raises ``ValueError`` and changes nothing.
aec_env = UnaAECEnv
