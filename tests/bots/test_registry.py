"""The bot registry: names, levels, errors."""

from __future__ import annotations

import random

import pytest

from una.bots import BOTS, Bot, HeuristicBot, RandomBot, UnknownBot, make_bot, parse_spec, register
from una.engine import Action, View


def test_names_and_levels() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot(" Heuristic "), HeuristicBot)
    bot = make_bot("heuristic:2")
    assert bot.level == 2 and bot.spec == "heuristic:2"
    assert make_bot("heuristic").spec == "heuristic"
    assert parse_spec("heuristic:5") == ("heuristic", 5)
    assert {"random", "heuristic"} <= set(BOTS)


def test_each_call_makes_a_new_bot() -> None:
    assert make_bot("heuristic") is not make_bot("heuristic")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody", "unknown bot 'nobody'"),
        ("random:3", "has no levels"),
        ("heuristic:9", "levels 1-5, not 9"),
        ("heuristic:x", "must be a number"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(UnknownBot, match=message):
        make_bot(spec)


def test_register_a_new_bot() -> None:
    class Passive(Bot):
        name = "passive-test"

        def choose(self, view: View, rng: random.Random) -> Action | None:
            return view.legal[0] if view.legal else None

    register("passive-test", lambda level: Passive(), description="first legal action")
    try:
        assert isinstance(make_bot("passive-test"), Passive)
    finally:
        del BOTS["passive-test"]
