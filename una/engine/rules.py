"""Rule sets: a preset plus switch overrides, as validated, serialisable data.

>>> rules = RuleSet.from_json({"preset": "standard", "target": 200})
>>> rules.target, rules.challenge
(200, True)
>>> rules.to_json()
{'preset': 'standard', 'target': 200}
>>> RuleSet.from_json({"preset": "standard", "stack_draw_too": True})
Traceback (most recent call last):
...
una.engine.errors.InvalidRules: unknown switch 'stack_draw_too' (did you mean 'stack_draw_two'?)
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, fields
from functools import cached_property, lru_cache
from typing import Any

from una.engine.cards import MUTANTS, Card
from una.engine.errors import InvalidRules
from una.engine.presets import PRESETS, Preset

#: The most seats any table has (the official rules' 10).
MAX_SEATS = 10


@dataclass(frozen=True)
class Switch:
    """A rule switch: its name, its type, its default and a one-line description.

    ``choices`` lists the allowed values of a text switch.
    """

    name: str
    type: type
    default: Any
    description: str
    choices: tuple[str, ...] = ()

    def check(self, value: Any) -> Any:
        """The value, validated (a JSON list becomes a tuple for ``players``)."""
        if self.type is bool:
            if not isinstance(value, bool):
                raise InvalidRules(f"switch {self.name!r} takes true or false, not {value!r}")
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRules(f"switch {self.name!r} takes a whole number, not {value!r}")
            if value <= 0:
                raise InvalidRules(f"switch {self.name!r} must be positive, not {value}")
        elif self.type is str:
            if value not in self.choices:
                raise InvalidRules(
                    f"switch {self.name!r} takes one of {', '.join(self.choices)}, not {value!r}"
                )
        elif self.type is tuple:
            if (
                not isinstance(value, list | tuple)
                or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            ):
                raise InvalidRules(
                    f"switch {self.name!r} takes [min, max] seat counts, not {value!r}"
                )
            value = (value[0], value[1])
        elif self.type is dict:
            if not isinstance(value, dict):
                raise InvalidRules(
                    f"switch {self.name!r} takes an object of card counts, not {value!r}"
                )
            for code, count in value.items():
                if code not in MUTANTS:
                    close = difflib.get_close_matches(str(code), list(MUTANTS), n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    raise InvalidRules(f"switch 'cards': unknown mutant card {code!r}{hint}")
                if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 8:
                    raise InvalidRules(
                        f"switch 'cards': {code} takes a count from 0 to 8, not {count!r}"
                    )
            value = tuple(sorted((code, count) for code, count in value.items() if count))
        return value


SWITCHES: dict[str, Switch] = {
    s.name: s
    for s in (
        Switch("stack_draw_two", bool, False,
               "a pending Draw Two may be answered with a Draw Two; the total passes on"),
        Switch("stack_draw_four", bool, False,
               "a pending Wild Draw Four may be answered with a Wild Draw Four"),
        Switch("stack_cross", bool, False,
               "a Wild Draw Four may answer a pending Draw Two (never the other way)"),
        Switch("jump_in", bool, False,
               "a player holding a card identical to the top card may play it out of turn"),
        Switch("seven_zero", bool, False,
               "a 0 passes every hand on; a 7 swaps hands with a chosen player"),
        Switch("draw_until_playable", bool, False,
               "a player who draws keeps drawing until she gets a playable card"),
        Switch("voluntary_draw", bool, True, "a player may draw although she could play"),
        Switch("play_drawn", str, "may",
               "after drawing, the drawn card may be played, must be played, or never",
               choices=("may", "must", "never")),
        Switch("uno_call", str, "manual",
               "UNO is called by the player (and can be caught) or automatically",
               choices=("manual", "auto")),
        Switch("uno_window", str, "next_turn",
               "a missed UNO can be caught until the next player acts, or until her own turn",
               choices=("next_turn", "own_turn")),
        Switch("uno_penalty", str, "catch",
               "a missed UNO costs 2 cards only when caught, or automatically when its window "
               "closes", choices=("catch", "auto")),
        Switch("false_uno_penalty", bool, False,
               "calling UNO with more than one card can be caught like a missed call"),
        Switch("bad_catch_penalty", bool, False, "a wrong catch costs the catcher 2 cards"),
        Switch("challenge", bool, True,
               "Wild Draw Four bluffs are allowed and may be challenged (off: refused)"),
        Switch("guilty_color", str, "stands",
               "after a guilty challenge the named color stands or reverts",
               choices=("stands", "reverts")),
        Switch("challenge_reveal", bool, False,
               "after a guilty challenge the challenger sees that hand for the rest of the hand"),
        Switch("wd4_rule", str, "no_color",
               "a Wild Draw Four needs no card of the current color (or also none of its number)",
               choices=("no_color", "no_color_or_number")),
        Switch("finish", str, "first_out",
               "the hand ends when one player goes out, or goes on to the last player",
               choices=("first_out", "to_the_last")),
        Switch("scoring", str, "winner_takes_all",
               "how a hand scores: winner takes all, penalty, discards minus hand, none",
               choices=("winner_takes_all", "penalty", "discards_minus_hand", "none")),
        Switch("target", int, 500, "the score that ends the match"),
        Switch("first_player", str, "left_of_dealer",
               "who plays first in a hand: the player left of the dealer, or a random player",
               choices=("left_of_dealer", "random")),
        Switch("players", tuple, (2, 10), "the smallest and largest number of seats"),
        Switch("cards", dict, {},
               "BYOND mutant cards in the deck: family -> count (colored ones per color)"),
    )
}  # fmt: skip


@dataclass(frozen=True)
class RuleSet:
    """A preset plus switches. Build it with :meth:`from_json` or :meth:`preset_named`."""

    preset: str = "standard"
    stack_draw_two: bool = False
    stack_draw_four: bool = False
    stack_cross: bool = False
    jump_in: bool = False
    seven_zero: bool = False
    draw_until_playable: bool = False
    voluntary_draw: bool = True
    play_drawn: str = "may"
    uno_call: str = "manual"
    uno_window: str = "next_turn"
    uno_penalty: str = "catch"
    false_uno_penalty: bool = False
    bad_catch_penalty: bool = False
    challenge: bool = True
    guilty_color: str = "stands"
    challenge_reveal: bool = False
    wd4_rule: str = "no_color"
    finish: str = "first_out"
    scoring: str = "winner_takes_all"
    target: int = 500
    first_player: str = "left_of_dealer"
    players: tuple[int, int] = (2, 10)
    cards: tuple[tuple[str, int], ...] = ()

    @classmethod
    def preset_named(cls, name: str) -> RuleSet:
        """The rule set of a preset with no overrides."""
        return cls.from_json(name)

    @classmethod
    def from_json(cls, value: Any) -> RuleSet:
        """A rule set from a preset name or ``{"preset": name, switch: value, ...}``."""
        if isinstance(value, str):
            value = {"preset": value}
        if not isinstance(value, dict):
            raise InvalidRules(f"rules must be a preset name or an object, not {value!r}")
        name = value.get("preset", "standard")
        preset = PRESETS.get(name) if isinstance(name, str) else None
        if preset is None:
            raise InvalidRules(f"unknown preset {name!r} (presets: {', '.join(sorted(PRESETS))})")
        settings: dict[str, Any] = dict(preset.switches)
        settings["cards"] = dict(preset.mutants)
        for key, raw in value.items():
            if key == "preset":
                continue
            switch = SWITCHES.get(key)
            if switch is None:
                close = difflib.get_close_matches(key, list(SWITCHES), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise InvalidRules(f"unknown switch {key!r}{hint}")
            if key == "cards" and isinstance(raw, dict):
                # Counts change the preset's own, card by card.
                raw = settings["cards"] | raw
            settings[key] = raw
        checked = {key: SWITCHES[key].check(raw) for key, raw in settings.items()}
        rules = cls(preset=name, **checked)
        rules._check_consistent()
        return rules

    def _check_consistent(self) -> None:
        low, high = self.players
        most = min(MAX_SEATS, self.preset_data.max_seats)
        if not 2 <= low <= high <= most:
            raise InvalidRules(
                f"players {list(self.players)}: need 2 <= min <= max <= {most} ({self.preset})"
            )
        size = len(self.deck())
        if high * self.preset_data.hand_size + 1 > size:
            raise InvalidRules(
                f"players {list(self.players)}: {high} hands of {self.preset_data.hand_size} "
                f"do not fit in a deck of {size}"
            )
        if not self.challenge and self.guilty_color != "stands":
            raise InvalidRules("guilty_color needs challenge: without challenges nobody is guilty")
        if not self.challenge and self.challenge_reveal:
            raise InvalidRules("challenge_reveal needs challenge: there is nothing to reveal")
        if self.draw_until_playable and self.play_drawn == "never":
            raise InvalidRules(
                "draw_until_playable contradicts play_drawn='never': the card drawn for play "
                "could never be played"
            )

    def with_switches(self, **overrides: Any) -> RuleSet:
        """A copy with some switches changed (validated like :meth:`from_json`)."""
        return RuleSet.from_json(self.to_dict() | overrides)

    @property
    def preset_data(self) -> Preset:
        return PRESETS[self.preset]

    @property
    def hand_size(self) -> int:
        return self.preset_data.hand_size

    def deck(self) -> list[Card]:
        """The rule set's whole deck, in canonical order (a new list each time)."""
        return list(_deck(self.preset, self.cards))

    def points(self, card: Card, opponents: int = 1) -> int:
        """A card's value (``opponents`` counts for a per-opponent card)."""
        return self.preset_data.card_points(card, opponents)

    def to_dict(self) -> dict[str, Any]:
        """Every switch with its value, and the preset."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "cards":
                out[f.name] = dict(value)
            else:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def overrides(self) -> dict[str, Any]:
        """The switches that differ from the preset's defaults (``cards``: only the counts
        that differ, 0 for a card taken out)."""
        return dict(self._overrides)

    @cached_property
    def _overrides(self) -> dict[str, Any]:
        # Views quote the rules on every decision: work this out once per rule set.
        base = RuleSet.from_json(self.preset).to_dict()
        out = {k: v for k, v in self.to_dict().items() if k != "preset" and v != base[k]}
        if "cards" in out:
            mine, theirs = out["cards"], base["cards"]
            out["cards"] = {
                code: mine.get(code, 0)
                for code in sorted(set(mine) | set(theirs))
                if mine.get(code, 0) != theirs.get(code, 0)
            }
        return out

    def to_json(self) -> str | dict[str, Any]:
        """The preset name alone, or the preset with its overrides."""
        overrides = self.overrides()
        return {"preset": self.preset, **overrides} if overrides else self.preset

    def __str__(self) -> str:
        overrides = self.overrides()
        if not overrides:
            return self.preset
        return self.preset + " " + " ".join(f"{k}={v}" for k, v in overrides.items())


@lru_cache(maxsize=256)
def _deck(preset: str, cards: tuple[tuple[str, int], ...]) -> tuple[Card, ...]:
    return tuple(PRESETS[preset].cards(dict(cards)))


STANDARD_RULES = RuleSet.preset_named("standard")
__all__ = ["STANDARD_RULES", "SWITCHES", "RuleSet", "Switch"]
