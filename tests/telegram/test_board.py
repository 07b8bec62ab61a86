"""The chat budget: never more calls in a window than allowed, bursts included."""

from __future__ import annotations

import asyncio
import time

from una.telegram.board import Bucket


def test_a_bucket_never_lets_more_than_its_limit_through_in_a_window() -> None:
    async def run() -> list[float]:
        # A token bucket alone would let per_minute + burst through in a window.
        bucket = Bucket(per_minute=5, burst=5, window=0.4)
        stamps = []
        for _ in range(13):
            await bucket.take()
            stamps.append(time.monotonic())
        return stamps

    stamps = asyncio.run(run())
    for i, start in enumerate(stamps):
        within = [s for s in stamps[i:] if s - start < 0.4 - 0.01]
        assert len(within) <= 5


def test_a_refund_gives_the_call_back() -> None:
    async def run() -> bool:
        bucket = Bucket(per_minute=1, burst=1, window=60.0)
        await bucket.take()
        assert not bucket.free()
        bucket.refund()
        return bucket.free()

    assert asyncio.run(run())
