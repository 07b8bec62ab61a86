"""The fixed discrete action space of an environment: one index per action code.

The space depends only on the rule set and the number of seats, never on the state, so an
agent's output layer has a fixed size. In index order it holds:

1. every ``play``: each distinct card of the rule set's deck in display order, each color it
   may name (a wild: ``R Y G B``; any other card: none), each choice of ``@seat`` picks its
   card allows (see below), and, under ``uno_call=manual``, the same play calling UNO;
2. ``draw``, ``pass``, ``challenge``, ``uno``;
3. ``color R``, ``color Y``, ``color G``, ``color B``;
4. ``catch @0`` ... ``catch @n-1``;
5. ``deal``;
6. ``wait``: not an action code but the environment's own "nothing now", offered to a seat
   that may act out of turn (a catch, an UNO call, a jump-in) but is not to act.

Picks (``@seat``) use absolute seat numbers, as the codes do. A card that picks one player
(a 7 under seven-zero, Trader Joe, Spy, Quitter, Dance Fever) has a slot per seat (Dance
Fever also one without a pick: it may pick nobody). Target Practice picks who draws each
of its 4 or more cards; the space offers one slot per opponent taking them all
(``play WTP G @1*``) and one for the even split round the table (``play WTP G even``),
which are the splits the engine always lists. Slots a rule set can never make legal (a
pick of one's own seat) stay masked.

>>> space = ActionSpace("standard", players=2)
>>> len(space)
132
>>> space.code(space.index(Action.parse("play W4 g uno")))
'play W4 G uno'
>>> space.index(Action.parse("catch @1")) == space.catch_index(1)
True
>>> space.code(space.wait)
'wait'
>>> space.index(Action.parse("play R5 @1"))
Traceback (most recent call last):
...
ValueError: action 'play R5 @1' has no index in this space (standard, 2 seats)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from una.engine.actions import CHALLENGE, DEAL, DRAW, PASS, UNO, Action, Kind
from una.engine.cards import COLORS, Card, Color
from una.engine.effects import Effect, effect_table
from una.engine.game import Game
from una.engine.rules import RuleSet

#: Pick patterns of a play slot: ``("", None)`` no pick, ``("one", k)`` one pick of seat k,
#: ``("all", k)`` every pick to seat k, ``("even", None)`` the even split round the table.
Pattern = tuple[str, int | None]
NO_PICK: Pattern = ("", None)
EVEN: Pattern = ("even", None)


@dataclass(frozen=True, slots=True)
class Slot:
    """One index of the space: the action it stands for (for a Target Practice pattern,
    ``action`` is ``None``: its picks depend on how many cards it makes draw)."""

    index: int
    code: str
    kind: Kind
    action: Action | None
    card: Card | None = None
    color: Color | None = None
    pattern: Pattern = NO_PICK
    uno: bool = False


class ActionSpace:
    """The action space of ``rules`` at a table of ``players`` seats.

    ``index(action)`` maps an engine action to its index; ``code(i)`` gives a slot's code,
    which parses back to the same action (:meth:`Action.parse`) for every slot but the
    Target Practice patterns and ``wait``; ``action(i, legal)`` resolves an index against
    the current legal actions.
    """

    def __init__(self, rules: RuleSet | str | dict[str, Any], players: int) -> None:
        self.rules = rules if isinstance(rules, RuleSet) else RuleSet.from_json(rules)
        check_players(self.rules, players)
        self.players = players
        effects = effect_table(self.rules)
        probe = Game(self.rules, players)
        uno_variants = (False, True) if self.rules.uno_call == "manual" else (False,)
        slots: list[Slot] = []

        def add(code: str, kind: Kind, action: Action | None, **extra: Any) -> None:
            slots.append(Slot(len(slots), code, kind, action, **extra))

        self.cards: tuple[Card, ...] = tuple(sorted(set(self.rules.deck()), key=_sort_key))
        for card in self.cards:
            colors: tuple[Color | None, ...] = COLORS if card.is_wild else (None,)
            for pattern in _patterns(effects[card], card, probe):
                for color in colors:
                    for uno in uno_variants:
                        action = _fixed_play(card, color, pattern, uno)
                        code = action.code if action else _pattern_code(card, color, pattern, uno)
                        add(code, Kind.PLAY, action, card=card, color=color, pattern=pattern,
                            uno=uno)  # fmt: skip
        self.first_bare = len(slots)
        for bare in (DRAW, PASS, CHALLENGE, UNO):
            add(bare.code, bare.kind, bare)
        self.first_color = len(slots)
        for color in COLORS:
            named = Action.name_color(color)
            add(named.code, Kind.COLOR, named)
        self.first_catch = len(slots)
        for seat in range(players):
            caught = Action.catch(seat)
            add(caught.code, Kind.CATCH, caught)
        self.deal = len(slots)
        add(DEAL.code, Kind.DEAL, DEAL)
        #: The index of ``wait`` (decline an out-of-turn chance); always the last.
        self.wait = len(slots)
        add("wait", Kind.UNO, None)  # kind unused: wait is no engine action
        self.slots: tuple[Slot, ...] = tuple(slots)
        #: Whether a card picks several players (Target Practice): see :meth:`find`.
        self.multi_picks = any(slot.pattern[0] in ("all", "even") for slot in slots)
        self._by_action: dict[Action, int] = {
            slot.action: slot.index for slot in slots if slot.action is not None
        }
        # The engine's plays and bare actions are interned: most lookups hit by identity,
        # without hashing (these objects live as long as the space, so ids are stable).
        self._by_id: dict[int, int] = {
            id(slot.action): slot.index for slot in slots if slot.action is not None
        }
        self._by_pattern: dict[tuple[Card, Color | None, Pattern, bool], int] = {
            (slot.card, slot.color, slot.pattern, slot.uno): slot.index
            for slot in slots
            if slot.action is None and slot.card is not None
        }

    def __len__(self) -> int:
        return len(self.slots)

    def __repr__(self) -> str:
        return f"<ActionSpace {self.rules} players={self.players} size={len(self)}>"

    def code(self, index: int) -> str:
        """The code of slot ``index``."""
        return self.slots[self._check(index)].code

    def catch_index(self, seat: int) -> int:
        return self.first_catch + seat

    def index(self, action: Action) -> int:
        """The index of an engine action (a Target Practice play by its pattern)."""
        found = self.find(action)
        if found is None:
            raise ValueError(
                f"action {action.code!r} has no index in this space "
                f"({self.rules}, {self.players} seats)"
            )
        return found

    def find(self, action: Action, others: Sequence[int] | None = None) -> int | None:
        """Like :meth:`index`, ``None`` for an action the space does not hold. A Target
        Practice split is held when all its picks name one seat, or when it is the even
        split round ``others`` (the other seats still in the hand, in seat order)."""
        found = self._by_action.get(action)
        if found is not None or action.kind is not Kind.PLAY or len(action.targets) < 2:
            return found
        targets = action.targets
        assert action.card is not None
        if all(t == targets[0] for t in targets):
            pattern: Pattern = ("all", targets[0])
        elif others and targets == even_split(others, len(targets)):
            pattern = EVEN
        else:
            return None
        return self._by_pattern.get((action.card, action.color, pattern, action.uno))

    def legal_map(
        self, legal: Sequence[Action], others: Sequence[int] | None = None
    ) -> dict[int, Action]:
        """The legal actions by index; actions the space does not hold (Target Practice
        splits other than the two patterns) are left out. ``others``: see :meth:`find`."""
        out: dict[int, Action] = {}
        by_id = self._by_id
        by_action = self._by_action
        for action in legal:
            index = by_id.get(id(action))
            if index is None:
                index = by_action.get(action)
            if index is None:
                index = self.find(action, others)
                if index is None:
                    continue
            out[index] = action
        return out

    def _check(self, index: int) -> int:
        if not 0 <= index < len(self.slots):
            raise ValueError(f"action index {index} is out of range 0-{len(self.slots) - 1}")
        return index


def check_players(rules: RuleSet, players: object) -> None:
    """A ``ValueError`` unless ``players`` is a number of seats the rules allow."""
    low, high = rules.players
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise ValueError(f"players: these rules seat {low} to {high}, not {players!r}")


def even_split(others: Sequence[int], count: int) -> tuple[int, ...]:
    """Target Practice's even split of ``count`` picks round ``others``, sorted, as the
    engine lists it.

    >>> even_split([0, 2], 4)
    (0, 0, 2, 2)
    """
    return tuple(sorted(others[i % len(others)] for i in range(count)))


def _sort_key(card: Card) -> tuple[int, int]:
    return card.sort_key


def _patterns(effect: Effect, card: Card, probe: Game) -> tuple[Pattern, ...]:
    """The pick patterns a card needs: those of the picks its effect offers at the start
    of a hand at this table (how many picks a card takes does not change during play)."""
    if type(effect).target_options is Effect.target_options:
        return (NO_PICK,)
    sizes = {len(targets) for targets in effect.target_options(probe, 0, card)}
    seats = range(probe.n)
    patterns: list[Pattern] = []
    if 0 in sizes:
        patterns.append(NO_PICK)
    if 1 in sizes:
        patterns.extend(("one", seat) for seat in seats)
    if any(size > 1 for size in sizes):  # Target Practice: a pick per card it makes draw
        patterns.extend(("all", seat) for seat in seats)
        patterns.append(EVEN)
    return tuple(patterns)


def _fixed_play(card: Card, color: Color | None, pattern: Pattern, uno: bool) -> Action | None:
    kind, seat = pattern
    if kind == "":
        return Action.play(card, color, (), uno)
    if kind == "one":
        assert seat is not None
        return Action.play(card, color, (seat,), uno)
    return None


def _pattern_code(card: Card, color: Color | None, pattern: Pattern, uno: bool) -> str:
    parts = ["play", card.code]
    if color is not None:
        parts.append(color.value)
    parts.append(f"@{pattern[1]}*" if pattern[0] == "all" else "even")
    if uno:
        parts.append("uno")
    return " ".join(parts)
