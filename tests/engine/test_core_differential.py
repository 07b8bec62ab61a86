"""The C core against the Python engine on generated games: every preset the core plays,
random switch combinations, 2-10 players, action by action (the legal actions in order,
the action chosen) and state by state (every field the core holds), over whole hands and
matches, and from positions taken out of every phase of those games.

Hypothesis drives it; under ``CI=true`` it fails instead of skipping when the core is not
built (the ``core`` fixture).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from stacking import drain

from una.engine import Card, Game, Phase, fast
from una.engine.cards import MUTANTS
from una.engine.errors import InvalidRules
from una.engine.game import first_card_fate
from una.engine.presets import PRESETS
from una.engine.rng import Rng
from una.engine.rules import SWITCHES, RuleSet
from una.engine.state import NAMES, HandState

#: The presets whose every card the core plays: all of them.
CORE_PRESETS = tuple(name for name in sorted(PRESETS) if fast.supports(name))
MUTANT_FAMILIES = tuple(MUTANTS)
#: The switches a hand's play depends on, with every value they take.
PLAY_SWITCHES = {
    name: (False, True) if switch.type is bool else switch.choices
    for name, switch in SWITCHES.items()
    if switch.type in (bool, str)
}


def test_the_core_plays_every_preset(core: Any) -> None:
    assert CORE_PRESETS == ("alupula", "byond", "standard", "telegram")
    # A deck larger than the core holds is refused (and played in Python).
    reason = fast.why_unsupported({"preset": "byond", "cards": {"SP": 8}})
    assert reason == "the C core holds decks of up to 160 cards, not 176"


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    preset = draw(st.sampled_from(CORE_PRESETS))
    switches = {
        name: draw(st.sampled_from(values))
        for name, values in PLAY_SWITCHES.items()
        if draw(st.booleans())
    }
    if draw(st.booleans()):
        switches["target"] = draw(st.sampled_from((30, 100, 250)))
    if draw(st.booleans()):  # mutant counts, on any preset's deck
        families = draw(st.lists(st.sampled_from(MUTANT_FAMILIES), max_size=6, unique=True))
        switches["cards"] = {family: draw(st.integers(0, 2)) for family in families}
    try:
        rules = RuleSet.from_json({"preset": preset, **switches})
    except InvalidRules:
        assume(False)
        raise
    assume(fast.supports(rules))  # a deck too large for the core: tested elsewhere
    return rules


def states_agree(c_state: dict[str, Any], game: Game, where: str) -> None:
    mine = HandState.of(game).to_json()
    for name, value in c_state.items():
        assert mine[name] == value, f"{where}: {name}: C {value!r}, Python {mine[name]!r}"


def compare(core: Any, game: Game, policy_seed: int, hands: int) -> list[Game]:
    """C and Python play ``hands`` hands on from ``game`` with one policy seed: the same
    steps and states. Returns the Python positions along the way."""
    c_steps = core.trace(
        fast.compiled(game.rules, game.n), NAMES, fast._values(game), policy_seed, hands, True
    )
    twin = game.copy()
    rng = Rng(policy_seed)
    positions = []
    played = 0
    for index, (seat, legal, code, c_state) in enumerate(c_steps):
        assert not twin.match_over
        if twin.hand_over:
            played += 1
        at = f"step {index} of {game.rules} ({game.n} players)"
        expected_seat = fast.dealing_seat(twin) if twin.hand_over else twin.to_act
        assert seat == expected_seat, at
        actions = twin.legal_actions(seat)
        assert legal == [a.code for a in actions], at
        action = fast.choose(actions, rng)
        assert code == action.code, at
        twin.apply(seat, action)
        states_agree(c_state, twin, at)
        positions.append(twin.copy())
    # Both stopped at the same place: the match's end, or the end of the last hand.
    assert twin.match_over or (twin.hand_over and played + 1 == hands)
    return positions


@settings(max_examples=45, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), players=st.integers(2, 10), seed=st.integers(0, 2**64 - 1),
       policy_seed=st.integers(0, 2**64 - 1), data=st.data())  # fmt: skip
def test_generated_games_and_positions_from_them(
    core: Any, rules: RuleSet, players: int, seed: int, policy_seed: int, data: st.DataObject
) -> None:
    low, high = rules.players
    assume(low <= players <= high)
    game = Game(rules, players, seed=seed, dealer=data.draw(st.integers(0, players - 1)))
    positions = compare(core, game, policy_seed, hands=3)
    # Positions from anywhere in those hands, played on (hand by hand to the match's end
    # under a small target), with another policy seed.
    live = [p for p in positions if not p.hand_over]
    for position in data.draw(st.lists(st.sampled_from(live), max_size=3)) if live else ():
        compare(core, position, data.draw(st.integers(0, 2**64 - 1)), hands=2)


def owe_uno(game: Game, rng: Rng) -> bool:
    """A player other than the one to act is left with one card, her call owed (or her
    false call standing under ``false_uno_penalty``)."""
    others = [s for s in game.seats_in_hand() if s != game.to_act and len(game.hands[s]) > 1]
    if not others:
        return False
    seat = others[rng.below(len(others))]
    game.draw_pile[:0] = game.hands[seat][1:]
    del game.hands[seat][1:]
    game.owes_uno[seat] = True
    if game.rules.false_uno_penalty and rng.below(2):
        game.owes_uno[seat], game.false_uno[seat] = False, True
    return True


def test_positions_of_every_phase(core: Any) -> None:
    """Deterministic sweep: positions with pending draws, drawn cards, colors to name,
    owed UNO calls, Nagasaki and Kobe locks, players out (to_the_last), set-aside hands
    (Quitter), new seatings and (nearly) empty piles, each played on in both engines."""
    seen: Counter[str] = Counter()
    rules_list = [
        RuleSet.from_json(spec)
        for spec in (
            "standard",
            "telegram",
            "alupula",
            {"preset": "telegram", "seven_zero": True, "jump_in": True, "uno_call": "auto"},
            {"preset": "alupula", "stack_draw_four": True, "finish": "to_the_last"},
            {"preset": "standard", "stack_cross": True, "draw_until_playable": True,
             "false_uno_penalty": True, "bad_catch_penalty": True, "uno_window": "own_turn"},
            {"preset": "standard", "challenge": False, "play_drawn": "must",
             "voluntary_draw": False, "scoring": "penalty", "target": 60},
            "byond",
            {"preset": "byond", "cards": {"QUIT": 2, "KOBE": 2, "CHAIRS": 2, "WTP": 2},
             "finish": "to_the_last", "stack_draw_two": True},
        )
    ]  # fmt: skip
    for index in range(18):
        rules = rules_list[index % len(rules_list)]
        low, high = rules.players
        players = low + index % (high - low + 1)
        game = Game(rules, players, seed=index)
        if index % 2 == 0 and first_card_fate(rules, Card.parse("W")) is None:
            # A first Wild: its color to be named.
            seeds = (s for s in range(index, 10**6) if Game(rules, players, seed=s).phase
                     is Phase.COLOR)  # fmt: skip
            game = Game(rules, players, seed=next(seeds))
        rng = Rng(index)
        for position in [game, *compare(core, game, index, hands=1)[:: 16 + index % 7]]:
            if position.hand_over:
                continue
            seen[position.phase.value] += 1
            seen["pending"] += position.pending_draw > 0
            seen["lock"] += position.nagasaki_lock is not None
            seen["out"] += position.players_in_hand < players
            seen["set aside"] += any(position.set_aside)
            seen["reseated"] += position.seating != sorted(position.seating)
            seen["kobe"] += any(c.symbol == "KOBE" for h in position.hands for c in h)
            # (Not while a drawn card waits: a card dealt into that hand, a Kobe, could
            # make it unplayable, a position no game reaches, which the core refuses.)
            if rng.below(3) == 0 and position.phase is not Phase.DRAWN:
                drain(position, rng.below(3), rng.below(3), rng)
                seen["drained"] += 1
            if rng.below(3) == 0 and owe_uno(position, rng):
                seen["owed"] += 1
            compare(core, position, rng.next64(), hands=1)
    for what in ("play", "drawn", "penalty", "color", "pending", "lock", "out", "drained",
                 "owed", "set aside", "reseated", "kobe"):  # fmt: skip
        assert seen[what], (what, seen)


def test_a_constructed_position_needs_the_rule_sets_deck(core: Any) -> None:
    game = Game("alupula", 3, seed=4)
    game.hands[0].append(Card.parse("SPY"))
    with pytest.raises(ValueError, match="not the rule set's deck: 1 of SPY, not 0"):
        fast.playout_from(game, 1)
    game = Game("telegram", 2, seed=4)
    game.phase = Phase.MATCH_OVER
    with pytest.raises(ValueError, match="the hand is over"):
        core.playout_from(fast.compiled(game.rules, 2), NAMES, fast._values(game), 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_target_practice_on_a_long_stack(core: Any, players: int) -> None:
    """Target Practice answering a stack of 70: 74 picks to split (every split listed with
    two others, one with one, each taking all and the even split with three)."""
    games = (Game("byond", players, seed=seed) for seed in range(100))
    game = next(g for g in games if g.to_act is not None and g.phase is Phase.PLAY
                and not any(c.symbol == "KOBE" for c in g.hands[g.to_act]))  # fmt: skip
    seat = game.to_act
    assert seat is not None
    card = Card.parse("WTP")
    for cards in (game.draw_pile, game.discard[:-1], *game.hands):
        if card in cards:
            cards.remove(card)
            break
    game.hands[seat].append(card)
    game.phase, game.pending_draw, game.pending_kind = Phase.PENALTY, 70, "WILD"
    game.pending_source = (seat - 1) % players
    plays = [a for a in game.legal_actions(seat) if a.card == card]
    assert len(plays) == 4 * {2: 1, 3: 75, 4: 4}[players]
    for policy_seed in range(4):
        compare(core, game, policy_seed, hands=1)
