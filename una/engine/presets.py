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

from una.engine.cards import COLORED_MUTANTS, COLORS, MUTANTS, Card


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
    #: The most seats the preset allows, whatever its ``players`` switch says.
    max_seats: int = 10
    #: Cards whose value is multiplied by the number of opponents (BYOND's Draw Spreader).
    per_opponent: frozenset[str] = frozenset()
    #: Mutant families added to ``deck`` by default, as family -> count (colored ones per
    #: color); the rule set's ``cards`` switch changes them.
    mutants: MappingProxyType[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def deck_size(self) -> int:
        return len(self.cards())

    def cards(self, mutants: dict[str, int] | None = None) -> list[Card]:
        """The whole deck in a fixed canonical order (shuffle it to deal): the base deck
        plus ``mutants`` (family -> count; the preset's own by default)."""
        counts = dict(self.deck) | mutant_deck(dict(self.mutants) if mutants is None else mutants)
        return [Card.parse(code) for code, count in counts.items() for _ in range(count)]

    def card_points(self, card: Card, opponents: int = 1) -> int:
        """The card's value; ``opponents`` multiplies a per-opponent card's."""
        value = self.points.get(card.symbol)
        if value is not None:
            return value * opponents if card.symbol in self.per_opponent else value
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


def mutant_deck(counts: dict[str, int]) -> dict[str, int]:
    """Mutant cards as code -> count, from family counts (colored ones per color).

    >>> mutant_deck({"SP": 2, "SPY": 1})
    {'RSP': 2, 'YSP': 2, 'GSP': 2, 'BSP': 2, 'SPY': 1}
    """
    out: dict[str, int] = {}
    for family, count in counts.items():
        if count <= 0:
            continue
        if family in COLORED_MUTANTS:
            for color in COLORS:
                out[f"{color.value}{family}"] = count
        else:
            out[family] = count
    return out


#: Points of the BYOND mutants (RULES.md section 6). Holy Defender is worth 0 itself: it
#: halves its holder's hand score instead. The Draw Spreader's 20 counts once per opponent.
MUTANT_POINTS = {
    "SP": 20, "RD2": 40, "DB2": 40, "RR": 10, "RS": 40, "SS": 40,
    "WDD": 0, "WR4": 150, "WB4": 100, "WMY": 100, "WTP": 150,
    "HOLY": 0, "QUIT": 100, "SCREW": 100, "KOBE": 666, "BLEND": 30, "RAND": 30,
    "TRADE": 35, "CHAIRS": 30, "DANCE": 35, "SPY": 100, "DUNG": 100,
}  # fmt: skip


STANDARD = Preset(
    name="standard",
    title="Official rules",
    description=(
        "The official 108-card game: Wild Draw Four bluffs may be challenged, UNO must be "
        "called and can be caught, the winner of a hand scores the cards left in the other "
        "hands, first to 500 wins the match."
    ),
    deck=_frozen(classic_deck()),
    points=_frozen({"S": 20, "R": 20, "D2": 20, "W": 50, "W4": 50} | MUTANT_POINTS),
    per_opponent=frozenset({"SP"}),
)

ALUPULA = Preset(
    name="alupula",
    title="Alupula UNO",
    description=(
        "The Alupula variant: the classic deck plus a colored Draw 4 in each color, four "
        "Colourless and two Nagasaki cards. A Wild Draw Four is a bluff if you hold a card of "
        "the current color or a number card of the top card's number. Wilds are worth 100."
    ),
    deck=_frozen(classic_deck() | {f"{c.value}D4": 1 for c in COLORS} | {"CL": 4, "NAGA": 2}),
    points=_frozen(
        {"CL": 10, "S": 20, "R": 20, "D2": 20, "D4": 50, "W": 100, "W4": 100, "NAGA": 0}
        | MUTANT_POINTS
    ),
    per_opponent=frozenset({"SP"}),
    switches=_frozen({"wd4_rule": "no_color_or_number"}),
    # A Wild, Wild Draw 4, Draw 4 or Nagasaki turned up first goes under the pile.
    first_card=_frozen({"W": "bottom", "W4": "bottom", "D4": "bottom", "NAGA": "bottom"}),
)

TELEGRAM = Preset(
    name="telegram",
    title="Telegram bot (RU)",
    description=(
        "The Russian Telegram bot's game: Draw Twos stack, a random player starts, and each "
        "player scores the points she discarded minus the points left in her hand (numbers "
        "face value, Skip / Reverse / Draw Two 10, wilds 20); a missed UNO costs 2 cards as soon "
        "as the next player moves (uno_penalty auto). Its modes are switches: finish (first "
        "winner / to the last), uno_call (manual / auto), jump_in, seven_zero."
    ),
    deck=_frozen(classic_deck()),
    points=_frozen({"S": 10, "R": 10, "D2": 10, "W": 20, "W4": 20} | MUTANT_POINTS),
    per_opponent=frozenset({"SP"}),
    switches=_frozen(
        {
            "stack_draw_two": True,
            "scoring": "discards_minus_hand",
            "first_player": "random",
            # The bot itself gives the +2 when the next player moves before the «Уно».
            "uno_penalty": "auto",
        }
    ),
)

BYOND = Preset(
    name="byond",
    title="Una for BYOND",
    description=(
        "The BYOND game: up to 8 seats; each player adds the points left in her hand and the "
        "lowest total wins when someone reaches the limit; a missed or false UNO can be caught "
        "until the player's own next turn, and a wrong catch costs the catcher 2; a guilty Wild "
        "Draw Four keeps the old color and its hand stays visible to the challenger; wild draws "
        "stack. On top of the classic deck: the 22 mutant cards, one of each colored mutant "
        "per color and one of each other card (each can be switched off or given a count)."
    ),
    deck=_frozen(classic_deck()),
    mutants=_frozen({family: 1 for family in MUTANTS}),
    points=_frozen({"S": 20, "R": 20, "D2": 20, "W": 50, "W4": 50} | MUTANT_POINTS),
    per_opponent=frozenset({"SP"}),
    switches=_frozen(
        {
            "scoring": "penalty",
            "uno_window": "own_turn",
            "false_uno_penalty": True,
            "bad_catch_penalty": True,
            "challenge_reveal": True,
            "guilty_color": "reverts",
            "stack_draw_four": True,
            "players": (2, 8),
        }
    ),
    max_seats=8,
)

#: Every preset by name.
PRESETS: MappingProxyType[str, Preset] = MappingProxyType(
    {preset.name: preset for preset in (STANDARD, ALUPULA, TELEGRAM, BYOND)}
)
