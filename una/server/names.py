"""Names that look alike: two people at one table may not look the same.

A name's *look* is its Unicode TR39 confusable skeleton, computed by ICU's spoof checker
(PyICU) after NFKC normalization, once with case folded and once as written (case folding
turns a capital I into i, which no longer matches the l it looks like in most fonts).
Two names look alike when they share a look.

>>> looks_alike("VictimA", "Victim\\u0410")  # a Cyrillic capital A
True
>>> looks_alike("VictimA", "victima")
True
>>> looks_alike("Ann", "Anna")
False
>>> looks_alike("Iris", "lris")  # capital i and small L
True
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import icu  # type: ignore[import-untyped]

# One checker for the process: getSkeleton only reads ICU's confusables data.
_CHECKER = icu.SpoofChecker()


@lru_cache(maxsize=4096)
def looks(name: str) -> frozenset[str]:
    """The skeletons of ``name``: folded and as written, after NFKC and with spaces
    collapsed.

    >>> sorted(looks("Рaypal"))  # a Cyrillic capital Er
    ['Paypal', 'paypal']
    """
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    return frozenset(str(_CHECKER.getSkeleton(0, variant)) for variant in (text, text.casefold()))


def looks_alike(first: str, second: str) -> bool:
    """Whether the two names share a skeleton (the same name does)."""
    return not looks(first).isdisjoint(looks(second))
