"""Events as data (``Event.to_json``, ``Event.json_for``): every type, and what each seat sees."""

from __future__ import annotations

import json
import random

import pytest

from una.engine import Game
from una.engine import events as ev


def _events(preset: str, seed: int, players: int = 4) -> list[ev.Event]:
    """Every event of a few random hands of ``preset``."""
    game = Game(preset, players=players, seed=seed)
    rng = random.Random(seed)
    out = list(game.start_events)
    for _ in range(600):
        if game.match_over:
            break
        seats = [s for s in range(game.n) if game.legal_actions(s)]
        seat = game.to_act if game.to_act in seats and rng.random() < 0.8 else rng.choice(seats)
        out += game.apply(seat, rng.choice(game.legal_actions(seat)))
    return out


@pytest.mark.parametrize("preset", ["standard", "alupula", "byond", "telegram"])
def test_every_event_is_json_with_its_type(preset: str) -> None:
    for event in _events(preset, seed=7):
        data = event.to_json()
        assert json.loads(json.dumps(data)) == data
        assert ev.EVENT_TYPES[data["type"]] is type(event)
        assert list(data)[1:] == [f for f in type(event).__dataclass_fields__]  # type: ignore[attr-defined]


def test_a_seat_sees_only_her_own_drawn_cards() -> None:
    drawn = [e for e in _events("standard", seed=3) if isinstance(e, ev.CardsDrawn) and e.cards]
    assert drawn
    for event in drawn:
        assert event.json_for(event.seat) == event.to_json()
        for other in (None, *(s for s in range(4) if s != event.seat)):
            seen = event.json_for(other)
            assert seen["cards"] == [] and seen["count"] == event.count


def test_a_shown_hand_is_seen_by_the_two_players_only() -> None:
    from una.engine.cards import parse_cards

    shown = ev.HandRevealed(0, 2, tuple(parse_cards("R5 W4")))
    assert shown.json_for(0)["cards"] == shown.json_for(2)["cards"] == ["R5", "W4"]
    assert shown.json_for(1)["cards"] == shown.json_for(None)["cards"] == []


def test_every_event_class_has_a_json_type() -> None:
    classes = {c for c in vars(ev).values() if isinstance(c, type) and issubclass(c, ev.Event)}
    assert set(ev.EVENT_TYPES.values()) == classes - {ev.Event}
