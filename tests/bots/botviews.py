"""Helpers for bot tests: views built to order, and random rule sets of every preset."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from una.engine import PRESETS, Action, Card, Game, InvalidRules, RuleSet, View
from una.engine.cards import parse_cards
from una.engine.rules import SWITCHES
from una.sim.soak import switch_values


def view(**changes: Any) -> View:
    """A seat-0 view of a fresh 3-player standard game, with fields replaced.

    ``hand`` and ``legal`` may be given as codes: ``hand="R1 W"``, ``legal=["play R1"]``.
    """
    base = Game("standard", players=3, seed=1, dealer=2).view_for(0)
    if isinstance(changes.get("hand"), str):
        changes["hand"] = tuple(parse_cards(changes["hand"]))
    if "legal" in changes:
        changes["legal"] = tuple(
            Action.parse(a) if isinstance(a, str) else a for a in changes["legal"]
        )
    for key in ("top", "drawn"):
        if isinstance(changes.get(key), str):
            changes[key] = Card.parse(changes[key])
    changes.setdefault("to_act", 0)
    return dataclasses.replace(base, **changes)


def codes(actions: Any) -> list[str]:
    return [a.code for a in actions]


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """Any preset with random overrides of any switch the engine lists (refused
    combinations are left out), so new presets and switches are covered as they land."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = {}
    for name in SWITCHES:
        values = switch_values(name)
        if values and draw(st.booleans()):
            overrides[name] = draw(st.sampled_from(values))
    try:
        return RuleSet.from_json({"preset": preset, **overrides})
    except InvalidRules:
        assume(False)
        raise  # pragma: no cover


@st.composite
def tables(draw: st.DrawFn, most: int = 6) -> tuple[RuleSet, int]:
    """Rules and a number of seats they allow."""
    rules = draw(rule_sets())
    low, high = rules.players
    return rules, draw(st.integers(low, min(high, most)))


def random_steps(game: Game, rng: random.Random, steps: int) -> None:
    """Advance ``game`` by random legal actions (any seat; the player to act mostly plays),
    dealing new hands, until ``steps`` actions or the end of the match."""
    for _ in range(steps):
        if game.match_over:
            return
        options = [(s, a) for s in range(game.n) for a in game.legal_actions(s)]
        own = [o for o in options if o[0] == game.to_act]
        plays = [o for o in own if o[1].kind.value == "play"]
        pool = plays if plays and rng.random() < 0.8 else (own or options)
        if rng.random() < 0.15:
            pool = options
        seat, action = rng.choice(pool)
        game.apply(seat, action)
