"""Compiling several specializations of a kernel at once: autotuning's
configs before they are benchmarked.

The tile IR of each is made in turn; then their GPU code generation (LLVM,
PTX, ptxas) runs on one thread per core in the library
(``tritium_kernels_warmup``), and the benchmark's launches find them
compiled. ``TRITIUM_COMPILE_THREADS`` caps the threads (0 or unset: one per
core; 1: one at a time).
"""

import ctypes
import os

from . import _capi
from ._args import _launch_state
from .heuristics import Heuristics
from .jit import JITFunction


def compile_threads():
    """The threads tritium_kernels_warmup may use (0: one per core)."""
    text = os.environ.get("TRITIUM_COMPILE_THREADS", "").strip()
    if not text:
        return 0
    try:
        n = int(text)
    except ValueError:
        raise ValueError("TRITIUM_COMPILE_THREADS must be a number of threads "
                         "(0: one per core), got %r" % text) from None
    if n < 0:
        raise ValueError("TRITIUM_COMPILE_THREADS must be 0 or more, got %d" % n)
    return n


def _job(fn, args, kwargs):
    """(kernel, packed arguments, their count, options) for launching `fn`
    (a JITFunction, possibly under heuristics) with `args` and `kwargs`, or
    None when that cannot be known without launching it."""
    while isinstance(fn, Heuristics):
        kwargs = fn._apply(args, dict(kwargs))
        fn = fn.fn
    if not isinstance(fn, JITFunction):
        return None
    kwargs = {k: v for k, v in kwargs.items() if k not in ("grid", "warmup")}
    bound, options = fn.bind(args, kwargs)
    kernel = fn.compile(bound, options["debug"])
    state = _launch_state
    state.reset()
    try:
        array, nargs = fn._args(bound)
        if state.copies:
            return None  # GPU tensors and no usable GPU
        opts = fn._options(options)
        if state.use_gpu():
            opts.device = state.launch_device()
        return kernel, array, nargs, opts
    finally:
        state.reset()


def compile_all(fn, calls):
    """Compiles the specialization each ``(args, kwargs)`` of `calls` selects
    of `fn`, those for the GPU in parallel. A call that fails here is left
    alone (its launch raises the same error later). Returns how many
    compiled."""
    jobs = []
    for args, kwargs in calls:
        try:
            job = _job(fn, args, kwargs)
        except Exception:  # reported by the launch, as before
            job = None
        if job is not None:
            jobs.append(job)
    if not jobs:
        return 0
    records = (_capi.WarmupJob * len(jobs))()
    for record, (kernel, array, nargs, opts) in zip(records, jobs):
        record.kernel = kernel.handle
        record.args = ctypes.cast(array, ctypes.POINTER(_capi.Arg))
        record.nargs = nargs
        record.options = ctypes.cast(ctypes.pointer(opts), ctypes.c_void_p)
    lib = _capi.lib()
    threads = compile_threads()
    with _capi.lock:
        lib.tritium_kernels_warmup(records, len(jobs), threads)
    return sum(1 for record in records if record.status == 0)
