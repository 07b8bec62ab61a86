"""The soak test, in miniature: random rules of every preset, no failure."""

from __future__ import annotations

import random
from collections import Counter

from una.engine import PRESETS, SWITCHES
from una.sim.soak import random_rules, soak, switch_values


def test_random_rules_cover_every_preset_and_switch() -> None:
    rng = random.Random(1)
    drawn = [random_rules(rng) for _ in range(300)]
    assert {r.preset for r in drawn} == set(PRESETS)
    changed = Counter(k for r in drawn for k in r.overrides())
    for name in SWITCHES:
        if len(switch_values(name)) > 1:
            assert changed[name] > 0, name


def test_a_small_soak_finds_nothing() -> None:
    report = soak(60, seed=3, block_size=30)
    assert report.hands >= 60 and report.games > 0 and report.actions > 0
    assert report.failures == []
    assert report.to_json()["failures"] == []


def test_the_recycled_card_livelocks_the_soak_found_now_end() -> None:
    """Two soak games that looped forever: the draw pile empty, one card under the top,
    `draw_until_playable` with `play_drawn: must` made players draw it and play it back. A
    turn that draws the last drawable card and plays it now counts as idle, so the
    blocked-hand rule ends such a hand."""
    from una.sim.soak import SoakReport, soak_game

    for seed in (163836644420381942, 3549364065341634147):
        report = SoakReport()
        soak_game(seed, report)
        assert report.failures == [], report.failures


def test_the_jump_in_livelock_now_ends() -> None:
    """Alupula with jump-in: the draw pile empty, the victim of a Draw Two draws the one card
    under the top (an identical Draw Two) and jumps in with it, round and round. Cards taken
    as the last drawable ones and played back are idle turns, so the hand ends blocked."""
    import random

    from una.bots import make_bot
    from una.engine import Game
    from una.sim.driver import Table

    game = Game({"preset": "alupula", "jump_in": True}, 3, seed=282)
    bots = [make_bot("heuristic") for _ in range(3)]
    rngs = [random.Random(282 + seat) for seat in range(3)]
    Table(game, bots, rngs, max_actions=2000).play_hand()
    assert game.hand_over and game.hand_result is not None and game.hand_result.blocked
