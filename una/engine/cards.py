"""Colors and cards, with the text codes of NOTATION.md.

A :class:`Card` is a small frozen value. Codes parse case-insensitively and format in the
canonical upper-case form, and the two round-trip:

>>> Card.parse("r5")
Card.parse('R5')
>>> Card.parse("W4").code
'W4'
>>> Card.parse("bd2").is_draw, Card.parse("W").is_wild
(True, True)
>>> Color.parse("green")
<Color.GREEN: 'G'>

Every card of every preset parses (the BYOND mutants and the Alupula cards included); which
cards a game actually uses is the rule set's deck.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from una.engine.errors import InvalidCode, quoted


class Color(enum.Enum):
    """One of the four card colors; its value is the color letter of the codes."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    # Members are singletons, so identity is equality; Enum's own __hash__ is slow Python.
    __hash__ = object.__hash__

    @classmethod
    def parse(cls, text: str) -> Color:
        """A color from its letter or its English name, in any case.

        >>> Color.parse("b"), Color.parse("Yellow")
        (<Color.BLUE: 'B'>, <Color.YELLOW: 'Y'>)
        """
        color = _COLOR_WORDS.get(text.strip().lower())
        if color is None:
            raise InvalidCode(
                f"invalid color {quoted(text)}: expected R, Y, G or B (or red, yellow, green, blue)"
            )
        return color

    @property
    def word(self) -> str:
        return self.name.lower()

    def __str__(self) -> str:
        return self.value


COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
_COLOR_WORDS = {c.value.lower(): c for c in COLORS} | {c.word: c for c in COLORS}

#: Symbols that follow a color letter in a colored card's code, in display order.
COLORED_SYMBOLS: tuple[str, ...] = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "S", "R", "D2", "D4", "SP", "RD2", "DB2", "RR", "RS", "SS",
)  # fmt: skip

#: Cards named by a fixed code: (code, parent color, parent number, names a color when played).
#: The specials with a colored-number parent (Holy Defender = red 0 ...) match like that parent.
_NAMED: dict[str, tuple[Color | None, int | None, bool]] = {
    "W": (None, None, True),
    "W4": (None, None, True),
    "CL": (None, None, False),
    "NAGA": (None, None, False),
    "WDD": (None, None, True),
    "WR4": (None, None, True),
    "WB4": (None, None, True),
    "WMY": (None, None, True),
    "WTP": (None, None, True),
    "HOLY": (Color.RED, 0, False),
    "QUIT": (Color.GREEN, 0, False),
    "SCREW": (Color.BLUE, 0, False),
    "KOBE": (Color.YELLOW, 8, False),
    "BLEND": (None, None, True),
    "RAND": (None, None, True),
    "TRADE": (None, None, True),
    "CHAIRS": (None, None, True),
    "DANCE": (None, None, True),
    "SPY": (None, None, True),
    "DUNG": (None, None, True),
}
NAMED_CODES: tuple[str, ...] = tuple(_NAMED)

#: BYOND's colored mutants (one symbol per family; the rule set counts them per color).
COLORED_MUTANTS: tuple[str, ...] = ("SP", "RD2", "DB2", "RR", "RS", "SS")
#: BYOND's wild mutants and special cards, by code.
NAMED_MUTANTS: tuple[str, ...] = (
    "WDD", "WR4", "WB4", "WMY", "WTP", "HOLY", "QUIT", "SCREW", "KOBE",
    "BLEND", "RAND", "TRADE", "CHAIRS", "DANCE", "SPY", "DUNG",
)  # fmt: skip
#: Every mutant family, as the rule set's ``cards`` switch names them.
MUTANTS: tuple[str, ...] = COLORED_MUTANTS + NAMED_MUTANTS

#: Symbols whose card makes a player draw (a pending draw penalty).
_DRAW_SYMBOLS = frozenset({"D2", "D4", "RD2", "DB2", "W4", "WR4", "WB4", "WMY", "WDD", "WTP"})
#: Wild draw cards to which the Wild Draw Four rule (``wd4_rule``) and the challenge apply.
WILD_DRAW_FOUR_SYMBOLS = frozenset({"W4", "WR4", "WB4", "WMY"})

