"""The 22 mutant cards of Una for BYOND (RULES.md section 6), one unit per card family."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from una.engine.effects import NO_TARGETS, Effect, OneOtherPlayer, check_one_other, register
from una.engine.effects.classic import DrawCard

if TYPE_CHECKING:
    from una.engine.actions import Action
    from una.engine.cards import Card
    from una.engine.game import Game

# ------------------------------------------------------------ colored mutants


@register("SP")
class DrawSpreader(Effect):
    """Every other player draws 2, in play order from the next; its player plays again.
    As a last card the others still draw."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        self._spread(game, seat)
        game.start_turn(seat)

    def last_card(self, game: Game, seat: int, card: Card, action: Action) -> None:
        self._spread(game, seat)

    def _spread(self, game: Game, seat: int) -> None:
        # In play order from the next player; she may have left already (her last card
        # under to_the_last), so stop when the round comes back to the first victim.
        victims: list[int] = []
        other = game.next_seat(seat)
        while other != seat and other not in victims:
            victims.append(other)
            other = game.next_seat(other)
        for victim in victims:
            game.draw_cards(victim, 2, "penalty")


class Reversing(DrawCard):
    """Reverse first, then hit the next player in the new direction (as a last card: the
    previous player, nothing reversed)."""

    def aim(self, game: Game, seat: int) -> int:
        game.reverse()
        return game.next_seat(seat)

    def last_victim(self, game: Game, seat: int) -> int:
        return game.next_seat(seat, direction=-game.direction)


@register("RD2")
class ReverseDrawTwo(Reversing):
    """Reverse, then the next player in the new direction draws 2 and forfeits her turn."""

    count = 2
    draw_family = "D2"


class Delayed(DrawCard):
    """Skip the next player; the one after her is hit. With two players it hits the
    opponent, and the player plays again."""

    def aim(self, game: Game, seat: int) -> int:
        victim = game.next_seat(seat)
        if game.players_in_hand > 2:
            game.skip(victim)
            victim = game.next_seat(victim)
        return victim

    def last_victim(self, game: Game, seat: int) -> int:
        return game.next_seat(seat, 2 if game.players_in_hand > 2 else 1)


@register("DB2")
class DelayedBlastDrawTwo(Delayed):
    """Skips the next player; the following player draws 2 and forfeits her turn."""

    count = 2
    draw_family = "D2"


@register("RR")
class ReverseReverse(Effect):
    """Reverses twice: no effect beyond being a legal play."""


@register("RS")
class ReverseSkip(Effect):
    """Reverse, then skip the next player in the new direction."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        game.reverse()
        victim = game.next_seat(seat)
        game.skip(victim)
        game.start_turn(game.next_seat(victim))


@register("SS")
class DoubleSkip(Effect):
    """Skip the next two players (with two players: a plain Skip)."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        victim = game.next_seat(seat)
        game.skip(victim)
        if game.players_in_hand > 2:
            victim = game.next_seat(victim)
            game.skip(victim)
        game.start_turn(game.next_seat(victim))


# --------------------------------------------------------------- wild mutants


@register("WDD")
class DrawDoubleWild(DrawCard):
    """A wild that doubles the pending wild draw; on no pending draw it is a plain Wild."""

    draw_family = "WILD"

    def amount(self, game: Game, seat: int, card: Card) -> int:
        return game.pending_draw  # added to itself: doubled

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        if game.pending_draw == 0:
            game.start_turn(game.next_seat(seat))
        else:
            super().play(game, seat, card, action)


@register("WR4")
class ReverseDrawFourWild(Reversing):
    """Reverse, then as a Wild Draw Four (the next player in the new direction is hit)."""

    count = 4
    draw_family = "WILD"


@register("WB4")
class DelayedBlastDrawFourWild(Delayed):
    """As a Wild Draw Four, but it skips the next player first: the following one draws."""

    count = 4
    draw_family = "WILD"


