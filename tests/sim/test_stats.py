"""The Wilson interval."""

from __future__ import annotations

import pytest

from una.sim.stats import wilson


def test_wilson() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.25 < high < 0.35
    low, high = wilson(10, 10)
    assert high == 1.0 and 0.65 < low < 0.75
    low, high = wilson(700, 1000)
    assert low == pytest.approx(0.6709, abs=1e-3) and high == pytest.approx(0.7275, abs=1e-3)