_NAMES = {
    "S": "Skip", "R": "Reverse", "D2": "Draw Two", "D4": "Draw Four", "SP": "Draw Spreader",
    "RD2": "Reverse Draw Two", "DB2": "Delayed Blast Draw Two", "RR": "Reverse Reverse",
    "RS": "Reverse Skip", "SS": "Double Skip", "W": "Wild", "W4": "Wild Draw Four",
    "CL": "Colourless", "NAGA": "Nagasaki", "WDD": "Draw Double Wild",
    "WR4": "Reverse Draw Four Wild", "WB4": "Delayed Blast Draw Four Wild",
    "WMY": "Mystery Wild", "WTP": "Target Practice Wild", "HOLY": "Holy Defender",
    "QUIT": "Quitter", "SCREW": "Screwdriver", "KOBE": "Kobe", "BLEND": "Blender",
    "RAND": "Randomizer", "TRADE": "Trader Joe", "CHAIRS": "Musical Chairs",
    "DANCE": "Dance Fever", "SPY": "Spy", "DUNG": "Dung",
}  # fmt: skip


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A card: its color (``None`` for wilds and colorless cards) and its symbol.

    ``symbol`` is the code part after the color letter (``"5"``, ``"D2"``) or the whole
    fixed name (``"W4"``, ``"HOLY"``). The other attributes are derived once, for speed:
    ``face`` is what the card matches on besides color (a number, or its own symbol),
    ``number`` its number if it has one, ``is_wild`` whether playing it names a color.

    Use :meth:`parse` or :meth:`of`; both return one shared instance per card.
    """

    color: Color | None
    symbol: str
    code: str = field(init=False, compare=False, repr=False)
    face: str = field(init=False, compare=False, repr=False)
    number: int | None = field(init=False, compare=False, repr=False)
    is_wild: bool = field(init=False, compare=False, repr=False)
    is_draw: bool = field(init=False, compare=False, repr=False)
    effect: str = field(init=False, compare=False, repr=False)
    #: Orders a hand: by color (wilds last), then by symbol.
    sort_key: tuple[int, int] = field(init=False, compare=False, repr=False)
    _hash: int = field(init=False, compare=False, repr=False)

    def __eq__(self, other: object) -> bool:
        # Cards are interned, so identity decides almost always; the code decides the rest.
        return self is other or (isinstance(other, Card) and other.code == self.code)

    def __hash__(self) -> int:
        return self._hash

    def __post_init__(self) -> None:
        named = _NAMED.get(self.symbol)
        if named is not None:
            parent_color, parent_number, wild = named
            if self.color is not parent_color:
                raise InvalidCode(f"card {self.symbol} has no color of its own to change")
            code = self.symbol
            number = parent_number
            face = str(parent_number) if parent_number is not None else self.symbol
        elif self.symbol in COLORED_SYMBOLS:
            if self.color is None:
                raise InvalidCode(f"card symbol {self.symbol!r} needs a color")
            code = self.color.value + self.symbol
            number = int(self.symbol) if self.symbol.isdigit() else None
            face = self.symbol
            wild = False
        else:
            raise InvalidCode(f"unknown card symbol {self.symbol!r}")
        set_ = object.__setattr__
        set_(self, "code", code)
        set_(self, "face", face)
        set_(self, "number", number)
        set_(self, "is_wild", wild)
        set_(self, "is_draw", self.symbol in _DRAW_SYMBOLS)
        # Number cards share one effect (none); every other card is its own family.
        set_(self, "effect", "N" if self.symbol.isdigit() else self.symbol)
        # Derived once: every view sorts every hand it shows.
        if named is not None:
            set_(self, "sort_key", (4, NAMED_CODES.index(self.symbol)))
        else:
            assert self.color is not None
            set_(self, "sort_key", (COLORS.index(self.color), COLORED_SYMBOLS.index(self.symbol)))
        set_(self, "_hash", hash(code))

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card with code ``text`` (any case, surrounding spaces ignored)."""
        card = _BY_CODE.get(text.strip().upper())
        if card is None:
            raise InvalidCode(
                f"invalid card code {quoted(text)}: expected a color letter (R Y G B) and a "
                "symbol, or a name such as W, W4, CL"
            )
        return card

    @classmethod
    def of(cls, color: Color | None, symbol: str) -> Card:
        """The shared instance of the card with this color and symbol.

        >>> Card.of(Color.BLUE, "7")
        Card.parse('B7')
        """
        return _BY_CODE[(color.value if color and symbol not in _NAMED else "") + symbol]

    @property
    def name(self) -> str:
        """A readable English name: ``'red 5'``, ``'blue Draw Two'``, ``'Wild Draw Four'``."""
        base = _NAMES.get(self.symbol, self.symbol)
        if self.color is None or self.symbol in _NAMED:
            return base
        return f"{self.color.word} {base}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


_BY_CODE: dict[str, Card] = {}
for _color in COLORS:
    for _symbol in COLORED_SYMBOLS:
        _card = Card(_color, _symbol)
        _BY_CODE[_card.code] = _card
for _name, (_parent, _, _) in _NAMED.items():
    _BY_CODE[_name] = Card(_parent, _name)

#: Every card code the notation knows, in display order.
ALL_CARDS: tuple[Card, ...] = tuple(sorted(_BY_CODE.values(), key=lambda c: c.sort_key))


def parse_cards(codes: str | list[str] | tuple[str, ...]) -> list[Card]:
    """Cards from a list of codes or one space-separated string.

    >>> parse_cards("R5 W g2")
    [Card.parse('R5'), Card.parse('W'), Card.parse('G2')]
    """
    items = codes.split() if isinstance(codes, str) else codes
    return [Card.parse(code) for code in items]


def format_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    """Codes separated by spaces."""
    return " ".join(card.code for card in cards)


def deck_difference(deck: Sequence[Card], full: Sequence[Card], name: str) -> str:
    """Why ``deck`` is not a permutation of ``full``: the cards it has extra and lacks.

    >>> deck_difference(parse_cards("R1 R1"), parse_cards("R1 R2"), "tiny")
    'not a permutation of the tiny deck (2 cards; extra R1; missing R2)'
    """
    have = Counter(card.code for card in deck)
    want = Counter(card.code for card in full)
    parts = []
    extra = sorted((have - want).elements())
    missing = sorted((want - have).elements())
    if extra:
        parts.append(f"extra {' '.join(extra)}")
    if missing:
        parts.append(f"missing {' '.join(missing)}")
    return f"not a permutation of the {name} deck ({len(deck)} cards; {'; '.join(parts)})"