@register("WMY")
class MysteryWild(DrawCard):
    """As a Wild Draw Four, but the count is the number on the previous top card (a
    parent-number special counts as its parent's number; no number: 4). A 0 makes it a
    plain Wild, or on a pending stack it adds nothing and passes the stack on."""

    draw_family = "WILD"

    def amount(self, game: Game, seat: int, card: Card) -> int:
        previous = game.discard[-2].number if len(game.discard) > 1 else None
        return 4 if previous is None else previous

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        if self.amount(game, seat, card) == 0 and game.pending_draw == 0:
            game.start_turn(game.next_seat(seat))
        else:
            super().play(game, seat, card, action)


#: Above this many ways to split Target Practice's draws, legal_actions lists a few.
MAX_LISTED_SPLITS = 126


@register("WTP")
class TargetPracticeWild(Effect):
    """A wild whose player picks, card by card, who draws each of 4 cards (4 plus the
    pending total when played on a stack: ``play WTP G @1 @2 @1 @2``). The draws happen at
    once and end any stacking; nobody forfeits a turn, and play goes on to the next player.
    It cannot be challenged, stacked on or reacted to."""

    draw_family = "WILD"

    def count(self, game: Game) -> int:
        return 4 + game.pending_draw

    def target_options(self, game: Game, seat: int, card: Card) -> Sequence[tuple[int, ...]]:
        others = [s for s in game.seats_in_hand() if s != seat]
        if not others:
            return NO_TARGETS
        count = self.count(game)
        # The picker does not know which card each pick draws, so only how many each
        # player draws matters: list the splits (sorted picks). Past a size, list each
        # player taking all and an even split; apply() accepts any picks.
        splits: list[tuple[int, ...]] = []
        for split in combinations_with_replacement(others, count):
            splits.append(split)
            if len(splits) > MAX_LISTED_SPLITS:
                even = tuple(others[i % len(others)] for i in range(count))
                return [*(tuple([o] * count) for o in others), tuple(sorted(even))]
        return splits

    def check_targets(
        self, game: Game, seat: int, card: Card, targets: tuple[int, ...]
    ) -> str | None:
        count = self.count(game)
        if len(targets) != count:
            return f"{card} picks who draws each of its {count} cards: {count} @seats"
        for target in targets:
            if target == seat:
                return f"{card} never picks its own player"
            if not 0 <= target < game.n or not game.active[target]:
                return f"seat {target} is not in this hand"
        return None

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        self._fire(game, action)
        game.start_turn(game.next_seat(seat))

    def last_card(self, game: Game, seat: int, card: Card, action: Action) -> None:
        self._fire(game, action)

    def _fire(self, game: Game, action: Action) -> None:
        game.clear_pending()
        for target in action.targets:
            game.draw_cards(target, 1, "target_practice")


# -------------------------------------------------------------- special cards


class Reaction(Effect):
    """A special with a colored-number parent that can also answer a pending wild draw
    aimed at its holder. Played as an ordinary card it only matches like its parent."""

    reaction = True

    def keeps_color_now(self, game: Game) -> bool:
        # A reaction (a draw is pending) does not change the current color.
        return game.pending_draw > 0


@register("HOLY")
class HolyDefender(Reaction):
    """As a reaction the whole pending wild draw passes to the next player after its
    holder, who may answer it in turn. Held at the end, it halves its holder's hand score."""

    score_order = 2

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        if game.pending_draw:
            game.pass_penalty(seat)
        else:
            game.start_turn(game.next_seat(seat))

    def adjust_score(self, game: Game, seat: int, score: int, base: list[int]) -> int:
        return score // 2


