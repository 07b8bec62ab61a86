"""The Una rules engine: pure Python, standard library only, no I/O; an optional compiled
core plays random playouts of the standard rules (:mod:`una.engine.fast`).

>>> from una.engine import Game
>>> game = Game("standard", players=3, seed=42)
>>> game.phase.value in ("play", "color")
True

See ``docs/rules.md`` for the rules and NOTATION.md for the codes.
"""

from una.engine.actions import Action, Kind
from una.engine.cards import ALL_CARDS, COLORS, Card, Color, format_cards, parse_cards
from una.engine.errors import (
    REFUSALS,
    IllegalAction,
    InvalidCode,
    InvalidRecord,
    InvalidRules,
    Refusal,
    UnaError,
)
from una.engine.events import Event
from una.engine.game import Game, Phase
from una.engine.presets import PRESETS, Preset
from una.engine.record import Record, ReplayError
from una.engine.rules import STANDARD_RULES, SWITCHES, RuleSet, Switch
from una.engine.views import View, view_for

__all__ = [
    "ALL_CARDS",
    "COLORS",
    "PRESETS",
    "REFUSALS",
    "STANDARD_RULES",
    "SWITCHES",
    "Action",
    "Card",
    "Color",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidCode",
    "InvalidRecord",
    "InvalidRules",
    "Kind",
    "Phase",
    "Preset",
    "Record",
    "Refusal",
    "ReplayError",
    "RuleSet",
    "Switch",
    "UnaError",
    "View",
    "format_cards",
    "parse_cards",
    "view_for",
]
