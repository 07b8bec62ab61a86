"""Builds the optional C core of the engine (una/engine/_fastcore.c); everything else is in
pyproject.toml. ``optional=True``: without a C compiler the install still succeeds and the
pure-Python engine does all the work (una.engine.fast falls back to it)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "una.engine._fastcore",
            ["una/engine/_fastcore.c"],
            extra_compile_args=["-O2"],
            libraries=["m"],
            optional=True,
        )
    ]
)
