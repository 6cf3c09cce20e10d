"""A ``triton`` package that is tritium: with ``python/compat`` (and
``python``) on PYTHONPATH, ``import triton`` and ``import triton.language as
tl`` resolve to tritium, so unmodified Triton scripts run on tritium's CPU
interpreter."""

import sys

import tritium
import tritium.language
import tritium.language.extra
import tritium.language.extra.libdevice
import tritium.language.math
import tritium.testing
from tritium import (Autotuner, CompilationError, Config, Heuristics,
                     InterpreterError, JITFunction, KernelInterface,
                     OutOfResources, TritonError, autotune, cdiv, constexpr,
                     heuristics, jit, language, next_power_of_2, testing)

__version__ = tritium.__version__

# triton.language and its submodules are tritium's modules themselves, so
# `tl.constexpr` annotations and dtypes are the objects tritium checks.
for _name, _module in (("language", tritium.language),
                       ("language.core", tritium.language.core),
                       ("language.math", tritium.language.math),
                       ("language.extra", tritium.language.extra),
                       ("language.extra.libdevice",
                        tritium.language.extra.libdevice),
                       ("testing", tritium.testing)):
    sys.modules[__name__ + "." + _name] = _module

__all__ = ["Autotuner", "CompilationError", "Config", "Heuristics",
           "InterpreterError", "JITFunction", "KernelInterface",
           "OutOfResources", "TritonError", "autotune", "cdiv", "constexpr",
           "heuristics", "jit", "language", "next_power_of_2", "testing"]
