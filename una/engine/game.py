"""The game: a match of hands under a rule set, as a state machine driven by actions.

>>> game = Game("standard", players=["Ann", "Bob"], seed=1)
>>> game.to_act, game.phase
(1, <Phase.PLAY: 'play'>)
>>> action = game.legal_actions(1)[0]
>>> events = game.apply(1, action)
>>> game.apply(0, "play R9")
Traceback (most recent call last):
...
una.engine.errors.IllegalAction: illegal action "play R9" by seat 0: seat 0 holds no R9

Every seat may be asked for its legal actions at any time (a catch is legal for a player who
is not to act), and every decision is an action: the engine never plays for anybody. What
leaves no decision (a Draw Two without stacking, a skip, an unplayable drawn card) happens
as an effect of the action that caused it.

State is plain lists of shared card values and a one-integer random generator, so
:meth:`Game.copy` is cheap (search bots copy a game per simulation).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from una.engine.actions import CHALLENGE as CHALLENGE_ACTION
from una.engine.actions import DEAL, DRAW, PASS, TURN_KINDS, UNO, Action, Kind
from una.engine.cards import (
    COLORS,
    MUTANTS,
    WILD_DRAW_FOUR_SYMBOLS,
    Card,
    Color,
    deck_difference,
)
from una.engine.effects import Effect, effect_table
from una.engine.errors import IllegalAction, InvalidRecord, InvalidRules, Refusal, refuse
from una.engine.events import (
    CardPlayed,
    CardsDrawn,
    CardTurned,
    CatchFailed,
    Challenged,
    ColorChosen,
    ColorReverted,
    DirectionChanged,
    DrawPending,
    Event,
    FirstCardReturned,
    HandEnded,
    HandRevealed,
    HandsMoved,
    HandsRedealt,
    HandStarted,
    LeftHand,
    MatchEnded,
    Passed,
    Reseated,
    Reshuffled,
    Skipped,
    UnoCalled,
    UnoCaught,
    UnoMissed,
)
from una.engine.rng import Rng
from una.engine.rules import RuleSet
from una.engine.state import StateSlots, copy_into


class Phase(enum.Enum):
    """What the engine waits for."""

    #: the first player names the color of a Wild turned up first (``color C``)
    COLOR = "color"
    #: the player to act plays a card or draws
    PLAY = "play"
    #: the player to act drew: she may play the drawn card only, or pass
    DRAWN = "drawn"
    #: a draw penalty is pending on the player to act: take it, answer it, or challenge
    PENALTY = "penalty"
    #: the hand is over; any seated player deals the next one
    HAND_OVER = "hand_over"
    #: the match is over
    MATCH_OVER = "match_over"


class Game(StateSlots):
    """A match at one table.

    ``rules`` is a :class:`RuleSet`, a preset name or a record's ``rules`` object;
    ``players`` a number of seats or a list of names; ``seed`` drives every random choice;
    ``dealer`` deals the first hand; ``decks`` optionally lists the deck of each hand (top of
    the pile first), each a permutation of the rule set's deck; ``scores`` are the match
    totals to start from (a match continued in a new record, as after an abandoned hand).

    Public attributes are the state, to read: ``hands``, ``draw_pile`` and ``discard``
    (the top of each pile is its last item), ``color``, ``direction``, ``to_act``,
    ``phase``, ``pending_draw``, ``scores``, ``hand_number``, ``dealer``, ``seating``.
    Every piece of state is declared once, in :mod:`una.engine.state` (a game is a
    :class:`~una.engine.state.StateSlots`); the rest of a game does not change in play.
    """

    def __init__(
        self,
        rules: RuleSet | str | dict[str, Any] = "standard",
        players: int | Sequence[str] = 2,
        seed: int = 0,
        dealer: int = 0,
        decks: Sequence[Sequence[Card]] | None = None,
        scores: Sequence[int] | None = None,
    ) -> None:
        self.rules = rules if isinstance(rules, RuleSet) else RuleSet.from_json(rules)
        if isinstance(players, str):
            # A string is a Sequence[str]: "Ann" would seat A, n and n.
            raise InvalidRules(
                f"players: a number of seats or a list of names, not the string {players!r}"
                f" (for one name write [{players!r}])"
            )
        if isinstance(players, int):
            self.players_spec: int | list[str] = players
            names = [f"Seat {i}" for i in range(players)]
        else:
            names = [str(name) for name in players]
            self.players_spec = names
        self.names = names
        n = self.n = len(names)
        low, high = self.rules.players
        if not low <= n <= high:
            raise InvalidRules(f"players: {n} seats, but these rules seat {low} to {high}")
        if not 0 <= dealer < n:
            raise InvalidRecord("dealer", f"seat {dealer} is out of range 0-{n - 1}")
        self.seed = seed
        self.first_dealer = dealer
        self.decks: list[list[Card]] = [list(deck) for deck in decks or ()]
        full = sorted(self.rules.deck(), key=_code) if self.decks else []
        for i, deck in enumerate(self.decks):
            if sorted(deck, key=_code) != full:
                raise InvalidRecord(f"decks[{i}]", deck_difference(deck, full, self.rules.preset))
        if scores is not None and len(scores) != n:
            raise InvalidRecord("scores", f"{len(scores)} scores for {n} players")
        self.start_scores = list(scores) if scores is not None else None
        self.rng = Rng(seed)
        self.effects = effect_table(self.rules)
        self.lock_cards = frozenset(c for c, e in self.effects.items() if e.locks_hand)
        self.has_reactions = any(e.reaction for e in self.effects.values())
        self.score_cards = frozenset(c for c, e in self.effects.items() if e.score_order)
        # Cards with a playability rule of their own; the rest match by color and symbol.
        self.custom_play = frozenset(
            c for c, e in self.effects.items() if type(e).playable is not Effect.playable
        )
        self.log: list[tuple[int, str]] = []
        self.scores = list(scores) if scores is not None else [0] * n
        self.seating = list(range(n))
        self.position = list(range(n))
        self.hand_number = 0
        self.dealer = dealer
        self.winner: int | None = None
        self.hand_result: HandEnded | None = None
        self._events: list[Event] = []
        self.start_events = self._start_hand(dealer)

    # ------------------------------------------------------------------ state

    def _start_hand(self, dealer: int) -> list[Event]:
        events = self._events = []
        n = self.n
        if self.rules.first_player == "random":
            # A random first player (the Telegram bot): she sits left of a random dealer.
            dealer = self.seating[self.rng.below(n)]
        self.hand_number += 1
        self.dealer = dealer
        self.direction = 1
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.set_aside: list[list[Card]] = [[] for _ in range(n)]
        self.active = [True] * n
        self.players_in_hand = n
        self.discard: list[Card] = []
        self.discard_points = [0] * n
        self.color: Color | None = None
        self.to_act: int | None = None
        self.phase = Phase.PLAY
        self.pending_draw = 0
        self.pending_kind: str | None = None
        self.pending_challengeable = False
        self.pending_source = -1
        self.pending_guilty = False
        self.pending_prev_color: Color | None = None
        self.drawn: Card | None = None
        self.owes_uno = [False] * n
        self.called_uno = [False] * n
        self.false_uno = [False] * n
        self.reveals: list[tuple[int, int, tuple[Card, ...] | None]] = []
        self.idle_turns = 0
        # Per player, the cards she took when she drew the last drawable ones (draw_cards).
        self.recycled: list[list[Card]] = [[] for _ in range(n)]
        self.ranking: list[int] = []
        self.nagasaki_lock: int | None = None
        self.hand_result = None
        index = self.hand_number - 1
        if index < len(self.decks):
            pile = list(reversed(self.decks[index]))
        else:
            pile = self.rules.deck()
            self.rng.shuffle(pile)
        self.draw_pile: list[Card] = pile
        events.append(HandStarted(self.hand_number, dealer))
        start = self.position[dealer] + 1
        hands = self.hands
        seating = self.seating
        for i in range(self.rules.hand_size * n):
            hands[seating[(start + i) % n]].append(pile.pop())
        rules = self.rules
        for _ in range(len(pile)):
            card = pile.pop()
            where = first_card_fate(rules, card)
            if where is None:
                break
            if where == "bottom":
                pile.insert(0, card)
            else:
                pile.append(card)
                self.rng.shuffle(pile)
            events.append(FirstCardReturned(card, where))
        self.discard.append(card)
        self.color = card.color
        events.append(CardTurned(card))
        self.effects[card].first(self, card, self.next_seat(dealer))
        return events

    def copy(self) -> Game:
        """An independent copy (cheap: lists of shared card values, one-integer generator)."""
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)  # what does not change in play: shared
        copy_into(self, twin)  # the state, as una.engine.state declares it
        twin._events = []
        return twin

    def at(self, state: StateSlots) -> Game:
        """A game with this one's rules and players at the position ``state`` (a
        :class:`~una.engine.state.HandState`), independent of both: ``copy()`` then
        ``state.load()`` without copying this game's own position first.

        >>> from una.engine.state import HandState
        >>> game = Game("standard", players=2, seed=1)
        >>> twin = game.at(HandState.of(game))
        >>> twin.state_json() == game.state_json(), twin.hands is game.hands
        (True, False)
        """
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)  # what does not change in play: shared
        copy_into(state, twin)  # every declared field: none left shared
        twin._events = []
        return twin

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def hand_over(self) -> bool:
        return self.phase is Phase.HAND_OVER or self.phase is Phase.MATCH_OVER

    @property
    def match_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    # ------------------------------------------------------- effect helpers

    def next_seat(self, seat: int, steps: int = 1, direction: int = 0) -> int:
        """The seat ``steps`` places after ``seat`` in the direction of play (or in
        ``direction``), among the players still in the hand."""
        seating = self.seating
        n = self.n
        pos = self.position[seat]
        direction = direction or self.direction
        while steps:
            pos = (pos + direction) % n
            if self.active[seating[pos]]:
                steps -= 1
        return seating[pos]

    def start_turn(self, seat: int) -> None:
        """Make ``seat`` the player to act, for a normal turn."""
        self.to_act = seat
        self.phase = Phase.PLAY
        self.drawn = None
        if seat == self.nagasaki_lock:
            self.nagasaki_lock = None

    def seats_in_hand(self) -> list[int]:
        """The players still in the hand (all but those out under ``to_the_last``)."""
        return [seat for seat in range(self.n) if self.active[seat]]

    def move_hands(self, moves: dict[int, int]) -> None:
        """Hands move between players: ``moves`` maps a giver to a receiver. Only the
        player of the card that moved them may owe an UNO call afterwards; ``_play``
        judges hers on the hand she ends up with."""
        old = self.hands
        new = list(old)
        for giver, receiver in moves.items():
            new[receiver] = old[giver]
        self.hands = new
        for seat in range(self.n):
            self.owes_uno[seat] = False
            self.false_uno[seat] = False
        self._events.append(HandsMoved(tuple(sorted(moves.items()))))

    def ask_color(self, seat: int) -> None:
        """Make ``seat`` name the color (a Wild turned up first); then she plays."""
        self.to_act = seat
        self.phase = Phase.COLOR
        self.color = None

    def skip(self, seat: int) -> None:
        self._events.append(Skipped(seat))

    def reverse(self) -> None:
        self.direction = -self.direction
        self._events.append(DirectionChanged(self.direction))

    def can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1

    def draw_cards(self, seat: int, count: int, reason: str) -> list[Card]:
        """``seat`` draws up to ``count`` cards, reshuffling the discard pile when the draw
        pile runs out (not before); fewer if both piles are exhausted."""
        pile = self.draw_pile
        hand = self.hands[seat]
        drawn: list[Card] = []
        # Taking every card there is to draw is no progress by itself: those cards can only
        # come back to the pile. If the player plays one of them back, that play is idle too.
        exhausting = len(pile) + len(self.discard) - 1 <= count
        for _ in range(count):
            if not pile:
                if len(self.discard) <= 1:
                    break
                self._reshuffle()
                pile = self.draw_pile
            card = pile.pop()
            hand.append(card)
            drawn.append(card)
        if exhausting:
            self.recycled[seat].extend(drawn)
        elif drawn:
            self.idle_turns = 0
        self._events.append(CardsDrawn(seat, tuple(drawn), reason))
        return drawn

    def _reshuffle(self) -> None:
        top = self.discard.pop()
        cards = self.discard
        self.rng.shuffle(cards)
        self.draw_pile = cards
        self.discard = [top]
        self._events.append(Reshuffled(len(cards)))

    def inflict(self, source: int, victim: int, count: int, card: Card) -> None:
        """The draw card ``card`` by ``source`` hits ``victim``: the penalty waits on her if
        the rules give her an answer (stacking, a challenge, a reaction card in the deck),
        else she draws and forfeits at once. Her answer is an action even when her hand
        holds nothing to answer with: drawing at once would tell the table what she lacks."""
        rules = self.rules
        kind = self.effects[card].draw_family
        self.pending_draw += count
        self.pending_kind = kind
        self.pending_challengeable = card.symbol in WILD_DRAW_FOUR_SYMBOLS
        self.pending_source = source
        if kind == "WILD":
            answerable = (
                rules.stack_draw_four
                or self.has_reactions
                or (rules.challenge and self.pending_challengeable)
            )
        elif kind == "D2":
            answerable = rules.stack_draw_two or rules.stack_cross
        else:
            answerable = rules.stack_draw_four
        if answerable:
            self.await_answer(victim)
        else:
            self.take_penalty(victim)

    def await_answer(self, victim: int) -> None:
        """The pending draw waits on ``victim``: she takes it, answers it or challenges."""
        self.to_act = victim
        self.phase = Phase.PENALTY
        self.drawn = None
        self._events.append(DrawPending(victim, self.pending_draw))

    def take_penalty(self, victim: int, extra: int = 0) -> None:
        """``victim`` draws the pending total (plus ``extra``) and forfeits her turn."""
        total = self.pending_draw + extra
        self.clear_pending()
        self.draw_cards(victim, total, "penalty")
        self.skip(victim)
        if self.active[victim]:
            self.start_turn(self.next_seat(victim))

    def clear_pending(self) -> None:
        self.pending_draw = 0
        self.pending_kind = None
        self.pending_challengeable = False

    def card_points(self, card: Card) -> int:
        """A card's value at this table (the Draw Spreader counts once per opponent)."""
        return self.rules.points(card, self.n - 1)

    def random_derangement(self, items: list[int]) -> list[int]:
        """``items`` shuffled so that none stays in its place (with two, they swap)."""
        if len(items) < 2:
            return list(items)
        while True:
            shuffled = list(items)
            self.rng.shuffle(shuffled)
            if all(a != b for a, b in zip(shuffled, items, strict=True)):
                return shuffled

    def reseat(self, seating: list[int]) -> None:
        """A new order around the table (Musical Chairs, Dance Fever): for the rest of the
        match, play and the dealer's rotation follow it."""
        self.seating = list(seating)
        for place, player in enumerate(self.seating):
            self.position[player] = place
        self._events.append(Reseated(tuple(self.seating)))

    def pass_penalty(self, holder: int) -> None:
        """Holy Defender: the whole pending draw passes to the player after its holder, who
        may answer it in turn; nobody can challenge it any more."""
        self.pending_challengeable = False
        self.await_answer(self.next_seat(holder))

    def return_penalty(self, seat: int) -> None:
        """Screwdriver: the player of the last wild draw takes the whole pending total; play
        goes on from the Screwdriver's player to the next."""
        total = self.pending_draw
        source = self.pending_source
        self.clear_pending()
        self.draw_cards(source, total, "screwdriver")
        self.start_turn(self.next_seat(seat))

    def redeal_hands(self) -> None:
        """Randomizer: the cards of every hand are pooled, shuffled and dealt back, each
        player keeping her hand size."""
        seats = self.seats_in_hand()
        pool = [card for s in seats for card in self.hands[s]]
        self.rng.shuffle(pool)
        for s in seats:
            size = len(self.hands[s])
            self.hands[s], pool = pool[:size], pool[size:]
        for s in range(self.n):
            self.owes_uno[s] = self.false_uno[s] = False
        self._events.append(HandsRedealt(tuple(seats)))

    def end_hand(self, blocked: bool = False) -> None:
        """End the hand now (an effect that leaves too few players, as a Quitter)."""
        self._end_hand(blocked)

    def leave_hand(self, seats: list[int]) -> None:
        """Players quit the hand (Quitter): their cards are set aside to score when it ends."""
        for seat in seats:
            self.set_aside[seat].extend(self.hands[seat])
            self.hands[seat].clear()
            self.active[seat] = False
            self.players_in_hand -= 1
            self.owes_uno[seat] = self.false_uno[seat] = False
        self._events.append(LeftHand(tuple(seats)))

    # ------------------------------------------------------------ legality

    def matches(self, seat: int, card: Card) -> bool:
        """Whether ``seat`` may play ``card`` on the pile as it is (color, symbol, wild),
        a card that locks its holder's hand (Kobe) permitting."""
        if self.lock_cards and card not in self.lock_cards and self._locked(seat):
            return False
        if card in self.custom_play:
            return self.effects[card].playable(self, seat, card)
        return self.plain_match(card)

    def plain_match(self, card: Card) -> bool:
        """The ordinary matching rule: the current color, the top card's symbol, or a wild."""
        color = self.color
        if color is None:  # only on a Colourless: any colored card, never a wild
            return not card.is_wild
        return card.is_wild or card.color is color or card.face == self.discard[-1].face

    def _locked(self, seat: int) -> bool:
        lock = self.lock_cards
        return any(card in lock for card in self.hands[seat])

    def is_bluff(self, seat: int, card: Card) -> bool:
        """Whether playing the Wild Draw Four ``card`` now breaks ``wd4_rule`` (a bluff):
        ``seat`` holds a card of the current color (or, under ``no_color_or_number``, a
        number card of the top card's number)."""
        if card.symbol not in WILD_DRAW_FOUR_SYMBOLS:
            return False
        color = self.color
        number = self.discard[-1].number if self.rules.wd4_rule == "no_color_or_number" else None
        for held in self.hands[seat]:
            if held.color is color and color is not None:
                return True
            if number is not None and held.number == number and not held.is_wild:
                return True
        return False

    def _honest(self, seat: int, card: Card) -> bool:
        return self.matches(seat, card) and not self.is_bluff(seat, card)

    def _has_honest_play(self, seat: int) -> bool:
        return any(self._honest(seat, card) for card in self.hands[seat])

    def _stack_answers(self, seat: int, card: Card) -> bool:
        """Whether ``card`` may answer the pending draw: a Draw Two family card on a Draw Two
        (``stack_draw_two``), a wild draw on a wild draw (``stack_draw_four``), a colored
        Draw 4 on a colored Draw 4 (``stack_draw_four``), a Wild Draw Four on a Draw Two
        (``stack_cross``), and a reaction card (Holy Defender, Screwdriver) on a wild draw."""
        if self.lock_cards and card not in self.lock_cards and self._locked(seat):
            return False
        rules = self.rules
        effect = self.effects.get(card)
        if effect is None:  # not a card of this deck
            return False
        kind = self.pending_kind
        if kind == "WILD":
            return effect.reaction or (rules.stack_draw_four and effect.draw_family == "WILD")
        if kind == "D2":
            if effect.draw_family == "D2":
                return rules.stack_draw_two
            return rules.stack_cross and card.symbol in WILD_DRAW_FOUR_SYMBOLS
        return rules.stack_draw_four and effect.draw_family == kind

    def _challengeable(self) -> bool:
        return self.pending_challengeable

    def _jump_in_open(self, seat: int) -> bool:
        """Whether ``seat`` may jump in now: the switch is on, she is not to act, and the
        player to act is at the start of a normal turn (no pending draw, no drawn card)."""
        return (
            self.rules.jump_in
            and self.phase is Phase.PLAY
            and seat != self.to_act
            and self.active[seat]
        )

    def catchable(self, seat: int) -> bool:
        """Whether ``seat`` can be caught now (a missed UNO, or a false one under
        ``false_uno_penalty``)."""
        return (self.owes_uno[seat] and len(self.hands[seat]) == 1) or self.false_uno[seat]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every meaningful action ``seat`` may take now.

        The list leaves out only accepted actions that never help or only repeat another:
        an UNO call that changes nothing (more than one card, already called), a wrong catch
        under ``bad_catch_penalty``, and Target Practice picks that only reorder a listed
        split (and past 126 splits, all but a few; docs/rules.md says which).
        """
        out: list[Action] = []
        if not 0 <= seat < self.n:
            return out
        phase = self.phase
        if phase is Phase.MATCH_OVER:
            return out
        if phase is Phase.HAND_OVER:
            out.append(DEAL)
            return out
        if not self.active[seat]:
            return out
        hand = self.hands[seat]
        uno = len(hand) == 2 and self.rules.uno_call == "manual"
        challenge_on = self.rules.challenge
        if seat == self.to_act:
            if phase is Phase.PLAY:
                honest = False
                seen: set[Card] = set()
                for card in hand:
                    if card in seen or not self.matches(seat, card):
                        continue
                    seen.add(card)
                    bluff = self.is_bluff(seat, card)
                    honest = honest or not bluff
                    if not bluff or challenge_on:
                        self._add_plays(out, seat, card, uno)
                if self.rules.voluntary_draw or not honest:
                    out.append(DRAW if self.can_draw() else PASS)
            elif phase is Phase.DRAWN:
                drawn = self.drawn
                assert drawn is not None
                bluff = self.is_bluff(seat, drawn)
                if not bluff or challenge_on:
                    self._add_plays(out, seat, drawn, uno)
                if bluff or self.rules.play_drawn != "must":
                    out.append(PASS)
            elif phase is Phase.PENALTY:
                out.append(DRAW)
                if challenge_on and self._challengeable():
                    out.append(CHALLENGE_ACTION)
                seen = set()
                for card in hand:
                    if card in seen or not self._stack_answers(seat, card):
                        continue
                    seen.add(card)
                    if challenge_on or not self.is_bluff(seat, card):
                        self._add_plays(out, seat, card, uno)
            elif phase is Phase.COLOR:
                out.extend(_COLOR_ACTIONS)
        elif self._jump_in_open(seat):
            top = self.discard[-1]
            if (
                not top.is_wild
                and top.color is not None
                and top in hand
                and self.matches(seat, top)  # Kobe may lock it
            ):
                self._add_plays(out, seat, top, uno)
        if self.owes_uno[seat] and len(hand) == 1:
            out.append(UNO)
        for other in range(self.n):
            if other != seat and self.catchable(other):
                out.append(Action.catch(other))
        return out

    def _add_plays(self, out: list[Action], seat: int, card: Card, uno: bool) -> None:
        colors: tuple[Color | None, ...] = COLORS if card.is_wild else (None,)
        for targets in self.effects[card].target_options(self, seat, card):
            for color in colors:
                out.append(Action.play(card, color, targets))
                if uno:
                    out.append(Action.play(card, color, targets, uno=True))

    def is_legal(self, seat: int, action: Action | str) -> bool:
        """Whether :meth:`apply` would accept the action."""
        return self.why_illegal(seat, action) is None

    def why_illegal(self, seat: int, action: Action | str) -> Refusal | None:
        """Why :meth:`apply` would refuse the action (a :class:`~una.engine.errors.Refusal`:
        a reason code, its arguments and the English sentence), or ``None`` if it would
        accept it.

        >>> game = Game("standard", players=3, seed=1)
        >>> refusal = game.why_illegal(1, "pass")
        >>> refusal.code, str(refusal)
        ('draw_first', 'a player must play a card or draw before passing')
        """
        if isinstance(action, str):
            action = Action.parse(action)
        return self._reason(seat, action)

    def _reason(self, seat: int, action: Action) -> Refusal | None:
        """Why ``action`` by ``seat`` is illegal now, or ``None`` if it is legal."""
        n = self.n
        if not 0 <= seat < n:
            return refuse(
                "no_seat", f"there is no seat {seat} (seats are 0-{n - 1})", seat=seat, n=n
            )
        kind = action.kind
        phase = self.phase
        if phase is Phase.MATCH_OVER:
            return refuse("match_over", "the match is over")
        if kind is Kind.ENDGAME:
            return None
        if kind is Kind.DEAL:
            return (
                None
                if phase is Phase.HAND_OVER
                else refuse("hand_in_play", "the hand is still being played")
            )
        if phase is Phase.HAND_OVER:
            return refuse("hand_over", "the hand is over: deal the next one")
        if kind is Kind.ENDHAND:
            return None  # any seat, out of the hand or not: the table's decision
        if not self.active[seat]:
            return refuse("out_of_hand", f"seat {seat} is out of this hand", seat=seat)
        if kind is Kind.UNO:
            return None
        if kind is Kind.CATCH:
            return self._catch_reason(seat, action.targets[0])
        to_act = self.to_act
        if seat != to_act:
            if kind is Kind.PLAY and self.rules.jump_in:
                return self._jump_in_reason(seat, action)
            return refuse(
                "not_your_turn",
                f"it is seat {to_act}'s turn, not seat {seat}'s",
                to_act=to_act,
                seat=seat,
            )
        if phase is Phase.COLOR:
            if kind is Kind.COLOR:
                return None
            return refuse(
                "name_color_first",
                f"seat {seat} must first name the color of the Wild turned up (color R|Y|G|B)",
                seat=seat,
            )
        if kind is Kind.COLOR:
            return refuse(
                "no_color_asked",
                "no color is asked for now (a wild names its color in its play: play W R)",
            )
        if kind is Kind.CHALLENGE:
            if phase is Phase.PENALTY and self._challengeable():
                return (
                    None
                    if self.rules.challenge
                    else refuse("challenges_off", "challenges are off in these rules")
                )
            return refuse(
                "nothing_to_challenge", f"no Wild Draw Four is pending on seat {seat}", seat=seat
            )
        if phase is Phase.PENALTY:
            if kind is Kind.DRAW:
                return None
            if kind is Kind.PASS:
                return refuse(
                    "draw_pending",
                    f"a draw of {self.pending_draw} is pending: take it (draw) or answer it",
                    n=self.pending_draw,
                )
            card = action.card
            assert card is not None
            if not self._stack_answers(seat, card):
                if self.lock_cards and card not in self.lock_cards and self._locked(seat):
                    return refuse(
                        "kobe_lock",
                        f"Kobe locks seat {seat}'s other cards until it is played",
                        seat=seat,
                    )
                return refuse(
                    "cannot_answer",
                    f"{card} cannot answer the pending draw of {self.pending_draw}",
                    card=card,
                    n=self.pending_draw,
                )
            return self._play_reason(seat, action)
        if phase is Phase.DRAWN:
            drawn = self.drawn
            assert drawn is not None
            if kind is Kind.DRAW:
                return refuse(
                    "drawn_already",
                    f"seat {seat} has drawn already: play the drawn {drawn} or pass",
                    seat=seat,
                    card=drawn,
                )
            if kind is Kind.PASS:
                if self.rules.play_drawn == "must" and self._honest(seat, drawn):
                    return refuse(
                        "must_play_drawn",
                        f"the drawn {drawn} is playable and play_drawn is 'must'",
                        card=drawn,
                    )
                return None
            card = action.card
            assert card is not None
            if card != drawn:
                return refuse(
                    "only_drawn",
                    f"after drawing, only the drawn card {drawn} may be played",
                    card=drawn,
                )
            return self._play_reason(seat, action)
        # Phase.PLAY
        if kind is Kind.DRAW:
            if not self.can_draw():
                return refuse(
                    "nothing_to_draw", "the draw pile and the discard pile are empty: pass"
                )
            if not self.rules.voluntary_draw and self._has_honest_play(seat):
                return refuse(
                    "must_play", f"seat {seat} can play a card and voluntary_draw is off", seat=seat
                )
            return None
        if kind is Kind.PASS:
            if self.can_draw():
                return refuse("draw_first", "a player must play a card or draw before passing")
            if not self.rules.voluntary_draw and self._has_honest_play(seat):
                return refuse(
                    "must_play", f"seat {seat} can play a card and voluntary_draw is off", seat=seat
                )
            return None
        return self._play_reason(seat, action)

    def _jump_in_reason(self, seat: int, action: Action) -> Refusal | None:
        card = action.card
        assert card is not None
        top = self.discard[-1]
        if self.phase is Phase.PENALTY:
            return refuse(
                "jump_in_pending",
                f"no jump-in while a draw of {self.pending_draw} is pending",
                n=self.pending_draw,
            )
        if self.phase is not Phase.PLAY:
            return refuse(
                "jump_in_deciding",
                f"no jump-in while seat {self.to_act} decides about her turn",
                to_act=self.to_act,
            )
        if card != top or card.is_wild or top.color is None:
            return refuse(
                "jump_in_card",
                f"it is seat {self.to_act}'s turn; a jump-in needs a card identical to "
                f"the top card {top}, never a wild",
                to_act=self.to_act,
                top=top,
            )
        return self._play_reason(seat, action)

    def _play_reason(self, seat: int, action: Action) -> Refusal | None:
        card = action.card
        assert card is not None
        if card not in self.hands[seat]:
            return refuse("not_held", f"seat {seat} holds no {card}", seat=seat, card=card)
        if card.is_wild:
            if action.color is None:
                return refuse(
                    "needs_color", f"{card} needs a color: play {card} R|Y|G|B", card=card
                )
        elif action.color is not None:
            return refuse("names_no_color", f"{card} names no color", card=card)
        effect = self.effects.get(card)
        if effect is None:
            return refuse(
                "not_in_deck",
                f"{card} is not part of the {self.rules.preset} deck",
                card=card,
                preset=self.rules.preset,
            )
        wrong = effect.check_targets(self, seat, card, action.targets)
        if wrong is not None:
            return refuse("bad_targets", wrong, card=card)
        if self.phase is not Phase.PENALTY and not self.matches(seat, card):
            top = self.discard[-1]
            if self.lock_cards and card not in self.lock_cards and self._locked(seat):
                return refuse(
                    "kobe_lock",
                    f"Kobe locks seat {seat}'s other cards until it is played",
                    seat=seat,
                )
            reason = effect.refusal(self, seat, card)
            if reason is not None:
                return refuse("card_rule", reason, card=card)
            if self.color is None:
                return refuse(
                    "needs_colored",
                    f"{card} cannot be played on {top}: play a colored card",
                    card=card,
                    top=top,
                )
            return refuse(
                "no_match",
                f"{card} matches neither color {self.color.value} nor symbol {top.face}",
                card=card,
                color=self.color,
                top=top,
            )
        if not self.rules.challenge and self.is_bluff(seat, card):
            return refuse(
                "bluff_refused",
                f"{card} may not be played while holding a card of color {self.color}",
                card=card,
                color=self.color,
            )
        return None

    def _catch_reason(self, seat: int, target: int) -> Refusal | None:
        if not 0 <= target < self.n:
            return refuse("no_target", f"there is no seat {target} to catch", target=target)
        if target == seat:
            return refuse("catch_self", "a player cannot catch herself")
        if self.catchable(target) or self.rules.bad_catch_penalty:
            return None
        return self._wrong_catch(target)

    def _wrong_catch(self, target: int) -> Refusal:
        count = len(self.hands[target])
        if count != 1:
            return refuse(
                "holds_more", f"seat {target} holds {count} cards", target=target, count=count
            )
        if self.called_uno[target]:
            return refuse("called_uno", f"seat {target} called UNO", target=target)
        return refuse(
            "window_closed", f"the window to catch seat {target} has closed", target=target
        )

    # --------------------------------------------------------------- apply

    def apply(self, seat: int, action: Action | str, *, trusted: bool = False) -> list[Event]:
        """Apply ``action`` by ``seat`` and return the events it caused, in order.

        An illegal action raises :class:`IllegalAction` and changes nothing. ``trusted``
        skips that check, for an action just taken from :meth:`legal_actions` (search bots
        play thousands of simulated moves per decision); applying an illegal action that
        way leaves the game in an undefined state.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if not trusted:
            reason = self._reason(seat, action)
            if reason is not None:
                raise IllegalAction(seat, action.code, reason)
        events = self._events = []
        self.log.append((seat, action.code))
        kind = action.kind
        if kind in TURN_KINDS:
            self._close_windows(seat)
        if kind is Kind.PLAY:
            self._play(seat, action)
        elif kind is Kind.DRAW:
            if self.phase is Phase.PENALTY:
                self.take_penalty(seat)
            else:
                self._draw(seat)
        elif kind is Kind.PASS:
            self._pass(seat)
        elif kind is Kind.COLOR:
            assert action.color is not None
            self.color = action.color
            events.append(ColorChosen(seat, action.color))
            self.start_turn(seat)
        elif kind is Kind.CHALLENGE:
            self._challenge(seat)
        elif kind is Kind.UNO:
            self._call_uno(seat)
        elif kind is Kind.CATCH:
            self._catch(seat, action.targets[0])
        elif kind is Kind.DEAL:
            self._deal()
        elif kind is Kind.ENDHAND:
            self._end_where_it_stands()
        else:
            self._end_match(self._leader())
        return events

    def _close_windows(self, seat: int) -> None:
        """A turn action by ``seat`` closes UNO catch windows: everybody else's under
        ``next_turn``, her own under ``own_turn``. Under ``uno_penalty=auto`` a call still
        owed when its window closes costs 2 cards (:class:`UnoMissed`, then the draw)."""
        if self.rules.uno_window == "next_turn":
            closing = [other for other in range(self.n) if other != seat]
        else:
            closing = [seat]
        auto = self.rules.uno_penalty == "auto"
        for other in closing:
            if auto and self.owes_uno[other] and len(self.hands[other]) == 1:
                # Nobody caught her, but the rules do: the same 2 cards as a catch.
                self._events.append(UnoMissed(other))
                self.draw_cards(other, 2, "catch")
            self.owes_uno[other] = False
            self.false_uno[other] = False

    def _play(self, seat: int, action: Action) -> None:
        card = action.card
        assert card is not None
        hand = self.hands[seat]
        if card.symbol in WILD_DRAW_FOUR_SYMBOLS:
            # Guilt is judged on the hand as it was when the card was played.
            self.pending_guilty = self.is_bluff(seat, card)
            self.pending_prev_color = self.color
        hand.remove(card)
        self.discard.append(card)
        self.discard_points[seat] += self.card_points(card)
        effect = self.effects[card]
        if card.is_wild:
            self.color = action.color
        elif not effect.keeps_color_now(self):
            self.color = card.color
        self.drawn = None
        recycled = card in self.recycled[seat]
        if recycled:
            # A card drawn as the last drawable one and played straight back: no progress.
            self.recycled[seat].remove(card)
            self.idle_turns += 1
        else:
            self.idle_turns = 0
        self._events.append(CardPlayed(seat, card, action.color))
        if not hand:
            self._last_card(seat, card, action)
            return
        effect.play(self, seat, card, action)
        if recycled and self.idle_turns >= self.players_in_hand and not self.hand_over:
            self._end_blocked()
            return
        # UNO is judged after the effect: a 7 or a 0 may have given her another hand.
        hand = self.hands[seat]
        if len(hand) == 1:
            if action.uno or self.rules.uno_call == "auto":
                self.called_uno[seat] = True
                self.owes_uno[seat] = False
                self._events.append(UnoCalled(seat))
            else:
                self.called_uno[seat] = False
                self.owes_uno[seat] = True
        elif action.uno:
            self._events.append(UnoCalled(seat))
            if self.rules.false_uno_penalty:
                self.false_uno[seat] = True

    def _last_card(self, seat: int, card: Card, action: Action) -> None:
        """``seat`` played her last card: its draws apply, every other effect is void."""
        effect = self.effects[card]
        self.pending_guilty = False
        if not effect.goes_out:
            effect.last_card(self, seat, card, action)
            return
        self.ranking.append(seat)
        if self.rules.finish == "to_the_last" and self.players_in_hand > 2:
            # She is out and ranked; the others play on.
            self.active[seat] = False
            self.players_in_hand -= 1
            self.owes_uno[seat] = self.false_uno[seat] = False
            self.start_turn(self.next_seat(seat))
            effect.last_card(self, seat, card, action)
            return
        effect.last_card(self, seat, card, action)
        self._end_hand(blocked=False)

    def _draw(self, seat: int) -> None:
        drawn = self.draw_cards(seat, 1, "draw")
        if self.rules.draw_until_playable:
            while drawn and not self._honest(seat, drawn[-1]) and self.can_draw():
                drawn = self.draw_cards(seat, 1, "draw")
        card = drawn[-1] if drawn else None
        if (
            card is not None
            and self.rules.play_drawn != "never"
            and self.matches(seat, card)
            and (self.rules.challenge or not self.is_bluff(seat, card))
        ):
            self.phase = Phase.DRAWN
            self.drawn = card
        else:
            # Nothing to decide: the drawn card cannot be played, so the turn passes.
            self._events.append(Passed(seat))
            self.start_turn(self.next_seat(seat))

    def _pass(self, seat: int) -> None:
        self._events.append(Passed(seat))
        if self.phase is Phase.PLAY:
            # Nothing could be drawn: an idle turn. A whole round of them blocks the hand.
            self.idle_turns += 1
            if self.idle_turns >= self.players_in_hand:
                self._end_blocked()
                return
        self.start_turn(self.next_seat(seat))

    def _challenge(self, seat: int) -> None:
        accused = self.pending_source
        shown = tuple(self.hands[accused])
        events = self._events
        events.append(HandRevealed(accused, seat, shown))
        guilty = self.pending_guilty
        events.append(Challenged(seat, accused, guilty))
        total = self.pending_draw
        self.clear_pending()
        if guilty:
            live = self.rules.challenge_reveal
            self.reveals.append((seat, accused, None if live else shown))
            self.draw_cards(accused, total, "challenge")
            if self.rules.guilty_color == "reverts":
                self.color = self.pending_prev_color
                events.append(ColorReverted(self.color))
            self.start_turn(seat)
        else:
            self.reveals.append((seat, accused, shown))
            self.draw_cards(seat, total + 2, "challenge")
            self.skip(seat)
            self.start_turn(self.next_seat(seat))

    def _call_uno(self, seat: int) -> None:
        self._events.append(UnoCalled(seat))
        if len(self.hands[seat]) == 1:
            if self.owes_uno[seat]:
                self.owes_uno[seat] = False
                self.called_uno[seat] = True
        elif self.rules.false_uno_penalty:
            self.false_uno[seat] = True

    def _catch(self, seat: int, target: int) -> None:
        if self.catchable(target):
            self.owes_uno[target] = False
            self.false_uno[target] = False
            self._events.append(UnoCaught(seat, target))
            self.draw_cards(target, 2, "catch")
        else:  # only reachable under bad_catch_penalty
            wrong = self._wrong_catch(target)
            self._events.append(CatchFailed(seat, target, wrong.text, wrong.code))
            self.draw_cards(seat, 2, "bad_catch")

    def _deal(self) -> None:
        # The next dealer sits left of the last one, whatever the direction of play was.
        dealer = self.seating[(self.position[self.dealer] + 1) % self.n]
        self._start_hand(dealer)

    # ----------------------------------------------------------- hand end

    def hand_scores(self, empty: Collection[int] = ()) -> list[int]:
        """Every player's hand score: the points of the cards she holds (set-aside cards
        included), then what the cards that change a score do (Dung, Holy Defender).
        The seats in ``empty`` (out, or the winner of a blocked hand) count as holding
        nothing, for themselves and for what the others' cards compare with."""
        value = self.card_points
        held = [
            [] if seat in empty else hand + aside
            for seat, (hand, aside) in enumerate(zip(self.hands, self.set_aside, strict=True))
        ]
        base = [sum(value(card) for card in cards) for cards in held]
        if not self.score_cards:
            return base
        scores = list(base)
        for seat, cards in enumerate(held):
            adjusting = [c for c in cards if c in self.score_cards]
            for card in sorted(adjusting, key=lambda c: self.effects[c].score_order):
                scores[seat] = self.effects[card].adjust_score(self, seat, scores[seat], base)
        return scores

    def hand_points(self, seat: int) -> int:
        """``seat``'s hand score (see :meth:`hand_scores`)."""
        return self.hand_scores()[seat]

    def _end_blocked(self) -> None:
        # The players still in, by points in hand (ties to the lowest seat): the first
        # counts as out, with an empty hand.
        scores = self.hand_scores()
        still_in = sorted(self.seats_in_hand(), key=lambda s: (scores[s], s))
        self.ranking.append(still_in[0])
        self._end_hand(blocked=True)

    def _end_where_it_stands(self) -> None:
        """``endhand``: the hand ends now, and every player still in it takes the points of
        the cards she holds (BYOND). The one holding the fewest ranks first; when only a
        winner scores (``winner_takes_all``) she counts as out, as in a blocked hand.

        >>> game = Game("byond", players=["Ann", "Bob"], seed=1)
        >>> held = game.hand_scores()
        >>> _ = game.apply(0, "endhand")
        >>> game.scores == held, game.hand_number, game.phase.value
        (True, 1, 'hand_over')
        """
        scores = self.hand_scores()
        still_in = sorted(self.seats_in_hand(), key=lambda s: (scores[s], s))
        if not self.ranking:
            self.ranking.append(still_in[0])
        keep = self.rules.scoring in ("penalty", "discards_minus_hand")
        self._end_hand(False, frozenset(still_in) if keep else frozenset(), ended=True)

    def _leader(self) -> int:
        """Who leads the match on its totals (the lowest under ``penalty``; ties to the
        first seat)."""
        scores = self.scores
        return scores.index(min(scores) if self.rules.scoring == "penalty" else max(scores))

    def _end_match(self, winner: int) -> None:
        """``endgame``: the match ends with the totals of the hands played (the current
        hand is not scored)."""
        self.to_act = None
        self.drawn = None
        self.clear_pending()
        self.phase = Phase.MATCH_OVER
        self.winner = winner
        self._events.append(MatchEnded(winner, tuple(self.scores)))

    def _end_hand(
        self, blocked: bool, held: frozenset[int] = frozenset(), ended: bool = False
    ) -> None:
        """Score the hand. ``ranking`` holds who went out, in order (under ``first_out``
        only the winner); the players still holding cards are ranked after them, by points
        in hand, so the last of the ranking is the loser. The ranked seats in ``held``
        (a hand ended where it stands) still take the points of their cards."""
        n = self.n
        winner = self.ranking[0]
        out = set(self.ranking) - held
        # Who is out holds nothing: a Dung compares with 0 for her (RULES.md section 3).
        scores_in_hand = self.hand_scores(out)
        in_hand = [0 if s in out else scores_in_hand[s] for s in range(n)]
        ranked = set(self.ranking)
        rest = sorted((s for s in range(n) if s not in ranked), key=lambda s: (in_hand[s], s))
        ranking = (*self.ranking, *rest)
        scoring = self.rules.scoring
        if scoring == "winner_takes_all":
            points = [0] * n
            points[winner] = sum(in_hand)
        elif scoring == "penalty":
            points = in_hand
        elif scoring == "discards_minus_hand":
            points = [self.discard_points[s] - in_hand[s] for s in range(n)]
        else:
            points = [0] * n
        scores = self.scores
        for s in range(n):
            scores[s] += points[s]
        self.to_act = None
        self.drawn = None
        self.clear_pending()
        self.owes_uno = [False] * n
        self.false_uno = [False] * n
        result = HandEnded(winner, blocked, tuple(points), tuple(scores), ranking, ended)
        self.hand_result = result
        self._events.append(result)
        match_winner: int | None = None
        if scoring == "none":
            match_winner = winner
        elif max(scores) >= self.rules.target:
            best = min(scores) if scoring == "penalty" else max(scores)
            match_winner = scores.index(best)
        if match_winner is None:
            self.phase = Phase.HAND_OVER
        else:
            self.phase = Phase.MATCH_OVER
            self.winner = match_winner
            self._events.append(MatchEnded(match_winner, tuple(scores)))

    # ---------------------------------------------------------------- views

    def view_for(self, seat: int | None) -> Any:
        """What ``seat`` may know (``None``: a spectator). See :mod:`una.engine.views`."""
        from una.engine.views import view_for

        return view_for(self, seat)

    def state_json(self) -> dict[str, Any]:
        """The whole state, as ``una replay --json`` prints it (NOTATION.md)."""
        over = self.hand_over
        return {
            "hand_number": self.hand_number,
            "hands": [[card.code for card in hand] for hand in self.hands],
            "top": self.discard[-1].code,
            "color": self.color.value if self.color else None,
            "direction": self.direction,
            "to_act": None if over else self.to_act,
            "pending_draw": self.pending_draw,
            "draw_pile": len(self.draw_pile),
            "scores": list(self.scores),
            "hand_over": over,
            "match_over": self.match_over,
        }

    def all_cards(self) -> list[Card]:
        """Every card at the table: piles and hands (the conservation invariant's sum)."""
        cards = list(self.draw_pile) + list(self.discard)
        for hand in self.hands:
            cards.extend(hand)
        for aside in self.set_aside:
            cards.extend(aside)
        return cards

    def to_record(self) -> Any:
        """The record of this game so far (see :mod:`una.engine.record`)."""
        from una.engine.record import record_of

        return record_of(self)

    def play_out(self, seats_actions: Iterable[tuple[int, Action | str]]) -> list[Event]:
        """Apply several actions; returns all their events."""
        events: list[Event] = []
        for seat, action in seats_actions:
            events.extend(self.apply(seat, action))
        return events

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules} players={self.n} hand={self.hand_number} "
            f"phase={self.phase.value} to_act={self.to_act} top={self.discard[-1]}>"
        )


_COLOR_ACTIONS = tuple(Action.name_color(color) for color in COLORS)
_MUTANT_SYMBOLS = frozenset(MUTANTS)


def first_card_fate(rules: RuleSet, card: Card) -> str | None:
    """What happens to ``card`` turned up to start the pile: ``None`` (it stays),
    ``"bottom"`` (under the pile) or ``"reshuffle"`` (back in, the pile shuffled).

    >>> first_card_fate(RuleSet.preset_named("standard"), Card.parse("W4"))
    'reshuffle'
    """
    where = rules.preset_data.first_card.get(card.symbol)
    if where is None and card.symbol in _MUTANT_SYMBOLS:
        where = "reshuffle"  # a mutant or special card never starts the pile
    return where


def _code(card: Card) -> str:
    return card.code
