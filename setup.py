"""The compiled capture search (engine/capture_search.c), built where a C compiler is found.

Everything else is in pyproject.toml. The extension is optional: without a compiler,
`pip install` warns and goes on, and the engine searches in Python
(engine/native_captures.py). The C file includes no Python header, so no Python
development package is needed, only the compiler.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("engine._capture_search", sources=["engine/capture_search.c"],
                             extra_compile_args=["-O2"], optional=True)])