@register("SCREW")
class Screwdriver(Reaction):
    """As a reaction the player of the last wild draw takes the whole pending total."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        if game.pending_draw:
            game.return_penalty(seat)
        else:
            game.start_turn(game.next_seat(seat))


@register("QUIT")
class Quitter(OneOtherPlayer):
    """Its player and the player she picks leave the hand at once; their cards are set
    aside and score when the hand ends. One player left: she wins the hand. None left: a
    blocked hand between the two who quit."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        pair = [seat, action.targets[0]]
        game.leave_hand(pair)
        left = game.seats_in_hand()
        if len(left) >= 2:
            game.start_turn(game.next_seat(seat))
            return
        if len(left) == 1:
            if not game.ranking:
                game.ranking.append(left[0])
            game.end_hand()
            return
        scores = game.hand_scores()
        game.ranking.append(min(pair, key=lambda s: (scores[s], s)))
        game.end_hand(blocked=True)


@register("KOBE")
class Kobe(Effect):
    """While held, its holder may play no other card (answers and reactions included)
    until Kobe is played, on a yellow or an 8."""

    locks_hand = True


class HandMover(Effect):
    """A special played on anything, naming a color, that moves hands or seats."""


@register("BLEND")
class Blender(HandMover):
    """The hands are redistributed at random: each player gets someone else's whole hand."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        seats = game.seats_in_hand()
        receivers = game.random_derangement(seats)
        game.move_hands(dict(zip(seats, receivers, strict=True)))
        game.start_turn(game.next_seat(seat))


@register("RAND")
class Randomizer(HandMover):
    """All cards in hands are pooled, shuffled and dealt back; hand sizes stay."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        game.redeal_hands()
        game.start_turn(game.next_seat(seat))


@register("TRADE")
class TraderJoe(OneOtherPlayer):
    """Its player swaps hands with the player she picks."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        target = action.targets[0]
        game.move_hands({seat: target, target: seat})
        game.start_turn(game.next_seat(seat))


@register("CHAIRS")
class MusicalChairs(HandMover):
    """Every player gets a new place at the table (a random derangement); play goes on with
    the next player after the card's player in the new order, for the rest of the match."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        places = list(range(game.n))
        new_places = game.random_derangement(places)
        seating = [0] * game.n
        for old, new in zip(places, new_places, strict=True):
            seating[new] = game.seating[old]
        game.reseat(seating)
        game.start_turn(game.next_seat(seat))


@register("DANCE")
class DanceFever(HandMover):
    """Its player swaps places with a player she picks (``@seat``), or dances alone."""

    def target_options(self, game: Game, seat: int, card: Card) -> Sequence[tuple[int, ...]]:
        return [(), *((s,) for s in game.seats_in_hand() if s != seat)]

    def check_targets(
        self, game: Game, seat: int, card: Card, targets: tuple[int, ...]
    ) -> str | None:
        return check_one_other(game, seat, card, targets) if targets else None

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        if action.targets:
            partner = action.targets[0]
            seating = list(game.seating)
            a, b = game.position[seat], game.position[partner]
            seating[a], seating[b] = seating[b], seating[a]
            game.reseat(seating)
        game.start_turn(game.next_seat(seat))


@register("SPY")
class Spy(OneOtherPlayer):
    """Its player and the player she picks see each other's hand for the rest of the hand."""

    def play(self, game: Game, seat: int, card: Card, action: Action) -> None:
        target = action.targets[0]
        game.reveals.append((seat, target, None))
        game.reveals.append((target, seat, None))
        game.start_turn(game.next_seat(seat))


@register("DUNG")
class Dung(HandMover):
    """May only be played as its player's last card. Held at the end of the hand, its
    holder's hand score is at least the highest hand score of any other player."""

    score_order = 1

    def playable(self, game: Game, seat: int, card: Card) -> bool:
        return len(game.hands[seat]) == 1 and super().playable(game, seat, card)

    def refusal(self, game: Game, seat: int, card: Card) -> str | None:
        if len(game.hands[seat]) != 1:
            return "Dung may only be played as its player's last card"
        return None

    def adjust_score(self, game: Game, seat: int, score: int, base: list[int]) -> int:
        others = [points for other, points in enumerate(base) if other != seat]
        return max([score, *others])
