"""The engine's own random generator: SplitMix64.

The engine never touches the global :mod:`random` state. Its generator is tiny (one integer of
state, so copying a game for search costs nothing) and its output is fixed by this file alone,
so a record replays card for card on any Python version.

>>> Rng(1234567).next64()  # the reference implementation's first output for this seed
6457827717110365317
>>> rng = Rng(7)
>>> [rng.below(10) for _ in range(5)]
[3, 0, 9, 5, 4]
>>> items = list(range(6)); Rng(1).shuffle(items); items
[2, 0, 1, 4, 5, 3]
"""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64 (Steele, Lea, Flood 2014): fast, well mixed, and its state is one integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (multiply-shift; the bias is below 2**-40 here)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, not {n}")
        return (self.next64() * n) >> 64

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> Rng:
        twin = Rng()
        twin.state = self.state
        return twin

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"
