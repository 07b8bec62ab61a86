"""Hypothesis property tests: the invariants of RULES.md section 8 over random games.

Random legal actions by random seats (catches, UNO calls and challenges included), under
random switch combinations; after every action the invariants are checked.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from una.engine import PRESETS, Action, Card, Game, IllegalAction, InvalidRules, RuleSet
from una.engine.actions import Kind
from una.engine.cards import ALL_CARDS, COLORS, MUTANTS
from una.engine.game import Phase
from una.engine.record import Record
from una.engine.rules import SWITCHES

#: Switch values the engine implements, to combine at random.
SWITCH_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "stack_draw_two": st.booleans(),
    "stack_draw_four": st.booleans(),
    "stack_cross": st.booleans(),
    "draw_until_playable": st.booleans(),
    "voluntary_draw": st.booleans(),
    "play_drawn": st.sampled_from(SWITCHES["play_drawn"].choices),
    "uno_call": st.sampled_from(SWITCHES["uno_call"].choices),
    "uno_window": st.sampled_from(SWITCHES["uno_window"].choices),
    "uno_penalty": st.sampled_from(SWITCHES["uno_penalty"].choices),
    "false_uno_penalty": st.booleans(),
    "bad_catch_penalty": st.booleans(),
    "challenge": st.booleans(),
    "guilty_color": st.sampled_from(SWITCHES["guilty_color"].choices),
    "challenge_reveal": st.booleans(),
    "wd4_rule": st.sampled_from(SWITCHES["wd4_rule"].choices),
    "scoring": st.sampled_from(SWITCHES["scoring"].choices),
    "target": st.sampled_from([50, 200, 500]),
    "jump_in": st.booleans(),
    "seven_zero": st.booleans(),
    "finish": st.sampled_from(SWITCHES["finish"].choices),
    "first_player": st.sampled_from(SWITCHES["first_player"].choices),
    "cards": st.dictionaries(st.sampled_from(MUTANTS), st.integers(0, 3), max_size=6),
}


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """A random preset with random switch overrides (contradictions are left out)."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = draw(st.fixed_dictionaries({}, optional=SWITCH_VALUES))
    try:
        return RuleSet.from_json({"preset": preset, **overrides})
    except InvalidRules:
        assume(False)
        raise  # pragma: no cover


@st.composite
def tables(draw: st.DrawFn) -> tuple[RuleSet, int]:
    """Rules and a seat count they allow."""
    rules = draw(rule_sets())
    low, high = rules.players
    return rules, draw(st.integers(low, min(high, 6)))


def every_legal(game: Game) -> list[tuple[int, Action]]:
    return [(seat, action) for seat in range(game.n) for action in game.legal_actions(seat)]


def random_action(rng: random.Random, game: Game) -> tuple[int, Action]:
    """Any action at all, mostly illegal: to check that refusals change nothing."""
    seat = rng.randrange(-1, game.n + 1)
    kind = rng.choice(list(Kind))
    if kind is Kind.PLAY:
        card = rng.choice(ALL_CARDS[:60])
        color = rng.choice([None, *COLORS])
        return seat, Action.play(card, color, uno=rng.random() < 0.2)
    if kind is Kind.CATCH:
        return seat, Action.catch(rng.randrange(0, game.n + 1))
    if kind is Kind.COLOR:
        return seat, Action.name_color(rng.choice(COLORS))
    return seat, Action(kind)


def snapshot(game: Game) -> tuple[Any, ...]:
    return (
        game.state_json(),
        [list(h) for h in game.hands],
        list(game.draw_pile),
        list(game.discard),
        game.phase,
        len(game.log),
        game.rng.state,
    )


def check_invariants(game: Game, deck: Counter[Card]) -> None:
    # Card conservation, card for card.
    assert Counter(game.all_cards()) == deck
    if game.match_over:
        assert all(game.legal_actions(s) == [] for s in range(game.n))
        return
    if game.hand_over:
        assert all(Action(Kind.DEAL) in game.legal_actions(s) for s in range(game.n))
        return
    # The player to act always has a legal turn action.
    assert game.to_act is not None
    turn = [a for a in game.legal_actions(game.to_act) if a.kind not in (Kind.UNO, Kind.CATCH)]
    assert turn, f"seat {game.to_act} has no legal action in {game!r}"


def check_hidden(game: Game, rng: random.Random) -> None:
    """A view never depends on a card its seat may not see: shuffling every hidden card
    (the draw pile and the other hands, but what a rule shows) leaves it unchanged."""
    for seat in [None, *range(game.n)]:
        view = game.view_for(seat).to_json()
        other = game.copy()
        live = {t for v, t, cards in game.reveals if v == seat and cards is None}
        # Once the hand is over every hand is laid open to be scored (View.end_hands).
        hidden_seats = [] if game.hand_over else [
            s for s in range(game.n) if s != seat and s not in live
        ]  # fmt: skip
        pool = list(other.draw_pile)
        for s in hidden_seats:
            pool.extend(other.hands[s])
        rng.shuffle(pool)
        other.draw_pile = pool[: len(other.draw_pile)]
        rest = pool[len(other.draw_pile) :]
        for s in hidden_seats:
            size = len(other.hands[s])
            other.hands[s], rest = rest[:size], rest[size:]
        assert other.view_for(seat).to_json() == view
        if seat is None:
            assert view["hand"] is None and view["legal"] == []


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    table=tables(),
    seed=st.integers(0, 2**32),
    moves=st.integers(50, 1500),
    choice_seed=st.integers(0, 2**32),
)
def test_invariants_over_random_games(
    table: tuple[RuleSet, int], seed: int, moves: int, choice_seed: int
) -> None:
    rules, players = table
    rng = random.Random(choice_seed)
    game = Game(rules, players=players, seed=seed, dealer=seed % players)
    deck = Counter(rules.deck())
    check_invariants(game, deck)
    for step in range(moves):
        if game.match_over:
            break
        if step % 7 == 0:
            # An arbitrary action: refused with nothing changed, or legal after all.
            seat, action = random_action(rng, game)
            before = snapshot(game)
            try:
                game.apply(seat, action)
            except IllegalAction:
                assert snapshot(game) == before
            else:
                check_invariants(game, deck)
                continue
        options = every_legal(game)
        # Mostly the player to act, sometimes anybody (catches, calls, challenges).
        own = [o for o in options if o[0] == game.to_act] or options
        seat, action = rng.choice(own if rng.random() < 0.8 else options)
        game.apply(seat, action)
        check_invariants(game, deck)
        if step % 40 == 0:
            check_hidden(game, rng)
    event(f"hands dealt: {min(game.hand_number, 3)}{'+' if game.hand_number > 3 else ''}")
    # Determinism and the record round-trip: replaying the record gives the same game.
    record = Record.loads(game.to_record().dumps())
    again = record.replay()
    assert snapshot(again) == snapshot(game)
    assert [list(h) for h in again.hands] == [list(h) for h in game.hands]


