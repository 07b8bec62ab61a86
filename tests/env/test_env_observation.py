"""una.env.observation: an observation holds exactly what the seat may see.

The property plays whole hands (random masked actions through the environment, on every
preset and switches that reveal, move or pick cards) and checks, for every seat after every
action, that the fast encoding equals the encoding of the engine's ``view_for`` plus the
discard pile as the seat saw it built from the events shown to it; and that moving the
cards the seat may not see (other hands, the draw pile) changes nothing in it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from una.engine import Card, Game, RuleSet
from una.engine.actions import Kind
from una.engine.events import CardPlayed, CardTurned, Event, HandStarted, Reshuffled
from una.env.core import EnvTable, make_table
from una.env.observation import ObservationEncoder

# The bots' own check that hidden cards change nothing deals them anew like this.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bots"))
from botviews import tables
from test_view_only import shuffle_hidden

#: Rule sets with reveals (challenge, Spy), moving hands (seven-zero, Trader Joe, Musical
#: Chairs, Randomizer), players going out (to_the_last, Quitter) and jump-ins.
RULE_SETS = [
    ("standard", ()),
    ("standard", ("challenge_reveal=true", "seven_zero=true", "jump_in=true")),
    ("telegram", ("finish=to_the_last",)),
    ("alupula", ("stack_draw_four=true",)),
    ("byond", ()),
    ("byond", ('{"cards": {"SPY": 3, "TRADE": 3, "QUIT": 2, "RAND": 2}}',)),
]


def seen_discard(pile: list[Card], events: list[Event], seat: int) -> list[Card]:
    """The discard pile as ``seat`` saw it built: from the events it was shown."""
    for happened in events:
        shown = happened.visible_to(seat)
        if isinstance(shown, HandStarted):
            pile = []
        elif isinstance(shown, CardTurned):
            pile = [shown.card]
        elif isinstance(shown, CardPlayed):
            pile = [*pile, shown.card]
        elif isinstance(shown, Reshuffled):
            pile = pile[-1:]
    return pile


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rule_set=st.sampled_from(RULE_SETS),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    on_core=st.booleans(),
)
def test_observations_hold_nothing_hidden(
    rule_set: tuple[str, tuple[str, ...]], players: int, seed: int, on_core: bool
) -> None:
    """On the Python table, and on the C core's (where it plays the rules; its vector is
    written in C), which the AEC environment plays on."""
    rules, overrides = rule_set
    core = None if on_core else False
    table = make_table(rules, players, seed=seed, overrides=overrides, max_steps=3000, core=core)
    check_hand(table, seed)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32))
def test_observations_hold_nothing_hidden_on_any_rule_set(
    table: tuple[RuleSet, int], seed: int
) -> None:
    """The same on rule sets drawn from every preset and switch (the bots' strategy)."""
    rules, players = table
    check_hand(EnvTable(rules, players, seed=seed, max_steps=3000), seed)


def check_hand(table: EnvTable, seed: int) -> None:
    """Play the table's hand out, checking every seat's observation after every action."""
    encoder = table.encoder
    players = table.players
    rng = random.Random(seed)
    piles: list[list[Card]] = [[] for _ in range(players)]
    while True:
        game = table.game
        for seat in range(players):
            piles[seat] = seen_discard(piles[seat], table.events, seat)
            assert piles[seat] == game.discard  # the pile is public: all saw it built
            fast = encoder.encode(game, seat)
            reference = encoder.encode_view(game.view_for(seat), piles[seat])
            assert np.array_equal(fast, reference), (table.rules, seat, game)
            # the table's own vector (written in C on a CoreTable)
            assert np.array_equal(table.observe(seat), reference), (table.rules, seat, game)
            if rng.random() < 0.1:
                twin = shuffle_hidden(game, seat, rng)
                # (A fresh encoder: the discard cache belongs to one game.)
                again = ObservationEncoder(table.rules, players).encode(twin, seat)
                assert np.array_equal(again, fast)
        if table.done:
            break
        table.step(hasty_choice(table, rng))
    event("hand over" if table.game.hand_over else "truncated")


def hasty_choice(table: EnvTable, rng: random.Random) -> int:
    """A random legal action, but a play three times in four when there is one: hands end
    in tens of steps instead of a thousand, with every kind of action still taken."""
    legal = np.flatnonzero(table.mask).tolist()
    plays = [i for i in legal if table.space.slots[i].kind is Kind.PLAY]
    if plays and rng.random() < 0.75:
        return int(plays[rng.randrange(len(plays))])
    return int(legal[rng.randrange(len(legal))])


def test_fields_decode_by_name() -> None:
    encoder = ObservationEncoder("byond", players=3)
    game = Game("byond", players=3, seed=11)
    fields = encoder.decode(encoder.encode(game, 1))
    assert fields["hand"].sum() == 7 and fields["me"].tolist() == [0, 1, 0]
    assert fields["revealed"].shape == (3, len(encoder.cards))
    assert fields["hand_counts"].tolist() == [7, 7, 7]
    assert fields["discard"].sum() == 1 and fields["top"].sum() == 1
    assert encoder.size == sum(s.stop - s.start for s in encoder.fields.values())
    assert (encoder.low <= encoder.encode(game, 0)).all()


def test_a_spectator_view_is_refused() -> None:
    encoder = ObservationEncoder("standard", players=2)
    game = Game("standard", players=2, seed=1)
    try:
        encoder.encode_view(game.view_for(None), game.discard)
    except ValueError as error:
        assert "spectator" in str(error)
    else:
        raise AssertionError("a spectator's view was encoded")
