"""Names that look alike (una/server/names.py): NFKC, case folding, TR39 skeletons."""

from __future__ import annotations

import pytest

from una.server.names import looks_alike


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("VictimA", "Victim\u0410"),  # Cyrillic capital A
        ("VictimA", "victima"),  # case
        ("VictimA", "\u2164ictim\uff21"),  # Roman numeral five, fullwidth A (NFKC)
        ("paypal", "\u0440\u0430\u0443\u0440\u0430l"),  # Cyrillic r, a, u
        ("Iris", "lris"),  # capital i and small L
        ("Ann  Lee", "Ann Lee"),  # spaces
        ("Ann", "Ann"),
    ],
)
def test_look_alikes(first: str, second: str) -> None:
    assert looks_alike(first, second)
    assert looks_alike(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [("Ann", "Anna"), ("Лена", "Лина"), ("Bob", "Rob"), ("Victim A", "VictimA"), ("Zoë", "Zoé")],
)
def test_different_names(first: str, second: str) -> None:
    assert not looks_alike(first, second)
