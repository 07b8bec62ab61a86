"""The game record of NOTATION.md: read, write, replay.

>>> record = Record.from_json({"rules": "standard", "players": ["Ann", "Bob"], "seed": 5})
>>> game = record.replay()
>>> seat = game.to_act
>>> _ = game.apply(seat, game.legal_actions(seat)[0])
>>> again = Record.from_json(game.to_record().to_json()).replay()
>>> again.state_json() == game.state_json()
True
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from una.engine.actions import Action
from una.engine.cards import Card, deck_difference
from una.engine.errors import IllegalAction, InvalidCode, InvalidRecord, InvalidRules, UnaError
from una.engine.game import Game
from una.engine.rules import RuleSet

FORMAT = "una/1"


class ReplayError(UnaError):
    """An action of a record that cannot be replayed: its index, seat, code and why."""

    def __init__(self, index: int, seat: int, code: str, reason: str) -> None:
        # json.dumps quotes the code and escapes control characters: the message is one line.
        super().__init__(f"action {index} (seat {seat}, {json.dumps(code)}): {reason}")
        self.index = index
        self.seat = seat
        self.code = code
        self.reason = reason


@dataclass
class Record:
    """A game: its rules, players, seed, first dealer, optional decks, and actions."""

    rules: RuleSet
    players: int | list[str]
    seed: int = 0
    dealer: int = 0
    decks: list[list[Card]] | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    scores: list[int] | None = None

    @property
    def seats(self) -> int:
        return self.players if isinstance(self.players, int) else len(self.players)

    # ------------------------------------------------------------- reading

    @classmethod
    def loads(cls, text: str) -> Record:
        """A record from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidRecord("json", f"not valid JSON: {error}") from None
        except RecursionError:
            raise InvalidRecord("json", "nested too deeply") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """A record from its decoded JSON, every field checked; errors name the field."""
        if not isinstance(data, dict):
            raise InvalidRecord("record", "must be a JSON object")
        fmt = data.get("format", FORMAT)
        if fmt != FORMAT:
            raise InvalidRecord("format", f"unknown format {fmt!r} (expected {FORMAT!r})")
        known = {"format", "rules", "players", "seed", "dealer", "decks", "actions", "scores"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRecord(unknown[0], "unknown field")
        try:
            rules = RuleSet.from_json(data.get("rules", "standard"))
        except InvalidRules as error:
            raise InvalidRecord("rules", str(error)) from None
        players = data.get("players")
        if isinstance(players, bool) or not isinstance(players, int | list):
            raise InvalidRecord("players", "must be a number of seats or a list of names")
        if isinstance(players, list) and not all(isinstance(p, str) for p in players):
            raise InvalidRecord("players", "names must be strings")
        seats = players if isinstance(players, int) else len(players)
        low, high = rules.players
        if not low <= seats <= high:
            raise InvalidRecord("players", f"{seats} seats, but these rules seat {low} to {high}")
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidRecord("seed", f"must be an integer, not {seed!r}")
        dealer = data.get("dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats:
            raise InvalidRecord("dealer", f"must be a seat from 0 to {seats - 1}, not {dealer!r}")
        decks = None
        if data.get("decks") is not None:
            decks = _read_decks(data["decks"], rules)
        actions = _read_actions(data.get("actions", []), seats)
        scores = data.get("scores")
        if scores is not None and (
            not isinstance(scores, list)
            or len(scores) != seats
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in scores)
        ):
            raise InvalidRecord("scores", f"must be {seats} whole numbers, not {scores!r}")
        return cls(rules, players, seed, dealer, decks, actions, scores)

    # ------------------------------------------------------------- writing

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
        }
        if self.decks is not None:
            out["decks"] = [[card.code for card in deck] for deck in self.decks]
        if self.scores is not None:
            out["scores"] = list(self.scores)
        out["actions"] = [[seat, code] for seat, code in self.actions]
        return out

    def dumps(self, indent: int | None = None) -> str:
        """JSON text; with ``indent``, one field per line and one action (or deck) per line."""
        data = self.to_json()
        if indent is None:
            return json.dumps(data)
        pad = " " * indent
        lines = []
        for key, value in data.items():
            if key in ("actions", "decks") and value:
                items = ",\n".join(pad * 2 + json.dumps(item) for item in value)
                lines.append(f"{pad}{json.dumps(key)}: [\n{items}\n{pad}]")
            else:
                lines.append(f"{pad}{json.dumps(key)}: {json.dumps(value)}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    # ------------------------------------------------------------- replay

    def new_game(self) -> Game:
        """The game as dealt, before any action."""
        return Game(self.rules, self.players, self.seed, self.dealer, self.decks, self.scores)

    def replay(self, upto: int | None = None) -> Game:
        """The game after the first ``upto`` actions (all by default).

        Raises :class:`ReplayError` naming the first action that cannot be applied.
        """
        game = self.new_game()
        actions = self.actions if upto is None else self.actions[:upto]
        for index, (seat, code) in enumerate(actions):
            try:
                game.apply(seat, Action.parse(code))
            except IllegalAction as error:
                raise ReplayError(index, seat, code, f"illegal: {error.reason}") from None
            except InvalidCode as error:
                raise ReplayError(index, seat, code, str(error)) from None
        return game


def record_of(game: Game) -> Record:
    """The record of a game so far (its rules, players, seed, decks and action log)."""
    return Record(
        rules=game.rules,
        players=game.players_spec if isinstance(game.players_spec, int) else list(game.names),
        seed=game.seed,
        dealer=game.first_dealer,
        decks=[list(deck) for deck in game.decks] if game.decks else None,
        actions=list(game.log),
        scores=list(game.start_scores) if game.start_scores is not None else None,
    )


def _read_decks(raw: Any, rules: RuleSet) -> list[list[Card]]:
    if not isinstance(raw, list):
        raise InvalidRecord("decks", "must be a list of decks")
    decks = []
    full = sorted(card.code for card in rules.deck())
    for i, deck in enumerate(raw):
        if not isinstance(deck, list) or not all(isinstance(code, str) for code in deck):
            raise InvalidRecord(f"decks[{i}]", "must be a list of card codes")
        try:
            cards = [Card.parse(code) for code in deck]
        except InvalidCode as error:
            raise InvalidRecord(f"decks[{i}]", str(error)) from None
        if sorted(card.code for card in cards) != full:
            raise InvalidRecord(f"decks[{i}]", deck_difference(cards, rules.deck(), rules.preset))
        decks.append(cards)
    return decks


def _read_actions(raw: Any, seats: int) -> list[tuple[int, str]]:
    if not isinstance(raw, list):
        raise InvalidRecord("actions", "must be a list of [seat, code] pairs")
    actions = []
    for i, item in enumerate(raw):
        if (
            not isinstance(item, list)
            or len(item) != 2
            or isinstance(item[0], bool)
            or not isinstance(item[0], int)
            or not isinstance(item[1], str)
        ):
            raise InvalidRecord(f"actions[{i}]", f'must be [seat, "code"], not {item!r}')
        if not 0 <= item[0] < seats:
            raise InvalidRecord(f"actions[{i}]", f"seat {item[0]} is out of range 0-{seats - 1}")
        actions.append((item[0], item[1]))
    return actions


def stacked_deck(
    rules: RuleSet | str,
    hands: Sequence[Sequence[Card | str]],
    first: Card | str,
    draws: Sequence[Card | str] = (),
    dealer: int = 0,
) -> list[Card]:
    """A whole deck (top first) that deals ``hands`` to the seats, turns ``first`` up and
    then gives ``draws`` in order; the rest of the rule set's deck follows in canonical order.

    For tests, fixtures and puzzles: ``Game(rules, 2, decks=[stacked_deck(...)])``.

    >>> from una.engine.cards import parse_cards
    >>> deck = stacked_deck("standard", [["R5"] * 7, "G1 G2 G3 G4 G5 G6 G7".split()], "R5")
    Traceback (most recent call last):
    ...
    una.engine.errors.InvalidRecord: decks: the standard deck has only 2 of R5, not 8
    >>> hands = [parse_cards("R1 R2 R3 R4 R5 R6 R7"), parse_cards("G1 G2 G3 G4 G5 G6 G7")]
    >>> deck = stacked_deck("standard", hands, "B9", draws=["W"])
    >>> [card.code for card in deck[:4]], deck[14].code, deck[15].code, len(deck)
    (['G1', 'R1', 'G2', 'R2'], 'B9', 'W', 108)
    """
    ruleset = rules if isinstance(rules, RuleSet) else RuleSet.from_json(rules)
    n = len(hands)
    size = ruleset.hand_size
    parsed = [[_card(c) for c in hand] for hand in hands]
    for seat, hand in enumerate(parsed):
        if len(hand) != size:
            raise InvalidRecord("decks", f"hand {seat} has {len(hand)} cards, not {size}")
    top = [parsed[(dealer + 1 + i) % n][i // n] for i in range(size * n)]
    top.append(_card(first))
    top.extend(_card(c) for c in draws)
    deck = ruleset.deck()
    have = Counter(deck)
    used = Counter(top)
    for card, count in used.items():
        if count > have[card]:
            raise InvalidRecord(
                "decks", f"the {ruleset.preset} deck has only {have[card]} of {card}, not {count}"
            )
    rest = []
    for card in deck:
        if used[card]:
            used[card] -= 1
        else:
            rest.append(card)
    return top + rest


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)
