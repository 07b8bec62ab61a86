"""Every bot, on random states of every preset under random switches, chooses only
legal actions: one of ``view.legal`` when its seat must act, one of them or ``None``
otherwise."""

from __future__ import annotations

import random

from botviews import random_steps, tables
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from una.bots import BOTS, make_bot
from una.bots.base import must_act
from una.engine import Action, Game, RuleSet, View
from una.sim.driver import StuckGame, Table

# The search bot on a tiny budget: its legality does not depend on the budget.
SPECS = [*sorted(set(BOTS) - {"strong"}), "heuristic:1", "strong:6"]


class Checked:
    """Wraps a bot and checks each of its choices against the view it was given."""

    def __init__(self, spec: str) -> None:
        self.bot = make_bot(spec)
        self.calls = 0

    def choose(self, view: View, rng: random.Random) -> Action | None:
        assert isinstance(view, View)
        action = self.bot.choose(view, rng)
        self.calls += 1
        if must_act(view):
            assert action is not None, (self.bot, view.phase, view.legal)
        if action is not None:
            assert action in view.legal, (self.bot, action, view.legal)
        return action


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=tables(),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    choice_seed=st.integers(0, 2**32),
)
def test_bots_choose_legal_actions_in_random_states(
    table: tuple[RuleSet, int], seed: int, steps: int, choice_seed: int
) -> None:
    rules, players = table
    game = Game(rules, players, seed=seed, dealer=seed % players)
    rng = random.Random(choice_seed)
    random_steps(game, rng, steps)
    for seat in range(game.n):
        legal = game.legal_actions(seat)
        if not legal:
            continue
        view = game.view_for(seat)
        for spec in SPECS:
            checked = Checked(spec)
            action = checked.choose(view, random.Random(rng.random()))
            if action is not None:
                game.copy().apply(seat, action)  # and the engine accepts it


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=tables(),
    seed=st.integers(0, 2**32),
    specs=st.lists(st.sampled_from(SPECS), min_size=1, max_size=3),
    matches=st.booleans(),
)
def test_bots_play_whole_hands_of_every_preset(
    table: tuple[RuleSet, int], seed: int, specs: list[str], matches: bool
) -> None:
    """Bots driven by the driver (their memory included) play hands to the end with only
    legal actions, and go on to the next hands of the match."""
    rules, players = table
    game = Game(rules, players, seed=seed)
    agents = [Checked(specs[s % len(specs)]) for s in range(players)]
    # Some rule sets allow very long hands (see StuckGame); legality is what is tested here.
    driver = Table(game, agents, [random.Random(seed + s) for s in range(players)], None, 2000)
    try:
        driver.play_hand()
        assert game.hand_over
        for _ in range(3 if matches else 0):  # a few more hands, dealt by the driver
            if game.match_over:
                break
            driver.deal()
            driver.play_hand()
            assert game.hand_over
    except StuckGame:
        pass
    assert sum(a.calls for a in agents) >= driver.actions - game.hand_number + 1
