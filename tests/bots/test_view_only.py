"""Bots see only what their seat may see.

They are handed :class:`View` values only (the driver passes nothing else), and a bot's
choice does not change when every card hidden from its seat (the other hands, the draw
pile) is shuffled: with the same generator state it chooses the same action.
"""

from __future__ import annotations

import random

from botviews import random_steps, tables
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from una.bots import BOTS, make_bot
from una.engine import Action, Game, RuleSet, View
from una.sim.driver import Table

# The search bot on a tiny budget: what it may see does not depend on the budget.
SPECS = [*sorted(set(BOTS) - {"strong"}), "heuristic:2", "strong:6"]


def shuffle_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` in which the cards ``seat`` cannot see are dealt anew: the draw
    pile and the hands of the others (but a hand a rule shows her live)."""
    other = game.copy()
    live = {t for v, t, cards in getattr(game, "reveals", ()) if v == seat and cards is None}
    hidden = [s for s in range(game.n) if s != seat and s not in live]
    pool = list(other.draw_pile)
    for s in hidden:
        pool.extend(other.hands[s])
    rng.shuffle(pool)
    other.draw_pile = pool[: len(other.draw_pile)]
    rest = pool[len(other.draw_pile) :]
    for s in hidden:
        size = len(other.hands[s])
        other.hands[s], rest = rest[:size], rest[size:]
    return other


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=tables(),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 150),
    choice_seed=st.integers(0, 2**32),
)
def test_hidden_cards_do_not_change_a_choice(
    table: tuple[RuleSet, int], seed: int, steps: int, choice_seed: int
) -> None:
    rules, players = table
    game = Game(rules, players, seed=seed)
    rng = random.Random(choice_seed)
    random_steps(game, rng, steps)
    for seat in range(game.n):
        if not game.legal_actions(seat):
            continue
        twin = shuffle_hidden(game, seat, rng)
        assert twin.hands[seat] == game.hands[seat]
        for spec in SPECS:
            state = rng.getrandbits(32)
            first = make_bot(spec).choose(game.view_for(seat), random.Random(state))
            second = make_bot(spec).choose(twin.view_for(seat), random.Random(state))
            assert first == second, (spec, seat)


class Spy:
    """An agent that records the type of everything it is handed."""

    def __init__(self, spec: str) -> None:
        self.bot = make_bot(spec)
        self.seen: set[type] = set()

    def choose(self, view: View, rng: random.Random) -> Action | None:
        self.seen.add(type(view))
        self.seen.add(type(rng))
        return self.bot.choose(view, rng)


def test_the_driver_hands_bots_views_only() -> None:
    game = Game("standard", players=4, seed=11)
    spies = [Spy("heuristic" if s % 2 else "random") for s in range(4)]
    Table(game, spies, [random.Random(s) for s in range(4)]).play_hand()
    assert set().union(*(spy.seen for spy in spies)) == {View, random.Random}


def test_a_view_holds_no_reference_to_the_game() -> None:
    import gc

    game = Game("standard", players=3, seed=5)
    view = game.view_for(0)
    assert game not in gc.get_referents(view)
    assert not any(isinstance(x, Game) for x in gc.get_referents(view))
