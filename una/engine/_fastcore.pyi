"""Types of the C core (una/engine/_fastcore.c); use it through :mod:`una.engine.fast`."""

from collections.abc import Sequence

from una.engine.cards import Card

def random_playouts(
    players: int, games: int, seed: int, /
) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]: ...
def trace_hand(players: int, game_seed: int, policy_seed: int, /) -> list[str]: ...
def set_cards(cards: tuple[Card, ...], /) -> None: ...
def playout_from(
    hands: Sequence[Sequence[Card]],
    draw_pile: Sequence[Card],
    discard: Sequence[Card],
    color: int,
    direction: int,
    to_act: int,
    phase: int,
    drawn: Card | None,
    pending_draw: int,
    owes_uno: Sequence[bool],
    idle_turns: int,
    recycled: Sequence[Sequence[Card]],
    game_rng: int,
    policy_seed: int,
    /,
) -> tuple[int, int, int]: ...
def playouts_from(
    hands: Sequence[Sequence[Card]],
    draw_pile: Sequence[Card],
    discard: Sequence[Card],
    color: int,
    direction: int,
    to_act: int,
    phase: int,
    drawn: Card | None,
    pending_draw: int,
    owes_uno: Sequence[bool],
    idle_turns: int,
    recycled: Sequence[Sequence[Card]],
    game_rng: int,
    policy_seed: int,
    policy: int,
    repeats: int,
    limit: int,
    shuffle_pile: bool,
    /,
) -> tuple[int, ...]: ...
