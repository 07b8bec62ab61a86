"""A small numpy policy (one hidden layer, masked softmax) and the bot that seats it at any
table, so that ``una sim``'s runner and statistics evaluate a trained agent like any bot.

The bot sees the game only through its views, as every bot does: it rebuilds the
observation of :mod:`una.env.observation` from each view plus the discard pile it watched
being built (it is shown every action, ``observes = True``), which is what the
environment gave the agent during training.

>>> policy = MaskedPolicy.new("standard", players=2, hidden=8, seed=1)
>>> bot = PolicyBot(policy)
>>> from una.engine import Game
>>> game = Game("standard", players=2, seed=2)
>>> import random
>>> bot.choose(game.view_for(game.to_act), random.Random(0)) in game.legal_actions(game.to_act)
True
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np

from una.bots.base import Bot, must_act
from una.engine.actions import Action
from una.engine.cards import Card
from una.engine.rules import RuleSet
from una.engine.views import View
from una.env.actions import ActionSpace
from una.env.observation import ObservationEncoder

#: What each field of an observation is divided by before the network sees it: roughly
#: its largest usual value, so that every input is of order 1.
_FIELD_SCALES = {"hand_counts": 10.0, "set_aside": 10.0, "scores": 100.0, "position": 10.0,
                 "pending_draw": 10.0, "draw_pile": 100.0, "discard": 2.0, "hand": 2.0,
                 "revealed": 2.0}  # fmt: skip


class MaskedPolicy:
    """``softmax(relu(x W1 + b1) W2 + b2)`` over the legal actions of an observation ``x``
    (scaled per field). ``params`` holds ``W1 b1 W2 b2``."""

    def __init__(
        self, rules: RuleSet | str | dict[str, Any], players: int, params: dict[str, np.ndarray]
    ) -> None:
        self.rules = rules if isinstance(rules, RuleSet) else RuleSet.from_json(rules)
        self.players = players
        self.encoder = ObservationEncoder(self.rules, players)
        self.space = ActionSpace(self.rules, players)
        shapes = {
            "W1": (self.encoder.size, None), "b1": (None,),
            "W2": (None, len(self.space)), "b2": (len(self.space),),
        }  # fmt: skip
        hidden = params["b1"].shape[0]
        for name, shape in shapes.items():
            want = tuple(hidden if size is None else size for size in shape)
            if params[name].shape != want:
                raise ValueError(f"parameter {name} has shape {params[name].shape}, not {want}")
        self.params = params
        scale = np.ones(self.encoder.size, dtype=np.float32)
        for name, value in _FIELD_SCALES.items():
            scale[self.encoder.field(name)] = 1.0 / value
        self.scale = scale

    @classmethod
    def new(
        cls, rules: RuleSet | str | dict[str, Any], players: int, hidden: int = 64, seed: int = 0
    ) -> MaskedPolicy:
        """A policy with small random weights."""
        encoder = ObservationEncoder(rules, players)
        actions = len(ActionSpace(encoder.rules, players))
        rng = np.random.default_rng(seed)
        params = {
            "W1": (rng.standard_normal((encoder.size, hidden)) / np.sqrt(encoder.size)),
            "b1": np.zeros(hidden),
            "W2": rng.standard_normal((hidden, actions)) * 0.01,
            "b2": np.zeros(actions),
        }
        return cls(encoder.rules, players, {k: v.astype(np.float32) for k, v in params.items()})

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Action probabilities and hidden activations for scaled inputs ``x`` (a row or a
        batch) and their masks."""
        p = self.params
        hidden = np.maximum(x @ p["W1"] + p["b1"], 0.0)
        logits = hidden @ p["W2"] + p["b2"]
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        weights = np.exp(logits)
        return weights / weights.sum(axis=-1, keepdims=True), hidden

    def choose(
        self, obs: np.ndarray, mask: np.ndarray, rng: random.Random, greedy: bool = False
    ) -> int:
        """An action index: the likeliest (``greedy``) or one drawn from the policy."""
        probs, _ = self.forward(obs * self.scale, mask)
        if greedy:
            return int(np.argmax(probs))
        cumulative = np.cumsum(probs)
        index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        # (Rounding may land past the end: the last legal action then.)
        return index if index < len(probs) and mask[index] else int(np.flatnonzero(mask)[-1])

    def save(self, path: str | Path) -> None:
        """Weights and the table they were trained for, as one ``.npz`` file."""
        meta = json.dumps({"rules": self.rules.to_json(), "players": self.players})
        arrays: dict[str, Any] = {"meta": np.array(meta), **self.params}
        np.savez(Path(path), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> MaskedPolicy:
        try:
            data = np.load(Path(path), allow_pickle=False)
            meta = json.loads(str(data["meta"]))
            params = {name: data[name] for name in ("W1", "b1", "W2", "b2")}
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{path}: not a saved policy ({error})") from None
        return cls(meta["rules"], int(meta["players"]), params)


class PolicyBot(Bot):
    """Seats a :class:`MaskedPolicy` at a table of its rule set and size. ``greedy``
    takes the likeliest action, else it samples from the policy."""

    name = "policy"
    observes = True

    def __init__(self, policy: MaskedPolicy, greedy: bool = True) -> None:
        self.policy = policy
        self.greedy = greedy
        self._hand = 0
        self._pile: dict[int, Card] = {}  # discard pile position -> the card seen there

    def observe(self, view: View, seat: int, action: Action) -> None:
        self._watch(view)

    def _watch(self, view: View) -> None:
        if view.hand_number != self._hand:
            self._hand = view.hand_number
            self._pile = {}
        size = view.discard_pile
        if self._pile and size <= max(self._pile):  # reshuffled: only the top stayed
            self._pile = {pos: card for pos, card in self._pile.items() if pos < size - 1}
        self._pile[size - 1] = view.top

    def choose(self, view: View, rng: random.Random) -> Action | None:
        self._watch(view)
        policy = self.policy
        if len(view.players) != policy.players:
            raise ValueError(f"this policy plays {policy.players} seats, not {len(view.players)}")
        space = policy.space
        assert view.seat is not None
        others = [
            s for s in range(len(view.players))
            if s != view.seat and s not in view.out and not (view.set_aside and view.set_aside[s])
        ]  # fmt: skip
        legal = space.legal_map(view.legal, others)
        mask = np.zeros(len(space), dtype=np.int8)
        mask[list(legal)] = 1
        waiting = not must_act(view)
        if waiting:
            mask[space.wait] = 1
        if not mask.any():
            return None
        pile = [self._pile[pos] for pos in sorted(self._pile) if pos < view.discard_pile]
        obs = policy.encoder.encode_view(view, pile)
        index = policy.choose(obs, mask, rng, greedy=self.greedy)
        return None if waiting and index == space.wait else legal[index]
