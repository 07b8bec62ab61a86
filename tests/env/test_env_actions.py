"""una.env.actions: the fixed action space and its round trip with the action codes."""

from __future__ import annotations

import random

import pytest

from una.engine import PRESETS, Action, Game
from una.engine.actions import Kind
from una.env.actions import ActionSpace, even_split
from una.env.core import make_rules

#: Rule sets whose cards pick players or add verbs: every kind of slot is exercised.
RULES = [
    ("standard", 2, ()),
    ("standard", 4, ("seven_zero=true", "jump_in=true")),
    ("telegram", 3, ("uno_call=auto",)),
    ("alupula", 3, ()),
    ("byond", 6, ()),
]


@pytest.mark.parametrize(("rules", "players", "overrides"), RULES)
def test_every_fixed_slot_round_trips_with_its_code(
    rules: str, players: int, overrides: tuple[str, ...]
) -> None:
    space = ActionSpace(make_rules(rules, overrides), players)
    codes = [slot.code for slot in space.slots]
    assert len(set(codes)) == len(codes)
    for slot in space.slots:
        if slot.action is None:  # wait and the Target Practice patterns
            continue
        parsed = Action.parse(slot.code)
        assert parsed == slot.action
        assert parsed.code == slot.code
        assert space.index(parsed) == slot.index
        assert space.index(Action.parse(slot.code.lower())) == slot.index
    assert space.code(space.wait) == "wait"
    assert space.wait == len(space) - 1


def test_the_layout_is_documented_order() -> None:
    space = ActionSpace("standard", 2)
    kinds = [slot.kind for slot in space.slots[:-1]]
    plays = kinds.count(Kind.PLAY)
    # 52 colored cards, W and W4 in four colors, each with and without an UNO call.
    assert plays == (52 + 4 + 4) * 2
    assert [space.code(i) for i in range(plays, len(space))] == [
        "draw", "pass", "challenge", "uno", "color R", "color Y", "color G", "color B",
        "catch @0", "catch @1", "deal", "wait",
    ]  # fmt: skip
    auto = ActionSpace(make_rules("standard", ["uno_call=auto"]), 2)
    assert not any(slot.uno for slot in auto.slots)
    assert len(auto) == len(space) - plays // 2


def test_picking_cards_have_a_slot_per_seat() -> None:
    space = ActionSpace(make_rules("standard", ["seven_zero=true"]), 3)
    sevens = [slot.code for slot in space.slots if slot.card and slot.card.code == "R7"]
    assert sevens == [
        "play R7 @0", "play R7 @0 uno", "play R7 @1", "play R7 @1 uno",
        "play R7 @2", "play R7 @2 uno",
    ]  # fmt: skip
    byond = ActionSpace("byond", 3)
    wtp = [slot.code for slot in byond.slots if slot.card and slot.card.code == "WTP"]
    assert "play WTP G @2* uno" in wtp and "play WTP B even" in wtp
    dance = [slot.code for slot in byond.slots if slot.card and slot.card.code == "DANCE"]
    assert "play DANCE R" in dance and "play DANCE R @1" in dance


def test_target_practice_patterns() -> None:
    space = ActionSpace("byond", 4)
    all_to_2 = space.find(Action.parse("play WTP R @2 @2 @2 @2"))
    assert all_to_2 is not None and space.code(all_to_2) == "play WTP R @2*"
    even = Action.parse("play WTP R @1 @1 @2 @3")
    assert even_split([1, 2, 3], 4) == (1, 1, 2, 3)
    found = space.find(even, others=[1, 2, 3])
    assert found is not None and space.code(found) == "play WTP R even"
    assert space.find(Action.parse("play WTP R @1 @2 @2 @3"), others=[1, 2, 3]) is None
    legal = [Action.parse("play WTP R @1 @2 @2 @3"), even, Action.parse("draw")]
    assert set(space.legal_map(legal, others=[1, 2, 3]).values()) == {even, legal[2]}


def test_bad_indexes_and_actions_are_refused() -> None:
    space = ActionSpace("standard", 2)
    with pytest.raises(ValueError, match="out of range 0-131"):
        space.code(132)
    with pytest.raises(ValueError, match="no index in this space"):
        space.index(Action.parse("catch @5"))
    with pytest.raises(ValueError, match="no index"):
        space.index(Action.parse("play RSP"))  # not a card of the standard deck


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_every_legal_action_of_random_hands_has_an_index(rules: str) -> None:
    """Everything the engine lists is in the space, but Target Practice splits other than
    all-to-one and the even one (the space keeps those two)."""
    players = 4
    space = ActionSpace(rules, players)
    rng = random.Random(rules)
    for seed in range(3):
        game = Game(rules, players, seed=seed)
        for _ in range(300):
            if game.hand_over:
                break
            for seat in range(players):
                legal = game.legal_actions(seat)
                others = [s for s in game.seats_in_hand() if s != seat]
                mapped = space.legal_map(legal, others)
                for action in legal:
                    if action.card is not None and action.card.code == "WTP":
                        continue
                    assert mapped[space.index(action)] == action
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
