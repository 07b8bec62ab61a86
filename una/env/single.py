"""A Gymnasium single-agent environment: one seat learns, Una's bots play the others.

The learner's observation and action space are the AEC environment's (a dict of the
observation vector and the action mask; a discrete action index). Between two of its
decisions the bots take theirs, through the same views a person gets (a bot that watches
the table is shown every action, as :class:`una.sim.driver.Table` does). The reward of a
step is the learner's reward (non-zero only at the episode's end).

>>> env = UnaGymEnv("standard", players=2, opponents="heuristic", seed=4)
>>> obs, info = env.reset(seed=4)
>>> sorted(obs), int(obs["action_mask"].sum()) == len(info["legal"])
(['action_mask', 'observation'], True)
>>> UnaGymEnv(opponents="grandmaster")
Traceback (most recent call last):
...
una.bots.registry.UnknownBot: unknown bot 'grandmaster' (bots: heuristic, random, strong)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from una.bots.base import Bot
from una.bots.registry import make_bot, parse_spec
from una.engine.rules import RuleSet
from una.env.core import MAX_STEPS, EnvTable


class UnaGymEnv(gymnasium.Env[dict[str, np.ndarray], Any]):
    """Seat ``seat`` learns against bots. ``opponents`` is a bot spec (``"heuristic"``,
    ``"strong:easy"``) or one spec per other seat, in seat order (cycled); the other
    parameters are :class:`una.env.aec.UnaAECEnv`'s. ``info`` carries ``action_mask``
    and ``legal`` (the legal action codes) at every step."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (gymnasium's own attribute)

    def __init__(
        self,
        rules: RuleSet | str | Mapping[str, Any] = "standard",
        players: int = 2,
        opponents: str | Sequence[str] = "heuristic",
        seat: int = 0,
        seed: int | None = None,
        reward: str = "hand",
        payoff: str = "win",
        max_steps: int = MAX_STEPS,
        overrides: Sequence[str] | Mapping[str, Any] = (),
        think_ms: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.table = EnvTable(rules, players, seed, reward, payoff, max_steps, overrides)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat number 0-{players - 1}, not {seat!r}")
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        if not specs:
            raise ValueError("opponents: name at least one bot")
        for spec in specs:
            parse_spec(spec)  # a clear UnknownBot for a bad spec
        self.seat = seat
        others = [s for s in range(players) if s != seat]
        self.opponent_specs = {s: specs[i % len(specs)] for i, s in enumerate(others)}
        self.think_ms = think_ms
        self.render_mode = render_mode
        self.space = self.table.space
        encoder = self.table.encoder
        size = len(self.space)
        self.observation_space: gymnasium.spaces.Space[Any] = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(encoder.low, encoder.high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (size,), dtype=np.int8),
            }
        )
        self.action_space: gymnasium.spaces.Space[Any] = gymnasium.spaces.Discrete(size)
        self._seed = seed
        self._start(seed)

    def _start(self, seed: int | None) -> None:
        """New bots (they may remember a hand) with generators from the episode's seed."""
        if seed is not None:
            self._bot_seeds = random.Random(seed)
        elif not hasattr(self, "_bot_seeds"):
            self._bot_seeds = random.Random(self._seed)
        self.bots: dict[int, Bot] = {
            s: make_bot(spec, think_ms=self.think_ms) for s, spec in self.opponent_specs.items()
        }
        self.rngs = {s: random.Random(self._bot_seeds.getrandbits(63)) for s in self.bots}
        self._observers = [(s, bot) for s, bot in self.bots.items() if bot.observes]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.table.reset(seed)
        self._start(seed)
        self._play_bots()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.done:
            raise ValueError("the episode is over: reset the environment")
        index = int(action) if isinstance(action, np.integer) else action
        chosen = table.legal.get(index)
        table.step(index)  # ValueError for an illegal index, nothing changed
        if chosen is not None:
            self._show(self.seat, chosen)
        self._play_bots()
        reward = table.rewards[self.seat] if table.done and not table.truncated else 0.0
        terminated = table.done and not table.truncated
        return self._observation(), float(reward), terminated, table.truncated, self._info()

    def _play_bots(self) -> None:
        """The bots decide until it is the learner's decision or the episode is over."""
        table = self.table
        game = table.game
        space = self.space
        while not table.done and table.selected != self.seat:
            seat = table.selected
            action = self.bots[seat].choose(game.view_for(seat), self.rngs[seat])
            if action is None:
                if not table.offering:
                    raise RuntimeError(f"bot {self.bots[seat]!r} chose nothing on its turn")
                table.step(space.wait)
                continue
            # As it is: a bot may pick a Target Practice split the space does not hold.
            table.act(action)
            self._show(seat, action)

    def _show(self, actor: int, action: Any) -> None:
        game = self.table.game
        for seat, bot in self._observers:
            bot.observe(game.view_for(seat), actor, action)

    def _observation(self) -> dict[str, np.ndarray]:
        table = self.table
        mask = table.mask if table.selected == self.seat else np.zeros(len(self.space), np.int8)
        return {"observation": table.observe(self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        table = self.table
        mine = not table.done and table.selected == self.seat
        mask = table.mask if mine else np.zeros(len(self.space), np.int8)
        legal = [self.space.code(int(i)) for i in np.flatnonzero(mask)]
        return {"action_mask": mask, "legal": legal}

    def render(self) -> str | None:
        from una.env.aec import describe

        return describe(self.table) if self.render_mode == "ansi" else None
