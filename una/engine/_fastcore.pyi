"""Types of the C core (una/engine/_fastcore.c); use it through :mod:`una.engine.fast`."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from una.engine.cards import Card

#: Every switch the core knows, with the values it plays ("any": every value).
SWITCHES: dict[str, list[Any] | str]
#: The card effects (keys of una.engine.effects.EFFECTS) the core plays.
EFFECTS: tuple[str, ...]
#: The una.engine.state fields its loader reads, in order.
STATE_FIELDS: tuple[str, ...]
#: The fields it does not hold (never changing play, or refused unless empty).
STATE_UNHELD: tuple[str, ...]

def set_cards(cards: tuple[Card, ...], /) -> None: ...
def compile_rules(
    switches: Mapping[str, Any],
    cards: Mapping[int, Mapping[str, Any]],
    deck: Sequence[int],
    hand_size: int,
    players: int,
    /,
) -> bytes: ...
def random_playouts(
    rules: bytes, games: int, seed: int, /
) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]: ...
def trace(
    rules: bytes,
    names: Sequence[str] | None,
    values: Sequence[Any],
    policy_seed: int,
    hands: int,
    with_states: bool,
    /,
) -> list[tuple[int, list[str], str, dict[str, Any] | None]]: ...
def playout_from(
    rules: bytes, names: Sequence[str], values: Sequence[Any], policy_seed: int, /
) -> tuple[int, int, int]: ...
def playouts_from(
    rules: bytes,
    names: Sequence[str],
    values: Sequence[Any],
    policy_seed: int,
    policy: int,
    repeats: int,
    limit: int,
    shuffle_pile: bool,
    /,
) -> tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...]]: ...
def playouts_after(
    rules: bytes,
    names: Sequence[str],
    values: Sequence[Any],
    seat: int,
    codes: list[str],
    policy_seed: int,
    policy: int,
    repeats: int,
    limit: int,
    shuffle_pile: bool,
    /,
) -> list[tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...]]]: ...
def sim_games(
    rules: bytes,
    games: Sequence[tuple[int, int, Sequence[int]]],
    matches: bool,
    limit: int,
    /,
) -> list[tuple[int, tuple[int, ...], tuple[int, ...], int, int]]: ...
def mt_randrange(seed: int, n: int, count: int, /) -> list[int]: ...
def rng_shuffle(getrandbits: Callable[[int], int], items: list[Any], /) -> None: ...
def rng_sample(getrandbits: Callable[[int], int], n: int, k: int, /) -> list[int]: ...
def choice_test(
    held: int,
    count: list[int],
    value: list[int],
    mine: tuple[int, int, int, float],
    fixed: list[Card],
    terms: dict[Card, tuple[int, int, int, float]],
    points: list[int],
    colors: list[int],
    /,
) -> bytes: ...
def choice_passes(test: bytes, cards: Sequence[Card], /) -> bool: ...
def deal_checked(
    getrandbits: Callable[[int], int],
    unseen: list[Card],
    tiers: list[tuple[frozenset[Card], int]],
    need: int,
    tries: int,
    tests: list[bytes],
    /,
) -> tuple[list[Card], list[Card]]: ...

class Table:
    """The environment's table (una.env.core.CoreTable); see una.engine.fast.env_table."""

    selected: int
    offering: bool
    done: bool
    truncated: bool
    steps: int
    def __init__(
        self,
        rules: bytes,
        slots: Sequence[tuple[str, int, int, int, int, bool]],
        fields: Mapping[str, tuple[int, int]],
        cards: Sequence[int],
        phases: tuple[str, ...],
        obs: Any,
        mask: Any,
        max_steps: int,
        match: bool,
        /,
    ) -> None: ...
    def reset(self, seed: int, dealer: int, /) -> None: ...
    def step(self, slot: int, /) -> int: ...
    def observe(self, seat: int, /) -> None: ...
    def result(self) -> tuple[int, list[int], int, list[int]]: ...
    def history(self, start: int, /) -> list[tuple[int, int]]: ...
