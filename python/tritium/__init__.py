"""tritium: Triton kernels compiled by a C++ frontend and run on the CPU
interpreter or an NVIDIA GPU, launched from Python as in Triton
(``kernel[grid](...)``).

The Triton-compatible package ``python/compat/triton`` re-exports this one,
so unmodified Triton scripts run with ``PYTHONPATH=python:python/compat``.
CPU arrays and tensors run on the interpreter, CUDA tensors on the GPU;
``TRITIUM_INTERPRET=1`` (or ``TRITON_INTERPRET=1``) runs CUDA tensors on the
interpreter too (copied to the host and back).
"""

from . import language
from ._args import uninitialized
from .autotuner import Autotuner, Config, autotune
from .errors import (CompilationError, InterpreterError, OutOfResources,
                     TritonError, UnknownArgumentError)
from .heuristics import Heuristics, heuristics
from .jit import JITFunction, KernelInterface, jit
from .language.core import constexpr
from . import testing  # noqa: E402 - after the names it uses
from . import _source

# Kernels written by exec() from strings keep their text from now on.
_source.install_hook()

__version__ = "0.1.0"


def _value(v):
    return v.value if isinstance(v, constexpr) else v


def cdiv(x, y):
    """Ceiling division: ``(x + y - 1) // y``."""
    return (_value(x) + _value(y) - 1) // _value(y)


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(_value(n))
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


__all__ = ["Autotuner", "CompilationError", "Config", "Heuristics",
           "InterpreterError", "JITFunction", "KernelInterface",
           "OutOfResources", "TritonError", "UnknownArgumentError",
           "autotune", "cdiv", "constexpr", "heuristics", "jit", "language",
           "next_power_of_2", "testing", "uninitialized"]
