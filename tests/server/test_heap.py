"""The server's collector settings (una.server.app.settle_heap, issue 16's latency tail)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from una.server.app import GC_YOUNG_THRESHOLD, settle_heap


@pytest.fixture
def collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_start_up_objects_leave_the_collectors_reach(collector: None) -> None:
    before = gc.get_freeze_count()
    settle_heap()
    assert gc.get_freeze_count() > max(before, 1000)  # modules, classes, functions at least
    assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD


def test_objects_made_after_start_up_are_still_collected(collector: None) -> None:
    settle_heap()

    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: only the collector frees it
    del a, b
    assert gc.collect() >= 2
