"""Una for reinforcement learning: a PettingZoo AEC environment on every rule set, a
Gymnasium single-agent wrapper against Una's bots, and an RLCard-compatible environment.

Needs the ``rl`` extra (``pip install 'una[rl]'``: pettingzoo, gymnasium, numpy, rlcard).
See ``docs/env.md``.

>>> from una.env import aec_env
>>> env = aec_env("telegram", players=4, seed=7)
>>> env.reset(seed=7)
>>> len(env.possible_agents), int(env.action_space("seat_0").n)
(4, 134)
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # type: ignore[import-untyped]  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the install
    raise ImportError(
        f"una.env needs the rl extra ({error.name} is missing): pip install 'una[rl]'"
    ) from error

from una.env.actions import ActionSpace
from una.env.aec import UnaAECEnv, aec_env
from una.env.core import CoreTable, EnvTable, make_rules, make_table
from una.env.observation import ObservationEncoder
from una.env.single import UnaGymEnv

# The RLCard-compatible environment is una.env.rlcard_env (it imports RLCard).
__all__ = [
    "ActionSpace",
    "CoreTable",
    "EnvTable",
    "ObservationEncoder",
    "UnaAECEnv",
    "UnaGymEnv",
    "aec_env",
    "make_rules",
    "make_table",
]
