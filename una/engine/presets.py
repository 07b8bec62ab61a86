"""Presets: named, documented bundles of deck, point values and switch defaults.

A preset is data. Rule code never tests a preset's name; it reads the rule set's switches,
deck and point values, so adding a preset means adding one entry to :data:`PRESETS`.

>>> PRESETS["standard"].deck_size
108
>>> PRESETS["standard"].card_points(Card.parse("W4"))
50
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from una.engine.cards import COLORS, Card


@dataclass(frozen=True)
class Preset:
    """A named rule bundle.

    ``deck`` maps card codes to counts; ``points`` maps a card's symbol (``"S"``, ``"W4"``) to
    its value, and number cards not listed score their face value. ``switches`` overrides
    the switch defaults of :data:`una.engine.rules.SWITCHES`. ``first_card`` says what happens
    when a card of that symbol is turned up first: ``"reshuffle"`` (back into the pile, which
    is shuffled, as the official Wild Draw Four) or ``"bottom"`` (under the pile).
    """

    name: str
    title: str
    description: str
    deck: MappingProxyType[str, int]
    points: MappingProxyType[str, int]
    switches: MappingProxyType[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    hand_size: int = 7
    first_card: MappingProxyType[str, str] = field(
        default_factory=lambda: MappingProxyType({"W4": "reshuffle"})
    )

    @property
    def deck_size(self) -> int:
        return sum(self.deck.values())

    def cards(self) -> list[Card]:
        """The whole deck in a fixed canonical order (shuffle it to deal)."""
        return [Card.parse(code) for code, count in self.deck.items() for _ in range(count)]

    def card_points(self, card: Card) -> int:
        value = self.points.get(card.symbol)
        if value is not None:
            return value
        if card.number is not None:
            return card.number
        raise KeyError(f"preset {self.name!r} gives no point value for {card.code}")


def classic_deck() -> dict[str, int]:
    """The 108 cards of RULES.md section 2, as code -> count."""
    counts: dict[str, int] = {}
    for color in COLORS:
        counts[f"{color.value}0"] = 1
        for symbol in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2"):
            counts[f"{color.value}{symbol}"] = 2
    counts["W"] = 4
    counts["W4"] = 4
    return counts


def _frozen(mapping: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(dict(mapping))


STANDARD = Preset(
    name="standard",
    title="Official rules",
    description=(
        "The official 108-card game (SKYRUS plays exactly this): Wild Draw Four bluffs may be "
        "challenged, UNO must be called and can be caught, the winner of a hand scores the "
        "cards left in the other hands, first to 500 wins the match."
    ),
    deck=_frozen(classic_deck()),
    points=_frozen({"S": 20, "R": 20, "D2": 20, "W": 50, "W4": 50}),
)

#: Every preset by name.
PRESETS: MappingProxyType[str, Preset] = MappingProxyType({STANDARD.name: STANDARD})
