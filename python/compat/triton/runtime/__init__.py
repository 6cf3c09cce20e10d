"""``triton.runtime``: launching, drivers, errors, autotuning and the
cache, backed by tritium."""

from tritium import (Autotuner, Config, Heuristics, InterpreterError,
                     JITFunction, KernelInterface, OutOfResources, autotune,
                     heuristics)

from . import _allocation, autotuner, cache, errors, jit  # noqa: F401
from .driver import driver

__all__ = ["Autotuner", "Config", "Heuristics", "InterpreterError",
           "JITFunction", "KernelInterface", "OutOfResources", "autotune",
           "driver", "heuristics"]
