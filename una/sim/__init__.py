"""Simulations on top of the engine and the bots: the driver, ``una sim``, ``una bench``
and the soak test."""