def calm_choice(rng: random.Random, game: Game, options: list[tuple[int, Action]]) -> Action:
    """A player who plays when she can (as RLCard's random agent), takes penalties rather
    than stacking, and keeps a Nagasaki for last. A uniformly random walk also ends every
    hand, but under Alupula with stacking and ``to_the_last`` it may take 50,000 actions."""
    own = [a for seat, a in options if seat == game.to_act]
    if game.phase is Phase.PENALTY:
        return next(a for a in own if a.kind is Kind.DRAW)
    plays = [a for a in own if a.kind is Kind.PLAY]
    calm = [a for a in plays if a.card is not None and a.card.symbol != "NAGA"]
    return rng.choice(calm or plays or own)


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    overrides=st.fixed_dictionaries({}, optional=SWITCH_VALUES),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    choice_seed=st.integers(0, 2**32),
)
def test_every_combination_plays_to_the_end_or_is_refused(
    preset: str, overrides: dict[str, Any], players: int, seed: int, choice_seed: int
) -> None:
    """Every switch combination is either refused up front, with a message naming a switch
    it sets, or plays its hands to the end; and every action legal_actions lists, for any
    seat, is accepted (tried on a copy)."""
    try:
        rules = RuleSet.from_json({"preset": preset, **overrides})
    except InvalidRules as error:
        assert any(name in str(error) for name in overrides)
        return
    low, high = rules.players
    players = max(low, min(players, high))
    rng = random.Random(choice_seed)
    game = Game(rules, players=players, seed=seed)
    for _hand in range(2):
        for _ in range(20_000):
            if game.hand_over:
                break
            options = every_legal(game)
            for seat, action in options:
                assert game.is_legal(seat, action)
            probe = game.copy()
            probe.apply(*rng.choice(options))
            # Out-of-turn actions now and then: catches, calls, jump-ins.
            others = [o for o in options if o[0] != game.to_act]
            if others and rng.random() < 0.2:
                game.apply(*rng.choice(others))
                continue
            seat = game.to_act
            assert seat is not None
            game.apply(seat, calm_choice(rng, game, options))
        assert game.hand_over
        if game.match_over:
            break
        game.apply(rng.randrange(players), "deal")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), moves=st.integers(0, 200))
def test_same_seed_and_actions_same_game(seed: int, players: int, moves: int) -> None:
    first = Game("standard", players=players, seed=seed)
    second = Game("standard", players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if first.match_over:
            break
        seat, action = rng.choice(every_legal(first))
        assert first.apply(seat, action) == second.apply(seat, action)
        assert snapshot(first) == snapshot(second)


def test_copies_are_independent() -> None:
    game = Game("standard", players=3, seed=9)
    twin = game.copy()
    seat = game.to_act
    assert seat is not None
    game.apply(seat, game.legal_actions(seat)[0])
    assert snapshot(twin) != snapshot(game)
    assert len(twin.log) == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    overrides=st.fixed_dictionaries(
        {},
        optional={
            k: SWITCH_VALUES[k] for k in ("jump_in", "seven_zero", "finish", "stack_draw_two")
        },
    ),
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    moves=st.integers(100, 1200),
    choice_seed=st.integers(0, 2**32),
)
def test_invariants_over_byond_games_full_of_mutants(
    overrides: dict[str, Any], players: int, seed: int, moves: int, choice_seed: int
) -> None:
    """Every mutant three times over, so each card is played often."""
    rules = RuleSet.from_json({"preset": "byond", "cards": dict.fromkeys(MUTANTS, 3), **overrides})
    rng = random.Random(choice_seed)
    game = Game(rules, players=players, seed=seed)
    deck = Counter(rules.deck())
    played: set[str] = set()
    for step in range(moves):
        if game.match_over:
            break
        options = every_legal(game)
        own = [o for o in options if o[0] == game.to_act] or options
        plays = [o for o in own if o[1].kind is Kind.PLAY]
        choice = own if not plays or rng.random() < 0.1 else plays
        seat, action = rng.choice(options if rng.random() < 0.1 else choice)
        game.apply(seat, action)
        if action.card is not None:
            played.add(action.card.effect)
        check_invariants(game, deck)
        if step % 30 == 0:
            check_hidden(game, rng)
    event(f"mutant families played: {len(played & set(MUTANTS)) // 5 * 5}+")
    again = Record.loads(game.to_record().dumps()).replay()
    assert snapshot(again) == snapshot(game)
