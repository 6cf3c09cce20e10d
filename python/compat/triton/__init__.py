"""A ``triton`` package that is tritium: with ``python/compat`` (and
``python``) on PYTHONPATH, ``import triton`` and ``import triton.language as
tl`` resolve to tritium, so unmodified Triton scripts run on tritium (on
the GPU for CUDA tensors, on the CPU interpreter otherwise).

Triton's module layout is kept: ``triton.runtime`` (``driver.active``,
``errors``, ``jit``, ``autotuner``, ``cache``), ``triton.knobs``,
``triton.backends.compiler.GPUTarget``, ``triton.testing``,
``triton._internal_testing`` (the helpers Triton's test suite imports) and
``triton.language`` with its submodules."""

import functools
import sys

import tritium
import tritium.language
import tritium.language.extra
import tritium.language.extra.cuda
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
                       ("language.extra.cuda", tritium.language.extra.cuda),
                       ("language.extra.cuda.libdevice",
                        tritium.language.extra.libdevice),
                       ("testing", tritium.testing)):
    sys.modules[__name__ + "." + _name] = _module

from . import backends, compiler, knobs, runtime, tools  # noqa: E402
from .backends.compiler import GPUTarget  # noqa: E402,F401
from .compiler import ASTSource, compile  # noqa: E402,F401
from .runtime._allocation import set_allocator  # noqa: E402
from .runtime.jit import MockTensor, TensorWrapper, reinterpret  # noqa: E402


def constexpr_function(fn):
    """Marks a Python function that kernels may call with compile-time
    values (host code may call it as usual)."""
    fn.__triton_constexpr_function__ = True
    return fn


def must_use_result(x, s=True):
    """Marks a function whose result must be used (a no-op on the host);
    ``@must_use_result`` or ``@must_use_result("reason")``."""
    if isinstance(x, str):
        return functools.partial(must_use_result, s=x)
    x._must_use_result = s
    return x


__all__ = ["Autotuner", "CompilationError", "Config", "GPUTarget",
           "Heuristics", "InterpreterError", "JITFunction", "KernelInterface",
           "MockTensor", "OutOfResources", "TensorWrapper", "TritonError",
           "autotune", "cdiv", "constexpr", "constexpr_function",
           "heuristics", "jit", "knobs", "language", "must_use_result",
           "next_power_of_2", "reinterpret", "runtime", "set_allocator",
           "testing", "tools"]
