"""Launch overhead from Python: a cached launch of a tiny kernel.

Prints, in microseconds per launch (median over repeated batches):
  total   ``kernel[(1,)](x, y, n, BLOCK=16)`` from Python, end to end (and
          with the ``kernel[(1,)]`` launcher made once, outside the loop);
  capi    the same launch as one direct ``tritium_kernel_launch`` ctypes
          call with prebuilt arguments (the C++ side plus ctypes);
  python  total - capi: what the Python launcher adds.

Run: ``PYTHONPATH=python:python/compat python3 bench/python_launch.py``
(``--number``, ``--repeat`` size the measurement).
"""

import argparse
import ctypes
import statistics
import sys
import time

import numpy as np

import triton
import triton.language as tl
from tritium import _capi


@triton.jit
def tiny_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def per_launch_us(fn, number, repeat):
    """Median over `repeat` batches of `number` calls, in µs per call."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(samples)


def main(number=2000, repeat=15):
    x = np.arange(16, dtype=np.float32)
    y = np.empty_like(x)
    launcher = tiny_kernel[(1,)]
    launcher(x, y, 16, BLOCK=16)  # compile and specialize once
    assert np.array_equal(x, y)

    total = per_launch_us(lambda: tiny_kernel[(1,)](x, y, 16, BLOCK=16),
                          number, repeat)
    bound = per_launch_us(lambda: launcher(x, y, 16, BLOCK=16), number,
                          repeat)

    # The same launch straight through the C API: no binding, no argument
    # conversion, one ctypes call.
    lib = _capi.lib()
    handle = next(iter(tiny_kernel._kernels.values())).handle
    args = (_capi.Arg * 3)()
    for arg, arr in zip(args, (x, y)):
        arg.kind = _capi.ARG_BUFFER
        arg.value.buffer.data = arr.ctypes.data
        arg.value.buffer.bytes = arr.nbytes
        arg.value.buffer.dtype = _capi.F32
    args[2].kind = _capi.ARG_INT
    args[2].value.i = 16
    grid = (ctypes.c_int64 * 3)(1, 1, 1)
    opts = _capi.LaunchOptions(4, 3, 1, 0, 0, 0)
    launch = lib.tritium_kernel_launch
    opts_ref = ctypes.byref(opts)
    capi = per_launch_us(lambda: launch(handle, grid, args, 3, opts_ref),
                         number, repeat)

    print("tiny kernel, grid (1,), 4 args, cached launch (median of %d "
          "batches of %d):" % (repeat, number))
    rows = [("total", "kernel[(1,)](...)", total),
            ("total", "launcher(...), launcher = kernel[(1,)]", bound),
            ("capi", "tritium_kernel_launch, prebuilt args", capi),
            ("python", "kernel[(1,)](...) - capi", total - capi),
            ("python", "launcher(...) - capi", bound - capi)]
    for kind, what, us in rows:
        print("  %-7s %-42s %7.2f us/launch" % (kind, what, us))
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=2000,
                        help="launches per batch")
    parser.add_argument("--repeat", type=int, default=15,
                        help="batches (the median is reported)")
    options = parser.parse_args()
    sys.exit(main(options.number, options.repeat))
