"""``triton.backends``: targets (tritium compiles for NVIDIA GPUs and runs
everything on its CPU interpreter)."""

from . import compiler  # noqa: F401
