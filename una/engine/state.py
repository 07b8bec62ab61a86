"""The state of a game, declared once: every piece of it, its kind, copy and JSON.

:class:`HandState` is a slotted structure whose fields are :data:`FIELDS`. A
:class:`~una.engine.game.Game` *is* a hand state (it subclasses it) plus what does not
change in play (its rules, names, effect table). Everything that builds or moves a position
goes through this declaration: :meth:`Game.copy`, :meth:`HandState.of` (a detached copy),
:meth:`HandState.load` (a position into a game, as the bots' belief samples one),
:meth:`HandState.to_json` and :meth:`HandState.from_json`, and the C core's loader
(:mod:`una.engine.fast`), which receives the fields in this order and checks their names.
A new piece of state is one new :class:`Field` here; whoever forgets it fails loudly
(:meth:`HandState.create` wants every field, the C core refuses a name list it does not
know).

>>> from una.engine.game import Game
>>> game = Game("standard", players=2, seed=1)
>>> state = HandState.of(game)
>>> state.to_act, len(state.hands[0]), state.phase.value
(1, 7, 'play')
>>> HandState.from_json(state.to_json()) == state
True
>>> twin = Game("standard", players=2, seed=99)
>>> state.load(twin)
>>> twin.hands == game.hands and twin.rng.state == game.rng.state
True
>>> HandState.create(hands=[])
Traceback (most recent call last):
...
TypeError: HandState.create: missing fields active, called_uno, color, ... (34 in all)
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from una.engine.cards import Card, Color
from una.engine.events import HandEnded
from una.engine.rng import Rng

if TYPE_CHECKING:
    from una.engine.game import Phase


class Kind(enum.Enum):
    """How a field is copied and written as JSON."""

    #: an int, a bool or a short text (or None): immutable, copied as is
    VALUE = "value"
    #: a list of ints or bools, one per seat (or any list of immutables)
    LIST = "list"
    #: a list of cards (JSON: card codes)
    CARDS = "cards"
    #: a list of card lists, one per seat
    SEAT_CARDS = "seat_cards"
    #: one card, or None
    CARD = "card"
    #: a color, or None
    COLOR = "color"
    #: the game's phase
    PHASE = "phase"
    #: the game's random generator
    RNG = "rng"
    #: reveals: (viewer, seat, cards shown or None for a live view)
    REVEALS = "reveals"
    #: the action log: (seat, action code)
    LOG = "log"
    #: the last hand's result, or None
    RESULT = "result"


class Field(NamedTuple):
    """One piece of the state."""

    name: str
    kind: Kind
    description: str


#: Every piece of a game's state, in the order the C core receives them.
FIELDS: tuple[Field, ...] = (
    Field("rng", Kind.RNG, "the engine's generator: every shuffle and random choice"),
    Field("log", Kind.LOG, "every action applied so far, as (seat, code)"),
    Field("scores", Kind.LIST, "the match totals"),
    Field("seating", Kind.LIST, "players in table order (reseating cards change it)"),
    Field("position", Kind.LIST, "each player's place in seating"),
    Field("hand_number", Kind.VALUE, "the hand being played, from 1"),
    Field("dealer", Kind.VALUE, "who dealt this hand"),
    Field("winner", Kind.VALUE, "the match winner, once the match is over"),
    Field("hand_result", Kind.RESULT, "how the hand ended, once it has"),
    Field("direction", Kind.VALUE, "1 or -1, in table order"),
    Field("hands", Kind.SEAT_CARDS, "every player's hand"),
    Field("set_aside", Kind.SEAT_CARDS, "cards of players who quit the hand (Quitter)"),
    Field("active", Kind.LIST, "who is still in the hand"),
    Field("players_in_hand", Kind.VALUE, "how many are still in the hand"),
    Field("draw_pile", Kind.CARDS, "the draw pile, its top last"),
    Field("discard", Kind.CARDS, "the discard pile, its top last"),
    Field("discard_points", Kind.LIST, "points each player discarded this hand"),
    Field("color", Kind.COLOR, "the current color (None: to be named, or on a Colourless)"),
    Field("to_act", Kind.VALUE, "the seat to act, None once the hand is over"),
    Field("phase", Kind.PHASE, "what the engine waits for"),
    Field("pending_draw", Kind.VALUE, "cards a pending draw penalty adds up to"),
    Field("pending_kind", Kind.VALUE, "the pending draw's family: D2, D4, WILD or None"),
    Field("pending_challengeable", Kind.VALUE, "whether the pending draw can be challenged"),
    Field("pending_source", Kind.VALUE, "who played the last card of the pending draw"),
    Field("pending_guilty", Kind.VALUE, "whether the pending Wild Draw Four was a bluff"),
    Field("pending_prev_color", Kind.COLOR, "the color the pending Wild Draw Four replaced"),
    Field("drawn", Kind.CARD, "the card just drawn, in the drawn phase"),
    Field("owes_uno", Kind.LIST, "who owes an UNO call (catchable while the window is open)"),
    Field("called_uno", Kind.LIST, "who called UNO on her last card"),
    Field("false_uno", Kind.LIST, "who called a false UNO (catchable under its penalty)"),
    Field("reveals", Kind.REVEALS, "hands shown: by a challenge, or live (Spy, reveal)"),
    Field("idle_turns", Kind.VALUE, "turns in a row without progress (the blocked hand)"),
    Field("recycled", Kind.SEAT_CARDS, "cards each player took as the last drawable ones"),
    Field("ranking", Kind.LIST, "who went out this hand, in order"),
    Field("nagasaki_lock", Kind.VALUE, "the player of a Nagasaki whose turn has not come"),
)
NAMES: tuple[str, ...] = tuple(field.name for field in FIELDS)

# How each kind is copied, as one function written out from the declaration (Game.copy
# runs it for every simulated game: a loop of getattr/setattr and copier calls costs
# several times as much).
_COPY_EXPRESSIONS: dict[Kind, str] = {
    Kind.VALUE: "{}",
    Kind.LIST: "list({})",
    Kind.CARDS: "list({})",
    Kind.SEAT_CARDS: "[list(cards) for cards in {}]",
    Kind.CARD: "{}",
    Kind.COLOR: "{}",
    Kind.PHASE: "{}",
    Kind.RNG: "{}.copy()",
    Kind.REVEALS: "list({})",
    Kind.LOG: "list({})",
    Kind.RESULT: "{}",
}
_SOURCE = "def copy_into(source, target):\n" + "".join(
    f"    target.{f.name} = {_COPY_EXPRESSIONS[f.kind].format('source.' + f.name)}\n"
    for f in FIELDS
)
_NAMESPACE: dict[str, Any] = {}
exec(compile(_SOURCE, "<una.engine.state copy_into>", "exec"), _NAMESPACE)
_copy_into: Callable[[Any, Any], None] = _NAMESPACE["copy_into"]


def _phase_type() -> type[Phase]:
    from una.engine.game import Phase

    return Phase


def _to_json(kind: Kind, value: Any) -> Any:
    if kind is Kind.VALUE:
        return value
    if kind is Kind.LIST:
        return list(value)
    if kind is Kind.CARDS:
        return [card.code for card in value]
    if kind is Kind.SEAT_CARDS:
        return [[card.code for card in cards] for cards in value]
    if kind is Kind.CARD:
        return None if value is None else value.code
    if kind is Kind.COLOR:
        return None if value is None else value.value
    if kind is Kind.PHASE:
        return value.value
    if kind is Kind.RNG:
        return value.state
    if kind is Kind.REVEALS:
        return [
            [viewer, seat, None if shown is None else [c.code for c in shown]]
            for viewer, seat, shown in value
        ]
    if kind is Kind.LOG:
        return [[seat, code] for seat, code in value]
    if value is None:
        return None
    return {
        "winner": value.winner,
        "blocked": value.blocked,
        "points": list(value.points),
        "scores": list(value.scores),
        "ranking": list(value.ranking),
    }


def _from_json(kind: Kind, data: Any) -> Any:
    if kind is Kind.VALUE:
        return data
    if kind is Kind.LIST:
        return list(data)
    if kind is Kind.CARDS:
        return [Card.parse(code) for code in data]
    if kind is Kind.SEAT_CARDS:
        return [[Card.parse(code) for code in cards] for cards in data]
    if kind is Kind.CARD:
        return None if data is None else Card.parse(data)
    if kind is Kind.COLOR:
        return None if data is None else Color(data)
    if kind is Kind.PHASE:
        return _phase_type()(data)
    if kind is Kind.RNG:
        rng = Rng(0)
        rng.state = int(data)
        return rng
    if kind is Kind.REVEALS:
        return [
            (viewer, seat, None if shown is None else tuple(Card.parse(c) for c in shown))
            for viewer, seat, shown in data
        ]
    if kind is Kind.LOG:
        return [(seat, code) for seat, code in data]
    if data is None:
        return None
    return HandEnded(
        data["winner"],
        data["blocked"],
        tuple(data["points"]),
        tuple(data["scores"]),
        tuple(data["ranking"]),
    )


class StateSlots:
    """The slots of :data:`FIELDS`, shared by :class:`HandState` and the game itself."""

    __slots__ = NAMES

    if TYPE_CHECKING:
        rng: Rng
        log: list[tuple[int, str]]
        scores: list[int]
        seating: list[int]
        position: list[int]
        hand_number: int
        dealer: int
        winner: int | None
        hand_result: HandEnded | None
        direction: int
        hands: list[list[Card]]
        set_aside: list[list[Card]]
        active: list[bool]
        players_in_hand: int
        draw_pile: list[Card]
        discard: list[Card]
        discard_points: list[int]
        color: Color | None
        to_act: int | None
        phase: Phase
        pending_draw: int
        pending_kind: str | None
        pending_challengeable: bool
        pending_source: int
        pending_guilty: bool
        pending_prev_color: Color | None
        drawn: Card | None
        owes_uno: list[bool]
        called_uno: list[bool]
        false_uno: list[bool]
        reveals: list[tuple[int, int, tuple[Card, ...] | None]]
        idle_turns: int
        recycled: list[list[Card]]
        ranking: list[int]
        nagasaki_lock: int | None


class HandState(StateSlots):
    """A detached position: one slot per :data:`FIELDS` entry. See the module's docstring."""

    __slots__ = ()

    @classmethod
    def create(cls, **values: Any) -> HandState:
        """A state from every field by name: a missing or unknown field is a TypeError, so
        a builder cannot forget a piece of state that is added later."""
        missing = [name for name in NAMES if name not in values]
        unknown = sorted(set(values) - set(NAMES))
        if unknown:
            raise TypeError(f"HandState.create: unknown fields {', '.join(unknown)}")
        if missing:
            shown = ", ".join(sorted(missing)[:3])
            raise TypeError(
                f"HandState.create: missing fields {shown}, ... ({len(missing)} in all)"
                if len(missing) > 3
                else f"HandState.create: missing fields {shown}"
            )
        state = object.__new__(cls)
        for name in NAMES:
            setattr(state, name, values[name])
        return state

    @classmethod
    def of(cls, source: StateSlots) -> HandState:
        """A detached copy of ``source``'s state (a game's, or another state's)."""
        state = object.__new__(cls)
        copy_into(source, state)
        return state

    def load(self, game: StateSlots) -> None:
        """Make this the position of ``game`` (a copy: the two stay independent)."""
        copy_into(self, game)

    def values(self) -> tuple[Any, ...]:
        """The fields' values in declaration order (what the C core's loader reads)."""
        return tuple(getattr(self, name) for name in NAMES)

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON (cards as codes, the generator as its state)."""
        return {f.name: _to_json(f.kind, getattr(self, f.name)) for f in FIELDS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandState:
        """The state :meth:`to_json` wrote; every field must be there."""
        if not isinstance(data, dict):
            raise TypeError(f"HandState.from_json: expected an object, not {data!r}")
        unknown = sorted(set(data) - set(NAMES))
        if unknown:
            raise ValueError(f"HandState.from_json: unknown fields {', '.join(unknown)}")
        missing = [name for name in NAMES if name not in data]
        if missing:
            raise ValueError(f"HandState.from_json: missing fields {', '.join(missing)}")
        return cls.create(**{f.name: _from_json(f.kind, data[f.name]) for f in FIELDS})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<HandState hand={self.hand_number} phase={self.phase.value} to_act={self.to_act}>"


def copy_into(source: StateSlots, target: StateSlots) -> None:
    """Copy every field of ``source`` into ``target`` (lists copied, cards shared)."""
    _copy_into(source, target)


__all__ = ["FIELDS", "NAMES", "Field", "HandState", "Kind", "StateSlots", "copy_into"]
